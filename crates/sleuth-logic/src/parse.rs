//! The sentence parser, with Unicode and ASCII spellings and precise error columns.
//!
//! | connective | spellings |
//! |---|---|
//! | negation | `¬` `~` `!` `not` |
//! | conjunction | `∧` `&` `&&` `/\` `and` |
//! | disjunction | `∨` `\|` `\|\|` `\/` `or` |
//! | conditional | `⇒` `→` `=>` `->` `implies` |
//! | biconditional | `⇔` `↔` `<=>` `<->` `iff` |
//! | constants | `true` `⊤`, `false` `⊥` |
//!
//! An atom is a letter or `_` followed by letters, digits and `_` (`pi_wh`, `A1`),
//! other than the keywords above. Keywords are lowercase; `True` is an atom.
//!
//! Grammar, loosest first (⇔ left-associative, ⇒ right-associative):
//!
//! ```text
//! iff     := implies ( "⇔" implies )*
//! implies := or ( "⇒" implies )?
//! or      := and ( "∨" and )*
//! and     := unary ( "∧" unary )*
//! unary   := "¬" unary | primary
//! primary := atom | "true" | "false" | "(" iff ")"
//! ```

use std::fmt;

use crate::sentence::Sentence;

/// The deepest tree the parser builds; deeper input is refused with
/// [`ParseErrorKind::TooDeep`] so that recursive algorithms cannot overflow the stack.
pub const MAX_DEPTH: usize = 500;

/// What went wrong in [`parse`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// A character that starts no token.
    UnexpectedChar(char),
    /// A token (or the end of input) where something else was required.
    Expected {
        /// What the parser was looking for, e.g. "a sentence".
        expected: &'static str,
        /// What it found, e.g. "`)`" or "end of input".
        found: String,
    },
    /// The input ended (or hit `)`-less text) inside parentheses.
    Unclosed {
        /// The 1-based character column of the unmatched `(`.
        open_column: usize,
        /// What was found instead of `)`.
        found: String,
    },
    /// A `)` with no `(` before it.
    Unmatched,
    /// The sentence, or its parentheses, nest deeper than [`MAX_DEPTH`].
    TooDeep,
}

impl fmt::Display for ParseErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseErrorKind::UnexpectedChar(c) => write!(f, "unexpected character `{}`", c.escape_debug()),
            ParseErrorKind::Expected { expected, found } => {
                write!(f, "expected {expected}, found {found}")
            }
            ParseErrorKind::Unclosed { open_column, found } => {
                write!(f, "expected `)` to close `(` at column {open_column}, found {found}")
            }
            ParseErrorKind::Unmatched => f.write_str("unmatched `)`"),
            ParseErrorKind::TooDeep => {
                write!(f, "sentence nests deeper than {MAX_DEPTH} levels")
            }
        }
    }
}

/// A syntax error in a sentence, with its position.
///
/// `offset` is a byte offset into the input (for slicing), `column` the 1-based
/// character column (for people).
///
/// # Examples
///
/// ```
/// use sleuth_logic::parse;
/// let err = parse("A ∧ (B ∨").unwrap_err();
/// assert_eq!(err.column, 9);
/// assert_eq!(err.to_string(), "column 9: expected a sentence, found end of input");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {kind}")]
pub struct ParseError {
    /// What went wrong.
    pub kind: ParseErrorKind,
    /// Byte offset of the offending token.
    pub offset: usize,
    /// 1-based character column of the offending token.
    pub column: usize,
}

impl ParseError {
    /// The input line with a caret under the error, then the message:
    ///
    /// ```text
    /// A ∧ (B ∨
    ///         ^ expected a sentence, found end of input
    /// ```
    ///
    /// `input` must be the text that was parsed.
    pub fn render(&self, input: &str) -> String {
        let (line, column) = excerpt(input.lines().next().unwrap_or(""), self.column);
        format!("{line}\n{}^ {}", " ".repeat(column.saturating_sub(1)), self.kind)
    }

