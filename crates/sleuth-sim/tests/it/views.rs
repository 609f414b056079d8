//! No agent ever sees what it should not: its view is its own game file,
//! and every perspective is consistent with the true deal.

use crate::support::{exact_agents, mixed_agents, random_agents, Log, Recorder, Seen};
use sleuth_core::format::EventSpec;
use sleuth_core::generate::DeckChoice;
use sleuth_core::{Analysis, CardSet, Deck, Event, Game, Place, Player};
use sleuth_sim::{deck_from_choice, play, Agent, GameConfig, GameRecord};
use std::sync::{Arc, Mutex};

fn configs() -> Vec<GameConfig> {
    let custom = deck_from_choice(&DeckChoice::Custom(vec![4, 3, 5])).unwrap();
    vec![
        GameConfig::new(Deck::classic(), 3),
        GameConfig::new(Deck::classic(), 4).with_even_hands(),
        GameConfig::new(Deck::classic(), 6),
        GameConfig { max_rounds: 40, ..GameConfig::new(Deck::master(), 7) },
        GameConfig { max_rounds: 30, ..GameConfig::new(custom, 3) },
    ]
}

fn recorded(agents: Vec<Box<dyn Agent>>) -> (Vec<Box<dyn Agent>>, Log) {
    let log = Arc::new(Mutex::new(Vec::new()));
    let agents = agents
        .into_iter()
        .enumerate()
        .map(|(seat, inner)| Box::new(Recorder { inner, seat, log: log.clone() }) as Box<dyn Agent>)
        .collect();
    (agents, log)
}

/// Checks one recorded view against the record, independently of how the
/// simulator built it.
fn check_view(record: &GameRecord, seen: &Seen) {
    let me = Player::new(seen.seat);
    let deck = &record.deck;
    assert_eq!(seen.me, me);
    assert_eq!(seen.hand, record.deal.hands[seen.seat]);
    // The view is exactly this player's game file so far...
    let k = seen.file.events.len();
    assert_eq!(seen.file, record.game_file_prefix(Some(me), k), "seat {} at event {k}", seen.seat);
    // ...and its game is that file validated.
    assert_eq!(seen.game, Game::new(&seen.file).unwrap());
    // Spelled out: own hand, face-up cards, and shown cards only when involved.
    assert_eq!(seen.file.me.as_deref(), Some(record.players[seen.seat].as_str()));
    assert_eq!(seen.file.hand.as_ref().unwrap(), &deck.ids(record.deal.hands[seen.seat]));
    assert_eq!(seen.file.face_up, deck.ids(record.deal.face_up));
    assert_eq!(seen.file.hand_sizes, None);
    for (spec, truth) in seen.file.events.iter().zip(&record.events) {
        match (spec, truth) {
            (EventSpec::Suggestion(s), Event::Suggestion(t)) => {
                assert_eq!(s.by, record.players[t.by.index()]);
                assert_eq!(s.cards, deck.ids(t.cards));
                assert_eq!(s.refuted_by, t.refuted_by.map(|r| record.players[r.index()].clone()));
                let involved = t.by == me || t.refuted_by == Some(me);
                let expect = t.shown.filter(|_| involved).map(|c| deck.id(c).to_string());
                assert_eq!(s.shown, expect);
            }
            (EventSpec::Accusation(a), Event::Accusation(t)) => {
                assert_eq!((a.by.as_str(), a.correct), (record.players[t.by.index()].as_str(), t.correct));
                assert_eq!(a.cards, deck.ids(t.cards));
            }
            (s, t) => panic!("event kinds differ: {s:?} vs {t:?}"),
        }
    }
    match seen.call {
        "new_game" => assert_eq!(k, 0),
        // A refuter is asked before the suggestion is recorded.
        "show" => assert!(matches!(&record.events[k], Event::Suggestion(s) if s.refuted_by == Some(me))),
        "suggest" => assert!(k == 0 || !matches!(&record.events[k - 1], Event::Suggestion(s) if s.by == me)),
        "accuse" => {}
        other => panic!("unknown call {other}"),
    }
}

#[test]
fn every_view_equals_its_own_game_file() {
    let mut views = 0;
    for config in configs() {
        let n = config.players.len();
        for (seed, make) in [(1, exact_agents as fn(usize) -> _), (2, random_agents), (3, mixed_agents)] {
            let (mut agents, log) = recorded(make(n));
            let record = play(&config, &mut agents, seed).unwrap();
            let log = log.lock().unwrap();
            for seen in log.iter() {
                check_view(&record, seen);
            }
            // Every seat saw the start, and refuters with a choice were asked.
            for seat in 0..n {
                assert!(log.iter().any(|s| s.seat == seat && s.call == "new_game"));
            }
            views += log.len();
        }
    }
    assert!(views > 1000, "{views} views checked");
}

/// The true deal fits every perspective, and the exact analysis of each
/// gives the true case file (and every card's true place) a chance.
fn check_consistent(record: &GameRecord) {
    let places = record.deal.places(&record.deck);
    let observers = (0..record.players.len()).map(|i| Some(Player::new(i))).chain([None]);
    for observer in observers {
        let game = record.game_for(observer).unwrap();
        assert!(game.fits(&places), "observer {observer:?}, seed {}", record.seed);
        let analysis = Analysis::new(&game).unwrap();
        assert!(analysis.is_consistent());
        for card in record.deck.cards() {
            if let Some(place) = record.deal.place_of(card) {
                assert!(analysis.count(card, place) > 0);
            }
        }
        let truth: CardSet = record.deal.case_file;
        let found = analysis.case_files().find(|(cards, _)| cards.iter().copied().collect::<CardSet>() == truth);
        assert!(matches!(found, Some((_, n)) if n > 0), "observer {observer:?}, seed {}", record.seed);
        let p = record.deal.case_file.iter().map(|c| analysis.probability(c, Place::CaseFile)).product::<f64>();
        assert!(p > 0.0);
    }
}

#[test]
fn every_perspective_fits_the_true_deal() {
    for config in configs() {
        let n = config.players.len();
        for seed in 0..3 {
            for make in [exact_agents as fn(usize) -> _, random_agents, mixed_agents] {
                let record = play(&config, &mut make(n), 100 + seed).unwrap();
                check_consistent(&record);
            }
        }
    }
}
