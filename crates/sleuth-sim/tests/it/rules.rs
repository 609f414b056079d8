//! The rules: who refutes, who is out, who wins, when the game stops.

use crate::support::{card, cards, Scripted, Step};
use sleuth_core::generate::DeckChoice;
use sleuth_core::model::Suggestion;
use sleuth_core::{CardSet, Deck, Event, Game, Player};
use sleuth_sim::{deal_rng, deck_from_choice, play, play_deal, Agent, Deal, End, GameConfig, MoveKind, SimError};

fn p(i: usize) -> Player {
    Player::new(i)
}

/// Classic, 4 players (hands 5 5 4 4), case file mu kn ha.
fn deal4(deck: &Deck) -> Deal {
    let hands = vec![
        cards(deck, &["pl", "ca", "lo", "di", "ki"]),
        cards(deck, &["gr", "re", "ba", "co", "bi"]),
        cards(deck, &["pe", "ro", "li", "st"]),
        cards(deck, &["sc", "wh", "pi", "wr"]),
    ];
    Deal::new(deck, cards(deck, &["mu", "kn", "ha"]), CardSet::EMPTY, hands).unwrap()
}

/// Classic, 3 players (hands of 6), case file mu kn ha.
fn deal3(deck: &Deck) -> Deal {
    let hands = vec![
        cards(deck, &["pl", "gr", "ca", "re", "lo", "di"]),
        cards(deck, &["pe", "sc", "ro", "pi", "ki", "ba"]),
        cards(deck, &["wh", "wr", "co", "bi", "li", "st"]),
    ];
    Deal::new(deck, cards(deck, &["mu", "kn", "ha"]), CardSet::EMPTY, hands).unwrap()
}

fn boxed(agents: Vec<Scripted>) -> Vec<Box<dyn Agent>> {
    agents.into_iter().map(|a| Box::new(a) as Box<dyn Agent>).collect()
}

fn suggestion(e: &Event) -> &Suggestion {
    match e {
        Event::Suggestion(s) => s,
        Event::Accusation(a) => panic!("expected a suggestion, got {a:?}"),
    }
}

#[test]
fn the_first_holder_clockwise_refutes_with_wrap_around() {
    let deck = Deck::classic();
    let c = |ids: &[&str]| cards(&deck, ids);
    let case = c(&["mu", "kn", "ha"]);
    let mut scripts = vec![
        Scripted::new(vec![Step::Suggest(c(&["pl", "ca", "lo"])), Step::Suggest(c(&["sc", "wr", "ha"]))], case),
        Scripted::new(vec![Step::Suggest(c(&["sc", "ro", "ha"]))], case),
        Scripted::new(vec![Step::Suggest(c(&["gr", "kn", "ha"]))], case),
        Scripted::new(vec![Step::Suggest(c(&["pl", "re", "st"]))], case),
    ];
    scripts[3].show_preference = vec![card(&deck, "wr")];
    let calls: Vec<_> = scripts.iter().map(|s| s.calls.clone()).collect();
    let mut config = GameConfig::new(deck.clone(), 4);
    config.max_rounds = 2;
    let record = play_deal(&config, deal4(&deck), &mut boxed(scripts), 1).unwrap();

    let expect = [
        (0, ["pl", "ca", "lo"], None, None), // the suggester holds them all: nobody refutes
        (1, ["sc", "ro", "ha"], Some(2), Some("ro")), // p2 (ro) before p3 (sc)
        (2, ["gr", "kn", "ha"], Some(1), Some("gr")), // p3, p0 pass; wraps round to p1
        (3, ["pl", "re", "st"], Some(0), Some("pl")), // wraps to seat 0 first
        (0, ["sc", "wr", "ha"], Some(3), Some("wr")), // p3 holds two and chooses wr
    ];
    assert_eq!(record.events.len(), 8);
    for (e, (by, ids, refuter, shown)) in record.events.iter().zip(expect) {
        let s = suggestion(e);
        assert_eq!(s.by, p(by));
        assert_eq!(s.cards, c(&ids));
        assert_eq!(s.refuted_by, refuter.map(p));
        assert_eq!(s.shown, shown.map(|id| card(&deck, id)));
    }
    for e in &record.events[5..] {
        // The case file: nobody else can refute.
        assert_eq!(suggestion(e).refuted_by, None);
    }
    for e in &record.events {
        let s = suggestion(e);
        assert_ne!(s.refuted_by, Some(s.by), "the suggester never refutes");
    }
    // Only p3 had a choice to make, once; single candidates are shown unasked.
    assert!(calls[0].lock().unwrap().is_empty());
    assert!(calls[1].lock().unwrap().is_empty());
    assert!(calls[2].lock().unwrap().is_empty());
    let p3 = calls[3].lock().unwrap().clone();
    assert_eq!(p3.len(), 1);
    assert_eq!(p3[0].me, p(3));
    assert_eq!(p3[0].suggester, p(0));
    assert_eq!(p3[0].suggestion, c(&["sc", "wr", "ha"]));
    assert_eq!(p3[0].candidates, c(&["sc", "wr"]));
    assert_eq!(p3[0].events_seen, 4, "the refuter's view does not yet hold the suggestion");
    assert_eq!((record.end, record.winner, record.rounds, record.turns), (End::TurnLimit, None, 2, 8));
}

