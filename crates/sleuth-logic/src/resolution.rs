//! Resolution theorem proving by contradiction (seed section 4).
//!
//! To show `KB ⊨ goal`, add the clauses of `¬goal` to those of the knowledge base
//! and derive the empty clause by the resolution rule: from `{l1, …, A}` and
//! `{¬A, …, ln}` derive `{l1, …, ln}`.
//!
//! # Strategy
//!
//! The prover runs the *given-clause* loop with a **set of support**: only the
//! negated goal and clauses derived from it are ever chosen as the next clause to
//! resolve, and each chosen clause is resolved against every clause already
//! processed (the knowledge base counts as processed from the start). This keeps
//! the search aimed at the goal, and is complete whenever the knowledge base alone
//! is satisfiable; when it is not, every clause joins the set of support.
//! Among supported clauses the shortest is chosen first (**unit preference**, as in
//! the seed's section 9.2), then the one at the lowest derivation level (**breadth
//! first**), then the oldest. Pairs with two complementary literals are skipped
//! (their resolvents are tautologies); a clause subsumed by a kept clause is not
//! kept (forward subsumption) and a new clause removes kept clauses it subsumes
//! (backward subsumption, seed section 9.1). A new unit clause whose complement
//! is already kept ends the proof at once.
//!
//! If the loop runs out of supported clauses, the set is *saturated*: no proof
//! exists, and the goal is not entailed. A clause limit bounds the search.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::fmt::{self, Write as _};

use crate::clause::{Clause, Cnf};
use crate::convert::{CnfSteps, CnfTooLarge};
use crate::dpll::Dpll;
use crate::lit::{Lit, Var};
use crate::sentence::Sentence;
use crate::symbols::Symbols;

/// Where a proof step's clause comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Clause `index` (0-based) of the knowledge base.
    Premise {
        /// The clause's index in the knowledge base.
        index: usize,
    },
    /// Clause `index` (0-based) of the negated goal.
    NegatedGoal {
        /// The clause's index in the negated goal.
        index: usize,
    },
    /// The resolvent of two earlier steps (0-based step indices) on `pivot`.
    Resolvent {
        /// The step holding the first parent (the clause chosen from the set of
        /// support).
        left: usize,
        /// The step holding the second parent.
        right: usize,
        /// The variable resolved on.
        pivot: Var,
    },
}

/// One numbered line of a proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofStep {
    /// The clause on this line.
    pub clause: Clause,
    /// How it was obtained.
    pub origin: Origin,
}

/// A resolution refutation: premises, then resolvents, ending in the empty clause.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    steps: Vec<ProofStep>,
}

/// Why [`Proof::check`] rejected a proof.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ProofError {
    /// The proof has no steps.
    #[error("the proof is empty")]
    Empty,
    /// The last step is not the empty clause.
    #[error("the last step is not the empty clause")]
    NoContradiction,
    /// A premise step's clause is not the clause it names.
    #[error("step {step}: not the premise it names")]
    WrongPremise {
        /// The 1-based step number.
        step: usize,
    },
    /// A resolvent names a parent that is not an earlier step.
    #[error("step {step}: parent is not an earlier step")]
    BadParent {
        /// The 1-based step number.
        step: usize,
    },
    /// A resolvent's clause is not the resolvent of its parents on its pivot.
    #[error("step {step}: not the resolvent of its parents")]
    WrongResolvent {
        /// The 1-based step number.
        step: usize,
    },
}

impl Proof {
    /// Builds a proof from steps, without checking them (see [`Proof::check`]).
    pub fn from_steps(steps: Vec<ProofStep>) -> Proof {
        Proof { steps }
    }

    /// The steps, in order.
    pub fn steps(&self) -> &[ProofStep] {
        &self.steps
    }

    /// The number of resolution steps (lines that are not premises).
    pub fn resolutions(&self) -> usize {
        self.steps.iter().filter(|s| matches!(s.origin, Origin::Resolvent { .. })).count()
    }

