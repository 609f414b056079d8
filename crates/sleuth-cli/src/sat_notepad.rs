//! `sleuth notepad --engine sat`: the notepad of the seed's ClueReasoner, from
//! `testLiteral` on the game's CNF (see `sleuth_sim::sat`), printed in the layout of
//! the exact notepad with `O`, `X` and `-` cells and no probabilities.

use crate::input::in_file;
use crate::output::{describe_cards, write_conflict, write_grid, write_title, Paint};
use crate::Outcome;
use sleuth_core::{Card, Game, Place};
use sleuth_logic::Truth;
use sleuth_sim::sat::{Method, Reasoner, SatNotepad};
use std::io::Write;
use std::path::Path;

/// Which engine computes the notepad.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Engine {
    /// Exact counting of every consistent deal: certain facts and probabilities.
    Exact,
    /// DPLL's testLiteral on the game's CNF for every card and place: O, X or '-'.
    Sat,
}

/// `--reasoner`: which clauses describe the game ([`Reasoner`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ReasonerArg {
    /// Everything the game file says, hand sizes included (the CNF of `sleuth
    /// constraints --dimacs`), with the card counting of "Clue Deduction"'s advanced
    /// project 10.1 through a unary counter. Its notepad agrees with the exact
    /// engine's certain cells.
    Counting,
    /// Exactly the ClueReasoner of Neller, Markov and Russell's "Clue Deduction"
    /// (section 8), before its advanced projects: the four kinds of initial
    /// clauses, the hand, suggestions and accusations, and no card counting.
    Basic,
}

impl From<ReasonerArg> for Reasoner {
    fn from(arg: ReasonerArg) -> Reasoner {
        match arg {
            ReasonerArg::Counting => Reasoner::Counting,
            ReasonerArg::Basic => Reasoner::Basic,
        }
    }
}

/// What `--engine sat` computes.
#[derive(Copy, Clone, Debug)]
pub struct Options {
    /// Which clauses.
    pub reasoner: Reasoner,
    /// A notepad after the hand and after every event, not only at the end.
    pub every_event: bool,
}

/// Computes the SAT notepad of `game` and writes it (or the conflict report);
/// with `every_event`, one after the hand and one after each event.
pub fn run(out: &mut dyn Write, path: &Path, game: &Game, paint: Paint, options: Options) -> anyhow::Result<Outcome> {
    write_title(out, game, paint, "notepad")?;
    let clauses = match options.reasoner {
        Reasoner::Counting => "the game's CNF",
        Reasoner::Basic => "the seed's basic clauses, no card counting",
    };
    if !options.every_event {
        return write_one(out, path, game, paint, options.reasoner, clauses);
    }
    let mut outcome = Outcome::Success;
    for n in 0..=game.events().len() {
        let prefix = game.restricted(&(0..n).collect::<Vec<_>>(), true);
        writeln!(out)?;
        match n.checked_sub(1).and_then(|i| game.describe_event(i)) {
            None => writeln!(out, "== after the hand (no events)")?,
            Some(event) => writeln!(out, "== after event {n}: {event}")?,
        }
        outcome = write_one(out, path, &prefix, paint, options.reasoner, clauses)?;
        if outcome != Outcome::Success {
            break;
        }
    }
    Ok(outcome)
}

/// One notepad, after the title.
fn write_one(
    out: &mut dyn Write,
    path: &Path,
    game: &Game,
    paint: Paint,
    reasoner: Reasoner,
    clauses: &str,
) -> anyhow::Result<Outcome> {
    let notepad = SatNotepad::with_reasoner(game, reasoner, Method::Witnesses);
    writeln!(
        out,
        "engine: sat (testLiteral by DPLL on {clauses}: {} variables, {} clauses; {} SAT questions)",
        notepad.num_vars(),
        notepad.num_clauses(),
        notepad.queries()
    )?;
    writeln!(out)?;
    if !notepad.is_consistent() {
        // The clauses are unsatisfiable; the conflicting events come from the
        // exact engine's conflict search.
        let counting = crate::count_progress::Counting::new()?;
        let conflict = in_file(path, sleuth_core::conflict(game, &counting.options()))?;
        write_conflict(out, game, conflict.as_ref())?;
        return Ok(Outcome::Inconsistent);
    }

    let deck = game.deck();
    write_grid(out, game, paint, &|c, place, w| match notepad.truth(c, place) {
        Truth::True => paint.green(&format!("{:^w$}", "O")),
        Truth::False => paint.dim(&format!("{:^w$}", "X")),
        Truth::Unknown => format!("{:^w$}", "-"),
    })?;
    writeln!(out)?;
    writeln!(out, "O entailed, X its negation entailed, - neither (no probabilities: use --engine exact)")?;

    let known: Vec<Option<Card>> = deck
        .categories()
        .map(|cat| deck.category_cards(cat).iter().find(|&c| notepad.truth(c, Place::CaseFile) == Truth::True))
        .collect();
    if let Some(cards) = known.iter().copied().collect::<Option<Vec<Card>>>() {
        writeln!(out, "{}", paint.green(&format!("solved: the case file is {}", describe_cards(game, &cards))))?;
    } else {
        let parts: Vec<&str> = known.iter().map(|c| c.map_or("?", |c| deck.id(c))).collect();
        writeln!(out, "case file: {}", parts.join(", "))?;
    }
    Ok(Outcome::Success)
}
