//! Semantics by enumeration: truth tables, models, satisfiability, validity,
//! entailment and equivalence for sentences with at most [`MAX_ENUM_ATOMS`] atoms.
//!
//! Rows are ordered as in the seed's tables: all atoms false first, the first atom
//! changing slowest. Evaluation is bit-parallel, 64 rows at a time.

use crate::sentence::Sentence;
use crate::symbols::Notation;

/// The most atoms these functions enumerate (2^20 rows).
pub const MAX_ENUM_ATOMS: usize = 20;

/// Refusal to enumerate the assignments of too many atoms.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{atoms} atoms are too many to enumerate (the limit is {limit})")]
pub struct TooManyAtoms {
    /// The number of distinct atoms in the input.
    pub atoms: usize,
    /// The limit, [`MAX_ENUM_ATOMS`].
    pub limit: usize,
}

/// A sentence compiled to atom indices for fast evaluation.
enum Expr {
    Const(bool),
    Atom(usize),
    Not(Box<Expr>),
    And(Vec<Expr>),
    Or(Vec<Expr>),
    Implies(Box<Expr>, Box<Expr>),
    Iff(Box<Expr>, Box<Expr>),
}

impl Expr {
    fn compile(s: &Sentence, atoms: &[String]) -> Expr {
        let c = |s: &Sentence| Box::new(Expr::compile(s, atoms));
        match s {
            Sentence::True => Expr::Const(true),
            Sentence::False => Expr::Const(false),
            Sentence::Atom(a) => Expr::Atom(atoms.iter().position(|x| x == a).expect("atom list covers the sentence")),
            Sentence::Not(s) => Expr::Not(c(s)),
            Sentence::And(v) => Expr::And(v.iter().map(|s| Expr::compile(s, atoms)).collect()),
            Sentence::Or(v) => Expr::Or(v.iter().map(|s| Expr::compile(s, atoms)).collect()),
            Sentence::Implies(a, b) => Expr::Implies(c(a), c(b)),
            Sentence::Iff(a, b) => Expr::Iff(c(a), c(b)),
        }
    }

    /// Evaluates 64 rows at once; `words[i]` holds atom `i`'s value in each row.
    fn eval(&self, words: &[u64]) -> u64 {
        match self {
            Expr::Const(b) => {
                if *b {
                    !0
                } else {
                    0
                }
            }
            Expr::Atom(i) => words[*i],
            Expr::Not(e) => !e.eval(words),
            Expr::And(v) => v.iter().fold(!0, |acc, e| acc & e.eval(words)),
            Expr::Or(v) => v.iter().fold(0, |acc, e| acc | e.eval(words)),
            Expr::Implies(a, b) => !a.eval(words) | b.eval(words),
            Expr::Iff(a, b) => !(a.eval(words) ^ b.eval(words)),
        }
    }
}

/// Bit patterns of a row counter's low six bits: bit `j` of `LOW[k]` is bit `k` of `j`.
const LOW: [u64; 6] = [
    0xAAAA_AAAA_AAAA_AAAA,
    0xCCCC_CCCC_CCCC_CCCC,
    0xF0F0_F0F0_F0F0_F0F0,
    0xFF00_FF00_FF00_FF00,
    0xFFFF_0000_FFFF_0000,
    0xFFFF_FFFF_0000_0000,
];

/// Enumerates every assignment to `atoms` (which the sentences must not go beyond),
/// calling `f(block_start, valid_mask, values)` for each block of 64 rows, where
/// `values[k]` has bit `j` set when sentence `k` is true in row `block_start + j`.
fn for_each_block(atoms: &[String], sentences: &[&Sentence], mut f: impl FnMut(u64, u64, &[u64]) -> bool) {
    let n = atoms.len();
    let exprs: Vec<Expr> = sentences.iter().map(|s| Expr::compile(s, atoms)).collect();
    let rows: u64 = 1 << n;
    let mut words = vec![0u64; n];
    let mut values = vec![0u64; exprs.len()];
    let mut base = 0u64;
    while base < rows {
        let mask = if rows - base >= 64 { !0 } else { (1u64 << (rows - base)) - 1 };
        for (i, w) in words.iter_mut().enumerate() {
            let k = n - 1 - i;
            *w = if k < 6 {
                LOW[k]
            } else if base >> k & 1 == 1 {
                !0
            } else {
                0
            };
        }
        for (v, e) in values.iter_mut().zip(&exprs) {
            *v = e.eval(&words) & mask;
        }
        if !f(base, mask, &values) {
            return;
        }
        base += 64;
    }
}

