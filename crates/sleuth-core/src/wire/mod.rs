//! The typed output contract: what `sleuth analyze --json`, `why --json`,
//! `advise --json`, `sample --json` and `check --json` print, what the web
//! API sends, and what bindings hand to JavaScript and Python.
//!
//! Each type mirrors one JSON shape of docs/game-format.md field by field,
//! with ids as strings, exact counts as decimal strings ([`Count`]) and
//! per-card tables as objects in deck order ([`Table`]). They are built from
//! the core's results by plain constructors (`Analysis::new(&game,
//! &analysis)`), and serialised with serde; the core's own types carry no
//! serde. With the `schema` feature, `wire::schema::all()` gives each shape's JSON
//! Schema (checked in as docs/schema/*.json).
//!
//! Probabilities are the nearest `f64`, written in the shortest form that
//! reads back as that number; reading them back bit for bit with serde_json
//! needs its `float_roundtrip` feature (JavaScript's and Python's parsers
//! are exact). For exact arithmetic use the counts.
//!
//! ```
//! use sleuth_core::{wire, Game};
//!
//! let game = Game::from_json(r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c"],
//!     "me": "a", "hand": ["mu", "pl", "gr", "kn", "ca", "ha"], "events": []}"#)?;
//! let analysis = sleuth_core::Analysis::new(&game)?;
//! let out = wire::Analysis::new(&game, &analysis);
//! assert_eq!(out.probabilities["ro"]["case_file"], 0.25);
//! let json = serde_json::to_string(&out)?;
//! let back: wire::Analysis = serde_json::from_str(&json)?;
//! assert_eq!(back, out);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::model::{Card, CardSet, DeckKind, Game, Place};
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use std::fmt;

mod advice;
pub mod report;
mod sample;
#[cfg(feature = "schema")]
pub mod schema;
pub mod view;

pub use advice::{
    Accusation, Advice, BehaviourHint, Opponent, Outcome, Refutation, RefutationOption, Suggestion, Tell,
};
pub use sample::{Sample, SampledCaseFile};

/// An exact count of deals, written as a JSON string of its decimal digits:
/// counts run past 2^53, beyond what a JSON number keeps exactly in
/// JavaScript, and past `u64`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Count(pub u128);

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl Serialize for Count {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Count, D::Error> {
        let text = std::borrow::Cow::<str>::deserialize(d)?;
        // Digits only: `u128::from_str` would also take a leading '+'.
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(serde::de::Error::custom(format!("a count is a string of decimal digits, not '{text}'")));
        }
        text.parse().map(Count).map_err(|_| serde::de::Error::custom("a count past 2^128"))
    }
}

/// A value for every card and place: `{card: {place: value}}`, cards in
/// deck order, places in seat order then `"case_file"`.
pub type Table<T> = IndexMap<String, IndexMap<String, T>>;

/// What is known about "card is at place".
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// True in every consistent deal.
    Yes,
    /// False in every consistent deal (and everywhere when none fits).
    No,
    /// True in some consistent deals and false in others.
    Maybe,
}

impl From<crate::Status> for Status {
    fn from(s: crate::Status) -> Status {
        match s {
            crate::Status::Yes => Status::Yes,
            crate::Status::No => Status::No,
            crate::Status::Maybe => Status::Maybe,
        }
    }
}

/// A set of events (and possibly the observer's hand) that forces a fact or
/// cannot all hold together.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Explanation {
    /// Event indices (0-based), ascending.
    pub events: Vec<usize>,
    /// Whether the observer's hand is part of it.
    pub hand: bool,
    /// Whether the set is proven smallest (`false`: minimal, found within a
    /// search budget).
    pub minimum: bool,
}

impl From<&crate::Explanation> for Explanation {
    fn from(e: &crate::Explanation) -> Explanation {
        Explanation { events: e.events.clone(), hand: e.hand, minimum: e.minimum }
    }
}

/// One possible case file of an exact analysis.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CaseFile {
    /// One card id per category, in category order.
    pub cards: Vec<String>,
    /// Its exact probability, `models / Analysis.models` as the nearest number.
    pub probability: f64,
    /// The number of consistent deals with this case file.
    pub models: Count,
}

