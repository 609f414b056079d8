//! The case-file distribution from the count's own passes (up to three
//! open categories here; more in [`many`]).
//!
//! A deal's case cards are placed by the DP one category at a time (or
//! come from the tail at the end), so along a path the number of
//! categories *placed* goes 0, 1, 2, 3. Keys only say which categories are
//! placed, not by which card; the card is recovered by two sweeps over the
//! stored layers and edges of the count:
//!
//! * forward, on states with exactly one category placed: `F[s][x]`, the
//!   forward count of the paths into `s` whose case card is `x`;
//! * backward, on states with all but one placed: `B[s][y]`, the
//!   completions from `s` whose last case card is `y` (a DP card placed
//!   later, or a tail card: every tail card allowed there in as many ways).
//!
//! With three open categories, the edge that places the second case card
//! `m` from `s` to `s'` (weight `w`) adds `F[s][x] × w × B[s'][y]` deals to
//! the case file `{x, m, y}`. With two, it adds `F[s][x] × w × back(s')`
//! to `{x, m}`; with one, the marginals at the case file are the answer.
//! Final states with fewer categories placed take the rest from the tail.
//! Each vector is as long as a category's candidates, so the sweeps cost a
//! few times the states of one or two placed categories, not a count per
//! combination of candidates.
//!
//! Every number below counts (scaled) deals through a state or an edge with
//! completions, so none exceeds the count's scaled total, which fits: the
//! sweeps run on `u64` when the total does, unchecked.

mod many;

use super::arith::Word;
use super::dp::{zeroed, Edges, Forward};
use super::plan::{CardClasses, Plan};
use super::{CaseFileList, CaseFiles, CountError};
use crate::deduce::{CountProblem, Reduced};
use crate::model::{Card, MAX_CARDS};

/// The case files with their (unscaled) counts, or `None` when the plan
/// has more than [`MAX_OPEN`] open categories, too many combinations, or
/// (four or more open) vectors too large at every split (the caller then
/// uses another method). Up to three open categories take this module's
/// sweeps, more [`many`]'s; `general` takes [`many`]'s whatever the
/// categories, for the tests that compare the two: `Some(a)` splits the
/// paths after `a` case cards where `a` is below the open categories,
/// elsewhere where [`many`] chooses.
pub(super) fn case_files<B: Word>(
    p: &CountProblem,
    r: &Reduced,
    plan: &Plan,
    fwd: &Forward,
    back: &[Vec<B>],
    total: u128,
    general: Option<usize>,
) -> Result<CaseFiles, CountError> {
    let Some(s) = Setup::new(p, r, plan, fwd) else { return Ok(None) };
    let table: Option<Vec<u128>> = if total <= u128::from(u64::MAX) {
        either_sweep::<u64, B>(&s, plan, fwd, back, general)?.map(|t| t.into_iter().map(u128::from).collect())
    } else {
        either_sweep::<u128, B>(&s, plan, fwd, back, general)?
    };
    let Some(table) = table else { return Ok(None) };
    // The table, with the categories decided by propagation.
    let cf = p.np as u8;
    let fixed: Vec<Option<Card>> =
        p.categories.iter().map(|cat| cat.iter().find(|c| r.assigned[c.index()] == cf)).collect();
    let mut out = CaseFileList::new(p.categories.len());
    out.reserve(table.iter().filter(|&&v| v != 0).count());
    for (at, &v) in table.iter().enumerate() {
        if v == 0 {
            continue;
        }
        let (mut rest, mut picked) = (at, [0u8; MAX_OPEN]);
        for (c, cands) in s.cands.iter().enumerate() {
            picked[c] = cands[rest % cands.len()];
            rest /= cands.len();
        }
        let file = (0..p.categories.len()).map(|cat| match s.cat_index[cat] {
            usize::MAX => fixed[cat].expect("a category not open is decided"),
            c => Card(picked[c]),
        });
        debug_assert!(v % plan.scale == 0);
        out.push(file, v / plan.scale);
    }
    Ok(Some(out))
}

