//! Neller and Luo's sampling-error experiment (section 4.1 of "Mixed logical
//! and probabilistic reasoning in the game of Clue"), rerun on Sleuth's
//! samplers, with the exactly uniform sampler alongside.
//!
//! # Protocol
//!
//! 1. Simulate [`SamplingConfig::games`] complete games: classic deck,
//!    [`SamplingConfig::players`] seats (6 by default; the paper does not
//!    say), every seat an [`ExactAgent`](crate::ExactAgent) or every seat a
//!    [`RandomAgent`](crate::RandomAgent) ([`Agents`]; the paper does not
//!    say either). Game `i` is played with seed
//!    [`game_seed`]`(seed, i)`.
//! 2. Take the winner's view, without accusations (neither agent accuses
//!    wrongly, so only the winning accusation is dropped).
//! 3. Reduce its suggestions to a minimal subset that still determines the
//!    case file ([`minimal_suggestions`]: greedy deletion, earliest first;
//!    the hand is always kept).
//! 4. Remove kept suggestions from the end backwards, one at a time, down
//!    to none: each step is a state with at least as many consistent deals.
//!    Every state is counted exactly. States with at most
//!    [`SamplingConfig::max_models`] deals are the paper's range (it stopped
//!    a game at the first state above 10,000,000); later states are
//!    *beyond*, reported separately.
//! 5. For each selected state with at least one open card-place pair, run
//!    every WalkSAT method of [`SamplingConfig::methods`] [`SamplingConfig::runs`]
//!    times for [`SamplingConfig::iterations`] iterations, each run with its
//!    own seed, and take each run's RMSD over the open pairs against the
//!    exact probabilities (a run that records no sample estimates 0
//!    everywhere). Then the exactly uniform sampler, as many times: with as
//!    many draws as Algorithm 2 recorded on average on that state
//!    ([`Method::UniformSamples`]), and drawing for as long as an
//!    Algorithm 2 run took on average there ([`Method::UniformTime`]).
//!
//! # Determinism
//!
//! Each (state, method, run) task seeds its own ChaCha8 generator from the
//! experiment seed, the game, the state, the method and the run, so every
//! result except the measured times, and the uniform-time runs' draw counts
//! (which follow the clock), is the same for any number of threads and any
//! sharding.

mod protocol;
pub(crate) mod results;
mod summary;
pub mod table1;

pub use protocol::{
    case_file_determined, game_config, minimal_suggestions, prepare_game, winner_view, GameStatus, PreparedGame, State,
};
pub use results::{merge, read_raw, write_merged, write_raw, GameRow, Range, Results, RunRow, StateRow};
pub use summary::{
    by_size, loess, methods_run, state_means, summarize, write_summary, MethodSummary, RangeStats, SizeRow, StateMean,
    Summary, TenureRow, Wins, PAPER_THRESHOLD, SPAN,
};

use crate::error::SimError;
use crate::journal::Journal;
use crate::stats::game_seed;
use rand::SeedableRng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use sleuth_core::sample::{estimate_from_deals, search_and_sample, Estimate, Formula, UniformSampler, WalkSatConfig};
use sleuth_core::CountOptions;
use sleuth_core::{Analysis, CountError, Game, Status};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// The size and seed of a run of the experiment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SamplingConfig {
    /// Games simulated (the paper: 100).
    pub games: usize,
    /// Seats per game.
    pub players: usize,
    /// Who plays them.
    #[serde(default)]
    pub agents: Agents,
    /// Runs of every method on every state (the paper: 100).
    pub runs: usize,
    /// WalkSAT iterations per run (the paper: 100,000).
    pub iterations: u64,
    /// The paper's threshold on consistent deals (10,000,000); 0: no
    /// threshold, every state is in the paper's range.
    pub max_models: u64,
    /// At most this many paper-range states per game, fewest deals first
    /// (`None`: all).
    pub max_states: Option<usize>,
    /// At most this many states beyond the threshold per game, fewest deals
    /// first (`None`: all of them, down to no suggestions).
    pub beyond: Option<usize>,
    /// The experiment seed.
    pub seed: u64,
    /// The methods run, in table order (a `config.json` without them ran
    /// [`Method::ORIGINAL`]).
    #[serde(default = "original_methods")]
    pub methods: Vec<Method>,
    /// Which games this process runs.
    pub shard: Shard,
    /// Worker threads (`None`: rayon's default, one per core). Not part of
    /// the results.
    #[serde(skip)]
    pub threads: Option<usize>,
}

