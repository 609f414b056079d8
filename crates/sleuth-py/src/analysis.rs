//! `sleuth.analyze`, `sleuth.analyze_many`, `sleuth.why` and the exact
//! `Analysis` they return.

use crate::errors::{count_error, too_large};
use crate::game::{card_ids, find_card, find_place, place_ids, Game};
use crate::py::{float_array, fraction, to_python};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyTuple;
use sleuth_core::count::MAX_STATES;
use sleuth_core::{wire, CountError, CountOptions, Status};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// The exact analysis of a game: the number of consistent deals, and for
/// every card and place how many of them put the card there.
#[pyclass(frozen, module = "sleuth")]
pub struct Analysis {
    game: Arc<sleuth_core::Game>,
    inner: sleuth_core::Analysis,
}

fn options(max_states: Option<usize>) -> CountOptions<'static> {
    CountOptions::new().max_states(max_states.unwrap_or(MAX_STATES))
}

fn run(game: &sleuth_core::Game, max_states: Option<usize>) -> Result<sleuth_core::Analysis, CountError> {
    sleuth_core::Analysis::with_options(game, &options(max_states))
}

/// Counts every consistent deal of `game` exactly (the GIL released).
///
/// Raises TooLargeError when the game is too large for the exact counter
/// (`max_states`, default 100,000,000, bounds its work and memory).
#[pyfunction]
#[pyo3(signature = (game, *, max_states=None))]
pub fn analyze(py: Python<'_>, game: &Game, max_states: Option<usize>) -> PyResult<Analysis> {
    let game = Arc::clone(&game.inner);
    match py.detach(|| run(&game, max_states)) {
        Ok(inner) => Ok(Analysis { game, inner }),
        Err(e) => Err(count_error(py, e)),
    }
}

/// `analyze` of each game on a pool of `threads` threads (default: one per
/// core), the GIL released; the analyses in the order of `games`.
#[pyfunction]
#[pyo3(signature = (games, threads=None, *, max_states=None))]
pub fn analyze_many(
    py: Python<'_>,
    games: Vec<PyRef<'_, Game>>,
    threads: Option<usize>,
    max_states: Option<usize>,
) -> PyResult<Vec<Analysis>> {
    if threads == Some(0) {
        return Err(PyValueError::new_err("threads must be at least 1"));
    }
    let games: Vec<Arc<sleuth_core::Game>> = games.iter().map(|g| Arc::clone(&g.inner)).collect();
    let threads =
        threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).min(games.len()).max(1);
    let results: Vec<Mutex<Option<Result<sleuth_core::Analysis, CountError>>>> =
        games.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    py.detach(|| {
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(game) = games.get(i) else { break };
                    let result = run(game, max_states);
                    *results[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
                });
            }
        })
    });
    let mut out = Vec::with_capacity(games.len());
    for (i, (game, slot)) in games.into_iter().zip(results).enumerate() {
        match slot.into_inner().unwrap_or_else(|e| e.into_inner()) {
            Some(Ok(inner)) => out.push(Analysis { game, inner }),
            Some(Err(e)) => {
                let e = count_error(py, e);
                let message = format!("games[{i}]: {}", e.value(py));
                return Err(PyErr::from_type(e.get_type(py), message));
            }
            None => unreachable!("every index below games.len() is taken by a thread"),
        }
    }
    Ok(out)
}

/// A smallest set of events (and whether the observer's hand is part of it)
/// that forces "card is at place" (or that it is not): an Explanation, or
/// None when the fact is not certain or the game is inconsistent (see
/// `analyze(game).conflict`). No events and no hand: the rules alone
/// (deck, hand sizes, face-up cards) force it.
#[pyfunction]
#[pyo3(signature = (game, card, place, *, max_states=None))]
pub fn why<'py>(
    py: Python<'py>,
    game: &Game,
    card: &str,
    place: &str,
    max_states: Option<usize>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let inner = Arc::clone(&game.inner);
    let (card, place) = (find_card(py, &inner, card)?, find_place(py, &inner, place)?);
    let answer = py.detach(|| sleuth_core::why(&inner, card, place, &options(max_states)));
    match answer.map_err(|e| count_error(py, e))? {
        sleuth_core::Why::Certain { explanation, .. } => explanation_object(py, &explanation).map(Some),
        _ => Ok(None),
    }
}

static EXPLANATION: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// `sleuth.Explanation(events, hand, minimum)`.
fn explanation_object<'py>(py: Python<'py>, e: &sleuth_core::Explanation) -> PyResult<Bound<'py, PyAny>> {
    EXPLANATION.import(py, "sleuth._types", "Explanation")?.call1((e.events.clone(), e.hand, e.minimum))
}

impl Analysis {
    fn cell(&self, py: Python<'_>, card: &str, place: &str) -> PyResult<(sleuth_core::Card, sleuth_core::Place)> {
        Ok((find_card(py, &self.game, card)?, find_place(py, &self.game, place)?))
    }

