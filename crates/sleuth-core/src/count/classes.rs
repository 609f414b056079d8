//! Case-file counts split by where a few *watched* cards are, in one pass:
//! the answers to a suggestion (`advice::suggest`) without one count per
//! answer.
//!
//! Where the ordinary count would take the players-outer counter (master
//! decks with many players), that counter splits the deals
//! ([`players::by_class`]): the watched cards stay special until dealt, so
//! every move says who takes them, and a backward pass keeps per state the
//! completions by where they put them; the case file, dealt first, gives
//! each class's case-file counts; also, at a looser gate, where the
//! card-outer DP below cannot pool players as the ordinary count does.
//! Elsewhere, or where it gives up, that DP.
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
//! Wrong accusations stay clauses of the DP here (no subtraction, as in
//! `excluded`). The forced order makes this DP several times the ordinary
//! count on master 10-player states, hence the players-outer split there,
//! and a limit on its states from the caller, who may count the classes
//! one by one instead.

use super::arith::{add, mul, Word};
use super::choice::{choose_order, BaseOrders};
use super::counter::{players_outer_watching, PLAYERS_MAX_MOVES, PLAYERS_RATIO_SYMMETRIC};
use super::dp::{self, Edges, Forward};
use super::plan::{CardClasses, Plan, POOL};
use super::players;
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

/// Per card (by index), the first card in deck order that every consistent
/// deal treats alike: of its category, left unplaced by propagation with
/// the same allowed places, and in no clause (itself where no other is).
/// Swapping two alike cards maps the consistent deals onto themselves (each
/// keeps its category's one case-file card and every hand its size), so
/// the counts by where one of them is give the other's, the two swapped.
pub fn alike_cards(p: &CountProblem) -> Vec<Card> {
    let mut first: Vec<Card> = (0..MAX_CARDS as u8).map(Card).collect();
    let Some(r) = propagate(p) else { return first };
    let in_clause: CardSet = r.clauses.iter().flatten().map(|l| Card(l.card)).collect();
    let free: Vec<Card> = (r.unassigned(p) - in_clause).iter().collect();
    for (i, &c) in free.iter().enumerate() {
        let like = |d: &&Card| {
            p.category_of[d.index()] == p.category_of[c.index()] && r.allowed[d.index()] == r.allowed[c.index()]
        };
        if let Some(&d) = free[..i].iter().find(like) {
            first[c.index()] = first[d.index()];
        }
    }
    first
}

/// The counts of every class of deals, classes numbered by `class_of`,
/// which gets the place of each watched card (in `watched`'s order; place
/// index: players in seat order, then the case file) and returns the class
/// of every deal that puts them there. It is called once per distinct way
/// the DP's paths place them; classes no deal reaches are absent or zero.
/// `None` where this method does not apply (a watched card not in play):
/// count the classes one by one instead.
///
/// Where the card-outer DP by class is taken (see the module docs), it may
/// visit at most `dp_states` states: its forced order can make it a
/// hundred times the ordinary count, where a caller with another way to the
/// same numbers (one count per class) does better to take that.
///
/// # Errors
/// [`CountError`] as for a count; [`CountError::TooManyStates`] also where the
/// card-outer DP would pass `dp_states`.
pub fn case_file_by_class(
    p: &CountProblem,
    watched: CardSet,
    class_of: &mut dyn FnMut(&[u8]) -> usize,
    options: &CountOptions<'_>,
    dp_states: usize,
    buffers: &mut ClassBuffers,
) -> Result<Option<Vec<ClassCounts>>, CountError> {
    if !(watched - p.in_play).is_empty() {
        return Ok(None);
    }
    let Some(r) = propagate(p) else { return Ok(Some(Vec::new())) };
    // The players-outer split at `ratio`; `None` where it gives up or overflows.
    let mut by_players = |ratio| match players_outer(p, &r, watched, class_of, ratio, options) {
        Err(CountError::Overflow) => Ok(None),
        other => other,
    };
    if let Some(counts) = by_players(PLAYERS_RATIO_SYMMETRIC)? {
        return Ok(Some(counts));
    }
    let class = ClassPlan::new(p, &r, watched)?;
    if class.unpooled {
        if let Some(counts) = by_players(UNPOOLED_PLAYERS_RATIO)? {
            return Ok(Some(counts));
        }
    }
    let options = options.max_states(dp_states.min(options.get_max_states()));
    class.counts(class_of, &options, buffers).map(Some)
}