/// What the sweeps need besides the passes.
struct Setup {
    /// Per open category, its candidates: DP cards allowed in the case
    /// file, then tail cards allowed there.
    cands: Vec<Vec<u8>>,
    /// Per open category, the indices of its tail candidates.
    tails: Vec<Vec<usize>>,
    /// A card's index among its category's candidates.
    pos: [usize; MAX_CARDS],
    /// A category's index among the open ones (`usize::MAX` if decided).
    cat_index: Vec<usize>,
    /// Per step and move: the open category a case-file move fills.
    cat_of: Vec<Vec<Option<usize>>>,
    /// Per step, the index of its case-file move.
    cf_move: Vec<Option<usize>>,
}

impl Setup {
    fn new(p: &CountProblem, r: &Reduced, plan: &Plan, fwd: &Forward) -> Option<Setup> {
        let cards = CardClasses::new(p, r);
        let cf = p.np as u8;
        let open = plan.open_cats();
        if open.len() > MAX_OPEN {
            return None;
        }
        let mut s = Setup {
            cands: Vec::new(),
            tails: Vec::new(),
            pos: [usize::MAX; MAX_CARDS],
            cat_index: vec![usize::MAX; p.categories.len()],
            cat_of: Vec::new(),
            cf_move: Vec::new(),
        };
        for (i, o) in open.iter().enumerate() {
            s.cat_index[o.category] = i;
            let cat = p.categories[o.category];
            let ok = |c: &Card| r.allowed[c.index()] >> cf & 1 == 1;
            let dp: Vec<u8> =
                plan.steps.iter().map(|s| s.card).filter(|&c| cat.contains(Card(c)) && ok(&Card(c))).collect();
            let tail: Vec<u8> = (cat & cards.tail).iter().filter(ok).map(|c| c.index() as u8).collect();
            s.tails.push((dp.len()..dp.len() + tail.len()).collect());
            let all: Vec<u8> = dp.into_iter().chain(tail).collect();
            for (x, &c) in all.iter().enumerate() {
                s.pos[c as usize] = x;
            }
            s.cands.push(all);
        }
        if s.cands.iter().map(Vec::len).product::<usize>() > MAX_TABLE {
            return None;
        }
        s.cat_of = plan
            .steps
            .iter()
            .map(|st| {
                let c = s.cat_index[p.category_of[st.card as usize] as usize];
                st.moves.iter().map(|mv| (mv.place == cf).then_some(c)).collect()
            })
            .collect();
        // The sweeps read each state's placed categories, which the forward
        // pass took from the keys by one shift and mask (a loop per key cost
        // a tenth of the sweeps); an identifying plan has none side by side.
        plan.placed_field()?;
        debug_assert_eq!(fwd.placed.len(), fwd.layers.len());
        s.cf_move = plan.steps.iter().map(|st| st.moves.iter().position(|mv| mv.place == cf)).collect();
        Some(s)
    }
}

/// The table of [`sweep`] for up to three open categories, of
/// [`many::sweep`] for more (`None` where that one does not fit).
fn either_sweep<T: Word, B: Word>(
    s: &Setup,
    plan: &Plan,
    fwd: &Forward,
    back: &[Vec<B>],
    general: Option<usize>,
) -> Result<Option<Vec<T>>, CountError> {
    if s.cands.len() <= 3 && general.is_none() {
        sweep::<T, B>(s, plan, fwd, back).map(Some)
    } else {
        many::sweep::<T, B>(s, plan, fwd, back, general)
    }
}

