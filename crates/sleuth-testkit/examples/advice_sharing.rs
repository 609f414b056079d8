//! Times the exact evaluation of a ranking's suggestions two ways on
//! generated player views, and checks that they agree: shared (one count
//! split by answer class, as `Position::rank_suggestions` evaluates) and
//! one count per answer (`Position::evaluate_one_by_one`, the reference the
//! property tests hold the shared one to). Issue 57 asks the first to be ten
//! times faster than counting again for every answer.
//!
//! Usage: advice_sharing DECK PLAYERS observer SUGGESTIONS SEEDS
//!
//! One line per state (milliseconds, in process, single thread), then the
//! totals and medians.

use sleuth_core::advice::Position;
use sleuth_testkit::states;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some((games, _)) = states::games_from_args(&args) else {
        eprintln!("usage: advice_sharing DECK PLAYERS observer SUGGESTIONS SEEDS");
        std::process::exit(2);
    };
    let (mut shared_ms, mut alone_ms) = (Vec::new(), Vec::new());
    for (seed, game) in games {
        let pos = Position::new(&game).expect("a player's consistent view");
        let start = Instant::now();
        let ranked = pos.rank_suggestions(sleuth_core::advice::AdviceOptions::default().shortlist).expect("counts");
        let shared = start.elapsed().as_secs_f64() * 1e3;
        let start = Instant::now();
        for eval in &ranked {
            let alone = pos.evaluate_one_by_one(eval.cards).expect("counts");
            assert_eq!(&alone, eval, "seed {seed}: the two evaluations differ");
        }
        let alone = start.elapsed().as_secs_f64() * 1e3;
        println!(
            "seed {seed}: {} suggestions, shared {shared:.2} ms, one count per answer {alone:.2} ms, {:.2}x",
            ranked.len(),
            alone / shared
        );
        shared_ms.push(shared);
        alone_ms.push(alone);
    }
    if shared_ms.is_empty() {
        return;
    }
    let total = |v: &[f64]| v.iter().sum::<f64>();
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let ratio = total(&alone_ms) / total(&shared_ms);
    println!(
        "{} states: shared {:.1} ms in all (median {:.2}), one count per answer {:.1} ms (median {:.2}): {ratio:.2}x in all",
        shared_ms.len(),
        total(&shared_ms),
        median(&mut shared_ms.clone()),
        total(&alone_ms),
        median(&mut alone_ms.clone()),
    );
}
