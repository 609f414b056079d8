//! The experiment's raw results, their files (`config.json`, `games.csv`,
//! `states.csv`, `runs.csv`) and the merging of shards.

use super::{ExperimentError, SamplingConfig, Shard};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
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

/// Writes `config.json`, `games.csv`, `states.csv` and `runs.csv` into
/// `dir` (created if missing).
///
/// # Errors
/// [`ExperimentError::Io`] and friends when a file cannot be written.
pub fn write_raw(dir: &Path, results: &Results) -> Result<(), ExperimentError> {
    fs::create_dir_all(dir).map_err(io_err(dir))?;
    let path = dir.join("config.json");
    let json = serde_json::to_string_pretty(&results.config)
        .map_err(|source| ExperimentError::Json { path: path.clone(), source })?;
    write_file(&path, (json + "\n").as_bytes())?;
    write_csv(&dir.join("games.csv"), &results.games)?;
    write_csv(&dir.join("states.csv"), &results.states)?;
    write_csv(&dir.join("runs.csv"), &results.runs)
}

/// Reads what [`write_raw`] wrote.
///
/// # Errors
/// [`ExperimentError::Io`] and friends when a file is missing or malformed.
pub fn read_raw(dir: &Path) -> Result<Results, ExperimentError> {
    let path = dir.join("config.json");
    let text = fs::read_to_string(&path).map_err(io_err(&path))?;
    let config = serde_json::from_str(&text).map_err(|source| ExperimentError::Json { path, source })?;
    Ok(Results {
        config,
        games: read_csv(&dir.join("games.csv"))?,
        states: read_csv(&dir.join("states.csv"))?,
        runs: read_csv(&dir.join("runs.csv"))?,
    })
}

/// Combines the results of shards of one run.
///
/// # Errors
/// [`ExperimentError::Invalid`] when the parts were run with different
/// settings or overlap (the same game twice). Missing shards are allowed:
/// the merge then covers fewer games, as its `games.csv` shows.
pub fn merge(parts: Vec<Results>) -> Result<Results, ExperimentError> {
    let mut parts = parts.into_iter();
    let Some(first) = parts.next() else {
        return Err(ExperimentError::Invalid("nothing to merge".into()));
    };
    let shared = first.config.shared();
    let mut merged = Results { config: SamplingConfig { shard: Shard::ALL, ..first.config.clone() }, ..first };
    let mut seen: BTreeSet<usize> = merged.games.iter().map(|g| g.game).collect();
    for part in parts {
        if part.config.shared() != shared {
            return Err(ExperimentError::Invalid(format!(
                "the shards were run with different settings: {:?} and {:?}",
                shared,
                part.config.shared()
            )));
        }
        for g in &part.games {
            if !seen.insert(g.game) {
                return Err(ExperimentError::Invalid(format!("game {} appears in two of the merged runs", g.game)));
            }
        }
        merged.games.extend(part.games);
        merged.states.extend(part.states);
        merged.runs.extend(part.runs);
    }
    merged.games.sort_by_key(|g| g.game);
    merged.states.sort_by_key(|s| (s.game, s.removed));
    merged.runs.sort_by(|a, b| {
        let key = |r: &RunRow| (r.game, r.removed, super::Method::from_name(&r.method), r.run);
        key(a).cmp(&key(b))
    });
    Ok(merged)
}
