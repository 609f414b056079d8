//! Who sits where: every seating of a tournament, in a fixed order.
//!
//! # The rule
//!
//! With `n` seats and `k` agents:
//!
//! - **`n ≤ k`**: every ordered choice of `n` different agents, that is
//!   every `n`-subset of the agents in every seat permutation
//!   (`k! / (k − n)!` seatings). This is the Speed Clue contest's format.
//! - **`n > k`**: every seating in which each agent has at least one seat
//!   (some agents then have two or more seats; there are `k! · S(n, k)`
//!   such seatings, `S` the Stirling numbers of the second kind). By
//!   symmetry every agent has the same number of seats in all, and the
//!   same number in each seat position.
//!
//! Seatings are listed in lexicographic order of the agents' indices in
//! the tournament's agent list, so a seating's index names it for seeds,
//! shards and merges.

/// The largest number of candidate seatings (`k^n`) looked at; beyond it the
/// schedule is refused as too large to play anyway.
pub const MAX_CANDIDATES: u64 = 20_000_000;

/// Every seating of `agents` agents (by index) in `seats` seats, following
/// the rule in the module docs, in lexicographic order.
///
/// # Errors
/// A message when there are no agents or seats, or when `agents^seats`
/// exceeds [`MAX_CANDIDATES`].
pub fn seatings(agents: usize, seats: usize) -> Result<Vec<Vec<usize>>, String> {
    if agents == 0 || seats == 0 {
        return Err("a seating needs at least one agent and one seat".into());
    }
    let candidates = (agents as u64).checked_pow(seats as u32).filter(|&c| c <= MAX_CANDIDATES);
    if candidates.is_none() {
        return Err(format!("{agents} agents in {seats} seats give too many seatings to play"));
    }
    let mut out = Vec::new();
    let mut seating = vec![0usize; seats];
    loop {
        if fits(&seating, agents) {
            out.push(seating.clone());
        }
        // The next sequence in lexicographic order (an odometer).
        let mut i = seats;
        loop {
            if i == 0 {
                return Ok(out);
            }
            i -= 1;
            seating[i] += 1;
            if seating[i] < agents {
                break;
            }
            seating[i] = 0;
        }
    }
}

/// Whether a sequence of agent indices is a seating under the rule.
fn fits(seating: &[usize], agents: usize) -> bool {
    let mut seen = vec![false; agents];
    let mut distinct = 0;
    for &a in seating {
        if !seen[a] {
            seen[a] = true;
            distinct += 1;
        }
    }
    if seating.len() <= agents {
        distinct == seating.len()
    } else {
        distinct == agents
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn falling(k: usize, n: usize) -> usize {
        (k - n + 1..=k).product()
    }

    /// k! S(n, k): the surjections from n seats onto k agents, by
    /// inclusion–exclusion.
    fn surjections(k: usize, n: usize) -> usize {
        let binom = |a: usize, b: usize| -> i64 { (0..b).fold(1i64, |acc, i| acc * (a - i) as i64 / (i + 1) as i64) };
        (0..=k)
            .map(|j| {
                let sign = if j % 2 == 0 { 1 } else { -1 };
                sign * binom(k, j) * ((k - j) as i64).pow(n as u32)
            })
            .sum::<i64>() as usize
    }

    #[test]
    fn counts_follow_the_rule() {
        for k in 1..=6 {
            for n in 1..=7 {
                let s = seatings(k, n).unwrap();
                let expected = if n <= k { falling(k, n) } else { surjections(k, n) };
                assert_eq!(s.len(), expected, "{k} agents, {n} seats");
                let unique: BTreeSet<_> = s.iter().collect();
                assert_eq!(unique.len(), s.len(), "no seating twice");
            }
        }
        assert_eq!(seatings(5, 6).unwrap().len(), 1800);
        assert_eq!(seatings(5, 3).unwrap().len(), 60);
    }

    #[test]
    fn every_agent_has_the_same_seats_in_every_position() {
        for (k, n) in [(5, 3), (5, 4), (3, 5), (2, 6), (4, 4)] {
            let s = seatings(k, n).unwrap();
            for seat in 0..n {
                let per_agent: Vec<usize> = (0..k).map(|a| s.iter().filter(|x| x[seat] == a).count()).collect();
                assert!(per_agent.iter().all(|&c| c == per_agent[0]), "{k} agents, {n} seats: {per_agent:?}");
            }
        }
    }

    #[test]
    fn seatings_are_sorted_and_follow_the_rule() {
        let s = seatings(3, 2).unwrap();
        assert_eq!(s, vec![vec![0, 1], vec![0, 2], vec![1, 0], vec![1, 2], vec![2, 0], vec![2, 1]]);
        let s = seatings(2, 3).unwrap();
        assert_eq!(s, vec![vec![0, 0, 1], vec![0, 1, 0], vec![0, 1, 1], vec![1, 0, 0], vec![1, 0, 1], vec![1, 1, 0]]);
        assert_eq!(seatings(1, 4).unwrap(), vec![vec![0; 4]]);
    }

    #[test]
    fn refuses_empty_and_huge_schedules() {
        assert!(seatings(0, 3).is_err());
        assert!(seatings(3, 0).is_err());
        assert!(seatings(20, 10).is_err());
    }
}
