//! Neller and Luo's WalkSAT-like search-and-sample over at-least
//! constraints (their Algorithm 1), its variations (a)–(e), and
//! Algorithm 2.
//!
//! # Algorithm 1, line by line
//!
//! ```text
//!  5: RandomRestart()        each non-fixed variable true or false with probability 1/2
//!  6: if no unsatisfied constraint: RecordSample()
//!  9: tabuTenure = 10
//! 10: lastSampleStep = 0
//! 11: for step = 1, 2, ..., numIter:
//! 12:   tabuCutoffStep = max(1, step - tabuTenure, lastSampleStep)
//! 13:   if every constraint is satisfied:
//! 14:     choose a random non-fixed variable
//! 15:   else:
//! 16:     choose a random unsatisfied constraint
//! 17:     choose a variable of it by the WalkSAT heuristic
//! 19:   flip it
//! 20:   if no unsatisfied constraint: RecordSample(); lastSampleStep = step
//! ```
//!
//! How the points the paper leaves open are read here:
//!
//! * **Tabu.** A variable is *tabu* at a step when its last flip happened at
//!   or after `tabuCutoffStep` (`last_flip >= cutoff`); variables never
//!   flipped since the last restart count as flipped at step 0, which is
//!   why the cutoff is at least 1. So a variable flipped at step `t` is tabu
//!   through step `t + tenure` and free again at `t + tenure + 1`: "may not
//!   be reflipped until tabuTenure iterations have passed". The
//!   `lastSampleStep` term frees every variable flipped before the last
//!   sample, except the flip that reached it: a sample ends the tenure of
//!   earlier flips (the paper's "in general").
//! * **Which variables tabu restricts.** The choice from an unsatisfied
//!   constraint (line 17, and the noisy choice of variation (c)). Line 14's
//!   random flip after a sample is "a random non-fixed variable", as
//!   written, tabu or not. When every candidate of the chosen constraint
//!   is tabu, the choice is made among all of them (the paper says a
//!   variable may not "in general" be reflipped); the trace marks such
//!   flips with `tabu_overridden`.
//! * **Candidates.** "A variable of an unsatisfied at-least constraint" is
//!   one whose literal in the constraint is currently false: flipping a
//!   true literal takes the constraint further from being satisfied. For
//!   clauses (m = 1) this is every variable, as in WalkSAT.
//! * **The heuristic.** Among the candidates, one that minimises the number
//!   of constraints that go from satisfied to unsatisfied (the WalkSAT
//!   break count), ties broken uniformly at random.
//! * **Restarts** (variations (a), (b)) happen at the step after a sample,
//!   in place of line 14's random flip; the step's line 20 then checks the
//!   new assignment like any other. A restart also forgets the tabu
//!   history, like the initial one.
//! * **Variation (b).** Section 4.2's list says "after finding and recording
//!   a sample solution, perform a random variable flip with probability
//!   0.2, otherwise perform a random restart"; section 4.2.2 describes the
//!   restart as happening "only 20 % of the time". [`WalkSatConfig::variation`]
//!   `('b')` follows the list (restart probability 0.8); set
//!   [`restart_prob`](WalkSatConfig::restart_prob) to 0.2 for the other
//!   reading.
//! * **Duplicates** (variations (d), (e)). A satisfying assignment already
//!   recorded is not recorded again, but everything else (including
//!   `lastSampleStep` and restarts) happens "as if the sample was recorded".
//!   The initial restart's sample, if any, sets no `lastSampleStep`, as in
//!   lines 6-10.

use rand::Rng;
use rustc_hash::FxHashSet;

use super::estimate::{Batches, Estimate, SearchStats};
use super::formula::Formula;

