//! Resolution proofs: found exactly when the goal is entailed, and every printed
//! proof passes an independent checker that reads only the printed text.

use std::collections::BTreeSet;

use sleuth_logic::{
    brute_force_test_literal, prove, prove_sentence, Clause, Cnf, ProofOutcome, ProverOptions, Symbols, Truth,
};

use crate::common::{lit, random_cnf, rng};

type TextClause = BTreeSet<String>;

fn negate(l: &str) -> String {
    match l.strip_prefix('¬') {
        Some(a) => a.to_owned(),
        None => format!("¬{l}"),
    }
}

fn text_clause(symbols: &Symbols, c: &Clause) -> TextClause {
    c.lits().iter().map(|&l| symbols.lit_to_string(l)).collect()
}

/// Parses `{¬A, B}`.
fn parse_clause(s: &str) -> TextClause {
    let inner = s.trim().strip_prefix('{').unwrap().strip_suffix('}').unwrap();
    inner.split(',').map(str::trim).filter(|t| !t.is_empty()).map(str::to_owned).collect()
}

/// Checks a printed proof knowing only the premise clauses as text. Each line is
/// `(n) {clause} note`, the note being `knowledge base`, `negated goal`, or
/// `(i), (j)` optionally followed by `contradiction`.
pub fn check_printed_proof(text: &str, kb: &[TextClause], negated_goal: &[TextClause]) {
    let mut lines: Vec<TextClause> = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let n = k + 1;
        let line = line.trim();
        let rest =
            line.strip_prefix(&format!("({n})")).unwrap_or_else(|| panic!("line {n} is not numbered {n}: {line}"));
        let close = rest.find('}').expect("clause");
        let clause = parse_clause(&rest[..=close]);
        let note = rest[close + 1..].trim().trim_end_matches("contradiction").trim();
        if note == "knowledge base" {
            assert!(kb.contains(&clause), "line {n}: {clause:?} is not in the knowledge base");
        } else if note == "negated goal" {
            assert!(negated_goal.contains(&clause), "line {n}: not in the negated goal");
        } else {
            let parents: Vec<usize> = note
                .split(',')
                .map(|p| p.trim().trim_start_matches('(').trim_end_matches(')').parse().unwrap())
                .collect();
            assert_eq!(parents.len(), 2, "line {n}: {note}");
            assert!(parents.iter().all(|&p| p >= 1 && p < n), "line {n}: parents {parents:?}");
            let (a, b) = (&lines[parents[0] - 1], &lines[parents[1] - 1]);
            // Resolvent on exactly one literal.
            let ok = a.iter().any(|l| {
                let nl = negate(l);
                if !b.contains(&nl) {
                    return false;
                }
                let mut r: TextClause = a.iter().filter(|x| **x != *l).cloned().collect();
                r.extend(b.iter().filter(|x| **x != nl).cloned());
                r == clause
            });
            assert!(ok, "line {n}: {clause:?} is not a resolvent of {a:?} and {b:?}");
        }
        lines.push(clause);
    }
    assert!(lines.last().is_some_and(BTreeSet::is_empty), "the last line is not {{}}");
}

fn check_outcome(outcome: &ProofOutcome, kb: &Cnf, negated_goal: &Cnf, symbols: &Symbols) {
    let proof = outcome.proof().expect("a proof");
    proof.check(kb, negated_goal).unwrap();
    let kb_text: Vec<TextClause> = kb.clauses().iter().map(|c| text_clause(symbols, c)).collect();
    let goal_text: Vec<TextClause> = negated_goal.clauses().iter().map(|c| text_clause(symbols, c)).collect();
    check_printed_proof(&proof.render(symbols), &kb_text, &goal_text);
}

fn names(n: u32) -> Symbols {
    let mut s = Symbols::new();
    for i in 0..n {
        s.intern(&format!("P{i}"));
    }
    s
}

