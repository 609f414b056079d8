//! The pool of free players, and their marginals.
//!
//! A player is *free* from a layer on when every DP card left may go to it
//! and no clause in flight or to come mentions it (`plan::free_sets`). Free
//! players are interchangeable for the rest of the DP except for their
//! room, and their rooms need not be tracked one by one: a symmetric plan
//! keeps only the *pool*, their room in all, and counts their hands through
//! distinct *slots*. A player joining the pool with room `r` brings `r`
//! slots; a DP card sent to the pool takes one of the `R` free slots there
//! (weight `R`); the tail fills the slots left like `R` players of room one.
//! Each deal is then counted once per way of putting each pooled player's
//! cards into its slots, `Π r!` times; a weight `M! / r!` at joining (`M`
//! the player's room before the DP) makes that a constant: every count of
//! the plan is `S = Π M!` times the true one ([`super::plan::Plan::scale`]),
//! and is divided by `S` at the end (where `S` or a scaled count does not
//! fit, `count` and `count_marginals` use the plain DP). The pool's room is implied by the other
//! fields and the layer, so pooling removes the free players from the state
//! altogether (about 2x fewer states than keeping their rooms sorted on the
//! slowest master 10-player states, BENCHMARKS.md's git history, eighth round).
//!
//! Totals and the marginals at the case file and at players not free come
//! out of the usual passes. A free player's marginal needs which slots are
//! *its* slots. Going forward, each DP card sent to the pool takes a slot
//! chosen uniformly among the `R` free ones (the number of completions does
//! not depend on which), so in expectation player `a` keeps `x_a` free
//! slots: `r` at joining, times `(1 - 1/R)` at each card sent to the pool.
//! A second forward sweep carries, per state and free player, `X_a`: the
//! sum over the paths into the state of their weight times `x_a` (an
//! integer: the weight has the factor `R` that `1/R` cancels). A card sent
//! to the pool goes to `a` in `X_a × backward(successor)` (times the
//! joining weights of the step) of the deals through that edge; a tail card
//! in `X_a × (tail ways with it in one given slot)`. In every state
//! `Σ_a X_a = R × f` (`f` the state's forward count), so one free player,
//! free from the first free layer on, gets no row: its `X` is what the
//! others leave.
//!
//! Only states with completions are swept. There `f × backward` is at most
//! the total and `X_a ≤ R × f`, so every product below is at most the total
//! times the largest pool room, and fits in the word chosen for that.

use super::arith::{add, mul, Word};
use super::dp::{zeroed, Forward};
use super::plan::{Plan, POOL};
use super::CountError;
use crate::model::MAX_PLACES;

/// The players of a set, in seat order.
fn players(set: u16) -> Vec<usize> {
    (0..16).filter(|&a| set >> a & 1 == 1).collect()
}

/// Adds the free players' marginals of DP and tail cards, given the (scaled)
/// total and the backward counts of every layer (`back[t]` for layer `t`).
pub(super) fn free_marginals<B: Word>(
    plan: &Plan,
    fwd: &Forward,
    total: u128,
    back: &[Vec<B>],
    marginal: &mut [[u128; MAX_PLACES]],
) -> Result<(), CountError> {
    let pool: u128 = (0..plan.np).filter(|&a| plan.free_final >> a & 1 == 1).map(|a| u128::from(plan.rem0[a])).sum();
    let bound = total.checked_mul(pool + 1).ok_or(CountError::Overflow)?;
    if bound <= u128::from(u64::MAX) {
        sweep::<u64, B>(plan, fwd, back, marginal)
    } else {
        sweep::<u128, B>(plan, fwd, back, marginal)
    }
}

fn sweep<T: Word, B: Word>(
    plan: &Plan,
    fwd: &Forward,
    back: &[Vec<B>],
    marginal: &mut [[u128; MAX_PLACES]],
) -> Result<(), CountError> {
    let n = plan.steps.len();
    let free_at = |t: usize| if t < n { plan.steps[t].free } else { plan.free_final };
    // The first player of the first free set is free from there on (the
    // sets only grow) and gets no row.
    let hidden = (0..=n).map(free_at).find(|&s| s != 0).map_or(0, |s| s & s.wrapping_neg());
    // Layer 0 is the initial state alone (forward count 1); each player
    // free there joined with its whole room.
    let mut cur: Vec<T> = players(free_at(0) & !hidden).iter().map(|&a| T::of(u128::from(plan.rem0[a]))).collect();
    for t in 0..n {
        if free_at(t + 1) == 0 {
            continue; // nobody free yet: nothing to carry
        }
        let free = (free_at(t), free_at(t + 1), hidden);
        cur = sweep_step(plan, fwd, t, free, (&back[t], &back[t + 1]), &cur, marginal)?;
    }
    tail(plan, fwd, (free_at(n), hidden), &back[n], &cur, marginal)
}

