//! `sleuth experiment table1`: Neller and Luo's Table 1 — the game (a), its
//! exact probabilities (b), Algorithm 1's (c) and Algorithm 2's (d)
//! estimates with each cell's error, and the paper's observations on (c)
//! and (d) checked over several seeds (`sleuth_sim::experiment::table1`).

use crate::input::{display, load_game};
use crate::output::group_digits;
use crate::Outcome;
use anyhow::{anyhow, bail, Context as _};
use sleuth_core::{Event, Game, GameFile, Status};
use sleuth_sim::experiment::table1::{self, CellStat, Run, Table1, ABOUT_HALF, PAPER_COLUMN, PAPER_ROW, VISIBLE};
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
    /// Replace the observer's hand, e.g. 'mu,ro,li' (the paper does not print Mustard's
    /// hand; see --candidates).
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
        Status::Maybe => {
            let s = format!("{p:.2}");
            s.strip_prefix('0').map(str::to_string).unwrap_or(s)
        }
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
        group_digits(t.exact.models())
    )?;
    writeln!(out, "{}", head(5))?;
    for (ci, c) in deck.cards().enumerate() {
        let mut line = format!("{:<4}", deck.id(c));
        for (pi, &p) in places.iter().enumerate() {
            line.push_str(&format!("{:>5}", prob(t.probabilities[ci][pi], t.exact.status(c, p))));
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    for (label, name, run) in [("(c)", "Algorithm 1", &t.alg1), ("(d)", "Algorithm 2", &t.alg2)] {
        write_estimates(out, game, t, label, name, run, iterations, &head(10))?;
    }
    write_observations(out, t)?;
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
         each cell: estimate, then its error (estimate - exact); * marks |error| >= {VISIBLE}\n",
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
                    let mark = if e.abs() >= VISIBLE { "*" } else { " " };
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

fn cell(c: &CellStat) -> String {
    format!(
        "{}/{}: mean |error| {:.3}, mean error {:+.3}, same sign in {} of {} seeds",
        c.card, c.place, c.mean_abs, c.mean_error, c.same_sign, c.seeds
    )
}

fn opt_cell(c: &Option<CellStat>) -> String {
    c.as_ref().map_or("none".to_string(), cell)
}

fn write_observations(out: &mut dyn Write, t: &Table1) -> anyhow::Result<()> {
    let o = &t.observations;
    let (first, last) = (o.seeds[0], o.seeds[o.seeds.len() - 1]);
    writeln!(
        out,
        "\nThe paper's observations, checked over seeds {first}..={last} ({} runs of each algorithm):",
        o.seeds.len()
    )?;
    writeln!(
        out,
        "1. Algorithm 1's errors are significant and repeat in the {PAPER_ROW} row: {} (strict), {} (weak)\n   \
         (strict: its largest mean |error| is in the {PAPER_ROW} row, with the same sign in every seed;\n    \
         weak: some cell of the row has an error of the same sign in every seed and mean size >= {VISIBLE})\n   \
         worst cell          {}\n   worst in the row    {}\n   worst outside it    {}",
        o.wh_row,
        o.wh_row_repeatable,
        cell(&o.alg1_worst),
        opt_cell(&o.alg1_in_row),
        opt_cell(&o.alg1_outside_row)
    )?;
    let rep: Vec<String> =
        o.alg1_repeatable.iter().map(|c| format!("{}/{} {:+.3}", c.card, c.place, c.mean_error)).collect();
    writeln!(
        out,
        "   cells with a repeatable mean error of at least {VISIBLE}: {}\n   \
         Algorithm 2's worst in the {PAPER_ROW} row: {}",
        if rep.is_empty() { "none".to_string() } else { rep.join(", ") },
        opt_cell(&o.alg2_in_row)
    )?;
    writeln!(
        out,
        "2. Algorithm 2's greatest errors are in the {PAPER_COLUMN} column: {}\n   \
         (criterion: its largest mean |error| is in the {PAPER_COLUMN} column)\n   \
         worst cell          {}\n   worst in the column {}\n   worst outside it    {}",
        o.pe_column,
        cell(&o.alg2_worst),
        opt_cell(&o.alg2_in_column),
        opt_cell(&o.alg2_outside_column)
    )?;
    writeln!(
        out,
        "3. Algorithm 2's worst error is about half of Algorithm 1's: {}\n   \
         (criterion: the ratio of the mean per-run worst |error| lies in {:.2}..{:.2})\n   \
         mean worst |error|: Algorithm 1 {:.4}, Algorithm 2 {:.4}, ratio {:.2}\n   \
         cells with |error| >= {VISIBLE} per run: Algorithm 1 {:.1}, Algorithm 2 {:.1}",
        o.about_half,
        ABOUT_HALF.0,
        ABOUT_HALF.1,
        o.alg1_mean_worst,
        o.alg2_mean_worst,
        o.ratio(),
        o.alg1_mean_visible,
        o.alg2_mean_visible
    )?;
    Ok(())
}
