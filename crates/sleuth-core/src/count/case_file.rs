//! The exact distribution of the case file.
//!
//! [`super::count_with_case_files`] reads it from the count's own passes
//! ([`super::case_sweep`]), for up to twelve open categories. Two other
//! methods remain, as fallbacks (more open categories, too many
//! combinations, or vectors too large at every split) and as the tests'
//! references:
//!
//! * [`identified`]: one forward pass of an *identifying* DP
//!   ([`Plan::new_identifying`]), whose key carries which DP card went to
//!   the case file per category. Exact for any number of categories, but
//!   its states are 10 to 50 times the count's on master 10-player states.
//! * [`by_fixing`]: one count per combination of the other categories'
//!   candidates, the free category's distribution read from the marginals:
//!   the method before issue 20, five to twenty-five times the count.

use super::arith::{add, mul};
use super::card_outer::card_outer_files;
use super::choice::{choose_order, plan};
use super::classes::alike_cards;
use super::plan::{CardClasses, Plan};
use super::{count_marginals, dp, CaseFiles, CountError, CountOptions, Counts, MAX_CASE_FILES};
use crate::deduce::{propagate, CountProblem, Reduced};
use crate::model::{Card, MAX_PLACES};
use rustc_hash::FxHashMap;

/// Possible case files with their number of consistent deals, most likely
/// first (ties in deck order), given the problem's counts.
///
/// # Errors
/// [`CountError::TooManyCaseFiles`] when more than [`MAX_CASE_FILES`] case
/// files are possible; otherwise [`CountError`] from the underlying count.
pub fn case_files(p: &CountProblem, counts: &Counts, options: &CountOptions<'_>) -> Result<CaseFileList, CountError> {
    if counts.total == 0 {
        return Ok(CaseFileList::default());
    }
    let Some(r) = propagate(p) else { return Ok(CaseFileList::default()) };
    match after_count(p, &r, counts, options)? {
        Some(mut files) => {
            files.sort();
            Ok(files)
        }
        None => Err(CountError::TooManyCaseFiles(listed(p, counts))),
    }
}

/// Possible case files with their numbers of deals: each file's cards,
/// one per category in category order, stored side by side in one vector
/// (a bystander's list runs to hundreds of files: a vector per file was
/// a tenth of such an analysis, in allocating and freeing them).
#[derive(Clone, Debug, Default)]
pub struct CaseFileList {
    /// Cards per file (the number of categories).
    width: usize,
    cards: Vec<Card>,
    counts: Vec<u128>,
}

impl CaseFileList {
    /// An empty list of files of `width` cards.
    pub fn new(width: usize) -> CaseFileList {
        CaseFileList { width, cards: Vec::new(), counts: Vec::new() }
    }

    /// Adds a file: its cards in category order, and its deals.
    ///
    /// # Panics
    /// If the file does not have one card per category.
    pub fn push(&mut self, cards: impl IntoIterator<Item = Card>, n: u128) {
        let before = self.cards.len();
        self.cards.extend(cards);
        assert_eq!(self.cards.len() - before, self.width, "a case file has one card per category");
        self.counts.push(n);
    }

    /// The number of files.
    pub fn len(&self) -> usize {
        self.counts.len()
    }

    /// Whether there is no file.
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// File `i`: its cards and its deals.
    pub fn get(&self, i: usize) -> (&[Card], u128) {
        (&self.cards[i * self.width..][..self.width], self.counts[i])
    }

    /// The first file, if any.
    pub fn first(&self) -> Option<(&[Card], u128)> {
        (!self.is_empty()).then(|| self.get(0))
    }

