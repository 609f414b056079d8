//! `sleuth experiment`: reruns of published experiments.
//!
//! `sleuth experiment sampling` is Neller and Luo's sampling-error experiment
//! (the protocol is documented in `sleuth_sim::experiment`); `sleuth
//! experiment merge` combines the outputs of `--shard` runs. Both write the
//! raw results, `summary.json`, `summary.md` and the plots into `--out` (a
//! new folder by default; see [`crate::outdir`]).

use crate::input::display;
use crate::outdir::OutArgs;
use crate::plot;
use crate::progress::Bar;
use crate::Outcome;
use anyhow::{bail, Context as _};
use sleuth_sim::experiment::{self, Results, SamplingConfig, Shard};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Experiment,
}

#[derive(Debug, clap::Subcommand)]
enum Experiment {
    /// Neller and Luo's sampling-error experiment: RMSD of every WalkSAT sampler (and the
    /// exactly uniform one) against exact probabilities on states of simulated games.
    ///
    /// The defaults are the paper's experiment as EXPERIMENTS.md reproduces it: 100 games
    /// of 6 random agents, every state within 10,000,000 deals and none beyond, 100 runs of
    /// 100,000 iterations of every method (hours on two cores: see --shard).
    Sampling(SamplingArgs),
    /// Merge the outputs of `sleuth experiment sampling --shard i/n` runs: every shard of
    /// the run, each once and finished.
    Merge(MergeArgs),
    /// Neller and Luo's Table 1: the game, its exact probabilities, Algorithm 1's and
    /// Algorithm 2's estimates with each cell's error, and the paper's observations on
    /// them checked over several seeds.
    Table1(crate::table1::Args),
}

#[derive(Debug, clap::Args)]
struct SamplingArgs {
    /// Games to simulate.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Players per game (classic deck).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u64).range(3..=6))]
    players: u64,
    /// Who plays the simulated games: 'random' agents (random suggestions, won by
    /// elimination; about as many states within the threshold as the paper's) or 'exact'
    /// agents (suggest the most likely case file; usually won by one unrefuted suggestion).
    #[arg(long, default_value = "random")]
    agents: experiment::Agents,
    /// Runs of every method on every state.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    runs: u64,
    /// WalkSAT iterations per run.
    #[arg(long, default_value_t = 100_000)]
    iterations: u64,
    /// The paper's threshold: states with more consistent deals are reported as "beyond"
    /// (0: no threshold).
    #[arg(long, default_value_t = 10_000_000)]
    max_models: u64,
    /// At most this many states per game within the threshold (default: all).
    #[arg(long)]
    max_states: Option<usize>,
    /// At most this many states per game beyond the threshold, or 'all' (down to no
    /// suggestions); 0 is the paper's protocol.
    #[arg(long, default_value = "0", value_parser = parse_beyond)]
    beyond: Beyond,
    /// The experiment seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The methods to run, comma-separated (default: all): alg1, a, b (restart
    /// probability 0.8, as the paper's list reads), b20 (0.2, as its section 4.2.2 reads),
    /// c, d, alg2, tenure1, tenure3, tenure4, tenure8 (the tenure sweep: (d) with that tabu
    /// tenure; alg2 is tenure 2 and d tenure 10), uniform-samples, uniform-time (these two
    /// need alg2).
    #[arg(long, value_delimiter = ',')]
    methods: Option<Vec<experiment::Method>>,
    /// Run only the games whose index is i modulo n, and write their raw results for
    /// `sleuth experiment merge`.
    #[arg(long, value_name = "i/n")]
    shard: Option<Shard>,
    /// CI size: 3 games, 3 runs of 2,000 iterations, at most 2 states within the threshold
    /// and 1 beyond per game (overrides those options).
    #[arg(long)]
    quick: bool,
    #[command(flatten)]
    out: OutArgs,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
}

/// `--beyond`: a number of states, or `all` (`None`).
#[derive(Clone, Debug)]
struct Beyond(Option<usize>);

fn parse_beyond(s: &str) -> Result<Beyond, String> {
    match s {
        "all" => Ok(Beyond(None)),
        _ => s.parse().map(|n| Beyond(Some(n))).map_err(|_| format!("'{s}' is not a number of states or 'all'")),
    }
}

