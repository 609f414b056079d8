//! `sleuth logic bench`: (a) sleuth-logic's DPLL against batsat (through
//! rustsat) on random 3-SAT at the phase transition; (b) the Clue notepad by
//! `testLiteral` on the game's CNF against the exact engine.
//!
//! Every answer is checked while timing: DPLL and batsat must agree on
//! satisfiability and every model must satisfy the clauses; the SAT notepad
//! must equal the exact engine's statuses cell by cell. A disagreement is
//! reported on standard error and the exit code is 1.

use crate::bench::{machine, today, write_table};
use crate::generate::generate_seeded;
use crate::Outcome;
use anyhow::anyhow;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rustsat::solvers::{Solve, SolverResult};
use rustsat::types::TernaryVal;
use sleuth_core::generate::{DeckChoice, GenConfig};
use sleuth_core::{Analysis, Game};
use sleuth_logic::{Clause, Cnf, Dpll, Lit, Model, Var};
use sleuth_sim::sat::{Method, SatNotepad};
use std::io::Write;
use std::time::{Duration, Instant};

/// The clause/variable ratio of the 3-SAT phase transition.
const RATIO: f64 = 4.26;

/// The suggestions played before each timed Clue state.
const SUGGESTIONS: [usize; 4] = [0, 10, 20, 40];

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Random 3-SAT instances per size.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    instances: u64,
    /// Numbers of variables of the random 3-SAT instances (comma-separated).
    #[arg(long, value_delimiter = ',', default_values_t = [50u32, 100, 150],
          value_parser = clap::value_parser!(u32).range(3..=100_000))]
    vars: Vec<u32>,
    /// Generated Clue games per row.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    games: u64,
    /// 5 instances and 5 games per row, sizes 50 and 100 only unless --vars is given.
    #[arg(long)]
    quick: bool,
    /// Only the random 3-SAT table.
    #[arg(long, conflicts_with = "clue_only")]
    sat_only: bool,
    /// Only the Clue notepad table.
    #[arg(long)]
    clue_only: bool,
    /// Print the tables as Markdown, ready for BENCHMARKS.md.
    #[arg(long)]
    markdown: bool,
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The median (mean of the middle two for even lengths) and the maximum, in ms.
fn median_max(times: &mut [Duration]) -> (f64, f64) {
    if times.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    times.sort_unstable();
    let n = times.len();
    let median = if n % 2 == 1 { ms(times[n / 2]) } else { (ms(times[n / 2 - 1]) + ms(times[n / 2])) / 2.0 };
    (median, ms(times[n - 1]))
}

fn fmt_ms(x: f64) -> String {
    if x.is_nan() {
        "n/a".to_string()
    } else if x < 10.0 {
        format!("{x:.3}")
    } else {
        format!("{x:.1}")
    }
}

/// A random 3-SAT instance: `m` clauses of three distinct variables out of
/// `n`, each negated with probability 1/2.
pub fn random_3sat(rng: &mut impl Rng, n: u32, m: usize) -> Cnf {
    let mut cnf = Cnf::with_vars(n);
    for _ in 0..m {
        let mut vars: Vec<u32> = Vec::with_capacity(3);
        while vars.len() < 3 {
            let v = rng.gen_range(1..=n);
            if !vars.contains(&v) {
                vars.push(v);
            }
        }
        let lits = vars.into_iter().map(|v| {
            let var = Var::new(v).expect("variables start at 1");
            var.lit(rng.gen_bool(0.5))
        });
        cnf.add_clause(Clause::new(lits));
    }
    cnf
}

fn batsat_lit(l: Lit) -> rustsat::types::Lit {
    rustsat::types::Lit::new(l.var().index() as u32, l.is_negative())
}

/// Solves with batsat; `Some(model)` or `None` for unsatisfiable.
fn batsat(cnf: &Cnf) -> anyhow::Result<Option<Model>> {
    let mut solver = rustsat_batsat::BasicSolver::default();
    for c in cnf.clauses() {
        let clause: rustsat::types::Clause = c.lits().iter().map(|&l| batsat_lit(l)).collect();
        solver.add_clause(clause).map_err(|e| anyhow!("batsat: {e}"))?;
    }
    match solver.solve().map_err(|e| anyhow!("batsat: {e}"))? {
        SolverResult::Sat => {
            let a = solver.full_solution().map_err(|e| anyhow!("batsat: {e}"))?;
            let values: Vec<bool> =
                (0..cnf.num_vars()).map(|i| a.var_value(rustsat::types::Var::new(i)) == TernaryVal::True).collect();
            Ok(Some(Model::from_bools(&values)))
        }
        SolverResult::Unsat => Ok(None),
        SolverResult::Interrupted => Err(anyhow!("batsat was interrupted")),
    }
}

pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let (instances, games) =
        if args.quick { (args.instances.min(5), args.games.min(5)) } else { (args.instances, args.games) };
    let vars: Vec<u32> = if args.quick && args.vars == [50, 100, 150] { vec![50, 100] } else { args.vars.clone() };
    let mut failures: Vec<String> = Vec::new();
    write_header(out, args.markdown)?;
    if !args.clue_only {
        writeln!(out)?;
        sat_table(out, &vars, instances, args.markdown, &mut failures)?;
    }
    if !args.sat_only {
        writeln!(out)?;
        clue_table(out, games, args.markdown, &mut failures)?;
    }
    if failures.is_empty() {
        return Ok(Outcome::Success);
    }
    out.flush()?;
    let mut err = std::io::stderr().lock();
    writeln!(err, "error: {} disagreement(s):", failures.len())?;
    for f in failures.iter().take(20) {
        writeln!(err, "  {f}")?;
    }
    Ok(Outcome::NoResult)
}

fn write_header(out: &mut dyn Write, markdown: bool) -> std::io::Result<()> {
    let (cpu, cores) = machine();
    let build = if cfg!(debug_assertions) {
        "debug build: numbers are not representative, use --release"
    } else {
        "release build"
    };
    let bullet = if markdown { "- " } else { "" };
    writeln!(
        out,
        "sleuth logic bench: sleuth-logic DPLL vs batsat; Clue notepad by testLiteral vs exact, single thread"
    )?;
    if markdown {
        writeln!(out)?;
    }
    writeln!(out, "{bullet}machine: {cpu}, {cores}")?;
    writeln!(out, "{bullet}date: {} (UTC)", today())?;
    writeln!(out, "{bullet}sleuth {}, {build}", env!("CARGO_PKG_VERSION"))
}

fn sat_table(
    out: &mut dyn Write,
    sizes: &[u32],
    instances: u64,
    markdown: bool,
    failures: &mut Vec<String>,
) -> anyhow::Result<()> {
    let bullet = if markdown { "- " } else { "" };
    writeln!(
        out,
        "{bullet}random 3-SAT, {instances} instances per size (ChaCha8 seeded with variables × 2^32 + i, i in 0..{instances}), clauses = round({RATIO} × variables);"
    )?;
    writeln!(out, "{bullet}time to build the solver and solve; answers agree and every model checked")?;
    writeln!(out)?;
    out.flush()?;
    let header = [
        "variables",
        "clauses",
        "instances",
        "SAT",
        "DPLL median ms",
        "DPLL max ms",
        "batsat median ms",
        "batsat max ms",
        "median ratio",
    ];
    let mut rows = Vec::new();
    for &n in sizes {
        let m = (f64::from(n) * RATIO).round() as usize;
        let (mut ours, mut theirs, mut sat) = (Vec::new(), Vec::new(), 0);
        for seed in 0..instances {
            let mut rng = ChaCha8Rng::seed_from_u64(u64::from(n) << 32 | seed);
            let cnf = random_3sat(&mut rng, n, m);
            let start = Instant::now();
            let result = Dpll::new(&cnf).solve();
            ours.push(start.elapsed());
            let start = Instant::now();
            let reference = batsat(&cnf)?;
            theirs.push(start.elapsed());
            if result.is_sat() != reference.is_some() {
                failures.push(format!(
                    "3-SAT n={n} seed {seed}: DPLL says {}, batsat the opposite",
                    if result.is_sat() { "SAT" } else { "UNSAT" }
                ));
            }
            for (who, model) in [("DPLL", result.model()), ("batsat", reference.as_ref())] {
                if let Some(model) = model {
                    if !cnf.is_satisfied_by(model) {
                        failures.push(format!("3-SAT n={n} seed {seed}: the {who} model does not satisfy the clauses"));
                    }
                }
            }
            sat += usize::from(reference.is_some());
        }
        let (dm, dx) = median_max(&mut ours);
        let (bm, bx) = median_max(&mut theirs);
        rows.push(vec![
            n.to_string(),
            m.to_string(),
            instances.to_string(),
            sat.to_string(),
            fmt_ms(dm),
            fmt_ms(dx),
            fmt_ms(bm),
            fmt_ms(bx),
            if bm > 0.0 { format!("{:.1}×", dm / bm) } else { "n/a".to_string() },
        ]);
    }
    write_table(out, &header, &rows, &[true; 9], markdown)?;
    Ok(())
}

