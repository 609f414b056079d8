//! A DPLL solver (seed section 10.2): unit propagation with two watched literals,
//! the pure literal rule, a choice of decision heuristics, and chronological
//! backtracking. No clause learning, so it stays readable.
//!
//! On top of satisfiability it answers the seed's `testLiteral` question
//! ([`Dpll::test_literal`]: is a literal entailed, refuted, or neither?), solves
//! under assumptions without changing the clause set, and counts models by
//! exhaustive search ([`Dpll::count_models`]).
//!
//! # How it works
//!
//! Each clause of two or more literals *watches* two of them (its first two
//! positions). A clause needs attention only when a watched literal becomes false:
//! then it looks for another literal that is not false to watch instead, and if
//! there is none the other watched literal is forced (a unit) or, if that one is
//! false too, the clause is violated (a conflict). Backtracking needs no watch
//! updates at all.
//!
//! Alongside, every literal keeps the number of not-yet-satisfied clauses it
//! occurs in. That count finds pure literals (a literal whose negation occurs in
//! no unsatisfied clause can be made true without losing models of the rest), shows
//! when every clause is satisfied (so the search can stop before assigning every
//! variable), and feeds the decision heuristic.

use crate::clause::{Clause, Cnf, Model};
use crate::lit::{Lit, Var};
use crate::sentence::Sentence;
use crate::symbols::Symbols;
use crate::tseitin::tseitin;

/// The answer to a satisfiability question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveResult {
    /// Satisfiable, with a model assigning every variable.
    Sat(Model),
    /// Unsatisfiable (under the assumptions, if any).
    Unsat,
}

impl SolveResult {
    /// True for [`SolveResult::Sat`].
    pub fn is_sat(&self) -> bool {
        matches!(self, SolveResult::Sat(_))
    }

    /// The model, if satisfiable.
    pub fn model(&self) -> Option<&Model> {
        match self {
            SolveResult::Sat(m) => Some(m),
            SolveResult::Unsat => None,
        }
    }
}

/// The seed's three answers to "is this literal true?".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Truth {
    /// The clauses entail the literal.
    True,
    /// The clauses entail the literal's negation.
    False,
    /// Neither: some model makes it true and another false.
    Unknown,
}

impl Truth {
    /// The seed's notepad mark: `Y`, `n` or `-`.
    pub fn mark(self) -> char {
        match self {
            Truth::True => 'Y',
            Truth::False => 'n',
            Truth::Unknown => '-',
        }
    }
}

/// How [`Dpll`] picks the next decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Heuristic {
    /// The lowest-numbered variable still in an unsatisfied clause, tried true first.
    /// Predictable, for following a search by hand.
    Ordered,
    /// The variable occurring in the most unsatisfied clauses, trying first the
    /// polarity that satisfies more of them.
    MostOccurrences,
    /// Two-sided Jeroslow–Wang: literals score 2^-k for each unsatisfied clause of
    /// k unassigned literals they occur in, so short clauses weigh most; the
    /// variable with the best total is tried with its higher-scoring polarity.
    #[default]
    JeroslowWang,
}

/// Options for [`Dpll`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DpllOptions {
    /// The decision heuristic.
    pub heuristic: Heuristic,
    /// Whether to apply the pure literal rule (never during model counting).
    pub pure_literals: bool,
    /// Unit propagation with two watched literals per clause (the seed's
    /// suggested optimisation, section 10.2); without, every clause containing
    /// the literal just made false is inspected. Same answers and the same
    /// search either way; [`Stats::clause_visits`] shows the difference.
    pub watched_literals: bool,
}

impl Default for DpllOptions {
    fn default() -> DpllOptions {
        DpllOptions { heuristic: Heuristic::default(), pure_literals: true, watched_literals: true }
    }
}

/// Counters describing the work done by the last call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Decisions made (branches opened).
    pub decisions: u64,
    /// Literals taken from the propagation queue.
    pub propagations: u64,
    /// Conflicts found by unit propagation.
    pub conflicts: u64,
    /// Literals set by the pure literal rule.
    pub pure_literals: u64,
    /// Clauses inspected by unit propagation.
    pub clause_visits: u64,
}