impl SamplingConfig {
    /// The paper's experiment as EXPERIMENTS.md reproduces it: 100 games of
    /// six random agents (their games give about as many states within the
    /// threshold as the paper's; exact agents' give a sixth), every state
    /// within the 10,000,000 threshold and none beyond it, 100 runs of
    /// 100,000 iterations of every method.
    pub fn paper() -> SamplingConfig {
        SamplingConfig {
            games: 100,
            players: 6,
            agents: Agents::Random,
            runs: 100,
            iterations: WalkSatConfig::DEFAULT_ITERATIONS,
            max_models: 10_000_000,
            max_states: None,
            beyond: Some(0),
            seed: 0,
            methods: Method::ALL.to_vec(),
            shard: Shard::ALL,
            threads: None,
        }
    }

    /// A size for CI: 3 games, 3 runs of 2,000 iterations, at most 2 states
    /// in the paper's range and 1 beyond per game.
    pub fn quick() -> SamplingConfig {
        SamplingConfig {
            games: 3,
            runs: 3,
            iterations: 2_000,
            max_states: Some(2),
            beyond: Some(1),
            ..SamplingConfig::paper()
        }
    }

    /// Whether a state with `models` deals is in the paper's range.
    pub fn in_paper_range(&self, models: u128) -> bool {
        self.max_models == 0 || models <= u128::from(self.max_models)
    }
}

fn original_methods() -> Vec<Method> {
    Method::ORIGINAL.to_vec()
}

/// The agents that play the simulated games.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Agents {
    /// Every seat an [`ExactAgent`](crate::ExactAgent): it suggests the most
    /// likely case file, so it usually wins right after a suggestion nobody
    /// could refute, and that one suggestion is the whole minimal subset.
    #[default]
    Exact,
    /// Every seat a [`RandomAgent`](crate::RandomAgent): random suggestions,
    /// and an accusation once its notepad of seen cards leaves one card per
    /// category. Games are longer and won by elimination, so minimal subsets
    /// are longer too.
    Random,
}

impl Agents {
    /// `exact` or `random`.
    pub fn as_str(self) -> &'static str {
        match self {
            Agents::Exact => "exact",
            Agents::Random => "random",
        }
    }
}

impl FromStr for Agents {
    type Err = String;

    fn from_str(s: &str) -> Result<Agents, String> {
        match s {
            "exact" => Ok(Agents::Exact),
            "random" => Ok(Agents::Random),
            _ => Err(format!("unknown agents '{s}': 'exact' or 'random'")),
        }
    }
}

/// Part `index` of `count` of a sharded run: the games whose index is
/// `index` modulo `count`. Written `i/n`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// This shard (0-based).
    pub index: usize,
    /// How many shards.
    pub count: usize,
}

impl Shard {
    /// The whole run.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Whether game `game` belongs to this shard.
    pub fn contains(self, game: usize) -> bool {
        game % self.count == self.index
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let (i, n) = s.split_once('/').ok_or_else(|| format!("'{s}' is not of the form i/n, such as 0/4"))?;
        let index: usize = i.trim().parse().map_err(|_| format!("'{i}' is not a shard number"))?;
        let count: usize = n.trim().parse().map_err(|_| format!("'{n}' is not a number of shards"))?;
        if count == 0 || index >= count {
            return Err(format!("shard {index}/{count}: the shard number must be below the number of shards"));
        }
        Ok(Shard { index, count })
    }
}

