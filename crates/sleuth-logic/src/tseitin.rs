//! The Tseitin conversion: clauses linear in the size of the sentence.
//!
//! Each compound subsentence `s` gets a fresh variable `t` and clauses that say
//! `t ⇔ s`; the sentence itself becomes a unit clause. The result is
//! **equisatisfiable** with the input, not equivalent: it has extra variables.
//! More precisely, every model of the input extends to exactly one model of the
//! clauses, and every model of the clauses restricted to the input's atoms is a
//! model of the input, so model counts agree as well.
//!
//! Fresh variables are named `_t1`, `_t2`, ... (skipping names already used), so
//! they print like other atoms. Equal subsentences share one variable. A top-level
//! conjunction is split into its conjuncts and a top-level disjunction becomes a
//! single clause, which keeps clause sets that are almost CNF almost unchanged.

use std::collections::HashMap;

use crate::clause::{Clause, Cnf};
use crate::convert::fold_constants;
use crate::lit::Lit;
use crate::sentence::Sentence;
use crate::symbols::Symbols;

/// The prefix of the names of Tseitin variables.
pub const TSEITIN_PREFIX: &str = "_t";

struct Encoder<'a> {
    symbols: &'a mut Symbols,
    cnf: Cnf,
    cache: HashMap<Sentence, Lit>,
}

impl Encoder<'_> {
    fn clause(&mut self, lits: impl IntoIterator<Item = Lit>) {
        self.cnf.add_clause(Clause::new(lits));
    }

    /// A literal equivalent to `s`, which must contain no constants.
    fn lit(&mut self, s: &Sentence) -> Lit {
        match s {
            Sentence::Atom(a) => return self.symbols.intern(a).positive(),
            Sentence::Not(x) => return !self.lit(x),
            _ => {}
        }
        if let Some(&l) = self.cache.get(s) {
            return l;
        }
        let t = match s {
            Sentence::And(v) | Sentence::Or(v) => {
                let ls: Vec<Lit> = v.iter().map(|x| self.lit(x)).collect();
                // For ∧: t ⇒ each operand, and all operands ⇒ t.
                // For ∨: the same with every literal negated.
                let sign = |l: Lit| if matches!(s, Sentence::And(_)) { l } else { !l };
                let t = sign(self.symbols.fresh(TSEITIN_PREFIX).positive());
                for &l in &ls {
                    self.clause([!t, sign(l)]);
                }
                self.clause(std::iter::once(t).chain(ls.iter().map(|&l| !sign(l))));
                sign(t)
            }
            Sentence::Implies(a, b) => {
                let (a, b) = (self.lit(a), self.lit(b));
                let t = self.symbols.fresh(TSEITIN_PREFIX).positive();
                self.clause([!t, !a, b]);
                self.clause([t, a]);
                self.clause([t, !b]);
                t
            }
            Sentence::Iff(a, b) => {
                let (a, b) = (self.lit(a), self.lit(b));
                let t = self.symbols.fresh(TSEITIN_PREFIX).positive();
                self.clause([!t, !a, b]);
                self.clause([!t, a, !b]);
                self.clause([t, a, b]);
                self.clause([t, !a, !b]);
                t
            }
            Sentence::True | Sentence::False | Sentence::Atom(_) | Sentence::Not(_) => {
                unreachable!("constants are folded and literals returned early")
            }
        };
        self.cache.insert(s.clone(), t);
        t
    }

    /// Adds clauses that make `s` true.
    fn assert(&mut self, s: &Sentence) {
        match s {
            Sentence::True => {}
            Sentence::False => self.clause([]),
            Sentence::And(v) => v.iter().for_each(|x| self.assert(x)),
            Sentence::Or(v) => {
                let ls: Vec<Lit> = v.iter().map(|x| self.lit(x)).collect();
                self.clause(ls);
            }
            _ => {
                let l = self.lit(s);
                self.clause([l]);
            }
        }
    }
}

/// Converts sentences to equisatisfiable clauses by the Tseitin encoding.
///
/// The atoms of the input are interned in `symbols` first (in order of first
/// appearance), so they keep the same variables as in
/// [`CnfSteps`](crate::CnfSteps) when `symbols` starts empty; the fresh variables
/// follow.
///
/// # Examples
///
/// ```
/// use sleuth_logic::{parse, tseitin, Symbols};
/// let mut symbols = Symbols::new();
/// let s = parse("(a1 & b1) | (a2 & b2) | (a3 & b3)")?;
/// let cnf = tseitin(&[s], &mut symbols);
/// assert_eq!(cnf.len(), 10); // 3 per conjunction and 1 for the disjunction
/// assert_eq!(symbols.name(cnf.clauses()[0].lits()[0].var()), Some("_t7"));
/// # Ok::<(), sleuth_logic::ParseError>(())
/// ```
pub fn tseitin(sentences: &[Sentence], symbols: &mut Symbols) -> Cnf {
    for s in sentences {
        for a in s.atoms() {
            symbols.intern(a);
        }
    }
    let mut enc = Encoder { cnf: Cnf::with_vars(symbols.num_vars()), symbols, cache: HashMap::new() };
    for s in sentences {
        enc.assert(&fold_constants(s));
    }
    let mut cnf = enc.cnf;
    cnf.ensure_vars(enc.symbols.num_vars());
    cnf
}
