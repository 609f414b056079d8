//! The JSON API handlers. Each one parses and validates its input, then
//! does its work (disk, analysis) on tokio's blocking pool so that a slow
//! analysis never stalls other requests.
//!
//! | method and path                         | what                                   |
//! |-----------------------------------------|----------------------------------------|
//! | `GET  /api/decks`                       | the classic and master decks           |
//! | `GET  /api/games`                       | the stored games, newest first         |
//! | `POST /api/games`                       | new game or import: a game file        |
//! | `GET  /api/games/{id}`                  | the game's state (file, events)        |
//! | `GET  /api/games/{id}/export`           | the game file, as a download           |
//! | `POST /api/games/{id}/events`           | add an event (`{"event", "index"?}`)   |
//! | `PUT  /api/games/{id}/events/{i}`       | replace event i (`{"event"}`)          |
//! | `DELETE /api/games/{id}/events/{i}`     | delete event i                         |
//! | `POST /api/games/{id}/undo`, `/redo`    | undo or redo the last change           |
//! | `GET  /api/games/{id}/analysis`         | notepad, case files, count, conflict   |
//! | `GET  /api/games/{id}/why?card=&place=` | the events that force a certain cell   |
//! | `GET  /api/games/{id}/advice[?by=&cards=]` | accuse? suggest? which card to show |
//!
//! Every change (add, replace, delete, undo, redo) answers with the new
//! state and, under `"analysis"`, the same analysis `GET .../analysis`
//! gives, so the page redraws after one round trip.

use crate::guard::refuse;
use crate::store::{lock, Entry, Op, Store, StoreError};
use crate::view;
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;
use sleuth_core::format::EventSpec;
use sleuth_core::{CardSet, GameFile};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The shared state of the handlers.
pub struct App {
    /// The games.
    pub store: Store,
}

/// An API error: a status and a message, sent as `{"error": message}`.
#[derive(Debug)]
pub struct ApiError(StatusCode, String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        refuse(self.0, &self.1)
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        let status = match e {
            StoreError::NotFound(_) => StatusCode::NOT_FOUND,
            StoreError::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
            StoreError::Conflict(_) => StatusCode::CONFLICT,
            StoreError::Io(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        ApiError(status, e.to_string())
    }
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, message.into())
}

type Reply = Result<Response, ApiError>;

fn ok(v: Value) -> Reply {
    Ok(axum::Json(v).into_response())
}

/// Runs blocking work on the blocking pool.
async fn blocking<T: Send + 'static>(f: impl FnOnce() -> Result<T, ApiError> + Send + 'static) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .unwrap_or_else(|e| Err(ApiError(StatusCode::INTERNAL_SERVER_ERROR, format!("internal error: {e}"))))
}

/// Parses a JSON body into `T`, with serde's message on failure.
fn parse<T: DeserializeOwned>(body: &str) -> Result<T, ApiError> {
    serde_json::from_str(body).map_err(|e| bad(format!("invalid request body: {e}")))
}

/// `GET /api/decks`.
pub async fn decks() -> Reply {
    ok(view::decks())
}

/// `GET /api/games`.
pub async fn list(State(app): State<Arc<App>>) -> Reply {
    let games = blocking(move || Ok(app.store.list()?)).await?;
    ok(serde_json::json!({ "games": games }))
}

/// `POST /api/games`: the body is a game file (a new game or an import).
pub async fn create(State(app): State<Arc<App>>, body: String) -> Reply {
    let file = GameFile::from_json(&body).map_err(|e| bad(e.to_string()))?;
    let (id, state) = blocking(move || {
        let id = app.store.create(file)?;
        Ok((id.clone(), state_of(&app, &id)?))
    })
    .await?;
    let mut response = (StatusCode::CREATED, axum::Json(state)).into_response();
    if let Ok(v) = format!("/api/games/{id}").parse() {
        response.headers_mut().insert(header::LOCATION, v);
    }
    Ok(response)
}

