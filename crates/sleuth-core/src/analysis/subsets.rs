//! The smallest set of items for which a monotone test holds: what the
//! explanations ([`super::why`], [`super::conflict`]) look for among a
//! game's events, with the observer's hand as a free item (it does not
//! count, and is left out where a set of as many events holds without it).
//!
//! First a minimal set by QuickXplain, then a search for a smaller one. That
//! search is an *implicit hitting set* search: every failed test of a set
//! `S` teaches a *cut*, a set of items one of which every holding set
//! contains (a deal of `S` breaks some items; a set of items the deal keeps
//! has that deal, so it fails too). Only sets that hit every cut can hold,
//! so those are the only ones tested, in the order of the exhaustive search
//! they replace (by size, then lexicographically), and the first that holds
//! is the same set that search would find. Most combinations fail against
//! deals already found, so cuts rule them out without a test: on long
//! master histories testing every combination runs out of its budget where
//! the cuts prove the set smallest.

use crate::count::CountError;

/// What a test of a set of items found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Verdict {
    /// The test holds of the set.
    Holds,
    /// It does not. `broken`: items outside the set one of which every set
    /// that holds contains (the items a deal of the set breaks), or `None`
    /// if the test does not know (then: the items outside the set).
    Fails {
        /// A cut, in any order.
        broken: Option<Vec<usize>>,
    },
}

/// How many sets the search for a smaller set may test, after the minimal
/// set is found, before it settles for that set.
pub const SEARCH_BUDGET: usize = 4000;

/// How much work (cuts looked at) the search for the next set to test may
/// do in all before it settles: about 10 ms.
const CUT_WORK_BUDGET: usize = 2_000_000;

/// Cuts are worth growing (a test's [`Grow`]) where the search for a
/// smaller set goes through more sets of a size than this: below, testing
/// the sets costs less than growing the cuts that would rule them out.
const GROW_PAST_SETS: f64 = 100.0;

/// Whether a failed test should make its cut small ([`Grow::Yes`]: more
/// work per test, fewer sets to test) or just give the one it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Grow {
    No,
    Yes,
}

/// The smallest subset of `0..n` for which `test` holds, given that it holds
/// of the whole set and is monotone (holds of every superset of a set it
/// holds of). With `free`, the last item (the observer's hand) does not
/// count: the set has the fewest other items (events), and among those of
/// as few, one without the free item where there is one. Returns the subset
/// and whether it is provably smallest: the minimal set QuickXplain finds,
/// or where a smaller set holds, the first of the smallest in lexicographic
/// order (with the free item: the first with it, then the first without it
/// of as many other items).
pub(super) fn smallest_subset(
    n: usize,
    free: bool,
    test: impl FnMut(&[usize], Grow) -> Result<Verdict, CountError>,
) -> Result<(Vec<usize>, bool), CountError> {
    // The items that count, and the free one (always allowed in).
    let (counted, hand) = if free && n > 0 { (n - 1, Some(n - 1)) } else { (n, None) };
    let mut search = Search { test, cuts: Cuts::new(n), grow: Grow::No, searching: false, counted };
    if search.holds(&[])? {
        return Ok((Vec::new(), true));
    }
    let base: Vec<usize> = hand.into_iter().collect();
    if hand.is_some() && search.holds(&base)? {
        return Ok((base, true));
    }
    // A minimal set of counted items (with the free one), by QuickXplain:
    // O(k log(n/k)) tests for a set of k, where deleting one item at a time
    // would take n tests.
    let all: Vec<usize> = (0..counted).collect();
    let mut set = quick_xplain(&mut base.clone(), false, &all, &mut |s: &[usize]| search.holds(s))?;
    set.sort_unstable();
    let k = set.len();
    if hand.is_some() && !search.holds(&set)? {
        set.extend(&base);
    }
    let uses_hand = set.len() > k;
    // Anything smaller hits every cut: test those, by number of counted
    // items, each number in lexicographic order; with the free item first
    // (a superset of the set without it), and where one holds, without.
    let (mut tested, mut work) = (0usize, CUT_WORK_BUDGET);
    search.searching = true;
    for size in 0..=k {
        search.grow = if binomial(counted, size) > GROW_PAST_SETS { Grow::Yes } else { Grow::No };
        let with_hand = if size < k {
            match search.first_holding(size, hand, &mut tested, &mut work)? {
                Next::Found(found) => Some(found),
                Next::None => continue,
                Next::OutOfWork => return Ok((set, false)),
            }
        } else if uses_hand {
            Some(set.clone())
        } else {
            None
        };
        let Some(with_hand) = with_hand else { break };
        if hand.is_none() {
            return Ok((with_hand, true));
        }
        return match search.first_holding(size, None, &mut tested, &mut work)? {
            Next::Found(found) => Ok((found, true)),
            Next::None => Ok((with_hand, true)),
            Next::OutOfWork => Ok((with_hand, false)),
        };
    }
    Ok((set, true))
}

