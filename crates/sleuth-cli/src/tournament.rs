//! `sleuth tournament`: every seating of the chosen agents for each player
//! count (the format is documented in `sleuth_sim::tournament`), and
//! `sleuth tournament merge` for the outputs of `--shard` runs. Both write
//! `config.json`, `results.jsonl`, `games.csv`, `summary.json`, `summary.md`
//! and the plot `win_rates.{svg,png}` into `--out` (a new folder by default;
//! a shard writes only the first three).

use crate::input::display;
use crate::outdir::OutArgs;
use crate::plot::tournament::write_tournament_plot;
use crate::progress::Bar;
use crate::Outcome;
use anyhow::{bail, Context as _};
use sleuth_sim::experiment::Shard;
use sleuth_sim::tournament::{self, DeckName, TournamentConfig, TournamentResults, DEFAULT_AGENTS};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    command: Option<Sub>,
    #[command(flatten)]
    play: PlayArgs,
}

#[derive(Debug, clap::Subcommand)]
enum Sub {
    /// Merge the outputs of `sleuth tournament --shard i/n` runs: every shard of the
    /// tournament, each once and finished.
    Merge(MergeArgs),
}

#[derive(Debug, clap::Args)]
struct PlayArgs {
    /// The agents, comma-separated [default: random, exact, notepad, group4, sat, sleuth;
    /// minimax, inference, bluffer, ray and spock play when named].
    #[arg(long, value_delimiter = ',')]
    agents: Vec<String>,
    /// Player counts: a range `3..6`, a list `3,5`, or one count [default: 3..6].
    #[arg(long, value_parser = parse_players)]
    players: Option<PlayerCounts>,
    /// Games per seating (each seating of agents is played this many times, each game with
    /// its own deal).
    #[arg(long, default_value_t = 1)]
    games: usize,
    /// The deck: classic (3 to 6 players) or master (3 to 10).
    #[arg(long, default_value = "classic")]
    deck: DeckName,
    /// Rounds before a game ends without a winner.
    #[arg(long, default_value_t = 200)]
    max_rounds: usize,
    /// Instead of the deck: a three-category deck that gives every player this many
    /// cards (the Cluedo agent-strategies article's tournaments by cards per player).
    #[arg(long, conflicts_with = "deck")]
    cards_per_player: Option<usize>,
    /// The tournament seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Play only the games whose number is i modulo n, and write their results for
    /// `sleuth tournament merge`.
    #[arg(long, value_name = "i/n")]
    shard: Option<Shard>,
    /// A quick look: 3 players only (120 games with the default agents, seconds).
    #[arg(long, conflicts_with = "players")]
    quick: bool,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    #[command(flatten)]
    out: OutArgs,
}

#[derive(Debug, clap::Args)]
struct MergeArgs {
    /// The results folders of the shards, every one of them.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// The folder for the merged results [default: a new folder
    /// results/tournament-DATE-TIME]. A folder that already holds files is refused unless
    /// --force.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Write into a folder that already holds files, replacing its results.
    #[arg(long)]
    force: bool,
    /// Merge a part of the tournament on purpose: shards may be missing (the summary says
    /// how many games of the schedule are not in it).
    #[arg(long)]
    partial: bool,
}

/// Player counts from the command line.
#[derive(Clone, Debug)]
struct PlayerCounts(Vec<usize>);

fn parse_players(s: &str) -> Result<PlayerCounts, String> {
    let number = |t: &str| t.trim().parse::<usize>().map_err(|_| format!("'{t}' is not a number of players"));
    let counts: Vec<usize> = if let Some((a, b)) = s.split_once("..") {
        let (a, b) = (number(a)?, number(b.trim_start_matches('='))?);
        if a > b {
            return Err(format!("empty range {s}"));
        }
        (a..=b).collect()
    } else {
        s.split(',').map(number).collect::<Result<_, _>>()?
    };
    let mut sorted = counts.clone();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() != counts.len() {
        return Err(format!("a player count is listed twice in '{s}'"));
    }
    Ok(PlayerCounts(counts))
}

pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    match &args.command {
        Some(Sub::Merge(a)) => merge(a, out),
        None => play(&args.play, out),
    }
}