fn state_of(app: &App, id: &str) -> Result<Value, ApiError> {
    let e = app.store.get(id)?;
    let e = lock(&e);
    Ok(view::state(e.id(), e.version(), e.game(), e.file(), e.can_undo(), e.can_redo()))
}

/// `GET /api/games/{id}`.
pub async fn get(State(app): State<Arc<App>>, Path(id): Path<String>) -> Reply {
    ok(blocking(move || state_of(&app, &id)).await?)
}

/// `GET /api/games/{id}/export`: the game file as a download.
pub async fn export(State(app): State<Arc<App>>, Path(id): Path<String>) -> Reply {
    let (id, text) = blocking(move || {
        let e = app.store.get(&id)?;
        let text = lock(&e).file().to_json();
        Ok((id, text))
    })
    .await?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/json".to_string()),
            (header::CONTENT_DISPOSITION, format!("attachment; filename=\"{id}.json\"")),
        ],
        text,
    )
        .into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewEvent {
    event: EventSpec,
    #[serde(default)]
    index: Option<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EditEvent {
    event: EventSpec,
}

/// Applies a change and answers, in one response, with the new state and
/// its analysis (`"analysis"`), after the change is on disk: the page
/// redraws after a single round trip. A `Server-Timing` header says how
/// long the change (with the journal's fsync) and the analysis took.
async fn change(app: Arc<App>, id: String, op: impl FnOnce(usize) -> Op + Send + 'static) -> Reply {
    let (state, timing) = blocking(move || {
        let start = Instant::now();
        let entry = app.store.get(&id)?;
        let (mut state, game, version) = {
            let mut e = lock(&entry);
            let len = e.file().events.len();
            e.change(op(len))?;
            let state = view::state(e.id(), e.version(), e.game(), e.file(), e.can_undo(), e.can_redo());
            (state, e.game().clone(), e.version())
        };
        let changed = start.elapsed();
        // The change is made whatever happens here: an analysis that fails
        // (a count too large) is `null`, and `GET .../analysis` says why.
        let analysis = analyse(&entry, &game, version).map_or(Value::Null, |a| (*a).clone());
        if let Some(o) = state.as_object_mut() {
            o.insert("analysis".into(), analysis);
        }
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1000.0;
        // Where the time went, for the browser's developer tools and the e2e timings.
        let timing = format!("change;dur={:.2}, analysis;dur={:.2}", ms(changed), ms(start.elapsed() - changed));
        Ok((state, timing))
    })
    .await?;
    let mut response = axum::Json(state).into_response();
    if let Ok(v) = timing.parse() {
        response.headers_mut().insert("server-timing", v);
    }
    Ok(response)
}

/// The analysis of `game` at `version`, computed without holding the
/// game's lock and cached on the entry while the game stays at `version`.
fn analyse(entry: &Mutex<Entry>, game: &sleuth_core::Game, version: u64) -> Result<Arc<Value>, ApiError> {
    let value = Arc::new(view::analysis(game, version).map_err(|m| ApiError(StatusCode::UNPROCESSABLE_ENTITY, m))?);
    let mut e = lock(entry);
    if e.version() == version {
        e.cache = Some((version, value.clone()));
    }
    Ok(value)
}

fn index(s: &str) -> Result<usize, ApiError> {
    s.parse().map_err(|_| bad(format!("'{s}' is not an event index")))
}

/// `POST /api/games/{id}/events`: `{"event": ..., "index": i?}` (default: append).
pub async fn add_event(State(app): State<Arc<App>>, Path(id): Path<String>, body: String) -> Reply {
    let req: NewEvent = parse(&body)?;
    change(app, id, move |len| Op::Insert { index: req.index.unwrap_or(len), event: req.event }).await
}

/// `PUT /api/games/{id}/events/{i}`: `{"event": ...}`.
pub async fn edit_event(State(app): State<Arc<App>>, Path((id, i)): Path<(String, String)>, body: String) -> Reply {
    let index = index(&i)?;
    let req: EditEvent = parse(&body)?;
    change(app, id, move |_| Op::Replace { index, event: req.event }).await
}

/// `DELETE /api/games/{id}/events/{i}`.
pub async fn delete_event(State(app): State<Arc<App>>, Path((id, i)): Path<(String, String)>) -> Reply {
    let index = index(&i)?;
    change(app, id, move |_| Op::Delete { index }).await
}

/// `POST /api/games/{id}/undo`.
pub async fn undo(State(app): State<Arc<App>>, Path(id): Path<String>) -> Reply {
    change(app, id, |_| Op::Undo).await
}

/// `POST /api/games/{id}/redo`.
pub async fn redo(State(app): State<Arc<App>>, Path(id): Path<String>) -> Reply {
    change(app, id, |_| Op::Redo).await
}

/// `GET /api/games/{id}/analysis`: cached per version of the game.
pub async fn analysis(State(app): State<Arc<App>>, Path(id): Path<String>) -> Reply {
    let v = blocking(move || {
        let entry = app.store.get(&id)?;
        let (game, version) = {
            let e = lock(&entry);
            if let Some((v, cached)) = &e.cache {
                if *v == e.version() {
                    return Ok(cached.clone());
                }
            }
            (e.game().clone(), e.version())
        };
        analyse(&entry, &game, version)
    })
    .await?;
    Ok(axum::Json(&*v).into_response())
}

fn snapshot(app: &App, id: &str) -> Result<sleuth_core::Game, ApiError> {
    let e = app.store.get(id)?;
    let game = lock(&e).game().clone();
    Ok(game)
}

/// `GET /api/games/{id}/why?card=ID&place=PLAYER|case_file`.
pub async fn why(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> Reply {
    let card = q.get("card").cloned().ok_or_else(|| bad("missing query parameter 'card'"))?;
    let place = q.get("place").cloned().ok_or_else(|| bad("missing query parameter 'place'"))?;
    ok(blocking(move || {
        let game = snapshot(&app, &id)?;
        let c = game.deck().card(&card).ok_or_else(|| bad(format!("unknown card '{card}'")))?;
        let p = game.place(&place).ok_or_else(|| bad(format!("unknown place '{place}'")))?;
        view::explain(&game, c, p).map_err(|m| ApiError(StatusCode::UNPROCESSABLE_ENTITY, m))
    })
    .await?)
}

/// `GET /api/games/{id}/advice`: sleuth-core's advice (accuse now?, the
/// best suggestions, the opponents' progress), for the current version.
/// `?by=PLAYER&cards=A,B,C` instead asks which card to show `PLAYER`, who
/// suggested those cards. The advisor runs on the blocking pool and its
/// answer is cached per version; the page asks for it after drawing the
/// notepad, so it never delays the notepad.
pub async fn advice(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> Reply {
    ok(blocking(move || {
        let entry = app.store.get(&id)?;
        let (game, version, cached) = {
            let e = lock(&entry);
            let cached = e.advice.as_ref().filter(|(v, _)| *v == e.version()).map(|(_, a)| a.clone());
            (e.game().clone(), e.version(), cached)
        };
        let failed = |m: String| ApiError(StatusCode::UNPROCESSABLE_ENTITY, m);
        match (q.get("by"), q.get("cards")) {
            (None, None) => {
                if let Some(cached) = cached {
                    return Ok((*cached).clone());
                }
                // Advise without holding the game's lock; cache it for this version.
                let value = view::advice(&game, version).map_err(failed)?;
                let mut e = lock(&entry);
                if e.version() == version {
                    e.advice = Some((version, Arc::new(value.clone())));
                }
                Ok(value)
            }
            (Some(by), Some(cards)) => {
                let by = game.player(by).ok_or_else(|| bad(format!("unknown player '{by}'")))?;
                let mut set = CardSet::EMPTY;
                for c in cards.split(',').filter(|c| !c.is_empty()) {
                    set.insert(game.deck().card(c).ok_or_else(|| bad(format!("unknown card '{c}'")))?);
                }
                view::refutation(&game, by, set)
                    .map_err(|(asked_wrong, m)| if asked_wrong { bad(m) } else { failed(m) })
            }
            _ => Err(bad("give both 'by' and 'cards', or neither")),
        }
    })
    .await?)
}
