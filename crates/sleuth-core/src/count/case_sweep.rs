//! The case-file distribution from the count's own passes (up to three
//! open categories; see ARCHITECTURE.md, "Case files").
//!
//! A deal's case cards are placed by the DP one category at a time (or
//! come from the tail at the end), so along a path the number of
//! categories *placed* goes 0, 1, 2, 3. Keys only say which categories are
//! placed, not by which card; the card is recovered by two sweeps over the
//! stored layers and successor tables of the count:
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

use super::arith::{add, mul};
use super::dp::{Forward, NO_STATE};
use super::plan::{CardClasses, Plan};
use super::CountError;
use crate::deduce::{Problem, Reduced};
use crate::model::{Card, MAX_CARDS, MAX_PLACES};

/// The case files with their (unscaled) counts, or `None` when the plan
/// has more than three open categories or too many combinations (the
/// caller then uses another method).
pub(super) fn case_files(
    p: &Problem,
    r: &Reduced,
    plan: &Plan,
    fwd: &Forward,
    back: &[Vec<u128>],
) -> Result<Option<Vec<(Vec<Card>, u128)>>, CountError> {
    let cards = CardClasses::new(p, r);
    let cf = p.np as u8;
    let open = plan.open_cats();
    let k = open.len();
    if k > 3 {
        return Ok(None);
    }
    // Per open category, its candidates: DP cards allowed in the case file,
    // then tail cards allowed there; `pos[card]` is the card's index there.
    let mut cands: Vec<Vec<u8>> = Vec::new();
    let mut tails: Vec<Vec<usize>> = Vec::new();
    let mut pos = [usize::MAX; MAX_CARDS];
    let mut cat_index = vec![usize::MAX; p.categories.len()];
    for (i, o) in open.iter().enumerate() {
        cat_index[o.category] = i;
        let cat = p.categories[o.category];
        let ok = |c: &Card| r.allowed[c.index()] >> cf & 1 == 1;
        let dp: Vec<u8> =
            plan.steps.iter().map(|s| s.card).filter(|&c| cat.contains(Card(c)) && ok(&Card(c))).collect();
        let tail: Vec<u8> = (cat & cards.tail).iter().filter(ok).map(|c| c.index() as u8).collect();
        tails.push((dp.len()..dp.len() + tail.len()).collect());
        let all: Vec<u8> = dp.into_iter().chain(tail).collect();
        for (x, &c) in all.iter().enumerate() {
            pos[c as usize] = x;
        }
        cands.push(all);
    }
    let dims: Vec<usize> = cands.iter().map(Vec::len).collect();
    let size = dims.iter().product::<usize>();
    if size > MAX_TABLE {
        return Ok(None);
    }
    let mut table = Table { dims: dims.clone(), n: vec![0u128; size] };
    let n = plan.steps.len();
    // Per step and move: the open category (index) a case-file move fills.
    let cat_of: Vec<Vec<Option<usize>>> = plan
        .steps
        .iter()
        .map(|s| {
            s.moves
                .iter()
                .map(|mv| (mv.place == cf).then(|| cat_index[p.category_of[s.card as usize] as usize]))
                .collect()
        })
        .collect();
    // Categories placed per state, layer by layer (a function of the key,
    // carried along the successor tables since the count drops old keys).
    let mut placed: Vec<Vec<u8>> = vec![vec![0]];
    for t in 0..n {
        let mut next = vec![0u8; fwd.layers[t + 1].counts.len()];
        let width = plan.steps[t].moves.len();
        for (i, succ) in fwd.succ[t].chunks_exact(width).enumerate() {
            for (m, &j) in succ.iter().enumerate() {
                if j != NO_STATE {
                    next[j as usize] = placed[t][i] | cat_of[t][m].map_or(0, |c| 1 << c);
                }
            }
        }
        placed.push(next);
    }
    let weight = |t: usize, i: usize, m: usize| -> Result<u128, CountError> {
        let step = &plan.steps[t];
        if !step.weighted {
            return Ok(1);
        }
        let (slots, joins) = plan.weight(step, fwd.layers[t].keys[i], m);
        mul(slots, joins)
    };
    let last = fwd.layers.last().expect("a forward pass has a final layer");
    let mut shares = [0u128; MAX_PLACES];
    let full = |i: usize, shares: &mut [u128; MAX_PLACES]| -> Result<u128, CountError> {
        plan.player_shares(last.keys[i], shares)?;
        Ok(shares[p.np])
    };

    // Forward: F on states with one category placed (x indexes its
    // candidates). With one open category, the first placement ends it.
    let mut f_vec: Vec<Vec<Vec<u128>>> = vec![vec![Vec::new()]];
    for t in 0..n {
        let layer = &fwd.layers[t];
        let mut next: Vec<Vec<u128>> = vec![Vec::new(); fwd.layers[t + 1].counts.len()];
        let width = plan.steps[t].moves.len();
        for (i, succ) in fwd.succ[t].chunks_exact(width).enumerate() {
            if back[t][i] == 0 {
                continue;
            }
            let phase = placed[t][i].count_ones();
            if phase > 1 || (phase == 1 && k == 1) {
                continue;
            }
            for (m, &j) in succ.iter().enumerate() {
                if j == NO_STATE || back[t + 1][j as usize] == 0 {
                    continue;
                }
                let j = j as usize;
                let w = weight(t, i, m)?;
                let card = plan.steps[t].card as usize;
                match (phase, cat_of[t][m]) {
                    (0, Some(c)) if k == 1 => {
                        let v = mul(mul(layer.counts[i], w)?, back[t + 1][j])?;
                        table.add(&[(c, pos[card])], v)?;
                    }
                    (0, Some(c)) => {
                        let to = vec_of(&mut next[j], dims[c]);
                        to[pos[card]] = add(to[pos[card]], mul(layer.counts[i], w)?)?;
                    }
                    (0, None) => {}
                    (_, Some(c)) if k == 2 => {
                        let x_cat = placed[t][i].trailing_zeros() as usize;
                        let b = mul(w, back[t + 1][j])?;
                        for (x, &fx) in f_vec[t][i].iter().enumerate() {
                            if fx != 0 {
                                table.add(&[(x_cat, x), (c, pos[card])], mul(fx, b)?)?;
                            }
                        }
                    }
                    (_, Some(_)) => {} // the middle edge: in the backward sweep
                    (_, None) => {
                        let from = &f_vec[t][i];
                        let to = vec_of(&mut next[j], from.len());
                        for (to, &fx) in to.iter_mut().zip(from) {
                            *to = add(*to, mul(fx, w)?)?;
                        }
                    }
                }
            }
        }
        f_vec.push(next);
    }

    // Final states: what the DP left open comes from the tail.
    for (i, &f) in last.counts.iter().enumerate() {
        if back[n][i] == 0 {
            continue;
        }
        let pl = placed[n][i];
        let phase = pl.count_ones() as usize;
        if (phase == k && k > 0) || (k == 3 && phase == 2) {
            continue; // counted at their last or middle placement
        }
        let ways = full(i, &mut shares)?;
        let rest: Vec<usize> = (0..k).filter(|&c| pl >> c & 1 == 0).collect();
        if phase == 0 {
            table.add_tails(&[], &rest, &tails, mul(f, ways)?)?;
        } else {
            let x_cat = pl.trailing_zeros() as usize;
            for (x, &fx) in f_vec[n][i].iter().enumerate() {
                if fx != 0 {
                    table.add_tails(&[(x_cat, x)], &rest, &tails, mul(fx, ways)?)?;
                }
            }
        }
    }

    // Backward (three open categories): B on states with two placed, and
    // the middle edges.
    if k == 3 {
        let mut b_next: Vec<Vec<u128>> = vec![Vec::new(); last.counts.len()];
        for (i, b) in b_next.iter_mut().enumerate() {
            let pl = placed[n][i];
            if back[n][i] == 0 || pl.count_ones() != 2 {
                continue;
            }
            let y_cat = (!pl & 0b111).trailing_zeros() as usize;
            let ways = full(i, &mut shares)?;
            let v = vec_of(b, dims[y_cat]);
            for &y in &tails[y_cat] {
                v[y] = ways;
            }
        }
        for t in (0..n).rev() {
            let mut b_cur: Vec<Vec<u128>> = vec![Vec::new(); fwd.layers[t].counts.len()];
            let width = plan.steps[t].moves.len();
            let card = plan.steps[t].card as usize;
            for (i, succ) in fwd.succ[t].chunks_exact(width).enumerate() {
                if back[t][i] == 0 {
                    continue;
                }
                let pl = placed[t][i];
                let phase = pl.count_ones();
                if phase == 0 || phase == 3 {
                    continue;
                }
                for (m, &j) in succ.iter().enumerate() {
                    if j == NO_STATE || back[t + 1][j as usize] == 0 {
                        continue;
                    }
                    let j = j as usize;
                    let w = weight(t, i, m)?;
                    match (phase, cat_of[t][m]) {
                        (2, None) => {
                            let from = &b_next[j];
                            let to = vec_of(&mut b_cur[i], from.len());
                            for (to, &by) in to.iter_mut().zip(from) {
                                *to = add(*to, mul(by, w)?)?;
                            }
                        }
                        (2, Some(c)) => {
                            let to = vec_of(&mut b_cur[i], dims[c]);
                            to[pos[card]] = add(to[pos[card]], mul(w, back[t + 1][j])?)?;
                        }
                        (_, Some(c)) => {
                            let x_cat = pl.trailing_zeros() as usize;
                            let y_cat = (!(pl | 1 << c) & 0b111).trailing_zeros() as usize;
                            for (x, &fx) in f_vec[t][i].iter().enumerate() {
                                if fx == 0 {
                                    continue;
                                }
                                let fw = mul(fx, w)?;
                                for (y, &by) in b_next[j].iter().enumerate() {
                                    if by != 0 {
                                        table.add(&[(x_cat, x), (c, pos[card]), (y_cat, y)], mul(fw, by)?)?;
                                    }
                                }
                            }
                        }
                        (_, None) => {}
                    }
                }
            }
            b_next = b_cur;
        }
    }

    // The table, with the categories decided by propagation.
    let fixed: Vec<Option<Card>> =
        p.categories.iter().map(|cat| cat.iter().find(|c| r.assigned[c.index()] == cf)).collect();
    let mut out = Vec::new();
    for (at, &v) in table.n.iter().enumerate() {
        if v == 0 {
            continue;
        }
        let mut rest = at;
        let mut picked = vec![0u8; k];
        for c in 0..k {
            picked[c] = cands[c][rest % dims[c]];
            rest /= dims[c];
        }
        let file = (0..p.categories.len())
            .map(|cat| match cat_index[cat] {
                usize::MAX => fixed[cat].expect("a category not open is decided"),
                c => Card(picked[c]),
            })
            .collect();
        debug_assert!(v % plan.scale == 0);
        out.push((file, v / plan.scale));
    }
    Ok(Some(out))
}

