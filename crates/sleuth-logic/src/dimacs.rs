//! The DIMACS CNF format (seed section 5): reading, writing, and the SAT
//! competition's solution lines.
//!
//! ```text
//! c Truth-teller and liar problem
//! c 1: Amy is a truth-teller.
//! p cnf 3 2
//! -1 -2 0
//! 2 1 0
//! ```
//!
//! The reader accepts comment lines (`c ...`) anywhere, blank lines, several
//! clauses on one line and clauses spread over several lines, and stops at a line
//! starting with `%` (as SATLIB files end). It insists on one `p cnf VARIABLES
//! CLAUSES` header before the first clause (declaring at most [`MAX_DIMACS_VARS`]
//! variables), literals within the declared variables, every clause ended by `0`,
//! and exactly the declared number of clauses. A clause may repeat a literal or hold both `i` and `-i`; those are
//! kept as written (see [`simplify`](crate::simplify())).

use std::fmt::{self, Write as _};

use crate::clause::{Clause, Cnf, Model};
use crate::lit::{Lit, Var};
use crate::symbols::Symbols;

/// The most variables a DIMACS header may declare (2^24): solvers allocate per
/// declared variable.
pub const MAX_DIMACS_VARS: u32 = 1 << 24;

/// What is wrong with a DIMACS file.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DimacsErrorKind {
    /// A clause (or the end of input) came before any `p cnf` header.
    MissingHeader,
    /// A second `p` line.
    DuplicateHeader {
        /// The line of the first header.
        first_line: usize,
    },
    /// A `p` line not of the form `p cnf VARIABLES CLAUSES`.
    BadHeader(String),
    /// A header declaring more than [`MAX_DIMACS_VARS`] variables.
    TooManyVars {
        /// The declared variable count.
        declared: u64,
    },
    /// A token that is not an integer.
    BadLiteral(String),
    /// A literal whose variable exceeds the declared count.
    VarOutOfRange {
        /// The literal as written.
        lit: i64,
        /// The declared variable count.
        num_vars: u32,
    },
    /// More clauses than the header declares.
    TooManyClauses {
        /// The declared clause count.
        declared: usize,
    },
    /// Fewer clauses than the header declares.
    TooFewClauses {
        /// The declared clause count.
        declared: usize,
        /// The clauses found.
        found: usize,
    },
    /// The input ended inside a clause (its line is reported).
    UnterminatedClause,
}

impl fmt::Display for DimacsErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DimacsErrorKind::MissingHeader => {
                f.write_str("expected a `p cnf VARIABLES CLAUSES` header before the clauses")
            }
            DimacsErrorKind::DuplicateHeader { first_line } => {
                write!(f, "second header (the first is on line {first_line})")
            }
            DimacsErrorKind::BadHeader(line) => {
                write!(f, "malformed header `{}`: expected `p cnf VARIABLES CLAUSES`", crate::parse::shown(line))
            }
            DimacsErrorKind::TooManyVars { declared } => {
                write!(f, "the header declares {declared} variables, more than the {MAX_DIMACS_VARS} supported")
            }
            DimacsErrorKind::BadLiteral(tok) => write!(f, "`{}` is not an integer literal", crate::parse::shown(tok)),
            DimacsErrorKind::VarOutOfRange { lit, num_vars } => {
                write!(f, "literal {lit} is outside the {num_vars} variables declared in the header")
            }
            DimacsErrorKind::TooManyClauses { declared } => {
                write!(f, "more clauses than the {declared} declared in the header")
            }
            DimacsErrorKind::TooFewClauses { declared, found } => {
                write!(f, "found {found} clauses but the header declares {declared}")
            }
            DimacsErrorKind::UnterminatedClause => f.write_str("clause starting here is not terminated by 0"),
        }
    }
}

/// An error in a DIMACS file, with its 1-based line number.
///
/// # Examples
///
/// ```
/// use sleuth_logic::parse_dimacs;
/// let err = parse_dimacs("p cnf 2 1\n1 -3 0\n").unwrap_err();
/// assert_eq!(err.to_string(), "line 2: literal -3 is outside the 2 variables declared in the header");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct DimacsError {
    /// The 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub kind: DimacsErrorKind,
}

/// A parsed DIMACS file: the clauses and the comment lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DimacsFile {
    /// The clauses; the variable count is the header's.
    pub cnf: Cnf,
    /// The comment lines without their leading `c` and one space, in order.
    pub comments: Vec<String>,
}

/// Parses a DIMACS CNF file.
///
/// # Errors
///
/// Returns the first problem found, with its line number.
///
/// # Examples
///
/// ```
/// use sleuth_logic::parse_dimacs;
/// let cnf = parse_dimacs("c example\np cnf 3 2\n1 -2 0 3\n0\n")?;
/// assert_eq!(cnf.num_vars(), 3);
/// assert_eq!(cnf.clauses()[1].to_dimacs(), vec![3]);
/// # Ok::<(), sleuth_logic::DimacsError>(())
/// ```
pub fn parse_dimacs(text: &str) -> Result<Cnf, DimacsError> {
    DimacsFile::parse(text).map(|f| f.cnf)
}

