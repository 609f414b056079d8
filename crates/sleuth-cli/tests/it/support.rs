//! Running the binary and making scratch files.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What a run of `sleuth` produced.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// Asserts the exit code, showing the output when it differs.
    #[track_caller]
    pub fn code(&self, expected: i32) -> &Self {
        assert_eq!(self.code, expected, "exit code\nstdout:\n{}\nstderr:\n{}", self.stdout, self.stderr);
        self
    }

    /// Parses standard output as JSON.
    #[track_caller]
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("stdout is not JSON: {e}\n{}", self.stdout))
    }
}

/// The repository's `testdata` directory.
pub fn testdata(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata").join(name)
}

/// Runs `sleuth` with arguments in a directory, with optional standard input.
pub fn sleuth_in(dir: &Path, args: &[&str], stdin: Option<&str>) -> Run {
    sleuth_in_env(dir, args, stdin, &[])
}

/// [`sleuth_in`] with environment variables set.
pub fn sleuth_in_env(dir: &Path, args: &[&str], stdin: Option<&str>, vars: &[(&str, &str)]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sleuth"));
    cmd.args(args).current_dir(dir).env_remove("NO_COLOR").env_remove("SLEUTH_MAX_STATES");
    cmd.envs(vars.iter().copied());
    cmd.stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() });
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("the sleuth binary runs");
    if let Some(text) = stdin {
        let mut pipe = child.stdin.take().expect("stdin is piped");
        pipe.write_all(text.as_bytes()).expect("write stdin");
    }
    let out = child.wait_with_output().expect("sleuth finishes");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

/// Runs `sleuth` in the repository's testdata directory.
pub fn sleuth(args: &[&str]) -> Run {
    sleuth_in(&testdata(""), args, None)
}

/// A scratch directory with files written into it.
pub struct Scratch {
    pub dir: tempfile::TempDir,
}

impl Scratch {
    pub fn new() -> Scratch {
        Scratch { dir: tempfile::tempdir().expect("temp dir") }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes a file and returns its name (relative to the directory).
    pub fn write(&self, name: &str, contents: &str) -> String {
        std::fs::write(self.dir.path().join(name), contents).expect("write scratch file");
        name.to_string()
    }

    pub fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.dir.path().join(name)).expect("read scratch file")
    }

    /// Runs `sleuth` in this directory.
    pub fn sleuth(&self, args: &[&str]) -> Run {
        sleuth_in(self.path(), args, None)
    }

    /// Runs `sleuth` in this directory with environment variables set.
    pub fn sleuth_env(&self, args: &[&str], vars: &[(&str, &str)]) -> Run {
        sleuth_in_env(self.path(), args, None, vars)
    }
}

/// Generates a game with `sleuth generate` and returns its JSON text.
pub fn generated(args: &[&str]) -> String {
    let mut all = vec!["generate"];
    all.extend_from_slice(args);
    let run = sleuth(&all);
    run.code(0);
    run.stdout
}

/// A classic six-player game header for hand-written test files.
pub fn classic_game(events: &str) -> String {
    format!(
        r#"{{"version": 1, "deck": "classic", "players": ["sc", "mu", "wh", "gr", "pe", "pl"],
  "me": "sc", "hand": ["wh", "li", "st"], "events": [{events}]}}"#
    )
}

/// Starts `sleuth` in `dir` and kills it (SIGKILL on Unix) once `file`
/// there has at least `lines` lines; returns how many it had. Panics if the
/// program ends on its own first.
pub fn kill_midway(dir: &Path, args: &[&str], file: &str, lines: usize) -> usize {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sleuth"))
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the sleuth binary runs");
    let path = dir.join(file);
    let count = || std::fs::read(&path).map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count());
    let start = std::time::Instant::now();
    while count() < lines {
        if let Some(status) = child.try_wait().expect("wait") {
            panic!("sleuth {args:?} ended ({status}) before {lines} lines of {file}");
        }
        assert!(start.elapsed().as_secs() < 120, "sleuth {args:?} wrote too slowly");
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    child.kill().expect("kill");
    let status = child.wait().expect("wait");
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt as _;
        assert_eq!(status.signal(), Some(9), "sleuth {args:?} was not killed by SIGKILL: {status}");
    }
    count()
}
