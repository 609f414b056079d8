//! The command line of Sleuth, an exact reasoning engine for Clue (Cluedo):
//! the program `sleuth`.
//!
//! This crate parses arguments, reads and writes files, and renders text and
//! JSON. All reasoning lives in `sleuth-core` and `sleuth-logic`.
#![forbid(unsafe_code)]

mod advise;
mod analyze;
mod bench;
mod check;
mod constraints;
mod count_progress;
mod docs;
mod experiment;
mod generate;
mod input;
mod limits;
mod logic;
mod notepad;
mod outdir;
mod output;
#[doc(hidden)]
pub mod plot; // also drawn by the examples
mod progress;
mod sample;
mod sat_notepad;
mod serve;
mod speedclue;
mod table1;
mod tournament;
mod why;

use clap::{CommandFactory as _, Parser, Subcommand};
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

/// The longest error message printed, in characters: a screenful or so.
const MAX_ERROR_CHARS: usize = 8000;

/// The exit codes, for every command's help.
macro_rules! exit_codes {
    () => {
        "\
Exit codes:
  0  success
  1  no result: the fact asked about is not certain (why), or a benchmark state failed
  2  usage or input error: bad arguments, unreadable file, malformed JSON, invalid game,
     count too large
  3  the history is inconsistent: no deal fits every event (notepad, analyze, check, why,
     advise)
  10, 20  sleuth logic solve: satisfiable, unsatisfiable (see sleuth logic --help)"
    };
}

const EXIT_CODES: &str = exit_codes!();

/// The footer of the commands that read a game file.
const GAME_FOOTER: &str = concat!(exit_codes!(), "\n\nA GAME argument of '-' reads the game file from standard input.");

/// Exact reasoning for Clue (Cluedo): every consistent deal counted, nothing sampled.
#[derive(Debug, Parser)]
#[command(name = "sleuth", version, after_help = GAME_FOOTER, propagate_version = true)]
struct Cli {
    /// When to colour the output and progress bars: 'auto' on a terminal unless NO_COLOR is
    /// set, 'always', or 'never'.
    #[arg(long, global = true, value_name = "WHEN", default_value = "auto")]
    color: output::ColorChoice,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the detective notepad: every card at every place, as O, X or a probability.
    #[command(after_help = GAME_FOOTER)]
    Notepad(notepad::Args),
    /// Print the exact analysis: counts, probabilities, certain facts, case files.
    #[command(after_help = GAME_FOOTER)]
    Analyze(analyze::Args),
    /// Advise the player: best suggestions, whether to accuse, the opponents' progress;
    /// or, with --refute, which card to show.
    ///
    /// What the numbers mean:
    ///
    /// - EXACT: the consistent deals, the case-file entropy, the probability that the most
    ///   likely case file is right ("accuse now: ... exact probability"), and every
    ///   suggestion's figures (bits, chance to end the game, each answer's chance).
    ///
    /// - THE RULE: "accuse now" is always yes when the case file is certain, never at or
    ///   below even odds (50%): a wrong accusation puts you out, while waiting keeps every
    ///   later chance. Above even odds it is yes when your chance beats what waiting is
    ///   worth: the chance that no opponent can know the case file by the end of its next
    ///   turn, times your best chance after your next question. The line "why:" says which
    ///   part decided.
    ///
    /// - ESTIMATED: what each opponent knows or can know, from --samples deals drawn at
    ///   random among those that fit what you know; in each, the opponent's knowledge (the
    ///   public turns, its hand, the cards shown to it) is worked out exactly, assuming it asks
    ///   the question most likely to solve and accuses only when certain.
    ///
    /// - BEHAVIOUR HINT: "if the opponents avoid asking about their own cards, ...": a
    ///   guess about how people play, read only for opponents whose questions show that
    ///   habit. It never decides "accuse now" and is never a probability of a case file.
    #[command(after_help = GAME_FOOTER)]
    Advise(advise::Args),
    /// Validate a game file and say whether its history is consistent.
    #[command(after_help = GAME_FOOTER)]
    Check(check::Args),
    /// Print the game as at-least constraints, or as DIMACS CNF.
    #[command(after_help = GAME_FOOTER)]
    Constraints(constraints::Args),
    /// Explain a certain fact: a smallest set of events that forces it.
    #[command(after_help = GAME_FOOTER)]
    Why(why::Args),
    /// Write a random game played by the rules, from a seed.
    #[command(after_help = EXIT_CODES)]
    Generate(generate::Args),
    /// Time the exact analysis on game files or on generated states.
    #[command(after_help = EXIT_CODES)]
    Bench(bench::Args),
    /// The logic workbench: CNF, truth tables, entailment, resolution proofs, DPLL, WalkSAT.
    Logic(logic::Args),
    /// Estimate probabilities from sampled deals (exactly uniform, or WalkSAT as in
    /// Neller and Luo), with 95 % intervals; or print the deals.
    #[command(after_help = GAME_FOOTER)]
    Sample(sample::Args),
    /// Rerun experiments: Neller and Luo's sampling-error experiment, and merging its shards.
    Experiment(experiment::Args),
    /// Serve the notepad in the browser: a local web server with a JSON API, games kept on disk.
    Serve(serve::Args),
    /// Play every seating of the chosen agents for each player count, with win rates and
    /// 95 % intervals by player count and seat; or merge the shards of a tournament.
    Tournament(tournament::Args),
    /// Play in a Speed Clue contest: connect to its server on localhost:PORT and answer it
    /// with an agent until the server says `done`.
    Speedclue(speedclue::Args),
    /// Print the shell completion script for bash, zsh, fish, elvish or powershell.
    Completions(docs::CompletionArgs),
    /// Print the manual page (roff), or write one page per command into a folder.
    Man(docs::ManArgs),
}

