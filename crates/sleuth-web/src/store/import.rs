//! Reading a data folder of the layout before the database:
//! `games/ID.json` (the game file) and `games/ID.journal` (one JSON line per
//! change: the game as created, then `insert`, `replace`, `delete`, `undo`,
//! `redo`, `rename`, each naming turns by position).
//!
//! Every journal is replayed through the same strict readers as the API.
//! Only a last line without its end of line (a write interrupted by a crash,
//! never confirmed) is dropped. At any other damage the game keeps the
//! intact lines before it, unless its game file holds more than they do
//! (the file is written after its journal line): then the game file is the
//! game, without its undo history. Either way the damage is reported by
//! game and line. A game file without a journal is a game of its own, named
//! by its id. Nothing here writes to the folder.

use super::history::{check_name, Entry, Record, TurnId};
use serde_json::Value;
use sleuth_core::format::EventSpec;
use sleuth_core::GameFile;
use std::path::Path;

/// One game read from the old layout: its history as records (the first
/// is the base), the game they make, and what was found on the way.
pub struct Imported {
    /// The id (the files' name).
    pub id: String,
    /// Base first, then each change.
    pub records: Vec<Record>,
    /// The game after them.
    pub entry: Entry,
    /// Damage found, in words, naming the file and line.
    pub problems: Vec<String>,
    /// Other things worth saying (a cut last line dropped).
    pub notes: Vec<String>,
}

/// The ids of the games in `dir`: every `ID.json` and `ID.journal`.
pub fn ids(dir: &Path) -> std::io::Result<Vec<String>> {
    let mut ids: Vec<String> = std::fs::read_dir(dir)?
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let id = name.strip_suffix(".json").or_else(|| name.strip_suffix(".journal"))?;
            super::valid_id(id).then(|| id.to_string())
        })
        .collect();
    ids.sort();
    ids.dedup();
    Ok(ids)
}

/// Reads game `id` of `dir`.
///
/// # Errors
/// What is wrong when nothing of the game can be read.
pub fn game(dir: &Path, id: &str) -> Result<Imported, String> {
    let json_path = dir.join(format!("{id}.json"));
    let journal_path = dir.join(format!("{id}.journal"));
    let read = |p: &Path| match std::fs::read(p) {
        Ok(b) => Ok(Some(b)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read {}: {e}", p.display())),
    };
    let journal = read(&journal_path)?;
    let file = read(&json_path)?.map(|bytes| {
        String::from_utf8(bytes)
            .map_err(|_| "not UTF-8 text".to_string())
            .and_then(|t| GameFile::from_json(&t).map_err(|e| e.to_string()))
            .map_err(|e| format!("{}: {e}", json_path.display()))
    });
    let updated = [&journal_path, &json_path]
        .iter()
        .find_map(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok())
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_secs());
    let mut problems = Vec::new();
    let mut notes = Vec::new();
    let Some(journal) = journal else {
        // A game file alone (copied in by hand): a new game, named by its id.
        let file = file.ok_or_else(|| format!("no game '{id}'"))??;
        let entry = Entry::new(id, file.clone(), id.to_string(), updated)
            .map_err(|e| format!("{}: {e}", json_path.display()))?;
        return Ok(Imported { id: id.into(), records: vec![base(file, id)], entry, problems, notes });
    };
    let replay = replay(id, &journal, updated);
    let at = |line: usize| format!("{} line {line}", journal_path.display());
    if let Some(line) = replay.cut {
        notes.push(format!("{}: cut short by a crash while it was written (never confirmed): dropped", at(line)));
    }
    if let Some((line, why)) = &replay.damage {
        problems.push(format!("{} is damaged ({why}); the lines before it are kept", at(*line)));
    }
    let file = match file {
        Some(Ok(f)) => Some(f),
        Some(Err(e)) => {
            problems.push(format!("{e} (the game is rebuilt from its journal)"));
            None
        }
        None => None,
    };
    let Some((records, entry, states)) = replay.game else {
        // Not even the first line: the game file, if it reads, is all there is.
        let file = file.ok_or_else(|| problems.join("; "))?;
        let entry = Entry::new(id, file.clone(), id.to_string(), updated).map_err(|e| e.to_string())?;
        return Ok(Imported { id: id.into(), records: vec![base(file, id)], entry, problems, notes });
    };
    let file = file.filter(|f| !states.contains(&f.events));
    if replay.damage.is_none() {
        if let Some(f) = file {
            // Not a state the journal went through: one of the two is damaged.
            problems.push(format!(
                "{} and its journal disagree ({} turns against {}): the journal's game is used; both files are kept",
                json_path.display(),
                f.events.len(),
                entry.file().events.len()
            ));
        }
    } else if let Some(f) = file {
        // The game file holds turns the damaged journal lost.
        let name = entry.name().to_string();
        problems.push(format!(
            "{}: holds a state the journal's intact lines do not reach: the game is its {} turns, without undo history",
            json_path.display(),
            f.events.len()
        ));
        let entry = Entry::new(id, f.clone(), name.clone(), updated).map_err(|e| e.to_string())?;
        return Ok(Imported { id: id.into(), records: vec![base(f, &name)], entry, problems, notes });
    }
    Ok(Imported { id: id.into(), records, entry, problems, notes })
}

