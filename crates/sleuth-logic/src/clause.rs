//! Clauses, clause sets in conjunctive normal form, and truth assignments.

use std::fmt;

use crate::lit::{Lit, Var};

/// A clause: a disjunction of literals, kept in the order given.
///
/// A clause is read as a set: order and repetition do not change its meaning, but
/// they are kept so that a clause prints the way it was written. Use
/// [`Clause::normalized`] for the sorted, duplicate-free form.
///
/// # Examples
///
/// ```
/// use sleuth_logic::{Clause, Lit};
/// let c = Clause::from_dimacs(&[2, 1]).expect("no zero");
/// let d = Clause::from_dimacs(&[-2, -3]).expect("no zero");
/// let var = c.lits()[0].var();
/// assert_eq!(c.resolve(&d, var), Some(Clause::from_dimacs(&[1, -3]).unwrap()));
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct Clause {
    lits: Vec<Lit>,
}

impl Clause {
    /// The clause of the given literals, in order.
    pub fn new(lits: impl IntoIterator<Item = Lit>) -> Clause {
        Clause { lits: lits.into_iter().collect() }
    }

    /// The empty clause, which is false under every assignment.
    pub fn empty() -> Clause {
        Clause::default()
    }

    /// The clause of the given signed DIMACS numbers, or `None` if one is 0 or
    /// `i32::MIN`.
    pub fn from_dimacs(lits: &[i32]) -> Option<Clause> {
        lits.iter().map(|&n| Lit::from_dimacs(n)).collect::<Option<Vec<_>>>().map(|lits| Clause { lits })
    }

    /// The literals, in the order given.
    pub fn lits(&self) -> &[Lit] {
        &self.lits
    }

    /// The number of literals (counting repeats).
    pub fn len(&self) -> usize {
        self.lits.len()
    }

    /// True for the empty clause.
    pub fn is_empty(&self) -> bool {
        self.lits.is_empty()
    }

    /// True for a clause of exactly one literal.
    pub fn is_unit(&self) -> bool {
        self.lits.len() == 1
    }

    /// True if the clause contains `lit`.
    pub fn contains(&self, lit: Lit) -> bool {
        self.lits.contains(&lit)
    }

    /// True if the clause contains a literal and its negation, so that every
    /// assignment satisfies it.
    pub fn is_tautology(&self) -> bool {
        let n = self.normalized();
        n.lits.windows(2).any(|w| w[0].var() == w[1].var())
    }

    /// True if some literal occurs twice.
    pub fn has_duplicates(&self) -> bool {
        self.normalized().len() != self.len()
    }

    /// The same clause with its literals sorted (by variable, positive first) and
    /// without repeats.
    pub fn normalized(&self) -> Clause {
        let mut lits = self.lits.clone();
        lits.sort_by_key(|l| l.code());
        lits.dedup();
        Clause { lits }
    }

    /// The clause without repeated literals, first occurrence kept.
    pub fn dedup(&self) -> Clause {
        let mut seen = std::collections::HashSet::with_capacity(self.lits.len());
        Clause { lits: self.lits.iter().copied().filter(|&l| seen.insert(l)).collect() }
    }

    /// True if every literal of `self` is in `other` (the clause `self` then
    /// entails `other`, and `other` may be dropped from a clause set holding both).
    pub fn subsumes(&self, other: &Clause) -> bool {
        self.lits.iter().all(|l| other.contains(*l))
    }

    /// True if both clauses hold the same set of literals.
    pub fn same_set(&self, other: &Clause) -> bool {
        self.normalized() == other.normalized()
    }

