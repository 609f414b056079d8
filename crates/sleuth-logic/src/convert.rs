//! Conversion to conjunctive normal form in the seed's four steps.
//!
//! 1. **Eliminate ⇔**: `s1 ⇔ s2` becomes `(s1 ⇒ s2) ∧ (s2 ⇒ s1)`.
//! 2. **Eliminate ⇒**: `s1 ⇒ s2` becomes `¬s1 ∨ s2`.
//! 3. **Move ¬ inward** with de Morgan's laws and double-negation elimination
//!    (`¬true` becomes `false` and `¬false` becomes `true`); nested ∧ and ∨ are
//!    flattened by associativity, so `(A ∨ B) ∨ C` becomes `A ∨ B ∨ C`.
//! 4. **Distribute ∨ over ∧**, giving a conjunction of clauses. Constants disappear
//!    here: a clause containing `true` is dropped and `false` is dropped from a
//!    clause (a sentence equivalent to `false` gives the empty clause).
//!
//! Every step gives an equivalent sentence, so each one can be printed and checked
//! by truth table. Step 4 can grow exponentially (`(A1 ∧ B1) ∨ … ∨ (An ∧ Bn)` has
//! 2^n clauses); it refuses to produce more than [`MAX_CNF_CLAUSES`] clauses per
//! sentence, and [`tseitin`](crate::tseitin()) is the linear alternative.

use std::fmt::Write as _;

use crate::clause::{Clause, Cnf};
use crate::sentence::Sentence;
use crate::symbols::{Notation, Symbols};

/// The most clauses step 4 produces for one sentence.
pub const MAX_CNF_CLAUSES: usize = 100_000;

/// The most literals step 4 produces for one sentence, counted over all its
/// clauses (so that long clauses times many clauses cannot exhaust memory).
pub const MAX_CNF_LITERALS: usize = 10_000_000;

/// The most symbols (atoms, constants and connectives) a sentence may grow to
/// in step 1: each `⇔` doubles its operands, so a chain of `⇔` grows
/// exponentially before step 4 even starts.
pub const MAX_STEP_SYMBOLS: u64 = 1_000_000;

/// Refusal to distribute a sentence whose CNF is too large.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "sentence {sentence} is too large for the four-step conversion: its CNF needs more than {limit} clauses \
     (or its steps more than {MAX_CNF_LITERALS} literals or {MAX_STEP_SYMBOLS} symbols); the Tseitin conversion \
     stays linear"
)]
pub struct CnfTooLarge {
    /// The 1-based position of the sentence in the input.
    pub sentence: usize,
    /// The limit, [`MAX_CNF_CLAUSES`].
    pub limit: usize,
}

/// Step 1: replaces each `s1 ⇔ s2` with `(s1 ⇒ s2) ∧ (s2 ⇒ s1)`.
///
/// # Examples
///
/// ```
/// use sleuth_logic::{eliminate_iff, parse};
/// assert_eq!(eliminate_iff(&parse("A <=> ~B")?).to_string(), "(A ⇒ ¬B) ∧ (¬B ⇒ A)");
/// # Ok::<(), sleuth_logic::ParseError>(())
/// ```
pub fn eliminate_iff(s: &Sentence) -> Sentence {
    match s {
        Sentence::True | Sentence::False | Sentence::Atom(_) => s.clone(),
        Sentence::Not(x) => Sentence::negate(eliminate_iff(x)),
        Sentence::And(v) => Sentence::And(v.iter().map(eliminate_iff).collect()),
        Sentence::Or(v) => Sentence::Or(v.iter().map(eliminate_iff).collect()),
        Sentence::Implies(a, b) => Sentence::implies(eliminate_iff(a), eliminate_iff(b)),
        Sentence::Iff(a, b) => {
            let (a, b) = (eliminate_iff(a), eliminate_iff(b));
            Sentence::And(vec![Sentence::implies(a.clone(), b.clone()), Sentence::implies(b, a)])
        }
    }
}

