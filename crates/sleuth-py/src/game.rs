//! `sleuth.Game`: a validated game file, built from JSON, a file, or the
//! builder, and extended one event at a time.

use crate::errors::game_error;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use sleuth_core::format::{
    AccusationSpec, CardSpec, CategorySpec, CustomDeck, DeckSpec, EventSpec, GameFile, SuggestionSpec,
};
use sleuth_core::generate::DeckChoice;
use sleuth_core::{Card, Place};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::PathBuf;
use std::sync::Arc;

/// The largest game file read (as the CLI's limit).
const MAX_FILE_BYTES: u64 = 64 << 20;

/// A Clue game: deck, players, the observer's hand, and what happened.
/// Immutable: `suggest` and `accuse` return a new game.
#[pyclass(frozen, module = "sleuth")]
pub struct Game {
    pub(crate) inner: Arc<sleuth_core::Game>,
}

impl Game {
    pub(crate) fn wrap(game: sleuth_core::Game) -> Game {
        Game { inner: Arc::new(game) }
    }

    fn with_event(&self, py: Python<'_>, event: EventSpec) -> PyResult<Game> {
        self.inner.with_event(event).map(Game::wrap).map_err(|e| game_error(py, e.to_string()))
    }
}

/// A game file checked: the message of an invalid one is the CLI's,
/// prefixed with `name` when there is one.
fn load(py: Python<'_>, text: &str, name: Option<&str>) -> PyResult<Game> {
    sleuth_core::Game::from_json(text).map(Game::wrap).map_err(|e| match name {
        Some(name) => game_error(py, format!("{name}: {e}")),
        None => game_error(py, e.to_string()),
    })
}

#[pymethods]
impl Game {
    /// A game from the JSON text of a game file (docs/game-format.md).
    /// Raises GameError with the CLI's message when it is not a valid game.
    #[staticmethod]
    fn from_json(py: Python<'_>, text: &str) -> PyResult<Game> {
        load(py, text, None)
    }

