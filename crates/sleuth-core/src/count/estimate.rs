//! A cheap estimate of the card-outer DP's states under a card order, to
//! pick between orders per state (see [`super::order`]).
//!
//! Per layer: the room vectors each player's range allows (at least what no
//! later card can fill, at most what the earlier cards could not have
//! taken), with the free players' rooms counted by their sum (the key keeps
//! only the pool, see [`super::sym`]), whose sum matches the cards placed so far given the
//! case-file cards placed; times the in-flight clause bits.

use super::plan::{free_sets, CardClasses};
use crate::deduce::{Problem, Reduced};

/// The estimated number of states of the symmetric DP in `order`.
pub(super) fn dp_states(p: &Problem, r: &Reduced, cards: &CardClasses, order: &[u8]) -> f64 {
    let np = p.np;
    let cf = np;
    let n = order.len();
    let intervals = clause_intervals(r, order);
    let free = free_sets(r, np, order, &intervals);
    let total_room: usize = (0..np).map(|a| usize::from(r.rem[a])).sum();
    let tail = cards.tail.len();
    let open: Vec<usize> = (0..p.categories.len()).filter(|&k| r.cat_done >> k & 1 == 0).collect();
    // `placed_ok[a][i]`: the cards among the first `i` that may go to
    // player `a`; a category's first and last case-file candidate in the order.
    let mut placed_ok = vec![vec![0usize; n + 1]; np];
    for (a, counts) in placed_ok.iter_mut().enumerate() {
        for (i, &c) in order.iter().enumerate() {
            counts[i + 1] = counts[i] + usize::from(r.allowed[usize::from(c)] >> a & 1 == 1);
        }
    }
    let case_ok =
        |c: u8, k: usize| r.allowed[usize::from(c)] >> cf & 1 == 1 && usize::from(p.category_of[usize::from(c)]) == k;
    let span: Vec<(usize, usize)> = open
        .iter()
        .map(|&k| {
            let first = order.iter().position(|&c| case_ok(c, k)).unwrap_or(n);
            let last = order.iter().rposition(|&c| case_ok(c, k)).map_or(0, |x| x + 1);
            (first, last)
        })
        .collect();
    let mut sum = 0.0;
    for i in 0..=n {
        // Room vectors by their sum.
        let mut by_sum = vec![1.0f64];
        let (mut flo, mut fhi, mut nfree) = (0, 0, 0);
        for a in (0..np).filter(|&a| r.rem[a] > 0) {
            let rem = usize::from(r.rem[a]);
            let lo = rem.saturating_sub(placed_ok[a][i]);
            let hi = rem.min(placed_ok[a][n] - placed_ok[a][i] + tail);
            if free[i] >> a & 1 == 1 {
                (flo, fhi, nfree) = (flo + lo, fhi + hi, nfree + 1);
            } else {
                by_sum = convolve(&by_sum, &range(lo, hi));
            }
        }
        if nfree > 0 {
            by_sum = convolve(&by_sum, &range(flo, fhi));
        }
        // Case-file cards placed: forced (no case card left to come) or not.
        let (mut forced, mut varying) = (0, 0);
        for (&k, &(first, last)) in open.iter().zip(&span) {
            let tail_ok = (p.categories[k] & cards.tail).iter().any(|c| r.allowed[c.index()] >> cf & 1 == 1);
            match (first < i, last > i || tail_ok) {
                (true, false) => forced += 1,
                (true, true) => varying += 1,
                _ => {}
            }
        }
        let mut layer = 0.0;
        let mut choose = 1.0;
        for j in 0..=varying {
            let s = (total_room + forced + j).checked_sub(i);
            layer += choose * s.and_then(|s| by_sum.get(s)).copied().unwrap_or(0.0);
            choose = choose * (varying - j) as f64 / (j + 1) as f64;
        }
        let in_flight = intervals.iter().filter(|&&(first, last, _)| first < i && i <= last).count();
        sum += layer * f64::from(1u32 << in_flight.min(30));
    }
    sum
}

/// Each clause's first and last position in the order, and its index.
fn clause_intervals(r: &Reduced, order: &[u8]) -> Vec<(usize, usize, usize)> {
    let pos_of = |c: u8| order.iter().position(|&x| x == c).expect("clause cards are ordered");
    r.clauses
        .iter()
        .enumerate()
        .map(|(j, cl)| {
            let ps = cl.iter().map(|l| pos_of(l.card));
            (ps.clone().min().unwrap_or(0), ps.max().unwrap_or(0), j)
        })
        .collect()
}

/// One player's rooms `lo..=hi`, by value.
fn range(lo: usize, hi: usize) -> Vec<f64> {
    (0..=hi).map(|v| if v >= lo { 1.0 } else { 0.0 }).collect()
}

fn convolve(a: &[f64], b: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; a.len() + b.len() - 1];
    for (i, &x) in a.iter().enumerate() {
        if x != 0.0 {
            for (j, &y) in b.iter().enumerate() {
                out[i + j] += x * y;
            }
        }
    }
    out
}
