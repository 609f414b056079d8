//! A cheap estimate of the card-outer DP's states under a card order, to
//! pick between orders per state (see [`super::order`]).
//!
//! Per layer: the room vectors each player's range allows (at least what no
//! later card can fill, at most what the earlier cards could not have
//! taken), with the free players' rooms counted by their sum (the key keeps
//! only the pool, see [`super::sym`]), whose sum matches the cards placed so far given the
//! case-file cards placed; times the in-flight clause bits.

use super::plan::{clause_intervals, free_sets, CardClasses, Positions};
use crate::deduce::{CountProblem, Reduced};

/// The estimated number of states of the symmetric DP in `order`.
pub(super) fn dp_states(p: &CountProblem, r: &Reduced, cards: &CardClasses, order: &[u8]) -> f64 {
    let np = p.np;
    let cf = np;
    let n = order.len();
    let intervals = clause_intervals(r, &Positions::new(order));
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
    // Whether a category's case card may still come from the tail.
    let tail_ok: Vec<bool> = open
        .iter()
        .map(|&k| (p.categories[k] & cards.tail).iter().any(|c| r.allowed[c.index()] >> cf & 1 == 1))
        .collect();
    let mut rooms = Sums::default();
    let mut sum = 0.0;
    for i in 0..=n {
        // Case-file cards placed: forced (no case card left to come) or not.
        let (mut forced, mut varying) = (0, 0);
        for (&(first, last), &tail_ok) in span.iter().zip(&tail_ok) {
            match (first < i, last > i || tail_ok) {
                (true, false) => forced += 1,
                (true, true) => varying += 1,
                _ => {}
            }
        }
        // Room vectors by their sum, up to the largest sum read below.
        let Some(cap) = (total_room + forced + varying).checked_sub(i) else { continue };
        rooms.start();
        let (mut flo, mut fhi, mut nfree) = (0, 0, 0);
        for a in (0..np).filter(|&a| r.rem[a] > 0) {
            let rem = usize::from(r.rem[a]);
            let lo = rem.saturating_sub(placed_ok[a][i]);
            let hi = rem.min(placed_ok[a][n] - placed_ok[a][i] + tail);
            if free[i] >> a & 1 == 1 {
                (flo, fhi, nfree) = (flo + lo, fhi + hi, nfree + 1);
            } else {
                rooms.add(lo, hi, cap);
            }
        }
        if nfree > 0 {
            rooms.add(flo, fhi, cap);
        }
        let mut layer = 0.0;
        let mut choose = 1.0;
        for j in 0..=varying {
            let s = (total_room + forced + j).checked_sub(i);
            layer += choose * s.map_or(0.0, |s| rooms.get(s));
            choose = choose * (varying - j) as f64 / (j + 1) as f64;
        }
        let in_flight = intervals.iter().filter(|&&(first, last, _)| first < i && i <= last).count();
        sum += layer * f64::from(1u32 << in_flight.min(30));
    }
    sum
}

/// Room vectors counted by their sum: `vals[k]` vectors sum to `base + k`.
/// A player whose room is fixed shifts `base`; a range of rooms slides a
/// window over `vals`. Every value is an integer far below 2^53, so the
/// sums are exact in any order.
#[derive(Default)]
struct Sums {
    base: usize,
    vals: Vec<f64>,
    scratch: Vec<f64>,
}

impl Sums {
    /// No player yet: one vector, summing to zero.
    fn start(&mut self) {
        self.base = 0;
        self.vals.clear();
        self.vals.push(1.0);
    }

    /// One more player, whose room is any of `lo..=hi`; sums above `cap`
    /// are dropped.
    fn add(&mut self, lo: usize, hi: usize, cap: usize) {
        // No room possible (a player that cannot be filled): no vector.
        let Some(width) = hi.checked_sub(lo) else {
            self.vals.clear();
            return;
        };
        self.base += lo;
        let len = (self.vals.len() + width).min((cap + 1).saturating_sub(self.base));
        if width == 0 {
            self.vals.truncate(len);
            return;
        }
        // out[k] sums vals[k - width..=k]: add the entry entering the
        // window, subtract the one leaving it.
        self.scratch.clear();
        let mut window = 0.0;
        let entering = self.vals.iter().copied().chain(std::iter::repeat(0.0));
        let leaving = std::iter::repeat_n(0.0, width + 1).chain(self.vals.iter().copied());
        for (add, sub) in entering.zip(leaving).take(len) {
            window += add - sub;
            self.scratch.push(window);
        }
        std::mem::swap(&mut self.vals, &mut self.scratch);
    }

    /// The vectors summing to `s` (`s` at most the last `cap`).
    fn get(&self, s: usize) -> f64 {
        s.checked_sub(self.base).and_then(|k| self.vals.get(k)).copied().unwrap_or(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::Sums;

    /// The sums against a direct enumeration of room vectors, for every
    /// shape of range (an empty one last) and a cap that cuts some off.
    #[test]
    fn sums_count_room_vectors_by_their_sum() {
        let ranges = [(2, 2), (0, 3), (1, 4), (0, 0), (3, 5), (4, 3)];
        for cap in [0, 4, 9, 30] {
            let mut sums = Sums::default();
            sums.start();
            let mut vectors: Vec<usize> = vec![0];
            for &(lo, hi) in &ranges {
                sums.add(lo, hi, cap);
                vectors = vectors.iter().flat_map(|&s| (lo..=hi).map(move |v| s + v)).collect();
                for s in 0..=cap {
                    let direct = vectors.iter().filter(|&&x| x == s).count() as f64;
                    assert_eq!(sums.get(s), direct, "sum {s}, cap {cap}, after range {lo}..={hi}");
                }
            }
        }
    }
}
