//! The games on disk: one game file per game, plus a journal of changes.
//!
//! Layout of the data directory:
//!
//! ```text
//! DATA/games/ID.json       the game file (game-format.md), rewritten atomically after every change
//! DATA/games/ID.journal    one JSON line per change, fsynced before a change is confirmed
//! ```
//!
//! The journal's first line is the game as created or imported (`base`,
//! with the game's name); every later line is one change (`insert`,
//! `replace`, `delete`, `undo`, `redo`, `rename`). The name lives only in
//! the journal: it is not part of the game file format. Replaying the journal rebuilds the game and its undo history,
//! so a server killed at any moment loses no confirmed change: the journal
//! line is on disk before the response is sent, and a game file that
//! missed its rewrite is rebuilt from the journal when the game is opened.
//! A last journal line cut short by a crash was never confirmed; it is
//! dropped when the game is opened. A game file without a journal (copied
//! into the directory by hand) opens as a new base, named by its id.
//!
//! Every change bumps the game's version, so the version after replaying
//! the journal is the same as before a restart: clients compare it
//! (`If-Match`) to refuse changes based on a stale view.
//!
//! Nothing here knows HTTP; errors are [`StoreError`] values that the API
//! maps to status codes.

use serde::{Deserialize, Serialize};
use sleuth_core::format::EventSpec;
use sleuth_core::{Game, GameFile};
use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

/// Most events one game may hold (a long real game has about 150).
pub const MAX_EVENTS: usize = 2000;

/// One change, as journaled.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Op {
    /// The game as created or imported; only the journal's first line.
    Base {
        /// The whole game file.
        game: Box<GameFile>,
        /// The game's name (absent in journals older than names).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// A new event at `index` (the end to append).
    Insert {
        /// Where it goes, 0-based; `index == len` appends.
        index: usize,
        /// The event.
        event: EventSpec,
    },
    /// Event `index` replaced.
    Replace {
        /// Which event.
        index: usize,
        /// Its new content.
        event: EventSpec,
    },
    /// Event `index` deleted.
    Delete {
        /// Which event.
        index: usize,
    },
    /// The last change undone.
    Undo,
    /// The last undone change redone.
    Redo,
    /// The game renamed (not an event: undo and redo leave names alone).
    Rename {
        /// The new name.
        name: String,
    },
}

/// The longest game name, in characters.
pub const MAX_NAME: usize = 80;

/// A game name as stored: trimmed, 1 to [`MAX_NAME`] characters, no
/// control characters.
///
/// # Errors
/// [`StoreError::Invalid`] saying what is wrong with it.
pub fn check_name(name: &str) -> Result<String, StoreError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(StoreError::Invalid("a game name cannot be empty".into()));
    }
    if name.chars().count() > MAX_NAME {
        return Err(StoreError::Invalid(format!("a game name has at most {MAX_NAME} characters")));
    }
    if name.chars().any(char::is_control) {
        return Err(StoreError::Invalid("a game name cannot hold control characters (tabs, line breaks)".into()));
    }
    Ok(name.to_string())
}

/// The name of a game created at `now` without one: "Game 2026-11-24 06:50 UTC".
pub fn default_name(now: std::time::SystemTime) -> String {
    let stamp = humantime::format_rfc3339_seconds(now).to_string(); // 2026-11-24T06:50:12Z
    format!("Game {} {} UTC", &stamp[..10], &stamp[11..16])
}

/// Why a store operation failed.
#[derive(Debug)]
pub enum StoreError {
    /// No game with this id.
    NotFound(String),
    /// The request is invalid for this game (bad event, index out of range).
    Invalid(String),
    /// The request conflicts with the game's state (nothing to undo).
    Conflict(String),
    /// The disk failed; the message says what.
    Io(String),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::NotFound(m) | StoreError::Invalid(m) | StoreError::Conflict(m) | StoreError::Io(m) => {
                f.write_str(m)
            }
        }
    }
}

fn io_err(what: &str, path: &Path, e: std::io::Error) -> StoreError {
    StoreError::Io(format!("{what} {}: {e}", path.display()))
}

