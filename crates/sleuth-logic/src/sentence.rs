//! Sentences of propositional logic: the syntax tree and its printer.
//!
//! Conjunction and disjunction are n-ary: `A ∧ B ∧ C` is one [`Sentence::And`] of
//! three operands, while `(A ∧ B) ∧ C` is an `And` whose first operand is another
//! `And`. The conditional is right-associative (`A ⇒ B ⇒ C` is `A ⇒ (B ⇒ C)`) and
//! the biconditional left-associative. Precedence, tightest first, follows the
//! seed: ¬, ∧, ∨, ⇒, ⇔.
//!
//! The printer writes the fewest parentheses that make [`parse`](crate::parse())
//! rebuild the same tree, so `parse(&s.to_string()) == Ok(s)` for every sentence
//! the parser can produce (every `And`/`Or` with at least two operands).

use std::fmt;

use crate::symbols::Notation;

/// A sentence of propositional logic.
///
/// # Examples
///
/// ```
/// use sleuth_logic::{parse, Sentence};
/// let s = parse("A <=> ~B")?;
/// assert_eq!(s, Sentence::iff(Sentence::atom("A"), Sentence::negate(Sentence::atom("B"))));
/// assert_eq!(s.to_string(), "A ⇔ ¬B");
/// # Ok::<(), sleuth_logic::ParseError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Sentence {
    /// The constant `true`.
    True,
    /// The constant `false`.
    False,
    /// A propositional symbol.
    Atom(String),
    /// Negation, `¬s`.
    Not(Box<Sentence>),
    /// Conjunction of the operands; an empty conjunction is true.
    And(Vec<Sentence>),
    /// Disjunction of the operands; an empty disjunction is false.
    Or(Vec<Sentence>),
    /// The conditional `s1 ⇒ s2`.
    Implies(Box<Sentence>, Box<Sentence>),
    /// The biconditional `s1 ⇔ s2`.
    Iff(Box<Sentence>, Box<Sentence>),
}

/// Binding strength of each kind of node, loosest first.
const PREC_IFF: u8 = 1;
const PREC_IMPLIES: u8 = 2;
const PREC_OR: u8 = 3;
const PREC_AND: u8 = 4;
const PREC_NOT: u8 = 5;
const PREC_ATOM: u8 = 6;

impl Sentence {
    /// The atom named `name`.
    pub fn atom(name: impl Into<String>) -> Sentence {
        Sentence::Atom(name.into())
    }

    /// The negation of `s`.
    pub fn negate(s: Sentence) -> Sentence {
        Sentence::Not(Box::new(s))
    }

    /// The conjunction of the operands: `true` for none, the operand itself for one.
    pub fn and(operands: impl IntoIterator<Item = Sentence>) -> Sentence {
        let mut v: Vec<Sentence> = operands.into_iter().collect();
        match v.len() {
            0 => Sentence::True,
            1 => v.pop().expect("one operand"),
            _ => Sentence::And(v),
        }
    }

    /// The disjunction of the operands: `false` for none, the operand itself for one.
    pub fn or(operands: impl IntoIterator<Item = Sentence>) -> Sentence {
        let mut v: Vec<Sentence> = operands.into_iter().collect();
        match v.len() {
            0 => Sentence::False,
            1 => v.pop().expect("one operand"),
            _ => Sentence::Or(v),
        }
    }

    /// The conditional `a ⇒ b`.
    pub fn implies(a: Sentence, b: Sentence) -> Sentence {
        Sentence::Implies(Box::new(a), Box::new(b))
    }

    /// The biconditional `a ⇔ b`.
    pub fn iff(a: Sentence, b: Sentence) -> Sentence {
        Sentence::Iff(Box::new(a), Box::new(b))
    }

    /// The literal of atom `name` with the given polarity: `name` or `¬name`.
    pub fn literal(name: impl Into<String>, positive: bool) -> Sentence {
        let a = Sentence::atom(name);
        if positive {
            a
        } else {
            Sentence::negate(a)
        }
    }

    /// The atoms of the sentence, each once, in order of first appearance.
    pub fn atoms(&self) -> Vec<&str> {
        atoms_of_all([self])
    }

