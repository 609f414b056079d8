//! Every endpoint over real HTTP, with good, bad and hostile input.

use crate::support::{change, get, json, sample_game, sample_setup, send, start, turn_at, Response};
use serde_json::json;
use std::net::SocketAddr;

fn create(addr: SocketAddr, file: &serde_json::Value) -> String {
    let r = json(addr, "POST", "/api/games", file);
    assert_eq!(r.status, 201, "{}", r.body);
    r.json()["id"].as_str().unwrap().to_string()
}

fn cell(analysis: &serde_json::Value, card: &str, place: &str) -> (f64, String) {
    let p = analysis["probabilities"][card][place].as_f64().unwrap();
    (p, analysis["status"][card][place].as_str().unwrap().to_string())
}

fn without_millis(analysis: &serde_json::Value) -> serde_json::Value {
    let mut a = analysis.clone();
    a.as_object_mut().unwrap().remove("millis");
    a
}

fn add(addr: SocketAddr, id: &str, event: serde_json::Value) -> Response {
    change(addr, "POST", &format!("/api/games/{id}/events"), Some(&json!({ "event": event })))
}

#[test]
fn the_page_and_its_assets_are_served_with_a_strict_policy() {
    let s = start(None);
    let page = get(s.addr, "/");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<script src=\"app.js\""));
    assert!(page.header("content-security-policy").unwrap().contains("default-src 'self'"));
    assert_eq!(page.header("x-frame-options"), Some("DENY"));
    assert!(get(s.addr, "/app.js").body.contains("async function api("));
    assert!(get(s.addr, "/style.css").body.contains("#notepad"));
    let missing = get(s.addr, "/nope");
    assert_eq!((missing.status, missing.error()), (404, "no such page or endpoint".to_string()));
    let decks = get(s.addr, "/api/decks").json();
    assert_eq!(decks["classic"].as_array().unwrap().len(), 3);
    assert_eq!(decks["master"][0]["cards"].as_array().unwrap().len(), 10);
}

#[test]
fn the_sample_game_entered_turn_by_turn_ends_solved() {
    let s = start(None);
    let id = create(s.addr, &sample_setup());
    let events = sample_game()["events"].as_array().unwrap().clone();
    let mut last = serde_json::Value::Null;
    for (i, e) in events.iter().enumerate() {
        let r = add(s.addr, &id, e.clone());
        assert_eq!(r.status, 200, "event {i}: {}", r.body);
        let state = r.json();
        assert_eq!(state["events"].as_array().unwrap().len(), i + 1);
        // The change's answer carries the analysis of the new version.
        assert_eq!(state["analysis"]["version"], state["version"], "event {i}");
        last = state["analysis"].clone();
    }
    let a = get(s.addr, &format!("/api/games/{id}/analysis"));
    assert_eq!(a.status, 200);
    let a = a.json();
    assert_eq!(without_millis(&a), without_millis(&last), "the change answered with the same analysis");
    assert_eq!(a["consistent"], true);
    assert_eq!(a["method"], "exact");
    assert_eq!(a["case_file"][0]["cards"], json!(["pe", "pi", "bi"]));
    assert_eq!(a["case_file"][0]["probability"], 1.0);
    assert_eq!((&a["case_file"][0]["models"], &a["case_file_count"]), (&json!("1"), &json!(1)));
    assert_eq!(cell(&a, "pe", "case_file"), (1.0, "yes".into()));
    assert_eq!(cell(&a, "wh", "sc"), (1.0, "yes".into()));
    assert_eq!(cell(&a, "kn", "case_file").1, "no");

    // The game is listed, exported as a game file, and reads back the same.
    let list = get(s.addr, "/api/games").json();
    assert_eq!(list["games"][0]["id"], id.as_str());
    assert_eq!(list["games"][0]["events"], events.len());
    let export = get(s.addr, &format!("/api/games/{id}/export"));
    assert!(export.header("content-disposition").unwrap().contains(&format!("{id}.json")));
    let exported = sleuth_core::GameFile::from_json(&export.body).unwrap();
    let original = sleuth_core::GameFile::from_json(&sample_game().to_string()).unwrap();
    assert_eq!(exported, original);
    // Imported again, it is a new game with the same analysis.
    let again = create(s.addr, &serde_json::from_str(&export.body).unwrap());
    assert_ne!(again, id);
    let b = get(s.addr, &format!("/api/games/{again}/analysis")).json();
    assert_eq!(without_millis(&b)["models_by_place"], without_millis(&a)["models_by_place"]);
    assert_eq!(b["probabilities"], a["probabilities"]);
}