/// Step 2: replaces each `s1 ⇒ s2` with `¬s1 ∨ s2` (when `s2` is itself a
/// disjunction its operands join the new one, since `s1 ⇒ s2 ∨ s3` has no
/// parentheses to keep).
///
/// A remaining `⇔` is treated as in step 1 first.
///
/// # Examples
///
/// ```
/// use sleuth_logic::{eliminate_implies, parse};
/// assert_eq!(eliminate_implies(&parse("~B => A")?).to_string(), "¬¬B ∨ A");
/// # Ok::<(), sleuth_logic::ParseError>(())
/// ```
pub fn eliminate_implies(s: &Sentence) -> Sentence {
    match s {
        Sentence::True | Sentence::False | Sentence::Atom(_) => s.clone(),
        Sentence::Not(x) => Sentence::negate(eliminate_implies(x)),
        Sentence::And(v) => Sentence::And(v.iter().map(eliminate_implies).collect()),
        Sentence::Or(v) => Sentence::Or(v.iter().map(eliminate_implies).collect()),
        Sentence::Implies(a, b) => {
            let mut ops = vec![Sentence::negate(eliminate_implies(a))];
            match eliminate_implies(b) {
                Sentence::Or(v) if v.len() >= 2 => ops.extend(v),
                b => ops.push(b),
            }
            Sentence::Or(ops)
        }
        Sentence::Iff(..) => eliminate_implies(&eliminate_iff(s)),
    }
}

/// Step 3: moves negation inward to the atoms (negation normal form), flattening
/// nested conjunctions and disjunctions.
///
/// Any remaining `⇒` or `⇔` is eliminated first as in steps 1 and 2.
///
/// # Examples
///
/// ```
/// use sleuth_logic::{move_not_inward, parse};
/// let s = parse("~(~A & ~B) | C")?;
/// assert_eq!(move_not_inward(&s).to_string(), "A ∨ B ∨ C");
/// # Ok::<(), sleuth_logic::ParseError>(())
/// ```
pub fn move_not_inward(s: &Sentence) -> Sentence {
    nnf(s, true)
}

/// The negation normal form of `s` (or of `¬s` when `positive` is false).
fn nnf(s: &Sentence, positive: bool) -> Sentence {
    match s {
        Sentence::True => {
            if positive {
                Sentence::True
            } else {
                Sentence::False
            }
        }
        Sentence::False => {
            if positive {
                Sentence::False
            } else {
                Sentence::True
            }
        }
        Sentence::Atom(a) => Sentence::literal(a.clone(), positive),
        Sentence::Not(x) => nnf(x, !positive),
        Sentence::And(v) | Sentence::Or(v) => {
            let is_and = matches!(s, Sentence::And(_)) == positive;
            let mut ops = Vec::with_capacity(v.len());
            for x in v {
                match nnf(x, positive) {
                    Sentence::And(w) if is_and => ops.extend(w),
                    Sentence::Or(w) if !is_and => ops.extend(w),
                    y => ops.push(y),
                }
            }
            if is_and {
                Sentence::and(ops)
            } else {
                Sentence::or(ops)
            }
        }
        Sentence::Implies(..) | Sentence::Iff(..) => nnf(&eliminate_implies(s), positive),
    }
}

/// The number of symbols of `s` after step 1, without building it (each
/// `a ⇔ b` becomes `(a ⇒ b) ∧ (b ⇒ a)`), saturating.
fn size_without_iff(s: &Sentence) -> u64 {
    match s {
        Sentence::True | Sentence::False | Sentence::Atom(_) => 1,
        Sentence::Not(x) => 1 + size_without_iff(x),
        Sentence::And(v) | Sentence::Or(v) => v.iter().fold(1u64, |n, x| n.saturating_add(size_without_iff(x))),
        Sentence::Implies(a, b) => 1u64.saturating_add(size_without_iff(a)).saturating_add(size_without_iff(b)),
        Sentence::Iff(a, b) => {
            3u64.saturating_add(size_without_iff(a).saturating_add(size_without_iff(b)).saturating_mul(2))
        }
    }
}

/// Whether the steps of `s` stay within [`MAX_STEP_SYMBOLS`].
fn steps_fit(s: &Sentence) -> bool {
    size_without_iff(s) <= MAX_STEP_SYMBOLS
}

/// A literal of a clause under construction: atom name and polarity.
type NamedLit<'a> = (&'a str, bool);

