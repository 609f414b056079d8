//! What the notepad page reads, built in one place for both of its
//! backends: `sleuth serve` (sleuth-web's JSON API) and the offline app
//! (sleuth-wasm in the browser). The server adds what only a store knows
//! (the game's id, version, name, undo history and turn ids) and how long
//! a count took; the shapes here are the rest: the deck, a game's events in
//! words, the analysis, advice and refutation replies with the version
//! they are of, and the stateless requests (a what-if, a planned
//! suggestion), read from the same request body by both backends.

use super::{Advice, Analysis, Count, Refutation, Suggestion};
use crate::advice::{
    advise_refutation, advise_with, keep_distinct, AdviceError, AdviceOptions, AdviceProgress, Position,
};
use crate::format::EventSpec;
use crate::model::{CardSet, Deck, Game, Player};
use crate::text::{nfc, quote};
use crate::{CountOptions, GameFile, Lit};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How many possible case files the page's analysis lists at most.
pub const CASE_FILES_SHOWN: usize = 50;

/// A card as the page names it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CardName {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
}

/// A category of the deck with its cards, in deck order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DeckCategory {
    /// The category's name.
    pub name: String,
    /// Its cards.
    pub cards: Vec<CardName>,
}

/// `deck`, category by category.
pub fn deck(deck: &Deck) -> Vec<DeckCategory> {
    deck.categories()
        .map(|cat| DeckCategory {
            name: deck.category_name(cat).to_string(),
            cards: deck
                .category_cards(cat)
                .iter()
                .map(|c| CardName { id: deck.id(c).to_string(), name: deck.name(c).to_string() })
                .collect(),
        })
        .collect()
}

/// The built-in decks, for the setup form.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Decks {
    /// The classic deck.
    pub classic: Vec<DeckCategory>,
    /// The Master Detective deck.
    pub master: Vec<DeckCategory>,
}

/// The built-in decks.
pub fn decks() -> Decks {
    Decks { classic: deck(&Deck::classic()), master: deck(&Deck::master()) }
}

/// One event of a game as the page lists it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EventView<'a> {
    /// Its position, 0-based.
    pub index: usize,
    /// The event in words (card ids), as `sleuth notepad` writes it.
    pub text: String,
    /// The event as in the game file.
    pub event: &'a EventSpec,
}

/// A game as the page draws it: the file, its deck, every player's hand
/// size (the file's or the dealing rule's) and each event in words.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameView<'a> {
    /// The game file.
    pub file: &'a GameFile,
    /// The deck.
    pub deck: Vec<DeckCategory>,
    /// Hand sizes in seat order.
    pub hand_sizes: Vec<usize>,
    /// The events.
    pub events: Vec<EventView<'a>>,
}

impl<'a> GameView<'a> {
    /// The view of `game`, read from `file`.
    pub fn new(game: &Game, file: &'a GameFile) -> GameView<'a> {
        let events = file
            .events
            .iter()
            .enumerate()
            .map(|(index, event)| EventView { index, text: game.describe_event(index).unwrap_or_default(), event })
            .collect();
        GameView {
            file,
            deck: deck(game.deck()),
            hand_sizes: game.players().map(|p| game.hand_size(p)).collect(),
            events,
        }
    }
}

/// The page's analysis: the keys of `sleuth analyze --json` (listing at
/// most [`CASE_FILES_SHOWN`] case files), the game version it is of, and
/// how long it took when the caller measured it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnalysisReply {
    /// The game version analysed.
    pub version: u64,
    /// The analysis.
    #[serde(flatten)]
    pub analysis: Analysis,
    /// Milliseconds taken.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub millis: Option<f64>,
}

impl AnalysisReply {
    /// The reply for `analysis` of `game` at `version`.
    pub fn new(game: &Game, analysis: &crate::Analysis, version: u64, millis: Option<f64>) -> AnalysisReply {
        AnalysisReply { version, analysis: Analysis::with_case_file_limit(game, analysis, CASE_FILES_SHOWN), millis }
    }
}

/// The page's advice: the game version it is of, whether the history is
/// consistent (no advice when not), the keys of `sleuth advise --json`,
/// and how long it took when the caller measured it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AdviceReply {
    /// The game version advised on.
    pub version: u64,
    /// Whether any deal fits the history.
    pub consistent: bool,
    /// The advice (absent when inconsistent).
    #[serde(flatten)]
    pub advice: Option<Advice>,
    /// Milliseconds taken.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub millis: Option<f64>,
}

/// The options of the page's advice: sleuth-core's defaults (a fixed seed,
/// so that the same game gets the same advice) within `max_states`.
pub fn advice_options(max_states: usize) -> AdviceOptions {
    AdviceOptions { max_states, ..AdviceOptions::default() }
}

/// sleuth-core's advice for the observer of `game` at `version` (an
/// inconsistent history is `consistent: false` with no advice; `millis` is
/// left for the caller to fill in).
///
/// # Errors
/// The advisor's error for a bystander's game or a failed count.
pub fn advice(game: &Game, version: u64, max_states: usize) -> Result<AdviceReply, AdviceError> {
    advice_with(game, version, max_states, |_| true)
}

