//! `sleuth bench --advice`: the advice of a state timed beside its exact
//! analysis, in process, on the states the targets of issue 57 are about.
//!
//! Three things are timed on each state, one after the other: the *whole*
//! analysis (`Analysis::new`, as `sleuth analyze`), the *suggestions*
//! (the position's counts and `rank_suggestions` with the default
//! shortlist: the exact evaluation of suggestions) and the *advice*
//! (`advise` with the default options, as `sleuth advise`: suggestions,
//! accusation, the opponents' threat and the behaviour hint).
//!
//! With game files, each file is timed the same way (the fastest of
//! `--repeat` passes over the files), a row per file and one for them all.
//! With `--plot DIR`, every state's advice against its whole analysis.

use super::{progress, stats, write_footer, write_header, write_plot, write_table, Args, Stats};
use crate::generate::generate_seeded;
use crate::input::load_game;
use crate::output::plural;
use crate::plot::scatter::{Curve, Point, Scatter};
use crate::Outcome;
use anyhow::Context as _;
use sleuth_core::advice::{advise, AdviceOptions, Position};
use sleuth_core::generate::{DeckChoice, GenConfig};
use sleuth_core::{Analysis, CountOptions, Game};
use std::io::Write;
use std::time::{Duration, Instant};

/// The suggestions played before each timed state.
const SUGGESTIONS: [usize; 2] = [10, 20];

/// The cells: classic observers, master observers, and master bystanders
/// given seat 0's hand from the true deal.
fn kinds() -> Vec<(DeckChoice, &'static str, usize, bool)> {
    let mut kinds: Vec<_> = (3..=6).map(|n| (DeckChoice::Classic, "classic", n, true)).collect();
    kinds.extend([6, 8, 10].map(|n| (DeckChoice::Master, "master", n, true)));
    kinds.push((DeckChoice::Master, "master", 10, false));
    kinds
}

#[derive(Copy, Clone)]
struct Timing {
    whole: Duration,
    suggestions: Duration,
    advice: Duration,
}

fn time_once(game: &Game, max_states: usize) -> anyhow::Result<Timing> {
    let options = CountOptions::new().max_states(max_states);
    let defaults = AdviceOptions { max_states, ..AdviceOptions::default() };
    let start = Instant::now();
    std::hint::black_box(Analysis::with_options(game, &options)?);
    let whole = start.elapsed();
    let start = Instant::now();
    std::hint::black_box(Position::with_options(game, &options)?.rank_suggestions(defaults.shortlist)?);
    let suggestions = start.elapsed();
    let start = Instant::now();
    std::hint::black_box(advise(game, &defaults)?);
    let advice = start.elapsed();
    Ok(Timing { whole, suggestions, advice })
}

/// A player's view of a generated state: the observer's, or for a
/// bystander's state seat 0's, its hand from the true deal.
fn view(cfg: &GenConfig, seed: u64) -> anyhow::Result<Game> {
    let generated = generate_seeded(cfg, seed).context("cannot generate games")?;
    generated.player_view().map_err(|e| anyhow::anyhow!("generated game is invalid: {e}"))
}

/// The fastest of two timings, part by part.
fn fastest(a: Option<Timing>, t: Timing) -> Timing {
    a.map_or(t, |b| Timing {
        whole: b.whole.min(t.whole),
        suggestions: b.suggestions.min(t.suggestions),
        advice: b.advice.min(t.advice),
    })
}

/// Milliseconds with three decimals, `n/a` for none.
fn ms(x: Option<f64>) -> String {
    x.map_or("n/a".to_string(), |x| format!("{x:.3}"))
}