/// The clauses of a sentence in negation normal form, by distribution,
/// each literal once (first occurrence kept); `None` if the sentence is
/// not in negation normal form or its CNF passes `limit` clauses or
/// [`MAX_CNF_LITERALS`] literals. The limits are checked before each
/// product is built, so the work done is bounded by them.
fn clauses_of<'a>(s: &'a Sentence, limit: usize) -> Option<Vec<Vec<NamedLit<'a>>>> {
    let mut clauses = clauses_with_repeats(s, limit)?;
    for c in &mut clauses {
        if c.len() > 1 {
            let mut seen = std::collections::HashSet::with_capacity(c.len());
            c.retain(|l| seen.insert(*l));
        }
    }
    Some(clauses)
}

fn literals(clauses: &[Vec<NamedLit<'_>>]) -> usize {
    clauses.iter().map(Vec::len).sum()
}

fn clauses_with_repeats<'a>(s: &'a Sentence, limit: usize) -> Option<Vec<Vec<NamedLit<'a>>>> {
    match s {
        Sentence::True => Some(Vec::new()),
        Sentence::False => Some(vec![Vec::new()]),
        Sentence::Atom(a) => Some(vec![vec![(a.as_str(), true)]]),
        Sentence::Not(x) => match &**x {
            Sentence::Atom(a) => Some(vec![vec![(a.as_str(), false)]]),
            // Not in negation normal form: normalise this part first.
            _ => None,
        },
        Sentence::And(v) => {
            let (mut out, mut lits) = (Vec::new(), 0usize);
            for x in v {
                let cx = clauses_with_repeats(x, limit)?;
                lits += literals(&cx);
                out.extend(cx);
                if out.len() > limit || lits > MAX_CNF_LITERALS {
                    return None;
                }
            }
            Some(out)
        }
        Sentence::Or(v) => {
            let mut acc: Vec<Vec<NamedLit<'a>>> = vec![Vec::new()];
            for x in v {
                let cx = clauses_with_repeats(x, limit)?;
                let (acc_lits, cx_lits) = (literals(&acc), literals(&cx));
                let lits = acc_lits.saturating_mul(cx.len()).saturating_add(cx_lits.saturating_mul(acc.len()));
                if acc.len().saturating_mul(cx.len()) > limit || lits > MAX_CNF_LITERALS {
                    return None;
                }
                if let [only] = cx.as_slice() {
                    // One clause: extend in place (a disjunction of n atoms
                    // stays linear instead of copying its clause n times).
                    for a in &mut acc {
                        a.extend_from_slice(only);
                    }
                    continue;
                }
                let mut next = Vec::with_capacity(acc.len() * cx.len());
                for a in &acc {
                    for b in &cx {
                        let mut c = Vec::with_capacity(a.len() + b.len());
                        c.extend_from_slice(a);
                        c.extend_from_slice(b);
                        next.push(c);
                    }
                }
                acc = next;
            }
            Some(acc)
        }
        Sentence::Implies(..) | Sentence::Iff(..) => None,
    }
}

/// Turns clauses of named literals back into a sentence.
fn clauses_to_sentence(clauses: &[Vec<NamedLit<'_>>]) -> Sentence {
    Sentence::and(
        clauses.iter().map(|c| Sentence::or(c.iter().map(|&(name, positive)| Sentence::literal(name, positive)))),
    )
}

/// Step 4: distributes ∨ over ∧, giving a conjunction of clauses.
///
/// The input should be in negation normal form (the output of step 3); any other
/// input is first put through step 3.
///
/// # Errors
///
/// Refuses to produce more than [`MAX_CNF_CLAUSES`] clauses.
///
/// # Examples
///
/// ```
/// use sleuth_logic::{distribute, parse};
/// let s = parse("~C | ~A & ~B")?;
/// assert_eq!(distribute(&s)?.to_string(), "(¬C ∨ ¬A) ∧ (¬C ∨ ¬B)");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn distribute(s: &Sentence) -> Result<Sentence, CnfTooLarge> {
    let too_large = CnfTooLarge { sentence: 1, limit: MAX_CNF_CLAUSES };
    if !steps_fit(s) {
        return Err(too_large);
    }
    match clauses_of(s, MAX_CNF_CLAUSES) {
        Some(c) => Ok(clauses_to_sentence(&c)),
        None => {
            let n = move_not_inward(s);
            clauses_of(&n, MAX_CNF_CLAUSES).map(|c| clauses_to_sentence(&c)).ok_or(too_large)
        }
    }
}