/// The exact analysis (`sleuth analyze --json`; the web API's analysis adds
/// `version` and `millis`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Analysis {
    /// Whether any deal fits every event.
    pub consistent: bool,
    /// When inconsistent: the indices of a smallest set of events that cannot
    /// all be true together.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conflict: Option<Vec<usize>>,
    /// When inconsistent: whether the observer's hand is part of that set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conflict_hand: Option<bool>,
    /// When inconsistent: whether that set is proven smallest (`false`:
    /// minimal, found within a search budget).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conflict_minimum: Option<bool>,
    /// The number of consistent deals.
    pub models: Count,
    /// How it was computed: always `"exact"`.
    pub method: String,
    /// The player ids in seat order, then `"case_file"`.
    pub places: Vec<String>,
    /// The exact probability of each card at each place, as the nearest number.
    pub probabilities: Table<f64>,
    /// Whether each card is certainly, certainly not, or maybe at each place.
    pub status: Table<Status>,
    /// The number of consistent deals with each card at each place
    /// (probability = count / `models`, exactly).
    pub models_by_place: Table<Count>,
    /// The possible case files, most likely first (empty when inconsistent
    /// or when there are too many to list; the web API lists the first 50).
    pub case_file: Vec<CaseFile>,
    /// Present and `true` when there are too many possible case files to list.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub case_file_omitted: bool,
    /// How many case files are possible (`null` when too many to list).
    pub case_file_count: Option<usize>,
    /// The face-up cards (probability 0 and status `"no"` everywhere).
    pub face_up: Vec<String>,
}

impl Analysis {
    /// The wire form of `analysis`, an analysis of `game`, with every
    /// possible case file.
    pub fn new(game: &Game, analysis: &crate::Analysis) -> Analysis {
        Analysis::with_case_file_limit(game, analysis, usize::MAX)
    }

    /// [`Analysis::new`] listing at most `limit` case files, the most likely
    /// ([`Analysis::case_file_count`] still counts them all): a custom deck
    /// can have 100,000.
    pub fn with_case_file_limit(game: &Game, analysis: &crate::Analysis, limit: usize) -> Analysis {
        let deck = game.deck();
        let total = analysis.consistent_deals();
        let conflict = analysis.conflict().map(Explanation::from).or_else(|| {
            // An inconsistent analysis always names its conflict; keep the
            // keys of the contract even if it did not.
            (!analysis.is_consistent()).then(|| Explanation { events: Vec::new(), hand: false, minimum: false })
        });
        let case_file = analysis
            .case_files()
            .take(limit)
            .map(|(cards, n)| CaseFile {
                cards: cards.iter().map(|&c| deck.id(c).to_string()).collect(),
                probability: crate::analysis::ratio(n, total),
                models: Count(n),
            })
            .collect();
        Analysis {
            consistent: analysis.is_consistent(),
            conflict_hand: conflict.as_ref().map(|c| c.hand),
            conflict_minimum: conflict.as_ref().map(|c| c.minimum),
            conflict: conflict.map(|c| c.events),
            models: Count(total),
            method: "exact".to_string(),
            places: places(game),
            probabilities: table(game, |c, p| analysis.probability(c, p)),
            status: table(game, |c, p| analysis.status(c, p).into()),
            models_by_place: table(game, |c, p| Count(analysis.count(c, p))),
            case_file,
            case_file_omitted: !analysis.case_files_listed(),
            case_file_count: analysis.case_files_listed().then(|| analysis.case_files().count()),
            face_up: ids(game, game.face_up()),
        }
    }
}

