//! `sleuth logic`: the propositional-logic workbench of `sleuth-logic` on the
//! command line (issue 4, part 2).
//!
//! Sentence commands (`cnf`, `table`, `entails`, `prove`) take sentences as
//! arguments and from sentence files (`-f FILE`: one sentence per line, `#`
//! comments, `#?` query lines, as in `examples/logic/`). Clause commands (`solve`,
//! `count`, `simplify`) read DIMACS CNF. `bench` times DPLL against batsat and
//! the SAT notepad against the exact engine.

mod bench;
mod clue;
mod cnf;
mod count;
mod entails;
mod prove;
mod simplify;
mod solve;
mod table;

use crate::input::{describe_io, display};
use crate::Outcome;
use anyhow::{anyhow, bail};
use clap::Subcommand;
use sleuth_logic::{parse, DimacsFile, Notation, ParseError, Problem, Sentence, Symbols};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// The largest sentence or DIMACS file read.
const MAX_FILE_BYTES: u64 = 256 << 20;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

const LOGIC_HELP: &str = "\
Sentences: ¬ ∧ ∨ ⇒ ⇔ or ~ ! & | -> => <-> <=> (also not, and, or, implies, iff),
parentheses, true, false; precedence ¬, ∧, ∨, ⇒, ⇔ (tightest first). Quote them
for the shell: sleuth logic table 'A => B'. A sentence file has one sentence per
line, '#' comments, and '#?' lines holding queries (the default goals).

Exit codes:
  0   success (entails, prove: every goal entailed / proved; solve: unknown)
  1   entails, prove: some goal is not entailed / not proved
  2   usage or input error: bad sentence, bad DIMACS, unreadable file
  10  solve: satisfiable
  20  solve: unsatisfiable";

#[derive(Debug, Subcommand)]
enum Command {
    /// Convert sentences to CNF in the four steps of Neller, Markov and Russell's "Clue
    /// Deduction", or by Tseitin, or to DIMACS.
    #[command(after_help = LOGIC_HELP)]
    Cnf(cnf::Args),
    /// Print the truth table of sentences (or only their models).
    #[command(after_help = LOGIC_HELP)]
    Table(table::Args),
    /// Decide whether a knowledge base entails goals; print a countermodel when not.
    #[command(after_help = LOGIC_HELP)]
    Entails(entails::Args),
    /// Prove goals by resolution refutation and print the numbered proof.
    #[command(after_help = LOGIC_HELP)]
    Prove(prove::Args),
    /// Solve a DIMACS CNF file with DPLL or WalkSAT (SAT-competition output).
    #[command(after_help = LOGIC_HELP)]
    Solve(solve::Args),
    /// Count the models of a DIMACS CNF file (exhaustive DPLL).
    #[command(after_help = LOGIC_HELP)]
    Count(count::Args),
    /// Remove tautologies, duplicates and subsumed clauses from a DIMACS CNF file.
    #[command(after_help = LOGIC_HELP)]
    Simplify(simplify::Args),
    /// Time DPLL against batsat on random 3-SAT, and the SAT notepad against the exact engine.
    Bench(bench::Args),
    /// WalkSAT on Clue: the unary-counter CNF, cardinality constraints (WSAT(PB)) and the basic CNF.
    WalksatClue(clue::WalkArgs),
    /// DPLL notepads of Clue games with and without watched literals (decisions, propagations, clause visits, time).
    DpllClue(clue::DpllArgs),
}

pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    match &args.command {
        Command::Cnf(a) => cnf::run(a, out),
        Command::Table(a) => table::run(a, out),
        Command::Entails(a) => entails::run(a, out),
        Command::Prove(a) => prove::run(a, out),
        Command::Solve(a) => solve::run(a, out),
        Command::Count(a) => count::run(a, out),
        Command::Simplify(a) => simplify::run(a, out),
        Command::Bench(a) => bench::run(a, out),
        Command::WalksatClue(a) => clue::walk(a, out),
        Command::DpllClue(a) => clue::dpll(a, out),
    }
}

/// Sentences from the command line and from sentence files.
#[derive(Debug, clap::Args)]
pub struct SentenceArgs {
    /// Sentences, one per argument, e.g. 'A <=> ~B'.
    #[arg(value_name = "SENTENCE")]
    sentences: Vec<String>,
    /// Read sentences from FILE: one per line, '#' comments, '#?' query lines
    /// ('-' reads standard input). May be repeated.
    #[arg(short = 'f', long = "file", value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Print in ASCII (~ & | => <=>) instead of Unicode (¬ ∧ ∨ ⇒ ⇔).
    #[arg(long)]
    ascii: bool,
}

/// What [`SentenceArgs`] hold once parsed.
pub struct Loaded {
    /// The files' sentences, then the command line's.
    pub sentences: Vec<Sentence>,
    /// The files' `#?` queries, in order.
    pub queries: Vec<Sentence>,
}