/// Whether `id` is a safe game id: 1 to 64 of `A-Z a-z 0-9 _ -`.
pub fn valid_id(id: &str) -> bool {
    (1..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// One open game: its current file and validated game, its undo history,
/// and its journal.
pub struct Entry {
    id: String,
    name: String,
    /// Set when the game is deleted, for handlers still holding the entry.
    deleted: bool,
    file: GameFile,
    game: Game,
    undo: Vec<Vec<EventSpec>>,
    redo: Vec<Vec<EventSpec>>,
    journal: File,
    json_path: PathBuf,
    journal_path: PathBuf,
    /// Bumped by every change; caches key on it.
    version: u64,
    /// The last analysis, for `version`.
    pub cache: Option<(u64, Arc<serde_json::Value>)>,
    /// The last advice, for `version`.
    pub advice: Option<(u64, Arc<serde_json::Value>)>,
}

impl Entry {
    /// The game's id.
    pub fn id(&self) -> &str {
        &self.id
    }
    /// The game's name.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// Whether the game was deleted (its files are gone).
    pub fn deleted(&self) -> bool {
        self.deleted
    }
    /// The current game file.
    pub fn file(&self) -> &GameFile {
        &self.file
    }
    /// The current validated game.
    pub fn game(&self) -> &Game {
        &self.game
    }
    /// The change counter.
    pub fn version(&self) -> u64 {
        self.version
    }
    /// Whether there is a change to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }
    /// Whether there is an undone change to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Applies a change: checks it, journals it (fsync), then updates the
    /// game and rewrites the game file atomically. On any error, nothing
    /// changes.
    ///
    /// # Errors
    /// [`StoreError::Invalid`] or [`StoreError::Conflict`] for a change that
    /// does not fit the game; [`StoreError::Io`] when the disk fails.
    pub fn change(&mut self, op: Op) -> Result<(), StoreError> {
        if self.deleted {
            return Err(StoreError::NotFound(format!("no game '{}' (it was deleted)", self.id)));
        }
        if let Op::Rename { name } = &op {
            let name = check_name(name)?;
            append_line(&mut self.journal, &self.journal_path, &Op::Rename { name: name.clone() })?;
            self.rename(name);
            return Ok(());
        }
        let (events, game) = self.check(&op)?;
        append_line(&mut self.journal, &self.journal_path, &op)?;
        self.commit(&op, events, game);
        // The journal line is the durable record and the change is made; the
        // game file follows without waiting for the disk. If it cannot be
        // written, the change still stands: the next change or the next
        // opening of the game rewrites it from the journal.
        if let Err(e) = write_file(&self.json_path, self.file.to_json().as_bytes(), false) {
            eprintln!("sleuth serve: warning: {e} (the change is in the journal)");
        }
        Ok(())
    }

    /// The events and game after `op`, without changing anything.
    fn check(&self, op: &Op) -> Result<(Vec<EventSpec>, Game), StoreError> {
        let mut events = self.file.events.clone();
        let len = events.len();
        let out_of_range = |i: usize| StoreError::Invalid(format!("no event {i}: the game has {len} events"));
        match op {
            Op::Base { .. } => return Err(StoreError::Invalid("a game has only one base".into())),
            Op::Rename { .. } => return Err(StoreError::Invalid("a rename changes no events".into())),
            Op::Insert { index, event } => {
                if *index > len {
                    return Err(out_of_range(*index));
                }
                if len >= MAX_EVENTS {
                    return Err(StoreError::Invalid(format!("a game holds at most {MAX_EVENTS} events")));
                }
                events.insert(*index, event.clone());
            }
            Op::Replace { index, event } => {
                *events.get_mut(*index).ok_or_else(|| out_of_range(*index))? = event.clone();
            }
            Op::Delete { index } => {
                if *index >= len {
                    return Err(out_of_range(*index));
                }
                events.remove(*index);
            }
            Op::Undo => events = self.undo.last().cloned().ok_or(StoreError::Conflict("nothing to undo".into()))?,
            Op::Redo => events = self.redo.last().cloned().ok_or(StoreError::Conflict("nothing to redo".into()))?,
        }
        let game = match op {
            // An insert at the end validates only the new event.
            Op::Insert { index, event } if *index == len => {
                let mut g = self.game.clone();
                g.push_event(event).map_err(|e| StoreError::Invalid(game_error(&e)))?;
                g
            }
            _ => {
                let file = GameFile { events: events.clone(), ..self.file.clone() };
                Game::new(&file).map_err(|e| StoreError::Invalid(game_error(&e)))?
            }
        };
        Ok((events, game))
    }

    fn rename(&mut self, name: String) {
        self.name = name;
        self.version += 1;
    }

    /// Deletes the game's files; the entry then refuses every change.
    /// The journal goes first: without it the game file alone would come
    /// back as a new game, which loses nothing.
    fn delete_files(&mut self) -> Result<(), StoreError> {
        for path in [&self.journal_path, &self.json_path] {
            match fs::remove_file(path) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(io_err("cannot delete", path, e)),
            }
            self.deleted = true;
        }
        if let Some(dir) = self.json_path.parent().and_then(|d| File::open(d).ok()) {
            let _ = dir.sync_all();
        }
        Ok(())
    }

    fn commit(&mut self, op: &Op, events: Vec<EventSpec>, game: Game) {
        let old = std::mem::replace(&mut self.file.events, events);
        match op {
            Op::Undo => {
                self.undo.pop();
                self.redo.push(old);
            }
            Op::Redo => {
                self.redo.pop();
                self.undo.push(old);
            }
            _ => {
                self.undo.push(old);
                self.redo.clear();
            }
        }
        self.game = game;
        self.version += 1;
    }
}

/// A game error as one line: its problems joined.
pub fn game_error(e: &sleuth_core::GameError) -> String {
    e.problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
}

/// A summary of a stored game, for the list of games.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// The id.
    pub id: String,
    /// The game's name.
    pub name: String,
    /// The version (changes so far).
    pub version: u64,
    /// Player ids in seat order.
    pub players: Vec<String>,
    /// The observer.
    pub me: Option<String>,
    /// The number of events.
    pub events: usize,
    /// Last change, in seconds since the Unix epoch.
    pub updated: u64,
    /// The same as `updated` (its older name).
    pub modified: u64,
}

