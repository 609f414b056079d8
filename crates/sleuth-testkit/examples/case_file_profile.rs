//! The case-file part of the analysis on generated states, one line per
//! state: the time of the count and of the count with the case files
//! (fastest of `REPEAT` runs each, default 5), and which path the case
//! files took.
//!
//! Usage: case_file_profile DECK PLAYERS observer|bystander SUGGESTIONS SEEDS [MIN_RATIO]

use sleuth_testkit::states;

use sleuth_core::count::count_marginals;
use sleuth_core::count::profile::{count_with_case_files_by, Counter};
use sleuth_core::CountOptions;
use std::time::Instant;

/// The fastest of `n` runs of `f`, in ms.
fn fastest(n: usize, mut f: impl FnMut()) -> f64 {
    (0..n)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e3
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some((states, rest)) = states::from_args(&args) else {
        eprintln!("usage: case_file_profile DECK PLAYERS observer|bystander SUGGESTIONS SEEDS [MIN_RATIO]");
        std::process::exit(2);
    };
    let min_ratio: f64 = rest.first().map_or(0.0, |s| s.parse().expect("min ratio"));
    let repeat: usize = std::env::var("REPEAT").map_or(5, |s| s.parse().expect("REPEAT: a number"));
    for (seed, p) in states {
        let c = count_marginals(&p, &CountOptions::default()).expect("counts");
        let count_ms = fastest(repeat, || {
            count_marginals(&p, &CountOptions::default()).expect("counts");
        });
        let whole_ms = fastest(repeat, || {
            count_with_case_files_by(&p, Counter::Auto, &CountOptions::default())
                .expect("counts")
                .expect("the chosen counter counts");
        });
        let ratio = whole_ms / count_ms;
        if ratio >= min_ratio {
            let files = count_with_case_files_by(&p, Counter::Auto, &CountOptions::default())
                .expect("counts")
                .expect("the chosen counter counts")
                .1
                .map(|f| f.len());
            println!(
                "seed {seed}: count {count_ms:.3} ms ({} states), whole {whole_ms:.3} ms, ratio {ratio:.2}, case files {files:?}",
                c.states
            );
        }
    }
}