#[test]
fn why_explains_certain_cells_and_only_those() {
    let s = start(None);
    let mut game = sample_game();
    game["events"] = json!(game["events"].as_array().unwrap()[..6]);
    let id = create(s.addr, &game);
    // sc was shown the Scarlet card by mu in turn 0.
    let w = get(s.addr, &format!("/api/games/{id}/why?card=sc&place=mu")).json();
    assert_eq!((&w["consistent"], &w["status"]), (&json!(true), &json!("yes")));
    assert_eq!(w["reason"], json!({"events": [0], "hand": false, "minimum": true}));
    assert_eq!(w["count"], w["models"]);
    let open = get(s.addr, &format!("/api/games/{id}/why?card=pe&place=case_file")).json();
    assert_eq!((&open["status"], &open["reason"]), (&json!("maybe"), &json!(null)));
    let r = get(s.addr, &format!("/api/games/{id}/why?card=zz&place=mu"));
    assert_eq!((r.status, r.error()), (400, "unknown card 'zz'".to_string()));
    let r = get(s.addr, &format!("/api/games/{id}/why?card=pe&place=nobody"));
    assert_eq!(r.status, 400);
    assert_eq!(get(s.addr, &format!("/api/games/{id}/why?card=pe")).status, 400);
}

#[test]
fn edit_delete_undo_and_redo() {
    let s = start(None);
    let id = create(s.addr, &sample_setup());
    let events = sample_game()["events"].as_array().unwrap().clone();
    for e in &events[..3] {
        assert_eq!(add(s.addr, &id, e.clone()).status, 200);
    }
    let path = |p: &str| format!("/api/games/{id}{p}");
    // Insert at the front, replace, delete.
    let r = change(s.addr, "POST", &path("/events"), Some(&json!({"event": events[5], "index": 0})));
    assert_eq!(r.json()["events"][0]["event"], events[5]);
    // Turns are named by their ids: t4 (added at the front), t1, t2, t3.
    let ids: Vec<String> = (0..4).map(|i| turn_at(s.addr, &id, i)).collect();
    assert_eq!(ids, ["t4", "t1", "t2", "t3"]);
    let r = change(s.addr, "PUT", &path("/events/t1"), Some(&json!({"event": events[4]})));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["events"][1]["event"], events[4]);
    let r = change(s.addr, "DELETE", &path("/events/t4"), None);
    assert_eq!(r.json()["events"].as_array().unwrap().len(), 3);
    // Undo twice: the replace and the delete are gone; redo once.
    change(s.addr, "POST", &path("/undo"), Some(&json!({})));
    let r = change(s.addr, "POST", &path("/undo"), None);
    assert_eq!(r.json()["events"][1]["event"], events[0]);
    assert_eq!(r.json()["can_redo"], true);
    // Every kind of change answers with the analysis of its own version.
    let fresh = get(s.addr, &path("/analysis")).json();
    assert_eq!(without_millis(&r.json()["analysis"]), without_millis(&fresh));
    assert_eq!(fresh["version"], r.json()["version"]);
    let r = change(s.addr, "POST", &path("/redo"), Some(&json!({})));
    assert_eq!(r.json()["events"][1]["event"], events[4]);
    // A new change clears the redo history.
    let r = add(s.addr, &id, events[6].clone());
    assert_eq!(r.json()["can_redo"], false);
    let r = change(s.addr, "POST", &path("/redo"), Some(&json!({})));
    assert_eq!((r.status, r.error()), (409, "nothing to redo".to_string()));
    // Turns that are not there, and paths that are not turn ids (positions among them).
    let r = change(s.addr, "DELETE", &path("/events/t99"), None);
    assert_eq!(r.status, 404);
    assert!(r.error().contains("no turn t99"), "{}", r.body);
    for bad in ["0", "1", "-1", "abc", "t01", "t0"] {
        let r = change(s.addr, "PUT", &path(&format!("/events/{bad}")), Some(&json!({"event": events[0]})));
        assert_eq!(r.status, 400, "{bad}: {}", r.body);
        assert!(r.error().starts_with(&format!("'{bad}' is not a turn id")), "{}", r.body);
    }
}

