//! The exact agent solves games: it only ever accuses when certain, and is right.

use crate::support::exact_agents;
use sleuth_core::count::count_marginals;
use sleuth_core::generate::DeckChoice;
use sleuth_core::CountOptions;
use sleuth_core::{Analysis, CardSet, CountProblem, Deck, Event, Game, Place, Player};
use sleuth_sim::agents::certain_case_file;
use sleuth_sim::{deck_from_choice, play, End, GameConfig, GameRecord};

/// The game was won by a correct accusation, the only accusation made, and
/// the winner's own file shows it was certain just before.
fn check_solved(record: &GameRecord) {
    let ctx = format!("seed {}, {} players", record.seed, record.players.len());
    assert_eq!(record.end, End::Solved, "{ctx}");
    let winner = record.winner.expect("a winner");
    assert_eq!(record.accusations().count(), 1, "{ctx}");
    match record.events.last() {
        Some(Event::Accusation(a)) => {
            assert_eq!((a.by, a.correct, a.cards), (winner, true, record.deal.case_file), "{ctx}");
        }
        e => panic!("{ctx}: the last event is {e:?}"),
    }
    assert!(record.rounds < 200, "{ctx}");
    // The winner's perspective validates, and was already certain before accusing.
    let file = record.game_file_for(Some(winner));
    let game = Game::new(&file).unwrap();
    assert_eq!(game.events().len(), record.events.len());
    let before = Game::new(&record.game_file_prefix(Some(winner), record.events.len() - 1)).unwrap();
    let analysis = Analysis::new(&before).unwrap();
    let files: Vec<_> = analysis.case_files().collect();
    assert_eq!(files.len(), 1, "{ctx}");
    assert_eq!(files[0].0.iter().copied().collect::<CardSet>(), record.deal.case_file, "{ctx}");
    for c in record.deal.case_file {
        assert_eq!(analysis.probability(c, Place::CaseFile), 1.0, "{ctx}");
    }
}

#[test]
fn exact_agents_solve_classic_games_with_3_to_6_players() {
    let mut turns = 0;
    for players in 3..=6 {
        let config = GameConfig::new(Deck::classic(), players);
        for seed in 0..6 {
            let record = play(&config, &mut exact_agents(players), 1000 + seed).unwrap();
            check_solved(&record);
            turns += record.turns;
        }
    }
    // 24 games; a classic game between exact agents takes a few rounds.
    assert!(turns < 24 * 60, "{turns} turns in 24 games");
}

#[test]
fn exact_agents_solve_other_decks_and_face_up_cards() {
    let custom = deck_from_choice(&DeckChoice::Custom(vec![3, 4, 2, 5])).unwrap();
    let configs = [
        GameConfig::new(Deck::master(), 4),
        GameConfig::new(Deck::master(), 10),
        GameConfig::new(Deck::classic(), 5).with_even_hands(),
        GameConfig::new(custom.clone(), 3),
        GameConfig::new(custom, 2),
    ];
    for config in configs {
        for seed in 0..2 {
            let record = play(&config, &mut exact_agents(config.players.len()), 2000 + seed).unwrap();
            check_solved(&record);
        }
    }
}

#[test]
fn certainty_from_counts_agrees_with_the_analysis() {
    let mut certain = 0;
    for players in [3, 5] {
        let config = GameConfig::new(Deck::classic(), players);
        let record = play(&config, &mut exact_agents(players), 3000 + players as u64).unwrap();
        for seat in 0..players {
            for k in 0..=record.events.len() {
                let game = Game::new(&record.game_file_prefix(Some(Player::new(seat)), k)).unwrap();
                let counts = count_marginals(&CountProblem::new(&game), &CountOptions::default()).unwrap();
                let analysis = Analysis::new(&game).unwrap();
                let files: Vec<_> = analysis.case_files().collect();
                let expect = match files.as_slice() {
                    [(cards, n)] if *n == analysis.consistent_deals() => {
                        Some(cards.iter().copied().collect::<CardSet>())
                    }
                    _ => None,
                };
                assert_eq!(certain_case_file(&game, &counts), expect, "seat {seat}, {k} events");
                certain += usize::from(expect.is_some());
            }
        }
    }
    assert!(certain > 0);
}
