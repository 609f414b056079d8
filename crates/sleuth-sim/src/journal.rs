//! Results folders that keep their work when the run is killed, and shards
//! that merge only when every one of them is there.
//!
//! A run (an experiment or a tournament, whole or one shard of it) writes
//! into its folder:
//!
//! - `config.json`, first and atomically: what kind of run it is, the
//!   settings with the shard `i/n`, the version of Sleuth, and a
//!   fingerprint of the settings (the same for every shard of one run);
//! - `results.jsonl`: one JSON record per line, appended as each piece of
//!   work finishes (a game, or a state with its runs) and flushed to disk
//!   before the append returns.
//!
//! A run killed at any moment keeps every record it finished. At worst the
//! last line is cut short; it has no newline, and reading drops it (a line
//! holding something else than a record anywhere else is an error, never
//! skipped). Resuming ([`Journal::resume`]) reads the records, truncates
//! the cut line away, and the run then does only the work they lack: the
//! records are seeded per piece of work, so the result is the one an
//! unbroken run gives.

use crate::experiment::{ExperimentError, Shard};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::hash::Hasher as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The settings file of a results folder.
pub const CONFIG_FILE: &str = "config.json";
/// The records of a results folder, one per line.
pub const RECORDS_FILE: &str = "results.jsonl";

/// The settings of a run that can be sharded and resumed.
pub trait RunConfig: Serialize + DeserializeOwned + Clone {
    /// What is run, in words: `sampling experiment`, `tournament`.
    const KIND: &'static str;
    /// Which part of the run this is.
    fn shard(&self) -> Shard;
}

/// `config.json`: the settings, with what identifies the run.
#[derive(Serialize, Deserialize)]
struct Header<C> {
    /// [`RunConfig::KIND`].
    kind: String,
    /// The version of Sleuth that ran it.
    sleuth: String,
    /// [`fingerprint`] of the settings.
    fingerprint: String,
    #[serde(flatten)]
    config: C,
}

/// The settings that every shard of one run shares, by name: the
/// configuration without its shard, and the version of Sleuth.
fn settings<C: RunConfig>(config: &C) -> Result<BTreeMap<String, serde_json::Value>, ExperimentError> {
    let value = serde_json::to_value(config).map_err(|e| ExperimentError::Invalid(e.to_string()))?;
    let serde_json::Value::Object(map) = value else {
        return Err(ExperimentError::Invalid("the settings are not an object".into()));
    };
    let mut settings: BTreeMap<String, serde_json::Value> = map.into_iter().filter(|(k, _)| k != "shard").collect();
    settings.insert("sleuth".into(), env!("CARGO_PKG_VERSION").into());
    Ok(settings)
}

/// A fingerprint of the settings every shard of a run shares: 16 hex
/// digits of FNV-1a over their JSON, the same on every machine.
///
/// # Errors
/// Only if the settings do not serialize.
pub fn fingerprint<C: RunConfig>(config: &C) -> Result<String, ExperimentError> {
    let json = serde_json::to_vec(&settings(config)?).map_err(|e| ExperimentError::Invalid(e.to_string()))?;
    let mut hasher = fnv::FnvHasher::default();
    hasher.write(C::KIND.as_bytes());
    hasher.write(&json);
    Ok(format!("{:016x}", hasher.finish()))
}

/// The settings in which `a` and `b` differ, in words: `games 100 in A,
/// 10 in B`.
fn differences<C: RunConfig>(a: &C, a_name: &str, b: &C, b_name: &str) -> Result<Vec<String>, ExperimentError> {
    let (a, b) = (settings(a)?, settings(b)?);
    let keys: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    let null = serde_json::Value::Null;
    let word = |v: &serde_json::Value| match v {
        serde_json::Value::Null => "none".to_string(),
        serde_json::Value::String(s) => s.clone(),
        v => v.to_string(),
    };
    Ok(keys
        .into_iter()
        .filter_map(|k| {
            let (x, y) = (a.get(k).unwrap_or(&null), b.get(k).unwrap_or(&null));
            (x != y).then(|| format!("{} {} {a_name}, {} {b_name}", k.replace('_', " "), word(x), word(y)))
        })
        .collect())
}

