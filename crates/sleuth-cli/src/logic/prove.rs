//! `sleuth logic prove`: resolution refutation with a numbered, checked proof.

use super::entails::goals;
use super::SentenceArgs;
use crate::output::plural;
use crate::Outcome;
use anyhow::{anyhow, bail};
use sleuth_logic::{prove_sentence, ProofOutcome, ProverOptions};
use std::io::Write;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The knowledge base.
    #[command(flatten)]
    input: SentenceArgs,
    /// A goal sentence (may be repeated); without --goal, the files' '#?' queries.
    #[arg(short, long, value_name = "SENTENCE")]
    goal: Vec<String>,
    /// List every clause of the knowledge base in the proof, as "Clue Deduction" does,
    /// not only those the refutation uses.
    #[arg(long)]
    all_premises: bool,
    /// Give up (no answer) once this many clauses are kept.
    #[arg(long, default_value_t = 20_000, value_name = "N")]
    max_clauses: usize,
}

pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let loaded = args.input.load()?;
    let goals = goals(&args.goal, loaded.queries)?;
    let notation = args.input.notation();
    let options = ProverOptions { max_clauses: args.max_clauses, all_premises: args.all_premises };
    let mut all_proved = true;
    for (i, goal) in goals.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        writeln!(out, "goal: {}", goal.to_string_with(notation))?;
        let mut result = prove_sentence(&loaded.sentences, goal, &options).map_err(|e| anyhow!("{e}"))?;
        result.symbols.set_notation(notation);
        if let ProofOutcome::Proved(proof) = &result.outcome {
            // Never print a proof that does not check.
            if let Err(e) = proof.check(&result.kb, &result.negated_goal) {
                bail!("internal error: the resolution proof does not check: {e}");
            }
            let n = proof.resolutions();
            writeln!(out, "proved by contradiction in {n} resolution step{}:", plural(n))?;
        } else {
            all_proved = false;
        }
        out.write_all(result.render().as_bytes())?;
    }
    Ok(if all_proved { Outcome::Success } else { Outcome::NoResult })
}
