//! `sleuth why`.

use crate::support::sleuth;
use expect_test::expect;

#[test]
fn explains_a_certain_fact() {
    let run = sleuth(&["why", "seed-sat-sample-before-accusation.json", "pi", "case_file"]);
    run.code(0);
    expect![[r#"
        yes: pi is in the case file (Lead Pipe)
        forced by 2 items (a smallest set, proven: no smaller set forces it):
          event 15: gr suggested wh, pi, co; pl refuted (card not seen)
          event 20: pe suggested pe, pi, ha; nobody refuted
        your hand is not needed
    "#]]
    .assert_eq(&run.stdout);
}

/// The hand is no event: holding White forces it with no event at all,
/// where event 5 (sc showed wh) would be one (issue 52 item 8).
#[test]
fn explains_a_negative_fact_and_the_hand() {
    let run = sleuth(&["why", "seed-sat-sample-before-accusation.json", "wh", "case_file"]);
    run.code(0);
    expect![[r#"
        no: wh is not in the case file (Mrs. White)
        forced by 1 item (a smallest set, proven: no smaller set forces it):
          your hand: wh, li, st
    "#]]
    .assert_eq(&run.stdout);
}

#[test]
fn uncertain_fact_is_exit_1() {
    let scratch = crate::support::Scratch::new();
    let name = scratch.write("open.json", &crate::support::classic_game(""));
    let run = scratch.sleuth(&["why", &name, "pi", "case_file"]);
    run.code(1);
    expect![[r#"
        not certain: pi is in the case file with probability 17%
        (in 5,885,880,000 of 35,315,280,000 consistent deals)
    "#]]
    .assert_eq(&run.stdout);
}

#[test]
fn unknown_card_or_place_lists_valid_ids() {
    let run = sleuth(&["why", "seed-sat-sample.json", "Rope", "mu"]);
    run.code(2);
    expect![[r#"
        error: unknown card 'Rope' (did you mean 'ro'?); the cards are mu, pl, gr, pe, sc, wh, kn, ca, re, ro, pi, wr, ha, lo, di, ki, ba, co, bi, li, st
    "#]]
    .assert_eq(&run.stderr);
    let run = sleuth(&["why", "seed-sat-sample.json", "ro", "cf"]);
    run.code(2);
    expect![[r#"
        error: unknown place 'cf'; the places are sc, mu, wh, gr, pe, pl, case_file
    "#]]
    .assert_eq(&run.stderr);
}

#[test]
fn face_up_cards_are_explained() {
    let scratch = crate::support::Scratch::new();
    let name = scratch.write(
        "faceup.json",
        r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c", "d"], "face_up": ["ro", "ki"], "events": []}"#,
    );
    let run = scratch.sleuth(&["why", &name, "ro", "b"]);
    run.code(0);
    expect![[r#"
        no: b does not hold ro (Rope)
        ro is face up: every player has seen it, and it is in no hand and not in the case file
    "#]]
    .assert_eq(&run.stdout);
}

/// Issue 59: ids are compared in one spelling. A game file that spells a
/// card and a player with a composed `é` is asked about them, on the
/// command line, with `e` and a combining accent (and the other way round).
#[test]
fn ids_on_the_command_line_are_compared_in_nfc() {
    let scratch = crate::support::Scratch::new();
    let name = scratch.write(
        "cafe.json",
        "{\"version\": 1, \"players\": [\"p\u{e9}\", \"q\", \"r\"], \"me\": \"q\", \"hand\": [\"b\"],
          \"deck\": {\"categories\": [{\"name\": \"who\", \"cards\": [\"caf\u{e9}\", \"b\", \"c\"]},
                                    {\"name\": \"what\", \"cards\": [\"x\", \"y\"]}]},
          \"events\": [{\"suggestion\": {\"by\": \"pe\u{301}\", \"cards\": [\"cafe\u{301}\", \"x\"], \"refuted_by\": null}}]}",
    );
    let run = scratch.sleuth(&["why", &name, "cafe\u{301}", "r"]);
    run.code(0);
    assert!(run.stdout.starts_with("no: r does not hold caf\u{e9}"), "{}", run.stdout);
    let run = scratch.sleuth(&["why", &name, "caf\u{e9}", "pe\u{301}"]);
    run.code(1);
    let run = scratch.sleuth(&["advise", &name, "--refute", "b,y", "--by", "pe\u{301}"]);
    run.code(0);
    assert!(run.stdout.contains("p\u{e9} suggested b, y"), "{}", run.stdout);
    // A look-alike is no spelling of the id: refused, shown escaped.
    let run = scratch.sleuth(&["why", &name, "caf\u{e9}\u{200b}", "r"]);
    run.code(2);
    assert!(run.stderr.contains("unknown card 'caf\u{e9}\\u{200b}'"), "{}", run.stderr);
}
