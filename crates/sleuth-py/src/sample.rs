//! `sleuth.sample`, `sleuth.estimate` and `sleuth.estimate_report`: the
//! exactly uniform sampler and Neller and Luo's WalkSAT search-and-sample,
//! as `sleuth sample` runs them (the same seed gives the same deals).

use crate::errors::{count_error, game_error, too_large};
use crate::game::Game;
use crate::py::{float_array, int8_array, to_python};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sleuth_core::count::MAX_STATES;
use sleuth_core::deduce::Settled;
use sleuth_core::sample::{
    estimate_from_deals, search_and_sample_traced, Deal, Estimate, Formula, Trace, UniformSampler, WalkSatConfig,
};
use sleuth_core::{wire, Analysis, Card, CardSet, CountError, CountOptions, CountProblem, Place, Status};
use std::collections::HashMap;

/// The most uniform draws in one call (as `sleuth sample --samples`).
const MAX_DRAWS: u64 = 100_000_000;
/// The most WalkSAT steps in one call (as `sleuth sample --iterations`).
const MAX_ITERATIONS: u64 = 10_000_000_000;

/// The sampler asked for, with its budget.
enum Sampler {
    /// Independent, exactly uniform draws.
    Uniform(u64),
    /// WalkSAT search-and-sample, `iterations` steps.
    WalkSat(WalkSatConfig),
}

impl Sampler {
    fn name(&self) -> String {
        match self {
            Sampler::Uniform(_) => "uniform".to_string(),
            Sampler::WalkSat(cfg) => cfg.name().unwrap_or("custom").to_string(),
        }
    }
}

/// The keyword arguments every sampling function takes.
struct Tuning {
    tenure: Option<u64>,
    noise: Option<f64>,
    restart: Option<f64>,
}

fn sampler(method: &str, n: u64, tuning: &Tuning) -> PyResult<Sampler> {
    if method == "uniform" {
        if tuning.tenure.is_some() || tuning.noise.is_some() || tuning.restart.is_some() {
            return Err(PyValueError::new_err(
                "tenure, noise and restart apply to the WalkSAT methods, not to uniform",
            ));
        }
        if n > MAX_DRAWS {
            return Err(PyValueError::new_err(format!("n: at most {MAX_DRAWS} uniform draws at a time, not {n}")));
        }
        return Ok(Sampler::Uniform(n));
    }
    let Some(cfg) = WalkSatConfig::named(method) else {
        return Err(PyValueError::new_err(format!(
            "unknown method '{method}': 'uniform', 'alg1', 'alg2', or the variations 'a' to 'e'"
        )));
    };
    if n > MAX_ITERATIONS {
        return Err(PyValueError::new_err(format!("n: at most {MAX_ITERATIONS} WalkSAT steps, not {n}")));
    }
    let mut cfg = cfg.with_iterations(n);
    if let Some(t) = tuning.tenure {
        cfg.tenure = t;
    }
    for (value, name, slot) in
        [(tuning.noise, "noise", &mut cfg.noise), (tuning.restart, "restart", &mut cfg.restart_prob)]
    {
        if let Some(p) = value {
            if !(0.0..=1.0).contains(&p) {
                return Err(PyValueError::new_err(format!("{name} {p} is not a probability between 0 and 1")));
            }
            *slot = p;
        }
    }
    Ok(Sampler::WalkSat(cfg))
}

/// What is certain, and the count: the exact analysis, or for a game too
/// large for it (WalkSAT only), what propagation settles.
enum Known {
    Exact(Analysis),
    Settled(Settled),
}

impl Known {
    fn status(&self, card: Card, place: Place) -> Status {
        match self {
            Known::Exact(a) => a.status(card, place),
            Known::Settled(s) => s.status(card, place),
        }
    }
}

/// Why nothing was sampled.
enum Failure {
    Count(CountError),
    Inconsistent,
}

struct Run {
    estimate: Estimate,
    known: Known,
}

