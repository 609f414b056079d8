//! The player's accusation advice on play Sleuth did not generate: every
//! prefix of the SAT paper's sample game, and games whose opponents ask
//! about their own cards. In none may an accusation be urged whose exact
//! probability is below one half; every certain case file is urged; the
//! probability reported is the exact one of a most likely case file
//! (checked against the full list of case files from a second count).
//!
//! The own-card askers are a test double, not Sleuth: players who name
//! cards they hold to steer or to mislead. Where that behaviour comes from:
//! the agent seed article (`cluedo-agent-strategies.txt`, "Questioning":
//! padding questions with known cards "to confuse the other players",
//! including making them think "the cards we hold we don't ask about"), and
//! people steering the answer away from the cards they want to learn about.
//! Each of their questions names, in each category where they hold a card,
//! one of their own with a fixed chance, else a random card.

use rand::seq::{IteratorRandom, SliceRandom};
use rand::Rng;
use serde_json::{json, Value};
use sleuth_core::advice::{advise, AccuseReason, AdviceOptions, Position, EVEN_ODDS};
use sleuth_core::count::{case_files, count_marginals};
use sleuth_core::CountOptions;
use sleuth_core::{Card, CardSet, CountProblem, Game};

/// Options light enough for hundreds of positions (the rule is the same).
fn options() -> AdviceOptions {
    AdviceOptions { samples: 8, shortlist: 4, opponent_shortlist: 2, tell_samples: 200, ..AdviceOptions::default() }
}

/// The exact probability of the most likely case file, from the list of
/// every case file with its count.
fn mode_probability(game: &Game) -> f64 {
    let problem = CountProblem::new(game);
    let counts = count_marginals(&problem, &CountOptions::default()).expect("counts fit");
    let files = case_files(&problem, &counts, &CountOptions::default()).expect("case files fit");
    let best = files.iter().map(|(_, n)| n).max().expect("a consistent game has a case file");
    best as f64 / counts.total as f64
}

/// Checks the advice for `game`; returns whether it urged an accusation.
fn check_position(game: &Game, label: &str) -> bool {
    let advice = advise(game, &options()).expect("advice");
    let a = &advice.accusation;
    let mode = mode_probability(game);
    assert!(
        (a.probability - mode).abs() < 1e-12,
        "{label}: reported {} but the most likely case file has {mode}",
        a.probability
    );
    assert!(
        !a.accuse || a.certain || a.probability > EVEN_ODDS,
        "{label}: accuse now urged at exact probability {}",
        a.probability
    );
    if a.certain {
        assert!(a.accuse, "{label}: a certain case file must be urged");
        assert_eq!(a.reason, AccuseReason::Certain);
    } else if a.probability <= EVEN_ODDS {
        assert_eq!(a.reason, AccuseReason::BelowEvenOdds, "{label}");
    }
    if let Some(hint) = &advice.hint {
        // The hint never changes the accusation, and it names only
        // opponents whose play passed the check.
        for t in &hint.tells {
            assert!(hint.habitual.contains(&t.player) == (t.rate < 1.0), "{label}: {t:?}");
        }
    }
    a.accuse
}

fn prefix(file: &Value, n: usize) -> Game {
    let mut f = file.clone();
    f["events"] = Value::Array(file["events"].as_array().unwrap()[..n].to_vec());
    Game::from_json(&f.to_string()).expect("a prefix of a valid game is valid")
}

#[test]
fn no_prefix_of_the_seed_sample_game_urges_a_long_shot() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/seed-sat-sample.json");
    let file: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let n = file["events"].as_array().unwrap().len();
    let mut certain = 0;
    for k in 0..=n {
        let game = prefix(&file, k);
        check_position(&game, &format!("sample game, {k} events"));
        let advice = advise(&game, &options()).unwrap();
        certain += usize::from(advice.accusation.certain);
        if k == 12 {
            // The position of issue 17: once "accuse now" at 1.5 %.
            assert!(!advice.accusation.accuse && advice.accusation.probability < 0.1, "{:?}", advice.accusation);
        }
    }
    assert!(certain >= 2, "the sample game ends certain (before and after the accusation)");
}