/// The whole conversion of a knowledge base, with every intermediate step.
///
/// # Examples
///
/// ```
/// use sleuth_logic::{parse_sentences, CnfSteps, Notation};
/// let kb = parse_sentences("A <=> ~B\nB <=> ~C\nC <=> ~A & ~B")?;
/// let steps = CnfSteps::new(&kb)?;
/// assert_eq!(steps.cnf().len(), 7);
/// assert_eq!(steps.symbols().clause_to_string(&steps.cnf().clauses()[6]), "{A, B, C}");
/// println!("{}", steps.render(Notation::Unicode));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct CnfSteps {
    input: Vec<Sentence>,
    no_iff: Vec<Sentence>,
    no_implies: Vec<Sentence>,
    nnf: Vec<Sentence>,
    distributed: Vec<Sentence>,
    cnf: Cnf,
    symbols: Symbols,
}

impl CnfSteps {
    /// Converts the sentences, numbering atoms in order of first appearance.
    ///
    /// # Errors
    ///
    /// Refuses a sentence whose CNF has more than [`MAX_CNF_CLAUSES`] clauses.
    pub fn new(sentences: &[Sentence]) -> Result<CnfSteps, CnfTooLarge> {
        CnfSteps::with_symbols(sentences, Symbols::new())
    }

    /// Converts the sentences, numbering new atoms after those already in `symbols`.
    ///
    /// # Errors
    ///
    /// Refuses a sentence whose CNF has more than [`MAX_CNF_CLAUSES`] clauses.
    pub fn with_symbols(sentences: &[Sentence], mut symbols: Symbols) -> Result<CnfSteps, CnfTooLarge> {
        // Refused before any step is built: step 1 alone can be exponential.
        if let Some(i) = sentences.iter().position(|s| !steps_fit(s)) {
            return Err(CnfTooLarge { sentence: i + 1, limit: MAX_CNF_CLAUSES });
        }
        for a in crate::sentence::atoms_of_all(sentences) {
            symbols.intern(a);
        }
        let no_iff: Vec<Sentence> = sentences.iter().map(eliminate_iff).collect();
        let no_implies: Vec<Sentence> = no_iff.iter().map(eliminate_implies).collect();
        let nnf: Vec<Sentence> = no_implies.iter().map(move_not_inward).collect();
        let mut cnf = Cnf::with_vars(symbols.num_vars());
        let mut distributed = Vec::with_capacity(nnf.len());
        for (i, s) in nnf.iter().enumerate() {
            let clauses =
                clauses_of(s, MAX_CNF_CLAUSES).ok_or(CnfTooLarge { sentence: i + 1, limit: MAX_CNF_CLAUSES })?;
            for c in &clauses {
                let lits =
                    c.iter().map(|&(name, positive)| symbols.get(name).expect("atoms were interned").lit(positive));
                cnf.add_clause(Clause::new(lits));
            }
            distributed.push(clauses_to_sentence(&clauses));
        }
        Ok(CnfSteps { input: sentences.to_vec(), no_iff, no_implies, nnf, distributed, cnf, symbols })
    }

    /// The sentences converted.
    pub fn input(&self) -> &[Sentence] {
        &self.input
    }

    /// After step 1, one sentence per input sentence.
    pub fn no_iff(&self) -> &[Sentence] {
        &self.no_iff
    }

    /// After step 2.
    pub fn no_implies(&self) -> &[Sentence] {
        &self.no_implies
    }

    /// After step 3 (negation normal form).
    pub fn nnf(&self) -> &[Sentence] {
        &self.nnf
    }

    /// After step 4: each input sentence as a conjunction of clauses.
    pub fn distributed(&self) -> &[Sentence] {
        &self.distributed
    }

    /// The clauses of every sentence, in order (duplicates and tautologies kept;
    /// see [`simplify`](crate::simplify())).
    pub fn cnf(&self) -> &Cnf {
        &self.cnf
    }

    /// The names of the clause variables.
    pub fn symbols(&self) -> &Symbols {
        &self.symbols
    }

