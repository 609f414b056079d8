//! Safe changes (issue 18): versions, two tabs, double taps, strict input,
//! every error as JSON, game names, rename and delete, and sharing.

use crate::support::{change, change_from, get, json, sample_game, sample_setup, send, start, start_in, version};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::path::Path;
use std::sync::{Arc, Barrier};

fn create(addr: SocketAddr, file: &Value) -> String {
    let r = json(addr, "POST", "/api/games", file);
    assert_eq!(r.status, 201, "{}", r.body);
    r.json()["id"].as_str().unwrap().to_string()
}

fn event(n: usize) -> Value {
    sample_game()["events"][n].clone()
}

/// The database and its write-ahead log, byte for byte: what a change writes.
fn files(data: &Path, _id: &str) -> (Vec<u8>, Vec<u8>) {
    let read = |name: &str| std::fs::read(data.join(name)).unwrap_or_default();
    (read("sleuth.db"), read("sleuth.db-wal"))
}

#[test]
fn a_change_from_a_stale_tab_gets_409_and_changes_nothing() {
    let s = start(None);
    let id = create(s.addr, &sample_setup());
    let game = format!("/api/games/{id}");
    // Two tabs load the game at version 0.
    let loaded = get(s.addr, &game);
    assert_eq!((loaded.header("etag"), &loaded.json()["version"]), (Some("\"0\""), &json!(0)));
    // Tab A adds two turns.
    for (n, tag) in [(0, "\"0\""), (1, "\"1\"")] {
        let r = change_from(s.addr, "POST", &format!("{game}/events"), tag, Some(&json!({"event": event(n)})));
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let r = get(s.addr, &game);
    assert_eq!(r.header("etag"), Some("\"2\""));
    let now = r.json();
    let before = files(s.dir.path(), &id);
    // Tab B, still at version 0, tries every kind of change.
    let stale: Vec<(&str, String, Option<Value>)> = vec![
        ("POST", format!("{game}/events"), Some(json!({"event": event(2)}))),
        ("POST", format!("{game}/events"), Some(json!({"event": event(2), "index": 0}))),
        ("PUT", format!("{game}/events/t1"), Some(json!({"event": event(3)}))),
        ("DELETE", format!("{game}/events/t1"), None),
        ("POST", format!("{game}/undo"), None),
        ("POST", format!("{game}/redo"), Some(json!({}))),
        ("PATCH", game.clone(), Some(json!({"name": "renamed"}))),
        ("DELETE", game.clone(), None),
    ];
    for (method, path, body) in &stale {
        let r = change_from(s.addr, method, path, "\"0\"", body.as_ref());
        assert_eq!(r.status, 409, "{method} {path}: {}", r.body);
        assert_eq!(r.header("content-type"), Some("application/json"));
        assert_eq!(r.header("etag"), Some("\"2\""));
        assert_eq!(
            r.error(),
            "the game changed since you loaded it (your version 0, now 2); nothing was changed",
            "{method} {path}"
        );
        // The answer carries exactly what GET answers now.
        assert_eq!(r.json()["state"], now, "{method} {path}");
    }
    assert_eq!(files(s.dir.path(), &id), before, "a refused change wrote nothing");
    assert_eq!(get(s.addr, &game).json(), now);
    // Reloaded, tab B's delete goes through and removes the turn it saw.
    let r = change_from(s.addr, "DELETE", &format!("{game}/events/t1"), "\"2\"", None);
    assert_eq!((r.status, r.header("etag")), (200, Some("\"3\"")), "{}", r.body);
    assert_eq!(r.json()["version"], 3);
    assert_eq!(r.json()["events"][0]["event"], event(1));
}

#[test]
fn a_double_tap_from_one_version_is_stored_once() {
    let s = start(None);
    let id = create(s.addr, &sample_setup());
    let events = format!("/api/games/{id}/events");
    let body = json!({"event": event(0)});
    let first = change_from(s.addr, "POST", &events, "\"0\"", Some(&body));
    let second = change_from(s.addr, "POST", &events, "\"0\"", Some(&body));
    assert_eq!((first.status, second.status), (200, 409), "{}", second.body);
    assert_eq!(get(s.addr, &format!("/api/games/{id}")).json()["events"].as_array().unwrap().len(), 1);
}

/// `copies` identical requests sent at the same moment from one version.
fn at_once(addr: SocketAddr, copies: usize, method: &str, path: &str, tag: &str, body: Option<Value>) -> Vec<u16> {
    let barrier = Arc::new(Barrier::new(copies));
    let threads: Vec<_> = (0..copies)
        .map(|_| {
            let (barrier, method, path, tag, body) =
                (barrier.clone(), method.to_string(), path.to_string(), tag.to_string(), body.clone());
            std::thread::spawn(move || {
                barrier.wait();
                change_from(addr, &method, &path, &tag, body.as_ref()).status
            })
        })
        .collect();
    let mut statuses: Vec<u16> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    statuses.sort_unstable();
    statuses
}

#[test]
fn concurrent_double_taps_change_the_game_once() {
    let s = start(None);
    let id = create(s.addr, &sample_setup());
    let game = format!("/api/games/{id}");
    for round in 0..10 {
        let v = version(s.addr, &id);
        let tag = format!("\"{v}\"");
        // Four taps on "Add turn": one turn stored.
        let statuses =
            at_once(s.addr, 4, "POST", &format!("{game}/events"), &tag, Some(json!({"event": event(round)})));
        assert_eq!(statuses, [200, 409, 409, 409], "round {round}");
        let state = get(s.addr, &game).json();
        assert_eq!(state["events"].as_array().unwrap().len(), round + 1, "round {round}");
        assert_eq!(state["version"], v + 1);
    }
    // Four taps on Delete of the first turn: one turn removed.
    let tag = format!("\"{}\"", version(s.addr, &id));
    let statuses = at_once(s.addr, 4, "DELETE", &format!("{game}/events/t1"), &tag, None);
    assert_eq!(statuses, [200, 409, 409, 409]);
    let state = get(s.addr, &game).json();
    assert_eq!(state["events"].as_array().unwrap().len(), 9);
    assert_eq!(state["events"][0]["event"], event(1));
    // The journal holds each change once: replayed, the game is the same.
    crate::support::stop(s.addr);
    let again = start_in(s.dir.path(), None);
    assert_eq!(get(again, &game).json(), state);
}

#[test]
fn a_change_without_if_match_gets_428_and_changes_nothing() {
    let s = start(None);
    let id = create(s.addr, &sample_setup());
    let game = format!("/api/games/{id}");
    change(s.addr, "POST", &format!("{game}/events"), Some(&json!({"event": event(0)})));
    let before = files(s.dir.path(), &id);
    let ct = [("Content-Type", "application/json")];
    for (method, path, body) in [
        ("POST", format!("{game}/events"), json!({"event": event(1)}).to_string()),
        ("PUT", format!("{game}/events/t1"), json!({"event": event(1)}).to_string()),
        ("DELETE", format!("{game}/events/t1"), String::new()),
        ("POST", format!("{game}/undo"), String::new()),
        ("POST", format!("{game}/redo"), "{}".into()),
        ("PATCH", game.clone(), json!({"name": "x"}).to_string()),
        ("DELETE", game.clone(), String::new()),
    ] {
        let r = send(s.addr, method, &path, &ct, body.as_bytes());
        assert_eq!(r.status, 428, "{method} {path}: {}", r.body);
        assert!(r.error().contains("If-Match"), "{}", r.body);
        for bad in ["*", "abc", "\"1", ""] {
            let r = send(s.addr, method, &path, &[ct[0], ("If-Match", bad)], body.as_bytes());
            assert_eq!(r.status, 400, "If-Match: {bad}: {}", r.body);
        }
    }
    assert_eq!(files(s.dir.path(), &id), before);
    // The forms a client may send: "1", 1 and W/"1".
    let (undo, redo) = (format!("{game}/undo"), format!("{game}/redo"));
    assert_eq!(change_from(s.addr, "POST", &undo, "1", None).status, 200);
    assert_eq!(change_from(s.addr, "POST", &redo, "W/\"2\"", None).status, 200);
    let r = change_from(s.addr, "POST", &undo, "2", None);
    assert_eq!(r.status, 409);
    assert!(r.error().contains("your version 2, now 3"), "{}", r.body);
}

#[test]
fn polling_with_if_none_match_gets_304_until_the_game_changes() {
    let s = start(None);
    let id = create(s.addr, &sample_setup());
    let game = format!("/api/games/{id}");
    let poll = |tag: &str| send(s.addr, "GET", &game, &[("If-None-Match", tag)], b"");
    let r = poll("\"0\"");
    assert_eq!((r.status, r.body.as_str(), r.header("etag")), (304, "", Some("\"0\"")));
    assert_eq!(r.header("cache-control"), Some("no-cache"));
    change(s.addr, "POST", &format!("{game}/events"), Some(&json!({"event": event(0)})));
    let r = poll("\"0\"");
    assert_eq!((r.status, r.header("etag")), (200, Some("\"1\"")));
    assert_eq!(r.json()["version"], 1);
    assert_eq!(poll("W/\"1\"").status, 304);
}

#[test]
fn misspelt_and_unknown_keys_are_refused_as_the_file_import_refuses_them() {
    let s = start(None);
    let id = create(s.addr, &sample_setup());
    let events = format!("/api/games/{id}/events");
    let shown = json!({"suggestion": {"by": "sc", "cards": ["pe", "pi", "ba"], "refuted_by": "mu", "shwon": "pe"}});
    let refuted = json!({"suggestion": {"by": "sc", "cards": ["pe", "pi", "ba"], "Refuted_By": "mu"}});
    let turn = json!({"suggestion": {"by": "sc", "cards": ["pe", "pi", "ba"], "refuted_by": null, "turn": 3}});
    let cases = [
        (json!({"event": shown}), "unknown key 'shwon' in the event (did you mean 'shown'?)"),
        (json!({"event": refuted}), "unknown key 'Refuted_By' in the event (did you mean 'refuted_by'?)"),
        (json!({"event": turn}), "unknown key 'turn' in the event"),
        (json!({"event": event(0), "idx": 0}), "unknown field `idx`"),
    ];
    for (body, message) in &cases {
        let r = change(s.addr, "POST", &events, Some(body));
        assert_eq!(r.status, 400, "{body}: {}", r.body);
        assert!(r.error().contains(message), "{body}: {}", r.body);
        let r = change(s.addr, "PUT", &format!("{events}/t1"), Some(body));
        assert_eq!(r.status, 400, "{body}: {}", r.body);
    }
    // The same misspelling in an imported game file is refused the same way.
    let mut file = sample_setup();
    file["events"] = json!([shown]);
    let r = json(s.addr, "POST", "/api/games", &file);
    assert_eq!(r.status, 400);
    assert!(r.error().contains("unknown key 'shwon' in event 0 (did you mean 'shown'?)"), "{}", r.body);
    assert_eq!(get(s.addr, &format!("/api/games/{id}")).json()["version"], 0);
    assert_eq!(get(s.addr, "/api/games").json()["games"].as_array().unwrap().len(), 1);
}

#[test]
fn undo_and_redo_refuse_a_body() {
    let s = start(None);
    let id = create(s.addr, &sample_setup());
    let game = format!("/api/games/{id}");
    change(s.addr, "POST", &format!("{game}/events"), Some(&json!({"event": event(0)})));
    for body in [json!({"steps": 5}), json!([]), json!("undo"), json!(null)] {
        let r = change(s.addr, "POST", &format!("{game}/undo"), Some(&body));
        assert_eq!(r.status, 400, "{body}: {}", r.body);
        assert!(r.error().contains("undo takes no body"), "{}", r.body);
    }
    assert_eq!(get(s.addr, &game).json()["events"].as_array().unwrap().len(), 1);
    let r = change(s.addr, "POST", &format!("{game}/undo"), Some(&json!({})));
    assert_eq!(r.status, 200, "{}", r.body);
    let r = change(s.addr, "POST", &format!("{game}/redo"), Some(&json!({"x": 1})));
    assert_eq!((r.status, r.error()), (400, "redo takes no body (or {}); nothing was changed".to_string()));
    assert_eq!(change(s.addr, "POST", &format!("{game}/redo"), None).status, 200);
}

#[test]
fn every_error_is_json() {
    let token = "0123456789abcdef0123456789abcdef";
    let s = start(None);
    let id = create(s.addr, &sample_setup());
    let game = format!("/api/games/{id}");
    let ct = ("Content-Type", "application/json");
    let im = ("If-Match", "\"0\"");
    let huge = vec![b'x'; sleuth_web::MAX_BODY + 1];
    let t = start(Some(token));
    // (server, method, path, headers, body, status)
    type Case<'a> = (SocketAddr, &'a str, String, Vec<(&'a str, &'a str)>, Vec<u8>, u16);
    let cases: Vec<Case> = vec![
        (s.addr, "GET", "/nope".into(), vec![], vec![], 404),
        (s.addr, "GET", "/api/nope".into(), vec![], vec![], 404),
        (s.addr, "GET", format!("{game}/events/0/more"), vec![], vec![], 404),
        (s.addr, "GET", "/api/games/nope".into(), vec![], vec![], 404),
        (s.addr, "PUT", "/api/games".into(), vec![ct], b"{}".to_vec(), 405),
        (s.addr, "GET", format!("{game}/undo"), vec![], vec![], 405),
        (s.addr, "POST", format!("{game}/events"), vec![ct, im], huge.clone(), 413),
        (s.addr, "POST", "/api/games".into(), vec![ct], huge, 413),
        (s.addr, "POST", format!("{game}/events"), vec![ct, im], vec![b'"', 0xff, 0xfe, b'"'], 400),
        (s.addr, "POST", format!("{game}/events"), vec![ct, im], b"{\"event\": ".to_vec(), 400),
        (s.addr, "DELETE", format!("{game}/events/x1"), vec![im], vec![], 400),
        (s.addr, "DELETE", format!("{game}/events/99999999999999999999999"), vec![im], vec![], 400),
        (s.addr, "GET", "/api/games/%FF%FE".into(), vec![], vec![], 400),
        (s.addr, "GET", format!("{game}/why?card=%FF"), vec![], vec![], 400),
        (s.addr, "POST", format!("{game}/events"), vec![im], b"{}".to_vec(), 415),
        (s.addr, "POST", format!("{game}/events"), vec![ct, ("Origin", "http://evil.example")], vec![], 403),
        (s.addr, "POST", format!("{game}/undo"), vec![ct], vec![], 428),
        (s.addr, "POST", format!("{game}/undo"), vec![ct, ("If-Match", "\"7\"")], vec![], 409),
        (t.addr, "GET", "/api/games".into(), vec![], vec![], 401),
        (t.addr, "GET", "/nope".into(), vec![], vec![], 401),
    ];
    for (addr, method, path, headers, body, status) in cases {
        let r = send(addr, method, &path, &headers, &body);
        assert_eq!(r.status, status, "{method} {path}: {}", r.body);
        assert_eq!(r.header("content-type"), Some("application/json"), "{method} {path}");
        assert!(!r.error().is_empty(), "{method} {path}");
    }
    // Axum's own refusals keep their words, and the limit is said in words.
    let r = send(s.addr, "POST", "/api/games", &[ct], &vec![b' '; sleuth_web::MAX_BODY + 1]);
    assert_eq!(r.error(), "the request body is too large (at most 256 KiB)");
    let r = send(s.addr, "POST", &format!("{game}/events"), &[ct, im], &[0xff]);
    assert!(r.error().contains("UTF-8"), "{}", r.body);
    let r = send(s.addr, "PUT", "/api/games", &[ct], b"{}");
    assert!(r.header("allow").is_some_and(|a| a.contains("GET")), "{:?}", r.headers);
}

