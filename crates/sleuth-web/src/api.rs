//! The JSON API handlers. Each one parses and validates its input, then
//! does its work (disk, analysis) on tokio's blocking pool so that a slow
//! analysis never stalls other requests.
//!
//! | method and path                         | what                                   |
//! |-----------------------------------------|----------------------------------------|
//! | `GET  /api/decks`                       | the classic and master decks           |
//! | `GET  /api/share`                       | the URLs (and QR code) a phone can open |
//! | `GET  /api/games`                       | the stored games, newest first         |
//! | `POST /api/games[?name=]`               | new game or import: a game file        |
//! | `GET  /api/games/{id}`                  | the game's state (file, events, name)  |
//! | `PATCH /api/games/{id}`                 | rename (`{"name"}`)                    |
//! | `DELETE /api/games/{id}`                | delete the game                        |
//! | `GET  /api/games/{id}/export`           | the game file, as a download           |
//! | `POST /api/games/{id}/events`           | add a turn (`{"event", "index"?}`)     |
//! | `PUT  /api/games/{id}/events/{turn}`    | replace turn `t7` (`{"event"}`)        |
//! | `DELETE /api/games/{id}/events/{turn}`  | delete turn `t7`                       |
//! | `POST /api/games/{id}/undo`, `/redo`    | undo or redo (body empty or `{}`)      |
//! | `GET  /api/games/{id}/analysis`         | notepad, case files, count, conflict   |
//! | `GET  /api/games/{id}/why?card=&place=` | the events that force a certain cell   |
//! | `GET  /api/games/{id}/advice[?by=&cards=]` | accuse? suggest? which card to show |
//! | `GET  /api/games/{id}/advice?progress`  | the advice, or the advice so far (202) |
//! | `POST /api/analyze`                     | what-if: a game file and supposed facts |
//! | `POST /api/evaluate`                    | what each answer to a planned suggestion tells |
//!
//! The last two are stateless (the game file is in the body), so that the
//! offline app answers them the same way from the same Rust code.
//!
//! Every change (add, replace, delete, undo, redo, rename) answers with the
//! new state and, under `"analysis"`, the same analysis `GET .../analysis`
//! gives, so the page redraws after one round trip.
//!
//! Versions: a game's state carries `"version"` and `ETag: "N"`. Every
//! change to a game must send `If-Match: "N"`, the version it is based on
//! (428 without it). The version is compared and the change made under the
//! game's lock, so a change based on a stale version (another tab changed
//! the game, or a double tap sent the same request twice) is refused with
//! 409, `{"error", "state"}` and the current state, and changes nothing.
//! `GET /api/games/{id}` with `If-None-Match: "N"` answers 304 while the
//! game is at version N, so a page can poll cheaply.
//!
//! Turns are named by their stable id (`"id": "t7"` in the state), never by
//! their position, in the paths of edit and delete: a turn deleted once is
//! not there to delete again, and no other turn takes its place. Only an
//! add says where, by position (`"index"`), in the version it is based on.
//!
//! Idempotency: an add must carry an `Idempotency-Key` header (any change
//! may): a key the game has seen answers with the game as it is now and
//! what the first request did (`"change"`), before the version is checked,
//! so a retry whose first answer was lost never stores a turn twice and is
//! never taken for another tab's change. A new game may carry one too: the
//! same key again answers with the game it created (200, not 201). The
//! same key with another request is refused (422).

use crate::guard::refuse;
use crate::store::{check_name, lock, Change, Entry, Store, StoreError, TurnId};
use crate::{share, view};
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;
use sleuth_core::format::EventSpec;
use sleuth_core::text::{nfc, quote};
use sleuth_core::{CardSet, CountOptions, GameFile};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The shared state of the handlers.
pub struct App {
    /// The games.
    pub store: Store,
    /// The address the server listens on, for `GET /api/share`.
    pub listening: std::net::SocketAddr,
    /// The access token, for the URLs of `GET /api/share`.
    pub token: Option<String>,
    /// The most states each exact count may visit.
    pub max_states: usize,
    /// The data folder (absolute), for the command that listens on the network.
    pub data: std::path::PathBuf,
}