pub(super) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    if !args.files.is_empty() {
        return run_files(args, out);
    }
    let games = if args.quick { 10 } else { args.games };
    let max_states = crate::limits::max_states()?;
    write_header(out, args.markdown)?;
    let line = format!(
        "advice: generated games, seeds 0..{}, {games} per cell (bystander: seat 0's view with its hand); each state timed {} time{}, fastest kept; suggestions = Position + rank_suggestions(12), advice = advise (as sleuth advise)",
        games - 1,
        args.repeat,
        plural(args.repeat)
    );
    writeln!(out, "{}{line}", if args.markdown { "- " } else { "" })?;
    writeln!(out)?;
    let header = [
        "deck",
        "players",
        "view",
        "suggestions",
        "games",
        "whole median ms",
        "suggestions median ms",
        "suggestions max ms",
        "advice median ms",
        "advice p95 ms",
        "advice max ms",
    ];
    let kinds = kinds();
    let bar = progress(kinds.len() as u64 * SUGGESTIONS.len() as u64 * games * u64::from(args.repeat));
    let mut rows = Vec::new();
    let mut points = Vec::new();
    for (deck, deck_name, players, observer) in kinds {
        let view_name = if observer { "observer" } else { "bystander" };
        let group = format!("{deck_name} {players}{}", if observer { "" } else { " bystander" });
        for &made in &SUGGESTIONS {
            bar.set_message(format!("{deck_name} {players} players, {view_name}, {made} suggestions"));
            let cfg = GenConfig::new(deck.clone(), players, observer, made);
            let states = (0..games).map(|seed| view(&cfg, seed)).collect::<anyhow::Result<Vec<_>>>()?;
            let mut best: Vec<Option<Timing>> = vec![None; states.len()];
            for _ in 0..args.repeat {
                for (game, best) in states.iter().zip(&mut best) {
                    bar.inc(1);
                    *best = Some(fastest(*best, time_once(game, max_states)?));
                }
            }
            let timed: Vec<Timing> = best.into_iter().flatten().collect();
            points.extend(timed.iter().map(|t| point(&group, t)));
            let of =
                |f: fn(&Timing) -> Duration| -> Option<Stats> { stats(&mut timed.iter().map(f).collect::<Vec<_>>()) };
            let (whole, sugg, adv) = (of(|t| t.whole), of(|t| t.suggestions), of(|t| t.advice));
            rows.push(vec![
                deck_name.to_string(),
                players.to_string(),
                view_name.to_string(),
                made.to_string(),
                timed.len().to_string(),
                ms(whole.map(|s| s.median)),
                ms(sugg.map(|s| s.median)),
                ms(sugg.map(|s| s.max)),
                ms(adv.map(|s| s.median)),
                ms(adv.map(|s| s.p95)),
                ms(adv.map(|s| s.max)),
            ]);
        }
    }
    bar.finish_and_clear();
    let right = [false, true, false, true, true, true, true, true, true, true, true];
    write_table(out, &header, &rows, &right, args.markdown)?;
    write_footer(out, args.markdown)?;
    let title = format!("sleuth bench --advice: generated states, seeds 0..{}, fastest of {}", games - 1, args.repeat);
    plot(args, &title, &points)?;
    Ok(Outcome::Success)
}