/// Why a card is (or is not) at a place (`sleuth why --json`, the web API's
/// `why`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Why {
    /// The card id.
    pub card: String,
    /// The place: a player id or `"case_file"`.
    pub place: String,
    /// Whether any deal fits every event (when not, nothing is explained:
    /// see the analysis's `conflict`).
    pub consistent: bool,
    /// Whether the card is certainly (`"yes"`), certainly not (`"no"`) or
    /// maybe there; `"no"` when inconsistent.
    pub status: Status,
    /// The number of consistent deals with the card at the place.
    pub count: Count,
    /// The number of consistent deals.
    pub models: Count,
    /// The exact probability, `count / models` as the nearest number.
    pub probability: f64,
    /// For a certain fact (`"yes"` or `"no"` in a consistent game): a
    /// smallest set of events (and the hand) that forces it; no events and
    /// no hand when the rules alone (deck, hand sizes, face-up cards) do.
    /// `null` otherwise.
    pub reason: Option<Explanation>,
}

impl Why {
    /// The wire form of [`crate::why`]'s `answer` for `card` at `place`,
    /// with the counts from `analysis` (both of `game`).
    pub fn new(game: &Game, analysis: &crate::Analysis, card: Card, place: Place, answer: &crate::Why) -> Why {
        let (count, models) = analysis.fraction(card, place);
        let reason = match answer {
            crate::Why::Certain { explanation, .. } => Some(explanation.into()),
            _ => None,
        };
        Why {
            card: game.deck().id(card).to_string(),
            place: game.place_id(place).to_string(),
            consistent: analysis.is_consistent(),
            status: analysis.status(card, place).into(),
            count: Count(count),
            models: Count(models),
            probability: analysis.probability(card, place),
            reason,
        }
    }
}

/// A game file checked (`sleuth check --json`): what it holds, and whether
/// its history is consistent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Check {
    /// `"classic"`, `"master"` or `"custom"`.
    pub deck: String,
    /// The number of cards of each category, in order.
    pub categories: Vec<usize>,
    /// The player ids in seat order.
    pub players: Vec<String>,
    /// Each player's hand size, in seat order.
    pub hand_sizes: Vec<usize>,
    /// The number of events.
    pub events: usize,
    /// The observer, or `null` for a bystander.
    pub me: Option<String>,
    /// Whether any deal fits every event; `null` when the game could not be
    /// counted (too large for the exact counter).
    pub consistent: Option<bool>,
    /// The number of consistent deals, when counted.
    pub models: Option<Count>,
    /// When inconsistent: a smallest set of events (and the hand) that
    /// cannot all be true.
    pub conflict: Option<Explanation>,
}

impl Check {
    /// The wire form of a check of `game`: `models` is its count (`None`
    /// when it could not be counted), `conflict` its conflict when the count
    /// is zero.
    pub fn new(game: &Game, models: Option<u128>, conflict: Option<&crate::Explanation>) -> Check {
        let deck = game.deck();
        let kind = match deck.kind() {
            DeckKind::Classic => "classic",
            DeckKind::Master => "master",
            DeckKind::Custom => "custom",
        };
        Check {
            deck: kind.to_string(),
            categories: deck.categories().map(|k| deck.category_cards(k).len()).collect(),
            players: game.players().map(|p| game.player_id(p).to_string()).collect(),
            hand_sizes: game.players().map(|p| game.hand_size(p)).collect(),
            events: game.events().len(),
            me: game.observer().map(|(me, _)| game.player_id(me).to_string()),
            consistent: models.map(|m| m > 0),
            models: models.map(Count),
            conflict: conflict.map(Explanation::from),
        }
    }
}

/// The ids of every place: the players in seat order, then `"case_file"`.
fn places(game: &Game) -> Vec<String> {
    game.places().map(|p| game.place_id(p).to_string()).collect()
}

/// Card ids of a set, in deck order.
fn ids(game: &Game, cards: CardSet) -> Vec<String> {
    cards.iter().map(|c| game.deck().id(c).to_string()).collect()
}

/// A [`Table`] of `cell` for every card and place of `game`.
fn table<T>(game: &Game, cell: impl Fn(Card, Place) -> T) -> Table<T> {
    let deck = game.deck();
    let places: Vec<(Place, &str)> = game.places().map(|p| (p, game.place_id(p))).collect();
    deck.cards()
        .map(|c| (deck.id(c).to_string(), places.iter().map(|&(p, id)| (id.to_string(), cell(c, p))).collect()))
        .collect()
}
