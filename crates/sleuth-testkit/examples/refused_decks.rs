//! Random custom decks the exact counter refuses: draws `N` games as
//! `plain_dp_side_by_side --random-decks` does (`sleuth_testkit::random_deck`), from
//! seed `SEED`, counts each within `MAX_STATES` (default: the counter's
//! default), prints a line per game (name, `ok` or `refused`, seconds,
//! states or the error) and writes the refused games to `DIR`, to run
//! other counters on them.
//!
//! ```sh
//! cargo build --release -p sleuth-testkit --example refused_decks --example plain_dp
//! target/release/examples/refused_decks 77 150 /tmp/refused 20000000
//! for f in /tmp/refused/*.json; do timeout 60 target/release/examples/plain_dp $f >/dev/null && echo $f; done
//! ```
//!
//! (At the old limit, 20 million, 27 of
//! these 150 were refused and the plain DP counted 10 of them in a minute.)

use rand::SeedableRng;
use sleuth_core::count::count_marginals;
use sleuth_core::generate::{try_generate, DeckChoice, GenConfig};
use sleuth_core::CountOptions;
use sleuth_core::{CountProblem, Game};
use sleuth_testkit::random_deck::RandomDeck;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(seed), Some(n), Some(dir)) =
        (args.get(1).and_then(|s| s.parse().ok()), args.get(2).and_then(|s| s.parse().ok()), args.get(3))
    else {
        eprintln!("usage: refused_decks SEED N DIR [MAX_STATES]");
        return ExitCode::from(2);
    };
    let mut options = CountOptions::new();
    if let Some(limit) = args.get(4).and_then(|s| s.parse().ok()) {
        options = options.max_states(limit);
    }
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("{dir}: {e}");
        return ExitCode::FAILURE;
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut drawn = 0;
    while drawn < n {
        let Some(d) = RandomDeck::draw(&mut rng) else { continue };
        let mut cfg = GenConfig::new(DeckChoice::Custom(d.sizes.clone()), d.players, !d.bystander, d.suggestions);
        cfg.face_up = d.face_up;
        let Ok(generated) = try_generate(&cfg, &mut rand_chacha::ChaCha8Rng::seed_from_u64(d.seed)) else {
            continue;
        };
        drawn += 1;
        let view = if d.bystander { "b" } else { "o" };
        let name = format!("{}_{}_{view}_{}_{}", d.deck().replace(',', "-"), d.players, d.suggestions, d.seed);
        let game = Game::new(&generated.file).expect("generated games are valid");
        let start = Instant::now();
        let counted = count_marginals(&CountProblem::new(&game), &options);
        let secs = start.elapsed().as_secs_f64();
        match counted {
            Ok(c) => println!("{name}\tok\t{secs:.1}\t{} states", c.states),
            Err(e) => {
                println!("{name}\trefused\t{secs:.1}\t{e}");
                let path = format!("{dir}/{name}.json");
                let text = serde_json::to_string(&generated.file).expect("a game file serialises");
                if let Err(e) = std::fs::write(&path, text) {
                    eprintln!("{path}: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
    }
    ExitCode::SUCCESS
}
