//! The API's analysis, why, advice and refutation fit the checked-in JSON
//! Schemas of sleuth-core's wire types (docs/schema/*.json), the same as the
//! command line's `--json`: over the sample game turn by turn, and a
//! contradiction.

use crate::support::{change, get, json, sample_game, sample_setup, start};
use serde_json::{json, Value};
use std::net::SocketAddr;

fn validator(name: &str) -> jsonschema::Validator {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../docs/schema/{name}.json"));
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

#[track_caller]
fn fits(v: &jsonschema::Validator, what: &str, value: &Value) {
    let errors: Vec<String> = v.iter_errors(value).map(|e| format!("{e} at {}", e.instance_path())).collect();
    assert!(errors.is_empty(), "{what}: {}\n{value}", errors.join("\n"));
}

fn fetch(addr: SocketAddr, path: &str) -> Value {
    let r = get(addr, path);
    assert_eq!(r.status, 200, "{path}: {}", r.body);
    r.json()
}

#[test]
fn api_answers_fit_the_wire_schemas() {
    let [analysis, why, advice, refutation] = ["analysis", "why", "advice", "refutation"].map(validator);
    let s = start(None);
    let r = json(s.addr, "POST", "/api/games", &sample_setup());
    let id = r.json()["id"].as_str().unwrap().to_string();
    let events = sample_game()["events"].as_array().unwrap().clone();
    for (i, e) in events.iter().enumerate().take(12) {
        let state = change(s.addr, "POST", &format!("/api/games/{id}/events"), Some(&json!({ "event": e }))).json();
        fits(&analysis, &format!("turn {i}: the change's analysis"), &state["analysis"]);
        fits(&advice, &format!("turn {i}: advice"), &fetch(s.addr, &format!("/api/games/{id}/advice")));
        for (card, place) in [("sc", "mu"), ("pe", "case_file"), ("wh", "sc")] {
            let w = fetch(s.addr, &format!("/api/games/{id}/why?card={card}&place={place}"));
            fits(&why, &format!("turn {i}: why {card} {place}"), &w);
        }
    }
    for q in ["by=gr&cards=wh,pi,st", "by=gr&cards=mu,kn,ha", "by=mu&cards=wh,kn,li"] {
        fits(&refutation, q, &fetch(s.addr, &format!("/api/games/{id}/advice?{q}")));
    }
    // A contradiction: the analysis names it; why and advice say so.
    let bad = json!({"suggestion": {"by": "sc", "cards": ["wh", "ro", "lo"], "refuted_by": "mu", "shown": "wh"}});
    let state = change(s.addr, "POST", &format!("/api/games/{id}/events"), Some(&json!({ "event": bad }))).json();
    assert_eq!(state["analysis"]["consistent"], false);
    fits(&analysis, "contradiction", &state["analysis"]);
    let w = fetch(s.addr, &format!("/api/games/{id}/why?card=sc&place=mu"));
    fits(&why, "why in a contradiction", &w);
    assert_eq!((&w["consistent"], &w["reason"]), (&json!(false), &json!(null)));
}
