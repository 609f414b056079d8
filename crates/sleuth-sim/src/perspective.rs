//! One player's growing game file, and the [`View`] built from it.

use crate::agent::View;
use sleuth_core::format::{AccusationSpec, EventSpec, GameFile, SuggestionSpec};
use sleuth_core::{Event, Game, GameError, Player};

/// The game file of one event as `observer` saw it: the card shown in a
/// suggestion is kept only when the observer suggested or refuted it (a
/// bystander, `None`, never sees it).
pub fn event_spec(
    game_players: &[String],
    deck: &sleuth_core::Deck,
    event: &Event,
    observer: Option<Player>,
) -> EventSpec {
    let id = |p: Player| game_players[p.index()].clone();
    match event {
        Event::Suggestion(s) => {
            let saw = observer.is_some() && (observer == Some(s.by) || observer == s.refuted_by);
            EventSpec::Suggestion(SuggestionSpec {
                by: id(s.by),
                cards: deck.ids(s.cards),
                refuted_by: s.refuted_by.map(id),
                shown: s.shown.filter(|_| saw).map(|c| deck.id(c).to_string()),
            })
        }
        Event::Accusation(a) => {
            EventSpec::Accusation(AccusationSpec { by: id(a.by), cards: deck.ids(a.cards), correct: a.correct })
        }
    }
}

/// A player's own game file as it grows, with the validated [`Game`] built
/// from it on demand (and cached until the next event).
///
/// The simulator keeps one per seat; other drivers (a network protocol, a
/// human at the table) can keep one for an agent in the same way.
#[derive(Clone, Debug)]
pub struct Perspective {
    file: GameFile,
    game: Option<Game>,
}

impl Perspective {
    /// Starts from a player's game file (`me` and `hand` given).
    ///
    /// # Errors
    /// [`GameError`] if the file is not a valid game.
    pub fn new(file: GameFile) -> Result<Perspective, GameError> {
        let game = Game::new(&file)?;
        Ok(Perspective { file, game: Some(game) })
    }

    /// The game file so far.
    pub fn file(&self) -> &GameFile {
        &self.file
    }

    /// Appends an event (as this player saw it).
    pub fn push(&mut self, event: EventSpec) {
        self.file.events.push(event);
        self.game = None;
    }

    /// The file validated as a game.
    ///
    /// # Errors
    /// [`GameError`] if an appended event is invalid.
    pub fn game(&mut self) -> Result<&Game, GameError> {
        if self.game.is_none() {
            self.game = Some(Game::new(&self.file)?);
        }
        Ok(self.game.as_ref().expect("just built"))
    }

    /// The [`View`] an agent plays from; `None` for a bystander's file.
    ///
    /// # Errors
    /// [`GameError`] if an appended event is invalid.
    pub fn view(&mut self) -> Result<Option<View<'_>>, GameError> {
        self.game()?;
        let game = self.game.as_ref().expect("just built");
        Ok(View::new(&self.file, game))
    }
}