/// The data directory's games.
pub struct Store {
    dir: PathBuf,
    open: Mutex<HashMap<String, Arc<Mutex<Entry>>>>,
}

/// Locks a mutex, recovering it if a panicking thread poisoned it (every
/// change is journaled before memory changes, so the state stays usable).
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Store {
    /// Opens (and creates) `data/games`.
    ///
    /// # Errors
    /// [`StoreError::Io`] when the directory cannot be created.
    pub fn open(data: &Path) -> Result<Store, StoreError> {
        let dir = data.join("games");
        fs::create_dir_all(&dir).map_err(|e| io_err("cannot create", &dir, e))?;
        Ok(Store { dir, open: Mutex::new(HashMap::new()) })
    }

    /// The directory holding the game files.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Every game in the directory, most recently changed first.
    ///
    /// # Errors
    /// [`StoreError::Io`] when the directory cannot be read.
    pub fn list(&self) -> Result<Vec<Summary>, StoreError> {
        let mut out = Vec::new();
        let entries = fs::read_dir(&self.dir).map_err(|e| io_err("cannot read", &self.dir, e))?;
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(id) = name.strip_suffix(".json") else { continue };
            if !valid_id(id) {
                continue;
            }
            let Ok(e) = self.get(id) else { continue }; // unreadable files are not games
            let e = lock(&e);
            if e.deleted {
                continue;
            }
            // The journal gets every change, renames included.
            let updated = [&e.journal_path, &e.json_path]
                .iter()
                .find_map(|p| fs::metadata(p).and_then(|m| m.modified()).ok())
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_secs());
            out.push(Summary {
                id: id.to_string(),
                name: e.name.clone(),
                version: e.version,
                players: e.file.players.clone(),
                me: e.file.me.clone(),
                events: e.file.events.len(),
                updated,
                modified: updated,
            });
        }
        out.sort_by(|a, b| b.modified.cmp(&a.modified).then_with(|| a.id.cmp(&b.id)));
        Ok(out)
    }

    /// Stores a new game (created or imported) under a fresh id.
    ///
    /// # Errors
    /// [`StoreError::Invalid`] for an invalid game; [`StoreError::Io`].
    pub fn create(&self, file: GameFile, name: Option<&str>) -> Result<String, StoreError> {
        let name = match name {
            Some(n) => check_name(n)?,
            None => default_name(std::time::SystemTime::now()),
        };
        let game = Game::new(&file).map_err(|e| StoreError::Invalid(game_error(&e)))?;
        if file.events.len() > MAX_EVENTS {
            return Err(StoreError::Invalid(format!("a game holds at most {MAX_EVENTS} events")));
        }
        let mut open = lock(&self.open);
        let id = loop {
            let id = new_id();
            if !self.dir.join(format!("{id}.json")).exists() && !open.contains_key(&id) {
                break id;
            }
        };
        let journal_path = self.dir.join(format!("{id}.journal"));
        let json_path = self.dir.join(format!("{id}.json"));
        let mut journal = OpenOptions::new()
            .create_new(true)
            .append(true)
            .open(&journal_path)
            .map_err(|e| io_err("cannot create", &journal_path, e))?;
        let base = Op::Base { game: Box::new(file.clone()), name: Some(name.clone()) };
        append_line(&mut journal, &journal_path, &base)?;
        write_atomically(&json_path, file.to_json().as_bytes())?;
        let entry = Entry {
            id: id.clone(),
            name,
            deleted: false,
            file,
            game,
            undo: Vec::new(),
            redo: Vec::new(),
            journal,
            json_path,
            journal_path,
            version: 0,
            cache: None,
            advice: None,
        };
        open.insert(id.clone(), Arc::new(Mutex::new(entry)));
        Ok(id)
    }

    /// The open game `id`, opening it from disk if needed.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when there is no such game; [`StoreError::Io`]
    /// when its files cannot be read or are corrupt.
    pub fn get(&self, id: &str) -> Result<Arc<Mutex<Entry>>, StoreError> {
        if !valid_id(id) {
            return Err(StoreError::NotFound(format!("no game '{id}'")));
        }
        let mut open = lock(&self.open);
        if let Some(e) = open.get(id) {
            return Ok(e.clone());
        }
        let entry = self.load(id)?;
        let entry = Arc::new(Mutex::new(entry));
        open.insert(id.to_string(), entry.clone());
        Ok(entry)
    }

    /// Deletes the game held by `entry` (locked by the caller, who has
    /// checked its version): its files, then its place among open games.
    ///
    /// # Errors
    /// [`StoreError::Io`] when a file cannot be removed.
    pub fn delete(&self, entry: &mut Entry) -> Result<(), StoreError> {
        if entry.deleted {
            return Err(StoreError::NotFound(format!("no game '{}' (it was deleted)", entry.id)));
        }
        let result = entry.delete_files();
        if entry.deleted {
            lock(&self.open).remove(&entry.id);
        }
        result
    }

    /// Rebuilds a game from its journal, or starts a journal for a bare
    /// game file.
    fn load(&self, id: &str) -> Result<Entry, StoreError> {
        let json_path = self.dir.join(format!("{id}.json"));
        let journal_path = self.dir.join(format!("{id}.journal"));
        let ops = if journal_path.exists() { read_journal(&journal_path)? } else { Vec::new() };
        let (base, name) = match ops.first() {
            Some(Op::Base { game, name }) => ((**game).clone(), name.clone()),
            Some(_) => return Err(StoreError::Io(format!("{}: the first line is not a base", journal_path.display()))),
            None => {
                let text = match fs::read_to_string(&json_path) {
                    Ok(t) => t,
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                        return Err(StoreError::NotFound(format!("no game '{id}'")))
                    }
                    Err(e) => return Err(io_err("cannot read", &json_path, e)),
                };
                let file =
                    GameFile::from_json(&text).map_err(|e| StoreError::Io(format!("{}: {e}", json_path.display())))?;
                (file, None)
            }
        };
        // Games from before names, and files copied in by hand, are named by their id.
        let name = name.unwrap_or_else(|| id.to_string());
        let game =
            Game::new(&base).map_err(|e| StoreError::Io(format!("{}: {}", json_path.display(), game_error(&e))))?;
        let mut journal = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&journal_path)
            .map_err(|e| io_err("cannot open", &journal_path, e))?;
        if ops.is_empty() {
            append_line(&mut journal, &journal_path, &Op::Base { game: Box::new(base.clone()), name: None })?;
        }
        let mut entry = Entry {
            id: id.to_string(),
            name,
            deleted: false,
            file: base,
            game,
            undo: Vec::new(),
            redo: Vec::new(),
            journal,
            json_path: json_path.clone(),
            journal_path: journal_path.clone(),
            version: 0,
            cache: None,
            advice: None,
        };
        for (n, op) in ops.iter().enumerate().skip(1) {
            let cannot = |e: StoreError| {
                StoreError::Io(format!("{} line {}: cannot replay: {e}", journal_path.display(), n + 1))
            };
            if let Op::Rename { name } = op {
                entry.rename(check_name(name).map_err(cannot)?);
                continue;
            }
            let (events, game) = entry.check(op).map_err(cannot)?;
            entry.commit(op, events, game);
        }
        let on_disk = fs::read_to_string(&json_path).ok().and_then(|t| GameFile::from_json(&t).ok());
        if on_disk.as_ref() != Some(&entry.file) {
            write_atomically(&json_path, entry.file.to_json().as_bytes())?;
        }
        Ok(entry)
    }
}