    /// Takes the clauses and names out.
    pub fn into_parts(self) -> (Cnf, Symbols) {
        (self.cnf, self.symbols)
    }

    /// Every step as text: a heading per step, one sentence per line, then the
    /// numbered clauses.
    pub fn render(&self, notation: Notation) -> String {
        let mut out = String::new();
        let mut section = |title: &str, v: &[Sentence]| {
            let _ = writeln!(out, "{title}");
            for s in v {
                let _ = writeln!(out, "  {}", s.to_string_with(notation));
            }
        };
        let (iff, imp, or, and) =
            (notation.biconditional(), notation.conditional(), notation.disjunction(), notation.conjunction());
        let not = notation.negation();
        section("sentences", &self.input);
        section(&format!("step 1: eliminate {iff}"), &self.no_iff);
        section(&format!("step 2: eliminate {imp}"), &self.no_implies);
        section(&format!("step 3: move {not} inward"), &self.nnf);
        section(&format!("step 4: distribute {or} over {and}"), &self.distributed);
        let mut symbols = self.symbols.clone();
        symbols.set_notation(notation);
        let _ = writeln!(out, "clauses");
        let width = self.cnf.len().to_string().len() + 2;
        for (i, c) in self.cnf.clauses().iter().enumerate() {
            let label = format!("({})", i + 1);
            let _ = writeln!(out, "  {label:<width$} {}", symbols.clause_to_string(c));
        }
        out
    }
}

/// Converts sentences to clauses by the four steps, numbering atoms in order of
/// first appearance.
///
/// # Errors
///
/// Refuses a sentence whose CNF has more than [`MAX_CNF_CLAUSES`] clauses.
pub fn to_cnf(sentences: &[Sentence]) -> Result<(Cnf, Symbols), CnfTooLarge> {
    CnfSteps::new(sentences).map(CnfSteps::into_parts)
}

