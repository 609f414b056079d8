//! WalkSAT over cardinality constraints (seed section 10.1's "most promising
//! approach", Walser's WSAT(PB)): every constraint says "at least `k` of these
//! literals are true"; a clause is the case `k = 1`.
//!
//! The search is [`walksat`](crate::walksat)'s, generalised: pick a random
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

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::clause::Model;
use crate::lit::{Lit, Var};
use crate::walksat::{WalkSatOptions, WalkSatResult, WalkSatStats};

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
    let mut stats = WalkSatStats::default();
    let n = num_vars as usize;
    let noise = if options.noise.is_nan() { 0.0 } else { options.noise.clamp(0.0, 1.0) };
    let mut cons: Vec<(Vec<Lit>, u32)> = Vec::new();
    for c in constraints {
        let mut lits = c.lits.clone();
        lits.sort_unstable_by_key(|l| l.code());
        lits.dedup();
        if lits.iter().any(|l| l.var().index() >= n) || c.k > lits.len() {
            return (WalkSatResult::Unknown, stats);
        }
        if c.k > 0 {
            cons.push((lits, c.k as u32));
        }
    }
    let mut occurs: Vec<Vec<usize>> = vec![Vec::new(); 2 * n];
    for (ci, (lits, _)) in cons.iter().enumerate() {
        for l in lits {
            occurs[l.code()].push(ci);
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let mut value = vec![false; n];
    let mut true_count = vec![0u32; cons.len()];
    let mut unsat: Vec<usize> = Vec::new();
    let mut unsat_pos = vec![usize::MAX; cons.len()];
    let mut candidates: Vec<Var> = Vec::new();
    let mut false_lits: Vec<Lit> = Vec::new();
    stats.fewest_unsat = cons.len();

    for _ in 0..options.max_tries {
        stats.tries += 1;
        for v in value.iter_mut() {
            *v = rng.gen();
        }
        unsat.clear();
        for (ci, (lits, k)) in cons.iter().enumerate() {
            let t = lits.iter().filter(|l| l.apply(value[l.var().index()])).count() as u32;
            true_count[ci] = t;
            unsat_pos[ci] = usize::MAX;
            if t < *k {
                unsat_pos[ci] = unsat.len();
                unsat.push(ci);
            }
        }
        for _ in 0..options.max_flips {
            stats.fewest_unsat = stats.fewest_unsat.min(unsat.len());
            if unsat.is_empty() {
                break;
            }
            let ci = unsat[rng.gen_range(0..unsat.len())];
            false_lits.clear();
            false_lits.extend(cons[ci].0.iter().filter(|l| !l.apply(value[l.var().index()])));
            // Break count of each flip: constraints at their threshold that lose a true literal.
            let mut best = u32::MAX;
            candidates.clear();
            for &l in &false_lits {
                let now_true = !l;
                let breaks = occurs[now_true.code()].iter().filter(|&&d| true_count[d] == cons[d].1).count() as u32;
                if breaks < best {
                    best = breaks;
                    candidates.clear();
                }
                if breaks == best {
                    candidates.push(l.var());
                }
            }
            let var = if best > 0 && rng.gen_bool(noise) {
                false_lits[rng.gen_range(0..false_lits.len())].var()
            } else {
                candidates[rng.gen_range(0..candidates.len())]
            };
            stats.flips += 1;
            let was_true = var.lit(value[var.index()]);
            value[var.index()] = !value[var.index()];
            for &d in &occurs[was_true.code()] {
                true_count[d] -= 1;
                if true_count[d] + 1 == cons[d].1 {
                    unsat_pos[d] = unsat.len();
                    unsat.push(d);
                }
            }
            for &d in &occurs[(!was_true).code()] {
                true_count[d] += 1;
                if true_count[d] == cons[d].1 {
                    let p = unsat_pos[d];
                    let last = *unsat.last().expect("d was unsatisfied");
                    unsat.swap_remove(p);
                    if last != d {
                        unsat_pos[last] = p;
                    }
                    unsat_pos[d] = usize::MAX;
                }
            }
        }
        if unsat.is_empty() {
            debug_assert!(constraints.iter().all(|c| c.is_satisfied_by(&value)));
            return (WalkSatResult::Sat(Model::from_bools(&value)), stats);
        }
    }
    (WalkSatResult::Unknown, stats)
}

#[cfg(test)]
mod tests {
    use super::*;

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
