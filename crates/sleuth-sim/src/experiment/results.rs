//! The experiment's raw results, their files (`config.json`, `games.csv`,
//! `states.csv`, `runs.csv`) and the merging of shards.

use super::{ExperimentError, Record, SamplingConfig, Shard};
use crate::journal;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fs;
use std::path::Path;

/// Whether a state is within the paper's threshold on consistent deals.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Range {
    /// At most the threshold (10,000,000 deals by default).
    Paper,
    /// Above it.
    Beyond,
}

impl Range {
    /// `paper` or `beyond`.
    pub fn as_str(self) -> &'static str {
        match self {
            Range::Paper => "paper",
            Range::Beyond => "beyond",
        }
    }
}

/// One simulated game (`games.csv`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRow {
    /// The game's index in the series.
    pub game: usize,
    /// Its simulation seed.
    pub seed: u64,
    /// `used`, `no winner` or `not determined`.
    pub status: String,
    /// The winner's player id (empty without a winner).
    pub winner: String,
    /// Turns played.
    pub turns: usize,
    /// Suggestions in the winner's view.
    pub suggestions: usize,
    /// Suggestions in the minimal subset.
    pub minimal: usize,
    /// States derived (the minimal subset's size + 1).
    pub states: usize,
}

/// One game state (`states.csv`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StateRow {
    /// `g<game>-s<removed>`.
    pub state: String,
    /// The game's index.
    pub game: usize,
    /// Suggestions removed from the end of the minimal subset.
    pub removed: usize,
    /// Suggestions kept.
    pub suggestions: usize,
    /// Consistent deals, exactly (a decimal string: it may exceed 64 bits).
    pub models: String,
    /// `log10(models)`.
    pub log10_models: f64,
    /// Card-place pairs neither certain nor impossible.
    pub open_pairs: usize,
    /// Within the paper's threshold or beyond.
    pub range: Range,
    /// Whether the samplers were run on it.
    pub sampled: bool,
    /// Wall time of the exact analysis (every marginal and case file).
    pub exact_seconds: f64,
    /// Wall time to prepare the uniform sampler (sampled states only).
    pub uniform_setup_seconds: Option<f64>,
}

/// One run of one method on one state (`runs.csv`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunRow {
    /// The state id.
    pub state: String,
    /// The game's index.
    pub game: usize,
    /// Suggestions removed from the minimal subset.
    pub removed: usize,
    /// Suggestions kept.
    pub suggestions: usize,
    /// `log10` of the state's consistent deals.
    pub log10_models: f64,
    /// The state's range.
    pub range: Range,
    /// The method's name ([`super::Method::name`]).
    pub method: String,
    /// The run (0-based).
    pub run: usize,
    /// RMSD over the open pairs.
    pub rmsd: f64,
    /// Samples recorded (draws, for the uniform sampler).
    pub samples: u64,
    /// Wall time of the run.
    pub seconds: f64,
}

/// Everything a run (or a merge of shards) produced.
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    /// The configuration (for a merge: with the whole run as its shard).
    pub config: SamplingConfig,
    /// Every simulated game.
    pub games: Vec<GameRow>,
    /// Every state, sampled or not.
    pub states: Vec<StateRow>,
    /// Every run.
    pub runs: Vec<RunRow>,
}

/// Turns an IO error on `path` into an [`ExperimentError::Io`].
pub(crate) fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> ExperimentError + '_ {
    move |source| ExperimentError::Io { path: path.to_path_buf(), source }
}

/// Writes `bytes` to `path` atomically ([`crate::file::write_atomic`]):
/// a run stopped while writing its results leaves no truncated file.
pub(crate) fn write_file(path: &Path, bytes: &[u8]) -> Result<(), ExperimentError> {
    crate::file::write_atomic(path, bytes).map_err(io_err(path))
}

/// Writes `rows` as CSV with a header line (atomically).
pub(crate) fn write_csv<T: Serialize>(path: &Path, rows: &[T]) -> Result<(), ExperimentError> {
    let csv_err = |source| ExperimentError::Csv { path: path.to_path_buf(), source };
    let mut w = csv::Writer::from_writer(Vec::new());
    for row in rows {
        w.serialize(row).map_err(csv_err)?;
    }
    let bytes = w.into_inner().map_err(|e| io_err(path)(e.into_error()))?;
    write_file(path, &bytes)
}

/// Reads what [`write_csv`] wrote.
pub(crate) fn read_csv<T: DeserializeOwned>(path: &Path) -> Result<Vec<T>, ExperimentError> {
    let csv_err = |source| ExperimentError::Csv { path: path.to_path_buf(), source };
    let mut r = csv::Reader::from_path(path).map_err(csv_err)?;
    r.deserialize().collect::<Result<Vec<T>, _>>().map_err(csv_err)
}

/// Writes `games.csv`, `states.csv` and `runs.csv` into `dir` (created if
/// missing); `config.json` is the journal's ([`crate::journal`]).
///
/// # Errors
/// [`ExperimentError::Io`] and friends when a file cannot be written.
pub fn write_raw(dir: &Path, results: &Results) -> Result<(), ExperimentError> {
    fs::create_dir_all(dir).map_err(io_err(dir))?;
    write_csv(&dir.join("games.csv"), &results.games)?;
    write_csv(&dir.join("states.csv"), &results.states)?;
    write_csv(&dir.join("runs.csv"), &results.runs)
}

/// Reads the settings and the CSV files of a finished run.
///
/// # Errors
/// [`ExperimentError::Io`] and friends when a file is missing or malformed.
pub fn read_raw(dir: &Path) -> Result<Results, ExperimentError> {
    Ok(Results {
        config: crate::journal::read_config(dir)?,
        games: read_csv(&dir.join("games.csv"))?,
        states: read_csv(&dir.join("states.csv"))?,
        runs: read_csv(&dir.join("runs.csv"))?,
    })
}

/// Combines the shards in `dirs` into the results of the whole run.
///
/// # Errors
/// [`ExperimentError::Invalid`], in words naming the folder, when a shard is
/// missing, given twice, of another run (its differing settings listed) or
/// unfinished; read errors.
pub fn merge(dirs: &[impl AsRef<Path>]) -> Result<Results, ExperimentError> {
    let parts =
        dirs.iter().map(|d| journal::read_part::<SamplingConfig, Record>(d.as_ref())).collect::<Result<Vec<_>, _>>()?;
    journal::check_shards(&parts, false, |p| super::unfinished(&p.config, &p.records))?;
    let config = SamplingConfig { shard: Shard::ALL, ..parts[0].config.clone() };
    let records: Vec<Record> = parts.into_iter().flat_map(|p| p.records).collect();
    super::results_of(&config, records)
}

/// Writes merged results as the folder of an unsharded run: `config.json`,
/// `results.jsonl` and the CSV files.
///
/// # Errors
/// [`ExperimentError::Io`] and friends when a file cannot be written.
pub fn write_merged(dir: &Path, results: &Results) -> Result<(), ExperimentError> {
    let journal = journal::Journal::start(dir, &results.config)?;
    let mut records: Vec<Record> = results.games.iter().cloned().map(Record::Game).collect();
    let mut runs = results.runs.iter().peekable();
    for state in &results.states {
        let mut mine = Vec::new();
        while let Some(r) = runs.next_if(|r| (r.game, r.removed) == (state.game, state.removed)) {
            mine.push(r.clone());
        }
        records.push(Record::State { state: state.clone(), runs: mine });
    }
    journal.append_all(&records)?;
    write_raw(dir, results)
}
