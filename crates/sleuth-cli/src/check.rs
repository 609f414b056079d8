//! `sleuth check`: validate a game file.

use crate::count_progress::Counting;
use crate::input::{counted, display, in_file, load_game};
use crate::output::{deck_name, explanation_lines, group_digits, plural, write_json};
use crate::Outcome;
use sleuth_core::count::count;
use sleuth_core::{conflict, wire, CountOptions, CountProblem};
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game file (JSON, format version 1); '-' reads standard input.
    game: PathBuf,
    /// Print JSON (docs/game-format.md: deck, players, hand sizes, events,
    /// observer, and whether the history is consistent) instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    // Every validation problem is an error (exit code 2) listing each one.
    let game = load_game(&args.game)?;
    let counting = Counting::new()?;
    if args.json {
        return json(args, out, &game, &counting.options());
    }
    let players: Vec<&str> = game.players().map(|p| game.player_id(p)).collect();
    let observer = match game.observer() {
        Some((me, _)) => format!("observer {}", game.player_id(me)),
        None => "bystander".to_string(),
    };
    let n = game.events().len();
    let summary = format!(
        "{}: ok: {}, {} players ({}), {n} event{}, {observer}",
        display(&args.game),
        deck_name(&game),
        players.len(),
        players.join(" "),
        plural(n),
    );
    let models = match count(&CountProblem::new(&game), &counting.options()) {
        Ok(m) => m,
        Err(e) => {
            writeln!(out, "{summary}; history not checked")?;
            return counted(&args.game, Err(e));
        }
    };
    if models > 0 {
        let s = plural(models);
        writeln!(out, "{summary}; history consistent ({} deal{s})", group_digits(models))?;
        return Ok(Outcome::Success);
    }
    writeln!(out, "{summary}; history inconsistent: no deal fits every event")?;
    if let Some(c) = in_file(&args.game, conflict(&game, &counting.options()))? {
        for line in explanation_lines(&game, &c) {
            writeln!(out, "  {line}")?;
        }
    }
    Ok(Outcome::Inconsistent)
}

/// `check --json`: the wire form, with the same exit codes as the text (a
/// game too large to count prints `consistent: null`, then the error).
fn json(
    args: &Args,
    out: &mut dyn Write,
    game: &sleuth_core::Game,
    options: &CountOptions<'_>,
) -> anyhow::Result<Outcome> {
    match wire::report::check(game, options) {
        Ok(check) => {
            write_json(out, &check)?;
            Ok(if check.consistent == Some(true) { Outcome::Success } else { Outcome::Inconsistent })
        }
        Err((partial, e)) => {
            if let Some(check) = partial {
                write_json(out, &check)?;
            }
            counted(&args.game, Err(e))
        }
    }
}
