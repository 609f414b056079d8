//! `sleuth generate`: a random game played by the rules, from a seed.

use crate::input::write_to;
use crate::Outcome;
use anyhow::{bail, Context as _};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sleuth_core::generate::{try_generate, DeckChoice, GenConfig, GenError, Generated};
use std::io::{self, Write};
use std::path::PathBuf;

/// The most suggestions a generated game may have (a file of about 10 MB).
pub const MAX_SUGGESTIONS: usize = 100_000;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The deck: 'classic', 'master', or category sizes such as '3,3,4'.
    #[arg(long, default_value = "classic", value_parser = parse_deck)]
    deck: DeckChoice,
    /// The number of players.
    #[arg(long, default_value_t = 6)]
    players: usize,
    /// Write a bystander's view (public events only) instead of the first player's.
    #[arg(long)]
    bystander: bool,
    /// How many suggestions to play.
    #[arg(long, default_value_t = 20)]
    suggestions: usize,
    /// How many cards to lay face up before dealing.
    #[arg(long, default_value_t = 0)]
    face_up: usize,
    /// The chance, after each suggestion, that someone accuses (0 to 1).
    #[arg(long, default_value_t = 0.0)]
    accusation_rate: f64,
    /// Write explicit hand sizes (the same as the default dealing rule).
    #[arg(long)]
    hand_sizes: bool,
    /// Corrupt one random event, which usually makes the history inconsistent.
    #[arg(long)]
    corrupt: bool,
    /// The random seed; the same seed and options always give the same game.
    #[arg(long)]
    seed: u64,
    /// Write the game to this file (atomically) instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Also write the true deal as JSON ({card: place}): to FILE, or to standard error without FILE.
    #[arg(long, value_name = "FILE")]
    deal: Option<Option<PathBuf>>,
}

/// Parses the `--deck` syntax; whether the deck can be played is
/// [`try_generate`]'s to say.
fn parse_deck(s: &str) -> Result<DeckChoice, String> {
    match s {
        "classic" => return Ok(DeckChoice::Classic),
        "master" => return Ok(DeckChoice::Master),
        _ => {}
    }
    let sizes: Result<Vec<usize>, _> = s.split(',').map(|x| x.trim().parse::<usize>()).collect();
    sizes.map(DeckChoice::Custom).map_err(|_| "expected 'classic', 'master' or category sizes such as '6,6,9'".into())
}

/// The option a configuration error is about.
fn culprit(e: &GenError) -> Option<&'static str> {
    Some(match e {
        GenError::Players(_) => "--players",
        GenError::FaceUp { .. } => "--face-up",
        GenError::AccusationRate(_) => "--accusation-rate",
        GenError::NoCategories
        | GenError::TooManyCategories(_)
        | GenError::EmptyCategory(_)
        | GenError::TooManyCards(_) => "--deck",
        _ => return None,
    })
}

fn config(args: &Args) -> anyhow::Result<GenConfig> {
    if args.suggestions > MAX_SUGGESTIONS {
        bail!("--suggestions {}: at most {MAX_SUGGESTIONS} are supported", args.suggestions);
    }
    let mut cfg = GenConfig::new(args.deck.clone(), args.players, !args.bystander, args.suggestions);
    cfg.face_up = args.face_up;
    cfg.accusation_rate = args.accusation_rate;
    cfg.explicit_hand_sizes = args.hand_sizes;
    cfg.corrupt = args.corrupt;
    Ok(cfg)
}

/// The game for a configuration and seed, as the bench and tests make them.
///
/// # Errors
/// [`GenError`] when the configuration cannot make a game.
pub fn generate_seeded(cfg: &GenConfig, seed: u64) -> Result<Generated, GenError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    try_generate(cfg, &mut rng)
}

pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let cfg = config(args)?;
    let generated = generate_seeded(&cfg, args.seed).map_err(|e| match culprit(&e) {
        Some(option) => anyhow::anyhow!("{option}: {e}"),
        None => anyhow::anyhow!(e),
    })?;
    let deal = serde_json::to_string(&generated.deal)? + "\n";
    match &args.deal {
        Some(Some(path)) => write_to(Some(path), &deal, out)?,
        Some(None) => io::stderr().lock().write_all(deal.as_bytes()).context("cannot write to standard error")?,
        None => {}
    }
    write_to(args.output.as_deref(), &generated.file.to_json(), out)?;
    Ok(Outcome::Success)
}
