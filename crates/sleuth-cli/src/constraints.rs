//! `sleuth constraints`: the game as at-least constraints or DIMACS CNF.

use crate::input::load_game;
use crate::Outcome;
use sleuth_core::knowledge::{format_constraints, to_dimacs};
use sleuth_core::Knowledge;
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game file (JSON, format version 1); '-' reads standard input.
    game: PathBuf,
    /// Also print the structural constraints (deal, hand sizes, case file).
    #[arg(long)]
    all: bool,
    /// Print DIMACS CNF (one model per consistent deal) instead.
    #[arg(long)]
    dimacs: bool,
}

pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let game = load_game(&args.game)?;
    let knowledge = Knowledge::new(&game);
    let text = if args.dimacs { to_dimacs(&game, &knowledge) } else { format_constraints(&game, &knowledge, args.all) };
    out.write_all(text.as_bytes())?;
    Ok(Outcome::Success)
}