    /// Checks every step: premises are the knowledge-base or negated-goal clauses
    /// they name (as sets of literals), each resolvent is the resolvent of two
    /// earlier steps on its pivot, and the last step is the empty clause.
    ///
    /// # Errors
    ///
    /// Returns the first faulty step.
    pub fn check(&self, kb: &Cnf, negated_goal: &Cnf) -> Result<(), ProofError> {
        let last = self.steps.last().ok_or(ProofError::Empty)?;
        for (i, step) in self.steps.iter().enumerate() {
            let n = i + 1;
            match step.origin {
                Origin::Premise { index } => {
                    let ok = kb.clauses().get(index).is_some_and(|c| c.same_set(&step.clause));
                    if !ok {
                        return Err(ProofError::WrongPremise { step: n });
                    }
                }
                Origin::NegatedGoal { index } => {
                    let ok = negated_goal.clauses().get(index).is_some_and(|c| c.same_set(&step.clause));
                    if !ok {
                        return Err(ProofError::WrongPremise { step: n });
                    }
                }
                Origin::Resolvent { left, right, pivot } => {
                    if left >= i || right >= i {
                        return Err(ProofError::BadParent { step: n });
                    }
                    let r = self.steps[left].clause.resolve(&self.steps[right].clause, pivot);
                    if !r.is_some_and(|r| r.same_set(&step.clause)) {
                        return Err(ProofError::WrongResolvent { step: n });
                    }
                }
            }
        }
        if last.clause.is_empty() {
            Ok(())
        } else {
            Err(ProofError::NoContradiction)
        }
    }

    /// The proof as numbered lines in the seed's layout: clause, parent lines (in
    /// increasing order), and a note for premises and the contradiction.
    ///
    /// ```text
    /// (1)  {¬C, ¬A}  knowledge base
    /// (2)  {C}       negated goal
    /// (3)  {¬A}      (1), (2)
    /// ```
    pub fn render(&self, symbols: &Symbols) -> String {
        let num_width = self.steps.len().to_string().len() + 2;
        let clauses: Vec<String> = self.steps.iter().map(|s| symbols.clause_to_string(&s.clause)).collect();
        let clause_width = clauses.iter().map(|c| c.chars().count()).max().unwrap_or(0);
        let mut out = String::new();
        for (i, (step, clause)) in self.steps.iter().zip(&clauses).enumerate() {
            let label = format!("({})", i + 1);
            let mut why = match step.origin {
                Origin::Premise { .. } => "knowledge base".to_owned(),
                Origin::NegatedGoal { .. } => "negated goal".to_owned(),
                Origin::Resolvent { left, right, .. } => {
                    format!("({}), ({})", left.min(right) + 1, left.max(right) + 1)
                }
            };
            let derived = matches!(step.origin, Origin::Resolvent { .. });
            if derived && i + 1 == self.steps.len() && step.clause.is_empty() {
                why.push_str("  contradiction");
            }
            let pad = clause_width - clause.chars().count();
            let _ = writeln!(out, "{label:<num_width$} {clause}{}  {why}", " ".repeat(pad));
        }
        out
    }
}

/// The outcome of a proof search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProofOutcome {
    /// The empty clause was derived: the goal is entailed.
    Proved(Proof),
    /// No new clause can be derived and none is empty: the goal is not entailed.
    Saturated {
        /// The clauses kept when the search ended.
        clauses: usize,
    },
    /// The clause limit was reached first: no answer.
    LimitReached {
        /// The clauses kept when the search stopped.
        clauses: usize,
    },
}

impl ProofOutcome {
    /// The proof, if one was found.
    pub fn proof(&self) -> Option<&Proof> {
        match self {
            ProofOutcome::Proved(p) => Some(p),
            _ => None,
        }
    }

    /// The proof, or a one-line explanation of why there is none.
    pub fn render(&self, symbols: &Symbols) -> String {
        match self {
            ProofOutcome::Proved(p) => p.render(symbols),
            ProofOutcome::Saturated { clauses } => format!(
                "no proof: saturated with {clauses} clauses and no contradiction, so the goal is not entailed\n"
            ),
            ProofOutcome::LimitReached { clauses } => {
                format!("no answer: stopped at the limit of {clauses} clauses\n")
            }
        }
    }
}

/// Options for the resolution prover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProverOptions {
    /// Stop (with [`ProofOutcome::LimitReached`]) once this many clauses are kept.
    pub max_clauses: usize,
    /// List every premise in the proof, as the seed does, instead of only those
    /// the refutation uses.
    pub all_premises: bool,
}

impl Default for ProverOptions {
    /// 20 000 clauses; only the premises used.
    fn default() -> ProverOptions {
        ProverOptions { max_clauses: 20_000, all_premises: false }
    }
}

struct Entry {
    clause: Clause,
    origin: Origin,
    level: usize,
    deleted: bool,
}

struct Search {
    entries: Vec<Entry>,
    /// Per literal code: live entries whose smallest literal it is (subsumer index).
    by_min: Vec<Vec<usize>>,
    /// Per literal code: live entries containing it (subsumee index).
    occurs: Vec<Vec<usize>>,
    units: HashMap<Lit, usize>,
}

