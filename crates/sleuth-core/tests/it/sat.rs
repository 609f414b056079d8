//! Deduction cross-checked with a SAT solver (rustsat + BatSat) on the
//! DIMACS CNF that `sleuth_core::knowledge::to_dimacs` writes.
//!
//! * Random classic and master games: for every card and place, the engine
//!   says `yes` iff "not at" is unsatisfiable and `no` iff "at" is
//!   unsatisfiable.
//! * Small custom games: the CNF has exactly one model per consistent deal,
//!   both counted over all variables and projected on the card-place atoms
//!   (so the auxiliary counter variables are functionally determined).

use crate::support::{analyse, big_game, game_of, small_game};
use rustsat::solvers::{Solve, SolveIncremental, SolverResult};
use rustsat::types::{Clause, Lit, TernaryVal};
use rustsat_batsat::BasicSolver;
use sleuth_core::knowledge::{dimacs_var, to_dimacs};
use sleuth_core::{Game, Knowledge, Status};

/// A parsed DIMACS CNF.
struct Cnf {
    vars: u32,
    clauses: Vec<Vec<i32>>,
    /// The variables of the `c p show ... 0` projection line, if any.
    show: Option<Vec<u32>>,
}

/// A small, strict DIMACS parser: comments, one `p cnf V C` header, then
/// clauses of non-zero integers each ended by `0` (possibly across lines).
fn parse_dimacs(text: &str) -> Result<Cnf, String> {
    let mut header = None;
    let mut clauses = Vec::new();
    let mut current = Vec::new();
    let mut show = None;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("c p show") {
            let mut vars: Vec<u32> = Vec::new();
            for tok in rest.split_whitespace() {
                vars.push(tok.parse().map_err(|e| format!("line {}: bad show variable {tok}: {e}", n + 1))?);
            }
            if vars.pop() != Some(0) {
                return Err(format!("line {}: show line does not end with 0", n + 1));
            }
            show = Some(vars);
            continue;
        }
        if line.is_empty() || line.starts_with('c') {
            continue;
        }
        if let Some(rest) = line.strip_prefix("p ") {
            if header.is_some() {
                return Err(format!("line {}: second header", n + 1));
            }
            let parts: Vec<&str> = rest.split_whitespace().collect();
            match parts.as_slice() {
                ["cnf", v, c] => {
                    let v: u32 = v.parse().map_err(|e| format!("line {}: {e}", n + 1))?;
                    let c: usize = c.parse().map_err(|e| format!("line {}: {e}", n + 1))?;
                    header = Some((v, c));
                }
                _ => return Err(format!("line {}: bad header {line}", n + 1)),
            }
            continue;
        }
        let Some((vars, _)) = header else { return Err(format!("line {}: clause before the header", n + 1)) };
        for tok in line.split_whitespace() {
            let lit: i32 = tok.parse().map_err(|e| format!("line {}: bad literal {tok}: {e}", n + 1))?;
            if lit == 0 {
                clauses.push(std::mem::take(&mut current));
            } else if lit.unsigned_abs() > vars {
                return Err(format!("line {}: literal {lit} beyond {vars} variables", n + 1));
            } else {
                current.push(lit);
            }
        }
    }
    let (vars, count) = header.ok_or("no header")?;
    if !current.is_empty() {
        return Err("the last clause has no terminating 0".into());
    }
    if clauses.len() != count {
        return Err(format!("header says {count} clauses, found {}", clauses.len()));
    }
    Ok(Cnf { vars, clauses, show })
}

fn lit(l: i32) -> Lit {
    Lit::from_ipasir(l).expect("non-zero literal")
}

fn solver(cnf: &Cnf) -> BasicSolver {
    let mut s = BasicSolver::default();
    if cnf.vars > 0 {
        s.reserve(lit(cnf.vars as i32).var()).expect("reserve");
    }
    for cl in &cnf.clauses {
        s.add_clause(cl.iter().map(|&l| lit(l)).collect::<Clause>()).expect("add clause");
    }
    s
}

/// The DIMACS text of a game, parsed, with its header and projection
/// checked against the game.
fn cnf_of(game: &Game, label: &str) -> Cnf {
    let text = to_dimacs(game, &Knowledge::new(game));
    let cnf = parse_dimacs(&text).unwrap_or_else(|e| panic!("{label}: bad DIMACS: {e}"));
    let primary = (game.num_places() * game.deck().len()) as u32;
    assert!(cnf.vars >= primary, "{label}: {} variables but {primary} atoms", cnf.vars);
    assert_eq!(cnf.show.as_deref(), Some(&(1..=primary).collect::<Vec<u32>>()[..]), "{label}: projection line");
    // Every declared variable occurs (a free variable would double the models).
    let mut seen = vec![false; cnf.vars as usize + 1];
    for cl in &cnf.clauses {
        for &l in cl {
            seen[l.unsigned_abs() as usize] = true;
        }
    }
    let unused: Vec<usize> = (1..seen.len()).filter(|&v| !seen[v]).collect();
    assert!(unused.is_empty(), "{label}: variables {unused:?} occur in no clause");
    // Atom numbering as documented.
    let mut atoms: Vec<u32> =
        game.deck().cards().flat_map(|c| game.places().map(move |p| dimacs_var(game, c, p))).collect();
    atoms.sort_unstable();
    assert_eq!(atoms, (1..=primary).collect::<Vec<u32>>(), "{label}: atom numbering");
    cnf
}