/// The atoms of several sentences in order of first appearance, checked against
/// the limit.
fn atoms_of(sentences: &[&Sentence]) -> Result<Vec<String>, TooManyAtoms> {
    let atoms = crate::sentence::atoms_of_all(sentences.iter().copied());
    if atoms.len() > MAX_ENUM_ATOMS {
        return Err(TooManyAtoms { atoms: atoms.len(), limit: MAX_ENUM_ATOMS });
    }
    Ok(atoms.into_iter().map(str::to_owned).collect())
}

/// The value of atom `i` of `n` in row `row`.
fn atom_in_row(row: u64, i: usize, n: usize) -> bool {
    row >> (n - 1 - i) & 1 == 1
}

/// A truth table: one column per atom, then one per sentence.
///
/// # Examples
///
/// ```
/// use sleuth_logic::{parse, Notation, TruthTable};
/// let t = TruthTable::new(&[parse("A => B")?])?;
/// assert_eq!(t.render(Notation::Ascii), "A B | A => B\nF F | T\nF T | T\nT F | F\nT T | T\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct TruthTable {
    atoms: Vec<String>,
    sentences: Vec<Sentence>,
    /// `values[k][block]`: sentence `k` over 64 rows.
    values: Vec<Vec<u64>>,
}

impl TruthTable {
    /// Builds the table of the given sentences over all their atoms.
    ///
    /// # Errors
    ///
    /// Refuses more than [`MAX_ENUM_ATOMS`] atoms.
    pub fn new(sentences: &[Sentence]) -> Result<TruthTable, TooManyAtoms> {
        let refs: Vec<&Sentence> = sentences.iter().collect();
        let atoms = atoms_of(&refs)?;
        let mut values = vec![Vec::new(); sentences.len()];
        for_each_block(&atoms, &refs, |_, _, v| {
            for (col, w) in values.iter_mut().zip(v) {
                col.push(*w);
            }
            true
        });
        Ok(TruthTable { atoms, sentences: sentences.to_vec(), values })
    }

    /// The atoms, in order of first appearance.
    pub fn atoms(&self) -> &[String] {
        &self.atoms
    }

    /// The sentences, one per value column.
    pub fn sentences(&self) -> &[Sentence] {
        &self.sentences
    }

    /// The number of rows, 2 to the number of atoms.
    pub fn rows(&self) -> usize {
        1 << self.atoms.len()
    }

    /// The value of atom `atom` in row `row`.
    ///
    /// # Panics
    ///
    /// Panics if either index is out of range.
    pub fn atom_value(&self, row: usize, atom: usize) -> bool {
        assert!(row < self.rows() && atom < self.atoms.len());
        atom_in_row(row as u64, atom, self.atoms.len())
    }

    /// The value of sentence `sentence` in row `row`.
    ///
    /// # Panics
    ///
    /// Panics if either index is out of range.
    pub fn value(&self, row: usize, sentence: usize) -> bool {
        assert!(row < self.rows());
        self.values[sentence][row / 64] >> (row % 64) & 1 == 1
    }

    /// True if every sentence is true in row `row`.
    pub fn is_model(&self, row: usize) -> bool {
        (0..self.sentences.len()).all(|k| self.value(row, k))
    }