    /// The resolvent of `self` and `other` on `var`: every literal of both except
    /// the two of `var`, with duplicates dropped.
    ///
    /// Returns `None` unless `var` occurs positively in one clause and negatively in
    /// the other.
    pub fn resolve(&self, other: &Clause, var: Var) -> Option<Clause> {
        let (p, n) = (var.positive(), var.negative());
        let ok = (self.contains(p) && other.contains(n)) || (self.contains(n) && other.contains(p));
        if !ok {
            return None;
        }
        let mut lits = Vec::with_capacity(self.len() + other.len());
        for &l in self.lits.iter().chain(other.lits.iter()) {
            if l.var() != var && !lits.contains(&l) {
                lits.push(l);
            }
        }
        Some(Clause { lits })
    }

    /// The largest variable number in the clause, 0 for the empty clause.
    pub fn max_var(&self) -> u32 {
        self.lits.iter().map(|l| l.var().get()).max().unwrap_or(0)
    }

    /// The value of the clause under a (possibly partial) assignment: `Some(true)`
    /// if a literal is true, `Some(false)` if every literal is false, `None`
    /// otherwise.
    pub fn eval(&self, assignment: &Model) -> Option<bool> {
        let mut unknown = false;
        for &l in &self.lits {
            match assignment.lit_value(l) {
                Some(true) => return Some(true),
                Some(false) => {}
                None => unknown = true,
            }
        }
        if unknown {
            None
        } else {
            Some(false)
        }
    }

    /// The signed DIMACS numbers of the literals.
    pub fn to_dimacs(&self) -> Vec<i32> {
        self.lits.iter().map(|l| l.to_dimacs()).collect()
    }
}

impl FromIterator<Lit> for Clause {
    fn from_iter<I: IntoIterator<Item = Lit>>(iter: I) -> Clause {
        Clause::new(iter)
    }
}

impl fmt::Debug for Clause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// Prints the clause as a set of DIMACS numbers, `{1, -2}`.
impl fmt::Display for Clause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (i, l) in self.lits.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{l}")?;
        }
        f.write_str("}")
    }
}

/// A formula in conjunctive normal form: a number of variables and a list of
/// clauses over them.
///
/// The variable count only grows: adding a clause with a larger variable raises it,
/// and it may be set higher than any variable used (as a DIMACS header may).
///
/// # Examples
///
/// ```
/// use sleuth_logic::{Clause, Cnf};
/// let mut cnf = Cnf::new();
/// cnf.add_clause(Clause::from_dimacs(&[1, -2]).unwrap());
/// cnf.add_clause(Clause::from_dimacs(&[3]).unwrap());
/// assert_eq!(cnf.num_vars(), 3);
/// assert_eq!(cnf.len(), 2);
/// ```
#[derive(Clone, PartialEq, Eq, Default)]
pub struct Cnf {
    num_vars: u32,
    clauses: Vec<Clause>,
}

impl Cnf {
    /// The empty clause set (true) over no variables.
    pub fn new() -> Cnf {
        Cnf::default()
    }

    /// The empty clause set over `num_vars` variables.
    pub fn with_vars(num_vars: u32) -> Cnf {
        Cnf { num_vars, clauses: Vec::new() }
    }

    /// The clause set of the given clauses; the variable count is the largest
    /// variable used.
    pub fn from_clauses(clauses: impl IntoIterator<Item = Clause>) -> Cnf {
        let mut cnf = Cnf::new();
        for c in clauses {
            cnf.add_clause(c);
        }
        cnf
    }

    /// The clause set of the given DIMACS-numbered clauses, or `None` if a literal is
    /// 0 or `i32::MIN`.
    pub fn from_dimacs(clauses: &[&[i32]]) -> Option<Cnf> {
        clauses.iter().map(|c| Clause::from_dimacs(c)).collect::<Option<Vec<_>>>().map(Cnf::from_clauses)
    }

    /// Appends a clause, raising the variable count if needed.
    pub fn add_clause(&mut self, clause: Clause) {
        self.num_vars = self.num_vars.max(clause.max_var());
        self.clauses.push(clause);
    }

    /// The number of variables: at least the largest variable used.
    pub fn num_vars(&self) -> u32 {
        self.num_vars
    }

