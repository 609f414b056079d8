//! `sleuth bench`: time the exact analysis of a state.
//!
//! Two things are timed, one after the other on each state: the *count*,
//! `count_marginals(&CountProblem::new(&game))` (every card-place marginal), and
//! the *whole* analysis, `Analysis::new(&game)` (the count and the
//! possible case files with their counts): what `sleuth analyze`,
//! `sleuth notepad` and the web analysis run. Parsing and validation are
//! not timed.

mod advice;

use crate::generate::generate_seeded;
use crate::input::{display, load_game};
use crate::output::{group_digits, plural};
use crate::plot::scatter::{write_scatter, Curve, Point, Scatter};
use crate::Outcome;
use anyhow::{anyhow, Context as _};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sleuth_core::count::count_marginals;
use sleuth_core::generate::{DeckChoice, GenConfig};
use sleuth_core::{Analysis, CountError, CountOptions, CountProblem, Game};
use std::io::{IsTerminal as _, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Game files to time; without files, time generated states.
    files: Vec<PathBuf>,
    /// Generated games per cell (seeds 0..N).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    games: u64,
    /// 10 games per cell, and shorter runs for files.
    #[arg(long)]
    quick: bool,
    /// Time each generated state this many times (in as many passes over its cell)
    /// and keep the fastest, to filter out interruptions by other work.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=1000))]
    repeat: u32,
    /// Print the tables as Markdown, ready for BENCHMARKS.md.
    #[arg(long)]
    markdown: bool,
    /// Time the advice (`sleuth advise`) beside the whole analysis instead: of the game files
    /// given, else of generated player views (classic and master observers, and master
    /// 10-player bystanders given a hand).
    #[arg(long)]
    advice: bool,
    /// Also plot every state's whole analysis against its count, with the
    /// target (2 × count + 2 ms): bench_times.svg and .png in this directory; with --advice,
    /// every state's advice against its whole analysis, with the advice's targets:
    /// bench_advice.svg and .png.
    #[arg(long, value_name = "DIR")]
    plot: Option<PathBuf>,
}

/// The suggestions played before each timed state.
const SUGGESTIONS: [usize; 5] = [0, 10, 20, 40, 80];

/// One kind of game in the generated benchmark.
struct Kind {
    deck: DeckChoice,
    deck_name: &'static str,
    players: usize,
    observer: bool,
}

fn kinds() -> Vec<Kind> {
    let mut kinds = Vec::new();
    for players in [3, 4, 5, 6] {
        kinds.push(Kind { deck: DeckChoice::Classic, deck_name: "classic", players, observer: true });
    }
    for players in [6, 8, 10] {
        kinds.push(Kind { deck: DeckChoice::Master, deck_name: "master", players, observer: true });
    }
    kinds.push(Kind { deck: DeckChoice::Master, deck_name: "master", players: 10, observer: false });
    kinds
}

/// Median, 95th percentile (nearest rank), minimum and maximum, in ms.
#[derive(Copy, Clone, Debug)]
struct Stats {
    median: f64,
    p95: f64,
    min: f64,
    max: f64,
}

fn stats(times: &mut [Duration]) -> Option<Stats> {
    if times.is_empty() {
        return None;
    }
    times.sort_unstable();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let n = times.len();
    let median = if n % 2 == 1 { ms(times[n / 2]) } else { (ms(times[n / 2 - 1]) + ms(times[n / 2])) / 2.0 };
    let rank = (n * 95).div_ceil(100).max(1);
    Some(Stats { median, p95: ms(times[rank - 1]), min: ms(times[0]), max: ms(times[n - 1]) })
}

/// One timing of a state: the count alone and the whole analysis.
#[derive(Copy, Clone, Debug)]
struct Timing {
    count: Duration,
    whole: Duration,
    models: u128,
}