/// A model count too large for `u128`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the model count does not fit in 128 bits")]
pub struct CountOverflow;

#[derive(Clone, Copy, Debug)]
struct Level {
    /// Trail length before this level's first assignment.
    trail_start: usize,
    /// The literal decided (or assumed) at this level.
    decision: Lit,
    /// True once both polarities have been tried; always true for assumptions.
    flipped: bool,
    /// True for an assumption level, which backtracking never flips.
    assumption: bool,
}

/// An incremental DPLL solver over a growing clause set.
///
/// Clauses can be added between calls; each call starts from scratch with the
/// current clauses, so assumptions and queries never leave a trace.
///
/// # Examples
///
/// The seed's `SATSolver` test case: is Cal a truth-teller?
///
/// ```
/// use sleuth_logic::{Cnf, Dpll, Lit, Truth};
/// let kb = Cnf::from_dimacs(&[&[-1, -2], &[2, 1], &[-2, -3], &[3, 2], &[-3, -1], &[-3, -2], &[1, 2, 3]]).unwrap();
/// let mut solver = Dpll::new(&kb);
/// assert!(solver.solve().is_sat());
/// let cal = Lit::from_dimacs(3).unwrap();
/// assert_eq!(solver.test_literal(cal), Truth::False);
/// assert_eq!(solver.count_models()?, 1);
/// # Ok::<(), sleuth_logic::CountOverflow>(())
/// ```
#[derive(Clone, Debug)]
pub struct Dpll {
    options: DpllOptions,
    num_vars: usize,
    /// Every clause of one or more literals, duplicates and tautologies removed.
    clauses: Vec<Vec<Lit>>,
    /// The literals of unit clauses.
    units: Vec<Lit>,
    has_empty: bool,
    /// Per literal code: the clauses watching that literal.
    watches: Vec<Vec<u32>>,
    /// Per literal code: the clauses containing that literal.
    occurs: Vec<Vec<u32>>,
    /// Per clause: how many of its literals are true.
    sat_count: Vec<u32>,
    /// Per literal code: how many unsatisfied clauses contain it.
    active: Vec<u32>,
    /// The number of clauses with no true literal.
    unsat_clauses: usize,
    /// Per variable: 1 true, -1 false, 0 unassigned.
    value: Vec<i8>,
    trail: Vec<Lit>,
    levels: Vec<Level>,
    qhead: usize,
    stats: Stats,
}

impl Default for Dpll {
    fn default() -> Dpll {
        Dpll::with_options(DpllOptions::default())
    }
}

impl Dpll {
    /// A solver holding the clauses of `cnf`, with default options.
    pub fn new(cnf: &Cnf) -> Dpll {
        let mut s = Dpll::default();
        s.add_cnf(cnf);
        s
    }

    /// An empty solver with the given options.
    pub fn with_options(options: DpllOptions) -> Dpll {
        Dpll {
            options,
            num_vars: 0,
            clauses: Vec::new(),
            units: Vec::new(),
            has_empty: false,
            watches: Vec::new(),
            occurs: Vec::new(),
            sat_count: Vec::new(),
            active: Vec::new(),
            unsat_clauses: 0,
            value: Vec::new(),
            trail: Vec::new(),
            levels: Vec::new(),
            qhead: 0,
            stats: Stats::default(),
        }
    }

    /// The options in use.
    pub fn options(&self) -> DpllOptions {
        self.options
    }

    /// Changes the options for later calls.
    pub fn set_options(&mut self, options: DpllOptions) {
        self.options = options;
    }

    /// The work done by the last call.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// The number of variables (the largest seen in a clause, assumption or
    /// [`Dpll::ensure_vars`]).
    pub fn num_vars(&self) -> u32 {
        u32::try_from(self.num_vars).expect("variables fit in u32")
    }

