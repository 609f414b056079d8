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
//! (and a few percent fewer elsewhere, see BENCHMARKS.md's git history).
//!
//! With the symmetric DP, an order that frees players early
//! ([`freeing_order`]) visits up to 7x fewer states on some states and up to
//! 3x more on others; [`super::estimate`] (layer by layer, with free players'
//! rooms by their sum and the rooms' sum fixed) ranks the orders well enough
//! where the older capacity-vector estimate could not. [`wide_first_order`]
//! and [`frontier_order`] help clause-heavy states. The symmetric DP starts
//! from [`inflight_order`] (the independent plain DP's clause order) and
//! takes another only where the estimate clearly prefers it (see
//! `pooled_order` in the parent module).

use super::plan::CardClasses;
use crate::deduce::Reduced;
use crate::model::{Card, CardSet};

/// Clause by clause, always continuing with the clause that has the fewest
/// cards left (ties: fewest allowed places over those cards), so that
/// clause bits stay in the state for a short time; within a clause and
/// after the clauses, cards with fewer allowed places first.
pub(super) fn dp_order(r: &Reduced, cards: &CardClasses) -> Vec<u8> {
    clause_order(r, cards, |s, placed| places_of(r, s - placed), |s| fewest_places_first(r, s))
}

/// A card's allowed places.
fn places(r: &Reduced, c: Card) -> u32 {
    r.allowed[c.index()].count_ones()
}

/// The allowed places of a set's cards, summed.
fn places_of(r: &Reduced, s: CardSet) -> u32 {
    s.iter().map(|c| places(r, c)).sum()
}

/// A set's cards, those with fewer allowed places first.
fn fewest_places_first(r: &Reduced, s: CardSet) -> Vec<Card> {
    let mut v: Vec<Card> = s.iter().collect();
    v.sort_by_key(|&c| places(r, c));
    v
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
    clause_order_by(r, cards, fewest_left_first(tie), arrange)
}

/// All clauses in the order of `key` (see [`place_clauses`]), then the
/// other DP cards.
fn clause_order_by<K: Ord>(
    r: &Reduced,
    cards: &CardClasses,
    key: impl Fn(CardSet, CardSet, &[CardSet]) -> K,
    arrange: impl Fn(CardSet) -> Vec<Card>,
) -> Vec<u8> {
    let mut order: Vec<Card> = Vec::new();
    let mut placed = CardSet::EMPTY;
    place_clauses(&mut order, &mut placed, clause_sets(r), &key, &arrange);
    order.extend(arrange(cards.dp - placed));
    order.into_iter().map(|c| c.index() as u8).collect()
}

/// The usual key of the next clause: fewest cards left, then `tie`, then
/// fewest cards.
fn fewest_left_first(
    tie: impl Fn(CardSet, CardSet) -> u32,
) -> impl Fn(CardSet, CardSet, &[CardSet]) -> (usize, u32, usize) {
    move |s, placed, _| ((s - placed).len(), tie(s, placed), s.len())
}

fn clause_sets(r: &Reduced) -> Vec<CardSet> {
    r.clauses.iter().map(|cl| cl.iter().map(|l| Card(l.card)).collect()).collect()
}

/// Appends the cards of `pending` clause by clause, each time the clause
/// with the smallest `key(clause, placed, pending)` (the first such).
fn place_clauses<K: Ord>(
    order: &mut Vec<Card>,
    placed: &mut CardSet,
    mut pending: Vec<CardSet>,
    key: impl Fn(CardSet, CardSet, &[CardSet]) -> K,
    arrange: impl Fn(CardSet) -> Vec<Card>,
) {
    while !pending.is_empty() {
        let (i, _) =
            pending.iter().enumerate().min_by_key(|(_, &s)| key(s, *placed, &pending)).expect("pending is not empty");
        let set = pending.swap_remove(i);
        order.extend(arrange(set - *placed));
        *placed |= set;
    }
}

/// An order that frees players early (see [`super::sym`]): a player is free
/// once every DP card barred from it and every clause mentioning it is
/// placed. Greedily, the player with the fewest such cards left (closed
/// under clauses, so no clause is left half placed) has them placed, clause
/// by clause as in [`dp_order`]; then the rest in [`dp_order`]'s order.
/// Fewer states than [`dp_order`] on some states, more on others.
pub(super) fn freeing_order(r: &Reduced, cards: &CardClasses, np: usize) -> Vec<u8> {
    let key = fewest_left_first(|s, placed| places_of(r, s - placed));
    let by_places = |s: CardSet| fewest_places_first(r, s);
    let clauses = clause_sets(r);
    let needs: Vec<CardSet> =
        (0..np).filter(|&a| r.rem[a] > 0).map(|a| needed_to_free(r, cards, &clauses, a)).collect();
    let mut order: Vec<Card> = Vec::new();
    let mut placed = CardSet::EMPTY;
    loop {
        let left = cards.dp - placed;
        let next = needs.iter().map(|&s| s - placed).filter(|s| !s.is_empty()).min_by_key(|s| s.len());
        // Freeing a player only with the last card saves nothing.
        let Some(need) = next.filter(|s| s.len() < left.len()) else { break };
        let pending = clauses.iter().copied().filter(|&s| !(s & need).is_empty()).collect();
        place_clauses(&mut order, &mut placed, pending, &key, by_places);
        order.extend(by_places(need - placed));
        placed |= need;
    }
    place_clauses(&mut order, &mut placed, clauses, &key, by_places);
    order.extend(by_places(cards.dp - placed));
    order.into_iter().map(|c| c.index() as u8).collect()
}

