//! `sleuth notepad`: the detective notepad.

use crate::count_progress::Counting;
use crate::input::{counted, load_game};
use crate::output::{
    cell_percent, describe_cards, fine_percent, group_digits, plural, write_conflict, write_grid, write_more,
    write_title, Paint,
};
use crate::Outcome;
use sleuth_core::{Analysis, Card, Game, Status};
use std::io::Write;
use std::path::PathBuf;

/// How many case files the notepad lists.
pub const TOP_CASE_FILES: usize = 5;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game file (JSON, format version 1); '-' reads standard input.
    game: PathBuf,
    /// Never colour the output (the same as --color never).
    #[arg(long)]
    no_color: bool,
    /// The engine: 'exact' counts every deal (probabilities); 'sat' asks DPLL's
    /// testLiteral of every card and place on the game's CNF (O, X or -).
    #[arg(long, value_enum, default_value_t = crate::sat_notepad::Engine::Exact)]
    engine: crate::sat_notepad::Engine,
    /// With --engine sat, the clauses: 'counting' is the whole game file (hand sizes
    /// through a unary counter); 'basic' is the ClueReasoner of Neller, Markov and
    /// Russell's "Clue Deduction" (section 8), without card counting.
    #[arg(long, value_enum, default_value_t = crate::sat_notepad::ReasonerArg::Counting)]
    reasoner: crate::sat_notepad::ReasonerArg,
    /// With --engine sat, print the notepad after the hand and after every event, as
    /// "Clue Deduction"'s printNotepad would after each call.
    #[arg(long)]
    every_event: bool,
}

pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let game = load_game(&args.game)?;
    if args.engine == crate::sat_notepad::Engine::Sat {
        let options = crate::sat_notepad::Options { reasoner: args.reasoner.into(), every_event: args.every_event };
        return crate::sat_notepad::run(out, &args.game, &game, Paint::for_stdout(args.no_color), options);
    }
    if args.reasoner != crate::sat_notepad::ReasonerArg::Counting || args.every_event {
        anyhow::bail!("--reasoner and --every-event need --engine sat");
    }
    let counting = Counting::new()?;
    let analysis = counted(&args.game, Analysis::with_options(&game, &counting.options()))?;
    drop(counting);
    let paint = Paint::for_stdout(args.no_color);
    write_notepad(out, &game, &analysis, paint)
}

/// Writes the notepad (or the conflict report) and says how it went.
pub fn write_notepad(out: &mut dyn Write, game: &Game, analysis: &Analysis, paint: Paint) -> anyhow::Result<Outcome> {
    write_title(out, game, paint, "notepad")?;
    writeln!(out)?;
    if !analysis.is_consistent() {
        write_conflict(out, game, analysis.conflict())?;
        return Ok(Outcome::Inconsistent);
    }

    write_grid(out, game, paint, &|c, place, w| match analysis.status(c, place) {
        Status::Yes => paint.green(&format!("{:^w$}", "O")),
        Status::No => paint.dim(&format!("{:^w$}", "X")),
        Status::Maybe => {
            let (num, den) = analysis.fraction(c, place);
            format!("{:^w$}", cell_percent(num, den))
        }
    })?;
    writeln!(out)?;

    let total = analysis.consistent_deals();
    writeln!(out, "{} consistent deal{} (exact count)", group_digits(total), plural(total))?;
    let case_files: Vec<(&[Card], u128)> = analysis.case_files().collect();
    if let [(cards, n)] = case_files.as_slice() {
        if *n == total {
            writeln!(out, "{}", paint.green(&format!("solved: the case file is {}", describe_cards(game, cards))))?;
            return Ok(Outcome::Success);
        }
    }
    if !analysis.case_files_listed() {
        writeln!(out, "too many possible case files to list; the probabilities above are exact")?;
        return Ok(Outcome::Success);
    }
    writeln!(out, "most likely case files ({} possible):", group_digits(case_files.len() as u128))?;
    for (cards, n) in case_files.iter().take(TOP_CASE_FILES) {
        writeln!(out, "  {:>6}  {}", fine_percent(*n, total), describe_cards(game, cards))?;
    }
    write_more(out, case_files.len(), TOP_CASE_FILES)?;
    Ok(Outcome::Success)
}
