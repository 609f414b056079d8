//! The forward and backward passes of the dynamic program.

use super::arith::{add, mul, Column, Word};
use super::plan::{Allowed, Key, Plan, Step, POOL};
use super::{CountError, CountOptions};
use crate::model::MAX_PLACES;
use rustc_hash::FxHashMap;

/// One layer of states: keys and their forward counts, by index. Once the
/// next layer is built, a kept layer drops its keys (see [`forward`]).
pub(super) struct Layer {
    pub keys: Column,
    /// On `u64` where the pass summed them there.
    pub counts: Column,
}

/// A step's edges, state by state: the possible moves of each state of the
/// layer before the step, in move order, each with the state it leads to.
/// Only possible moves are kept (on 20-suggestion states a state has two
/// or three of its nine or more), so the passes that follow never test an
/// impossible one.
#[derive(Default)]
pub(super) struct Edges {
    /// State `i`'s edges are at `start[i]..start[i + 1]`.
    start: Vec<u32>,
    /// Per edge, packed in one word ([`Edges::unpack`]): the index of the
    /// state it leads to, and above it the move's index among the step's
    /// moves (one array instead of two: 17 fewer page faults per process
    /// on master 4 bystander 20 seed 0).
    edge: Vec<u32>,
}

/// Where an edge's move index starts in its word: a step has at most one
/// move per place, and a layer at most the states left under the state
/// limit (at most `MAX_STATE_LIMIT`) plus what one chunk of
/// [`ROOM_CHECK_EVERY`] states adds (at most `MAX_PLACES` each) before
/// [`next_layer`] tests its room again.
const MOVE_SHIFT: u32 = 28;
const _: () = assert!(
    MAX_PLACES < 1 << (32 - MOVE_SHIFT)
        && super::MAX_STATES <= super::MAX_STATE_LIMIT
        && super::MAX_STATE_LIMIT + ROOM_CHECK_EVERY * MAX_PLACES < 1 << MOVE_SHIFT
);

impl Edges {
    /// Where state `i`'s edges are.
    #[inline]
    fn range(&self, i: usize) -> std::ops::Range<usize> {
        self.start[i] as usize..self.start[i + 1] as usize
    }

    /// An edge's move index and next state.
    #[inline]
    pub fn unpack(edge: u32) -> (usize, usize) {
        ((edge >> MOVE_SHIFT) as usize, (edge & ((1 << MOVE_SHIFT) - 1)) as usize)
    }

    /// Adds an edge of the last state started: move `m` to state `j`.
    #[inline]
    fn push(&mut self, m: usize, j: u32) {
        debug_assert!(m < 1 << (32 - MOVE_SHIFT) && j < 1 << MOVE_SHIFT);
        self.edge.push((m as u32) << MOVE_SHIFT | j);
    }

    /// State `i`'s edges, packed ([`Edges::unpack`]), in move order.
    #[inline]
    pub fn slice(&self, i: usize) -> &[u32] {
        &self.edge[self.range(i)]
    }

    /// State `i`'s edges: the move's index and the next state's.
    #[inline]
    pub fn of(&self, i: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.slice(i).iter().map(|&e| Edges::unpack(e))
    }

    /// State `i`'s successor by move `m`, if the move is possible.
    #[inline]
    pub fn by(&self, i: usize, m: usize) -> Option<usize> {
        self.of(i).find(|&(x, _)| x == m).map(|(_, j)| j)
    }
}

/// A completed forward pass.
pub(super) struct Forward {
    /// Layers `0..=steps`; the last is the DP's final layer.
    pub layers: Vec<Layer>,
    /// Per step, when kept: its edges.
    pub succ: Vec<Edges>,
    /// The number of states visited.
    pub states: usize,
    /// Per layer, when asked for: each state's placed open categories
    /// (see [`Plan::placed_field`]), which the case-file sweep reads; the
    /// first eight categories' bits.
    pub placed: Vec<Vec<u8>>,
    /// The next eight categories' bits, as `placed`, on plans with more
    /// than eight open categories (empty otherwise: a second byte per
    /// state would cost every other analysis memory).
    pub placed_high: Vec<Vec<u8>>,
}

/// Runs the forward pass. With `keep`, every layer and its edges are
/// kept for the backward pass; without, only the final layer.
pub(super) fn forward(plan: &Plan, keep: bool, options: &CountOptions<'_>) -> Result<Forward, CountError> {
    finished(forward_from(plan, keep, None, None, usize::MAX, options)?)
}

