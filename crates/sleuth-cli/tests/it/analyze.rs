//! `sleuth analyze --json` honours the output contract of docs/game-format.md.

use crate::support::{generated, sleuth, testdata, Scratch};
use serde_json::Value;
use sleuth_core::{brute, Game, Place};

/// Card ids of the game's deck, in deck order, and the categories' ids.
fn deck_cards(game: &Value) -> Vec<Vec<String>> {
    let strs = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
    match &game["deck"] {
        Value::String(s) if s == "classic" => {
            vec![strs("mu pl gr pe sc wh"), strs("kn ca re ro pi wr"), strs("ha lo di ki ba co bi li st")]
        }
        Value::String(s) if s == "master" => vec![
            strs("mu pl gr pe sc wh rs gy br pc"),
            strs("kn ca re ro pi wr po hs"),
            strs("ch co ki tr di dr ga cy fo li bi su"),
        ],
        Value::Object(o) => o["categories"]
            .as_array()
            .expect("categories")
            .iter()
            .map(|cat| {
                cat["cards"]
                    .as_array()
                    .expect("cards")
                    .iter()
                    .map(|c| c.as_str().or_else(|| c["id"].as_str()).expect("card id").to_string())
                    .collect()
            })
            .collect(),
        other => panic!("unexpected deck {other}"),
    }
}

fn count(v: &Value) -> u128 {
    v.as_str().expect("counts are strings").parse().expect("counts are decimal")
}