    /// Makes room for variables `1..=n`; models then cover them all.
    pub fn ensure_vars(&mut self, n: u32) {
        let n = n as usize;
        if n > self.num_vars {
            self.reset();
            self.num_vars = n;
            self.value.resize(n, 0);
            self.watches.resize(2 * n, Vec::new());
            self.occurs.resize(2 * n, Vec::new());
            self.active.resize(2 * n, 0);
        }
    }

    /// Adds every clause of `cnf` and its variable count.
    pub fn add_cnf(&mut self, cnf: &Cnf) {
        self.ensure_vars(cnf.num_vars());
        for c in cnf.clauses() {
            self.add_clause(c);
        }
    }

    /// Adds one clause. Repeated literals are merged and tautologies dropped (both
    /// keep the set of models).
    pub fn add_clause(&mut self, clause: &Clause) {
        self.reset();
        self.ensure_vars(clause.max_var());
        if clause.is_tautology() {
            return;
        }
        let lits = clause.dedup().lits().to_vec();
        if lits.is_empty() {
            self.has_empty = true;
            return;
        }
        let ci = u32::try_from(self.clauses.len()).expect("fewer than 2^32 clauses");
        if lits.len() == 1 {
            self.units.push(lits[0]);
        } else {
            self.watches[lits[0].code()].push(ci);
            self.watches[lits[1].code()].push(ci);
        }
        for l in &lits {
            self.occurs[l.code()].push(ci);
            self.active[l.code()] += 1;
        }
        self.sat_count.push(0);
        self.unsat_clauses += 1;
        self.clauses.push(lits);
    }

    fn lit_value(&self, l: Lit) -> i8 {
        let v = self.value[l.var().index()];
        if l.is_negative() {
            -v
        } else {
            v
        }
    }

    fn assign(&mut self, l: Lit) {
        debug_assert_eq!(self.value[l.var().index()], 0);
        self.value[l.var().index()] = if l.is_negative() { -1 } else { 1 };
        self.trail.push(l);
        let Dpll { occurs, sat_count, clauses, active, unsat_clauses, .. } = self;
        for &ci in &occurs[l.code()] {
            let ci = ci as usize;
            sat_count[ci] += 1;
            if sat_count[ci] == 1 {
                *unsat_clauses -= 1;
                for m in &clauses[ci] {
                    active[m.code()] -= 1;
                }
            }
        }
    }

    fn unassign(&mut self, l: Lit) {
        self.value[l.var().index()] = 0;
        let Dpll { occurs, sat_count, clauses, active, unsat_clauses, .. } = self;
        for &ci in &occurs[l.code()] {
            let ci = ci as usize;
            sat_count[ci] -= 1;
            if sat_count[ci] == 0 {
                *unsat_clauses += 1;
                for m in &clauses[ci] {
                    active[m.code()] += 1;
                }
            }
        }
    }

    fn undo_to(&mut self, len: usize) {
        while self.trail.len() > len {
            let l = self.trail.pop().expect("trail longer than len");
            self.unassign(l);
        }
        self.qhead = self.qhead.min(len);
    }

    /// Unassigns everything.
    fn reset(&mut self) {
        self.undo_to(0);
        self.levels.clear();
    }

    /// Unit propagation to a fixpoint; false on a conflict.
    fn propagate(&mut self) -> bool {
        if !self.options.watched_literals {
            return self.propagate_by_occurrences();
        }
        while self.qhead < self.trail.len() {
            let p = self.trail[self.qhead];
            self.qhead += 1;
            self.stats.propagations += 1;
            let false_lit = !p;
            let mut ws = std::mem::take(&mut self.watches[false_lit.code()]);
            let (mut i, mut j) = (0, 0);
            let mut conflict = false;
            while i < ws.len() {
                let ci = ws[i] as usize;
                i += 1;
                self.stats.clause_visits += 1;
                if self.clauses[ci][0] == false_lit {
                    self.clauses[ci].swap(0, 1);
                }
                debug_assert_eq!(self.clauses[ci][1], false_lit);
                let first = self.clauses[ci][0];
                if self.lit_value(first) == 1 {
                    ws[j] = ci as u32;
                    j += 1;
                    continue;
                }
                let replacement = (2..self.clauses[ci].len()).find(|&k| self.lit_value(self.clauses[ci][k]) != -1);
                if let Some(k) = replacement {
                    self.clauses[ci].swap(1, k);
                    let w = self.clauses[ci][1];
                    self.watches[w.code()].push(ci as u32);
                    continue;
                }
                ws[j] = ci as u32;
                j += 1;
                if self.lit_value(first) == -1 {
                    conflict = true;
                    while i < ws.len() {
                        ws[j] = ws[i];
                        j += 1;
                        i += 1;
                    }
                } else {
                    self.assign(first);
                }
            }
            ws.truncate(j);
            self.watches[false_lit.code()] = ws;
            if conflict {
                self.stats.conflicts += 1;
                return false;
            }
        }
        true
    }

