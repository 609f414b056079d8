//! `sleuth sample`: estimate every card-place probability from sampled
//! deals, with 95 % confidence intervals, or print the sampled deals.
//!
//! Methods: `uniform` draws deals exactly uniformly with the exact counter;
//! `alg1`, `alg2` and `a` to `e` are Neller and Luo's WalkSAT-like
//! search-and-sample variants, on the at-least constraints with the
//! variables that exact deduction settles fixed (where the game is too
//! large for the exact counter: those that propagation settles, with no
//! exact count).

use crate::input::{display, in_file, load_game};
use crate::notepad::TOP_CASE_FILES;
use crate::output::{describe_cards, places, plural, write_conflict, write_json, write_more, write_title, Paint};
use crate::Outcome;
use anyhow::{anyhow, bail};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sleuth_core::deduce::Settled;
use sleuth_core::sample::{
    estimate_from_deals, search_and_sample_traced, Deal, Estimate, Formula, Trace, UniformSampler, WalkSatConfig,
};
use sleuth_core::{wire, Analysis, Card, CardSet, CountOptions, CountProblem, Game, Place, Status};
use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;

/// Draws of the uniform sampler when `--samples` is not given.
const DEFAULT_SAMPLES: u64 = 10_000;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game file (JSON, format version 1); '-' reads standard input.
    game: PathBuf,
    /// The sampler: 'uniform' (exactly uniform draws), or Neller and Luo's WalkSAT
    /// search-and-sample: 'alg1', 'alg2', or the variations 'a' to 'e' ('e' is 'alg2').
    #[arg(long, default_value = "uniform",
          value_parser = ["uniform", "alg1", "alg2", "a", "b", "c", "d", "e"])]
    method: String,
    /// Uniform draws [default: 10000]. Only for --method uniform.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    samples: Option<u64>,
    /// WalkSAT search steps [default: 100000]. Only for WalkSAT methods.
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=10_000_000_000))]
    iterations: Option<u64>,
    /// The random seed; the same seed and options give the same samples.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Print the sampled deals, one JSON object {card: place} per line (face-up cards
    /// omitted), instead of estimates.
    #[arg(long, conflicts_with = "json")]
    deals: bool,
    /// Override the method's tabu tenure (WalkSAT methods).
    #[arg(long)]
    tenure: Option<u64>,
    /// Override the method's noise: the probability of a random rather than greedy
    /// choice from an unsatisfied constraint (WalkSAT methods).
    #[arg(long)]
    noise: Option<f64>,
    /// Override the method's probability of a random restart after each sample
    /// (WalkSAT methods).
    #[arg(long)]
    restart: Option<f64>,
    /// Print JSON (the analysis output contract's keys, with estimated probabilities,
    /// plus 'intervals') instead of text.
    #[arg(long)]
    json: bool,
    /// Never colour the output (the same as --color never).
    #[arg(long)]
    no_color: bool,
}

/// The sampler asked for.
enum Sampler {
    Uniform(u64),
    WalkSat(WalkSatConfig),
}

fn sampler(args: &Args) -> anyhow::Result<Sampler> {
    if args.method == "uniform" {
        for (given, name) in [
            (args.iterations.is_some(), "--iterations"),
            (args.tenure.is_some(), "--tenure"),
            (args.noise.is_some(), "--noise"),
            (args.restart.is_some(), "--restart"),
        ] {
            if given {
                bail!("{name} applies to the WalkSAT methods, not to --method uniform (which takes --samples)");
            }
        }
        return Ok(Sampler::Uniform(args.samples.unwrap_or(DEFAULT_SAMPLES)));
    }
    if args.samples.is_some() {
        bail!("--samples applies to --method uniform; the WalkSAT methods take --iterations");
    }
    let mut cfg = WalkSatConfig::named(&args.method).ok_or_else(|| anyhow!("unknown method '{}'", args.method))?;
    cfg.iterations = args.iterations.unwrap_or(WalkSatConfig::DEFAULT_ITERATIONS);
    if let Some(t) = args.tenure {
        cfg.tenure = t;
    }
    for (value, name, slot) in
        [(args.noise, "--noise", &mut cfg.noise), (args.restart, "--restart", &mut cfg.restart_prob)]
    {
        if let Some(p) = value {
            if !(0.0..=1.0).contains(&p) {
                bail!("{name} {p} is not a probability between 0 and 1");
            }
            *slot = p;
        }
    }
    Ok(Sampler::WalkSat(cfg))
}

