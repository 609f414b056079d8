//! Issue 19: repeated evidence is one piece of evidence, and explanations
//! of long histories stay cheap (counted in exact counts, not seconds).

use sleuth_core::count::count;
use sleuth_core::CountOptions;
use sleuth_core::{conflict, Analysis, CountProblem, Game, Knowledge};

fn game(events: &[String]) -> Game {
    let text = format!(
        r#"{{"version": 1, "deck": "classic", "players": ["a", "b", "c"], "me": "a",
            "hand": ["mu", "pl", "gr", "pe", "sc", "kn"], "events": [{}]}}"#,
        events.join(",")
    );
    Game::from_json(&text).expect("valid game")
}

const WRONG: &str = r#"{"accusation": {"by": "b", "cards": ["wh", "ca", "ha"], "correct": false}}"#;
const SUGGESTED: &str = r#"{"suggestion": {"by": "b", "cards": ["wh", "re", "lo"], "refuted_by": "c"}}"#;

#[test]
fn r19_repeated_events_are_one_constraint() {
    let once = game(&[WRONG.to_string(), SUGGESTED.to_string()]);
    let reference = Analysis::new(&once).expect("counts");
    for copies in [2, 116, 117, 1000] {
        let mut events = vec![WRONG.to_string(); copies];
        events.extend(vec![SUGGESTED.to_string(); copies]);
        let repeated = game(&events);
        assert_eq!(
            Knowledge::new(&repeated).constraints().len(),
            Knowledge::new(&once).constraints().len(),
            "{copies} copies compile to the constraints of one"
        );
        let a = Analysis::new(&repeated).unwrap_or_else(|e| panic!("{copies} copies: {e}"));
        assert_eq!(a.consistent_deals(), reference.consistent_deals(), "{copies} copies");
        for card in once.deck().cards() {
            for place in once.places() {
                assert_eq!(a.count(card, place), reference.count(card, place));
            }
        }
    }
}

/// Clauses that become equal only after propagation are merged too: two
/// accusations that differ in a card known to be elsewhere.
#[test]
fn r19_clauses_equal_after_propagation_are_merged() {
    let events: Vec<String> = (0..200)
        .map(|i| {
            // a holds mu..sc and kn, so "mu or pl or ... not in the case file" is decided;
            // each accusation differs only in a suspect a holds.
            let suspect = ["mu", "pl", "gr", "pe", "sc"][i % 5];
            format!(r#"{{"accusation": {{"by": "b", "cards": ["{suspect}", "ca", "ha"], "correct": false}}}}"#)
        })
        .collect();
    let g = game(&events);
    assert!(Analysis::new(&g).is_ok());
    assert!(count(&CountProblem::new(&g), &CountOptions::default()).expect("counts") > 0);
}

/// 20,000 events, one of them contradicting another: the conflict is those
/// two, found with a few dozen counts rather than one per event.
#[test]
fn r19_conflict_in_a_long_history() {
    let mut events: Vec<String> = Vec::new();
    let rooms = ["ha", "lo", "di", "ki", "ba", "co", "bi", "li", "st"];
    let weapons = ["ca", "re", "ro", "pi", "wr"];
    for i in 0..19_998 {
        let (w, r) = (weapons[i % 5], rooms[(i / 5) % 9]);
        events.push(format!(r#"{{"suggestion": {{"by": "b", "cards": ["wh", "{w}", "{r}"], "refuted_by": "c"}}}}"#));
    }
    // c holds nothing of wh, re, lo ... and yet the case file is wh, re, lo.
    events.insert(7_000, r#"{"suggestion": {"by": "b", "cards": ["wh", "re", "lo"], "refuted_by": "c"}}"#.into());
    events.push(r#"{"accusation": {"by": "c", "cards": ["wh", "re", "lo"], "correct": true}}"#.into());
    let g = game(&events);
    assert_eq!(g.events().len(), 20_000);
    let found = conflict(&g, &CountOptions::default()).expect("counts").expect("inconsistent");
    // The first suggestion of wh, re, lo refuted by c (index 1, since
    // i = 1 gives re and ha... the earliest equal one) and the accusation.
    let first = events.iter().position(|e| e.contains(r#"["wh", "re", "lo"], "refuted_by": "c""#)).unwrap();
    assert_eq!(found.events, vec![first, 19_999]);
    assert!(!found.hand);
}

/// Issue 59: repeated events count once in the advice too. A history with
/// every event said many times, in shuffled repeats after the first ones,
/// gives exactly the advice of the history said once (the opponents'
/// sampled views and the behaviour hint included: the same random draws),
/// and the position the advice works from holds each event once, so its
/// work grows with the distinct events, not with all of them.
#[test]
fn r59_advice_on_repeated_events_is_the_advice_on_them_once() {
    use crate::support::{big_game, game_of, rng};
    use rand::seq::SliceRandom;
    use sleuth_core::advice::{advise, AdviceOptions, Position};
    let options = AdviceOptions { samples: 6, tell_samples: 200, ..AdviceOptions::default() };
    let mut compared = 0;
    for i in 0..40 {
        let generated = big_game("r59_advice", i, i % 2 == 1, 25, 0.0);
        let once = game_of(&generated);
        if once.observer().is_none() || once.events().is_empty() {
            continue;
        }
        let mut file = generated.file.clone();
        let mut copies: Vec<_> = (0..5).flat_map(|_| file.events.clone()).collect();
        copies.shuffle(&mut rng("r59_advice_shuffle", i));
        file.events.extend(copies);
        let repeated = Game::new(&file).expect("valid");
        assert_eq!(repeated.events().len(), 6 * once.events().len());
        let position = Position::new(&repeated).expect("consistent");
        assert_eq!(position.game(), &once, "game {i}: the position holds each event once");
        assert_eq!(advise(&repeated, &options), advise(&once, &options), "game {i}");
        compared += 1;
    }
    assert!(compared >= 10, "{compared} games compared");
}