    /// The same error for input that was preceded by `bytes` bytes and `chars`
    /// characters (for sentences cut out of a longer line).
    pub fn shifted(mut self, bytes: usize, chars: usize) -> ParseError {
        self.offset += bytes;
        self.column += chars;
        if let ParseErrorKind::Unclosed { open_column, .. } = &mut self.kind {
            *open_column += chars;
        }
        self
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    LParen,
    RParen,
    Not,
    And,
    Or,
    Implies,
    Iff,
    True,
    False,
    Atom(String),
    End,
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    text: String,
    offset: usize,
    column: usize,
}

impl Token {
    fn describe(&self) -> String {
        match self.tok {
            Tok::End => "end of input".to_owned(),
            _ => format!("`{}`", shown(&self.text)),
        }
    }
}

/// How many characters of an input line an error shows on each side of
/// the error's column.
const EXCERPT_SIDE: usize = 30;

/// Foreign text as a message shows it: at most 40 characters, control and
/// other non-printable characters escaped (`\u{1b}`).
pub(crate) fn shown(s: &str) -> String {
    let mut out: String = s.chars().take(40).flat_map(char::escape_debug).collect();
    if s.chars().nth(40).is_some() {
        out.push('…');
    }
    out
}

/// The part of `line` around 1-based character `column` that an error
/// shows, and the column there: at most `EXCERPT_SIDE` (30) characters on
/// either side, cuts marked `…`, and every control or other non-printable
/// character shown as `?` so that the caret still lines up.
pub fn excerpt(line: &str, column: usize) -> (String, usize) {
    let chars: Vec<char> = line.chars().collect();
    let at = column.saturating_sub(1).min(chars.len());
    let start = at.saturating_sub(EXCERPT_SIDE);
    let end = (at + EXCERPT_SIDE).min(chars.len());
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    out.extend(chars[start..end].iter().map(|&c| {
        if c.escape_debug().count() > 1 && c != '\\' && c != '\'' && c != '"' {
            '?'
        } else {
            c
        }
    }));
    if end < chars.len() {
        out.push('…');
    }
    (out, at - start + 1 + usize::from(start > 0))
}

fn keyword(word: &str) -> Option<Tok> {
    Some(match word {
        "not" => Tok::Not,
        "and" => Tok::And,
        "or" => Tok::Or,
        "implies" => Tok::Implies,
        "iff" => Tok::Iff,
        "true" => Tok::True,
        "false" => Tok::False,
        _ => return None,
    })
}

/// Multi-character ASCII operators, longest first so that `<=>` wins over `<=`.
const SYMBOLS: &[(&str, Tok)] = &[
    ("<->", Tok::Iff),
    ("<=>", Tok::Iff),
    ("->", Tok::Implies),
    ("=>", Tok::Implies),
    ("&&", Tok::And),
    ("||", Tok::Or),
    ("/\\", Tok::And),
    ("\\/", Tok::Or),
    ("¬", Tok::Not),
    ("~", Tok::Not),
    ("!", Tok::Not),
    ("∧", Tok::And),
    ("&", Tok::And),
    ("∨", Tok::Or),
    ("|", Tok::Or),
    ("⇒", Tok::Implies),
    ("→", Tok::Implies),
    ("⇔", Tok::Iff),
    ("↔", Tok::Iff),
    ("⊤", Tok::True),
    ("⊥", Tok::False),
    ("(", Tok::LParen),
    (")", Tok::RParen),
];

fn is_atom_start(c: char) -> bool {
    c.is_alphabetic() || c == '_'
}

fn is_atom_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn tokenize(input: &str) -> Result<Vec<Token>, ParseError> {
    let mut tokens = Vec::new();
    let mut offset = 0;
    let mut column = 1;
    while offset < input.len() {
        let rest = &input[offset..];
        let c = rest.chars().next().expect("offset inside input");
        if c.is_whitespace() {
            offset += c.len_utf8();
            column += 1;
            continue;
        }
        let (tok, len) = if is_atom_start(c) {
            let len = rest.char_indices().find(|&(_, c)| !is_atom_char(c)).map_or(rest.len(), |(i, _)| i);
            let word = &rest[..len];
            (keyword(word).unwrap_or_else(|| Tok::Atom(word.to_owned())), len)
        } else if let Some((sym, tok)) = SYMBOLS.iter().find(|(s, _)| rest.starts_with(s)) {
            (tok.clone(), sym.len())
        } else {
            return Err(ParseError { kind: ParseErrorKind::UnexpectedChar(c), offset, column });
        };
        let text = &rest[..len];
        tokens.push(Token { tok, text: text.to_owned(), offset, column });
        offset += len;
        column += text.chars().count();
    }
    tokens.push(Token { tok: Tok::End, text: String::new(), offset, column });
    Ok(tokens)
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    parens: usize,
}

/// A parsed subtree and its height, so that depth is checked as the tree is built.
type Node = (Sentence, usize);

impl Parser {
    fn peek(&self) -> &Token {
        &self.tokens[self.pos]
    }

    fn bump(&mut self) -> Token {
        let t = self.tokens[self.pos].clone();
        if self.pos + 1 < self.tokens.len() {
            self.pos += 1;
        }
        t
    }

    fn error_at(&self, token: &Token, kind: ParseErrorKind) -> ParseError {
        ParseError { kind, offset: token.offset, column: token.column }
    }

