//! WalkSAT: every model it returns satisfies the clauses; it never claims UNSAT.

use sleuth_logic::{solve, walksat, Dpll, WalkSatOptions, WalkSatResult};

use crate::common::{random_cnf, random_ksat, rng};

#[test]
fn models_always_satisfy() {
    let mut found = 0;
    let mut satisfiable = 0;
    for case in 0..60 {
        let mut r = rng("walksat_3sat", case);
        let cnf = random_ksat(&mut r, 60, 240, 3);
        let sat = Dpll::new(&cnf).solve().is_sat();
        satisfiable += usize::from(sat);
        let opts = WalkSatOptions { seed: case, max_flips: 20_000, max_tries: 5, ..WalkSatOptions::default() };
        match walksat(&cnf, &opts).0 {
            WalkSatResult::Sat(m) => {
                assert!(sat, "case {case}");
                assert!(cnf.is_satisfied_by(&m), "case {case}");
                found += 1;
            }
            WalkSatResult::Unknown => {}
        }
    }
    // At ratio 4.0 most instances are satisfiable and WalkSAT finds nearly all.
    assert!(found * 10 >= satisfiable * 9, "{found} of {satisfiable}");
}

#[test]
fn small_instances_with_noise_extremes() {
    for case in 0..500 {
        let mut r = rng("walksat_small", case);
        let cnf = random_cnf(&mut r, 8, 20);
        let sat = solve(&cnf).is_sat();
        for noise in [0.0, 0.5, 1.0, f64::NAN, 7.0] {
            let opts = WalkSatOptions { noise, seed: case, max_flips: 2000, max_tries: 3 };
            let (result, stats) = walksat(&cnf, &opts);
            assert!(stats.tries <= 3);
            if let Some(m) = result.model() {
                assert!(sat && cnf.is_satisfied_by(m), "case {case}");
            }
            if !sat {
                assert_eq!(result, WalkSatResult::Unknown);
            }
        }
    }
}

/// WSAT(PB) on random cardinality problems over at most 10 variables, against
/// brute force: every model it returns satisfies every constraint; it never
/// returns one for an unsatisfiable problem; and on these small problems it
/// finds one for (nearly) every satisfiable problem.
#[test]
fn cardinality_walk_agrees_with_brute_force() {
    use rand::Rng;
    use sleuth_logic::{walksat_pb, AtLeast, Lit, Var};
    let (mut satisfiable, mut found) = (0, 0);
    for case in 0..400 {
        let mut r = rng("walksat_pb", case);
        let n: u32 = r.gen_range(1..=10);
        let constraints: Vec<AtLeast> = (0..r.gen_range(0..=8))
            .map(|_| {
                let len = r.gen_range(1..=n as usize);
                let lits: Vec<Lit> =
                    (0..len).map(|_| Var::new(r.gen_range(1..=n)).unwrap().lit(r.gen_bool(0.5))).collect();
                AtLeast { k: r.gen_range(0..=len), lits }
            })
            .collect();
        let sat = (0u32..1 << n).any(|bits| {
            let values: Vec<bool> = (0..n).map(|i| bits >> i & 1 == 1).collect();
            constraints.iter().all(|c| c.is_satisfied_by(&values))
        });
        satisfiable += usize::from(sat);
        let opts = WalkSatOptions { seed: case, max_flips: 5_000, max_tries: 3, ..WalkSatOptions::default() };
        if let WalkSatResult::Sat(m) = walksat_pb(n, &constraints, &opts).0 {
            assert!(sat, "case {case}: a model of an unsatisfiable problem");
            let values: Vec<bool> = (1..=n).map(|i| m.get(Var::new(i).unwrap()).unwrap()).collect();
            assert!(constraints.iter().all(|c| c.is_satisfied_by(&values)), "case {case}");
            found += 1;
        }
    }
    assert!(satisfiable > 100 && found * 100 >= satisfiable * 99, "{found} of {satisfiable}");
}
