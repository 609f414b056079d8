//! `sleuth serve`: the Clue notepad in the browser.
//!
//! A local HTTP server (axum on tokio) that serves a single-page notepad,
//! embedded in the binary, and a JSON API over sleuth-core ([`api`] lists
//! the endpoints). Games live in a data directory as game files with a
//! journal ([`store`]). Only this crate knows HTTP.
//!
//! Privacy: by default the server listens on 127.0.0.1 only. Listening on
//! another address requires the random access token printed at start;
//! without it every request is refused ([`guard`]). Requests from other
//! origins, with a Host that is not an address, or with a body over
//! [`MAX_BODY`] bytes are refused too. Every error, from every layer, is
//! JSON `{"error": ...}` ([`json_errors`]).
#![forbid(unsafe_code)]

pub mod api;
pub mod assets;
pub mod guard;
pub mod share;
pub mod store;
pub mod view;

use anyhow::Context;
use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use axum::routing::{get, post, put};
use axum::Router;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

/// The largest request body accepted: 256 KiB (a long game file is ~20 KiB).
pub const MAX_BODY: usize = 256 * 1024;

/// How to run the server.
#[derive(Clone, Debug)]
pub struct Config {
    /// The data directory; games go to `DATA/games/`.
    pub data: PathBuf,
    /// The address to listen on.
    pub addr: SocketAddr,
    /// The access token every request must carry; `None` for loopback only.
    pub token: Option<String>,
    /// The most states each exact count may visit (the program measures
    /// what its memory allows; see `sleuth_core::CountOptions`).
    pub max_states: usize,
}

/// The whole application: the page, the API and the guard, for a server
/// listening on `listening` whose counts visit at most `max_states` states.
///
/// # Errors
/// When the data directory cannot be created.
pub fn router(
    data: &std::path::Path,
    token: Option<String>,
    listening: SocketAddr,
    max_states: usize,
) -> anyhow::Result<Router> {
    let store = store::Store::open(data).map_err(|e| anyhow::anyhow!("{e}"))?;
    let app = Arc::new(api::App { store, listening, token: token.clone(), max_states });
    let guard = Arc::new(guard::Guard { token });
    let games = Router::new()
        .route("/", get(api::list).post(api::create))
        .route("/{id}", get(api::get).patch(api::rename).delete(api::delete_game))
        .route("/{id}/export", get(api::export))
        .route("/{id}/events", post(api::add_event))
        .route("/{id}/events/{index}", put(api::edit_event).delete(api::delete_event))
        .route("/{id}/undo", post(api::undo))
        .route("/{id}/redo", post(api::redo))
        .route("/{id}/analysis", get(api::analysis))
        .route("/{id}/why", get(api::why))
        .route("/{id}/advice", get(api::advice))
        .with_state(app.clone());
    Ok(Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::script))
        .route("/style.css", get(assets::style))
        .route("/api/decks", get(api::decks))
        .route("/api/share", get(api::share).with_state(app))
        .nest("/api/games", games)
        .fallback(|| async { guard::refuse(axum::http::StatusCode::NOT_FOUND, "no such page or endpoint") })
        .method_not_allowed_fallback(|| async {
            guard::refuse(axum::http::StatusCode::METHOD_NOT_ALLOWED, "this endpoint does not take that method")
        })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(guard, guard::check))
        .layer(axum::middleware::from_fn(json_errors)))
}

/// Rewrites every error response that is not JSON as `{"error": ...}`:
/// axum's own refusals (a body over the limit, a body that is not UTF-8,
/// a path it cannot decode) answer in plain text. The message is theirs,
/// or, for a body over the limit, the limit in words.
pub async fn json_errors(req: Request, next: Next) -> Response {
    let response = next.run(req).await;
    let status = response.status();
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || json {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 64 * 1024).await.map(|b| String::from_utf8_lossy(&b).trim().to_string());
    let message = match text {
        _ if status == StatusCode::PAYLOAD_TOO_LARGE => {
            format!("the request body is too large (at most {} KiB)", MAX_BODY / 1024)
        }
        Ok(text) if !text.is_empty() => text,
        _ => status.canonical_reason().unwrap_or("error").to_string(),
    };
    let mut out = guard::refuse(status, &message);
    for (name, value) in &parts.headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            out.headers_mut().append(name, value.clone());
        }
    }
    out
}

/// The URL to open, with the token when there is one.
pub fn url(addr: SocketAddr, token: Option<&str>) -> String {
    match token {
        Some(t) => format!("http://{addr}/?token={t}"),
        None => format!("http://{addr}/"),
    }
}

/// Binds, calls `ready` with the URLs to open (LAN addresses first when
/// listening on every address), then serves until the process ends.
///
/// # Errors
/// When the address cannot be bound or the data directory is unusable.
pub fn serve(config: Config, ready: impl FnOnce(&share::Share)) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().context("cannot start tokio")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(config.addr)
            .await
            .with_context(|| format!("cannot listen on {}", config.addr))?;
        let addr = listener.local_addr()?;
        let app = router(&config.data, config.token.clone(), addr, config.max_states)?;
        ready(&share::Share::find(addr, config.token.as_deref()));
        axum::serve(listener, app).await.context("the server failed")
    })
}
