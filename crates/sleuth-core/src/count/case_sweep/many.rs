//! The case-file sweeps for any number of open categories (custom decks of
//! four or more categories; the parent's sweeps, tuned for up to three,
//! do the others).
//!
//! The same idea as the parent's, one level up. Along a path the case
//! cards are placed one category at a time; with `k` open categories the
//! path is split at the placement of its `a + 1`-th case card, `a < k`
//! chosen per state ([`split`]: the fewest vector entries that fit in
//! memory):
//!
//! * forward, on states with `1..=a` categories placed, `F[s][x]`: the
//!   forward count of the paths into `s` whose case cards so far are the
//!   tuple `x` (one coordinate per placed category, among its candidates
//!   placed before this layer);
//! * backward, on states with more than `a` placed, `B[s][y]`: the
//!   completions from `s` whose case cards still to come are the tuple
//!   `y` (one coordinate per category left, among its candidates from this
//!   layer on, tail included);
//! * the edge that places the `a + 1`-th case card `m` adds `F[s][x] × w ×
//!   B[s'][y]` to the case file `(x, m, y)`; paths that place at most `a`
//!   in the DP are read at the final layer, the rest from the tail.
//!
//! A vector is a mixed-radix array over its categories (lowest category
//! least significant). From one layer to the next only the step's card's
//! category can change its length, by one, so every edge adds one vector
//! into another as blocks ([`scatter`]). Every number counts (scaled)
//! deals, none above the scaled total.

use super::{add_tails, axpy, move_weight, Setup, MAX_TABLE, NO_VECTOR};
use crate::count::arith::Word;
use crate::count::dp::{zeroed, Edges, Forward};
use crate::count::plan::Plan;
use crate::count::CountError;

/// The memory the vectors may take at once (the forward ones of all
/// layers, kept for the backward sweep, and the backward ones of two
/// layers) for the split with the least work: 128 MiB, or
/// [`BYTES_PER_STATE`] per state of the count where that is more, up to
/// [`MAX_BUDGET`]. Past it the split with the least memory is taken, up to
/// [`OVER_BUDGET`] times as much; past that the caller falls back to
/// another method, whose states are bounded.
const MAX_BYTES: usize = 128 << 20;

/// The largest budget: 1 GiB, so at most 4 GiB of vectors beside the
/// count's own tables (a count of the largest states takes about 5 GB).
const MAX_BUDGET: usize = 1 << 30;

/// How far past its budget the split with the least memory may go.
const OVER_BUDGET: usize = 4;

/// On large states the vectors may take this much per state the count
/// stored (about what the count's own layers take).
const BYTES_PER_STATE: usize = 64;

