//! Case-file counts split by where a few *watched* cards are, in one pass:
//! the answers to a suggestion (`advice::suggest`) without one count per
//! answer.
//!
//! The watched cards are placed first in the DP's order. A path's first
//! steps fix where they go, so its class (any function of their places)
//! is known at the layer after them, and from there every state carries a
//! vector of forward counts `F_A`, one per class `A` (a path's class never
//! changes). The deals of class `A` with card `x` in the case file are then
//! `Σ F_A(s) × w × B(s')` over the edges `s → s'` that put `x` there, `w`
//! the edge's weight and `B` the ordinary backward count, shared by every
//! class: one forward pass, one backward pass and one sweep of vectors
//! replace one count per class. The tail, the cards fixed by propagation
//! and the pool's scale are handled as in the ordinary count.
//!
//! Pooled players (`sym`) lose their identity, so a watched card must not
//! move to the pool: where the pooled plan would, the plan is unpooled.

use super::arith::{add, mul};
use super::choice::choose_order;
use super::dp::{self, Edges, Forward};
use super::plan::{CardClasses, Plan, POOL};
use super::{CountError, CountOptions};
use crate::deduce::{propagate, CountProblem, Reduced, NONE};
use crate::model::{Card, CardSet, MAX_CARDS, MAX_PLACES};

/// The deals of one class: how many, and per card how many put it in the
/// case file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassCounts {
    /// The number of consistent deals of the class.
    pub total: u128,
    /// `case_file[card]`: the deals of the class with the card in the case
    /// file.
    pub case_file: Vec<u128>,
}

/// The counts of every class of deals, classes numbered by `class_of`,
/// which gets the place of each watched card (in `watched`'s order; place
/// index: players in seat order, then the case file) and returns the class
/// of every deal that puts them there. It is called once per distinct way
/// the DP's paths place them; classes no deal reaches are absent or zero.
/// `None` where this method does not apply (a watched card not in play):
/// count the classes one by one instead.
///
/// # Errors
/// [`CountError`] as for a count.
pub fn case_file_by_class(
    p: &CountProblem,
    watched: CardSet,
    class_of: &mut dyn FnMut(&[u8]) -> usize,
    options: &CountOptions<'_>,
) -> Result<Option<Vec<ClassCounts>>, CountError> {
    if !(watched - p.in_play).is_empty() {
        return Ok(None);
    }
    let Some(r) = propagate(p) else { return Ok(Some(Vec::new())) };
    let mut cards = CardClasses::new(p, &r);
    // Tail cards are not placed by the DP: the watched ones must be.
    let forced: Vec<u8> = watched.iter().filter(|&c| r.assigned[c.index()] == NONE).map(|c| c.0).collect();
    for &c in &forced {
        cards.tail.remove(Card(c));
        cards.dp.insert(Card(c));
    }
    let (chosen, symmetric) = choose_order(p, &r, &cards);
    let order: Vec<u8> = forced.iter().copied().chain(chosen.into_iter().filter(|c| !forced.contains(c))).collect();
    let unpooled = || Plan::new(p, &r, &cards, order.clone());
    let plan = match symmetric {
        true => match Plan::new_symmetric(p, &r, &cards, order.clone()) {
            Ok(plan) if watched_stay_apart(&plan, forced.len()) => plan,
            Ok(_) | Err(CountError::Overflow) => unpooled()?,
            Err(e) => return Err(e),
        },
        false => unpooled()?,
    };
    let run = Run { p, r: &r, plan: &plan, watched, forced: forced.len() };
    match run.counts(class_of, options) {
        Err(CountError::Overflow) if plan.scale > 1 => {
            Run { plan: &unpooled()?, ..run }.counts(class_of, options).map(Some)
        }
        other => other.map(Some),
    }
}

/// Whether no watched card moves to the pool in a plan whose first
/// `forced` steps place them.
fn watched_stay_apart(plan: &Plan, forced: usize) -> bool {
    plan.steps[..forced].iter().all(|s| s.moves.iter().all(|m| m.place != POOL))
}

/// One count by class: the problem, its propagation, the plan (the watched
/// DP cards first: `forced` steps).
#[derive(Clone, Copy)]
struct Run<'a> {
    p: &'a CountProblem,
    r: &'a Reduced,
    plan: &'a Plan,
    watched: CardSet,
    forced: usize,
}

