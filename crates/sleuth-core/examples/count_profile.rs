//! Times `count_marginals` on generated states, one line per state (a tool
//! for profiling the counter; `sleuth bench` is the benchmark of record).
//!
//! Usage: count_profile DECK PLAYERS observer|bystander SUGGESTIONS SEEDS [MIN_MS]

use rand::SeedableRng;
use sleuth_core::count::count_marginals;
use sleuth_core::generate::{try_generate, DeckChoice, GenConfig};
use sleuth_core::{Game, Problem};
use std::time::Instant;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 6 {
        eprintln!("usage: count_profile DECK PLAYERS observer|bystander SUGGESTIONS SEEDS [MIN_MS]");
        std::process::exit(2);
    }
    let deck = if a[1] == "master" { DeckChoice::Master } else { DeckChoice::Classic };
    let players: usize = a[2].parse().expect("players");
    let observer = a[3] == "observer";
    let sugg: usize = a[4].parse().expect("suggestions");
    // SEEDS: N (seeds 0..N) or A..B.
    let (from, seeds): (u64, u64) = match a[5].split_once("..") {
        Some((x, y)) => (x.parse().expect("seed"), y.parse().expect("seed")),
        None => (0, a[5].parse().expect("seeds")),
    };
    let min_ms: f64 = a.get(6).map_or(0.0, |s| s.parse().expect("min ms"));
    let cfg = GenConfig::new(deck, players, observer, sugg);
    let (mut worst, mut sum) = (0f64, 0f64);
    let mut states = 0usize;
    for seed in from..seeds {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let game = Game::new(&try_generate(&cfg, &mut rng).expect("generates").file).expect("valid");
        let p = Problem::new(&game);
        let t = Instant::now();
        let c = count_marginals(&p).expect("counts");
        let ms = t.elapsed().as_secs_f64() * 1e3;
        worst = worst.max(ms);
        states += c.states;
        sum += ms;
        if ms >= min_ms {
            println!("seed {seed}: {ms:.3} ms, {} states, total {}", c.states, c.total);
        }
    }
    let n = (seeds - from).max(1) as f64;
    println!("max {worst:.3} ms, mean {:.3} ms, mean states {:.0}", sum / n, states as f64 / n);
}
