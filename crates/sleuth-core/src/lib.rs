#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod advice;
pub mod analysis;
#[cfg(any(test, feature = "testing"))]
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