/// Checks every rule of the contract (and our documented extras) for the
/// analysis `out` of the game file text `game`.
#[track_caller]
pub fn check_contract(game: &str, out: &Value) {
    let game: Value = serde_json::from_str(game).expect("game JSON");
    let categories = deck_cards(&game);
    let cards: Vec<&String> = categories.iter().flatten().collect();
    let face_up: Vec<&str> =
        game["face_up"].as_array().map(|a| a.iter().map(|c| c.as_str().unwrap()).collect()).unwrap_or_default();

    let mut places: Vec<String> =
        game["players"].as_array().unwrap().iter().map(|p| p.as_str().unwrap().to_string()).collect();
    places.push("case_file".into());
    assert_eq!(out["places"], serde_json::json!(places));
    assert_eq!(out["method"], "exact");
    let consistent = out["consistent"].as_bool().expect("consistent is a bool");
    let models = count(&out["models"]);
    assert_eq!(consistent, models > 0);
    if !consistent {
        let conflict = out["conflict"].as_array().expect("conflict is listed when inconsistent");
        let n = game["events"].as_array().map_or(0, Vec::len);
        assert!(conflict.iter().all(|i| (i.as_u64().unwrap() as usize) < n));
        assert!(out["conflict_hand"].is_boolean() && out["conflict_minimum"].is_boolean());
        assert_eq!(out["case_file"], serde_json::json!([]));
    } else {
        assert!(out.get("conflict").is_none());
    }

    let probs = out["probabilities"].as_object().expect("probabilities");
    let status = out["status"].as_object().expect("status");
    let by_place = out["models_by_place"].as_object().expect("models_by_place");
    assert_eq!(probs.len(), cards.len());
    assert_eq!(status.len(), cards.len());
    for card in &cards {
        let p = probs[card.as_str()].as_object().unwrap_or_else(|| panic!("no probabilities for {card}"));
        let s = status[card.as_str()].as_object().unwrap();
        let m = by_place[card.as_str()].as_object().unwrap();
        assert_eq!(p.len(), places.len(), "{card}");
        let mut sum = 0.0;
        let mut exact = 0u128;
        for place in &places {
            let x = p[place.as_str()].as_f64().expect("probability is a number");
            assert!((0.0..=1.0).contains(&x), "{card}@{place}: {x}");
            sum += x;
            let k = count(&m[place.as_str()]);
            exact += k;
            let st = s[place.as_str()].as_str().expect("status is a string");
            match st {
                "yes" => assert!(k == models && consistent && x == 1.0, "{card}@{place}"),
                "no" => assert!(k == 0 && x == 0.0, "{card}@{place}"),
                "maybe" => assert!(k > 0 && k < models, "{card}@{place}"),
                other => panic!("status {other}"),
            }
        }
        if face_up.contains(&card.as_str()) || !consistent {
            assert_eq!(sum, 0.0, "{card}");
            assert_eq!(exact, 0);
        } else {
            assert!((sum - 1.0).abs() < 1e-9, "{card}: probabilities sum to {sum}");
            assert_eq!(exact, models, "{card}: counts per place add up to the total");
        }
    }

    let case_files = out["case_file"].as_array().expect("case_file");
    let mut sum = 0.0;
    let mut exact = 0u128;
    let mut last = f64::INFINITY;
    for cf in case_files {
        let ids: Vec<&str> = cf["cards"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
        assert_eq!(ids.len(), categories.len());
        for (id, cat) in ids.iter().zip(&categories) {
            assert!(cat.iter().any(|c| c == id), "case file {ids:?} is one card per category, in order");
        }
        let p = cf["probability"].as_f64().unwrap();
        assert!(p <= last, "case files are most likely first");
        last = p;
        sum += p;
        exact += count(&cf["models"]);
    }
    if consistent {
        assert!((sum - 1.0).abs() < 1e-9, "case file probabilities sum to {sum}");
        assert_eq!(exact, models);
    }
}

#[test]
fn seed_sample_is_solved() {
    for file in ["seed-sat-sample-before-accusation.json", "seed-sat-sample.json"] {
        let run = sleuth(&["analyze", "--json", file]);
        run.code(0);
        let out = run.json();
        check_contract(&std::fs::read_to_string(testdata(file)).unwrap(), &out);
        assert_eq!(out["models"], "1");
        assert_eq!(
            out["case_file"],
            serde_json::json!([{"cards": ["pe", "pi", "bi"], "probability": 1.0, "models": "1"}])
        );
        for (card, places) in out["status"].as_object().unwrap() {
            let yes = places.as_object().unwrap().values().filter(|s| *s == "yes").count();
            assert_eq!(yes, 1, "{card} is placed");
        }
        assert_eq!(out["status"]["mu"]["pl"], "yes");
        assert_eq!(out["status"]["sc"]["mu"], "yes");
    }
}

/// The example game of cluedo-clp-prolog.txt: the article's six possible case
/// files ("Reverend Green with the candlestick in either the bathroom, bedroom,
/// kitchen, living room, dining room or study"), with the exact odds that
/// sleuth-core's seeds test checks against an independent enumerator.
#[test]
fn clp_article_example_has_six_case_files_with_exact_odds() {
    let file = "seed-clp-example.json";
    let run = sleuth(&["analyze", "--json", file]);
    run.code(0);
    let out = run.json();
    check_contract(&std::fs::read_to_string(testdata(file)).unwrap(), &out);
    assert_eq!(out["models"], "3430");
    let case_files: Vec<(String, String)> = out["case_file"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let cards: Vec<&str> = c["cards"].as_array().unwrap().iter().map(|x| x.as_str().unwrap()).collect();
            (cards.join(" "), c["models"].as_str().unwrap().to_string())
        })
        .collect();
    let expected = [
        ("green candlestick living_room", "1120"), // 16/49
        ("green candlestick kitchen", "700"),      // 10/49
        ("green candlestick study", "560"),        // 8/49
        ("green candlestick dining_room", "350"),  // 5/49
        ("green candlestick bedroom", "350"),      // 5/49
        ("green candlestick bathroom", "350"),     // 5/49
    ];
    let expected: Vec<(String, String)> = expected.iter().map(|(c, n)| (c.to_string(), n.to_string())).collect();
    assert_eq!(case_files, expected);
    assert_eq!(out["case_file"][0]["probability"], 16.0 / 49.0);
}

#[test]
fn generated_games_satisfy_the_contract() {
    let variants: &[&[&str]] = &[
        &["--suggestions", "6"],
        &["--suggestions", "15", "--players", "4", "--face-up", "2"],
        &["--suggestions", "10", "--bystander", "--players", "3"],
        &["--suggestions", "25", "--accusation-rate", "0.3", "--players", "5"],
        &["--suggestions", "12", "--corrupt"],
        &["--suggestions", "8", "--deck", "master", "--players", "7", "--face-up", "2"],
        &["--suggestions", "20", "--deck", "3,2,4", "--players", "3", "--hand-sizes"],
    ];
    let scratch = Scratch::new();
    for (i, variant) in variants.iter().enumerate() {
        for seed in 0..4 {
            let seed = seed.to_string();
            let mut args: Vec<&str> = variant.to_vec();
            args.extend(["--seed", &seed]);
            let text = generated(&args);
            let name = scratch.write(&format!("g{i}-{seed}.json"), &text);
            let run = scratch.sleuth(&["analyze", "--json", &name]);
            let out = run.json();
            run.code(if out["consistent"] == true { 0 } else { 3 });
            check_contract(&text, &out);
        }
    }
}

