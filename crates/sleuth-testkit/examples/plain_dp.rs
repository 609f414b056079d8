//! An independent exact counter (issue 20's judge, reproduced): a plain
//! card-order DP, no symmetry (see `sleuth_testkit::plain_counter`). Prints the
//! number of consistent deals and every card-place marginal as exact
//! integers, with the key names of `sleuth analyze --json` (`models`,
//! `places`, `models_by_place`), so that the two can be compared.
//!
//! ```sh
//! cargo build --release -p sleuth-testkit --example plain_dp
//! target/release/examples/plain_dp GAME.json
//! ```

use sleuth_testkit::plain_counter;

use sleuth_core::Game;
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: plain_dp GAME.json");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let game = match Game::from_json(&text) {
        Ok(game) => game,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    match plain_counter::count(&game) {
        Ok(counts) => {
            print!("{}", to_json(&game, &counts));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{path}: {e}");
            ExitCode::FAILURE
        }
    }
}

fn to_json(game: &Game, counts: &plain_counter::PlainCounts) -> String {
    let deck = game.deck();
    let places: Vec<String> =
        game.players().map(|p| game.player_id(p).to_string()).chain(["case_file".to_string()]).collect();
    let by_place: serde_json::Map<String, serde_json::Value> = deck
        .cards()
        .map(|c| {
            let row = places
                .iter()
                .zip(&counts.marginal[c.index()])
                .map(|(place, n)| (place.clone(), serde_json::Value::String(n.to_string())))
                .collect();
            (deck.id(c).to_string(), serde_json::Value::Object(row))
        })
        .collect();
    let out = serde_json::json!({
        "models": counts.total.to_string(),
        "method": "plain card-order DP",
        "places": places,
        "models_by_place": by_place,
        "states": counts.states,
    });
    format!("{out}\n")
}
