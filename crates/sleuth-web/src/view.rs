//! The JSON the API sends: a game's state (built here), and its analysis,
//! explanations and advice: sleuth-core's wire types, the same as the
//! command line's `--json`, with the game's version beside them.

use serde::Serialize;
use serde_json::{json, Value};
use sleuth_core::advice::{advise, advise_refutation, AdviceError, AdviceOptions};
use sleuth_core::{why, wire, Analysis, Card, CardSet, CountOptions, Deck, Game, Place, Player};
use std::time::Instant;

/// How many possible case files the analysis lists at most.
pub const CASE_FILES_SHOWN: usize = 50;

/// The deck as categories of `{id, name}` cards.
pub fn deck(deck: &Deck) -> Value {
    let cats: Vec<Value> = deck
        .categories()
        .map(|cat| {
            let cards: Vec<Value> =
                deck.category_cards(cat).iter().map(|c| json!({"id": deck.id(c), "name": deck.name(c)})).collect();
            json!({"name": deck.category_name(cat), "cards": cards})
        })
        .collect();
    Value::Array(cats)
}

/// The built-in decks, for the setup form.
pub fn decks() -> Value {
    json!({"classic": deck(&Deck::classic()), "master": deck(&Deck::master())})
}

/// A game's state: the file, the resolved hand sizes, each event in words.
pub fn state(id: &str, version: u64, game: &Game, file: &sleuth_core::GameFile, undo: bool, redo: bool) -> Value {
    let events: Vec<Value> = (0..game.events().len())
        .map(|i| json!({"index": i, "text": game.describe_event(i).unwrap_or_default(), "event": file.events[i]}))
        .collect();
    let hand_sizes: Vec<usize> = game.players().map(|p| game.hand_size(p)).collect();
    json!({
        "id": id,
        "version": version,
        "file": file,
        "deck": deck(game.deck()),
        "hand_sizes": hand_sizes,
        "events": events,
        "can_undo": undo,
        "can_redo": redo,
    })
}

/// What the API sends for an analysis: sleuth-core's wire analysis (the
/// `analyze --json` contract, listing at most [`CASE_FILES_SHOWN`] case
/// files), the game version it is of, and how long it took.
#[derive(Serialize)]
struct AnalysisReply {
    version: u64,
    #[serde(flatten)]
    analysis: wire::Analysis,
    millis: f64,
}

/// The analysis of `game` at `version`: `version`, the keys of
/// `sleuth analyze --json` ([`wire::Analysis`]) and `millis`.
///
/// # Errors
/// The count error's message when the count does not fit.
pub fn analysis(game: &Game, version: u64, options: &CountOptions<'_>) -> Result<Value, String> {
    let start = Instant::now();
    let a = Analysis::with_options(game, options).map_err(|e| e.to_string())?;
    let millis = start.elapsed().as_secs_f64() * 1000.0;
    let analysis = wire::Analysis::with_case_file_limit(game, &a, CASE_FILES_SHOWN);
    to_value(&AnalysisReply { version, analysis, millis })
}

/// Why `card` is (or is not) at `place`: `sleuth why --json`'s
/// [`wire::Why`].
///
/// # Errors
/// The count error's message when the count does not fit.
pub fn explain(game: &Game, card: Card, place: Place, options: &CountOptions<'_>) -> Result<Value, String> {
    let analysis = Analysis::with_options(game, options).map_err(|e| e.to_string())?;
    let answer = why(game, card, place, options).map_err(|e| e.to_string())?;
    to_value(&wire::Why::new(game, &analysis, card, place, &answer))
}

/// The options of the page's advice: sleuth-core's defaults (five
/// suggestions from a shortlist of twelve, 32 sampled deals for the
/// opponents, a fixed seed so that the same game gets the same advice).
pub fn advice_options() -> AdviceOptions {
    AdviceOptions::default()
}

/// What the API sends for advice: the game version it is of, whether the
/// history is consistent (no advice when not), the keys of `sleuth advise
/// --json` ([`wire::Advice`]) and how long it took.
#[derive(Serialize)]
struct AdviceReply {
    version: u64,
    consistent: bool,
    #[serde(flatten)]
    advice: Option<wire::Advice>,
    #[serde(skip_serializing_if = "Option::is_none")]
    millis: Option<f64>,
}

/// sleuth-core's advice for the observer of `game` at `version`: whether
/// to accuse now, the best suggestions, and every opponent's progress
/// (`AdviceReply`). An inconsistent history is `consistent: false` with
/// no advice.
///
/// # Errors
/// The advisor's message for a bystander's game or a failed count.
pub fn advice(game: &Game, version: u64, max_states: usize) -> Result<Value, String> {
    let start = Instant::now();
    let reply = match advise(game, &AdviceOptions { max_states, ..advice_options() }) {
        Ok(a) => AdviceReply {
            version,
            consistent: true,
            advice: Some(wire::Advice::new(game, &a)),
            millis: Some(start.elapsed().as_secs_f64() * 1000.0),
        },
        Err(AdviceError::Inconsistent) => AdviceReply { version, consistent: false, advice: None, millis: None },
        Err(e) => return Err(e.to_string()),
    };
    to_value(&reply)
}

/// Which card to show `by`, who suggested `cards` and reached the
/// observer: `sleuth advise --refute`'s [`wire::Refutation`] (the card that
/// tells `by` least). Holding none of the cards is a pass (`show: null`).
///
/// # Errors
/// `Err((true, message))` for a question that cannot be asked (the
/// observer asking itself, not one card per category); `Err((false,
/// message))` when the advisor fails (a bystander's game, an inconsistent
/// history, a failed count).
pub fn refutation(game: &Game, by: Player, cards: CardSet) -> Result<Value, (bool, String)> {
    let deck = game.deck();
    let Some((me, hand)) = game.observer() else {
        return Err((false, AdviceError::NoObserver.to_string()));
    };
    if by == me {
        return Err((true, "you do not answer your own suggestion".into()));
    }
    let one_per_category = deck.categories().all(|cat| (deck.category_cards(cat) & cards).len() == 1);
    if !one_per_category {
        return Err((true, "a suggestion names one card of each category".into()));
    }
    let reply = if (cards & hand).is_empty() {
        wire::Refutation::pass(game, by, cards)
    } else {
        let r = advise_refutation(game, by, cards).map_err(|e| match e {
            AdviceError::Refutation(m) => (true, m),
            e => (false, e.to_string()),
        })?;
        wire::Refutation::new(game, by, cards, &r)
    };
    to_value(&reply).map_err(|m| (false, m))
}

/// A reply as JSON (the wire types always serialise: string keys, finite
/// numbers).
fn to_value(reply: &impl Serialize) -> Result<Value, String> {
    serde_json::to_value(reply).map_err(|e| format!("internal error: {e}"))
}