#[test]
fn proofs_exist_exactly_for_entailed_literals() {
    let (mut proved, mut saturated) = (0, 0);
    for case in 0..1500 {
        let mut r = rng("resolution_random", case);
        let kb = random_cnf(&mut r, 6, 12);
        let goal = lit(&mut r, kb.num_vars());
        let negated_goal = Cnf::from_clauses([Clause::new([!goal])]);
        let symbols = names(kb.num_vars());
        for all_premises in [false, true] {
            let options = ProverOptions { all_premises, ..ProverOptions::default() };
            let outcome = prove(&kb, &negated_goal, &options);
            // Entailed when KB ∧ ¬goal has no model.
            let entailed = brute_force_test_literal(&kb, !goal).unwrap() == Truth::False;
            match outcome {
                ProofOutcome::Proved(_) => {
                    assert!(entailed, "case {case}: proof of a non-consequence");
                    check_outcome(&outcome, &kb, &negated_goal, &symbols);
                    proved += 1;
                }
                ProofOutcome::Saturated { .. } => {
                    assert!(!entailed, "case {case}: missed proof");
                    saturated += 1;
                }
                ProofOutcome::LimitReached { .. } => panic!("case {case}: limit on a tiny problem"),
            }
        }
    }
    assert!(proved > 300 && saturated > 300, "{proved} proved, {saturated} saturated");
}

#[test]
fn seed_proofs_print_and_check() {
    let kb = sleuth_logic::parse_sentences("A <=> ~B\nB <=> ~C\nC <=> ~A & ~B").unwrap();
    for (goal, max_steps) in [("~C", 4), ("~A", 4), ("B", 4)] {
        let goal = sleuth_logic::parse(goal).unwrap();
        let options = ProverOptions { all_premises: true, ..ProverOptions::default() };
        let result = prove_sentence(&kb, &goal, &options).unwrap();
        check_outcome(&result.outcome, &result.kb, &result.negated_goal, &result.symbols);
        let proof = result.outcome.proof().unwrap();
        assert!(proof.resolutions() <= max_steps, "{}", result.render());
    }
    let result = prove_sentence(&kb, &sleuth_logic::parse("C").unwrap(), &ProverOptions::default()).unwrap();
    assert!(result.render().starts_with("no proof: saturated"));
}

/// The seed's proof that Cal is a liar (section 4) derives clauses (9) to (12):
/// four resolutions. Sleuth's proof takes another route of the same length;
/// docs/logic.md says so.
#[test]
fn seed_proof_of_cal_has_four_steps_like_the_seed() {
    let kb = sleuth_logic::parse_sentences("A <=> ~B\nB <=> ~C\nC <=> ~A & ~B").unwrap();
    let options = ProverOptions { all_premises: true, ..ProverOptions::default() };
    let result = prove_sentence(&kb, &sleuth_logic::parse("~C").unwrap(), &options).unwrap();
    let seed_resolutions = 4; // (9) {¬A}, (10) {B}, (11) {¬C}, (12) {}
    assert_eq!(result.outcome.proof().unwrap().resolutions(), seed_resolutions, "{}", result.render());
}

#[test]
fn clause_limit_gives_no_answer() {
    // Pigeonhole 5 into 4 is hard for resolution.
    let var = |p: i32, h: i32| p * 4 + h + 1;
    let mut kb = Cnf::new();
    for p in 0..5 {
        kb.add_clause(Clause::from_dimacs(&[var(p, 0), var(p, 1), var(p, 2), var(p, 3)]).unwrap());
    }
    for h in 0..4 {
        for p in 0..5 {
            for q in p + 1..5 {
                kb.add_clause(Clause::from_dimacs(&[-var(p, h), -var(q, h)]).unwrap());
            }
        }
    }
    let options = ProverOptions { max_clauses: 2000, ..ProverOptions::default() };
    let outcome = prove(&kb, &Cnf::new(), &options);
    assert!(matches!(outcome, ProofOutcome::LimitReached { .. }), "{outcome:?}");
}