/// Compares every status with SAT calls under assumptions.
pub(crate) fn check_statuses(game: &Game, label: &str) -> (usize, usize) {
    let analysis = analyse(game);
    let cnf = cnf_of(game, label);
    let mut s = solver(&cnf);
    let sat = s.solve().expect("solve") == SolverResult::Sat;
    assert_eq!(sat, analysis.is_consistent(), "{label}: consistency");
    if !sat {
        return (0, 0);
    }
    // seen[v] = (true in some model, false in some model), from models found.
    let n = cnf.vars as usize;
    let mut seen = vec![(false, false); n + 1];
    let record = |s: &BasicSolver, seen: &mut Vec<(bool, bool)>| {
        for (v, entry) in seen.iter_mut().enumerate().skip(1) {
            match s.lit_val(lit(v as i32)).expect("model") {
                TernaryVal::True => entry.0 = true,
                TernaryVal::False => entry.1 = true,
                TernaryVal::DontCare => *entry = (true, true),
            }
        }
    };
    record(&s, &mut seen);
    let mut calls = 1;
    let mut facts = 0;
    for card in game.deck().cards() {
        for place in game.places() {
            let v = dimacs_var(game, card, place) as usize;
            for positive in [true, false] {
                let possible = if positive { seen[v].0 } else { seen[v].1 };
                if !possible {
                    calls += 1;
                    let a = if positive { lit(v as i32) } else { lit(-(v as i32)) };
                    if s.solve_assumps(&[a]).expect("solve") == SolverResult::Sat {
                        record(&s, &mut seen);
                    }
                }
            }
            let sat_status = match seen[v] {
                (true, false) => Status::Yes,
                (false, true) => Status::No,
                (true, true) => Status::Maybe,
                (false, false) => unreachable!("a satisfiable CNF gives every atom a value"),
            };
            if sat_status != Status::Maybe {
                facts += 1;
            }
            assert_eq!(
                analysis.status(card, place),
                sat_status,
                "{label}: {} at {} ({} of {} deals)",
                game.deck().id(card),
                game.place_id(place),
                analysis.count(card, place),
                analysis.consistent_deals()
            );
        }
    }
    (calls, facts)
}

#[test]
fn deduction_agrees_with_sat_on_random_classic_games() {
    let mut inconsistent = 0;
    let mut certain = 0;
    for i in 0..150 {
        let generated = big_game("sat-classic", i, false, 60, 0.1);
        let game = game_of(&generated);
        let label = format!("classic game {i}:\n{}", generated.file.to_json());
        let (calls, facts) = check_statuses(&game, &label);
        if calls == 0 {
            inconsistent += 1;
        }
        certain += facts;
    }
    assert!(inconsistent >= 1, "the sample should hold an inconsistent history");
    assert!(certain > 150 * 21, "the sample should settle many facts, settled {certain}");
}

#[test]
fn deduction_agrees_with_sat_on_random_master_games() {
    for i in 0..24 {
        let generated = big_game("sat-master", i, true, 60, 0.1);
        let game = game_of(&generated);
        check_statuses(&game, &format!("master game {i}:\n{}", generated.file.to_json()));
    }
}

/// Counts the models of a CNF by adding a blocking clause over `vars` after
/// each one; `None` beyond `limit`.
fn count_models(cnf: &Cnf, vars: u32, limit: u128) -> Option<u128> {
    let mut s = solver(cnf);
    let mut n = 0u128;
    while s.solve().expect("solve") == SolverResult::Sat {
        n += 1;
        if n > limit {
            return None;
        }
        let block: Clause = (1..=vars as i32)
            .map(|v| match s.lit_val(lit(v)).expect("model") {
                TernaryVal::True => lit(-v),
                _ => lit(v),
            })
            .collect();
        s.add_clause(block).expect("add clause");
    }
    Some(n)
}

#[test]
fn the_cnf_has_one_model_per_consistent_deal() {
    let mut checked = 0;
    let mut i = 0;
    while checked < 120 {
        let generated = small_game("sat-models", i);
        i += 1;
        let game = game_of(&generated);
        let analysis = analyse(&game);
        if analysis.consistent_deals() > 600 {
            continue;
        }
        let label = format!("small game {}:\n{}", i - 1, generated.file.to_json());
        let cnf = cnf_of(&game, &label);
        let primary = (game.num_places() * game.deck().len()) as u32;
        let projected = count_models(&cnf, primary, 10_000).expect("few models");
        assert_eq!(projected, analysis.consistent_deals(), "{label}: models projected on the atoms");
        let all = count_models(&cnf, cnf.vars, 10_000).expect("few models");
        assert_eq!(all, analysis.consistent_deals(), "{label}: models over all variables");
        checked += 1;
    }
}

#[test]
fn the_dimacs_parser_rejects_bad_text() {
    assert!(parse_dimacs("p cnf 2 1\n1 -2 0\n").is_ok());
    assert!(parse_dimacs("p cnf 2 2\n1 -2 0\n").is_err(), "wrong clause count");
    assert!(parse_dimacs("p cnf 2 1\n1 3 0\n").is_err(), "variable beyond the header");
    assert!(parse_dimacs("1 2 0\n").is_err(), "no header");
    assert!(parse_dimacs("p cnf 2 1\n1 2\n").is_err(), "unterminated clause");
    let cnf = parse_dimacs("c x\np cnf 3 2\n1\n-2 0 3 0\n").unwrap();
    assert_eq!(cnf.clauses, vec![vec![1, -2], vec![3]]);
}
