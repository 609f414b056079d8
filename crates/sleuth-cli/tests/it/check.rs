//! `sleuth check`.

use crate::support::{classic_game, sleuth, Scratch};
use expect_test::expect;

#[test]
fn valid_games_get_a_one_line_summary() {
    let run = sleuth(&["check", "seed-sat-sample.json"]);
    run.code(0);
    expect![[r#"
        'seed-sat-sample.json': ok: classic deck (21 cards: 6+6+9), 6 players (sc mu wh gr pe pl), 28 events, observer sc; history consistent (1 deal)
    "#]]
    .assert_eq(&run.stdout);
}

#[test]
fn inconsistent_history_is_exit_3() {
    let scratch = Scratch::new();
    let name = scratch.write(
        "bad.json",
        &classic_game(r#"{"accusation": {"by": "mu", "cards": ["wh", "kn", "ha"], "correct": true}}"#),
    );
    let run = scratch.sleuth(&["check", &name]);
    run.code(3);
    expect![[r#"
        'bad.json': ok: classic deck (21 cards: 6+6+9), 6 players (sc mu wh gr pe pl), 1 event, observer sc; history inconsistent: no deal fits every event
          event 0: mu accused wh, kn, ha; correct
          your hand: wh, li, st
    "#]]
    .assert_eq(&run.stdout);
}

#[test]
fn every_problem_is_listed() {
    let scratch = Scratch::new();
    let name = scratch.write(
        "bad.json",
        r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c"], "face_up": ["mu", "xx"],
            "me": "a", "hand": ["mu"],
            "events": [{"suggestion": {"by": "c", "cards": ["mu", "kn", "ha"], "refuted_by": null, "shown": "kn"}}]}"#,
    );
    let run = scratch.sleuth(&["check", &name]);
    run.code(2);
    expect![[r#"
        error: 'bad.json': the game file has 3 problems
          face_up: unknown card 'xx'
          hand: face-up card 'mu' cannot be in a hand
          event 0: card 'kn' is shown but nobody refuted
    "#]]
    .assert_eq(&run.stderr);
}
