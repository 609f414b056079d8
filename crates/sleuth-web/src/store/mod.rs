//! The games on disk: one SQLite database, `DATA/sleuth.db`.
//!
//! Two tables hold the games (`store::db` has the settings and why):
//! - `changes`: each game's history, one row per step: the game as created
//!   or imported (step 0, with its name), then every change (a turn added,
//!   edited or deleted, undo, redo, rename), with the idempotency key it
//!   came with. Step N made version N.
//! - `games`: each game as it is now (name, version, the game file, the
//!   turns' ids), for the list of games and for the case where its history
//!   cannot be read.
//!
//! A change is one transaction on both; it is confirmed only once that
//! transaction is committed (on disk: `synchronous=FULL`), and only then
//! does the game in memory change. Opening a game replays its history,
//! which rebuilds its undo history; reading never writes.
//!
//! Turns are named by a [`TurnId`] given when they are added, so an edit
//! or a delete names the turn the client saw, whatever happened to the
//! positions since. A change sent with an idempotency key is stored once:
//! the same key again (a retry whose answer was lost) answers with what the
//! first did.
//!
//! Damage is reported, never hidden: a row whose checksum fails, or that
//! the strict readers refuse, is named (game and step) at start and in the
//! list; the game is then served from what is intact and refuses changes.
//! A data folder of the layout before the database (`games/ID.json` and
//! `games/ID.journal`) is imported at start (`store::import`), and its files
//! are moved aside, never deleted.
//!
//! A data folder that cannot be written (a read-only file system, no
//! permission) is opened read-only: games list and read; changes are
//! refused with a clear error. On a full disk games list and read too, and
//! a change that cannot be stored fails alone, changing nothing.
//!
//! Nothing here knows HTTP; errors are [`StoreError`] values that the API
//! maps to status codes.

mod db;
mod history;
mod import;

pub use db::Mode;
pub use history::{check_name, game_error, Change, Done, Entry, Planned, Record, TurnId, MAX_EVENTS, MAX_NAME};

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;
use sleuth_core::GameFile;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

/// The database's file name in the data folder.
pub const DB_FILE: &str = "sleuth.db";

/// The folder of the layout before the database, imported at start.
pub const OLD_GAMES: &str = "games";

/// Where an imported `games/` folder is moved (a number is added when taken).
pub const OLD_GAMES_KEPT: &str = "games-imported";

/// The name of a game created at `now` without one: "Game 2026-11-24 06:50 UTC".
pub fn default_name(now: std::time::SystemTime) -> String {
    let stamp = humantime::format_rfc3339_seconds(now).to_string(); // 2026-11-24T06:50:12Z
    format!("Game {} {} UTC", &stamp[..10], &stamp[11..16])
}

/// Why a store operation failed.
#[derive(Debug)]
pub enum StoreError {
    /// No game (or turn) with this id.
    NotFound(String),
    /// The request is invalid for this game.
    Invalid(String),
    /// The request conflicts with the game's state (nothing to undo).
    Conflict(String),
    /// The disk is full: nothing was stored.
    Full(String),
    /// The store (or this game, whose history is damaged) takes no change.
    ReadOnly(String),
    /// The disk or the database failed; the message says what.
    Io(String),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::NotFound(m)
            | StoreError::Invalid(m)
            | StoreError::Conflict(m)
            | StoreError::Full(m)
            | StoreError::ReadOnly(m)
            | StoreError::Io(m) => f.write_str(m),
        }
    }
}

