//! The contest-style opponents (minimax, inference, bluffer) in whole
//! seeded games: legal moves, clause notes that are true of the real deal
//! at every step, no repeated suggestion, accusations only when their notes
//! are certain (and then right), and the same game for the same seed.

use sleuth_core::{Deck, Event, Game, Player};
use sleuth_sim::agents::clauses::Clauses;
use sleuth_sim::{agent_by_name, game_seed, play, Agent, GameConfig, GameRecord};

const ENTRANTS: [&str; 3] = ["minimax", "inference", "bluffer"];

fn agents(names: &[&str]) -> Vec<Box<dyn Agent>> {
    names.iter().map(|n| agent_by_name(n).unwrap_or_else(|| panic!("no agent {n}"))).collect()
}

/// Every entrant and other strategies around the table.
fn lineup(players: usize, shift: usize) -> Vec<&'static str> {
    let pool = ["minimax", "inference", "bluffer", "exact", "sleuth", "notepad"];
    (0..players).map(|i| pool[(i + shift) % pool.len()]).collect()
}

fn check(record: &GameRecord) {
    let places = record.deal.places(&record.deck);
    for (seat, agent) in record.agents.iter().enumerate() {
        if !ENTRANTS.contains(&agent.as_str()) {
            continue;
        }
        let me = Player::new(seat);
        let ctx = |k: usize| format!("seed {}, {agent} in seat {seat}, after {k} events", record.seed);
        let mut own = Vec::new();
        for k in 0..=record.events.len() {
            let file = record.game_file_prefix(Some(me), k);
            let game = Game::new(&file).expect("the record's files validate");
            let notes = Clauses::of_view(&game);
            assert!(
                !notes.is_contradictory() && notes.holds_in(&places),
                "{}: {notes:?}\ndeal {:?}\nevents {:?}",
                ctx(k),
                places,
                &record.events[..k]
            );
            match record.events.get(k) {
                Some(Event::Suggestion(s)) if s.by == me => {
                    assert!(!own.contains(&s.cards), "{}: repeated a suggestion", ctx(k));
                    own.push(s.cards);
                }
                Some(Event::Accusation(a)) if a.by == me => {
                    assert_eq!(notes.certain(), Some(a.cards), "{}: accused without being certain", ctx(k));
                    assert!(a.correct, "{}", ctx(k));
                }
                _ => {}
            }
        }
    }
}

#[test]
fn entrants_play_sound_legal_games_at_every_table_size() {
    let mut wins = 0;
    for players in 3..=6 {
        let config = GameConfig::new(Deck::classic(), players);
        for g in 0..10 {
            let names = lineup(players, g);
            let record = play(&config, &mut agents(&names), game_seed(players as u64, g)).unwrap();
            check(&record);
            wins += usize::from(record.winner.is_some());
        }
    }
    // Games end with a winner: the entrants do solve cases.
    assert!(wins >= 30, "{wins} of 40 games had a winner");
}

#[test]
fn the_same_seed_gives_the_same_game_with_each_entrant() {
    let config = GameConfig::new(Deck::classic(), 4);
    for shift in 0..3 {
        let names = lineup(4, shift);
        let mut reused = agents(&names);
        let first: Vec<GameRecord> = (0..2).map(|s| play(&config, &mut reused, s).unwrap()).collect();
        for (s, a) in first.iter().enumerate() {
            assert_eq!(a, &play(&config, &mut agents(&names), s as u64).unwrap(), "{names:?}: seed {s}");
        }
        assert_ne!(first[0].events, first[1].events);
    }
}

#[test]
fn the_clause_notes_solve_an_undisproved_suggestion() {
    // Seat a (me) holds 6 cards; nobody disproves its Pl Ro Ki.
    let text = r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c"], "me": "a",
        "hand": ["gr", "mu", "kn", "ca", "ba", "bi"],
        "events": [{"suggestion": {"by": "a", "cards": ["pl", "ro", "ki"], "refuted_by": null}}]}"#;
    let game = Game::from_json(text).unwrap();
    let deck = game.deck();
    let notes = Clauses::of_view(&game);
    let want: sleuth_core::CardSet = ["pl", "ro", "ki"].iter().map(|c| deck.card(c).unwrap()).collect();
    assert_eq!(notes.certain(), Some(want));
    // Before it, 4 * 4 * 7 combinations are open.
    let before = Game::from_json(
        &text.replace(r#"{"suggestion": {"by": "a", "cards": ["pl", "ro", "ki"], "refuted_by": null}}"#, ""),
    )
    .unwrap();
    assert_eq!(Clauses::of_view(&before).solutions(), 4 * 4 * 7);
}
