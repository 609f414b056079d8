//! `sleuth logic solve`: DPLL or WalkSAT on a DIMACS file, with the SAT
//! competition's output (`s ...`, `v ... 0`) and exit codes (10, 20).

use super::load_dimacs;
use crate::Outcome;
use anyhow::bail;
use sleuth_logic::{solution_lines, walksat, Dpll, Model, SolveResult, WalkSatOptions, WalkSatResult};
use std::io::Write;
use std::path::PathBuf;

/// The SAT competition's exit code for a satisfiable instance.
pub const EXIT_SAT: u8 = 10;
/// The SAT competition's exit code for an unsatisfiable instance.
pub const EXIT_UNSAT: u8 = 20;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The DIMACS CNF file ('-' reads standard input).
    file: PathBuf,
    /// Use WalkSAT (local search): finds models, never proves unsatisfiability,
    /// answers UNKNOWN when it gives up.
    #[arg(long)]
    walksat: bool,
    /// WalkSAT's random seed.
    #[arg(long, default_value_t = 0, requires = "walksat")]
    seed: u64,
    /// WalkSAT's flips per try.
    #[arg(long, default_value_t = 100_000, value_name = "N", requires = "walksat")]
    max_flips: u64,
    /// WalkSAT's tries (random restarts).
    #[arg(long, default_value_t = 10, value_name = "N", requires = "walksat")]
    max_tries: u32,
    /// WalkSAT's noise: the chance of a random walk step (0 to 1).
    #[arg(long, default_value_t = 0.5, value_parser = parse_noise, requires = "walksat")]
    noise: f64,
}

fn parse_noise(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("'{s}' is not a number from 0 to 1")),
    }
}

pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let file = load_dimacs(&args.file)?;
    let cnf = &file.cnf;
    writeln!(out, "c sleuth logic solve: {} variables, {} clauses", cnf.num_vars(), cnf.len())?;
    let answer: Option<Option<Model>> = if args.walksat {
        let options =
            WalkSatOptions { noise: args.noise, max_flips: args.max_flips, max_tries: args.max_tries, seed: args.seed };
        let (result, stats) = walksat(cnf, &options);
        writeln!(
            out,
            "c WalkSAT (noise {}, seed {}): {} tr{}, {} flips",
            args.noise,
            args.seed,
            stats.tries,
            if stats.tries == 1 { "y" } else { "ies" },
            stats.flips
        )?;
        match result {
            WalkSatResult::Sat(m) => Some(Some(m)),
            WalkSatResult::Unknown => {
                writeln!(out, "c no model found within the limits; local search cannot prove unsatisfiability")?;
                None
            }
        }
    } else {
        let mut dpll = Dpll::new(cnf);
        let result = dpll.solve();
        let s = dpll.stats();
        writeln!(
            out,
            "c DPLL: {} decisions, {} propagations, {} conflicts, {} pure literals",
            s.decisions, s.propagations, s.conflicts, s.pure_literals
        )?;
        match result {
            SolveResult::Sat(m) => Some(Some(m)),
            SolveResult::Unsat => Some(None),
        }
    };
    if let Some(Some(m)) = &answer {
        if !cnf.is_satisfied_by(m) {
            bail!("internal error: the model found does not satisfy the clauses");
        }
    }
    out.write_all(solution_lines(answer.as_ref().map(Option::as_ref), cnf.num_vars()).as_bytes())?;
    Ok(match answer {
        Some(Some(_)) => Outcome::Code(EXIT_SAT),
        Some(None) => Outcome::Code(EXIT_UNSAT),
        None => Outcome::Success,
    })
}