/// The parameters of a search-and-sample run.
#[derive(Clone, Debug, PartialEq)]
pub struct WalkSatConfig {
    /// Search steps (the paper's `numIter`).
    pub iterations: u64,
    /// The tabu tenure: a variable flipped at step `t` is not chosen from an
    /// unsatisfied constraint again before step `t + tenure + 1`, unless a
    /// sample is reached after step `t` or every candidate is tabu.
    pub tenure: u64,
    /// The probability of choosing a random candidate of the unsatisfied
    /// constraint instead of the heuristic's choice (variation (c): 0.2).
    pub noise: f64,
    /// The probability that the move after a sample is a random restart
    /// rather than a random flip ((a): 1, (b): 0.8).
    pub restart_prob: f64,
    /// Record each satisfying assignment only once ((d), (e)).
    pub unique: bool,
}

impl Default for WalkSatConfig {
    fn default() -> WalkSatConfig {
        WalkSatConfig::alg1()
    }
}

impl WalkSatConfig {
    /// The paper's budget: 100,000 iterations.
    pub const DEFAULT_ITERATIONS: u64 = 100_000;

    /// Algorithm 1: tabu tenure 10, no noise, no restarts, every sample
    /// recorded.
    pub fn alg1() -> WalkSatConfig {
        WalkSatConfig { iterations: Self::DEFAULT_ITERATIONS, tenure: 10, noise: 0.0, restart_prob: 0.0, unique: false }
    }

    /// Algorithm 2 (= variation (e)): duplicates not recorded, tabu tenure 2.
    pub fn alg2() -> WalkSatConfig {
        WalkSatConfig { tenure: 2, unique: true, ..WalkSatConfig::alg1() }
    }

    /// Variation `'a'` to `'e'` of section 4.2, each a change to
    /// Algorithm 1:
    /// (a) a random restart after each sample;
    /// (b) after a sample, a random flip with probability 0.2, otherwise a
    ///     random restart;
    /// (c) with probability 0.2 a random candidate of the unsatisfied
    ///     constraint instead of the heuristic's;
    /// (d) duplicate samples not recorded;
    /// (e) (d) and tabu tenure 2, which is Algorithm 2.
    pub fn variation(v: char) -> Option<WalkSatConfig> {
        let base = WalkSatConfig::alg1();
        Some(match v {
            'a' => WalkSatConfig { restart_prob: 1.0, ..base },
            'b' => WalkSatConfig { restart_prob: 0.8, ..base },
            'c' => WalkSatConfig { noise: 0.2, ..base },
            'd' => WalkSatConfig { unique: true, ..base },
            'e' => WalkSatConfig::alg2(),
            _ => return None,
        })
    }

    /// A configuration by name: `alg1`, `alg2`, or `a` to `e`.
    pub fn named(name: &str) -> Option<WalkSatConfig> {
        match name {
            "alg1" => Some(WalkSatConfig::alg1()),
            "alg2" => Some(WalkSatConfig::alg2()),
            _ => {
                let mut chars = name.chars();
                match (chars.next(), chars.next()) {
                    (Some(v), None) => WalkSatConfig::variation(v),
                    _ => None,
                }
            }
        }
    }

    /// The same configuration with another iteration budget.
    pub fn with_iterations(self, iterations: u64) -> WalkSatConfig {
        WalkSatConfig { iterations, ..self }
    }

    /// The name of the paper's configuration this one is (ignoring the
    /// iteration budget): `alg1`, `a`, `b`, `c`, `d` or `alg2` (which is
    /// also (e)).
    pub fn name(&self) -> Option<&'static str> {
        ["alg1", "a", "b", "c", "d", "alg2"]
            .into_iter()
            .find(|name| WalkSatConfig::named(name).map(|c| c.with_iterations(self.iterations)).as_ref() == Some(self))
    }

    /// A one-line description of the method and its parameters.
    pub fn describe(&self) -> String {
        format!(
            "{}: WalkSAT search-and-sample, {} iterations, tabu tenure {}, noise {}, restart after sample {}, {}",
            self.name().unwrap_or("custom"),
            self.iterations,
            self.tenure,
            self.noise,
            self.restart_prob,
            if self.unique { "unique samples" } else { "every sample" }
        )
    }
}

