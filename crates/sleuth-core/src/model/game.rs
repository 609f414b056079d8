//! A validated game: deck, seats, hands, and the events in order. Its
//! validation is in `validate`.

use super::card::{Card, CardSet};
use super::deck::Deck;
use super::error::{GameError, LoadError};
use super::event::Event;
use super::player::{Place, Player};
use crate::format::{AccusationSpec, DeckSpec, EventSpec, GameFile, SuggestionSpec};

mod rules;
mod validate;

/// A validated game. Build it with [`Game::new`]; its fields are private so
/// that every `Game` in existence has passed validation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    deck: Deck,
    players: Vec<String>,
    hand_sizes: Vec<usize>,
    face_up: CardSet,
    observer: Option<(Player, CardSet)>,
    events: Vec<Event>,
    /// Whether `hand_sizes` was given in the file (kept for round trips).
    explicit_hand_sizes: bool,
}

/// The default dealing rule: cards dealt one at a time clockwise from the
/// first player, so earlier seats get the extra cards.
pub fn default_hand_sizes(num_cards_dealt: usize, num_players: usize) -> Vec<usize> {
    (0..num_players).map(|i| num_cards_dealt / num_players + usize::from(i < num_cards_dealt % num_players)).collect()
}

impl Game {
    /// Parses and validates a game file from JSON text.
    ///
    /// # Errors
    /// A [`LoadError`] for malformed JSON or an invalid game.
    pub fn from_json(text: &str) -> Result<Game, LoadError> {
        let file = GameFile::from_json(text)?;
        Ok(Game::new(&file)?)
    }

    /// The deck.
    pub fn deck(&self) -> &Deck {
        &self.deck
    }

    /// The number of players.
    pub fn num_players(&self) -> usize {
        self.players.len()
    }

    /// The number of places: players and the case file.
    pub fn num_places(&self) -> usize {
        self.players.len() + 1
    }

