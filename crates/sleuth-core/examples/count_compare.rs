//! Runs each counter on generated states, one line per state: time and
//! states of the card-outer DP, of the players-outer counter and of the
//! one `count_marginals` picks (a tool for tuning the choice between them).
//!
//! Usage: count_compare DECK PLAYERS observer|bystander SUGGESTIONS SEEDS [moves]
//!
//! With `moves`, only the players-outer counter's states and moves.

use rand::SeedableRng;
use sleuth_core::count::{count_marginals_by, players_outer_cost, Counter};
use sleuth_core::generate::{try_generate, DeckChoice, GenConfig};
use sleuth_core::{Game, Problem};
use std::time::Instant;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 6 {
        eprintln!("usage: count_compare DECK PLAYERS observer|bystander SUGGESTIONS SEEDS");
        std::process::exit(2);
    }
    let deck = if a[1] == "master" { DeckChoice::Master } else { DeckChoice::Classic };
    let players: usize = a[2].parse().expect("players");
    let observer = a[3] == "observer";
    let sugg: usize = a[4].parse().expect("suggestions");
    let (from, seeds): (u64, u64) = match a[5].split_once("..") {
        Some((x, y)) => (x.parse().expect("seed"), y.parse().expect("seed")),
        None => (0, a[5].parse().expect("seeds")),
    };
    let cfg = GenConfig::new(deck, players, observer, sugg);
    for seed in from..seeds {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let game = Game::new(&try_generate(&cfg, &mut rng).expect("generates").file).expect("valid");
        let p = Problem::new(&game);
        let mut line = format!("seed {seed}");
        if a.get(6).is_some_and(|x| x == "moves") {
            println!("{line} | players-outer (states, moves, estimate, card bound) {:?}", players_outer_cost(&p));
            continue;
        }
        let mut totals = Vec::new();
        line += &format!(" | cost {:?}", players_outer_cost(&p));
        for counter in [Counter::CardOuter, Counter::PlayersOuter, Counter::Auto] {
            let t = Instant::now();
            let c = count_marginals_by(&p, counter).expect("counts");
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