impl Run<'_> {
    fn counts(
        &self,
        class_of: &mut dyn FnMut(&[u8]) -> usize,
        options: &CountOptions<'_>,
    ) -> Result<Vec<ClassCounts>, CountError> {
        let (plan, np) = (self.plan, self.p.np);
        let cf = np as u8;
        let fwd = dp::forward(plan, true, options)?;
        let mut scratch = vec![[0u128; MAX_PLACES]; MAX_CARDS];
        let (_, back) = dp::backward(plan, &fwd, &mut scratch, true)?;
        // The watched cards' places: fixed ones now, the DP's per path.
        let watched: Vec<Card> = self.watched.iter().collect();
        let mut places: Vec<u8> = watched.iter().map(|c| self.r.assigned[c.index()]).collect();
        let slot: Vec<usize> = (0..self.forced)
            .map(|k| watched.iter().position(|c| c.0 == plan.steps[k].card).expect("forced cards are watched"))
            .collect();
        // Every path through the first `forced` steps: its class, the
        // state it reaches and its weight.
        let mut paths = Vec::new();
        walk(plan, &fwd, 0, 0, 1, &slot, &mut places, &mut |places, state, w| {
            paths.push((class_of(places), state, w, places.to_vec()));
        })?;
        let k = paths.iter().map(|x| x.0 + 1).max().unwrap_or(0);
        let mut out = vec![ClassCounts { total: 0, case_file: vec![0; MAX_CARDS] }; k];
        let m = self.forced;
        let mut cur = vec![0u128; fwd.layers[m].counts.len() * k];
        for (a, state, w, places) in &paths {
            let at = state * k + a;
            cur[at] = add(cur[at], *w)?;
            // The watched DP cards the path puts in the case file.
            let completions = mul(*w, back[m][*state])?;
            for &s in &slot {
                if places[s] == cf {
                    let c = watched[s].index();
                    out[*a].case_file[c] = add(out[*a].case_file[c], completions)?;
                }
            }
        }
        // The other DP cards: the vectors, layer by layer.
        for (t, step) in plan.steps.iter().enumerate().skip(m) {
            let layer = &fwd.layers[t];
            let mut next = dp::zeroed::<u128>(fwd.layers[t + 1].counts.len() * k)?;
            let row = &mut out;
            for i in 0..layer.counts.len() {
                let f = &cur[i * k..(i + 1) * k];
                if f.iter().all(|&x| x == 0) {
                    continue;
                }
                for &e in fwd.succ[t].slice(i) {
                    let (mv, j) = Edges::unpack(e);
                    let w = if step.weighted {
                        let (slots, joins) = plan.weight(step, layer.keys.get(i), mv);
                        mul(slots, joins)?
                    } else {
                        1
                    };
                    let to = &mut next[j * k..(j + 1) * k];
                    for (x, &y) in to.iter_mut().zip(f) {
                        *x = add(*x, mul(y, w)?)?;
                    }
                    if step.moves[mv].place == cf && back[t + 1][j] != 0 {
                        let b = mul(w, back[t + 1][j])?;
                        for (a, &y) in f.iter().enumerate() {
                            let c = &mut row[a].case_file[step.card as usize];
                            *c = add(*c, mul(y, b)?)?;
                        }
                    }
                }
            }
            cur = next;
        }
        self.finish(&fwd, &cur, k, out)
    }

    /// The final layer: each class's total and its tail cards in the case
    /// file, the cards propagation put there, and the pool's scale divided
    /// out.
    fn finish(
        &self,
        fwd: &Forward,
        f: &[u128],
        k: usize,
        mut out: Vec<ClassCounts>,
    ) -> Result<Vec<ClassCounts>, CountError> {
        let (plan, np) = (self.plan, self.p.np);
        let last = fwd.layers.last().expect("a forward pass has a final layer");
        // Per class, the forward-weighted case-file shares by open
        // categories (only the case-file column: see `Plan::tail_marginals`).
        let mut sums: Vec<Vec<(u32, [u128; MAX_PLACES])>> = vec![Vec::new(); k];
        let mut shares = [0u128; MAX_PLACES];
        for (i, key) in last.keys.iter().enumerate() {
            let open = plan.open_of(key);
            plan.player_shares(key, &mut shares)?;
            let ways = plan.ways_from(open, &shares)?;
            if ways == 0 {
                continue;
            }
            for (a, sums) in sums.iter_mut().enumerate() {
                let fa = f[i * k + a];
                if fa == 0 {
                    continue;
                }
                out[a].total = add(out[a].total, mul(fa, ways)?)?;
                let at = match sums.iter().position(|s| s.0 == open) {
                    Some(at) => at,
                    None => {
                        sums.push((open, [0; MAX_PLACES]));
                        sums.len() - 1
                    }
                };
                sums[at].1[np] = add(sums[at].1[np], mul(fa, shares[np])?)?;
            }
        }
        for (class, sums) in out.iter_mut().zip(&sums) {
            for (tail, m) in plan.tail.iter().zip(plan.tail_marginals(sums)?) {
                for &c in &tail.cards {
                    class.case_file[c as usize] = m[np];
                }
            }
            debug_assert!(class.total % plan.scale == 0);
            class.total /= plan.scale;
            for c in class.case_file.iter_mut() {
                debug_assert!(*c % plan.scale == 0);
                *c /= plan.scale;
            }
            if class.total > 0 {
                for c in self.p.in_play {
                    if usize::from(self.r.assigned[c.index()]) == np {
                        class.case_file[c.index()] = class.total;
                    }
                }
            }
        }
        Ok(out)
    }
}

/// Every path from state `state` of layer `t` through the first
/// `slot.len()` steps (which place the watched cards at `slot`), with the
/// weight `w` so far: `visit(places, state reached, weight)`.
#[allow(clippy::too_many_arguments)]
fn walk(
    plan: &Plan,
    fwd: &Forward,
    t: usize,
    state: usize,
    w: u128,
    slot: &[usize],
    places: &mut Vec<u8>,
    visit: &mut dyn FnMut(&[u8], usize, u128),
) -> Result<(), CountError> {
    if t == slot.len() {
        visit(places, state, w);
        return Ok(());
    }
    let step = &plan.steps[t];
    for (mv, j) in fwd.succ[t].of(state) {
        let w = if step.weighted {
            let (slots, joins) = plan.weight(step, fwd.layers[t].keys.get(state), mv);
            mul(w, mul(slots, joins)?)?
        } else {
            w
        };
        places[slot[t]] = step.moves[mv].place;
        walk(plan, fwd, t + 1, j, w, slot, places, visit)?;
    }
    Ok(())
}
