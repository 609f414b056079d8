//! `sleuth constraints`.

use crate::support::sleuth;

#[test]
fn prints_evidence_constraints() {
    let run = sleuth(&["constraints", "seed-sat-sample.json"]);
    run.code(0);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "{wh@sc}_1  # hand");
    assert!(lines.contains(&"{sc@mu}_1  # event 0"), "{}", run.stdout);
    assert!(lines.contains(&"{¬pe@mu, ¬pi@mu, ¬di@mu}_1  # event 1") || run.stdout.contains("# event 1"));
    assert!(!run.stdout.contains("# deal"), "structural constraints only with --all");
    let all = sleuth(&["constraints", "--all", "seed-sat-sample.json"]);
    all.code(0);
    assert!(all.stdout.contains("# deal: each card in one place"));
    assert!(all.stdout.contains("# hand size of sc"));
    assert!(all.stdout.contains("# case file: one weapon"));
}

#[test]
fn dimacs_header_matches_the_clauses() {
    let run = sleuth(&["constraints", "--dimacs", "seed-sat-sample.json"]);
    run.code(0);
    let header = run.stdout.lines().find(|l| l.starts_with("p cnf ")).expect("a problem line");
    let fields: Vec<usize> = header[6..].split_whitespace().map(|x| x.parse().unwrap()).collect();
    let clauses: Vec<&str> = run.stdout.lines().filter(|l| !l.starts_with('c') && !l.starts_with('p')).collect();
    assert_eq!(clauses.len(), fields[1]);
    for clause in clauses {
        assert!(clause.ends_with(" 0") || clause == "0", "{clause}");
        for lit in clause.split_whitespace() {
            let v: i64 = lit.parse().unwrap();
            assert!(v.unsigned_abs() as usize <= fields[0]);
        }
    }
}
