//! Runs each counter on generated states, one line per state: time and
//! states of the card-outer DP, of the players-outer counter and of the
//! one `count_marginals` picks (a tool for tuning the choice between them).
//!
//! Usage: count_compare DECK PLAYERS observer|bystander SUGGESTIONS SEEDS [moves|whole]
//!
//! With `moves`, only the players-outer counter's states and moves; with
//! `whole`, each counter times the whole analysis (counts and case files).

use sleuth_testkit::states;

use sleuth_core::count::profile::{
    count_marginals_by, count_with_case_files_by, order_estimates, players_outer_cost, Counter,
};
use sleuth_core::CountOptions;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some((states, rest)) = states::from_args(&args) else {
        eprintln!("usage: count_compare DECK PLAYERS observer|bystander SUGGESTIONS SEEDS [moves|whole]");
        std::process::exit(2);
    };
    let moves_only = rest.first().is_some_and(|x| x == "moves");
    let whole = rest.first().is_some_and(|x| x == "whole");
    for (seed, p) in states {
        let mut line = format!("seed {seed}");
        if moves_only {
            println!("{line} | players-outer (states, moves, estimate, card bound) {:?}", players_outer_cost(&p));
            continue;
        }
        let mut totals = Vec::new();
        line += &format!(" | cost {:?} | orders {:?}", players_outer_cost(&p), order_estimates(&p));
        for counter in [Counter::CardOuter, Counter::PlayersOuter, Counter::Auto] {
            let t = Instant::now();
            let c = if whole {
                count_with_case_files_by(&p, counter, &CountOptions::default()).expect("counts").map(|(c, _)| c)
            } else {
                count_marginals_by(&p, counter, &CountOptions::default()).expect("counts")
            };
            let ms = t.elapsed().as_secs_f64() * 1e3;
            match c {
                Some(c) => {
                    line += &format!(" | {counter:?} {ms:.3} ms {} states", c.states);
                    totals.push(c.total);
                }
                None => line += &format!(" | {counter:?} {ms:.3} ms none"),
            }
        }
        assert!(totals.windows(2).all(|w| w[0] == w[1]), "seed {seed}: counters disagree");
        println!("{line}");
    }
}