/// Whether `id` is a safe game id: 1 to 64 of `A-Z a-z 0-9 _ -`.
pub fn valid_id(id: &str) -> bool {
    (1..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
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
    /// What is damaged, when something is: the game then takes no change.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub damaged: Option<String>,
}

/// What the store found when it opened.
#[derive(Clone, Debug)]
pub struct Report {
    /// The database file.
    pub database: PathBuf,
    /// Read-write or read-only (and why).
    pub mode: Mode,
    /// How many games it holds.
    pub games: usize,
    /// How many were imported from the old layout now.
    pub imported: usize,
    /// Damage, each naming the game and the line or step.
    pub problems: Vec<String>,
    /// Other findings (a folder moved aside, a cut last line dropped).
    pub notes: Vec<String>,
}

impl Report {
    /// One line for the server's output: how many games, where, and whether
    /// anything is damaged or read-only.
    pub fn summary(&self) -> String {
        let games = format!("{} game{}", self.games, if self.games == 1 { "" } else { "s" });
        let mut s = format!("{games} in {}", self.database.display());
        if !self.database.exists() {
            // Read-only without a database: the old layout's files, read into memory.
            s = format!("{games} read from the game files (no database)");
        } else if self.imported > 0 {
            s.push_str(&format!(" ({} imported from the game files)", self.imported));
        }
        if let Mode::ReadOnly(why) = &self.mode {
            s.push_str(&format!("; read-only ({why}): games can be read, not changed"));
        }
        match self.problems.len() {
            0 => s.push_str("; nothing damaged"),
            n => s.push_str(&format!("; {n} problem{} found (below)", if n == 1 { "" } else { "s" })),
        }
        s
    }
}

/// The data folder's games.
pub struct Store {
    db: Mutex<Connection>,
    report: Report,
    open: Mutex<HashMap<String, Arc<Mutex<Entry>>>>,
}

/// Locks a mutex, recovering it if a panicking thread poisoned it (memory
/// changes only after the database has committed, so the state is usable).
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

impl Store {
    /// Opens the store of the data folder `data` (creating it): the
    /// database, read-write when the folder can be written, read-only when
    /// it cannot; imports a `games/` folder of the old layout; checks every
    /// game. [`Store::report`] says what it found.
    ///
    /// # Errors
    /// [`StoreError::Io`] when the folder or the database cannot be opened
    /// at all (another server holds it, it is not a database).
    pub fn open(data: &Path) -> Result<Store, StoreError> {
        if let Err(e) = std::fs::create_dir_all(data) {
            if !data.is_dir() {
                return Err(StoreError::Io(format!("cannot create the data folder {}: {e}", data.display())));
            }
        }
        let path = data.join(DB_FILE);
        let old = data.join(OLD_GAMES);
        let mut notes = Vec::new();
        let opened = match db::writable(data, &path) {
            Ok(()) => match db::open_writable(&path) {
                Ok(conn) => Ok(conn),
                Err(e) => match db::error("cannot open the database", &e) {
                    StoreError::Full(m) | StoreError::ReadOnly(m) => Err(m),
                    other => return Err(StoreError::Io(format!("{} ({})", other, path.display()))),
                },
            },
            Err(why) => Err(why),
        };
        let (conn, mode) = match opened {
            Ok(conn) => (conn, Mode::Writable),
            Err(why) if path.exists() => {
                let conn = db::open_read_only(&path)
                    .map_err(|e| db::error(&format!("cannot open {} (not even read-only)", path.display()), &e))?;
                (conn, Mode::ReadOnly(why))
            }
            Err(why) => {
                let conn = db::open_memory().map_err(|e| db::error("cannot open a database in memory", &e))?;
                (conn, Mode::ReadOnly(why))
            }
        };
        let mut report =
            Report { database: path, mode, games: 0, imported: 0, problems: Vec::new(), notes: Vec::new() };
        let in_memory = !report.database.exists();
        let mut imported = false;
        if old.is_dir() {
            if matches!(report.mode, Mode::ReadOnly(_)) && !in_memory {
                notes.push(format!(
                    "{} was not imported (the data folder is read-only): the games there are not shown",
                    old.display()
                ));
            } else {
                import_folder(&conn, &old, &mut report)?;
                imported = true;
            }
        }
        report.notes.splice(0..0, notes);
        let mut store = Store { db: Mutex::new(conn), report, open: Mutex::new(HashMap::new()) };
        store.check()?;
        if imported && store.report.mode == Mode::Writable {
            store.report.notes.push(set_aside(&old));
        } else if imported {
            store.report.notes.push(format!("the games of {} are read from their files", old.display()));
        }
        Ok(store)
    }

    /// What the store found when it opened.
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// Checks the database and every game at start: SQLite's own check of
    /// its pages, then each game's rows.
    fn check(&mut self) -> Result<(), StoreError> {
        let (ids, quick) = {
            let conn = lock(&self.db);
            let quick: Vec<String> = conn
                .prepare("PRAGMA quick_check")
                .and_then(|mut s| s.query_map([], |r| r.get::<_, String>(0))?.collect())
                .unwrap_or_else(|e| vec![e.to_string()]);
            let ids: Result<Vec<String>, _> = conn
                .prepare("SELECT id FROM games UNION SELECT game FROM changes ORDER BY 1")
                .and_then(|mut s| s.query_map([], |r| r.get::<_, String>(0))?.collect());
            (ids.map_err(|e| db::error("cannot list the games", &e))?, quick)
        };
        if quick != ["ok"] {
            self.report.problems.push(format!(
                "{}: SQLite finds damage: {}",
                self.report.database.display(),
                quick.into_iter().take(5).collect::<Vec<_>>().join("; ")
            ));
        }
        self.report.games = ids.len();
        for id in ids {
            match self.get(&id) {
                Ok(e) => {
                    if let Some(d) = lock(&e).damaged() {
                        self.report.problems.push(format!("game {id}: {d}"));
                    }
                }
                Err(e) => self.report.problems.push(format!("game {id}: {e}")),
            }
        }
        Ok(())
    }

    /// Every game, most recently changed first; a game that cannot be read
    /// is listed with what is wrong (`damaged`).
    ///
    /// # Errors
    /// [`StoreError::Io`] when the database cannot be read at all.
    pub fn list(&self) -> Result<Vec<Summary>, StoreError> {
        let ids: Vec<String> = {
            let conn = lock(&self.db);
            let ids: Result<Vec<String>, _> = conn
                .prepare("SELECT id FROM games UNION SELECT game FROM changes")
                .and_then(|mut s| s.query_map([], |r| r.get::<_, String>(0))?.collect());
            ids.map_err(|e| db::error("cannot list the games", &e))?
        };
        let mut out = Vec::new();
        for id in ids {
            let summary = match self.get(&id) {
                Ok(entry) => {
                    let e = lock(&entry);
                    if e.deleted {
                        continue;
                    }
                    Summary {
                        id: id.clone(),
                        name: e.name.clone(),
                        version: e.version,
                        players: e.file().players.clone(),
                        me: e.file().me.clone(),
                        events: e.file().events.len(),
                        updated: e.updated,
                        modified: e.updated,
                        damaged: e.damaged.clone(),
                    }
                }
                Err(StoreError::NotFound(_)) => continue,
                Err(err) => Summary {
                    id: id.clone(),
                    name: id.clone(),
                    version: 0,
                    players: Vec::new(),
                    me: None,
                    events: 0,
                    updated: 0,
                    modified: 0,
                    damaged: Some(err.to_string()),
                },
            };
            out.push(summary);
        }
        out.sort_by(|a, b| b.updated.cmp(&a.updated).then_with(|| a.id.cmp(&b.id)));
        Ok(out)
    }

    /// Stores a new game (created or imported) under a fresh id. A game
    /// created with an idempotency `key` is stored once: the same key again
    /// (a retry whose answer was lost) answers with that game's id and
    /// `true` (replayed); with another game or name it is refused.
    ///
    /// # Errors
    /// [`StoreError::Invalid`] for an invalid game or a key sent before with
    /// another request; [`StoreError::Full`], [`StoreError::ReadOnly`],
    /// [`StoreError::Io`] when it cannot be stored.
    pub fn create(&self, file: GameFile, name: Option<&str>, key: Option<&str>) -> Result<(String, bool), StoreError> {
        let name = name.map(check_name).transpose()?;
        // The request as sent (a default name is made below, and differs on a retry).
        let request = serde_json::json!({"op": "create", "name": name, "game": file.to_json()}).to_string();
        // Held until the game is stored: two copies of one request cannot both miss the key.
        let mut open = lock(&self.open);
        if let Some(key) = key {
            if let Some(id) = self.created_by(key, &request)? {
                return Ok((id, true));
            }
        }
        let name = name.unwrap_or_else(|| default_name(std::time::SystemTime::now()));
        let id = loop {
            let id = new_id();
            if !open.contains_key(&id) && !self.exists(&id)? {
                break id;
            }
        };
        let entry = Entry::new(&id, file.clone(), name.clone(), now())?;
        self.writable()?;
        let records = [Record::Base { file: Box::new(file), name }];
        let mut conn = lock(&self.db);
        let tx = conn.transaction().map_err(|e| db::error("cannot store the game", &e))?;
        insert_game(&tx, &entry, &records, key.map(|k| (k, request.as_str())))
            .map_err(|e| db::error("cannot store the game", &e))?;
        tx.commit().map_err(|e| db::error("cannot store the game", &e))?;
        open.insert(id.clone(), Arc::new(Mutex::new(entry)));
        Ok((id, false))
    }

    /// The game created with idempotency `key`, if one was (and is not
    /// deleted); an error when `key` came with another request.
    fn created_by(&self, key: &str, request: &str) -> Result<Option<String>, StoreError> {
        let conn = lock(&self.db);
        let found: Option<(String, Option<String>)> = conn
            .query_row("SELECT game, request FROM changes WHERE seq = 0 AND key = ?1", [key], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .optional()
            .map_err(|e| db::error("cannot read the games", &e))?;
        match found {
            None => Ok(None),
            Some((id, Some(r))) if r == request => Ok(Some(id)),
            Some(_) => Err(StoreError::Invalid(
                "this Idempotency-Key was sent before with another game; send a new key for a new game; nothing was changed"
                    .into(),
            )),
        }
    }

    fn exists(&self, id: &str) -> Result<bool, StoreError> {
        let conn = lock(&self.db);
        conn.query_row(
            "SELECT 1 FROM games WHERE id = ?1 UNION SELECT 1 FROM changes WHERE game = ?1",
            [id],
            |_| Ok(()),
        )
        .optional()
        .map(|r| r.is_some())
        .map_err(|e| db::error("cannot read the games", &e))
    }

    fn writable(&self) -> Result<(), StoreError> {
        match &self.report.mode {
            Mode::Writable => Ok(()),
            Mode::ReadOnly(why) => {
                Err(StoreError::ReadOnly(format!("the games are read-only ({why}); nothing was changed")))
            }
        }
    }

    /// Applies a change to the game held by `e` (locked by the caller): checks
    /// it, stores it in one transaction, then changes the game in memory. A
    /// change with `key` that was stored before is not applied again; the
    /// caller answers with [`Entry::keyed`]. On any error nothing changes.
    ///
    /// # Errors
    /// [`StoreError::Invalid`], [`StoreError::NotFound`] or
    /// [`StoreError::Conflict`] for a change that does not fit the game;
    /// [`StoreError::ReadOnly`] for a read-only store or a damaged game;
    /// [`StoreError::Full`] or [`StoreError::Io`] when it cannot be stored.
    pub fn change(&self, e: &mut Entry, change: Change, key: Option<&str>) -> Result<Done, StoreError> {
        if e.deleted {
            return Err(StoreError::NotFound(format!("no game '{}' (it was deleted)", e.id)));
        }
        let request = change.fingerprint();
        let planned = e.plan(e.resolve(change)?)?;
        self.writable()?;
        if let Some(why) = &e.damaged {
            return Err(StoreError::ReadOnly(format!(
                "game {} is damaged ({why}): it can be read and exported, not changed; import its export as a new game to go on",
                e.id
            )));
        }
        let now = now();
        let (name, file) = e.after(&planned);
        let seq = e.version + 1;
        let record = planned.record.to_json();
        let mut conn = lock(&self.db);
        let stored = (|| {
            let tx = conn.transaction()?;
            let sum = db::change_sum(&e.id, seq, &record, key, key.map(|_| request.as_str()));
            tx.execute(
                "INSERT INTO changes (game, seq, record, key, request, sum) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![e.id, seq, record, key, key.map(|_| &request), sum],
            )?;
            let file = file.to_json();
            let turns = Entry::ids_json_of(&planned);
            let sum = db::game_sum(&e.id, &name, seq, now, &file, &turns);
            tx.execute(
                "UPDATE games SET name = ?2, version = ?3, updated = ?4, file = ?5, turns = ?6, sum = ?7 WHERE id = ?1",
                params![e.id, name, seq, now, file, turns, sum],
            )?;
            tx.commit()
        })();
        stored.map_err(|err| {
            let mut err = db::error("cannot store the change", &err);
            if let StoreError::Full(m) | StoreError::Io(m) = &mut err {
                m.push_str("; nothing was changed");
            }
            err
        })?;
        drop(conn);
        Ok(e.apply(planned, key.map(|k| (k, request.as_str())), now))
    }

    /// The open game `id`, reading it from the database if needed.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when there is no such game; [`StoreError::Io`]
    /// when nothing of it can be read.
    pub fn get(&self, id: &str) -> Result<Arc<Mutex<Entry>>, StoreError> {
        if !valid_id(id) {
            return Err(StoreError::NotFound(format!("no game '{id}'")));
        }
        let mut open = lock(&self.open);
        if let Some(e) = open.get(id) {
            return Ok(e.clone());
        }
        let entry = Arc::new(Mutex::new(self.load(id)?));
        open.insert(id.to_string(), entry.clone());
        Ok(entry)
    }

    /// Deletes the game held by `entry` (locked by the caller, who has
    /// checked its version): its rows, then its place among open games.
    ///
    /// # Errors
    /// [`StoreError::ReadOnly`], [`StoreError::Full`], [`StoreError::Io`].
    pub fn delete(&self, entry: &mut Entry) -> Result<(), StoreError> {
        if entry.deleted {
            return Err(StoreError::NotFound(format!("no game '{}' (it was deleted)", entry.id)));
        }
        self.writable()?;
        let mut conn = lock(&self.db);
        let done = (|| {
            let tx = conn.transaction()?;
            tx.execute("DELETE FROM changes WHERE game = ?1", [&entry.id])?;
            tx.execute("DELETE FROM games WHERE id = ?1", [&entry.id])?;
            tx.commit()
        })();
        done.map_err(|e| db::error("cannot delete the game", &e))?;
        drop(conn);
        entry.deleted = true;
        lock(&self.open).remove(&entry.id);
        Ok(())
    }

    /// The access token kept in the database for `--listen`, made on first
    /// use (or anew when `new`), so that links and phones that joined keep
    /// working after a restart. When it cannot be kept (a read-only store)
    /// a fresh one is used for this run only; the note says so.
    pub fn access_token(&self, new: bool) -> (String, Option<String>) {
        let conn = lock(&self.db);
        let kept: Option<String> = conn
            .query_row("SELECT value FROM meta WHERE key = 'token'", [], |r| r.get(0))
            .optional()
            .ok()
            .flatten()
            .filter(|t: &String| t.len() == 32 && t.bytes().all(|b| b.is_ascii_hexdigit()));
        if let (Some(t), false) = (&kept, new) {
            return (t.clone(), None);
        }
        let token = crate::guard::new_token();
        if self.report.mode != Mode::Writable {
            return (token, Some("the access token is new for this run (the data folder is read-only)".into()));
        }
        match conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('token', ?1)", [&token]) {
            Ok(_) => (token, None),
            Err(e) => {
                let why = db::error("cannot keep the access token", &e);
                (token, Some(format!("{why}: it is new for this run only")))
            }
        }
    }

    /// Reads game `id` from its rows.
    fn load(&self, id: &str) -> Result<Entry, StoreError> {
        let conn = lock(&self.db);
        let read = |e: rusqlite::Error| db::error(&format!("cannot read game {id}"), &e);
        let rows: Vec<ChangeRow> = conn
            .prepare("SELECT seq, record, key, request, sum FROM changes WHERE game = ?1 ORDER BY seq")
            .and_then(|mut s| {
                s.query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)))?.collect()
            })
            .map_err(read)?;
        let row: Option<(String, u64, u64, String, String, i64)> = conn
            .query_row("SELECT name, version, updated, file, turns, sum FROM games WHERE id = ?1", [id], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?))
            })
            .optional()
            .map_err(read)?;
        drop(conn);
        if rows.is_empty() && row.is_none() {
            return Err(StoreError::NotFound(format!("no game '{id}'")));
        }
        let (mut entry, damage) = replay(id, &rows);
        // The games row: intact when its checksum holds and it reads.
        let current = row.and_then(|(name, version, updated, file, turns, sum)| {
            if db::game_sum(id, &name, version, updated, &file, &turns) != sum {
                return None;
            }
            let file = GameFile::from_json(&file).ok()?;
            let ids: Vec<u64> = serde_json::from_str(&turns).ok()?;
            let ids = ids.into_iter().map(TurnId).collect();
            Entry::without_history(id, file, ids, name, version, updated).ok()
        });
        match (damage, current, entry.as_mut()) {
            (None, Some(current), Some(e)) => {
                if e.version != current.version
                    || e.name != current.name
                    || e.file() != current.file()
                    || e.turn_ids() != current.turn_ids()
                {
                    let mut current = current;
                    current.damaged = Some("its history does not lead to the game as stored".into());
                    return Ok(current);
                }
                e.updated = current.updated;
            }
            // Only the row of the game as it is now is damaged: the history has it all.
            (None, None, Some(_)) => {}
            (Some(why), Some(mut current), _) => {
                current.damaged = Some(format!("{why}; the game as last stored is shown, without undo history"));
                return Ok(current);
            }
            (Some(why), None, Some(e)) => {
                e.damaged = Some(format!(
                    "{why}, and the game as last stored cannot be read either: the turns up to step {} are shown",
                    e.version
                ));
            }
            (damage, None, None) | (damage @ None, _, None) => {
                return Err(StoreError::Io(format!(
                    "game {id} cannot be read: {}",
                    damage.unwrap_or_else(|| "its history has no start".into())
                )))
            }
        }
        Ok(entry.expect("handled above"))
    }
}