/// One sampled deal as a JSON object on one line: `{"sc":"mu",...}`, in
/// deck order.
fn deal_json(game: &Game, deal: &Deal) -> String {
    let places: indexmap::IndexMap<&str, &str> = game
        .deck()
        .cards()
        .filter_map(|c| deal.get(c.index()).copied().flatten().map(|p| (game.deck().id(c), game.place_id(p))))
        .collect();
    serde_json::to_string(&places).unwrap_or_default()
}

/// The case file of a deal.
fn case_file(game: &Game, deal: &Deal) -> CardSet {
    game.deck().cards().filter(|c| deal.get(c.index()).copied().flatten() == Some(Place::CaseFile)).collect()
}

pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let sampler = sampler(args)?;
    let game = load_game(&args.game)?;
    let limit = CountOptions::new().max_states(crate::limits::max_states()?);
    // A game too large for the exact counter is still sampled by WalkSAT,
    // with only what propagation settles fixed (and no exact count).
    let analysis = match Analysis::with_options(&game, &limit) {
        Err(e) if e.too_large_to_count() => {
            if matches!(sampler, Sampler::Uniform(_)) {
                bail!(
                    "{}: {e}; the uniform sampler draws through the exact counter, but WalkSAT \
                     (--method alg2) can estimate this game",
                    display(&args.game)
                );
            }
            let Some(settled) = Settled::new(&game) else { bail!("{}: no deal fits the history", display(&args.game)) };
            eprintln!("note: {e}; estimating with WalkSAT alone: no exact count, and O and X only where propagation settles them");
            return sample_with(args, &game, &sampler, &limit, Known::Settled(&settled), out);
        }
        other => in_file(&args.game, other)?,
    };
    if !analysis.is_consistent() {
        if args.json {
            // Nothing to sample: the exact analysis says why.
            write_json(out, &wire::Analysis::new(&game, &analysis))?;
        } else if !args.deals {
            write_conflict(out, &game, analysis.conflict())?;
        }
        return Ok(Outcome::Inconsistent);
    }
    sample_with(args, &game, &sampler, &limit, Known::Exact(&analysis), out)
}

/// What the output gives as certain, and the count: the exact analysis,
/// or, for a game too large for it, what propagation settles.
#[derive(Clone, Copy)]
enum Known<'a> {
    Exact(&'a Analysis),
    Settled(&'a Settled),
}

impl Known<'_> {
    fn status(self, card: Card, place: Place) -> Status {
        match self {
            Known::Exact(a) => a.status(card, place),
            Known::Settled(s) => s.status(card, place),
        }
    }
}

/// Samples a consistent game (or one too large to tell) and writes the
/// estimate.
fn sample_with(
    args: &Args,
    game: &Game,
    sampler: &Sampler,
    limit: &CountOptions<'_>,
    known: Known<'_>,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let mut case_files: HashMap<CardSet, u64> = HashMap::new();
    let mut write_error = None;
    let mut record = |deal: &Deal, out: &mut dyn Write| {
        if args.deals {
            if write_error.is_none() {
                if let Err(e) = writeln!(out, "{}", deal_json(game, deal)) {
                    write_error = Some(e);
                }
            }
        } else {
            *case_files.entry(case_file(game, deal)).or_insert(0) += 1;
        }
    };
    let estimate = match &sampler {
        Sampler::Uniform(draws) => {
            let uniform = in_file(&args.game, UniformSampler::new(&CountProblem::new(game), limit))?
                .ok_or_else(|| anyhow!("no deal fits the history"))?;
            let deals = (0..*draws).map(|_| {
                let deal = uniform.sample(&mut rng);
                record(&deal, out);
                deal
            });
            estimate_from_deals(game, deals, "uniform", true)
                .with_method(format!("uniform: {draws} independent exactly uniform draws, seed {}", args.seed))
        }
        Sampler::WalkSat(cfg) => {
            let formula = match known {
                Known::Exact(analysis) => Formula::new(game, analysis),
                Known::Settled(settled) => Formula::by_propagation(game, settled),
            };
            let formula = formula.ok_or_else(|| anyhow!("no deal fits the history"))?;
            let estimate = search_and_sample_traced(&formula, cfg, &mut rng, |t| {
                if let Trace::Solution { assignment, recorded: true, .. } = t {
                    if let Some(deal) = formula.deal(assignment) {
                        record(&deal, out);
                    }
                }
            });
            let described =
                format!("{}, {} samples recorded, seed {}", estimate.method(), estimate.samples(), args.seed);
            estimate.with_method(described)
        }
    };
    if let Some(e) = write_error {
        return Err(e.into());
    }
    if args.deals {
        return Ok(Outcome::Success);
    }
    let mut case_files: Vec<(CardSet, u64)> = case_files.into_iter().collect();
    case_files.sort_by(|a, b| b.1.cmp(&a.1).then(a.0 .0.cmp(&b.0 .0)));
    let name = match sampler {
        Sampler::Uniform(_) => "uniform".to_string(),
        Sampler::WalkSat(cfg) => cfg.name().unwrap_or("custom").to_string(),
    };
    if args.json {
        let (models, status) = match known {
            Known::Exact(a) => (Some(a.consistent_deals()), known),
            Known::Settled(_) => (None, known),
        };
        let sample =
            wire::Sample::new(game, &estimate, models, |c, p| status.status(c, p), &name, args.seed, &case_files);
        write_json(out, &sample)?;
    } else {
        write_text(out, game, known, &estimate, &case_files, Paint::for_stdout(args.no_color))?;
    }
    Ok(Outcome::Success)
}