/// The largest table of candidate combinations kept densely.
const MAX_TABLE: usize = 1 << 20;

/// A vector of `len` zeros in place of an empty one.
fn vec_of(v: &mut Vec<u128>, len: usize) -> &mut Vec<u128> {
    if v.is_empty() {
        v.resize(len, 0);
    }
    v
}

/// Counts per combination of candidates, one index per open category.
struct Table {
    dims: Vec<usize>,
    n: Vec<u128>,
}

impl Table {
    /// Adds `v` at the combination given as (category, candidate) pairs,
    /// which name every open category.
    fn add(&mut self, at: &[(usize, usize)], v: u128) -> Result<(), CountError> {
        let mut idx = 0;
        let mut stride = 1;
        for c in 0..self.dims.len() {
            let x = at.iter().find(|a| a.0 == c).expect("every category named").1;
            idx += x * stride;
            stride *= self.dims[c];
        }
        self.n[idx] = add(self.n[idx], v)?;
        Ok(())
    }

    /// Adds `v` at every combination of `given` with one tail candidate of
    /// each category in `rest`.
    fn add_tails(
        &mut self,
        given: &[(usize, usize)],
        rest: &[usize],
        tails: &[Vec<usize>],
        v: u128,
    ) -> Result<(), CountError> {
        let Some((&c, more)) = rest.split_first() else { return self.add(given, v) };
        for &x in &tails[c] {
            let mut at = given.to_vec();
            at.push((c, x));
            self.add_tails(&at, more, tails, v)?;
        }
        Ok(())
    }
}
