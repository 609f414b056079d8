//! The record of a finished game.

use crate::deal::Deal;
use crate::perspective::event_spec;
use sleuth_core::format::{DeckSpec, GameFile};
use sleuth_core::model::Accusation;
use sleuth_core::{Deck, Event, Game, GameError, Player};

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum End {
    /// The winner made a correct accusation.
    Solved,
    /// Everyone else made a wrong accusation.
    LastStanding,
    /// The turn limit was reached; nobody won.
    TurnLimit,
}

/// Everything that happened in one simulated game, with nothing hidden:
/// every refuted suggestion carries the card that was shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The seed the game was played with.
    pub seed: u64,
    /// The deck.
    pub deck: Deck,
    /// Player ids in seat order.
    pub players: Vec<String>,
    /// The name of each seat's agent.
    pub agents: Vec<String>,
    /// The true deal.
    pub deal: Deal,
    /// Every event, in order; `shown` is always present on refuted suggestions.
    pub events: Vec<Event>,
    /// Who won, if anyone.
    pub winner: Option<Player>,
    /// How the game ended.
    pub end: End,
    /// Turns taken (skipped turns of players who are out do not count).
    pub turns: usize,
    /// Rounds begun (a round gives every seat one turn).
    pub rounds: usize,
}

impl GameRecord {
    /// The game file from `observer`'s perspective (its hand, and the shown
    /// cards of suggestions it made or refuted), or a bystander's (`None`:
    /// no hand, no shown cards). Hand sizes are omitted (the default dealing
    /// rule applies); face-up cards are listed.
    pub fn game_file_for(&self, observer: Option<Player>) -> GameFile {
        self.game_file_prefix(observer, self.events.len())
    }

    /// [`GameRecord::game_file_for`] with only the first `events` events.
    pub fn game_file_prefix(&self, observer: Option<Player>, events: usize) -> GameFile {
        GameFile {
            version: 1,
            deck: DeckSpec::from_deck(&self.deck),
            players: self.players.clone(),
            hand_sizes: None,
            face_up: self.deck.ids(self.deal.face_up),
            me: observer.map(|p| self.players[p.index()].clone()),
            hand: observer.map(|p| self.deck.ids(self.deal.hands[p.index()])),
            events: self.events[..events].iter().map(|e| event_spec(&self.players, &self.deck, e, observer)).collect(),
        }
    }

    /// [`GameRecord::game_file_for`], validated.
    ///
    /// # Errors
    /// [`GameError`] only if the record is corrupt.
    pub fn game_for(&self, observer: Option<Player>) -> Result<Game, GameError> {
        Game::new(&self.game_file_for(observer))
    }

    /// The accusations made, in order.
    pub fn accusations(&self) -> impl Iterator<Item = &Accusation> {
        self.events.iter().filter_map(|e| match e {
            Event::Accusation(a) => Some(a),
            Event::Suggestion(_) => None,
        })
    }

    /// The number of suggestions made.
    pub fn suggestions(&self) -> usize {
        self.events.iter().filter(|e| matches!(e, Event::Suggestion(_))).count()
    }

    /// The agent name of the winner, if anyone won.
    pub fn winner_agent(&self) -> Option<&str> {
        self.winner.map(|p| self.agents[p.index()].as_str())
    }
}
