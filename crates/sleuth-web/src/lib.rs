//! `sleuth serve`: the Clue notepad in the browser.
//!
//! A local HTTP server (axum on tokio) that serves a single-page notepad,
//! embedded in the binary, and a JSON API over sleuth-core ([`api`] lists
//! the endpoints). Games live in the data folder's SQLite database
//! ([`store`]). Only this crate knows HTTP.
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
    /// The data folder; games go to `DATA/sleuth.db`.
    pub data: PathBuf,
    /// The address to listen on.
    pub addr: SocketAddr,
    /// Who may connect.
    pub access: Access,
    /// The most states each exact count may visit (the program measures
    /// what its memory allows; see `sleuth_core::CountOptions`).
    pub max_states: usize,
}

/// Who may connect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Access {
    /// This computer only (127.0.0.1): no token.
    Local,
    /// Anyone with the access token, kept in the data folder so that links
    /// and joined phones keep working after a restart; `renew` makes a new
    /// one (the old links stop working).
    Token {
        /// Make a new token instead of the kept one.
        renew: bool,
    },
}

/// What the server found when it started, for its output.
pub struct Started<'a> {
    /// Where it can be reached.
    pub share: &'a share::Share,
    /// What the store found.
    pub store: &'a store::Report,
    /// Whether the access token could not be kept (and why).
    pub token_note: Option<String>,
}

/// The whole application: the page, the API and the guard, for a server
/// listening on `listening`, over the data folder `data`, whose counts
/// visit at most `max_states` states.
///
/// # Errors
/// When the data folder cannot be opened.
pub fn router(
    data: &std::path::Path,
    token: Option<String>,
    listening: SocketAddr,
    max_states: usize,
) -> anyhow::Result<Router> {
    let store = store::Store::open(data).map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(app(store, data, token, listening, max_states))
}

/// The application over an opened store.
pub fn app(
    store: store::Store,
    data: &std::path::Path,
    token: Option<String>,
    listening: SocketAddr,
    max_states: usize,
) -> Router {
    let data = std::path::absolute(data).unwrap_or_else(|_| data.to_path_buf());
    let app = Arc::new(api::App { store, listening, token: token.clone(), data, max_states });
    let guard = Arc::new(guard::Guard { token });
    let games = Router::new()
        .route("/", get(api::list).post(api::create))
        .route("/{id}", get(api::get).patch(api::rename).delete(api::delete_game))
        .route("/{id}/export", get(api::export))
        .route("/{id}/events", post(api::add_event))
        .route("/{id}/events/{turn}", put(api::edit_event).delete(api::delete_event))
        .route("/{id}/undo", post(api::undo))
        .route("/{id}/redo", post(api::redo))
        .route("/{id}/analysis", get(api::analysis))
        .route("/{id}/why", get(api::why))
        .route("/{id}/advice", get(api::advice))
        .with_state(app.clone());
    Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::script))
        .route("/style.css", get(assets::style))
        .route("/api/decks", get(api::decks))
        .route("/api/analyze", post(api::analyze).with_state(app.clone()))
        .route("/api/evaluate", post(api::evaluate).with_state(app.clone()))
        .route("/api/share", get(api::share).with_state(app))
        .nest("/api/games", games)
        .fallback(|| async { guard::refuse(axum::http::StatusCode::NOT_FOUND, "no such page or endpoint") })
        .method_not_allowed_fallback(|| async {
            guard::refuse(axum::http::StatusCode::METHOD_NOT_ALLOWED, "this endpoint does not take that method")
        })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(guard, guard::check))
        .layer(axum::middleware::from_fn(json_errors))
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

/// Opens the data folder, binds, calls `ready` with the URLs to open (LAN
/// addresses first when listening on every address) and what the store
/// found, then serves until the process ends.
///
/// # Errors
/// When the address cannot be bound or the data folder is unusable.
pub fn serve(config: Config, ready: impl FnOnce(&Started<'_>)) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().context("cannot start tokio")?;
    runtime.block_on(async move {
        let store = store::Store::open(&config.data).map_err(|e| anyhow::anyhow!("{e}"))?;
        let listener = tokio::net::TcpListener::bind(config.addr)
            .await
            .with_context(|| format!("cannot listen on {}", config.addr))?;
        let addr = listener.local_addr()?;
        let (token, token_note) = match config.access {
            Access::Local => (None, None),
            Access::Token { renew } => {
                let (token, note) = store.access_token(renew);
                (Some(token), note)
            }
        };
        let report = store.report().clone();
        let app = app(store, &config.data, token.clone(), addr, config.max_states);
        let share = share::Share::find(addr, token.as_deref());
        ready(&Started { share: &share, store: &report, token_note });
        axum::serve(listener, app).await.context("the server failed")
    })
}
