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
            error: 'game.json': not a valid game file: version: expected the number 1, found the text "1"
        "#]],
    );
    check_bad(
        r#"{"version": 1, "deck": "classic", "players": "a b c"}"#,
        expect![[r#"
            error: 'game.json': not a valid game file: players: expected a list of player ids such as ["a", "b"], found the text "a b c"
        "#]],
    );
    check_bad(
        r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c"], "events": [{"rumour": {}}]}"#,
        expect![[r#"
            error: 'game.json': not a valid game file: event 0: unknown event 'rumour'; expected {"suggestion": {...}} or {"accusation": {...}}
        "#]],
    );
}

#[test]
fn missing_and_misspelt_keys() {
    check_bad(
        &classic_game(r#"{"suggestion": {"by": "sc", "cards": ["mu", "kn", "ha"]}}"#),
        expect![[r#"
            error: 'game.json': not a valid game file: event 0: 'refuted_by' is missing (give the refuter's id, or null when nobody refuted)
        "#]],
    );
    check_bad(
        &classic_game(r#"{"suggestion": {"by": "sc", "cards": ["mu", "kn", "ha"], "refuted": null}}"#),
        expect![[r#"
            error: 'game.json': not a valid game file: unknown key 'refuted' in event 0 (did you mean 'refuted_by'?); event 0: 'refuted_by' is missing (give the refuter's id, or null when nobody refuted)
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
            error: 'game.json': not a valid game file: version: unsupported version 99999999999 (only version 1 exists)
        "#]],
    );
    check_bad(
        r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c"], "hand_sizes": {"a": 1e300, "b": 6, "c": 6}}"#,
        expect![[r#"
            error: 'game.json': not a valid game file: hand_sizes: 'a': expected a whole number of cards, found 1e+300
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
        error: 'huge.json': the number of consistent deals does not fit in 128 bits; this deck is too large for exact counting; WalkSAT can still estimate it: sleuth sample --method alg2 'huge.json'
    "#]]
    .assert_eq(&run.stderr);
    for cmd in ["analyze", "check", "why"] {
        let args: &[&str] = if cmd == "why" { &[cmd, &name, "c0", "p0"] } else { &[cmd, &name] };
        let other = scratch.sleuth(args);
        other.code(2);
        assert_eq!(other.stderr, run.stderr, "{cmd}");
    }
}

/// Issue 19: control characters are refused with their position and never
/// echoed raw; a repeated card is reported a screenful of times at most.
#[test]
fn r19_control_characters_and_long_problem_lists() {
    check_bad(
        r#"{"version": 1, "deck": "classic", "players": ["a\u001b[31m", "b\u0007", "c\u202e"]}"#,
        expect![[r#"
            error: 'game.json': not a valid game file: players: entry 0: 'a\u{1b}[31m' holds the invisible or control character \u{1b} at character 1; ids and names must be printable text; players: entry 1: 'b\u{7}' holds the invisible or control character \u{7} at character 1; ids and names must be printable text; players: entry 2: 'c\u{202e}' holds the invisible or control character \u{202e} at character 1; ids and names must be printable text
        "#]],
    );
    let face_up = vec!["\"mu\""; 50_000].join(", ");
    check_bad(
        &format!(r#"{{"version": 1, "deck": "classic", "players": ["a", "b", "c"], "face_up": [{face_up}]}}"#),
        expect![[r#"
            error: 'game.json': the game file has 1 problem
              face_up: card 'mu' is listed 50000 times
        "#]],
    );
    let events = vec![r#"{"accusation": {"by": "zz", "cards": ["mu", "kn", "ha"], "correct": false}}"#; 5_000];
    check_bad(
        &classic_game(&events.join(",")),
        expect![[r#"
        error: 'game.json': the game file has 5000 problems
          event 0: unknown player 'zz' (players are sc, mu, wh, gr, pe, pl)
          event 1: unknown player 'zz' (players are sc, mu, wh, gr, pe, pl)
          event 2: unknown player 'zz' (players are sc, mu, wh, gr, pe, pl)
          event 3: unknown player 'zz' (players are sc, mu, wh, gr, pe, pl)
          event 4: unknown player 'zz' (players are sc, mu, wh, gr, pe, pl)
          event 5: unknown player 'zz' (players are sc, mu, wh, gr, pe, pl)
          event 6: unknown player 'zz' (players are sc, mu, wh, gr, pe, pl)
          event 7: unknown player 'zz' (players are sc, mu, wh, gr, pe, pl)
          event 8: unknown player 'zz' (players are sc, mu, wh, gr, pe, pl)
          event 9: unknown player 'zz' (players are sc, mu, wh, gr, pe, pl)
          event 10: unknown player 'zz' (players are sc, mu, wh, gr, pe, pl)
          event 11: unknown player 'zz' (players are sc, mu, wh, gr, pe, pl)
          event 12: unknown player 'zz' (players are sc, mu, wh, gr, pe, pl)
          event 13: unknown player 'zz' (players are sc, mu, wh, gr, pe, pl)
          event 14: unknown player 'zz' (players are sc, mu, wh, gr, pe, pl)
          event 15: unknown player 'zz' (players are sc, mu, wh, gr, pe, pl)
          event 16: unknown player 'zz' (players are sc, mu, wh, gr, pe, pl)
          event 17: unknown player 'zz' (players are sc, mu, wh, gr, pe, pl)
          event 18: unknown player 'zz' (players are sc, mu, wh, gr, pe, pl)
          event 19: unknown player 'zz' (players are sc, mu, wh, gr, pe, pl)
          ... and 4980 more
    "#]],
    );
    check_bad(
        &classic_game(
            r#"{"suggestion": {"by": "\u001b]0;owned\u0007", "cards": ["mu", "kn", "ha"], "refuted_by": null}}"#,
        ),
        expect![[r#"
            error: 'game.json': not a valid game file: event 0: 'by': '\u{1b}]0;owned\u{7}' holds the invisible or control character \u{1b} at character 0; ids and names must be printable text
        "#]],
    );
}

/// Issue 19: shapes are described in the format's terms; a BOM is skipped.
#[test]
fn r19_shapes_in_the_formats_terms() {
    check_bad(
        r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c"], "events": [[]]}"#,
        expect![[r#"
        error: 'game.json': not a valid game file: event 0: expected an object such as {"suggestion": {...}} or {"accusation": {...}}, found a list
    "#]],
    );
    check_bad(
        r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c"], "events": [{"suggestion": null}]}"#,
        expect![[r#"
            error: 'game.json': not a valid game file: event 0: expected a suggestion such as {"by": "a", "cards": [...], "refuted_by": "b"}, found null
        "#]],
    );
    check_bad(
        r#"{"version": 1, "deck": {"categories": [{"name": "s", "cards": ["x", 2]}, {"name": "t", "cards": "y"}]}, "players": ["a", "b"]}"#,
        expect![[r#"
            error: 'game.json': not a valid game file: deck: category 0 ('s'): card 1: expected an id (a string) or {"id": ..., "name": ...}, found 2; deck: category 1 ('t'): 'cards' must be a list of card ids, found the text "y"
        "#]],
    );
    let scratch = Scratch::new();
    let name = scratch
        .write("bom.json", "\u{feff}{\"version\": 1, \"deck\": \"classic\", \"players\": [\"a\", \"b\", \"c\"]}");
    scratch.sleuth(&["check", &name]).code(0);
}

/// Issue 19: ids up to the limit print in tables elided, and in JSON whole.
#[test]
fn r19_long_ids_are_elided_in_tables_only() {
    let long = format!("{}z", "p".repeat(99));
    let scratch = Scratch::new();
    let name = scratch.write(
        "game.json",
        &format!(r#"{{"version": 1, "deck": "classic", "players": ["{long}", "b", "c"], "events": []}}"#),
    );
    let run = scratch.sleuth(&["notepad", "--no-color", &name]);
    run.code(0);
    let header = run.stdout.lines().nth(2).expect("a header row");
    expect!["                       ppppppppppppppp…   b     c    case file"].assert_eq(header);
    let json = scratch.sleuth(&["analyze", "--json", &name]);
    json.code(0);
    assert_eq!(json.json()["places"][0], long.as_str());
}

/// Issue 19: the `--refute` example uses the game's own deck.
#[test]
fn r19_refute_example_uses_the_deck() {
    let scratch = Scratch::new();
    let name = scratch.write(
        "game.json",
        r#"{"version": 1, "deck": {"categories": [{"name": "x", "cards": ["x1", "x2", "x3"]}, {"name": "y", "cards": ["y1", "y2", "y3"]}]},
            "players": ["a", "b"], "me": "a", "hand": ["x1", "y1"], "events": []}"#,
    );
    let run = scratch.sleuth(&["advise", "--refute", "x1", &name]);
    run.code(2);
    expect![[r#"
        error: --refute takes one card of each category (x, y), e.g. 'x1,y1'
    "#]]
    .assert_eq(&run.stderr);
}