impl Search {
    fn ensure(&mut self, clause: &Clause) {
        let need = 2 * clause.max_var() as usize;
        if self.occurs.len() < need {
            self.occurs.resize(need, Vec::new());
            self.by_min.resize(need, Vec::new());
        }
    }

    /// True if a live entry subsumes `c`.
    fn is_subsumed(&self, c: &Clause) -> bool {
        c.lits().iter().any(|l| {
            self.by_min
                .get(l.code())
                .is_some_and(|v| v.iter().any(|&e| !self.entries[e].deleted && self.entries[e].clause.subsumes(c)))
        })
    }

    /// Marks live entries that `c` properly subsumes as deleted.
    fn delete_subsumed_by(&mut self, c: &Clause, except: usize) {
        let Some(rare) = c.lits().iter().min_by_key(|l| self.occurs[l.code()].len()) else {
            return;
        };
        for &e in &self.occurs[rare.code()] {
            if e != except && !self.entries[e].deleted && c.subsumes(&self.entries[e].clause) {
                self.entries[e].deleted = true;
            }
        }
    }

    fn push(&mut self, clause: Clause, origin: Origin, level: usize) -> usize {
        self.ensure(&clause);
        let id = self.entries.len();
        if let Some(min) = clause.lits().iter().min_by_key(|l| l.code()) {
            self.by_min[min.code()].push(id);
        }
        for l in clause.normalized().lits() {
            self.occurs[l.code()].push(id);
        }
        if clause.is_unit() {
            self.units.entry(clause.lits()[0]).or_insert(id);
        }
        self.entries.push(Entry { clause, origin, level, deleted: false });
        id
    }

    /// The refutation ending at entry `end`.
    fn extract(&self, end: usize, all_premises: bool) -> Proof {
        let mut needed = vec![false; self.entries.len()];
        let mut stack = vec![end];
        while let Some(e) = stack.pop() {
            if needed[e] {
                continue;
            }
            needed[e] = true;
            if let Origin::Resolvent { left, right, .. } = self.entries[e].origin {
                stack.push(left);
                stack.push(right);
            }
        }
        let mut renumber = vec![usize::MAX; self.entries.len()];
        let mut steps = Vec::new();
        for (e, entry) in self.entries.iter().enumerate() {
            let premise = !matches!(entry.origin, Origin::Resolvent { .. });
            if !(needed[e] || (all_premises && premise)) {
                continue;
            }
            renumber[e] = steps.len();
            let origin = match entry.origin {
                Origin::Resolvent { left, right, pivot } => {
                    Origin::Resolvent { left: renumber[left], right: renumber[right], pivot }
                }
                o => o,
            };
            steps.push(ProofStep { clause: entry.clause.clone(), origin });
        }
        Proof { steps }
    }
}

/// The resolvent of `a` and `b` if they clash on exactly one variable.
fn resolvent(a: &Clause, b: &Clause) -> Option<(Clause, Var)> {
    let mut pivot = None;
    for &l in a.lits() {
        if b.contains(!l) {
            if pivot.is_some_and(|p: Var| p != l.var()) {
                return None;
            }
            pivot = Some(l.var());
        }
    }
    let pivot = pivot?;
    a.resolve(b, pivot).map(|r| (r, pivot))
}