/// The sweeps: the (scaled) count of every combination of candidates,
/// open category `c`'s index with stride `Π_{d < c} |cands[d]|`.
///
/// Most vectors are a few candidates long, so the bookkeeping per edge is
/// most of the cost: the loops read each layer through slices and arrays
/// taken once per layer (10 % less time than through the `Vec`s).
fn sweep<T: Word, B: Word>(s: &Setup, plan: &Plan, fwd: &Forward, back: &[Vec<B>]) -> Result<Vec<T>, CountError> {
    let k = s.cands.len();
    let dims: Vec<usize> = s.cands.iter().map(Vec::len).collect();
    let mut stride = vec![1usize; k];
    for c in 1..k {
        stride[c] = stride[c - 1] * dims[c - 1];
    }
    let mut table = vec![T::ZERO; dims.iter().product()];
    let n = plan.steps.len();
    let placed = &fwd.placed;
    // Slices, not `Vec`s, in the loops below: after a store into a vector
    // the compiler reloads every `Vec` header it cannot prove untouched.
    let weight = |t: usize, i: usize, m: usize| -> T { move_weight(plan, fwd, t, i, m) };
    let last = fwd.layers.last().expect("a forward pass has a final layer");
    // Candidates are numbered in step order, tail last, so at layer `t` the
    // first case card of a path is among the `pre[t][c]` candidates placed
    // so far, and the last one among the others: F vectors hold that
    // prefix, B vectors that suffix (stored from its start). `pre[t]` and
    // `len` are arrays, copied into the loops.
    let mut pre = vec![[0usize; 3]; n + 1];
    let mut len = [0usize; 3];
    len[..k].copy_from_slice(&dims);
    for t in 0..n {
        let card = plan.steps[t].card as usize;
        for c in 0..k {
            let here = s.cat_of[t].contains(&Some(c)) && s.pos[card] < dims[c];
            pre[t + 1][c] = pre[t][c] + usize::from(here);
        }
    }
    let f_len = |t: usize, pl: u8| pre[t][one(pl)];
    let b_len = |t: usize, pl: u8| len[left(pl)] - pre[t][left(pl)];
    // Per layer, the states with completions by categories placed (0, 1
    // or 2): each loop below visits only those it works on (testing every
    // state in each loop was a fifth of the case files' time). One pass per
    // layer fills the three lists without a branch per state (the phases
    // mix at random, and a mispredicted branch cost more than the writes):
    // each state is written at every list's end, and only its own list's
    // end moves. With `k` open categories the loops read phases below `k`
    // only.
    let width = placed.iter().map(Vec::len).max().unwrap_or(0);
    let (mut s0, mut s1, mut s2) = (vec![0u32; width], vec![0u32; width], vec![0u32; width]);
    // A state's list, by its placed categories (3: none of them).
    const PHASE: [u8; 8] = [0, 1, 1, 2, 1, 2, 2, 3];
    let alive: Vec<[Vec<u32>; 3]> = (0..=n)
        .map(|t| {
            // The three lists written out, not looped over (3 % of the
            // sweep's instructions on master 3 bystander 20 seed 1).
            let (mut f0, mut f1, mut f2) = (0usize, 0usize, 0usize);
            let (s0, s1, s2) = (&mut s0[..placed[t].len()], &mut s1[..placed[t].len()], &mut s2[..placed[t].len()]);
            for (i, (&pl, &b)) in placed[t].iter().zip(&back[t]).enumerate() {
                let (phase, live) = (PHASE[usize::from(pl & 7)], usize::from(b != B::ZERO));
                // Each list's end is at most `i`: in bounds.
                s0[f0] = i as u32;
                s1[f1] = i as u32;
                s2[f2] = i as u32;
                f0 += live & usize::from(phase == 0);
                f1 += live & usize::from(phase == 1);
                f2 += live & usize::from(phase == 2);
            }
            let found = [f0, f1, f2];
            let lists = [&s0[..], &s1[..], &s2[..]];
            std::array::from_fn(|phase| if phase < k { lists[phase][..found[phase]].to_vec() } else { Vec::new() })
        })
        .collect();
    // Per layer, each live state's vector: where it starts among its
    // phase's (F for one category placed, B for two; a state has at most
    // one), and how long each phase's array is. One table per layer serves
    // both sweeps.
    let layout: Vec<Layout> = (0..=n)
        .map(|t| {
            let mut at = vec![NO_VECTOR; placed[t].len()];
            let mut sizes = [0usize; 2];
            for (phase, size) in [1, 2].into_iter().zip(&mut sizes) {
                for &i in &alive[t][phase] {
                    at[i as usize] = *size as u32;
                    let pl = placed[t][i as usize];
                    *size += if phase == 1 { f_len(t, pl) } else { b_len(t, pl) };
                }
            }
            Layout { at, f: sizes[0], b: sizes[1] }
        })
        .collect();
    // The moves of each step that put its card in the case file, as bits.
    let cf_bits: Vec<u32> =
        s.cat_of.iter().map(|m| m.iter().enumerate().fold(0, |b, (i, c)| b | u32::from(c.is_some()) << i)).collect();

    // Forward: F on states with one category placed. With one open
    // category, the first placement ends it; with two, the second.
    let mut f_vals: Vec<Vec<T>> = vec![zeroed(layout[0].f)?];
    for t in 0..n {
        let mut next = zeroed(if k > 1 { layout[t + 1].f } else { 0 })?;
        let step = &plan.steps[t];
        let here = s.pos[step.card as usize];
        let (pre_t, pre_n) = (pre[t], pre[t + 1]);
        let (counts, placed_t, cat_of, cf) = (&fwd.layers[t].counts, &placed[t][..], &s.cat_of[t][..], cf_bits[t]);
        let (back_next, succ) = (&back[t + 1][..], &fwd.succ[t]);
        let (at_t, at_n, f_t) = (&layout[t].at[..], &layout[t + 1].at[..], &f_vals[t][..]);
        let w_of = |i: usize, m: usize| if step.weighted { weight(t, i, m) } else { T::of(1) };
        // The successor of state `i` by move `m`, if it has completions.
        let live = |i: usize, m: usize| succ.by(i, m).filter(|&j| back_next[j] != B::ZERO);
        // Before any placement only the case-file move matters.
        if let Some((m, c)) = s.cf_move[t].and_then(|m| Some((m, cat_of[m]?))) {
            for &i in &alive[t][0] {
                let i = i as usize;
                let Some(j) = live(i, m) else { continue };
                let fw = T::of(counts.get(i)) * w_of(i, m);
                if k == 1 {
                    table[here] += fw * T::of(back_next[j].wide());
                } else {
                    debug_assert!(here < pre_n[c]);
                    next[at_n[j] as usize + here] += fw;
                }
            }
        }
        // With one open category, the first placement ended it.
        let ones: &[u32] = if k > 1 { &alive[t][1] } else { &[] };
        let view = StepView { succ, placed: placed_t, at_t, at_n, cf, pre_t, pre_n, here };
        let pairs = (k == 2).then_some(Pairs { table: &mut table[..], stride: &stride[..], cat_of });
        forward_ones(&view, ones, f_t, &mut next, pairs, |i| T::of(back_next[i].wide()), w_of);
        f_vals.push(next);
    }

    // Final states: what the DP left open comes from the tail, every tail
    // candidate in as many ways: a state's backward count over the number
    // of tail combinations. Summed first by placed categories and first
    // case card, then spread over the tail combinations once per sum (per
    // state, the spreading was a quarter of the sweeps on small states).
    let max_f = dims.iter().copied().max().unwrap_or(0).max(1);
    let mut deals = vec![T::ZERO; 8 * max_f];
    for (i, f) in last.counts.iter().enumerate() {
        let (pl, b) = (placed[n][i], back[n][i]);
        let phase = pl.count_ones() as usize;
        if b == B::ZERO || (phase == k && k > 0) || (k == 3 && phase == 2) {
            continue; // counted at their last or middle placement
        }
        let b = T::of(b.wide());
        let row = &mut deals[usize::from(pl) * max_f..][..max_f];
        if phase == 0 {
            row[0] += T::of(f) * b;
        } else {
            let fx = &f_vals[n][layout[n].at[i] as usize..][..f_len(n, pl)];
            for (to, &fx) in row.iter_mut().zip(fx) {
                *to += fx * b;
            }
        }
    }
    for pl in 0..8u8 {
        let rest: Vec<usize> = (0..k).filter(|&c| pl >> c & 1 == 0).collect();
        let combos: usize = rest.iter().map(|&c| s.tails[c].len()).product();
        let row = &deals[usize::from(pl) * max_f..][..max_f];
        for (x, &d) in row.iter().enumerate() {
            if d == T::ZERO {
                continue;
            }
            let at = if pl == 0 { 0 } else { x * stride[one(pl)] };
            debug_assert!(d.wide() % combos as u128 == 0);
            add_tails(&mut table, at, &rest, &s.tails, &stride, T::of(d.wide() / combos as u128));
        }
    }

    // Backward (three open categories): B on states with two placed, and
    // the middle edges.
    if k == 3 {
        let mut b_next = zeroed::<T>(layout[n].b)?;
        for &i in &alive[n][2] {
            let (i, pl) = (i as usize, placed[n][i as usize]);
            // One open category left: its tail candidates share the
            // state's backward count.
            let ways = T::of(back[n][i].wide() / s.tails[left(pl)].len() as u128);
            let v = &mut b_next[layout[n].at[i] as usize..][..b_len(n, pl)];
            for &y in &s.tails[left(pl)] {
                v[y - pre[n][left(pl)]] = ways;
            }
        }
        for t in (0..n).rev() {
            let mut b_cur = zeroed::<T>(layout[t].b)?;
            let step = &plan.steps[t];
            let here = s.pos[step.card as usize];
            let (pre_t, pre_n) = (pre[t], pre[t + 1]);
            let (placed_t, cat_of, back_next, cf) = (&placed[t][..], &s.cat_of[t][..], &back[t + 1][..], cf_bits[t]);
            let (succ, f_t) = (&fwd.succ[t], &f_vals[t][..]);
            let (at_t, at_n) = (&layout[t].at[..], &layout[t + 1].at[..]);
            let w_of = |i: usize, m: usize| if step.weighted { weight(t, i, m) } else { T::of(1) };
            let live = |i: usize, m: usize| succ.by(i, m).filter(|&j| back_next[j] != B::ZERO);
            let view = StepView { succ, placed: placed_t, at_t, at_n, cf, pre_t, pre_n, here };
            // The middle edges (the case-file move): every (x, y) of the
            // first and last case cards around it.
            if let Some((m, c)) = s.cf_move[t].and_then(|m| Some((m, cat_of[m]?))) {
                let mid = Middle { m, c, len, stride: &stride };
                middle_edges(&view, &mid, &alive[t][1], f_t, &b_next, &mut table, live, w_of);
            }
            backward_twos(&view, &alive[t][2], len, &b_next, &mut b_cur, |j| T::of(back_next[j].wide()), w_of);
            b_next = b_cur;
        }
    }
    Ok(table)
}