/// A sampler compared by the experiment.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Method {
    /// Algorithm 1, the paper's base.
    Alg1,
    /// (a) random restart after each sample.
    A,
    /// (b) random flip or restart after each sample, as section 4.2's list
    /// reads: a restart with probability 0.8.
    B,
    /// (b) as section 4.2.2 reads: a restart "only 20 % of the time".
    B20,
    /// (c) mixed random/heuristic flips.
    C,
    /// (d) duplicates eliminated.
    D,
    /// (e) = Algorithm 2: duplicates eliminated, tabu tenure 2.
    Alg2,
    /// Section 4.2.5's tenure sweep: (d) with this tabu tenure (1, 3, 4 or
    /// 8; tenure 2 is [`Method::Alg2`], tenure 10 is [`Method::D`]).
    Tenure(u64),
    /// The exactly uniform sampler, as many draws as Algorithm 2 recorded
    /// on average on the state.
    UniformSamples,
    /// The exactly uniform sampler, drawing for as long as an Algorithm 2
    /// run took on average on the state.
    UniformTime,
}

impl Method {
    /// Every method, in table order.
    pub const ALL: [Method; 13] = [
        Method::Alg1,
        Method::A,
        Method::B,
        Method::B20,
        Method::C,
        Method::D,
        Method::Alg2,
        Method::Tenure(1),
        Method::Tenure(3),
        Method::Tenure(4),
        Method::Tenure(8),
        Method::UniformSamples,
        Method::UniformTime,
    ];

    /// The methods of the first runs (before (b)'s second reading and the
    /// tenure sweep were added): what a `config.json` without `methods`
    /// ran.
    pub const ORIGINAL: [Method; 8] = [
        Method::Alg1,
        Method::A,
        Method::B,
        Method::C,
        Method::D,
        Method::Alg2,
        Method::UniformSamples,
        Method::UniformTime,
    ];

    /// The tabu tenures of section 4.2.5's sweep, each with its method
    /// (duplicates eliminated throughout).
    pub const TENURES: [(u64, Method); 6] = [
        (1, Method::Tenure(1)),
        (2, Method::Alg2),
        (3, Method::Tenure(3)),
        (4, Method::Tenure(4)),
        (8, Method::Tenure(8)),
        (10, Method::D),
    ];

    /// Whether this is a WalkSAT method (not the uniform sampler).
    pub fn is_walksat(self) -> bool {
        !matches!(self, Method::UniformSamples | Method::UniformTime)
    }

    /// The name in files and on the command line: `alg1`, `a`, `b`,
    /// `b20`, `c`, `d`, `alg2`, `tenure1` ..., `uniform-samples`,
    /// `uniform-time`.
    pub fn name(self) -> String {
        match self {
            Method::Alg1 => "alg1".into(),
            Method::A => "a".into(),
            Method::B => "b".into(),
            Method::B20 => "b20".into(),
            Method::C => "c".into(),
            Method::D => "d".into(),
            Method::Alg2 => "alg2".into(),
            Method::Tenure(t) => format!("tenure{t}"),
            Method::UniformSamples => "uniform-samples".into(),
            Method::UniformTime => "uniform-time".into(),
        }
    }

    /// A description for tables.
    pub fn label(self) -> String {
        match self {
            Method::Alg1 => "Algorithm 1 (base)".into(),
            Method::A => "(a) random restart".into(),
            Method::B => "(b) random flip or restart, restart p = 0.8 (list)".into(),
            Method::B20 => "(b) random flip or restart, restart p = 0.2 (sec. 4.2.2)".into(),
            Method::C => "(c) mixed random/heuristic flips".into(),
            Method::D => "(d) duplicates eliminated (tenure 10)".into(),
            Method::Alg2 => "(e) Algorithm 2: (d) + tabu tenure 2".into(),
            Method::Tenure(t) => format!("(d) + tabu tenure {t}"),
            Method::UniformSamples => "uniform, Algorithm 2's number of samples".into(),
            Method::UniformTime => "uniform, Algorithm 2's wall time".into(),
        }
    }