/// A percentage rounded to a whole number.
fn pc(x: f64) -> String {
    format!("{:.0}", 100.0 * x)
}

fn write_text(
    out: &mut dyn Write,
    game: &Game,
    known: Known<'_>,
    estimate: &Estimate,
    case_files: &[(CardSet, u64)],
    paint: Paint,
) -> std::io::Result<()> {
    write_title(out, game, paint, "sample")?;
    writeln!(out, "method: {}", estimate.method())?;
    let samples = estimate.samples();
    writeln!(out, "{samples} sample{} recorded", plural(samples))?;
    if samples == 0 {
        writeln!(out, "no sample was found: open pairs show 0% and intervals 0-100; try more iterations")?;
    }
    writeln!(out)?;

    let deck = game.deck();
    let places = places(game);
    let headers: Vec<std::borrow::Cow<'_, str>> = places
        .iter()
        .map(|&(p, id)| if p == Place::CaseFile { "case file".into() } else { crate::output::table_id(id) })
        .collect();
    let widths: Vec<usize> = headers.iter().map(|h| h.chars().count().max(11)).collect();
    let label_w =
        deck.cards().map(|c| crate::output::table_id(deck.id(c)).chars().count() + 2).max().unwrap_or(0).max(4);
    let mut line = " ".repeat(label_w);
    for (h, w) in headers.iter().zip(&widths) {
        line.push_str("  ");
        line.push_str(&paint.bold(&format!("{h:^w$}")));
    }
    writeln!(out, "{}", line.trim_end())?;
    for cat in deck.categories() {
        writeln!(out, "{}", paint.bold(deck.category_name(cat)))?;
        for c in deck.category_cards(cat) {
            let mut line = format!("  {:<w$}", crate::output::table_id(deck.id(c)), w = label_w - 2);
            for (&(place, _), &w) in places.iter().zip(&widths) {
                line.push_str("  ");
                let cell = match known.status(c, place) {
                    Status::Yes => paint.green(&format!("{:^w$}", "O")),
                    Status::No => paint.dim(&format!("{:^w$}", "X")),
                    Status::Maybe => {
                        let i = estimate.interval(c, place);
                        let text = format!("{}% {}-{}", pc(estimate.probability(c, place)), pc(i.lo), pc(i.hi));
                        format!("{text:^w$}")
                    }
                };
                line.push_str(&cell);
            }
            writeln!(out, "{}", line.trim_end())?;
        }
    }
    writeln!(out)?;
    let certain = match known {
        Known::Exact(_) => "O and X are certain by exact deduction (not sampled)",
        Known::Settled(_) => "O and X are certain by propagation (the game is too large for exact deduction)",
    };
    writeln!(out, "cells: estimate and 95 % interval, in percent; {certain}")?;
    if estimate.independent() {
        writeln!(out, "intervals: Wilson score, valid for these independent draws")?;
    } else {
        writeln!(
            out,
            "intervals: hull of Wilson and batch means; WalkSAT samples are correlated and biased, so they \
             cover this sampler's long-run frequency, not its bias"
        )?;
    }
    if !case_files.is_empty() {
        writeln!(out, "\nmost likely case files (estimated; {} seen):", case_files.len())?;
        for &(cards, k) in case_files.iter().take(TOP_CASE_FILES) {
            let cards: Vec<Card> = cards.iter().collect();
            let p = k as f64 / samples.max(1) as f64;
            writeln!(out, "  {:>5.1}%  {}", 100.0 * p, describe_cards(game, &cards))?;
        }
        write_more(out, case_files.len(), TOP_CASE_FILES)?;
    }
    Ok(())
}
