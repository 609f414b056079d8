//! `sleuth notepad --engine sat`: the notepad of the seed's ClueReasoner, from
//! `testLiteral` on the game's CNF (see `sat_engine`), printed in the layout of
//! the exact notepad with `O`, `X` and `-` cells and no probabilities.

use crate::input::in_file;
use crate::notepad::{describe_cards, write_grid};
use crate::output::{write_conflict, write_title, Paint};
use crate::sat_engine::SatNotepad;
use crate::Outcome;
use sleuth_core::{Card, Game, Place};
use sleuth_logic::Truth;
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

/// Computes the SAT notepad of `game` and writes it (or the conflict report).
pub fn run(out: &mut dyn Write, path: &Path, game: &Game, paint: Paint) -> anyhow::Result<Outcome> {
    let notepad = SatNotepad::new(game)?;
    write_title(out, game, paint, "notepad")?;
    writeln!(
        out,
        "engine: sat (testLiteral by DPLL on the game's CNF: {} variables, {} clauses; {} SAT questions)",
        notepad.num_vars(),
        notepad.num_clauses(),
        notepad.queries()
    )?;
    writeln!(out)?;
    if !notepad.is_consistent() {
        // The clauses are unsatisfiable; the conflicting events come from the
        // exact engine's conflict search.
        let conflict = in_file(path, sleuth_core::conflict(game))?;
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
