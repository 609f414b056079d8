//! The JSON the API sends: sleuth-core's page view (`wire::view`, which
//! the offline app builds from the same code in WebAssembly) with what
//! the server adds: the game's id, version and undo state, how long a
//! count took, and the HTTP status of a refused request.

use serde::Serialize;
use serde_json::{json, Value};
use sleuth_core::wire::report;
use sleuth_core::wire::view::{self, AnalysisReply};
use sleuth_core::{Analysis, Card, CardSet, CountOptions, Game, Place, Player};
use std::time::Instant;

/// The built-in decks, for the setup form.
pub fn decks() -> Value {
    json!(view::decks())
}

/// A game's state: the file, the resolved hand sizes, each event in words.
pub fn state(id: &str, version: u64, game: &Game, file: &sleuth_core::GameFile, undo: bool, redo: bool) -> Value {
    let mut state = json!(view::GameView::new(game, file));
    if let Some(o) = state.as_object_mut() {
        o.insert("id".into(), id.into());
        o.insert("version".into(), version.into());
        o.insert("can_undo".into(), undo.into());
        o.insert("can_redo".into(), redo.into());
    }
    state
}

/// The analysis of `game` at `version`: `version`, the keys of
/// `sleuth analyze --json` ([`sleuth_core::wire::Analysis`]) and `millis`.
///
/// # Errors
/// The count error's message when the count does not fit.
pub fn analysis(game: &Game, version: u64, options: &CountOptions<'_>) -> Result<Value, String> {
    let start = Instant::now();
    let a = Analysis::with_options(game, options).map_err(|e| e.to_string())?;
    let millis = start.elapsed().as_secs_f64() * 1000.0;
    to_value(&AnalysisReply::new(game, &a, version, Some(millis)))
}

/// Why `card` is (or is not) at `place`: `sleuth why --json`'s
/// [`sleuth_core::wire::Why`] ([`report::why`], the command line's and the offline app's).
///
/// # Errors
/// The count error's message when the count does not fit.
pub fn explain(game: &Game, card: Card, place: Place, options: &CountOptions<'_>) -> Result<Value, String> {
    let analysis = Analysis::with_options(game, options).map_err(|e| e.to_string())?;
    to_value(&report::why(game, &analysis, card, place, options).map_err(|e| e.to_string())?)
}

/// sleuth-core's advice for the observer of `game` at `version`
/// ([`view::AdviceReply`]), with how long it took.
///
/// # Errors
/// The advisor's message for a bystander's game or a failed count.
pub fn advice(game: &Game, version: u64, max_states: usize) -> Result<Value, String> {
    advice_with(game, version, max_states, |_| true)
}

/// [`advice`] step by step ([`view::advice_with`]): `on_update` gets the
/// advice so far ([`view::AdviceSoFar`]) after each suggestion evaluated
/// and answers whether to go on.
///
/// # Errors
/// As [`advice`], and the message of a stopped advice.
pub fn advice_with(
    game: &Game,
    version: u64,
    max_states: usize,
    mut on_update: impl FnMut(Value) -> bool,
) -> Result<Value, String> {
    let start = Instant::now();
    let mut reply =
        view::advice_with(game, version, max_states, |so_far| on_update(json!(so_far))).map_err(|e| e.to_string())?;
    if reply.consistent {
        reply.millis = Some(start.elapsed().as_secs_f64() * 1000.0);
    }
    to_value(&reply)
}

/// Which card to show `by`, who suggested `cards` ([`view::refutation`]).
///
/// # Errors
/// `Err((true, message))` for a question that cannot be asked;
/// `Err((false, message))` when the advisor fails.
pub fn refutation(game: &Game, by: Player, cards: CardSet) -> Result<Value, (bool, String)> {
    to_value(&view::refutation(game, by, cards).map_err(refused)?).map_err(|m| (false, m))
}

/// A request that could not be answered: `Err((true, m))` the request is
/// wrong (a bad game file, an unknown card), `Err((false, m))` the count
/// failed or the advisor could not answer ([`view::Refused`]).
pub type Refused = (bool, String);

fn refused(e: view::Refused) -> Refused {
    match e {
        view::Refused::Asked(m) => (true, m),
        view::Refused::Failed(m) => (false, m),
    }
}

/// The what-if of `POST /api/analyze` ([`view::what_if`], which the offline
/// app answers too), with how long it took.
///
/// # Errors
/// See [`Refused`].
pub fn what_if(body: &str, options: &CountOptions<'_>) -> Result<Value, Refused> {
    let start = Instant::now();
    let mut reply = view::what_if(body, options).map_err(refused)?;
    reply.millis = Some(start.elapsed().as_secs_f64() * 1000.0);
    to_value(&reply).map_err(|m| (false, m))
}

/// The planned suggestion of `POST /api/evaluate` ([`view::evaluate`],
/// which the offline app answers too).
///
/// # Errors
/// See [`Refused`].
pub fn evaluate(body: &str, max_states: usize) -> Result<Value, Refused> {
    to_value(&view::evaluate(body, max_states).map_err(refused)?).map_err(|m| (false, m))
}

/// A reply as JSON (the wire types always serialise: string keys, finite
/// numbers).
fn to_value(reply: &impl Serialize) -> Result<Value, String> {
    serde_json::to_value(reply).map_err(|e| format!("internal error: {e}"))
}