    /// Adds the atoms not yet in `seen` to `out`, in order of appearance.
    fn collect_atoms<'a>(&'a self, out: &mut Vec<&'a str>, seen: &mut std::collections::HashSet<&'a str>) {
        match self {
            Sentence::True | Sentence::False => {}
            Sentence::Atom(a) => {
                if seen.insert(a) {
                    out.push(a);
                }
            }
            Sentence::Not(s) => s.collect_atoms(out, seen),
            Sentence::And(v) | Sentence::Or(v) => v.iter().for_each(|s| s.collect_atoms(out, seen)),
            Sentence::Implies(a, b) | Sentence::Iff(a, b) => {
                a.collect_atoms(out, seen);
                b.collect_atoms(out, seen);
            }
        }
    }

    /// The truth value of the sentence when each atom has the value `value(name)`.
    ///
    /// # Examples
    ///
    /// ```
    /// use sleuth_logic::parse;
    /// let s = parse("A -> B")?;
    /// assert!(!s.eval(&mut |a| a == "A"));
    /// assert!(s.eval(&mut |_| true));
    /// # Ok::<(), sleuth_logic::ParseError>(())
    /// ```
    pub fn eval(&self, value: &mut impl FnMut(&str) -> bool) -> bool {
        match self {
            Sentence::True => true,
            Sentence::False => false,
            Sentence::Atom(a) => value(a),
            Sentence::Not(s) => !s.eval(value),
            Sentence::And(v) => v.iter().all(|s| s.eval(value)),
            Sentence::Or(v) => v.iter().any(|s| s.eval(value)),
            Sentence::Implies(a, b) => !a.eval(value) || b.eval(value),
            Sentence::Iff(a, b) => a.eval(value) == b.eval(value),
        }
    }

    /// The number of nodes in the tree.
    pub fn size(&self) -> usize {
        match self {
            Sentence::True | Sentence::False | Sentence::Atom(_) => 1,
            Sentence::Not(s) => 1 + s.size(),
            Sentence::And(v) | Sentence::Or(v) => 1 + v.iter().map(Sentence::size).sum::<usize>(),
            Sentence::Implies(a, b) | Sentence::Iff(a, b) => 1 + a.size() + b.size(),
        }
    }

    /// The height of the tree (1 for an atom).
    pub fn depth(&self) -> usize {
        match self {
            Sentence::True | Sentence::False | Sentence::Atom(_) => 1,
            Sentence::Not(s) => 1 + s.depth(),
            Sentence::And(v) | Sentence::Or(v) => 1 + v.iter().map(Sentence::depth).max().unwrap_or(0),
            Sentence::Implies(a, b) | Sentence::Iff(a, b) => 1 + a.depth().max(b.depth()),
        }
    }

    /// True for an atom or a negated atom.
    pub fn is_literal(&self) -> bool {
        match self {
            Sentence::Atom(_) => true,
            Sentence::Not(s) => matches!(**s, Sentence::Atom(_)),
            _ => false,
        }
    }

    /// The sentence printed in the given notation with minimal parentheses.
    ///
    /// # Examples
    ///
    /// ```
    /// use sleuth_logic::{parse, Notation};
    /// let s = parse("¬(A ∧ B) ∨ C ⇒ D")?;
    /// assert_eq!(s.to_string_with(Notation::Ascii), "~(A & B) | C => D");
    /// # Ok::<(), sleuth_logic::ParseError>(())
    /// ```
    pub fn to_string_with(&self, notation: Notation) -> String {
        let mut out = String::new();
        self.write(&mut out, notation);
        out
    }

    /// The binding strength of the top node as printed.
    fn prec(&self) -> u8 {
        match self {
            Sentence::True | Sentence::False | Sentence::Atom(_) => PREC_ATOM,
            Sentence::Not(_) => PREC_NOT,
            Sentence::And(v) | Sentence::Or(v) if v.len() < 2 => v.first().map_or(PREC_ATOM, Sentence::prec),
            Sentence::And(_) => PREC_AND,
            Sentence::Or(_) => PREC_OR,
            Sentence::Implies(..) => PREC_IMPLIES,
            Sentence::Iff(..) => PREC_IFF,
        }
    }

    fn write_child(&self, out: &mut String, notation: Notation, parens: bool) {
        if parens {
            out.push('(');
            self.write(out, notation);
            out.push(')');
        } else {
            self.write(out, notation);
        }
    }

    fn write(&self, out: &mut String, notation: Notation) {
        match self {
            Sentence::True => out.push_str("true"),
            Sentence::False => out.push_str("false"),
            Sentence::Atom(a) => out.push_str(a),
            Sentence::Not(s) => {
                out.push_str(notation.negation());
                s.write_child(out, notation, s.prec() < PREC_NOT);
            }
            Sentence::And(v) | Sentence::Or(v) if v.len() < 2 => match v.first() {
                Some(s) => s.write(out, notation),
                None if matches!(self, Sentence::And(_)) => out.push_str("true"),
                None => out.push_str("false"),
            },
            Sentence::And(v) | Sentence::Or(v) => {
                let (prec, op) = if matches!(self, Sentence::And(_)) {
                    (PREC_AND, notation.conjunction())
                } else {
                    (PREC_OR, notation.disjunction())
                };
                for (i, s) in v.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                        out.push_str(op);
                        out.push(' ');
                    }
                    s.write_child(out, notation, s.prec() <= prec);
                }
            }
            Sentence::Implies(a, b) => {
                a.write_child(out, notation, a.prec() <= PREC_IMPLIES);
                out.push(' ');
                out.push_str(notation.conditional());
                out.push(' ');
                b.write_child(out, notation, b.prec() < PREC_IMPLIES);
            }
            Sentence::Iff(a, b) => {
                a.write_child(out, notation, a.prec() < PREC_IFF);
                out.push(' ');
                out.push_str(notation.biconditional());
                out.push(' ');
                b.write_child(out, notation, b.prec() <= PREC_IFF);
            }
        }
    }
}

