//! The SQLite database: how it is opened (read-write, read-only, or in
//! memory), its tables, and a checksum on every row.
//!
//! Settings, and why:
//! - `journal_mode=WAL`: a commit appends to the write-ahead log; a crash at
//!   any moment leaves the last committed state (SQLite's own tests cover
//!   power loss and torn writes).
//! - `synchronous=FULL`: the log is flushed to disk at every commit, so a
//!   change confirmed to a client survives a power cut, not only a crash of
//!   the process (`NORMAL` would lose the last commits on power loss).
//! - `locking_mode=EXCLUSIVE`: one server owns the folder (a second one is
//!   refused with a clear error instead of sharing it), and the log's index
//!   lives in the process's memory, not in a `-shm` file: opening the
//!   database writes nothing, so it opens on a full disk.
//!
//! SQLite checks its pages' structure but not the bytes of a value, so each
//! row carries a CRC-32 of its content: a flipped byte inside a stored turn
//! is found and reported, never served as a different turn.

use super::StoreError;
use rusqlite::{Connection, OpenFlags};
use std::path::Path;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id      TEXT PRIMARY KEY NOT NULL,
    name    TEXT NOT NULL,
    version INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    file    TEXT NOT NULL,
    turns   TEXT NOT NULL,
    sum     INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS changes (
    game    TEXT NOT NULL,
    seq     INTEGER NOT NULL,
    record  TEXT NOT NULL,
    key     TEXT,
    request TEXT,
    sum     INTEGER NOT NULL,
    PRIMARY KEY (game, seq)
);
CREATE INDEX IF NOT EXISTS created_by_key ON changes (key) WHERE seq = 0 AND key IS NOT NULL;
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
);
";

/// The schema's version, in `PRAGMA user_version`.
const SCHEMA_VERSION: i64 = 2;

/// How the database was opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Read and write.
    Writable,
    /// Read only; the reason, in words.
    ReadOnly(String),
}

/// CRC-32 of a row's fields, each followed by a separator byte.
pub fn sum(fields: &[&str]) -> i64 {
    let mut h = crc32fast::Hasher::new();
    for f in fields {
        h.update(f.as_bytes());
        h.update(&[0xff]);
    }
    i64::from(h.finalize())
}

/// The checksum of a games row.
pub fn game_sum(id: &str, name: &str, version: u64, updated: u64, file: &str, turns: &str) -> i64 {
    sum(&[id, name, &version.to_string(), &updated.to_string(), file, turns])
}

/// The checksum of a changes row.
pub fn change_sum(game: &str, seq: u64, record: &str, key: Option<&str>, request: Option<&str>) -> i64 {
    sum(&[game, &seq.to_string(), record, key.unwrap_or("\u{0}"), request.unwrap_or("\u{0}")])
}

/// Maps a database error to a store error, saying what was being done.
pub fn error(what: &str, e: &rusqlite::Error) -> StoreError {
    use rusqlite::ErrorCode as C;
    match e.sqlite_error_code() {
        Some(C::DiskFull) => StoreError::Full(format!("{what}: the disk is full")),
        Some(C::ReadOnly) => StoreError::ReadOnly(format!("{what}: the database is read-only")),
        Some(C::DatabaseBusy | C::DatabaseLocked) => StoreError::Io(format!(
            "{what}: the database is in use by another program (is another `sleuth serve` running on this folder?)"
        )),
        Some(C::DatabaseCorrupt | C::NotADatabase) => StoreError::Io(format!("{what}: the database is damaged ({e})")),
        _ => StoreError::Io(format!("{what}: {e}")),
    }
}

fn settings(conn: &Connection, write: bool) -> rusqlite::Result<()> {
    conn.pragma_update(None, "locking_mode", "EXCLUSIVE")?;
    if write {
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
    }
    conn.busy_timeout(std::time::Duration::from_millis(200))?;
    Ok(())
}

/// Opens (creating) the database at `path` for reading and writing, with
/// its tables. When the database already has them this writes nothing.
pub fn open_writable(path: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open(path)?;
    settings(&conn, true)?;
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    let has_tables: bool = conn.query_row(
        "SELECT count(*) = 3 FROM sqlite_schema WHERE type = 'table' AND name IN ('games', 'changes', 'meta')",
        [],
        |r| r.get(0),
    )?;
    if version > SCHEMA_VERSION {
        // Written by a newer sleuth: its rows may mean what this one cannot read.
        return Err(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CANTOPEN),
            Some(format!(
                "{} was written by a newer sleuth (schema {version}; this one knows up to {SCHEMA_VERSION}): \
                 use that version, or export the games with it",
                path.display()
            )),
        ));
    }
    if !has_tables || version != SCHEMA_VERSION {
        conn.execute_batch(SCHEMA)?;
        conn.pragma_update(None, "user_version", SCHEMA_VERSION)?;
    }
    // Take the write lock now and keep it (exclusive locking mode): a
    // second server on this folder is refused at its start, not at its
    // first change. An empty transaction writes nothing.
    conn.execute_batch("BEGIN EXCLUSIVE; COMMIT;")?;
    Ok(conn)
}

