//! The `--json` reports built from a game, for every front end: the
//! command line (`sleuth why --json`, `check --json`, ...) and the
//! WebAssembly engine print what these functions return, so that both give
//! the same bytes. The analysis and the advice need no more than their
//! constructors ([`super::Analysis::new`], [`super::Advice::new`]).

use super::{Check, Why};
use crate::count::{count, CountError};
use crate::deduce::CountProblem;
use crate::model::{Card, Game, Place};
use crate::{text, CountOptions, Status};
use serde::Serialize;

/// A wire value as the front ends print it: pretty JSON and a final newline.
pub fn to_text(value: &impl Serialize) -> String {
    // The wire types are plain data (string keys, finite numbers).
    let mut json = serde_json::to_string_pretty(value).expect("wire values serialise");
    json.push('\n');
    json
}

/// Why a report could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReportError {
    /// A count failed (the game is too large for the exact counter).
    #[error(transparent)]
    Count(#[from] CountError),
    /// A card or place id that the game does not have; the message lists
    /// the ones it has.
    #[error("{0}")]
    UnknownId(String),
    /// The analysis says a fact is certain and the explanation's search
    /// says it is not: a bug.
    #[error("could not explain the fact; the exact counts disagree with each other")]
    Disagree,
}

/// The card of `id` (compared in NFC, as the game file's ids are read).
pub fn find_card(game: &Game, id: &str) -> Result<Card, ReportError> {
    let deck = game.deck();
    if let Some(c) = deck.card(&text::nfc(id)) {
        return Ok(c);
    }
    let hint = deck.suggest_id(id).map(|s| format!(" (did you mean '{s}'?)")).unwrap_or_default();
    let ids: Vec<&str> = deck.cards().map(|c| deck.id(c)).collect();
    Err(ReportError::UnknownId(format!("unknown card '{}'{hint}; the cards are {}", text::quote(id), ids.join(", "))))
}

/// The place of `id`: a player id or `case_file`.
pub fn find_place(game: &Game, id: &str) -> Result<Place, ReportError> {
    if let Some(p) = game.place(&text::nfc(id)) {
        return Ok(p);
    }
    let ids: Vec<&str> = game.places().map(|p| game.place_id(p)).collect();
    Err(ReportError::UnknownId(format!("unknown place '{}'; the places are {}", text::quote(id), ids.join(", "))))
}

/// `why --json`: the counts of `card` at `place` from `analysis` (of
/// `game`) and, for a certain fact in a consistent game, what forces it.
/// Only a certain fact is explained: the search is the costly part.
pub fn why(
    game: &Game,
    analysis: &crate::Analysis,
    card: Card,
    place: Place,
    options: &CountOptions<'_>,
) -> Result<Why, ReportError> {
    let certain = analysis.is_consistent() && analysis.status(card, place) != Status::Maybe;
    let answer = if certain { crate::why(game, card, place, options)? } else { crate::Why::NotCertain };
    if certain && !matches!(answer, crate::Why::Certain { .. }) {
        return Err(ReportError::Disagree);
    }
    Ok(Why::new(game, analysis, card, place, &answer))
}

/// `check --json`: what `game` holds and whether its history is
/// consistent, with a smallest conflict when it is not.
///
/// # Errors
/// The count's error; with it the check without the history
/// (`consistent: null`) when the game could not be counted at all, which
/// the command line prints before the error.
pub fn check(game: &Game, options: &CountOptions<'_>) -> Result<Check, (Option<Box<Check>>, CountError)> {
    let models = match count(&CountProblem::new(game), options) {
        Ok(m) => m,
        Err(e) => return Err((Some(Box::new(Check::new(game, None, None))), e)),
    };
    let conflict = if models == 0 { crate::conflict(game, options).map_err(|e| (None, e))? } else { None };
    Ok(Check::new(game, Some(models), conflict.as_ref()))
}