/// Samples `game` as `sleuth sample` does, handing each recorded deal to
/// `record`.
fn run(
    game: &sleuth_core::Game,
    sampler: &Sampler,
    seed: u64,
    max_states: usize,
    mut record: impl FnMut(&Deal),
) -> Result<Run, Failure> {
    let limit = CountOptions::new().max_states(max_states);
    let known = match Analysis::with_options(game, &limit) {
        Ok(a) if !a.is_consistent() => return Err(Failure::Inconsistent),
        Ok(a) => Known::Exact(a),
        // WalkSAT still samples a game too large to count, with only what
        // propagation settles fixed.
        Err(e) if e.too_large_to_count() && matches!(sampler, Sampler::WalkSat(_)) => {
            Known::Settled(Settled::new(game).ok_or(Failure::Inconsistent)?)
        }
        Err(e) => return Err(Failure::Count(e)),
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let estimate = match sampler {
        Sampler::Uniform(draws) => {
            let uniform = UniformSampler::new(&CountProblem::new(game), &limit)
                .map_err(Failure::Count)?
                .ok_or(Failure::Inconsistent)?;
            let deals = (0..*draws).map(|_| {
                let deal = uniform.sample(&mut rng);
                record(&deal);
                deal
            });
            estimate_from_deals(game, deals, "uniform", true)
                .with_method(format!("uniform: {draws} independent exactly uniform draws, seed {seed}"))
        }
        Sampler::WalkSat(cfg) => {
            let formula = match &known {
                Known::Exact(analysis) => Formula::new(game, analysis),
                Known::Settled(settled) => Formula::by_propagation(game, settled),
            };
            let formula = formula.ok_or(Failure::Inconsistent)?;
            let estimate = search_and_sample_traced(&formula, cfg, &mut rng, |t| {
                if let Trace::Solution { assignment, recorded: true, .. } = t {
                    if let Some(deal) = formula.deal(assignment) {
                        record(&deal);
                    }
                }
            });
            let described = format!("{}, {} samples recorded, seed {seed}", estimate.method(), estimate.samples());
            estimate.with_method(described)
        }
    };
    Ok(Run { estimate, known })
}

/// [`run`] with the GIL released, its failure as a Python exception.
fn run_detached(
    py: Python<'_>,
    game: &Game,
    sampler: &Sampler,
    seed: u64,
    max_states: Option<usize>,
    record: impl FnMut(&Deal) + Send,
) -> PyResult<Run> {
    let inner = &game.inner;
    py.detach(|| run(inner, sampler, seed, max_states.unwrap_or(MAX_STATES), record)).map_err(|f| match f {
        Failure::Count(e) if e.too_large_to_count() && matches!(sampler, Sampler::Uniform(_)) => too_large(
            py,
            format!("{e}; the uniform sampler draws through the exact counter, but WalkSAT (method=\"alg2\") can estimate this game"),
        ),
        Failure::Count(e) => count_error(py, e),
        Failure::Inconsistent => {
            game_error(py, "no deal fits the history; sleuth.analyze(game).conflict names the conflicting events")
        }
    })
}

/// Sampled deals as a NumPy int8 array: a row per deal, a column per card
/// (`game.cards`), each the index of the card's place in `game.places`
/// (-1 for a face-up card).
///
/// `method="uniform"` draws `n` independent, exactly uniform deals.
/// `"alg1"`, `"alg2"` and the variations `"a"` to `"e"` run Neller and
/// Luo's WalkSAT search-and-sample for `n` steps and return the deals it
/// recorded (usually fewer than `n`; correlated and biased). The same seed
/// gives the same deals as `sleuth sample --deals`. The GIL is released.
#[pyfunction]
#[pyo3(signature = (game, n, method="uniform", seed=0, *, tenure=None, noise=None, restart=None, max_states=None))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments
pub fn sample<'py>(
    py: Python<'py>,
    game: &Game,
    n: u64,
    method: &str,
    seed: u64,
    tenure: Option<u64>,
    noise: Option<f64>,
    restart: Option<f64>,
    max_states: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let sampler = sampler(method, n, &Tuning { tenure, noise, restart })?;
    let cards = game.inner.deck().len();
    let np = game.inner.num_players();
    let mut rows: Vec<i8> = Vec::new();
    run_detached(py, game, &sampler, seed, max_states, |deal| {
        rows.extend(deal[..cards].iter().map(|p| p.map_or(-1, |p| p.index(np) as i8)));
    })?;
    int8_array(py, &rows, (rows.len() / cards.max(1), cards))
}

/// Probabilities estimated by a sampler, as a float64 array like
/// `Analysis.to_numpy()` (a row per card, a column per place); `n` and
/// `method` as for `sample`. Certain cells hold the exact 0 or 1.
#[pyfunction]
#[pyo3(signature = (game, n, method="uniform", seed=0, *, tenure=None, noise=None, restart=None, max_states=None))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments
pub fn estimate<'py>(
    py: Python<'py>,
    game: &Game,
    n: u64,
    method: &str,
    seed: u64,
    tenure: Option<u64>,
    noise: Option<f64>,
    restart: Option<f64>,
    max_states: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let sampler = sampler(method, n, &Tuning { tenure, noise, restart })?;
    let g = &game.inner;
    let run = run_detached(py, game, &sampler, seed, max_states, |_| {})?;
    let values: Vec<f64> = g
        .deck()
        .cards()
        .flat_map(|c| g.places().map(move |p| (c, p)))
        .map(|(c, p)| run.estimate.probability(c, p))
        .collect();
    float_array(py, &values, (g.deck().len(), g.num_places()))
}

/// The estimate as `sleuth sample --json` prints it (a dict): estimated
/// probabilities, 95 % intervals, the number of samples, what is certain,
/// and the case files seen.
#[pyfunction]
#[pyo3(signature = (game, n, method="uniform", seed=0, *, tenure=None, noise=None, restart=None, max_states=None))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments
pub fn estimate_report<'py>(
    py: Python<'py>,
    game: &Game,
    n: u64,
    method: &str,
    seed: u64,
    tenure: Option<u64>,
    noise: Option<f64>,
    restart: Option<f64>,
    max_states: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let sampler = sampler(method, n, &Tuning { tenure, noise, restart })?;
    let g = &game.inner;
    let mut seen: HashMap<CardSet, u64> = HashMap::new();
    let run = run_detached(py, game, &sampler, seed, max_states, |deal| {
        let case: CardSet = g.deck().cards().filter(|c| deal[c.index()] == Some(Place::CaseFile)).collect();
        *seen.entry(case).or_insert(0) += 1;
    })?;
    let mut case_files: Vec<(CardSet, u64)> = seen.into_iter().collect();
    case_files.sort_by(|a, b| b.1.cmp(&a.1).then(a.0 .0.cmp(&b.0 .0)));
    let models = match &run.known {
        Known::Exact(a) => Some(a.consistent_deals()),
        Known::Settled(_) => None,
    };
    let report =
        wire::Sample::new(g, &run.estimate, models, |c, p| run.known.status(c, p), &sampler.name(), seed, &case_files);
    to_python(py, &report)
}
