//! `sleuth advise`: suggestions, accusations, opponents, refutations.

use crate::support::{generated, sleuth, Scratch};
use expect_test::expect;

/// A generated six-player game after eight suggestions, in a scratch directory.
fn game7() -> (Scratch, String) {
    let scratch = Scratch::new();
    let name = scratch.write("g7.json", &generated(&["--seed", "7", "--suggestions", "8"]));
    (scratch, name)
}

#[test]
fn advises_suggestions_accusation_and_opponents() {
    let (scratch, name) = game7();
    let run = scratch.sleuth(&["advise", &name, "--suggestions", "3"]);
    run.code(0);
    expect![[r#"
        Sleuth advice: p1's view (hand: wh, pi, wr), 8 events, classic deck (21 cards: 6+6+9)

        297,850 consistent deals; case-file entropy 3.63 bits

        accuse now: no: pl, ca, ha is the case file with exact probability 30.5% (90,720 of 297,850 deals)
          why: at even odds or below the advice never says accuse: a wrong accusation puts you out of the game, while waiting keeps every later chance
          an opponent knows the case file now: 31.2% (estimated from 32 deals; its next turn is looked at only above even odds)
          the threat is estimated from deals drawn at random among those that fit what you know: in each, every opponent's knowledge (the public turns, its hand and the cards shown to it) is worked out exactly, assuming it asks the question most likely to solve and accuses only when certain

        best suggestions, most likely to end the game first, then most informative
        (expected information about the case file; chance the answer solves it; likeliest answers)
        (10 of the 323 legal suggestions evaluated exactly, chosen by a quick estimate):
          1. pl, ca, ha   1.639 bits  ends 30.5%   p4 shows ha 41.4%, nobody 30.5%, p4 shows ca 18.0%, p4 shows pl 10.1%
          2. pl, ca, li   1.350 bits  ends 19.7%   p4 shows li 54.9%, nobody 19.7%, p4 shows ca 18.0%, p4 shows pl 7.3%
          3. wh, ca, ha   1.404 bits  ends    0%   p4 shows ha 42.9%, nobody 39.1%, p4 shows ca 18.0%

        opponents (estimated from 32 deals drawn from your view; each opponent's knowledge worked out exactly; 95% intervals from the sampling alone):
          p2: knows the case file now    0% (95%: 0%-10.7%, 32 deals), case-file entropy 3.65 bits (8 deals)
          p3: knows the case file now    0% (95%: 0%-10.7%, 32 deals), case-file entropy 4.47 bits (8 deals)
          p4: knows the case file now 31.2% (95%: 18.0%-48.6%, 32 deals), case-file entropy 1.28 bits (8 deals)
          p5: knows the case file now    0% (95%: 0%-10.7%, 32 deals), case-file entropy 4.42 bits (8 deals)
          p6: knows the case file now    0% (95%: 0%-10.7%, 32 deals), case-file entropy 4.65 bits (8 deals)

        behaviour hint (a guess about how people ask, not a deduction; it never decides 'accuse now'):
          of the cards each opponent asked about whose place you know: p2 holds 0 of 1, p3 holds 0 of 0, p4 holds 0 of 0, p5 holds 0 of 1, p6 holds 0 of 0
          no opponent's questions show that it avoids its own cards (too few known, or as many as a blind asker would hold): no hint
    "#]].assert_eq(&run.stdout);
}

/// With ten players the names are two and three characters wide: the
/// opponents' numbers still line up.
#[test]
fn opponents_line_up_whatever_the_names_widths() {
    let scratch = Scratch::new();
    let name = scratch
        .write("m10.json", &generated(&["--deck", "master", "--players", "10", "--seed", "3", "--suggestions", "2"]));
    let run = scratch.sleuth(&["advise", &name, "--suggestions", "1"]);
    run.code(0);
    let columns: Vec<usize> =
        run.stdout.lines().filter_map(|l| l.find("knows the case file now").filter(|_| l.starts_with("  p"))).collect();
    assert_eq!(columns.len(), 9, "{}", run.stdout);
    assert!(columns.iter().all(|&c| c == columns[0]), "{}", run.stdout);
}

#[test]
fn a_certain_case_file_is_accused() {
    let run = sleuth(&["advise", "seed-sat-sample-before-accusation.json", "--suggestions", "1", "--json"]);
    run.code(0);
    let v = run.json();
    assert_eq!(v["accusation"]["certain"], true);
    assert_eq!(v["accusation"]["accuse"], true);
    assert_eq!(v["accusation"]["cards"], serde_json::json!(["pe", "pi", "bi"]));
    assert_eq!(v["accusation"]["probability"], 1.0);
}

/// Issue 17: every prefix of the SAT paper's sample game (play Sleuth did
/// not generate) through `sleuth advise --json`: never "accuse" below even
/// odds, always when certain, and the exact probability first.
#[test]
fn no_prefix_of_the_sample_game_urges_a_long_shot() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/seed-sat-sample.json"))
        .expect("the sample game");
    let file: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let events = file["events"].as_array().expect("events").clone();
    let scratch = Scratch::new();
    let mut urged = Vec::new();
    for k in 0..=events.len() {
        let mut f = file.clone();
        f["events"] = serde_json::Value::Array(events[..k].to_vec());
        let name = scratch.write(&format!("p{k}.json"), &f.to_string());
        let a = scratch.sleuth(&["advise", &name, "--json", "--suggestions", "1"]).code(0).json()["accusation"].clone();
        let (p, accuse, certain) =
            (a["probability"].as_f64().unwrap(), a["accuse"].as_bool().unwrap(), a["certain"].as_bool().unwrap());
        assert!(!accuse || p >= 0.5, "after {k} events: accuse now at exact probability {p}: {a}");
        assert_eq!(certain, p == 1.0, "after {k} events: {a}");
        assert!(!certain || accuse, "after {k} events: a certain case file is not urged: {a}");
        assert!(!a["rule"].as_str().unwrap().is_empty() && !a["threat_basis"].as_str().unwrap().is_empty());
        if accuse {
            urged.push(k);
        }
    }
    assert!(!urged.contains(&12), "issue 17: 'accuse now' at 1.5 % after 12 turns");
    assert!(urged.contains(&events.len()), "the solved game is urged");
}

#[test]
fn json_lists_suggestions_with_their_answers() {
    let (scratch, name) = game7();
    let v = scratch.sleuth(&["advise", &name, "--json"]).code(0).json();
    assert_eq!(v["me"], "p1");
    assert_eq!(v["models"], "297850");
    let suggestions = v["suggestions"].as_array().expect("a list");
    // Five choices; a suggestion with the same answers as one before it
    // points back to it, and has its numbers.
    assert_eq!(suggestions.iter().filter(|s| s["same_answers_as"].is_null()).count(), 5);
    assert_eq!(suggestions.len(), 6, "one choice of two suggestions");
    for s in suggestions {
        if let Some(j) = s["same_answers_as"].as_u64() {
            let first = &suggestions[j as usize];
            assert_eq!((&s["information"], &s["outcomes"]), (&first["information"], &first["outcomes"]));
        }
        let total: f64 =
            s["outcomes"].as_array().expect("answers").iter().map(|o| o["probability"].as_f64().unwrap()).sum();
        assert!((total - 1.0).abs() < 1e-9);
        assert!(s["information"].as_f64().unwrap() >= 0.0);
    }
    assert_eq!(v["opponents"].as_array().expect("a list").len(), 5);
    assert_eq!(v["accusation"]["accuse"], false);
}

#[test]
fn refute_says_which_card_to_show() {
    let scratch = Scratch::new();
    let name = scratch.write(
        "r.json",
        r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c"], "me": "b",
            "hand": ["mu", "pl", "kn", "ca", "ha", "lo"],
            "events": [{"suggestion": {"by": "a", "cards": ["mu", "re", "di"], "refuted_by": "b", "shown": "mu"}}]}"#,
    );
    let run = scratch.sleuth(&["advise", &name, "--refute", "mu,kn,ki"]);
    run.code(0);
    expect![[r#"
        Sleuth advice: b's view (hand: mu, pl, kn, ca, ha, lo), 1 event, classic deck (21 cards: 6+6+9)

        a suggested mu, kn, ki (assumed: the player before you; use --by)
        show mu to a
          mu  reveals 0.000 bits; their case-file entropy after: 8.08 bits (already shown to them)
          kn  reveals 0.263 bits; their case-file entropy after: 7.81 bits
    "#]]
    .assert_eq(&run.stdout);
    let run = scratch.sleuth(&["advise", &name, "--refute", "gr,kn,ha", "--by", "c", "--json"]);
    run.code(0);
    expect![[r#"
        {
          "suggester": "c",
          "suggestion": [
            "gr",
            "kn",
            "ha"
          ],
          "show": "ha",
          "reason": "it tells c least about the case file (0.15 bits)",
          "options": [
            {
              "card": "ha",
              "already_shown": false,
              "revealed": 0.15281437122032493,
              "entropy_after": 8.069143030910661
            },
            {
              "card": "kn",
              "already_shown": false,
              "revealed": 0.23671745982336745,
              "entropy_after": 7.985239942307619
            }
          ]
        }
    "#]]
    .assert_eq(&run.stdout);
}

#[test]
fn refute_errors_are_clear() {
    let (scratch, name) = game7();
    let err = |args: &[&str]| {
        let mut all = vec!["advise", name.as_str()];
        all.extend_from_slice(args);
        let run = scratch.sleuth(&all);
        run.code(2);
        run.stderr
    };
    expect![[r#"
        error: 'g7.json': you hold none of mu, kn, lo, so you cannot refute
    "#]]
    .assert_eq(&err(&["--refute", "mu,kn,lo"]));
    expect![[r#"
        error: --refute takes one card of each category (suspect, weapon, room), e.g. 'mu,kn,ha'
    "#]]
    .assert_eq(&err(&["--refute", "mu,kn"]));
    expect![[r#"
        error: unknown card 'zz'; the cards are mu, pl, gr, pe, sc, wh, kn, ca, re, ro, pi, wr, ha, lo, di, ki, ba, co, bi, li, st
    "#]].assert_eq(&err(&["--refute", "mu,zz,lo"]));
    expect![[r#"
        error: unknown player 'p9'; the players are p1, p2, p3, p4, p5, p6
    "#]]
    .assert_eq(&err(&["--refute", "wh,kn,lo", "--by", "p9"]));
    expect![[r#"
        error: 'g7.json': you cannot refute your own suggestion
    "#]]
    .assert_eq(&err(&["--refute", "wh,kn,lo", "--by", "p1"]));
}

#[test]
fn bystanders_and_inconsistent_games() {
    let scratch = Scratch::new();
    let by = scratch.write("by.json", r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c"], "events": []}"#);
    let run = scratch.sleuth(&["advise", &by]);
    run.code(2);
    expect![[r#"
        error: 'by.json': advice needs a player's view: the game file has no 'me' and 'hand'
    "#]]
    .assert_eq(&run.stderr);
    let bad = scratch.write(
        "bad.json",
        r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c"], "me": "a",
            "hand": ["mu", "pl", "kn", "ca", "ha", "lo"],
            "events": [{"suggestion": {"by": "b", "cards": ["mu", "kn", "ha"], "refuted_by": "c"}}]}"#,
    );
    let run = scratch.sleuth(&["advise", &bad]);
    run.code(3);
    expect![[r#"
        'bad.json': the history is inconsistent: no deal of the cards fits every event; `sleuth notepad` names the conflicting events
    "#]].assert_eq(&run.stderr);
}

/// Where the deals that fit the view are few, every opponent's progress is
/// exact: over every one of them, its interval the point; `--exact-views 0`
/// samples instead.
#[test]
fn few_deals_give_the_opponents_exactly() {
    let scratch = Scratch::new();
    let name = scratch.write("late.json", &generated(&["--seed", "5", "--suggestions", "30"]));
    let run = scratch.sleuth(&["advise", &name, "--json", "--tell-samples", "0"]);
    run.code(0);
    let v = run.json();
    let models: u64 = v["models"].as_str().and_then(|m| m.parse().ok()).expect("a count (a string: it may pass 2^53)");
    let opponents = v["opponents"].as_array().expect("opponents");
    assert!(models <= 1024 && opponents.len() == 5, "{models} deals");
    for o in opponents {
        assert_eq!((&o["exact"], o["samples"].as_u64()), (&serde_json::json!(true), Some(models)), "{o}");
        assert_eq!(o["threat_interval"], serde_json::json!([o["threat"], o["threat"]]), "{o}");
    }
    let text = scratch.sleuth(&["advise", &name, "--tell-samples", "0"]);
    text.code(0);
    assert!(text.stdout.contains(&format!("(exact, every one of {models} deals)")), "{}", text.stdout);
    let sampled = scratch.sleuth(&["advise", &name, "--json", "--tell-samples", "0", "--exact-views", "0"]);
    sampled.code(0);
    let sampled = sampled.json();
    assert!(sampled["opponents"]
        .as_array()
        .expect("opponents")
        .iter()
        .all(|o| o["exact"] == false && o["samples"] == 32));
}

/// Suggestions that differ only in cards nobody else can show (your own, a
/// certain case-file card) have the same answers: one line, `kn/ca`, and
/// `--suggestions N` counts lines; `--json` lists every suggestion, each
/// after the first of its answers pointing back to it.
#[test]
fn suggestions_with_the_same_answers_share_a_line() {
    let scratch = Scratch::new();
    let name = scratch.write("c4.json", &generated(&["--players", "4", "--seed", "9", "--suggestions", "14"]));
    let run = scratch.sleuth(&["advise", &name, "--suggestions", "2"]);
    run.code(0);
    let listed: Vec<&str> =
        run.stdout.lines().skip_while(|l| !l.starts_with("best suggestions")).skip(3).take(3).collect();
    expect![[r#"
        [
            "  1. pe, kn/ca, ki 1.162 bits  ends 16.9%   p2 shows ki 60.2%, nobody 16.9%, p3 shows ki 13.0%, p4 shows pe 5.3%, +1 more",
            "  2. pe, kn/ca, st 1.003 bits  ends 13.1%   p2 shows st 47.2%, p4 shows st 20.6%, nobody 13.1%, p3 shows pe 10.2%, +1 more",
            "  (a/b: either card gives the same answers, as nobody else can show your own cards nor a certain case-file card)",
        ]
    "#]]
    .assert_debug_eq(&listed);
    let run = scratch.sleuth(&["advise", &name, "--suggestions", "2", "--json"]);
    run.code(0);
    let v = run.json();
    let rows: Vec<String> = (v["suggestions"].as_array().unwrap().iter())
        .map(|s| format!("{} {} {} {}", s["cards"], s["alternatives"], s["same_answers_as"], s["information"]))
        .collect();
    expect![[r#"
        [
            "[\"pe\",\"kn\",\"ki\"] [[],[\"ca\"],[]] null 1.1622327732789515",
            "[\"pe\",\"ca\",\"ki\"] [[],[\"kn\"],[]] 0 1.1622327732789515",
            "[\"pe\",\"kn\",\"st\"] [[],[\"ca\"],[]] null 1.002594122137248",
            "[\"pe\",\"ca\",\"st\"] [[],[\"kn\"],[]] 2 1.002594122137248",
        ]
    "#]]
    .assert_debug_eq(&rows);
}
