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
//! [`MAX_BODY`] bytes are refused too.
#![forbid(unsafe_code)]

pub mod api;
pub mod assets;
pub mod guard;
pub mod store;
pub mod view;

use anyhow::Context;
use axum::extract::DefaultBodyLimit;
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
}

/// The whole application: the page, the API and the guard.
///
/// # Errors
/// When the data directory cannot be created.
pub fn router(data: &std::path::Path, token: Option<String>) -> anyhow::Result<Router> {
    let store = store::Store::open(data).map_err(|e| anyhow::anyhow!("{e}"))?;
    let app = Arc::new(api::App { store });
    let guard = Arc::new(guard::Guard { token });
    let games = Router::new()
        .route("/", get(api::list).post(api::create))
        .route("/{id}", get(api::get))
        .route("/{id}/export", get(api::export))
        .route("/{id}/events", post(api::add_event))
        .route("/{id}/events/{index}", put(api::edit_event).delete(api::delete_event))
        .route("/{id}/undo", post(api::undo))
        .route("/{id}/redo", post(api::redo))
        .route("/{id}/analysis", get(api::analysis))
        .route("/{id}/why", get(api::why))
        .route("/{id}/advice", get(api::advice))
        .with_state(app);
    Ok(Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::script))
        .route("/style.css", get(assets::style))
        .route("/api/decks", get(api::decks))
        .nest("/api/games", games)
        .fallback(|| async { guard::refuse(axum::http::StatusCode::NOT_FOUND, "no such page or endpoint") })
        .method_not_allowed_fallback(|| async {
            guard::refuse(axum::http::StatusCode::METHOD_NOT_ALLOWED, "this endpoint does not take that method")
        })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(guard, guard::check)))
}

/// The URL to open, with the token when there is one.
pub fn url(addr: SocketAddr, token: Option<&str>) -> String {
    match token {
        Some(t) => format!("http://{addr}/?token={t}"),
        None => format!("http://{addr}/"),
    }
}

/// Binds, calls `ready` with the URL, then serves until the process ends.
///
/// # Errors
/// When the address cannot be bound or the data directory is unusable.
pub fn serve(config: Config, ready: impl FnOnce(&str)) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().context("cannot start tokio")?;
    runtime.block_on(async move {
        let app = router(&config.data, config.token.clone())?;
        let listener = tokio::net::TcpListener::bind(config.addr)
            .await
            .with_context(|| format!("cannot listen on {}", config.addr))?;
        let addr = listener.local_addr()?;
        ready(&url(addr, config.token.as_deref()));
        axum::serve(listener, app).await.context("the server failed")
    })
}
