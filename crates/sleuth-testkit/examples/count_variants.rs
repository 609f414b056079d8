//! States of the card-outer DP's forward pass in several card orders, one
//! line per state: states, estimate and milliseconds per order (a tool
//! for comparing orders; `plan` times only the plan with its choice).
//!
//! Usage: count_variants DECK PLAYERS observer|bystander SUGGESTIONS SEEDS ORDER...

use sleuth_testkit::states;

use sleuth_core::count::profile::order_variant_states;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some((states, names)) = states::from_args(&args) else {
        eprintln!("usage: count_variants DECK PLAYERS observer|bystander SUGGESTIONS SEEDS ORDER...");
        std::process::exit(2);
    };
    for (seed, p) in states {
        let mut line = format!("seed {seed}");
        for name in &names {
            let t = std::time::Instant::now();
            let (s, e) = order_variant_states(&p, name).unwrap_or((0, 0.0));
            let ms = t.elapsed().as_secs_f64() * 1e3;
            line += &format!(" {name} {s} {e:.0} {ms:.3}");
        }
        println!("{line}");
    }
}