/// A game of `players` in which every opponent of the observer (seat 0)
/// names one of its own cards, in each category where it holds one, with
/// chance `own` (with chance 0 it never names one); the observer asks at
/// random. Returns the game file.
fn own_card_askers(seed: u64, players: usize, own: f64, suggestions: usize) -> Value {
    let mut rng = crate::support::rng("own-card-askers", seed);
    let names: Vec<String> = (0..players).map(|i| format!("p{i}")).collect();
    let empty = json!({"version": 1, "deck": "classic", "players": names, "events": []});
    let game = Game::from_json(&empty.to_string()).unwrap();
    let deck = game.deck();
    let mut case = CardSet::EMPTY;
    for cat in deck.categories() {
        case.insert(deck.category_cards(cat).iter().choose(&mut rng).unwrap());
    }
    let mut rest: Vec<Card> = deck.cards().filter(|&c| !case.contains(c)).collect();
    rest.shuffle(&mut rng);
    let mut hands = vec![CardSet::EMPTY; players];
    for (i, c) in rest.into_iter().enumerate() {
        hands[i % players].insert(c);
    }
    let id = |c: Card| deck.id(c).to_string();
    let mut events = Vec::new();
    for t in 0..suggestions {
        let by = t % players;
        let mut cards = CardSet::EMPTY;
        for cat in deck.categories() {
            let all = deck.category_cards(cat);
            let mine = all & hands[by];
            let pick = if by != 0 && !mine.is_empty() && rng.gen_bool(own) {
                mine.iter().choose(&mut rng)
            } else if by != 0 && own == 0.0 {
                (all - hands[by]).iter().choose(&mut rng) // a chance of 0: one who avoids its own cards
            } else {
                all.iter().choose(&mut rng)
            };
            cards.insert(pick.unwrap());
        }
        let refuter = (1..players).map(|k| (by + k) % players).find(|&r| !(cards & hands[r]).is_empty());
        let mut e = json!({"by": names[by], "cards": cards.iter().map(id).collect::<Vec<_>>(), "refuted_by": null});
        if let Some(r) = refuter {
            e["refuted_by"] = json!(names[r]);
            if by == 0 || r == 0 {
                e["shown"] = json!(id((cards & hands[r]).iter().choose(&mut rng).unwrap()));
            }
        }
        events.push(json!({ "suggestion": e }));
    }
    json!({"version": 1, "deck": "classic", "players": names, "me": "p0",
           "hand": hands[0].iter().map(id).collect::<Vec<_>>(), "events": events})
}

#[test]
fn own_card_askers_never_lure_the_advice_into_a_long_shot() {
    let (mut positions, mut urged, mut certain) = (0, 0, 0);
    for seed in 0..6 {
        let players = 3 + (seed as usize % 4);
        let own = [0.5, 0.8, 1.0][seed as usize % 3];
        let file = own_card_askers(seed, players, own, 10 * players);
        let n = file["events"].as_array().unwrap().len();
        for k in 0..=n {
            let game = prefix(&file, k);
            let label = format!("own-card askers {seed} ({players} players, chance {own}), {k} events");
            urged += usize::from(check_position(&game, &label));
            certain += usize::from(Position::new(&game).unwrap().counts().total > 0 && mode_probability(&game) == 1.0);
            positions += 1;
        }
    }
    eprintln!("own-card askers: {positions} positions, {certain} certain, {urged} urged");
    assert!(certain > 0, "some games reach a certain case file, so the 'always urged' check bites");
}

#[test]
fn the_hint_does_not_believe_a_dozen_questions() {
    // Issue 17: after 12 turns of the sample game the old tells put 68 % on
    // a case file whose exact probability was 1.5 %. With the hint's prior
    // and check, a dozen questions show no habit.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/seed-sat-sample.json");
    let file: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let game = prefix(&file, 12);
    let pos = Position::new(&game).unwrap();
    let hint = pos.behaviour_hint(2000, &mut crate::support::rng("hint-dozen", 0)).unwrap();
    assert!(hint.habitual.is_empty() && hint.case_file.is_none(), "{hint:?}");
}

#[test]
fn the_habit_check_tells_own_card_askers_from_players_who_avoid_them() {
    // Opponents who name their own cards whenever they can fail the check;
    // opponents who never do (a chance of 0) pass it once enough is known.
    let (mut askers_flagged, mut avoiders_flagged, mut avoiders) = (0, 0, 0);
    for seed in 0..4 {
        for (own, flagged) in [(1.0, &mut askers_flagged), (0.0, &mut avoiders_flagged)] {
            let file = own_card_askers(100 + seed, 3, own, 45);
            let game = Game::from_json(&file.to_string()).unwrap();
            let pos = Position::new(&game).unwrap();
            let hint = pos.behaviour_hint(200, &mut crate::support::rng("habit", seed)).unwrap();
            *flagged += hint.habitual.len();
            if own == 0.0 {
                avoiders += hint.tells.iter().filter(|t| t.known >= 12).count();
            }
        }
    }
    assert_eq!(askers_flagged, 0, "an opponent who asks about its own cards is never read as avoiding them");
    assert!(
        avoiders > 0 && avoiders_flagged > 0,
        "avoiders with much evidence are recognised ({avoiders_flagged} of {avoiders})"
    );
}

#[test]
fn even_odds_are_not_better_than_even() {
    use sleuth_core::advice::better_than_even;
    assert!(!better_than_even(1, 2), "a coin flip is not worth going out on");
    assert!(!better_than_even(0, 0));
    assert!(!better_than_even(10_248, 20_496));
    assert!(better_than_even(10_249, 20_496));
    assert!(better_than_even(u128::MAX, u128::MAX), "a certain case file, without overflow");
    assert!(!better_than_even(u128::MAX / 2, u128::MAX));
}