    fn check_depth(&self, at: &Token, depth: usize) -> Result<usize, ParseError> {
        if depth > MAX_DEPTH {
            Err(self.error_at(at, ParseErrorKind::TooDeep))
        } else {
            Ok(depth)
        }
    }

    fn iff(&mut self) -> Result<Node, ParseError> {
        let start = self.peek().clone();
        let (mut s, mut d) = self.implies()?;
        while self.peek().tok == Tok::Iff {
            self.bump();
            let (r, rd) = self.implies()?;
            d = self.check_depth(&start, 1 + d.max(rd))?;
            s = Sentence::iff(s, r);
        }
        Ok((s, d))
    }

    fn implies(&mut self) -> Result<Node, ParseError> {
        let start = self.peek().clone();
        let mut operands = vec![self.or()?];
        while self.peek().tok == Tok::Implies {
            self.bump();
            operands.push(self.or()?);
        }
        let (mut s, mut d) = operands.pop().expect("at least one operand");
        while let Some((l, ld)) = operands.pop() {
            d = self.check_depth(&start, 1 + d.max(ld))?;
            s = Sentence::implies(l, s);
        }
        Ok((s, d))
    }

    fn or(&mut self) -> Result<Node, ParseError> {
        let start = self.peek().clone();
        let first = self.and()?;
        if self.peek().tok != Tok::Or {
            return Ok(first);
        }
        let mut d = first.1;
        let mut v = vec![first.0];
        while self.peek().tok == Tok::Or {
            self.bump();
            let (s, sd) = self.and()?;
            d = d.max(sd);
            v.push(s);
        }
        Ok((Sentence::Or(v), self.check_depth(&start, d + 1)?))
    }

    fn and(&mut self) -> Result<Node, ParseError> {
        let start = self.peek().clone();
        let first = self.unary()?;
        if self.peek().tok != Tok::And {
            return Ok(first);
        }
        let mut d = first.1;
        let mut v = vec![first.0];
        while self.peek().tok == Tok::And {
            self.bump();
            let (s, sd) = self.unary()?;
            d = d.max(sd);
            v.push(s);
        }
        Ok((Sentence::And(v), self.check_depth(&start, d + 1)?))
    }

    fn unary(&mut self) -> Result<Node, ParseError> {
        let mut nots = Vec::new();
        while self.peek().tok == Tok::Not {
            nots.push(self.bump());
        }
        let (mut s, mut d) = self.primary()?;
        while let Some(t) = nots.pop() {
            d = self.check_depth(&t, d + 1)?;
            s = Sentence::negate(s);
        }
        Ok((s, d))
    }

