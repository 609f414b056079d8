//! What the notepad page reads, built in one place for both of its
//! backends: `sleuth serve` (sleuth-web's JSON API) and the offline app
//! (sleuth-wasm in the browser). The server adds what only a store knows
//! (the game's id, version, name, undo history and turn ids); the shapes
//! here are the rest: the deck, a game's events in words, and the
//! analysis, advice and refutation replies with the version they are of.

use super::{Advice, Analysis, Refutation};
use crate::advice::{advise, advise_refutation, AdviceError, AdviceOptions};
use crate::format::EventSpec;
use crate::model::{CardSet, Deck, Game, Player};
use crate::GameFile;
use serde::Serialize;

/// How many possible case files the page's analysis lists at most.
pub const CASE_FILES_SHOWN: usize = 50;

/// A card as the page names it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CardName {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
}

/// A category of the deck with its cards, in deck order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DeckCategory {
    /// The category's name.
    pub name: String,
    /// Its cards.
    pub cards: Vec<CardName>,
}

/// `deck`, category by category.
pub fn deck(deck: &Deck) -> Vec<DeckCategory> {
    deck.categories()
        .map(|cat| DeckCategory {
            name: deck.category_name(cat).to_string(),
            cards: deck
                .category_cards(cat)
                .iter()
                .map(|c| CardName { id: deck.id(c).to_string(), name: deck.name(c).to_string() })
                .collect(),
        })
        .collect()
}

/// The built-in decks, for the setup form.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Decks {
    /// The classic deck.
    pub classic: Vec<DeckCategory>,
    /// The Master Detective deck.
    pub master: Vec<DeckCategory>,
}

/// The built-in decks.
pub fn decks() -> Decks {
    Decks { classic: deck(&Deck::classic()), master: deck(&Deck::master()) }
}

/// One event of a game as the page lists it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EventView<'a> {
    /// Its position, 0-based.
    pub index: usize,
    /// The event in words (card ids), as `sleuth notepad` writes it.
    pub text: String,
    /// The event as in the game file.
    pub event: &'a EventSpec,
}

/// A game as the page draws it: the file, its deck, every player's hand
/// size (the file's or the dealing rule's) and each event in words.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameView<'a> {
    /// The game file.
    pub file: &'a GameFile,
    /// The deck.
    pub deck: Vec<DeckCategory>,
    /// Hand sizes in seat order.
    pub hand_sizes: Vec<usize>,
    /// The events.
    pub events: Vec<EventView<'a>>,
}

impl<'a> GameView<'a> {
    /// The view of `game`, read from `file`.
    pub fn new(game: &Game, file: &'a GameFile) -> GameView<'a> {
        let events = file
            .events
            .iter()
            .enumerate()
            .map(|(index, event)| EventView { index, text: game.describe_event(index).unwrap_or_default(), event })
            .collect();
        GameView {
            file,
            deck: deck(game.deck()),
            hand_sizes: game.players().map(|p| game.hand_size(p)).collect(),
            events,
        }
    }
}

/// The page's analysis: the keys of `sleuth analyze --json` (listing at
/// most [`CASE_FILES_SHOWN`] case files), the game version it is of, and
/// how long it took when the caller measured it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnalysisReply {
    /// The game version analysed.
    pub version: u64,
    /// The analysis.
    #[serde(flatten)]
    pub analysis: Analysis,
    /// Milliseconds taken.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub millis: Option<f64>,
}

impl AnalysisReply {
    /// The reply for `analysis` of `game` at `version`.
    pub fn new(game: &Game, analysis: &crate::Analysis, version: u64, millis: Option<f64>) -> AnalysisReply {
        AnalysisReply { version, analysis: Analysis::with_case_file_limit(game, analysis, CASE_FILES_SHOWN), millis }
    }
}

/// The page's advice: the game version it is of, whether the history is
/// consistent (no advice when not), the keys of `sleuth advise --json`,
/// and how long it took when the caller measured it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AdviceReply {
    /// The game version advised on.
    pub version: u64,
    /// Whether any deal fits the history.
    pub consistent: bool,
    /// The advice (absent when inconsistent).
    #[serde(flatten)]
    pub advice: Option<Advice>,
    /// Milliseconds taken.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub millis: Option<f64>,
}

/// The options of the page's advice: sleuth-core's defaults (a fixed seed,
/// so that the same game gets the same advice) within `max_states`.
pub fn advice_options(max_states: usize) -> AdviceOptions {
    AdviceOptions { max_states, ..AdviceOptions::default() }
}

/// sleuth-core's advice for the observer of `game` at `version` (an
/// inconsistent history is `consistent: false` with no advice; `millis` is
/// left for the caller to fill in).
///
/// # Errors
/// The advisor's error for a bystander's game or a failed count.
pub fn advice(game: &Game, version: u64, max_states: usize) -> Result<AdviceReply, AdviceError> {
    match advise(game, &advice_options(max_states)) {
        Ok(a) => Ok(AdviceReply { version, consistent: true, advice: Some(Advice::new(game, &a)), millis: None }),
        Err(AdviceError::Inconsistent) => Ok(AdviceReply { version, consistent: false, advice: None, millis: None }),
        Err(e) => Err(e),
    }
}

/// Why a refutation question got no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefutationError {
    /// The question cannot be asked (the observer asking itself, not one
    /// card per category): the asker's mistake.
    Asked(String),
    /// The advisor failed (a bystander's game, an inconsistent history, a
    /// failed count).
    Failed(String),
}

/// Which card to show `by`, who suggested `cards` and reached the
/// observer: `sleuth advise --refute`'s reply (the card that tells `by`
/// least). Holding none of the cards is a pass (`show: null`).
///
/// # Errors
/// [`RefutationError`] saying whose the problem is.
pub fn refutation(game: &Game, by: Player, cards: CardSet) -> Result<Refutation, RefutationError> {
    let deck = game.deck();
    let Some((me, hand)) = game.observer() else {
        return Err(RefutationError::Failed(AdviceError::NoObserver.to_string()));
    };
    if by == me {
        return Err(RefutationError::Asked("you do not answer your own suggestion".into()));
    }
    let one_per_category = deck.categories().all(|cat| (deck.category_cards(cat) & cards).len() == 1);
    if !one_per_category {
        return Err(RefutationError::Asked("a suggestion names one card of each category".into()));
    }
    if (cards & hand).is_empty() {
        return Ok(Refutation::pass(game, by, cards));
    }
    let r = advise_refutation(game, by, cards).map_err(|e| match e {
        AdviceError::Refutation(m) => RefutationError::Asked(m),
        e => RefutationError::Failed(e.to_string()),
    })?;
    Ok(Refutation::new(game, by, cards, &r))
}
