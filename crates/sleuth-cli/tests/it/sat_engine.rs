//! The SAT engine (`sleuth notepad --engine sat`) against the exact engine: on
//! every card and place of generated games, the seed sample, and small custom
//! decks, `testLiteral` must say true exactly where the exact count says yes,
//! false where it says no, and unknown where it says maybe; with both methods
//! (plain `test_literal`, and skipping questions earlier models answer).

use crate::support::{classic_game, generated, sleuth, testdata, Scratch};
use expect_test::expect;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sleuth_core::generate::{generate, DeckChoice, GenConfig};
use sleuth_core::{Analysis, Game};

use sleuth_sim::sat as engine;

/// Compares the two engines on every cell; returns the number of maybes.
#[track_caller]
fn check(game: &Game, what: &str) -> usize {
    let exact = Analysis::new(game).expect("the exact count fits");
    let mut maybes = 0;
    for method in [engine::Method::Witnesses, engine::Method::TestLiteral] {
        let sat = engine::SatNotepad::with_method(game, method);
        assert_eq!(sat.is_consistent(), exact.is_consistent(), "{what}, {method:?}: consistency");
        if !exact.is_consistent() {
            return 0;
        }
        maybes = 0;
        for card in game.deck().cards() {
            for place in game.places() {
                let (e, s) = (exact.status(card, place), sat.status(card, place));
                assert_eq!(
                    s,
                    e,
                    "{what}, {method:?}: card {} at {}: sat says {:?}, exact says {:?}",
                    game.deck().id(card),
                    game.place_id(place),
                    sat.truth(card, place),
                    e
                );
                maybes += usize::from(e == sleuth_core::Status::Maybe);
            }
        }
    }
    maybes
}

fn generated_game(cfg: &GenConfig, seed: u64) -> Game {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let g = generate(cfg, &mut rng);
    Game::new(&g.file).expect("generated games are valid")
}

#[test]
fn agrees_with_the_exact_engine_on_generated_classic_games() {
    let (mut games, mut maybes, mut certain) = (0, 0, 0);
    for seed in 0..60u64 {
        let players = 3 + (seed % 4) as usize;
        let observer = seed % 3 != 0;
        let suggestions = (seed as usize * 37) % 61;
        let mut cfg = GenConfig::new(DeckChoice::Classic, players, observer, suggestions);
        cfg.accusation_rate = if seed % 2 == 0 { 0.05 } else { 0.0 };
        cfg.face_up = if players == 5 && seed % 5 == 0 { 3 } else { 0 };
        let game = generated_game(&cfg, seed);
        let m = check(&game, &format!("classic seed {seed}, {players} players, {suggestions} suggestions"));
        games += 1;
        maybes += m;
        certain += game.deck().len() * game.num_places() - m;
    }
    // Both kinds of cell occur, so the comparison is not vacuous.
    assert_eq!(games, 60);
    assert!(maybes > 1000 && certain > 1000, "maybes {maybes}, certain {certain}");
}

#[test]
fn agrees_on_small_custom_decks_including_inconsistent_histories() {
    let (mut inconsistent, mut total) = (0, 0);
    for seed in 0..120u64 {
        let sizes = match seed % 4 {
            0 => vec![2, 2, 2],
            1 => vec![2, 3, 2],
            2 => vec![3, 3, 3],
            _ => vec![2, 3, 4],
        };
        let players = 2 + (seed % 3) as usize;
        let mut cfg = GenConfig::new(DeckChoice::Custom(sizes), players, seed % 2 == 0, (seed % 9) as usize);
        cfg.accusation_rate = 0.2;
        cfg.corrupt = seed % 5 == 0;
        let game = generated_game(&cfg, seed);
        check(&game, &format!("custom seed {seed}"));
        total += 1;
        inconsistent += usize::from(!Analysis::new(&game).expect("fits").is_consistent());
    }
    assert_eq!(total, 120);
    assert!(inconsistent > 0, "no inconsistent history was generated");
}