    /// The table as text: a header of atoms and sentences, then one row of `T`/`F`
    /// per assignment. Atom columns are one space apart, sentence columns two, and
    /// a `|` separates the two groups.
    pub fn render(&self, notation: Notation) -> String {
        let mut headers: Vec<String> = self.atoms.clone();
        let split = headers.len();
        headers.extend(self.sentences.iter().map(|s| s.to_string_with(notation)));
        let widths: Vec<usize> = headers.iter().map(|h| h.chars().count().max(1)).collect();
        let mut out = String::new();
        let write_row = |out: &mut String, cells: &[&str]| {
            let mut line = String::new();
            for (i, (cell, w)) in cells.iter().zip(&widths).enumerate() {
                if i == split && i > 0 {
                    line.push_str("| ");
                } else if i > split {
                    line.push(' ');
                }
                // Padded by hand: `{:<w$}` panics on widths past 65,535.
                line.push_str(cell);
                line.extend(std::iter::repeat_n(' ', w.saturating_sub(cell.chars().count()) + 1));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        };
        write_row(&mut out, &headers.iter().map(String::as_str).collect::<Vec<_>>());
        let tf = |b: bool| if b { "T" } else { "F" };
        let mut cells: Vec<&str> = Vec::with_capacity(widths.len());
        for row in 0..self.rows() {
            cells.clear();
            cells.extend((0..split).map(|a| tf(self.atom_value(row, a))));
            cells.extend((0..self.sentences.len()).map(|k| tf(self.value(row, k))));
            write_row(&mut out, &cells);
        }
        out
    }
}

/// The models of a set of sentences, over their atoms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Models {
    /// The atoms, in order of first appearance.
    pub atoms: Vec<String>,
    /// Each model as the values of the atoms, in table row order.
    pub models: Vec<Vec<bool>>,
}

impl Models {
    /// One line per model listing the literals made true, `¬A B ¬C`.
    pub fn render(&self, notation: Notation) -> String {
        let mut out = String::new();
        for m in &self.models {
            let lits: Vec<String> = self
                .atoms
                .iter()
                .zip(m)
                .map(|(a, &v)| if v { a.clone() } else { format!("{}{a}", notation.negation()) })
                .collect();
            out.push_str(&lits.join(" "));
            out.push('\n');
        }
        out
    }
}

/// Every model of the conjunction of `sentences`.
///
/// # Errors
///
/// Refuses more than [`MAX_ENUM_ATOMS`] atoms.
///
/// # Examples
///
/// ```
/// use sleuth_logic::{models, parse_sentences};
/// let kb = parse_sentences("A <=> ~B\nB <=> ~C\nC <=> ~A & ~B")?;
/// let m = models(&kb)?;
/// assert_eq!(m.models, vec![vec![false, true, false]]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn models(sentences: &[Sentence]) -> Result<Models, TooManyAtoms> {
    let refs: Vec<&Sentence> = sentences.iter().collect();
    let atoms = atoms_of(&refs)?;
    let n = atoms.len();
    let mut out = Vec::new();
    for_each_block(&atoms, &refs, |base, mask, v| {
        let mut all = v.iter().fold(mask, |acc, w| acc & w);
        while all != 0 {
            let row = base + u64::from(all.trailing_zeros());
            out.push((0..n).map(|i| atom_in_row(row, i, n)).collect());
            all &= all - 1;
        }
        true
    });
    Ok(Models { atoms, models: out })
}

/// The number of models of the conjunction of `sentences`, over their atoms.
///
/// # Errors
///
/// Refuses more than [`MAX_ENUM_ATOMS`] atoms.
pub fn count_models(sentences: &[Sentence]) -> Result<u64, TooManyAtoms> {
    let refs: Vec<&Sentence> = sentences.iter().collect();
    let atoms = atoms_of(&refs)?;
    let mut count = 0u64;
    for_each_block(&atoms, &refs, |_, mask, v| {
        count += u64::from(v.iter().fold(mask, |acc, w| acc & w).count_ones());
        true
    });
    Ok(count)
}

/// True if some assignment makes `s` true.
///
/// # Errors
///
/// Refuses more than [`MAX_ENUM_ATOMS`] atoms.
pub fn is_satisfiable(s: &Sentence) -> Result<bool, TooManyAtoms> {
    Ok(countermodel(&[], &Sentence::negate(s.clone()))?.is_some())
}

/// True if every assignment makes `s` true (a tautology).
///
/// # Errors
///
/// Refuses more than [`MAX_ENUM_ATOMS`] atoms.
pub fn is_valid(s: &Sentence) -> Result<bool, TooManyAtoms> {
    Ok(countermodel(&[], s)?.is_none())
}

/// True if every model of the conjunction of `kb` is a model of `goal` (`kb ⊨ goal`).
///
/// # Errors
///
/// Refuses more than [`MAX_ENUM_ATOMS`] atoms.
///
/// # Examples
///
/// ```
/// use sleuth_logic::{entails, parse, parse_sentences};
/// let kb = parse_sentences("A <=> ~B\nB <=> ~C\nC <=> ~A & ~B")?;
/// assert!(entails(&kb, &parse("~C")?)?);
/// assert!(!entails(&kb, &parse("C")?)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn entails(kb: &[Sentence], goal: &Sentence) -> Result<bool, TooManyAtoms> {
    Ok(countermodel(kb, goal)?.is_none())
}

