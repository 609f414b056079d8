//! Bad input never panics and gets a clear error: malformed JSON, wrong
//! types, unknown names, duplicates, absurd sizes and broken events, each
//! reported with where it is, all at once; plus a seeded mutation fuzz of
//! valid game files.

use crate::support::{big_game, master_game, rng, small_game};
use rand::seq::SliceRandom;
use rand::Rng;
use sleuth_core::format::GameFile;
use sleuth_core::model::Location;
use sleuth_core::{Analysis, Game, LoadError};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The text must fail to parse as a game file; returns the message.
fn format_error(text: &str) -> String {
    match Game::from_json(text) {
        Err(LoadError::Format(e)) => e.message,
        Err(e) => panic!("expected a format error for {text}, got {e}"),
        Ok(_) => panic!("expected a format error for {text}, got a game"),
    }
}

/// The text must parse but fail validation with exactly these problems, in
/// this order: each a location and a fragment of the message.
fn check(text: &str, expected: &[(Location, &str)]) {
    let problems = match Game::from_json(text) {
        Err(LoadError::Game(e)) => e.problems,
        Err(e) => panic!("expected validation problems for {text}, got {e}"),
        Ok(_) => panic!("expected validation problems for {text}, got a game"),
    };
    let got: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(problems.len(), expected.len(), "{text}\nproblems: {got:#?}");
    for (p, (loc, fragment)) in problems.iter().zip(expected) {
        assert_eq!(&p.location, loc, "{text}\nproblems: {got:#?}");
        assert!(p.message.contains(fragment), "{text}\n'{}' should contain '{fragment}'", p.message);
        assert!(!p.message.ends_with('.'), "messages have no trailing period: {}", p.message);
    }
}