/// The (scaled) count of every combination of candidates, open category
/// `c`'s index with stride `Π_{d < c} |cands[d]|`; `None` where every split
/// needs more than [`OVER_BUDGET`] times the memory allowed. `general`:
/// see [`super::case_files`].
pub(super) fn sweep<T: Word, B: Word>(
    s: &Setup,
    plan: &Plan,
    fwd: &Forward,
    back: &[Vec<B>],
    general: Option<usize>,
) -> Result<Option<Vec<T>>, CountError> {
    let g = Geometry::new(s, plan);
    let (k, n) = (g.k, g.n);
    debug_assert!(g.len.iter().product::<usize>() <= MAX_TABLE);
    let placed = placed_sets(fwd);
    let alive = |t: usize, i: usize| back[t][i] != B::ZERO;
    let forced = general.filter(|&a| a < k.max(1));
    let budget =
        MAX_BYTES.max(placed.iter().map(Vec::len).sum::<usize>().saturating_mul(BYTES_PER_STATE).min(MAX_BUDGET));
    let Some(a) = forced.or_else(|| split(&g, &placed, alive, budget / std::mem::size_of::<T>())) else {
        return Ok(None);
    };
    let c = Sweep { s, plan, fwd, back, g, placed, a };
    let mut table = vec![T::ZERO; c.g.len.iter().product()];

    // Each layer's states with forward vectors (1..=a placed, with
    // completions) and where their vectors start.
    let f_layers: Vec<FLayer> = (0..=n).map(|t| c.f_layer(t)).collect();

    // Forward: F on states with 1..=a placed.
    let mut f_vals: Vec<Vec<T>> = vec![zeroed(f_layers[0].size)?];
    for t in 0..n {
        let mut next = zeroed(f_layers[t + 1].size)?;
        c.forward_layer(t, (&f_layers[t], &f_layers[t + 1]), &f_vals[t], &mut next);
        f_vals.push(next);
    }
    c.final_layer(&f_layers[n].at, &f_vals[n], &mut table);

    // Backward: B on states with more than `a` placed (all `k`: the
    // backward count itself), and the joining edges.
    let mut b_layer_next = c.b_layer(n);
    let mut b_next = zeroed::<T>(b_layer_next.size)?;
    for &i in &b_layer_next.late {
        let (i, pl) = (i as usize, c.placed[n][i as usize]);
        let len = c.g.b_len(n, pl);
        // Only tail candidates are left: each combination of them alike.
        let rest = (0..k).filter(|&d| pl >> d & 1 == 0);
        let combos: usize = rest.map(|d| s.tails[d].len()).product();
        debug_assert_eq!(combos, len);
        b_next[b_layer_next.at[i] as usize..][..len].fill(T::of(back[n][i].wide() / combos as u128));
    }
    for t in (0..n).rev() {
        let b_layer_cur = c.b_layer(t);
        let mut b_cur = zeroed::<T>(b_layer_cur.size)?;
        let f = (&f_layers[t].at[..], &f_vals[t][..]);
        c.backward_layer(t, f, (&b_layer_next.at, &b_next), (&b_layer_cur, &mut b_cur), &mut table);
        (b_layer_next, b_next) = (b_layer_cur, b_cur);
    }
    Ok(Some(table))
}

/// What every layer of a sweep reads: the count's passes, the vectors'
/// shape and the split. Each layer's loop is a method of its own: inside
/// one function the compiler kept the loops' counters on the stack (as in
/// the parent's sweeps).
struct Sweep<'a, B> {
    s: &'a Setup,
    plan: &'a Plan,
    fwd: &'a Forward,
    back: &'a [Vec<B>],
    g: Geometry,
    placed: Vec<Vec<Set>>,
    /// The case cards before the joining edge.
    a: usize,
}

/// One layer's states as the forward sweep reads them: where each forward
/// vector starts (`at`, [`NO_VECTOR`] without one) and the array's length, and
/// the states with completions it visits, by their placed categories:
/// none (`first`: only the case-file move matters), fewer than `a`
/// (`mid`: every move), `a` (`last`: every move but the case-file one,
/// which joins in the backward sweep). Lists, so that a loop visits only
/// its states (as in the parent's sweeps; testing each state and edge in
/// one loop was most of this sweep's time).
struct FLayer {
    at: Vec<u32>,
    size: usize,
    first: Vec<u32>,
    mid: Vec<u32>,
    last: Vec<u32>,
}

/// One layer's states as the backward sweep reads them: where each
/// backward vector starts (states with more than `a` placed but not all),
/// the array's length, and the states with completions it visits: `a`
/// placed (`join`: the case-file move is the joining edge) and more, short
/// of all (`late`).
struct BLayer {
    at: Vec<u32>,
    size: usize,
    join: Vec<u32>,
    late: Vec<u32>,
}

/// The vector of `len` entries at `at` (a state's offset) in `vals`.
#[inline]
fn at_len<T>(vals: &[T], at: u32, len: usize) -> &[T] {
    &vals[at as usize..][..len]
}

/// [`at_len`], mutable.
#[inline]
fn at_len_mut<T>(vals: &mut [T], at: u32, len: usize) -> &mut [T] {
    &mut vals[at as usize..][..len]
}