#[test]
fn contradictions_are_kept_and_named() {
    let s = start(None);
    let id = create(s.addr, &sample_setup());
    // sc holds wh; then sc says mu showed wh: impossible with sc's hand.
    let bad = json!({"suggestion": {"by": "sc", "cards": ["wh", "ro", "lo"], "refuted_by": "mu", "shown": "wh"}});
    assert_eq!(add(s.addr, &id, sample_game()["events"][1].clone()).status, 200);
    let r = add(s.addr, &id, bad);
    assert_eq!(r.status, 200, "{}", r.body);
    let a = get(s.addr, &format!("/api/games/{id}/analysis")).json();
    assert_eq!(a["consistent"], false);
    assert_eq!(a["models"], "0");
    assert_eq!(a["conflict"], json!([1]));
    assert_eq!(a["conflict_hand"], true);
    let state = get(s.addr, &format!("/api/games/{id}")).json();
    assert_eq!(state["events"].as_array().unwrap().len(), 2, "nothing typed is dropped");
    let advice = get(s.addr, &format!("/api/games/{id}/advice")).json();
    assert_eq!(advice["consistent"], false);
}

#[test]
fn advice_never_accuses_with_my_own_cards_and_accuses_at_once_when_certain() {
    let s = start(None);
    let setup = sample_setup();
    let hand: Vec<String> = setup["hand"].as_array().unwrap().iter().map(|c| c.as_str().unwrap().into()).collect();
    let id = create(s.addr, &setup);
    let events = sample_game()["events"].as_array().unwrap().clone();
    let mut certain_at = None;
    let mut millis = Vec::new();
    for (i, e) in events.iter().enumerate() {
        let state = add(s.addr, &id, e.clone()).json();
        let r = get(s.addr, &format!("/api/games/{id}/advice"));
        assert_eq!(r.status, 200, "after event {i}: {}", r.body);
        let a = r.json();
        assert_eq!(a["consistent"], true);
        assert_eq!(a["version"], state["version"]);
        millis.push(a["millis"].as_f64().unwrap());
        let accuse = &a["accusation"];
        let cards: Vec<&str> = accuse["cards"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
        assert_eq!(cards.len(), 3, "after event {i}: {accuse}");
        assert!(
            cards.iter().all(|c| !hand.iter().any(|h| h == c)),
            "after event {i}: accuses with my own card: {accuse}"
        );
        let p = accuse["probability"].as_f64().unwrap();
        // The accusation's chance is the analysis's exact chance of that case
        // file, and it is a most likely one (ties aside, the first listed).
        let files = state["analysis"]["case_file"].as_array().unwrap();
        let ids = |v: &serde_json::Value| -> Vec<String> {
            let mut ids: Vec<String> = v.as_array().unwrap().iter().map(|c| c.as_str().unwrap().into()).collect();
            ids.sort();
            ids
        };
        let ours = ids(&accuse["cards"]);
        let f = files.iter().find(|f| ids(&f["cards"]) == ours).expect("the accusation is a listed case file");
        assert!((p - f["probability"].as_f64().unwrap()).abs() < 1e-9, "after event {i}: {accuse} vs {f}");
        assert!((p - files[0]["probability"].as_f64().unwrap()).abs() < 1e-9, "after event {i}: not the most likely");
        // Never a long shot or a coin flip: "accuse now" only above even odds.
        assert!(accuse["accuse"] == false || p > 0.5, "after event {i}: accuse now at {p}: {accuse}");
        assert!(!accuse["rule"].as_str().unwrap().is_empty() && !accuse["threat_basis"].as_str().unwrap().is_empty());
        if p == 1.0 {
            // A certain solution is recommended at once.
            assert_eq!((accuse["accuse"].as_bool(), accuse["certain"].as_bool()), (Some(true), Some(true)), "{accuse}");
            certain_at.get_or_insert(i);
        } else {
            assert_eq!(accuse["certain"], false);
            let suggest = a["suggestions"].as_array().unwrap();
            assert!(!suggest.is_empty(), "after event {i}: no suggestion");
            for s in suggest {
                assert_eq!(s["cards"].as_array().unwrap().len(), 3);
                let (info, end) = (s["information"].as_f64().unwrap(), s["end_probability"].as_f64().unwrap());
                assert!(info >= 0.0 && (0.0..=1.0).contains(&end), "{s}");
            }
        }
        let opponents = a["opponents"].as_array().unwrap();
        assert_eq!(opponents.len(), setup["players"].as_array().unwrap().len() - 1);
        for o in opponents {
            assert!((0.0..=1.0).contains(&o["solved"].as_f64().unwrap()) && o["player"] != setup["me"], "{o}");
        }
    }
    assert!(certain_at.is_some(), "the sample game ends with a certain case file");
    millis.sort_by(f64::total_cmp);
    eprintln!("sample game advice: median {:.1} ms, max {:.1} ms", millis[millis.len() / 2], millis[millis.len() - 1]);
    let a = get(s.addr, &format!("/api/games/{id}/advice")).json();
    assert_eq!(a["accusation"]["cards"], json!(["pe", "pi", "bi"]));
}

#[test]
fn which_card_to_show() {
    let s = start(None);
    let id = create(s.addr, &sample_game());
    let path = |q: &str| format!("/api/games/{id}/advice?{q}");
    // sc showed wh to gr before: asked by gr about wh again, show wh, it reveals nothing.
    let a = get(s.addr, &path("by=gr&cards=wh,pi,st")).json();
    assert_eq!(a["show"], "wh", "{a}");
    assert!(a["reason"].as_str().unwrap().contains("gr has seen it"), "{a}");
    assert_eq!(a["options"][0]["revealed"], 0.0);
    // Holding none of the cards is a pass.
    let a = get(s.addr, &path("by=gr&cards=mu,kn,ha")).json();
    assert_eq!(a["show"], serde_json::Value::Null);
    // Two of my cards, neither shown to mu: both are options, the advised one first.
    let a = get(s.addr, &path("by=mu&cards=wh,kn,li")).json();
    let options = a["options"].as_array().unwrap();
    assert_eq!(options.len(), 2, "{a}");
    assert_eq!(options[0]["card"], a["show"], "{a}");
    assert!(options.iter().all(|o| o["already_shown"] == false), "{a}");
    // Questions that cannot be asked.
    for q in ["by=gr", "by=zz&cards=wh,pi,st", "by=gr&cards=wh,zz,st", "by=sc&cards=wh,pi,st", "by=gr&cards=wh,pi"] {
        let r = get(s.addr, &path(q));
        assert_eq!(r.status, 400, "{q}: {}", r.body);
    }
}

#[test]
fn advice_needs_a_player_view() {
    let s = start(None);
    let bystander = json!({"version": 1, "deck": "classic", "players": ["a", "b", "c"], "events": []});
    let id = create(s.addr, &bystander);
    let r = get(s.addr, &format!("/api/games/{id}/advice"));
    assert_eq!(r.status, 422);
    assert!(r.error().contains("player's view"), "{}", r.body);
}

#[test]
fn bad_input_is_refused_with_a_clear_message_and_changes_nothing() {
    let s = start(None);
    let id = create(s.addr, &sample_setup());
    let events = format!("/api/games/{id}/events");
    let cases: Vec<(serde_json::Value, u16, &str)> = vec![
        (json!({"event": 5}), 400, "not a valid event"),
        (json!({"event": {"suggestion": {"by": "sc", "cards": "pe"}}}), 400, "not a valid event"),
        (json!({"event": {"suggestion": {"by": "sc", "cards": ["pe", "pi", "ba"]}}}), 400, "refuted_by"),
        (json!({"event": {"suggestion": {"by": "sc", "cards": ["pe", "pi", "zz"], "refuted_by": null}}}), 422, "zz"),
        (json!({"event": {"suggestion": {"by": "xx", "cards": ["pe", "pi", "ba"], "refuted_by": null}}}), 422, "xx"),
        (json!({"event": {"suggestion": {"by": "sc", "cards": ["pe", "pl", "ba"], "refuted_by": null}}}), 422, ""),
        (
            json!({"event": {"suggestion": {"by": "mu", "cards": ["pe", "pi", "ba"], "refuted_by": "pe", "shown": "pe"}}}),
            422,
            "shown",
        ),
        (json!({"event": {"accusation": {"by": "mu", "cards": ["pe", "pi", "ba"], "correct": "yes"}}}), 400, ""),
        (
            json!({"event": {"accusation": {"by": "mu", "cards": ["pe", "pi", "ba"], "correct": true}}, "extra": 1}),
            400,
            "extra",
        ),
        (
            json!({"event": {"accusation": {"by": "mu", "cards": ["pe", "pi", "ba"], "correct": true}}, "index": 7}),
            422,
            "cannot add a turn at position 7: the game has 0 turns",
        ),
        (json!([1, 2, 3]), 400, ""),
    ];
    for (body, status, message) in cases {
        let r = change(s.addr, "POST", &events, Some(&body));
        assert_eq!(r.status, status, "{body}: {}", r.body);
        assert!(r.error().contains(message), "{body}: {}", r.body);
    }
    let headers = [("Content-Type", "application/json"), ("If-Match", "\"0\""), ("Idempotency-Key", "k")];
    let r = send(s.addr, "POST", &events, &headers, b"{not json");
    assert_eq!(r.status, 400);
    assert!(r.error().contains("invalid request body"), "{}", r.body);
    let r = send(s.addr, "POST", &events, &headers, &[0xff, 0xfe]);
    assert_eq!(r.status, 400);
    assert!(r.error().contains("UTF-8"), "{}", r.body);
    assert_eq!(get(s.addr, &format!("/api/games/{id}")).json()["events"], json!([]));

    // Invalid games are not created.
    let mut one_player = sample_setup();
    one_player["players"] = json!(["sc"]);
    let r = json(s.addr, "POST", "/api/games", &one_player);
    assert_eq!(r.status, 422);
    assert!(r.error().contains("player"), "{}", r.body);
    let r = json(s.addr, "POST", "/api/games", &json!({"version": 1}));
    assert_eq!(r.status, 400, "{}", r.body);
    let r = json(
        s.addr,
        "POST",
        "/api/games",
        &json!({"version": 1, "deck": "classic", "players": ["a", "b"], "handSizes": {}}),
    );
    assert!(r.error().contains("did you mean 'hand_sizes'"), "{}", r.body);
    assert_eq!(get(s.addr, "/api/games").json()["games"].as_array().unwrap().len(), 1);

    // Unknown and hostile game ids.
    assert_eq!(get(s.addr, "/api/games/nope").status, 404);
    assert_eq!(get(s.addr, "/api/games/..%2F..%2Fetc%2Fpasswd").status, 404);
    assert_eq!(get(s.addr, "/api/games/%2E%2E/analysis").status, 404);
}

#[test]
fn huge_bodies_are_refused() {
    let s = start(None);
    let id = create(s.addr, &sample_setup());
    let huge = format!("{{\"event\": \"{}\"}}", "x".repeat(sleuth_web::MAX_BODY + 1));
    let r = send(
        s.addr,
        "POST",
        &format!("/api/games/{id}/events"),
        &[("Content-Type", "application/json")],
        huge.as_bytes(),
    );
    assert_eq!(r.status, 413, "{}", r.body);
    let mut big_game = sample_setup();
    big_game["players"] = json!(vec!["p".repeat(1000); 300]);
    let r = json(s.addr, "POST", "/api/games", &big_game);
    assert_eq!(r.status, 413);
}

#[test]
fn cross_origin_and_rebinding_requests_are_refused() {
    let s = start(None);
    let id = create(s.addr, &sample_setup());
    let body = json!({"event": sample_game()["events"][0]}).to_string();
    let events = format!("/api/games/{id}/events");
    let with = |headers: &[(&str, &str)]| send(s.addr, "POST", &events, headers, body.as_bytes());
    let ct = ("Content-Type", "application/json");
    let r = with(&[ct, ("Origin", "http://evil.example")]);
    assert_eq!((r.status, r.error()), (403, "cross-origin requests are refused".to_string()));
    let r = with(&[ct, ("Origin", "null")]);
    assert_eq!(r.status, 403);
    let r = with(&[ct, ("Sec-Fetch-Site", "cross-site")]);
    assert_eq!(r.status, 403);
    let r = with(&[ct, ("Host", "evil.example"), ("Origin", "http://evil.example")]);
    assert_eq!(r.status, 403);
    let r = send(s.addr, "GET", "/api/games", &[("Host", "rebound.example:7878")], b"");
    assert_eq!(r.status, 403);
    // A form post from another site cannot even send JSON.
    let r = with(&[("Content-Type", "application/x-www-form-urlencoded")]);
    assert_eq!(r.status, 415);
    let r = with(&[]);
    assert_eq!(r.status, 415);
    assert_eq!(get(s.addr, &format!("/api/games/{id}")).json()["events"], json!([]));
    // The same origin is fine.
    let origin = format!("http://{}", s.addr);
    let r = with(&[ct, ("Origin", &origin), ("If-Match", "\"0\""), ("Idempotency-Key", "k1")]);
    assert_eq!(r.status, 200, "{}", r.body);
}

#[test]
fn with_a_token_every_request_needs_it() {
    let token = "0123456789abcdef0123456789abcdef";
    let s = start(Some(token));
    for path in ["/", "/app.js", "/api/decks", "/api/games", "/api/games/x/analysis"] {
        let r = get(s.addr, path);
        assert_eq!(r.status, 401, "{path}");
        assert!(r.error().contains("access token"));
        let r = send(s.addr, "GET", path, &[("X-Sleuth-Token", "0123456789abcdef0123456789abcdee")], b"");
        assert_eq!(r.status, 401, "{path}");
    }
    let r = json(s.addr, "POST", "/api/games", &sample_setup());
    assert_eq!(r.status, 401);
    assert_eq!(get(s.addr, "/api/games?token=wrong").status, 401);
    // The printed URL carries the token and sets a cookie for the page's assets.
    let page = get(s.addr, &format!("/?token={token}"));
    assert_eq!(page.status, 200);
    let cookie = page.header("set-cookie").unwrap();
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "{cookie}");
    let cookie = cookie.split(';').next().unwrap();
    assert_eq!(send(s.addr, "GET", "/app.js", &[("Cookie", cookie)], b"").status, 200);
    let r = send(
        s.addr,
        "POST",
        "/api/games",
        &[("Content-Type", "application/json"), ("X-Sleuth-Token", token)],
        sample_setup().to_string().as_bytes(),
    );
    assert_eq!(r.status, 201, "{}", r.body);
}