    /// The method of a name (`e` is Algorithm 2).
    pub fn from_name(name: &str) -> Option<Method> {
        if name == "e" {
            return Some(Method::Alg2);
        }
        Method::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The paper's mean RMSD (section 4.2), for its methods. Both readings
    /// of (b) are compared with the one number the paper gives for (b);
    /// the sweep's other tenures have none.
    pub fn paper_rmsd(self) -> Option<f64> {
        match self {
            Method::Alg1 => Some(0.01021),
            Method::A => Some(0.01316),
            Method::B | Method::B20 => Some(0.01078),
            Method::C => Some(0.01117),
            Method::D => Some(0.00776),
            Method::Alg2 => Some(0.00602),
            Method::Tenure(_) | Method::UniformSamples | Method::UniformTime => None,
        }
    }

    /// The WalkSAT configuration, for the paper's methods.
    pub fn walksat(self, iterations: u64) -> Option<WalkSatConfig> {
        let cfg = match self {
            Method::Alg1 => WalkSatConfig::alg1(),
            Method::A => WalkSatConfig::variation('a')?,
            Method::B => WalkSatConfig::variation('b')?,
            Method::B20 => WalkSatConfig { restart_prob: 0.2, ..WalkSatConfig::alg1() },
            Method::C => WalkSatConfig::variation('c')?,
            Method::D => WalkSatConfig::variation('d')?,
            Method::Alg2 => WalkSatConfig::alg2(),
            Method::Tenure(t) => WalkSatConfig { tenure: t, ..WalkSatConfig::variation('d')? },
            Method::UniformSamples | Method::UniformTime => return None,
        };
        Some(cfg.with_iterations(iterations))
    }

    /// The method's part of a task seed. The first eight keep the tags they
    /// had before (b)'s second reading and the sweep were added, so their
    /// runs are unchanged.
    fn tag(self) -> u64 {
        match self {
            Method::Alg1 => 0,
            Method::A => 1,
            Method::B => 2,
            Method::C => 3,
            Method::D => 4,
            Method::Alg2 => 5,
            Method::UniformSamples => 6,
            Method::UniformTime => 7,
            Method::B20 => 8,
            Method::Tenure(1) => 9,
            Method::Tenure(3) => 10,
            Method::Tenure(4) => 11,
            Method::Tenure(8) => 12,
            Method::Tenure(_) => 13,
        }
    }
}

impl From<Method> for String {
    fn from(m: Method) -> String {
        m.name()
    }
}

impl TryFrom<String> for Method {
    type Error = String;

    fn try_from(s: String) -> Result<Method, String> {
        Method::from_name(&s).ok_or_else(|| format!("unknown method '{s}'"))
    }
}

impl FromStr for Method {
    type Err = String;