#[test]
fn a_player_who_is_out_still_refutes_and_never_plays_again() {
    let deck = Deck::classic();
    let c = |ids: &[&str]| cards(&deck, ids);
    let case = c(&["mu", "kn", "ha"]);
    let scripts = vec![
        // Wrong, then (if it were ever asked again) right.
        Scripted::new(vec![Step::Accuse(c(&["pl", "kn", "ha"])), Step::Accuse(case)], case),
        Scripted::new(vec![Step::Suggest(c(&["gr", "kn", "ha"]))], case),
        Scripted::new(vec![Step::Suggest(c(&["pl", "ca", "ha"]))], case),
    ];
    let calls = scripts[0].calls.clone();
    let mut config = GameConfig::new(deck.clone(), 3);
    config.max_rounds = 3;
    let record = play_deal(&config, deal3(&deck), &mut boxed(scripts), 2).unwrap();

    match &record.events[0] {
        Event::Accusation(a) => assert_eq!((a.by, a.correct), (p(0), false)),
        e => panic!("expected p0's accusation, got {e:?}"),
    }
    let s1 = suggestion(&record.events[1]);
    assert_eq!((s1.by, s1.refuted_by, s1.shown), (p(1), Some(p(0)), Some(card(&deck, "gr"))));
    let s2 = suggestion(&record.events[2]);
    assert_eq!((s2.by, s2.refuted_by), (p(2), Some(p(0))));
    assert_eq!(calls.lock().unwrap().len(), 1, "the out player still chooses what to show");
    // p0 never acted again: its correct accusation was never asked for.
    let by_p0 = record.events[1..].iter().filter(|e| match e {
        Event::Suggestion(s) => s.by == p(0),
        Event::Accusation(a) => a.by == p(0),
    });
    assert_eq!(by_p0.count(), 0);
    assert_eq!((record.end, record.winner, record.turns, record.events.len()), (End::TurnLimit, None, 7, 7));
}

#[test]
fn the_last_player_standing_wins() {
    let deck = Deck::classic();
    let c = |ids: &[&str]| cards(&deck, ids);
    let case = c(&["mu", "kn", "ha"]);
    let scripts = vec![
        Scripted::new(vec![Step::Accuse(c(&["pl", "kn", "ha"]))], case),
        Scripted::new(vec![Step::Accuse(c(&["mu", "ca", "ha"]))], case),
        Scripted::new(vec![], case),
    ];
    let record = play_deal(&GameConfig::new(deck.clone(), 3), deal3(&deck), &mut boxed(scripts), 3).unwrap();
    assert_eq!((record.end, record.winner, record.turns, record.rounds), (End::LastStanding, Some(p(2)), 2, 1));
    assert_eq!(record.accusations().filter(|a| !a.correct).count(), 2);

    // Two players: one wrong accusation decides it.
    let mut config = GameConfig::new(deck.clone(), 2);
    config.max_rounds = 5;
    let deal = Deal::random(&deck, 2, 0, &mut deal_rng(4)).unwrap();
    let wrong = wrong_accusation(&deck, deal.case_file);
    let scripts = vec![Scripted::new(vec![Step::Accuse(wrong)], wrong), Scripted::new(vec![], wrong)];
    let record = play_deal(&config, deal, &mut boxed(scripts), 4).unwrap();
    assert_eq!((record.end, record.winner), (End::LastStanding, Some(p(1))));
}