    /// Unit propagation without watches: every clause containing the literal
    /// just made false is inspected in full.
    fn propagate_by_occurrences(&mut self) -> bool {
        while self.qhead < self.trail.len() {
            let p = self.trail[self.qhead];
            self.qhead += 1;
            self.stats.propagations += 1;
            let false_lit = !p;
            for k in 0..self.occurs[false_lit.code()].len() {
                let ci = self.occurs[false_lit.code()][k] as usize;
                self.stats.clause_visits += 1;
                if self.sat_count[ci] > 0 {
                    continue;
                }
                let (first, more) = {
                    let mut free = self.clauses[ci].iter().filter(|&&l| self.lit_value(l) == 0);
                    (free.next().copied(), free.next().is_some())
                };
                match (first, more) {
                    (None, _) => {
                        self.stats.conflicts += 1;
                        return false;
                    }
                    (Some(unit), false) => self.assign(unit),
                    _ => {}
                }
            }
        }
        true
    }

    /// Sets every pure literal; true if any was set.
    fn assign_pure_literals(&mut self) -> bool {
        let mut any = false;
        for v in 0..self.num_vars {
            if self.value[v] != 0 {
                continue;
            }
            let var = Var::from_index(v);
            let (pos, neg) = (self.active[var.positive().code()], self.active[var.negative().code()]);
            let pure = match (pos > 0, neg > 0) {
                (true, false) => var.positive(),
                (false, true) => var.negative(),
                _ => continue,
            };
            self.assign(pure);
            self.stats.pure_literals += 1;
            any = true;
        }
        any
    }

    /// The next decision literal, or `None` if no unsatisfied clause has a free
    /// literal.
    fn pick(&self) -> Option<Lit> {
        let free = (0..self.num_vars).filter(|&v| self.value[v] == 0).map(Var::from_index);
        match self.options.heuristic {
            Heuristic::Ordered => free
                .filter(|v| self.active[v.positive().code()] + self.active[v.negative().code()] > 0)
                .map(Var::positive)
                .next(),
            Heuristic::MostOccurrences => {
                let mut best: Option<(u32, Lit)> = None;
                for v in free {
                    let (p, n) = (self.active[v.positive().code()], self.active[v.negative().code()]);
                    let score = p + n;
                    if score > 0 && best.is_none_or(|(b, _)| score > b) {
                        best = Some((score, v.lit(p >= n)));
                    }
                }
                best.map(|(_, l)| l)
            }
            Heuristic::JeroslowWang => {
                // Free literals per unsatisfied clause, counted once per pick: counting
                // them per variable would be quadratic on one long clause.
                let free_len: Vec<u32> =
                    self.clauses
                        .iter()
                        .zip(&self.sat_count)
                        .map(|(c, &sat)| {
                            if sat > 0 {
                                0
                            } else {
                                c.iter().filter(|m| self.value[m.var().index()] == 0).count() as u32
                            }
                        })
                        .collect();
                let mut best: Option<(u64, Lit)> = None;
                for v in free {
                    let (p, n) = (self.jw_score(v.positive(), &free_len), self.jw_score(v.negative(), &free_len));
                    let score = p + n;
                    if score > 0 && best.is_none_or(|(b, _)| score > b) {
                        best = Some((score, v.lit(p >= n)));
                    }
                }
                best.map(|(_, l)| l)
            }
        }
    }

