//! `sleuth completions SHELL` and `sleuth man`: the shell completion
//! scripts and the manual pages, generated from the command line's own
//! definitions, so they always name every subcommand and option.

use crate::input::display;
use crate::Outcome;
use anyhow::Context as _;
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
#[command(after_help = "Install the script where the shell looks for completions, e.g.
  sleuth completions bash > ~/.local/share/bash-completion/completions/sleuth
  sleuth completions zsh > ~/.zfunc/_sleuth       (with fpath+=~/.zfunc in ~/.zshrc)
  sleuth completions fish > ~/.config/fish/completions/sleuth.fish")]
pub struct CompletionArgs {
    /// The shell.
    shell: clap_complete::Shell,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Read it with: sleuth man | man -l -
Install every page with: sleuth man --out ~/.local/share/man/man1")]
pub struct ManArgs {
    /// Write sleuth.1 and a page for every subcommand (sleuth-notepad.1, ...) into this
    /// folder (created if missing) instead of printing sleuth.1.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// Prints the completion script of `cmd` for `args.shell`.
pub fn completions(args: &CompletionArgs, mut cmd: clap::Command, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    clap_complete::generate(args.shell, &mut cmd, "sleuth", out);
    Ok(Outcome::Success)
}

/// Prints the manual page of `cmd`, or writes every page into `args.out`.
pub fn man(args: &ManArgs, cmd: clap::Command, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    match &args.out {
        None => clap_mangen::Man::new(cmd).render(out)?,
        Some(dir) => {
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", display(dir)))?;
            clap_mangen::generate_to(cmd, dir).with_context(|| format!("cannot write to {}", display(dir)))?;
            writeln!(out, "manual pages written to {}", display(dir))?;
        }
    }
    Ok(Outcome::Success)
}