/// What the per-layer loops of the sweeps read of one step: its edges, the
/// layer's placed categories, both layers' vector offsets, its case-file
/// moves (bits), the candidates placed before and after it, and its card's
/// index among its category's candidates. Each loop is a function of its
/// own: inside the whole sweep, the compiler kept its counters on the stack.
struct StepView<'a> {
    succ: &'a Edges,
    placed: &'a [u8],
    at_t: &'a [u32],
    at_n: &'a [u32],
    cf: u32,
    pre_t: [usize; 3],
    pre_n: [usize; 3],
    here: usize,
}

/// The category of a vector with one category placed: that one.
fn one(pl: u8) -> usize {
    pl.trailing_zeros() as usize
}

/// The category of a vector with two placed: the one left.
fn left(pl: u8) -> usize {
    (!pl & 0b111).trailing_zeros() as usize
}

/// The forward sweep's edges out of the states with one category placed
/// (`ones`): each adds the state's vector, times the move's weight, into
/// its successor's. With two open categories (`pairs`: the table, its
/// strides and the step's move categories) a second placement ends the
/// case file and adds to the table, by the successor's backward count.
#[inline(never)]
fn forward_ones<T: Word>(
    v: &StepView<'_>,
    ones: &[u32],
    f_t: &[T],
    next: &mut [T],
    mut pairs: Option<Pairs<'_, T>>,
    back_next: impl Fn(usize) -> T,
    w_of: impl Fn(usize, usize) -> T,
) {
    for &i in ones {
        let i = i as usize;
        let c = one(v.placed[i]);
        let (from_len, to_len) = (v.pre_t[c], v.pre_n[c]);
        let from = &f_t[v.at_t[i] as usize..][..from_len];
        for &e in v.succ.slice(i) {
            let (m, j) = Edges::unpack(e);
            if v.cf >> m & 1 == 1 {
                // The second placement: with two open categories it ends
                // the path's case file; with three it is a middle edge,
                // read in the backward sweep.
                if let Some(Pairs { table, stride, cat_of }) = &mut pairs {
                    let c2 = cat_of[m].expect("a case-file move has a category");
                    let b = w_of(i, m) * back_next(j);
                    let (row, x_stride) = (v.here * stride[c2], stride[c]);
                    for (x, &fx) in from.iter().enumerate() {
                        table[row + x * x_stride] += fx * b;
                    }
                }
                continue;
            }
            // A successor without completions has no vector: it adds
            // nothing.
            let Some(to) = vector_mut(next, v.at_n[j], to_len) else { continue };
            axpy(to, from, w_of(i, m));
        }
    }
}

