//! Each counter and card order on its own, and the estimates that choose
//! between them: for the tests that check every counter against the others
//! and for the tuning rigs of `crates/sleuth-bench`. They reach into the
//! counter's internals (plans, orders, the players-outer counter), so they
//! live here, built only with the `testing` feature (and for the tests); no
//! product path uses them.

use super::card_outer::card_outer_and_files;
use super::choice::{card_bound, plan, pooled, BaseOrders, SYMMETRY_MIN_CARD_BOUND};
use super::counter::{files_from_masks, players_outer_within};
use super::plan::{CardClasses, Plan};
use super::{count_with_case_files, dp, estimate, order, players};
use super::{CaseFiles, CountError, CountOptions, Counts};
use crate::deduce::{propagate, CountProblem, Reduced};

/// The players-outer counter gives up after this many moves here.
const PROFILE_MAX_MOVES: usize = 20_000_000;

/// Which counter [`count_marginals_by`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counter {
    /// The one [`super::count_marginals`] picks.
    Auto,
    /// The card-outer DP.
    CardOuter,
    /// The card-outer DP in the usual card order.
    CardOuterUsual,
    /// The card-outer DP in the order that frees players early.
    CardOuterFreeing,
    /// The players-outer counter, within a large move budget.
    PlayersOuter,
}

/// [`super::count_marginals`] with a chosen counter; `None` if the
/// players-outer counter does not handle the problem.
///
/// # Errors
/// [`CountError`] if a count does not fit or the state is too large.
pub fn count_marginals_by(
    p: &CountProblem,
    counter: Counter,
    options: &CountOptions<'_>,
) -> Result<Option<Counts>, CountError> {
    let Some(r) = propagate(p) else {
        return Ok(Some(Counts::none()));
    };
    let card_outer = |plan: &dyn Fn(&CountProblem, &Reduced) -> Result<Plan, CountError>| {
        card_outer_and_files(p, &r, plan, false, options).map(|(counts, _)| Some(counts))
    };
    match counter {
        Counter::Auto => super::counter::chosen(p, &r, false, options).map(|(counts, _)| Some(counts)),
        Counter::CardOuter => card_outer(&plan),
        Counter::CardOuterUsual => card_outer(&|p, r| plan_in(p, r, false)),
        Counter::CardOuterFreeing => card_outer(&|p, r| plan_in(p, r, true)),
        Counter::PlayersOuter => {
            let Some(pp) = players::prepare(p, &r) else { return Ok(None) };
            Ok(players_outer_within(p, &r, &pp, PROFILE_MAX_MOVES, options)?.map(|(counts, _)| counts))
        }
    }
}

/// The counts with the possible case files (what [`crate::Analysis`]
/// counts) with a chosen counter (`Auto`,
/// `CardOuter` or `PlayersOuter`); `None` if the players-outer counter does
/// not handle the problem or gives up.
///
/// # Errors
/// [`CountError`] if a count does not fit or the state is too large.
pub fn count_with_case_files_by(
    p: &CountProblem,
    counter: Counter,
    options: &CountOptions<'_>,
) -> Result<Option<(Counts, CaseFiles)>, CountError> {
    let Some(r) = propagate(p) else { return count_with_case_files(p, options).map(Some) };
    let found = match counter {
        Counter::PlayersOuter => {
            let Some(pp) = players::prepare(p, &r) else { return Ok(None) };
            let Some((counts, masks)) = players_outer_within(p, &r, &pp, PROFILE_MAX_MOVES, options)? else {
                return Ok(None);
            };
            let files = files_from_masks(p, &r, &counts, &masks);
            (counts, files)
        }
        Counter::CardOuter => card_outer_and_files(p, &r, plan, true, options)?,
        _ => count_with_case_files(p, options)?,
    };
    Ok(Some(found))
}

/// The states and moves of the players-outer counter's forward pass, its
/// estimate and the card-outer bound; `None` if it does not handle the
/// problem or gives up.
pub fn players_outer_cost(p: &CountProblem) -> Option<(usize, usize, f64, f64)> {
    let r = propagate(p)?;
    let pp = players::prepare(p, &r)?;
    let card_bound = card_bound(p, &r, &CardClasses::new(p, &r));
    let (states, moves) = players::dry_run(&pp, PROFILE_MAX_MOVES)?;
    Some((states, moves, pp.estimate(), card_bound))
}

/// The estimated card-outer states in the usual order and in the order
/// that frees players early, and the card-outer bound.
pub fn order_estimates(p: &CountProblem) -> Option<(f64, f64, f64)> {
    let r = propagate(p)?;
    let cards = CardClasses::new(p, &r);
    let base = BaseOrders::new(p, &r, &cards);
    Some((base.usual.0, base.freeing.0, card_bound(p, &r, &cards)))
}

/// The forward pass's states in a named card order (`usual`, `freeing`,
/// `wide`, `frontier`, or `chosen`: the one the counter picks) and its
/// estimate, symmetric where the counter's plan would be; for `cb`, no
/// states and the card bound; for `plan`, only the plan (its steps);
/// `None` for an unknown name.
///
/// # Panics
/// If a named order is not a permutation of the DP cards (a broken order).
pub fn order_variant_states(p: &CountProblem, name: &str) -> Option<(usize, f64)> {
    let r = propagate(p)?;
    let cards = CardClasses::new(p, &r);
    match name {
        "cb" => return Some((0, card_bound(p, &r, &cards))),
        // Only the plan, with its choice of order.
        "plan" => return Some((plan(p, &r).ok()?.steps.len(), 0.0)),
        _ => {}
    }
    let order = match name {
        "chosen" => plan(p, &r).ok()?.steps.iter().map(|s| s.card).collect(),
        _ => order::named(name, &r, &cards, p.np)?,
    };
    let mut sorted = order.clone();
    sorted.sort_unstable();
    let dp: Vec<u8> = cards.dp.iter().map(|c| c.index() as u8).collect();
    assert_eq!(sorted, dp, "{name}: not a permutation of the DP cards");
    let est = estimate::dp_states(p, &r, &cards, &order);
    let plan = if card_bound(p, &r, &cards) >= SYMMETRY_MIN_CARD_BOUND {
        Plan::new_symmetric(p, &r, &cards, order)
    } else {
        Plan::new(p, &r, &cards, order)
    };
    Some((dp::forward(&plan.ok()?, false, &CountOptions::default()).ok()?.states, est))
}

/// The DP in one fixed order, pooled on large problems.
fn plan_in(p: &CountProblem, r: &Reduced, freeing: bool) -> Result<Plan, CountError> {
    let cards = CardClasses::new(p, r);
    let order = if freeing { order::freeing_order(r, &cards, p.np) } else { order::dp_order(r, &cards) };
    if card_bound(p, r, &cards) >= SYMMETRY_MIN_CARD_BOUND {
        pooled(p, r, &cards, order)
    } else {
        Plan::new(p, r, &cards, order)
    }
}