    /// Raises the variable count to at least `n`.
    pub fn ensure_vars(&mut self, n: u32) {
        self.num_vars = self.num_vars.max(n);
    }

    /// The clauses, in order.
    pub fn clauses(&self) -> &[Clause] {
        &self.clauses
    }

    /// The number of clauses.
    pub fn len(&self) -> usize {
        self.clauses.len()
    }

    /// True if there are no clauses (the formula is then true).
    pub fn is_empty(&self) -> bool {
        self.clauses.is_empty()
    }

    /// True if some clause is empty (the formula is then false).
    pub fn has_empty_clause(&self) -> bool {
        self.clauses.iter().any(Clause::is_empty)
    }

    /// The variables `1..=num_vars`.
    pub fn vars(&self) -> impl Iterator<Item = Var> {
        (0..self.num_vars as usize).map(Var::from_index)
    }

    /// The value of the formula under a (possibly partial) assignment, as in
    /// [`Clause::eval`]: false if a clause is false, true if every clause is true,
    /// `None` otherwise.
    pub fn eval(&self, assignment: &Model) -> Option<bool> {
        let mut unknown = false;
        for c in &self.clauses {
            match c.eval(assignment) {
                Some(false) => return Some(false),
                Some(true) => {}
                None => unknown = true,
            }
        }
        if unknown {
            None
        } else {
            Some(true)
        }
    }

    /// True if the assignment makes every clause true.
    pub fn is_satisfied_by(&self, assignment: &Model) -> bool {
        self.eval(assignment) == Some(true)
    }

    /// This formula with one more clause, without changing `self`.
    pub fn with_clause(&self, clause: Clause) -> Cnf {
        let mut cnf = self.clone();
        cnf.add_clause(clause);
        cnf
    }
}

impl fmt::Debug for Cnf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Cnf({} vars: ", self.num_vars)?;
        f.debug_list().entries(&self.clauses).finish()?;
        f.write_str(")")
    }
}

impl FromIterator<Clause> for Cnf {
    fn from_iter<I: IntoIterator<Item = Clause>>(iter: I) -> Cnf {
        Cnf::from_clauses(iter)
    }
}

impl Extend<Clause> for Cnf {
    fn extend<I: IntoIterator<Item = Clause>>(&mut self, iter: I) {
        for c in iter {
            self.add_clause(c);
        }
    }
}

/// A truth assignment to variables `1..=len`, each true, false or unassigned.
///
/// A model returned by a solver assigns every variable; a partial assignment leaves
/// some unassigned ([`Model::get`] then returns `None`). Variables past the end are
/// unassigned.
///
/// # Examples
///
/// ```
/// use sleuth_logic::{Model, Var};
/// let m = Model::from_bools(&[true, false]);
/// let x1 = Var::new(1).unwrap();
/// assert_eq!(m.get(x1), Some(true));
/// assert_eq!(m.to_string(), "1 -2");
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct Model {
    values: Vec<Option<bool>>,
}

impl Model {
    /// An assignment over `num_vars` variables with every variable unassigned.
    pub fn unassigned(num_vars: u32) -> Model {
        Model { values: vec![None; num_vars as usize] }
    }

    /// The full assignment with variable `i + 1` set to `values[i]`.
    pub fn from_bools(values: &[bool]) -> Model {
        Model { values: values.iter().map(|&b| Some(b)).collect() }
    }

    /// The full assignment over `num_vars` variables given by the bits of `bits`:
    /// variable `i + 1` is bit `i`.
    ///
    /// # Panics
    ///
    /// Panics if `num_vars` exceeds 128.
    pub fn from_bits(num_vars: u32, bits: u128) -> Model {
        assert!(num_vars <= 128, "from_bits takes at most 128 variables");
        Model { values: (0..num_vars).map(|i| Some(bits >> i & 1 == 1)).collect() }
    }

    /// The number of variables covered (assigned or not).
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// True if the assignment covers no variables.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// True if every covered variable has a value.
    pub fn is_full(&self) -> bool {
        self.values.iter().all(Option::is_some)
    }