/// [`forward`] keeping everything and every layer's placed categories
/// (the case-file sweep reads them), where the plan's keys hold them side
/// by side. Kept keys cost 8 bytes per state, the placed categories one
/// (38 fewer page faults per process on master 4 bystander 20 seed 0).
pub(super) fn forward_with_placed(plan: &Plan, options: &CountOptions<'_>) -> Result<Forward, CountError> {
    finished(forward_from(plan, true, plan.placed_field(), None, usize::MAX, options)?)
}

/// A forward pass keeping everything (and with `placed` the placed
/// categories, as [`forward_with_placed`]) that pauses at the end of the
/// first step past `budget` states: a trial of the card-outer DP that
/// [`resume`] finishes.
pub(super) fn forward_within(
    plan: &Plan,
    placed: bool,
    budget: usize,
    options: &CountOptions<'_>,
) -> Result<Budgeted, CountError> {
    forward_from(plan, true, placed_if(plan, placed), None, budget, options)
}

/// Finishes a paused pass of [`forward_within`] (`placed` as there).
pub(super) fn resume(
    plan: &Plan,
    placed: bool,
    paused: Paused,
    options: &CountOptions<'_>,
) -> Result<Forward, CountError> {
    finished(forward_from(plan, true, placed_if(plan, placed), Some(paused), usize::MAX, options)?)
}

/// The plan's placed-categories field where `placed` asks for it.
fn placed_if(plan: &Plan, placed: bool) -> Option<(u32, u128)> {
    if placed {
        plan.placed_field()
    } else {
        None
    }
}

/// A forward pass within a state budget: finished, or paused.
pub(super) enum Budgeted {
    Done(Forward),
    Paused(Paused),
}

/// A forward pass paused after its first `done` steps (its last layer's
/// counts say at which width it goes on).
pub(super) struct Paused {
    fwd: Box<Forward>,
    done: usize,
}

impl Paused {
    /// The states the whole pass would visit if each step left to take
    /// (of `steps`) kept as many states as the last layer: the trial's
    /// guess of where the pass is heading.
    pub(super) fn projected(&self, steps: usize) -> usize {
        let last = self.fwd.layers.last().map_or(0, |l| l.counts.len());
        self.fwd.states.saturating_add(last.saturating_mul(steps.saturating_sub(self.done)))
    }
}

/// The pass of a run without a budget.
fn finished(run: Budgeted) -> Result<Forward, CountError> {
    match run {
        Budgeted::Done(fwd) => Ok(fwd),
        Budgeted::Paused(_) => unreachable!("a pass without a budget does not pause"),
    }
}

fn forward_from(
    plan: &Plan,
    keep: bool,
    placed: Option<(u32, u128)>,
    from: Option<Paused>,
    budget: usize,
    options: &CountOptions<'_>,
) -> Result<Budgeted, CountError> {
    // Hashing and bit operations on a u64 are cheaper than on a u128; most
    // keys fit.
    match plan.key_bits <= 64 {
        true => forward_counted::<u64>(plan, keep, placed, from, budget, options),
        false => forward_counted::<u128>(plan, keep, placed, from, budget, options),
    }
}

/// The forward pass with keys on `K`, its counts summed and stored on
/// `u64` as long as they fit, checked, and on `u128` from the step where
/// one does not. On pooled plans too, whose weights bound nothing useful,
/// they nearly always fit (master 10 bystander 20 seed 505: 53 bits at
/// most): half the width is half the counts' memory to touch (250 fewer
/// page faults on seed 505). A step that overflows is redone on `u128`
/// from the layer before it, which is widened; the layers before stay
/// narrow (the other passes read each layer at its own width). From the
/// start, or from where `from` paused.
fn forward_counted<K: Key>(
    plan: &Plan,
    keep: bool,
    placed: Option<(u32, u128)>,
    from: Option<Paused>,
    budget: usize,
    options: &CountOptions<'_>,
) -> Result<Budgeted, CountError> {
    let Paused { mut fwd, mut done } =
        from.unwrap_or_else(|| Paused { fwd: Box::new(start::<K, u64>(plan, placed)), done: 0 });
    let wide = matches!(fwd.layers.last().expect("layers start non-empty").counts, Column::Wide(_));
    if !wide {
        match forward_keyed::<K, u64>(plan, keep, placed, *fwd, done, budget, options) {
            Err(Stopped { why: Halt::Error(CountError::Overflow), mut partial, done: at }) => {
                let last = partial.layers.last_mut().expect("layers start non-empty");
                last.counts = Column::Wide(last.counts.iter().collect());
                (fwd, done) = (partial, at);
            }
            other => return budgeted(other),
        }
    }
    budgeted(forward_keyed::<K, u128>(plan, keep, placed, *fwd, done, budget, options))
}

