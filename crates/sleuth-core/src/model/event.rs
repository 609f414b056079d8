//! The events of a game: suggestions and accusations, as validated.

use super::card::{Card, CardSet};
use super::game::Game;
use super::player::Player;

/// An event of the game, checked against the deck and the seats.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// A suggestion and how it was refuted.
    Suggestion(Suggestion),
    /// An accusation and its outcome.
    Accusation(Accusation),
}

/// A suggestion: one card per category, refuted by the first player clockwise
/// who holds any of them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Suggestion {
    /// Who suggested.
    pub by: Player,
    /// The suggested cards, one per category.
    pub cards: CardSet,
    /// Who refuted; `None` when nobody but the suggester could.
    pub refuted_by: Option<Player>,
    /// The card shown, when the observer saw it.
    pub shown: Option<Card>,
}

/// An accusation: one card per category.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Accusation {
    /// Who accused.
    pub by: Player,
    /// The accused cards, one per category.
    pub cards: CardSet,
    /// Whether the case file is exactly these cards.
    pub correct: bool,
}

/// The places a suggestion's answer passed: every player strictly between the
/// suggester and the refuter, clockwise (everyone else when nobody refuted).
pub fn passed_players(game: &Game, by: Player, refuted_by: Option<Player>) -> impl Iterator<Item = Player> + '_ {
    game.players_after(by).take_while(move |&p| Some(p) != refuted_by)
}