impl DimacsFile {
    /// Parses a DIMACS CNF file, keeping its comments.
    ///
    /// # Errors
    ///
    /// Returns the first problem found, with its line number.
    pub fn parse(text: &str) -> Result<DimacsFile, DimacsError> {
        let mut comments = Vec::new();
        let mut header: Option<(usize, u32, usize)> = None;
        let mut cnf = Cnf::new();
        let mut current: Vec<Lit> = Vec::new();
        let mut current_line = 0;
        let mut last_line = 0;
        let err = |line, kind| DimacsError { line, kind };
        for (i, raw) in text.lines().enumerate() {
            let line_no = i + 1;
            let line = raw.trim();
            last_line = line_no;
            if line.is_empty() {
                continue;
            }
            if line == "c" || line.starts_with("c ") || line.starts_with("c\t") {
                let body = &line[1..];
                comments.push(body.strip_prefix([' ', '\t']).unwrap_or(body).to_owned());
                continue;
            }
            if line.starts_with('%') {
                break;
            }
            if line.starts_with('p') {
                if let Some((first_line, ..)) = header {
                    return Err(err(line_no, DimacsErrorKind::DuplicateHeader { first_line }));
                }
                let parts: Vec<&str> = line.split_whitespace().collect();
                let bad = || err(line_no, DimacsErrorKind::BadHeader(line.to_owned()));
                if parts.len() != 4 || parts[0] != "p" || parts[1] != "cnf" {
                    return Err(bad());
                }
                let vars: u64 = parts[2].parse().map_err(|_| bad())?;
                if vars > u64::from(MAX_DIMACS_VARS) {
                    return Err(err(line_no, DimacsErrorKind::TooManyVars { declared: vars }));
                }
                let vars = u32::try_from(vars).expect("checked against the limit");
                let clauses: usize = parts[3].parse().map_err(|_| bad())?;
                header = Some((line_no, vars, clauses));
                cnf.ensure_vars(vars);
                continue;
            }
            let Some((_, num_vars, declared)) = header else {
                return Err(err(line_no, DimacsErrorKind::MissingHeader));
            };
            for tok in line.split_whitespace() {
                let n: i64 = tok.parse().map_err(|_| err(line_no, DimacsErrorKind::BadLiteral(tok.to_owned())))?;
                if n == 0 {
                    if cnf.len() == declared {
                        return Err(err(line_no, DimacsErrorKind::TooManyClauses { declared }));
                    }
                    cnf.add_clause(Clause::new(current.drain(..)));
                    continue;
                }
                if n.unsigned_abs() > u64::from(num_vars) {
                    return Err(err(line_no, DimacsErrorKind::VarOutOfRange { lit: n, num_vars }));
                }
                if current.is_empty() {
                    current_line = line_no;
                }
                let n = i32::try_from(n).expect("within the declared variables");
                current.push(Lit::from_dimacs(n).expect("nonzero"));
            }
        }
        let Some((_, _, declared)) = header else {
            return Err(err(last_line.max(1), DimacsErrorKind::MissingHeader));
        };
        if !current.is_empty() {
            return Err(err(current_line, DimacsErrorKind::UnterminatedClause));
        }
        if cnf.len() != declared {
            return Err(err(last_line.max(1), DimacsErrorKind::TooFewClauses { declared, found: cnf.len() }));
        }
        Ok(DimacsFile { cnf, comments })
    }
}

/// Writes a clause set in DIMACS CNF, one clause per line, after the given comment
/// lines.
///
/// # Examples
///
/// ```
/// use sleuth_logic::{parse_dimacs, write_dimacs, Cnf};
/// let cnf = Cnf::from_dimacs(&[&[-1, -2], &[2, 1]]).unwrap();
/// let text = write_dimacs(&cnf, &["liars".to_owned()]);
/// assert_eq!(text, "c liars\np cnf 2 2\n-1 -2 0\n2 1 0\n");
/// assert_eq!(parse_dimacs(&text)?, cnf);
/// # Ok::<(), sleuth_logic::DimacsError>(())
/// ```
pub fn write_dimacs(cnf: &Cnf, comments: &[String]) -> String {
    let mut out = String::new();
    for c in comments {
        for line in c.split('\n') {
            if line.is_empty() {
                out.push_str("c\n");
            } else {
                let _ = writeln!(out, "c {line}");
            }
        }
    }
    let _ = writeln!(out, "p cnf {} {}", cnf.num_vars(), cnf.len());
    for clause in cnf.clauses() {
        for l in clause.lits() {
            let _ = write!(out, "{l} ");
        }
        out.push_str("0\n");
    }
    out
}