/// A pass that ended or stopped at its budget; an error otherwise.
fn budgeted(run: Result<Forward, Stopped>) -> Result<Budgeted, CountError> {
    match run {
        Ok(fwd) => Ok(Budgeted::Done(fwd)),
        Err(Stopped { why: Halt::Budget, partial, done }) => Ok(Budgeted::Paused(Paused { fwd: partial, done })),
        Err(Stopped { why: Halt::Error(error), .. }) => Err(error),
    }
}

/// A forward pass before its first step: the initial state, counted once
/// on `C`.
fn start<K: Key, C: Word>(plan: &Plan, placed: Option<(u32, u128)>) -> Forward {
    let first = |field| vec![placed_of(&[K::narrow(plan.init)], field)];
    Forward {
        layers: vec![Layer { keys: K::store(vec![K::narrow(plan.init)]), counts: C::store(vec![C::of(1)]) }],
        succ: Vec::new(),
        states: 1,
        placed: placed.map_or(Vec::new(), first),
        placed_high: placed.and_then(high_field).map_or(Vec::new(), first),
    }
}

/// Eight of each key's placed open categories, read from their field
/// (`placed` of [`forward_with`]: shift and mask; see [`high_field`]).
fn placed_of<K: Key>(keys: &[K], (off, mask): (u32, u128)) -> Vec<u8> {
    keys.iter().map(|&key| ((key >> off).low() & mask as usize) as u8).collect()
}

/// The field of the placed categories past the first eight, if any.
fn high_field((off, mask): (u32, u128)) -> Option<(u32, u128)> {
    (mask >> 8 != 0).then_some((off + 8, mask >> 8))
}

/// [`forward_with_placed`] with every count on `u128` from the start: the
/// reference of the test of the widening.
#[cfg(test)]
pub(super) fn forward_wide(plan: &Plan) -> Result<Forward, CountError> {
    let (placed, o) = (plan.placed_field(), &CountOptions::default());
    let wide = match plan.key_bits <= 64 {
        true => forward_keyed::<u64, u128>(plan, true, placed, start::<u64, u128>(plan, placed), 0, usize::MAX, o),
        false => forward_keyed::<u128, u128>(plan, true, placed, start::<u128, u128>(plan, placed), 0, usize::MAX, o),
    };
    wide.map_err(|stopped| match stopped.why {
        Halt::Error(error) => error,
        Halt::Budget => unreachable!("no budget"),
    })
}

/// Why a forward pass stopped, with what it had built: the pass after the
/// first `done` steps.
struct Stopped {
    why: Halt,
    partial: Box<Forward>,
    done: usize,
}

/// Why a forward pass stopped before its last step.
enum Halt {
    /// Past its state budget ([`forward_within`]).
    Budget,
    Error(CountError),
}