/// The memory the card-outer DP by class keeps from one count to the
/// next: its two layers of class vectors (a layer's states times the
/// classes, tens of megabytes on some master 10-player counts). Fresh
/// vectors that large come straight from the operating system, a page
/// fault per page; a caller making many counts (a ranking's suggestions)
/// passes the same buffers to each.
#[derive(Debug, Default)]
pub struct ClassBuffers {
    narrow: [Vec<u64>; 2],
    wide: [Vec<u128>; 2],
}

/// Where the card-outer DP by class cannot pool players as the ordinary
/// count does (a watched card would move to the pool), the players-outer
/// split is taken where its estimate is at most this multiple of the
/// pooled orders' estimate (the ordinary gate's is
/// [`PLAYERS_RATIO_SYMMETRIC`]). Measured on the answer classes of 400
/// master 10-player advice states: the unpooled DP visits up to a hundred
/// times the pooled count's states, and the players-outer split was
/// faster on nearly every such count up to this ratio (2 to 10 times on
/// most), slower past it on some (2 to 6 times).
const UNPOOLED_PLAYERS_RATIO: f64 = 100.0;

/// The counts by class by the card-outer DP, the watched cards first (the
/// tests' reference for the players-outer split).
#[cfg(test)]
pub(super) fn card_outer(
    p: &CountProblem,
    r: &Reduced,
    watched: CardSet,
    class_of: &mut dyn FnMut(&[u8]) -> usize,
    options: &CountOptions<'_>,
) -> Result<Vec<ClassCounts>, CountError> {
    ClassPlan::new(p, r, watched)?.counts(class_of, options, &mut ClassBuffers::default())
}

/// The card-outer DP's plan for a count by class: the watched DP cards
/// first.
struct ClassPlan<'a> {
    p: &'a CountProblem,
    r: &'a Reduced,
    watched: CardSet,
    cards: CardClasses,
    order: Vec<u8>,
    forced: usize,
    plan: Plan,
    /// Whether the ordinary count would pool players and this plan does
    /// not: a watched card would move to the pool.
    unpooled: bool,
}

impl<'a> ClassPlan<'a> {
    fn new(p: &'a CountProblem, r: &'a Reduced, watched: CardSet) -> Result<ClassPlan<'a>, CountError> {
        let mut cards = CardClasses::new(p, r);
        // Tail cards are not placed by the DP: the watched ones must be.
        let forced: Vec<u8> = unfixed(r, watched).iter().map(|c| c.0).collect();
        for &c in &forced {
            cards.tail.remove(Card(c));
            cards.dp.insert(Card(c));
        }
        let (chosen, symmetric) = choose_order(p, r, &cards);
        let order: Vec<u8> = forced.iter().copied().chain(chosen.into_iter().filter(|c| !forced.contains(c))).collect();
        let (plan, unpooled) = match symmetric {
            true => match Plan::new_symmetric(p, r, &cards, order.clone()) {
                Ok(plan) if watched_stay_apart(&plan, forced.len()) => (plan, false),
                Ok(_) | Err(CountError::Overflow) => (Plan::new(p, r, &cards, order.clone())?, true),
                Err(e) => return Err(e),
            },
            false => (Plan::new(p, r, &cards, order.clone())?, false),
        };
        Ok(ClassPlan { p, r, watched, cards, order, forced: forced.len(), plan, unpooled })
    }

    fn counts(
        &self,
        class_of: &mut dyn FnMut(&[u8]) -> usize,
        options: &CountOptions<'_>,
        buffers: &mut ClassBuffers,
    ) -> Result<Vec<ClassCounts>, CountError> {
        let run = Run { p: self.p, r: self.r, plan: &self.plan, watched: self.watched, forced: self.forced };
        match run.counts(class_of, options, buffers) {
            Err(CountError::Overflow) if self.plan.scale > 1 => {
                let unpooled = Plan::new(self.p, self.r, &self.cards, self.order.clone())?;
                Run { plan: &unpooled, ..run }.counts(class_of, options, buffers)
            }
            other => other,
        }
    }
}