/// The number of sets of `k` of `n` items, as a float (to compare only).
fn binomial(n: usize, k: usize) -> f64 {
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// The test and the cuts learnt from it.
struct Search<T> {
    test: T,
    cuts: Cuts,
    grow: Grow,
    /// Whether QuickXplain is done and smaller sets are being tested.
    searching: bool,
    /// The items that count, `0..counted` (the free item, if any, is
    /// `counted`).
    counted: usize,
}

impl<T: FnMut(&[usize], Grow) -> Result<Verdict, CountError>> Search<T> {
    /// Whether the test holds of `set`; a failure adds its cut.
    fn holds(&mut self, set: &[usize]) -> Result<bool, CountError> {
        match (self.test)(set, self.grow)? {
            Verdict::Holds => Ok(true),
            Verdict::Fails { broken: Some(broken) } => {
                self.cuts.add_among(broken);
                Ok(false)
            }
            Verdict::Fails { broken: None } => {
                debug_assert!(set.iter().all(|&i| i < self.cuts.n));
                // The sets the search for a smaller set tests grow in size
                // and come in lexicographic order: none of them lies within
                // a set of theirs tested before, so only QuickXplain's sets
                // make cuts worth keeping.
                if !self.searching {
                    self.cuts.add_outside(set);
                }
                Ok(false)
            }
        }
    }

    /// The first set of `size` counted items (with `forced` added) that
    /// hits every cut and holds, testing them in lexicographic order within
    /// the budgets ([`Next::OutOfWork`] when one runs out).
    fn first_holding(
        &mut self,
        size: usize,
        forced: Option<usize>,
        tested: &mut usize,
        work: &mut usize,
    ) -> Result<Next, CountError> {
        let counted = self.counted;
        let mut after: Option<Vec<usize>> = None;
        loop {
            let candidate = match self.cuts.next_hitting_set(size, counted, forced, after.as_deref(), work) {
                Next::Found(candidate) => candidate,
                other => return Ok(other),
            };
            *tested += 1;
            if *tested > SEARCH_BUDGET {
                return Ok(Next::OutOfWork);
            }
            let mut set = candidate.clone();
            set.extend(forced);
            if self.holds(&set)? {
                return Ok(Next::Found(set));
            }
            after = Some(candidate);
        }
    }
}

/// QuickXplain (Junker, AAAI 2004) for a monotone `holds` that is false of
/// `base` and true of `base` with all of `items`: a minimal subset `S` of
/// `items` with `holds(base + S)`. `added` says whether the last call added
/// something to `base` (if not, `holds(base)` is known to be false).
pub(super) fn quick_xplain(
    base: &mut Vec<usize>,
    added: bool,
    items: &[usize],
    holds: &mut impl FnMut(&[usize]) -> Result<bool, CountError>,
) -> Result<Vec<usize>, CountError> {
    if added && holds(base)? {
        return Ok(Vec::new());
    }
    if items.len() <= 1 {
        return Ok(items.to_vec());
    }
    let (first, second) = items.split_at(items.len() / 2);
    let len = base.len();
    base.extend_from_slice(first);
    let from_second = quick_xplain(base, !first.is_empty(), second, holds)?;
    base.truncate(len);
    base.extend_from_slice(&from_second);
    let from_first = quick_xplain(base, !from_second.is_empty(), first, holds)?;
    base.truncate(len);
    Ok(from_first.into_iter().chain(from_second).collect())
}

/// What [`Cuts::next_hitting_set`] found.
#[derive(Debug, PartialEq, Eq)]
enum Next {
    Found(Vec<usize>),
    /// No set of that size hits every cut.
    None,
    /// The work budget ran out first.
    OutOfWork,
}

/// The cuts learnt so far over items `0..n`: a set that holds meets every
/// `among` cut and has an item outside every `outside` set.
struct Cuts {
    n: usize,
    /// Per cut, its items, ascending.
    among: Vec<Vec<usize>>,
    /// Per item, the `among` cuts it is in.
    by_item: Vec<Vec<usize>>,
    /// Sets tested without a cut of their own, each ascending.
    outside: Vec<Vec<usize>>,
}

impl Cuts {
    fn new(n: usize) -> Cuts {
        Cuts { n, among: Vec::new(), by_item: vec![Vec::new(); n], outside: Vec::new() }
    }

    fn add_among(&mut self, mut items: Vec<usize>) {
        items.sort_unstable();
        items.dedup();
        items.retain(|&i| i < self.n);
        let cut = self.among.len();
        for &i in &items {
            self.by_item[i].push(cut);
        }
        // An empty cut (nothing holds any more: the test said so of the
        // whole set) is hit by no set, and the search ends.
        self.among.push(items);
    }

    fn add_outside(&mut self, set: &[usize]) {
        let mut set = set.to_vec();
        set.sort_unstable();
        self.outside.push(set);
    }

    /// The first set of `size` items of `0..limit`, after `after` in
    /// lexicographic order (from the first if `None`), that with `forced`
    /// (not in the set returned) hits every cut; `work` is what the search
    /// may still spend, in cuts looked at.
    fn next_hitting_set(
        &self,
        size: usize,
        limit: usize,
        forced: Option<usize>,
        after: Option<&[usize]>,
        work: &mut usize,
    ) -> Next {
        if size > limit.min(self.n) {
            return Next::None;
        }
        let mut walk = Walk {
            cuts: self,
            size,
            limit,
            chosen: Vec::with_capacity(size),
            hits: vec![0; self.among.len()],
            unhit: self.among.len(),
            outside_hits: vec![0; self.outside.len()],
            work,
        };
        if let Some(item) = forced {
            walk.mark(item, true);
        }
        match walk.extend(0, after) {
            Some(true) => Next::Found(walk.chosen),
            Some(false) => Next::None,
            None => Next::OutOfWork,
        }
    }
}

/// The depth-first walk of [`Cuts::next_hitting_set`] over sets in
/// lexicographic order, with each cut's hits by the items chosen so far.
struct Walk<'a> {
    cuts: &'a Cuts,
    size: usize,
    /// Items are chosen from `0..limit`.
    limit: usize,
    chosen: Vec<usize>,
    hits: Vec<u32>,
    unhit: usize,
    outside_hits: Vec<u32>,
    work: &'a mut usize,
}