/// The page's advice while it is counted: the ranking so far
/// ([`RankingSoFar`]). `"partial": true` tells it from the final
/// [`AdviceReply`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AdviceSoFar {
    /// The game version advised on.
    pub version: u64,
    /// Always `true`: an inconsistent history has its final reply at once.
    pub consistent: bool,
    /// Always `true`: more is coming.
    pub partial: bool,
    /// The ranking so far, its fields beside these.
    #[serde(flatten)]
    pub ranking: RankingSoFar,
}

impl AdviceSoFar {
    /// The advice at `version` before anything is counted.
    pub fn started(version: u64) -> AdviceSoFar {
        AdviceSoFar { version, consistent: true, partial: true, ranking: RankingSoFar::default() }
    }
}

/// The ranking while the advice is counted ([`advise_with`]'s updates):
/// the suggestions evaluated so far, best first (at most as many choices
/// as the advice lists, each with the suggestions of the same answers),
/// each with its exact numbers, which the final advice
/// keeps. `models` and `entropy` are `null` until the deals are counted,
/// `shortlisted` 0 until the suggestions to evaluate are chosen (the
/// default: nothing counted yet).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RankingSoFar {
    /// The number of consistent deals, once counted.
    pub models: Option<Count>,
    /// The case-file entropy now, in bits, once counted.
    pub entropy: Option<f64>,
    /// How many suggestions are evaluated so far.
    pub evaluated: usize,
    /// How many are evaluated in all (0 while not yet known).
    pub shortlisted: usize,
    /// The best so far, best first.
    pub suggestions: Vec<Suggestion>,
}

impl RankingSoFar {
    /// The ranking of an update of [`advise_with`] on `game`, listing at
    /// most `listed` choices ([`keep_distinct`]).
    pub fn new(game: &Game, progress: &AdviceProgress<'_>, listed: usize) -> RankingSoFar {
        RankingSoFar {
            models: Some(Count(progress.models)),
            entropy: Some(progress.entropy),
            evaluated: progress.suggestions.len(),
            shortlisted: progress.shortlisted,
            suggestions: {
                let mut ranked = progress.suggestions.to_vec();
                keep_distinct(&mut ranked, listed, progress.unshowable);
                Suggestion::ranked(game, &ranked, progress.unshowable)
            },
        }
    }
}

/// [`advice`] step by step ([`advise_with`]): `on_update` gets the advice
/// so far after each exact evaluation of a suggestion and answers whether
/// to go on ([`AdviceError::Stopped`] when not). The reply is [`advice`]'s.
///
/// # Errors
/// As [`advice`], and [`AdviceError::Stopped`].
pub fn advice_with(
    game: &Game,
    version: u64,
    max_states: usize,
    mut on_update: impl FnMut(AdviceSoFar) -> bool,
) -> Result<AdviceReply, AdviceError> {
    let options = advice_options(max_states);
    let so_far = |p: &AdviceProgress<'_>| AdviceSoFar {
        ranking: RankingSoFar::new(game, p, options.suggestions),
        ..AdviceSoFar::started(version)
    };
    match advise_with(game, &options, |p| on_update(so_far(p))) {
        Ok(a) => Ok(AdviceReply { version, consistent: true, advice: Some(Advice::new(game, &a)), millis: None }),
        Err(AdviceError::Inconsistent) => Ok(AdviceReply { version, consistent: false, advice: None, millis: None }),
        Err(e) => Err(e),
    }
}

/// Why a request of the page got no answer, saying whose the problem is
/// (the server answers 400 for the first, 422 for the second).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// The request is wrong (the observer asking itself, not one card per
    /// category, an unknown card, a game file that does not read): the
    /// asker's mistake.
    Asked(String),
    /// The engine could not answer (a bystander's game or an inconsistent
    /// history to advise on, a failed count).
    Failed(String),
}

/// Which card to show `by`, who suggested `cards` and reached the
/// observer: `sleuth advise --refute`'s reply (the card that tells `by`
/// least). Holding none of the cards is a pass (`show: null`).
///
/// # Errors
/// [`Refused`] saying whose the problem is.
pub fn refutation(game: &Game, by: Player, cards: CardSet) -> Result<Refutation, Refused> {
    let deck = game.deck();
    let Some((me, hand)) = game.observer() else {
        return Err(Refused::Failed(AdviceError::NoObserver.to_string()));
    };
    if by == me {
        return Err(Refused::Asked("you do not answer your own suggestion".into()));
    }
    let one_per_category = deck.categories().all(|cat| (deck.category_cards(cat) & cards).len() == 1);
    if !one_per_category {
        return Err(Refused::Asked("a suggestion names one card of each category".into()));
    }
    if (cards & hand).is_empty() {
        return Ok(Refutation::pass(game, by, cards));
    }
    let r = advise_refutation(game, by, cards).map_err(|e| match e {
        AdviceError::Refutation(m) => Refused::Asked(m),
        e => Refused::Failed(e.to_string()),
    })?;
    Ok(Refutation::new(game, by, cards, &r))
}

/// The most facts a what-if may suppose (each card at each place, and more,
/// would change nothing; the bound keeps the request small).
pub const MAX_FACTS: usize = 64;

