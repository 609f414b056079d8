//! Seeded generators and shared helpers.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sleuth_logic::{Clause, Cnf, Lit, Sentence};

/// A reproducible generator for test case `case` of the test named `name`.
pub fn rng(name: &str, case: u64) -> ChaCha8Rng {
    let mut seed = 0xcbf2_9ce4_8422_2325u64;
    for b in name.bytes() {
        seed = (seed ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
    }
    ChaCha8Rng::seed_from_u64(seed ^ case.wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

pub fn lit(rng: &mut impl Rng, num_vars: u32) -> Lit {
    let v = rng.gen_range(1..=num_vars) as i32;
    Lit::from_dimacs(if rng.gen_bool(0.5) { v } else { -v }).unwrap()
}

/// A random clause set: up to `max_vars` variables, up to `max_clauses` clauses of
/// length 0 to 4 (empty ones rare), repeats and tautologies allowed.
pub fn random_cnf(rng: &mut impl Rng, max_vars: u32, max_clauses: usize) -> Cnf {
    let n = rng.gen_range(1..=max_vars);
    let m = rng.gen_range(0..=max_clauses);
    let mut cnf = Cnf::with_vars(n);
    for _ in 0..m {
        let len = if rng.gen_ratio(1, 50) { 0 } else { rng.gen_range(1..=4) };
        cnf.add_clause(Clause::new((0..len).map(|_| lit(rng, n))));
    }
    cnf
}

/// Uniform random k-SAT: `m` clauses of `k` distinct variables each.
pub fn random_ksat(rng: &mut impl Rng, n: u32, m: usize, k: usize) -> Cnf {
    let mut cnf = Cnf::with_vars(n);
    for _ in 0..m {
        let mut vars: Vec<u32> = Vec::with_capacity(k);
        while vars.len() < k {
            let v = rng.gen_range(1..=n);
            if !vars.contains(&v) {
                vars.push(v);
            }
        }
        cnf.add_clause(Clause::new(vars.into_iter().map(|v| {
            let v = v as i32;
            Lit::from_dimacs(if rng.gen_bool(0.5) { v } else { -v }).unwrap()
        })));
    }
    cnf
}

/// A random sentence over `atoms` with nesting at most `depth`.
pub fn random_sentence(rng: &mut impl Rng, atoms: &[&str], depth: u32) -> Sentence {
    if depth == 0 || rng.gen_ratio(1, 4) {
        return match rng.gen_range(0..20) {
            0 => Sentence::True,
            1 => Sentence::False,
            _ => Sentence::atom(atoms[rng.gen_range(0..atoms.len())]),
        };
    }
    let sub = |rng: &mut _| random_sentence(rng, atoms, depth - 1);
    match rng.gen_range(0..6) {
        0 => Sentence::negate(sub(rng)),
        1 => Sentence::And((0..rng.gen_range(2..=3)).map(|_| sub(rng)).collect()),
        2 => Sentence::Or((0..rng.gen_range(2..=3)).map(|_| sub(rng)).collect()),
        3 => Sentence::implies(sub(rng), sub(rng)),
        4 => Sentence::iff(sub(rng), sub(rng)),
        _ => Sentence::negate(Sentence::And(vec![sub(rng), sub(rng)])),
    }
}