#[test]
fn agrees_on_the_seed_sample() {
    for name in ["seed-sat-sample-before-accusation.json", "seed-sat-sample.json"] {
        let text = std::fs::read_to_string(testdata(name)).expect("read testdata");
        let game = Game::from_json(&text).expect("valid game");
        assert_eq!(check(&game, name), 0, "{name}: the seed sample is solved");
    }
}

#[test]
fn sat_notepad_of_the_seed_sample() {
    let run = sleuth(&["notepad", "--engine", "sat", "seed-sat-sample-before-accusation.json"]);
    run.code(0);
    expect![[r#"
        Sleuth notepad: sc's view (hand: wh, li, st), 27 events, classic deck (21 cards: 6+6+9)
        engine: sat (testLiteral by DPLL on the game's CNF: 3808 variables, 14780 clauses; 148 SAT questions)

                                sc    mu    wh    gr    pe    pl   case file
        suspect
          mu  Colonel Mustard   X     X     X     X     X     O        X
          pl  Professor Plum    X     O     X     X     X     X        X
          gr  Mr. Green         X     X     O     X     X     X        X
          pe  Mrs. Peacock      X     X     X     X     X     X        O
          sc  Miss Scarlet      X     O     X     X     X     X        X
          wh  Mrs. White        O     X     X     X     X     X        X
        weapon
          kn  Knife             X     X     O     X     X     X        X
          ca  Candlestick       X     X     X     O     X     X        X
          re  Revolver          X     X     X     X     O     X        X
          ro  Rope              X     X     O     X     X     X        X
          pi  Lead Pipe         X     X     X     X     X     X        O
          wr  Wrench            X     X     X     O     X     X        X
        room
          ha  Hall              X     X     X     X     O     X        X
          lo  Lounge            X     O     X     X     X     X        X
          di  Dining Room       X     X     X     X     O     X        X
          ki  Kitchen           X     X     X     O     X     X        X
          ba  Ballroom          X     X     X     X     X     O        X
          co  Conservatory      X     X     X     X     X     O        X
          bi  Billiard Room     X     X     X     X     X     X        O
          li  Library           O     X     X     X     X     X        X
          st  Study             O     X     X     X     X     X        X

        O entailed, X its negation entailed, - neither (no probabilities: use --engine exact)
        solved: the case file is pe, pi, bi (Mrs. Peacock, Lead Pipe, Billiard Room)
    "#]]
    .assert_eq(&run.stdout);
}

#[test]
fn sat_notepad_of_an_open_game_has_dashes_and_no_percentages() {
    let scratch = Scratch::new();
    let game = generated(&["--seed", "3", "--players", "4", "--suggestions", "6"]);
    let name = scratch.write("open.json", &game);
    let run = scratch.sleuth(&["notepad", "--engine", "sat", &name]);
    run.code(0);
    assert!(run.stdout.contains(" - "), "{}", run.stdout);
    assert!(!run.stdout.contains('%'), "{}", run.stdout);
    assert!(run.stdout.contains("\ncase file: "), "{}", run.stdout);
    // The default engine is still the exact one.
    let run = scratch.sleuth(&["notepad", &name]);
    run.code(0);
    assert!(run.stdout.contains('%') && !run.stdout.contains("engine: sat"), "{}", run.stdout);
}

#[test]
fn sat_notepad_reports_an_inconsistent_history() {
    let scratch = Scratch::new();
    // sc holds wh, yet sc, passed over, could not show one of wh, kn, ha (the
    // exact notepad's conflict test).
    let name = scratch.write(
        "bad.json",
        &classic_game(
            r#"{"suggestion": {"by": "pe", "cards": ["mu", "kn", "di"], "refuted_by": "pl"}},
               {"suggestion": {"by": "pl", "cards": ["wh", "kn", "ha"], "refuted_by": "wh"}}"#,
        ),
    );
    let run = scratch.sleuth(&["notepad", "--engine", "sat", &name]);
    run.code(3);
    assert!(run.stdout.contains("inconsistent history"), "{}", run.stdout);
    assert!(run.stdout.contains("event 1: pl suggested wh, kn, ha"), "{}", run.stdout);
    let run = scratch.sleuth(&["notepad", "--engine", "fast", &name]);
    run.code(2);
}

/// The seed's basic ClueReasoner (no card counting) by brute force: every
/// assignment of each card to one place (face-up cards to none) in which the
/// case file holds one card per category, the observer holds its hand, and
/// every suggestion and accusation holds. Written from the seed's section 8
/// and the game format, independently of `basic_cnf`.
fn basic_by_brute_force(game: &Game) -> Option<Vec<Vec<sleuth_core::Status>>> {
    use sleuth_core::{Event, Place, Status};
    let deck = game.deck();
    let places: Vec<Place> = game.places().collect();
    let cards: Vec<sleuth_core::Card> = deck.cards().filter(|&c| !game.face_up().contains(c)).collect();
    let mut seen = vec![vec![[false; 2]; places.len()]; deck.len()];
    let mut any = false;
    let mut choice = vec![0usize; cards.len()];
    loop {
        let at = |card: sleuth_core::Card| cards.iter().position(|&c| c == card).map(|i| places[choice[i]]);
        let case_ok = deck
            .categories()
            .all(|cat| deck.category_cards(cat).iter().filter(|&c| at(c) == Some(Place::CaseFile)).count() == 1);
        let hand_ok = game.observer().is_none_or(|(me, hand)| hand.iter().all(|c| at(c) == Some(Place::Player(me))));
        let events_ok = game.events().iter().all(|e| match e {
            Event::Suggestion(s) => {
                let passed: Vec<_> = sleuth_core::model::passed_players(game, s.by, s.refuted_by).collect();
                let none_passed = passed.iter().all(|&p| s.cards.iter().all(|c| at(c) != Some(Place::Player(p))));
                let refuted = match (s.refuted_by, s.shown) {
                    (Some(r), Some(shown)) => at(shown) == Some(Place::Player(r)),
                    (Some(r), None) => s.cards.iter().any(|c| at(c) == Some(Place::Player(r))),
                    (None, _) => true,
                };
                none_passed && refuted
            }
            Event::Accusation(a) => a.cards.iter().all(|c| at(c) == Some(Place::CaseFile)) == a.correct,
        });
        if case_ok && hand_ok && events_ok {
            any = true;
            for (i, &c) in cards.iter().enumerate() {
                for (j, _) in places.iter().enumerate() {
                    seen[c.index()][j][usize::from(choice[i] == j)] = true;
                }
            }
        }
        // Next assignment (odometer).
        let mut k = 0;
        while k < choice.len() && choice[k] + 1 == places.len() {
            choice[k] = 0;
            k += 1;
        }
        if k == choice.len() {
            break;
        }
        choice[k] += 1;
    }
    any.then(|| {
        deck.cards()
            .map(|c| {
                (0..places.len())
                    .map(|j| match seen[c.index()][j] {
                        _ if game.face_up().contains(c) => Status::No,
                        [true, true] => Status::Maybe,
                        [false, true] => Status::Yes,
                        _ => Status::No,
                    })
                    .collect()
            })
            .collect()
    })
}

#[test]
fn basic_reasoner_agrees_with_brute_force_on_small_custom_decks() {
    let (mut inconsistent, mut maybes, mut certain) = (0, 0, 0);
    for seed in 0..80u64 {
        let sizes = if seed % 2 == 0 { vec![2, 2, 2] } else { vec![2, 3, 2] };
        let players = 2 + (seed % 2) as usize;
        let mut cfg = GenConfig::new(DeckChoice::Custom(sizes), players, seed % 3 != 0, (seed % 7) as usize);
        cfg.accusation_rate = 0.2;
        cfg.corrupt = seed % 6 == 0;
        let game = generated_game(&cfg, seed);
        let expected = basic_by_brute_force(&game);
        for method in [engine::Method::Witnesses, engine::Method::TestLiteral] {
            let sat = engine::SatNotepad::with_reasoner(&game, engine::Reasoner::Basic, method);
            assert_eq!(sat.is_consistent(), expected.is_some(), "seed {seed}, {method:?}: consistency");
            let Some(expected) = &expected else { continue };
            for card in game.deck().cards() {
                for (j, place) in game.places().enumerate() {
                    let e = expected[card.index()][j];
                    assert_eq!(sat.status(card, place), e, "seed {seed}, {method:?}: {} at {j}", game.deck().id(card));
                    if method == engine::Method::Witnesses {
                        maybes += usize::from(e == sleuth_core::Status::Maybe);
                        certain += usize::from(e != sleuth_core::Status::Maybe);
                    }
                }
            }
        }
        inconsistent += usize::from(expected.is_none());
    }
    assert!(inconsistent > 0 && maybes > 100 && certain > 100, "{inconsistent} {maybes} {certain}");
}

/// The seed says of its sample game: "When addInitialClauses, hand, suggest, and
/// accuse are all implemented properly, the printNotepad output below should
/// indicate the correct place of each card" (printNotepad is called before
/// the accusation). The basic clauses, without card counting, do; and after
/// every event their certain cells are certain, and the same, for the
/// counting reasoner, which knows more.
#[test]
fn basic_reasoner_places_every_card_of_the_seed_sample_turn_by_turn() {
    let text = std::fs::read_to_string(testdata("seed-sat-sample-before-accusation.json")).unwrap();
    let game = Game::from_json(&text).unwrap();
    let n = game.events().len();
    let mut certain_cells = Vec::new();
    for k in 0..=n {
        let prefix = game.restricted(&(0..k).collect::<Vec<_>>(), true);
        let basic = engine::SatNotepad::with_reasoner(&prefix, engine::Reasoner::Basic, engine::Method::Witnesses);
        let exact = Analysis::new(&prefix).unwrap();
        let mut certain = 0;
        for card in prefix.deck().cards() {
            for place in prefix.places() {
                let b = basic.status(card, place);
                if b != sleuth_core::Status::Maybe {
                    assert_eq!(b, exact.status(card, place), "after {k} events: {}", prefix.deck().id(card));
                    certain += 1;
                }
            }
        }
        certain_cells.push(certain);
    }
    // Knowledge only grows, and at the end every one of the 21 × 7 cells is certain.
    assert!(certain_cells.windows(2).all(|w| w[0] <= w[1]), "{certain_cells:?}");
    assert_eq!(*certain_cells.last().unwrap(), 21 * 7, "{certain_cells:?}");
    assert!(certain_cells[0] < 21 * 7, "the hand alone does not solve it");
}

#[test]
fn basic_notepad_every_event_on_the_command_line() {
    let run = sleuth(&[
        "notepad",
        "--engine",
        "sat",
        "--reasoner",
        "basic",
        "--every-event",
        "seed-sat-sample-before-accusation.json",
    ]);
    run.code(0);
    assert_eq!(run.stdout.matches("\n== after ").count(), 28, "{}", run.stdout);
    assert!(run.stdout.contains("the seed's basic clauses, no card counting: 147 variables"), "{}", run.stdout);
    assert!(run
        .stdout
        .trim_end()
        .ends_with("solved: the case file is pe, pi, bi (Mrs. Peacock, Lead Pipe, Billiard Room)"));
    // The exact engine does not take these options.
    sleuth(&["notepad", "--every-event", "seed-sat-sample-before-accusation.json"]).code(2);
}
