//! WalkSAT over cardinality constraints (seed section 10.1's "most promising
//! approach", Walser's WSAT(PB)): every constraint says "at least `k` of these
//! literals are true"; a clause is the case `k = 1`.
//!
//! The search is [`walksat`](crate::walksat())'s (one function serves both), generalised: pick a random
//! unsatisfied constraint and make one of its false literals true, one whose
//! flip breaks no satisfied constraint if there is one, else a random one with
//! probability `noise`, else one that breaks the fewest. A constraint breaks
//! when it has exactly `k` true literals and loses one.
//!
//! Why it exists: "exactly 3 of these 21 atoms" written as CNF needs auxiliary
//! variables (a unary counter: Sleuth's `to_dimacs` adds about 3 600 of them
//! for six players), each defined by an equivalence with the ones before it.
//! Moving one card between two hands then means re-settling long chains of
//! counter variables one flip at a time, each flip breaking a definition, and
//! plain WalkSAT drifts among near-models with a handful of broken counter
//! clauses. Here moving a card is two flips and the counts are exact.

use crate::clause::Model;
use crate::lit::Lit;
use crate::walksat::{search, WalkSatOptions, WalkSatResult, WalkSatStats};

/// "At least `k` of `lits` are true".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtLeast {
    /// The literals (a repeated literal counts once).
    pub lits: Vec<Lit>,
    /// How many must be true.
    pub k: usize,
}

impl AtLeast {
    /// Whether `values` (indexed by variable) satisfy the constraint.
    pub fn is_satisfied_by(&self, values: &[bool]) -> bool {
        let mut lits = self.lits.clone();
        lits.sort_unstable_by_key(|l| l.code());
        lits.dedup();
        lits.iter().filter(|l| values.get(l.var().index()).is_some_and(|&v| l.apply(v))).count() >= self.k
    }
}

/// Searches for an assignment of variables `1..=num_vars` satisfying every
/// constraint, by WalkSAT generalised to cardinality constraints. Variables
/// outside `1..=num_vars` make the constraint unsatisfiable by this search
/// (the result is then `Unknown`), as does `k` above the number of literals.
///
/// # Examples
///
/// ```
/// use sleuth_logic::{walksat_pb, AtLeast, Var, WalkSatOptions};
/// let x = |i| Var::new(i).unwrap();
/// // Exactly two of x1..x4: at least 2 true and at least 2 false.
/// let pos: Vec<_> = (1..=4).map(|i| x(i).positive()).collect();
/// let neg: Vec<_> = pos.iter().map(|&l| !l).collect();
/// let cs = [AtLeast { lits: pos, k: 2 }, AtLeast { lits: neg, k: 2 }];
/// let (result, _) = walksat_pb(4, &cs, &WalkSatOptions::default());
/// let model = result.model().unwrap();
/// assert_eq!((1..=4).filter(|&i| model.get(x(i)) == Some(true)).count(), 2);
/// ```
pub fn walksat_pb(num_vars: u32, constraints: &[AtLeast], options: &WalkSatOptions) -> (WalkSatResult, WalkSatStats) {
    let n = num_vars as usize;
    let mut cons: Vec<(Vec<Lit>, u32)> = Vec::new();
    for c in constraints {
        let mut lits = c.lits.clone();
        lits.sort_unstable_by_key(|l| l.code());
        lits.dedup();
        if lits.iter().any(|l| l.var().index() >= n) || c.k > lits.len() {
            return (WalkSatResult::Unknown, WalkSatStats::default());
        }
        if c.k > 0 {
            cons.push((lits, c.k as u32));
        }
    }
    let (value, stats) = search(n, &cons, options);
    let Some(value) = value else { return (WalkSatResult::Unknown, stats) };
    debug_assert!(constraints.iter().all(|c| c.is_satisfied_by(&value)));
    (WalkSatResult::Sat(Model::from_bools(&value)), stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lit::Var;

    fn lit(d: i32) -> Lit {
        Lit::from_dimacs(d).unwrap()
    }

    #[test]
    fn never_claims_unsat_and_rejects_impossible_counts() {
        let opts = WalkSatOptions { max_flips: 100, max_tries: 3, ..WalkSatOptions::default() };
        let contradiction = [AtLeast { lits: vec![lit(1)], k: 1 }, AtLeast { lits: vec![lit(-1)], k: 1 }];
        assert_eq!(walksat_pb(1, &contradiction, &opts).0, WalkSatResult::Unknown);
        let too_many = [AtLeast { lits: vec![lit(1), lit(2)], k: 3 }];
        assert_eq!(walksat_pb(2, &too_many, &opts).0, WalkSatResult::Unknown);
        let outside = [AtLeast { lits: vec![lit(3)], k: 1 }];
        assert_eq!(walksat_pb(2, &outside, &opts).0, WalkSatResult::Unknown);
    }

    #[test]
    fn repeated_literals_count_once() {
        let cs = [AtLeast { lits: vec![lit(1), lit(1), lit(2)], k: 2 }];
        let (r, _) = walksat_pb(2, &cs, &WalkSatOptions::default());
        let m = r.model().unwrap();
        assert_eq!((m.get(Var::new(1).unwrap()), m.get(Var::new(2).unwrap())), (Some(true), Some(true)));
    }
}
