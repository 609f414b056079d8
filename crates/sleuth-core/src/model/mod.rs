//! The game model: cards, decks, players, places and validated games.

mod card;
mod deck;
mod game;
mod player;

pub use card::{Card, CardSet, CardSetIter, MAX_CARDS};
pub use deck::{Category, Deck, DeckKind, DeckProblem};
pub use game::{
    default_hand_sizes, passed_players, Accusation, Event, Game, GameError, LoadError, Location, Problem, Suggestion,
    LISTED_PROBLEMS, MAX_PROBLEMS,
};
pub use player::{Place, Player, MAX_PLACES, MAX_PLAYERS};
