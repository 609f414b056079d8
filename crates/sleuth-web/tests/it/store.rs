//! The store (issue 59): data folders of the old layout imported without
//! loss, damage reported and never hidden, stable turn ids, idempotent
//! retries, and many clients on one game.
//!
//! `tests/data/journal-folder/games` was written by the server before the
//! database (game files and journals): three games with inserts, an edit,
//! a delete, undo, redo, renames, an import and a game left with a redo.

use crate::support::{
    change_keyed, get, json, new_key, sample_game, sample_setup, send, start, start_in, stop, turn_at, version,
};
use serde_json::{json, Value};
use sleuth_core::GameFile;
use sleuth_web::store::Store;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Barrier};

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/journal-folder/games");

/// The fixture's games as the old server answered for them: id, name,
/// version, can undo, can redo (its game files hold the turns).
const OLD: [(&str, &str, u64, bool, bool); 3] = [
    ("game-f50dbb526453", "Friday, second game", 16, true, true),
    ("game-c7fc6b2b1ed8", "Imported", 0, false, false),
    ("game-96395b7199ce", "Game 2026-12-02 02:17 UTC", 4, true, true),
];

/// A data folder holding a copy of the fixture's `games/`.
fn old_folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    std::fs::create_dir(&games).unwrap();
    for e in std::fs::read_dir(FIXTURE).unwrap().flatten() {
        std::fs::copy(e.path(), games.join(e.file_name())).unwrap();
    }
    dir
}

/// The turns the old server held for `id`: its game file.
fn old_turns(id: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(Path::new(FIXTURE).join(format!("{id}.json"))).unwrap();
    serde_json::from_str::<Value>(&text).unwrap()["events"].as_array().unwrap().clone()
}

fn turns(state: &Value) -> Vec<Value> {
    state["events"].as_array().unwrap().iter().map(|e| e["event"].clone()).collect()
}

/// `path`'s files by name, byte for byte.
fn files(path: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(path)
        .unwrap()
        .flatten()
        .map(|e| (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap()))
        .collect();
    out.sort();
    out
}

#[test]
fn a_folder_of_the_old_layout_is_imported_whole_and_kept_aside() {
    let data = old_folder();
    let before = files(&data.path().join("games"));
    let s = start_in(data.path(), None);
    for (id, name, v, undo, redo) in OLD {
        let state = get(s, &format!("/api/games/{id}")).json();
        assert_eq!(
            (
                state["name"].as_str(),
                state["version"].as_u64(),
                state["can_undo"].as_bool(),
                state["can_redo"].as_bool()
            ),
            (Some(name), Some(v), Some(undo), Some(redo)),
            "{id}"
        );
        assert_eq!(turns(&state), old_turns(id), "{id}");
    }
    let list = get(s, "/api/games").json();
    assert_eq!(list["games"].as_array().unwrap().len(), 3);
    assert_eq!(list["problems"], json!([]));
    // The undo history came along: undo game A's last change, then redo it.
    let (a, a_old) = (OLD[0].0, old_turns(OLD[0].0));
    let r = change_keyed(s, "POST", &format!("/api/games/{a}/redo"), "\"16\"", "r1", None);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(turns(&r.json())[0], sample_game()["events"][10], "the redo brings back the turn added first");
    assert_eq!(turns(&r.json())[1..], a_old[..]);
    // The old files are kept, byte for byte, beside the database.
    assert_eq!(files(&data.path().join("games-imported")), before);
    assert!(!data.path().join("games").exists());
    // Started again, nothing is imported twice and everything is there.
    stop(s);
    let s = start_in(data.path(), None);
    assert_eq!(get(s, "/api/games").json()["games"].as_array().unwrap().len(), 3);
    assert_eq!(version(s, a), 17);
}

