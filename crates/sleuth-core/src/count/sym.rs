//! Marginals at free players for the symmetric card-outer DP.
//!
//! A player is *free* from a layer on when every DP card left may go to it
//! and no clause in flight or to come mentions it (`plan::free_sets`). Free
//! players are interchangeable for the rest of the DP except for their room,
//! so a symmetric plan keeps their rooms sorted in the key: one state stands
//! for its whole orbit (every assignment of those rooms to those players),
//! its forward count is the orbit's sum and its backward count is that of
//! every member. On the slowest master 10-player states that is up to 3×
//! fewer states (BENCHMARKS.md, fifth round).
//!
//! Totals and the marginals at the case file and at players not free are
//! unchanged. A free player's marginal needs which room *that* player has,
//! which the key no longer says; so a second forward sweep carries, per
//! state and free player `a`, `F[a][r]`: the forward count of the orbit's
//! members where `a` has room `r` (summing to the state's forward count).
//! A move to "a free player with room `r`" stands for the `m_r` free players
//! with that room: in a member where `a` has room `r`, one of them is `a`
//! (its room drops to `r - 1`) and `m_r - 1` are not; elsewhere none is.
//! The card's marginal at `a` is `F[a][r] × backward(successor)` summed over
//! `r`, and the tail's uses `F[a][r]` with the tail shares of room `r`.
//! In every member each free player has one room, so `Σ_a F[a][r] = m_r × f`
//! (`f` the state's forward count): one free player, free from the first
//! free layer on, gets no rows, and its `F` and marginals are what the
//! others leave.
//!
//! Only states with completions are swept. There a forward count times the
//! state's backward count (at least one) is at most the total, so `F` fits
//! in the same word as the total: its own sums and products cannot
//! overflow, and when the total fits in a `u64` so does `F` (half the
//! work). `F[a][0]` is never read (a player with no room takes no card) and
//! is not kept.

use super::arith::{add, mul};
use super::dp::{Forward, NO_STATE};
use super::plan::Plan;
use super::CountError;
use crate::model::MAX_PLACES;
use std::ops::{AddAssign, Mul, SubAssign};

/// The word `F` is kept in.
trait Word: Copy + Default + AddAssign + SubAssign + Mul<Output = Self> {
    /// `x`, which fits (see the module comment).
    fn of(x: u128) -> Self;
    fn wide(self) -> u128;
}

impl Word for u64 {
    fn of(x: u128) -> u64 {
        debug_assert!(x <= u128::from(u64::MAX));
        x as u64
    }
    fn wide(self) -> u128 {
        u128::from(self)
    }
}

impl Word for u128 {
    fn of(x: u128) -> u128 {
        x
    }
    fn wide(self) -> u128 {
        self
    }
}

/// The players of a set, in seat order.
fn players(set: u16) -> Vec<usize> {
    (0..16).filter(|&a| set >> a & 1 == 1).collect()
}

/// Adds the free players' marginals of DP and tail cards, given the total
/// and the backward counts of every layer (`back[t]` for layer `t`).
pub(super) fn free_marginals(
    plan: &Plan,
    fwd: &Forward,
    total: u128,
    back: &[Vec<u128>],
    marginal: &mut [[u128; MAX_PLACES]],
) -> Result<(), CountError> {
    if total <= u128::from(u64::MAX) {
        sweep::<u64>(plan, fwd, back, marginal)
    } else {
        sweep::<u128>(plan, fwd, back, marginal)
    }
}