fn base(file: GameFile, name: &str) -> Record {
    Record::Base { file: Box::new(file), name: name.to_string() }
}

/// The game of a journal's lines so far: its records, the game they make,
/// and every state of the turns it went through.
type Partial = (Vec<Record>, Entry, Vec<Vec<EventSpec>>);

/// A journal replayed: the game of its intact lines; the line cut short at
/// the end; the first damaged line.
struct Replay {
    game: Option<Partial>,
    cut: Option<usize>,
    damage: Option<(usize, String)>,
}

fn replay(id: &str, journal: &[u8], updated: u64) -> Replay {
    let mut out = Replay { game: None, cut: None, damage: None };
    let mut rest = journal;
    let mut n = 0;
    while !rest.is_empty() {
        n += 1;
        let (line, complete) = match rest.iter().position(|&b| b == b'\n') {
            Some(end) => {
                let line = &rest[..end];
                rest = &rest[end + 1..];
                (line, true)
            }
            None => (std::mem::take(&mut rest), false),
        };
        if !complete {
            out.cut = Some(n);
            break;
        }
        if let Err(why) = step(id, line, &mut out.game, updated) {
            out.damage = Some((n, why));
            break;
        }
    }
    out
}

/// Reads and replays one journal line.
fn step(id: &str, line: &[u8], game: &mut Option<Partial>, updated: u64) -> Result<(), String> {
    let text = std::str::from_utf8(line).map_err(|_| "not UTF-8 text".to_string())?;
    let v: Value = serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
    let Value::Object(o) = v else { return Err("not a JSON object".into()) };
    let op = o.get("op").and_then(Value::as_str).ok_or("no \"op\"")?;
    let keys: &[&str] = match op {
        "base" => &["op", "game", "name"],
        "insert" | "replace" => &["op", "index", "event"],
        "delete" => &["op", "index"],
        "undo" | "redo" => &["op"],
        "rename" => &["op", "name"],
        other => return Err(format!("unknown change '{}'", other.escape_debug())),
    };
    if let Some(k) = o.keys().find(|k| !keys.contains(&k.as_str())) {
        return Err(format!("unknown key '{}'", k.escape_debug()));
    }
    let index = || o.get("index").and_then(Value::as_u64).map(|i| i as usize).ok_or("no number \"index\"");
    let event =
        || EventSpec::from_value(o.get("event").unwrap_or(&Value::Null), "the event", true).map_err(|e| e.to_string());
    let name = || o.get("name").and_then(Value::as_str).map(str::to_string).ok_or("no \"name\"");
    let Some((records, entry, states)) = game else {
        if op != "base" {
            return Err("the first line is not the game as created".into());
        }
        let file = o.get("game").ok_or("no \"game\"")?;
        let file = GameFile::from_json(&file.to_string()).map_err(|e| format!("the game: {e}"))?;
        // Journals from before names are named by their id.
        let name = match o.get("name") {
            Some(_) => check_name(&name()?).map_err(|e| e.to_string())?,
            None => id.to_string(),
        };
        let entry = Entry::new(id, file.clone(), name.clone(), updated).map_err(|e| e.to_string())?;
        let first = entry.file().events.clone();
        *game = Some((vec![Record::Base { file: Box::new(file), name }], entry, vec![first]));
        return Ok(());
    };
    let at = |i: usize| -> Result<TurnId, String> {
        entry.turn_ids().get(i).copied().ok_or_else(|| format!("no event {i}: the game has {}", entry.turn_ids().len()))
    };
    let record = match op {
        "base" => return Err("a second game as created".into()),
        "insert" => {
            entry.resolve(super::Change::Add { index: Some(index()?), event: event()? }).map_err(|e| e.to_string())?
        }
        "replace" => Record::Edit { turn: at(index()?)?, event: event()? },
        "delete" => Record::Delete { turn: at(index()?)? },
        "undo" => Record::Undo,
        "redo" => Record::Redo,
        _ => Record::Rename { name: check_name(&name()?).map_err(|e| e.to_string())? },
    };
    let planned = entry.plan(record.clone()).map_err(|e| format!("cannot replay: {e}"))?;
    entry.apply(planned, None, updated);
    records.push(record);
    states.push(entry.file().events.clone());
    Ok(())
}
