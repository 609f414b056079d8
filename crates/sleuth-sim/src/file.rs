//! Writing output files so that a reader never sees half of one.
//!
//! The files of the experiments and tournaments, and those the command line
//! writes (generated games, plots), go through [`write_atomic`]: a run
//! interrupted while writing leaves the old file or none, never a truncated
//! one. (The web server's game store has its own writer, which can skip the
//! flush where its journal already holds the change.)

use std::io::{self, Write};
use std::path::Path;

/// Writes `bytes` to `path` atomically and durably: into a new temporary
/// file in the same directory (so the rename stays on one file system),
/// flushed to disk, then renamed over `path`; the directory is flushed too
/// where the platform allows it, so that the rename survives a crash. On
/// any error the temporary file is removed and `path` is left as it was.
///
/// # Errors
/// Any error creating, writing, flushing or renaming the file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    // Said plainly before any temporary file: the rename's own errors for
    // these read as other faults ("not a directory" for `dir/`, "busy" for
    // `..`).
    if path.file_name().is_none() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "not a file name"));
    }
    if path.is_dir() {
        return Err(io::Error::from(io::ErrorKind::IsADirectory));
    }
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".sleuth-").suffix(".tmp");
    // As `std::fs::write` would create it (0666 less the umask), not the
    // owner-only mode of a temporary file.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut tmp = builder.tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    if let Ok(d) = std::fs::File::open(dir) {
        // Not every platform can flush a directory; the file is in place.
        let _ = d.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The files in `dir`, by name.
    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        names
    }

    #[test]
    fn writes_and_replaces_a_file_and_leaves_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.json");
        write_atomic(&path, b"first").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"first");
        write_atomic(&path, b"second, longer").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second, longer");
        assert_eq!(names(dir.path()), ["out.json"]);
    }

    /// The file gets the mode a plain write would give it.
    #[cfg(unix)]
    #[test]
    fn the_file_is_as_readable_as_a_plain_write_makes_it() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let (plain, atomic) = (dir.path().join("plain"), dir.path().join("atomic"));
        std::fs::write(&plain, b"x").unwrap();
        write_atomic(&atomic, b"x").unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&atomic), mode(&plain));
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary_one() {
        let dir = tempfile::tempdir().unwrap();
        // A directory where the file should go: the rename fails.
        let path = dir.path().join("taken");
        std::fs::create_dir(&path).unwrap();
        std::fs::write(path.join("inside"), b"old").unwrap();
        assert!(write_atomic(&path, b"new").is_err());
        assert_eq!(std::fs::read(path.join("inside")).unwrap(), b"old");
        assert_eq!(names(dir.path()), ["taken"]);
        assert_eq!(write_atomic(&path, b"new").unwrap_err().kind(), io::ErrorKind::IsADirectory);
        let slash = format!("{}/", path.display());
        assert_eq!(write_atomic(Path::new(&slash), b"new").unwrap_err().kind(), io::ErrorKind::IsADirectory);
        let up = path.join("..");
        assert_eq!(write_atomic(&up, b"new").unwrap_err().kind(), io::ErrorKind::InvalidInput);
        assert_eq!(names(dir.path()), ["taken"]);
        // A directory that does not exist: nothing is created.
        assert!(write_atomic(&dir.path().join("missing/out.json"), b"x").is_err());
        assert_eq!(names(dir.path()), ["taken"]);
    }
}
