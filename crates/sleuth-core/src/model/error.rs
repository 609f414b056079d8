//! What is wrong with a game file: each problem with its location, and
//! the error of loading one.

use std::fmt;

/// Where in a game file a problem is.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Location {
    /// The file as a whole.
    File,
    /// The `deck` field.
    Deck,
    /// The `players` field.
    Players,
    /// The `hand_sizes` field.
    HandSizes,
    /// The `face_up` field.
    FaceUp,
    /// The `me` and `hand` fields.
    Hand,
    /// The event with this index (0-based).
    Event(usize),
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::File => write!(f, "file"),
            Location::Deck => write!(f, "deck"),
            Location::Players => write!(f, "players"),
            Location::HandSizes => write!(f, "hand_sizes"),
            Location::FaceUp => write!(f, "face_up"),
            Location::Hand => write!(f, "hand"),
            Location::Event(i) => write!(f, "event {i}"),
        }
    }
}

/// One thing wrong with a game file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Where it is.
    pub location: Location,
    /// What is wrong, in lowercase without a trailing period.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location, self.message)
    }
}

/// Every problem found while validating a game file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub struct GameError {
    /// The problems, in file order: the first [`MAX_PROBLEMS`] found.
    pub problems: Vec<Problem>,
    /// How many more problems were found but not kept.
    pub omitted: usize,
}

/// The most problems a [`GameError`] keeps (a file can hold millions).
pub const MAX_PROBLEMS: usize = 100;

/// The most problems [`GameError`]'s `Display` lists (a screenful), before
/// "... and N more".
pub const LISTED_PROBLEMS: usize = 20;

impl GameError {
    /// How many problems were found in all.
    pub fn len(&self) -> usize {
        self.problems.len() + self.omitted
    }

    /// Whether no problem was found (never true of a returned error).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.len();
        write!(f, "the game file has {n} problem{}", if n == 1 { "" } else { "s" })?;
        for p in self.problems.iter().take(LISTED_PROBLEMS) {
            write!(f, "\n  {p}")?;
        }
        if n > LISTED_PROBLEMS {
            write!(f, "\n  ... and {} more", n - LISTED_PROBLEMS)?;
        }
        Ok(())
    }
}

/// An error loading a game: bad JSON or an invalid game.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The text is not a game file.
    #[error(transparent)]
    Format(#[from] crate::format::FormatError),
    /// The game file is not a valid game.
    #[error(transparent)]
    Game(#[from] GameError),
}