fn config(a: &PlayArgs) -> TournamentConfig {
    TournamentConfig {
        agents: if a.agents.is_empty() {
            DEFAULT_AGENTS.iter().map(|s| s.to_string()).collect()
        } else {
            a.agents.iter().map(|s| s.trim().to_string()).collect()
        },
        players: match (&a.players, a.quick) {
            (Some(p), _) => p.0.clone(),
            (None, true) => vec![3],
            (None, false) => vec![3, 4, 5, 6],
        },
        games: a.games,
        deck: a.deck,
        max_rounds: a.max_rounds,
        seed: a.seed,
        shard: a.shard.unwrap_or(Shard::ALL),
        cards_per_player: a.cards_per_player,
        threads: a.threads,
    }
}

fn play(a: &PlayArgs, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    if a.threads == Some(0) {
        bail!("--threads must be at least 1");
    }
    let cfg = config(a);
    cfg.validate()?;
    let dir = a.out.folder("tournament")?;
    let games = tournament::shard_fixtures(&cfg)?.len();
    if games == 0 {
        eprintln!("{}", empty_shard(&cfg));
    }
    let started = Instant::now();
    let progress = Bar::new();
    let run = tournament::run_tournament_in(&dir, &cfg, a.out.resume, &progress);
    progress.finish();
    let (results, already) = run.context("the tournament failed")?;
    let elapsed = started.elapsed().as_secs_f64();
    if a.out.resume {
        writeln!(out, "resumed in {}: {already} of the {games} games were played before", display(&dir))?;
    }
    if cfg.shard.count > 1 {
        writeln!(
            out,
            "shard {}: {} games in {elapsed:.0} s; results in {}",
            cfg.shard,
            results.games.len(),
            display(&dir)
        )?;
        if games == 0 {
            writeln!(out, "{}", empty_shard(&cfg))?;
        }
        writeln!(out, "merge every shard with: sleuth tournament merge DIR... --out DIR")?;
        return Ok(Outcome::Success);
    }
    report(&results, &dir, out)?;
    writeln!(out, "\n{elapsed:.0} s in all")?;
    Ok(Outcome::Success)
}

/// What an empty shard says, at its start and in its summary.
fn empty_shard(cfg: &TournamentConfig) -> String {
    format!(
        "shard {} is empty: no game of the tournament is numbered {} modulo {} (its results are empty, and the \
         merge still needs them)",
        cfg.shard, cfg.shard.index, cfg.shard.count
    )
}

fn merge(a: &MergeArgs, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let target = OutArgs { out: a.out.clone(), resume: false, force: a.force };
    let dir = target.folder("tournament")?;
    let merged = tournament::merge(&a.dirs, a.partial)?;
    tournament::write_merged(&dir, &merged).with_context(|| format!("cannot write to {}", display(&dir)))?;
    report(&merged, &dir, out)?;
    Ok(Outcome::Success)
}

/// Writes the summary and the plot, and prints the report.
fn report(results: &TournamentResults, dir: &Path, out: &mut dyn Write) -> anyhow::Result<()> {
    let summary = tournament::summarize(results);
    tournament::write_summary(dir, &summary).with_context(|| format!("cannot write to {}", display(dir)))?;
    let files =
        write_tournament_plot(dir, &summary).with_context(|| format!("cannot write the plot to {}", display(dir)))?;
    write!(out, "{}", summary.markdown())?;
    let names: Vec<String> =
        files.iter().map(|f| f.file_name().unwrap_or_default().to_string_lossy().into_owned()).collect();
    writeln!(
        out,
        "\nwritten to {}: config.json, results.jsonl, games.csv, summary.json, summary.md, {}",
        display(dir),
        names.join(", ")
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_counts_parse() {
        assert_eq!(parse_players("3..6").unwrap().0, vec![3, 4, 5, 6]);
        assert_eq!(parse_players("3..=4").unwrap().0, vec![3, 4]);
        assert_eq!(parse_players("5").unwrap().0, vec![5]);
        assert_eq!(parse_players("3,5").unwrap().0, vec![3, 5]);
        assert!(parse_players("6..3").is_err());
        assert!(parse_players("3,3").is_err());
        assert!(parse_players("x").is_err());
    }
}