/// Imports `games` (name, bytes) as the only files of an old-layout folder;
/// the store and the folder.
fn import(games: &[(&str, Vec<u8>)]) -> (Store, tempfile::TempDir) {
    let data = scratch();
    let dir = data.path().join("games");
    std::fs::create_dir(&dir).unwrap();
    for (name, bytes) in games {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    (Store::open(data.path()).unwrap(), data)
}

/// A scratch folder in memory where there is one (/dev/shm): the sweeps
/// below open thousands of databases, each flushed to disk.
fn scratch() -> tempfile::TempDir {
    let shm = Path::new("/dev/shm");
    if shm.is_dir() {
        if let Ok(d) = tempfile::tempdir_in(shm) {
            return d;
        }
    }
    tempfile::tempdir().unwrap()
}

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(Path::new(FIXTURE).join(name)).unwrap()
}

/// The turns of stored game `id` as JSON values.
fn stored_turns(store: &Store, id: &str) -> Vec<Value> {
    let e = store.get(id).unwrap();
    let e = sleuth_web::store::lock(&e);
    e.file().events.iter().map(|e| serde_json::to_value(e).unwrap()).collect()
}

#[test]
fn issue_59_damaged_journals_lose_and_hide_nothing() {
    let (id, _, _, _, _) = OLD[2]; // three turns added, the last undone: journal of 5 lines
    let journal = fixture(&format!("{id}.journal"));
    let file = fixture(&format!("{id}.json"));
    let lines: Vec<&[u8]> = journal.split_inclusive(|&b| b == b'\n').collect();
    assert_eq!(lines.len(), 5);
    let with = |n: usize, line: &[u8]| -> Vec<u8> {
        let mut j: Vec<u8> = Vec::new();
        for (i, l) in lines.iter().enumerate() {
            j.extend_from_slice(if i + 1 == n { line } else { l });
        }
        j
    };
    let flip = |line: &[u8], at: usize| -> Vec<u8> {
        let mut l = line.to_vec();
        l[at] ^= 0x20;
        l
    };
    let (jname, fname) = (format!("{id}.journal"), format!("{id}.json"));
    let old = old_turns(id);

    // A complete last line with one damaged byte: the game file held its
    // turn. Before: 2 of 3 turns and no message.
    let mut file3 = GameFile::from_json(std::str::from_utf8(&file).unwrap()).unwrap();
    file3.events.push(serde_json::from_value(sample_game()["events"][2].clone()).unwrap());
    let no_undo = with(5, &flip(lines[4], 3)); // {"op":"undo"} -> {"oP":"undo"}
    let (store, _d) = import(&[(&jname, no_undo), (&fname, file3.to_json().into_bytes())]);
    assert_eq!(stored_turns(&store, id).len(), 3, "the turn of the damaged last line is kept");
    let problems = store.report().problems.join("\n");
    assert!(problems.contains(id) && problems.contains(".journal line 5"), "{problems}");

    // A corrupt middle line: the game is listed, the line named.
    let broken = with(3, &flip(lines[2], 10));
    let (store, _d) = import(&[(&jname, broken), (&fname, file.clone())]);
    let list = store.list().unwrap();
    assert_eq!((list.len(), list[0].id.as_str()), (1, id));
    assert_eq!(stored_turns(&store, id), old, "the game file held the game");
    assert!(store.report().problems.iter().any(|p| p.contains(id) && p.contains("line 3")), "{:?}", store.report());

    // A journal whose game file is missing (a crash between the two writes of create): listed, whole.
    let (store, _d) = import(&[(&jname, journal.clone())]);
    assert_eq!(store.list().unwrap().len(), 1);
    assert_eq!(stored_turns(&store, id), old);
    assert!(store.report().problems.is_empty(), "{:?}", store.report());

    // A misspelt key in a journal line goes through the API's strict reader: damage, said.
    let misspelt = String::from_utf8(lines[1].to_vec()).unwrap().replace("\"shown\"", "\"shwon\"");
    let (store, _d) = import(&[(&jname, with(2, misspelt.as_bytes())), (&fname, file.clone())]);
    assert!(
        store.report().problems.iter().any(|p| p.contains("line 2") && p.contains("shwon")),
        "{:?}",
        store.report()
    );
    assert_eq!(stored_turns(&store, id), old);

    // A game file one turn behind its journal (its rewrite failed): the journal has it all.
    let mut behind = GameFile::from_json(std::str::from_utf8(&file).unwrap()).unwrap();
    behind.events.pop();
    let (store, _d) = import(&[(&jname, journal.clone()), (&fname, behind.to_json().into_bytes())]);
    assert_eq!(stored_turns(&store, id), old);
    assert!(store.report().problems.is_empty(), "{:?}", store.report());

    // A last line cut short (no end of line): never confirmed, dropped, and said.
    let mut torn = journal.clone();
    torn.extend_from_slice(br#"{"op":"insert","index":2,"ev"#);
    let (store, _d) = import(&[(&jname, torn), (&fname, file.clone())]);
    assert_eq!(stored_turns(&store, id), old);
    assert!(store.report().problems.is_empty());
    assert!(store.report().notes.iter().any(|n| n.contains("line 6") && n.contains("dropped")), "{:?}", store.report());
}

/// Every byte of every journal of the fixture flipped, one at a time: with
/// its game file beside it the game is never silently different: either it
/// has exactly the old server's turns, or the damage is reported naming the
/// game. A journal alone has no checksum: a flip that leaves a valid journal
/// (an index 5 read as 1) cannot be told from the truth; those are counted,
/// and the game is still listed.
#[test]
fn a_flipped_byte_anywhere_in_a_journal_is_never_served_silently() {
    let (mut checked, mut undetectable) = (0, 0);
    for (id, ..) in OLD {
        let journal = fixture(&format!("{id}.journal"));
        let file = fixture(&format!("{id}.json"));
        let old = old_turns(id);
        // Every byte of the short journal, every 5th of the longer ones
        // (all of them with SLEUTH_FLIP_ALL=1).
        let all = std::env::var("SLEUTH_FLIP_ALL").is_ok_and(|v| v == "1");
        let step = if all || journal.len() < 1000 { 1 } else { 5 };
        for at in (0..journal.len()).step_by(step) {
            let mut j = journal.clone();
            j[at] ^= 0x04;
            for with_file in [true, false] {
                let mut games = vec![(format!("{id}.journal"), j.clone())];
                if with_file {
                    games.push((format!("{id}.json"), file.clone()));
                }
                let games: Vec<(&str, Vec<u8>)> = games.iter().map(|(n, b)| (n.as_str(), b.clone())).collect();
                let (store, _d) = import(&games);
                let said = store.report().problems.iter().chain(&store.report().notes).any(|p| p.contains(id));
                match store.get(id) {
                    Ok(_) => {
                        let same = stored_turns(&store, id) == old;
                        assert!(same || said || !with_file, "{id} byte {at}: other turns, nothing said");
                        undetectable += usize::from(!same && !said);
                    }
                    Err(e) => assert!(said, "{id} byte {at}: {e}, nothing said"),
                }
                assert!(
                    store.list().unwrap().iter().any(|g| g.id == id) || said,
                    "{id} byte {at}: neither listed nor reported"
                );
                checked += 1;
            }
        }
    }
    eprintln!("{checked} damaged journals imported; {undetectable} without their game file read as another valid game");
}

/// Stops the server at `addr` so that its database is checkpointed and let go.
fn stopped_copy(addr: SocketAddr, data: &Path) -> PathBuf {
    stop(addr);
    assert!(!data.join("sleuth.db-wal").exists() || std::fs::metadata(data.join("sleuth.db-wal")).unwrap().len() == 0);
    data.join("sleuth.db")
}

/// Bytes of the database flipped, one position at a time (every page, at
/// several offsets): the store opens or refuses with a message; each game
/// it serves is exactly what was stored, or is reported damaged.
#[test]
fn a_flipped_byte_in_the_database_is_found_and_reported_never_served() {
    let data = tempfile::tempdir().unwrap();
    let s = start_in(data.path(), None);
    let mut expected = Vec::new();
    for n in [3, 8] {
        let mut game = sample_game();
        game["events"] = json!(game["events"].as_array().unwrap()[..n]);
        let r = json(s, "POST", "/api/games", &game);
        let id = r.json()["id"].as_str().unwrap().to_string();
        let path = format!("/api/games/{id}/events");
        let r = change_keyed(
            s,
            "POST",
            &path,
            &format!("\"{}\"", version(s, &id)),
            &new_key(),
            Some(&json!({"event": sample_game()["events"][20]})),
        );
        assert_eq!(r.status, 200);
        expected.push((id.clone(), turns(&get(s, &format!("/api/games/{id}")).json())));
    }
    let db = stopped_copy(s, data.path());
    let original = std::fs::read(&db).unwrap();
    let (mut served, mut reported, mut refused) = (0, 0, 0);
    let positions: Vec<usize> = (0..original.len()).step_by(97).collect();
    for at in positions {
        let dir = scratch();
        let mut bytes = original.clone();
        bytes[at] ^= 0x10;
        std::fs::write(dir.path().join("sleuth.db"), &bytes).unwrap();
        let store = match Store::open(dir.path()) {
            Ok(store) => store,
            Err(e) => {
                assert!(!e.to_string().is_empty());
                refused += 1;
                continue;
            }
        };
        let problems = store.report().problems.join("\n");
        for (id, want) in &expected {
            match store.get(id) {
                Ok(e) => {
                    let e = sleuth_web::store::lock(&e);
                    let have: Vec<Value> = e.file().events.iter().map(|e| serde_json::to_value(e).unwrap()).collect();
                    if &have == want && e.damaged().is_none() {
                        served += 1;
                    } else {
                        assert!(
                            e.damaged().is_some() && problems.contains(id.as_str()),
                            "byte {at}: {id} changed silently"
                        );
                        reported += 1;
                    }
                }
                Err(err) => {
                    assert!(!problems.is_empty(), "byte {at}: {id}: {err}, and nothing reported");
                    reported += 1;
                }
            }
        }
    }
    eprintln!("flipped database bytes: {served} games served intact, {reported} reported damaged, {refused} databases refused");
    assert!(reported > 0 && served > 0, "the damage reached the games' rows");
}

#[test]
fn a_retry_with_the_same_key_is_stored_once_and_answered_as_the_first() {
    let s = start(None);
    let id = json(s.addr, "POST", "/api/games", &sample_setup()).json()["id"].as_str().unwrap().to_string();
    let events = format!("/api/games/{id}/events");
    let body = json!({"event": sample_game()["events"][0]});
    let first = change_keyed(s.addr, "POST", &events, "\"0\"", "tap-1", Some(&body));
    assert_eq!(first.status, 200, "{}", first.body);
    assert_eq!(first.json()["change"], json!({"version": 1, "turn": "t1", "replayed": false}));
    // The answer was lost; the page sends the same request again, from the same version.
    let again = change_keyed(s.addr, "POST", &events, "\"0\"", "tap-1", Some(&body));
    assert_eq!(again.status, 200, "not a 409 'another tab': {}", again.body);
    assert_eq!(again.json()["change"], json!({"version": 1, "turn": "t1", "replayed": true}));
    assert_eq!(again.json()["events"].as_array().unwrap().len(), 1);
    // Also after other changes, and after a restart.
    let next = json!({"event": sample_game()["events"][1]});
    assert_eq!(change_keyed(s.addr, "POST", &events, "\"1\"", "tap-2", Some(&next)).status, 200);
    stop(s.addr);
    let t = start_in(s.dir.path(), None);
    let r = change_keyed(t, "POST", &events, "\"0\"", "tap-1", Some(&body));
    assert_eq!((r.status, &r.json()["change"]["turn"]), (200, &json!("t1")), "{}", r.body);
    assert_eq!(r.json()["events"].as_array().unwrap().len(), 2);
    // The same key with another request is refused.
    let r = change_keyed(t, "POST", &events, "\"2\"", "tap-1", Some(&next));
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.error().contains("Idempotency-Key"), "{}", r.body);
    // An add without a key, or with a bad one, is refused.
    let ct = ("Content-Type", "application/json");
    let r = send(t, "POST", &events, &[ct, ("If-Match", "\"2\"")], next.to_string().as_bytes());
    assert!(r.status == 400 && r.error().contains("Idempotency-Key"), "{}", r.body);
    let long = "k".repeat(129);
    for bad in ["", "\"\"", "a b", long.as_str()] {
        let r = send(
            t,
            "POST",
            &events,
            &[ct, ("If-Match", "\"2\""), ("Idempotency-Key", bad)],
            next.to_string().as_bytes(),
        );
        assert_eq!(r.status, 400, "{bad:?}: {}", r.body);
    }
    assert_eq!(version(t, &id), 2);

    // Eight copies of one request at once, one key: one turn.
    let barrier = Arc::new(Barrier::new(8));
    let threads: Vec<_> = (0..8)
        .map(|_| {
            let (barrier, events, body) =
                (barrier.clone(), events.clone(), json!({"event": sample_game()["events"][2]}));
            std::thread::spawn(move || {
                barrier.wait();
                change_keyed(t, "POST", &events, "\"2\"", "burst", Some(&body))
            })
        })
        .collect();
    let answers: Vec<Value> =
        threads.into_iter().map(|h| h.join().unwrap()).map(|r| r.json()["change"].clone()).collect();
    assert!(answers.iter().all(|c| c["version"] == 3 && c["turn"] == "t3"), "{answers:?}");
    assert_eq!(answers.iter().filter(|c| c["replayed"] == false).count(), 1);
    assert_eq!(get(t, &format!("/api/games/{id}")).json()["events"].as_array().unwrap().len(), 3);
}

