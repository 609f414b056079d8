//! `sleuth logic entails`: KB ⊨ goal, by truth table (or DPLL for many atoms).

use super::{assignment_to_string, parse_arg, SentenceArgs};
use crate::output::plural;
use crate::Outcome;
use anyhow::bail;
use sleuth_logic::{countermodel, sat_countermodel, Sentence, MAX_ENUM_ATOMS};
use std::io::Write;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The knowledge base.
    #[command(flatten)]
    input: SentenceArgs,
    /// A goal sentence (may be repeated); without --goal, the files' '#?' queries.
    #[arg(short, long, value_name = "SENTENCE")]
    goal: Vec<String>,
}

/// Goals from `--goal`, else the files' queries.
pub fn goals(goal: &[String], queries: Vec<Sentence>) -> anyhow::Result<Vec<Sentence>> {
    let goals: Vec<Sentence> = if goal.is_empty() {
        queries
    } else {
        goal.iter().enumerate().map(|(i, g)| parse_arg(g, &format!("goal {}", i + 1))).collect::<anyhow::Result<_>>()?
    };
    if goals.is_empty() {
        bail!("no goal: give --goal SENTENCE, or a file with '#?' query lines");
    }
    Ok(goals)
}

/// How entailment is decided for these sentences.
enum Method {
    TruthTable,
    Dpll,
}

fn atom_count(sentences: &[&Sentence]) -> usize {
    // A set, not a list: 100,000 distinct atoms must not cost 10^10 comparisons.
    let atoms: std::collections::HashSet<&str> = sentences.iter().flat_map(|s| s.atoms()).collect();
    atoms.len()
}

/// A countermodel to `kb ⊨ goal`, if any, over the atoms of both.
fn find_countermodel(kb: &[Sentence], goal: &Sentence, method: &Method) -> Option<Vec<(String, bool)>> {
    match method {
        // The atom count was checked, so the truth table cannot refuse.
        Method::TruthTable => countermodel(kb, goal).unwrap_or_else(|_| sat_countermodel(kb, goal)),
        Method::Dpll => sat_countermodel(kb, goal),
    }
}

/// `¬goal`, or `s` for a goal `¬s`.
pub fn negate(goal: &Sentence) -> Sentence {
    match goal {
        Sentence::Not(s) => (**s).clone(),
        s => Sentence::negate(s.clone()),
    }
}

pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let loaded = args.input.load()?;
    let goals = goals(&args.goal, loaded.queries)?;
    let kb = loaded.sentences;
    let notation = args.input.notation();

    let mut all: Vec<&Sentence> = kb.iter().collect();
    all.extend(&goals);
    let atoms = atom_count(&all);
    let method = if atoms <= MAX_ENUM_ATOMS { Method::TruthTable } else { Method::Dpll };
    let how = match method {
        Method::TruthTable => format!("by truth table over {atoms} atom{}", plural(atoms)),
        Method::Dpll => format!("by DPLL on the Tseitin CNF ({atoms} atoms, more than {MAX_ENUM_ATOMS} for a table)"),
    };
    writeln!(out, "knowledge base: {} sentence{}; {how}", kb.len(), plural(kb.len()))?;
    if find_countermodel(&kb, &Sentence::False, &method).is_none() {
        writeln!(out, "note: the knowledge base is unsatisfiable, so it entails every sentence")?;
    }

    let mut all_entailed = true;
    for goal in &goals {
        let shown = goal.to_string_with(notation);
        match find_countermodel(&kb, goal, &method) {
            None => writeln!(out, "{shown}: yes, entailed")?,
            Some(cm) => {
                all_entailed = false;
                let negation = negate(goal);
                let neg_shown = negation.to_string_with(notation);
                let other = if find_countermodel(&kb, &negation, &method).is_none() {
                    format!("its negation {neg_shown} is entailed")
                } else {
                    format!("its negation {neg_shown} is not entailed either")
                };
                writeln!(
                    out,
                    "{shown}: no, not entailed (countermodel: {}); {other}",
                    assignment_to_string(&cm, notation)
                )?;
            }
        }
    }
    Ok(if all_entailed { Outcome::Success } else { Outcome::NoResult })
}
