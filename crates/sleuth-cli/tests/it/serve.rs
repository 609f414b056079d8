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
        // kill the server while it is busy with them (the poster stops a
        // few events past the kill, so that a slow kill still leaves
        // events for the next rounds).
        let confirmed = Arc::new(AtomicUsize::new(stored));
        let kill_after = (stored + 5 + round).min(events.len());
        let poster = {
            let (addr, id, events, confirmed) = (addr.clone(), id.clone(), events.clone(), confirmed.clone());
            std::thread::spawn(move || {
                let mut version = version;
                for (n, e) in events.iter().enumerate().take(kill_after + 3).skip(stored) {
                    let body = serde_json::json!({ "event": e }).to_string();
                    let if_match = format!("If-Match: \"{version}\"\r\nIdempotency-Key: round-{round}-turn-{n}\r\n");
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
        // The export, a game file, says the same.
        let (status, file) = request(&addr, "GET", &format!("/api/games/{id}/export"), "").unwrap();
        assert_eq!(status, 200);
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

/// The token printed on the first line of `serve --listen`.
fn token_of(line: &str) -> String {
    line.split("?token=")
        .nth(1)
        .and_then(|t| t.split_whitespace().next())
        .unwrap_or_else(|| panic!("{line}"))
        .to_string()
}

#[test]
fn a_restarted_listen_keeps_its_token_and_a_new_link_lets_a_stale_cookie_in() {
    let data = tempfile::tempdir().unwrap();
    let (mut child, _, line) = serve_with(data.path(), &["--listen", "127.0.0.1:0"]);
    let first = token_of(&line);
    child.kill().unwrap();
    child.wait().unwrap();
    // Restarted: the same token, so the links and phones that joined still work.
    let (mut child, addr, line) = serve_with(data.path(), &["--listen", "127.0.0.1:0"]);
    assert_eq!(token_of(&line), first);
    let (status, _) =
        request_with(&addr, "GET", "/api/games", "", &format!("Cookie: sleuth_token={first}\r\n")).unwrap();
    assert_eq!(status, 200);
    child.kill().unwrap();
    child.wait().unwrap();
    // A new token on request: the old cookie is refused, the new link lets that phone in.
    let (mut child, addr, line) = serve_with(data.path(), &["--listen", "127.0.0.1:0", "--new-token"]);
    let new = token_of(&line);
    assert_ne!(new, first);
    let stale = format!("Cookie: sleuth_token={first}\r\n");
    let (status, _) = request_with(&addr, "GET", "/api/games", "", &stale).unwrap();
    assert_eq!(status, 401);
    let (status, _) = request_with(&addr, "GET", &format!("/api/games?token={new}"), "", &stale).unwrap();
    assert_eq!(status, 200, "the URL's token counts before a stale cookie");
    child.kill().unwrap();
    child.wait().unwrap();
}

/// Runs `script` (sh) in a mount namespace of its own, as root there
/// (`unshare -rm`), so that it can mount a small tmpfs at `$MNT`; the script
/// ends by exec'ing `sleuth serve` ($SLEUTH), whose first line is read.
/// The tmpfs stays reachable from here through /proc/PID/root/$MNT; the
/// returned folder is $MNT (empty out here), to be kept until the server ends.
fn serve_in_namespace(script: &str, env: &[(&str, &Path)]) -> (Child, String, Vec<String>, tempfile::TempDir) {
    let mnt = tempfile::tempdir().unwrap();
    let mut cmd = Command::new("unshare");
    cmd.args(["-rm", "sh", "-c", script])
        .env("MNT", mnt.path())
        .env("SLEUTH", env!("CARGO_BIN_EXE_sleuth"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("unshare (util-linux) runs");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut lines = Vec::new();
    let mut line = String::new();
    // The URL line, then the store's report (up to its summary line).
    while out.read_line(&mut line).unwrap() > 0 {
        lines.push(std::mem::take(&mut line));
        if lines.last().unwrap().contains(" game") && lines.len() > 1 {
            break;
        }
    }
    if lines.is_empty() {
        let mut err = String::new();
        let _ = child.stderr.take().unwrap().read_to_string(&mut err);
        panic!(
            "the server did not start in a mount namespace with a tmpfs (this test needs `unshare -rm`, \
             user and mount namespaces): {err}"
        );
    }
    let addr = lines[0].split("http://").nth(1).and_then(|r| r.split('/').next()).unwrap().to_string();
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    (child, addr, lines, mnt)
}

/// A data folder with one game of `turns` turns, left as a server killed
/// with SIGKILL leaves it (its last changes in the write-ahead log).
fn data_with_a_game(turns: usize) -> (tempfile::TempDir, String) {
    let data = tempfile::tempdir().unwrap();
    let (mut child, addr) = serve(data.path());
    let mut setup = sample();
    setup["events"] = serde_json::json!([]);
    let (_, created) = request(&addr, "POST", "/api/games?name=Kept", &setup.to_string()).unwrap();
    let id = created["id"].as_str().unwrap().to_string();
    for (n, e) in sample()["events"].as_array().unwrap()[..turns].iter().enumerate() {
        let body = serde_json::json!({ "event": e }).to_string();
        let extra = format!("If-Match: \"{n}\"\r\nIdempotency-Key: k{n}\r\n");
        let (status, _) = request_with(&addr, "POST", &format!("/api/games/{id}/events"), &body, &extra).unwrap();
        assert_eq!(status, 200);
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(data.path().join("sleuth.db-wal").exists(), "a killed server leaves its log");
    (data, id)
}

fn add_turn(addr: &str, id: &str, version: u64, key: &str) -> (u16, serde_json::Value) {
    let body = serde_json::json!({ "event": sample()["events"][20] }).to_string();
    let extra = format!("If-Match: \"{version}\"\r\nIdempotency-Key: {key}\r\n");
    request_with(addr, "POST", &format!("/api/games/{id}/events"), &body, &extra).unwrap()
}

#[test]
fn a_full_disk_lists_and_reads_every_game_and_refuses_a_change_alone() {
    let (data, id) = data_with_a_game(10);
    let script = r#"set -e
        mount -t tmpfs -o size=1m tmpfs "$MNT"
        cp -a "$SRC" "$MNT/data"
        dd if=/dev/zero of="$MNT/fill" bs=1k 2>/dev/null || true
        exec "$SLEUTH" serve --port 0 --data "$MNT/data""#;
    let (mut child, addr, lines, mnt) = serve_in_namespace(script, &[("SRC", data.path())]);
    let said = lines.join("");
    assert!(said.contains("1 game in") && said.contains("nothing damaged"), "{said}");
    let (status, list) = request(&addr, "GET", "/api/games", "").unwrap();
    assert_eq!((status, list["games"][0]["events"].as_u64()), (200, Some(10)), "{list}");
    let (status, state) = request(&addr, "GET", &format!("/api/games/{id}"), "").unwrap();
    assert_eq!((status, state["version"].as_u64()), (200, Some(10)), "{state}");
    // A change: refused alone, clearly, changing nothing.
    let (status, answer) = add_turn(&addr, &id, 10, "full-1");
    assert_eq!(status, 507, "{answer}");
    let message = answer["error"].as_str().unwrap();
    assert!(message.contains("the disk is full") && message.contains("nothing was changed"), "{message}");
    let (_, state) = request(&addr, "GET", &format!("/api/games/{id}"), "").unwrap();
    assert_eq!(state["events"].as_array().unwrap().len(), 10);
    let (status, _) = request(&addr, "GET", &format!("/api/games/{id}/analysis"), "").unwrap();
    assert_eq!(status, 200);
    // Room again: the same change goes through, once.
    std::fs::remove_file(format!("/proc/{}/root{}/fill", child.id(), mnt.path().display())).unwrap();
    let (status, answer) = add_turn(&addr, &id, 10, "full-1");
    assert_eq!((status, answer["version"].as_u64()), (200, Some(11)), "{answer}");
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn a_read_only_data_folder_lists_and_reads_every_game_and_refuses_changes() {
    let (data, id) = data_with_a_game(6);
    let script = r#"set -e
        mount -t tmpfs -o size=4m tmpfs "$MNT"
        cp -a "$SRC" "$MNT/data"
        mount -o remount,ro "$MNT"
        exec "$SLEUTH" serve --port 0 --data "$MNT/data""#;
    let (mut child, addr, lines, _mnt) = serve_in_namespace(script, &[("SRC", data.path())]);
    let said = lines.join("");
    assert!(said.contains("1 game in") && said.contains("read-only"), "{said}");
    let (status, list) = request(&addr, "GET", "/api/games", "").unwrap();
    assert_eq!((status, list["games"][0]["events"].as_u64()), (200, Some(6)), "{list}");
    let (status, state) = request(&addr, "GET", &format!("/api/games/{id}"), "").unwrap();
    assert_eq!((status, state["name"].as_str()), (200, Some("Kept")), "{state}");
    let (status, _) = request(&addr, "GET", &format!("/api/games/{id}/export"), "").unwrap();
    assert_eq!(status, 200);
    let (status, answer) = add_turn(&addr, &id, 6, "ro-1");
    assert_eq!(status, 503, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("read-only"), "{answer}");
    let (status, answer) = request(&addr, "POST", "/api/games", &sample().to_string()).unwrap();
    assert_eq!(status, 503, "{answer}");
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn a_read_only_folder_of_the_old_layout_is_read_from_its_files() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sleuth-web/tests/data/journal-folder");
    let script = r#"set -e
        mount -t tmpfs -o size=4m tmpfs "$MNT"
        cp -a "$SRC" "$MNT/data"
        mount -o remount,ro "$MNT"
        exec "$SLEUTH" serve --port 0 --data "$MNT/data""#;
    let (mut child, addr, lines, _mnt) = serve_in_namespace(script, &[("SRC", &fixture)]);
    let said = lines.join("");
    assert!(said.contains("3 games read from the game files") && said.contains("read-only"), "{said}");
    let (status, list) = request(&addr, "GET", "/api/games", "").unwrap();
    assert_eq!(status, 200);
    let mut events: Vec<u64> =
        list["games"].as_array().unwrap().iter().map(|g| g["events"].as_u64().unwrap()).collect();
    events.sort_unstable();
    assert_eq!(events, [2, 8, 28], "{list}");
    child.kill().unwrap();
    child.wait().unwrap();
}

/// Whether this process runs as root (which ignores file permissions).
fn is_root() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status.lines().find_map(|l| l.strip_prefix("Uid:")).and_then(|l| l.split_whitespace().nth(1)) == Some("0")
}

#[test]
fn a_read_only_database_file_in_a_writable_folder_is_read_and_refuses_changes() {
    use std::os::unix::fs::PermissionsExt;
    let (data, id) = data_with_a_game(4);
    let mode = |p: &Path, m| std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap();
    mode(data.path(), 0o777);
    for f in ["sleuth.db", "sleuth.db-wal"] {
        mode(&data.path().join(f), 0o444);
    }
    // Root ignores permissions: then the server runs as nobody (setpriv, util-linux).
    let bin = env!("CARGO_BIN_EXE_sleuth");
    let mut cmd = Command::new(if is_root() { "setpriv" } else { bin });
    if is_root() {
        cmd.args(["--reuid=65534", "--regid=65534", "--clear-groups", bin]);
    }
    let mut child = cmd
        .args(["serve", "--port", "0", "--data"])
        .arg(data.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts (as root: setpriv from util-linux drops to nobody)");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let (mut first, mut said) = (String::new(), String::new());
    out.read_line(&mut first).unwrap();
    out.read_line(&mut said).unwrap();
    let addr = first.split("http://").nth(1).and_then(|r| r.split('/').next()).unwrap_or_else(|| panic!("{first}"));
    assert!(
        said.contains("1 game in") && said.contains("read-only") && said.contains("sleuth.db cannot be written"),
        "{said}"
    );
    let (status, list) = request(addr, "GET", "/api/games", "").unwrap();
    assert_eq!((status, list["games"][0]["events"].as_u64()), (200, Some(4)), "{list}");
    let (status, answer) = add_turn(addr, &id, 4, "ro-file-1");
    assert_eq!(status, 503, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("read-only"), "{answer}");
    child.kill().unwrap();
    child.wait().unwrap();
}