    fn wire(&self) -> wire::Analysis {
        wire::Analysis::new(&self.game, &self.inner)
    }
}

#[pymethods]
impl Analysis {
    /// Whether any deal fits every event.
    #[getter]
    fn consistent(&self) -> bool {
        self.inner.is_consistent()
    }

    /// The number of consistent deals (exact).
    #[getter]
    fn models(&self) -> u128 {
        self.inner.consistent_deals()
    }

    /// The game analysed.
    #[getter]
    fn game(&self) -> Game {
        Game { inner: Arc::clone(&self.game) }
    }

    /// The card ids in deck order (the rows of `to_numpy()`).
    #[getter]
    fn cards(&self) -> Vec<String> {
        card_ids(&self.game)
    }

    /// The player ids in seat order, then "case_file" (the columns of `to_numpy()`).
    #[getter]
    fn places(&self) -> Vec<String> {
        place_ids(&self.game)
    }

    /// The number of consistent deals with `card` at `place` (exact).
    fn count(&self, py: Python<'_>, card: &str, place: &str) -> PyResult<u128> {
        let (c, p) = self.cell(py, card, place)?;
        Ok(self.inner.count(c, p))
    }

    /// The probability of `card` at `place`, exactly, as a Fraction
    /// (`count / models`; 0 when no deal is consistent).
    fn fraction<'py>(&self, py: Python<'py>, card: &str, place: &str) -> PyResult<Bound<'py, PyAny>> {
        let (c, p) = self.cell(py, card, place)?;
        let (num, den) = self.inner.fraction(c, p);
        fraction(py, num, den)
    }

    /// The probability of `card` at `place`, as the nearest float.
    fn probability(&self, py: Python<'_>, card: &str, place: &str) -> PyResult<f64> {
        let (c, p) = self.cell(py, card, place)?;
        Ok(self.inner.probability(c, p))
    }

    /// "yes" (in every consistent deal), "no" (in none) or "maybe".
    fn status(&self, py: Python<'_>, card: &str, place: &str) -> PyResult<&'static str> {
        let (c, p) = self.cell(py, card, place)?;
        Ok(match self.inner.status(c, p) {
            Status::Yes => "yes",
            Status::No => "no",
            Status::Maybe => "maybe",
        })
    }

    /// The probabilities as a float64 array: a row per card (`cards`), a
    /// column per place (`places`).
    fn to_numpy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let values: Vec<f64> = self
            .game
            .deck()
            .cards()
            .flat_map(|c| self.game.places().map(move |p| (c, p)))
            .map(|(c, p)| self.inner.probability(c, p))
            .collect();
        float_array(py, &values, (self.game.deck().len(), self.game.num_places()))
    }

    /// The exact counts as a list of rows of Python ints, in the order of
    /// `to_numpy()`: `counts()[i][j] / models` is the probability of card
    /// `cards[i]` at place `places[j]`.
    fn counts(&self) -> Vec<Vec<u128>> {
        self.game.deck().cards().map(|c| self.game.places().map(|p| self.inner.count(c, p)).collect()).collect()
    }

    /// The possible case files, most likely first: a list of (tuple of card
    /// ids, exact Fraction). Empty when the game is inconsistent; raises
    /// TooLargeError when there are too many to list (more than 100,000).
    fn case_files<'py>(&self, py: Python<'py>) -> PyResult<Vec<(Bound<'py, PyTuple>, Bound<'py, PyAny>)>> {
        if !self.inner.case_files_listed() {
            return Err(too_large(
                py,
                format!(
                    "more than {} possible case files, too many to list; the marginals are exact",
                    sleuth_core::count::MAX_CASE_FILES
                ),
            ));
        }
        let deck = self.game.deck();
        let total = self.inner.consistent_deals();
        self.inner
            .case_files()
            .map(|(cards, n)| Ok((PyTuple::new(py, cards.iter().map(|&c| deck.id(c)))?, fraction(py, n, total)?)))
            .collect()
    }

    /// None when the game is consistent; otherwise an Explanation: a
    /// smallest set of events (and whether the hand takes part) that cannot
    /// all be true together.
    #[getter]
    fn conflict<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.inner.conflict().map(|e| explanation_object(py, e)).transpose()
    }

    /// The JSON contract as a dict: what `sleuth analyze --json` prints
    /// (exact counts as decimal strings).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, &self.wire())
    }

    /// The JSON contract as text (`sleuth analyze --json`).
    fn to_json(&self) -> PyResult<String> {
        crate::py::to_json(&self.wire())
    }

    /// The notepad as an HTML table, for Jupyter.
    fn _repr_html_(&self) -> String {
        crate::html::notepad(&self.game, &self.inner)
    }

    fn __repr__(&self) -> String {
        if self.inner.is_consistent() {
            format!("<sleuth.Analysis: {} consistent deals>", self.inner.consistent_deals())
        } else {
            "<sleuth.Analysis: inconsistent>".to_string()
        }
    }
}
