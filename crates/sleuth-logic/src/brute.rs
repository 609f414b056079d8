//! Brute force over every assignment: the oracle the clever algorithms are tested
//! against, for clause sets of at most [`MAX_BRUTE_VARS`] variables.

use crate::clause::{Cnf, Model};
use crate::dpll::Truth;
use crate::lit::Lit;

/// The most variables brute force enumerates (2^24 assignments).
pub const MAX_BRUTE_VARS: u32 = 24;

/// Refusal to enumerate the assignments of too many variables.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{vars} variables are too many to enumerate (the limit is {limit})")]
pub struct TooManyVars {
    /// The variable count of the input.
    pub vars: u32,
    /// The limit, [`MAX_BRUTE_VARS`].
    pub limit: u32,
}

/// Calls `f` with each satisfying assignment as a bit set (bit `i` is variable
/// `i + 1`), in increasing order, until `f` returns false.
///
/// # Errors
///
/// Refuses more than [`MAX_BRUTE_VARS`] variables.
pub fn for_each_model(cnf: &Cnf, mut f: impl FnMut(u32) -> bool) -> Result<(), TooManyVars> {
    let n = cnf.num_vars();
    if n > MAX_BRUTE_VARS {
        return Err(TooManyVars { vars: n, limit: MAX_BRUTE_VARS });
    }
    let masks: Vec<(u32, u32)> = cnf
        .clauses()
        .iter()
        .map(|c| {
            c.lits().iter().fold((0, 0), |(p, q), l| {
                let bit = 1u32 << l.var().index();
                if l.is_negative() {
                    (p, q | bit)
                } else {
                    (p | bit, q)
                }
            })
        })
        .collect();
    for a in 0..(1u32 << n) {
        if masks.iter().all(|&(p, q)| a & p != 0 || !a & q != 0) && !f(a) {
            break;
        }
    }
    Ok(())
}

/// The number of assignments to variables `1..=num_vars` satisfying every clause.
///
/// # Errors
///
/// Refuses more than [`MAX_BRUTE_VARS`] variables.
///
/// # Examples
///
/// ```
/// use sleuth_logic::{brute_force_count, Cnf};
/// let cnf = Cnf::from_dimacs(&[&[1, 2], &[-1, -2]]).unwrap();
/// assert_eq!(brute_force_count(&cnf)?, 2);
/// # Ok::<(), sleuth_logic::TooManyVars>(())
/// ```
pub fn brute_force_count(cnf: &Cnf) -> Result<u64, TooManyVars> {
    let mut count = 0;
    for_each_model(cnf, |_| {
        count += 1;
        true
    })?;
    Ok(count)
}

/// Every model, in increasing bit order.
///
/// # Errors
///
/// Refuses more than [`MAX_BRUTE_VARS`] variables.
pub fn brute_force_models(cnf: &Cnf) -> Result<Vec<Model>, TooManyVars> {
    let mut out = Vec::new();
    for_each_model(cnf, |a| {
        out.push(Model::from_bits(cnf.num_vars(), u128::from(a)));
        true
    })?;
    Ok(out)
}

/// The first model in bit order, or `None` if unsatisfiable.
///
/// # Errors
///
/// Refuses more than [`MAX_BRUTE_VARS`] variables.
pub fn brute_force_solve(cnf: &Cnf) -> Result<Option<Model>, TooManyVars> {
    let mut found = None;
    for_each_model(cnf, |a| {
        found = Some(Model::from_bits(cnf.num_vars(), u128::from(a)));
        false
    })?;
    Ok(found)
}

/// The seed's `testLiteral` by enumeration: [`Truth::False`] if no model makes
/// `lit` true, else [`Truth::True`] if no model makes it false, else
/// [`Truth::Unknown`].
///
/// # Errors
///
/// Refuses more than [`MAX_BRUTE_VARS`] variables.
pub fn brute_force_test_literal(cnf: &Cnf, lit: Lit) -> Result<Truth, TooManyVars> {
    let (mut with, mut without) = (false, false);
    let i = lit.var().index();
    for_each_model(cnf, |a| {
        let value = i < 32 && a >> i & 1 == 1;
        if lit.apply(value) {
            with = true;
        } else {
            without = true;
        }
        !(with && without)
    })?;
    Ok(match (with, without) {
        (false, _) => Truth::False,
        (true, false) => Truth::True,
        (true, true) => Truth::Unknown,
    })
}