fn sweep<T: Word>(
    plan: &Plan,
    fwd: &Forward,
    back: &[Vec<u128>],
    marginal: &mut [[u128; MAX_PLACES]],
) -> Result<(), CountError> {
    let rooms = plan.max_room();
    let n = plan.steps.len();
    let free_at = |t: usize| if t < n { plan.steps[t].free } else { plan.free_final };
    // The first player of the first free set is free from there on (the
    // sets only grow) and gets no rows: the free players' rows add up to
    // `m_r × f` at room `r`, so its `F` and marginals are what the others
    // leave.
    let hidden = (0..=n).map(free_at).find(|&s| s != 0).map_or(0, |s| s & s.wrapping_neg());
    // Layer 0 is the initial state alone; each free player has its own room.
    let first = players(free_at(0) & !hidden);
    let mut cur = vec![T::default(); first.len() * rooms];
    for (x, &a) in first.iter().enumerate() {
        cur[x * rooms + usize::from(plan.rem0[a]) - 1] = T::of(1);
    }
    for t in 0..n {
        if free_at(t + 1) == 0 {
            continue; // nobody free yet: nothing to carry
        }
        let free = (free_at(t), free_at(t + 1), hidden);
        cur = sweep_step(plan, fwd, t, free, (&back[t], &back[t + 1]), &cur, marginal)?;
    }
    tail(plan, fwd, (free_at(n), hidden), &cur, marginal)
}

/// One step of the sweep: adds the card's marginals at the players free
/// before it and returns `F` of the next layer (`F[a][r]` at `r - 1`), for
/// the free players but the hidden one.
///
/// Every product and sum here is part of the total (a member's forward
/// count times a completion count), so it fits in `T` like `F` itself.
fn sweep_step<T: Word>(
    plan: &Plan,
    fwd: &Forward,
    t: usize,
    (free, free_next, hidden): (u16, u16, u16),
    (back, back_next): (&[u128], &[u128]),
    cur: &[T],
    marginal: &mut [[u128; MAX_PLACES]],
) -> Result<Vec<T>, CountError> {
    let rooms = plan.max_room();
    let step = &plan.steps[t];
    let layer = &fwd.layers[t];
    let (now, next) = (players(free & !hidden), players(free_next & !hidden));
    let (k, kn) = (now.len(), next.len());
    // Where each player free now sits in the next layer's rows (the sets
    // only grow), and the players freed by this step.
    let at_next: Vec<usize> = now.iter().map(|a| next.iter().position(|b| b == a).expect("grows")).collect();
    let freed: Vec<(usize, usize)> =
        next.iter().enumerate().filter(|&(_, &b)| free >> b & 1 == 0).map(|(x, &b)| (x, b)).collect();
    // Nobody freed: a state's rows are the first rows of its successor's.
    let same = freed.is_empty();
    let mut out = vec![T::default(); fwd.layers[t + 1].counts.len() * kn * rooms];
    // This card's marginal at each player free now, by row, and at all of
    // them.
    let mut acc = vec![T::default(); k];
    let mut mass = T::default();
    let width = step.moves.len();
    // Moves to free players, by their room: (successor, how many).
    let mut class = vec![(NO_STATE, 0u32); rooms + 1];
    for (i, succ) in fwd.succ[t].chunks_exact(width).enumerate() {
        // A state with no completion adds nothing, nor do its successors
        // from it.
        if back[i] == 0 {
            continue;
        }
        let (key, f) = (layer.keys[i], T::of(layer.counts[i]));
        let fi = &cur[i * k * rooms..(i + 1) * k * rooms];
        class.fill((NO_STATE, 0));
        for (mv, &j) in step.moves.iter().zip(succ) {
            if j == NO_STATE || back_next[j as usize] == 0 {
                continue;
            }
            let q = usize::from(mv.place);
            if free >> q & 1 == 1 {
                let r = plan.room(key, q);
                debug_assert!(class[r].0 == NO_STATE || class[r].0 == j, "one successor per room");
                class[r] = (j, class[r].1 + 1);
                continue;
            }
            // Not a free player: every free player keeps its room.
            let fj = &mut out[j as usize * kn * rooms..][..kn * rooms];
            if same {
                for (to, &v) in fj.iter_mut().zip(fi) {
                    *to += v;
                }
                continue;
            }
            for (from, &xn) in fi.chunks_exact(rooms).zip(&at_next) {
                for (to, &v) in fj[xn * rooms..][..rooms].iter_mut().zip(from) {
                    *to += v;
                }
            }
            for &(xn, b) in &freed {
                let r = plan.room(key, b) - usize::from(q == b);
                if r > 0 {
                    fj[xn * rooms + r - 1] += f;
                }
            }
        }
        for (r, &(j, m)) in class.iter().enumerate() {
            if m == 0 {
                continue;
            }
            let b = T::of(back_next[j as usize]);
            for (from, to) in fi.chunks_exact(rooms).zip(acc.iter_mut()) {
                *to += from[r - 1] * b;
            }
            let m = T::of(u128::from(m));
            mass += m * f * b;
            let fj = &mut out[j as usize * kn * rooms..][..kn * rooms];
            if same {
                for (to, &v) in fj.iter_mut().zip(fi) {
                    *to += m * v;
                }
            }
            for (from, &xn) in fi.chunks_exact(rooms).zip(&at_next) {
                let to = &mut fj[xn * rooms..][..rooms];
                if !same {
                    for (to, &v) in to.iter_mut().zip(from) {
                        *to += m * v;
                    }
                }
                // Where `a` has room r, one of the m moves is to `a`.
                to[r - 1] -= from[r - 1];
                if r > 1 {
                    to[r - 2] += from[r - 1];
                }
            }
            for &(xn, b) in &freed {
                let r = plan.room(key, b);
                if r > 0 {
                    fj[xn * rooms + r - 1] += m * f;
                }
            }
        }
    }
    let row = &mut marginal[step.card as usize];
    for (&a, &v) in now.iter().zip(&acc) {
        row[a] = add(row[a], v.wide())?;
        mass -= v;
    }
    if free & hidden != 0 {
        let d = hidden.trailing_zeros() as usize;
        row[d] = add(row[d], mass.wide())?;
    }
    Ok(out)
}

