//! The seed agents (notepad, group4, sat) in whole seeded games.

use sleuth_core::Deck;
use sleuth_sim::{agent_by_name, play, Agent, GameConfig, Stats};
use std::time::Instant;

fn agents(names: &[&str]) -> Vec<Box<dyn Agent>> {
    names.iter().map(|n| agent_by_name(n).unwrap()).collect()
}

/// Win rates of a few line-ups; run with
/// `cargo test -p sleuth-sim --test it agents::win_rates -- --ignored --nocapture`.
#[test]
#[ignore]
fn win_rates() {
    let lineups: &[(&str, Deck, &[&str])] = &[
        ("notepad x4", Deck::classic(), &["notepad"; 4]),
        ("group4 x4", Deck::classic(), &["group4"; 4]),
        ("sat x4", Deck::classic(), &["sat"; 4]),
        ("mix6", Deck::classic(), &["random", "notepad", "group4", "sat", "exact", "notepad"]),
    ];
    for (label, deck, names) in lineups {
        let config = GameConfig::new(deck.clone(), names.len());
        let mut stats = Stats::default();
        let start = Instant::now();
        let games = 40;
        for seed in 0..games {
            let record = play(&config, &mut agents(names), seed).unwrap();
            stats.add(&record);
        }
        println!("{label}: {:?} in {:?}", stats, start.elapsed());
    }
}