/// A classic three-player file with these extra fields.
fn classic(extra: &str) -> String {
    let sep = if extra.is_empty() { "" } else { ", " };
    format!(r#"{{"version": 1, "deck": "classic", "players": ["a", "b", "c"]{sep}{extra}}}"#)
}

#[test]
fn malformed_json_names_line_and_column() {
    for text in ["", "{", "{\"version\": 1,", "{\"version\": 1 \"deck\": 2}", "nul", "\u{feff}{", "\u{feff}\u{feff}{}"]
    {
        let m = format_error(text);
        assert!(m.starts_with("not valid JSON"), "{text:?}: {m}");
        assert!(m.contains("line") && m.contains("column"), "{text:?}: {m}");
    }
}

/// A UTF-8 byte order mark (as some editors write) is skipped (issue 19).
#[test]
fn a_byte_order_mark_is_skipped() {
    let game = Game::from_json(&format!("\u{feff}{}", classic(""))).expect("a BOM is skipped");
    assert_eq!(game.num_players(), 3);
}

#[test]
fn wrong_shapes_and_types_say_what_was_expected() {
    // Each message names the field or event and what the format expects
    // there, never a Rust type (issue 19).
    let cases: &[(&str, &str)] = &[
        ("[]", "expected an object such as {\"version\": 1, \"deck\": \"classic\""),
        ("null", "expected an object such as {\"version\": 1"),
        ("{}", "the file: 'version' is missing (give \"version\": 1)"),
        (r#"{"version": 1}"#, "the file: 'deck' is missing"),
        (r#"{"version": 1, "deck": "classic"}"#, "the file: 'players' is missing"),
        (
            r#"{"version": "1", "deck": "classic", "players": ["a", "b"]}"#,
            "version: expected the number 1, found the text \"1\"",
        ),
        (r#"{"version": -1, "deck": "classic", "players": ["a", "b"]}"#, "version: unsupported version -1"),
        (r#"{"version": 1, "deck": "classic", "players": "ab"}"#, "players: expected a list of player ids"),
        (
            r#"{"version": 1, "deck": "classic", "players": [1, 2]}"#,
            "players: entry 0: expected a player id (a string), found 1",
        ),
        (
            &classic(r#""hand_sizes": {"a": 9.5, "b": 9, "c": 0}"#),
            "hand_sizes: 'a': expected a whole number of cards, found 9.5",
        ),
        (
            &classic(r#""hand_sizes": {"a": 99999999999999999999, "b": 9, "c": 0}"#),
            "hand_sizes: 'a': expected a whole number",
        ),
        (
            &classic(r#""hand_sizes": [6, 6, 6]"#),
            "hand_sizes: expected an object such as {\"a\": 9, \"b\": 9}, found a list",
        ),
        (&classic(r#""face_up": "mu""#), "face_up: expected a list of card ids"),
        (&classic(r#""me": 1, "hand": []"#), "me: expected the observer's player id (a string), found 1"),
        (&classic(r#""events": {}"#), "events: expected a list of events, found an object"),
        (&classic(r#""events": [{"guess": {}}]"#), "event 0: unknown event 'guess'; expected {\"suggestion\": {...}}"),
        (&classic(r#""events": [[]]"#), "event 0: expected an object such as {\"suggestion\": {...}}"),
        (&classic(r#""events": [{"suggestion": null}]"#), "event 0: expected a suggestion such as {\"by\""),
        (&classic(r#""events": [{"sugestion": {}}]"#), "unknown event 'sugestion' (did you mean 'suggestion'?)"),
        (
            &classic(r#""events": [{"suggestion": {"by": "a", "cards": ["mu", "kn", "ha"]}}]"#),
            "event 0: 'refuted_by' is missing",
        ),
        (
            &classic(r#""events": [{"suggestion": {"by": "a", "cards": "mu", "refuted_by": null}}]"#),
            "event 0: 'cards': expected a list of card ids",
        ),
        (
            &classic(r#""events": [{"accusation": {"by": "a", "cards": ["mu", "kn", "ha"], "correct": "yes"}}]"#),
            "event 0: 'correct': expected true or false, found the text \"yes\"",
        ),
        (
            &classic(r#""events": [{"accusation": {"by": "a", "cards": ["mu", "kn", "ha"]}}]"#),
            "event 0: 'correct' is missing",
        ),
        (
            &classic(r#""events": [{"suggestion": {"by": "a", "cards": ["mu", "kn", "ha"], "refuted": null}}]"#),
            "unknown key 'refuted' in event 0 (did you mean 'refuted_by'?)",
        ),
    ];
    // Keys of other tools are welcome (game-format.md: optional additions).
    let extra = r#"{"version": 1, "deck": "classic", "players": ["a", "b"], "colour": 1}"#;
    assert!(Game::from_json(extra).is_ok(), "an unknown, unrelated key is accepted");
    for (text, fragment) in cases {
        let m = format_error(text);
        assert!(m.starts_with("not a valid game file"), "{text}: {m}");
        assert!(m.contains(fragment), "{text}: '{m}' should contain '{fragment}'");
        for rust in ["struct", "i64", "u32", "sequence", "a map", "variant", "Spec", "GameFile"] {
            assert!(!m.contains(rust), "{text}: '{m}' speaks Rust ('{rust}')");
        }
    }
}

/// A malformed deck says what a deck must look like, and where.
#[test]
fn malformed_decks_are_errors() {
    let shape = "deck: expected \"classic\", \"master\" or {\"categories\": [{\"name\": ...";
    for (deck, fragment) in [
        ("5", shape),
        ("null", shape),
        (
            r#"{"categories": [{"name": "x", "cards": [{"id": "q"}]}]}"#,
            "deck: category 0 ('x'): card 0: 'name' is missing",
        ),
        (
            r#"{"categories": [{"name": "x", "cards": [1]}]}"#,
            "deck: category 0 ('x'): card 0: expected an id (a string)",
        ),
        (r#"{"categories": [{"cards": ["q"]}]}"#, "deck: category 0: 'name' is missing"),
        (r#"{"categories": [{"name": "x", "cards": "q"}]}"#, "deck: category 0 ('x'): 'cards' must be a list"),
        (r#"{"cards": []}"#, "deck: 'categories' is missing (a deck is \"classic\", \"master\" or"),
    ] {
        let text = format!(r#"{{"version": 1, "deck": {deck}, "players": ["a", "b"]}}"#);
        let m = format_error(&text);
        assert!(m.contains(fragment), "{text}: '{m}' should contain '{fragment}'");
        assert!(!m.contains("DeckSpec") && !m.contains("untagged"), "{text}: {m} names a Rust type");
    }
}

#[test]
fn unknown_names_are_named() {
    check(r#"{"version": 1, "deck": "clasic", "players": ["a", "b"]}"#, &[(Location::Deck, "unknown deck 'clasic'")]);
    check(&classic(r#""face_up": ["mu", "Rope"]"#), &[(Location::FaceUp, "unknown card 'Rope' (did you mean 'ro'?)")]);
    check(
        &classic(r#""me": "z", "hand": ["mu", "pl", "gr", "pe", "xx", "wh"]"#),
        &[(Location::Hand, "unknown player 'z' (players are a, b, c)"), (Location::Hand, "unknown card 'xx'")],
    );
    check(
        &classic(r#""hand_sizes": {"a": 6, "b": 6, "c": 6, "d": 0}"#),
        &[(Location::HandSizes, "unknown player 'd'")],
    );
    check(
        &classic(
            r#""events": [
            {"suggestion": {"by": "a", "cards": ["mu", "kn", "ha"], "refuted_by": null}},
            {"suggestion": {"by": "x", "cards": ["mu", "kn", "ha"], "refuted_by": "y"}},
            {"accusation": {"by": "b", "cards": ["mu", "knife", "ha"], "correct": false}},
            {"suggestion": {"by": "a", "cards": ["mu", "kn", "hal"], "refuted_by": "b"}}]"#,
        ),
        &[
            (Location::Event(1), "unknown player 'x'"),
            (Location::Event(1), "unknown player 'y'"),
            (Location::Event(2), "unknown card 'knife' (did you mean 'kn'?)"),
            (Location::Event(3), "unknown card 'hal'"),
        ],
    );
}

#[test]
fn duplicates_are_reported() {
    check(
        r#"{"version": 1, "deck": "classic", "players": ["a", "b", "a", "", "case_file"]}"#,
        &[
            (Location::Players, "player 'a' is listed twice"),
            (Location::Players, "player 3 has an empty id"),
            (Location::Players, "'case_file' is reserved"),
        ],
    );
    check(
        r#"{"version": 1, "deck": {"categories": [{"name": "s", "cards": ["x", "y"]},
            {"name": "w", "cards": ["y", {"id": "x", "name": "X"}, ""]}]}, "players": ["a", "b"]}"#,
        &[
            (Location::Deck, "card id 'y' is used more than once"),
            (Location::Deck, "card id 'x' is used more than once"),
            (Location::Deck, "a card id is empty"),
        ],
    );
    check(
        &classic(r#""face_up": ["mu", "mu"], "me": "a", "hand": ["kn", "kn", "ha", "lo", "di", "ki"]"#),
        &[(Location::FaceUp, "card 'mu' is listed twice"), (Location::Hand, "card 'kn' is listed twice")],
    );
    check(
        &classic(r#""events": [{"accusation": {"by": "a", "cards": ["mu", "mu", "kn", "ha"], "correct": false}}]"#),
        &[(Location::Event(0), "card 'mu' is listed twice")],
    );
}

#[test]
fn hand_sizes_must_add_up() {
    check(
        &classic(r#""hand_sizes": {"a": 6, "b": 6, "c": 5}"#),
        &[(Location::HandSizes, "hand sizes add up to 17, but 18 cards are dealt")],
    );
    check(&classic(r#""hand_sizes": {"a": 9, "b": 9}"#), &[(Location::HandSizes, "no hand size for 'c'")]);
    check(
        &classic(r#""face_up": ["mu", "kn", "ha"], "hand_sizes": {"a": 6, "b": 6, "c": 6}"#),
        &[(Location::HandSizes, "hand sizes add up to 18, but 15 cards are dealt")],
    );
    // The hand must match the (default) hand size: 4 players deal 5 5 4 4.
    check(
        r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c", "d"], "me": "c",
            "hand": ["mu", "pl", "gr", "pe", "sc"]}"#,
        &[(Location::Hand, "5 cards in hand but c's hand size is 4")],
    );
}

#[test]
fn absurd_sizes_are_refused() {
    let players = |n: usize| (0..n).map(|i| format!("\"p{i}\"")).collect::<Vec<_>>().join(", ");
    for n in [0, 1, 11, 200] {
        check(
            &format!(r#"{{"version": 1, "deck": "classic", "players": [{}]}}"#, players(n)),
            &[(Location::Players, "between 2 and 10 are supported")],
        );
    }
    let cards = |n: usize| (0..n).map(|i| format!("\"c{i}\"")).collect::<Vec<_>>().join(", ");
    check(
        &format!(
            r#"{{"version": 1, "deck": {{"categories": [{{"name": "x", "cards": [{}]}}]}}, "players": ["a", "b"]}}"#,
            cards(65)
        ),
        &[(Location::Deck, "the deck has 65 cards; at most 64 are supported")],
    );
    check(
        r#"{"version": 1, "deck": {"categories": []}, "players": ["a", "b"]}"#,
        &[(Location::Deck, "the deck has no categories")],
    );
    check(
        r#"{"version": 1, "deck": {"categories": [{"name": "x", "cards": []}]}, "players": ["a", "b"]}"#,
        &[(Location::Deck, "category 'x' has no cards")],
    );
    check(
        &classic(r#""hand_sizes": {"a": 1000, "b": -1, "c": 6}"#),
        &[
            (Location::HandSizes, "hand size 1000 for 'a' is out of range"),
            (Location::HandSizes, "hand size -1 for 'b'"),
        ],
    );
    check(
        &classic(r#""face_up": ["mu", "pl", "gr", "pe", "sc", "wh"]"#),
        &[(Location::FaceUp, "every suspect is face up")],
    );
    check(r#"{"version": 7, "deck": "classic", "players": ["a", "b"]}"#, &[(Location::File, "unsupported version 7")]);
}

#[test]
fn broken_events_are_reported_with_their_index() {
    let text = classic(
        r#""me": "a", "hand": ["mu", "pl", "gr", "pe", "sc", "wh"], "events": [
        {"suggestion": {"by": "a", "cards": ["mu", "kn", "ha"], "refuted_by": "b", "shown": "kn"}},
        {"suggestion": {"by": "a", "cards": ["mu", "kn"], "refuted_by": "b"}},
        {"suggestion": {"by": "b", "cards": ["mu", "pl", "kn", "ha"], "refuted_by": "c"}},
        {"suggestion": {"by": "a", "cards": ["mu", "kn", "ha"], "refuted_by": "b", "shown": "lo"}},
        {"suggestion": {"by": "b", "cards": ["mu", "kn", "ha"], "refuted_by": "b"}},
        {"suggestion": {"by": "b", "cards": ["mu", "kn", "ha"], "refuted_by": "c", "shown": "mu"}},
        {"suggestion": {"by": "b", "cards": ["mu", "kn", "ha"], "refuted_by": null, "shown": "mu"}},
        {"accusation": {"by": "c", "cards": ["ro", "ha"], "correct": true}},
        {"suggestion": {"by": "c", "cards": ["mu", "kn", "ha"], "refuted_by": "a", "shown": "mu"}}]"#,
    );
    check(
        &text,
        &[
            (Location::Event(1), "no room named; name exactly one card per category"),
            (Location::Event(2), "2 cards of category suspect named"),
            (Location::Event(3), "shown card 'lo' was not suggested"),
            (Location::Event(4), "'b' cannot refute their own suggestion"),
            (Location::Event(5), "the observer neither suggested nor refuted"),
            (Location::Event(6), "card 'mu' is shown but nobody refuted"),
            (Location::Event(7), "no suspect named"),
        ],
    );
    // A bystander sees no card.
    check(
        &classic(
            r#""events": [{"suggestion": {"by": "a", "cards": ["mu", "kn", "ha"], "refuted_by": "b", "shown": "kn"}}]"#,
        ),
        &[(Location::Event(0), "a bystander cannot see the shown card")],
    );
}

/// One file with a problem in every section: all are listed, in file order.
#[test]
fn every_problem_is_reported_at_once() {
    let text = r#"{"version": 2, "deck": "classic", "players": ["a", "b", "b"],
        "hand_sizes": {"a": 6, "b": 6, "q": 6},
        "face_up": ["zz"],
        "me": "a", "hand": ["mu", "mu"],
        "events": [
          {"suggestion": {"by": "a", "cards": ["mu", "kn", "ha"], "refuted_by": "a"}},
          {"suggestion": {"by": "b", "cards": ["mu", "kn", "xx"], "refuted_by": "a"}},
          {"accusation": {"by": "c", "cards": ["mu", "kn", "ha"], "correct": false}}
        ]}"#;
    let expected = [
        (Location::File, "unsupported version 2"),
        (Location::Players, "player 'b' is listed twice"),
        (Location::FaceUp, "unknown card 'zz'"),
        (Location::HandSizes, "unknown player 'q'"),
        (Location::Hand, "card 'mu' is listed twice"),
        (Location::Event(0), "'a' cannot refute their own suggestion"),
        (Location::Event(1), "unknown card 'xx'"),
        (Location::Event(2), "unknown player 'c'"),
    ];
    check(text, &expected);
    let Err(LoadError::Game(e)) = Game::from_json(text) else { panic!("invalid") };
    let shown = e.to_string();
    assert!(shown.starts_with("the game file has 8 problems"), "{shown}");
    assert!(shown.contains("\n  event 1: unknown card 'xx'"), "{shown}");
    assert!(shown.contains("\n  hand_sizes: unknown player 'q'"), "{shown}");
}

/// When the hand is invalid, a shown card the observer saw should not be
/// blamed on being a bystander: the file does name `me`.
#[test]
fn an_invalid_hand_does_not_turn_the_observer_into_a_bystander() {
    check(
        &classic(
            r#""me": "a", "hand": ["mu", "mu", "gr", "pe", "sc", "wh"], "events": [
            {"suggestion": {"by": "a", "cards": ["mu", "kn", "ha"], "refuted_by": "b", "shown": "kn"}}]"#,
        ),
        &[(Location::Hand, "card 'mu' is listed twice")],
    );
}

/// JSON objects with a repeated key are ambiguous: every object refuses
/// one, hand sizes included.
#[test]
fn a_repeated_hand_size_is_an_error() {
    let text = classic(r#""hand_sizes": {"a": 9, "a": 6, "b": 6, "c": 6}"#);
    let err = Game::from_json(&text).expect_err("a's hand size is given twice");
    assert!(err.to_string().contains("the key 'a' is repeated in one object at line 1"), "{err}");
}

#[test]
fn repeated_keys_are_errors() {
    let m = format_error(r#"{"version": 1, "version": 1, "deck": "classic", "players": ["a", "b"]}"#);
    assert!(m.contains("the key 'version' is repeated in one object"), "{m}");
    let m = format_error(&classic(
        r#""events": [{"suggestion": {"by": "a", "by": "b", "cards": ["mu", "kn", "ha"], "refuted_by": null}}]"#,
    ));
    assert!(m.contains("the key 'by' is repeated in one object"), "{m}");
}

/// Objects of many keys are checked by a set (small ones key by key): a
/// repeat is found on either side of the switch, and none is invented.
#[test]
fn repeated_keys_are_found_in_large_objects() {
    let object = |keys: &[usize]| {
        let fields: Vec<String> = keys.iter().map(|k| format!("\"k{k}\": {k}")).collect();
        format!(r#"{{"version": 1, "deck": "classic", "players": ["a", "b"], "extra": {{{}}}}}"#, fields.join(", "))
    };
    for (keys, repeated) in [
        ((0..40).chain([3]).collect::<Vec<_>>(), "k3"),
        ((0..40).chain([39]).collect(), "k39"),
        ((0..16).chain([15]).collect(), "k15"),
        ((0..17).chain([16]).collect(), "k16"),
        ((0..10).chain([0]).collect(), "k0"),
    ] {
        let m = format_error(&object(&keys));
        assert!(m.contains(&format!("the key '{repeated}' is repeated in one object")), "{m}");
    }
    if let Err(e) = Game::from_json(&object(&(0..40).collect::<Vec<_>>())) {
        assert!(!e.to_string().contains("repeated"), "{e}");
    }
}

/// Issues 19 and 59: control and invisible characters in ids and names are
/// refused, with the id (escaped) and the character's position.
#[test]
fn r19_control_characters_are_refused_with_their_position() {
    // Refused where the file is read (issue 59: with the invisible format
    // characters), every one listed, each shown escaped with its position.
    let m = format_error(
        r#"{"version": 1, "deck": "classic", "players": ["a\u001b[31m", "b\u0007", "c\u202e", "\u0000"]}"#,
    );
    for fragment in [
        "players: entry 0: 'a\\u{1b}[31m' holds the invisible or control character \\u{1b} at character 1",
        "players: entry 1: 'b\\u{7}' holds the invisible or control character \\u{7} at character 1",
        "players: entry 2: 'c\\u{202e}' holds the invisible or control character \\u{202e} at character 1",
        "players: entry 3: '\\u{0}' holds the invisible or control character \\u{0} at character 0",
    ] {
        assert!(m.contains(fragment), "'{m}' should contain '{fragment}'");
    }
    let m = format_error(
        r#"{"version": 1, "deck": {"categories": [{"name": "s\u2066", "cards": ["x", {"id": "y", "name": "Y\u001b"}]}]},
            "players": ["a", "b"]}"#,
    );
    assert!(m.contains("'s\\u{2066}' holds the invisible or control character \\u{2066}"), "{m}");
    assert!(m.contains("'Y\\u{1b}' holds the invisible or control character \\u{1b}"), "{m}");
    // A hostile id in an event is echoed escaped and elided, never raw.
    let text = classic(&format!(
        r#""events": [{{"suggestion": {{"by": "\u001b]0;{}", "cards": ["mu", "kn", "ha"], "refuted_by": null}}}}]"#,
        "x".repeat(5000)
    ));
    let err = format_error(&text);
    assert!(err.contains("'\\u{1b}]0;xxx") && err.len() < 300, "{err}");
    assert!(!err.contains('\u{1b}'));
}

/// Issue 19: ids and names are at most 100 characters.
#[test]
fn r19_long_ids_are_refused() {
    let long = "a".repeat(70_000);
    check(
        &format!(r#"{{"version": 1, "deck": "classic", "players": ["{long}", "b"]}}"#),
        &[(Location::Players, "the id is 70000 characters long; at most 100 are allowed")],
    );
    let hundred = "a".repeat(100);
    assert!(Game::from_json(&format!(r#"{{"version": 1, "deck": "classic", "players": ["{hundred}", "b"]}}"#)).is_ok());
}

/// Issue 19: a million problems make one bounded message.
#[test]
fn r19_problem_lists_are_bounded() {
    let face_up = vec!["\"mu\""; 1_000_000].join(", ");
    check(&classic(&format!(r#""face_up": [{face_up}]"#)), &[(Location::FaceUp, "card 'mu' is listed 1000000 times")]);
    // Many different problems: a screenful, then how many more.
    let events =
        vec![r#"{"accusation": {"by": "zz", "cards": ["mu", "kn", "ha"], "correct": false}}"#; 50_000].join(",");
    let err = match Game::from_json(&classic(&format!(r#""events": [{events}]"#))) {
        Err(LoadError::Game(e)) => e,
        other => panic!("expected validation problems, got {other:?}"),
    };
    assert_eq!(err.len(), 50_000);
    assert!(err.problems.len() <= sleuth_core::model::MAX_PROBLEMS);
    let text = err.to_string();
    assert_eq!(text.lines().count(), 1 + sleuth_core::model::LISTED_PROBLEMS + 1, "{text}");
    assert!(text.ends_with("... and 49980 more"), "{text}");
    // 100,000 players: one problem, found in linear time (a set, not a scan).
    let ids = (0..100_000).map(|i| format!("\"p{i}\"")).collect::<Vec<_>>().join(",");
    let err = Game::from_json(&format!(r#"{{"version": 1, "deck": "classic", "players": [{ids}]}}"#)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the game file has 1 problem\n  players: 100000 players; between 2 and 10 are supported"
    );
}

/// Issue 19: more than 100,000 events are refused while reading.
#[test]
fn r19_too_many_events_are_refused() {
    let event = r#"{"accusation": {"by": "a", "cards": ["mu", "kn", "ha"], "correct": false}}"#;
    let events = vec![event; sleuth_core::format::MAX_EVENTS + 1].join(",");
    let m = format_error(&classic(&format!(r#""events": [{events}]"#)));
    assert!(m.contains("events: 100001 events; at most 100000 are supported"), "{m}");
}

/// Strange but valid games analyse without panicking (an error for counts
/// that do not fit is fine).
#[test]
fn extreme_valid_games_do_not_panic() {
    let cards = |prefix: &str, n: usize| (0..n).map(|i| format!("\"{prefix}{i}\"")).collect::<Vec<_>>().join(", ");
    let players = |n: usize| (0..n).map(|i| format!("\"p{i}\"")).collect::<Vec<_>>().join(", ");
    let texts = vec![
        // One card in one category: everything is in the case file.
        r#"{"version": 1, "deck": {"categories": [{"name": "x", "cards": ["q"]}]}, "players": ["a", "b"]}"#.to_string(),
        // 64 one-card categories.
        format!(
            r#"{{"version": 1, "deck": {{"categories": [{}]}}, "players": ["a", "b"]}}"#,
            (0..64).map(|i| format!(r#"{{"name": "k{i}", "cards": ["c{i}"]}}"#)).collect::<Vec<_>>().join(", ")
        ),
        // 64 cards, 10 players, a bystander.
        format!(
            r#"{{"version": 1, "deck": {{"categories": [{{"name": "x", "cards": [{}]}}, {{"name": "y", "cards": [{}]}}]}},
                "players": [{}]}}"#,
            cards("x", 32),
            cards("y", 32),
            players(10)
        ),
        // 64 cards, 2 players, all dealt to one of them.
        format!(
            r#"{{"version": 1, "deck": {{"categories": [{{"name": "x", "cards": [{}]}}, {{"name": "y", "cards": [{}]}}]}},
                "players": ["a", "b"], "hand_sizes": {{"a": 62, "b": 0}}}}"#,
            cards("x", 32),
            cards("y", 32)
        ),
        // Master, ten players, one suggestion nobody refuted.
        format!(
            r#"{{"version": 1, "deck": "master", "players": [{}],
                "events": [{{"suggestion": {{"by": "p0", "cards": ["mu", "kn", "ch"], "refuted_by": null}}}}]}}"#,
            players(10)
        ),
        // Suggestions of face-up cards, shown face-up cards, impossible accusations.
        classic(
            r#""face_up": ["mu", "kn", "ha"], "hand_sizes": {"a": 5, "b": 5, "c": 5}, "me": "a",
            "hand": ["pl", "ca", "lo", "di", "ki"], "events": [
            {"suggestion": {"by": "a", "cards": ["mu", "kn", "ha"], "refuted_by": "b", "shown": "mu"}},
            {"suggestion": {"by": "b", "cards": ["mu", "kn", "ha"], "refuted_by": "c"}},
            {"accusation": {"by": "c", "cards": ["mu", "kn", "ha"], "correct": true}}]"#,
        ),
        // The observer's own hand contradicts a correct accusation.
        classic(
            r#""me": "a", "hand": ["mu", "pl", "gr", "pe", "sc", "wh"], "events": [
            {"accusation": {"by": "b", "cards": ["mu", "kn", "ha"], "correct": true}}]"#,
        ),
    ];
    for text in texts {
        let result = catch_unwind(AssertUnwindSafe(|| {
            let game = Game::from_json(&text).unwrap_or_else(|e| panic!("valid: {e}"));
            match Analysis::new(&game) {
                Ok(a) => {
                    let _ = a.case_files().count();
                    a.is_consistent()
                }
                Err(_) => true,
            }
        }));
        assert!(result.is_ok(), "panicked on {text}");
    }
}

/// A byte range `(start, end)` of a text.
type Span = (usize, usize);

/// Spans of the string literals (with quotes) and numbers of a JSON text.
fn tokens(text: &str) -> (Vec<Span>, Vec<Span>) {
    let b = text.as_bytes();
    let (mut strings, mut numbers) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'"' {
            let start = i;
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            strings.push((start, (i + 1).min(b.len())));
        } else if b[i] == b'-' || b[i].is_ascii_digit() {
            let start = i;
            while i + 1 < b.len() && (b[i + 1].is_ascii_digit() || b"+-.eE".contains(&b[i + 1])) {
                i += 1;
            }
            numbers.push((start, i + 1));
        }
        i += 1;
    }
    (strings, numbers)
}

const NUMBERS: [&str; 16] = [
    "0",
    "1",
    "-1",
    "2",
    "3",
    "10",
    "11",
    "63",
    "64",
    "65",
    "255",
    "256",
    "1000",
    "4294967296",
    "1e3",
    "-9223372036854775808",
];

const SNIPPETS: [&str; 16] = [
    "null",
    "true",
    "false",
    "[]",
    "{}",
    "\"\"",
    "\"case_file\"",
    "\"mu\"",
    "\"p1\"",
    "\"a0\"",
    ",",
    ":",
    "[",
    "]",
    "{",
    "}",
];

/// One random mutation of a JSON text: byte edits, or token edits that
/// keep it closer to a game file (swap ids, change numbers, drop elements).
fn mutate<R: Rng>(text: &str, r: &mut R) -> String {
    let mut bytes = text.as_bytes().to_vec();
    let (strings, numbers) = tokens(text);
    let pos = |r: &mut R, len: usize| r.gen_range(0..len.max(1));
    match r.gen_range(0..13) {
        0 => {
            let i = pos(r, bytes.len());
            if i < bytes.len() {
                bytes[i] = r.gen_range(0x20..0x7f);
            }
        }
        1 => {
            let i = pos(r, bytes.len());
            let n = r.gen_range(1..=8).min(bytes.len() - i.min(bytes.len()));
            bytes.drain(i..i + n);
        }
        2 => {
            let i = pos(r, bytes.len());
            let s = SNIPPETS.choose(r).expect("non-empty");
            bytes.splice(i..i, s.bytes());
        }
        3 => {
            // Duplicate a slice (repeats keys, events, cards).
            let i = pos(r, bytes.len());
            let j = (i + r.gen_range(1..60)).min(bytes.len());
            let slice = bytes[i..j].to_vec();
            bytes.splice(j..j, slice);
        }
        4..=8 => {
            // Replace a value string (not a key) with another value string of
            // the file or a snippet.
            let values: Vec<Span> = strings
                .iter()
                .copied()
                .filter(|&(_, e)| text[e..].trim_start().as_bytes().first() != Some(&b':'))
                .collect();
            if let Some(&(s, e)) = values.choose(r) {
                let new = if r.gen_bool(0.8) {
                    let &(s2, e2) = values.choose(r).expect("non-empty");
                    text[s2..e2].to_string()
                } else {
                    SNIPPETS.choose(r).expect("non-empty").to_string()
                };
                bytes.splice(s..e, new.bytes());
            }
        }
        9 => {
            if let Some(&(s, e)) = numbers.choose(r) {
                bytes.splice(s..e, NUMBERS.choose(r).expect("non-empty").bytes());
            }
        }
        10 | 11 => {
            // Drop a string and the comma after it (removes a card or player).
            if let Some(&(s, e)) = strings.choose(r) {
                let e = if bytes.get(e) == Some(&b',') { e + 1 } else { e };
                bytes.drain(s..e);
            }
        }
        _ => {
            for (from, to) in [("true", "false"), ("false", "true"), ("null", "\"p1\""), ("\"shown\"", "\"showm\"")] {
                if r.gen_bool(0.3) {
                    let t = String::from_utf8_lossy(&bytes).replacen(from, to, 1);
                    bytes = t.into_bytes();
                }
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// What a mutated text does: parse, validate, analyse, round-trip.
fn exercise(text: &str) -> &'static str {
    let file = match GameFile::from_json(text) {
        Ok(f) => f,
        Err(e) => {
            assert!(!e.message.is_empty());
            return "format";
        }
    };
    let back = GameFile::from_json(&file.to_json()).expect("a parsed file prints as a valid file");
    assert_eq!(back, file, "file round trip");
    let game = match Game::new(&file) {
        Ok(g) => g,
        Err(e) => {
            assert!(!e.problems.is_empty(), "an error lists its problems");
            let _ = e.to_string();
            return "invalid";
        }
    };
    assert_eq!(Game::new(&game.to_file()).expect("a game's own file is valid"), game);
    match Analysis::new(&game) {
        Ok(a) if a.is_consistent() => "consistent",
        Ok(a) => {
            assert!(a.conflict().is_some(), "an inconsistent game names a conflict");
            "inconsistent"
        }
        Err(_) => "count error",
    }
}

#[test]
fn mutated_game_files_never_panic() {
    // Base texts: small custom games, short classic games, short master games.
    let mut bases: Vec<String> = (0..40).map(|i| small_game("fuzz", i).file.to_json()).collect();
    bases.extend((0..12).map(|i| big_game("fuzz", i, false, 10, 0.2).file.to_json()));
    bases.extend((0..3).map(|i| master_game("fuzz", i, 6).file.to_json()));
    let mut outcomes = std::collections::BTreeMap::new();
    let mut panics = Vec::new();
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    for i in 0..20_000u64 {
        let mut r = rng("fuzz-mutation", i);
        let base = &bases[(i as usize) % bases.len()];
        let mut text = base.clone();
        for _ in 0..r.gen_range(1..=2) {
            text = mutate(&text, &mut r);
        }
        match catch_unwind(AssertUnwindSafe(|| exercise(&text))) {
            Ok(outcome) => *outcomes.entry(outcome).or_insert(0) += 1,
            Err(payload) => {
                let msg = payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                panics.push(format!("mutation {i}: {msg}\n{text}"));
            }
        }
    }
    std::panic::set_hook(hook);
    eprintln!("outcomes: {outcomes:?}");
    assert!(panics.is_empty(), "{} panics, first:\n{}", panics.len(), panics[..panics.len().min(3)].join("\n\n"));
    // The mutations reach every stage.
    for stage in ["format", "invalid", "consistent", "inconsistent"] {
        assert!(outcomes.get(stage).copied().unwrap_or(0) >= 100, "too few '{stage}' outcomes: {outcomes:?}");
    }
}