/// Prints in Unicode notation with minimal parentheses; the alternate form
/// (`{:#}`) prints in ASCII.
impl fmt::Display for Sentence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let notation = if f.alternate() { Notation::Ascii } else { Notation::Unicode };
        f.write_str(&self.to_string_with(notation))
    }
}

/// Joins sentences for printing a knowledge base as a set: `{A, ¬B ∨ C}`.
pub fn sentences_to_string(sentences: &[Sentence], notation: Notation) -> String {
    let parts: Vec<String> = sentences.iter().map(|s| s.to_string_with(notation)).collect();
    format!("{{{}}}", parts.join(", "))
}

/// The atoms of several sentences, each once, in order of first appearance
/// (linear in their size: a set remembers the atoms seen).
pub(crate) fn atoms_of_all<'a>(sentences: impl IntoIterator<Item = &'a Sentence>) -> Vec<&'a str> {
    let (mut out, mut seen) = (Vec::new(), std::collections::HashSet::new());
    for s in sentences {
        s.collect_atoms(&mut out, &mut seen);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(n: &str) -> Sentence {
        Sentence::atom(n)
    }

    #[test]
    fn prints_minimal_parentheses() {
        let s = Sentence::And(vec![Sentence::And(vec![a("A"), a("B")]), a("C")]);
        assert_eq!(s.to_string(), "(A ∧ B) ∧ C");
        let s = Sentence::implies(Sentence::implies(a("A"), a("B")), a("C"));
        assert_eq!(s.to_string(), "(A ⇒ B) ⇒ C");
        let s = Sentence::implies(a("A"), Sentence::implies(a("B"), a("C")));
        assert_eq!(s.to_string(), "A ⇒ B ⇒ C");
        let s = Sentence::iff(Sentence::iff(a("A"), a("B")), a("C"));
        assert_eq!(s.to_string(), "A ⇔ B ⇔ C");
        let s = Sentence::iff(a("A"), Sentence::iff(a("B"), a("C")));
        assert_eq!(s.to_string(), "A ⇔ (B ⇔ C)");
        let s = Sentence::negate(Sentence::negate(Sentence::Or(vec![a("A"), a("B")])));
        assert_eq!(s.to_string(), "¬¬(A ∨ B)");
        let s = Sentence::Or(vec![Sentence::And(vec![a("A"), a("B")]), a("C")]);
        assert_eq!(s.to_string(), "A ∧ B ∨ C");
        assert_eq!(format!("{s:#}"), "A & B | C");
    }

    #[test]
    fn degenerate_operands() {
        assert_eq!(Sentence::And(vec![]).to_string(), "true");
        assert_eq!(Sentence::Or(vec![]).to_string(), "false");
        let s = Sentence::negate(Sentence::And(vec![Sentence::Or(vec![a("A"), a("B")])]));
        assert_eq!(s.to_string(), "¬(A ∨ B)");
    }

    #[test]
    fn atoms_in_first_appearance_order() {
        let s = Sentence::and([a("C"), Sentence::or([a("A"), a("C")]), a("B")]);
        assert_eq!(s.atoms(), vec!["C", "A", "B"]);
    }
}