    fn primary(&mut self) -> Result<Node, ParseError> {
        let t = self.bump();
        match t.tok {
            Tok::Atom(name) => Ok((Sentence::Atom(name), 1)),
            Tok::True => Ok((Sentence::True, 1)),
            Tok::False => Ok((Sentence::False, 1)),
            Tok::LParen => {
                self.parens += 1;
                if self.parens > MAX_DEPTH {
                    return Err(self.error_at(&t, ParseErrorKind::TooDeep));
                }
                let inner = self.iff()?;
                self.parens -= 1;
                let close = self.bump();
                if close.tok == Tok::RParen {
                    Ok(inner)
                } else {
                    Err(self
                        .error_at(&close, ParseErrorKind::Unclosed { open_column: t.column, found: close.describe() }))
                }
            }
            _ => Err(self.error_at(&t, ParseErrorKind::Expected { expected: "a sentence", found: t.describe() })),
        }
    }
}

/// Parses one sentence.
///
/// # Errors
///
/// Returns a [`ParseError`] with the byte offset and character column of the first
/// token that does not fit the grammar.
///
/// # Examples
///
/// ```
/// use sleuth_logic::parse;
/// let s = parse("C <=> ~A & ~B")?;
/// assert_eq!(s.to_string(), "C ⇔ ¬A ∧ ¬B");
/// assert_eq!(parse("A => B => C")?, parse("A ⇒ (B ⇒ C)")?);
/// # Ok::<(), sleuth_logic::ParseError>(())
/// ```
pub fn parse(input: &str) -> Result<Sentence, ParseError> {
    let tokens = tokenize(input)?;
    let mut p = Parser { tokens, pos: 0, parens: 0 };
    let (s, _) = p.iff()?;
    let t = p.peek().clone();
    match t.tok {
        Tok::End => Ok(s),
        Tok::RParen => Err(p.error_at(&t, ParseErrorKind::Unmatched)),
        _ => Err(
            p.error_at(&t, ParseErrorKind::Expected { expected: "a connective or end of input", found: t.describe() })
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Sentence {
        parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn err(s: &str) -> String {
        parse(s).unwrap_err().to_string()
    }

    #[test]
    fn spellings_agree() {
        let want = p("¬A ∧ B ∨ C ⇒ D ⇔ E");
        for s in [
            "~A & B | C -> D <-> E",
            "!A && B || C => D <=> E",
            "not A and B or C implies D iff E",
            "¬A /\\ B \\/ C → D ↔ E",
        ] {
            assert_eq!(p(s), want, "{s}");
        }
    }

    #[test]
    fn precedence_matches_seed() {
        assert_eq!(
            p("C ⇔ ¬A ∧ ¬B"),
            Sentence::iff(
                Sentence::atom("C"),
                Sentence::And(vec![Sentence::negate(Sentence::atom("A")), Sentence::negate(Sentence::atom("B"))])
            )
        );
        assert_eq!(p("A ∨ B ∧ C"), p("A ∨ (B ∧ C)"));
        assert_eq!(p("A ⇒ B ∨ C"), p("A ⇒ (B ∨ C)"));
        assert_eq!(p("A ⇔ B ⇒ C"), p("A ⇔ (B ⇒ C)"));
        assert_eq!(p("A ⇔ B ⇔ C"), p("(A ⇔ B) ⇔ C"));
        assert_ne!(p("(A ∧ B) ∧ C"), p("A ∧ B ∧ C"));
        assert_eq!(p("true | false"), Sentence::Or(vec![Sentence::True, Sentence::False]));
        assert_eq!(p("⊤"), Sentence::True);
        assert_eq!(p("pi_wh"), Sentence::atom("pi_wh"));
        assert_eq!(p("True"), Sentence::atom("True"));
    }

    #[test]
    fn error_positions() {
        assert_eq!(err(""), "column 1: expected a sentence, found end of input");
        assert_eq!(err("A ∧ ∧ B"), "column 5: expected a sentence, found `∧`");
        assert_eq!(err("A B"), "column 3: expected a connective or end of input, found `B`");
        assert_eq!(err("A)"), "column 2: unmatched `)`");
        assert_eq!(err("¬¬ (A ∨ B"), "column 10: expected `)` to close `(` at column 4, found end of input");
        assert_eq!(err("A ∧ $"), "column 5: unexpected character `$`");
        assert_eq!(err("A <= B"), "column 3: unexpected character `<`");
        let e = parse("A ∧ ∧ B").unwrap_err();
        assert_eq!(e.offset, 6);
        assert_eq!(e.render("A ∧ ∧ B"), "A ∧ ∧ B\n    ^ expected a sentence, found `∧`");
    }

    /// Issue 19: errors show a window of a long line, with control and bidi
    /// characters escaped in the message and masked in the excerpt.
    #[test]
    fn r19_errors_are_bounded_and_printable() {
        let long = format!("{} & )", "A".repeat(100_000));
        let e = parse(&long).unwrap_err();
        let shown = e.render(&long);
        assert!(shown.len() < 200, "{shown}");
        let lines: Vec<&str> = shown.lines().collect();
        let caret = lines[1].find('^').unwrap();
        assert!(lines[0].starts_with("…AAAA") && lines[0].chars().nth(caret) == Some(')'), "{shown}");
        let e = parse("A & \u{1b}[2J").unwrap_err();
        assert_eq!(e.to_string(), "column 5: unexpected character `\\u{1b}`");
        assert_eq!(e.render("A & \u{1b}[2J"), "A & ?[2J\n    ^ unexpected character `\\u{1b}`");
        assert_eq!(shown_of("\u{202e}x"), "\\u{202e}x");
    }

    fn shown_of(s: &str) -> String {
        shown(s)
    }

    #[test]
    fn depth_is_limited() {
        let deep = format!("{}A{}", "(".repeat(MAX_DEPTH), ")".repeat(MAX_DEPTH));
        assert_eq!(p(&deep), Sentence::atom("A"));
        let deep = format!("{}A{}", "(".repeat(50_000), ")".repeat(50_000));
        assert_eq!(parse(&deep).unwrap_err().kind, ParseErrorKind::TooDeep);
        let deep = format!("{}A", "~".repeat(MAX_DEPTH + 5));
        assert_eq!(parse(&deep).unwrap_err().kind, ParseErrorKind::TooDeep);
        let ok = format!("{}A", "~".repeat(MAX_DEPTH - 1));
        assert_eq!(p(&ok).depth(), MAX_DEPTH);
        let chain = vec!["A"; MAX_DEPTH + 2].join(" -> ");
        assert_eq!(parse(&chain).unwrap_err().kind, ParseErrorKind::TooDeep);
    }
}