/// A supposed fact: `card` is (`holds`) or is not at `place` (a player id
/// or `case_file`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fact {
    /// The card's id.
    pub card: String,
    /// A player's id or `case_file`.
    pub place: String,
    /// `true`: the card is at the place; `false`: it is not.
    pub holds: bool,
}

/// A what-if (`POST /api/analyze`): a game file and the facts to suppose.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WhatIf {
    game: Value,
    #[serde(default)]
    suppose: Vec<Fact>,
}

/// The answer to a what-if: the facts supposed, the keys of `sleuth analyze
/// --json` for the game with them ([`Analysis`], listing at most
/// [`CASE_FILES_SHOWN`] case files; `consistent: false` with an empty
/// `conflict` when no deal fits the facts), and how long it took when the
/// caller measured it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WhatIfReply {
    /// The facts supposed, as asked.
    pub suppose: Vec<Fact>,
    /// The analysis supposing them.
    #[serde(flatten)]
    pub analysis: Analysis,
    /// Milliseconds taken.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub millis: Option<f64>,
}

/// A stateless request's game file (any JSON a game file may be), read as
/// a game file's text is.
fn game_of(file: &Value) -> Result<Game, Refused> {
    Game::from_json(&file.to_string()).map_err(|e| Refused::Asked(format!("'game': {e}")))
}

/// A request body as JSON of the shape `T`.
fn body_of<'a, T: Deserialize<'a>>(body: &'a str) -> Result<T, Refused> {
    serde_json::from_str(body).map_err(|e| Refused::Asked(format!("invalid request body: {e}")))
}

/// A what-if: `body` is `{"game": GAME FILE, "suppose": [{"card", "place",
/// "holds"}]}`; the answer is the exact analysis of the game supposing the
/// facts ([`crate::Analysis::supposing`]), without adding a turn. A
/// hypothetical turn is the game file with that event added, and no facts.
///
/// # Errors
/// [`Refused::Asked`] for a body that does not read, a bad game file, an
/// unknown card or place, more than [`MAX_FACTS`] facts;
/// [`Refused::Failed`] when the count does not fit `options`.
pub fn what_if(body: &str, options: &CountOptions<'_>) -> Result<WhatIfReply, Refused> {
    let req: WhatIf = body_of(body)?;
    let game = game_of(&req.game)?;
    if req.suppose.len() > MAX_FACTS {
        return Err(Refused::Asked(format!("at most {MAX_FACTS} facts may be supposed, not {}", req.suppose.len())));
    }
    let mut facts = Vec::with_capacity(req.suppose.len());
    for f in &req.suppose {
        let card = game
            .deck()
            .card(&nfc(&f.card))
            .ok_or_else(|| Refused::Asked(format!("unknown card '{}'", quote(&f.card))))?;
        let place =
            game.place(&nfc(&f.place)).ok_or_else(|| Refused::Asked(format!("unknown place '{}'", quote(&f.place))))?;
        facts.push(if f.holds { Lit::is_at(card, place) } else { Lit::not_at(card, place) });
    }
    let a = crate::Analysis::supposing(&game, &facts, options).map_err(|e| Refused::Failed(e.to_string()))?;
    let analysis = Analysis::with_case_file_limit(&game, &a, CASE_FILES_SHOWN);
    Ok(WhatIfReply { suppose: req.suppose, analysis, millis: None })
}

/// A planned suggestion (`POST /api/evaluate`): a game file and the cards.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Plan {
    game: Value,
    cards: Vec<String>,
}

/// "What would a reply tell me": `body` is `{"game": GAME FILE, "cards":
/// [one id per category]}`, a suggestion the observer plans; the answer is
/// the exact evaluation of the advice ([`Suggestion`], as in `sleuth advise
/// --json`): every possible answer with its probability and the case
/// file's entropy after it.
///
/// # Errors
/// [`Refused::Asked`] for a body that does not read, a bad game file, an
/// unknown card, not one card per category; [`Refused::Failed`] for a
/// bystander's game, an inconsistent one, or a count that does not fit
/// `max_states`.
pub fn evaluate(body: &str, max_states: usize) -> Result<Suggestion, Refused> {
    let req: Plan = body_of(body)?;
    let game = game_of(&req.game)?;
    let deck = game.deck();
    let mut cards = CardSet::EMPTY;
    for c in &req.cards {
        cards.insert(deck.card(&nfc(c)).ok_or_else(|| Refused::Asked(format!("unknown card '{}'", quote(c))))?);
    }
    let one_per_category = deck.categories().all(|cat| (deck.category_cards(cat) & cards).len() == 1);
    if !one_per_category || cards.len() != req.cards.len() {
        return Err(Refused::Asked("a suggestion names one card of each category".into()));
    }
    let options = CountOptions::new().max_states(max_states);
    let position = Position::with_options(&game, &options).map_err(|e| Refused::Failed(e.to_string()))?;
    let eval = position.evaluate(cards).map_err(|e| Refused::Failed(e.to_string()))?;
    Ok(Suggestion::new(&game, &eval, position.unshowable()))
}