/// An API error: a status and a message, sent as `{"error": message}`;
/// a change based on a stale version carries the game's current state too.
#[derive(Debug)]
pub struct ApiError(StatusCode, String, Option<Box<(u64, Value)>>);

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError(status, message.into(), None)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        match self.2 {
            None => refuse(self.0, &self.1),
            Some(current) => {
                let (version, state) = *current;
                let body = serde_json::json!({ "error": self.1, "state": state });
                with_etag((self.0, axum::Json(body)).into_response(), version)
            }
        }
    }
}

/// `ETag: "N"` on a response about version N of a game, which a browser
/// must check with the server before reusing (`no-cache`).
fn with_etag(mut response: Response, version: u64) -> Response {
    if let Ok(v) = HeaderValue::from_str(&format!("\"{version}\"")) {
        response.headers_mut().insert(header::ETAG, v);
    }
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// A version as sent in `If-Match` or `If-None-Match`: `"N"`, `W/"N"` or `N`.
fn parse_version(tag: &str) -> Option<u64> {
    let tag = tag.trim();
    let tag = tag.strip_prefix("W/").unwrap_or(tag);
    let tag = tag.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(tag);
    tag.parse().ok()
}

/// The version a change is based on, from its `If-Match` header.
fn based_on(headers: &HeaderMap) -> Result<u64, ApiError> {
    let Some(value) = headers.get(header::IF_MATCH) else {
        return Err(ApiError::new(
            StatusCode::PRECONDITION_REQUIRED,
            "a change must say which version of the game it is based on (If-Match: \"N\", \
             the version the game had when you loaded it); nothing was changed",
        ));
    };
    value.to_str().ok().and_then(parse_version).ok_or_else(|| {
        bad("If-Match must be the version of the game a change is based on, such as \"3\"; nothing was changed")
    })
}

/// Whether `If-None-Match` names `version` (or is `*`).
fn not_modified(headers: &HeaderMap, version: u64) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|tag| tag.trim() == "*" || parse_version(tag) == Some(version))
}

/// The game's state as the API sends it: sleuth-core's view plus its
/// name, each turn's id, and what is damaged, if anything.
fn state_json(e: &Entry) -> Value {
    let mut state = view::state(e.id(), e.version(), e.game(), e.file(), e.can_undo(), e.can_redo());
    if let Some(events) = state.get_mut("events").and_then(Value::as_array_mut) {
        for (event, id) in events.iter_mut().zip(e.turn_ids()) {
            if let Some(o) = event.as_object_mut() {
                o.insert("id".into(), id.to_string().into());
            }
        }
    }
    if let Some(o) = state.as_object_mut() {
        o.insert("name".into(), e.name().into());
        if let Some(d) = e.damaged() {
            o.insert("damaged".into(), d.into());
        }
    }
    state
}

/// The `Idempotency-Key` of a request: 1 to 128 visible ASCII characters,
/// quoted (as the IETF draft writes it) or not.
fn idempotency_key(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    let Some(value) = headers.get("idempotency-key") else { return Ok(None) };
    let text = value.to_str().unwrap_or("").trim();
    let key = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(text);
    if (1..=128).contains(&key.len()) && key.bytes().all(|b| b.is_ascii_graphic() && b != b'"') {
        Ok(Some(key.to_string()))
    } else {
        Err(bad(
            "Idempotency-Key must be 1 to 128 visible ASCII characters (such as a random UUID); nothing was changed",
        ))
    }
}

/// Refuses a change to a deleted game, or one based on another version
/// than the current one. Called with the game locked, so that no other
/// change can come between this check and the change itself.
fn current(e: &Entry, based_on: u64) -> Result<(), ApiError> {
    if e.deleted() {
        return Err(StoreError::NotFound(format!("no game '{}' (it was deleted)", e.id())).into());
    }
    if e.version() != based_on {
        let message = format!(
            "the game changed since you loaded it (your version {based_on}, now {}); nothing was changed",
            e.version()
        );
        return Err(ApiError(StatusCode::CONFLICT, message, Some(Box::new((e.version(), state_json(e))))));
    }
    Ok(())
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        let status = match e {
            StoreError::NotFound(_) => StatusCode::NOT_FOUND,
            StoreError::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
            StoreError::Conflict(_) => StatusCode::CONFLICT,
            StoreError::Full(_) => StatusCode::INSUFFICIENT_STORAGE,
            StoreError::ReadOnly(_) => StatusCode::SERVICE_UNAVAILABLE,
            StoreError::Io(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        ApiError::new(status, e.to_string())
    }
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, message)
}

