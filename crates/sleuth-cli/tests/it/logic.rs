//! `sleuth logic`: the subcommands on the exercises in `examples/logic/`
//! (asserting the answers docs/logic.md states), the SAT-competition exit
//! codes of `solve`, and errors with positions.

use crate::support::{sleuth_in, Run, Scratch};
use expect_test::expect;
use std::path::{Path, PathBuf};

/// The repository's `examples/logic` directory.
fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/logic")
}

/// Runs `sleuth logic ARGS` in `examples/logic`.
fn logic(args: &[&str]) -> Run {
    let mut all = vec!["logic"];
    all.extend_from_slice(args);
    sleuth_in(&examples(), &all, None)
}

/// Runs `sleuth logic ARGS` in a directory, with standard input.
fn logic_stdin(dir: &Path, args: &[&str], stdin: &str) -> Run {
    let mut all = vec!["logic"];
    all.extend_from_slice(args);
    sleuth_in(dir, &all, Some(stdin))
}

/// The answers of `sleuth logic entails -f FILE` for the file's queries: `T`
/// (entailed), `F` (the negation is entailed) or `?` (neither), in query order.
fn answers(file: &str) -> String {
    let run = logic(&["entails", "--ascii", "-f", file]);
    assert!(run.code == 0 || run.code == 1, "{run:?}");
    run.stdout
        .lines()
        .skip(1)
        .filter(|l| !l.starts_with("note:"))
        .map(|l| {
            if l.ends_with(": yes, entailed") {
                'T'
            } else if l.ends_with("is not entailed either") {
                '?'
            } else {
                assert!(l.ends_with("is entailed"), "{l}");
                'F'
            }
        })
        .collect()
}

#[test]
fn entails_answers_every_exercise_as_the_docs_state() {
    // docs/logic.md, "The exercises": one letter per '#?' query of each file.
    let expected = [
        ("seed-liars.txt", "FTF"),           // Amy liar, Bob truth-teller, Cal liar
        ("1-unicorn.txt", "?TT"),            // mythical: no (nor its negation); magical, horned: yes
        ("2-liars-1.txt", "FFT"),            // Cal is the truth-teller
        ("3-liars-2.txt", "TFF"),            // Amy is the truth-teller
        ("4-salt.txt", "TFF"),               // the Caterpillar ate the salt
        ("5-multiple-choice.txt", "FFFFTF"), // only (e) is true
        ("6-doors.txt", "T???"),             // X is good; Y, Z, W undetermined
        ("6-doors-liu.txt", "T"),            // the fragments suffice: X
        ("7-golfers.txt", "TFFFFTFTF"),      // Tom first, Harry middle, Dick last
        ("8-liars-3.txt", "FFFFFFFFFTTF"),   // only Jay and Kay tell the truth
    ];
    for (file, letters) in expected {
        assert_eq!(answers(file), letters, "{file}");
    }
}