#[test]
fn custom_decks_bystanders_and_game_files_copied_in_by_hand() {
    let s = start(None);
    let custom = json!({"version": 1, "deck": {"categories": [
        {"name": "who", "cards": ["a", "b", "c"]}, {"name": "what", "cards": [{"id": "x", "name": "Axe"}, "y"]}]},
        "players": ["p", "q"], "events": [
        {"suggestion": {"by": "p", "cards": ["a", "x"], "refuted_by": null}}]});
    let id = create(s.addr, &custom);
    let state = get(s.addr, &format!("/api/games/{id}")).json();
    assert_eq!(state["deck"][1]["cards"][0], json!({"id": "x", "name": "Axe"}));
    assert_eq!(state["hand_sizes"], json!([2, 1]), "the dealing rule: earlier seats first");
    let a = get(s.addr, &format!("/api/games/{id}/analysis")).json();
    assert_eq!(a["places"], json!(["p", "q", "case_file"]));
    assert_eq!(cell(&a, "a", "q").1, "no", "q passed p's suggestion");

    // Game files put in DATA/games/ before a start (the layout before the
    // database) are imported: listed and opened; a broken one is reported.
    let data = tempfile::tempdir().unwrap();
    let games = data.path().join("games");
    std::fs::create_dir_all(&games).unwrap();
    std::fs::write(games.join("by-hand.json"), sample_game().to_string()).unwrap();
    std::fs::write(games.join("broken.json"), "{").unwrap();
    let t = crate::support::start_in(data.path(), None);
    let list = get(t, "/api/games").json();
    let ids: Vec<&str> = list["games"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["by-hand"], "{list}");
    let problems = list["problems"].as_array().unwrap();
    assert!(problems.len() == 1 && problems[0].as_str().unwrap().contains("broken.json"), "{list}");
    let r = add(t, "by-hand", json!({"accusation": {"by": "mu", "cards": ["mu", "kn", "ha"], "correct": false}}));
    assert_eq!(r.status, 200, "{}", r.body);
    let export = get(t, "/api/games/by-hand/export");
    assert_eq!(sleuth_core::GameFile::from_json(&export.body).unwrap().events.len(), 29);
    assert_eq!(get(t, "/api/games/broken").status, 404);
    // The files are kept aside, untouched.
    let kept = data.path().join("games-imported");
    assert_eq!(std::fs::read_to_string(kept.join("broken.json")).unwrap(), "{");
    assert!(!games.exists());
}