type Reply = Result<Response, ApiError>;

fn ok(v: Value) -> Reply {
    Ok(axum::Json(v).into_response())
}

/// Runs blocking work on the blocking pool.
async fn blocking<T: Send + 'static>(f: impl FnOnce() -> Result<T, ApiError> + Send + 'static) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .unwrap_or_else(|e| Err(ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("internal error: {e}"))))
}

/// Parses a JSON body into `T`, with serde's message on failure.
fn parse<T: DeserializeOwned>(body: &str) -> Result<T, ApiError> {
    serde_json::from_str(body).map_err(|e| bad(format!("invalid request body: {e}")))
}

/// `GET /api/decks`.
pub async fn decks() -> Reply {
    ok(view::decks())
}

/// `GET /api/share`: the URLs a phone on the same network can open, and
/// the first one's QR code.
pub async fn share(State(app): State<Arc<App>>) -> Reply {
    let (share, command) = blocking(move || {
        Ok((share::Share::find(app.listening, app.token.as_deref()), share::listen_command(&app.data, app.listening)))
    })
    .await?;
    let mut json = share.json();
    if let Some(o) = json.as_object_mut() {
        o.insert("command".into(), command.into());
    }
    ok(json)
}

/// `GET /api/games`: the games, and what the store found damaged at start
/// (`problems`, each naming the game and the line or step).
pub async fn list(State(app): State<Arc<App>>) -> Reply {
    let (games, problems) = blocking(move || Ok((app.store.list()?, app.store.report().problems.clone()))).await?;
    ok(serde_json::json!({ "games": games, "problems": problems }))
}

/// `POST /api/games[?name=NAME]`: the body is a game file (a new game or
/// an import); without a name the game is named by its creation time. With
/// an `Idempotency-Key` seen before, the game that key created (200).
pub async fn create(
    State(app): State<Arc<App>>,
    Query(q): Query<HashMap<String, String>>,
    headers: HeaderMap,
    body: String,
) -> Reply {
    let file = GameFile::from_json(&body).map_err(|e| bad(e.to_string()))?;
    let name = q.get("name").map(|n| check_name(n)).transpose()?;
    let key = idempotency_key(&headers)?;
    let (id, replayed, version, mut state) = blocking(move || {
        let (id, replayed) = app.store.create(file, name.as_deref(), key.as_deref())?;
        let entry = app.store.get(&id)?;
        let e = lock(&entry);
        Ok((id, replayed, e.version(), state_json(&e)))
    })
    .await?;
    if let Some(o) = state.as_object_mut() {
        o.insert("change".into(), serde_json::json!({"version": 0, "turn": null, "replayed": replayed}));
    }
    let status = if replayed { StatusCode::OK } else { StatusCode::CREATED };
    let mut response = (status, axum::Json(state)).into_response();
    if let Ok(v) = format!("/api/games/{id}").parse() {
        response.headers_mut().insert(header::LOCATION, v);
    }
    Ok(with_etag(response, version))
}

