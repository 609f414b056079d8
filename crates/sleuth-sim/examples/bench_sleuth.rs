//! Times whole games between `sleuth` agents (the speed target of issue 5:
//! a six-player classic game in at most 50 ms median on one core).
//!
//! ```sh
//! cargo run --release -p sleuth-sim --example bench_sleuth -- [GAMES] [REPEAT]
//! ```
//!
//! For 3 to 6 players, plays `GAMES` seeded classic games (default 200)
//! between fresh `sleuth` agents in every seat, each game `REPEAT` times
//! (default 3; games are deterministic) keeping the fastest wall time, which
//! filters out interruptions by the operating system. Prints the median,
//! 95th percentile and maximum milliseconds per game, and the mean turns.

use sleuth_core::Deck;
use sleuth_sim::{game_seed, play, Agent, GameConfig, SleuthAgent};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(200);
    let repeat: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(3).max(1);
    println!("| players | games | median ms | p95 ms | max ms | mean turns |");
    println!("| ------: | ----: | --------: | -----: | -----: | ---------: |");
    for players in 3..=6 {
        let config = GameConfig::new(Deck::classic(), players);
        let mut times = Vec::with_capacity(games);
        let mut turns = 0;
        for g in 0..games {
            let mut best = f64::INFINITY;
            for _ in 0..repeat {
                let mut seats: Vec<Box<dyn Agent>> =
                    (0..players).map(|_| Box::new(SleuthAgent::new()) as Box<dyn Agent>).collect();
                let t = Instant::now();
                let record = play(&config, &mut seats, game_seed(5, g)).expect("a legal game");
                best = best.min(t.elapsed().as_secs_f64() * 1e3);
                turns += record.turns;
            }
            times.push(best);
        }
        times.sort_by(f64::total_cmp);
        let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
        println!(
            "| {players} | {games} | {:.2} | {:.2} | {:.2} | {:.1} |",
            at(0.5),
            at(0.95),
            times[times.len() - 1],
            turns as f64 / (games * repeat) as f64
        );
    }
}
