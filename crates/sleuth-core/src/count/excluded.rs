//! Wrong accusations, counted by subtraction.
//!
//! A wrong accusation says only that the case file is not the accused
//! one: the clause "not all of these cards in the case file". In the DP
//! such a clause stays in flight from its first card to its last, a bit in
//! every key between; a few of them multiplied a master state's DP tenfold
//! (10 players, bystander, 15 suggestions and 6 wrong accusations: 19 ms
//! against 1.7 ms for the same state without them). But every deal of the
//! state without these clauses (the *base*) that breaks one has a case file
//! that holds a whole clause: the accused case file, one per accusation. So the state's counts
//! are the base's less, for each such case file, the base's counts with
//! that case file fixed: a count each, tiny as the case file is known.
//! The case-file list is the base's without those files.

use super::{count, count_marginals, count_with_case_files, CaseFileList, CaseFiles, CountOptions, Counts};
use crate::deduce::{CLit, CountProblem};
use crate::model::{Card, Place};

/// The most case files subtracted, one count each; past it the clauses
/// stay in the DP.
const MAX_EXCLUDED: usize = 64;

/// A state whose case-file clauses are counted by subtraction.
pub(super) struct Split {
    /// The state without its case-file clauses.
    pub base: CountProblem,
    /// The case files the clauses rule out, cards in category order, sorted.
    pub files: Vec<Vec<Card>>,
}

impl Split {
    /// The base with case file `i` fixed.
    pub fn fixed(&self, i: usize) -> CountProblem {
        let mut p = self.base.clone();
        for &c in &self.files[i] {
            p.add_fact(c, Place::CaseFile, true);
        }
        p
    }

    /// The state's total: the base's less each excluded case file's;
    /// `None` on an error (the state is then counted directly).
    pub fn total(&self, options: &CountOptions<'_>) -> Option<u128> {
        let mut total = count(&self.base, options).ok()?;
        for i in 0..self.files.len() {
            total = total.checked_sub(count(&self.fixed(i), options).ok()?)?;
        }
        Some(total)
    }

    /// The state's counts by subtraction; `None` on an error.
    pub fn marginals(&self, options: &CountOptions<'_>) -> Option<Counts> {
        subtract(count_marginals(&self.base, options).ok()?, &self.excluded_counts(options)?)
    }

    /// The state's counts and case files: the base's, less the excluded
    /// case files. `None` where the split cannot answer (an error, or too
    /// many case files to list in the base).
    pub fn with_case_files(&self, options: &CountOptions<'_>) -> Option<(Counts, CaseFiles)> {
        let (base, files) = count_with_case_files(&self.base, options).ok()?;
        let files = files?;
        let minus = self.excluded_counts(options)?;
        let counts = subtract(base, &minus)?;
        // The list stays sorted with the excluded files left out.
        let mut kept = CaseFileList::new(self.base.categories.len());
        kept.reserve(files.len());
        for (cards, n) in files.iter() {
            match self.files.binary_search_by(|f| f.as_slice().cmp(cards)) {
                Ok(i) => debug_assert_eq!(n, minus[i].total, "an excluded case file's count"),
                Err(_) => kept.push(cards.iter().copied(), n),
            }
        }
        Some((counts, Some(kept)))
    }

    /// The base's counts with each excluded case file fixed, in order;
    /// `None` on an error.
    fn excluded_counts(&self, options: &CountOptions<'_>) -> Option<Vec<Counts>> {
        (0..self.files.len()).map(|i| count_marginals(&self.fixed(i), options).ok()).collect()
    }
}

/// The split of `p`, if it has clauses on the case file alone (every
/// literal "card not in the case file"), each naming one card of every
/// category (as a wrong accusation does), and at most [`MAX_EXCLUDED`] of
/// them; any other clause on the case file alone, and the state is counted
/// directly.
pub(super) fn split(p: &CountProblem) -> Option<Split> {
    let cf = p.np as u8;
    let on_case_file = |clause: &[CLit]| clause.iter().all(|l| !l.positive && l.place == cf);
    let mut files = Vec::new();
    for clause in p.clauses.iter().filter(|c| on_case_file(c)) {
        let mut file: Vec<Option<Card>> = vec![None; p.categories.len()];
        for l in clause {
            if file[p.category_of[l.card as usize] as usize].replace(Card(l.card)).is_some() {
                return None;
            }
        }
        files.push(file.into_iter().collect::<Option<Vec<Card>>>()?);
        if files.len() > MAX_EXCLUDED {
            return None;
        }
    }
    if files.is_empty() {
        return None;
    }
    files.sort();
    files.dedup();
    let mut base = p.clone();
    base.clauses.retain(|c| !on_case_file(c));
    Some(Split { base, files })
}

/// `base` less every count in `minus`, card by card and place by place;
/// `None` if a count would go below zero (it cannot, for exact counts of
/// disjoint subsets: the caller then counts the state the direct way).
pub(super) fn subtract(mut base: Counts, minus: &[Counts]) -> Option<Counts> {
    for m in minus {
        base.total = base.total.checked_sub(m.total)?;
        for (row, sub) in base.marginal.iter_mut().zip(&m.marginal) {
            for (x, y) in row.iter_mut().zip(sub) {
                *x = x.checked_sub(*y)?;
            }
        }
        base.states += m.states;
    }
    Some(base)
}