/// With two open categories, where the forward sweep's second placements
/// go: the table, its strides, and the step's move categories.
struct Pairs<'a, T> {
    table: &'a mut [T],
    stride: &'a [usize],
    cat_of: &'a [Option<usize>],
}

/// A step's middle edges: its case-file move `m`, the category `c` it
/// fills, the categories' candidate counts and the table's strides.
struct Middle<'a> {
    m: usize,
    c: usize,
    len: [usize; 3],
    stride: &'a [usize],
}

/// The middle edges out of the states with one category placed: each
/// adds, for every first case card `x` and last one `y`, `F[x] × w ×
/// B[y]` to the case file `{x, here, y}`.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn middle_edges<T: Word>(
    v: &StepView<'_>,
    mid: &Middle<'_>,
    ones: &[u32],
    f_t: &[T],
    b_next: &[T],
    table: &mut [T],
    live: impl Fn(usize, usize) -> Option<usize>,
    w_of: impl Fn(usize, usize) -> T,
) {
    let (c, stride) = (mid.c, mid.stride);
    for &i in ones {
        let (i, pl) = (i as usize, v.placed[i as usize]);
        let Some(j) = live(i, mid.m) else { continue };
        let w = w_of(i, mid.m);
        let (x_cat, y_cat) = (one(pl), left(pl | 1 << c));
        let Some(b_y) = vector(b_next, v.at_n[j], mid.len[y_cat] - v.pre_n[y_cat]) else { continue };
        let at = v.here * stride[c] + v.pre_n[y_cat] * stride[y_cat];
        let (x_stride, y_stride) = (stride[x_cat], stride[y_cat]);
        for (x, &fx) in f_t[v.at_t[i] as usize..][..v.pre_t[x_cat]].iter().enumerate() {
            if fx == T::ZERO {
                continue;
            }
            let fw = fx * w;
            let row = at + x * x_stride;
            for (y, &by) in b_y.iter().enumerate() {
                table[row + y * y_stride] += fw * by;
            }
        }
    }
}