    /// Every file, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&[Card], u128)> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// Most likely first, ties in deck order. No two files have the same
    /// cards, so an unstable sort gives the one order.
    pub fn sort(&mut self) {
        // (No cards at all, on a deck without categories: the general way.)
        let fits = (1..=8).contains(&self.width) && self.counts.iter().all(|&n| n >> 64 == 0);
        if fits {
            // The count (below 2^64) and up to eight cards (each below 64)
            // packed into one number whose order is the list's: more deals
            // first, then the cards (every file has as many). The numbers
            // alone are sorted and the list rebuilt from them (sorting
            // them with each file's index took twice the instructions).
            let width = self.width;
            let mut keys: Vec<u128> = (self.cards.chunks_exact(width).zip(&self.counts))
                .map(|(cards, &n)| {
                    let packed = cards.iter().fold(0u64, |w, c| w << 8 | u64::from(c.0));
                    u128::from(u64::MAX - n as u64) << 64 | u128::from(packed)
                })
                .collect();
            keys.sort_unstable();
            self.cards.clear();
            self.counts.clear();
            for k in keys {
                let packed = k as u64;
                self.cards.extend((0..width).rev().map(|c| Card((packed >> (8 * c)) as u8)));
                self.counts.push(u128::from(u64::MAX - (k >> 64) as u64));
            }
            return;
        }
        let mut order: Vec<u32> = (0..self.len() as u32).collect();
        order.sort_unstable_by(|&a, &b| {
            let ((ca, na), (cb, nb)) = (self.get(a as usize), self.get(b as usize));
            nb.cmp(&na).then_with(|| ca.cmp(cb))
        });
        let mut sorted = CaseFileList::new(self.width);
        sorted.cards.reserve(self.cards.len());
        sorted.counts.reserve(self.len());
        for i in order {
            let (cards, n) = self.get(i as usize);
            sorted.cards.extend_from_slice(cards);
            sorted.counts.push(n);
        }
        *self = sorted;
    }

    /// Room for `files` more files.
    pub fn reserve(&mut self, files: usize) {
        self.cards.reserve(files * self.width);
        self.counts.reserve(files);
    }
}

/// Two lists are equal when they hold the same files in the same order (an
/// empty list whatever its width).
impl PartialEq for CaseFileList {
    fn eq(&self, other: &CaseFileList) -> bool {
        self.counts == other.counts && self.cards == other.cards && (self.is_empty() || self.width == other.width)
    }
}

impl Eq for CaseFileList {}

/// How many case files the marginals allow: the product over categories of
/// the cards with a positive count at the case file.
pub(super) fn listed(p: &CountProblem, counts: &Counts) -> u128 {
    let cf = p.np;
    p.categories
        .iter()
        .map(|cards| cards.iter().filter(|c| counts.marginal[c.index()][cf] > 0).count() as u128)
        .product()
}

/// The case files of a counted problem (unsorted), by a card-outer count
/// with the case-file sweep; `None` when there are too many.
fn after_count(
    p: &CountProblem,
    r: &Reduced,
    counts: &Counts,
    options: &CountOptions<'_>,
) -> Result<CaseFiles, CountError> {
    if counts.total == 0 {
        return Ok(Some(CaseFileList::default()));
    }
    if listed(p, counts) > MAX_CASE_FILES {
        return Ok(None);
    }
    let plan = plan(p, r)?;
    let files = match card_outer_files(p, r, &plan, true, options) {
        Err(CountError::Overflow) if plan.scale > 1 => {
            let order = plan.steps.iter().map(|s| s.card).collect();
            card_outer_files(p, r, &Plan::new(p, r, &CardClasses::new(p, r), order)?, true, options)?.1
        }
        other => other?.1,
    };
    Ok(files)
}

/// The case files of the players-outer counter (card bitmasks of the open
/// categories) as card lists, with the categories propagation decided.
pub(super) fn from_masks(p: &CountProblem, r: &Reduced, files: &[(u64, u128)]) -> CaseFileList {
    let cf = p.np as u8;
    let mut out = CaseFileList::new(p.categories.len());
    for &(mask, n) in files {
        let cards = p.categories.iter().map(|cat| {
            cat.iter()
                .find(|c| mask >> c.index() & 1 == 1 || r.assigned[c.index()] == cf)
                .expect("a case card per category")
        });
        out.push(cards, n);
    }
    out
}

/// The case files where the sweeps do not apply (see the module's
/// comment): the identifying DP, or one count per combination where that
/// is too large.
pub(super) fn without_sweep(
    p: &CountProblem,
    r: &Reduced,
    counts: &Counts,
    options: &CountOptions<'_>,
) -> Result<CaseFileList, CountError> {
    match identified(p, r, options) {
        Err(CountError::TooManyStates(_) | CountError::TooComplex(_)) => by_fixing(p, counts, options),
        other => other,
    }
}