#[test]
fn wrong_methods_are_refused_as_json() {
    let s = start(None);
    let id = create(s.addr, &sample_setup());
    let r = get(s.addr, &format!("/api/games/{id}/undo"));
    assert_eq!((r.status, r.error()), (405, "this endpoint does not take that method".to_string()));
    assert_eq!(send(s.addr, "DELETE", "/api/games", &[], b"").status, 405);
}

#[test]
fn master_deck_games_are_analysed() {
    let s = start(None);
    let game = json!({"version": 1, "deck": "master", "players": ["a", "b", "c", "d", "e", "f"],
        "me": "a", "hand": ["mu", "kn", "ch", "ro", "fo"], "events": [
        {"suggestion": {"by": "a", "cards": ["pl", "ca", "ga"], "refuted_by": "c", "shown": "ca"}},
        {"suggestion": {"by": "b", "cards": ["gr", "re", "di"], "refuted_by": null}}]});
    let id = create(s.addr, &game);
    let a = get(s.addr, &format!("/api/games/{id}/analysis"));
    assert_eq!(a.status, 200, "{}", a.body);
    let a = a.json();
    assert_eq!(a["consistent"], true);
    assert_eq!(a["status"].as_object().unwrap().len(), 30);
    assert_eq!(cell(&a, "ca", "c").1, "yes");
    assert!(a["models"].as_str().unwrap().parse::<u128>().unwrap() > 1);
    let advice = get(s.addr, &format!("/api/games/{id}/advice"));
    assert_eq!(advice.status, 200, "{}", advice.body);
    let advice = advice.json();
    assert_eq!(advice["accusation"]["accuse"], false, "{advice}");
    assert_eq!(advice["accusation"]["cards"].as_array().unwrap().len(), 3);
    eprintln!("master deck, 6 players, 2 turns: advice in {} ms", advice["millis"]);
    // Asked again for the same version, the advice comes from the cache (the same timing).
    assert_eq!(get(s.addr, &format!("/api/games/{id}/advice")).json(), advice);
}

