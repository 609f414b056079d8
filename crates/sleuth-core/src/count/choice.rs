//! The card-outer DP's plan for a state: its card order, and whether it
//! pools free players. Each order wins on some states (by up to 7x), so
//! where the DP is large enough to pay for it, the orders' estimated
//! states ([`super::estimate`]) pick one.

use super::estimate;
use super::order;
use super::plan::{CardClasses, Plan};
use super::CountError;
use crate::deduce::{CountProblem, Reduced};

/// Below this card bound the symmetric DP's bookkeeping (the sweep of the
/// free players, kept keys) costs more than the states it saves.
pub(super) const SYMMETRY_MIN_CARD_BOUND: f64 = 1_000_000.0;

/// Below this card bound a DP that does not pool players keeps the usual
/// order: the two estimates would cost more than the choice saves.
const ORDER_CHOICE_MIN_CARD_BOUND: f64 = 2_000.0;

/// Another order replaces the in-flight order only where its estimate is
/// below this fraction of the in-flight order's: the estimate overcounts
/// the clauses in flight by different factors in different orders.
const OTHER_MARGIN: f64 = 0.7;

/// The frontier order's margin, smaller: that order keeps small exactly
/// what the estimate counts, so the estimate flatters it most.
const FRONTIER_MARGIN: f64 = 0.4;

/// The DP for a reduced problem.
pub(super) fn plan(p: &CountProblem, r: &Reduced) -> Result<Plan, CountError> {
    let cards = CardClasses::new(p, r);
    plan_from(p, r, &cards, BaseOrders::if_symmetric(p, r, &cards).as_ref())
}

/// [`plan`] from the problem's card classes and, where the DP pools free
/// players, its base orders: the usual order alone otherwise.
pub(super) fn plan_from(
    p: &CountProblem,
    r: &Reduced,
    cards: &CardClasses,
    base: Option<&BaseOrders>,
) -> Result<Plan, CountError> {
    match base {
        Some(base) => pooled(p, r, cards, pooled_order(p, r, cards, base)),
        None => Plan::new(p, r, cards, plain_order(p, r, cards)),
    }
}

/// The card order of a DP that does not pool players: the in-flight order
/// (the plain DP's), or the usual one where its estimate is below
/// [`OTHER_MARGIN`] × the in-flight order's. The other orders are no
/// candidates here: without the pool their estimates mislead more often
/// than not.
fn plain_order(p: &CountProblem, r: &Reduced, cards: &CardClasses) -> Vec<u8> {
    let usual = order::dp_order(r, cards);
    if card_bound(p, r, cards) < ORDER_CHOICE_MIN_CARD_BOUND {
        return usual;
    }
    let inflight = order::inflight_order(r, cards);
    if inflight == usual
        || estimate::dp_states(p, r, cards, &usual) < OTHER_MARGIN * estimate::dp_states(p, r, cards, &inflight)
    {
        usual
    } else {
        inflight
    }
}

/// The card order [`plan`] picks, and whether it pools free players.
pub(super) fn choose_order(p: &CountProblem, r: &Reduced, cards: &CardClasses) -> (Vec<u8>, bool) {
    match BaseOrders::if_symmetric(p, r, cards) {
        Some(base) => (pooled_order(p, r, cards, &base), true),
        None => (plain_order(p, r, cards), false),
    }
}

/// The usual order and the one that frees players early, each with its
/// estimated states: where the DP pools free players both the choice of
/// counter ([`super::counter`]) and the choice of order start from them.
pub(super) struct BaseOrders {
    pub usual: (f64, Vec<u8>),
    pub freeing: (f64, Vec<u8>),
}

impl BaseOrders {
    pub fn new(p: &CountProblem, r: &Reduced, cards: &CardClasses) -> BaseOrders {
        let usual = order::dp_order(r, cards);
        let freeing = order::freeing_order(r, cards, p.np);
        let usual_est = estimate::dp_states(p, r, cards, &usual);
        let freeing_est = if freeing == usual { usual_est } else { estimate::dp_states(p, r, cards, &freeing) };
        BaseOrders { usual: (usual_est, usual), freeing: (freeing_est, freeing) }
    }

    /// The base orders where the DP pools free players (see
    /// [`SYMMETRY_MIN_CARD_BOUND`]), `None` elsewhere.
    pub fn if_symmetric(p: &CountProblem, r: &Reduced, cards: &CardClasses) -> Option<BaseOrders> {
        (card_bound(p, r, cards) >= SYMMETRY_MIN_CARD_BOUND).then(|| BaseOrders::new(p, r, cards))
    }
}

/// The card order of a pooled DP: the in-flight order (the plain DP's
/// clause order), or another whose estimate is below a fraction of its
/// estimate ([`OTHER_MARGIN`], [`FRONTIER_MARGIN`]), the smallest such.
fn pooled_order(p: &CountProblem, r: &Reduced, cards: &CardClasses, base: &BaseOrders) -> Vec<u8> {
    let estimate = |order: &[u8]| estimate::dp_states(p, r, cards, order);
    let inflight = order::inflight_order(r, cards);
    let bar = estimate(&inflight);
    let mut best = (bar, inflight);
    let wide = order::wide_first_order(r, cards);
    let frontier = order::frontier_order(r, cards, p.np);
    let candidates = [
        (base.usual.0, &base.usual.1, OTHER_MARGIN),
        (base.freeing.0, &base.freeing.1, OTHER_MARGIN),
        (estimate(&wide), &wide, OTHER_MARGIN),
        (estimate(&frontier), &frontier, FRONTIER_MARGIN),
    ];
    for (e, order, margin) in candidates {
        if e < margin * bar && e < best.0 {
            best = (e, order.clone());
        }
    }
    best.1
}

/// The pooled plan (see [`super::sym`]), or the plain one when its scale
/// does not fit (large custom decks: the scale is a product of factorials
/// of rooms).
pub(super) fn pooled(p: &CountProblem, r: &Reduced, cards: &CardClasses, order: Vec<u8>) -> Result<Plan, CountError> {
    match Plan::new_symmetric(p, r, cards, order.clone()) {
        Err(CountError::Overflow) => Plan::new(p, r, cards, order),
        other => other,
    }
}

/// The same DP without the pool: pooled counts are scaled (see
/// [`super::sym`]), so they may overflow where the true counts fit.
pub(super) fn unpooled(p: &CountProblem, r: &Reduced, plan: &Plan) -> Result<Plan, CountError> {
    Plan::new(p, r, &CardClasses::new(p, r), plan.steps.iter().map(|s| s.card).collect())
}

/// A crude bound on the card-outer DP's states: the room vectors times the
/// DP cards.
pub(super) fn card_bound(p: &CountProblem, r: &Reduced, cards: &CardClasses) -> f64 {
    let room: f64 = (0..p.np).map(|a| f64::from(r.rem[a]) + 1.0).product();
    room * cards.dp.len() as f64
}
