//! Times `count_marginals` on generated states, one line per state (a tool
//! for profiling the counter; `sleuth bench` is the benchmark of record).
//!
//! Usage: count_profile DECK PLAYERS observer|bystander SUGGESTIONS SEEDS [MIN_MS]
//! (environment: `REPEAT=N` times each state N times and keeps the fastest)

use sleuth_testkit::states;

use sleuth_core::count::count_marginals;
use sleuth_core::CountOptions;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some((states, rest)) = states::from_args(&args) else {
        eprintln!("usage: count_profile DECK PLAYERS observer|bystander SUGGESTIONS SEEDS [MIN_MS]");
        std::process::exit(2);
    };
    let min_ms: f64 = rest.first().map_or(0.0, |s| s.parse().expect("min ms"));
    let repeat: usize = std::env::var("REPEAT").map_or(1, |s| s.parse().expect("REPEAT: a number"));
    let (mut worst, mut sum, mut n) = (0f64, 0f64, 0usize);
    let mut visited = 0usize;
    for (seed, p) in states {
        // Fastest of REPEAT runs (as `sleuth bench`), 1 by default.
        let mut ms = f64::INFINITY;
        let mut c = None;
        for _ in 0..repeat {
            let t = Instant::now();
            c = Some(count_marginals(&p, &CountOptions::default()).expect("counts"));
            ms = ms.min(t.elapsed().as_secs_f64() * 1e3);
        }
        let c = c.expect("at least one run");
        worst = worst.max(ms);
        visited += c.states;
        sum += ms;
        n += 1;
        if ms >= min_ms {
            println!("seed {seed}: {ms:.3} ms, {} states, total {}", c.states, c.total);
        }
    }
    let n = n.max(1) as f64;
    println!("max {worst:.3} ms, mean {:.3} ms, mean states {:.0}", sum / n, visited as f64 / n);
}
