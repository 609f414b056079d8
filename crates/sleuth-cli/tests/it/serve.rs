//! `sleuth serve` as a process: killed with SIGKILL in the middle of a
//! game, again and again, it must come back with every confirmed event.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Starts `sleuth serve` on a free port; returns the process and its address.
fn serve(data: &Path) -> (Child, String) {
    let (child, addr, _) = serve_with(data, &["--port", "0"]);
    (child, addr)
}

/// Starts `sleuth serve` with `args`; returns the process, its address and the printed line.
fn serve_with(data: &Path, args: &[&str]) -> (Child, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sleuth"))
        .arg("serve")
        .args(args)
        .arg("--data")
        .arg(data)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line.split("http://").nth(1).and_then(|r| r.split('/').next()).unwrap_or_else(|| panic!("{line}"));
    (child, addr.to_string(), line)
}

/// One HTTP request; `None` when the connection fails or is cut.
fn request(addr: &str, method: &str, path: &str, body: &str) -> Option<(u16, serde_json::Value)> {
    request_with(addr, method, path, body, "")
}

/// One HTTP request with extra header lines (each ending in CRLF).
fn request_with(addr: &str, method: &str, path: &str, body: &str, extra: &str) -> Option<(u16, serde_json::Value)> {
    let mut s = TcpStream::connect(addr).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(30))).ok()?;
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\n{extra}Content-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).ok()?;
    s.write_all(body.as_bytes()).ok()?;
    let mut raw = String::new();
    s.read_to_string(&mut raw).ok()?;
    let (head, body) = raw.split_once("\r\n\r\n")?;
    let status = head.split(' ').nth(1)?.parse().ok()?;
    Some((status, serde_json::from_str(body).ok()?))
}

fn sample() -> serde_json::Value {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/seed-sat-sample.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn sigkill_in_the_middle_of_a_game_loses_no_confirmed_event() {
    let data = tempfile::tempdir().unwrap();
    let events = sample()["events"].as_array().unwrap().clone();
    let mut setup = sample();
    setup["events"] = serde_json::json!([]);

    let (mut child, mut addr) = serve(data.path());
    let (status, created) = request(&addr, "POST", "/api/games", &setup.to_string()).unwrap();
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    // Every change says which version it is based on (If-Match).
    let mut version = created["version"].as_u64().unwrap();

    let mut stored = 0;
    for round in 0.. {
        // Post the remaining events one by one from another thread, and
        // kill the server while it is busy with them.
        let confirmed = Arc::new(AtomicUsize::new(stored));
        let poster = {
            let (addr, id, events, confirmed) = (addr.clone(), id.clone(), events.clone(), confirmed.clone());
            std::thread::spawn(move || {
                let mut version = version;
                for e in &events[stored..] {
                    let body = serde_json::json!({ "event": e }).to_string();
                    let if_match = format!("If-Match: \"{version}\"\r\n");
                    match request_with(&addr, "POST", &format!("/api/games/{id}/events"), &body, &if_match) {
                        Some((200, state)) => {
                            confirmed.store(state["events"].as_array().unwrap().len(), Ordering::SeqCst);
                            version = state["version"].as_u64().unwrap();
                        }
                        _ => return,
                    }
                }
            })
        };
        let kill_after = (stored + 5 + round).min(events.len());
        while confirmed.load(Ordering::SeqCst) < kill_after && !poster.is_finished() {
            std::thread::sleep(Duration::from_millis(1));
        }
        child.kill().unwrap(); // SIGKILL on Unix
        child.wait().unwrap();
        poster.join().unwrap();
        let confirmed = confirmed.load(Ordering::SeqCst);

        (child, addr) = serve(data.path());
        let (status, state) = request(&addr, "GET", &format!("/api/games/{id}"), "").unwrap();
        assert_eq!(status, 200, "{state}");
        version = state["version"].as_u64().unwrap();
        let have: Vec<serde_json::Value> =
            state["events"].as_array().unwrap().iter().map(|e| e["event"].clone()).collect();
        // Every confirmed event is back, in order; at most the one in
        // flight at the kill (journaled, not yet confirmed) comes with them.
        assert!(
            have.len() >= confirmed && have.len() <= confirmed + 1,
            "round {round}: {} stored, {confirmed} confirmed",
            have.len()
        );
        assert_eq!(have[..], events[..have.len()], "round {round}");
        // The game file on disk was rebuilt to match.
        let file = std::fs::read_to_string(data.path().join(format!("games/{id}.json"))).unwrap();
        let file: serde_json::Value = serde_json::from_str(&file).unwrap();
        assert_eq!(file["events"].as_array().unwrap()[..], events[..have.len()]);
        eprintln!("round {round}: killed with {confirmed} events confirmed, {} stored", have.len());
        stored = have.len();
        if stored == events.len() {
            assert!(round >= 3, "the server was killed mid-game several times");
            break;
        }
    }
    let (_, analysis) = request(&addr, "GET", &format!("/api/games/{id}/analysis"), "").unwrap();
    assert_eq!(analysis["case_file"][0]["cards"], serde_json::json!(["pe", "pi", "bi"]));
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn serve_refuses_to_start_on_a_busy_port() {
    let data = tempfile::tempdir().unwrap();
    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = busy.local_addr().unwrap().port().to_string();
    let out = Command::new(env!("CARGO_BIN_EXE_sleuth"))
        .args(["serve", "--port", &port, "--data"])
        .arg(data.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("cannot listen on 127.0.0.1:{port}")), "{err}");
}

#[test]
fn listen_prints_a_token_url_and_refuses_requests_without_the_token() {
    let data = tempfile::tempdir().unwrap();
    let (mut child, addr, line) = serve_with(data.path(), &["--listen", "127.0.0.1:0"]);
    let token =
        line.split("?token=").nth(1).and_then(|t| t.split_whitespace().next()).unwrap_or_else(|| panic!("{line}"));
    assert!(token.len() == 32 && token.bytes().all(|b| b.is_ascii_hexdigit()), "{line}");
    let (status, body) = request(&addr, "GET", "/api/games", "").unwrap();
    assert_eq!(status, 401, "{body}");
    let (status, _) = request(&addr, "GET", &format!("/api/games?token={token}"), "").unwrap();
    assert_eq!(status, 200);
    let (status, _) = request_with(&addr, "GET", "/api/games", "", &format!("X-Sleuth-Token: {token}\r\n")).unwrap();
    assert_eq!(status, 200);
    child.kill().unwrap();
    child.wait().unwrap();
}