/// `GET /api/games/{id}`; 304 when `If-None-Match` names the current version.
pub async fn get(State(app): State<Arc<App>>, Path(id): Path<String>, headers: HeaderMap) -> Reply {
    let (version, state) = blocking(move || {
        let entry = app.store.get(&id)?;
        let e = lock(&entry);
        if e.deleted() {
            return Err(StoreError::NotFound(format!("no game '{id}' (it was deleted)")).into());
        }
        let unchanged = not_modified(&headers, e.version());
        Ok((e.version(), (!unchanged).then(|| state_json(&e))))
    })
    .await?;
    let response = match state {
        Some(state) => axum::Json(state).into_response(),
        None => StatusCode::NOT_MODIFIED.into_response(),
    };
    Ok(with_etag(response, version))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Rename {
    name: String,
}

/// `PATCH /api/games/{id}`: `{"name": ...}` renames the game.
pub async fn rename(State(app): State<Arc<App>>, Path(id): Path<String>, headers: HeaderMap, body: String) -> Reply {
    let based_on = based_on(&headers)?;
    let req: Rename = parse(&body)?;
    let name = check_name(&req.name)?;
    change(app, id, based_on, idempotency_key(&headers)?, Change::Rename { name }).await
}

/// `DELETE /api/games/{id}`: deletes the game's files; 204.
pub async fn delete_game(State(app): State<Arc<App>>, Path(id): Path<String>, headers: HeaderMap) -> Reply {
    let based_on = based_on(&headers)?;
    blocking(move || {
        let entry = app.store.get(&id)?;
        let mut e = lock(&entry);
        current(&e, based_on)?;
        Ok(app.store.delete(&mut e)?)
    })
    .await?;
    Ok(StatusCode::NO_CONTENT.into_response())
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
    event: Value,
    #[serde(default)]
    index: Option<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EditEvent {
    event: Value,
}

/// An event parsed as in an imported game file (same parser, same
/// messages), except that any unknown key is refused: it would be lost.
fn event(value: &Value) -> Result<EventSpec, ApiError> {
    EventSpec::from_value(value, "the event", true).map_err(|e| bad(format!("{e}; nothing was changed")))
}

/// Undo and redo take no body, or `{}`.
fn no_body(body: &str, what: &str) -> Result<(), ApiError> {
    let empty = body.trim().is_empty()
        || serde_json::from_str::<Value>(body).is_ok_and(|v| v.as_object().is_some_and(serde_json::Map::is_empty));
    if empty {
        Ok(())
    } else {
        Err(bad(format!("{what} takes no body (or {{}}); nothing was changed")))
    }
}

/// Applies a change and answers, in one response, with the new state, its
/// analysis (`"analysis"`) and what the change did (`"change"`: the version
/// it made and the turn it named), after the change is on disk: the page
/// redraws after a single round trip. A change whose idempotency key the
/// game has seen is not applied again: the answer is the same, with
/// `"replayed": true` in `"change"`. A `Server-Timing` header says how long
/// the change (with its commit) and the analysis took.
async fn change(app: Arc<App>, id: String, based_on: u64, key: Option<String>, change: Change) -> Reply {
    let (state, version, timing) = blocking(move || {
        let start = Instant::now();
        let entry = app.store.get(&id)?;
        let (mut state, game, version) = {
            let mut e = lock(&entry);
            let seen = key.as_deref().and_then(|k| e.keyed(k).cloned());
            let (done, replayed) = match seen {
                Some(done) => {
                    if e.deleted() {
                        return Err(StoreError::NotFound(format!("no game '{id}' (it was deleted)")).into());
                    }
                    if !done.answers(&change) {
                        return Err(ApiError::new(
                            StatusCode::UNPROCESSABLE_ENTITY,
                            "this Idempotency-Key was sent before with another change; send a new key for a new change; nothing was changed",
                        ));
                    }
                    (done, true)
                }
                None => {
                    current(&e, based_on)?;
                    (app.store.change(&mut e, change, key.as_deref())?, false)
                }
            };
            let mut state = state_json(&e);
            if let Some(o) = state.as_object_mut() {
                let turn = done.turn.map(|t| t.to_string());
                o.insert("change".into(), serde_json::json!({"version": done.version, "turn": turn, "replayed": replayed}));
            }
            (state, e.game().clone(), e.version())
        };
        let changed = start.elapsed();
        // The change is made whatever happens here: an analysis that fails
        // (a count too large) is `null`, and `GET .../analysis` says why.
        let analysis = analyse(&entry, &game, version, app.max_states).map_or(Value::Null, |a| (*a).clone());
        if let Some(o) = state.as_object_mut() {
            o.insert("analysis".into(), analysis);
        }
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1000.0;
        // Where the time went, for the browser's developer tools and the e2e timings.
        let timing = format!("change;dur={:.2}, analysis;dur={:.2}", ms(changed), ms(start.elapsed() - changed));
        Ok((state, version, timing))
    })
    .await?;
    let mut response = axum::Json(state).into_response();
    if let Ok(v) = timing.parse() {
        response.headers_mut().insert("server-timing", v);
    }
    Ok(with_etag(response, version))
}

/// The analysis of `game` at `version`, computed without holding the
/// game's lock and cached on the entry while the game stays at `version`.
fn analyse(
    entry: &Mutex<Entry>,
    game: &sleuth_core::Game,
    version: u64,
    max_states: usize,
) -> Result<Arc<Value>, ApiError> {
    let options = CountOptions::new().max_states(max_states);
    let value =
        view::analysis(game, version, &options).map_err(|m| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, m))?;
    let value = Arc::new(value);
    let mut e = lock(entry);
    if e.version() == version {
        e.cache = Some((version, value.clone()));
    }
    Ok(value)
}

fn turn_id(s: &str) -> Result<TurnId, ApiError> {
    TurnId::parse(s).ok_or_else(|| {
        bad(format!(
            "'{}' is not a turn id: turns are named by their id (\"id\": \"t7\" in the game's state), not by position; nothing was changed",
            s.escape_debug()
        ))
    })
}

/// `POST /api/games/{id}/events`: `{"event": ..., "index": i?}` (default:
/// at the end), with an `Idempotency-Key`.
pub async fn add_event(State(app): State<Arc<App>>, Path(id): Path<String>, headers: HeaderMap, body: String) -> Reply {
    let based_on = based_on(&headers)?;
    let key = idempotency_key(&headers)?.ok_or_else(|| {
        bad("adding a turn needs an Idempotency-Key header (a new random key per turn, the same one when \
             the request is sent again), so that a retry never stores the turn twice; nothing was changed")
    })?;
    let req: NewEvent = parse(&body)?;
    let event = event(&req.event)?;
    change(app, id, based_on, Some(key), Change::Add { index: req.index, event }).await
}

/// `PUT /api/games/{id}/events/{turn}`: `{"event": ...}`.
pub async fn edit_event(
    State(app): State<Arc<App>>,
    Path((id, i)): Path<(String, String)>,
    headers: HeaderMap,
    body: String,
) -> Reply {
    let based_on = based_on(&headers)?;
    let turn = turn_id(&i)?;
    let req: EditEvent = parse(&body)?;
    let event = event(&req.event)?;
    change(app, id, based_on, idempotency_key(&headers)?, Change::Edit { turn, event }).await
}

/// `DELETE /api/games/{id}/events/{turn}`.
pub async fn delete_event(
    State(app): State<Arc<App>>,
    Path((id, i)): Path<(String, String)>,
    headers: HeaderMap,
) -> Reply {
    let based_on = based_on(&headers)?;
    let turn = turn_id(&i)?;
    change(app, id, based_on, idempotency_key(&headers)?, Change::Delete { turn }).await
}

/// `POST /api/games/{id}/undo`: the body is empty or `{}`.
pub async fn undo(State(app): State<Arc<App>>, Path(id): Path<String>, headers: HeaderMap, body: String) -> Reply {
    let based_on = based_on(&headers)?;
    no_body(&body, "undo")?;
    change(app, id, based_on, idempotency_key(&headers)?, Change::Undo).await
}

/// `POST /api/games/{id}/redo`: the body is empty or `{}`.
pub async fn redo(State(app): State<Arc<App>>, Path(id): Path<String>, headers: HeaderMap, body: String) -> Reply {
    let based_on = based_on(&headers)?;
    no_body(&body, "redo")?;
    change(app, id, based_on, idempotency_key(&headers)?, Change::Redo).await
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
        analyse(&entry, &game, version, app.max_states)
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
        // Ids are compared in NFC, as the game file's are read.
        let c = game.deck().card(&nfc(&card)).ok_or_else(|| bad(format!("unknown card '{}'", quote(&card))))?;
        let p = game.place(&nfc(&place)).ok_or_else(|| bad(format!("unknown place '{}'", quote(&place))))?;
        let options = CountOptions::new().max_states(app.max_states);
        view::explain(&game, c, p, &options).map_err(|m| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, m))
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
    if q.contains_key("progress") && !q.contains_key("by") && !q.contains_key("cards") {
        return blocking(move || advice_so_far(&app, &id)).await;
    }
    ok(blocking(move || {
        let entry = app.store.get(&id)?;
        let (game, version, cached) = {
            let e = lock(&entry);
            let cached = e.advice.as_ref().filter(|(v, _)| *v == e.version()).map(|(_, a)| a.clone());
            (e.game().clone(), e.version(), cached)
        };
        let failed = |m: String| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, m);
        match (q.get("by"), q.get("cards")) {
            (None, None) => {
                if let Some(cached) = cached {
                    return Ok((*cached).clone());
                }
                // Advise without holding the game's lock; cache it for this version.
                let value = view::advice(&game, version, app.max_states).map_err(failed)?;
                let mut e = lock(&entry);
                if e.version() == version {
                    e.advice = Some((version, Arc::new(value.clone())));
                }
                Ok(value)
            }
            (Some(by), Some(cards)) => {
                let by = game.player(&nfc(by)).ok_or_else(|| bad(format!("unknown player '{}'", quote(by))))?;
                let mut set = CardSet::EMPTY;
                for c in cards.split(',').filter(|c| !c.is_empty()) {
                    set.insert(game.deck().card(&nfc(c)).ok_or_else(|| bad(format!("unknown card '{}'", quote(c))))?);
                }
                view::refutation(&game, by, set)
                    .map_err(|(asked_wrong, m)| if asked_wrong { bad(m) } else { failed(m) })
            }
            _ => Err(bad("give both 'by' and 'cards', or neither")),
        }
    })
    .await?)
}