/// The journal's changes. A last line cut short (a crash during the write:
/// never confirmed) is cut off the file; a bad line before the end is an
/// error, because dropping it could lose a confirmed change.
fn read_journal(path: &Path) -> Result<Vec<Op>, StoreError> {
    let file = File::open(path).map_err(|e| io_err("cannot read", path, e))?;
    let mut ops = Vec::new();
    let mut good_len: u64 = 0;
    let mut bad: Option<(usize, String)> = None;
    let mut reader = BufReader::new(file);
    let mut line = Vec::new();
    let mut n = 0;
    loop {
        line.clear();
        let read = reader.read_until(b'\n', &mut line).map_err(|e| io_err("cannot read", path, e))?;
        if read == 0 {
            break;
        }
        n += 1;
        if let Some((at, msg)) = bad {
            return Err(StoreError::Io(format!("{} line {at} is corrupt: {msg}", path.display())));
        }
        let complete = line.ends_with(b"\n");
        match serde_json::from_slice::<Op>(&line) {
            Ok(op) if complete => {
                ops.push(op);
                good_len += read as u64;
            }
            Ok(_) => bad = Some((n, "no end of line".into())),
            Err(e) => bad = Some((n, e.to_string())),
        }
    }
    if bad.is_some() {
        // Only the last line is bad: an unconfirmed, interrupted write.
        let f = OpenOptions::new().write(true).open(path).map_err(|e| io_err("cannot repair", path, e))?;
        f.set_len(good_len).and_then(|()| f.sync_all()).map_err(|e| io_err("cannot repair", path, e))?;
    }
    Ok(ops)
}