impl<B: Word> Sweep<'_, B> {
    /// The weight of move `m` of state `i` at step `t` (one on an
    /// unweighted step).
    #[inline]
    fn weight<T: Word>(&self, weighted: bool, t: usize, i: usize, m: usize) -> T {
        if weighted {
            move_weight(self.plan, self.fwd, t, i, m)
        } else {
            T::of(1)
        }
    }

    /// Step `t`'s case-file move and the open category it fills, if any.
    fn case_move(&self, t: usize) -> Option<(usize, usize)> {
        let m = self.s.cf_move[t]?;
        let c = self.s.cat_of[t][m]?;
        // A card that may be the case card is a candidate of its category.
        debug_assert_eq!(self.g.step_cat[t], Some(c));
        Some((m, c))
    }

    /// Layer `t`'s forward vectors and lists ([`FLayer`]).
    fn f_layer(&self, t: usize) -> FLayer {
        let (g, a, back) = (&self.g, self.a, &self.back[t][..]);
        let mut l =
            FLayer { at: vec![NO_VECTOR; back.len()], size: 0, first: Vec::new(), mid: Vec::new(), last: Vec::new() };
        for (i, (&pl, &b)) in self.placed[t].iter().zip(back).enumerate() {
            let j = g.count(pl);
            if b == B::ZERO || j > a || (j == 0 && a == 0) {
                continue;
            }
            if j == 0 {
                l.first.push(i as u32);
                continue;
            }
            l.at[i] = l.size as u32;
            l.size += g.f_len(t, pl);
            if j < a { &mut l.mid } else { &mut l.last }.push(i as u32);
        }
        debug_assert!(l.size < NO_VECTOR as usize);
        l
    }

    /// Layer `t`'s backward vectors and lists ([`BLayer`]).
    fn b_layer(&self, t: usize) -> BLayer {
        let (g, a, k, back) = (&self.g, self.a, self.g.k, &self.back[t][..]);
        let mut l = BLayer { at: vec![NO_VECTOR; back.len()], size: 0, join: Vec::new(), late: Vec::new() };
        for (i, (&pl, &b)) in self.placed[t].iter().zip(back).enumerate() {
            let j = g.count(pl);
            if b == B::ZERO || j < a || j == k {
                continue;
            }
            if j == a {
                l.join.push(i as u32);
                continue;
            }
            l.at[i] = l.size as u32;
            l.size += g.b_len(t, pl);
            l.late.push(i as u32);
        }
        debug_assert!(l.size < NO_VECTOR as usize);
        l
    }

    /// The forward vectors of layer `t + 1` (`next`, laid out as `l.1`)
    /// from those of layer `t` (`cur`, as `l.0`).
    #[inline(never)]
    fn forward_layer<T: Word>(&self, t: usize, l: (&FLayer, &FLayer), cur: &[T], next: &mut [T]) {
        let g = &self.g;
        let (succ, counts) = (&self.fwd.succ[t], &self.fwd.layers[t].counts);
        let back_next = &self.back[t + 1][..];
        let weighted = self.plan.steps[t].weighted;
        let (at_cur, at_next) = (&l.0.at[..], &l.1.at[..]);
        let cf = self.case_move(t);
        // No placement yet: the case-file move starts a vector with one
        // coordinate, at this card.
        if let Some((m, c)) = cf {
            let here = g.pre(t, c);
            for &i in &l.0.first {
                let i = i as usize;
                let Some(jn) = succ.by(i, m).filter(|&jn| back_next[jn] != B::ZERO) else { continue };
                let w: T = self.weight(weighted, t, i, m);
                next[at_next[jn] as usize + here] += T::of(counts.get(i)) * w;
            }
        }
        let (cf_m, cf_c) = cf.map_or((usize::MAX, 0), |(m, c)| (m, c));
        let step_cat = g.step_cat[t];
        for (states, join_later) in [(&l.0.mid, false), (&l.0.last, true)] {
            for &i in states {
                let (i, pl) = (i as usize, self.placed[t][i as usize]);
                let from = at_len(cur, at_cur[i], g.f_len(t, pl));
                // A candidate of a placed category goes to a player: that
                // category's range grows by one (one inner block per
                // candidate before it).
                let grows = step_cat.is_some_and(|c| pl >> c & 1 == 1).then(|| g.f_inner_step(t, pl));
                let same_len = g.f_len(t + 1, pl);
                for &e in succ.slice(i) {
                    let (m, jn) = Edges::unpack(e);
                    if back_next[jn] == B::ZERO || (join_later && m == cf_m) {
                        continue;
                    }
                    let w = self.weight(weighted, t, i, m);
                    if m == cf_m {
                        // A case-file move: its card becomes the coordinate
                        // of a new category.
                        let to = at_len_mut(next, at_next[jn], g.f_len(t + 1, pl | 1 << cf_c));
                        let b = Block {
                            inner: g.f_inner_step(t, pl),
                            from: 1,
                            to: g.pre(t + 1, cf_c),
                            offset: g.pre(t, cf_c),
                        };
                        scatter(to, from, w, b);
                        continue;
                    }
                    let to = at_len_mut(next, at_next[jn], same_len);
                    match (grows, step_cat) {
                        (Some(inner), Some(c)) => {
                            scatter(to, from, w, Block { inner, from: g.pre(t, c), to: g.pre(t + 1, c), offset: 0 })
                        }
                        _ => axpy(to, from, w),
                    }
                }
            }
        }
    }

    /// Final states with at most `a` placed (forward vectors `vals`, laid
    /// out at `at`): the categories left take their case card from the
    /// tail, every tail candidate in as many ways. Summed by placed
    /// categories first, then spread once per sum.
    fn final_layer<T: Word>(&self, at: &[u32], vals: &[T], table: &mut [T]) {
        let (g, s, n) = (&self.g, self.s, self.g.n);
        let all = (1u32 << g.k) - 1;
        let mut sums: Vec<Vec<T>> = (0..=all).map(|pl| vec![T::ZERO; g.f_len(n, pl as Set)]).collect();
        for (i, &pl) in self.placed[n].iter().enumerate() {
            let j = g.count(pl);
            if j > self.a || !self.alive(n, i) {
                continue;
            }
            let b = T::of(self.back[n][i].wide());
            if j == 0 {
                sums[0][0] += T::of(self.fwd.layers[n].counts.get(i)) * b;
            } else {
                axpy(&mut sums[usize::from(pl)], at_len(vals, at[i], g.f_len(n, pl)), b);
            }
        }
        for (pl, sum) in sums.iter().enumerate() {
            let rest: Vec<usize> = (0..g.k).filter(|&c| pl >> c & 1 == 0).collect();
            let combos: usize = rest.iter().map(|&c| s.tails[c].len()).product();
            let offsets = g.f_offsets(n, pl as Set);
            for (&x, &d) in offsets.iter().zip(sum) {
                if d == T::ZERO || combos == 0 {
                    continue;
                }
                debug_assert!(d.wide() % combos as u128 == 0);
                add_tails(table, x, &rest, &s.tails, &g.stride, T::of(d.wide() / combos as u128));
            }
        }
    }

    /// Whether state `i` of layer `t` has completions.
    fn alive(&self, t: usize, i: usize) -> bool {
        self.back[t][i] != B::ZERO
    }

    /// The backward vectors of layer `t` (`cur`: its layout and values)
    /// from those of layer `t + 1` (`next`: offsets and values), and the
    /// joining edges of step `t` into `table` (forward vectors of layer
    /// `t`: `f`).
    #[inline(never)]
    fn backward_layer<T: Word>(
        &self,
        t: usize,
        f: (&[u32], &[T]),
        next: (&[u32], &[T]),
        cur: (&BLayer, &mut [T]),
        table: &mut [T],
    ) {
        let cf = self.case_move(t);
        if let Some(cf) = cf {
            self.join_edges(t, cf, f, next, &cur.0.join, table);
        }
        // Without a case-file move the vectors only carry over.
        self.carry_over(t, next, cur, cf.unwrap_or((usize::MAX, 0)));
    }

    /// The vector of successor `jn` (layer `t + 1`, offsets and values in
    /// `next`) with `after` placed, or, with every category placed, its
    /// backward count, written into `one`.
    #[inline(always)]
    fn successor<'v, T: Word>(
        &self,
        t: usize,
        jn: usize,
        after: Set,
        next: (&[u32], &'v [T]),
        one: &'v mut [T; 1],
    ) -> &'v [T] {
        if self.g.count(after) == self.g.k {
            one[0] = T::of(self.back[t + 1][jn].wide());
            one
        } else {
            at_len(next.1, next.0[jn], self.g.b_len(t + 1, after))
        }
    }

    /// Step `t`'s joining edges (its case-file move `cf_m`, of category
    /// `cf_c`) out of the states of `join`: every (x, y) around this card,
    /// the forward vector of layer `t` (`f`) times the successor's.
    #[inline(always)]
    fn join_edges<T: Word>(
        &self,
        t: usize,
        (cf_m, cf_c): (usize, usize),
        f: (&[u32], &[T]),
        next: (&[u32], &[T]),
        join: &[u32],
        table: &mut [T],
    ) {
        let g = &self.g;
        let (succ, back_next) = (&self.fwd.succ[t], &self.back[t + 1][..]);
        let weighted = self.plan.steps[t].weighted;
        let mut joins = JoinOffsets::default();
        let here = g.pre(t, cf_c) * g.stride[cf_c];
        for &i in join {
            let (i, pl) = (i as usize, self.placed[t][i as usize]);
            let Some(jn) = succ.by(i, cf_m).filter(|&jn| back_next[jn] != B::ZERO) else { continue };
            let w: T = self.weight(weighted, t, i, cf_m);
            let mut one = [T::ZERO];
            let from = self.successor(t, jn, pl | 1 << cf_c, next, &mut one);
            let start = [T::of(self.fwd.layers[t].counts.get(i))];
            let fx: &[T] = if pl == 0 { &start } else { at_len(f.1, f.0[i], g.f_len(t, pl)) };
            let (xs, ys) = joins.get(g, t, pl, cf_c);
            for (&x, &fx) in xs.iter().zip(fx) {
                if fx == T::ZERO {
                    continue;
                }
                let fw = fx * w;
                let row = &mut table[here + x..];
                for (&y, &by) in ys.iter().zip(from) {
                    row[y] += fw * by;
                }
            }
        }
    }

    /// The backward vectors of layer `t`'s late states (more than `a`
    /// placed, not all) from their successors': a later placement (move
    /// `cf_m`, of category `cf_c`) makes its card the first coordinate of
    /// that category; another move carries the successor's vector over,
    /// one candidate earlier where the step's card is a candidate of a
    /// category still open.
    #[inline(always)]
    fn carry_over<T: Word>(
        &self,
        t: usize,
        next: (&[u32], &[T]),
        cur: (&BLayer, &mut [T]),
        (cf_m, cf_c): (usize, usize),
    ) {
        let g = &self.g;
        let (at_next, b_next) = next;
        let (l, b_cur) = cur;
        let (succ, back_next) = (&self.fwd.succ[t], &self.back[t + 1][..]);
        let weighted = self.plan.steps[t].weighted;
        let step_cat = g.step_cat[t];
        for &i in &l.late {
            let (i, pl) = (i as usize, self.placed[t][i as usize]);
            let to = at_len_mut(b_cur, l.at[i], g.b_len(t, pl));
            // The step's card is a candidate of a category left: the
            // successor's range starts one candidate later.
            let shifts = step_cat.filter(|&c| pl >> c & 1 == 0).map(|c| Block {
                inner: g.b_inner_step(t, pl),
                from: g.len[c] - g.pre(t + 1, c),
                to: g.len[c] - g.pre(t, c),
                offset: 1,
            });
            let same_len = g.b_len(t + 1, pl);
            for &e in succ.slice(i) {
                let (m, jn) = Edges::unpack(e);
                if back_next[jn] == B::ZERO {
                    continue;
                }
                let w = self.weight(weighted, t, i, m);
                if m == cf_m {
                    let mut one = [T::ZERO];
                    let from = self.successor(t, jn, pl | 1 << cf_c, next, &mut one);
                    let b =
                        Block { inner: g.b_inner_step(t, pl), from: 1, to: g.len[cf_c] - g.pre(t, cf_c), offset: 0 };
                    scatter(to, from, w, b);
                    continue;
                }
                let from = at_len(b_next, at_next[jn], same_len);
                match shifts {
                    Some(b) => scatter(to, from, w, b),
                    None => axpy(to, from, w),
                }
            }
        }
    }
}

