//! Same seed, same game; different seeds, different games.

use crate::support::{exact_agents, mixed_agents, random_agents};
use sleuth_core::generate::DeckChoice;
use sleuth_core::Deck;
use sleuth_sim::{deck_from_choice, game_seed, play, play_many, Agent, ExactAgent, GameConfig, RandomAgent};

#[test]
fn the_same_seed_gives_the_same_game() {
    for (deck, players) in [(Deck::classic(), 4), (Deck::classic(), 6), (Deck::master(), 5)] {
        let config = GameConfig::new(deck, players);
        for make in [exact_agents, random_agents, mixed_agents] {
            for seed in [0, 17, u64::MAX] {
                let a = play(&config, &mut make(players), seed).unwrap();
                let b = play(&config, &mut make(players), seed).unwrap();
                assert_eq!(a, b);
            }
        }
    }
}

#[test]
fn agents_reused_across_games_replay_identically() {
    let config = GameConfig::new(Deck::classic(), 4);
    let mut reused = mixed_agents(4);
    let first: Vec<_> = (0..5).map(|seed| play(&config, &mut reused, seed).unwrap()).collect();
    let again: Vec<_> = (0..5).rev().map(|seed| play(&config, &mut reused, seed).unwrap()).collect();
    for (a, b) in first.iter().zip(again.iter().rev()) {
        assert_eq!(a, b);
    }
}

#[test]
fn different_seeds_give_different_games() {
    let config = GameConfig::new(Deck::classic(), 4);
    let records: Vec<_> = (0..10).map(|seed| play(&config, &mut exact_agents(4), seed).unwrap()).collect();
    for i in 0..records.len() {
        for j in i + 1..records.len() {
            assert_ne!(records[i].deal, records[j].deal, "seeds {i} and {j}");
            assert_ne!(records[i].events, records[j].events, "seeds {i} and {j}");
        }
    }
}

#[test]
fn agent_streams_are_independent_of_other_seats() {
    // Seat 0 plays the same random suggestions whoever sits in the other seats,
    // as long as the events it sees before its first turn are the same (none).
    let config = GameConfig::new(Deck::classic(), 3);
    let a = play(&config, &mut random_agents(3), 9).unwrap();
    let mut others = random_agents(1);
    others.extend(exact_agents(2));
    let b = play(&config, &mut others, 9).unwrap();
    assert_eq!(a.deal, b.deal);
    assert_eq!(a.events[0], b.events[0]);
}

#[test]
fn play_many_sums_up_seeded_games() {
    let deck = deck_from_choice(&DeckChoice::Classic).unwrap();
    let config = GameConfig::new(deck, 4);
    let factory = |game: usize, seat: sleuth_core::Player| -> Box<dyn Agent> {
        if (game + seat.index()) % 2 == 0 {
            Box::new(ExactAgent::new())
        } else {
            Box::new(RandomAgent::new())
        }
    };
    let stats = play_many(&config, 12, 99, factory).unwrap();
    assert_eq!(stats, play_many(&config, 12, 99, factory).unwrap());
    assert_eq!(stats.games, 12);
    assert_eq!(stats.solved + stats.last_standing + stats.no_winner, 12);
    assert_eq!(stats.wins_by_seat.iter().sum::<usize>(), 12 - stats.no_winner);
    assert_eq!(stats.wins_by_agent.values().sum::<usize>(), 12 - stats.no_winner);
    assert_eq!(stats.seats_by_agent.values().sum::<usize>(), 48);
    assert_eq!(stats.wrong_accusations, 0, "neither baseline agent guesses");
    assert!(stats.average_turns() > 4.0 && stats.average_rounds() >= 1.0);
    assert!(stats.win_rate("exact") > stats.win_rate("random"), "{stats:?}");

    // Game i of the series replays alone from its seed.
    let mut seats: Vec<Box<dyn Agent>> = (0..4).map(|s| factory(3, sleuth_core::Player::new(s))).collect();
    let game3 = play(&config, &mut seats, game_seed(99, 3)).unwrap();
    let mut one = sleuth_sim::Stats { wins_by_seat: vec![0; 4], ..Default::default() };
    one.add(&game3);
    assert_eq!(one.games, 1);
    assert_ne!(game_seed(99, 3), game_seed(99, 4));
    assert_ne!(game_seed(99, 3), game_seed(98, 3));
}