/// The tail cards' marginals at the players free in the final layer.
fn tail<T: Word>(
    plan: &Plan,
    fwd: &Forward,
    (free, hidden): (u16, u16),
    cur: &[T],
    marginal: &mut [[u128; MAX_PLACES]],
) -> Result<(), CountError> {
    let rooms = plan.max_room();
    let all = players(free);
    let now = players(free & !hidden);
    let k = now.len();
    let d = (free & hidden != 0).then(|| hidden.trailing_zeros() as usize);
    let last = fwd.layers.last().expect("a forward pass has a final layer");
    let mut sums: Vec<(u32, [u128; MAX_PLACES])> = Vec::new();
    for (i, &key) in last.keys.iter().enumerate() {
        let (open, shares) = plan.tail_shares(key)?;
        if all.is_empty() || plan.ways_from(open, &shares)? == 0 {
            continue;
        }
        let by_room = plan.room_shares(key)?;
        let at = match sums.iter().position(|s| s.0 == open) {
            Some(at) => at,
            None => {
                sums.push((open, [0; MAX_PLACES]));
                sums.len() - 1
            }
        };
        // The hidden player's `F[d][r]`: `m_r × f` less the others'.
        let mut hid = vec![0u128; rooms + 1];
        for &a in &all {
            hid[plan.room(key, a)] += last.counts[i];
        }
        for (x, &a) in now.iter().enumerate() {
            for (r, &share) in by_room.iter().enumerate().skip(1) {
                let v = cur[(i * k + x) * rooms + r - 1].wide();
                hid[r] -= v;
                sums[at].1[a] = add(sums[at].1[a], mul(v, share)?)?;
            }
        }
        if let Some(d) = d {
            for (r, &share) in by_room.iter().enumerate().skip(1) {
                sums[at].1[d] = add(sums[at].1[d], mul(hid[r], share)?)?;
            }
        }
    }
    // Only free players' sums are set, so these are their marginals alone.
    for (class, m) in plan.tail.iter().zip(plan.tail_marginals(&sums)?) {
        for &c in &class.cards {
            for &a in &all {
                marginal[c as usize][a] = add(marginal[c as usize][a], m[a])?;
            }
        }
    }
    Ok(())
}