/// The counts by class by the players-outer counter ([`players::by_class`]),
/// where the ordinary count would take that counter; `None` elsewhere or
/// where it gives up.
fn players_outer(
    p: &CountProblem,
    r: &Reduced,
    watched: CardSet,
    class_of: &mut dyn FnMut(&[u8]) -> usize,
    symmetric_ratio: f64,
    options: &CountOptions<'_>,
) -> Result<Option<Vec<ClassCounts>>, CountError> {
    let cards = CardClasses::new(p, r);
    let base = BaseOrders::if_symmetric(p, r, &cards);
    // The ordinary count's gate, at `symmetric_ratio` where the card-outer
    // DP pools players. Where the class DP pools them too, this counter
    // with a looser gate lost: on master 10-player advice it took as many
    // or more instructions (up to 4.6 times) than the card-outer DP.
    let free = unfixed(r, watched).0;
    let Some(pp) = players_outer_watching(p, r, &cards, base.as_ref(), free, symmetric_ratio) else { return Ok(None) };
    players_outer_with(p, r, &pp, watched, class_of, PLAYERS_MAX_MOVES, options.get_max_states())
}

/// [`players_outer`] on `pp`, prepared watching the `watched` cards not
/// fixed by propagation, within `max_moves` moves and `max_states` states.
pub(super) fn players_outer_with(
    p: &CountProblem,
    r: &Reduced,
    pp: &players::Prepared,
    watched: CardSet,
    class_of: &mut dyn FnMut(&[u8]) -> usize,
    max_moves: usize,
    max_states: usize,
) -> Result<Option<Vec<ClassCounts>>, CountError> {
    let free: Vec<usize> = unfixed(r, watched).iter().map(|c| c.index()).collect();
    // The watched cards' places: fixed ones now, the counter's per class.
    let all: Vec<Card> = watched.iter().collect();
    let mut places: Vec<u8> = all.iter().map(|c| r.assigned[c.index()]).collect();
    let at: Vec<usize> = free.iter().map(|&c| all.iter().position(|w| w.index() == c).expect("watched")).collect();
    let mut of_free = |free_places: &[u8]| {
        for (&k, &q) in at.iter().zip(free_places) {
            places[k] = q;
        }
        class_of(&places)
    };
    let Some(classes) = players::by_class(pp, &free, &mut of_free, max_moves, max_states)? else {
        return Ok(None);
    };
    Ok(Some(
        classes
            .into_iter()
            .map(|(total, case_file)| {
                let mut class = ClassCounts { total, case_file };
                fix_propagated(p, r, &mut class);
                class
            })
            .collect(),
    ))
}

/// The `watched` cards propagation left unplaced: those a counter deals.
pub(super) fn unfixed(r: &Reduced, watched: CardSet) -> CardSet {
    watched.iter().filter(|c| r.assigned[c.index()] == NONE).collect()
}

/// The cards propagation put in the case file are there in every deal of
/// a class with deals.
fn fix_propagated(p: &CountProblem, r: &Reduced, class: &mut ClassCounts) {
    if class.total > 0 {
        for c in p.in_play {
            if usize::from(r.assigned[c.index()]) == p.np {
                class.case_file[c.index()] = class.total;
            }
        }
    }
}

