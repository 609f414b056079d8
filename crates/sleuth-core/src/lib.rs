//! Sleuth's reasoning core for Clue (Cluedo): the game model, knowledge as
//! at-least constraints, complete deduction, exact counting of consistent
//! deals, and explanations.
//!
//! ```
//! use sleuth_core::{Analysis, Game, Place, Status};
//!
//! let game = Game::from_json(r#"{
//!   "version": 1, "deck": "classic", "players": ["sc", "mu", "wh", "gr", "pe", "pl"],
//!   "me": "sc", "hand": ["wh", "li", "st"],
//!   "events": [
//!     {"suggestion": {"by": "sc", "cards": ["sc", "ro", "lo"], "refuted_by": "mu", "shown": "sc"}},
//!     {"suggestion": {"by": "pl", "cards": ["pe", "pi", "ba"], "refuted_by": null}}
//!   ]}"#)?;
//! let analysis = Analysis::new(&game)?;
//! let scarlet = game.deck().card("sc").unwrap();
//! let mustard = game.place("mu").unwrap();
//! assert_eq!(analysis.status(scarlet, mustard), Status::Yes);
//! println!("{} consistent deals", analysis.consistent_deals());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Costs: [`Analysis::new`] counts every marginal exactly with a dynamic
//! program (well under a millisecond for classic games; see BENCHMARKS.md);
//! explanations ([`why`], [`conflict`]) find a minimal set of k among n
//! distinct events with O(k log(n/k)) tests (QuickXplain; a test is a search
//! for one deal, a count only where that search gives up), then look for a
//! smaller one with up to [`analysis::SEARCH_BUDGET`] more (only sets that no
//! deal found so far fits), so they can take many times longer;
//! [`Explanation::minimum`] says whether that budget ran out. Input limits (ids, events, deck) and how text is made safe
//! to print are in [`format`](mod@format) and [`text`].
//!
//! The crate does no IO and holds no global state: a count's limit and its
//! progress reports come in through [`CountOptions`] (the default needs
//! nothing from the machine), randomness as a seeded RNG. It builds for
//! `wasm32-unknown-unknown`.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod advice;
pub mod analysis;
pub mod brute;
pub mod count;
pub mod deduce;
pub mod format;
pub mod generate;
pub mod knowledge;
pub mod model;
pub mod sample;
pub mod text;
pub mod wire;

pub use analysis::{conflict, why, Analysis, Explanation, Why};
pub use count::{CountError, CountOptions, Counts};
pub use deduce::CountProblem;
pub use format::{FormatError, GameFile};
pub use knowledge::{Constraint, Knowledge, Lit, Origin};
pub use model::{Card, CardSet, Category, Deck, Event, Game, GameError, LoadError, Place, Player, Status};