/// The backward sweep's edges out of the states with two categories
/// placed (`twos`): each state's vector over its last case card gets the
/// successor's vector (the suffix after this step), times the move's
/// weight, or, for the case-file move, the successor's backward count at
/// this step's card.
#[inline(never)]
fn backward_twos<T: Word>(
    v: &StepView<'_>,
    twos: &[u32],
    len: [usize; 3],
    b_next: &[T],
    b_cur: &mut [T],
    back_next: impl Fn(usize) -> T,
    w_of: impl Fn(usize, usize) -> T,
) {
    for &i in twos {
        let (i, pl) = (i as usize, v.placed[i as usize]);
        let y_cat = left(pl);
        let to = &mut b_cur[v.at_t[i] as usize..][..len[y_cat] - v.pre_t[y_cat]];
        // The suffix at the next layer starts where the card of this
        // step, if a candidate, is left out.
        let (skip, from_len) = (v.pre_n[y_cat] - v.pre_t[y_cat], len[y_cat] - v.pre_n[y_cat]);
        for &e in v.succ.slice(i) {
            let (m, j) = Edges::unpack(e);
            if v.cf >> m & 1 == 1 {
                // The last placement: this step's card is the last case
                // card.
                to[v.here - v.pre_t[y_cat]] += w_of(i, m) * back_next(j);
            } else if let Some(from) = vector(b_next, v.at_n[j], from_len) {
                axpy(&mut to[skip..], from, w_of(i, m));
            }
        }
    }
}

