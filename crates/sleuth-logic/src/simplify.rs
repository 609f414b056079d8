//! Clause-set simplification (seed section 9.1): tautologies, duplicate literals,
//! duplicate clauses and subsumed clauses.
//!
//! Every removal keeps the set of models unchanged. Clauses keep their order and
//! their first occurrence; removals name the clause responsible, by 1-based
//! position in the input, so that they can be explained.

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::clause::{Clause, Cnf};
use crate::symbols::Symbols;

/// Why a clause was removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Removal {
    /// The clause holds a literal and its negation.
    Tautology,
    /// The clause has the same literals as an earlier one (0-based index).
    Duplicate {
        /// The index of the clause kept.
        of: usize,
    },
    /// A kept clause's literals are a proper subset of this clause's (0-based index).
    Subsumed {
        /// The index of the subsuming clause.
        by: usize,
    },
}

/// The result of [`simplify`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Simplified {
    /// The remaining clauses, duplicate literals removed, in input order.
    pub cnf: Cnf,
    /// For each remaining clause, its 0-based index in the input.
    pub kept: Vec<usize>,
    /// Each removed clause's 0-based input index and the reason, in input order.
    pub removed: Vec<(usize, Removal)>,
    /// The 0-based input indices of clauses that lost repeated literals.
    pub deduplicated: Vec<usize>,
}

impl Simplified {
    /// One line per change, then a summary, naming clauses by 1-based position:
    ///
    /// ```text
    /// (6) {¬C, ¬B} removed: duplicate of (3) {¬B, ¬C}
    /// (7) {A, B, C} removed: subsumed by (2) {B, A}
    /// kept 5 of 7 clauses
    /// ```
    pub fn render(&self, original: &Cnf, symbols: &Symbols) -> String {
        let show = |i: usize| format!("({}) {}", i + 1, symbols.clause_to_string(&original.clauses()[i]));
        let mut out = String::new();
        for &i in &self.deduplicated {
            let _ = writeln!(out, "{}: repeated literals removed", show(i));
        }
        for &(i, why) in &self.removed {
            let reason = match why {
                Removal::Tautology => "tautology".to_owned(),
                Removal::Duplicate { of } => format!("duplicate of {}", show(of)),
                Removal::Subsumed { by } => format!("subsumed by {}", show(by)),
            };
            let _ = writeln!(out, "{} removed: {reason}", show(i));
        }
        let _ = writeln!(out, "kept {} of {} clauses", self.cnf.len(), original.len());
        out
    }
}

/// Removes tautologies, repeated literals, duplicate clauses and subsumed clauses.
///
/// # Examples
///
/// ```
/// use sleuth_logic::{simplify, Cnf};
/// // The seed's liar example: clause 6 repeats clause 3, clause 2 subsumes clause 7.
/// let cnf = Cnf::from_dimacs(&[&[-1, -2], &[2, 1], &[-2, -3], &[3, 2], &[-3, -1], &[-3, -2], &[1, 2, 3]]).unwrap();
/// let s = simplify(&cnf);
/// assert_eq!(s.kept, vec![0, 1, 2, 3, 4]);
/// ```
pub fn simplify(cnf: &Cnf) -> Simplified {
    let n = cnf.len();
    let mut removed: Vec<Option<Removal>> = vec![None; n];
    let mut deduplicated = Vec::new();
    let mut clauses: Vec<Clause> = Vec::with_capacity(n);
    let mut first: HashMap<Clause, usize> = HashMap::new();
    for (i, c) in cnf.clauses().iter().enumerate() {
        let d = c.dedup();
        if d.len() != c.len() {
            deduplicated.push(i);
        }
        if d.is_tautology() {
            removed[i] = Some(Removal::Tautology);
        } else if let Some(&of) = first.get(&d.normalized()) {
            removed[i] = Some(Removal::Duplicate { of });
        } else {
            first.insert(d.normalized(), i);
        }
        clauses.push(d);
    }

    // Subsumption, shortest clauses first, through occurrence lists.
    let num_codes = 2 * cnf.num_vars() as usize;
    let mut occurs: Vec<Vec<usize>> = vec![Vec::new(); num_codes];
    let live: Vec<usize> = (0..n).filter(|&i| removed[i].is_none()).collect();
    for &i in &live {
        for l in clauses[i].lits() {
            occurs[l.code()].push(i);
        }
    }
    let mut order = live.clone();
    order.sort_by_key(|&i| (clauses[i].len(), i));
    let mut mark = vec![false; num_codes];
    for &i in &order {
        if removed[i].is_some() {
            continue;
        }
        let c = &clauses[i];
        let candidates: Vec<usize> = match c.lits().iter().min_by_key(|l| occurs[l.code()].len()) {
            Some(l) => occurs[l.code()].clone(),
            None => live.clone(),
        };
        for l in c.lits() {
            mark[l.code()] = true;
        }
        for j in candidates {
            if j == i || removed[j].is_some() || clauses[j].len() <= c.len() {
                continue;
            }
            let count = clauses[j].lits().iter().filter(|l| mark[l.code()]).count();
            if count == c.len() {
                removed[j] = Some(Removal::Subsumed { by: i });
            }
        }
        for l in c.lits() {
            mark[l.code()] = false;
        }
    }

    let mut out = Cnf::with_vars(cnf.num_vars());
    let mut kept = Vec::new();
    let mut gone = Vec::new();
    for (i, c) in clauses.into_iter().enumerate() {
        match removed[i] {
            None => {
                kept.push(i);
                out.add_clause(c);
            }
            Some(why) => gone.push((i, why)),
        }
    }
    Simplified { cnf: out, kept, removed: gone, deduplicated }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_liar_example() {
        let cnf =
            Cnf::from_dimacs(&[&[-1, -2], &[2, 1], &[-2, -3], &[3, 2], &[-3, -1], &[-3, -2], &[1, 2, 3]]).unwrap();
        let s = simplify(&cnf);
        assert_eq!(s.removed, vec![(5, Removal::Duplicate { of: 2 }), (6, Removal::Subsumed { by: 1 })]);
        let mut names = Symbols::new();
        for n in ["A", "B", "C"] {
            names.intern(n);
        }
        assert_eq!(
            s.render(&cnf, &names),
            "(6) {¬C, ¬B} removed: duplicate of (3) {¬B, ¬C}\n\
             (7) {A, B, C} removed: subsumed by (2) {B, A}\n\
             kept 5 of 7 clauses\n"
        );
    }

    #[test]
    fn tautologies_repeats_and_empty_clause() {
        let cnf = Cnf::from_dimacs(&[&[1, -1, 2], &[2, 2, 3], &[3, 2], &[]]).unwrap();
        let s = simplify(&cnf);
        assert_eq!(s.deduplicated, vec![1]);
        assert_eq!(
            s.removed,
            vec![(0, Removal::Tautology), (1, Removal::Subsumed { by: 3 }), (2, Removal::Duplicate { of: 1 }),]
        );
        assert_eq!(s.kept, vec![3]);
        assert!(s.cnf.has_empty_clause());
    }
}
