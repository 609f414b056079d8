//! Bad input never panics: each case gets exit code 2 and a message that
//! names the file and the problem.

use crate::support::{classic_game, Scratch};
use expect_test::{expect, Expect};

/// Writes `contents` to `game.json`, runs `sleuth check` on it, and
/// compares standard error with the snapshot (exit code 2).
fn check_bad(contents: &str, expected: Expect) {
    let scratch = Scratch::new();
    let name = scratch.write("game.json", contents);
    let run = scratch.sleuth(&["check", &name]);
    run.code(2);
    expected.assert_eq(&run.stderr);
    for cmd in ["notepad", "analyze", "constraints"] {
        let other = scratch.sleuth(&[cmd, &name]);
        other.code(2);
        assert!(other.stdout.is_empty(), "{cmd}: {}", other.stdout);
        assert_eq!(other.stderr, run.stderr, "{cmd}");
    }
}

#[test]
fn missing_file() {
    let scratch = Scratch::new();
    let run = scratch.sleuth(&["notepad", "no-such-game.json"]);
    run.code(2);
    expect![[r#"
        error: cannot read 'no-such-game.json': no such file or directory
    "#]]
    .assert_eq(&run.stderr);
}

#[test]
fn directory_instead_of_file() {
    let scratch = Scratch::new();
    std::fs::create_dir(scratch.path().join("games")).unwrap();
    let run = scratch.sleuth(&["check", "games"]);
    run.code(2);
    expect![[r#"
        error: cannot read 'games': it is a directory
    "#]]
    .assert_eq(&run.stderr);
}

#[test]
fn not_utf8() {
    let scratch = Scratch::new();
    std::fs::write(scratch.path().join("game.json"), b"{\"version\": 1, \xff}").unwrap();
    let run = scratch.sleuth(&["check", "game.json"]);
    run.code(2);
    expect![[r#"
        error: cannot read 'game.json': it is not UTF-8 text (invalid byte at offset 15)
    "#]]
    .assert_eq(&run.stderr);
}

#[test]
fn malformed_json_reports_line_and_column() {
    check_bad(
        "{\n  \"version\": 1,\n  \"deck\": \"classic\",\n  \"players\": [\"a\", \"b\",]\n}\n",
        expect![[r#"
            error: 'game.json': not valid JSON: trailing comma at line 4 column 24
        "#]],
    );
    check_bad(
        "",
        expect![[r#"
            error: 'game.json': not valid JSON: EOF while parsing a value at line 1 column 0
        "#]],
    );
}

#[test]
fn wrong_types() {
    check_bad(
        r#"{"version": "1", "deck": "classic", "players": ["a", "b", "c"]}"#,
        expect![[r#"
            error: 'game.json': not a valid game file: invalid type: string "1", expected u32 at line 1 column 15
        "#]],
    );
    check_bad(
        r#"{"version": 1, "deck": "classic", "players": "a b c"}"#,
        expect![[r#"
            error: 'game.json': not a valid game file: invalid type: string "a b c", expected a sequence at line 1 column 52
        "#]],
    );
    check_bad(
        r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c"], "events": [{"rumour": {}}]}"#,
        expect![[r#"
            error: 'game.json': not a valid game file: unknown variant `rumour`, expected `suggestion` or `accusation` at line 1 column 82
        "#]],
    );
}

#[test]
fn missing_and_misspelt_keys() {
    check_bad(
        &classic_game(r#"{"suggestion": {"by": "sc", "cards": ["mu", "kn", "ha"]}}"#),
        expect![[r#"
            error: 'game.json': not a valid game file: missing field `refuted_by` at line 2 column 109
        "#]],
    );
    check_bad(
        &classic_game(r#"{"suggestion": {"by": "sc", "cards": ["mu", "kn", "ha"], "refuted": null}}"#),
        expect![[r#"
            error: 'game.json': not a valid game file: missing field `refuted_by` at line 2 column 126; unknown key 'refuted' in event 0 (did you mean 'refuted_by'?)
        "#]],
    );
}

#[test]
fn unknown_names() {
    check_bad(
        &classic_game(
            r#"{"suggestion": {"by": "zz", "cards": ["mu", "Rope", "ha"], "refuted_by": "mu"}},
               {"accusation": {"by": "sc", "cards": ["mu", "kn", "moon"], "correct": false}}"#,
        ),
        expect![[r#"
            error: 'game.json': the game file has 3 problems
              event 0: unknown player 'zz' (players are sc, mu, wh, gr, pe, pl)
              event 0: unknown card 'Rope' (did you mean 'ro'?)
              event 1: unknown card 'moon'
        "#]],
    );
    check_bad(
        r#"{"version": 1, "deck": "clasic", "players": ["a", "b", "c"]}"#,
        expect![[r#"
            error: 'game.json': the game file has 1 problem
              deck: unknown deck 'clasic' (use "classic", "master" or {"categories": [...]})
        "#]],
    );
}

#[test]
fn duplicates_and_rule_breaking_events() {
    check_bad(
        r#"{"version": 1, "deck": "classic", "players": ["a", "b", "a"], "me": "a", "hand": ["mu", "mu", "kn"],
            "events": [
              {"suggestion": {"by": "a", "cards": ["mu", "pl", "ha"], "refuted_by": "b"}},
              {"suggestion": {"by": "b", "cards": ["mu", "kn", "ha"], "refuted_by": "b"}},
              {"suggestion": {"by": "b", "cards": ["mu", "kn", "ha"], "refuted_by": "a", "shown": "ro"}}
            ]}"#,
        expect![[r#"
            error: 'game.json': the game file has 6 problems
              players: player 'a' is listed twice
              hand: card 'mu' is listed twice
              event 0: 2 cards of category suspect named (mu, pl); name exactly one card per category
              event 0: no weapon named; name exactly one card per category
              event 1: 'b' cannot refute their own suggestion
              event 2: shown card 'ro' was not suggested
        "#]],
    );
}

#[test]
fn absurd_sizes() {
    let cards: Vec<String> = (0..70).map(|i| format!("\"c{i}\"")).collect();
    let players: Vec<String> = (0..12).map(|i| format!("\"p{i}\"")).collect();
    check_bad(
        &format!(
            r#"{{"version": 1, "deck": {{"categories": [{{"name": "things", "cards": [{}]}}]}},
                "players": [{}], "hand_sizes": {{"p0": -1, "p1": 100000000000}}}}"#,
            cards.join(", "),
            players.join(", ")
        ),
        expect![[r#"
            error: 'game.json': the game file has 14 problems
              deck: the deck has 70 cards; at most 64 are supported
              players: 12 players; between 2 and 10 are supported
              hand_sizes: hand size -1 for 'p0' is out of range (0 to 64)
              hand_sizes: hand size 100000000000 for 'p1' is out of range (0 to 64)
              hand_sizes: no hand size for 'p2'
              hand_sizes: no hand size for 'p3'
              hand_sizes: no hand size for 'p4'
              hand_sizes: no hand size for 'p5'
              hand_sizes: no hand size for 'p6'
              hand_sizes: no hand size for 'p7'
              hand_sizes: no hand size for 'p8'
              hand_sizes: no hand size for 'p9'
              hand_sizes: no hand size for 'p10'
              hand_sizes: no hand size for 'p11'
        "#]],
    );
    check_bad(
        r#"{"version": 99999999999, "deck": "classic", "players": ["a", "b", "c"]}"#,
        expect![[r#"
            error: 'game.json': not a valid game file: invalid value: integer `99999999999`, expected u32 at line 1 column 23
        "#]],
    );
    check_bad(
        r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c"], "hand_sizes": {"a": 1e300, "b": 6, "c": 6}}"#,
        expect![[r#"
            error: 'game.json': not a valid game file: invalid type: floating point `1e+300`, expected i64 at line 1 column 87
        "#]],
    );
}

#[test]
fn counts_too_large_for_u128() {
    // One category of 64 cards dealt to ten players: about 10^59 deals.
    let cards: Vec<String> = (0..64).map(|i| format!("\"c{i}\"")).collect();
    let players: Vec<String> = (0..10).map(|i| format!("\"p{i}\"")).collect();
    let text = format!(
        r#"{{"version": 1, "deck": {{"categories": [{{"name": "things", "cards": [{}]}}]}}, "players": [{}]}}"#,
        cards.join(", "),
        players.join(", ")
    );
    let scratch = Scratch::new();
    let name = scratch.write("huge.json", &text);
    let run = scratch.sleuth(&["notepad", &name]);
    run.code(2);
    expect![[r#"
        error: 'huge.json': the number of consistent deals does not fit in 128 bits; this deck is too large for exact counting
    "#]]
    .assert_eq(&run.stderr);
    for cmd in ["analyze", "check", "why"] {
        let args: &[&str] = if cmd == "why" { &[cmd, &name, "c0", "p0"] } else { &[cmd, &name] };
        let other = scratch.sleuth(args);
        other.code(2);
        assert_eq!(other.stderr, run.stderr, "{cmd}");
    }
}
