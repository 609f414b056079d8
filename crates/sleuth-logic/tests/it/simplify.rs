//! Simplification keeps the models and leaves no removable clause.

use sleuth_logic::{brute_force_models, simplify, Removal};

use crate::common::{random_cnf, rng};

#[test]
fn simplification_keeps_models_and_is_complete() {
    for case in 0..2000 {
        let mut r = rng("simplify", case);
        let cnf = random_cnf(&mut r, 7, 25);
        let s = simplify(&cnf);
        assert_eq!(brute_force_models(&s.cnf).unwrap(), brute_force_models(&cnf).unwrap(), "case {case}");
        assert_eq!(s.kept.len() + s.removed.len(), cnf.len());
        let clauses = s.cnf.clauses();
        for (i, c) in clauses.iter().enumerate() {
            assert!(!c.is_tautology() && !c.has_duplicates(), "case {case}");
            for (j, d) in clauses.iter().enumerate() {
                assert!(i == j || !c.subsumes(d), "case {case}: {c} subsumes {d}");
            }
        }
        for &(i, why) in &s.removed {
            let c = &cnf.clauses()[i];
            match why {
                Removal::Tautology => assert!(c.is_tautology()),
                Removal::Duplicate { of } => {
                    assert!(of < i && cnf.clauses()[of].same_set(c));
                }
                Removal::Subsumed { by } => {
                    let b = &cnf.clauses()[by];
                    assert!(b.subsumes(c) && !b.same_set(c));
                }
                _ => unreachable!(),
            }
        }
    }
}