/// A set of open categories, bit `c` for open category `c`.
type Set = u16;

/// Each state's placed categories, layer by layer, from the forward pass's
/// bytes (the second only with more than eight open categories).
fn placed_sets(fwd: &Forward) -> Vec<Vec<Set>> {
    if fwd.placed_high.is_empty() {
        return fwd.placed.iter().map(|layer| layer.iter().map(|&pl| Set::from(pl)).collect()).collect();
    }
    let layers = fwd.placed.iter().zip(&fwd.placed_high);
    layers.map(|(low, high)| low.iter().zip(high).map(|(&l, &h)| Set::from(l) | Set::from(h) << 8).collect()).collect()
}

/// Where to split the paths: the number `a` of case cards before the
/// joining edge that needs the fewest vector entries in all (forward
/// vectors on `1..=a` placed, backward ones on more, short of all), among
/// those whose forward vectors (kept for every layer) and backward vectors
/// of two layers at a time fit in `most` entries; if none fits, the one
/// that needs the fewest at once, if within [`OVER_BUDGET`] times `most`.
/// (The other methods, an identifying DP or a count per combination, take
/// more memory and time still: on decks of five categories with 5 to 11
/// million states, 20-25 s and 1.1 GB against 2.5-7.5 s.)
fn split(g: &Geometry, placed: &[Vec<Set>], alive: impl Fn(usize, usize) -> bool, most: usize) -> Option<usize> {
    let k = g.k;
    if k == 0 {
        return Some(0);
    }
    // Per layer and number placed, the entries of each side's vectors.
    let (mut f_by, mut b_by) = (vec![0usize; (g.n + 1) * (k + 1)], vec![0usize; (g.n + 1) * (k + 1)]);
    for (t, placed) in placed.iter().enumerate() {
        let mut states = vec![0usize; 1 << k];
        for (i, &pl) in placed.iter().enumerate() {
            states[usize::from(pl)] += usize::from(alive(t, i));
        }
        for (pl, &m) in states.iter().enumerate().filter(|(_, &m)| m > 0) {
            let j = g.count(pl as Set);
            f_by[t * (k + 1) + j] += m * g.f_len(t, pl as Set);
            b_by[t * (k + 1) + j] += m * g.b_len(t, pl as Set);
        }
    }
    let sides = |a: usize| {
        let f: usize = (0..=g.n).map(|t| f_by[t * (k + 1)..][1..=a].iter().sum::<usize>()).sum();
        let b_at = |t: usize| b_by[t * (k + 1)..][a + 1..k].iter().sum::<usize>();
        let b: usize = (0..=g.n).map(b_at).sum();
        let b_peak = (0..g.n).map(|t| b_at(t) + b_at(t + 1)).max().unwrap_or(0);
        (f + b, f + b_peak)
    };
    let splits: Vec<(usize, (usize, usize))> = (0..k).map(|a| (a, sides(a))).collect();
    let fits = splits.iter().filter(|(_, (_, memory))| *memory <= most).min_by_key(|(_, (work, _))| *work);
    let least = splits.iter().min_by_key(|(_, (_, memory))| *memory);
    let near = least.filter(|(_, (_, memory))| *memory <= most.saturating_mul(OVER_BUDGET));
    fits.or(near).map(|&(a, _)| a)
}