#[test]
fn games_are_named_renamed_and_deleted_and_names_survive_a_restart() {
    let s = start(None);
    let named = json(s.addr, "POST", "/api/games?name=%20Friday%20at%20Ann%27s%20", &sample_setup());
    assert_eq!(named.status, 201, "{}", named.body);
    assert_eq!(named.json()["name"], "Friday at Ann's", "trimmed");
    let id = named.json()["id"].as_str().unwrap().to_string();
    let unnamed = create(s.addr, &sample_setup());
    let name = get(s.addr, &format!("/api/games/{unnamed}")).json()["name"].as_str().unwrap().to_string();
    assert!(name.starts_with("Game 20") && name.ends_with(" UTC"), "{name}");
    for bad in ["%20%20", "a%0Ab", &"x".repeat(81)] {
        let r = json(s.addr, "POST", &format!("/api/games?name={bad}"), &sample_setup());
        assert_eq!(r.status, 422, "{bad}: {}", r.body);
    }

    // Rename: a change like any other, with a version.
    let game = format!("/api/games/{id}");
    let r = change_from(s.addr, "PATCH", &game, "\"0\"", Some(&json!({"name": "Friday, second game"})));
    assert_eq!((r.status, r.header("etag")), (200, Some("\"1\"")), "{}", r.body);
    assert_eq!((&r.json()["name"], &r.json()["version"]), (&json!("Friday, second game"), &json!(1)));
    for bad in [json!({"name": ""}), json!({"name": "a\tb"}), json!({"name": "x".repeat(81)})] {
        assert_eq!(change(s.addr, "PATCH", &game, Some(&bad)).status, 422, "{bad}");
    }
    for bad in [json!({"name": "x", "colour": "red"}), json!({}), json!({"name": 5})] {
        assert_eq!(change(s.addr, "PATCH", &game, Some(&bad)).status, 400, "{bad}");
    }
    // An undo does not undo a rename.
    change(s.addr, "POST", &format!("{game}/events"), Some(&json!({"event": event(0)})));
    let r = change(s.addr, "POST", &format!("{game}/undo"), None);
    assert_eq!((r.json()["name"].as_str(), r.json()["version"].as_u64()), (Some("Friday, second game"), Some(3)));
    let list = get(s.addr, "/api/games").json();
    let listed: Vec<(String, String)> = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["id"].as_str().unwrap().to_string(), g["name"].as_str().unwrap().to_string()))
        .collect();
    assert!(listed.contains(&(id.clone(), "Friday, second game".into())), "{listed:?}");
    assert!(listed.contains(&(unnamed.clone(), name.clone())), "{listed:?}");
    assert!(list["games"][0]["updated"].as_u64().unwrap() > 0);

    // Restarted over the same directory: the names and versions are back.
    crate::support::stop(s.addr);
    let again = start_in(s.dir.path(), None);
    let state = get(again, &game).json();
    assert_eq!((state["name"].as_str(), state["version"].as_u64()), (Some("Friday, second game"), Some(3)));
    assert_eq!(get(again, &format!("/api/games/{unnamed}")).json()["name"], name);

    // Delete: with the version; the files go, and the game is gone.
    assert_eq!(change_from(again, "DELETE", &game, "\"2\"", None).status, 409);
    let r = change_from(again, "DELETE", &game, "\"3\"", None);
    assert_eq!((r.status, r.body.as_str()), (204, ""));
    assert_eq!(get(again, &game).status, 404);
    assert_eq!(change_from(again, "DELETE", &game, "\"3\"", None).status, 404);
    assert_eq!(change_from(again, "POST", &format!("{game}/undo"), "\"3\"", None).status, 404);
    let list = get(again, "/api/games").json();
    assert_eq!(list["games"].as_array().unwrap().len(), 1);
    assert_eq!(list["games"][0]["id"], unnamed);
}

#[test]
fn share_gives_the_loopback_url_and_a_qr_code_when_listening_on_loopback() {
    let s = start(None);
    let share = get(s.addr, "/api/share").json();
    assert_eq!(share["urls"], json!([format!("http://{}/", s.addr)]));
    assert_eq!((&share["lan"], &share["listening"]), (&json!(false), &json!(s.addr.to_string())));
    assert!(share["qr_svg"].as_str().unwrap().starts_with("<svg"), "{share}");
    let token = "0123456789abcdef0123456789abcdef";
    let t = start(Some(token));
    let share = send(t.addr, "GET", "/api/share", &[("X-Sleuth-Token", token)], b"").json();
    assert_eq!(share["urls"], json!([format!("http://{}/?token={token}", t.addr)]));
}
