//! A propositional-logic workbench: sentences, truth tables, conversion to CNF,
//! clause simplification, DIMACS, resolution proofs, DPLL and WalkSAT.
//!
//! This crate knows nothing about Clue; it teaches and implements the logic of
//! *Clue Deduction: an introduction to satisfiability reasoning* (Neller, Markov
//! and Russell). It does no IO: text comes in as `&str` and goes out as `String`.
//!
//! # Example
//!
//! The seed's liars and truth-tellers: Amy says Bob is a liar, Bob says Cal is a
//! liar, Cal says Amy and Bob are liars.
//!
//! ```
//! use sleuth_logic::{entails, parse, parse_sentences, prove_sentence, CnfSteps, Dpll,
//!                    Notation, ProverOptions, Truth};
//!
//! let kb = parse_sentences("A <=> ~B\nB <=> ~C\nC <=> ~A & ~B")?;
//!
//! // Semantics by truth table.
//! assert!(entails(&kb, &parse("~C")?)?);
//!
//! // The four CNF steps, each printable.
//! let steps = CnfSteps::new(&kb)?;
//! println!("{}", steps.render(Notation::Unicode));
//!
//! // The seed's testLiteral, by DPLL.
//! let cal = steps.symbols().get("C").expect("atom C").positive();
//! assert_eq!(Dpll::new(steps.cnf()).test_literal(cal), Truth::False);
//!
//! // A resolution proof by contradiction, checked step by step.
//! let result = prove_sentence(&kb, &parse("~C")?, &ProverOptions::default())?;
//! let proof = result.outcome.proof().expect("entailed");
//! proof.check(&result.kb, &result.negated_goal)?;
//! print!("{}", result.render());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Contents and costs
//!
//! | module | what | cost |
//! |---|---|---|
//! | [`Var`], [`Lit`], [`Clause`], [`Cnf`], [`Model`] | DIMACS-numbered clause sets, evaluation | linear |
//! | [`Sentence`], [`parse()`], [`Problem`] | syntax tree, parser (Unicode and ASCII), printer, sentence files | linear |
//! | [`TruthTable`], [`models`], [`entails`], [`equivalent`] | semantics by enumeration | 2^atoms, at most [`MAX_ENUM_ATOMS`] atoms |
//! | [`CnfSteps`], [`to_cnf`] | the seed's four CNF steps | exponential in the worst case, capped at [`MAX_CNF_CLAUSES`] |
//! | [`tseitin()`] | equisatisfiable CNF | linear |
//! | [`simplify()`] | tautologies, duplicates, subsumption | near-linear with occurrence lists |
//! | [`parse_dimacs`], [`write_dimacs`] | DIMACS CNF files | linear |
//! | [`Dpll`], [`solve`], [`test_literal`] | DPLL with watched literals, pure literals, assumptions | exponential worst case |
//! | [`sat_entails`], [`sat_countermodel`] | entailment between sentences by Tseitin and DPLL, no atom limit | exponential worst case |
//! | [`count_models`] | model counting by exhaustive DPLL | exponential |
//! | [`walksat()`] | stochastic local search, never claims UNSAT | bounded by flips × tries |
//! | [`prove`], [`prove_sentence`] | resolution refutation with printable, checkable proofs | bounded by a clause limit |
//! | [`brute_force_count`] | the oracle: every assignment | 2^vars, at most [`MAX_BRUTE_VARS`] |
//!
//! Recursive algorithms on sentences recurse once per level of nesting; the parser
//! refuses sentences nested deeper than [`MAX_DEPTH`].

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod brute;
pub mod clause;
pub mod convert;
pub mod dimacs;
pub mod dpll;
pub mod lit;
pub mod parse;
pub mod problem;
pub mod resolution;
pub mod sentence;
pub mod simplify;
pub mod symbols;
pub mod table;
pub mod tseitin;
pub mod walksat;
pub mod walksat_pb;

pub use brute::{
    brute_force_count, brute_force_models, brute_force_solve, brute_force_test_literal, for_each_model, TooManyVars,
    MAX_BRUTE_VARS,
};
pub use clause::{Clause, Cnf, Model};
pub use convert::{
    distribute, eliminate_iff, eliminate_implies, fold_constants, move_not_inward, to_cnf, CnfSteps, CnfTooLarge,
    MAX_CNF_CLAUSES,
};
pub use dimacs::{
    parse_dimacs, solution_lines, symbol_comments, write_dimacs, DimacsError, DimacsErrorKind, DimacsFile,
};
pub use dpll::{
    count_models, sat_countermodel, sat_entails, solve, test_literal, CountOverflow, Dpll, DpllOptions, Heuristic,
    SolveResult, Stats, Truth,
};
pub use lit::{Lit, Var};
pub use parse::{parse, ParseError, ParseErrorKind, MAX_DEPTH};
pub use problem::{parse_sentences, FileError, Problem};
pub use resolution::{
    prove, prove_sentence, Origin, Proof, ProofError, ProofOutcome, ProofStep, ProverOptions, SentenceProof,
};
pub use sentence::{sentences_to_string, Sentence};
pub use simplify::{simplify, Removal, Simplified};
pub use symbols::{Notation, Symbols};
pub use table::{
    count_models as count_sentence_models, countermodel, entails, equivalent, is_satisfiable, is_valid, models, Models,
    TooManyAtoms, TruthTable, MAX_ENUM_ATOMS,
};
pub use tseitin::{tseitin, TSEITIN_PREFIX};
pub use walksat::{walksat, WalkSatOptions, WalkSatResult, WalkSatStats};
pub use walksat_pb::{walksat_pb, AtLeast};
