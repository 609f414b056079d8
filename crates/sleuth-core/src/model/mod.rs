//! The game model: cards, decks, players, places and validated games.

mod card;
mod deck;
mod error;
mod event;
mod game;
mod player;
mod status;

pub use card::{Card, CardSet, CardSetIter, MAX_CARDS};
pub use deck::{Category, Deck, DeckKind, DeckProblem};
pub use error::{GameError, LoadError, Location, Problem, LISTED_PROBLEMS, MAX_PROBLEMS};
pub use event::{passed_players, Accusation, Event, Suggestion};
pub use game::{default_hand_sizes, Game};
pub use player::{Place, Player, MAX_PLACES, MAX_PLAYERS};
pub use status::Status;