    fn from_str(s: &str) -> Result<Method, String> {
        Method::from_name(s).ok_or_else(|| {
            let names: Vec<String> = Method::ALL.iter().map(|m| m.name()).collect();
            format!("unknown method '{s}': one of {}", names.join(", "))
        })
    }
}

/// Why the experiment failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExperimentError {
    /// Simulating a game failed.
    #[error("simulation failed: {0}")]
    Sim(#[from] SimError),
    /// A game file built from a record did not validate.
    #[error("a state did not validate: {0}")]
    Game(#[from] sleuth_core::GameError),
    /// An exact count failed.
    #[error(transparent)]
    Count(#[from] CountError),
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// A CSV file could not be read or written.
    #[error("{path}: {source}")]
    Csv {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: csv::Error,
    },
    /// A JSON file could not be read or written.
    #[error("{path}: {source}")]
    Json {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: serde_json::Error,
    },
    /// Shards that do not belong together, or a bad configuration.
    #[error("{0}")]
    Invalid(String),
}

/// Progress reports from a running experiment (called from worker
/// threads).
pub trait Progress: Sync {
    /// A phase starts with `total` steps.
    fn phase(&self, name: &str, total: u64);
    /// `n` more steps of the current phase are done.
    fn advance(&self, n: u64);
}

/// Reports nothing.
#[derive(Copy, Clone, Debug, Default)]
pub struct NoProgress;

impl Progress for NoProgress {
    fn phase(&self, _name: &str, _total: u64) {}
    fn advance(&self, _n: u64) {}
}

/// A state selected for sampling.
struct Selected<'a> {
    row: StateRow,
    state: &'a State,
    formula: Formula,
}

/// The seed of one task.
fn task_seed(seed: u64, game: usize, removed: usize, method: Method, run: usize) -> u64 {
    let s = game_seed(seed ^ 0x5A4D_504C_494E_4721, game);
    let s = game_seed(s, removed * 16 + method.tag() as usize);
    game_seed(s, run)
}

fn task_rng(seed: u64, game: usize, removed: usize, method: Method, run: usize) -> rand_chacha::ChaCha8Rng {
    rand_chacha::ChaCha8Rng::seed_from_u64(task_seed(seed, game, removed, method, run))
}

/// The root-mean-square deviation of `estimate` from `analysis` over the
/// open pairs (status maybe). Unlike [`sleuth_core::sample::rmsd`] it also
/// scores an estimate without samples (every open pair estimated 0).
/// `None` when there is no open pair.
pub fn rmsd_open(estimate: &Estimate, game: &Game, analysis: &Analysis) -> Option<f64> {
    let mut sum = 0.0;
    let mut n = 0usize;
    for card in game.deck().cards() {
        for place in game.places() {
            if analysis.status(card, place) == Status::Maybe {
                let d = estimate.probability(card, place) - analysis.probability(card, place);
                sum += d * d;
                n += 1;
            }
        }
    }
    (n > 0).then(|| (sum / n as f64).sqrt())
}

/// Runs the experiment (the games of `cfg.shard`) in memory.
///
/// # Errors
/// A simulation or counting error, or a thread pool that cannot start.
pub fn run_sampling(cfg: &SamplingConfig, progress: &dyn Progress) -> Result<Results, ExperimentError> {
    run_recorded(cfg, progress, Vec::new(), &|_| Ok(()))
}

/// Runs the experiment into the results folder `dir`, each game and each
/// state with its runs appended to `results.jsonl` as it finishes
/// ([`crate::journal`]). With `resume`, the records already in `dir` are
/// kept and only the work they lack is done (the folder must hold this
/// run: the same settings and shard); otherwise the run starts afresh.
/// When every game of the shard is done, the CSV files are written
/// ([`write_raw`]).
///
/// Returns the results and how many games of the shard were already done.
///
/// # Errors
/// As [`run_sampling`], and a folder that cannot be written or holds
/// another run.
pub fn run_sampling_in(
    dir: &std::path::Path,
    cfg: &SamplingConfig,
    resume: bool,
    progress: &dyn Progress,
) -> Result<(Results, usize), ExperimentError> {
    check_config(cfg)?;
    let (journal, done) = if resume { Journal::resume(dir, cfg)? } else { (Journal::start(dir, cfg)?, Vec::new()) };
    let already = completed_games(cfg, &done)?.len();
    let results = run_recorded(cfg, progress, done, &|r| journal.append(r))?;
    write_raw(dir, &results)?;
    Ok((results, already))
}

/// The games of this shard (in order).
pub fn shard_games(cfg: &SamplingConfig) -> Vec<usize> {
    (0..cfg.games).filter(|&i| cfg.shard.contains(i)).collect()
}

/// The games whose records are all in `records`: the game and every one of
/// its states.
///
/// # Errors
/// [`ExperimentError::Invalid`] for a record of a game outside the shard,
/// or one recorded twice.
fn completed_games(cfg: &SamplingConfig, records: &[Record]) -> Result<BTreeSet<usize>, ExperimentError> {
    let (games, states, _) = sorted_records(cfg, records.to_vec())?;
    Ok(games.iter().filter(|g| (0..g.states).all(|s| states.contains_key(&(g.game, s)))).map(|g| g.game).collect())
}

/// What a shard's records lack, in words (`None`: it is finished).
pub fn unfinished(cfg: &SamplingConfig, records: &[Record]) -> Option<String> {
    let expected = shard_games(cfg).len();
    match completed_games(cfg, records) {
        Ok(done) if done.len() == expected => None,
        Ok(done) => Some(format!("{} of its {expected} games done", done.len())),
        Err(e) => Some(e.to_string()),
    }
}

/// The records by key, checked: every game in the shard, none twice.
#[allow(clippy::type_complexity)]
fn sorted_records(
    cfg: &SamplingConfig,
    records: Vec<Record>,
) -> Result<(Vec<GameRow>, BTreeMap<(usize, usize), StateRow>, Vec<RunRow>), ExperimentError> {
    let mut games: BTreeMap<usize, GameRow> = BTreeMap::new();
    let mut states = BTreeMap::new();
    let mut runs = Vec::new();
    let outside = |game: usize| {
        ExperimentError::Invalid(format!(
            "the results hold game {game}, which is not one of shard {}'s {} games",
            cfg.shard, cfg.games
        ))
    };
    for record in records {
        match record {
            Record::Game(g) => {
                if g.game >= cfg.games || !cfg.shard.contains(g.game) {
                    return Err(outside(g.game));
                }
                let game = g.game;
                if games.insert(game, g).is_some() {
                    return Err(ExperimentError::Invalid(format!("the results hold game {game} twice")));
                }
            }
            Record::State { state, runs: r } => {
                if state.game >= cfg.games || !cfg.shard.contains(state.game) {
                    return Err(outside(state.game));
                }
                let id = state.state.clone();
                if states.insert((state.game, state.removed), state).is_some() {
                    return Err(ExperimentError::Invalid(format!("the results hold state {id} twice")));
                }
                runs.extend(r);
            }
        }
    }
    Ok((games.into_values().collect(), states, runs))
}

/// One line of `results.jsonl`: a simulated game, or a state with its
/// runs (none for a state that is not sampled).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Record {
    /// A game, once prepared (its states follow as they finish).
    Game(GameRow),
    /// A state and every run on it.
    State {
        /// The state.
        state: StateRow,
        /// Its runs, every method's.
        runs: Vec<RunRow>,
    },
}

impl crate::journal::RunConfig for SamplingConfig {
    const KIND: &'static str = "sampling experiment";
    fn shard(&self) -> Shard {
        self.shard
    }
}

/// Checks what the experiment cannot run.
fn check_config(cfg: &SamplingConfig) -> Result<(), ExperimentError> {
    if cfg.shard.count == 0 || cfg.shard.index >= cfg.shard.count {
        return Err(ExperimentError::Invalid(format!("invalid shard {}", cfg.shard)));
    }
    if cfg.methods.iter().any(|m| !m.is_walksat()) && !cfg.methods.contains(&Method::Alg2) {
        return Err(ExperimentError::Invalid(
            "the uniform methods are matched to Algorithm 2's samples and time: add alg2".to_string(),
        ));
    }
    if cfg.players < 3 || cfg.players > 6 {
        return Err(ExperimentError::Invalid(format!("{} players; the classic game has 3 to 6", cfg.players)));
    }
    Ok(())
}

/// Runs the work of `cfg.shard` that `done` lacks, handing every record
/// to `record` as it finishes.
fn run_recorded(
    cfg: &SamplingConfig,
    progress: &dyn Progress,
    done: Vec<Record>,
    record: &(dyn Fn(&Record) -> Result<(), ExperimentError> + Sync),
) -> Result<Results, ExperimentError> {
    check_config(cfg)?;
    match cfg.threads {
        Some(threads) => rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build()
            .map_err(|e| ExperimentError::Invalid(format!("cannot start {threads} threads: {e}")))?
            .install(|| run_inner(cfg, progress, done, record)),
        None => run_inner(cfg, progress, done, record),
    }
}

fn run_inner(
    cfg: &SamplingConfig,
    progress: &dyn Progress,
    done: Vec<Record>,
    record: &(dyn Fn(&Record) -> Result<(), ExperimentError> + Sync),
) -> Result<Results, ExperimentError> {
    let complete = completed_games(cfg, &done)?;
    let (games, mut states, mut runs) = sorted_records(cfg, done)?;
    let mut games: BTreeMap<usize, GameRow> = games.into_iter().map(|g| (g.game, g)).collect();
    let indices: Vec<usize> = shard_games(cfg).into_iter().filter(|i| !complete.contains(i)).collect();
    progress.phase("games", indices.len() as u64);
    let prepared: Vec<PreparedGame> = indices
        .par_iter()
        .map(|&i| {
            let game = prepare_game(cfg, i);
            progress.advance(1);
            game
        })
        .collect::<Result<_, _>>()?;

    let mut selected = Vec::new();
    for g in &prepared {
        if let std::collections::btree_map::Entry::Vacant(slot) = games.entry(g.index) {
            let row = game_row(g);
            record(&Record::Game(row.clone()))?;
            slot.insert(row);
        }
        for (s, row, sampled) in state_rows(cfg, g) {
            if states.contains_key(&(g.index, s.removed)) {
                continue;
            }
            if sampled {
                let formula = Formula::new(&s.game, &s.analysis).expect("sampled states are consistent");
                selected.push(Selected { row, state: s, formula });
            } else {
                record(&Record::State { state: row.clone(), runs: Vec::new() })?;
                states.insert((g.index, s.removed), row);
            }
        }
    }

    let per_state = cfg.methods.len() * cfg.runs;
    progress.phase("sampling", (selected.len() * per_state) as u64);
    for sel in selected {
        let (row, state_runs) = sample_state(cfg, &sel, progress)?;
        record(&Record::State { state: row.clone(), runs: state_runs.clone() })?;
        states.insert((row.game, row.removed), row);
        runs.extend(state_runs);
    }
    sort_runs(&mut runs);
    Ok(Results {
        config: cfg.clone(),
        games: games.into_values().collect(),
        states: states.into_values().collect(),
        runs,
    })
}

/// Runs in table order: by game, state, method and run.
fn sort_runs(runs: &mut [RunRow]) {
    runs.sort_by(|a, b| {
        let key = |r: &RunRow| (r.game, r.removed, Method::from_name(&r.method), r.run);
        key(a).cmp(&key(b))
    });
}

/// The results that `records` hold, in order.
///
/// # Errors
/// [`ExperimentError::Invalid`] for a record outside `cfg`'s shard or
/// recorded twice.
fn results_of(cfg: &SamplingConfig, records: Vec<Record>) -> Result<Results, ExperimentError> {
    let (games, states, mut runs) = sorted_records(cfg, records)?;
    sort_runs(&mut runs);
    Ok(Results { config: cfg.clone(), games, states: states.into_values().collect(), runs })
}

/// The row of `games.csv` of a prepared game.
fn game_row(g: &PreparedGame) -> GameRow {
    GameRow {
        game: g.index,
        seed: g.record.seed,
        status: g.status.as_str().to_string(),
        winner: g.record.winner.map(|w| g.record.players[w.index()].clone()).unwrap_or_default(),
        turns: g.record.turns,
        suggestions: g.view.as_ref().map_or(0, |v| v.events().len()),
        minimal: g.kept.len(),
        states: g.states.len(),
    }
}

/// Every state of a game with its row and whether it is sampled: those
/// with an open pair, up to the quotas in and beyond the paper's range.
fn state_rows<'a>(cfg: &SamplingConfig, g: &'a PreparedGame) -> Vec<(&'a State, StateRow, bool)> {
    let (mut paper, mut beyond) = (0usize, 0usize);
    g.states
        .iter()
        .map(|s| {
            let models = s.analysis.consistent_deals();
            let range = if cfg.in_paper_range(models) { Range::Paper } else { Range::Beyond };
            let open = s.open_pairs();
            let quota = match range {
                Range::Paper => cfg.max_states.is_none_or(|m| paper < m),
                Range::Beyond => cfg.beyond.is_none_or(|m| beyond < m),
            };
            let sampled = open > 0 && quota;
            if sampled {
                match range {
                    Range::Paper => paper += 1,
                    Range::Beyond => beyond += 1,
                }
            }
            let row = StateRow {
                state: state_id(g.index, s.removed),
                game: g.index,
                removed: s.removed,
                suggestions: s.events.len(),
                models: models.to_string(),
                log10_models: log10(models),
                open_pairs: open,
                range,
                sampled,
                exact_seconds: s.exact_seconds,
                uniform_setup_seconds: None,
            };
            (s, row, sampled)
        })
        .collect()
}

