//! The order in which the DP places its cards.
//!
//! The DP's cost is the number of states it visits, and that depends a lot on
//! the order (a factor of ten between reasonable orders is common). We tried
//! a static cost estimate (capacity vectors reachable and completable per
//! layer) to pick among several heuristics: it ranked them no better than
//! chance, and running each candidate with a budget cost more than it saved.
//! Keeping each clause's cards together, clauses with fewest cards left
//! first, was best or close to best on the generated games we measured.

use super::plan::CardClasses;
use crate::deduce::Reduced;
use crate::model::{Card, CardSet};

/// Clause by clause, always continuing with the clause that has the fewest
/// cards left, so that clause bits stay in the state for a short time; then
/// the DP cards in no clause.
pub(super) fn dp_order(r: &Reduced, cards: &CardClasses) -> Vec<u8> {
    let mut pending: Vec<CardSet> = r.clauses.iter().map(|cl| cl.iter().map(|l| Card(l.card)).collect()).collect();
    let mut order: Vec<Card> = Vec::new();
    let mut placed = CardSet::EMPTY;
    while !pending.is_empty() {
        let (i, _) = pending
            .iter()
            .enumerate()
            .min_by_key(|(_, s)| ((**s - placed).len(), s.len()))
            .expect("pending is not empty");
        let set = pending.swap_remove(i);
        order.extend((set - placed).iter());
        placed |= set;
    }
    order.extend((cards.dp - placed).iter());
    order.into_iter().map(|c| c.index() as u8).collect()
}
