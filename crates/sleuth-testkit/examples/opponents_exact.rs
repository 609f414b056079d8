//! How often the opponents' progress is exact (every deal weighed, not a
//! sample) under the default budget, and what that costs: the estimate
//! in process with the default `exact_views` and with 0 (always sampling),
//! fastest of three each, on generated views.
//!
//! Usage: opponents_exact DECK PLAYERS observer SUGGESTIONS SEEDS

use rand::SeedableRng;
use sleuth_core::advice::{AdviceOptions, Position, ThreatBudget};
use sleuth_testkit::states;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some((games, _)) = states::games_from_args(&args) else {
        eprintln!("usage: opponents_exact DECK PLAYERS observer SUGGESTIONS SEEDS");
        std::process::exit(2);
    };
    let budget = AdviceOptions::default().threat_budget();
    let (mut states, mut exact) = (0, 0);
    let (mut ms, mut worst) = ([0.0f64; 2], [0.0f64; 2]);
    for (seed, game) in games {
        let pos = Position::new(&game).expect("a player's consistent view");
        for (k, exact_views) in [budget.exact_views, 0].into_iter().enumerate() {
            let budget = ThreatBudget { exact_views, ..budget };
            let mut fastest = f64::MAX;
            for _ in 0..3 {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                let start = Instant::now();
                let progress = pos.opponents_by_knowledge(budget, 0, &mut rng).expect("counts");
                fastest = fastest.min(start.elapsed().as_secs_f64() * 1e3);
                if k == 0 && progress.iter().any(|o| o.exact) {
                    exact += 1;
                }
            }
            ms[k] += fastest;
            worst[k] = worst[k].max(fastest);
        }
        states += 1;
    }
    exact /= 3;
    println!(
        "{exact} of {states} states exact; the estimate {:.1} ms in all (worst {:.2}), always sampling {:.1} (worst {:.2})",
        ms[0], worst[0], ms[1], worst[1]
    );
}