/// Searches for a resolution refutation of the knowledge base plus the negated
/// goal.
///
/// # Examples
///
/// The seed's proof that Cal is a liar: the negated goal is `{C}`.
///
/// ```
/// use sleuth_logic::{prove, Cnf, ProverOptions};
/// let kb = Cnf::from_dimacs(&[&[-1, -2], &[2, 1], &[-2, -3], &[3, 2], &[-3, -1], &[-3, -2], &[1, 2, 3]]).unwrap();
/// let negated_goal = Cnf::from_dimacs(&[&[3]]).unwrap();
/// let outcome = prove(&kb, &negated_goal, &ProverOptions::default());
/// let proof = outcome.proof().expect("Cal is a liar");
/// assert!(proof.check(&kb, &negated_goal).is_ok());
/// assert_eq!(proof.resolutions(), 4);
/// ```
pub fn prove(kb: &Cnf, negated_goal: &Cnf, options: &ProverOptions) -> ProofOutcome {
    let mut s = Search { entries: Vec::new(), by_min: Vec::new(), occurs: Vec::new(), units: HashMap::new() };
    // The knowledge base needs support too when it is contradictory by itself.
    let kb_consistent = Dpll::new(kb).solve().is_sat();
    // Min-heap on (length, level, id).
    let mut sos: BinaryHeap<Reverse<(usize, usize, usize)>> = BinaryHeap::new();
    let mut usable: Vec<usize> = Vec::new();
    let premises =
        kb.clauses().iter().enumerate().map(|(i, c)| (c, Origin::Premise { index: i }, kb_consistent)).chain(
            negated_goal.clauses().iter().enumerate().map(|(i, c)| (c, Origin::NegatedGoal { index: i }, false)),
        );
    for (c, origin, is_usable) in premises {
        let clause = c.dedup();
        let tautology = clause.is_tautology();
        let empty = clause.is_empty();
        let id = s.push(clause, origin, 0);
        if empty {
            return ProofOutcome::Proved(s.extract(id, options.all_premises));
        }
        if tautology {
            s.entries[id].deleted = true;
        } else if is_usable {
            usable.push(id);
        } else {
            sos.push(Reverse((s.entries[id].clause.len(), 0, id)));
        }
    }
    // Complementary unit premises contradict at once.
    for id in 0..s.entries.len() {
        let clause = &s.entries[id].clause;
        if !clause.is_unit() {
            continue;
        }
        let l = clause.lits()[0];
        if let Some(&other) = s.units.get(&!l) {
            let (left, right) = (id.max(other), id.min(other));
            let origin = Origin::Resolvent { left, right, pivot: l.var() };
            let end = s.push(Clause::empty(), origin, 1);
            return ProofOutcome::Proved(s.extract(end, options.all_premises));
        }
    }

    while let Some(Reverse((_, _, given))) = sos.pop() {
        if s.entries[given].deleted {
            continue;
        }
        usable.push(given);
        let partners = usable.clone();
        for partner in partners {
            if s.entries[given].deleted {
                break;
            }
            if partner == given || s.entries[partner].deleted {
                continue;
            }
            let Some((r, pivot)) = resolvent(&s.entries[given].clause, &s.entries[partner].clause) else {
                continue;
            };
            if s.is_subsumed(&r) {
                continue;
            }
            let level = 1 + s.entries[given].level.max(s.entries[partner].level);
            let origin = Origin::Resolvent { left: given, right: partner, pivot };
            let empty = r.is_empty();
            let unit = r.is_unit().then(|| r.lits()[0]);
            let id = s.push(r, origin, level);
            if empty {
                return ProofOutcome::Proved(s.extract(id, options.all_premises));
            }
            if let Some(l) = unit {
                if let Some(&other) = s.units.get(&!l) {
                    let origin = Origin::Resolvent { left: id, right: other, pivot: l.var() };
                    let end = s.push(Clause::empty(), origin, level + 1);
                    return ProofOutcome::Proved(s.extract(end, options.all_premises));
                }
            }
            let clause = s.entries[id].clause.clone();
            s.delete_subsumed_by(&clause, id);
            sos.push(Reverse((clause.len(), level, id)));
            if s.entries.len() >= options.max_clauses {
                return ProofOutcome::LimitReached { clauses: s.entries.len() };
            }
        }
    }
    ProofOutcome::Saturated { clauses: s.entries.iter().filter(|e| !e.deleted).count() }
}

/// A resolution problem stated in sentences, converted to clauses by the four
/// steps, and its outcome.
#[derive(Clone, Debug)]
pub struct SentenceProof {
    /// The clauses of the knowledge base.
    pub kb: Cnf,
    /// The clauses of the negated goal.
    pub negated_goal: Cnf,
    /// The names of the variables of both.
    pub symbols: Symbols,
    /// What the search found.
    pub outcome: ProofOutcome,
}

impl SentenceProof {
    /// The outcome as text (see [`ProofOutcome::render`]).
    pub fn render(&self) -> String {
        self.outcome.render(&self.symbols)
    }
}

