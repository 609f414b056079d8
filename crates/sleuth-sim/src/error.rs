//! Why a game could not be simulated (its own module: the deal, the
//! record and the game loop all return it).

use sleuth_core::GameError;
use std::fmt;

/// The kind of move an agent got wrong.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MoveKind {
    /// A suggestion.
    Suggestion,
    /// An accusation.
    Accusation,
    /// The card shown when refuting.
    Refutation,
}

impl fmt::Display for MoveKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveKind::Suggestion => "suggestion",
            MoveKind::Accusation => "accusation",
            MoveKind::Refutation => "refutation",
        })
    }
}

/// Why a game could not be simulated.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SimError {
    /// The configuration or scripted deal cannot make a game.
    #[error("invalid setup: {0}")]
    Setup(String),
    /// A game file built by the simulator did not validate.
    #[error(transparent)]
    Game(#[from] GameError),
    /// An agent made an illegal move.
    #[error("agent '{agent}' in seat {seat} made an illegal {kind}: {detail}")]
    IllegalMove {
        /// The seat (0-based).
        seat: usize,
        /// The agent's name.
        agent: String,
        /// What kind of move.
        kind: MoveKind,
        /// What was wrong with it.
        detail: String,
    },
}
