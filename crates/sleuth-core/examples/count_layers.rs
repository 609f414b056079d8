//! Per layer of the forward pass in each named card order: its states and
//! its estimate (a tool for judging the estimate layer by layer).
//!
//! Usage: count_layers DECK PLAYERS observer|bystander SUGGESTIONS SEEDS ORDER...

mod states;

use sleuth_core::count::order_layers;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some((states, names)) = states::from_args(&args) else {
        eprintln!("usage: count_layers DECK PLAYERS observer|bystander SUGGESTIONS SEEDS ORDER...");
        std::process::exit(2);
    };
    for (seed, p) in states {
        for name in &names {
            let layers = order_layers(&p, name).unwrap_or_default();
            let line: Vec<String> = layers.iter().map(|(s, e)| format!("{s}/{e:.0}")).collect();
            println!("seed {seed} {name} {}", line.join(" "));
        }
    }
}
