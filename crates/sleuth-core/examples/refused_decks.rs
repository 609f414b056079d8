//! Random custom decks the exact counter refuses: draws `N` games the way
//! `plain_dp_side_by_side --random-decks` does (1 to 12 categories of 2 to
//! 9 cards, 2 to 10 players, either view, 5 to 30 suggestions, up to two
//! face-up cards) from seed `SEED`, counts each, prints a line per game
//! (name, `ok` or `refused`, seconds, states or the error) and writes the
//! refused games to `DIR`, to run other counters on them.
//!
//! ```sh
//! cargo build --release -p sleuth-core --example refused_decks --example plain_dp
//! SLEUTH_MAX_STATES=20000000 target/release/examples/refused_decks 77 150 /tmp/refused
//! for f in /tmp/refused/*.json; do timeout 60 target/release/examples/plain_dp $f >/dev/null && echo $f; done
//! ```
//!
//! (ARCHITECTURE.md, "The state limit": at the old limit, 20 million, 27 of
//! these 150 were refused and the plain DP counted 10 of them in a minute.)

use rand::{Rng, SeedableRng};
use sleuth_core::count::count_marginals;
use sleuth_core::generate::{try_generate, DeckChoice, GenConfig};
use sleuth_core::{Game, Problem};
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(seed), Some(n), Some(dir)) =
        (args.get(1).and_then(|s| s.parse().ok()), args.get(2).and_then(|s| s.parse().ok()), args.get(3))
    else {
        eprintln!("usage: refused_decks SEED N DIR");
        return ExitCode::from(2);
    };
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("{dir}: {e}");
        return ExitCode::FAILURE;
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut drawn = 0;
    while drawn < n {
        let categories = rng.gen_range(1..=12);
        let sizes: Vec<usize> = (0..categories).map(|_| rng.gen_range(2..=9)).collect();
        let dealt = sizes.iter().sum::<usize>() - categories;
        if dealt < 2 || dealt + categories > 64 {
            continue;
        }
        let players = rng.gen_range(2..=10.min(dealt));
        let face_up = rng.gen_range(0..=2).min(dealt - players);
        let (bystander, suggestions) = (rng.gen_bool(0.5), rng.gen_range(5..=30));
        let game_seed = rng.gen_range(0..1000u64);
        let mut cfg = GenConfig::new(DeckChoice::Custom(sizes.clone()), players, !bystander, suggestions);
        cfg.face_up = face_up;
        let Ok(generated) = try_generate(&cfg, &mut rand_chacha::ChaCha8Rng::seed_from_u64(game_seed)) else {
            continue;
        };
        drawn += 1;
        let deck: Vec<String> = sizes.iter().map(usize::to_string).collect();
        let view = if bystander { "b" } else { "o" };
        let name = format!("{}_{players}_{view}_{suggestions}_{game_seed}", deck.join("-"));
        let game = Game::new(&generated.file).expect("generated games are valid");
        let start = Instant::now();
        let counted = count_marginals(&Problem::new(&game));
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
