//! `sleuth generate`: a random game played by the rules, from a seed.

use crate::input::write_to;
use crate::output::{json_object, json_str};
use crate::Outcome;
use anyhow::{bail, Context as _};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sleuth_core::generate::{generate, DeckChoice, GenConfig, Generated};
use sleuth_core::model::{MAX_CARDS, MAX_PLAYERS};
use std::io::{self, Write};
use std::path::PathBuf;

/// The most suggestions a generated game may have (a file of about 10 MB).
pub const MAX_SUGGESTIONS: usize = 100_000;

/// The most categories of a custom deck (card ids are `a0`, `b0`, ... `z0`).
const MAX_CATEGORIES: usize = 26;

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

fn parse_deck(s: &str) -> Result<DeckChoice, String> {
    match s {
        "classic" => return Ok(DeckChoice::Classic),
        "master" => return Ok(DeckChoice::Master),
        _ => {}
    }
    let sizes: Result<Vec<usize>, _> = s.split(',').map(|x| x.trim().parse::<usize>()).collect();
    let Ok(sizes) = sizes else {
        return Err("expected 'classic', 'master' or category sizes such as '6,6,9'".to_string());
    };
    if sizes.is_empty() || sizes.len() > MAX_CATEGORIES {
        return Err(format!("a deck has between 1 and {MAX_CATEGORIES} categories"));
    }
    if sizes.contains(&0) {
        return Err("every category needs at least one card".to_string());
    }
    let total: usize = sizes.iter().sum();
    if total > MAX_CARDS {
        return Err(format!("{total} cards; at most {MAX_CARDS} are supported"));
    }
    Ok(DeckChoice::Custom(sizes))
}

fn deck_sizes(deck: &DeckChoice) -> (usize, usize) {
    match deck {
        DeckChoice::Classic => (21, 3),
        DeckChoice::Master => (30, 3),
        DeckChoice::Custom(sizes) => (sizes.iter().sum(), sizes.len()),
    }
}

/// Checks what `sleuth_core::generate` would panic on or produce invalid games for.
fn config(args: &Args) -> anyhow::Result<GenConfig> {
    if !(2..=MAX_PLAYERS).contains(&args.players) {
        bail!("--players {}: between 2 and {MAX_PLAYERS} players are supported", args.players);
    }
    if args.suggestions > MAX_SUGGESTIONS {
        bail!("--suggestions {}: at most {MAX_SUGGESTIONS} are supported", args.suggestions);
    }
    let (cards, categories) = deck_sizes(&args.deck);
    let spare = cards - categories;
    if args.face_up > spare {
        bail!("--face-up {}: only {spare} cards are outside the case file", args.face_up);
    }
    if !(0.0..=1.0).contains(&args.accusation_rate) {
        bail!("--accusation-rate {}: must be between 0 and 1", args.accusation_rate);
    }
    let mut cfg = GenConfig::new(args.deck.clone(), args.players, !args.bystander, args.suggestions);
    cfg.face_up = args.face_up;
    cfg.accusation_rate = args.accusation_rate;
    cfg.explicit_hand_sizes = args.hand_sizes;
    cfg.corrupt = args.corrupt;
    Ok(cfg)
}

/// The game for a configuration and seed, as the bench and tests make them.
pub fn generate_seeded(cfg: &GenConfig, seed: u64) -> Generated {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    generate(cfg, &mut rng)
}

pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let cfg = config(args)?;
    let generated = generate_seeded(&cfg, args.seed);
    let deal = json_object(generated.deal.iter().map(|(card, place)| (card.clone(), json_str(place)))) + "\n";
    match &args.deal {
        Some(Some(path)) => write_to(Some(path), &deal, out)?,
        Some(None) => io::stderr().lock().write_all(deal.as_bytes()).context("cannot write to standard error")?,
        None => {}
    }
    write_to(args.output.as_deref(), &generated.file.to_json(), out)?;
    Ok(Outcome::Success)
}
