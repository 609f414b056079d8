//! WalkSAT (seed section 10.3): stochastic local search for a model.
//!
//! Start from a random assignment; repeatedly pick a random unsatisfied clause and
//! flip one of its variables: one whose flip breaks no satisfied clause if there is
//! one, otherwise a random one with probability `noise`, otherwise one that breaks
//! the fewest. After `max_flips` flips, restart, up to `max_tries` times.
//!
//! The search is incomplete: failing to find a model proves nothing, so the result
//! is a model or [`WalkSatResult::Unknown`], never "unsatisfiable". Runs are
//! reproducible: the random generator is ChaCha8 seeded from
//! [`WalkSatOptions::seed`].

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::clause::{Cnf, Model};
use crate::lit::{Lit, Var};

/// Options for [`walksat`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WalkSatOptions {
    /// The probability of a random walk step when every flip breaks something;
    /// clamped to `[0, 1]` (NaN counts as 0).
    pub noise: f64,
    /// Flips per try before restarting.
    pub max_flips: u64,
    /// Tries (random restarts).
    pub max_tries: u32,
    /// The random seed.
    pub seed: u64,
}

impl Default for WalkSatOptions {
    /// Noise 0.5, 100 000 flips, 10 tries, seed 0.
    fn default() -> WalkSatOptions {
        WalkSatOptions { noise: 0.5, max_flips: 100_000, max_tries: 10, seed: 0 }
    }
}

/// The outcome of [`walksat`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WalkSatResult {
    /// A model, assigning every variable.
    Sat(Model),
    /// No model found within the limits; the clauses may or may not be satisfiable.
    Unknown,
}

impl WalkSatResult {
    /// The model, if one was found.
    pub fn model(&self) -> Option<&Model> {
        match self {
            WalkSatResult::Sat(m) => Some(m),
            WalkSatResult::Unknown => None,
        }
    }
}

/// Work done by a [`walksat`] call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WalkSatStats {
    /// Tries started.
    pub tries: u32,
    /// Flips made over all tries.
    pub flips: u64,
    /// The fewest unsatisfied clauses (constraints) at any point of the search:
    /// how close it came when it found no model.
    pub fewest_unsat: usize,
}

/// Searches for a model of `cnf` by WalkSAT.
///
/// # Examples
///
/// ```
/// use sleuth_logic::{walksat, Cnf, WalkSatOptions, WalkSatResult};
/// let cnf = Cnf::from_dimacs(&[&[1, 2], &[-1, 3], &[-2, -3], &[1, -3]]).unwrap();
/// let (result, _stats) = walksat(&cnf, &WalkSatOptions::default());
/// let model = result.model().expect("easy instance");
/// assert!(cnf.is_satisfied_by(model));
/// ```
pub fn walksat(cnf: &Cnf, options: &WalkSatOptions) -> (WalkSatResult, WalkSatStats) {
    let clauses: Vec<(Vec<Lit>, u32)> =
        cnf.clauses().iter().filter(|c| !c.is_tautology()).map(|c| (c.dedup().lits().to_vec(), 1)).collect();
    if clauses.iter().any(|(lits, _)| lits.is_empty()) {
        return (WalkSatResult::Unknown, WalkSatStats::default());
    }
    let (value, stats) = search(cnf.num_vars() as usize, &clauses, options);
    let Some(value) = value else { return (WalkSatResult::Unknown, stats) };
    let model = Model::from_bools(&value);
    debug_assert!(cnf.is_satisfied_by(&model));
    (WalkSatResult::Sat(model), stats)
}

/// The search itself, on constraints "at least `k` of these literals"
/// (`k = 1`: a clause) over variables `0..n`, each with `1 <= k <= len`,
/// no literal repeated: [`walksat`] and [`crate::walksat_pb`] prepare their
/// constraints and call it. A random unsatisfied constraint, then one of
/// its false literals made true (for a clause: any of its literals).
/// Returns the satisfying values found, if any.
pub(crate) fn search(
    n: usize,
    cons: &[(Vec<Lit>, u32)],
    options: &WalkSatOptions,
) -> (Option<Vec<bool>>, WalkSatStats) {
    let mut stats = WalkSatStats::default();
    let noise = if options.noise.is_nan() { 0.0 } else { options.noise.clamp(0.0, 1.0) };
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
            // Break count of each flip: the constraints at their threshold
            // that would lose a true literal (for a clause: that it alone
            // satisfies).
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
            // Flip.
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
            return (Some(value), stats);
        }
    }
    (None, stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_claims_unsat() {
        let cnf = Cnf::from_dimacs(&[&[1], &[-1]]).unwrap();
        let opts = WalkSatOptions { max_flips: 100, max_tries: 3, ..WalkSatOptions::default() };
        assert_eq!(walksat(&cnf, &opts).0, WalkSatResult::Unknown);
        let cnf = Cnf::from_dimacs(&[&[]]).unwrap();
        assert_eq!(walksat(&cnf, &opts).0, WalkSatResult::Unknown);
    }

    #[test]
    fn same_seed_same_run() {
        let cnf = Cnf::from_dimacs(&[&[1, 2, 3], &[-1, -2], &[-2, -3], &[2, -3]]).unwrap();
        let opts = WalkSatOptions { seed: 7, ..WalkSatOptions::default() };
        assert_eq!(walksat(&cnf, &opts), walksat(&cnf, &opts));
        let empty = walksat(&Cnf::with_vars(2), &opts).0;
        assert!(empty.model().is_some());
    }
}
