//! Reading game files and writing output files.

use anyhow::{anyhow, bail, Context as _};
use sleuth_core::{Game, GameFile};
use std::fs;
use std::io::{self, Read, Write};
use std::path::Path;

/// The largest game file read, so that `/dev/zero` or a huge file fails
/// cleanly instead of exhausting memory.
const MAX_FILE_BYTES: u64 = 64 << 20;

/// A game file path as given on the command line; `-` is standard input.
pub fn display(path: &Path) -> String {
    if is_stdin(path) {
        "<stdin>".to_string()
    } else {
        format!("'{}'", path.display())
    }
}

fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// An IO error as a lowercase phrase, e.g. "no such file or directory".
pub fn describe_io(e: &io::Error) -> String {
    let text = match e.kind() {
        io::ErrorKind::NotFound => "no such file or directory".to_string(),
        io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        io::ErrorKind::IsADirectory => "it is a directory".to_string(),
        io::ErrorKind::NotADirectory => "a part of the path is a file, not a directory".to_string(),
        io::ErrorKind::AlreadyExists => "a file of that name is in the way".to_string(),
        io::ErrorKind::InvalidData => "it is not UTF-8 text".to_string(),
        _ => e.to_string(),
    };
    lowercase_first(&text)
}

fn lowercase_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Reads a text file (or standard input for `-`), with a size limit.
pub fn read_text(path: &Path) -> anyhow::Result<String> {
    let name = display(path);
    let cannot = |e: &io::Error| anyhow!("cannot read {name}: {}", describe_io(e));
    let mut bytes = Vec::new();
    let read = if is_stdin(path) {
        io::stdin().lock().take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)
    } else {
        let directory = || anyhow!("cannot read {name}: it is a directory");
        let file = match fs::File::open(path) {
            Ok(file) => file,
            Err(_) if path.is_dir() => return Err(directory()),
            Err(e) => return Err(cannot(&e)),
        };
        let size = match file.metadata() {
            Ok(m) if m.is_dir() => return Err(directory()),
            Ok(m) => m.len(),
            Err(e) => return Err(cannot(&e)),
        };
        // Room for the whole file (as far as the limit) and the read that
        // finds its end: two reads, where a growing buffer took nine on a
        // 1.6 KB game file.
        bytes.reserve(size.min(MAX_FILE_BYTES) as usize + 1);
        file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)
    };
    read.map_err(|e| cannot(&e))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        bail!("cannot read {name}: it is larger than {} MiB, too large for a game file", MAX_FILE_BYTES >> 20);
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        anyhow!("cannot read {name}: it is not UTF-8 text (invalid byte at offset {at})")
    })
}

/// Reads, parses and validates a game file. Every problem is an error whose
/// message names the file.
pub fn load_game(path: &Path) -> anyhow::Result<Game> {
    let text = read_text(path)?;
    let name = display(path);
    let file = GameFile::from_json(&text).map_err(|e| anyhow!("{name}: {e}"))?;
    Game::new(&file).map_err(|e| anyhow!("{name}: {e}"))
}

/// Names the file in a counting error ("does not fit in 128 bits").
pub fn in_file<T, E: std::fmt::Display>(path: &Path, result: Result<T, E>) -> anyhow::Result<T> {
    result.map_err(|e| anyhow!("{}: {e}", display(path)))
}

/// [`in_file`] for an exact analysis: a game too large for the exact
/// counter also gets the command that can still estimate it.
pub fn counted<T>(path: &Path, result: Result<T, sleuth_core::CountError>) -> anyhow::Result<T> {
    result.map_err(|e| {
        if e.too_large_to_count() {
            // The limit in states is the one the user can move.
            let raise = match e {
                sleuth_core::CountError::TooManyStates(_) => {
                    let bytes = sleuth_core::count::BYTES_PER_STATE;
                    format!("; {} raises the limit, at up to {bytes} bytes a state", crate::limits::STATE_LIMIT_ENV)
                }
                _ => String::new(),
            };
            anyhow!(
                "{}: {e}{raise}; WalkSAT can still estimate it: sleuth sample --method alg2 {}",
                display(path),
                display(path)
            )
        } else {
            anyhow!("{}: {e}", display(path))
        }
    })
}

/// Writes `contents` to `path` atomically ([`sleuth_sim::file::write_atomic`]),
/// with an error that names the file.
pub fn write_atomic(path: &Path, contents: &[u8]) -> anyhow::Result<()> {
    sleuth_sim::file::write_atomic(path, contents)
        .map_err(|e| anyhow!("cannot write {}: {}", display(path), describe_io(&e)))
}

/// Writes to a file atomically, or to `out` when no file is given.
pub fn write_to(path: Option<&Path>, contents: &str, out: &mut dyn Write) -> anyhow::Result<()> {
    match path {
        Some(p) if !is_stdin(p) => write_atomic(p, contents.as_bytes()),
        _ => out.write_all(contents.as_bytes()).context("cannot write to standard output"),
    }
}
