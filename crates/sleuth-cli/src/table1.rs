//! `sleuth experiment table1`: Neller and Luo's Table 1 — the game (a), its
//! exact probabilities (b), Algorithm 1's (c) and Algorithm 2's (d)
//! estimates with each cell's error, and the paper's observations on (c)
//! and (d) checked over several seeds (`sleuth_sim::experiment::table1`).

use crate::input::{display, load_game};
use crate::output::group_digits;
use crate::Outcome;
use anyhow::{anyhow, bail, Context as _};
use sleuth_core::{Event, Game, GameFile, Status};
use sleuth_sim::experiment::table1::{
    self, CellStat, Reading, Run, Table1, HALF_OR_LESS, PAPER_COLUMN, PAPER_ROW, SIGNIFICANT,
};
use std::io::Write;
use std::path::PathBuf;

/// The paper's Table 1 game, as reconstructed in testdata (see
/// testdata/seeds/neller-luo-table1.md for the readings).
const PAPER_GAME: &str = include_str!("../../../testdata/seeds/neller-luo-table1.json");

/// The uncertain cards the paper reports for its Table 1 state.
const PAPER_UNCERTAIN: usize = 11;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game (default: the paper's Table 1 game, testdata/seeds/neller-luo-table1.json,
    /// built in).
    #[arg(long)]
    game: Option<PathBuf>,
    /// Replace the observer's hand, e.g. 'kn,ro,li' (the built-in game has Mustard's
    /// 'pl,ro,li', the O's of the paper's Table 1(b); its text does not print the hand, see
    /// --candidates).
    #[arg(long, value_delimiter = ',')]
    hand: Option<Vec<String>>,
    /// WalkSAT iterations per run (the paper: 100,000).
    #[arg(long, default_value_t = 100_000)]
    iterations: u64,
    /// The seed of the tabulated runs (c) and (d); the observations use this seed and the
    /// next ones.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Seeds over which the paper's observations are checked.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    seeds: u64,
    /// Instead of the table, list every observer hand consistent with the events that
    /// leaves exactly 11 cards uncertain, as the paper's text says of its state.
    #[arg(long)]
    candidates: bool,
}

pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let mut game = match &args.game {
        Some(path) => load_game(path)?,
        None => Game::from_json(PAPER_GAME).map_err(|e| anyhow!("the built-in Table 1 game: {e}"))?,
    };
    if let Some(hand) = &args.hand {
        let mut file: GameFile = game.to_file();
        if file.me.is_none() {
            bail!("--hand needs a game with an observer ('me')");
        }
        file.hand = Some(hand.clone());
        game = Game::new(&file).context("the game with the hand of --hand")?;
    }
    let source = args.game.as_deref().map_or("the paper's Table 1 game (built in)".to_string(), display);
    if args.candidates {
        return candidates(&game, &source, out);
    }
    let seeds: Vec<u64> = (0..args.seeds).map(|i| args.seed.wrapping_add(i)).collect();
    let t = table1::table1(&game, args.iterations, &seeds)?;
    write_table(out, &game, &source, &t, args.iterations)?;
    Ok(Outcome::Success)
}

fn candidates(game: &Game, source: &str, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let Some((me, hand)) = game.observer() else { bail!("{source} has no observer, so no hand to choose") };
    let hands = table1::candidate_hands(game, hand.len(), PAPER_UNCERTAIN)?;
    writeln!(
        out,
        "{}'s hands of {} cards consistent with the {} events of {source} that leave {PAPER_UNCERTAIN} cards uncertain:",
        game.player_id(me),
        hand.len(),
        game.events().len()
    )?;
    for (h, models) in &hands {
        writeln!(out, "  {:<12} {:>8} consistent deals", h.join(","), group_digits(*models))?;
    }
    writeln!(out, "{} hands", hands.len())?;
    Ok(Outcome::Success)
}

/// `O` for 1, `X` for 0, else two decimals without the leading zero, as in
/// the paper.
fn prob(p: f64, status: Status) -> String {
    match status {
        Status::Yes => "O".into(),
        Status::No => "X".into(),
        Status::Maybe => two(p),
    }
}

fn signed(e: f64) -> String {
    let s = format!("{:.2}", e.abs());
    let s = s.strip_prefix('0').unwrap_or(&s).to_string();
    format!("{}{s}", if e < -0.005 { '-' } else { '+' })
}