/// Appends one JSON line and flushes it to disk. On failure the journal is
/// cut back to its old length, so no half line stays behind.
fn append_line(journal: &mut File, path: &Path, op: &Op) -> Result<(), StoreError> {
    let mut line = serde_json::to_vec(op).map_err(|e| StoreError::Io(format!("cannot encode a change: {e}")))?;
    line.push(b'\n');
    let before = journal.metadata().map_err(|e| io_err("cannot write", path, e))?.len();
    let written = journal.write_all(&line).and_then(|()| journal.sync_data());
    if let Err(e) = written {
        let _ = journal.set_len(before);
        return Err(io_err("cannot write", path, e));
    }
    Ok(())
}

/// Writes a file atomically and durably: a temporary file in the same
/// directory, flushed, renamed over the target, and the directory flushed.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    write_file(path, bytes, true)
}

/// Writes a file atomically (temporary file and rename, so a reader never
/// sees half a file), waiting for the disk only when `durable`.
fn write_file(path: &Path, bytes: &[u8], durable: bool) -> Result<(), StoreError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp"));
    let result = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        if durable {
            f.sync_all()?;
        }
        fs::rename(&tmp, path)?;
        // Make the rename itself durable (not possible on every platform).
        if durable {
            if let Ok(d) = File::open(dir) {
                let _ = d.sync_all();
            }
        }
        Ok(())
    })();
    result.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        io_err("cannot write", path, e)
    })
}