/// The forward pass with keys on `K` and counts summed and stored on `C`
/// (the other passes read them widened, [`Column::get`]), from `fwd`, the
/// pass after the first `done` steps, whose last layer holds its counts on
/// `C`; it stops after the first step past `budget` states visited, and
/// with an error within the layer that would take it past the state limit.
fn forward_keyed<K: Key, C: Word>(
    plan: &Plan,
    keep: bool,
    placed: Option<(u32, u128)>,
    fwd: Forward,
    done: usize,
    budget: usize,
    options: &CountOptions<'_>,
) -> Result<Forward, Stopped> {
    // A kept layer keeps its keys only where a later pass reads them: the
    // weights and the free players' marginals of a symmetric plan.
    let keys = plan.is_symmetric();
    let Forward { mut layers, mut succ, mut states, placed: mut placed_layers, mut placed_high } = fwd;
    let mut index: FxHashMap<K, u32> = FxHashMap::default();
    for (t, step) in plan.steps.iter().enumerate().skip(done) {
        let cur = layers.last().expect("layers start non-empty");
        // The layer stops as soon as it would take the pass past the limit.
        let limit = options.get_max_states();
        let room = limit.saturating_sub(states);
        let next = next_layer::<K, C>(plan, step, cur, keep, std::mem::take(&mut index), room, limit);
        let (mut next_keys, mut next_counts, table) = match next {
            Ok(built) => {
                index = built.index;
                (built.keys, built.counts, built.edges)
            }
            Err(error) => {
                let partial = Box::new(Forward { layers, succ, states, placed: placed_layers, placed_high });
                return Err(Stopped { why: Halt::Error(error), partial, done: t });
            }
        };
        states += next_keys.len();
        options.report(states);
        if let Some(field) = placed {
            placed_layers.push(placed_of(&next_keys, field));
            if let Some(high) = high_field(field) {
                placed_high.push(placed_of(&next_keys, high));
            }
        }
        // Kept layers give back their spare room; keys only where they are
        // kept (a symmetric plan's), the others are dropped after the next
        // step.
        if keep {
            if keys {
                next_keys.shrink_to_fit();
            }
            // The edges now link the layers; only the last
            // layer's keys are read again (by the tail), and every layer's
            // by the free players' marginals of a symmetric plan.
            succ.push(table);
            if !keys {
                let done = layers.last_mut().expect("layers start non-empty");
                done.keys = K::store(Vec::new());
            }
            next_counts.shrink_to_fit();
        } else {
            layers.clear();
        }
        layers.push(Layer { keys: K::store(next_keys), counts: C::store(next_counts) });
        if states > budget && t + 1 < plan.steps.len() {
            let partial = Box::new(Forward { layers, succ, states, placed: placed_layers, placed_high });
            return Err(Stopped { why: Halt::Budget, partial, done: t + 1 });
        }
    }
    Ok(Forward { layers, succ, states, placed: placed_layers, placed_high })
}

/// The layer one step builds, the step's edges, and the index given back.
struct Built<K, C> {
    keys: Vec<K>,
    counts: Vec<C>,
    edges: Edges,
    index: FxHashMap<K, u32>,
}

/// How many states of a layer [`next_layer`] takes between tests of its
/// room: a layer overshoots by at most this many states' moves.
const ROOM_CHECK_EVERY: usize = 4096;

