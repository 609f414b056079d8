//! `sleuth logic simplify`: tautology, duplicate and subsumption removal.

use super::{dimacs_symbols, load_dimacs};
use crate::Outcome;
use sleuth_logic::{simplify, write_dimacs, Notation};
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The DIMACS CNF file ('-' reads standard input).
    file: PathBuf,
    /// Print the simplified clauses as DIMACS (keeping the comments) instead of the report.
    #[arg(long)]
    dimacs: bool,
    /// Print literals in ASCII (~A) instead of Unicode (¬A).
    #[arg(long)]
    ascii: bool,
}

pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let file = load_dimacs(&args.file)?;
    let simplified = simplify(&file.cnf);
    if args.dimacs {
        let mut comments = file.comments.clone();
        comments.push(format!(
            "simplified by sleuth logic simplify: kept {} of {} clauses",
            simplified.cnf.len(),
            file.cnf.len()
        ));
        out.write_all(write_dimacs(&simplified.cnf, &comments).as_bytes())?;
    } else {
        let mut symbols = dimacs_symbols(&file);
        symbols.set_notation(if args.ascii { Notation::Ascii } else { Notation::Unicode });
        out.write_all(simplified.render(&file.cnf, &symbols).as_bytes())?;
    }
    Ok(Outcome::Success)
}