#[test]
fn counts_match_brute_force_on_small_decks() {
    let scratch = Scratch::new();
    for seed in 0..12 {
        let seed = seed.to_string();
        let extra: &[&str] = match seed.parse::<u32>().unwrap() % 3 {
            0 => &[],
            1 => &["--bystander", "--face-up", "1"],
            _ => &["--corrupt", "--accusation-rate", "0.2"],
        };
        let mut args = vec!["--deck", "3,2,3", "--players", "3", "--suggestions", "5", "--seed", &seed];
        args.extend_from_slice(extra);
        let text = generated(&args);
        let name = scratch.write("small.json", &text);
        let out = scratch.sleuth(&["analyze", "--json", &name]).json();
        check_contract(&text, &out);
        let game = Game::from_json(&text).unwrap();
        let brute = brute::enumerate(&game);
        assert_eq!(count(&out["models"]), brute.total, "seed {seed}");
        let places: Vec<Place> = game.places().collect();
        for card in game.deck().cards() {
            for &place in &places {
                let k = count(&out["models_by_place"][game.deck().id(card)][game.place_id(place)]);
                assert_eq!(k, brute.marginal[card.index()][place.index(game.num_players())], "seed {seed}");
            }
        }
    }
}

#[test]
fn inconsistent_history_exits_3_with_the_conflict() {
    let scratch = Scratch::new();
    // Event 0 says mu showed sc; event 2 says mu holds none of sc, ro, lo.
    let text = crate::support::classic_game(
        r#"{"suggestion": {"by": "sc", "cards": ["sc", "ro", "lo"], "refuted_by": "mu", "shown": "sc"}},
           {"suggestion": {"by": "mu", "cards": ["pe", "kn", "ha"], "refuted_by": "wh"}},
           {"suggestion": {"by": "sc", "cards": ["sc", "ro", "lo"], "refuted_by": "wh"}}"#,
    );
    let name = scratch.write("bad.json", &text);
    let run = scratch.sleuth(&["analyze", "--json", &name]);
    run.code(3);
    let out = run.json();
    check_contract(&text, &out);
    assert_eq!(out["conflict"], serde_json::json!([0, 2]));
    assert_eq!(out["models"], "0");

    let run = scratch.sleuth(&["analyze", &name]);
    run.code(3);
    assert!(run.stdout.contains("event 0: sc suggested sc, ro, lo; mu refuted and showed sc"), "{}", run.stdout);
    assert!(run.stdout.contains("event 2: sc suggested sc, ro, lo; wh refuted (card not seen)"), "{}", run.stdout);
}

#[test]
fn text_summary_names_the_case_file() {
    let run = sleuth(&["analyze", "seed-sat-sample-before-accusation.json"]);
    run.code(0);
    assert!(run.stdout.contains("consistent: yes, 1 consistent deal (exact count)"), "{}", run.stdout);
    assert!(run.stdout.contains("case file: pe, pi, bi (3 of 3 known)"), "{}", run.stdout);
}

#[test]
fn reads_standard_input() {
    let text = std::fs::read_to_string(testdata("seed-sat-sample.json")).unwrap();
    let run = crate::support::sleuth_in(&testdata(""), &["analyze", "--json", "-"], Some(&text));
    run.code(0);
    assert_eq!(run.json()["models"], "1");
}

#[test]
fn text_list_of_case_files_says_how_many_it_leaves_out() {
    // The Prolog article's example has six possible case files; five are listed.
    let run = sleuth(&["analyze", "seed-clp-example.json"]);
    run.code(0);
    let out = &run.stdout;
    let list = &out[out.find("most likely case files (6 possible):").unwrap_or_else(|| panic!("{out}"))..];
    let rows = list.lines().skip(1).take_while(|l| l.starts_with("  ")).collect::<Vec<_>>();
    assert_eq!(rows.len(), 6, "{list}");
    assert_eq!(rows[5], "  ... and 1 more", "{list}");
    // A whole list has no such line.
    let run = sleuth(&["analyze", "seed-sat-sample.json"]);
    run.code(0);
    assert!(!run.stdout.contains("more"), "{}", run.stdout);
}