fn write_table(out: &mut dyn Write, game: &Game, source: &str, t: &Table1, iterations: u64) -> anyhow::Result<()> {
    let deck = game.deck();
    let places = table1::places(game);
    let head = |w: usize| -> String {
        let mut s = "    ".to_string();
        for &p in &places {
            let id = if p == sleuth_core::Place::CaseFile { "cf" } else { game.place_id(p) };
            s.push_str(&format!("{id:>w$}"));
        }
        s
    };
    let hand = game.observer().map(|(me, h)| (game.player_id(me).to_string(), deck.ids(h).join(" ")));
    writeln!(out, "Neller and Luo, Table 1: {source}")?;
    if let Some((me, h)) = &hand {
        writeln!(out, "from {me}'s perspective, hand {h}; seats in the order of the columns")?;
    }
    writeln!(out, "\n(a) Game play information ([x]: the card shown to or by {})\n", hand.map_or("-".into(), |h| h.0))?;
    writeln!(out, "    Suggester Refuter  Suspect  Weapon  Room")?;
    for e in game.events() {
        match e {
            Event::Suggestion(s) => {
                let cards: Vec<String> = s
                    .cards
                    .iter()
                    .map(|c| if s.shown == Some(c) { format!("[{}]", deck.id(c)) } else { deck.id(c).to_string() })
                    .collect();
                let refuter = s.refuted_by.map_or("-", |r| game.player_id(r));
                writeln!(
                    out,
                    "    {:<10}{:<9}{:<9}{:<8}{}",
                    game.player_id(s.by),
                    refuter,
                    cards.first().map_or("", String::as_str),
                    cards.get(1).map_or("", String::as_str),
                    cards.get(2..).map(|c| c.join(" ")).unwrap_or_default()
                )?;
            }
            Event::Accusation(a) => {
                writeln!(
                    out,
                    "    accusation by {}: {} ({})",
                    game.player_id(a.by),
                    deck.ids(a.cards).join(" "),
                    a.correct
                )?;
            }
        }
    }
    let uncertain = deck.cards().filter(|&c| !places.iter().any(|&p| t.exact.status(c, p) == Status::Yes)).count();
    writeln!(
        out,
        "\n(b) Exact probabilities (O: 1, X: 0): {} consistent deals, {uncertain} cards uncertain\n",
        group_digits(t.exact.consistent_deals())
    )?;
    writeln!(out, "{}", head(5))?;
    for (ci, c) in deck.cards().enumerate() {
        let mut line = format!("{:<4}", deck.id(c));
        for (pi, &p) in places.iter().enumerate() {
            line.push_str(&format!("{:>5}", prob(t.probabilities[ci][pi], t.exact.status(c, p))));
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    for (label, name, run) in [("(c)", "Algorithm 1", &t.alg1[0]), ("(d)", "Algorithm 2", &t.alg2[0])] {
        write_estimates(out, game, t, label, name, run, iterations, &head(10))?;
    }
    let (first, last) = (t.alg1[0].seed, t.alg1[t.alg1.len() - 1].seed);
    let seeds = format!("seeds {first}..={last}");
    write_side_by_side(out, t, &seeds)?;
    write_observations(out, t, &seeds)?;
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn write_estimates(
    out: &mut dyn Write,
    game: &Game,
    t: &Table1,
    label: &str,
    name: &str,
    run: &Run,
    iterations: u64,
    head: &str,
) -> anyhow::Result<()> {
    let deck = game.deck();
    let places = table1::places(game);
    writeln!(
        out,
        "\n{label} {name}, {} iterations, seed {}: {} samples, worst error {:.3}\n    \
         each cell: estimate, then its error (estimate - exact); * marks |error| >= {SIGNIFICANT}\n",
        group_digits(u128::from(iterations)),
        run.seed,
        group_digits(u128::from(run.samples)),
        run.worst()
    )?;
    writeln!(out, "{head}")?;
    for (ci, c) in deck.cards().enumerate() {
        let mut line = format!("{:<4}", deck.id(c));
        for (pi, &p) in places.iter().enumerate() {
            let status = t.exact.status(c, p);
            let cell = match status {
                Status::Maybe => {
                    let e = run.error[ci][pi];
                    let mark = if e.abs() >= SIGNIFICANT { "*" } else { " " };
                    format!("{} {}{mark}", prob(run.estimate[ci][pi], status), signed(e))
                }
                _ => format!("{}     ", prob(0.0, status)),
            };
            line.push_str(&format!("{cell:>10}"));
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

fn range(c: &CellStat) -> String {
    format!("{} {}-{}", two(c.mean), two(c.min), two(c.max))
}

/// Two decimals without the leading zero, as in the paper.
fn two(p: f64) -> String {
    let s = format!("{p:.2}");
    s.strip_prefix('0').map(str::to_string).unwrap_or(s)
}

/// Every open cell: the exact probability, then each algorithm's mean
/// estimate and range over the seeds.
fn write_side_by_side(out: &mut dyn Write, t: &Table1, seeds: &str) -> anyhow::Result<()> {
    writeln!(
        out,
        "\n(c) and (d) over {seeds}: each open cell's exact probability, then each algorithm's\n    \
         mean estimate and smallest-largest estimate; * marks a range that misses the exact value
    (all at two decimals)\n"
    )?;
    writeln!(out, "    card place exact   Algorithm 1       Algorithm 2")?;
    for (a, b) in &t.cells {
        // As printed: two decimals.
        let cents = |p: f64| (p * 100.0).round();
        let miss = |c: &CellStat| {
            if cents(c.exact) < cents(c.min) || cents(c.exact) > cents(c.max) {
                "*"
            } else {
                ""
            }
        };
        let place = if a.cell.place == "case_file" { "cf" } else { a.cell.place.as_str() };
        let line = format!(
            "    {:<4} {:<5} {:>5}   {:<15}{:<3}{:<15}{}",
            a.cell.card,
            place,
            two(a.exact),
            range(a),
            miss(a),
            range(b),
            miss(b)
        );
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

/// Algorithm `alg`'s worst cell at each seed, most frequent first:
/// `wh/pe (16), bi/pe (4)`.
fn worst_cells(t: &Table1, alg: usize) -> String {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for r in &t.readings {
        let id = format!("{}/{}", r.worst_cell[alg].card, r.worst_cell[alg].place);
        match counts.iter_mut().find(|(c, _)| *c == id) {
            Some((_, k)) => *k += 1,
            None => counts.push((id, 1)),
        }
    }
    counts.sort_by_key(|c| std::cmp::Reverse(c.1));
    counts.iter().map(|(c, k)| format!("{c} ({k})")).collect::<Vec<_>>().join(", ")
}

fn write_observations(out: &mut dyn Write, t: &Table1, seeds: &str) -> anyhow::Result<()> {
    let n = t.readings.len();
    let holds = |f: fn(&Reading) -> bool| format!("holds at {} of {n} seeds", t.holds(f));
    let mean = |f: &dyn Fn(&Reading) -> f64| t.readings.iter().map(f).sum::<f64>() / n as f64;
    writeln!(
        out,
        "\nThe paper's observations (section 4.3), read at each of {seeds} (one run of each algorithm,\n\
         as in the paper's table; significant: |error| >= {SIGNIFICANT}; much smaller: at most {HALF_OR_LESS:.2} of)"
    )?;
    let rep: Vec<String> = t
        .repeatable_in_row()
        .iter()
        .map(|c| format!("{}/{} {:+.3}", c.cell.card, c.cell.place, c.mean_error()))
        .collect();
    writeln!(
        out,
        "1. \"Boldface estimates in the {PAPER_ROW} row of Table 1(c) have errors that are both significant\n   \
         and repeatable across runs of Algorithm 1\"\n   \
         significant: Algorithm 1 has one in the {PAPER_ROW} row: {}\n   \
         repeatable: {PAPER_ROW}-row cells off by >= {SIGNIFICANT} on average, with the same sign at every seed: {}\n   \
         \"much closer to exact values\" with Algorithm 2: its largest {PAPER_ROW}-row error much smaller: {}\n   \
         largest {PAPER_ROW}-row error, mean over seeds: Algorithm 1 {:.3}, Algorithm 2 {:.3}",
        holds(Reading::row_significant),
        if rep.is_empty() { "none".to_string() } else { rep.join(", ") },
        holds(Reading::row_much_closer),
        mean(&|r| r.row_worst[0]),
        mean(&|r| r.row_worst[1]),
    )?;
    writeln!(
        out,
        "2. \"the greatest errors in our Algorithm 2 estimates\" are in the {PAPER_COLUMN} column: {}\n   \
         Algorithm 2's worst cell (seeds): {}",
        holds(Reading::greatest_in_column),
        worst_cells(t, 1)
    )?;
    let ratios: Vec<f64> = t.readings.iter().map(Reading::ratio).collect();
    let (lo, hi) = ratios.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &x| (l.min(x), h.max(x)));
    writeln!(
        out,
        "3. they \"are roughly half the magnitude of the worst errors observed with Algorithm 1\" (or less): {}\n   \
         worst error, mean over seeds: Algorithm 1 {:.3}, Algorithm 2 {:.3}; ratio {:.2} to {:.2}\n   \
         Algorithm 1's worst cell (seeds): {}",
        holds(Reading::about_half),
        mean(&|r| r.worst[0]),
        mean(&|r| r.worst[1]),
        lo,
        hi,
        worst_cells(t, 0)
    )?;
    writeln!(
        out,
        "4. \"and such errors are much less common\": {}\n   \
         significant errors per run, mean over seeds: Algorithm 1 {:.1}, Algorithm 2 {:.1}",
        holds(Reading::much_less_common),
        mean(&|r| r.significant[0] as f64),
        mean(&|r| r.significant[1] as f64)
    )?;
    Ok(())
}
