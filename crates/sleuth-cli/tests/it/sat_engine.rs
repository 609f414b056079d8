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

#[allow(dead_code)]
#[path = "../../src/sat_engine.rs"]
mod engine;

/// Compares the two engines on every cell; returns the number of maybes.
#[track_caller]
fn check(game: &Game, what: &str) -> usize {
    let exact = Analysis::new(game).expect("the exact count fits");
    let mut maybes = 0;
    for method in [engine::Method::Witnesses, engine::Method::TestLiteral] {
        let sat = engine::SatNotepad::with_method(game, method).expect("the CNF parses");
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
