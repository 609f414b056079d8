//! Quick win rates of `sleuth` against other agents, seats rotated.
//!
//! ```sh
//! cargo run --release -p sleuth-sim --example sleuth_vs -- PLAYERS GAMES AGENT[,AGENT...] [SEED]
//! ```
//!
//! With agents `a,b`, the seats are `sleuth` followed by the listed agents,
//! repeated to fill the table (`sleuth_vs 4 1000 exact` is one sleuth against
//! three exact agents); game `i` rotates the seats by `i`. Prints each
//! agent's win rate with a 95% Wilson interval, and the median milliseconds
//! per game.

use sleuth_core::advice::Objective;
use sleuth_core::Deck;
use sleuth_sim::agents::Tells;
use sleuth_sim::{agent_by_name, game_seed, play, Agent, GameConfig, SleuthAgent, Stats};
use std::time::Instant;

/// This thread's CPU time in milliseconds (Linux: /proc/thread-self/schedstat),
/// so that timings on a busy machine count only this thread's own work.
fn cpu_ms() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e6)
}

fn wilson(wins: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 0.0);
    }
    let (z, n, p) = (1.96f64, n as f64, wins as f64 / n as f64);
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / d;
    (c - h, c + h)
}

/// The agent called `name`; `sleuth` takes its settings from the
/// environment (`SLEUTH_SHORTLIST`, `SLEUTH_SAMPLES`, `SLEUTH_FOCUSED_UP_TO`,
/// `SLEUTH_OBJECTIVE`, `SLEUTH_LOOKAHEAD`, `SLEUTH_HIDE`, `SLEUTH_CERTAIN`;
/// `SLEUTH_TELLS` samples to read the checked tells, 0 for none,
/// `SLEUTH_TELL_WEIGHT` their prior's weight, `SLEUTH_TELL_NOGATE`) when set;
/// other names are the registry's.
fn make(name: &str) -> Box<dyn Agent> {
    if name == "sleuth" {
        let mut a = SleuthAgent::new();
        let env = |k: &str| std::env::var(k).ok();
        if let Some(v) = env("SLEUTH_SHORTLIST").and_then(|v| v.parse().ok()) {
            a.shortlist = v;
        }
        if let Some(v) = env("SLEUTH_SAMPLES").and_then(|v| v.parse().ok()) {
            a.samples = v;
        }
        if let Some(v) = env("SLEUTH_FOCUSED_UP_TO").and_then(|v| v.parse().ok()) {
            a.focused_up_to = v;
        }
        if let Some(v) = env("SLEUTH_TELLS").and_then(|v| v.parse().ok()) {
            a.tell_samples = v;
            a.tells = if v > 0 { Tells::Checked } else { Tells::Off };
        }
        if let Some(v) = env("SLEUTH_TELL_WEIGHT").and_then(|v| v.parse().ok()) {
            a.tell_weight = v;
        }
        if env("SLEUTH_TELL_NOGATE").is_some() {
            a.tell_gate = false;
        }
        if env("SLEUTH_HIDE").is_some() {
            a.hide = true;
        }
        if env("SLEUTH_CERTAIN").is_some() {
            a.accusing = sleuth_sim::agents::Accusing::Certain;
        }
        if env("SLEUTH_LOOKAHEAD").is_some() {
            a.lookahead = true;
        }
        a.objective = match env("SLEUTH_OBJECTIVE").as_deref() {
            Some("elimination") => Objective::Elimination,
            Some("end") => Objective::End,
            Some("deal") => Objective::Deal,
            Some("mixed") => Objective::Mixed,
            Some("ruledout") => Objective::RuledOut,
            Some("mode") => Objective::Mode,
            Some("endlikely") => Objective::EndThenLikely,
            Some("information") => Objective::Information,
            _ => a.objective,
        };
        return Box::new(a);
    }
    agent_by_name(name).unwrap_or_else(|| panic!("unknown agent {name}"))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let players: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(4);
    let games: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(200);
    let others: Vec<String> = args.get(3).map_or("exact", |s| s.as_str()).split(',').map(String::from).collect();
    let seed: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut lineup = vec![std::env::var("LEAD").unwrap_or_else(|_| "sleuth".into())];
    let mut i = 0;
    while lineup.len() < players {
        lineup.push(others[i % others.len()].clone());
        i += 1;
    }
    let config = GameConfig::new(Deck::classic(), players);
    let mut stats = Stats::default();
    let mut times = Vec::new();
    for g in 0..games {
        let mut seats: Vec<_> = (0..players).map(|s| make(&lineup[(s + g) % players])).collect();
        let (t, c) = (Instant::now(), cpu_ms());
        let record = play(&config, &mut seats, game_seed(seed, g)).expect("a legal game");
        let wall = t.elapsed().as_secs_f64() * 1e3;
        times.push(match (c, cpu_ms()) {
            (Some(a), Some(b)) => b - a,
            _ => wall,
        });
        stats.add(&record);
    }
    times.sort_by(f64::total_cmp);
    println!("{players} players, {games} games, lineup {lineup:?}, seed {seed}");
    for (name, &seats) in &stats.seats_by_agent {
        let wins = stats.wins_by_agent.get(name).copied().unwrap_or(0);
        let (lo, hi) = wilson(wins, seats);
        println!("  {name:8} {wins:6} wins / {seats:6} seats = {:.3}  [{lo:.3}, {hi:.3}]", wins as f64 / seats as f64);
    }
    println!(
        "  no winner {}, wrong accusations {}, avg turns {:.1}, median {:.2} ms/game (CPU time), max {:.2}",
        stats.no_winner,
        stats.wrong_accusations,
        stats.average_turns(),
        times[times.len() / 2],
        times[times.len() - 1]
    );
}