/// Issue 59: ids in one spelling. A game whose card and player are spelt
/// with a composed `é` takes events and questions that spell them with `e`
/// and a combining accent; ids that differ only by spelling are one id;
/// an id holding an invisible character is refused, the character escaped.
#[test]
fn ids_are_compared_in_nfc_and_invisible_characters_are_refused() {
    let s = start(None);
    let game = json!({"version": 1, "deck": {"categories": [
        {"name": "who", "cards": ["caf\u{e9}", "b", "c"]}, {"name": "what", "cards": ["x", "y"]}]},
        "players": ["p\u{e9}", "q", "r"], "me": "q", "hand": ["b"], "events": []});
    let id = create(s.addr, &game);
    let r =
        add(s.addr, &id, json!({"suggestion": {"by": "pe\u{301}", "cards": ["cafe\u{301}", "x"], "refuted_by": null}}));
    assert_eq!(r.status, 200, "{}", r.body);
    let events = get(s.addr, &format!("/api/games/{id}")).json()["events"].clone();
    assert_eq!(events[0]["event"]["suggestion"]["by"], "p\u{e9}", "{events}");
    assert_eq!(events[0]["event"]["suggestion"]["cards"][0], "caf\u{e9}", "{events}");
    // Query parameters, percent-encoded: e + U+0301 is e%CC%81.
    let w = get(s.addr, &format!("/api/games/{id}/why?card=cafe%CC%81&place=r"));
    assert_eq!(w.status, 200, "{}", w.body);
    assert_eq!(w.json()["status"], "no");
    let a = get(s.addr, &format!("/api/games/{id}/advice?by=pe%CC%81&cards=cafe%CC%81,y"));
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.json()["suggester"], "p\u{e9}");

    let mut twice = game.clone();
    twice["players"] = json!(["caf\u{e9}", "cafe\u{301}", "r"]);
    twice["me"] = json!("r");
    let r = json(s.addr, "POST", "/api/games", &twice);
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.error().contains("listed twice"), "{}", r.body);
    let mut hidden = game.clone();
    hidden["players"] = json!(["p\u{e9}", "q", "q\u{200b}"]);
    let r = json(s.addr, "POST", "/api/games", &hidden);
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.error().contains("'q\\u{200b}' holds the invisible or control character \\u{200b}"), "{}", r.body);
    let r = add(s.addr, &id, json!({"accusation": {"by": "q\u{200b}", "cards": ["b", "x"], "correct": false}}));
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.error().contains("\\u{200b}") && !r.error().contains('\u{200b}'), "{}", r.body);
    let r = get(s.addr, &format!("/api/games/{id}/why?card=caf%C3%A9%E2%80%8B&place=r"));
    assert_eq!((r.status, r.error()), (400, "unknown card 'caf\u{e9}\\u{200b}'".to_string()));
    assert_eq!(get(s.addr, &format!("/api/games/{id}")).json()["events"].as_array().unwrap().len(), 1);
}