/// One step of the forward pass: the next layer's keys and counts, with
/// `keep` the step's edges, and the index, taken and given back by value
/// (its memory serves every layer); an error past `room` states (the
/// limit, `limit`, less the states before), or where memory runs out.
/// Inlined, and the index a local: a reference to the caller's, or a
/// call, cost 2-3 % more instructions.
#[inline(always)]
fn next_layer<K: Key, C: Word>(
    plan: &Plan,
    step: &Step,
    cur: &Layer,
    keep: bool,
    mut index: FxHashMap<K, u32>,
    room: usize,
    limit: usize,
) -> Result<Built<K, C>, CountError> {
    let (cur_keys, cur_counts) = (K::stored(&cur.keys), C::stored(&cur.counts));
    let (mut next_keys, mut next_counts): (Vec<K>, Vec<C>) = (Vec::new(), Vec::new());
    let width = step.moves.len();
    let mut table = Edges::default();
    // Room for about three edges per state, as on 20-suggestion states.
    if keep {
        reserve(&mut table.start, cur.keys.len() + 1)?;
        reserve(&mut table.edge, cur.keys.len() * 3)?;
    }
    index.clear();
    reserve(&mut next_keys, cur_keys.len() * 2)?;
    reserve(&mut next_counts, cur_keys.len() * 2)?;
    // Demand checks a move cannot change are run once per state: a
    // move is tried only if the state passes the checks it leaves alone.
    let deps = Plan::demand_deps(step);
    let every = ((1u64 << step.demand.len()) - 1) as u32;
    // A check the step before also ran holds on every state here, and on
    // a successor unless the move changes its bits.
    let shared = deps.iter().fold(0, |m, &d| m | !d) & every & step.fresh;
    // Past `room` states the pass would exceed the limit: it stops there,
    // not at the layer's end (a last layer of millions of states took
    // seconds and gigabytes more). Tested once per chunk of states: a test
    // per state or per edge was 1-2 % more instructions in every count.
    for (chunk, chunk_counts) in cur_keys.chunks(ROOM_CHECK_EVERY).zip(cur_counts.chunks(ROOM_CHECK_EVERY)) {
        if next_keys.len() > room {
            return Err(too_many_states(limit));
        }
        for (&key, &f) in chunk.iter().zip(chunk_counts) {
            // Every table grows here, fallibly, by what the state's moves
            // can add, so that no push or insertion below allocates: a
            // failed allocation is a refusal, not an abort.
            if spare(&next_keys) < width
                || spare(&next_counts) < width
                || index.capacity() - index.len() < width
                || (keep && spare(&table.edge) < width)
            {
                grow(&mut next_keys, &mut next_counts, &mut index, &mut table.edge, width)?;
            }
            // At most MAX_STATE_LIMIT × moves edges per layer: the offsets fit.
            if keep {
                table.start.push(table.edge.len() as u32);
            }
            let (moves, all) = match Plan::allowed(step, key) {
                Allowed::Dead => continue,
                Allowed::Only(m) => (m..m + 1, false),
                Allowed::All => (0..width, true),
            };
            // Under `Only` the one move checks everything on its successor.
            let fail = if all { Plan::failing(step, key, shared) } else { 0 };
            for m in moves {
                if fail != 0 && fail & !deps[m] != 0 {
                    continue;
                }
                let Some(nk) = Plan::apply(step, key, &step.moves[m]) else { continue };
                let checks = if all { deps[m] } else { (deps[m] | step.fresh) & every };
                if Plan::failing(step, nk, checks) != 0 {
                    continue;
                }
                let (nk, add_f) = if step.weighted {
                    let (slots, joins) = plan.weight(step, key.wide(), m);
                    (plan.join(step, nk), C::checked_of(mul(f.wide(), mul(slots, joins)?)?)?)
                } else {
                    (nk, f)
                };
                let j = *index.entry(nk).or_insert_with(|| {
                    next_keys.push(nk);
                    next_counts.push(C::ZERO);
                    (next_keys.len() - 1) as u32
                });
                next_counts[j as usize] = next_counts[j as usize].add_checked(add_f)?;
                if keep {
                    table.push(m, j);
                }
            }
        }
    }
    if next_keys.len() > room {
        return Err(too_many_states(limit));
    }
    if keep {
        table.start.push(table.edge.len() as u32);
    }
    Ok(Built { keys: next_keys, counts: next_counts, edges: table, index })
}

/// The error of a pass past the state limit, out of line, off the loop's
/// path.
#[cold]
#[inline(never)]
fn too_many_states(limit: usize) -> CountError {
    CountError::TooManyStates(limit)
}

/// The free room of a vector.
#[inline(always)]
fn spare<T>(v: &Vec<T>) -> usize {
    v.capacity() - v.len()
}

/// Makes room for `more` elements, or [`CountError::OutOfMemory`].
pub(super) fn reserve<T>(v: &mut Vec<T>, more: usize) -> Result<(), CountError> {
    v.try_reserve(more).map_err(|_| CountError::OutOfMemory)
}

/// `n` zeros, or [`CountError::OutOfMemory`].
pub(super) fn zeroed<T: Clone + Default>(n: usize) -> Result<Vec<T>, CountError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| CountError::OutOfMemory)?;
    v.resize(n, T::default());
    Ok(v)
}

/// Makes room in a step's tables for the `width` successors of one more
/// state (each grows as a push would grow it, doubling), out of line.
#[cold]
#[inline(never)]
fn grow<K: Key, C>(
    keys: &mut Vec<K>,
    counts: &mut Vec<C>,
    index: &mut FxHashMap<K, u32>,
    edges: &mut Vec<u32>,
    width: usize,
) -> Result<(), CountError> {
    reserve(keys, width)?;
    reserve(counts, width)?;
    reserve(edges, width)?;
    index.try_reserve(width).map_err(|_| CountError::OutOfMemory)
}

/// The total count from a forward pass: each final state times the ways to
/// place the tail from it.
pub(super) fn total(plan: &Plan, fwd: &Forward) -> Result<u128, CountError> {
    let last = fwd.layers.last().expect("a forward pass has a final layer");
    let mut total = 0u128;
    for (key, f) in last.keys.iter().zip(last.counts.iter()) {
        total = add(total, mul(f, plan.tail_ways(key)?)?)?;
    }
    Ok(total)
}

