//! Runs the count and the whole analysis on generated states, for
//! instruction counts under `valgrind --tool=callgrind` (machine-independent,
//! unlike times on a shared machine).
//!
//! Usage: count_modes DECK PLAYERS observer|bystander SUGGESTIONS SEEDS [none|count|whole|both]
//!
//! `none` only generates the states, `count` runs `count_marginals`,
//! `whole` runs `count_with_case_files` (what the analysis runs), `both`
//! (default) runs the two one after the other per state: with
//! `--dump-before` and `--dump-after` on both functions, every state's two
//! costs land in their own dumps (see `count_modes_ir.sh` beside this file).

use sleuth_testkit::states;

use sleuth_core::count::count_marginals;
use sleuth_core::count::profile::{count_with_case_files_by, Counter};
use sleuth_core::CountOptions;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some((states, rest)) = states::from_args(&args) else {
        eprintln!("usage: count_modes DECK PLAYERS observer|bystander SUGGESTIONS SEEDS [none|count|whole|both]");
        std::process::exit(2);
    };
    let mode = rest.first().map(String::as_str).unwrap_or("both");
    let mut sum = 0u128;
    for (_, p) in states {
        if mode == "count" || mode == "both" {
            sum = sum.wrapping_add(count_marginals(&p, &CountOptions::default()).expect("counts").total);
        }
        if mode == "whole" || mode == "both" {
            sum = sum.wrapping_add(
                count_with_case_files_by(&p, Counter::Auto, &CountOptions::default())
                    .expect("counts")
                    .expect("the chosen counter counts")
                    .0
                    .total,
            );
        }
    }
    println!("{sum}");
}