/// The shape of the vectors: per open category its candidates (`len`), its
/// stride in the table, and per layer how many of its DP candidates the
/// steps before placed (`pre`); per step, the open category its card is a
/// DP candidate of.
struct Geometry {
    k: usize,
    n: usize,
    len: Vec<usize>,
    stride: Vec<usize>,
    /// `pre[t * k + c]`.
    pre: Vec<usize>,
    step_cat: Vec<Option<usize>>,
    /// The forward and backward vectors' lengths, `[t << k | placed]`.
    f_lens: Vec<usize>,
    b_lens: Vec<usize>,
    /// In a forward or backward vector at layer `t` with `placed`, the
    /// stride of step `t`'s category (its inner blocks), `[t << k |
    /// placed]`: a scatter's shape, looked up once per state instead of
    /// computed per edge.
    f_inners: Vec<usize>,
    b_inners: Vec<usize>,
    /// The number of categories in each set (looked up once per state:
    /// the build's baseline x86-64 has no `popcnt`, and a table is cheaper
    /// than the bit tricks).
    counts: Vec<u8>,
}

impl Geometry {
    fn new(s: &Setup, plan: &Plan) -> Geometry {
        let k = s.cands.len();
        let n = plan.steps.len();
        let len: Vec<usize> = s.cands.iter().map(Vec::len).collect();
        let mut stride = vec![1usize; k];
        for c in 1..k {
            stride[c] = stride[c - 1] * len[c - 1];
        }
        let step_cat: Vec<Option<usize>> = (0..n)
            .map(|t| {
                let card = plan.steps[t].card as usize;
                s.cat_of[t].iter().flatten().copied().next().filter(|&c| s.pos[card] < len[c])
            })
            .collect();
        let mut pre = vec![0usize; (n + 1) * k];
        for t in 0..n {
            for c in 0..k {
                pre[(t + 1) * k + c] = pre[t * k + c] + usize::from(step_cat[t] == Some(c));
            }
        }
        // The vectors' lengths, by layer and placed categories (looked up
        // per state and edge: computing them there was a tenth of the time).
        let sets = 1usize << k;
        let (mut f_lens, mut b_lens) = (vec![0usize; (n + 1) * sets], vec![0usize; (n + 1) * sets]);
        for t in 0..=n {
            for pl in 0..sets {
                let pre = |c: usize| pre[t * k + c];
                f_lens[t * sets + pl] = (0..k).filter(|&c| pl >> c & 1 == 1).map(pre).product();
                b_lens[t * sets + pl] = (0..k).filter(|&c| pl >> c & 1 == 0).map(|c| len[c] - pre(c)).product();
            }
        }
        let counts = (0..sets).map(|pl| pl.count_ones() as u8).collect();
        let mut g = Geometry {
            k,
            n,
            len,
            stride,
            pre,
            step_cat,
            f_lens,
            b_lens,
            f_inners: vec![1; (n + 1) * sets],
            b_inners: vec![1; (n + 1) * sets],
            counts,
        };
        for t in 0..n {
            let Some(c) = g.step_cat[t] else { continue };
            for pl in 0..sets {
                g.f_inners[t * sets + pl] = g.f_inner(t, pl as Set, c);
                g.b_inners[t * sets + pl] = g.b_inner(t, pl as Set, c);
            }
        }
        g
    }

