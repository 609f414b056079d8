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

#[test]
#[ignore]
fn sat_profile() {
    use sleuth_sim::agents::SatKnowledge;
    for (deck, n) in [(Deck::classic(), 4), (Deck::classic(), 6), (Deck::master(), 6)] {
        let config = GameConfig::new(deck, n);
        let mut updates = 0;
        let mut queries = 0;
        let mut unsat = 0;
        let mut solve = std::time::Duration::ZERO;
        let mut dimacs = std::time::Duration::ZERO;
        let start = Instant::now();
        for seed in 0..5 {
            let record = play(&config, &mut agents(&vec!["exact"; n]), seed).unwrap();
            let mut k = SatKnowledge::new();
            for e in 0..=record.events.len() {
                let game =
                    sleuth_core::Game::new(&record.game_file_prefix(Some(sleuth_core::Player::new(0)), e)).unwrap();
                let t = Instant::now();
                let _ = sleuth_core::knowledge::to_dimacs(&game, &sleuth_core::Knowledge::new(&game));
                dimacs += t.elapsed();
                k.update(&game);
                updates += 1;
            }
            queries += k.queries();
            unsat += k.proofs();
            solve += k.solve_time();
        }
        println!(
            "{n} players: {updates} updates, {queries} queries ({unsat} unsat), {:?} (dimacs {:?}, solving {solve:?})",
            start.elapsed(),
            dimacs
        );
    }
}
