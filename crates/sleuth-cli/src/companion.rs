//! Handing a subcommand to `sleuth-full`, the program beside `sleuth` that
//! runs every subcommand.
//!
//! `sleuth` links only what the quick subcommands need, so that each start
//! relocates and touches less (ARCHITECTURE.md, "Two programs"). For any
//! other subcommand it replaces itself with `sleuth-full` and the same
//! arguments: same process on Unix (so signals, standard streams, the exit
//! code and the process id are those of the command), a child whose exit
//! code it passes on elsewhere.

use crate::Outcome;
use anyhow::{anyhow, bail, Context as _};
use std::path::PathBuf;
use std::process::Command;

/// The companion's file name.
const FULL: &str = "sleuth-full";

/// Where `sleuth-full` should be: beside this program (symbolic links to
/// this program resolved).
fn full_path() -> anyhow::Result<PathBuf> {
    let me = std::env::current_exe().context("cannot find where the sleuth program is")?;
    Ok(me.with_file_name(format!("{FULL}{}", std::env::consts::EXE_SUFFIX)))
}

/// Runs this process's command line in `sleuth-full`. On Unix it returns
/// only if that program cannot be started.
pub fn run_full() -> anyhow::Result<Outcome> {
    let path = full_path()?;
    let sub = std::env::args_os().nth(1).map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    if !path.is_file() {
        bail!(
            "'sleuth {sub}' runs in the program {FULL}, which is not beside this one (expected at {}): \
             build both programs with 'cargo build --release' ('cargo run' builds only sleuth), \
             or install both with 'cargo install --path crates/sleuth-cli'",
            path.display()
        );
    }
    let mut command = Command::new(&path);
    command.args(std::env::args_os().skip(1));
    hand_over(command, &path, &sub)
}

#[cfg(unix)]
fn hand_over(mut command: Command, path: &std::path::Path, sub: &str) -> anyhow::Result<Outcome> {
    use std::os::unix::process::CommandExt as _;
    // Messages and `ps` name the program the user typed.
    command.arg0("sleuth");
    let err = command.exec();
    Err(anyhow!("cannot start {} for 'sleuth {sub}': {err}", path.display()))
}

#[cfg(not(unix))]
fn hand_over(mut command: Command, path: &std::path::Path, sub: &str) -> anyhow::Result<Outcome> {
    let status = command.status().with_context(|| format!("cannot start {} for 'sleuth {sub}'", path.display()))?;
    match status.code().and_then(|c| u8::try_from(c).ok()) {
        Some(code) => Ok(Outcome::Code(code)),
        None => bail!("{} ended without an exit code ({status})", path.display()),
    }
}