/// How a command that ran to the end went; errors are exit code 2.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Exit code 0.
    Success,
    /// Exit code 1: the fact is not certain, or there is no result.
    NoResult,
    /// Exit code 3: no deal fits the history.
    Inconsistent,
    /// A subcommand's own exit code (`sleuth logic solve`: 10 satisfiable, 20 unsatisfiable).
    Code(u8),
}

impl Outcome {
    /// The process's exit status.
    fn status(self) -> u8 {
        match self {
            Outcome::Success => 0,
            Outcome::NoResult => 1,
            Outcome::Inconsistent => 3,
            Outcome::Code(c) => c,
        }
    }
}

/// Runs a subcommand, writing its output to `out`.
fn run(command: &Command, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    match command {
        Command::Notepad(args) => notepad::run(args, out),
        Command::Analyze(args) => analyze::run(args, out),
        Command::Advise(args) => advise::run(args, out),
        Command::Check(args) => check::run(args, out),
        Command::Constraints(args) => constraints::run(args, out),
        Command::Why(args) => why::run(args, out),
        Command::Generate(args) => generate::run(args, out),
        Command::Bench(args) => bench::run(args, out),
        Command::Logic(args) => logic::run(args, out),
        Command::Sample(args) => sample::run(args, out),
        Command::Experiment(args) => experiment::run(args, out),
        Command::Serve(args) => serve::run(args, out),
        Command::Tournament(args) => tournament::run(args, out),
        Command::Speedclue(args) => speedclue::run(args, out),
        Command::Completions(args) => docs::completions(args, Cli::command(), out),
        Command::Man(args) => docs::man(args, Cli::command(), out),
    }
}

/// Whether the error comes from writing to a closed pipe (`sleuth ... | head`).
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| e.downcast_ref::<io::Error>().is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe))
}

/// The program `sleuth`: parses the command line, runs the subcommand and
/// says how it went. Rust's runtime has already opened `/dev/null` on any
/// standard stream the parent left closed, and ignores SIGPIPE, so writing
/// to a closed pipe is an error here (`is_broken_pipe`), not a kill.
pub fn main() -> ExitCode {
    ExitCode::from(run_command_line())
}

fn run_command_line() -> u8 {
    // `--color` is read before parsing, so that help and usage errors
    // follow it too.
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let color = output::ColorChoice::from_args(&args);
    output::set_color(color);
    let parsed = Cli::command()
        .color(color.for_clap())
        .try_get_matches_from(&args)
        .and_then(|m| <Cli as clap::FromArgMatches>::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout with code 0; usage errors to
            // stderr with code 2. A closed pipe is not worth reporting.
            let _ = e.print();
            return u8::try_from(e.exit_code()).unwrap_or(2);
        }
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    // A bad state limit is said before any work, whatever the command.
    let result =
        limits::from_env().map_err(anyhow::Error::msg).and_then(|_| run(&cli.command, &mut out)).and_then(|outcome| {
            out.flush()?;
            Ok(outcome)
        });
    match result {
        Ok(outcome) => outcome.status(),
        Err(e) if is_broken_pipe(&e) => 0,
        Err(e) => {
            // Flush what was printed before the error, ignoring a closed pipe.
            let _ = out.flush();
            // Messages echo input; no control character reaches the
            // terminal, and no message fills it.
            let message = sleuth_core::text::escape_message(&format!("{e:#}"));
            let message = sleuth_core::text::elide(&message, MAX_ERROR_CHARS);
            let _ = writeln!(io::stderr().lock(), "error: {message}");
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    /// clap's own checks of the command tree.
    #[test]
    fn command_tree_is_valid() {
        Cli::command().debug_assert();
    }
}
