//! The case-file distribution from the count's own passes (up to three
//! open categories; see ARCHITECTURE.md, "Case files").
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

use super::arith::Word;
use super::dp::Forward;
use super::plan::{CardClasses, Plan};
use super::{CaseFiles, CountError};
use crate::deduce::{Problem, Reduced};
use crate::model::{Card, MAX_CARDS};

/// The case files with their (unscaled) counts, or `None` when the plan
/// has more than three open categories or too many combinations (the
/// caller then uses another method).
pub(super) fn case_files<B: Word>(
    p: &Problem,
    r: &Reduced,
    plan: &Plan,
    fwd: &Forward,
    back: &[Vec<B>],
    total: u128,
) -> Result<CaseFiles, CountError> {
    let Some(s) = Setup::new(p, r, plan, fwd) else { return Ok(None) };
    let table = if total <= u128::from(u64::MAX) {
        sweep::<u64, B>(&s, plan, fwd, back)?.into_iter().map(u128::from).collect()
    } else {
        sweep::<u128, B>(&s, plan, fwd, back)?
    };
    // The table, with the categories decided by propagation.
    let cf = p.np as u8;
    let fixed: Vec<Option<Card>> =
        p.categories.iter().map(|cat| cat.iter().find(|c| r.assigned[c.index()] == cf)).collect();
    let mut out = Vec::new();
    for (at, &v) in table.iter().enumerate() {
        if v == 0 {
            continue;
        }
        let (mut rest, mut picked) = (at, [0u8; 3]);
        for (c, cands) in s.cands.iter().enumerate() {
            picked[c] = cands[rest % cands.len()];
            rest /= cands.len();
        }
        let file = (0..p.categories.len())
            .map(|cat| match s.cat_index[cat] {
                usize::MAX => fixed[cat].expect("a category not open is decided"),
                c => Card(picked[c]),
            })
            .collect();
        debug_assert!(v % plan.scale == 0);
        out.push((file, v / plan.scale));
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
    /// Categories placed per state, layer by layer.
    placed: Vec<Vec<u8>>,
    /// Per step, the index of its case-file move.
    cf_move: Vec<Option<usize>>,
}

impl Setup {
    fn new(p: &Problem, r: &Reduced, plan: &Plan, fwd: &Forward) -> Option<Setup> {
        let cards = CardClasses::new(p, r);
        let cf = p.np as u8;
        let open = plan.open_cats();
        if open.len() > 3 {
            return None;
        }
        let mut s = Setup {
            cands: Vec::new(),
            tails: Vec::new(),
            pos: [usize::MAX; MAX_CARDS],
            cat_index: vec![usize::MAX; p.categories.len()],
            cat_of: Vec::new(),
            placed: Vec::new(),
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
        // Each state's placed categories, without a loop per key (one cost
        // a tenth of the sweeps): the categories' bits are side by side in
        // the key, so one shift and mask read them.
        let masks = plan.placed_masks()?;
        s.placed = match plan.placed_field() {
            Some((off, mask)) => {
                fwd.layers.iter().map(|l| l.keys.iter().map(|key| (key >> off & mask) as u8).collect()).collect()
            }
            None => {
                let placed_of = |key: u128| {
                    u8::from(key & masks[0] != 0)
                        | u8::from(key & masks[1] != 0) << 1
                        | u8::from(key & masks[2] != 0) << 2
                };
                fwd.layers.iter().map(|l| l.keys.iter().map(placed_of).collect()).collect()
            }
        };
        s.cf_move = plan.steps.iter().map(|st| st.moves.iter().position(|mv| mv.place == cf)).collect();
        Some(s)
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
    let placed = &s.placed;
    // Slices, not `Vec`s, in the loops below: after a store into a vector
    // the compiler reloads every `Vec` header it cannot prove untouched.
    let weight = |t: usize, i: usize, m: usize| -> T {
        let (slots, joins) = plan.weight(&plan.steps[t], fwd.layers[t].keys.get(i), m);
        T::of(slots) * T::of(joins)
    };
    let last = fwd.layers.last().expect("a forward pass has a final layer");
    // The category of a state's vector: the one placed (phase 1) or the
    // one left (phase 2).
    let one = |pl: u8| pl.trailing_zeros() as usize;
    let left = |pl: u8| (!pl & 0b111).trailing_zeros() as usize;
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
    // phase, without a branch per state: the phases mix at random, and a
    // branch that mispredicts cost more than the three passes. With `k`
    // open categories the loops read phases below `k` only.
    // One pass per layer fills the three lists: each state is written at
    // every list's end, and only its own list's end moves.
    let width = placed.iter().map(Vec::len).max().unwrap_or(0);
    let mut scratch = [vec![0u32; width], vec![0u32; width], vec![0u32; width]];
    const PHASE: [u8; 8] = [0, 1, 1, 2, 1, 2, 2, 3];
    let alive: Vec<[Vec<u32>; 3]> = (0..=n)
        .map(|t| {
            let mut found = [0usize; 3];
            for (i, (&pl, &b)) in placed[t].iter().zip(&back[t]).enumerate() {
                let (phase, live) = (PHASE[usize::from(pl & 7)], usize::from(b != B::ZERO));
                for (list, (at, to)) in found.iter_mut().zip(&mut scratch).enumerate() {
                    to[*at] = i as u32;
                    *at += live & usize::from(usize::from(phase) == list);
                }
            }
            std::array::from_fn(|phase| if phase < k { scratch[phase][..found[phase]].to_vec() } else { Vec::new() })
        })
        .collect();
    let vectors = |t: usize, phase: usize| -> Vectors<T> {
        let mut at = vec![u32::MAX; placed[t].len()];
        let mut len = 0usize;
        for &i in &alive[t][phase] {
            at[i as usize] = len as u32;
            let pl = placed[t][i as usize];
            len += if phase == 1 { f_len(t, pl) } else { b_len(t, pl) };
        }
        Vectors { at, val: vec![T::ZERO; len] }
    };

    // Forward: F on states with one category placed. With one open
    // category, the first placement ends it; with two, the second.
    let mut f_vec: Vec<Vectors<T>> = vec![vectors(0, 1)];
    for t in 0..n {
        let mut next = if k > 1 { vectors(t + 1, 1) } else { Vectors::default() };
        let step = &plan.steps[t];
        let at = s.pos[step.card as usize];
        let (pre_t, pre_n) = (pre[t], pre[t + 1]);
        let (counts, placed_t, cat_of) = (&fwd.layers[t].counts, &placed[t][..], &s.cat_of[t][..]);
        let (back_next, f_t, succ) = (&back[t + 1][..], f_vec[t].view(), &fwd.succ[t]);
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
                    table[at] += fw * T::of(back_next[j].wide());
                } else {
                    let to = &mut next.get_mut(j, pre_n[c])[at];
                    *to += fw;
                }
            }
        }
        // With one open category, the first placement ended it.
        let ones: &[u32] = if k > 1 { &alive[t][1] } else { &[] };
        for &i in ones {
            let (i, pl) = (i as usize, placed_t[i as usize]);
            let from = f_t.get(i, pre_t[one(pl)]);
            // A successor without completions has no vector and a
            // backward count of zero: it adds nothing, untested.
            for (m, j) in succ.of(i) {
                let w = w_of(i, m);
                match cat_of[m] {
                    Some(c) if k == 2 => {
                        let b = w * T::of(back_next[j].wide());
                        let (row, x_stride) = (at * stride[c], stride[one(pl)]);
                        for (x, &fx) in from.iter().enumerate() {
                            let to = &mut table[row + x * x_stride];
                            *to += fx * b;
                        }
                    }
                    Some(_) => {} // the middle edge: in the backward sweep
                    None => axpy(next.get_mut(j, pre_n[one(pl)]), from, w),
                }
            }
        }
        f_vec.push(next);
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
            for (to, &fx) in row.iter_mut().zip(f_vec[n].view().get(i, f_len(n, pl))) {
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
        let mut b_next = vectors(n, 2);
        for &i in &alive[n][2] {
            let (i, pl) = (i as usize, placed[n][i as usize]);
            // One open category left: its tail candidates share the
            // state's backward count.
            let ways = T::of(back[n][i].wide() / s.tails[left(pl)].len() as u128);
            let v = b_next.get_mut(i, b_len(n, pl));
            for &y in &s.tails[left(pl)] {
                v[y - pre[n][left(pl)]] = ways;
            }
        }
        for t in (0..n).rev() {
            let mut b_cur = vectors(t, 2);
            let step = &plan.steps[t];
            let at = s.pos[step.card as usize];
            let (pre_t, pre_n) = (pre[t], pre[t + 1]);
            let (placed_t, cat_of, back_next) = (&placed[t][..], &s.cat_of[t][..], &back[t + 1][..]);
            let (succ, f_t, b_n) = (&fwd.succ[t], f_vec[t].view(), b_next.view());
            let w_of = |i: usize, m: usize| if step.weighted { weight(t, i, m) } else { T::of(1) };
            let live = |i: usize, m: usize| succ.by(i, m).filter(|&j| back_next[j] != B::ZERO);
            // The middle edges (the case-file move): every (x, y) of the
            // first and last case cards around it.
            if let Some((m, c)) = s.cf_move[t].and_then(|m| Some((m, cat_of[m]?))) {
                for &i in &alive[t][1] {
                    let (i, pl) = (i as usize, placed_t[i as usize]);
                    let Some(j) = live(i, m) else { continue };
                    let w = w_of(i, m);
                    let (x_cat, y_cat) = (one(pl), left(pl | 1 << c));
                    let b_y = b_n.get(j, len[y_cat] - pre_n[y_cat]);
                    let at = at * stride[c] + pre_n[y_cat] * stride[y_cat];
                    for (x, &fx) in f_t.get(i, pre_t[x_cat]).iter().enumerate() {
                        if fx == T::ZERO {
                            continue;
                        }
                        let fw = fx * w;
                        let row = at + x * stride[x_cat];
                        for (y, &by) in b_y.iter().enumerate() {
                            let to = &mut table[row + y * stride[y_cat]];
                            *to += fw * by;
                        }
                    }
                }
            }
            for &i in &alive[t][2] {
                let (i, pl) = (i as usize, placed_t[i as usize]);
                let y_cat = left(pl);
                let to = b_cur.get_mut(i, len[y_cat] - pre_t[y_cat]);
                // The suffix at `t + 1` starts where the card of step `t`,
                // if a candidate, is left out.
                let (skip, from_len) = (pre_n[y_cat] - pre_t[y_cat], len[y_cat] - pre_n[y_cat]);
                for (m, j) in succ.of(i) {
                    let w = w_of(i, m);
                    match cat_of[m] {
                        Some(c) => {
                            let y = &mut to[at - pre_t[c]];
                            *y += w * T::of(back_next[j].wide());
                        }
                        None => axpy(&mut to[skip..], b_n.get(j, from_len), w),
                    }
                }
            }
            b_next = b_cur;
        }
    }
    Ok(table)
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

/// [`Vectors`] read: slices, so that the sweeps' stores do not make the
/// compiler reload them.
#[derive(Clone, Copy)]
struct View<'a, T> {
    at: &'a [u32],
    val: &'a [T],
}

impl<'a, T> View<'a, T> {
    /// State `i`'s vector (empty if it has none).
    fn get(self, i: usize, len: usize) -> &'a [T] {
        match self.at[i] {
            u32::MAX => &[],
            a => &self.val[a as usize..a as usize + len],
        }
    }
}

/// The largest table of candidate combinations kept.
const MAX_TABLE: usize = 1 << 20;

/// One vector per state of a layer, stored flat: state `i`'s starts at
/// `at[i]` (`u32::MAX` for a state without one).
struct Vectors<T> {
    at: Vec<u32>,
    val: Vec<T>,
}

impl<T> Default for Vectors<T> {
    fn default() -> Self {
        Vectors { at: Vec::new(), val: Vec::new() }
    }
}

impl<T> Vectors<T> {
    fn view(&self) -> View<'_, T> {
        View { at: &self.at, val: &self.val }
    }

    fn get_mut(&mut self, i: usize, len: usize) -> &mut [T] {
        match self.at[i] {
            u32::MAX => &mut [],
            a => &mut self.val[a as usize..a as usize + len],
        }
    }
}