/// The final layer's backward counts (the ways to deal the tail from each
/// state) and the total; fills the tail cards' marginals.
fn final_layer(
    plan: &Plan,
    fwd: &Forward,
    marginal: &mut [[u128; MAX_PLACES]],
) -> Result<(u128, Vec<u128>), CountError> {
    let last = fwd.layers.last().expect("a forward pass has a final layer");
    let mut back = zeroed::<u128>(last.keys.len())?;
    let mut total = 0u128;
    // Forward-weighted tail shares, grouped by which categories are open.
    let mut sums: Vec<(u32, [u128; MAX_PLACES])> = Vec::new();
    let mut shares = [0u128; MAX_PLACES];
    for (i, (key, f)) in last.keys.iter().zip(last.counts.iter()).enumerate() {
        let open = plan.open_of(key);
        plan.player_shares(key, &mut shares)?;
        let w = plan.ways_from(open, &shares)?;
        if w == 0 {
            continue;
        }
        back[i] = w;
        total = add(total, mul(f, w)?)?;
        // Pooled players have no field, so no share here: see
        // `sym::free_marginals`.
        let at = match sums.iter().position(|s| s.0 == open) {
            Some(at) => at,
            None => {
                sums.push((open, [0; MAX_PLACES]));
                sums.len() - 1
            }
        };
        for q in 0..=plan.np {
            sums[at].1[q] = add(sums[at].1[q], mul(f, shares[q])?)?;
        }
    }
    for (class, m) in plan.tail.iter().zip(plan.tail_marginals(&sums)?) {
        for &c in &class.cards {
            marginal[c as usize] = m;
        }
    }
    Ok((total, back))
}

/// The backward pass: fills `marginal[card][place]` for DP and tail cards
/// and returns the total. With `keep`, also returns the backward count of
/// every state of every layer (the number of completions from it).
pub(super) fn backward(
    plan: &Plan,
    fwd: &Forward,
    marginal: &mut [[u128; MAX_PLACES]],
    keep: bool,
) -> Result<(u128, Vec<Vec<u128>>), CountError> {
    let (total, mut back) = final_layer(plan, fwd, marginal)?;
    // Every product below counts the (scaled) deals through an edge and
    // every sum the deals through a state or with a card at a place: none
    // exceeds the total. When the total fits in 64 bits the pass runs on
    // u64 (still checked; the u128 pass is the fallback).
    if !keep && total >> 64 == 0 {
        if let Some((rows, _)) = backward_u64(plan, fwd, narrowed(&back)?, false)? {
            for (step, row) in plan.steps.iter().zip(rows) {
                marginal[step.card as usize] = row.map(u128::from);
            }
            return Ok((total, Vec::new()));
        }
    }
    let mut kept = KeptLayers::new(keep);
    for (k, step) in plan.steps.iter().enumerate().rev() {
        let layer = &fwd.layers[k];
        let mut prev = zeroed::<u128>(layer.counts.len())?;
        let row = &mut marginal[step.card as usize];
        for (i, f) in layer.counts.iter().enumerate() {
            for (m, j) in fwd.succ[k].of(i) {
                let mv = &step.moves[m];
                let mut b = back[j];
                if b == 0 {
                    continue;
                }
                if step.weighted {
                    let (slots, joins) = plan.weight(step, layer.keys.get(i), m);
                    b = mul(b, mul(slots, joins)?)?;
                }
                prev[i] = add(prev[i], b)?;
                // Moves to the pool: see `sym::free_marginals`.
                if mv.place != POOL {
                    row[mv.place as usize] = add(row[mv.place as usize], mul(f, b)?)?;
                }
            }
        }
        kept.push(std::mem::replace(&mut back, prev));
    }
    Ok((total, kept.finish(back)))
}

/// Every layer's backward counts on u64, layer by layer.
pub(super) type Layers64 = Vec<Vec<u64>>;

/// [`backward`] keeping every layer's backward counts, on u64: `None` when
/// some count does not fit (then [`backward`] applies). The case-file sweep
/// and the free players' marginals read the counts.
pub(super) fn backward_kept_u64(
    plan: &Plan,
    fwd: &Forward,
    marginal: &mut [[u128; MAX_PLACES]],
) -> Result<Option<(u128, Layers64)>, CountError> {
    // The tail cards' rows are written either way; on `None` the caller's
    // `backward` writes them again.
    let (total, last) = final_layer(plan, fwd, marginal)?;
    if total >> 64 != 0 {
        return Ok(None);
    }
    let Some((rows, kept)) = backward_u64(plan, fwd, narrowed(&last)?, true)? else { return Ok(None) };
    for (step, row) in plan.steps.iter().zip(rows) {
        marginal[step.card as usize] = row.map(u128::from);
    }
    Ok(Some((total, kept)))
}

