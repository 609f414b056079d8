//! The exact distribution of the case file.

use super::{count_marginals, CountError, Counts, MAX_CASE_FILES};
use crate::deduce::{propagate, Problem, NONE};
use crate::model::{Card, CardSet};

/// Possible case files with their number of consistent deals, most likely
/// first (ties in deck order).
///
/// One category is left free; for every combination of the other
/// categories' case cards, a marginal count with those cards fixed gives the
/// free category's distribution. Cards that are interchangeable (same
/// allowed places, in no clause) give equal counts, so only one
/// representative of each group is fixed. The free category is the one with
/// the most groups, so that the number of counts is as small as possible.
///
/// # Errors
/// [`CountError::TooManyCaseFiles`] when more than [`MAX_CASE_FILES`] case
/// files are possible; otherwise [`CountError`] from the underlying counts.
pub fn case_files(p: &Problem, counts: &Counts) -> Result<Vec<(Vec<Card>, u128)>, CountError> {
    if counts.total == 0 {
        return Ok(Vec::new());
    }
    let cf = p.np;
    let Some(r) = propagate(p) else { return Ok(Vec::new()) };
    let mut in_clause = CardSet::EMPTY;
    for cl in &r.clauses {
        for l in cl {
            in_clause.insert(Card(l.card));
        }
    }
    let interchangeable = |c: Card, d: Card| {
        let free = |x: Card| !in_clause.contains(x) && r.assigned[x.index()] == NONE;
        free(c) && free(d) && r.allowed[c.index()] == r.allowed[d.index()]
    };
    // Per category: groups of interchangeable candidates.
    let mut groups: Vec<Vec<Vec<Card>>> = Vec::new();
    for &cards in &p.categories {
        let mut cat_groups: Vec<Vec<Card>> = Vec::new();
        for c in cards.iter().filter(|c| counts.marginal[c.index()][cf] > 0) {
            match cat_groups.iter_mut().find(|g| interchangeable(g[0], c)) {
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

    let mut result = Vec::new();
    let mut choice = vec![0usize; groups.len()];
    loop {
        let mut q = p.clone();
        for (k, &g) in choice.iter().enumerate() {
            if k != free {
                q.allowed[groups[k][g][0].index()] &= 1 << cf;
            }
        }
        let fixed = count_marginals(&q)?;
        for g in 0..groups[free].len() {
            let n = fixed.marginal[groups[free][g][0].index()][cf];
            if n > 0 {
                choice[free] = g;
                expand(&groups, &choice, n, &mut result);
            }
        }
        choice[free] = 0;
        if !next_choice(&mut choice, &groups, free) {
            break;
        }
    }
    result.sort_by(|a: &(Vec<Card>, u128), b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
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
fn expand(groups: &[Vec<Vec<Card>>], choice: &[usize], n: u128, out: &mut Vec<(Vec<Card>, u128)>) {
    let mut idx = vec![0usize; choice.len()];
    loop {
        let cards = (0..choice.len()).map(|k| groups[k][choice[k]][idx[k]]).collect();
        out.push((cards, n));
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
