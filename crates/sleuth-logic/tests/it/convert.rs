//! CNF conversion checked by truth table; Tseitin checked by model counts.

use sleuth_logic::{
    brute_force_count, count_models, count_sentence_models, equivalent, is_satisfiable, solve, tseitin, CnfSteps,
    Model, Sentence, Symbols,
};

use crate::common::{random_sentence, rng};

const ATOMS: &[&str] = &["A", "B", "C", "D", "E"];

fn has(s: &Sentence, pred: &dyn Fn(&Sentence) -> bool) -> bool {
    if pred(s) {
        return true;
    }
    match s {
        Sentence::Not(x) => has(x, pred),
        Sentence::And(v) | Sentence::Or(v) => v.iter().any(|x| has(x, pred)),
        Sentence::Implies(a, b) | Sentence::Iff(a, b) => has(a, pred) || has(b, pred),
        _ => false,
    }
}

fn is_clause(s: &Sentence) -> bool {
    match s {
        Sentence::Or(v) => v.iter().all(Sentence::is_literal),
        s => s.is_literal() || *s == Sentence::False,
    }
}

fn is_cnf(s: &Sentence) -> bool {
    match s {
        Sentence::True => true,
        Sentence::And(v) => v.iter().all(is_clause),
        s => is_clause(s),
    }
}

/// The value of sentence `s` under the assignment `bits` of `symbols`' variables.
fn eval_bits(s: &Sentence, symbols: &Symbols, bits: u32) -> bool {
    s.eval(&mut |a| {
        let v = symbols.get(a).expect("interned");
        bits >> v.index() & 1 == 1
    })
}

#[test]
fn every_step_is_equivalent_and_has_its_shape() {
    for case in 0..600 {
        let mut r = rng("every_step_is_equivalent", case);
        let s = random_sentence(&mut r, ATOMS, 4);
        let steps = CnfSteps::new(std::slice::from_ref(&s)).unwrap();
        let (s1, s2, s3, s4) = (&steps.no_iff()[0], &steps.no_implies()[0], &steps.nnf()[0], &steps.distributed()[0]);
        for (i, t) in [s1, s2, s3, s4].into_iter().enumerate() {
            assert!(equivalent(&s, t).unwrap(), "step {}: {s} vs {t}", i + 1);
        }
        assert!(!has(s1, &|x| matches!(x, Sentence::Iff(..))), "{s1}");
        assert!(!has(s2, &|x| matches!(x, Sentence::Iff(..) | Sentence::Implies(..))), "{s2}");
        assert!(!has(s3, &|x| matches!(x, Sentence::Not(y) if !matches!(**y, Sentence::Atom(_)))), "{s3}");
        assert!(is_cnf(s4), "{s4}");

        // The clause set has exactly the models of the sentence.
        let cnf = steps.cnf();
        let symbols = steps.symbols();
        let n = cnf.num_vars();
        assert_eq!(n as usize, s.atoms().len());
        for bits in 0..1u32 << n {
            let m = Model::from_bits(n, u128::from(bits));
            assert_eq!(cnf.is_satisfied_by(&m), eval_bits(&s, symbols, bits), "{s} under {m}");
        }
    }
}

#[test]
fn tseitin_is_equisatisfiable_and_keeps_model_counts() {
    for case in 0..600 {
        let mut r = rng("tseitin", case);
        let s = random_sentence(&mut r, ATOMS, 4);
        let mut symbols = Symbols::new();
        let cnf = tseitin(std::slice::from_ref(&s), &mut symbols);
        let atoms = s.atoms().len();
        // Same satisfiability.
        let sat = is_satisfiable(&s).unwrap();
        let result = solve(&cnf);
        assert_eq!(result.is_sat(), sat, "{s}");
        // A model of the clauses restricted to the atoms satisfies the sentence.
        if let Some(m) = result.model() {
            assert!(s.eval(&mut |a| m.get(symbols.get(a).unwrap()).unwrap()), "{s}");
        }
        // Each model of the sentence extends to exactly one model of the clauses.
        let expected = u128::from(count_sentence_models(std::slice::from_ref(&s)).unwrap());
        assert_eq!(count_models(&cnf).unwrap(), expected, "{s}");
        if cnf.num_vars() <= 20 {
            assert_eq!(u128::from(brute_force_count(&cnf).unwrap()), expected, "{s}");
        }
        // Linear size: at most four clauses per node plus one.
        assert!(cnf.len() <= 4 * s.size() + 1);
        assert!(symbols.names()[atoms..].iter().all(|n| n.starts_with("_t")));
    }
}

#[test]
fn tseitin_handles_what_distribution_refuses() {
    let terms: Vec<String> = (0..30).map(|i| format!("(a{i} & b{i})")).collect();
    let s = sleuth_logic::parse(&terms.join(" | ")).unwrap();
    assert!(CnfSteps::new(std::slice::from_ref(&s)).is_err());
    let mut symbols = Symbols::new();
    let cnf = tseitin(&[s], &mut symbols);
    assert_eq!(cnf.len(), 30 * 3 + 1);
    assert!(solve(&cnf).is_sat());
}

#[test]
fn sat_entailment_agrees_with_truth_tables() {
    for case in 0..600 {
        let mut r = rng("sat_entailment", case);
        let kb: Vec<Sentence> = (0..2).map(|_| random_sentence(&mut r, ATOMS, 3)).collect();
        let goal = random_sentence(&mut r, ATOMS, 2);
        let expected = sleuth_logic::countermodel(&kb, &goal).unwrap();
        let got = sleuth_logic::sat_countermodel(&kb, &goal);
        assert_eq!(got.is_none(), expected.is_none(), "{kb:?} ⊨ {goal}");
        if let Some(cm) = got {
            let value = |a: &str| cm.iter().find(|(n, _)| n == a).unwrap().1;
            assert!(kb.iter().all(|s| s.eval(&mut |a| value(a))));
            assert!(!goal.eval(&mut |a| value(a)));
        }
    }
}
