//! `sleuth logic cnf`: the seed's four steps to CNF, the Tseitin CNF, DIMACS.

use super::SentenceArgs;
use crate::Outcome;
use anyhow::anyhow;
use sleuth_logic::{symbol_comments, tseitin, write_dimacs, CnfSteps, Symbols, TSEITIN_PREFIX};
use std::fmt::Write as _;
use std::io::Write;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: SentenceArgs,
    /// Use the Tseitin conversion: linear size, one new variable per compound
    /// subsentence; equisatisfiable with the input, not equivalent.
    #[arg(long)]
    tseitin: bool,
    /// Print DIMACS CNF (comments `c 1: A` name the variables) instead of the steps.
    #[arg(long)]
    dimacs: bool,
}

pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let loaded = args.input.load_nonempty()?;
    let notation = args.input.notation();
    let text = if args.tseitin {
        let mut symbols = Symbols::with_notation(notation);
        let cnf = tseitin(&loaded.sentences, &mut symbols);
        if args.dimacs {
            let mut comments = vec![format!(
                "Tseitin CNF: equisatisfiable with the sentences, not equivalent (variables named {TSEITIN_PREFIX}N are new)"
            )];
            comments.extend(symbol_comments(&symbols));
            write_dimacs(&cnf, &comments)
        } else {
            let atoms = symbols.names().iter().filter(|n| !n.starts_with(TSEITIN_PREFIX)).count();
            let mut s = String::new();
            writeln!(s, "sentences")?;
            for sentence in &loaded.sentences {
                writeln!(s, "  {}", sentence.to_string_with(notation))?;
            }
            writeln!(
                s,
                "Tseitin clauses: {} variables ({atoms} atoms, {} new), {} clauses",
                cnf.num_vars(),
                cnf.num_vars() as usize - atoms,
                cnf.len()
            )?;
            writeln!(s, "(equisatisfiable with the sentences, not equivalent: every model of the sentences")?;
            writeln!(s, "extends to exactly one model of the clauses)")?;
            let width = cnf.len().to_string().len() + 2;
            for (i, c) in cnf.clauses().iter().enumerate() {
                writeln!(s, "  {:<width$} {}", format!("({})", i + 1), symbols.clause_to_string(c))?;
            }
            s
        }
    } else {
        let steps = CnfSteps::new(&loaded.sentences).map_err(|e| anyhow!("{e}; try --tseitin"))?;
        if args.dimacs {
            let comments = symbol_comments(steps.symbols());
            write_dimacs(steps.cnf(), &comments)
        } else {
            steps.render(notation)
        }
    };
    out.write_all(text.as_bytes())?;
    Ok(Outcome::Success)
}