    /// The Jeroslow–Wang weight of `l`: 2^(40-k) per unsatisfied clause of `k` free
    /// literals containing it.
    fn jw_score(&self, l: Lit, free_len: &[u32]) -> u64 {
        if self.active[l.code()] == 0 {
            return 0;
        }
        let mut score = 0u64;
        for &ci in &self.occurs[l.code()] {
            let ci = ci as usize;
            if self.sat_count[ci] > 0 {
                continue;
            }
            let k = free_len[ci];
            score += 1u64 << (40 - k.min(40));
        }
        score
    }

    /// After a conflict (or a counted leaf): undoes levels up to the most recent
    /// decision not yet flipped and flips it. False if there is none left.
    fn backtrack(&mut self) -> bool {
        while let Some(level) = self.levels.last().copied() {
            if level.assumption {
                return false;
            }
            self.undo_to(level.trail_start);
            if level.flipped {
                self.levels.pop();
                continue;
            }
            if let Some(last) = self.levels.last_mut() {
                last.flipped = true;
                last.decision = !level.decision;
            }
            self.assign(!level.decision);
            return true;
        }
        false
    }

    /// Starts a call: clears state, sets root units and assumptions. False if they
    /// already conflict.
    fn start(&mut self, assumptions: &[Lit]) -> bool {
        self.reset();
        self.stats = Stats::default();
        if let Some(max) = assumptions.iter().map(|l| l.var().get()).max() {
            self.ensure_vars(max);
        }
        if self.has_empty {
            return false;
        }
        for i in 0..self.units.len() {
            let u = self.units[i];
            match self.lit_value(u) {
                1 => {}
                -1 => return false,
                _ => self.assign(u),
            }
        }
        if !self.propagate() {
            return false;
        }
        for &a in assumptions {
            match self.lit_value(a) {
                1 => {}
                -1 => return false,
                _ => {
                    self.levels.push(Level {
                        trail_start: self.trail.len(),
                        decision: a,
                        flipped: true,
                        assumption: true,
                    });
                    self.assign(a);
                    if !self.propagate() {
                        return false;
                    }
                }
            }
        }
        true
    }

    fn decide(&mut self, l: Lit) {
        self.stats.decisions += 1;
        self.levels.push(Level { trail_start: self.trail.len(), decision: l, flipped: false, assumption: false });
        self.assign(l);
    }

    fn current_model(&self) -> Model {
        let values: Vec<bool> = self.value.iter().map(|&v| v == 1).collect();
        Model::from_bools(&values)
    }

    /// Decides satisfiability of the clauses.
    pub fn solve(&mut self) -> SolveResult {
        self.solve_with(&[])
    }

    /// Decides satisfiability of the clauses together with the assumption literals,
    /// without adding them to the clause set.
    ///
    /// A returned model assigns every variable; variables the search did not need
    /// are false.
    pub fn solve_with(&mut self, assumptions: &[Lit]) -> SolveResult {
        if !self.start(assumptions) {
            return SolveResult::Unsat;
        }
        loop {
            if !self.propagate() {
                if self.backtrack() {
                    continue;
                }
                return SolveResult::Unsat;
            }
            if self.options.pure_literals && self.assign_pure_literals() {
                continue;
            }
            if self.unsat_clauses == 0 {
                let m = self.current_model();
                debug_assert!(self.clauses.iter().all(|c| c.iter().any(|&l| m.lit_value(l) == Some(true))));
                return SolveResult::Sat(m);
            }
            match self.pick() {
                Some(l) => self.decide(l),
                None => unreachable!("an unsatisfied clause without free literals is a conflict"),
            }
        }
    }