/// The case files (unsorted) from one forward pass of the identifying DP,
/// in the order [`super::plan`] would pick (pooled counts that overflow
/// are recounted without the pool).
pub(super) fn identified(
    p: &CountProblem,
    r: &Reduced,
    options: &CountOptions<'_>,
) -> Result<CaseFileList, CountError> {
    let cards = CardClasses::new(p, r);
    let (order, symmetric) = choose_order(p, r, &cards);
    let pooled =
        if symmetric { Plan::new_identifying(p, r, &cards, order.clone(), true) } else { Err(CountError::Overflow) };
    match pooled.and_then(|plan| from_plan(p, r, &cards, &plan, options)) {
        Err(CountError::Overflow) => {
            from_plan(p, r, &cards, &Plan::new_identifying(p, r, &cards, order, false)?, options)
        }
        other => other,
    }
}

pub(super) fn from_plan(
    p: &CountProblem,
    r: &Reduced,
    cards: &CardClasses,
    plan: &Plan,
    options: &CountOptions<'_>,
) -> Result<CaseFileList, CountError> {
    let fwd = dp::forward(plan, false, options)?;
    let last = fwd.layers.last().expect("a forward pass has a final layer");
    // Per recorded case (the key's case fields): forward count × the ways
    // to deal the tail's player cards, which do not depend on which tail
    // card is the case card of a category still open.
    let mut by_case: FxHashMap<u128, u128> = FxHashMap::default();
    let mut shares = [0u128; MAX_PLACES];
    for (key, f) in last.keys.iter().zip(last.counts.iter()) {
        plan.player_shares(key, &mut shares)?;
        let w = mul(f, shares[plan.np])?;
        if w > 0 {
            let at = by_case.entry(plan.case_of(key)).or_insert(0);
            *at = add(*at, w)?;
        }
    }
    // Per category, the case cards: propagation's, a recorded DP card, or
    // (while open) any tail card allowed there.
    let cf = p.np as u8;
    let open_cats = plan.open_cats();
    let choices: Vec<Vec<u8>> = p
        .categories
        .iter()
        .map(|cat| {
            let fixed = cat.iter().find(|c| r.assigned[c.index()] == cf).map(|c| c.index() as u8);
            fixed.into_iter().collect::<Vec<u8>>()
        })
        .collect();
    let tail_case: Vec<Vec<u8>> = p
        .categories
        .iter()
        .map(|cat| {
            (*cat & cards.tail)
                .iter()
                .filter(|c| r.allowed[c.index()] >> cf & 1 == 1)
                .map(|c| c.index() as u8)
                .collect()
        })
        .collect();
    let mut out = CaseFileList::new(p.categories.len());
    for (&case, &w) in &by_case {
        let mut per: Vec<Vec<u8>> = choices.clone();
        for (i, o) in open_cats.iter().enumerate() {
            per[o.category] = match plan.case_card(case, i) {
                Some(c) => vec![c],
                None => tail_case[o.category].clone(),
            };
        }
        debug_assert!(w % plan.scale == 0);
        expand(&per, w / plan.scale, &mut out);
    }
    Ok(out)
}

/// Adds every case file with one card of each category's choices.
fn expand(per: &[Vec<u8>], n: u128, out: &mut CaseFileList) {
    if per.iter().any(Vec::is_empty) {
        return;
    }
    let mut idx = vec![0usize; per.len()];
    loop {
        out.push((0..per.len()).map(|k| Card(per[k][idx[k]])), n);
        let mut k = 0;
        loop {
            if k == idx.len() {
                return;
            }
            idx[k] += 1;
            if idx[k] < per[k].len() {
                break;
            }
            idx[k] = 0;
            k += 1;
        }
    }
}