/// An assignment that makes every sentence of `kb` true and `goal` false, as
/// `(atom, value)` pairs over the atoms of both, or `None` if `kb ⊨ goal`.
///
/// # Errors
///
/// Refuses more than [`MAX_ENUM_ATOMS`] atoms.
pub fn countermodel(kb: &[Sentence], goal: &Sentence) -> Result<Option<Vec<(String, bool)>>, TooManyAtoms> {
    let mut refs: Vec<&Sentence> = kb.iter().collect();
    refs.push(goal);
    let atoms = atoms_of(&refs)?;
    let n = atoms.len();
    let mut found = None;
    for_each_block(&atoms, &refs, |base, mask, v| {
        let (goal, kb) = v.split_last().expect("goal column");
        let bad = kb.iter().fold(mask, |acc, w| acc & w) & !goal;
        if bad != 0 {
            found = Some(base + u64::from(bad.trailing_zeros()));
            return false;
        }
        true
    });
    Ok(found.map(|row| atoms.iter().enumerate().map(|(i, a)| (a.clone(), atom_in_row(row, i, n))).collect()))
}

/// True if `a` and `b` have the same value under every assignment.
///
/// # Errors
///
/// Refuses more than [`MAX_ENUM_ATOMS`] atoms.
pub fn equivalent(a: &Sentence, b: &Sentence) -> Result<bool, TooManyAtoms> {
    is_valid(&Sentence::iff(a.clone(), b.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    fn p(s: &str) -> Sentence {
        parse(s).unwrap()
    }

    /// Issue 19: a column wider than 65,535 characters renders (a `{:w$}`
    /// width that large panics).
    #[test]
    fn r19_very_wide_columns_render() {
        let atom = "a".repeat(70_000);
        let text = TruthTable::new(&[p(&atom)]).unwrap().render(Notation::Ascii);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[1].starts_with("F ") && lines[1].len() > 70_000, "{}", &lines[1][..10]);
    }

    #[test]
    fn bit_parallel_matches_direct_evaluation() {
        let s = p("(A ∨ ¬B) ⇔ C ∧ (D ⇒ E ∨ F) ∨ G");
        let t = TruthTable::new(std::slice::from_ref(&s)).unwrap();
        let n = t.atoms().len();
        assert_eq!(n, 7);
        for row in 0..t.rows() {
            let direct = s.eval(&mut |a| {
                let i = t.atoms().iter().position(|x| x == a).unwrap();
                t.atom_value(row, i)
            });
            assert_eq!(direct, t.value(row, 0), "row {row}");
        }
    }

    #[test]
    fn semantics() {
        assert!(is_valid(&p("A | ~A")).unwrap());
        assert!(!is_valid(&p("A | B")).unwrap());
        assert!(!is_satisfiable(&p("A & ~A")).unwrap());
        assert!(is_satisfiable(&p("true")).unwrap());
        assert!(is_valid(&p("true")).unwrap());
        assert!(!is_satisfiable(&p("false")).unwrap());
        assert!(equivalent(&p("A => B"), &p("~B => ~A")).unwrap());
        assert!(!equivalent(&p("A => B"), &p("B => A")).unwrap());
        assert_eq!(count_models(&[p("A | B")]).unwrap(), 3);
        assert_eq!(count_models(&[]).unwrap(), 1);
        let cm = countermodel(&[p("A | B")], &p("A")).unwrap().unwrap();
        assert_eq!(cm, vec![("A".to_owned(), false), ("B".to_owned(), true)]);
    }

    #[test]
    fn refuses_too_many_atoms() {
        let names: Vec<String> = (0..21).map(|i| format!("x{i}")).collect();
        let s = p(&names.join(" | "));
        assert_eq!(is_valid(&s).unwrap_err().to_string(), "21 atoms are too many to enumerate (the limit is 20)");
        let s = p(&names[..20].join(" | "));
        assert_eq!(count_models(&[s]).unwrap(), (1 << 20) - 1);
    }
}
