//! Which counter counts a state: the card-outer DP, or the players-outer
//! counter ([`super::players`]), which wins on some states and loses badly
//! on others.
//!
//! The players-outer counter is considered only where its estimate (an
//! upper bound on its moves under the best player order) is small against
//! a bound on the card-outer DP's states. Both estimates are loose, each
//! way, so the card-outer DP then runs first on a trial budget, a share of
//! that estimate in states: a DP that ends within it is kept. Past the
//! budget, a pass that looks close to its end goes on; otherwise the
//! players-outer counter runs, and if it gives up the paused pass resumes.

use super::card_outer::{card_outer_and_files, card_outer_passed, finish, or_unpooled};
use super::case_file;
use super::choice::{card_bound, plan_from, BaseOrders};
use super::dp;
use super::plan::CardClasses;
use super::players;
use super::{CaseFiles, CountError, CountOptions, Counts, MAX_CASE_FILES};
use crate::deduce::{CountProblem, Reduced};
use crate::model::{MAX_CARDS, MAX_PLACES};

/// Below this card bound the card-outer DP takes well under a millisecond,
/// less than preparing the players-outer counter (its order search).
const PLAYERS_MIN_CARD_BOUND: f64 = 10_000.0;

/// The largest players-outer estimate worth a try: past it the counter
/// would give up on its move budget anyway.
const PLAYERS_MAX_ESTIMATE: f64 = 100_000_000.0;

/// The players-outer counter is tried where its estimate is at most this
/// multiple of the card bound ...
const PLAYERS_RATIO: f64 = 2.0;

/// ... or, where the card-outer DP pools players (and so got cheaper), of
/// the smaller of the card bound and the base orders' estimates.
pub(super) const PLAYERS_RATIO_SYMMETRIC: f64 = 0.5;

/// The trial's budget, a share of the players-outer estimate in states: a
/// card-outer DP that ends within it nearly always beats the other counter.
const CARD_OUTER_TRIAL: f64 = 0.02;

/// A paused trial goes on where it is projected to end within this many
/// times its budget: handing over that close to the end costs more.
const CARD_OUTER_PROJECTED: f64 = 2.0;

/// The players-outer counter gives up after this many moves: its cost
/// explodes when many cards stay special for many players.
pub(super) const PLAYERS_MAX_MOVES: usize = 3_000_000;

/// The counts, and with `files` the case files, by the counter the state
/// suits.
pub(super) fn chosen(
    p: &CountProblem,
    r: &Reduced,
    files: bool,
    options: &CountOptions<'_>,
) -> Result<(Counts, CaseFiles), CountError> {
    let trial = Trial { share: CARD_OUTER_TRIAL, projected: CARD_OUTER_PROJECTED };
    chosen_within(p, r, files, trial, PLAYERS_MAX_MOVES, options)
}

/// The card-outer trial of [`chosen`]: its budget, a share of the
/// players-outer estimate, and how far past the budget a pass may be
/// projected to end and still go on, a multiple of the budget.
#[derive(Clone, Copy, Debug)]
pub(super) struct Trial {
    pub share: f64,
    pub projected: f64,
}