#[derive(Debug, clap::Args)]
struct MergeArgs {
    /// The results folders of the shards, every one of them.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// The folder for the merged results [default: a new folder results/sampling-DATE-TIME].
    /// A folder that already holds files is refused unless --force.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Write into a folder that already holds files, replacing its results.
    #[arg(long)]
    force: bool,
}

pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    match &args.command {
        Experiment::Sampling(a) => sampling(a, out),
        Experiment::Merge(a) => merge(a, out),
        Experiment::Table1(a) => crate::table1::run(a, out),
    }
}

fn config(a: &SamplingArgs) -> SamplingConfig {
    let mut cfg = if a.quick {
        SamplingConfig::quick()
    } else {
        SamplingConfig {
            games: a.games,
            runs: a.runs as usize,
            iterations: a.iterations,
            max_states: a.max_states,
            beyond: a.beyond.0,
            ..SamplingConfig::paper()
        }
    };
    cfg.players = a.players as usize;
    cfg.agents = a.agents;
    cfg.max_models = a.max_models;
    cfg.seed = a.seed;
    if let Some(methods) = &a.methods {
        cfg.methods = experiment::Method::ALL.into_iter().filter(|m| methods.contains(m)).collect();
    }
    cfg.shard = a.shard.unwrap_or(Shard::ALL);
    cfg.threads = a.threads;
    cfg
}

fn sampling(a: &SamplingArgs, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    if a.threads == Some(0) {
        bail!("--threads must be at least 1");
    }
    let cfg = config(a);
    let dir = a.out.folder("sampling")?;
    let games = experiment::shard_games(&cfg).len();
    if games == 0 {
        eprintln!("{}", empty_shard(&cfg));
    }
    let started = Instant::now();
    let progress = Bar::new();
    let run = experiment::run_sampling_in(&dir, &cfg, a.out.resume, &progress);
    progress.finish();
    let (results, already) = run.context("the sampling experiment failed")?;
    let elapsed = started.elapsed();
    if a.out.resume {
        writeln!(out, "resumed in {}: {already} of the {games} games were done before", display(&dir))?;
    }
    if cfg.shard.count > 1 {
        writeln!(
            out,
            "shard {}: {} games, {} states, {} runs in {:.0} s; raw results in {}",
            cfg.shard,
            results.games.len(),
            results.states.len(),
            results.runs.len(),
            elapsed.as_secs_f64(),
            display(&dir)
        )?;
        if games == 0 {
            writeln!(out, "{}", empty_shard(&cfg))?;
        }
        writeln!(out, "merge every shard with: sleuth experiment merge DIR... --out DIR")?;
        return Ok(Outcome::Success);
    }
    report(&results, &dir, out)?;
    writeln!(out, "\n{:.0} s in all", elapsed.as_secs_f64())?;
    Ok(Outcome::Success)
}

/// What an empty shard says, at its start and in its summary.
fn empty_shard(cfg: &SamplingConfig) -> String {
    format!(
        "shard {} is empty: the run has {} games, and none is numbered {} modulo {} (its results are empty, \
         and the merge still needs them)",
        cfg.shard, cfg.games, cfg.shard.index, cfg.shard.count
    )
}

fn merge(a: &MergeArgs, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let target = OutArgs { out: a.out.clone(), resume: false, force: a.force };
    let dir = target.folder("sampling")?;
    let merged = experiment::merge(&a.dirs)?;
    experiment::write_merged(&dir, &merged).with_context(|| format!("cannot write to {}", display(&dir)))?;
    report(&merged, &dir, out)?;
    Ok(Outcome::Success)
}

/// Writes the summary and plots, and prints the table.
fn report(results: &Results, dir: &Path, out: &mut dyn Write) -> anyhow::Result<()> {
    let summary = experiment::summarize(results);
    experiment::write_summary(dir, &summary).with_context(|| format!("cannot write to {}", display(dir)))?;
    let files =
        plot::write_plots(dir, results).with_context(|| format!("cannot write the plots to {}", display(dir)))?;
    write!(
        out,
        "{}\n{}\nmean RMSD by number of consistent deals:\n\n{}",
        summary.counts(),
        summary.table(),
        summary.size_table()
    )?;
    let names: Vec<String> =
        files.iter().map(|f| f.file_name().unwrap_or_default().to_string_lossy().into_owned()).collect();
    writeln!(
        out,
        "\nwritten to {}: config.json, results.jsonl, games.csv, states.csv, runs.csv, summary.json, summary.md, {}",
        display(dir),
        names.join(", ")
    )?;
    Ok(())
}
