//! The stateless what-if endpoints: `POST /api/analyze` (a game file and
//! supposed facts) and `POST /api/evaluate` (a planned suggestion),
//! checked against sleuth-core's analysis of the game with the fact
//! written as a turn, and against the advice.

use crate::support::{json, sample_game, start};
use serde_json::{json, Value};
use sleuth_core::{wire, Analysis, Game};

/// The sample game with its first `n` turns.
fn sample(n: usize) -> Value {
    let mut g = sample_game();
    g["events"] = Value::Array(g["events"].as_array().unwrap()[..n].to_vec());
    g
}

/// `sleuth analyze --json` of a game file, as the page lists it (50 case files).
fn analyze_json(file: &Value) -> Value {
    let game = Game::from_json(&file.to_string()).unwrap();
    let a = Analysis::new(&game).unwrap();
    serde_json::to_value(wire::Analysis::with_case_file_limit(&game, &a, 50)).unwrap()
}

fn strip(mut v: Value) -> Value {
    let o = v.as_object_mut().unwrap();
    o.remove("millis");
    o.remove("suppose");
    v
}

#[test]
fn a_what_if_equals_the_analysis_with_the_fact_written_as_a_turn() {
    let s = start(None);
    let file = sample(12);
    let base = analyze_json(&file);
    // sc is the observer and mu sits next: "mu holds X" is exactly "sc suggested X, ..., mu showed X".
    let open: Vec<&str> =
        ["pl", "gr", "wh", "mu", "pe", "sc"].into_iter().filter(|c| base["status"][c]["mu"] == "maybe").collect();
    assert!(open.len() >= 2, "the sample leaves some suspects open at mu: {open:?}");
    for card in open {
        let r = json(
            s.addr,
            "POST",
            "/api/analyze",
            &json!({"game": file, "suppose": [{"card": card, "place": "mu", "holds": true}]}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        let what_if = r.json();
        assert_eq!(what_if["suppose"], json!([{"card": card, "place": "mu", "holds": true}]));
        let mut with_turn = file.clone();
        with_turn["events"]
            .as_array_mut()
            .unwrap()
            .push(json!({"suggestion": {"by": "sc", "cards": [card, "kn", "ha"], "refuted_by": "mu", "shown": card}}));
        assert_eq!(strip(what_if.clone()), analyze_json(&with_turn), "supposing mu holds {card}");
        // Conditioning: the deals left are the ones the notepad counted at that cell.
        assert_eq!(what_if["models"], base["models_by_place"][card]["mu"]);
    }
    // Without facts it is the game's own analysis, and a hypothetical turn is just a longer game file.
    let r = json(s.addr, "POST", "/api/analyze", &json!({"game": file}));
    assert_eq!(strip(r.json()), base);
}

#[test]
fn a_case_file_supposition_and_an_impossible_one() {
    let s = start(None);
    let file = sample(12);
    let base = analyze_json(&file);
    let room = ["ha", "lo", "di", "ki", "ba", "co", "bi"]
        .into_iter()
        .find(|c| base["status"][c]["case_file"] == "maybe")
        .unwrap();
    let r = json(
        s.addr,
        "POST",
        "/api/analyze",
        &json!({"game": file, "suppose": [{"card": room, "place": "case_file", "holds": true}]}),
    );
    let a = r.json();
    assert_eq!(a["models"], base["models_by_place"][room]["case_file"]);
    assert_eq!(a["status"][room]["case_file"], "yes");
    assert!(a["case_file"].as_array().unwrap().iter().all(|f| f["cards"][2] == room), "{}", a["case_file"]);
    // I hold wh: supposing mu holds it leaves no deal.
    let r = json(
        s.addr,
        "POST",
        "/api/analyze",
        &json!({"game": file, "suppose": [{"card": "wh", "place": "mu", "holds": true}]}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!((r.json()["consistent"].clone(), r.json()["models"].clone()), (json!(false), json!("0")));
}

#[test]
fn bad_what_ifs_are_refused_with_a_clear_message() {
    let s = start(None);
    let file = sample(3);
    let fact = |card: &str, place: &str| json!({"card": card, "place": place, "holds": true});
    let cases = [
        (json!({"game": file, "suppose": [fact("zz", "mu")]}), "unknown card 'zz'"),
        (json!({"game": file, "suppose": [fact("kn", "zz")]}), "unknown place 'zz'"),
        (json!({"game": file, "suppose": vec![fact("kn", "mu"); 65]}), "at most 64 facts"),
        (json!({"game": {"version": 1}, "suppose": []}), "'game': "),
        (json!({"game": file, "facts": []}), "unknown field `facts`"),
        (json!({"game": file, "suppose": [{"card": "kn", "place": "mu"}]}), "missing field `holds`"),
    ];
    for (body, says) in cases {
        let r = json(s.addr, "POST", "/api/analyze", &body);
        assert_eq!(r.status, 400, "{body}: {}", r.body);
        assert!(r.error().contains(says), "{says}: {}", r.error());
    }
}

#[test]
fn a_planned_suggestion_is_evaluated_as_the_advice_evaluates_it() {
    let s = start(None);
    let r = json(s.addr, "POST", "/api/games", &sample(12));
    let id = r.json()["id"].as_str().unwrap().to_string();
    let advice = crate::support::get(s.addr, &format!("/api/games/{id}/advice")).json();
    let best = &advice["suggestions"][0];
    let r = json(s.addr, "POST", "/api/evaluate", &json!({"game": sample(12), "cards": best["cards"]}));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(&r.json(), best);
    // Every answer, each with its probability: they add up to one.
    let total: f64 = best["outcomes"].as_array().unwrap().iter().map(|o| o["probability"].as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-9, "{total}");

    let bad = [
        (json!({"game": sample(12), "cards": ["pl", "mu", "ha"]}), 400, "one card of each category"),
        (json!({"game": sample(12), "cards": ["pl", "kn", "ha", "ha"]}), 400, "one card of each category"),
        (json!({"game": sample(12), "cards": ["pl", "kn", "zz"]}), 400, "unknown card 'zz'"),
    ];
    for (body, status, says) in bad {
        let r = json(s.addr, "POST", "/api/evaluate", &body);
        assert_eq!(r.status, status, "{body}: {}", r.body);
        assert!(r.error().contains(says), "{says}: {}", r.error());
    }
    let mut bystander = sample(0);
    bystander.as_object_mut().unwrap().remove("me");
    bystander.as_object_mut().unwrap().remove("hand");
    let r = json(s.addr, "POST", "/api/evaluate", &json!({"game": bystander, "cards": ["pl", "kn", "ha"]}));
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.error().contains("'me'"), "{}", r.error());
}
