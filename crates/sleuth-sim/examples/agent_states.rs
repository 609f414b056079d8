//! Game files from games played by agents other than Sleuth's own, for
//! timing the exact analysis on states no generator of ours made: random
//! suggestions (`sleuth generate`) spread over the deck, while players
//! narrow in on the case file, bluff with their own cards, or repeat what
//! others asked.
//!
//! ```sh
//! cargo run --release -p sleuth-sim --example agent_states -- DIR [GAMES] [SEED]
//! ```
//!
//! Plays `GAMES` (default 40) Master Detective games of 3 to 10 players,
//! each seat's agent drawn from [`LINEUP`] (no `sleuth` agent), and writes
//! into `DIR` the bystander's game file and seat 0's after every
//! [`EVERY`]-th event up to the [`LAST`]: `master-P-AGENTS-gG-eE-bystander.json` and
//! `…-observer.json`. The same arguments always write the same files.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sleuth_core::Deck;
use sleuth_sim::{agent_by_name, play, Agent, GameConfig, GameRecord};
use std::path::Path;

/// The strategies drawn from: every registered agent but Sleuth's own.
const LINEUP: [&str; 8] = ["random", "exact", "notepad", "group4", "sat", "minimax", "inference", "bluffer"];
/// A state is written after every this many events, up to [`LAST`] (later
/// states are mostly solved: long games are the random agents').
const EVERY: usize = 5;
const LAST: usize = 50;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(dir) = args.get(1) else {
        eprintln!("usage: agent_states DIR [GAMES] [SEED]");
        std::process::exit(2);
    };
    let games: u64 = args.get(2).map_or(40, |s| s.parse().expect("GAMES: a number"));
    let seed: u64 = args.get(3).map_or(0, |s| s.parse().expect("SEED: a number"));
    let dir = Path::new(dir);
    std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut written = 0;
    for g in 0..games {
        let players = 3 + (g as usize % 8);
        let names: Vec<&str> = (0..players).map(|_| LINEUP[rng.gen_range(0..LINEUP.len())]).collect();
        let mut agents: Vec<Box<dyn Agent>> =
            names.iter().map(|n| agent_by_name(n).expect("a registered agent")).collect();
        let config = GameConfig::new(Deck::master(), players);
        let record = play(&config, &mut agents, seed.wrapping_mul(1_000_003).wrapping_add(g)).expect("a game plays");
        let stem = format!("master-{players}-{}-g{g}", names.join(","));
        written += write_states(dir, &stem, &record);
    }
    eprintln!("{written} game files in {}", dir.display());
}

/// Writes the bystander's and seat 0's game files after every [`EVERY`]-th
/// event up to the [`LAST`]; returns how many files.
fn write_states(dir: &Path, stem: &str, record: &GameRecord) -> usize {
    let mut n = 0;
    for events in (EVERY..=record.events.len().min(LAST)).step_by(EVERY) {
        for (view, observer) in [("bystander", None), ("observer", Some(sleuth_core::Player::new(0)))] {
            let file = record.game_file_prefix(observer, events);
            let json = serde_json::to_string_pretty(&file).expect("a game file serialises");
            let path = dir.join(format!("{stem}-e{events}-{view}.json"));
            std::fs::write(&path, json).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            n += 1;
        }
    }
    n
}