    /// The number of categories in `pl`.
    fn count(&self, pl: Set) -> usize {
        usize::from(self.counts[usize::from(pl)])
    }

    fn pre(&self, t: usize, c: usize) -> usize {
        self.pre[t * self.k + c]
    }

    /// A forward vector's length at layer `t` with `pl` placed.
    fn f_len(&self, t: usize, pl: Set) -> usize {
        self.f_lens[(t << self.k) + usize::from(pl)]
    }

    /// A backward vector's length at layer `t` with `pl` placed.
    fn b_len(&self, t: usize, pl: Set) -> usize {
        self.b_lens[(t << self.k) + usize::from(pl)]
    }

    /// [`Geometry::f_inner`] of step `t`'s category.
    fn f_inner_step(&self, t: usize, pl: Set) -> usize {
        self.f_inners[(t << self.k) + usize::from(pl)]
    }

    /// [`Geometry::b_inner`] of step `t`'s category.
    fn b_inner_step(&self, t: usize, pl: Set) -> usize {
        self.b_inners[(t << self.k) + usize::from(pl)]
    }

    /// In a forward vector over `pl` at layer `t`, the stride of category
    /// `c` (placed or about to be).
    fn f_inner(&self, t: usize, pl: Set, c: usize) -> usize {
        (0..c).filter(|&d| pl >> d & 1 == 1).map(|d| self.pre(t, d)).product()
    }

