//! Sleuth's game simulator: seeded Clue (Cluedo) games played by [`Agent`]s
//! under the classic rules, recorded so that any player's (or a bystander's)
//! game file can be written out afterwards.
//!
//! ```ignore
//! use sleuth_sim::{play, Agent, ExactAgent, GameConfig};
//! use sleuth_core::Deck;
//!
//! let config = GameConfig::new(Deck::classic(), 4);
//! let mut agents: Vec<Box<dyn Agent>> = (0..4).map(|_| Box::new(ExactAgent::new()) as _).collect();
//! let record = play(&config, &mut agents, 42)?;
//! println!("{:?} won after {} turns", record.winner, record.turns);
//! let winner_file = record.game_file_for(record.winner); // GameFile, ready for `to_json`
//! ```
//!
//! # The rules as simulated
//!
//! - **Deal** ([`Deal::random`]): one card of each category goes to the case
//!   file; the remaining cards are shuffled, the first
//!   [`GameConfig::face_up`] of them are laid face up, and the rest are dealt
//!   one at a time clockwise from seat 0, so hand sizes follow the game
//!   file's default rule (earlier seats get the extra cards).
//! - **Turns** go round in seat order from seat 0. A player who is out
//!   (made a wrong accusation) skips their turns.
//! - On a turn the agent is first asked whether to **accuse**. If it does not,
//!   it must **suggest** one card of every category. Players are then asked
//!   clockwise starting after the suggester; the first who holds any of the
//!   cards refutes, and when it holds more than one its agent chooses which
//!   to show ([`Agent::choose_card_to_show`]). The suggester never refutes
//!   its own suggestion. With [`GameConfig::accuse_after_suggestion`] (the
//!   default, as in the printed rules) the agent may also accuse after its
//!   suggestion has been answered, in the same turn.
//! - A **correct accusation** wins and ends the game. A wrong one puts the
//!   accuser out: it takes no more turns but still refutes. When only one
//!   player is left in, that player wins.
//! - A **turn limit** ([`GameConfig::max_rounds`] rounds, default 200) ends the
//!   game with no winner.
//!
//! ## Simplifications
//!
//! - There is no board, no dice and no movement: any combination may be
//!   suggested on any turn, so the room of a suggestion is free. Suggested
//!   suspects are not moved either (there is nothing to move).
//! - There are no secret passages, no "summoned into a room" extra
//!   suggestions, and exactly one suggestion per turn.
//! - A refuter with a single matching card is not asked; that card is shown.
//!
//! # Views
//!
//! An agent sees the game only through a [`View`]: the game file of its own
//! perspective (its seat as `me`, its hand, every event, with `shown` only
//! where it suggested or refuted), validated into a [`sleuth_core::Game`].
//! The simulator keeps one [`Perspective`] per seat and appends to each as
//! events happen, so what an agent is given *is* its game file.
//!
//! # Randomness
//!
//! Everything is derived from one `u64` seed: the deal uses ChaCha8 stream 0
//! of that seed, and the agent in seat `i` gets its own stream `i + 1`, so one
//! agent's use of randomness never changes another's.
#![forbid(unsafe_code)]

mod agent;
pub mod agents;
mod deal;
mod error;
pub mod experiment;
pub mod file;
pub mod journal;
mod perspective;
mod record;
pub mod sat;
mod sim;
pub mod speedclue;
mod stats;
pub mod tournament;

pub use agent::{Agent, SimRng, View};
pub use agents::{
    agent_by_name, ExactAgent, Group4Agent, NotepadAgent, RandomAgent, SatAgent, SleuthAgent, AGENT_NAMES,
};
pub use deal::{deck_from_choice, Deal};
pub use error::{MoveKind, SimError};
pub use perspective::{event_spec, Perspective};
pub use record::{End, GameRecord};
pub use sim::{agent_rng, deal_rng, play, play_deal, GameConfig};
pub use stats::{game_seed, play_many, Stats};
