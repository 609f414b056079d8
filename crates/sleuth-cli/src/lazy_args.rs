//! Subcommand arguments that clap builds only when they are needed.
//!
//! With the derive API clap builds every subcommand's arguments on every
//! run, before it looks at the command line: for `sleuth analyze` on a small
//! game that was 0.13 ms of a 1.86 ms process, about a third of what
//! Sleuth's start-up cost beyond a minimal program (BENCHMARKS.md, "Whole
//! process").
//! Wrapped in [`Lazy`], a subcommand's arguments are added through
//! [`clap::Command::defer`], which clap runs when it parses that subcommand
//! or renders its help; the subcommand's name and one-line description stay
//! eager, so `sleuth --help` lists every subcommand as before.

use clap::{ArgMatches, Args, Command, FromArgMatches};

/// A subcommand's arguments `T`, added to its command only when needed.
#[derive(Debug)]
pub struct Lazy<T>(pub T);

impl<T: Args> Args for Lazy<T> {
    fn augment_args(cmd: Command) -> Command {
        cmd.defer(T::augment_args)
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        cmd.defer(T::augment_args_for_update)
    }

    fn group_id() -> Option<clap::Id> {
        T::group_id()
    }
}

impl<T: FromArgMatches> FromArgMatches for Lazy<T> {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches(matches).map(Lazy)
    }

    fn from_arg_matches_mut(matches: &mut ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches_mut(matches).map(Lazy)
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches(matches)
    }

    fn update_from_arg_matches_mut(&mut self, matches: &mut ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches_mut(matches)
    }
}