/// A row of the changes table: step, record, idempotency key, request, checksum.
type ChangeRow = (u64, String, Option<String>, Option<String>, i64);

/// Replays a game's rows: the game of its intact prefix, and the first
/// damage found.
fn replay(id: &str, rows: &[ChangeRow]) -> (Option<Entry>, Option<String>) {
    let mut entry: Option<Entry> = None;
    for (expected, (seq, record, key, request, sum)) in rows.iter().enumerate() {
        let expected = expected as u64;
        let damage = |why: String| Some(format!("step {expected} of its history is damaged ({why})"));
        if *seq != expected {
            return (entry, damage("missing".into()));
        }
        if db::change_sum(id, *seq, record, key.as_deref(), request.as_deref()) != *sum {
            return (entry, damage("its checksum does not match".into()));
        }
        let record = match Record::from_json(record) {
            Ok(r) => r,
            Err(e) => return (entry, damage(e)),
        };
        match (&mut entry, record) {
            (None, Record::Base { file, name }) => match Entry::new(id, *file, name, 0) {
                Ok(e) => entry = Some(e),
                Err(e) => return (None, damage(e.to_string())),
            },
            (None, _) => return (None, damage("the game as created is missing".into())),
            (Some(e), record) => match e.plan(record) {
                Ok(planned) => {
                    let key = key.as_deref().zip(request.as_deref());
                    e.apply(planned, key, 0);
                }
                Err(err) => return (entry, damage(format!("cannot replay: {err}"))),
            },
        }
    }
    (entry, None)
}