#[test]
fn entails_prints_countermodels_and_exit_codes() {
    let run = logic(&["entails", "-f", "seed-liars.txt"]);
    run.code(1);
    expect![[r#"
        knowledge base: 3 sentences; by truth table over 3 atoms
        A: no, not entailed (countermodel: ¬A B ¬C); its negation ¬A is entailed
        B: yes, entailed
        C: no, not entailed (countermodel: ¬A B ¬C); its negation ¬C is entailed
    "#]]
    .assert_eq(&run.stdout);
    let run = logic(&["entails", "-f", "seed-liars.txt", "--goal", "B", "--goal", "~A & ~C"]);
    run.code(0);
    expect![[r#"
        knowledge base: 3 sentences; by truth table over 3 atoms
        B: yes, entailed
        ¬A ∧ ¬C: yes, entailed
    "#]]
    .assert_eq(&run.stdout);
    // Sentences on the command line, no file.
    let run = logic(&["entails", "A | B", "~A", "--goal", "B"]);
    run.code(0);
    let run = logic(&["entails", "A => B", "--goal", "B"]);
    run.code(1);
    assert!(run.stdout.contains("B: no, not entailed (countermodel: ¬A ¬B)"), "{}", run.stdout);
    // An unsatisfiable knowledge base entails everything, and says so.
    let run = logic(&["entails", "A", "~A", "--goal", "Z"]);
    run.code(0);
    assert!(run.stdout.contains("note: the knowledge base is unsatisfiable"), "{}", run.stdout);
}

#[test]
fn entails_falls_back_to_dpll_beyond_twenty_atoms() {
    let kb: Vec<String> = (1..=24).map(|i| format!("x{i} => x{}", i + 1)).collect();
    let mut args: Vec<&str> = vec!["entails"];
    args.extend(kb.iter().map(String::as_str));
    args.extend(["x1", "--goal", "x25", "--goal", "x0"]);
    let run = logic(&args);
    run.code(1);
    assert!(run.stdout.contains("by DPLL on the Tseitin CNF (26 atoms"), "{}", run.stdout);
    assert!(run.stdout.contains("x25: yes, entailed"), "{}", run.stdout);
    assert!(run.stdout.contains("x0: no, not entailed"), "{}", run.stdout);
}

#[test]
fn cnf_prints_the_seeds_four_steps() {
    let run = logic(&["cnf", "-f", "seed-liars.txt"]);
    run.code(0);
    // The same text as in docs/logic.md, "Conversion to CNF".
    expect![[r#"
        sentences
          A ⇔ ¬B
          B ⇔ ¬C
          C ⇔ ¬A ∧ ¬B
        step 1: eliminate ⇔
          (A ⇒ ¬B) ∧ (¬B ⇒ A)
          (B ⇒ ¬C) ∧ (¬C ⇒ B)
          (C ⇒ ¬A ∧ ¬B) ∧ (¬A ∧ ¬B ⇒ C)
        step 2: eliminate ⇒
          (¬A ∨ ¬B) ∧ (¬¬B ∨ A)
          (¬B ∨ ¬C) ∧ (¬¬C ∨ B)
          (¬C ∨ ¬A ∧ ¬B) ∧ (¬(¬A ∧ ¬B) ∨ C)
        step 3: move ¬ inward
          (¬A ∨ ¬B) ∧ (B ∨ A)
          (¬B ∨ ¬C) ∧ (C ∨ B)
          (¬C ∨ ¬A ∧ ¬B) ∧ (A ∨ B ∨ C)
        step 4: distribute ∨ over ∧
          (¬A ∨ ¬B) ∧ (B ∨ A)
          (¬B ∨ ¬C) ∧ (C ∨ B)
          (¬C ∨ ¬A) ∧ (¬C ∨ ¬B) ∧ (A ∨ B ∨ C)
        clauses
          (1) {¬A, ¬B}
          (2) {B, A}
          (3) {¬B, ¬C}
          (4) {C, B}
          (5) {¬C, ¬A}
          (6) {¬C, ¬B}
          (7) {A, B, C}
    "#]]
    .assert_eq(&run.stdout);
}

#[test]
fn cnf_tseitin_and_dimacs() {
    let run = logic(&["cnf", "--tseitin", "--ascii", "(A & B) | (C & D)"]);
    run.code(0);
    expect![[r#"
        sentences
          A & B | C & D
        Tseitin clauses: 6 variables (4 atoms, 2 new), 7 clauses
        (equisatisfiable with the sentences, not equivalent: every model of the sentences
        extends to exactly one model of the clauses)
          (1) {~_t5, A}
          (2) {~_t5, B}
          (3) {_t5, ~A, ~B}
          (4) {~_t6, C}
          (5) {~_t6, D}
          (6) {_t6, ~C, ~D}
          (7) {_t5, _t6}
    "#]]
    .assert_eq(&run.stdout);
    let run = logic(&["cnf", "--dimacs", "-f", "seed-liars.txt"]);
    run.code(0);
    expect![[r#"
        c 1: A
        c 2: B
        c 3: C
        p cnf 3 7
        -1 -2 0
        2 1 0
        -2 -3 0
        3 2 0
        -3 -1 0
        -3 -2 0
        1 2 3 0
    "#]]
    .assert_eq(&run.stdout);
    let run = logic(&["cnf", "--tseitin", "--dimacs", "A <=> B"]);
    run.code(0);
    assert!(run.stdout.starts_with("c Tseitin CNF: equisatisfiable"), "{}", run.stdout);
}

#[test]
fn cnf_dimacs_feeds_solve_count_and_simplify() {
    let scratch = Scratch::new();
    let dimacs = logic(&["cnf", "--dimacs", "-f", "seed-liars.txt"]).stdout;
    scratch.write("liars.cnf", &dimacs);
    // The seed's answer as a model: -1 2 -3.
    let run = scratch.sleuth(&["logic", "solve", "liars.cnf"]);
    run.code(10);
    assert!(run.stdout.ends_with("s SATISFIABLE\nv -1 2 -3 0\n"), "{}", run.stdout);
    let run = scratch.sleuth(&["logic", "count", "liars.cnf"]);
    run.code(0);
    assert_eq!(run.stdout, "1 model over the 3 variables declared (exhaustive DPLL)\n");
    // docs/logic.md, "Clauses, DIMACS and simplification", with names from the comments.
    let run = scratch.sleuth(&["logic", "simplify", "liars.cnf"]);
    run.code(0);
    expect![[r#"
        (6) {¬C, ¬B} removed: duplicate of (3) {¬B, ¬C}
        (7) {A, B, C} removed: subsumed by (2) {B, A}
        kept 5 of 7 clauses
    "#]]
    .assert_eq(&run.stdout);
    let run = scratch.sleuth(&["logic", "simplify", "--dimacs", "liars.cnf"]);
    run.code(0);
    assert!(run.stdout.contains("p cnf 3 5\n"), "{}", run.stdout);
    // The doors: 8 models (docs: "Y, Z, W undetermined: 8 models").
    let doors = logic(&["cnf", "--dimacs", "-f", "6-doors.txt"]).stdout;
    let run = logic_stdin(scratch.path(), &["count", "-"], &doors);
    run.code(0);
    assert!(run.stdout.starts_with("8 models over the 12 variables"), "{}", run.stdout);
    // docs/logic.md: one model each, so the answers are unique.
    for file in ["5-multiple-choice.txt", "7-golfers.txt", "8-liars-3.txt"] {
        let dimacs = logic(&["cnf", "--dimacs", "-f", file]).stdout;
        let run = logic_stdin(scratch.path(), &["count", "-"], &dimacs);
        run.code(0);
        assert!(run.stdout.starts_with("1 model over"), "{file}: {}", run.stdout);
        let run = logic_stdin(scratch.path(), &["solve", "-"], &dimacs);
        run.code(10);
    }
}

#[test]
fn table_and_models() {
    let run = logic(&["table", "--ascii", "A => B"]);
    run.code(0);
    expect![[r#"
        A B | A => B
        F F | T
        F T | T
        T F | F
        T T | T
        3 of 4 rows are models (the sentence is true)
    "#]]
    .assert_eq(&run.stdout);
    // Exercise 5 has exactly one consistent way: {e}; exercise 8 one solution.
    let run = logic(&["table", "--models", "--ascii", "-f", "5-multiple-choice.txt"]);
    run.code(0);
    assert_eq!(run.stdout, "~a ~b ~c ~d e ~f\n1 model over 6 atoms (64 rows)\n");
    let run = logic(&["table", "--models", "-f", "8-liars-3.txt"]);
    run.code(0);
    assert!(run.stdout.ends_with("1 model over 12 atoms (4096 rows)\n"), "{}", run.stdout);
    assert!(run.stdout.starts_with("¬Amy ¬Hal ¬Ida ¬Bob ¬Lee"), "{}", run.stdout);
    let run = logic(&["table", "--models", "-f", "6-doors.txt"]);
    assert!(run.stdout.ends_with("8 models over 12 atoms (4096 rows)\n"), "{}", run.stdout);
}

#[test]
fn prove_prints_the_seeds_proof_or_saturates() {
    let run = logic(&["prove", "-f", "seed-liars.txt", "--goal", "~C", "--all-premises"]);
    run.code(0);
    // docs/logic.md, "Resolution": the seed's proof that Cal is a liar.
    expect![[r#"
        goal: ¬C
        proved by contradiction in 4 resolution steps:
        (1)  {¬A, ¬B}   knowledge base
        (2)  {B, A}     knowledge base
        (3)  {¬B, ¬C}   knowledge base
        (4)  {C, B}     knowledge base
        (5)  {¬C, ¬A}   knowledge base
        (6)  {¬C, ¬B}   knowledge base
        (7)  {A, B, C}  knowledge base
        (8)  {C}        negated goal
        (9)  {¬B}       (3), (8)
        (10) {¬A}       (5), (8)
        (11) {A}        (2), (9)
        (12) {}         (10), (11)  contradiction
    "#]]
    .assert_eq(&run.stdout);
    let run = logic(&["prove", "-f", "seed-liars.txt", "--goal", "~C"]);
    run.code(0);
    expect![[r#"
        goal: ¬C
        proved by contradiction in 4 resolution steps:
        (1) {B, A}    knowledge base
        (2) {¬B, ¬C}  knowledge base
        (3) {¬C, ¬A}  knowledge base
        (4) {C}       negated goal
        (5) {¬B}      (2), (4)
        (6) {¬A}      (3), (4)
        (7) {A}       (1), (5)
        (8) {}        (6), (7)  contradiction
    "#]]
    .assert_eq(&run.stdout);
    let run = logic(&["prove", "-f", "seed-liars.txt", "--goal", "C"]);
    run.code(1);
    assert!(run.stdout.contains("no proof: saturated"), "{}", run.stdout);
    // Every query of the unicorn file: mythical has no proof.
    let run = logic(&["prove", "-f", "1-unicorn.txt"]);
    run.code(1);
    let goals = run.stdout.matches("goal: ").count();
    let proved = run.stdout.matches("proved by contradiction").count();
    assert_eq!((goals, proved), (3, 2), "{}", run.stdout);
}

#[test]
fn solve_exit_codes_follow_the_sat_competition() {
    let scratch = Scratch::new();
    scratch.write("sat.cnf", "c a satisfiable file\np cnf 3 3\n1 2 0\n-1 3 0\n-2 -3 0\n");
    scratch.write("unsat.cnf", "p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n");
    let run = scratch.sleuth(&["logic", "solve", "sat.cnf"]);
    run.code(10);
    let v: Vec<i32> = run
        .stdout
        .lines()
        .filter_map(|l| l.strip_prefix("v "))
        .flat_map(|l| l.split_whitespace().map(|t| t.parse::<i32>().unwrap()))
        .collect();
    assert_eq!(v.len(), 4, "{}", run.stdout);
    assert_eq!(*v.last().unwrap(), 0);
    let holds = |l: i32| v.contains(&l);
    assert!((holds(1) || holds(2)) && (holds(-1) || holds(3)) && (holds(-2) || holds(-3)), "{v:?}");
    let run = scratch.sleuth(&["logic", "solve", "unsat.cnf"]);
    run.code(20);
    assert!(run.stdout.ends_with("s UNSATISFIABLE\n"), "{}", run.stdout);
    // WalkSAT finds the model, and never claims UNSAT.
    let run = scratch.sleuth(&["logic", "solve", "--walksat", "--seed", "7", "sat.cnf"]);
    run.code(10);
    assert!(run.stdout.contains("s SATISFIABLE\nv "), "{}", run.stdout);
    let run = scratch.sleuth(&["logic", "solve", "--walksat", "--max-flips", "50", "--max-tries", "2", "unsat.cnf"]);
    run.code(0);
    assert!(run.stdout.ends_with("s UNKNOWN\n"), "{}", run.stdout);
    // Standard input, and the empty clause set.
    let run = logic_stdin(scratch.path(), &["solve", "-"], "p cnf 0 0\n");
    run.code(10);
    assert!(run.stdout.ends_with("s SATISFIABLE\nv 0\n"), "{}", run.stdout);
}

#[test]
fn bad_sentences_are_errors_with_positions() {
    let run = logic(&["table", "A & (B |"]);
    run.code(2);
    expect![[r#"
        error: sentence 1, column 9: expected a sentence, found end of input
          A & (B |
                  ^
    "#]]
    .assert_eq(&run.stderr);
    let run = logic(&["entails", "A", "--goal", "A )"]);
    run.code(2);
    expect![[r#"
        error: goal 1, column 3: unmatched `)`
          A )
            ^
    "#]]
    .assert_eq(&run.stderr);
    let scratch = Scratch::new();
    scratch.write("bad.txt", "# a comment\nA => B\n#? B & & C\n");
    let run = scratch.sleuth(&["logic", "prove", "-f", "bad.txt"]);
    run.code(2);
    expect![[r#"
        error: 'bad.txt' line 3, column 8: expected a sentence, found `&`
          #? B & & C
                 ^
    "#]]
    .assert_eq(&run.stderr);
    let run = logic(&["entails", "A"]);
    run.code(2);
    assert!(run.stderr.contains("no goal"), "{}", run.stderr);
    let run = logic(&["cnf"]);
    run.code(2);
    assert!(run.stderr.contains("no sentences"), "{}", run.stderr);
    let many: Vec<String> = (0..21).map(|i| format!("x{i}")).collect();
    let mut args = vec!["table", "--models"];
    args.extend(many.iter().map(String::as_str));
    let run = logic(&args);
    run.code(2);
    assert!(run.stderr.contains("21 atoms: truth tables stop at 20"), "{}", run.stderr);
    let run = logic(&["table", "-f", "no-such-file.txt"]);
    run.code(2);
    assert!(run.stderr.contains("cannot read 'no-such-file.txt': no such file or directory"), "{}", run.stderr);
}

#[test]
fn bad_dimacs_is_an_error_with_a_line_number() {
    let scratch = Scratch::new();
    scratch.write("range.cnf", "c x\np cnf 2 1\n1 -3 0\n");
    scratch.write("short.cnf", "p cnf 2 2\n1 0\n");
    scratch.write("header.cnf", "p cnf two 1\n1 0\n");
    for (file, message) in [
        ("range.cnf", "error: 'range.cnf' line 3: literal -3 is outside the 2 variables declared in the header\n"),
        ("short.cnf", "error: 'short.cnf' line 2: found 1 clauses but the header declares 2\n"),
        (
            "header.cnf",
            "error: 'header.cnf' line 1: malformed header `p cnf two 1`: expected `p cnf VARIABLES CLAUSES`\n",
        ),
    ] {
        for cmd in ["solve", "count", "simplify"] {
            let run = scratch.sleuth(&["logic", cmd, file]);
            run.code(2);
            assert_eq!(run.stderr, message, "{cmd} {file}");
        }
    }
    // WalkSAT options need --walksat.
    let run = scratch.sleuth(&["logic", "solve", "--seed", "3", "range.cnf"]);
    run.code(2);
}

#[test]
fn bench_checks_every_answer_it_times() {
    let run = logic(&["bench", "--markdown", "--instances", "2", "--vars", "20,30", "--games", "1"]);
    run.code(0);
    assert!(run.stdout.contains("| DPLL median ms |"), "{}", run.stdout);
    assert!(run.stdout.contains("| testLiteral median ms |"), "{}", run.stdout);
    // Twelve Clue rows (three kinds of game, four lengths), each in agreement.
    assert_eq!(run.stdout.lines().filter(|l| l.ends_with(" 1/1 |")).count(), 12, "{}", run.stdout);
    let run = logic(&["bench", "--sat-only", "--clue-only"]);
    run.code(2);
}

/// The command of docs/logic.md's console block that starts with `$ sleuth
/// logic SUBCOMMAND` (continuation lines joined), its arguments after
/// `sleuth`, and the table that follows the block.
fn documented_table(subcommand: &str) -> (Vec<String>, Vec<String>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let doc = std::fs::read_to_string(root.join("docs/logic.md")).unwrap();
    let start = doc.find(&format!("$ sleuth logic {subcommand} ")).expect("the command is in docs/logic.md");
    let block = &doc[start..doc[start..].find("```").map(|e| start + e).unwrap()];
    let command = block.replace("\\\n", " ");
    let args = command.split_whitespace().skip(2).map(String::from).collect();
    let after = &doc[start + block.len()..];
    let table = after
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .map(String::from)
        .collect();
    (args, table)
}

#[test]
fn walksat_clue_table_in_the_docs_is_the_commands_output() {
    let (args, table) = documented_table("walksat-clue");
    assert!(table.len() > 2, "{table:?}");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = sleuth_in(&root, &args, None);
    run.code(0);
    let printed: Vec<&str> = run.stdout.lines().filter(|l| l.starts_with('|')).collect();
    assert_eq!(printed, table, "docs/logic.md's WalkSAT table is not what `sleuth {}` prints", args.join(" "));
}
