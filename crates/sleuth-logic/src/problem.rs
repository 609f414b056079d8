//! Sentence files: one sentence per line, `#` comments, `#?` query lines.
//!
//! ```text
//! # Liars and truth-tellers (seed section 2)
//! A <=> ~B
//! B <=> ~C
//! C <=> ~A & ~B      # Cal: "Amy and Bob are liars"
//! #? C
//! ```
//!
//! Blank lines are skipped and `#` starts a comment anywhere on a line. A line whose
//! first non-blank characters are `#?` holds a *query*: a sentence the file asks
//! about, which other tools ignore as a comment.

use crate::parse::{parse, ParseError};
use crate::sentence::Sentence;

/// A syntax error in a sentence file, with its 1-based line number.
///
/// # Examples
///
/// ```
/// use sleuth_logic::Problem;
/// let err = Problem::parse("A\n# fine\nB & & C\n").unwrap_err();
/// assert_eq!(err.to_string(), "line 3, column 5: expected a sentence, found `&`");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, {error}")]
pub struct FileError {
    /// The 1-based line number.
    pub line: usize,
    /// The error within that line (its column counts from the start of the line).
    pub error: ParseError,
}

/// The contents of a sentence file: a knowledge base and the queries asked of it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Problem {
    /// The sentences of the knowledge base, in file order.
    pub sentences: Vec<Sentence>,
    /// The `#?` query sentences, in file order.
    pub queries: Vec<Sentence>,
}

impl Problem {
    /// Parses a sentence file.
    ///
    /// # Errors
    ///
    /// Returns the first syntax error, with its line and column.
    ///
    /// # Examples
    ///
    /// ```
    /// use sleuth_logic::Problem;
    /// let p = Problem::parse("A => B\nA  # a fact\n#? B\n")?;
    /// assert_eq!(p.sentences.len(), 2);
    /// assert_eq!(p.queries[0].to_string(), "B");
    /// # Ok::<(), sleuth_logic::FileError>(())
    /// ```
    pub fn parse(text: &str) -> Result<Problem, FileError> {
        let mut problem = Problem::default();
        for (i, line) in text.lines().enumerate() {
            let trimmed = line.trim_start();
            let lead = line.len() - trimmed.len();
            let (body, skip, is_query) = match trimmed.strip_prefix("#?") {
                Some(rest) => (rest, lead + 2, true),
                None => (trimmed, lead, false),
            };
            let body = body.split('#').next().unwrap_or("");
            if body.trim().is_empty() {
                continue;
            }
            let s = parse(body)
                .map_err(|e| FileError { line: i + 1, error: e.shifted(skip, line[..skip].chars().count()) })?;
            if is_query {
                problem.queries.push(s);
            } else {
                problem.sentences.push(s);
            }
        }
        Ok(problem)
    }
}

/// Parses a sentence file and returns its knowledge base (queries are ignored).
///
/// # Errors
///
/// Returns the first syntax error, with its line and column.
pub fn parse_sentences(text: &str) -> Result<Vec<Sentence>, FileError> {
    Problem::parse(text).map(|p| p.sentences)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_queries_and_columns() {
        let p = Problem::parse("  # header\n\nA | B # tail\n  #? ~A\n").unwrap();
        assert_eq!(p.sentences, vec![parse("A | B").unwrap()]);
        assert_eq!(p.queries, vec![parse("~A").unwrap()]);
        let e = Problem::parse("A\n  #? (B").unwrap_err();
        assert_eq!(e.line, 2);
        assert_eq!(e.error.column, 8);
        assert_eq!(e.to_string(), "line 2, column 8: expected `)` to close `(` at column 6, found end of input");
    }
}