    /// The seed's `testLiteral`: [`Truth::False`] if the clauses with `lit` are
    /// unsatisfiable, else [`Truth::True`] if the clauses with `¬lit` are, else
    /// [`Truth::Unknown`].
    ///
    /// Like the seed, an unsatisfiable clause set answers [`Truth::False`] for every
    /// literal (it entails both); check [`Dpll::solve`] first when that matters.
    pub fn test_literal(&mut self, lit: Lit) -> Truth {
        if !self.solve_with(&[lit]).is_sat() {
            Truth::False
        } else if !self.solve_with(&[!lit]).is_sat() {
            Truth::True
        } else {
            Truth::Unknown
        }
    }

    /// The number of assignments to variables `1..=num_vars` that satisfy every
    /// clause, by exhaustive search (the pure literal rule is off here).
    ///
    /// # Errors
    ///
    /// Fails if the count does not fit in a `u128` (possible only with 128 or more
    /// variables).
    pub fn count_models(&mut self) -> Result<u128, CountOverflow> {
        self.count_models_with(&[])
    }

    /// The number of models in which every assumption literal is true.
    ///
    /// # Errors
    ///
    /// Fails if the count does not fit in a `u128`.
    pub fn count_models_with(&mut self, assumptions: &[Lit]) -> Result<u128, CountOverflow> {
        if !self.start(assumptions) {
            return Ok(0);
        }
        let mut count: u128 = 0;
        loop {
            if !self.propagate() {
                if self.backtrack() {
                    continue;
                }
                return Ok(count);
            }
            if self.unsat_clauses == 0 {
                let free = self.num_vars - self.trail.len();
                let leaf = u32::try_from(free).ok().and_then(|f| 1u128.checked_shl(f)).ok_or(CountOverflow)?;
                count = count.checked_add(leaf).ok_or(CountOverflow)?;
                if self.backtrack() {
                    continue;
                }
                return Ok(count);
            }
            match self.pick() {
                Some(l) => self.decide(l),
                None => unreachable!("an unsatisfied clause without free literals is a conflict"),
            }
        }
    }
}

/// Decides satisfiability of `cnf` with default options.
///
/// # Examples
///
/// ```
/// use sleuth_logic::{solve, Cnf};
/// let cnf = Cnf::from_dimacs(&[&[1, 2], &[-1], &[-2, 3]]).unwrap();
/// let model = solve(&cnf).model().cloned().expect("satisfiable");
/// assert!(cnf.is_satisfied_by(&model));
/// ```
pub fn solve(cnf: &Cnf) -> SolveResult {
    Dpll::new(cnf).solve()
}

/// The seed's `testLiteral` on `cnf`; see [`Dpll::test_literal`].
pub fn test_literal(cnf: &Cnf, lit: Lit) -> Truth {
    Dpll::new(cnf).test_literal(lit)
}

/// The number of models of `cnf` over its `num_vars` variables, by exhaustive DPLL.
///
/// # Errors
///
/// Fails if the count does not fit in a `u128`.
pub fn count_models(cnf: &Cnf) -> Result<u128, CountOverflow> {
    Dpll::new(cnf).count_models()
}

/// An assignment to the atoms of `kb` and `goal` that makes every sentence of `kb`
/// true and `goal` false, or `None` if `kb ⊨ goal`.
///
/// Unlike [`countermodel`](crate::countermodel) this has no atom limit: it runs
/// DPLL on the [Tseitin encoding](crate::tseitin()) of `kb ∧ ¬goal`.
///
/// # Examples
///
/// ```
/// use sleuth_logic::{parse, parse_sentences, sat_countermodel};
/// let kb = parse_sentences("A | B")?;
/// assert_eq!(sat_countermodel(&kb, &parse("A | B | C")?), None);
/// let cm = sat_countermodel(&kb, &parse("A")?).expect("A does not follow");
/// assert_eq!(cm, vec![("A".to_owned(), false), ("B".to_owned(), true)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn sat_countermodel(kb: &[Sentence], goal: &Sentence) -> Option<Vec<(String, bool)>> {
    let mut all: Vec<Sentence> = kb.to_vec();
    all.push(Sentence::negate(goal.clone()));
    let atoms = crate::sentence::atoms_of_all(&all);
    let n = atoms.len();
    let mut symbols = Symbols::new();
    let cnf = tseitin(&all, &mut symbols);
    let model = Dpll::new(&cnf).solve().model().cloned()?;
    Some(
        (0..n)
            .map(|i| {
                let v = Var::from_index(i);
                (symbols.var_to_string(v), model.get(v).unwrap_or(false))
            })
            .collect(),
    )
}

