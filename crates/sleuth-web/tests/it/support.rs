//! A server on a free loopback port, and a tiny HTTP/1.1 client, so that
//! tests speak real HTTP without pulling in a client crate.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

/// A running server with its own data directory.
pub struct Server {
    pub addr: SocketAddr,
    #[allow(dead_code)] // kept alive: dropping it deletes the data directory
    pub dir: tempfile::TempDir,
}

/// Starts a server on 127.0.0.1 with a fresh data directory.
pub fn start(token: Option<&str>) -> Server {
    let dir = tempfile::tempdir().unwrap();
    let addr = start_in(dir.path(), token);
    Server { addr, dir }
}

type Running = (tokio::sync::oneshot::Sender<()>, std::thread::JoinHandle<()>);

/// The servers running, to [`stop`] one.
static RUNNING: Mutex<Vec<(SocketAddr, Running)>> = Mutex::new(Vec::new());

/// Starts a server on 127.0.0.1 over `data`; it runs until [`stop`] or
/// until the test process ends.
pub fn start_in(data: &Path, token: Option<&str>) -> SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let addr = listener.local_addr().unwrap();
    let app = sleuth_web::router(data, token.map(str::to_string), addr, sleuth_core::count::MAX_STATES).unwrap();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            axum::serve(listener, app).with_graceful_shutdown(async move { rx.await.unwrap_or(()) }).await.unwrap();
        });
    });
    RUNNING.lock().unwrap().push((addr, (tx, thread)));
    addr
}

/// Stops the server at `addr` and waits until it has let its data folder go
/// (the database is one server's at a time), as a process that exits would.
pub fn stop(addr: SocketAddr) {
    let running = {
        let mut all = RUNNING.lock().unwrap();
        let i = all.iter().position(|(a, _)| *a == addr).expect("a running server");
        all.remove(i).1
    };
    let (tx, thread) = running;
    let _ = tx.send(());
    thread.join().unwrap();
}

/// An HTTP response.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Response {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
    /// The `error` message of an error response.
    pub fn error(&self) -> String {
        self.json()["error"].as_str().unwrap_or_else(|| panic!("no error in {}", self.body)).to_string()
    }
}

/// Sends one request; `headers` come after Host (which `host` overrides).
pub fn send(addr: SocketAddr, method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> Response {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let mut head = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\nContent-Length: {}\r\n", body.len());
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        head.push_str(&format!("Host: {addr}\r\n"));
    }
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    // The server may answer (413) before reading a huge body and close.
    let _ = stream.write_all(body);
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    parse(&raw)
}

fn parse(raw: &[u8]) -> Response {
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("a complete response head");
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let mut lines = head.split("\r\n");
    let status = lines.next().unwrap().split(' ').nth(1).unwrap().parse().unwrap();
    let headers: Vec<(String, String)> =
        lines.filter_map(|l| l.split_once(':')).map(|(k, v)| (k.trim().to_string(), v.trim().to_string())).collect();
    let mut body = raw[split + 4..].to_vec();
    if headers.iter().any(|(k, v)| k.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked")) {
        body = dechunk(&body);
    }
    Response { status, headers, body: String::from_utf8_lossy(&body).to_string() }
}

fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(eol) = b.windows(2).position(|w| w == b"\r\n") else { return out };
        let size = usize::from_str_radix(String::from_utf8_lossy(&b[..eol]).trim(), 16).unwrap_or(0);
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&b[eol + 2..eol + 2 + size]);
        b = &b[eol + 2 + size + 2..];
    }
}

/// GET with no extra headers.
pub fn get(addr: SocketAddr, path: &str) -> Response {
    send(addr, "GET", path, &[], b"")
}

/// A request with a JSON body.
pub fn json(addr: SocketAddr, method: &str, path: &str, body: &serde_json::Value) -> Response {
    send(addr, method, path, &[("Content-Type", "application/json")], body.to_string().as_bytes())
}

/// The sample game of Neller et al., from testdata.
pub fn sample_game() -> serde_json::Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/seed-sat-sample.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The sample game's setup with no events.
pub fn sample_setup() -> serde_json::Value {
    let mut g = sample_game();
    g["events"] = serde_json::json!([]);
    g
}

/// The version of game `id` now.
pub fn version(addr: SocketAddr, id: &str) -> u64 {
    let r = get(addr, &format!("/api/games/{id}"));
    r.json()["version"].as_u64().unwrap_or_else(|| panic!("no version: {}", r.body))
}

/// A change to the game at `path` (`/api/games/ID/...`) as a client that
/// has just loaded it: `If-Match` carries the game's current version.
pub fn change(addr: SocketAddr, method: &str, path: &str, body: Option<&serde_json::Value>) -> Response {
    let id = path.strip_prefix("/api/games/").and_then(|p| p.split(['/', '?']).next()).expect("a game path");
    let tag = format!("\"{}\"", version(addr, id));
    change_from(addr, method, path, &tag, body)
}

/// A change based on the version `tag` (`"N"`), whatever the game's
/// version now, with a new idempotency key (as a client sends each new change).
pub fn change_from(
    addr: SocketAddr,
    method: &str,
    path: &str,
    tag: &str,
    body: Option<&serde_json::Value>,
) -> Response {
    change_keyed(addr, method, path, tag, &new_key(), body)
}

/// A change with the idempotency key `key` (the same key: the same change, sent again).
pub fn change_keyed(
    addr: SocketAddr,
    method: &str,
    path: &str,
    tag: &str,
    key: &str,
    body: Option<&serde_json::Value>,
) -> Response {
    let body = body.map(serde_json::Value::to_string).unwrap_or_default();
    let headers = [("Content-Type", "application/json"), ("If-Match", tag), ("Idempotency-Key", key)];
    send(addr, method, path, &headers, body.as_bytes())
}

/// A key no other request of this test process has used.
pub fn new_key() -> String {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    format!("key-{}-{}", std::process::id(), NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst))
}

/// The id of the turn at `index` of game `id` now.
pub fn turn_at(addr: SocketAddr, id: &str, index: usize) -> String {
    let r = get(addr, &format!("/api/games/{id}"));
    r.json()["events"][index]["id"].as_str().unwrap_or_else(|| panic!("no turn {index}: {}", r.body)).to_string()
}