/// How a flipped variable was chosen.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FlipKind {
    /// Every constraint was satisfied: a random non-fixed variable (line 14).
    Random,
    /// The WalkSAT heuristic on a random unsatisfied constraint (line 17).
    Greedy,
    /// Noise (variation (c)): a random candidate of the constraint.
    Noise,
}

/// One event of a search, reported to the observer of
/// [`search_and_sample_traced`].
#[derive(Debug)]
pub enum Trace<'a> {
    /// Every non-fixed variable was set at random; the tabu history is
    /// forgotten. Step 0 is the initial restart.
    Restart {
        /// The step.
        step: u64,
        /// The new assignment of every variable, fixed ones included.
        assignment: &'a [bool],
    },
    /// A variable was flipped.
    Flip {
        /// The step.
        step: u64,
        /// The variable ([`Formula::var`]).
        var: usize,
        /// How it was chosen.
        kind: FlipKind,
        /// For [`FlipKind::Greedy`] and [`FlipKind::Noise`], the unsatisfied
        /// constraint it was chosen from, as an index into
        /// [`Knowledge::constraints`](crate::Knowledge::constraints).
        constraint: Option<usize>,
        /// Whether every candidate was tabu, so the choice ignored tabu.
        tabu_overridden: bool,
    },
    /// Every constraint is satisfied.
    Solution {
        /// The step.
        step: u64,
        /// The assignment of every variable, fixed ones included
        /// ([`Formula::deal`] turns it into a deal).
        assignment: &'a [bool],
        /// Whether it was recorded (`false` for a duplicate when the
        /// configuration keeps unique samples only).
        recorded: bool,
    },
}

/// Runs the search for `config.iterations` steps and estimates every
/// card-place probability from the recorded samples.
///
/// # Panics
/// If `config.noise` or `config.restart_prob` is not between 0 and 1.
pub fn search_and_sample<R: Rng + ?Sized>(formula: &Formula, config: &WalkSatConfig, rng: &mut R) -> Estimate {
    search_and_sample_traced(formula, config, rng, |_| {})
}

/// Like [`search_and_sample`], reporting every restart, flip and solution
/// to `observe` as it happens.
///
/// # Panics
/// If `config.noise` or `config.restart_prob` is not between 0 and 1.
pub fn search_and_sample_traced<R: Rng + ?Sized>(
    formula: &Formula,
    config: &WalkSatConfig,
    rng: &mut R,
    mut observe: impl FnMut(&Trace<'_>),
) -> Estimate {
    assert!((0.0..=1.0).contains(&config.noise), "noise {} is not a probability", config.noise);
    assert!(
        (0.0..=1.0).contains(&config.restart_prob),
        "restart probability {} is not a probability",
        config.restart_prob
    );
    let mut s = Search::new(formula, config);
    s.run(rng, &mut observe);
    s.finish()
}

/// The search state.
struct Search<'f> {
    f: &'f Formula,
    cfg: &'f WalkSatConfig,
    value: Vec<bool>,
    /// Per active constraint, its true literals.
    true_count: Vec<u32>,
    /// The unsatisfied constraints, and each one's position there.
    unsat: Vec<u32>,
    unsat_pos: Vec<u32>,
    /// The step of each variable's last flip (0: not since the restart).
    last_flip: Vec<u64>,
    tally: Vec<u64>,
    samples: u64,
    seen: FxHashSet<Box<[u64]>>,
    key: Vec<u64>,
    batches: Batches,
    cand: Vec<u32>,
    best: Vec<u32>,
    stats: SearchStats,
}

const NOT_UNSAT: u32 = u32::MAX;