    /// In a backward vector of a state with `pl` placed at layer `t`, the
    /// stride of category `c` (left).
    fn b_inner(&self, t: usize, pl: Set, c: usize) -> usize {
        (0..c).filter(|&d| pl >> d & 1 == 0).map(|d| self.len[d] - self.pre(t, d)).product()
    }

    /// Each entry's offset in the table, for a forward vector over `pl` at
    /// layer `t`.
    fn f_offsets(&self, t: usize, pl: Set) -> Vec<usize> {
        let dims: Vec<(usize, usize, usize)> =
            (0..self.k).filter(|&c| pl >> c & 1 == 1).map(|c| (self.pre(t, c), 0, self.stride[c])).collect();
        offsets(&dims)
    }

    /// Each entry's offset in the table, for a backward vector of a state
    /// with `pl` placed at layer `t` (its coordinates count from the
    /// candidates placed before `t`).
    fn b_offsets(&self, t: usize, pl: Set) -> Vec<usize> {
        let dims: Vec<(usize, usize, usize)> = (0..self.k)
            .filter(|&c| pl >> c & 1 == 0)
            .map(|c| (self.len[c] - self.pre(t, c), self.pre(t, c), self.stride[c]))
            .collect();
        offsets(&dims)
    }
}

/// The offsets `Σ (first_c + x_c) × stride_c` of every coordinate tuple
/// `x` of a mixed-radix array over `dims` (`(size, first, stride)`, the
/// first least significant), in the array's order.
fn offsets(dims: &[(usize, usize, usize)]) -> Vec<usize> {
    let mut out = vec![dims.iter().map(|&(_, first, stride)| first * stride).sum::<usize>()];
    for &(size, _, stride) in dims {
        let block: Vec<usize> = out.clone();
        out = (0..size).flat_map(|x| block.iter().map(move |&o| o + x * stride)).collect();
    }
    out
}