/// `GET /api/games/{id}/advice?progress`: the advice of the current
/// version when it is counted (200, as without `?progress`); else the
/// advice so far (202, `"partial": true`: the suggestions evaluated so
/// far, best first, with their exact numbers), starting its count on the
/// blocking pool when none runs for this version. The page asks again
/// until the answer is final. A count for an older version stops at its
/// next suggestion; a failed count answers 422 once.
fn advice_so_far(app: &Arc<App>, id: &str) -> Reply {
    let entry = app.store.get(id)?;
    let mut e = lock(&entry);
    let version = e.version();
    if let Some((_, cached)) = e.advice.as_ref().filter(|(v, _)| *v == version) {
        return ok((**cached).clone());
    }
    if let Some((_, so_far)) = e.advising.as_ref().filter(|(v, _)| *v == version) {
        return match so_far.clone() {
            Ok(so_far) => Ok((StatusCode::ACCEPTED, axum::Json(so_far)).into_response()),
            Err(m) => {
                e.advising = None;
                Err(ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, m))
            }
        };
    }
    let started = serde_json::json!(sleuth_core::wire::view::AdviceSoFar::started(version));
    e.advising = Some((version, Ok(started.clone())));
    let game = e.game().clone();
    drop(e);
    let (entry, max_states) = (entry.clone(), app.max_states);
    tokio::task::spawn_blocking(move || {
        let advice = view::advice_with(&game, version, max_states, |so_far| {
            let mut e = lock(&entry);
            let current = e.version() == version;
            if current {
                e.advising = Some((version, Ok(so_far)));
            }
            current
        });
        let mut e = lock(&entry);
        if e.version() == version {
            match advice {
                Ok(advice) => {
                    e.advice = Some((version, Arc::new(advice)));
                    e.advising = None;
                }
                Err(m) => e.advising = Some((version, Err(m))),
            }
        }
    });
    Ok((StatusCode::ACCEPTED, axum::Json(started)).into_response())
}

/// The status of a stateless request that was refused ([`view::Refused`]).
fn refused((asked_wrong, message): view::Refused) -> ApiError {
    if asked_wrong {
        bad(message)
    } else {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }
}

/// `POST /api/analyze`: a what-if, `{"game", "suppose"}` ([`view::what_if`]).
pub async fn analyze(State(app): State<Arc<App>>, body: String) -> Reply {
    ok(blocking(move || view::what_if(&body, &CountOptions::new().max_states(app.max_states)).map_err(refused)).await?)
}

/// `POST /api/evaluate`: a planned suggestion, `{"game", "cards"}` ([`view::evaluate`]).
pub async fn evaluate(State(app): State<Arc<App>>, body: String) -> Reply {
    ok(blocking(move || view::evaluate(&body, app.max_states).map_err(refused)).await?)
}