/// `POST /api/games` with `key`.
fn create_keyed(addr: SocketAddr, path: &str, key: &str, game: &Value) -> crate::support::Response {
    let headers = [("Content-Type", "application/json"), ("Idempotency-Key", key)];
    send(addr, "POST", path, &headers, game.to_string().as_bytes())
}

#[test]
fn a_new_game_sent_again_with_its_key_is_created_once() {
    let s = start(None);
    let count = |addr| get(addr, "/api/games").json()["games"].as_array().unwrap().len();
    let first = create_keyed(s.addr, "/api/games?name=Friday", "new-1", &sample_setup());
    assert_eq!(first.status, 201, "{}", first.body);
    let id = first.json()["id"].clone();
    assert_eq!(first.json()["change"]["replayed"], json!(false));
    // The answer was lost: the same request again is the same game (200, not a second one).
    let again = create_keyed(s.addr, "/api/games?name=Friday", "new-1", &sample_setup());
    assert_eq!((again.status, &again.json()["id"]), (200, &id), "{}", again.body);
    assert_eq!(again.json()["change"]["replayed"], json!(true));
    assert_eq!(count(s.addr), 1);
    // Without a name (named by the time it was made, which a retry does not change), after a restart.
    let unnamed = create_keyed(s.addr, "/api/games", "new-2", &sample_game()).json()["id"].clone();
    stop(s.addr);
    let t = start_in(s.dir.path(), None);
    let r = create_keyed(t, "/api/games", "new-2", &sample_game());
    assert_eq!((r.status, &r.json()["id"]), (200, &unnamed), "{}", r.body);
    // The key with another game, or another name, is refused; a new key makes a new game.
    for (path, game) in [("/api/games?name=Friday", sample_game()), ("/api/games?name=Saturday", sample_setup())] {
        let r = create_keyed(t, path, "new-1", &game);
        assert_eq!(r.status, 422, "{}", r.body);
        assert!(r.error().contains("Idempotency-Key"), "{}", r.body);
    }
    assert_eq!(count(t), 2);
    assert_eq!(create_keyed(t, "/api/games?name=Friday", "new-3", &sample_setup()).status, 201);
    // Eight copies at once: one game.
    let barrier = Arc::new(Barrier::new(8));
    let threads: Vec<_> = (0..8)
        .map(|_| {
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                barrier.wait();
                create_keyed(t, "/api/games", "burst", &sample_setup())
            })
        })
        .collect();
    let answers: Vec<_> = threads.into_iter().map(|h| h.join().unwrap()).collect();
    assert!(answers.iter().all(|r| r.json()["id"] == answers[0].json()["id"]), "one game");
    assert_eq!(answers.iter().filter(|r| r.status == 201).count(), 1);
    assert_eq!(count(t), 4);
}