/// `v` as `len` zeros, its memory kept.
fn zero<W: Word>(v: &mut Vec<W>, len: usize) -> Result<(), CountError> {
    v.clear();
    dp::reserve(v, len)?;
    v.resize(len, W::ZERO);
    Ok(())
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
    /// The counts by class: the forward pass, the backward pass (on `u64`
    /// where the total fits), then the sweep of the class vectors.
    fn counts(
        &self,
        class_of: &mut dyn FnMut(&[u8]) -> usize,
        options: &CountOptions<'_>,
        buffers: &mut ClassBuffers,
    ) -> Result<Vec<ClassCounts>, CountError> {
        let fwd = dp::forward(self.plan, true, options)?;
        let mut scratch = vec![[0u128; MAX_PLACES]; MAX_CARDS];
        match dp::backward_kept_u64(self.plan, &fwd, &mut scratch)? {
            // A class vector may not fit where the forward counts did not.
            Some((_, back)) => match self.sweep::<u64>(&fwd, &back, class_of, &mut buffers.narrow) {
                Err(CountError::Overflow) => {
                    let back: Vec<Vec<u128>> =
                        back.iter().map(|l| l.iter().map(|&b| u128::from(b)).collect()).collect();
                    self.sweep::<u128>(&fwd, &back, class_of, &mut buffers.wide)
                }
                other => other,
            },
            None => {
                let (_, back) = dp::backward(self.plan, &fwd, &mut scratch, true)?;
                self.sweep::<u128>(&fwd, &back, class_of, &mut buffers.wide)
            }
        }
    }

    /// The class vectors from layer to layer on `W` (`back`, the backward
    /// counts, fit on it; so do the vectors, as a state's classes split its
    /// forward count, unless that count did not fit: then an overflow),
    /// adding up each class's deals with a card in the case file. The two
    /// layers' vectors live in `buffers`.
    fn sweep<W: Word>(
        &self,
        fwd: &Forward,
        back: &[Vec<W>],
        class_of: &mut dyn FnMut(&[u8]) -> usize,
        buffers: &mut [Vec<W>; 2],
    ) -> Result<Vec<ClassCounts>, CountError> {
        let (plan, np) = (self.plan, self.p.np);
        let cf = np as u8;
        // The watched cards' places: fixed ones now, the DP's per path.
        let watched: Vec<Card> = self.watched.iter().collect();
        let mut places: Vec<u8> = watched.iter().map(|c| self.r.assigned[c.index()]).collect();
        let slot: Vec<usize> = (0..self.forced)
            .map(|k| watched.iter().position(|c| c.0 == plan.steps[k].card).expect("forced cards are watched"))
            .collect();
        // Every path through the first `forced` steps: its class, the
        // state it reaches and its weight.
        let mut paths = Vec::new();
        walk(plan, fwd, 0, 0, 1, &slot, &mut places, &mut |places, state, w| {
            paths.push((class_of(places), state, w, places.to_vec()));
        })?;
        let k = paths.iter().map(|x| x.0 + 1).max().unwrap_or(0);
        // `case_file[class * MAX_CARDS + card]`.
        let mut case_file = vec![W::ZERO; k * MAX_CARDS];
        let m = self.forced;
        let [cur, next] = buffers;
        zero(cur, fwd.layers[m].counts.len() * k)?;
        for (a, state, w, places) in &paths {
            let (at, w) = (state * k + a, W::checked_of(*w)?);
            cur[at] = cur[at].add_checked(w)?;
            // The watched DP cards the path puts in the case file.
            let completions = w.mul_checked(back[m][*state])?;
            for &s in &slot {
                if places[s] == cf {
                    let c = &mut case_file[a * MAX_CARDS + watched[s].index()];
                    *c = c.add_checked(completions)?;
                }
            }
        }
        // The other DP cards: the vectors, layer by layer.
        for (t, step) in plan.steps.iter().enumerate().skip(m) {
            let layer = &fwd.layers[t];
            zero(next, fwd.layers[t + 1].counts.len() * k)?;
            // A state's class vector splits its forward count (the paths'
            // classes partition its paths, along the forward pass's edges
            // and weights): where the next layer's forward counts fit on
            // `W`, no entry or partial sum there can overflow, and plain
            // adds do (a debug build still checks them). Where they do not,
            // the caller sweeps again on u128.
            if !W::holds(&fwd.layers[t + 1].counts) {
                return Err(CountError::Overflow);
            }
            for (i, f) in cur.chunks_exact(k).enumerate() {
                if f.iter().all(|&x| x == W::ZERO) {
                    continue;
                }
                for &e in fwd.succ[t].slice(i) {
                    let (mv, j) = Edges::unpack(e);
                    let to = &mut next[j * k..(j + 1) * k];
                    let w = if step.weighted {
                        let (slots, joins) = plan.weight(step, layer.keys.get(i), mv);
                        W::checked_of(mul(slots, joins)?)?
                    } else {
                        W::of(1)
                    };
                    if w == W::of(1) {
                        for (x, &y) in to.iter_mut().zip(f) {
                            *x += y;
                        }
                    } else {
                        for (x, &y) in to.iter_mut().zip(f) {
                            *x += y * w;
                        }
                    }
                    let b = back[t + 1][j];
                    if step.moves[mv].place == cf && b != W::ZERO {
                        let b = w.mul_checked(b)?;
                        for (a, &y) in f.iter().enumerate() {
                            let c = &mut case_file[a * MAX_CARDS + step.card as usize];
                            *c = c.add_checked(y.mul_checked(b)?)?;
                        }
                    }
                }
            }
            std::mem::swap(cur, next);
        }
        let out = (0..k)
            .map(|a| ClassCounts {
                total: 0,
                case_file: case_file[a * MAX_CARDS..(a + 1) * MAX_CARDS].iter().map(|c| c.wide()).collect(),
            })
            .collect();
        self.finish(fwd, cur, k, out)
    }

    /// The final layer: each class's total and its tail cards in the case
    /// file, the cards propagation put there, and the pool's scale divided
    /// out.
    fn finish<W: Word>(
        &self,
        fwd: &Forward,
        f: &[W],
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
                let fa = f[i * k + a].wide();
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
            fix_propagated(self.p, self.r, class);
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
