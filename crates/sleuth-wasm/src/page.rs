//! The notepad page's requests, for the offline app: the same replies as
//! `sleuth serve`'s API (sleuth-core's `wire::view`), for the local backend
//! that keeps the games in the browser (`app/local.mjs`) and adds what only
//! a store knows (ids, versions, undo, turn ids).
//!
//! A request is one JSON object `{"op": ..., ...}`; the answer is always
//! JSON: `{"status": 200, "body": ...}`, or `{"status": 400 | 422,
//! "error": message}` with the API's status and message for the same
//! request.
//!
//! | op           | fields                         | body                                  |
//! |--------------|--------------------------------|---------------------------------------|
//! | `decks`      |                                | the built-in decks                    |
//! | `view`       | `game`                         | `{"view", "text"}`: the game as the page draws it, and the file as exported |
//! | `event`      | `event`                        | the event as stored (strict reader)   |
//! | `analysis`   | `game`, `version`              | the page's analysis                   |
//! | `why`        | `game`, `card`, `place`        | `sleuth why --json`                   |
//! | `advice`     | `game`, `version`, `progress`? | the page's advice; with `"progress": true`, the advice so far after each suggestion evaluated, to [`page_with`]'s callback |
//! | `refutation` | `game`, `by`, `cards`          | which card to show                    |
//! | `what_if`    | `body`                         | `POST /api/analyze`'s reply           |
//! | `evaluate`   | `body`                         | `POST /api/evaluate`'s reply          |
//!
//! `game` is a game file's text; `body` is the text of the API's request
//! body (`{"game": GAME FILE, ...}`), read by the same code as the server's.

use serde_json::{json, Value};
use sleuth_core::format::EventSpec;
use sleuth_core::text::{nfc, quote};
use sleuth_core::wire::report;
use sleuth_core::wire::view::{self, AnalysisReply, GameView};
use sleuth_core::{Analysis, CardSet, Game, GameFile};

/// A failed request: the API's status and message.
struct Refused(u16, String);

fn bad(message: impl Into<String>) -> Refused {
    Refused(400, message.into())
}

fn failed(message: impl ToString) -> Refused {
    Refused(422, message.to_string())
}

/// Answers one request of the page (see the module's table).
pub fn page(request: &str) -> String {
    page_with(request, &mut |_| {})
}

/// [`page`], handing `progress` the advice so far (`wire::view::AdviceSoFar`'s
/// JSON) after each suggestion it evaluates, when the request is `advice` with
/// `"progress": true`.
pub fn page_with(request: &str, progress: &mut dyn FnMut(&str)) -> String {
    let reply = serde_json::from_str::<Value>(request)
        .map_err(|e| bad(format!("invalid request: {e}")))
        .and_then(|r| answer(&r, progress));
    let value = match reply {
        Ok(body) => json!({"status": 200, "body": body}),
        Err(Refused(status, error)) => json!({"status": status, "error": error}),
    };
    value.to_string()
}

/// The API's status for a refused request: 400 the asker's mistake, 422 the engine's.
fn refused(e: view::Refused) -> Refused {
    match e {
        view::Refused::Asked(m) => bad(m),
        view::Refused::Failed(m) => failed(m),
    }
}

fn field<'a>(request: &'a Value, key: &str) -> Result<&'a Value, Refused> {
    request.get(key).ok_or_else(|| bad(format!("the request has no '{key}'")))
}

fn string<'a>(request: &'a Value, key: &str) -> Result<&'a str, Refused> {
    field(request, key)?.as_str().ok_or_else(|| bad(format!("'{key}' is not a string")))
}

fn version(request: &Value) -> Result<u64, Refused> {
    field(request, "version")?.as_u64().ok_or_else(|| bad("'version' is not a number"))
}

/// The game of a request: 400 for a file that does not read, 422 for one
/// that does not validate (as the API answers an import).
fn game(request: &Value) -> Result<(GameFile, Game), Refused> {
    let file = GameFile::from_json(string(request, "game")?).map_err(|e| bad(e.to_string()))?;
    let game = Game::new(&file).map_err(|e| failed(problems(&e)))?;
    Ok((file, game))
}

/// A game error as one line, as the API writes it.
fn problems(e: &sleuth_core::GameError) -> String {
    e.problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
}

fn to_value(value: &impl serde::Serialize) -> Result<Value, Refused> {
    serde_json::to_value(value).map_err(|e| failed(format!("internal error: {e}")))
}

fn answer(request: &Value, progress: &mut dyn FnMut(&str)) -> Result<Value, Refused> {
    let options = crate::options();
    match string(request, "op")? {
        "decks" => to_value(&view::decks()),
        "view" => {
            let (file, game) = game(request)?;
            Ok(json!({"view": to_value(&GameView::new(&game, &file))?, "text": file.to_json()}))
        }
        "event" => {
            let event = EventSpec::from_value(field(request, "event")?, "the event", true)
                .map_err(|e| bad(format!("{e}; nothing was changed")))?;
            to_value(&event)
        }
        "analysis" => {
            let (_, game) = game(request)?;
            let analysis = Analysis::with_options(&game, &options).map_err(failed)?;
            to_value(&AnalysisReply::new(&game, &analysis, version(request)?, None))
        }
        "why" => {
            let (_, game) = game(request)?;
            let card = report::find_card(&game, string(request, "card")?).map_err(|e| bad(e.to_string()))?;
            let place = report::find_place(&game, string(request, "place")?).map_err(|e| bad(e.to_string()))?;
            let analysis = Analysis::with_options(&game, &options).map_err(failed)?;
            to_value(&report::why(&game, &analysis, card, place, &options).map_err(failed)?)
        }
        "advice" => {
            let (_, game) = game(request)?;
            let version = version(request)?;
            let reply = if request.get("progress") == Some(&Value::Bool(true)) {
                view::advice_with(&game, version, crate::max_states(), |so_far| {
                    progress(&json!(so_far).to_string());
                    true
                })
            } else {
                view::advice(&game, version, crate::max_states())
            };
            to_value(&reply.map_err(failed)?)
        }
        "refutation" => {
            let (_, game) = game(request)?;
            let by = string(request, "by")?;
            let by = game.player(&nfc(by)).ok_or_else(|| bad(format!("unknown player '{}'", quote(by))))?;
            let mut cards = CardSet::EMPTY;
            for c in field(request, "cards")?.as_array().ok_or_else(|| bad("'cards' is not a list"))? {
                let c = c.as_str().ok_or_else(|| bad("'cards' is not a list of card ids"))?;
                cards.insert(game.deck().card(&nfc(c)).ok_or_else(|| bad(format!("unknown card '{}'", quote(c))))?);
            }
            to_value(&view::refutation(&game, by, cards).map_err(refused)?)
        }
        "what_if" => to_value(&view::what_if(string(request, "body")?, &options).map_err(refused)?),
        "evaluate" => to_value(&view::evaluate(string(request, "body")?, crate::max_states()).map_err(refused)?),
        other => Err(bad(format!("unknown op '{}'", quote(other)))),
    }
}