#[test]
fn a_turn_deleted_twice_is_deleted_once_and_no_other_turn_goes() {
    let s = start(None);
    let mut game = sample_game();
    game["events"] = json!(game["events"].as_array().unwrap()[..4]);
    let id = json(s.addr, "POST", "/api/games", &game).json()["id"].as_str().unwrap().to_string();
    let t2 = turn_at(s.addr, &id, 1);
    let path = format!("/api/games/{id}/events/{t2}");
    let r = change_keyed(s.addr, "DELETE", &path, "\"0\"", "del-1", None);
    assert_eq!(r.status, 200, "{}", r.body);
    // The same tap again, with its key: the first answer, nothing more deleted.
    let r = change_keyed(s.addr, "DELETE", &path, "\"0\"", "del-1", None);
    assert_eq!((r.status, &r.json()["change"]["replayed"]), (200, &json!(true)));
    // Another request for the same turn, from the current version: it is not there.
    let r = change_keyed(s.addr, "DELETE", &path, "\"1\"", "del-2", None);
    assert_eq!(r.status, 404, "{}", r.body);
    assert!(r.error().contains(&format!("no turn {t2}")), "{}", r.body);
    let left = turns(&get(s.addr, &format!("/api/games/{id}")).json());
    let want: Vec<Value> = [0, 2, 3].iter().map(|&i| game["events"][i].clone()).collect();
    assert_eq!(left, want);
    let ids: Vec<String> = (0..3).map(|i| turn_at(s.addr, &id, i)).collect();
    assert_eq!(ids, ["t1", "t3", "t4"]);
}

