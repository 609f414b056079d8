//! The eight exercises of the seed's section 7 (and its worked example), answered
//! by the tool three ways: truth table, DPLL `test_literal`, and resolution proofs
//! that pass the independent checker.

use std::path::PathBuf;

use sleuth_logic::{
    count_models, entails, models, parse, prove_sentence, to_cnf, Dpll, Problem, ProverOptions, Sentence, Truth,
};

use crate::resolution::check_printed_proof;

fn load(name: &str) -> Problem {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/logic").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Problem::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The answer for each query atom, derived three independent ways that must agree.
fn answers(p: &Problem) -> Vec<(String, Truth)> {
    let (cnf, symbols) = to_cnf(&p.sentences).unwrap();
    let mut solver = Dpll::new(&cnf);
    let mut out = Vec::new();
    for q in &p.queries {
        let Sentence::Atom(name) = q else { panic!("queries here are atoms") };
        let not_q = Sentence::negate(q.clone());
        let by_table = match (entails(&p.sentences, q).unwrap(), entails(&p.sentences, &not_q).unwrap()) {
            (true, false) => Truth::True,
            (false, true) => Truth::False,
            (false, false) => Truth::Unknown,
            (true, true) => panic!("inconsistent knowledge base"),
        };
        let by_dpll = solver.test_literal(symbols.get(name).unwrap().positive());
        assert_eq!(by_dpll, by_table, "{name}");
        // Resolution: a checked proof of whichever literal is entailed, and
        // saturation for both when neither is.
        for (goal, expected) in [(q, Truth::True), (&not_q, Truth::False)] {
            let result = prove_sentence(&p.sentences, goal, &ProverOptions::default()).unwrap();
            match result.outcome.proof() {
                Some(proof) => {
                    assert_eq!(by_table, expected, "{name}: proof of {goal}");
                    proof.check(&result.kb, &result.negated_goal).unwrap();
                    let text =
                        |c: &sleuth_logic::Clause| c.lits().iter().map(|&l| result.symbols.lit_to_string(l)).collect();
                    let kb: Vec<_> = result.kb.clauses().iter().map(text).collect();
                    let ng: Vec<_> = result.negated_goal.clauses().iter().map(text).collect();
                    check_printed_proof(&proof.render(&result.symbols), &kb, &ng);
                }
                None => assert_ne!(by_table, expected, "{name}: no proof of {goal}"),
            }
        }
        out.push((name.clone(), by_table));
    }
    out
}

fn check(file: &str, expected: &[(&str, Truth)]) {
    let p = load(file);
    let got = answers(&p);
    let want: Vec<(String, Truth)> = expected.iter().map(|&(n, t)| (n.to_owned(), t)).collect();
    assert_eq!(got, want, "{file}");
}

use Truth::{False as No, True as Yes, Unknown as Either};

#[test]
fn seed_example_liars() {
    // Amy is a liar, Bob a truth-teller, Cal a liar.
    check("seed-liars.txt", &[("A", No), ("B", Yes), ("C", No)]);
}

#[test]
fn exercise_1_unicorn() {
    // Mythical cannot be proved (nor refuted); magical and horned can.
    check("1-unicorn.txt", &[("Mythical", Either), ("Magical", Yes), ("Horned", Yes)]);
}

#[test]
fn exercise_2_liars_1() {
    // Amy and Bob are liars, Cal is a truth-teller.
    check("2-liars-1.txt", &[("A", No), ("B", No), ("C", Yes)]);
}

#[test]
fn exercise_3_liars_2() {
    // Amy is a truth-teller, Bob and Cal are liars.
    check("3-liars-2.txt", &[("A", Yes), ("B", No), ("C", No)]);
}

#[test]
fn exercise_4_salt() {
    // The Caterpillar ate the salt.
    check("4-salt.txt", &[("Caterpillar", Yes), ("Lizard", No), ("Cat", No)]);
    let m = models(&load("4-salt.txt").sentences).unwrap();
    assert_eq!(m.models.len(), 1);
}

#[test]
fn exercise_5_multiple_choice() {
    // Only (e) is true: one consistent way to circle, the subset {e}.
    let expected = [("a", No), ("b", No), ("c", No), ("d", No), ("e", Yes), ("f", No)];
    check("5-multiple-choice.txt", &expected);
    let p = load("5-multiple-choice.txt");
    let m = models(&p.sentences).unwrap();
    assert_eq!(m.models, vec![vec![false, false, false, false, true, false]]);
    // Reading (d) as "at least one of the above" changes nothing.
    let mut alt = p.clone();
    alt.sentences[3] = parse("d <=> a | b | c").unwrap();
    assert_eq!(models(&alt.sentences).unwrap().models, m.models);
}

#[test]
fn exercise_6_doors() {
    // Smullyan: X is good; nothing is known of Y, Z, W. Choose X.
    check("6-doors.txt", &[("X", Yes), ("Y", Either), ("Z", Either), ("W", Either)]);
    let (cnf, _) = to_cnf(&load("6-doors.txt").sentences).unwrap();
    assert_eq!(count_models(&cnf).unwrap(), 8);
    // Liu: A's and H's statements and the two fragments already force X.
    check("6-doors-liu.txt", &[("X", Yes)]);
}

#[test]
fn exercise_7_golfers() {
    // Tom is first, Harry in the middle, Dick last.
    check(
        "7-golfers.txt",
        &[
            ("T1", Yes),
            ("D1", No),
            ("H1", No),
            ("T2", No),
            ("D2", No),
            ("H2", Yes),
            ("T3", No),
            ("D3", Yes),
            ("H3", No),
        ],
    );
}

#[test]
fn exercise_8_liars_3() {
    // Jay and Kay are the only truth-tellers; the solution is unique.
    let names = ["Amy", "Bob", "Cal", "Dee", "Eli", "Fay", "Gil", "Hal", "Ida", "Jay", "Kay", "Lee"];
    let expected: Vec<(&str, Truth)> =
        names.iter().map(|&n| (n, if n == "Jay" || n == "Kay" { Yes } else { No })).collect();
    check("8-liars-3.txt", &expected);
    assert_eq!(models(&load("8-liars-3.txt").sentences).unwrap().models.len(), 1);
}