/// A folder path for messages.
fn shown(dir: &Path) -> String {
    format!("'{}'", dir.display())
}

/// The records file of a run, open for appending.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    file: Mutex<File>,
}

impl Journal {
    /// Starts a run in `dir` (created if missing): writes `config.json` and
    /// an empty `results.jsonl`, replacing any there.
    ///
    /// # Errors
    /// [`ExperimentError::Io`] when the folder or a file cannot be written.
    pub fn start<C: RunConfig>(dir: &Path, config: &C) -> Result<Journal, ExperimentError> {
        fs::create_dir_all(dir).map_err(io_err(dir))?;
        let header = Header {
            kind: C::KIND.to_string(),
            sleuth: env!("CARGO_PKG_VERSION").to_string(),
            fingerprint: fingerprint(config)?,
            config: config.clone(),
        };
        let path = dir.join(CONFIG_FILE);
        let json = serde_json::to_string_pretty(&header)
            .map_err(|source| ExperimentError::Json { path: path.clone(), source })?;
        crate::file::write_atomic(&path, (json + "\n").as_bytes()).map_err(io_err(&path))?;
        let path = dir.join(RECORDS_FILE);
        let file = File::create(&path).map_err(io_err(&path))?;
        file.sync_all().map_err(io_err(&path))?;
        sync_dir(dir);
        Ok(Journal { path, file: Mutex::new(file) })
    }

    /// Continues the run in `dir`: its settings must be `config`'s (the
    /// same command, shard included). Returns the records already there,
    /// with a last line cut short by a kill dropped (and cut from the file).
    /// A folder with no run in it (missing, or without `config.json`) is
    /// started afresh, with no records.
    ///
    /// # Errors
    /// [`ExperimentError::Invalid`] naming every setting that differs, or
    /// a records file that holds something else than records;
    /// [`ExperimentError::Io`] when a file cannot be read or written.
    pub fn resume<C: RunConfig, R: DeserializeOwned>(
        dir: &Path,
        config: &C,
    ) -> Result<(Journal, Vec<R>), ExperimentError> {
        if !dir.join(CONFIG_FILE).exists() {
            return Ok((Journal::start(dir, config)?, Vec::new()));
        }
        let found: C = read_config(dir)?;
        let mut diffs = differences(config, "on the command line", &found, &format!("in {}", shown(dir)))?;
        if found.shard() != config.shard() {
            diffs.insert(
                0,
                format!("shard {} on the command line, {} in {}", config.shard(), found.shard(), shown(dir)),
            );
        }
        if !diffs.is_empty() {
            return Err(ExperimentError::Invalid(format!(
                "cannot resume {}: it holds a {} run with other settings ({}); resume it with the command that \
                 started it",
                shown(dir),
                C::KIND,
                diffs.join("; ")
            )));
        }
        let path = dir.join(RECORDS_FILE);
        let (records, good) = if path.exists() { read_records(&path)? } else { (Vec::new(), 0) };
        let file = OpenOptions::new().create(true).append(true).open(&path).map_err(io_err(&path))?;
        // Cut a line the kill left half written, so that the next record
        // starts on a line of its own.
        if file.metadata().map_err(io_err(&path))?.len() != good {
            file.set_len(good).map_err(io_err(&path))?;
            file.sync_all().map_err(io_err(&path))?;
        }
        Ok((Journal { path, file: Mutex::new(file) }, records))
    }

