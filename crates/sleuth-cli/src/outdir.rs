//! The results folder of an experiment or a tournament: a new folder by
//! default, and never a folder that already holds results unless the user
//! says `--resume` (continue that run) or `--force` (start afresh over it).

use crate::input::display;
use anyhow::bail;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The options every run into a results folder takes.
#[derive(Debug, clap::Args)]
pub struct OutArgs {
    /// The results folder [default: a new folder results/KIND-DATE-TIME under the current
    /// folder]. A folder that already holds files is refused unless --resume or --force.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Continue the run in --out where it stopped (killed, or out of time): the games it
    /// finished are kept, the others are played, and the results are those of an unbroken
    /// run. The settings must be the ones that started it.
    #[arg(long, requires = "out", conflicts_with = "force")]
    pub resume: bool,
    /// Start afresh in a folder that already holds files, replacing its results.
    #[arg(long)]
    pub force: bool,
}

impl OutArgs {
    /// The folder to write into, checked: `kind` names the default
    /// (`results/sampling-20261202-101500`).
    ///
    /// # Errors
    /// A folder that holds files, without `--resume` or `--force`.
    pub fn folder(&self, kind: &str) -> anyhow::Result<PathBuf> {
        let Some(dir) = &self.out else { return Ok(new_folder(kind)) };
        if !self.resume && !self.force && holds_files(dir) {
            bail!(
                "{} already holds files: add --resume to continue the run in it, --force to start afresh \
                 over it, or give another --out",
                display(dir)
            );
        }
        Ok(dir.clone())
    }
}

/// Whether `dir` exists and is not an empty folder.
pub fn holds_files(dir: &Path) -> bool {
    match std::fs::read_dir(dir) {
        Ok(mut entries) => entries.next().is_some(),
        // A file of that name, or a folder that cannot be listed.
        Err(e) => e.kind() != std::io::ErrorKind::NotFound,
    }
}

/// `results/KIND-YYYYMMDD-HHMMSS` (UTC), with `-2`, `-3`... if that exists.
fn new_folder(kind: &str) -> PathBuf {
    let stamp: String = humantime::format_rfc3339_seconds(SystemTime::now())
        .to_string()
        .chars()
        .filter(|c| c.is_ascii_digit() || *c == 'T')
        .map(|c| if c == 'T' { '-' } else { c })
        .collect();
    let base = Path::new("results").join(format!("{kind}-{stamp}"));
    (1..)
        .map(|n| if n == 1 { base.clone() } else { PathBuf::from(format!("{}-{n}", base.display())) })
        .find(|p| !p.exists())
        .expect("some name is free")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_folder_is_new_and_dated() {
        let dir = new_folder("sampling");
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        assert!(dir.starts_with("results"), "{}", dir.display());
        // sampling-YYYYMMDD-HHMMSS
        let stamp = name.strip_prefix("sampling-").unwrap();
        assert_eq!(stamp.len(), 15, "{name}");
        assert!(stamp[..8].chars().all(|c| c.is_ascii_digit()) && &stamp[8..9] == "-", "{name}");
    }
}
