//! DIMACS round trips and error messages.

use sleuth_logic::{parse_dimacs, solution_lines, solve, write_dimacs, DimacsFile};

use crate::common::{random_cnf, rng};

#[test]
fn write_then_parse_is_identity() {
    for case in 0..500 {
        let mut r = rng("dimacs_round_trip", case);
        let cnf = random_cnf(&mut r, 12, 30);
        let comments = vec![format!("case {case}"), String::new(), "two\nlines".to_owned()];
        let text = write_dimacs(&cnf, &comments);
        let f = DimacsFile::parse(&text).unwrap();
        assert_eq!(f.cnf, cnf, "{text}");
        assert_eq!(f.comments, [format!("case {case}"), String::new(), "two".to_owned(), "lines".to_owned()]);
        // Reflowed: every literal on its own line, clauses spanning lines.
        let reflowed: String = text
            .lines()
            .flat_map(|l| {
                if l.starts_with('c') || l.starts_with('p') {
                    vec![l.to_owned()]
                } else {
                    l.split_whitespace().map(str::to_owned).collect()
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        assert_eq!(parse_dimacs(&reflowed).unwrap(), cnf);
        // All clauses on one line.
        let body: Vec<&str> = text.lines().filter(|l| !l.starts_with('c') && !l.starts_with('p')).collect();
        let one_line = format!("p cnf {} {}\n{}\n", cnf.num_vars(), cnf.len(), body.join(" "));
        assert_eq!(parse_dimacs(&one_line).unwrap(), cnf);
    }
}

#[test]
fn error_messages_name_the_line() {
    let check = |text: &str, message: &str| {
        assert_eq!(parse_dimacs(text).unwrap_err().to_string(), message, "{text:?}");
    };
    check("c header missing\n\n1 -2 0\n", "line 3: expected a `p cnf VARIABLES CLAUSES` header before the clauses");
    check("p dnf 3 2\n", "line 1: malformed header `p dnf 3 2`: expected `p cnf VARIABLES CLAUSES`");
    check("p cnf -3 2\n", "line 1: malformed header `p cnf -3 2`: expected `p cnf VARIABLES CLAUSES`");
    check("p cnf 3 2\n1 2 0\n\n-1 4 0\n", "line 4: literal 4 is outside the 3 variables declared in the header");
    check("p cnf 3 2\n1 2 0\n-1\n2\n", "line 3: clause starting here is not terminated by 0");
    check("p cnf 3 2\n1 2 0\n-1 2.5 0\n", "line 3: `2.5` is not an integer literal");
    check("p cnf 3 1\n1 2 0\nc ok\n3 0\n", "line 4: more clauses than the 1 declared in the header");
    check("p cnf 3 3\n1 2 0\n3 0\nc end\n", "line 4: found 2 clauses but the header declares 3");
    check("p cnf 3 1\n1 0\np cnf 3 1\n", "line 3: second header (the first is on line 1)");
}

#[test]
fn satlib_style_and_competition_output() {
    let text = "c SATLIB style\np cnf 3 2\n 1 -3 0\n2 3 -1 0\n%\n0\n\n";
    let cnf = parse_dimacs(text).unwrap();
    assert_eq!(cnf.len(), 2);
    let result = solve(&cnf);
    let out = solution_lines(Some(result.model()), cnf.num_vars());
    assert!(out.starts_with("s SATISFIABLE\nv "));
    assert!(out.ends_with(" 0\n"));
}