    /// Appends one record as a line and flushes it to disk before
    /// returning. Safe to call from worker threads.
    ///
    /// # Errors
    /// [`ExperimentError::Io`] when the line cannot be written or flushed.
    pub fn append<R: Serialize>(&self, record: &R) -> Result<(), ExperimentError> {
        let mut line =
            serde_json::to_vec(record).map_err(|source| ExperimentError::Json { path: self.path.clone(), source })?;
        line.push(b'\n');
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        file.write_all(&line).and_then(|()| file.sync_data()).map_err(io_err(&self.path))
    }

    /// Appends many records and flushes them to disk once (a merge's).
    ///
    /// # Errors
    /// [`ExperimentError::Io`] when the lines cannot be written or flushed.
    pub fn append_all<R: Serialize>(&self, records: &[R]) -> Result<(), ExperimentError> {
        let mut lines = Vec::new();
        for record in records {
            serde_json::to_writer(&mut lines, record)
                .map_err(|source| ExperimentError::Json { path: self.path.clone(), source })?;
            lines.push(b'\n');
        }
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        file.write_all(&lines).and_then(|()| file.sync_data()).map_err(io_err(&self.path))
    }
}

/// Flushes a folder's entries (a new file's name) where the platform can.
fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> ExperimentError + '_ {
    move |source| ExperimentError::Io { path: path.to_path_buf(), source }
}

/// Reads the settings of the run in `dir`.
///
/// # Errors
/// [`ExperimentError::Invalid`] when `config.json` is missing, is not a run
/// of this kind, or does not match its fingerprint (edited by hand).
pub fn read_config<C: RunConfig>(dir: &Path) -> Result<C, ExperimentError> {
    let path = dir.join(CONFIG_FILE);
    let text = fs::read_to_string(&path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => {
            ExperimentError::Invalid(format!("{} holds no {} results (it has no {CONFIG_FILE})", shown(dir), C::KIND))
        }
        _ => ExperimentError::Io { path: path.clone(), source: e },
    })?;
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|source| ExperimentError::Json { path: path.clone(), source })?;
    match value.get("kind").and_then(|k| k.as_str()) {
        Some(kind) if kind == C::KIND => {}
        Some(kind) => {
            return Err(ExperimentError::Invalid(format!(
                "{} holds {kind} results, not {} results",
                shown(dir),
                C::KIND
            )))
        }
        None => {
            return Err(ExperimentError::Invalid(format!(
                "{} holds no resumable {} run: its {CONFIG_FILE} was written by an older Sleuth, before shards \
                 recorded their results as they went",
                shown(dir),
                C::KIND
            )))
        }
    }
    let header: Header<C> =
        serde_json::from_value(value).map_err(|source| ExperimentError::Json { path: path.clone(), source })?;
    if header.fingerprint != fingerprint(&header.config)? {
        return Err(ExperimentError::Invalid(format!(
            "{}: the settings do not match their fingerprint {} (was {CONFIG_FILE} edited?)",
            shown(dir),
            header.fingerprint
        )));
    }
    Ok(header.config)
}

/// Reads the records of `path`, dropping a last line without its newline
/// (a write cut short), and returns them with the length of the good part.
fn read_records<R: DeserializeOwned>(path: &Path) -> Result<(Vec<R>, u64), ExperimentError> {
    let bytes = fs::read(path).map_err(io_err(path))?;
    let good = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let mut records = Vec::new();
    for (i, line) in bytes[..good].split(|&b| b == b'\n').enumerate() {
        if line.is_empty() {
            continue;
        }
        let record = serde_json::from_slice(line).map_err(|e| {
            ExperimentError::Invalid(format!("{}, line {}: not a record of this run ({e})", path.display(), i + 1))
        })?;
        records.push(record);
    }
    Ok((records, good as u64))
}

/// A finished or unfinished shard, as read from its folder.
#[derive(Debug)]
pub struct Part<C, R> {
    /// Its folder.
    pub dir: PathBuf,
    /// Its settings.
    pub config: C,
    /// Its records (a last line cut short dropped).
    pub records: Vec<R>,
}