/// Removes the constants `true` and `false` from a sentence by the usual
/// identities (`s ∧ true ≡ s`, `s ∨ true ≡ true`, `true ⇒ s ≡ s`, ...), leaving an
/// equivalent sentence that is a constant only if it has no atoms left.
///
/// # Examples
///
/// ```
/// use sleuth_logic::{fold_constants, parse};
/// assert_eq!(fold_constants(&parse("(A | false) & (true => B)")?).to_string(), "A ∧ B");
/// assert_eq!(fold_constants(&parse("A | ~false")?).to_string(), "true");
/// # Ok::<(), sleuth_logic::ParseError>(())
/// ```
pub fn fold_constants(s: &Sentence) -> Sentence {
    use Sentence::{False, True};
    match s {
        True | False | Sentence::Atom(_) => s.clone(),
        Sentence::Not(x) => match fold_constants(x) {
            True => False,
            False => True,
            y => Sentence::negate(y),
        },
        Sentence::And(v) => {
            let mut ops = Vec::new();
            for x in v {
                match fold_constants(x) {
                    True => {}
                    False => return False,
                    y => ops.push(y),
                }
            }
            Sentence::and(ops)
        }
        Sentence::Or(v) => {
            let mut ops = Vec::new();
            for x in v {
                match fold_constants(x) {
                    False => {}
                    True => return True,
                    y => ops.push(y),
                }
            }
            Sentence::or(ops)
        }
        Sentence::Implies(a, b) => match (fold_constants(a), fold_constants(b)) {
            (False, _) | (_, True) => True,
            (True, b) => b,
            (a, False) => Sentence::negate(a),
            (a, b) => Sentence::implies(a, b),
        },
        Sentence::Iff(a, b) => match (fold_constants(a), fold_constants(b)) {
            (True, x) | (x, True) => x,
            (False, False) => True,
            (False, x) | (x, False) => Sentence::negate(x),
            (a, b) => Sentence::iff(a, b),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;
    use crate::problem::parse_sentences;

    #[test]
    fn seed_example_step_by_step() {
        let kb = parse_sentences("A <=> ~B\nB <=> ~C\nC <=> ~A & ~B").unwrap();
        let steps = CnfSteps::new(&kb).unwrap();
        let show = |v: &[Sentence]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            show(steps.no_iff()),
            ["(A ⇒ ¬B) ∧ (¬B ⇒ A)", "(B ⇒ ¬C) ∧ (¬C ⇒ B)", "(C ⇒ ¬A ∧ ¬B) ∧ (¬A ∧ ¬B ⇒ C)"]
        );
        assert_eq!(
            show(steps.no_implies()),
            ["(¬A ∨ ¬B) ∧ (¬¬B ∨ A)", "(¬B ∨ ¬C) ∧ (¬¬C ∨ B)", "(¬C ∨ ¬A ∧ ¬B) ∧ (¬(¬A ∧ ¬B) ∨ C)"]
        );
        assert_eq!(show(steps.nnf()), ["(¬A ∨ ¬B) ∧ (B ∨ A)", "(¬B ∨ ¬C) ∧ (C ∨ B)", "(¬C ∨ ¬A ∧ ¬B) ∧ (A ∨ B ∨ C)"]);
        assert_eq!(
            show(steps.distributed()),
            ["(¬A ∨ ¬B) ∧ (B ∨ A)", "(¬B ∨ ¬C) ∧ (C ∨ B)", "(¬C ∨ ¬A) ∧ (¬C ∨ ¬B) ∧ (A ∨ B ∨ C)"]
        );
        let clauses: Vec<String> = steps.cnf().clauses().iter().map(|c| steps.symbols().clause_to_string(c)).collect();
        // The seed's final set {{¬A,¬B},{B,A},{¬B,¬C},{C,B},{¬C,¬A},{¬C,¬B},{A,B,C}}.
        assert_eq!(clauses, ["{¬A, ¬B}", "{B, A}", "{¬B, ¬C}", "{C, B}", "{¬C, ¬A}", "{¬C, ¬B}", "{A, B, C}"]);
    }

    #[test]
    fn constants_vanish_in_step_four() {
        let (cnf, _) = to_cnf(&[parse("A | true").unwrap(), parse("B | false").unwrap()]).unwrap();
        assert_eq!(cnf.len(), 1);
        assert_eq!(cnf.num_vars(), 2);
        let (cnf, _) = to_cnf(&[parse("A & ~true").unwrap()]).unwrap();
        assert!(cnf.has_empty_clause());
    }

    #[test]
    fn exponential_blowup_is_refused() {
        let terms: Vec<String> = (0..20).map(|i| format!("(a{i} & b{i})")).collect();
        let s = parse(&terms.join(" | ")).unwrap();
        let err = to_cnf(&[parse("x").unwrap(), s]).unwrap_err();
        assert_eq!(err.sentence, 2);
    }

    /// Issue 19: a chain of biconditionals doubles at every step 1; it is
    /// refused from its size, before any step is built.
    #[test]
    fn r19_biconditional_chains_are_refused_before_step_one() {
        let chain: Vec<String> = (0..24).map(|i| format!("Z{i}")).collect();
        let s = parse(&chain.join(" <=> ")).unwrap();
        assert!(size_without_iff(&s) > MAX_STEP_SYMBOLS);
        assert_eq!(CnfSteps::new(std::slice::from_ref(&s)).unwrap_err().sentence, 1);
        assert!(distribute(&s).is_err());
        // A short chain still converts (the four steps keep redundant
        // clauses, so there are more than the parity's 2^4).
        let short = parse(&chain[..5].join(" <=> ")).unwrap();
        assert!(CnfSteps::new(&[short]).unwrap().cnf().len() >= 16);
    }

    /// Issue 19: one disjunction of many atoms converts in linear time and
    /// memory (its one clause grows in place), repeats kept once.
    #[test]
    fn r19_long_disjunctions_are_linear() {
        let atoms: Vec<String> = (0..100_000).map(|i| format!("A{}", i % 50_000)).collect();
        let steps = CnfSteps::new(&[parse(&atoms.join(" | ")).unwrap()]).unwrap();
        assert_eq!(steps.cnf().len(), 1);
        assert_eq!(steps.cnf().clauses()[0].len(), 50_000);
        // Long clauses times many clauses pass the literal limit: refused.
        let wide = format!(
            "({}) | {}",
            atoms.join(" | "),
            (0..16).map(|i| format!("(P{i} & Q{i})")).collect::<Vec<_>>().join(" | ")
        );
        assert!(CnfSteps::new(&[parse(&wide).unwrap()]).is_err());
    }
}
