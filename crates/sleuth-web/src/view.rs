//! The JSON the API sends: sleuth-core's page view (`wire::view`, which
//! the offline app builds from the same code in WebAssembly) with what
//! the server adds: the game's id, version and undo state, and how long a
//! count took.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use sleuth_core::advice::{AdviceError, Position};
use sleuth_core::text::{nfc, quote};
use sleuth_core::wire::report;
use sleuth_core::wire::view::{self, AnalysisReply, RefutationError, CASE_FILES_SHOWN};
use sleuth_core::{wire, Analysis, Card, CardSet, CountOptions, Game, Lit, Place, Player};
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
    let start = Instant::now();
    let mut reply = view::advice(game, version, max_states).map_err(|e| e.to_string())?;
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
    let reply = view::refutation(game, by, cards).map_err(|e| match e {
        RefutationError::Asked(m) => (true, m),
        RefutationError::Failed(m) => (false, m),
    })?;
    to_value(&reply).map_err(|m| (false, m))
}

/// The most facts a what-if may suppose (each card at each place, and more,
/// would change nothing; the bound keeps the request small).
pub const MAX_FACTS: usize = 64;

/// A supposed fact: `card` is (`holds`) or is not at `place` (a player id
/// or `case_file`).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fact {
    /// The card's id.
    pub card: String,
    /// A player's id or `case_file`.
    pub place: String,
    /// `true`: the card is at the place; `false`: it is not.
    pub holds: bool,
}

/// `POST /api/analyze`: a game file and the facts to suppose.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WhatIf {
    game: Value,
    #[serde(default)]
    suppose: Vec<Fact>,
}

/// The answer to a what-if: the facts supposed, the keys of `sleuth analyze
/// --json` for the game with them ([`wire::Analysis`]; `consistent: false`
/// with an empty `conflict` when no deal fits the facts) and `millis`.
#[derive(Serialize)]
struct WhatIfReply {
    suppose: Vec<Fact>,
    #[serde(flatten)]
    analysis: wire::Analysis,
    millis: f64,
}

/// A request that could not be answered: `Err((true, m))` the request is
/// wrong (a bad game file, an unknown card), `Err((false, m))` the count
/// failed or the advisor could not answer.
pub type Refused = (bool, String);

/// Reads a stateless request's game file (the same text a game file has).
fn game_of(file: &Value) -> Result<Game, Refused> {
    Game::from_json(&file.to_string()).map_err(|e| (true, format!("'game': {e}")))
}

/// The what-if of `POST /api/analyze` (stateless, so the offline app answers
/// it the same way): `body` is `{"game": GAME FILE, "suppose": [{"card",
/// "place", "holds"}]}`; the exact analysis of the game supposing the facts
/// ([`Analysis::supposing`]), without adding a turn. A hypothetical turn is
/// the game file with that event added, and no facts.
///
/// # Errors
/// See [`Refused`].
pub fn what_if(body: &str, options: &CountOptions<'_>) -> Result<Value, Refused> {
    let req: WhatIf = serde_json::from_str(body).map_err(|e| (true, format!("invalid request body: {e}")))?;
    let game = game_of(&req.game)?;
    if req.suppose.len() > MAX_FACTS {
        return Err((true, format!("at most {MAX_FACTS} facts may be supposed, not {}", req.suppose.len())));
    }
    let mut facts = Vec::with_capacity(req.suppose.len());
    for f in &req.suppose {
        let card =
            game.deck().card(&nfc(&f.card)).ok_or_else(|| (true, format!("unknown card '{}'", quote(&f.card))))?;
        let place = game.place(&nfc(&f.place)).ok_or_else(|| (true, format!("unknown place '{}'", quote(&f.place))))?;
        facts.push(if f.holds { Lit::is_at(card, place) } else { Lit::not_at(card, place) });
    }
    let start = Instant::now();
    let a = Analysis::supposing(&game, &facts, options).map_err(|e| (false, e.to_string()))?;
    let millis = start.elapsed().as_secs_f64() * 1000.0;
    let analysis = wire::Analysis::with_case_file_limit(&game, &a, CASE_FILES_SHOWN);
    to_value(&WhatIfReply { suppose: req.suppose, analysis, millis }).map_err(|m| (false, m))
}

/// `POST /api/evaluate`: a game file and a suggestion the observer plans.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Plan {
    game: Value,
    cards: Vec<String>,
}

/// "What would a reply tell me" (`POST /api/evaluate`, stateless): `body`
/// is `{"game": GAME FILE, "cards": [one id per category]}`, a suggestion
/// the observer plans; the answer is sleuth-core's exact evaluation
/// ([`wire::Suggestion`], as in `sleuth advise --json`): every possible
/// answer with its probability and the case file's entropy after it.
///
/// # Errors
/// See [`Refused`]; a bystander's game or an inconsistent one cannot be
/// advised.
pub fn evaluate(body: &str, max_states: usize) -> Result<Value, Refused> {
    let req: Plan = serde_json::from_str(body).map_err(|e| (true, format!("invalid request body: {e}")))?;
    let game = game_of(&req.game)?;
    let deck = game.deck();
    let mut cards = CardSet::EMPTY;
    for c in &req.cards {
        cards.insert(deck.card(&nfc(c)).ok_or_else(|| (true, format!("unknown card '{}'", quote(c))))?);
    }
    let one_per_category = deck.categories().all(|cat| (deck.category_cards(cat) & cards).len() == 1);
    if !one_per_category || cards.len() != req.cards.len() {
        return Err((true, "a suggestion names one card of each category".into()));
    }
    let options = CountOptions::new().max_states(max_states);
    let failed = |e: AdviceError| (false, e.to_string());
    let eval =
        Position::with_options(&game, &options).map_err(failed)?.evaluate(cards).map_err(|e| (false, e.to_string()))?;
    to_value(&wire::Suggestion::new(&game, &eval)).map_err(|m| (false, m))
}

/// A reply as JSON (the wire types always serialise: string keys, finite
/// numbers).
fn to_value(reply: &impl Serialize) -> Result<Value, String> {
    serde_json::to_value(reply).map_err(|e| format!("internal error: {e}"))
}
