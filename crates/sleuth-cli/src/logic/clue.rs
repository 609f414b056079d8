//! `sleuth logic walksat-clue` and `sleuth logic dpll-clue`: the seed's
//! advanced projects 10.3 (stochastic local search) and 10.2 (DPLL with and
//! without one optimisation: two watched literals) measured on Clue's own
//! clause sets.
//!
//! The games are the files given plus `--games` generated ones per row
//! (seeded). Every answer is checked while measuring: a WalkSAT model must be a
//! deal the exact engine allows (no atom it rules out is true), and the DPLL
//! notepads with and without the optimisation must be the same.

use crate::generate::generate_seeded;
use crate::input::{display, load_game};
use crate::sat_notepad::ReasonerArg;
use crate::Outcome;
use anyhow::{anyhow, bail};
use sleuth_core::generate::{DeckChoice, GenConfig};
use sleuth_core::knowledge::dimacs_var;
use sleuth_core::{Analysis, Game, Knowledge, Status};
use sleuth_logic::{walksat, walksat_pb, AtLeast, DpllOptions, Model, Var, WalkSatOptions, WalkSatResult};
use sleuth_sim::sat::{basic_cnf, game_cnf, Method, SatNotepad, OPTIONS};
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The generated games: (players, suggestions) per row, observer's view.
const ROWS: [(usize, usize); 4] = [(3, 10), (4, 20), (6, 0), (6, 30)];

#[derive(Debug, clap::Args)]
pub struct GameArgs {
    /// Game files (default: none, only the generated games).
    games: Vec<PathBuf>,
    /// Generated classic games per row (rows: 3 players after 10 suggestions, 4
    /// after 20, 6 after 0, 6 after 30).
    #[arg(long, default_value_t = 3)]
    generated: u64,
}

#[derive(Debug, clap::Args)]
pub struct WalkArgs {
    #[command(flatten)]
    games: GameArgs,
    /// WalkSAT runs (seeds 0..runs) per game and encoding.
    #[arg(long, default_value_t = 5)]
    runs: u64,
    /// Flips per try (one try per run).
    #[arg(long, default_value_t = 3_000_000)]
    max_flips: u64,
    /// The noise of the random walk step.
    #[arg(long, default_value_t = 0.5)]
    noise: f64,
}

#[derive(Debug, clap::Args)]
pub struct DpllArgs {
    #[command(flatten)]
    games: GameArgs,
    /// The clauses: counting (the game's CNF) or basic ("Clue Deduction"'s ClueReasoner,
    /// no card counting).
    #[arg(long, value_enum, default_value_t = ReasonerArg::Counting)]
    reasoner: ReasonerArg,
}

fn games(args: &GameArgs) -> anyhow::Result<Vec<(String, Game)>> {
    let mut out = Vec::new();
    for path in &args.games {
        out.push((display(path), load_game(path)?));
    }
    for &(players, suggestions) in &ROWS {
        for seed in 0..args.generated {
            let cfg = GenConfig::new(DeckChoice::Classic, players, true, suggestions);
            let g = generate_seeded(&cfg, seed).map_err(|e| anyhow!("cannot generate a game: {e}"))?;
            let game = Game::new(&g.file).map_err(|e| anyhow!("generated game {seed} is invalid: {e}"))?;
            out.push((format!("{players}p, {suggestions} sugg., seed {seed}"), game));
        }
    }
    if out.is_empty() {
        bail!("no games: give game files or --generated N with N > 0");
    }
    Ok(out)
}

/// The game's constraints as "at least k of these literals", numbered like its CNF's atoms.
pub fn pb_constraints(game: &Game) -> Vec<AtLeast> {
    Knowledge::new(game)
        .constraints()
        .iter()
        .map(|c| AtLeast {
            lits: c
                .lits
                .iter()
                .map(|l| Var::new(dimacs_var(game, l.card, l.place)).expect("from 1").lit(l.positive))
                .collect(),
            k: c.at_least,
        })
        .collect()
}

/// Whether `model` places every card where the exact engine allows it.
fn allowed(game: &Game, analysis: &Analysis, model: &Model) -> bool {
    game.deck().cards().all(|card| {
        game.places().all(|place| {
            let v = Var::new(dimacs_var(game, card, place)).expect("from 1");
            model.get(v) != Some(true) || analysis.status(card, place) != Status::No
        })
    })
}

/// One encoding's runs: models found, flips of each successful run. (No
/// times: docs/logic.md prints this table, and a test checks it is the
/// command's output, which seeded flips are and times are not.)
struct Runs {
    found: u64,
    flips: Vec<u64>,
    fewest_unsat: usize,
}

impl Runs {
    fn new() -> Runs {
        Runs { found: 0, flips: Vec::new(), fewest_unsat: usize::MAX }
    }

    fn cell(&self, runs: u64) -> String {
        if self.found == 0 {
            return format!("0/{runs} (fewest unsat. {})", self.fewest_unsat);
        }
        let mut flips = self.flips.clone();
        flips.sort_unstable();
        format!("{}/{runs}, median {} flips", self.found, flips[flips.len() / 2])
    }
}

