//! DPLL against brute force on thousands of small random clause sets, and against
//! batsat (through rustsat) on random 3-SAT at the phase transition.

use std::time::Instant;

use rustsat::solvers::{Solve, SolverResult};
use rustsat::types::TernaryVal;
use sleuth_logic::{
    brute_force_count, brute_force_solve, brute_force_test_literal, Cnf, Dpll, DpllOptions, Heuristic, Lit,
    SolveResult, Var,
};

use crate::common::{random_cnf, random_ksat, rng};

fn all_options() -> Vec<DpllOptions> {
    let mut out = Vec::new();
    for heuristic in [Heuristic::Ordered, Heuristic::MostOccurrences, Heuristic::JeroslowWang] {
        for pure_literals in [false, true] {
            for watched_literals in [false, true] {
                out.push(DpllOptions { heuristic, pure_literals, watched_literals });
            }
        }
    }
    out
}

#[test]
fn dpll_agrees_with_brute_force() {
    let options = all_options();
    let mut sat = 0;
    for case in 0..3000 {
        let mut r = rng("dpll_agrees_with_brute_force", case);
        let cnf = random_cnf(&mut r, 8, 24);
        let expected_sat = brute_force_solve(&cnf).unwrap().is_some();
        let expected_count = u128::from(brute_force_count(&cnf).unwrap());
        sat += usize::from(expected_sat);
        let opts = options[case as usize % options.len()];
        let mut solver = Dpll::with_options(opts);
        solver.add_cnf(&cnf);
        match solver.solve() {
            SolveResult::Sat(m) => {
                assert!(expected_sat, "case {case}: {cnf:?}");
                assert_eq!(m.len(), cnf.num_vars() as usize);
                assert!(cnf.is_satisfied_by(&m), "case {case}: {cnf:?} {m}");
            }
            SolveResult::Unsat => assert!(!expected_sat, "case {case}: {cnf:?}"),
        }
        assert_eq!(solver.count_models().unwrap(), expected_count, "case {case}: {cnf:?}");
    }
    // The generator gives both answers often enough to test both.
    assert!((600..2400).contains(&sat), "{sat} satisfiable of 3000");
}

#[test]
fn test_literal_agrees_with_brute_force() {
    for case in 0..1000 {
        let mut r = rng("test_literal_agrees_with_brute_force", case);
        let cnf = random_cnf(&mut r, 6, 12);
        let mut solver = Dpll::new(&cnf);
        for v in cnf.vars() {
            for lit in [v.positive(), v.negative()] {
                let expected = brute_force_test_literal(&cnf, lit).unwrap();
                assert_eq!(solver.test_literal(lit), expected, "case {case}: {cnf:?} {lit}");
            }
        }
    }
}

#[test]
fn assumptions_agree_with_added_units() {
    for case in 0..1000 {
        let mut r = rng("assumptions_agree_with_added_units", case);
        let cnf = random_cnf(&mut r, 7, 16);
        let assumptions: Vec<Lit> = (0..3).map(|_| crate::common::lit(&mut r, cnf.num_vars())).collect();
        let mut with_units = cnf.clone();
        for &a in &assumptions {
            with_units.add_clause(sleuth_logic::Clause::new([a]));
        }
        let mut solver = Dpll::new(&cnf);
        let expected = brute_force_count(&with_units).unwrap();
        let result = solver.solve_with(&assumptions);
        assert_eq!(result.is_sat(), expected > 0, "case {case}");
        if let Some(m) = result.model() {
            assert!(with_units.is_satisfied_by(m));
        }
        assert_eq!(solver.count_models_with(&assumptions).unwrap(), u128::from(expected));
        // And the clause set itself is unchanged afterwards.
        assert_eq!(solver.count_models().unwrap(), u128::from(brute_force_count(&cnf).unwrap()));
    }
}

fn batsat(cnf: &Cnf) -> Option<Vec<bool>> {
    let mut solver = rustsat_batsat::BasicSolver::default();
    for c in cnf.clauses() {
        let clause: rustsat::types::Clause =
            c.lits().iter().map(|l| rustsat::types::Lit::new(l.var().index() as u32, l.is_negative())).collect();
        solver.add_clause(clause).unwrap();
    }
    match solver.solve().unwrap() {
        SolverResult::Sat => {
            let a = solver.full_solution().unwrap();
            Some((0..cnf.num_vars()).map(|i| a.var_value(rustsat::types::Var::new(i)) == TernaryVal::True).collect())
        }
        SolverResult::Unsat => None,
        SolverResult::Interrupted => panic!("batsat interrupted"),
    }
}

#[test]
fn dpll_agrees_with_batsat_at_the_phase_transition() {
    let mut summary = Vec::new();
    for (n, instances) in [(50u32, 40u64), (100, 16), (150, 6)] {
        let m = (f64::from(n) * 4.26).round() as usize;
        let (mut sat, mut dpll_time, mut ref_time) = (0, 0.0, 0.0);
        for case in 0..instances {
            let mut r = rng("phase_transition", u64::from(n) * 1000 + case);
            let cnf = random_ksat(&mut r, n, m, 3);
            let t = Instant::now();
            let ours = Dpll::new(&cnf).solve();
            dpll_time += t.elapsed().as_secs_f64();
            let t = Instant::now();
            let reference = batsat(&cnf);
            ref_time += t.elapsed().as_secs_f64();
            assert_eq!(ours.is_sat(), reference.is_some(), "n={n} case {case}");
            if let Some(m) = ours.model() {
                assert!(cnf.is_satisfied_by(m), "n={n} case {case}");
                sat += 1;
            }
            if let Some(values) = reference {
                assert!(cnf.is_satisfied_by(&sleuth_logic::Model::from_bools(&values)));
            }
        }
        summary.push(format!(
            "n={n}: {sat}/{instances} sat, dpll {:.1} ms/instance, batsat {:.1} ms/instance",
            1e3 * dpll_time / instances as f64,
            1e3 * ref_time / instances as f64
        ));
    }
    eprintln!("{}", summary.join("\n"));
}

#[test]
fn heuristics_and_pure_literals_agree_on_3sat() {
    for case in 0..30 {
        let mut r = rng("heuristics_agree", case);
        let cnf = random_ksat(&mut r, 30, 128, 3);
        let answers: Vec<bool> = all_options()
            .into_iter()
            .map(|o| {
                let mut s = Dpll::with_options(o);
                s.add_cnf(&cnf);
                let res = s.solve();
                if let Some(m) = res.model() {
                    assert!(cnf.is_satisfied_by(m));
                }
                res.is_sat()
            })
            .collect();
        assert!(answers.iter().all(|&a| a == answers[0]), "case {case}");
    }
}

#[test]
fn seed_satsolver_example() {
    // The seed's SATSolver main(): is Cal a truth-teller? No.
    let kb = Cnf::from_dimacs(&[&[-1, -2], &[2, 1], &[-2, -3], &[3, 2], &[-3, -1], &[-3, -2], &[1, 2, 3]]).unwrap();
    let mut s = Dpll::new(&kb);
    assert!(s.solve().is_sat());
    let v = |n| Var::new(n).unwrap();
    assert_eq!(s.test_literal(v(3).positive()), sleuth_logic::Truth::False);
    assert_eq!(s.test_literal(v(1).positive()), sleuth_logic::Truth::False);
    assert_eq!(s.test_literal(v(2).positive()), sleuth_logic::Truth::True);
    // With the seed's query clause {C} added, the set is unsatisfiable.
    assert!(!Dpll::new(&kb.with_clause(sleuth_logic::Clause::new([v(3).positive()]))).solve().is_sat());
}
