//! Runs one thing on generated states, for instruction counts under
//! `valgrind --tool=callgrind` (machine-independent, unlike times on a
//! shared machine): `none` (only generating the states), `count`
//! (`count_marginals`) or `whole` (`count_with_case_files`, what the
//! analysis runs). The difference from `none` is the work measured.
//!
//! Usage: count_modes DECK PLAYERS observer|bystander SUGGESTIONS SEEDS none|count|whole

mod states;

use sleuth_core::count::{count_marginals, count_with_case_files};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some((states, rest)) = states::from_args(&args) else {
        eprintln!("usage: count_modes DECK PLAYERS observer|bystander SUGGESTIONS SEEDS none|count|whole");
        std::process::exit(2);
    };
    let mode = rest.first().map(String::as_str).unwrap_or("whole");
    let mut sum = 0u128;
    for (_, p) in states {
        sum = sum.wrapping_add(match mode {
            "none" => 0,
            "count" => count_marginals(&p).expect("counts").total,
            _ => count_with_case_files(&p).expect("counts").0.total,
        });
    }
    println!("{sum}");
}