    /// A game from a game file. Raises OSError when it cannot be read and
    /// GameError (naming the file, as the CLI does) when it is not a valid game.
    #[staticmethod]
    fn from_file(py: Python<'_>, path: PathBuf) -> PyResult<Game> {
        let name = format!("'{}'", path.display());
        let mut bytes = Vec::new();
        std::fs::File::open(&path)?.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(game_error(
                py,
                format!(
                    "cannot read {name}: it is larger than {} MiB, too large for a game file",
                    MAX_FILE_BYTES >> 20
                ),
            ));
        }
        let text = String::from_utf8(bytes).map_err(|e| {
            let at = e.utf8_error().valid_up_to();
            game_error(py, format!("cannot read {name}: it is not UTF-8 text (invalid byte at offset {at})"))
        })?;
        load(py, &text, Some(&name))
    }

    /// A game with no events yet.
    ///
    /// `deck`: "classic", "master", category sizes such as [3, 3, 4] (card
    /// ids a0, a1, ..., b0, ... as `sleuth generate` names them), lists of
    /// card ids per category, or a dict {category name: [card ids]}.
    /// `players`: ids in seat order. `me` and `hand`: the observer and its
    /// cards (None for a bystander). `hand_sizes`: {player: size} (default:
    /// the dealing rule). `face_up`: cards every player has seen.
    #[staticmethod]
    #[pyo3(
        signature = (deck="classic".into(), players=Vec::new(), me=None, hand=Vec::new(), hand_sizes=None, face_up=Vec::new()),
        text_signature = "(deck='classic', players=[], me=None, hand=[], hand_sizes=None, face_up=[])"
    )]
    fn new(
        py: Python<'_>,
        deck: DeckArg,
        players: Vec<String>,
        me: Option<String>,
        hand: Vec<String>,
        hand_sizes: Option<BTreeMap<String, i64>>,
        face_up: Vec<String>,
    ) -> PyResult<Game> {
        let hand = if me.is_some() || !hand.is_empty() { Some(hand) } else { None };
        let file = GameFile { version: 1, deck: deck.0, players, hand_sizes, face_up, me, hand, events: Vec::new() };
        sleuth_core::Game::new(&file).map(Game::wrap).map_err(|e| game_error(py, e.to_string()))
    }

    /// The game file as JSON text (docs/game-format.md).
    fn to_json(&self) -> String {
        self.inner.to_file().to_json()
    }

    /// The game file as a dict (what `json.loads(game.to_json())` gives).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::py::to_python(py, &self.inner.to_file())
    }

    /// This game with one more suggestion: `by` suggested `cards` (one per
    /// category); `refuted_by` is the first player clockwise who showed a
    /// card (None: nobody could), `shown` the card, when the observer saw it.
    #[pyo3(signature = (by, cards, refuted_by=None, shown=None))]
    fn suggest(
        &self,
        py: Python<'_>,
        by: String,
        cards: Vec<String>,
        refuted_by: Option<String>,
        shown: Option<String>,
    ) -> PyResult<Game> {
        self.with_event(py, EventSpec::Suggestion(SuggestionSpec { by, cards, refuted_by, shown }))
    }

    /// This game with one more accusation: `by` accused `cards`, and was
    /// right (`correct`) or not.
    fn accuse(&self, py: Python<'_>, by: String, cards: Vec<String>, correct: bool) -> PyResult<Game> {
        self.with_event(py, EventSpec::Accusation(AccusationSpec { by, cards, correct }))
    }

    /// The same game as a bystander sees it: no hand and no shown cards.
    fn bystander(&self) -> Game {
        Game::wrap(self.inner.bystander())
    }

    /// The events, as the game file writes them (dicts).
    #[getter]
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::py::to_python(py, &self.inner.to_file().events)
    }

    /// Event `index` in words, e.g. "a suggested mu, kn, ha; c refuted (card not seen)".
    fn describe_event(&self, index: usize) -> PyResult<String> {
        self.inner.describe_event(index).ok_or_else(|| {
            pyo3::exceptions::PyIndexError::new_err(format!(
                "event {index} does not exist: the game has {} events",
                self.inner.events().len()
            ))
        })
    }

    /// "classic", "master" or "custom".
    #[getter]
    fn deck(&self) -> &'static str {
        match self.inner.deck().kind() {
            sleuth_core::model::DeckKind::Classic => "classic",
            sleuth_core::model::DeckKind::Master => "master",
            sleuth_core::model::DeckKind::Custom => "custom",
        }
    }

    /// The categories in order, each as (name, [card ids]).
    #[getter]
    fn categories(&self) -> Vec<(String, Vec<String>)> {
        let deck = self.inner.deck();
        deck.categories().map(|k| (deck.category_name(k).to_string(), deck.ids(deck.category_cards(k)))).collect()
    }

    /// The card ids in deck order (the rows of `Analysis.to_numpy()`).
    #[getter]
    fn cards(&self) -> Vec<String> {
        card_ids(&self.inner)
    }

    /// The player ids in seat order.
    #[getter]
    fn players(&self) -> Vec<String> {
        self.inner.players().map(|p| self.inner.player_id(p).to_string()).collect()
    }

    /// The player ids in seat order, then "case_file" (the columns of
    /// `Analysis.to_numpy()`).
    #[getter]
    fn places(&self) -> Vec<String> {
        place_ids(&self.inner)
    }

    /// Each player's hand size.
    #[getter]
    fn hand_sizes(&self) -> BTreeMap<String, usize> {
        self.inner.players().map(|p| (self.inner.player_id(p).to_string(), self.inner.hand_size(p))).collect()
    }

    /// The observer's id, or None for a bystander.
    #[getter]
    fn me(&self) -> Option<String> {
        self.inner.observer().map(|(p, _)| self.inner.player_id(p).to_string())
    }

    /// The observer's cards (empty for a bystander).
    #[getter]
    fn hand(&self) -> Vec<String> {
        self.inner.observer().map(|(_, hand)| self.inner.deck().ids(hand)).unwrap_or_default()
    }

    /// The face-up cards.
    #[getter]
    fn face_up(&self) -> Vec<String> {
        self.inner.deck().ids(self.inner.face_up())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Game>().is_ok_and(|o| o.get().inner.to_file() == self.inner.to_file())
    }

    fn __repr__(&self) -> String {
        let quoted = |id: &str| format!("'{}'", sleuth_core::text::quote(id));
        let players: Vec<String> = self.players().iter().map(|p| quoted(p)).collect();
        let me = match self.me() {
            Some(me) => format!(", me {}", quoted(&me)),
            None => String::new(),
        };
        let n = self.inner.events().len();
        format!("<sleuth.Game: {} deck, players {}{me}, {n} events>", self.deck(), players.join(" "))
    }

    /// Pickled as its JSON (for multiprocessing and caches).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((py.get_type::<Game>().getattr("from_json")?, (self.to_json(),)))
    }
}