impl Timing {
    /// The fastest of two timings, part by part.
    fn min(self, other: Timing) -> Timing {
        Timing { count: self.count.min(other.count), whole: self.whole.min(other.whole), models: self.models }
    }
}

/// Times the count and then the whole analysis of the game, once each,
/// within `max_states` states.
fn time_once(game: &Game, max_states: usize) -> Result<Timing, CountError> {
    let options = CountOptions::new().max_states(max_states);
    let start = Instant::now();
    let counts = count_marginals(&CountProblem::new(game), &options)?;
    let count = start.elapsed();
    let models = std::hint::black_box(counts).total;
    let start = Instant::now();
    let analysis = Analysis::with_options(game, &options)?;
    let whole = start.elapsed();
    std::hint::black_box(analysis);
    Ok(Timing { count, whole, models })
}

/// The target of issue 20 for a count of `count_ms`: the whole analysis
/// within twice the count plus two milliseconds (the table's last column
/// and the plot's curve).
fn target_ms(count_ms: f64) -> f64 {
    2.0 * count_ms + 2.0
}

/// Whether a timing meets [`target_ms`].
fn within_target(t: &Timing) -> bool {
    t.whole.as_secs_f64() * 1e3 <= target_ms(t.count.as_secs_f64() * 1e3)
}

pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    if args.advice {
        advice::run(args, out)
    } else if args.files.is_empty() {
        run_generated(args, out)
    } else {
        run_files(args, out)
    }
}

fn progress(len: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    let bar_spec = if crate::output::Paint::for_stderr().is_on() { "{bar:40.cyan/blue}" } else { "{bar:40}" };
    if let Ok(style) = ProgressStyle::with_template(&format!("{bar_spec} {{pos}}/{{len}} states  {{msg}}")) {
        bar.set_style(style);
    }
    bar
}

