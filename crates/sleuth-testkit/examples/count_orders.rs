//! Runs the card-outer DP in the usual card order, in the order that frees
//! players early and in the one `count_marginals` picks, on generated
//! states, one line per state: the estimates that pick between the orders,
//! and states and time of each (a tool for tuning that choice).
//!
//! Usage: count_orders DECK PLAYERS observer|bystander SUGGESTIONS SEEDS [usual|freeing|chosen]
//!
//! With an order, only that one runs (to count its instructions).

use sleuth_testkit::states;

use sleuth_core::count::profile::{count_marginals_by, order_estimates, Counter};
use sleuth_core::CountOptions;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some((states, rest)) = states::from_args(&args) else {
        eprintln!("usage: count_orders DECK PLAYERS observer|bystander SUGGESTIONS SEEDS [usual|freeing|chosen]");
        std::process::exit(2);
    };
    let only = rest.first().map(|o| match o.as_str() {
        "usual" => Counter::CardOuterUsual,
        "freeing" => Counter::CardOuterFreeing,
        _ => Counter::CardOuter,
    });
    for (seed, p) in states {
        if let Some(counter) = only {
            let c = count_marginals_by(&p, counter, &CountOptions::default())
                .expect("counts")
                .expect("card-outer always counts");
            println!("seed {seed} {counter:?} {} states", c.states);
            continue;
        }
        let t = Instant::now();
        let est = order_estimates(&p);
        let est_ms = t.elapsed().as_secs_f64() * 1e3;
        let (u, f, bound) = est.unwrap_or((0.0, 0.0, 0.0));
        let mut line = format!("seed {seed} est {u:.0} {f:.0} bound {bound:.0} est_ms {est_ms:.3}");
        let mut totals = Vec::new();
        for counter in [Counter::CardOuterUsual, Counter::CardOuterFreeing, Counter::CardOuter] {
            let t = Instant::now();
            let c = count_marginals_by(&p, counter, &CountOptions::default())
                .expect("counts")
                .expect("card-outer always counts");
            let ms = t.elapsed().as_secs_f64() * 1e3;
            line += &format!(" | {counter:?} {} {ms:.3}", c.states);
            totals.push((c.total, c.marginal));
        }
        assert!(totals.windows(2).all(|w| w[0] == w[1]), "seed {seed}: counters disagree");
        println!("{line}");
    }
}