/// Reads the run in `dir` for a merge.
///
/// # Errors
/// As [`read_config`], and a records file that is missing or holds
/// something else than records.
pub fn read_part<C: RunConfig, R: DeserializeOwned>(dir: &Path) -> Result<Part<C, R>, ExperimentError> {
    let config = read_config(dir)?;
    let (records, _) = read_records(&dir.join(RECORDS_FILE))?;
    Ok(Part { dir: dir.to_path_buf(), config, records })
}

/// Checks that `parts` are the shards of one run, every one of them once
/// (with `partial`, some may be missing), and each finished (`unfinished`
/// says what a part lacks, if anything). Every refusal names the folders in
/// plain words.
///
/// # Errors
/// [`ExperimentError::Invalid`] for nothing to merge, a part of another run
/// (its differing settings listed), a shard given twice, missing shards
/// (unless `partial`), or an unfinished shard.
pub fn check_shards<C: RunConfig, R>(
    parts: &[Part<C, R>],
    partial: bool,
    unfinished: impl Fn(&Part<C, R>) -> Option<String>,
) -> Result<(), ExperimentError> {
    let invalid = |m: String| Err(ExperimentError::Invalid(m));
    let Some(first) = parts.first() else { return invalid("nothing to merge".into()) };
    let count = first.config.shard().count;
    for p in &parts[1..] {
        let n = p.config.shard().count;
        if n != count {
            return invalid(format!(
                "{} is shard {} but {} is shard {}: they are not shards of one run (which has {count} shards?)",
                shown(&first.dir),
                first.config.shard(),
                shown(&p.dir),
                p.config.shard()
            ));
        }
        let diffs = differences(
            &first.config,
            &format!("in {}", shown(&first.dir)),
            &p.config,
            &format!("in {}", shown(&p.dir)),
        )?;
        if !diffs.is_empty() {
            return invalid(format!(
                "{} is a shard of another {} than {}: {}",
                shown(&p.dir),
                C::KIND,
                shown(&first.dir),
                diffs.join("; ")
            ));
        }
    }
    let mut by_index: BTreeMap<usize, &Part<C, R>> = BTreeMap::new();
    for p in parts {
        if let Some(other) = by_index.insert(p.config.shard().index, p) {
            return invalid(format!(
                "shard {} is given twice: {} and {}",
                p.config.shard(),
                shown(&other.dir),
                shown(&p.dir)
            ));
        }
    }
    let missing: Vec<String> =
        (0..count).filter(|i| !by_index.contains_key(i)).map(|i| Shard { index: i, count }.to_string()).collect();
    if !missing.is_empty() && !partial {
        return invalid(format!(
            "{} of the {count} shards {} missing ({}): merge every shard of the run (or, for a part of \
             the run on purpose, add --partial)",
            missing.len(),
            if missing.len() == 1 { "is" } else { "are" },
            missing.join(", ")
        ));
    }
    for p in parts {
        if let Some(lacks) = unfinished(p) {
            return invalid(format!(
                "shard {} in {} is unfinished ({lacks}): rerun its command with --resume, then merge",
                p.config.shard(),
                shown(&p.dir)
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    struct Cfg {
        games: usize,
        name: String,
        shard: Shard,
    }

    impl RunConfig for Cfg {
        const KIND: &'static str = "test run";
        fn shard(&self) -> Shard {
            self.shard
        }
    }

    fn cfg(index: usize, count: usize) -> Cfg {
        Cfg { games: 10, name: "a".into(), shard: Shard { index, count } }
    }

    #[test]
    fn records_survive_and_a_cut_last_line_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let j = Journal::start(dir.path(), &cfg(0, 1)).unwrap();
        for i in 0..3u32 {
            j.append(&i).unwrap();
        }
        drop(j);
        // A kill in the middle of a write: half a line, no newline.
        let path = dir.path().join(RECORDS_FILE);
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"12").unwrap();
        drop(f);
        let (j, records): (_, Vec<u32>) = Journal::resume(dir.path(), &cfg(0, 1)).unwrap();
        assert_eq!(records, [0, 1, 2]);
        j.append(&3u32).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "0\n1\n2\n3\n");
        // A bad line that is not the last is an error, not skipped.
        fs::write(&path, "0\nx\n2\n").unwrap();
        let err = Journal::resume::<_, u32>(dir.path(), &cfg(0, 1)).unwrap_err().to_string();
        assert!(err.contains("line 2"), "{err}");
    }

    #[test]
    fn resuming_with_other_settings_names_them() {
        let dir = tempfile::tempdir().unwrap();
        Journal::start(dir.path(), &cfg(1, 4)).unwrap();
        let other = Cfg { games: 20, ..cfg(2, 4) };
        let err = Journal::resume::<_, u32>(dir.path(), &other).unwrap_err().to_string();
        assert!(err.contains("shard 2/4 on the command line, 1/4 in"), "{err}");
        assert!(err.contains("games 20 on the command line, 10 in"), "{err}");
        assert!(!err.contains("Cfg") && !err.contains('{'), "{err}");
        // A folder without a run starts one.
        let empty = dir.path().join("new");
        let (_, records): (_, Vec<u32>) = Journal::resume(&empty, &cfg(0, 1)).unwrap();
        assert!(records.is_empty() && empty.join(CONFIG_FILE).is_file());
    }

    #[test]
    fn shard_sets_are_checked() {
        let part = |i: usize, n: usize, name: &str| Part::<Cfg, u32> {
            dir: PathBuf::from(format!("s{i}")),
            config: Cfg { name: name.into(), ..cfg(i, n) },
            records: vec![],
        };
        let ok = |_: &Part<Cfg, u32>| None;
        assert!(check_shards(&[part(1, 2, "a"), part(0, 2, "a")], false, ok).is_ok());
        let err = |parts: &[Part<Cfg, u32>]| check_shards(parts, false, ok).unwrap_err().to_string();
        assert!(err(&[part(0, 3, "a"), part(1, 3, "a")]).contains("1 of the 3 shards is missing (2/3)"));
        assert!(check_shards(&[part(0, 3, "a"), part(1, 3, "a")], true, ok).is_ok());
        assert!(check_shards(&[part(0, 3, "a"), part(0, 3, "a")], true, ok).is_err());
        assert!(err(&[part(0, 2, "a"), part(0, 2, "a"), part(1, 2, "a")]).contains("shard 0/2 is given twice"));
        let foreign = err(&[part(0, 2, "a"), part(1, 2, "b")]);
        assert!(
            foreign.contains("'s1' is a shard of another test run") && foreign.contains("name a in 's0', b in 's1'")
        );
        assert!(err(&[part(0, 2, "a"), part(1, 3, "a")]).contains("not shards of one run"));
        assert!(check_shards::<Cfg, u32>(&[], false, ok).is_err());
        let unfinished =
            check_shards(&[part(0, 1, "a")], false, |_| Some("3 of 5 games".into())).unwrap_err().to_string();
        assert!(unfinished.contains("shard 0/1 in 's0' is unfinished (3 of 5 games)"), "{unfinished}");
    }

    #[test]
    fn a_config_edited_by_hand_or_of_another_kind_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        Journal::start(dir.path(), &cfg(0, 1)).unwrap();
        let path = dir.path().join(CONFIG_FILE);
        let text = fs::read_to_string(&path).unwrap();
        fs::write(&path, text.replace("\"games\": 10", "\"games\": 11")).unwrap();
        assert!(read_config::<Cfg>(dir.path()).unwrap_err().to_string().contains("fingerprint"));
        fs::write(&path, text.replace("test run", "tournament")).unwrap();
        assert!(read_config::<Cfg>(dir.path()).unwrap_err().to_string().contains("holds tournament results"));
    }
}
