//! `sleuth logic count`: the number of models of a DIMACS file.

use super::load_dimacs;
use crate::output::{group_digits, plural};
use crate::Outcome;
use anyhow::anyhow;
use sleuth_logic::Dpll;
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The DIMACS CNF file ('-' reads standard input).
    file: PathBuf,
}

pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let file = load_dimacs(&args.file)?;
    let n = file.cnf.num_vars();
    let count = Dpll::new(&file.cnf).count_models().map_err(|_| anyhow!("the model count does not fit in 128 bits"))?;
    writeln!(
        out,
        "{} model{} over the {n} variable{} declared (exhaustive DPLL)",
        group_digits(count),
        plural(count),
        plural(n)
    )?;
    Ok(Outcome::Success)
}