impl SentenceArgs {
    pub fn notation(&self) -> Notation {
        if self.ascii {
            Notation::Ascii
        } else {
            Notation::Unicode
        }
    }

    /// Parses every file and argument; errors name the file, line and column.
    pub fn load(&self) -> anyhow::Result<Loaded> {
        let mut loaded = Loaded { sentences: Vec::new(), queries: Vec::new() };
        for path in &self.files {
            let text = read_input(path)?;
            let problem = Problem::parse(&text).map_err(|e| {
                let line = text.lines().nth(e.line - 1).unwrap_or("");
                anyhow!("{} line {}, {}\n{}", display(path), e.line, e.error, caret(line, &e.error))
            })?;
            loaded.sentences.extend(problem.sentences);
            loaded.queries.extend(problem.queries);
        }
        for (i, text) in self.sentences.iter().enumerate() {
            loaded.sentences.push(parse_arg(text, &format!("sentence {}", i + 1))?);
        }
        Ok(loaded)
    }

    /// Like [`SentenceArgs::load`], refusing an empty input.
    pub fn load_nonempty(&self) -> anyhow::Result<Loaded> {
        let loaded = self.load()?;
        if loaded.sentences.is_empty() {
            bail!("no sentences: give them as arguments ('A => B') or in a file (-f FILE)");
        }
        Ok(loaded)
    }
}

/// Parses one sentence given on the command line; `what` names it in errors.
pub fn parse_arg(text: &str, what: &str) -> anyhow::Result<Sentence> {
    parse(text).map_err(|e| anyhow!("{what}, {e}\n{}", caret(text, &e)))
}

/// The offending line, indented, with a caret under the error's column.
fn caret(line: &str, e: &ParseError) -> String {
    let (line, column) = sleuth_logic::parse::excerpt(line.lines().next().unwrap_or(""), e.column);
    format!("  {line}\n  {}^", " ".repeat(column.saturating_sub(1)))
}

/// Reads a text file, or standard input for `-`.
pub fn read_input(path: &Path) -> anyhow::Result<String> {
    let name = display(path);
    let mut bytes = Vec::new();
    let reader: Box<dyn Read> = if path.as_os_str() == "-" {
        Box::new(io::stdin().lock())
    } else {
        if path.is_dir() {
            bail!("cannot read {name}: it is a directory");
        }
        Box::new(std::fs::File::open(path).map_err(|e| anyhow!("cannot read {name}: {}", describe_io(&e)))?)
    };
    reader
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| anyhow!("cannot read {name}: {}", describe_io(&e)))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        bail!("cannot read {name}: it is larger than {} MiB", MAX_FILE_BYTES >> 20);
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        anyhow!("cannot read {name}: it is not UTF-8 text (invalid byte at offset {at})")
    })
}

/// Reads and parses a DIMACS CNF file; errors name the file and line.
pub fn load_dimacs(path: &Path) -> anyhow::Result<DimacsFile> {
    let text = read_input(path)?;
    DimacsFile::parse(&text).map_err(|e| anyhow!("{} {e}", display(path)))
}

/// Names for a DIMACS file's variables from comments `c 1: A`, `c 2: B`, ... (as
/// `sleuth logic cnf --dimacs` writes them), when they name variables 1, 2, ... in
/// order with atom-like names; other variables print as `x7`.
pub fn dimacs_symbols(file: &DimacsFile) -> Symbols {
    let mut symbols = Symbols::new();
    for c in &file.comments {
        let Some((num, name)) = c.split_once(':') else { continue };
        let (num, name) = (num.trim(), name.trim());
        let is_atom = name.chars().next().is_some_and(|ch| ch.is_alphabetic() || ch == '_')
            && name.chars().all(|ch| ch.is_alphanumeric() || ch == '_');
        let next = symbols.len() + 1;
        if num.parse::<usize>().ok() == Some(next)
            && is_atom
            && symbols.get(name).is_none()
            && next <= file.cnf.num_vars() as usize
        {
            symbols.intern(name);
        }
    }
    symbols
}

/// A model over named atoms in the style of `models`: `¬A B ¬C`.
pub fn assignment_to_string(values: &[(String, bool)], notation: Notation) -> String {
    let parts: Vec<String> =
        values.iter().map(|(a, v)| if *v { a.clone() } else { format!("{}{a}", notation.negation()) }).collect();
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn carets_point_at_the_column() {
        let err = parse_arg("A & (B |", "sentence 1").unwrap_err().to_string();
        assert_eq!(err, "sentence 1, column 9: expected a sentence, found end of input\n  A & (B |\n          ^");
    }

    #[test]
    fn dimacs_comments_name_variables() {
        let f = DimacsFile::parse("c 1: A\nc 2: Bob\nc 3: not a name\np cnf 3 1\n1 -2 3 0\n").unwrap();
        let s = dimacs_symbols(&f);
        assert_eq!(s.names(), ["A", "Bob"]);
        assert_eq!(s.clause_to_string(&f.cnf.clauses()[0]), "{A, ¬Bob, x3}");
    }
}