/// A layer's vector offsets: state `i`'s vector starts at `at[i]` in its
/// phase's array ([`NO_VECTOR`] for a state without one); `f` and `b` are
/// the lengths of the layer's F and B arrays.
struct Layout {
    at: Vec<u32>,
    f: usize,
    b: usize,
}

/// A state without a vector (no completions, or not in a phase with one).
const NO_VECTOR: u32 = u32::MAX;

/// The vector of `len` entries at `at` in `vals`, if there is one.
#[inline]
fn vector<T>(vals: &[T], at: u32, len: usize) -> Option<&[T]> {
    (at != NO_VECTOR).then(|| &vals[at as usize..at as usize + len])
}

/// [`vector`], mutable.
#[inline]
fn vector_mut<T>(vals: &mut [T], at: u32, len: usize) -> Option<&mut [T]> {
    (at != NO_VECTOR).then(|| &mut vals[at as usize..at as usize + len])
}

/// `to += w × from`, element by element (as far as both go); a plain sum
/// when `w` is one, as on every unweighted step.
fn axpy<T: Word>(to: &mut [T], from: &[T], w: T) {
    if w == T::of(1) {
        for (to, &x) in to.iter_mut().zip(from) {
            *to += x;
        }
    } else {
        for (to, &x) in to.iter_mut().zip(from) {
            *to += x * w;
        }
    }
}

/// Adds `v` at index `at` plus every combination of one tail candidate of
/// each category in `rest`.
fn add_tails<T: Word>(table: &mut [T], at: usize, rest: &[usize], tails: &[Vec<usize>], stride: &[usize], v: T) {
    let Some((&c, more)) = rest.split_first() else {
        table[at] += v;
        return;
    };
    for &x in &tails[c] {
        add_tails(table, at + x * stride[c], more, tails, stride, v);
    }
}

/// The weight of move `m` of state `i` at step `t` of a weighted step (a
/// pooled plan's ways to pick the players), as the sweeps multiply it.
fn move_weight<T: Word>(plan: &Plan, fwd: &Forward, t: usize, i: usize, m: usize) -> T {
    if plan.weights64 {
        let (slots, joins) = plan.weight64(&plan.steps[t], fwd.layers[t].keys.get(i) as u64, m);
        return T::of(u128::from(slots * joins));
    }
    let (slots, joins) = plan.weight(&plan.steps[t], fwd.layers[t].keys.get(i), m);
    T::of(slots) * T::of(joins)
}

/// The largest table of candidate combinations kept.
const MAX_TABLE: usize = 1 << 20;

/// The most open categories the sweeps take: the forward pass keeps a
/// state's placed categories in one or two bytes, and [`many`]'s tables
/// run over every set of categories per layer (4,096 at twelve).
const MAX_OPEN: usize = 12;