/// Opens the database at `path` read-only, writing nothing beside it:
/// through SQLite's read-only mode when it can; as an immutable file when
/// no write-ahead log is left; and when a log is left (a server killed
/// before the folder became read-only) from a copy of both in a temporary
/// folder, where SQLite reads the log in, copied on into memory (the
/// temporary folder goes at once, whatever happens to the server later).
pub fn open_read_only(path: &Path) -> rusqlite::Result<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let check = |conn: Connection| -> rusqlite::Result<Connection> {
        conn.query_row("SELECT count(*) FROM games", [], |r| r.get::<_, i64>(0))?;
        Ok(conn)
    };
    let uri = |query: &str| format!("file:{}?{query}", uri_path(path));
    if let Ok(conn) = Connection::open_with_flags(uri("mode=ro"), flags).and_then(check) {
        return Ok(conn);
    }
    let wal = path.with_extension("db-wal");
    if std::fs::metadata(&wal).map_or(true, |m| m.len() == 0) {
        return Connection::open_with_flags(uri("immutable=1"), flags).and_then(check);
    }
    let cannot = |e: std::io::Error| {
        rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CANTOPEN),
            Some(format!("cannot copy the database to read its log: {e}")),
        )
    };
    let dir = tempfile::tempdir().map_err(cannot)?;
    std::fs::copy(path, dir.path().join("sleuth.db")).map_err(cannot)?;
    std::fs::copy(&wal, dir.path().join("sleuth.db-wal")).map_err(cannot)?;
    let copy = Connection::open(dir.path().join("sleuth.db")).and_then(check)?;
    let mut memory = Connection::open_in_memory()?;
    rusqlite::backup::Backup::new(&copy, &mut memory)?.run_to_completion(1024, std::time::Duration::ZERO, None)?;
    memory.pragma_update(None, "query_only", true)?;
    check(memory)
}

/// An empty database in memory, with the tables.
pub fn open_memory() -> rusqlite::Result<Connection> {
    let conn = Connection::open_in_memory()?;
    conn.execute_batch(SCHEMA)?;
    Ok(conn)
}

/// A path as the path of a `file:` URI: every byte but unreserved ones and
/// `/` percent-encoded.
fn uri_path(path: &Path) -> String {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = String::new();
    for b in abs.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Whether the data folder `dir` and its database `db` (with its log, when
/// they exist) can be written: creates and removes an empty probe file,
/// and opens the database's files for writing (changing nothing). A full
/// disk still counts as writable (a change then fails by itself, with its
/// own message); a read-only file system or no permission does not, and
/// the error says which (SQLite would open a read-only file read-only
/// without a word, and fail at the first change).
pub fn writable(dir: &Path, db: &Path) -> Result<(), String> {
    let probe = dir.join(format!(".sleuth-probe-{}", std::process::id()));
    match std::fs::OpenOptions::new().write(true).create_new(true).open(&probe) {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
        }
        Err(e) if e.kind() == std::io::ErrorKind::StorageFull => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            let _ = std::fs::remove_file(&probe);
        }
        Err(e) => return Err(format!("the data folder cannot be written: {e}")),
    }
    for file in [db.to_path_buf(), db.with_extension("db-wal")] {
        match std::fs::OpenOptions::new().append(true).open(&file) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(format!("{} cannot be written: {e}", file.display()))
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uri_paths_escape_what_a_uri_would_read() {
        assert_eq!(uri_path(Path::new("/a b/c?d#e%f.db")), "/a%20b/c%3Fd%23e%25f.db");
    }

    #[test]
    fn sums_see_every_field_and_their_borders() {
        assert_ne!(sum(&["ab", "c"]), sum(&["a", "bc"]));
        assert_ne!(change_sum("g", 1, "{}", None, None), change_sum("g", 1, "{}", Some(""), None));
        assert_eq!(game_sum("g", "n", 1, 2, "f", "[]"), game_sum("g", "n", 1, 2, "f", "[]"));
    }
}
