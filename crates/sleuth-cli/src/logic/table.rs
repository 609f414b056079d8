//! `sleuth logic table`: truth tables and models by enumeration.

use super::SentenceArgs;
use crate::output::plural;
use crate::Outcome;
use anyhow::anyhow;
use sleuth_logic::{models, TruthTable, MAX_ENUM_ATOMS};
use std::io::Write;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: SentenceArgs,
    /// Print only the models (rows where every sentence is true), one per line.
    #[arg(long)]
    models: bool,
}

pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let loaded = args.input.load_nonempty()?;
    let notation = args.input.notation();
    let too_many = |e: sleuth_logic::TooManyAtoms| {
        anyhow!("{} atoms: truth tables stop at {MAX_ENUM_ATOMS}; try `sleuth logic entails` or `solve`", e.atoms)
    };
    if args.models {
        let m = models(&loaded.sentences).map_err(too_many)?;
        out.write_all(m.render(notation).as_bytes())?;
        let n = m.models.len();
        writeln!(
            out,
            "{n} model{} over {} atom{} ({} rows)",
            plural(n),
            m.atoms.len(),
            plural(m.atoms.len()),
            1u64 << m.atoms.len()
        )?;
    } else {
        let table = TruthTable::new(&loaded.sentences).map_err(too_many)?;
        out.write_all(table.render(notation).as_bytes())?;
        let n = (0..table.rows()).filter(|&r| table.is_model(r)).count();
        let what = if table.sentences().len() == 1 { "the sentence is" } else { "every sentence is" };
        writeln!(out, "{n} of {} rows are models ({what} true)", table.rows())?;
    }
    Ok(Outcome::Success)
}
