//! How often a player is certain of the case file after its own next
//! suggestion, by how many case-file candidates it still had to rule out.
//!
//! ```sh
//! cargo run --release -p sleuth-sim --example solve_chance -- GAMES AGENT,AGENT,... [SEED]
//! ```
//!
//! Plays `GAMES` classic games with the listed agents (one seat each, seats
//! rotated every game). Before every suggestion whose suggester is not yet
//! certain, `open` is `Σ_k (candidates_k − 1)` of the suggester's exact view;
//! the table counts how many of those suggestions left the view certain.
//! `sleuth_core::advice::solve_chance` is this table for `sat` agents.

use sleuth_core::advice::{case_file_candidates, certain_case_file};
use sleuth_core::count::count_marginals;
use sleuth_core::CountOptions;
use sleuth_core::{CountProblem, Counts, Deck, Event, Game};
use sleuth_sim::{agent_by_name, game_seed, play, Agent, GameConfig, GameRecord};
use std::collections::BTreeMap;

/// `open` values from this one on are pooled.
const POOL: usize = 12;

fn analyse(record: &GameRecord, seat: sleuth_core::Player, events: usize) -> (Game, Counts) {
    let game = Game::new(&record.game_file_prefix(Some(seat), events)).expect("a recorded game is valid");
    let counts = count_marginals(&CountProblem::new(&game), &CountOptions::default()).expect("classic counts fit");
    (game, counts)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(300);
    let lineup: Vec<String> = args.get(2).map_or("sat,sat,sat", |s| s.as_str()).split(',').map(String::from).collect();
    let seed: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(4);
    let players = lineup.len();
    let config = GameConfig::new(Deck::classic(), players);
    // (agent, open) → (suggestions, certain after)
    let mut table: BTreeMap<(String, usize), (usize, usize)> = BTreeMap::new();
    for g in 0..games {
        let mut seats: Vec<Box<dyn Agent>> = (0..players)
            .map(|s| agent_by_name(&lineup[(s + g) % players]).unwrap_or_else(|| panic!("unknown agent")))
            .collect();
        let record = play(&config, &mut seats, game_seed(seed, g)).expect("a legal game");
        for (k, e) in record.events.iter().enumerate() {
            let Event::Suggestion(s) = e else { continue };
            let (before, counts) = analyse(&record, s.by, k);
            if certain_case_file(&before, &counts).is_some() {
                continue;
            }
            let open: usize = case_file_candidates(&before, &counts).iter().map(|n| n - 1).sum();
            let (after, counts) = analyse(&record, s.by, k + 1);
            let row = table.entry((record.agents[s.by.index()].clone(), open.min(POOL))).or_default();
            row.0 += 1;
            row.1 += usize::from(certain_case_file(&after, &counts).is_some());
        }
    }
    println!("{players} players, {games} games, lineup {lineup:?}, seed {seed}");
    for ((agent, open), (n, solved)) in table {
        let plus = if open == POOL { "+" } else { " " };
        println!("  {agent:8} open {open:2}{plus}: {solved:5} / {n:5} = {:.3}", solved as f64 / n as f64);
    }
}
