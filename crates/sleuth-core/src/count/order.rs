//! The order in which the DP places its cards.
//!
//! The DP's cost is the number of states it visits, and that depends a lot on
//! the order (a factor of ten between reasonable orders is common). We tried
//! a static cost estimate (capacity vectors reachable and completable per
//! layer) to pick among several heuristics: it ranked them no better than
//! chance, and running each candidate with a budget cost more than it saved.
//! Keeping each clause's cards together, clauses with fewest cards left
//! first, was best or close to best on the generated games we measured.
//! Breaking ties by the clause whose cards have the fewest allowed places,
//! and placing a clause's most restricted cards first, visits about 15%
//! fewer states on master 10-player bystander states after 20 suggestions
//! (and a few percent fewer elsewhere, see BENCHMARKS.md).

use super::plan::CardClasses;
use crate::deduce::Reduced;
use crate::model::{Card, CardSet};

/// Clause by clause, always continuing with the clause that has the fewest
/// cards left (ties: fewest allowed places over those cards), so that
/// clause bits stay in the state for a short time; within a clause and
/// after the clauses, cards with fewer allowed places first.
pub(super) fn dp_order(r: &Reduced, cards: &CardClasses) -> Vec<u8> {
    let places = |c: Card| r.allowed[c.index()].count_ones();
    let by_places = |s: CardSet| {
        let mut v: Vec<Card> = s.iter().collect();
        v.sort_by_key(|&c| places(c));
        v
    };
    clause_order(r, cards, |s, placed| (s - placed).iter().map(places).sum(), by_places)
}

/// The order before the tie-breaks above (clauses with fewest cards left
/// first, cards in deck order): kept as the reference of the property test
/// that compares counters.
#[cfg(test)]
pub(super) fn basic_order(r: &Reduced, cards: &CardClasses) -> Vec<u8> {
    clause_order(r, cards, |_, _| 0, |s| s.iter().collect())
}

fn clause_order(
    r: &Reduced,
    cards: &CardClasses,
    tie: impl Fn(CardSet, CardSet) -> u32,
    arrange: impl Fn(CardSet) -> Vec<Card>,
) -> Vec<u8> {
    let mut pending: Vec<CardSet> = r.clauses.iter().map(|cl| cl.iter().map(|l| Card(l.card)).collect()).collect();
    let mut order: Vec<Card> = Vec::new();
    let mut placed = CardSet::EMPTY;
    while !pending.is_empty() {
        let (i, _) = pending
            .iter()
            .enumerate()
            .min_by_key(|(_, &s)| ((s - placed).len(), tie(s, placed), s.len()))
            .expect("pending is not empty");
        let set = pending.swap_remove(i);
        order.extend(arrange(set - placed));
        placed |= set;
    }
    order.extend(arrange(cards.dp - placed));
    order.into_iter().map(|c| c.index() as u8).collect()
}