/// Backward counts that fit in 64 bits (the total does), on `u64`.
fn narrowed(back: &[u128]) -> Result<Vec<u64>, CountError> {
    let mut narrow = Vec::new();
    reserve(&mut narrow, back.len())?;
    narrow.extend(back.iter().map(|&b| b as u64));
    Ok(narrow)
}

/// Each step's marginal row on u64, in step order.
type Rows64 = Vec<[u64; MAX_PLACES]>;

/// The layers of [`backward`] on u64: each step's
/// marginal row, in step order, and with `keep` every layer's backward
/// counts (layer order); `None` if some count does not fit.
fn backward_u64(
    plan: &Plan,
    fwd: &Forward,
    mut back: Vec<u64>,
    keep: bool,
) -> Result<Option<(Rows64, Layers64)>, CountError> {
    let mut rows = vec![[0u64; MAX_PLACES]; plan.steps.len()];
    let mut kept = KeptLayers::new(keep);
    for (k, step) in plan.steps.iter().enumerate().rev() {
        let layer = &fwd.layers[k];
        let mut prev = zeroed::<u64>(layer.counts.len())?;
        // The layer's counts read at the width they were stored at (a
        // conversion per state otherwise).
        let fits = match &layer.counts {
            Column::Narrow(counts) => {
                backward_layer_u64(plan, step, layer, &fwd.succ[k], counts, &back, &mut prev, &mut rows[k])
            }
            Column::Wide(counts) => {
                backward_layer_u64(plan, step, layer, &fwd.succ[k], counts, &back, &mut prev, &mut rows[k])
            }
        };
        if fits.is_none() {
            return Ok(None);
        }
        kept.push(std::mem::replace(&mut back, prev));
    }
    Ok(Some((rows, kept.finish(back))))
}

/// One layer of [`backward_u64`]: each state's backward count into `prev`
/// (from the next layer's, `back`) and the step's marginal row; `None` if
/// some count does not fit.
#[allow(clippy::too_many_arguments)]
#[inline]
fn backward_layer_u64<C: Word>(
    plan: &Plan,
    step: &Step,
    layer: &Layer,
    succ: &Edges,
    counts: &[C],
    back: &[u64],
    prev: &mut [u64],
    row: &mut [u64; MAX_PLACES],
) -> Option<()> {
    for (i, (&f, p)) in counts.iter().zip(prev.iter_mut()).enumerate() {
        // A state with completions has `f * back <= total`; one without
        // only meets zeros below.
        let f = u64::try_from(f.wide()).ok();
        for &e in succ.slice(i) {
            let (m, j) = Edges::unpack(e);
            let mut b = back[j];
            if b == 0 {
                continue;
            }
            if step.weighted && plan.weights64 {
                let (slots, joins) = plan.weight64(step, layer.keys.get(i) as u64, m);
                b = b.checked_mul(slots * joins)?;
            } else if step.weighted {
                let (slots, joins) = plan.weight(step, layer.keys.get(i), m);
                b = b.checked_mul(u64::try_from(slots.checked_mul(joins)?).ok()?)?;
            }
            *p = p.checked_add(b)?;
            // Moves to the pool: see `sym::free_marginals`.
            let q = step.moves[m].place;
            if q != POOL {
                let q = usize::from(q);
                row[q] = row[q].checked_add(f?.checked_mul(b)?)?;
            }
        }
    }
    Some(())
}

/// The backward counts of every layer, gathered last layer first when
/// asked for (and nothing otherwise).
struct KeptLayers<T> {
    keep: bool,
    layers: Vec<Vec<T>>,
}

impl<T> KeptLayers<T> {
    fn new(keep: bool) -> KeptLayers<T> {
        KeptLayers { keep, layers: Vec::new() }
    }

    fn push(&mut self, layer: Vec<T>) {
        if self.keep {
            self.layers.push(layer);
        }
    }

    /// Every layer in layer order, given the first.
    fn finish(mut self, first: Vec<T>) -> Vec<Vec<T>> {
        self.push(first);
        self.layers.reverse();
        self.layers
    }
}