/// The case file with its first card replaced by another of its category.
fn wrong_accusation(deck: &Deck, case: CardSet) -> CardSet {
    let first = case.first_card().unwrap();
    let other = (deck.category_cards(deck.category(first)) - case).first_card().unwrap();
    (case - CardSet::single(first)) | CardSet::single(other)
}

#[test]
fn a_correct_accusation_wins_at_once_before_or_after_suggesting() {
    let deck = Deck::classic();
    let c = |ids: &[&str]| cards(&deck, ids);
    let case = c(&["mu", "kn", "ha"]);
    let other = c(&["pl", "ca", "lo"]);
    let scripts = || {
        vec![
            Scripted::new(vec![], other),
            Scripted::new(vec![Step::Suggest(c(&["gr", "ro", "st"])), Step::Accuse(case)], other),
            Scripted::new(vec![], other),
        ]
    };
    // After its suggestion, in the same turn.
    let config = GameConfig::new(deck.clone(), 3);
    let record = play_deal(&config, deal3(&deck), &mut boxed(scripts()), 5).unwrap();
    assert_eq!((record.end, record.winner, record.turns, record.events.len()), (End::Solved, Some(p(1)), 2, 3));
    match record.events.last().unwrap() {
        Event::Accusation(a) => assert_eq!((a.by, a.cards, a.correct), (p(1), case, true)),
        e => panic!("expected an accusation, got {e:?}"),
    }
    // Without accusations after suggesting, it comes at the start of the next turn.
    let config = GameConfig { accuse_after_suggestion: false, ..config };
    let record = play_deal(&config, deal3(&deck), &mut boxed(scripts()), 5).unwrap();
    assert_eq!((record.end, record.winner, record.turns, record.events.len()), (End::Solved, Some(p(1)), 5, 5));
    assert!(matches!(record.events[3], Event::Suggestion(Suggestion { by, .. }) if by == p(0)));
    // Declining after suggesting, then accusing before suggesting next turn.
    let scripts = vec![
        Scripted::new(vec![], other),
        Scripted::new(vec![Step::Suggest(c(&["gr", "ro", "st"])), Step::Pass, Step::Accuse(case)], other),
        Scripted::new(vec![], other),
    ];
    let config = GameConfig::new(deck.clone(), 3);
    let again = play_deal(&config, deal3(&deck), &mut boxed(scripts), 5).unwrap();
    assert_eq!(again, record);
}

#[test]
fn the_turn_limit_ends_the_game_without_a_winner() {
    let deck = Deck::classic();
    let any = cards(&deck, &["pl", "ca", "lo"]);
    let mut config = GameConfig::new(deck, 3);
    config.max_rounds = 7;
    let mut agents = boxed((0..3).map(|_| Scripted::new(vec![], any)).collect());
    let record = play(&config, &mut agents, 6).unwrap();
    assert_eq!((record.end, record.winner, record.rounds, record.turns), (End::TurnLimit, None, 7, 21));
    assert_eq!(record.suggestions(), 21);
    assert_eq!(record.winner_agent(), None);
}

#[test]
fn illegal_moves_are_errors() {
    let deck = Deck::classic();
    let c = |ids: &[&str]| cards(&deck, ids);
    let config = GameConfig::new(deck.clone(), 3);
    let two_suspects = c(&["mu", "pl", "ha"]);
    let scripts = vec![Scripted::new(vec![], two_suspects), Scripted::new(vec![], two_suspects)];
    let mut agents = boxed(scripts);
    agents.push(Box::new(Scripted::new(vec![], two_suspects)));
    let err = play(&config, &mut agents, 7).unwrap_err();
    assert!(matches!(&err, SimError::IllegalMove { seat: 0, kind: MoveKind::Suggestion, .. }), "{err}");
    assert!(err.to_string().contains("2 cards of category suspect"), "{err}");

    let no_room = c(&["mu", "kn"]);
    let scripts = (0..3).map(|_| Scripted::new(vec![Step::Accuse(no_room)], c(&["mu", "kn", "ha"]))).collect();
    let err = play(&config, &mut boxed(scripts), 7).unwrap_err();
    assert!(matches!(err, SimError::IllegalMove { seat: 0, kind: MoveKind::Accusation, .. }), "{err}");

    // p1 holds pe and ro of p0's suggestion but shows a card it does not hold.
    let mut scripts: Vec<_> = (0..3).map(|_| Scripted::new(vec![], c(&["pe", "ro", "ha"]))).collect();
    scripts[1].bad_show = Some(card(&deck, "mu"));
    let err = play_deal(&config, deal3(&deck), &mut boxed(scripts), 7).unwrap_err();
    assert!(matches!(err, SimError::IllegalMove { seat: 1, kind: MoveKind::Refutation, .. }), "{err}");

    let err = play(&config, &mut boxed(vec![Scripted::new(vec![], no_room)]), 7).unwrap_err();
    assert!(matches!(err, SimError::Setup(_)), "{err}");
}