/// Every run of every method on one state (WalkSAT's in parallel, then
/// the uniform sampler's, matched to Algorithm 2's mean samples and time
/// there), and the state's row with the uniform sampler's setup time.
fn sample_state(
    cfg: &SamplingConfig,
    sel: &Selected<'_>,
    progress: &dyn Progress,
) -> Result<(StateRow, Vec<RunRow>), ExperimentError> {
    let runs = cfg.runs;
    let (game, removed) = (sel.row.game, sel.row.removed);
    let walksat_tasks: Vec<(Method, usize)> =
        cfg.methods.iter().copied().filter(|m| m.is_walksat()).flat_map(|m| (0..runs).map(move |r| (m, r))).collect();
    let mut rows: Vec<RunRow> = walksat_tasks
        .par_iter()
        .map(|&(method, run)| {
            let walksat = method.walksat(cfg.iterations).expect("a WalkSAT method");
            let mut rng = task_rng(cfg.seed, game, removed, method, run);
            let start = Instant::now();
            let estimate = search_and_sample(&sel.formula, &walksat, &mut rng);
            let seconds = start.elapsed().as_secs_f64();
            let row = run_row(&sel.row, sel.state, method, run, &estimate, seconds);
            progress.advance(1);
            row
        })
        .collect();
    let mut state = sel.row.clone();
    let uniform_tasks: Vec<(Method, usize)> =
        cfg.methods.iter().copied().filter(|m| !m.is_walksat()).flat_map(|m| (0..runs).map(move |r| (m, r))).collect();
    if !uniform_tasks.is_empty() {
        let alg2: Vec<&RunRow> = rows.iter().filter(|r| r.method == Method::Alg2.name()).collect();
        let n = alg2.len().max(1);
        let samples: u64 = alg2.iter().map(|r| r.samples).sum();
        let seconds: f64 = alg2.iter().map(|r| r.seconds).sum();
        let start = Instant::now();
        let sampler = UniformSampler::new(&sleuth_core::CountProblem::new(&sel.state.game), &CountOptions::default())?
            .expect("sampled states are consistent");
        state.uniform_setup_seconds = Some(start.elapsed().as_secs_f64());
        let uniform_rows: Vec<RunRow> = uniform_tasks
            .par_iter()
            .map(|&(method, run)| {
                let mut rng = task_rng(cfg.seed, game, removed, method, run);
                let start = Instant::now();
                let estimate = match method {
                    Method::UniformSamples => {
                        let draws = ((samples as f64 / n as f64).round() as u64).max(1);
                        estimate_from_deals(
                            &sel.state.game,
                            (0..draws).map(|_| sampler.sample(&mut rng)),
                            "uniform",
                            true,
                        )
                    }
                    _ => {
                        let budget = Duration::from_secs_f64(seconds / n as f64);
                        let mut drawn = 0u64;
                        let deals = std::iter::from_fn(|| {
                            (drawn == 0 || start.elapsed() < budget).then(|| {
                                drawn += 1;
                                sampler.sample(&mut rng)
                            })
                        });
                        estimate_from_deals(&sel.state.game, deals, "uniform", true)
                    }
                };
                let elapsed = start.elapsed().as_secs_f64();
                let row = run_row(&sel.row, sel.state, method, run, &estimate, elapsed);
                progress.advance(1);
                row
            })
            .collect();
        rows.extend(uniform_rows);
    }
    Ok((state, rows))
}

fn run_row(
    state_row: &StateRow,
    state: &State,
    method: Method,
    run: usize,
    estimate: &Estimate,
    seconds: f64,
) -> RunRow {
    let rmsd = rmsd_open(estimate, &state.game, &state.analysis).expect("sampled states have open pairs");
    RunRow {
        state: state_row.state.clone(),
        game: state_row.game,
        removed: state_row.removed,
        suggestions: state_row.suggestions,
        log10_models: state_row.log10_models,
        range: state_row.range,
        method: method.name().to_string(),
        run,
        rmsd,
        samples: estimate.samples(),
        seconds,
    }
}

/// `g12-s3`: game 12 with 3 suggestions removed from its minimal subset.
pub fn state_id(game: usize, removed: usize) -> String {
    format!("g{game}-s{removed}")
}

/// `log10(n)` of a count.
fn log10(n: u128) -> f64 {
    (n as f64).log10()
}