/// `?progress` answers 202 with the advice so far (one more suggestion
/// evaluated each time it changes, at most five choices listed) until the advice is
/// counted, then the advice itself: the same as without `?progress`.
#[test]
fn the_advice_so_far_firms_up_to_the_advice() {
    let s = start(None);
    let file: serde_json::Value = serde_json::from_str(include_str!("../../e2e/master-10-slow-advice.json")).unwrap();
    let id = create(s.addr, &file);
    let path = format!("/api/games/{id}/advice?progress");
    let mut seen = Vec::new();
    let last = loop {
        let r = get(s.addr, &path);
        if r.status == 200 {
            break r.json();
        }
        assert_eq!(r.status, 202, "{}", r.body);
        let p = r.json();
        assert_eq!((p["partial"].clone(), p["version"].clone()), (true.into(), 0.into()), "{p}");
        let (evaluated, shortlisted) = (p["evaluated"].as_u64().unwrap(), p["shortlisted"].as_u64().unwrap());
        // At most five choices, each with the suggestions of the same answers.
        let listed = p["suggestions"].as_array().unwrap();
        let choices = listed.iter().filter(|s| s["same_answers_as"].is_null()).count() as u64;
        assert!(choices == evaluated.min(5) || (choices < 5 && listed.len() as u64 == evaluated), "{p}");
        for s in listed {
            if let Some(j) = s["same_answers_as"].as_u64() {
                assert_eq!(s["outcomes"], listed[j as usize]["outcomes"], "{p}");
            }
        }
        assert!(evaluated <= shortlisted, "{p}");
        seen.push(evaluated);
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    assert!(seen.first() == Some(&0) && seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
    assert!(seen.iter().any(|&e| e > 0), "some suggestions evaluated before the end: {seen:?}");
    assert!(last.get("partial").is_none() && last["consistent"] == true, "{last}");
    assert_eq!(get(s.addr, &format!("/api/games/{id}/advice")).json(), last, "the cached advice");
    let fresh = create(s.addr, &file);
    let plain = get(s.addr, &format!("/api/games/{fresh}/advice")).json();
    assert_eq!(without_millis(&plain), without_millis(&last));
}