impl Walk<'_> {
    /// Extends `chosen` with items from `lo` on to the first hitting set
    /// (after `after`, while `chosen` is its prefix): `Some(true)` found,
    /// `Some(false)` none, `None` out of work.
    fn extend(&mut self, lo: usize, after: Option<&[usize]>) -> Option<bool> {
        // Each node looks at every cut (here or in `choose`).
        let cost = self.cuts.among.len() + self.cuts.outside.len() + 1;
        *self.work = self.work.checked_sub(cost)?;
        let depth = self.chosen.len();
        if depth == self.size {
            let hit = self.unhit == 0 && self.outside_hits.iter().all(|&h| h > 0);
            // The bound itself is not after itself.
            return Some(hit && after.is_none());
        }
        let left = self.size - depth;
        // Every cut not hit yet needs an item from here on, and the items
        // from here on only grow: the next one is at most the smallest
        // largest item of those cuts.
        let mut hi = self.limit - left;
        for (cut, items) in self.cuts.among.iter().enumerate() {
            if self.hits[cut] == 0 {
                let below = &items[..items.partition_point(|&i| i < self.limit)];
                let Some(&max) = below.last() else { return Some(false) };
                hi = hi.min(max);
            }
        }
        let start = match after {
            Some(bound) => bound[depth] + usize::from(depth + 1 == self.size),
            None => lo,
        };
        for item in start.max(lo)..=hi {
            let still_bound = after.filter(|bound| bound[depth] == item && depth + 1 < self.size);
            self.choose(item);
            let found = self.extend(item + 1, still_bound);
            if found != Some(false) {
                return found;
            }
            self.unchoose(item);
        }
        Some(false)
    }

    fn choose(&mut self, item: usize) {
        self.mark(item, true);
        self.chosen.push(item);
    }

    fn unchoose(&mut self, item: usize) {
        self.mark(item, false);
        self.chosen.pop();
    }

    /// Counts (or uncounts) the cuts an item hits.
    fn mark(&mut self, item: usize, on: bool) {
        for &cut in &self.cuts.by_item[item] {
            if on {
                self.unhit -= usize::from(self.hits[cut] == 0);
                self.hits[cut] += 1;
            } else {
                self.hits[cut] -= 1;
                self.unhit += usize::from(self.hits[cut] == 0);
            }
        }
        for (inside, hits) in self.cuts.outside.iter().zip(&mut self.outside_hits) {
            let outside = u32::from(inside.binary_search(&item).is_err());
            if on {
                *hits += outside;
            } else {
                *hits -= outside;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// A monotone test from its minimal holding sets, with or without cuts
    /// (the items outside a failed set that some minimal set needs: every
    /// holding set contains one of them).
    fn by_minimal_sets(
        sets: &[Vec<usize>],
        with_cuts: bool,
    ) -> impl FnMut(&[usize], Grow) -> Result<Verdict, CountError> + '_ {
        move |s: &[usize], _| {
            if sets.iter().any(|m| m.iter().all(|x| s.contains(x))) {
                return Ok(Verdict::Holds);
            }
            let broken = with_cuts.then(|| {
                // Each minimal set misses an item of s's complement; their
                // union is a cut.
                let mut cut: Vec<usize> =
                    sets.iter().flat_map(|m| m.iter().copied().filter(|x| !s.contains(x))).collect();
                cut.dedup();
                cut
            });
            Ok(Verdict::Fails { broken })
        }
    }

    /// The exhaustive search the hitting sets replace: every combination by
    /// size, each size in lexicographic order.
    fn exhaustive(n: usize, holds: impl Fn(&[usize]) -> bool) -> Vec<usize> {
        for size in 0..=n {
            let mut idx: Vec<usize> = (0..size).collect();
            loop {
                if holds(&idx) {
                    return idx;
                }
                // The next combination, lexicographically.
                let Some(j) = (0..size).rev().find(|&j| idx[j] < n - size + j) else { break };
                idx[j] += 1;
                for l in j + 1..size {
                    idx[l] = idx[l - 1] + 1;
                }
            }
        }
        unreachable!("the whole set holds")
    }

    #[test]
    fn smallest_subset_finds_the_minimum_not_just_a_minimal_set() {
        for with_cuts in [false, true] {
            // {0, 1, 2} or {3}: QuickXplain alone could stop at {0, 1, 2}.
            let sets = [vec![0, 1, 2], vec![3]];
            assert_eq!(smallest_subset(5, false, by_minimal_sets(&sets, with_cuts)).unwrap(), (vec![3], true));
            let sets = [vec![0, 1], vec![2, 3, 4]];
            assert_eq!(smallest_subset(5, false, by_minimal_sets(&sets, with_cuts)).unwrap(), (vec![0, 1], true));
            assert_eq!(smallest_subset(4, false, |_, _| Ok(Verdict::Holds)).unwrap(), (vec![], true));
        }
    }

    /// On random monotone tests (a few minimal sets over up to 14 items),
    /// with cuts and without, the search finds the set the exhaustive search
    /// after QuickXplain found: the lexicographically first of the smallest
    /// where it is smaller than QuickXplain's.
    #[test]
    fn the_hitting_set_search_finds_what_the_exhaustive_search_finds() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(20_261_128);
        let mut smaller = 0usize;
        for case in 0..600 {
            let n = rng.gen_range(1..=14);
            let sets: Vec<Vec<usize>> = (0..rng.gen_range(1..=4))
                .map(|_| {
                    let mut m: Vec<usize> = (0..n).filter(|_| rng.gen_bool(0.3)).collect();
                    if m.is_empty() {
                        m.push(rng.gen_range(0..n));
                    }
                    m
                })
                .collect();
            let holds = |s: &[usize]| sets.iter().any(|m| m.iter().all(|x| s.contains(x)));
            // QuickXplain's minimal set, unless a smaller one holds.
            let all: Vec<usize> = (0..n).collect();
            let mut minimal = quick_xplain(&mut Vec::new(), false, &all, &mut |s: &[usize]| Ok(holds(s))).unwrap();
            minimal.sort_unstable();
            let smallest = exhaustive(n, holds);
            smaller += usize::from(smallest.len() < minimal.len());
            let expected = if smallest.len() < minimal.len() { smallest } else { minimal };
            for with_cuts in [false, true] {
                let found = smallest_subset(n, false, by_minimal_sets(&sets, with_cuts)).unwrap();
                assert_eq!(found, (expected.clone(), true), "case {case}: {sets:?}, cuts {with_cuts}");
            }
        }
        // The search past QuickXplain found something smaller on some.
        assert!(smaller > 30, "{smaller} of 600");
    }

    /// With a free last item (the hand), on random monotone tests: the set
    /// found has the fewest other items, and among sets of as few, lacks the
    /// free item where one can; it is the first such set in lexicographic
    /// order (or QuickXplain's, where nothing smaller holds), against the
    /// exhaustive search by (number of counted items, free item last).
    #[test]
    fn a_free_item_does_not_count_and_is_left_out_where_it_can_be() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(20_270_104);
        let (mut with_free, mut dropped_for_free) = (0usize, 0usize);
        for case in 0..800 {
            let n = rng.gen_range(1..=12);
            let free = n - 1;
            let sets: Vec<Vec<usize>> = (0..rng.gen_range(1..=4))
                .map(|_| {
                    let mut m: Vec<usize> = (0..n).filter(|_| rng.gen_bool(0.3)).collect();
                    if m.is_empty() {
                        m.push(rng.gen_range(0..n));
                    }
                    m
                })
                .collect();
            let holds = |s: &[usize]| sets.iter().any(|m| m.iter().all(|x| s.contains(x)));
            let counted = |s: &[usize]| s.iter().filter(|&&i| i != free).count();
            // The best key: fewest counted items, then without the free item.
            let key = |s: &[usize]| (counted(s), s.contains(&free));
            let best = exhaustive_by(n, free, holds);
            for with_cuts in [false, true] {
                let (found, minimum) = smallest_subset(n, true, by_minimal_sets(&sets, with_cuts)).unwrap();
                assert!(minimum, "case {case}");
                assert!(holds(&found), "case {case}: {found:?} does not hold of {sets:?}");
                assert_eq!(
                    key(&found),
                    key(&best),
                    "case {case}: {sets:?}, cuts {with_cuts}: {found:?} against {best:?}"
                );
            }
            with_free += usize::from(best.contains(&free));
            // Among the minimal sets, one with the free item has fewer counted items.
            let plain = smallest_subset(n, false, by_minimal_sets(&sets, true)).unwrap().0;
            dropped_for_free += usize::from(counted(&plain) > counted(&best));
        }
        assert!(
            with_free > 100 && dropped_for_free > 30,
            "{with_free} with the free item, {dropped_for_free} smaller for it"
        );
    }

    /// The exhaustive search with a free item: by number of counted items,
    /// each number first without the free item, then with it; each in
    /// lexicographic order.
    fn exhaustive_by(n: usize, free: usize, holds: impl Fn(&[usize]) -> bool) -> Vec<usize> {
        let counted: Vec<usize> = (0..n).filter(|&i| i != free).collect();
        for size in 0..=counted.len() {
            for with in [false, true] {
                let mut idx: Vec<usize> = (0..size).collect();
                loop {
                    let mut s: Vec<usize> = idx.iter().map(|&i| counted[i]).collect();
                    s.extend(with.then_some(free));
                    if holds(&s) {
                        return s;
                    }
                    let m = counted.len();
                    let Some(j) = (0..size).rev().find(|&j| idx[j] < m - size + j) else { break };
                    idx[j] += 1;
                    for l in j + 1..size {
                        idx[l] = idx[l - 1] + 1;
                    }
                }
            }
        }
        unreachable!("the whole set holds")
    }

    /// Cuts make the search for a smaller set test few sets: one minimal
    /// set of 5 among 40 items, where the exhaustive search would go
    /// through the 92,000 smaller combinations.
    #[test]
    fn cuts_prove_a_minimum_in_few_tests() {
        let sets = [vec![3, 11, 19, 27, 35]];
        let mut tests = 0usize;
        let mut test = by_minimal_sets(&sets, true);
        let found = smallest_subset(40, false, |s, grow| {
            tests += 1;
            test(s, grow)
        })
        .unwrap();
        assert_eq!(found, (vec![3, 11, 19, 27, 35], true));
        assert!(tests < 100, "{tests} tests");
    }

    /// Issue 19: a minimal set of 2 among 20,000 items takes a few dozen
    /// tests (QuickXplain), not one per item; without cuts the search for a
    /// smaller set then stops at its budget.
    #[test]
    fn smallest_subset_tests_logarithmically_many_sets() {
        let mut tests = 0usize;
        let (s, _) = smallest_subset(20_000, false, |s, _| {
            tests += 1;
            let holds = s.contains(&1234) && s.contains(&17_001);
            Ok(if holds { Verdict::Holds } else { Verdict::Fails { broken: None } })
        })
        .unwrap();
        assert_eq!(s, vec![1234, 17_001]);
        // QuickXplain: at most 2 k log2(n/k) + 2 k tests for a set of k; then
        // the search for a smaller set within the budget.
        assert!(tests <= 2 * 2 * 14 + 4 + 1 + SEARCH_BUDGET, "{tests} tests");
        let mut quick = 0usize;
        let all: Vec<usize> = (0..20_000).collect();
        let set = quick_xplain(&mut Vec::new(), false, &all, &mut |s: &[usize]| {
            quick += 1;
            Ok(s.contains(&1234) && s.contains(&17_001))
        })
        .unwrap();
        assert_eq!(set.len(), 2);
        assert!(quick <= 2 * 2 * 14 + 4, "{quick} tests");
    }

    /// The walk resumes strictly after the set it is given, and an empty
    /// cut (nothing can hold) ends it.
    #[test]
    fn the_walk_resumes_after_a_set_and_stops_at_an_empty_cut() {
        let mut cuts = Cuts::new(5);
        cuts.add_among(vec![1, 3]);
        let mut work = usize::MAX;
        assert_eq!(cuts.next_hitting_set(2, 5, None, None, &mut work), Next::Found(vec![0, 1]));
        assert_eq!(cuts.next_hitting_set(2, 5, None, Some(&[0, 1]), &mut work), Next::Found(vec![0, 3]));
        assert_eq!(cuts.next_hitting_set(2, 5, None, Some(&[0, 3]), &mut work), Next::Found(vec![1, 2]));
        assert_eq!(cuts.next_hitting_set(1, 5, None, Some(&[1]), &mut work), Next::Found(vec![3]));
        assert_eq!(cuts.next_hitting_set(1, 5, None, Some(&[3]), &mut work), Next::None);
        cuts.add_outside(&[0, 1, 2]);
        assert_eq!(cuts.next_hitting_set(2, 5, None, None, &mut work), Next::Found(vec![0, 3]));
        let mut none = 0;
        assert_eq!(cuts.next_hitting_set(2, 5, None, None, &mut none), Next::OutOfWork);
        cuts.add_among(vec![]);
        assert_eq!(cuts.next_hitting_set(2, 5, None, None, &mut work), Next::None);
    }
}