/// One row of the Clue table.
struct Kind {
    players: usize,
    observer: bool,
}

fn clue_table(out: &mut dyn Write, games: u64, markdown: bool, failures: &mut Vec<String>) -> anyhow::Result<()> {
    let bullet = if markdown { "- " } else { "" };
    writeln!(
        out,
        "{bullet}Clue notepad, classic deck, generated games (sleuth generate --seed 0..{games}), {games} per row"
    )?;
    writeln!(
        out,
        "{bullet}testLiteral: CNF (sleuth constraints --dimacs) + DPLL's test of every card-place atom, as Clue Deduction's ClueReasoner"
    )?;
    writeln!(
        out,
        "{bullet}witnesses: the same questions, skipping those a model found earlier answers (sleuth notepad --engine sat)"
    )?;
    writeln!(out, "{bullet}exact: Analysis::new (every count, the default engine); times include building the CNF")?;
    writeln!(out)?;
    out.flush()?;
    let kinds = [
        Kind { players: 6, observer: true },
        Kind { players: 4, observer: true },
        Kind { players: 6, observer: false },
    ];
    let header = [
        "players",
        "view",
        "suggestions",
        "games",
        "clauses",
        "testLiteral queries",
        "testLiteral median ms",
        "testLiteral max ms",
        "witnesses queries",
        "witnesses median ms",
        "witnesses max ms",
        "exact median ms",
        "exact max ms",
        "agree",
    ];
    let mut rows = Vec::new();
    for kind in &kinds {
        let view = if kind.observer { "observer" } else { "bystander" };
        for &suggestions in &SUGGESTIONS {
            let cfg = GenConfig::new(DeckChoice::Classic, kind.players, kind.observer, suggestions);
            let (mut plain_times, mut witness_times, mut exact_times) = (Vec::new(), Vec::new(), Vec::new());
            let (mut agree, mut clauses, mut plain_queries, mut witness_queries) =
                (0, Vec::new(), Vec::new(), Vec::new());
            for seed in 0..games {
                let generated = generate_seeded(&cfg, seed).map_err(|e| anyhow!("cannot generate a game: {e}"))?;
                let game = Game::new(&generated.file).map_err(|e| anyhow!("generated game {seed} is invalid: {e}"))?;
                let start = Instant::now();
                let plain = SatNotepad::with_method(&game, Method::TestLiteral);
                plain_times.push(start.elapsed());
                let start = Instant::now();
                let witness = SatNotepad::with_method(&game, Method::Witnesses);
                witness_times.push(start.elapsed());
                let start = Instant::now();
                let exact = Analysis::new(&game).map_err(|e| anyhow!("seed {seed}: {e}"))?;
                exact_times.push(start.elapsed());
                clauses.push(plain.num_clauses() as u64);
                plain_queries.push(plain.queries());
                witness_queries.push(witness.queries());
                if same(&game, &plain, &exact) && same(&game, &witness, &exact) {
                    agree += 1;
                } else {
                    failures.push(format!(
                        "Clue {} players {view}, {suggestions} suggestions, seed {seed}: a SAT notepad differs from the exact one",
                        kind.players
                    ));
                }
            }
            let (pm, px) = median_max(&mut plain_times);
            let (wm, wx) = median_max(&mut witness_times);
            let (em, ex) = median_max(&mut exact_times);
            rows.push(vec![
                kind.players.to_string(),
                view.to_string(),
                suggestions.to_string(),
                games.to_string(),
                median_count(&mut clauses),
                median_count(&mut plain_queries),
                fmt_ms(pm),
                fmt_ms(px),
                median_count(&mut witness_queries),
                fmt_ms(wm),
                fmt_ms(wx),
                fmt_ms(em),
                fmt_ms(ex),
                format!("{agree}/{games}"),
            ]);
        }
    }
    let mut right = [true; 14];
    right[1] = false;
    write_table(out, &header, &rows, &right, markdown)?;
    Ok(())
}

/// The median (the upper middle one for even lengths) of some counts.
fn median_count(values: &mut [u64]) -> String {
    values.sort_unstable();
    values.get(values.len() / 2).map_or("n/a".to_string(), u64::to_string)
}

/// Whether the SAT notepad equals the exact engine's statuses everywhere.
fn same(game: &Game, sat: &SatNotepad, exact: &Analysis) -> bool {
    if sat.is_consistent() != exact.is_consistent() {
        return false;
    }
    !exact.is_consistent() || game.deck().cards().all(|c| game.places().all(|p| sat.status(c, p) == exact.status(c, p)))
}