impl fmt::Display for SentenceProof {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

/// Tries to prove `kb ⊨ goal` by resolution: converts the knowledge base and
/// `¬goal` to clauses and searches for a refutation.
///
/// # Errors
///
/// Fails if a sentence's CNF is too large (see [`CnfSteps`]).
///
/// # Examples
///
/// ```
/// use sleuth_logic::{parse, parse_sentences, prove_sentence, ProverOptions};
/// let kb = parse_sentences("A <=> ~B\nB <=> ~C\nC <=> ~A & ~B")?;
/// let result = prove_sentence(&kb, &parse("~C")?, &ProverOptions::default())?;
/// assert!(result.outcome.proof().is_some());
/// print!("{result}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn prove_sentence(kb: &[Sentence], goal: &Sentence, options: &ProverOptions) -> Result<SentenceProof, CnfTooLarge> {
    let (kb_cnf, symbols) = CnfSteps::new(kb)?.into_parts();
    let negated = Sentence::negate(goal.clone());
    let (mut goal_cnf, symbols) = CnfSteps::with_symbols(std::slice::from_ref(&negated), symbols)?.into_parts();
    let mut kb_cnf = kb_cnf;
    kb_cnf.ensure_vars(symbols.num_vars());
    goal_cnf.ensure_vars(symbols.num_vars());
    let outcome = prove(&kb_cnf, &goal_cnf, options);
    Ok(SentenceProof { kb: kb_cnf, negated_goal: goal_cnf, symbols, outcome })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cnf(c: &[&[i32]]) -> Cnf {
        Cnf::from_dimacs(c).unwrap()
    }

    const LIARS: &[&[i32]] = &[&[-1, -2], &[2, 1], &[-2, -3], &[3, 2], &[-3, -1], &[-3, -2], &[1, 2, 3]];

    #[test]
    fn seed_proofs() {
        let kb = cnf(LIARS);
        let mut names = Symbols::new();
        for n in ["A", "B", "C"] {
            names.intern(n);
        }
        for goal in [-3, -1, 2] {
            let ng = cnf(&[&[-goal]]);
            let out = prove(&kb, &ng, &ProverOptions::default());
            let proof = out.proof().unwrap_or_else(|| panic!("goal {goal}"));
            proof.check(&kb, &ng).unwrap();
            assert!(proof.resolutions() <= 4, "{}", proof.render(&names));
        }
        let ng = cnf(&[&[-3]]);
        let out = prove(&kb, &ng, &ProverOptions::default());
        assert!(matches!(out, ProofOutcome::Saturated { .. }));
    }

    #[test]
    fn renders_like_the_seed() {
        let kb = cnf(LIARS);
        let ng = cnf(&[&[3]]);
        let mut names = Symbols::new();
        for n in ["A", "B", "C"] {
            names.intern(n);
        }
        let options = ProverOptions { all_premises: true, ..ProverOptions::default() };
        let text = prove(&kb, &ng, &options).render(&names);
        assert!(text.starts_with("(1)  {¬A, ¬B}   knowledge base\n"), "{text}");
        assert!(text.contains("(8)  {C}        negated goal\n"), "{text}");
        assert!(text.trim_end().ends_with("contradiction"), "{text}");
    }

    #[test]
    fn contradictory_kb_is_still_refuted() {
        let kb = cnf(&[&[1, 2], &[-1, 2], &[1, -2], &[-1, -2]]);
        let ng = cnf(&[&[3]]);
        let out = prove(&kb, &ng, &ProverOptions::default());
        out.proof().unwrap().check(&kb, &ng).unwrap();
    }

    #[test]
    fn checker_rejects_bad_proofs() {
        let kb = cnf(&[&[1, 2], &[-1]]);
        let ng = cnf(&[&[-2]]);
        let v1 = Var::new(1).unwrap();
        let step = |c: &[i32], origin| ProofStep { clause: Clause::from_dimacs(c).unwrap(), origin };
        let good = Proof::from_steps(vec![
            step(&[1, 2], Origin::Premise { index: 0 }),
            step(&[-1], Origin::Premise { index: 1 }),
            step(&[-2], Origin::NegatedGoal { index: 0 }),
            step(&[2], Origin::Resolvent { left: 0, right: 1, pivot: v1 }),
            step(&[], Origin::Resolvent { left: 3, right: 2, pivot: Var::new(2).unwrap() }),
        ]);
        assert_eq!(good.check(&kb, &ng), Ok(()));
        let mut bad = good.clone();
        bad.steps[3].clause = Clause::from_dimacs(&[1]).unwrap();
        assert_eq!(bad.check(&kb, &ng), Err(ProofError::WrongResolvent { step: 4 }));
        let mut bad = good.clone();
        bad.steps[1].origin = Origin::Premise { index: 0 };
        assert_eq!(bad.check(&kb, &ng), Err(ProofError::WrongPremise { step: 2 }));
        let mut bad = good.clone();
        bad.steps[3].origin = Origin::Resolvent { left: 0, right: 4, pivot: v1 };
        assert_eq!(bad.check(&kb, &ng), Err(ProofError::BadParent { step: 4 }));
        let mut bad = good;
        bad.steps.pop();
        assert_eq!(bad.check(&kb, &ng), Err(ProofError::NoContradiction));
    }
}