impl<'f> Search<'f> {
    fn new(f: &'f Formula, cfg: &'f WalkSatConfig) -> Search<'f> {
        let n = f.num_vars();
        let value = (0..n).map(|v| f.fixed(v).unwrap_or(false)).collect();
        Search {
            f,
            cfg,
            value,
            true_count: vec![0; f.num_active_constraints()],
            unsat: Vec::new(),
            unsat_pos: vec![NOT_UNSAT; f.num_active_constraints()],
            last_flip: vec![0; n],
            tally: vec![0; n],
            samples: 0,
            seen: FxHashSet::default(),
            key: vec![0; f.free_vars().len().div_ceil(64)],
            batches: Batches::new(n),
            cand: Vec::new(),
            best: Vec::new(),
            stats: SearchStats::default(),
        }
    }

    fn run<R: Rng + ?Sized>(&mut self, rng: &mut R, observe: &mut impl FnMut(&Trace<'_>)) {
        self.restart(rng);
        observe(&Trace::Restart { step: 0, assignment: &self.value });
        if self.unsat.is_empty() {
            self.solution(0, observe);
        }
        let free = self.f.free_vars().len();
        if free == 0 {
            // Nothing to search: the fixed assignment is all there is.
            return;
        }
        let mut last_sample = 0u64;
        for step in 1..=self.cfg.iterations {
            self.stats.iterations = step;
            let cutoff = step.saturating_sub(self.cfg.tenure).max(last_sample).max(1);
            if self.unsat.is_empty() {
                if self.cfg.restart_prob > 0.0 && rng.gen_bool(self.cfg.restart_prob) {
                    self.restart(rng);
                    observe(&Trace::Restart { step, assignment: &self.value });
                } else {
                    let v = self.f.free_vars()[rng.gen_range(0..free)];
                    self.flip(v, step);
                    observe(&Trace::Flip {
                        step,
                        var: v as usize,
                        kind: FlipKind::Random,
                        constraint: None,
                        tabu_overridden: false,
                    });
                }
            } else {
                let c = self.unsat[rng.gen_range(0..self.unsat.len())] as usize;
                let (v, kind, tabu_overridden) = self.choose(c, cutoff, rng);
                self.flip(v, step);
                let constraint = Some(self.f.origin(c));
                observe(&Trace::Flip { step, var: v as usize, kind, constraint, tabu_overridden });
            }
            if self.unsat.is_empty() {
                self.solution(step, observe);
                last_sample = step;
            }
        }
    }

    /// Line 17: a variable of unsatisfied constraint `c`.
    fn choose<R: Rng + ?Sized>(&mut self, c: usize, cutoff: u64, rng: &mut R) -> (u32, FlipKind, bool) {
        self.cand.clear();
        let mut any_false = 0u32;
        for &(v, positive) in self.f.constraint(c) {
            if self.value[v as usize] != positive {
                any_false += 1;
                if self.last_flip[v as usize] < cutoff {
                    self.cand.push(v);
                }
            }
        }
        debug_assert!(any_false > 0, "an unsatisfied constraint has a false literal");
        let overridden = self.cand.is_empty();
        if overridden {
            for &(v, positive) in self.f.constraint(c) {
                if self.value[v as usize] != positive {
                    self.cand.push(v);
                }
            }
        }
        if self.cfg.noise > 0.0 && rng.gen_bool(self.cfg.noise) {
            return (self.cand[rng.gen_range(0..self.cand.len())], FlipKind::Noise, overridden);
        }
        self.best.clear();
        let mut min = u32::MAX;
        for &v in &self.cand {
            let b = self.break_count(v);
            if b < min {
                min = b;
                self.best.clear();
            }
            if b == min {
                self.best.push(v);
            }
        }
        let v = if self.best.len() == 1 { self.best[0] } else { self.best[rng.gen_range(0..self.best.len())] };
        (v, FlipKind::Greedy, overridden)
    }

    /// The constraints that flipping `v` makes unsatisfied.
    #[inline]
    fn break_count(&self, v: u32) -> u32 {
        let val = self.value[v as usize];
        let mut n = 0;
        for &(c, positive) in self.f.occurrences(v) {
            if val == positive && self.true_count[c as usize] == self.f.need(c as usize) {
                n += 1;
            }
        }
        n
    }

    fn flip(&mut self, v: u32, step: u64) {
        debug_assert!(self.f.fixed(v as usize).is_none());
        let new = !self.value[v as usize];
        self.value[v as usize] = new;
        self.last_flip[v as usize] = step;
        self.stats.flips += 1;
        for &(c, positive) in self.f.occurrences(v) {
            let c = c as usize;
            let need = self.f.need(c);
            if new == positive {
                self.true_count[c] += 1;
                if self.true_count[c] == need {
                    self.remove_unsat(c);
                }
            } else {
                if self.true_count[c] == need {
                    self.add_unsat(c);
                }
                self.true_count[c] -= 1;
            }
        }
    }

    fn add_unsat(&mut self, c: usize) {
        debug_assert_eq!(self.unsat_pos[c], NOT_UNSAT);
        self.unsat_pos[c] = self.unsat.len() as u32;
        self.unsat.push(c as u32);
    }

    fn remove_unsat(&mut self, c: usize) {
        let i = self.unsat_pos[c] as usize;
        let last = *self.unsat.last().expect("c is in the set");
        self.unsat[i] = last;
        self.unsat_pos[last as usize] = i as u32;
        self.unsat.pop();
        self.unsat_pos[c] = NOT_UNSAT;
    }

    /// RandomRestart: every non-fixed variable true or false at random.
    fn restart<R: Rng + ?Sized>(&mut self, rng: &mut R) {
        self.stats.restarts += 1;
        for &v in self.f.free_vars() {
            self.value[v as usize] = rng.gen();
            self.last_flip[v as usize] = 0;
        }
        self.unsat.clear();
        for c in 0..self.f.num_active_constraints() {
            let t = self.f.constraint(c).iter().filter(|&&(v, positive)| self.value[v as usize] == positive).count();
            self.true_count[c] = t as u32;
            self.unsat_pos[c] = NOT_UNSAT;
            if (t as u32) < self.f.need(c) {
                self.add_unsat(c);
            }
        }
    }

    /// Every constraint holds: RecordSample (unless it is a duplicate and
    /// only unique samples are kept).
    fn solution(&mut self, step: u64, observe: &mut impl FnMut(&Trace<'_>)) {
        self.stats.solutions += 1;
        let mut recorded = true;
        if self.cfg.unique {
            self.key.iter_mut().for_each(|w| *w = 0);
            for (i, &v) in self.f.free_vars().iter().enumerate() {
                if self.value[v as usize] {
                    self.key[i / 64] |= 1 << (i % 64);
                }
            }
            recorded = !self.seen.contains(&self.key[..]);
            if recorded {
                self.seen.insert(self.key.clone().into_boxed_slice());
            }
        }
        if recorded {
            for &v in self.f.free_vars() {
                if self.value[v as usize] {
                    self.tally[v as usize] += 1;
                    self.batches.hit(v as usize);
                }
            }
            self.batches.end_sample();
            self.samples += 1;
        }
        observe(&Trace::Solution { step, assignment: &self.value, recorded });
    }

    fn finish(self) -> Estimate {
        let mut counts = self.tally;
        let fixed: Vec<Option<bool>> = (0..self.f.num_vars()).map(|v| self.f.fixed(v)).collect();
        for (v, fx) in fixed.iter().enumerate() {
            if *fx == Some(true) {
                counts[v] = self.samples;
            }
        }
        Estimate::from_parts(
            self.cfg.describe(),
            self.f.num_places() - 1,
            self.samples,
            counts,
            fixed,
            self.batches,
            false,
            Some(self.stats),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_named_and_distinct() {
        for name in ["alg1", "a", "b", "c", "d", "alg2"] {
            let c = WalkSatConfig::named(name).unwrap();
            assert_eq!(c.name(), Some(name));
            assert_eq!(c.clone().with_iterations(7).name(), Some(name));
        }
        assert_eq!(WalkSatConfig::variation('e'), Some(WalkSatConfig::alg2()));
        assert_eq!(WalkSatConfig::named("e").unwrap().name(), Some("alg2"));
        assert_eq!(WalkSatConfig::variation('f'), None);
        assert_eq!(WalkSatConfig::named("ab"), None);
        let custom = WalkSatConfig { tenure: 3, ..WalkSatConfig::alg2() };
        assert_eq!(custom.name(), None);
        assert!(custom.describe().starts_with("custom: "));
    }
}
