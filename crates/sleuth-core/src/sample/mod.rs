//! Sampling consistent deals, and estimating probabilities from samples.
//!
//! Two kinds of sampler:
//!
//! * [`UniformSampler`] draws deals exactly uniformly, using the exact
//!   counter; each draw costs one walk through the counting structure.
//!   [`estimate_uniform`] turns draws into an [`Estimate`].
//! * Neller and Luo's WalkSAT-like search-and-sample over at-least
//!   constraints ([`search_and_sample`]): Algorithm 1, variations (a)–(e)
//!   and Algorithm 2, configured by [`WalkSatConfig`], on a [`Formula`]
//!   whose variables exact deduction has fixed where it can. The module
//!   [`walksat`] says how each point the paper leaves open is read.
//!
//! Every estimate carries 95 % confidence intervals (the paper names them as
//! future work); [`Estimate`] says what they cover. [`rmsd`] is the paper's
//! error measure.
//!
//! # Examples
//! ```
//! use rand::SeedableRng;
//! use sleuth_core::sample::{rmsd, search_and_sample, Formula, WalkSatConfig};
//! use sleuth_core::{Analysis, Game};
//!
//! let game = Game::from_json(r#"{"version": 1, "deck": "classic",
//!     "players": ["sc", "mu", "wh"], "me": "sc",
//!     "hand": ["mu", "pl", "gr", "kn", "ca", "ha"], "events": []}"#)?;
//! let analysis = Analysis::new(&game)?;
//! let formula = Formula::new(&game, &analysis).expect("a consistent game");
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
//! let estimate = search_and_sample(&formula, &WalkSatConfig::alg2().with_iterations(20_000), &mut rng);
//! assert!(estimate.samples() > 0);
//! let error = rmsd(&estimate, &analysis).unwrap();
//! assert!(error < 0.2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod estimate;
mod formula;
pub mod walksat;

pub use crate::count::uniform::{Deal, UniformSampler};
pub use estimate::{
    estimate_from_deals, estimate_uniform, estimate_with_sampler, rmsd, wilson, Estimate, Interval, SearchStats,
};
pub use formula::Formula;
pub use walksat::{search_and_sample, search_and_sample_traced, FlipKind, Trace, WalkSatConfig};