/// [`chosen`] with the card-outer trial `trial` and the players-outer
/// counter within `max_moves` (the tests take every branch).
pub(super) fn chosen_within(
    p: &CountProblem,
    r: &Reduced,
    files: bool,
    trial: Trial,
    max_moves: usize,
    options: &CountOptions<'_>,
) -> Result<(Counts, CaseFiles), CountError> {
    let cards = CardClasses::new(p, r);
    let base = BaseOrders::if_symmetric(p, r, &cards);
    let plan_of = |p: &CountProblem, r: &Reduced| plan_from(p, r, &cards, base.as_ref());
    let Some(pp) = players_outer_candidate(p, r, &cards, base.as_ref()) else {
        return card_outer_and_files(p, r, plan_of, files, options);
    };
    let plan = plan_of(p, r)?;
    let budget = (trial.share * pp.estimate()) as usize;
    let near_end = |paused: &dp::Paused| paused.projected(plan.steps.len()) as f64 <= trial.projected * budget as f64;
    let fwd = match dp::forward_within(&plan, files, budget, options) {
        Ok(dp::Budgeted::Done(fwd)) => fwd,
        Ok(dp::Budgeted::Paused(paused)) => {
            // Far from its end, the players-outer counter takes over; the
            // paused pass goes on where it gives up.
            if !near_end(&paused) {
                if let Some((counts, masks)) = players_outer_within(p, r, &pp, max_moves, options)? {
                    let found = if files { files_from_masks(p, r, &counts, &masks) } else { None };
                    return Ok((counts, found));
                }
            }
            match dp::resume(&plan, files, paused, options) {
                Ok(fwd) => fwd,
                Err(error) => return or_unpooled(p, r, &plan, files, Err(error), options),
            }
        }
        Err(error) => return or_unpooled(p, r, &plan, files, Err(error), options),
    };
    let counted = card_outer_passed(p, r, &plan, files, fwd, options);
    or_unpooled(p, r, &plan, files, counted, options)
}

/// The players-outer counter's preparation where [`chosen`] considers it.
/// `base`: the base orders where the card-outer DP pools free players.
pub(super) fn players_outer_candidate(
    p: &CountProblem,
    r: &Reduced,
    cards: &CardClasses,
    base: Option<&BaseOrders>,
) -> Option<players::Prepared> {
    players_outer_watching(p, r, cards, base, 0, PLAYERS_RATIO_SYMMETRIC)
}

/// [`players_outer_candidate`] keeping the `watched` cards (a bitmask)
/// special until dealt ([`players::prepare_watching`]), with
/// `symmetric_ratio` in place of [`PLAYERS_RATIO_SYMMETRIC`].
pub(super) fn players_outer_watching(
    p: &CountProblem,
    r: &Reduced,
    cards: &CardClasses,
    base: Option<&BaseOrders>,
    watched: u64,
    symmetric_ratio: f64,
) -> Option<players::Prepared> {
    let card_bound = card_bound(p, r, cards);
    if card_bound < PLAYERS_MIN_CARD_BOUND {
        return None;
    }
    let pp = players::prepare_watching(p, r, watched)?;
    // Where the DP pools players, its layer estimate in the better of the
    // usual and freeing orders is a closer bound than the crude one.
    let limit = match base {
        Some(base) => symmetric_ratio * card_bound.min(base.usual.0).min(base.freeing.0),
        None => PLAYERS_RATIO * card_bound,
    };
    (pp.estimate() <= PLAYERS_MAX_ESTIMATE.min(limit)).then_some(pp)
}

/// The players-outer count within `max_moves`, with the count of every
/// case file with deals (cards as a bitmask, see [`players`]); `None` if it
/// gives up.
pub(super) fn players_outer_within(
    p: &CountProblem,
    r: &Reduced,
    pp: &players::Prepared,
    max_moves: usize,
    options: &CountOptions<'_>,
) -> Result<Option<(Counts, players::FileCounts)>, CountError> {
    let Some((total, marginal, states, files)) = players::marginals(pp, max_moves, options.get_max_states())? else {
        return Ok(None);
    };
    let marginal = if total == 0 { vec![[0u128; MAX_PLACES]; MAX_CARDS] } else { marginal };
    Ok(Some((finish(p, r, total, marginal, states), files)))
}

/// The case files of the players-outer counter's file counts, or `None`
/// when there are more than [`MAX_CASE_FILES`].
pub(super) fn files_from_masks(
    p: &CountProblem,
    r: &Reduced,
    counts: &Counts,
    masks: &players::FileCounts,
) -> CaseFiles {
    (case_file::listed(p, counts) <= MAX_CASE_FILES).then(|| case_file::from_masks(p, r, masks))
}