/// One step of the sweep: adds the card's marginals at the players free
/// before it and returns `X` of the next layer, for the free players but
/// the hidden one.
fn sweep_step<T: Word, B: Word>(
    plan: &Plan,
    fwd: &Forward,
    t: usize,
    (free, free_next, hidden): (u16, u16, u16),
    (back, back_next): (&[B], &[B]),
    cur: &[T],
    marginal: &mut [[u128; MAX_PLACES]],
) -> Result<Vec<T>, CountError> {
    let step = &plan.steps[t];
    let layer = &fwd.layers[t];
    let (now, next) = (players(free & !hidden), players(free_next & !hidden));
    let (k, kn) = (now.len(), next.len());
    // Where each player free now sits in the next layer's rows (the sets
    // only grow), and the players joining the pool after this step.
    let at_next: Vec<usize> = now.iter().map(|a| next.iter().position(|b| b == a).expect("grows")).collect();
    let joining: Vec<(usize, usize)> =
        next.iter().enumerate().filter(|&(_, &b)| free >> b & 1 == 0).map(|(x, &b)| (x, b)).collect();
    // Nobody joins: a state's rows are its successor's, in the same order.
    let same = joining.is_empty();
    let mut out = zeroed::<T>(fwd.layers[t + 1].counts.len() * kn)?;
    // This card's marginal at each player free now, and at all of them.
    let mut acc = vec![T::default(); k];
    let mut mass = T::default();
    for i in 0..layer.counts.len() {
        // A state with no completion adds nothing, nor do its successors
        // from it.
        if back[i] == B::ZERO {
            continue;
        }
        let (key, f) = (layer.keys.get(i), T::of(layer.counts.get(i)));
        let xi = &cur[i * k..(i + 1) * k];
        for (m, j) in fwd.succ[t].of(i) {
            let b_j = back_next[j].wide();
            if b_j == 0 {
                continue;
            }
            let mv = &step.moves[m];
            let (slots, joins) = if step.weighted { plan.weight(step, key, m) } else { (1, 1) };
            let to_pool = mv.place == POOL;
            let xj = &mut out[j * kn..][..kn];
            // `a` keeps its slots unless the card took one of them.
            let keep = T::of(if to_pool { (slots - 1) * joins } else { joins });
            if to_pool {
                let b = T::of(b_j * joins);
                for (to, &x) in acc.iter_mut().zip(xi) {
                    *to += x * b;
                }
                mass += f * T::of(slots * joins) * T::of(b_j);
            }
            if same {
                for (to, &x) in xj.iter_mut().zip(xi) {
                    *to += x * keep;
                }
            } else {
                for (&x, &xn) in xi.iter().zip(&at_next) {
                    xj[xn] += x * keep;
                }
            }
            for &(xn, b) in &joining {
                let room = plan.room(key, b) - usize::from(usize::from(mv.place) == b);
                xj[xn] += f * T::of(slots * joins * room as u128);
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

/// The tail cards' marginals at the players free in the final layer, given
/// that layer's backward counts (its tail ways).
fn tail<T: Word, B: Word>(
    plan: &Plan,
    fwd: &Forward,
    (free, hidden): (u16, u16),
    back: &[B],
    cur: &[T],
    marginal: &mut [[u128; MAX_PLACES]],
) -> Result<(), CountError> {
    let all = players(free);
    if all.is_empty() {
        return Ok(());
    }
    let now = players(free & !hidden);
    let k = now.len();
    let d = (free & hidden != 0).then(|| hidden.trailing_zeros() as usize);
    let last = fwd.layers.last().expect("a forward pass has a final layer");
    let mut sums: Vec<(u32, [u128; MAX_PLACES])> = Vec::new();
    for (i, key) in last.keys.iter().enumerate() {
        if back[i] == B::ZERO {
            continue;
        }
        let open = plan.open_of(key);
        let slot = plan.slot_share(key)?;
        let at = match sums.iter().position(|s| s.0 == open) {
            Some(at) => at,
            None => {
                sums.push((open, [0; MAX_PLACES]));
                sums.len() - 1
            }
        };
        // The hidden player's `X`: `R × f` less the others'.
        let mut hid = mul(plan.pool_room(key), last.counts.get(i))?;
        for (x, &a) in now.iter().enumerate() {
            let v = cur[i * k + x].wide();
            hid -= v;
            sums[at].1[a] = add(sums[at].1[a], mul(v, slot)?)?;
        }
        if let Some(d) = d {
            sums[at].1[d] = add(sums[at].1[d], mul(hid, slot)?)?;
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