/// [`case_files`] by the earlier method: one category is left free; for every combination of the other
/// categories' case cards, a marginal count with those cards fixed gives the
/// free category's distribution. Alike cards ([`alike_cards`]: unplaced,
/// in no clause, with the same allowed places) give equal counts, so only
/// one representative of each group is fixed. The free category is the one with
/// the most groups, so that the number of counts is as small as possible.
///
/// # Errors
/// [`CountError::TooManyCaseFiles`] when more than [`MAX_CASE_FILES`] case
/// files are possible; otherwise [`CountError`] from the underlying counts.
pub(super) fn by_fixing(
    p: &CountProblem,
    counts: &Counts,
    options: &CountOptions<'_>,
) -> Result<CaseFileList, CountError> {
    if counts.total == 0 {
        return Ok(CaseFileList::default());
    }
    let cf = p.np;
    let alike = alike_cards(p);
    // Per category: groups of interchangeable (alike) candidates.
    let mut groups: Vec<Vec<Vec<Card>>> = Vec::new();
    for &cards in &p.categories {
        let mut cat_groups: Vec<Vec<Card>> = Vec::new();
        for c in cards.iter().filter(|c| counts.marginal[c.index()][cf] > 0) {
            match cat_groups.iter_mut().find(|g| alike[g[0].index()] == alike[c.index()]) {
                Some(g) => g.push(c),
                None => cat_groups.push(vec![c]),
            }
        }
        groups.push(cat_groups);
    }
    let listed: u128 = groups.iter().map(|g| g.iter().map(Vec::len).sum::<usize>() as u128).product();
    if listed > MAX_CASE_FILES {
        return Err(CountError::TooManyCaseFiles(listed));
    }
    let free = (0..groups.len()).max_by_key(|&k| groups[k].len()).expect("decks have categories");

    let mut result = CaseFileList::new(groups.len());
    let mut choice = vec![0usize; groups.len()];
    loop {
        let mut q = p.clone();
        for (k, &g) in choice.iter().enumerate() {
            if k != free {
                q.allowed[groups[k][g][0].index()] &= 1 << cf;
            }
        }
        let fixed = count_marginals(&q, options)?;
        for g in 0..groups[free].len() {
            let n = fixed.marginal[groups[free][g][0].index()][cf];
            if n > 0 {
                choice[free] = g;
                expand_groups(&groups, &choice, n, &mut result);
            }
        }
        choice[free] = 0;
        if !next_choice(&mut choice, &groups, free) {
            break;
        }
    }
    result.sort();
    Ok(result)
}

/// Advances the group choice of every category but `skip`, odometer style.
fn next_choice(choice: &mut [usize], groups: &[Vec<Vec<Card>>], skip: usize) -> bool {
    for k in 0..choice.len() {
        if k == skip {
            continue;
        }
        choice[k] += 1;
        if choice[k] < groups[k].len() {
            return true;
        }
        choice[k] = 0;
    }
    false
}

/// Adds every case file made of members of the chosen groups.
fn expand_groups(groups: &[Vec<Vec<Card>>], choice: &[usize], n: u128, out: &mut CaseFileList) {
    let mut idx = vec![0usize; choice.len()];
    loop {
        out.push((0..choice.len()).map(|k| groups[k][choice[k]][idx[k]]), n);
        let mut k = 0;
        loop {
            if k == idx.len() {
                return;
            }
            idx[k] += 1;
            if idx[k] < groups[k][choice[k]].len() {
                break;
            }
            idx[k] = 0;
            k += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Both ways of sorting (packed keys; comparing cards, for more than
    /// eight categories or counts from 2^64) give the order of a plain
    /// sort of (cards, count) pairs: more deals first, then the cards.
    #[test]
    fn sort_orders_by_deals_then_cards() {
        let mut r = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        for case in 0..600 {
            let width = [0, 1, 3, 8, 9, 12][case % 6];
            let big = case % 3 == 0;
            let mut list = CaseFileList::new(width);
            let mut plain: Vec<(Vec<Card>, u128)> = Vec::new();
            for _ in 0..r.gen_range(0..40) {
                let cards: Vec<Card> = (0..width).map(|_| Card(r.gen_range(0..64))).collect();
                // Few distinct counts, so that ties are broken by the cards.
                let n = u128::from(r.gen_range(1..4u8)) << if big { r.gen_range(0..100) } else { 0 };
                if plain.iter().any(|(c, _)| *c == cards) {
                    continue; // no two files have the same cards
                }
                list.push(cards.iter().copied(), n);
                plain.push((cards, n));
            }
            list.sort();
            plain.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            let got: Vec<(Vec<Card>, u128)> = list.iter().map(|(c, n)| (c.to_vec(), n)).collect();
            assert_eq!(got, plain, "width {width}, big {big}");
        }
    }
}