/// Comment lines naming each variable, `1: A`, for [`write_dimacs`].
pub fn symbol_comments(symbols: &Symbols) -> Vec<String> {
    symbols.names().iter().enumerate().map(|(i, n)| format!("{}: {n}", i + 1)).collect()
}

/// The SAT competition's solution lines: `s SATISFIABLE` then `v` lines holding
/// every variable's literal and a final `0`, or `s UNSATISFIABLE`, or
/// `s UNKNOWN`.
///
/// `model` is `Some(Some(model))` for satisfiable, `Some(None)` for
/// unsatisfiable and `None` for unknown. Unassigned variables are written as
/// false.
///
/// # Examples
///
/// ```
/// use sleuth_logic::{solution_lines, Model};
/// let m = Model::from_bools(&[false, true, false]);
/// assert_eq!(solution_lines(Some(Some(&m)), 3), "s SATISFIABLE\nv -1 2 -3 0\n");
/// assert_eq!(solution_lines(Some(None), 3), "s UNSATISFIABLE\n");
/// ```
pub fn solution_lines(model: Option<Option<&Model>>, num_vars: u32) -> String {
    match model {
        None => "s UNKNOWN\n".to_owned(),
        Some(None) => "s UNSATISFIABLE\n".to_owned(),
        Some(Some(m)) => {
            let mut out = String::from("s SATISFIABLE\n");
            let mut line = String::from("v");
            for i in 0..num_vars as usize {
                let v = Var::from_index(i);
                let lit = v.lit(m.get(v).unwrap_or(false));
                let tok = format!(" {lit}");
                if line.len() + tok.len() > 78 {
                    out.push_str(&line);
                    out.push('\n');
                    line = String::from("v");
                }
                line.push_str(&tok);
            }
            line.push_str(" 0\n");
            out.push_str(&line);
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse_dimacs(text).unwrap_err().to_string()
    }

    #[test]
    fn seed_example() {
        let text = "c Truth-teller and liar problem\nc 1: Amy is a truth-teller.\nc 2: Bob is a truth-teller.\nc 3: Cal is a truth-teller.\nc\np cnf 3 8\n-1 -2 0\n2 1 0\n-2 -3 0\n3 2 0\n-3 -1 0\n-3 -2 0\n1 2 3 0\n3 0\n";
        let f = DimacsFile::parse(text).unwrap();
        assert_eq!(f.cnf.len(), 8);
        assert_eq!(f.comments[1], "1: Amy is a truth-teller.");
        assert_eq!(f.comments[4], "");
        assert_eq!(write_dimacs(&f.cnf, &f.comments), text);
    }

    #[test]
    fn tolerant_layout() {
        let cnf = parse_dimacs("p cnf 3 3\n1 2 0 -1\n  -2\n\n3 0 c-less 0\n%\n0\n").unwrap_err();
        assert_eq!(cnf.to_string(), "line 5: `c-less` is not an integer literal");
        let cnf = parse_dimacs("p cnf 3 3\n1 2 0 -1\n  -2\n\n3 0 0\n%\n0\n").unwrap();
        assert_eq!(cnf.clauses()[1].to_dimacs(), vec![-1, -2, 3]);
        assert!(cnf.clauses()[2].is_empty());
    }

    #[test]
    fn errors_have_line_numbers() {
        assert_eq!(err("c x\n1 2 0\n"), "line 2: expected a `p cnf VARIABLES CLAUSES` header before the clauses");
        assert_eq!(err(""), "line 1: expected a `p cnf VARIABLES CLAUSES` header before the clauses");
        assert_eq!(err("p cnf 3\n"), "line 1: malformed header `p cnf 3`: expected `p cnf VARIABLES CLAUSES`");
        assert_eq!(err("p cnf 3 1\np cnf 3 1\n"), "line 2: second header (the first is on line 1)");
        assert_eq!(err("p cnf 3 1\n1 0\n2 0\n"), "line 3: more clauses than the 1 declared in the header");
        assert_eq!(err("p cnf 3 3\n1 0\n2 0\n"), "line 3: found 2 clauses but the header declares 3");
        assert_eq!(err("p cnf 3 2\n1 0\n2\n3\n"), "line 3: clause starting here is not terminated by 0");
        assert_eq!(err("p cnf 3 1\n1 x 0\n"), "line 2: `x` is not an integer literal");
        assert_eq!(
            err("p cnf 3 1\n1 -99999999999 0\n"),
            "line 2: literal -99999999999 is outside the 3 variables declared in the header"
        );
    }

    #[test]
    fn solution_lines_wrap() {
        let m = Model::from_bools(&[true; 40]);
        let s = solution_lines(Some(Some(&m)), 40);
        assert!(s.lines().all(|l| l.len() <= 80));
        assert!(s.ends_with(" 40 0\n"));
    }
}