    /// Players in seat order.
    pub fn players(&self) -> impl Iterator<Item = Player> + '_ {
        (0..self.players.len()).map(|i| Player(i as u8))
    }

    /// Every place: players in seat order, then the case file.
    pub fn places(&self) -> impl Iterator<Item = Place> + '_ {
        self.players().map(Place::Player).chain(std::iter::once(Place::CaseFile))
    }

    /// A player's id.
    pub fn player_id(&self, player: Player) -> &str {
        &self.players[player.index()]
    }

    /// Looks a player up by id.
    pub fn player(&self, id: &str) -> Option<Player> {
        self.players.iter().position(|p| p == id).map(|i| Player(i as u8))
    }

    /// A place's id: the player id, or `case_file`.
    pub fn place_id(&self, place: Place) -> &str {
        match place {
            Place::Player(p) => self.player_id(p),
            Place::CaseFile => "case_file",
        }
    }

    /// Looks a place up by id (`case_file` or a player id).
    pub fn place(&self, id: &str) -> Option<Place> {
        if id == "case_file" {
            Some(Place::CaseFile)
        } else {
            self.player(id).map(Place::Player)
        }
    }

    /// How many cards a player holds.
    pub fn hand_size(&self, player: Player) -> usize {
        self.hand_sizes[player.index()]
    }

    /// The face-up cards.
    pub fn face_up(&self) -> CardSet {
        self.face_up
    }

    /// The observer and their hand; `None` for a bystander.
    pub fn observer(&self) -> Option<(Player, CardSet)> {
        self.observer
    }

    /// The events in order.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Event `index` in words, for people: `wh suggested mu, re, ba; pe
    /// refuted (card not seen)`, `gr accused pe, kn, ha; wrong`. `None` if
    /// there is no such event. Every front end uses this wording.
    ///
    /// # Examples
    /// ```
    /// use sleuth_core::Game;
    /// let game = Game::from_json(r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c"],
    ///     "events": [{"suggestion": {"by": "a", "cards": ["mu", "kn", "ha"], "refuted_by": "c"}}]}"#)?;
    /// assert_eq!(game.describe_event(0).unwrap(), "a suggested mu, kn, ha; c refuted (card not seen)");
    /// assert_eq!(game.describe_event(1), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn describe_event(&self, index: usize) -> Option<String> {
        let ids = |cards: CardSet| self.deck.ids(cards).join(", ");
        Some(match self.events.get(index)? {
            Event::Suggestion(s) => {
                let answer = match (s.refuted_by, s.shown) {
                    (None, _) => "nobody refuted".to_string(),
                    (Some(r), Some(c)) => format!("{} refuted and showed {}", self.player_id(r), self.deck.id(c)),
                    (Some(r), None) => format!("{} refuted (card not seen)", self.player_id(r)),
                };
                format!("{} suggested {}; {answer}", self.player_id(s.by), ids(s.cards))
            }
            Event::Accusation(a) => {
                let verdict = if a.correct { "correct" } else { "wrong" };
                format!("{} accused {}; {verdict}", self.player_id(a.by), ids(a.cards))
            }
        })
    }

    /// The player after `player` clockwise.
    pub fn next_player(&self, player: Player) -> Player {
        Player(((player.index() + 1) % self.players.len()) as u8)
    }

    /// The other players in the order they are asked to refute a
    /// suggestion by `player`: clockwise from the next one.
    pub fn players_after(&self, player: Player) -> impl Iterator<Item = Player> + '_ {
        let n = self.players.len();
        (1..n).map(move |k| Player(((player.index() + k) % n) as u8))
    }

    /// The same game with only some events, and optionally without the
    /// observer's hand (the observer still sees what it saw). Used to find
    /// which events force a fact or conflict.
    pub fn restricted(&self, keep_events: &[usize], keep_hand: bool) -> Game {
        // Built field by field: cloning `self` would copy every event first.
        Game {
            deck: self.deck.clone(),
            players: self.players.clone(),
            hand_sizes: self.hand_sizes.clone(),
            face_up: self.face_up,
            observer: match self.observer {
                Some((p, _)) if !keep_hand => Some((p, CardSet::EMPTY)),
                other => other,
            },
            events: keep_events.iter().map(|&i| self.events[i].clone()).collect(),
            explicit_hand_sizes: self.explicit_hand_sizes,
        }
    }

    /// The same game with one more event appended, checked as
    /// [`Game::new`] would check it.
    ///
    /// # Errors
    /// [`GameError`] if the event is invalid for this game.
    pub fn with_event(&self, event: EventSpec) -> Result<Game, GameError> {
        let mut game = self.clone();
        game.push_event(&event)?;
        Ok(game)
    }

    /// Whether `player` has made a wrong accusation (and so takes no more
    /// turns, though it still refutes).
    pub fn is_out(&self, player: Player) -> bool {
        self.events.iter().any(|e| matches!(e, Event::Accusation(a) if a.by == player && !a.correct))
    }

    /// The same game as a bystander sees it: no observer, no hand, and no
    /// shown cards (only the public part of every event).
    pub fn bystander(&self) -> Game {
        let mut g = self.clone();
        g.observer = None;
        for e in &mut g.events {
            if let Event::Suggestion(s) = e {
                s.shown = None;
            }
        }
        g
    }

    /// The same game as `player` holding `hand` sees it: the public part of
    /// every event, plus the card shown in event `i` when `shown(i)` names
    /// one (the cards `player` saw). Used to rebuild an opponent's view
    /// from a sampled deal; not checked against the history.
    pub fn seen_by(&self, player: Player, hand: CardSet, shown: impl Fn(usize) -> Option<Card>) -> Game {
        let mut g = self.bystander();
        g.observer = Some((player, hand));
        for (i, e) in g.events.iter_mut().enumerate() {
            if let Event::Suggestion(s) = e {
                s.shown = shown(i);
            }
        }
        g
    }

    /// Whether the observer's hand is known (false for bystanders and for
    /// games restricted without the hand).
    pub fn has_hand(&self) -> bool {
        matches!(self.observer, Some((p, h)) if h.len() == self.hand_size(p))
    }

    /// The game file for this game.
    pub fn to_file(&self) -> GameFile {
        let deck = DeckSpec::from_deck(&self.deck);
        let ids = |s: CardSet| self.deck.ids(s);
        let events = self
            .events
            .iter()
            .map(|e| match e {
                Event::Suggestion(s) => EventSpec::Suggestion(SuggestionSpec {
                    by: self.player_id(s.by).into(),
                    cards: ids(s.cards),
                    refuted_by: s.refuted_by.map(|p| self.player_id(p).into()),
                    shown: s.shown.map(|c| self.deck.id(c).into()),
                }),
                Event::Accusation(a) => EventSpec::Accusation(AccusationSpec {
                    by: self.player_id(a.by).into(),
                    cards: ids(a.cards),
                    correct: a.correct,
                }),
            })
            .collect();
        GameFile {
            version: 1,
            deck,
            players: self.players.clone(),
            hand_sizes: self
                .explicit_hand_sizes
                .then(|| self.players().map(|p| (self.player_id(p).to_string(), self.hand_size(p) as i64)).collect()),
            face_up: ids(self.face_up),
            me: self.observer.map(|(p, _)| self.player_id(p).to_string()),
            hand: self.observer.map(|(_, h)| ids(h)),
            events,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_described_for_people() {
        let game = Game::from_json(
            r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c"],
                "me": "a", "hand": ["mu", "pl", "gr", "pe", "sc", "wh"], "events": [
                {"suggestion": {"by": "a", "cards": ["mu", "kn", "ha"], "refuted_by": "b", "shown": "kn"}},
                {"suggestion": {"by": "b", "cards": ["mu", "kn", "ha"], "refuted_by": "c"}},
                {"suggestion": {"by": "c", "cards": ["mu", "kn", "ha"], "refuted_by": null}},
                {"accusation": {"by": "c", "cards": ["mu", "kn", "ha"], "correct": false}},
                {"accusation": {"by": "b", "cards": ["pl", "kn", "ha"], "correct": true}}]}"#,
        )
        .unwrap();
        let all: Vec<String> = (0..5).map(|i| game.describe_event(i).unwrap()).collect();
        assert_eq!(
            all,
            [
                "a suggested mu, kn, ha; b refuted and showed kn",
                "b suggested mu, kn, ha; c refuted (card not seen)",
                "c suggested mu, kn, ha; nobody refuted",
                "c accused mu, kn, ha; wrong",
                "b accused pl, kn, ha; correct",
            ]
        );
        assert_eq!(game.describe_event(5), None);
    }
}
