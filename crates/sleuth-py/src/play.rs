//! `sleuth.advise` and `sleuth.generate`.

use crate::errors::{count_error, game_error};
use crate::game::Game;
use crate::py::to_python;
use pyo3::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sleuth_core::advice::{
    AdviceError, AdviceOptions, AdviceProgress, ENTROPY_SAMPLES, EXACT_VIEWS, OPPONENT_STATES, TELL_SAMPLES,
};
use sleuth_core::count::MAX_STATES;
use sleuth_core::generate::{try_generate, DeckChoice, GenConfig, GenError};
use sleuth_core::wire;

/// What the observer should do next, as `sleuth advise --json` prints it
/// (a dict): the best `suggestions` choices (suggestions that differ only
/// in cards nobody else can show have the same answers: one choice, listed
/// together), whether to accuse, the opponents' progress (each threat with its 95 % interval from `samples` deals at
/// most, within `opponent_states` counted states, each mean entropy from
/// the first `entropy_samples`: the same numbers on every machine; exact,
/// over every deal, where the deals are few and their opponents' views at
/// most `exact_views`). The
/// GIL is released while it counts.
///
/// `on_update`, if given, is called with the ranking so far (a dict:
/// `models`, `entropy`, `evaluated`, `shortlisted` and `suggestions`, the
/// best so far with their exact numbers, which the final advice keeps)
/// before the first suggestion is evaluated exactly and after each one;
/// an exception it raises stops the advice and is raised here. Ctrl-C
/// (KeyboardInterrupt) is heard at the same points, with or without it.
/// Raises GameError for a bystander's game or an inconsistent history.
#[pyfunction]
#[pyo3(signature = (game, *, suggestions=5, shortlist=12, samples=32, opponent_states=OPPONENT_STATES, entropy_samples=ENTROPY_SAMPLES, exact_views=EXACT_VIEWS, seed=0, tell_samples=TELL_SAMPLES, max_states=None, on_update=None))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments
pub fn advise<'py>(
    py: Python<'py>,
    game: &Game,
    suggestions: usize,
    shortlist: usize,
    samples: usize,
    opponent_states: usize,
    entropy_samples: usize,
    exact_views: usize,
    seed: u64,
    tell_samples: usize,
    max_states: Option<usize>,
    on_update: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let options = AdviceOptions {
        suggestions,
        shortlist,
        samples,
        opponent_states,
        entropy_samples,
        exact_views,
        seed,
        tell_samples,
        max_states: max_states.unwrap_or(MAX_STATES),
        ..AdviceOptions::default()
    };
    let inner = &game.inner;
    // The first error of an update (the callback's, or Ctrl-C's), which stops the advice.
    let mut raised = None;
    let update = |p: &AdviceProgress<'_>| {
        let heard = Python::attach(|py| {
            py.check_signals()?;
            let Some(f) = &on_update else { return Ok(()) };
            let so_far = wire::view::RankingSoFar::new(inner, p, suggestions);
            f.call1(py, (to_python(py, &so_far)?,)).map(drop)
        });
        heard.map_err(|e| raised = Some(e)).is_ok()
    };
    let advised = py.detach(|| sleuth_core::advice::advise_with(inner, &options, update));
    if let Some(e) = raised {
        return Err(e);
    }
    match advised {
        Ok(advice) => to_python(py, &wire::Advice::new(inner, &advice)),
        Err(AdviceError::Count(e)) => Err(count_error(py, e)),
        Err(AdviceError::Inconsistent) => Err(game_error(
            py,
            format!("{}; sleuth.analyze(game).conflict names the conflicting events", AdviceError::Inconsistent),
        )),
        Err(e) => Err(game_error(py, e.to_string())),
    }
}

/// A random game played by the rules, from a seed (as `sleuth generate`):
/// the same seed and options give the same game. `deck`: "classic",
/// "master", or category sizes such as [3, 3, 4]. With `return_deal`, a
/// pair (game, deal): the true place of every card ({card: player id,
/// "case_file" or "face_up"}).
#[pyfunction]
#[pyo3(
    signature = (seed, deck=GenDeck(DeckChoice::Classic), players=6, suggestions=20, *, bystander=false, face_up=0, accusation_rate=0.0, hand_sizes=false, corrupt=false, return_deal=false),
    text_signature = "(seed, deck='classic', players=6, suggestions=20, *, bystander=False, face_up=0, accusation_rate=0.0, hand_sizes=False, corrupt=False, return_deal=False)"
)]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments
pub fn generate<'py>(
    py: Python<'py>,
    seed: u64,
    deck: GenDeck,
    players: usize,
    suggestions: usize,
    bystander: bool,
    face_up: usize,
    accusation_rate: f64,
    hand_sizes: bool,
    corrupt: bool,
    return_deal: bool,
) -> PyResult<Bound<'py, PyAny>> {
    const MAX_SUGGESTIONS: usize = 100_000;
    if suggestions > MAX_SUGGESTIONS {
        return Err(game_error(py, format!("suggestions {suggestions}: at most {MAX_SUGGESTIONS} are supported")));
    }
    let mut cfg = GenConfig::new(deck.0, players, !bystander, suggestions);
    cfg.face_up = face_up;
    cfg.accusation_rate = accusation_rate;
    cfg.explicit_hand_sizes = hand_sizes;
    cfg.corrupt = corrupt;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let generated = try_generate(&cfg, &mut rng).map_err(|e| {
        let argument = match e {
            GenError::Players(_) => "players: ",
            GenError::FaceUp { .. } => "face_up: ",
            GenError::AccusationRate(_) => "accusation_rate: ",
            GenError::NoCategories
            | GenError::TooManyCategories(_)
            | GenError::EmptyCategory(_)
            | GenError::TooManyCards(_) => "deck: ",
            _ => "",
        };
        game_error(py, format!("{argument}{e}"))
    })?;
    let game = sleuth_core::Game::new(&generated.file).map_err(|e| game_error(py, e.to_string()))?;
    let game = Bound::new(py, Game::wrap(game))?.into_any();
    if return_deal {
        Ok((game, generated.deal).into_pyobject(py)?.into_any())
    } else {
        Ok(game)
    }
}

/// The `deck` argument of `generate`.
pub struct GenDeck(DeckChoice);

impl<'py> FromPyObject<'_, 'py> for GenDeck {
    type Error = PyErr;

    fn extract(deck: Borrowed<'_, 'py, PyAny>) -> PyResult<GenDeck> {
        if let Ok(name) = deck.extract::<String>() {
            return match name.as_str() {
                "classic" => Ok(GenDeck(DeckChoice::Classic)),
                "master" => Ok(GenDeck(DeckChoice::Master)),
                _ => Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "deck '{name}': \"classic\", \"master\" or category sizes such as [3, 3, 4]"
                ))),
            };
        }
        Ok(GenDeck(DeckChoice::Custom(deck.extract::<Vec<usize>>()?)))
    }
}