#[test]
fn scripted_deals_are_checked() {
    let deck = Deck::classic();
    let d = deal4(&deck);
    let mut hands = d.hands.clone();
    hands.swap(0, 3); // sizes 4 5 4 5: not the default rule
    assert!(Deal::new(&deck, d.case_file, CardSet::EMPTY, hands).is_err());
    let two_suspects = cards(&deck, &["mu", "pl", "ha"]);
    assert!(Deal::new(&deck, two_suspects, CardSet::EMPTY, d.hands.clone()).is_err());
    let mut hands = d.hands.clone();
    hands[3].insert(card(&deck, "mu")); // in the case file and a hand
    assert!(Deal::new(&deck, d.case_file, CardSet::EMPTY, hands).is_err());
    let mut hands = d.hands.clone();
    hands[0].remove(card(&deck, "pl")); // nowhere
    assert!(Deal::new(&deck, d.case_file, CardSet::EMPTY, hands).is_err());
    assert!(Deal::new(&deck, d.case_file, CardSet::EMPTY, d.hands.clone()).is_ok());
    let config = GameConfig::new(deck.clone(), 3);
    let err = play_deal(&config, d, &mut boxed((0..3).map(|_| Scripted::new(vec![], two_suspects)).collect()), 1);
    assert!(matches!(err, Err(SimError::Setup(_))));
}

#[test]
fn random_deals_follow_the_dealing_rule() {
    for (choice, players, face_up) in [
        (DeckChoice::Classic, 4, 0),
        (DeckChoice::Classic, 5, 3),
        (DeckChoice::Master, 10, 0),
        (DeckChoice::Custom(vec![3, 4, 2, 3]), 3, 1),
    ] {
        let deck = deck_from_choice(&choice).unwrap();
        for seed in 0..20 {
            let deal = Deal::random(&deck, players, face_up, &mut deal_rng(seed)).unwrap();
            // Deal::new checks the partition, the case file and the hand sizes.
            let again = Deal::new(&deck, deal.case_file, deal.face_up, deal.hands.clone()).unwrap();
            assert_eq!(again, deal);
            assert_eq!(deal.face_up.len(), face_up);
            assert!(deal.hands[0].len() >= deal.hands[players - 1].len());
        }
    }
    assert!(Deal::random(&Deck::classic(), 3, 19, &mut deal_rng(0)).is_err());
    assert!(Deal::random(&Deck::classic(), 1, 0, &mut deal_rng(0)).is_err());
    assert!(Deal::random(&Deck::classic(), 11, 0, &mut deal_rng(0)).is_err());
    assert!(deck_from_choice(&DeckChoice::Custom(vec![3, 0])).is_err());
}

#[test]
fn even_hands_lay_the_rest_face_up() {
    let config = GameConfig::new(Deck::classic(), 4).with_even_hands();
    assert_eq!(config.face_up, 2);
    let record = play(&config, &mut crate::support::exact_agents(4), 11).unwrap();
    assert_eq!(record.deal.face_up.len(), 2);
    assert!(record.deal.hands.iter().all(|h| h.len() == 4));
    let file = record.game_file_for(Some(p(2)));
    assert_eq!(file.face_up.len(), 2);
    assert_eq!(file.hand_sizes, None);
    let game = Game::new(&file).unwrap();
    assert_eq!(game.face_up(), record.deal.face_up);
}