/// The table offsets of a layer's joining edges, by the placed categories
/// and the category placed (computed once per layer and pair).
#[derive(Default)]
struct JoinOffsets {
    cached: Vec<Join>,
}

/// The table offsets of the joining edges out of states with `placed`
/// that place category `cat`: of the forward vector's entries (`xs`) and
/// of the successor's backward vector's (`ys`).
struct Join {
    placed: Set,
    cat: usize,
    xs: Vec<usize>,
    ys: Vec<usize>,
}

impl JoinOffsets {
    fn get(&mut self, g: &Geometry, t: usize, pl: Set, c: usize) -> (&[usize], &[usize]) {
        let at = match self.cached.iter().position(|j| (j.placed, j.cat) == (pl, c)) {
            Some(at) => at,
            None => {
                let (xs, ys) = (g.f_offsets(t, pl), g.b_offsets(t + 1, pl | 1 << c));
                self.cached.push(Join { placed: pl, cat: c, xs, ys });
                self.cached.len() - 1
            }
        };
        (&self.cached[at].xs, &self.cached[at].ys)
    }
}

/// How one vector's blocks land in another's: `from` is `[outer][from][inner]`,
/// `to` is `[outer][to][inner]`, and block `x` of `from` adds into block
/// `x + offset` of `to`.
#[derive(Clone, Copy)]
struct Block {
    inner: usize,
    from: usize,
    to: usize,
    offset: usize,
}

/// `to += w × from`, block by block as `b` says.
#[inline]
fn scatter<T: Word>(to: &mut [T], from: &[T], w: T, b: Block) {
    let (run, step) = (b.inner * b.from, b.inner * b.to);
    if run == 0 {
        return;
    }
    debug_assert_eq!(from.len() % run, 0);
    debug_assert_eq!(to.len(), from.len() / run * step);
    for (o, from) in from.chunks_exact(run).enumerate() {
        axpy(&mut to[o * step + b.offset * b.inner..][..run], from, w);
    }
}
