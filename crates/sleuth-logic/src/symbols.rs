//! Names for variables, so that clauses and proofs print as `{¬A, B}`.

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::clause::{Clause, Model};
use crate::lit::{Lit, Var};

/// How connectives are spelled when printing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Notation {
    /// `¬ ∧ ∨ ⇒ ⇔`, as in the seed.
    #[default]
    Unicode,
    /// `~ & | => <=>`, for plain-text terminals and files.
    Ascii,
}

impl Notation {
    /// The negation sign.
    pub fn negation(self) -> &'static str {
        match self {
            Notation::Unicode => "¬",
            Notation::Ascii => "~",
        }
    }

    /// The conjunction sign.
    pub fn conjunction(self) -> &'static str {
        match self {
            Notation::Unicode => "∧",
            Notation::Ascii => "&",
        }
    }

    /// The disjunction sign.
    pub fn disjunction(self) -> &'static str {
        match self {
            Notation::Unicode => "∨",
            Notation::Ascii => "|",
        }
    }

    /// The conditional sign.
    pub fn conditional(self) -> &'static str {
        match self {
            Notation::Unicode => "⇒",
            Notation::Ascii => "=>",
        }
    }

    /// The biconditional sign.
    pub fn biconditional(self) -> &'static str {
        match self {
            Notation::Unicode => "⇔",
            Notation::Ascii => "<=>",
        }
    }
}

/// A two-way table between atom names and variables, handing out variables in the
/// order names are first seen.
///
/// Variables without a name print as `x7`.
///
/// # Examples
///
/// ```
/// use sleuth_logic::{Clause, Symbols};
/// let mut s = Symbols::new();
/// let a = s.intern("A");
/// let b = s.intern("B");
/// assert_eq!(s.intern("A"), a);
/// let c = Clause::new([a.negative(), b.positive()]);
/// assert_eq!(s.clause_to_string(&c), "{¬A, B}");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Symbols {
    names: Vec<String>,
    index: HashMap<String, Var>,
    notation: Notation,
}

impl Symbols {
    /// An empty table printing in Unicode.
    pub fn new() -> Symbols {
        Symbols::default()
    }

    /// An empty table printing in the given notation.
    pub fn with_notation(notation: Notation) -> Symbols {
        Symbols { notation, ..Symbols::default() }
    }

    /// The notation used for printing.
    pub fn notation(&self) -> Notation {
        self.notation
    }

    /// Changes the notation used for printing.
    pub fn set_notation(&mut self, notation: Notation) {
        self.notation = notation;
    }

    /// The variable named `name`, creating the next one if the name is new.
    pub fn intern(&mut self, name: &str) -> Var {
        if let Some(&v) = self.index.get(name) {
            return v;
        }
        let v = Var::from_index(self.names.len());
        self.names.push(name.to_owned());
        self.index.insert(name.to_owned(), v);
        v
    }

    /// A new variable whose name starts with `prefix` and clashes with no other name
    /// (`prefix1`, `prefix2`, ...).
    pub fn fresh(&mut self, prefix: &str) -> Var {
        let mut n = self.names.len() + 1;
        loop {
            let name = format!("{prefix}{n}");
            if !self.index.contains_key(&name) {
                return self.intern(&name);
            }
            n += 1;
        }
    }

    /// The variable named `name`, if any.
    pub fn get(&self, name: &str) -> Option<Var> {
        self.index.get(name).copied()
    }

    /// The name of `var`, if it has one.
    pub fn name(&self, var: Var) -> Option<&str> {
        self.names.get(var.index()).map(String::as_str)
    }

    /// The number of named variables (they are `1..=len`).
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// True if no variable is named.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The number of named variables as a DIMACS variable count.
    pub fn num_vars(&self) -> u32 {
        u32::try_from(self.names.len()).unwrap_or(Var::MAX)
    }

    /// The names, variable 1 first.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The name of `var`, or `x` and its number.
    pub fn var_to_string(&self, var: Var) -> String {
        match self.name(var) {
            Some(n) => n.to_owned(),
            None => format!("x{}", var.get()),
        }
    }

    /// The literal as `A` or `¬A` (`~A` in ASCII notation).
    pub fn lit_to_string(&self, lit: Lit) -> String {
        let v = self.var_to_string(lit.var());
        if lit.is_negative() {
            format!("{}{v}", self.notation.negation())
        } else {
            v
        }
    }

    /// The clause as a set of literals, `{¬A, B}`; the empty clause is `{}`.
    pub fn clause_to_string(&self, clause: &Clause) -> String {
        let mut s = String::from("{");
        for (i, &l) in clause.lits().iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            s.push_str(&self.lit_to_string(l));
        }
        s.push('}');
        s
    }

    /// The assigned literals of a model, `A ¬B C`, in variable order.
    pub fn model_to_string(&self, model: &Model) -> String {
        let mut s = String::new();
        for (i, l) in model.true_lits().into_iter().enumerate() {
            if i > 0 {
                s.push(' ');
            }
            let _ = write!(s, "{}", self.lit_to_string(l));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_names_avoid_clashes() {
        let mut s = Symbols::new();
        s.intern("t2");
        let v = s.fresh("t");
        assert_eq!(s.name(v), Some("t3"));
        let w = s.fresh("t");
        assert_eq!(s.name(w), Some("t4"));
    }

    #[test]
    fn unnamed_vars_print_with_x() {
        let s = Symbols::with_notation(Notation::Ascii);
        let c = Clause::from_dimacs(&[-3, 4]).unwrap();
        assert_eq!(s.clause_to_string(&c), "{~x3, x4}");
    }
}