/// Inserts a game's rows: the current state and its history; `created`
/// is the idempotency key and request that created it, if any.
fn insert_game(
    tx: &rusqlite::Transaction<'_>,
    e: &Entry,
    records: &[Record],
    created: Option<(&str, &str)>,
) -> rusqlite::Result<()> {
    for (seq, r) in records.iter().enumerate() {
        let record = r.to_json();
        let (key, request) = created.filter(|_| seq == 0).unzip();
        let sum = db::change_sum(&e.id, seq as u64, &record, key, request);
        tx.execute(
            "INSERT INTO changes (game, seq, record, key, request, sum) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![e.id, seq as u64, record, key, request, sum],
        )?;
    }
    let (file, turns) = (e.file().to_json(), e.ids_json());
    let sum = db::game_sum(&e.id, &e.name, e.version, e.updated, &file, &turns);
    tx.execute(
        "INSERT INTO games (id, name, version, updated, file, turns, sum) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![e.id, e.name, e.version, e.updated, file, turns, sum],
    )?;
    Ok(())
}

/// Imports every game of an old-layout `games/` folder in one transaction;
/// ids already in the database (an import interrupted before its folder was
/// moved aside) are skipped.
fn import_folder(conn: &Connection, old: &Path, report: &mut Report) -> Result<(), StoreError> {
    let ids = import::ids(old).map_err(|e| StoreError::Io(format!("cannot read {}: {e}", old.display())))?;
    let fail = |e: rusqlite::Error| db::error(&format!("cannot import {}", old.display()), &e);
    let tx = conn.unchecked_transaction().map_err(fail)?;
    for id in ids {
        let known: bool =
            tx.query_row("SELECT count(*) > 0 FROM games WHERE id = ?1", [&id], |r| r.get(0)).map_err(fail)?;
        if known {
            report.notes.push(format!("game {id} of {} is already in the database: skipped", old.display()));
            continue;
        }
        match import::game(old, &id) {
            Ok(imported) => {
                insert_game(&tx, &imported.entry, &imported.records, None).map_err(fail)?;
                report.imported += 1;
                report.problems.extend(imported.problems.into_iter().map(|p| format!("game {}: {p}", imported.id)));
                report.notes.extend(imported.notes.into_iter().map(|p| format!("game {}: {p}", imported.id)));
            }
            Err(why) => report.problems.push(format!("game {id} cannot be imported: {why} (its files are kept)")),
        }
    }
    tx.commit().map_err(fail)
}

/// Moves an imported `games/` folder aside (never deleting it); says where.
fn set_aside(old: &Path) -> String {
    let parent = old.parent().unwrap_or(Path::new("."));
    let target = (1..)
        .map(|n| parent.join(if n == 1 { OLD_GAMES_KEPT.to_string() } else { format!("{OLD_GAMES_KEPT}-{n}") }))
        .find(|p| !p.exists())
        .expect("a free name");
    match std::fs::rename(old, &target) {
        Ok(()) => format!("the game files were imported and moved to {}", target.display()),
        Err(e) => format!(
            "the game files were imported but could not be moved to {} ({e}); they are skipped at the next start",
            target.display()
        ),
    }
}

/// A fresh game id: the `game-` prefix and 12 random hex digits.
fn new_id() -> String {
    let n: u64 = rand::random();
    format!("game-{:012x}", n & 0xffff_ffff_ffff)
}