/// Several clients adding turns to one game at once, each reloading when
/// another got there first: every version is made once, every confirmed
/// turn is stored once, and a restart replays the same game.
#[test]
fn many_clients_on_one_game_make_every_version_once() {
    const CLIENTS: usize = 6;
    const ADDS: usize = 8;
    let s = start(None);
    let id = json(s.addr, "POST", "/api/games", &sample_setup()).json()["id"].as_str().unwrap().to_string();
    let addr = s.addr;
    let barrier = Arc::new(Barrier::new(CLIENTS));
    let threads: Vec<_> = (0..CLIENTS)
        .map(|c| {
            let (barrier, id) = (barrier.clone(), id.clone());
            std::thread::spawn(move || {
                barrier.wait();
                let mut made = Vec::new();
                for n in 0..ADDS {
                    let key = format!("client-{c}-add-{n}");
                    let body = json!({"event": sample_game()["events"][(c * ADDS + n) % 28]});
                    loop {
                        let tag = format!("\"{}\"", version(addr, &id));
                        let r = change_keyed(addr, "POST", &format!("/api/games/{id}/events"), &tag, &key, Some(&body));
                        match r.status {
                            200 => {
                                made.push((r.json()["change"]["version"].as_u64().unwrap(), key.clone()));
                                break;
                            }
                            409 => continue,
                            s => panic!("client {c}: {s} {}", r.body),
                        }
                    }
                }
                made
            })
        })
        .collect();
    let mut made: Vec<(u64, String)> = threads.into_iter().flat_map(|t| t.join().unwrap()).collect();
    made.sort();
    let versions: Vec<u64> = made.iter().map(|m| m.0).collect();
    assert_eq!(versions, (1..=(CLIENTS * ADDS) as u64).collect::<Vec<_>>(), "every version once");
    let state = get(s.addr, &format!("/api/games/{id}")).json();
    assert_eq!(state["events"].as_array().unwrap().len(), CLIENTS * ADDS);
    stop(s.addr);
    let again = start_in(s.dir.path(), None);
    assert_eq!(get(again, &format!("/api/games/{id}")).json(), state);
}

#[test]
fn one_server_owns_a_data_folder() {
    let data = tempfile::tempdir().unwrap();
    let first = Store::open(data.path()).unwrap();
    let second = Store::open(data.path()).err().expect("a second store on the same folder is refused");
    assert!(second.to_string().contains("another `sleuth serve`"), "{second}");
    drop(first);
    assert!(Store::open(data.path()).is_ok(), "free again once the first is gone");
}