/// The advice of each game file timed, a row per file (a file that cannot
/// be read or advised on is reported and left out; the exit code says so)
/// and a last row with the median, 95th percentile and maximum over them.
fn run_files(args: &Args, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let max_states = crate::limits::max_states()?;
    write_header(out, args.markdown)?;
    let line = format!(
        "advice: {} game file{}, each timed {} time{} (one pass over the files each), fastest kept; suggestions = Position + rank_suggestions(12), advice = advise (as sleuth advise)",
        args.files.len(),
        plural(args.files.len()),
        args.repeat,
        plural(args.repeat)
    );
    writeln!(out, "{}{line}", if args.markdown { "- " } else { "" })?;
    writeln!(out)?;
    let mut games = Vec::new();
    let mut failed = 0usize;
    for path in &args.files {
        match load_game(path) {
            Ok(game) => games.push((path.display().to_string(), game)),
            Err(e) => {
                failed += 1;
                eprintln!("error: {e:#}");
            }
        }
    }
    let bar = progress(games.len() as u64 * u64::from(args.repeat));
    let mut best: Vec<Option<Timing>> = vec![None; games.len()];
    // A file whose advice fails once is not timed again.
    let mut dropped = vec![false; games.len()];
    for _ in 0..args.repeat {
        for (((name, game), best), dropped) in games.iter().zip(&mut best).zip(&mut dropped) {
            bar.set_message(name.clone());
            bar.inc(1);
            if *dropped {
                continue;
            }
            match time_once(game, max_states) {
                Ok(t) => *best = Some(fastest(*best, t)),
                Err(e) => {
                    (*dropped, *best) = (true, None);
                    failed += 1;
                    bar.suspend(|| eprintln!("error: {name}: {e:#}"));
                }
            }
        }
    }
    bar.finish_and_clear();
    let header = ["file", "whole ms", "suggestions ms", "advice ms"];
    let mut rows = Vec::new();
    let mut timed = Vec::new();
    let mut points = Vec::new();
    for ((name, _), best) in games.iter().zip(&best) {
        if let Some(t) = best {
            timed.push(*t);
            points.push(point("game files", t));
            rows.push(vec![
                name.clone(),
                ms(Some(t.whole.as_secs_f64() * 1e3)),
                ms(Some(t.suggestions.as_secs_f64() * 1e3)),
                ms(Some(t.advice.as_secs_f64() * 1e3)),
            ]);
        }
    }
    let of = |f: fn(&Timing) -> Duration| stats(&mut timed.iter().map(f).collect::<Vec<_>>());
    let summary =
        |s: Option<Stats>| s.map_or("n/a".to_string(), |s| format!("{:.3} / {:.3} / {:.3}", s.median, s.p95, s.max));
    rows.push(vec![
        format!("all {} (median / p95 / max)", timed.len()),
        summary(of(|t| t.whole)),
        summary(of(|t| t.suggestions)),
        summary(of(|t| t.advice)),
    ]);
    write_table(out, &header, &rows, &[false, true, true, true], args.markdown)?;
    write_footer(out, args.markdown)?;
    let title =
        format!("sleuth bench --advice: {} game file{}, fastest of {}", timed.len(), plural(timed.len()), args.repeat);
    plot(args, &title, &points)?;
    Ok(if failed == 0 { Outcome::Success } else { Outcome::NoResult })
}

/// A timed state as a point: its whole analysis and its advice, in ms.
fn point(group: &str, t: &Timing) -> Point {
    Point { group: group.to_string(), x: t.whole.as_secs_f64() * 1e3, y: t.advice.as_secs_f64() * 1e3 }
}

/// The worst advice issue 57 allows on master 10-player states, in ms.
const MASTER_10_WORST_MS: f64 = 300.0;
/// The advice issue 57 allows on classic states, in ms.
const CLASSIC_MS: f64 = 5.0;

/// With `--plot DIR`, `bench_advice.{svg,png}`: each state's advice
/// against its whole analysis, with the diagonal and the targets (300 ms at
/// worst on master 10-player states, 5 ms on classic ones), each with how
/// many of its states are above it (of the generated cells its own deck's,
/// of game files all); where it went goes to standard error (standard
/// output holds the table).
fn plot(args: &Args, title: &str, points: &[Point]) -> anyhow::Result<()> {
    let Some(dir) = &args.plot else { return Ok(()) };
    let above = |prefix: &str, limit: f64| {
        let mine: Vec<&Point> =
            points.iter().filter(|p| p.group == "game files" || p.group.starts_with(prefix)).collect();
        let over = mine.iter().filter(|p| p.y > limit).count();
        format!("{over} of {} state{} above", mine.len(), plural(mine.len()))
    };
    let curves = [
        Curve { label: "advice = whole analysis".into(), f: |x| x, solid: false },
        Curve {
            label: format!(
                "target, master 10 players: at worst {MASTER_10_WORST_MS} ms ({})",
                above("master 10", MASTER_10_WORST_MS)
            ),
            f: |_| MASTER_10_WORST_MS,
            solid: true,
        },
        Curve {
            label: format!("target, classic: {CLASSIC_MS} ms ({})", above("classic", CLASSIC_MS)),
            f: |_| CLASSIC_MS,
            solid: true,
        },
    ];
    let plot = Scatter {
        name: "bench_advice",
        title,
        x_desc: "whole analysis (counts and case files), ms",
        y_desc: "advice (as sleuth advise), ms",
        points,
        curves: &curves,
    };
    write_plot(dir, &plot)
}