pub fn walk(args: &WalkArgs, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let list = games(&args.games)?;
    writeln!(
        out,
        "WalkSAT on Clue: {} runs per game, at most {} flips each, noise {}",
        args.runs, args.max_flips, args.noise
    )?;
    writeln!(out, "columns: models found / runs, and the median flips of the runs that found one")?;
    writeln!(out)?;
    writeln!(out, "| game | CNF vars / clauses | WalkSAT, unary-counter CNF | WSAT(PB), cardinality constraints | WalkSAT, basic CNF (no counting) |")?;
    writeln!(out, "|---|---|---|---|---|")?;
    let mut bad = 0;
    for (name, game) in &list {
        let analysis = Analysis::new(game).map_err(|e| anyhow!("{name}: {e}"))?;
        if !analysis.is_consistent() {
            writeln!(out, "| {name} | inconsistent, skipped | | | |")?;
            continue;
        }
        let cnf = game_cnf(game);
        let basic = basic_cnf(game);
        let pb = pb_constraints(game);
        let atoms = (game.num_places() * game.deck().len()) as u32;
        let (mut counter, mut card, mut plain) = (Runs::new(), Runs::new(), Runs::new());
        for seed in 0..args.runs {
            let options = WalkSatOptions { noise: args.noise, max_flips: args.max_flips, max_tries: 1, seed };
            for (runs, which) in [(&mut counter, 0), (&mut card, 1), (&mut plain, 2)] {
                let (result, stats) = match which {
                    0 => walksat(&cnf, &options),
                    1 => walksat_pb(atoms, &pb, &options),
                    _ => walksat(&basic, &options),
                };
                runs.fewest_unsat = runs.fewest_unsat.min(stats.fewest_unsat);
                if let WalkSatResult::Sat(model) = result {
                    // The basic CNF allows more deals than the game; check the others.
                    if which < 2 && !allowed(game, &analysis, &model) {
                        eprintln!("{name}: a WalkSAT model places a card where the exact engine says no");
                        bad += 1;
                    }
                    runs.found += 1;
                    runs.flips.push(stats.flips);
                }
            }
        }
        writeln!(
            out,
            "| {name} | {} / {} | {} | {} | {} |",
            cnf.num_vars(),
            cnf.len(),
            counter.cell(args.runs),
            card.cell(args.runs),
            plain.cell(args.runs)
        )?;
    }
    Ok(if bad == 0 { Outcome::Success } else { Outcome::NoResult })
}

pub fn dpll(args: &DpllArgs, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let list = games(&args.games)?;
    let with = OPTIONS;
    let without = DpllOptions { watched_literals: false, ..OPTIONS };
    writeln!(
        out,
        "DPLL notepads ({:?} clauses, every card and place, witnesses skipped) with and without two watched literals",
        args.reasoner
    )?;
    writeln!(out, "columns: decisions / propagations / conflicts / clauses visited by unit propagation, time")?;
    writeln!(out)?;
    writeln!(out, "| game | watched literals | every clause of the false literal | same notepad |")?;
    writeln!(out, "|---|---|---|---|")?;
    let mut totals = [(0u64, 0u64, 0u64, 0u64, Duration::ZERO); 2];
    let mut differ = 0;
    for (name, game) in &list {
        let mut cells = Vec::new();
        let mut pads = Vec::new();
        for (i, options) in [with, without].into_iter().enumerate() {
            let start = Instant::now();
            let pad = SatNotepad::with_options(game, args.reasoner.into(), Method::Witnesses, options);
            let time = start.elapsed();
            let s = pad.stats();
            totals[i].0 += s.decisions;
            totals[i].1 += s.propagations;
            totals[i].2 += s.conflicts;
            totals[i].3 += s.clause_visits;
            totals[i].4 += time;
            cells.push(format!(
                "{} / {} / {} / {}, {:.1} ms",
                s.decisions,
                s.propagations,
                s.conflicts,
                s.clause_visits,
                time.as_secs_f64() * 1e3
            ));
            pads.push(pad);
        }
        let same = pads[0].is_consistent() == pads[1].is_consistent()
            && game.deck().cards().all(|c| game.places().all(|p| pads[0].truth(c, p) == pads[1].truth(c, p)));
        differ += usize::from(!same);
        writeln!(out, "| {name} | {} | {} | {} |", cells[0], cells[1], if same { "yes" } else { "NO" })?;
    }
    let total = |t: &(u64, u64, u64, u64, Duration)| {
        format!("{} / {} / {} / {}, {:.1} ms", t.0, t.1, t.2, t.3, t.4.as_secs_f64() * 1e3)
    };
    writeln!(out, "| **total** | {} | {} | |", total(&totals[0]), total(&totals[1]))?;
    if differ > 0 {
        eprintln!("{differ} notepads differ with and without watched literals");
        return Ok(Outcome::NoResult);
    }
    Ok(Outcome::Success)
}