/// The DP cards to place before player `a` can be free: those barred from
/// it and those of clauses mentioning it, closed under clauses.
fn needed_to_free(r: &Reduced, cards: &CardClasses, clauses: &[CardSet], a: usize) -> CardSet {
    let mut need: CardSet = cards.dp.iter().filter(|c| r.allowed[c.index()] >> a & 1 == 0).collect();
    for (cl, &set) in r.clauses.iter().zip(clauses) {
        if cl.iter().any(|l| usize::from(l.place) == a) {
            need |= set;
        }
    }
    loop {
        let grown = clauses.iter().filter(|&&s| !(s & need).is_empty()).fold(need, |m, &s| m | s);
        if grown == need {
            return need;
        }
        need = grown;
    }
}

/// [`dp_order`] with the opposite preferences: among the clauses with
/// fewest cards left, the one whose cards have the most allowed places
/// first, and within a clause and after the clauses, cards with more
/// allowed places first. Far fewer states than [`dp_order`] on some
/// clause-heavy states (BENCHMARKS.md's git history, eighth round), more on others.
pub(super) fn wide_first_order(r: &Reduced, cards: &CardClasses) -> Vec<u8> {
    let most_places = |s: CardSet| {
        let mut v: Vec<Card> = s.iter().collect();
        v.sort_by_key(|&c| std::cmp::Reverse(places(r, c)));
        v
    };
    clause_order(r, cards, |s, placed| u32::MAX - places_of(r, s - placed), most_places)
}

/// Greedily, block by block (a clause's cards left, or one DP card in no
/// clause): the block after which the *frontier* is smallest, the sum over
/// players with some of their allowed DP cards placed and some to come of
/// `log2` of the rooms they may have (as in [`super::estimate`]: at least
/// what the cards to come cannot fill, at most what the placed ones could
/// not have taken), plus one per clause in flight; ties: the smaller block,
/// then fewer allowed places. Within a block, cards with fewer allowed
/// places first.
pub(super) fn frontier_order(r: &Reduced, cards: &CardClasses, np: usize) -> Vec<u8> {
    let clauses = clause_sets(r);
    let players: Vec<(usize, CardSet)> = (0..np)
        .filter(|&a| r.rem[a] > 0)
        .map(|a| (usize::from(r.rem[a]), cards.dp.iter().filter(|c| r.allowed[c.index()] >> a & 1 == 1).collect()))
        .collect();
    let tail = cards.tail.len();
    let cost = |placed: CardSet| -> f64 {
        let mut bits = 0.0;
        for &(rem, mine) in &players {
            let before = (mine & placed).len();
            let after = (mine - placed).len() + tail;
            if before > 0 && after > 0 {
                let (lo, hi) = (rem.saturating_sub(before), rem.min(after));
                bits += ((hi + 1).saturating_sub(lo).max(1) as f64).log2();
            }
        }
        let in_flight = clauses.iter().filter(|&&s| !(s & placed).is_empty() && !(s - placed).is_empty()).count();
        bits + in_flight as f64
    };
    let in_clause = clauses.iter().fold(CardSet::EMPTY, |m, &s| m | s);
    let mut order: Vec<Card> = Vec::new();
    let mut placed = CardSet::EMPTY;
    while placed != cards.dp {
        let blocks = clauses
            .iter()
            .map(|&s| s - placed)
            .filter(|s| !s.is_empty())
            .chain((cards.dp - placed - in_clause).iter().map(|c| [c].into_iter().collect()));
        let (_, _, _, block) = blocks
            .map(|b: CardSet| (cost(placed | b), b.len(), places_of(r, b), b))
            .min_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)).then(x.2.cmp(&y.2)))
            .expect("DP cards are left");
        order.extend(fewest_places_first(r, block));
        placed |= block;
    }
    order.into_iter().map(|c| c.index() as u8).collect()
}

/// The orders the plan chooses from, by name (for the tests and
/// [`super::profile`]).
#[cfg(any(test, feature = "testing"))]
pub(super) fn named(name: &str, r: &Reduced, cards: &CardClasses, np: usize) -> Option<Vec<u8>> {
    Some(match name {
        "usual" => dp_order(r, cards),
        "freeing" => freeing_order(r, cards, np),
        "wide" => wide_first_order(r, cards),
        "frontier" => frontier_order(r, cards, np),
        "inflight" => inflight_order(r, cards),
        _ => return None,
    })
}

/// Clause by clause, as [`dp_order`], but among the clauses with the fewest
/// cards left, first the one after which the fewest other clauses are in
/// flight (some of their cards placed, some not). Far fewer states than the
/// other orders on some clause-heavy states (master 10 players, observer,
/// 20 suggestions, seed 1: 11,479 against 61,644), more on others.
pub(super) fn inflight_order(r: &Reduced, cards: &CardClasses) -> Vec<u8> {
    let in_flight_after = |s: CardSet, placed: CardSet, pending: &[CardSet]| {
        let now = placed | s;
        pending.iter().filter(|&&o| !(o & now).is_empty() && !(o - now).is_empty()).count()
    };
    clause_order_by(
        r,
        cards,
        |s, placed, pending| ((s - placed).len(), in_flight_after(s, placed, pending), places_of(r, s - placed)),
        |s| fewest_places_first(r, s),
    )
}