/// The `deck` argument of `Game.new`.
pub struct DeckArg(DeckSpec);

impl From<&str> for DeckArg {
    fn from(name: &str) -> DeckArg {
        DeckArg(DeckSpec::Named(name.to_string()))
    }
}

/// Category names and card ids as `sleuth generate` writes them.
fn letter(k: usize) -> char {
    (b'a' + (k % 26) as u8) as char
}

impl<'py> FromPyObject<'_, 'py> for DeckArg {
    type Error = PyErr;

    fn extract(deck: Borrowed<'_, 'py, PyAny>) -> PyResult<DeckArg> {
        if let Ok(name) = deck.extract::<String>() {
            return Ok(DeckArg(DeckSpec::Named(name)));
        }
        let category = |name: String, cards: Vec<String>| CategorySpec {
            name,
            cards: cards.into_iter().map(CardSpec::Id).collect(),
        };
        let categories: Vec<CategorySpec> = if let Ok(dict) = deck.cast::<PyDict>() {
            let mut categories = Vec::new();
            for (name, cards) in dict.iter() {
                categories.push(category(name.extract()?, cards.extract()?));
            }
            categories
        } else if let Ok(sizes) = deck.extract::<Vec<usize>>() {
            return Ok(DeckArg(DeckChoice::Custom(sizes).to_spec()));
        } else if let Ok(lists) = deck.extract::<Vec<Vec<String>>>() {
            lists.into_iter().enumerate().map(|(k, cards)| category(format!("category {}", letter(k)), cards)).collect()
        } else {
            return Err(PyTypeError::new_err(
                "deck is \"classic\", \"master\", category sizes such as [3, 3, 4], lists of card ids, \
                 or a dict {category: [card ids]}",
            ));
        };
        Ok(DeckArg(DeckSpec::Custom(CustomDeck { categories })))
    }
}

/// The card ids in deck order.
pub fn card_ids(game: &sleuth_core::Game) -> Vec<String> {
    game.deck().ids(game.deck().all())
}

/// The player ids in seat order, then "case_file".
pub fn place_ids(game: &sleuth_core::Game) -> Vec<String> {
    game.places().map(|p| game.place_id(p).to_string()).collect()
}

/// A card by id, or GameError as the CLI words it.
pub fn find_card(py: Python<'_>, game: &sleuth_core::Game, id: &str) -> PyResult<Card> {
    let deck = game.deck();
    if let Some(c) = deck.card(id) {
        return Ok(c);
    }
    let hint = deck.suggest_id(id).map(|s| format!(" (did you mean '{s}'?)")).unwrap_or_default();
    Err(game_error(
        py,
        format!("unknown card '{}'{hint}; the cards are {}", sleuth_core::text::quote(id), card_ids(game).join(", ")),
    ))
}

/// A place (player id or "case_file") by id, or GameError as the CLI words it.
pub fn find_place(py: Python<'_>, game: &sleuth_core::Game, id: &str) -> PyResult<Place> {
    game.place(id).ok_or_else(|| {
        game_error(
            py,
            format!("unknown place '{}'; the places are {}", sleuth_core::text::quote(id), place_ids(game).join(", ")),
        )
    })
}