fn run_files(args: &Args, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    // Each file is timed until both limits are reached (after one warm-up run).
    let (min_time, min_runs) = if args.quick { (Duration::from_millis(200), 3) } else { (Duration::from_secs(1), 10) };
    const MAX_RUNS: usize = 100_000;
    write_header(out, args.markdown)?;
    writeln!(out)?;
    let rows_header =
        ["file", "models", "runs", "count median ms", "count min ms", "whole median ms", "whole min ms", "whole/count"];
    let mut rows = Vec::new();
    let mut points = Vec::new();
    let mut failed = 0usize;
    let max_states = crate::limits::max_states()?;
    let bar = progress(args.files.len() as u64);
    for path in &args.files {
        let name = path.display().to_string();
        bar.set_message(name.clone());
        // A file that cannot be read or counted is reported and skipped, so
        // the other files still get their row; the exit code says so.
        match time_file(path, (min_time, min_runs, MAX_RUNS), max_states) {
            Ok((models, runs, count, whole)) => {
                points.push(Point { group: "game files".into(), x: count.median, y: whole.median });
                rows.push(vec![
                    name.clone(),
                    group_digits(models),
                    runs.to_string(),
                    format!("{:.3}", count.median),
                    format!("{:.3}", count.min),
                    format!("{:.3}", whole.median),
                    format!("{:.3}", whole.min),
                    format!("{:.2}", whole.median / count.median),
                ]);
            }
            Err(e) => {
                failed += 1;
                bar.suspend(|| eprintln!("error: {name}: {e:#}"));
                rows.push(vec![
                    name.clone(),
                    "failed".into(),
                    "0".into(),
                    "-".into(),
                    "-".into(),
                    "-".into(),
                    "-".into(),
                    "-".into(),
                ]);
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    write_table(out, &rows_header, &rows, &[false, true, true, true, true, true, true, true], args.markdown)?;
    write_footer(out, args.markdown)?;
    let title = format!("sleuth bench: {} game file(s), median of the runs of each", points.len());
    plot(args, &title, &points)?;
    Ok(if failed == 0 { Outcome::Success } else { Outcome::NoResult })
}

/// Times one file (at least `min_time` and `min_runs` runs, at most
/// `max_runs`): its model count, the number of runs, and the statistics
/// of the count and of the whole analysis.
fn time_file(
    path: &std::path::Path,
    (min_time, min_runs, max_runs): (Duration, usize, usize),
    max_states: usize,
) -> anyhow::Result<(u128, usize, Stats, Stats)> {
    let game = load_game(path)?;
    let models = time_once(&game, max_states)?.models;
    let (mut count, mut whole) = (Vec::new(), Vec::new());
    let started = Instant::now();
    while count.len() < max_runs && (count.len() < min_runs || started.elapsed() < min_time) {
        let t = time_once(&game, max_states)?;
        count.push(t.count);
        whole.push(t.whole);
    }
    let runs = count.len();
    let count = stats(&mut count).ok_or_else(|| anyhow!("no runs"))?;
    let whole = stats(&mut whole).ok_or_else(|| anyhow!("no runs"))?;
    Ok((models, runs, count, whole))
}

fn run_generated(args: &Args, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let games = if args.quick { 10 } else { args.games };
    let max_states = crate::limits::max_states()?;
    let kinds = kinds();
    write_header(out, args.markdown)?;
    let line = format!(
        "states: generated games (sleuth generate), seeds 0..{}, {games} per cell; each state timed {} time{} (one pass over the cell each), fastest kept",
        games - 1,
        args.repeat,
        plural(args.repeat)
    );
    writeln!(out, "{}{line}", if args.markdown { "- " } else { "" })?;
    writeln!(out)?;
    out.flush()?;

    let header = [
        "deck",
        "players",
        "view",
        "suggestions",
        "games",
        "count median ms",
        "count p95 ms",
        "count max ms",
        "whole median ms",
        "whole p95 ms",
        "whole max ms",
        "max whole/count",
        "over 2x+2ms",
    ];
    let mut rows = Vec::new();
    let mut points = Vec::new();
    let mut failures: Vec<String> = Vec::new();
    let bar = progress(kinds.len() as u64 * SUGGESTIONS.len() as u64 * games * u64::from(args.repeat));
    for kind in &kinds {
        let view = if kind.observer { "observer" } else { "bystander" };
        for &suggestions in &SUGGESTIONS {
            bar.set_message(format!("{} {} players, {view}, {suggestions} suggestions", kind.deck_name, kind.players));
            let cfg = GenConfig::new(kind.deck.clone(), kind.players, kind.observer, suggestions);
            let mut states = Vec::with_capacity(games as usize);
            for seed in 0..games {
                let generated = generate_seeded(&cfg, seed)
                    .with_context(|| format!("{} {} players: cannot generate games", kind.deck_name, kind.players))?;
                match Game::new(&generated.file) {
                    Ok(g) => states.push((seed, g)),
                    Err(e) => {
                        failures.push(format!("{} seed {seed}: generated game is invalid: {e}", kind.deck_name));
                        bar.inc(args.repeat.into());
                    }
                }
            }
            // The repetitions are whole passes over the cell, so that a burst
            // of other work on the machine (a few milliseconds) cannot spoil
            // every timing of one state.
            let mut best: Vec<Option<Timing>> = vec![None; states.len()];
            let mut failed = vec![false; states.len()];
            for _ in 0..args.repeat {
                for (i, (seed, game)) in states.iter().enumerate() {
                    bar.inc(1);
                    if failed[i] {
                        continue;
                    }
                    match time_once(game, max_states) {
                        Ok(t) => best[i] = Some(best[i].map_or(t, |b| b.min(t))),
                        Err(e) => {
                            failures.push(format!(
                                "{} {} players {view}, {suggestions} suggestions, seed {seed}: {e}",
                                kind.deck_name, kind.players
                            ));
                            failed[i] = true;
                            best[i] = None;
                        }
                    }
                }
            }
            let timed: Vec<Timing> = best.into_iter().flatten().collect();
            let group = format!("{} {} {view}", kind.deck_name, kind.players);
            points.extend(timed.iter().map(|t| Point {
                group: group.clone(),
                x: t.count.as_secs_f64() * 1e3,
                y: t.whole.as_secs_f64() * 1e3,
            }));
            let cells = |s: Option<Stats>| match s {
                Some(s) => [format!("{:.3}", s.median), format!("{:.3}", s.p95), format!("{:.3}", s.max)],
                None => ["n/a".to_string(), "n/a".to_string(), "n/a".to_string()],
            };
            let count = cells(stats(&mut timed.iter().map(|t| t.count).collect::<Vec<_>>()));
            let whole = cells(stats(&mut timed.iter().map(|t| t.whole).collect::<Vec<_>>()));
            let ratio =
                timed.iter().map(|t| t.whole.as_secs_f64() / t.count.as_secs_f64().max(1e-9)).fold(0.0, f64::max);
            let over = timed.iter().filter(|t| !within_target(t)).count();
            let mut row = vec![
                kind.deck_name.to_string(),
                kind.players.to_string(),
                view.to_string(),
                suggestions.to_string(),
                timed.len().to_string(),
            ];
            row.extend(count);
            row.extend(whole);
            row.push(format!("{ratio:.2}"));
            row.push(over.to_string());
            rows.push(row);
        }
    }
    bar.finish_and_clear();
    let right = [false, true, false, true, true, true, true, true, true, true, true, true, true];
    write_table(out, &header, &rows, &right, args.markdown)?;
    write_footer(out, args.markdown)?;
    let each = if args.repeat == 1 {
        "timed once each".to_string()
    } else {
        format!("fastest of {} timings each", args.repeat)
    };
    let title = format!("sleuth bench: {} generated states, {each}", points.len());
    plot(args, &title, &points)?;
    if failures.is_empty() {
        return Ok(Outcome::Success);
    }
    out.flush()?;
    let mut err = std::io::stderr().lock();
    writeln!(err, "warning: {} state(s) could not be analysed:", failures.len())?;
    for f in failures.iter().take(10) {
        writeln!(err, "  {f}")?;
    }
    Ok(Outcome::NoResult)
}

/// With `--plot DIR`, `bench_times.{svg,png}`: each state's whole analysis
/// against its count, with the target of issue 20 (2 × count + 2 ms); where
/// it went goes to standard error (standard output holds the tables).
fn plot(args: &Args, title: &str, points: &[Point]) -> anyhow::Result<()> {
    let Some(dir) = &args.plot else { return Ok(()) };
    let over = points.iter().filter(|p| p.y > target_ms(p.x)).count();
    let curves = [
        Curve { label: "whole = count".into(), f: |x| x, solid: false },
        Curve {
            label: format!("target: 2 × count + 2 ms ({over} of {} states above)", points.len()),
            f: target_ms,
            solid: true,
        },
    ];
    let plot = Scatter {
        name: "bench_times",
        title,
        x_desc: "count alone (all marginals), ms",
        y_desc: "whole analysis (counts and case files), ms",
        points,
        curves: &curves,
    };
    write_plot(dir, &plot)
}

/// Draws `plot` into `dir` and says where on standard error (standard
/// output holds the tables): both benchmarks' plots.
fn write_plot(dir: &std::path::Path, plot: &Scatter) -> anyhow::Result<()> {
    let files = write_scatter(dir, plot).with_context(|| format!("cannot plot to {}", display(dir)))?;
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    eprintln!("plot written: {}", names.join(", "));
    Ok(())
}

fn write_header(out: &mut dyn Write, markdown: bool) -> std::io::Result<()> {
    let (cpu, cores) = machine();
    let build = if cfg!(debug_assertions) {
        "debug build: numbers are not representative, use --release"
    } else {
        "release build"
    };
    let lines = [
        "sleuth bench: exact analysis of a state, single thread: count = all marginals (count_marginals); whole = counts and case files (Analysis::new, as analyze/notepad/web)".to_string(),
        format!("machine: {cpu}, {cores}"),
        format!("date: {} (UTC)", today()),
        format!("sleuth {}, {build}", env!("CARGO_PKG_VERSION")),
    ];
    for (i, line) in lines.iter().enumerate() {
        match (markdown, i) {
            (true, 0) => writeln!(out, "{line}\n")?,
            (true, _) => writeln!(out, "- {line}")?,
            (false, _) => writeln!(out, "{line}")?,
        }
    }
    Ok(())
}

fn write_footer(out: &mut dyn Write, markdown: bool) -> std::io::Result<()> {
    let mem = peak_memory().unwrap_or_else(|| "n/a".to_string());
    writeln!(out)?;
    writeln!(out, "{}peak memory (VmHWM): {mem}", if markdown { "- " } else { "" })
}

/// Writes rows as an aligned text table or a Markdown table.
pub(crate) fn write_table(
    out: &mut dyn Write,
    header: &[&str],
    rows: &[Vec<String>],
    right: &[bool],
    markdown: bool,
) -> std::io::Result<()> {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let render = |cells: &[String]| -> String {
        let parts: Vec<String> = cells
            .iter()
            .zip(&widths)
            .zip(right)
            .map(|((c, &w), &r)| if r { format!("{c:>w$}") } else { format!("{c:<w$}") })
            .collect();
        if markdown {
            format!("| {} |", parts.join(" | "))
        } else {
            parts.join("  ").trim_end().to_string()
        }
    };
    let header: Vec<String> = header.iter().map(|h| h.to_string()).collect();
    writeln!(out, "{}", render(&header))?;
    if markdown {
        let rule: Vec<String> = widths
            .iter()
            .zip(right)
            .map(|(&w, &r)| if r { format!("{}:", "-".repeat(w.max(2) - 1)) } else { "-".repeat(w.max(1)) })
            .collect();
        writeln!(out, "|{}|", rule.iter().map(|r| format!(" {r} ")).collect::<Vec<_>>().join("|"))?;
    }
    for row in rows {
        writeln!(out, "{}", render(row))?;
    }
    Ok(())
}

/// The CPU model and the number of logical cores, from /proc/cpuinfo.
pub(crate) fn machine() -> (String, String) {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let cpu = info
        .lines()
        .find_map(|l| {
            let (key, value) = l.split_once(':')?;
            matches!(key.trim(), "model name" | "Model" | "cpu model").then(|| value.trim().to_string())
        })
        .unwrap_or_else(|| "unknown cpu".to_string());
    let listed = info.lines().filter(|l| l.split_once(':').is_some_and(|(k, _)| k.trim() == "processor")).count();
    let available = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0);
    let cores = match (listed, available) {
        (0, 0) => "cores unknown".to_string(),
        (0, a) => format!("{a} cores available"),
        (l, a) if a == l || a == 0 => format!("{l} logical cores"),
        (l, a) => format!("{l} logical cores ({a} available)"),
    };
    (cpu, cores)
}

/// Today's date (UTC) as YYYY-MM-DD, from the system clock.
pub(crate) fn today() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Days since 1970-01-01 to a Gregorian date (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// The peak resident set size of this process, from /proc/self/status.
fn peak_memory() -> Option<String> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.trim_start_matches("VmHWM:").trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(format!("{} kB ({:.1} MiB)", group_digits(u128::from(kb)), kb as f64 / 1024.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
    }

    #[test]
    fn percentiles() {
        let mut t: Vec<Duration> = (1..=100).map(Duration::from_millis).collect();
        let s = stats(&mut t).unwrap();
        assert_eq!((s.p95, s.max, s.min), (95.0, 100.0, 1.0));
        assert_eq!(s.median, 50.5);
        assert!(stats(&mut []).is_none());
    }
}