/// A fresh game id: the date-free `game-` prefix and 12 random hex digits.
fn new_id() -> String {
    let n: u64 = rand::random();
    format!("game-{:012x}", n & 0xffff_ffff_ffff)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GameFile {
        GameFile::from_json(
            r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c"], "me": "a",
                "hand": ["mu", "pl", "gr", "kn", "ca", "ha"], "events": []}"#,
        )
        .unwrap()
    }

    fn event(by: &str, refuted: Option<&str>) -> EventSpec {
        EventSpec::Suggestion(sleuth_core::format::SuggestionSpec {
            by: by.into(),
            cards: vec!["pe".into(), "re".into(), "lo".into()],
            refuted_by: refuted.map(Into::into),
            shown: None,
        })
    }

    #[test]
    fn changes_survive_reopening_with_their_undo_history() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let id = store.create(sample(), None).unwrap();
        {
            let e = store.get(&id).unwrap();
            let mut e = lock(&e);
            e.change(Op::Insert { index: 0, event: event("b", Some("c")) }).unwrap();
            e.change(Op::Insert { index: 1, event: event("c", None) }).unwrap();
            e.change(Op::Delete { index: 0 }).unwrap();
            e.change(Op::Undo).unwrap();
            assert!(matches!(e.change(Op::Delete { index: 5 }), Err(StoreError::Invalid(_))));
            assert!(matches!(e.change(Op::Redo), Ok(())));
            e.change(Op::Undo).unwrap();
            assert_eq!(e.file().events.len(), 2);
        }
        let again = Store::open(dir.path()).unwrap();
        let e = again.get(&id).unwrap();
        let e = lock(&e);
        assert_eq!(e.file().events, vec![event("b", Some("c")), event("c", None)]);
        assert!(e.can_redo() && e.can_undo());
        let on_disk = GameFile::from_json(&fs::read_to_string(dir.path().join(format!("games/{id}.json"))).unwrap());
        assert_eq!(on_disk.unwrap().events.len(), 2);
    }

    #[test]
    fn a_torn_last_line_is_dropped_but_a_torn_middle_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let id = store.create(sample(), None).unwrap();
        lock(&store.get(&id).unwrap()).change(Op::Insert { index: 0, event: event("b", Some("c")) }).unwrap();
        let journal = dir.path().join(format!("games/{id}.journal"));
        let mut f = OpenOptions::new().append(true).open(&journal).unwrap();
        f.write_all(br#"{"op":"insert","index":1,"ev"#).unwrap();
        drop(f);
        let e = Store::open(dir.path()).unwrap().get(&id).unwrap();
        assert_eq!(lock(&e).file().events.len(), 1);
        drop(e);
        let text = fs::read_to_string(&journal).unwrap();
        assert!(text.ends_with("}\n"), "{text}");
        fs::write(&journal, format!("{text}garbage\n{}", text.lines().nth(1).unwrap())).unwrap();
        assert!(matches!(Store::open(dir.path()).unwrap().get(&id), Err(StoreError::Io(_))));
    }

    #[test]
    fn names_are_journaled_and_old_journals_are_named_by_their_id() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let id = store.create(sample(), Some("  Friday ")).unwrap();
        {
            let e = store.get(&id).unwrap();
            let mut e = lock(&e);
            assert_eq!((e.name(), e.version()), ("Friday", 0));
            e.change(Op::Rename { name: "Saturday".into() }).unwrap();
            assert!(matches!(e.change(Op::Rename { name: "\n".into() }), Err(StoreError::Invalid(_))));
            e.change(Op::Insert { index: 0, event: event("b", None) }).unwrap();
            e.change(Op::Undo).unwrap();
            assert_eq!((e.name(), e.version(), e.can_undo()), ("Saturday", 3, false));
        }
        let again = Store::open(dir.path()).unwrap().get(&id).unwrap();
        let again = lock(&again);
        assert_eq!((again.name(), again.version()), ("Saturday", 3));
        // A journal from before names: its base has no name.
        let games = dir.path().join("games");
        let base = serde_json::json!({"op": "base", "game": sample()});
        fs::write(games.join("old.journal"), format!("{base}\n")).unwrap();
        fs::write(games.join("old.json"), sample().to_json()).unwrap();
        let old = Store::open(dir.path()).unwrap().get("old").unwrap();
        assert_eq!(lock(&old).name(), "old");
        assert!(default_name(std::time::UNIX_EPOCH) == "Game 1970-01-01 00:00 UTC");
    }

    #[test]
    fn invalid_events_and_ids_change_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let id = store.create(sample(), None).unwrap();
        let e = store.get(&id).unwrap();
        let mut e = lock(&e);
        let bad = EventSpec::Suggestion(sleuth_core::format::SuggestionSpec {
            by: "zz".into(),
            cards: vec!["pe".into(), "re".into(), "xx".into()],
            refuted_by: None,
            shown: None,
        });
        let Err(StoreError::Invalid(msg)) = e.change(Op::Insert { index: 0, event: bad }) else { panic!() };
        assert!(msg.contains("zz") && msg.contains("xx"), "{msg}");
        assert_eq!(e.version(), 0);
        assert!(matches!(store.get("../etc/passwd"), Err(StoreError::NotFound(_))));
        assert!(!valid_id("") && !valid_id("a/b") && valid_id("game-12ab"));
    }
}