/// True if every model of `kb` is a model of `goal`, decided by DPLL (no atom
/// limit; see [`sat_countermodel`]).
pub fn sat_entails(kb: &[Sentence], goal: &Sentence) -> bool {
    sat_countermodel(kb, goal).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cnf(c: &[&[i32]]) -> Cnf {
        Cnf::from_dimacs(c).unwrap()
    }

    fn lit(n: i32) -> Lit {
        Lit::from_dimacs(n).unwrap()
    }

    #[test]
    fn trivial_cases() {
        assert!(solve(&Cnf::new()).is_sat());
        assert!(!solve(&cnf(&[&[]])).is_sat());
        assert!(!solve(&cnf(&[&[1], &[-1]])).is_sat());
        assert_eq!(count_models(&Cnf::with_vars(3)).unwrap(), 8);
        assert_eq!(count_models(&cnf(&[&[1, -1]])).unwrap(), 2);
        assert_eq!(count_models(&cnf(&[&[]])).unwrap(), 0);
    }

    #[test]
    fn assumptions_leave_no_trace() {
        let mut s = Dpll::new(&cnf(&[&[1, 2], &[-1, 3]]));
        assert!(!s.solve_with(&[lit(1), lit(-3)]).is_sat());
        assert!(s.solve_with(&[lit(-1)]).is_sat());
        assert!(s.solve().is_sat());
        assert_eq!(s.count_models_with(&[lit(1)]).unwrap(), 2);
        assert_eq!(s.count_models().unwrap(), 4);
        // A pure literal must not override an assumption on the same variable.
        assert!(s.solve_with(&[lit(-3)]).is_sat());
    }

    #[test]
    fn incremental_clauses() {
        let mut s = Dpll::default();
        s.add_clause(&Clause::from_dimacs(&[1, 2]).unwrap());
        assert_eq!(s.test_literal(lit(1)), Truth::Unknown);
        s.add_clause(&Clause::from_dimacs(&[-2]).unwrap());
        assert_eq!(s.test_literal(lit(1)), Truth::True);
        assert_eq!(s.test_literal(lit(2)), Truth::False);
        s.add_clause(&Clause::from_dimacs(&[-1, 2]).unwrap());
        assert!(!s.solve().is_sat());
    }

    #[test]
    fn count_overflow_is_an_error() {
        assert_eq!(count_models(&Cnf::with_vars(128)), Err(CountOverflow));
        assert_eq!(count_models(&Cnf::with_vars(127)).unwrap(), 1 << 127);
    }

    #[test]
    fn every_heuristic_solves_pigeonhole() {
        // 4 pigeons, 3 holes: unsatisfiable.
        let var = |p: i32, h: i32| p * 3 + h + 1;
        let mut c = Cnf::new();
        for p in 0..4 {
            c.add_clause(Clause::from_dimacs(&[var(p, 0), var(p, 1), var(p, 2)]).unwrap());
        }
        for h in 0..3 {
            for p in 0..4 {
                for q in p + 1..4 {
                    c.add_clause(Clause::from_dimacs(&[-var(p, h), -var(q, h)]).unwrap());
                }
            }
        }
        for heuristic in [Heuristic::Ordered, Heuristic::MostOccurrences, Heuristic::JeroslowWang] {
            for pure_literals in [false, true] {
                let mut s = Dpll::with_options(DpllOptions { heuristic, pure_literals, watched_literals: true });
                s.add_cnf(&c);
                assert_eq!(s.solve(), SolveResult::Unsat, "{heuristic:?}");
                assert_eq!(s.count_models().unwrap(), 0);
            }
        }
    }
}