    /// The value of `var`, or `None` if it is unassigned or out of range.
    pub fn get(&self, var: Var) -> Option<bool> {
        self.values.get(var.index()).copied().flatten()
    }

    /// The value of `lit`, or `None` if its variable is unassigned.
    pub fn lit_value(&self, lit: Lit) -> Option<bool> {
        self.get(lit.var()).map(|v| lit.apply(v))
    }

    /// Assigns `var`, growing the assignment if needed.
    pub fn set(&mut self, var: Var, value: bool) {
        if var.index() >= self.values.len() {
            self.values.resize(var.index() + 1, None);
        }
        self.values[var.index()] = Some(value);
    }

    /// Makes `lit` true, growing the assignment if needed.
    pub fn set_lit(&mut self, lit: Lit) {
        self.set(lit.var(), lit.is_positive());
    }

    /// Unassigns `var`.
    pub fn unset(&mut self, var: Var) {
        if let Some(v) = self.values.get_mut(var.index()) {
            *v = None;
        }
    }

    /// The literals made true, in variable order (one per assigned variable).
    pub fn true_lits(&self) -> Vec<Lit> {
        self.values.iter().enumerate().filter_map(|(i, v)| v.map(|b| Var::from_index(i).lit(b))).collect()
    }

    /// The values as a vector of options, variable 1 first.
    pub fn values(&self) -> &[Option<bool>] {
        &self.values
    }

    /// The same assignment restricted to variables `1..=num_vars`.
    pub fn truncated(&self, num_vars: u32) -> Model {
        let mut values = self.values.clone();
        values.truncate(num_vars as usize);
        Model { values }
    }
}

impl fmt::Debug for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Model({self})")
    }
}

/// Prints the true literals as DIMACS numbers, space-separated (`1 -2 3`).
impl fmt::Display for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, l) in self.true_lits().iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{l}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(l: &[i32]) -> Clause {
        Clause::from_dimacs(l).unwrap()
    }

    #[test]
    fn tautology_and_duplicates() {
        assert!(c(&[1, -2, -1]).is_tautology());
        assert!(!c(&[1, 2]).is_tautology());
        assert!(c(&[1, 2, 1]).has_duplicates());
        assert_eq!(c(&[2, 1, 2]).dedup(), c(&[2, 1]));
        assert_eq!(c(&[2, -1, 2]).normalized(), c(&[-1, 2]));
    }

    #[test]
    fn subsumption() {
        assert!(c(&[2, 1]).subsumes(&c(&[1, 2, 3])));
        assert!(!c(&[1, 2, 3]).subsumes(&c(&[2, 1])));
        assert!(Clause::empty().subsumes(&c(&[1])));
    }

    #[test]
    fn resolution_rule() {
        // The seed's example: {B, A} and {¬B, ¬C} give {A, ¬C}.
        let v = Var::new(2).unwrap();
        assert_eq!(c(&[2, 1]).resolve(&c(&[-2, -3]), v), Some(c(&[1, -3])));
        assert_eq!(c(&[2, 1]).resolve(&c(&[2, -3]), v), None);
        assert_eq!(c(&[2]).resolve(&c(&[-2]), v), Some(Clause::empty()));
    }

    #[test]
    fn evaluation() {
        let cnf = Cnf::from_dimacs(&[&[1, 2], &[-1]]).unwrap();
        assert!(cnf.is_satisfied_by(&Model::from_bools(&[false, true])));
        assert!(!cnf.is_satisfied_by(&Model::from_bools(&[true, true])));
        let mut partial = Model::unassigned(2);
        assert_eq!(cnf.eval(&partial), None);
        partial.set(Var::new(1).unwrap(), true);
        assert_eq!(cnf.eval(&partial), Some(false));
        assert_eq!(Model::from_bits(3, 0b101).to_string(), "1 -2 3");
    }
}
