//! A seeded, structured mutation fuzzer over the repository's own inputs:
//! the game files of `testdata/`, the sentence files of `examples/logic/`
//! and DIMACS written from the game files. Each case mutates one input a few
//! times (a value replaced by another type, a key misspelt or dropped, an
//! event repeated hundreds of times, an id 70,000 characters long or holding
//! ESC, BEL, NUL, U+202E or U+200B, or spelt with a combining accent, a BOM,
//! a cut...) and then checks what must hold for any input at all:
//!
//! - nothing panics, and no case takes longer than [`CASE_LIMIT`] (a hang
//!   detector, not a speed claim: speed is measured in BENCHMARKS.md);
//! - every message and every output is bounded in size and holds no raw
//!   control or bidi character, and no message speaks Rust
//!   ([`RUST_WORDS`]) instead of the game format;
//! - every id of a game read is in Unicode NFC and free of invisible and
//!   control characters;
//! - every answer is an answer: each in-play card's probabilities sum to 1,
//!   and on small decks the counts equal the brute-force enumeration of
//!   `sleuth_core::brute`; DIMACS model counts equal a brute-force count.
//!
//! The data `sleuth serve` stores goes through it too: its stored records
//! (a record read back is the record written) and journals of the layout
//! before its database (a damaged game is imported or reported, never lost
//! from sight).
//!
//! Part of the cases also go through the `sleuth` binary (`check`,
//! `notepad`, `analyze --json`, `logic table`, `logic cnf`, `logic count`).
//!
//! The Speed Clue wire (the client's framer and reader, the referee's reader
//! of replies) is fuzzed alike in [`fuzz_wire`](crate::fuzz_wire).
//!
//! `cargo test` runs [`DEFAULT_CASES`] cases per input kind in seconds. Run it
//! longer with `SLEUTH_FUZZ_CASES=5000` (and another `SLEUTH_FUZZ_SEED`):
//! `SLEUTH_FUZZ_CASES=5000 SLEUTH_FUZZ_SEED=7 cargo test -p sleuth-cli --test it fuzz -- --nocapture`.
//! A failure prints the seed, the case and the (shrunk) input.

use crate::support::Scratch;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use serde_json::Value;
use sleuth_core::text::is_unsafe_char;
use sleuth_core::{Analysis, Game, GameFile, Place};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Cases per input kind in a plain `cargo test`.
const DEFAULT_CASES: u32 = 64;

/// The longest any one case may take (library calls plus binary runs).
pub(crate) const CASE_LIMIT: Duration = Duration::from_secs(10);

/// The largest standard error any run may write (the judge's bound).
const MAX_STDERR: usize = 64 << 10;

/// Words that name Rust types or serde internals rather than the format.
const RUST_WORDS: &[&str] = &[
    "SuggestionSpec",
    "AccusationSpec",
    "EventSpec",
    "DeckSpec",
    "CardSpec",
    "CategorySpec",
    "GameFile",
    "unit variant",
    "newtype",
    "struct ",
    "untagged enum",
    "i64",
    "u32",
    "u64",
    "usize",
    "a sequence",
    "a map",
    "Formatting argument",
    "panicked",
];

fn cases() -> u32 {
    std::env::var("SLEUTH_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(DEFAULT_CASES)
}

pub(crate) fn runner(kind: u8) -> TestRunner {
    let seed: u64 = std::env::var("SLEUTH_FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(19);
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8] = kind;
    let config = Config {
        cases: cases(),
        failure_persistence: None,
        max_shrink_iters: 64,
        max_shrink_time: 60_000,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
}

pub(crate) fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn game_corpus() -> Vec<String> {
    let mut out = Vec::new();
    for dir in ["testdata", "testdata/corpus"] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(repo().join(dir))
            .expect("testdata exists")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        paths.sort();
        out.extend(paths.iter().map(|p| std::fs::read_to_string(p).expect("corpus file")));
    }
    assert!(out.len() >= 10, "the corpus is there");
    out
}

/// A string an adversary would try as an id, a name or a sentence atom.
fn hostile_string() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("mu".to_string()),
        Just("case_file".to_string()),
        Just("a\u{1b}[31mred".to_string()),
        Just("bell\u{7}".to_string()),
        Just("nul\0".to_string()),
        Just("\u{202e}reversed".to_string()),
        Just("\u{2066}iso\u{2069}".to_string()),
        Just("del\u{7f}\u{85}".to_string()),
        Just("mu\u{200b}".to_string()),
        Just("cafe\u{301}".to_string()),
        Just("caf\u{e9}".to_string()),
        Just("Colonel Mustard".to_string()),
        (1usize..80_000).prop_map(|n| "x".repeat(n)),
        "[a-z]{1,3}",
        any::<String>(),
    ]
}

/// One structured change to a JSON document; `at` picks a node in preorder.
#[derive(Clone, Debug)]
enum Edit {
    /// Replace a node with a value of another type.
    Replace { at: usize, with: u8, text: String, number: i64 },
    /// Repeat an element of a list (an event, a card, a player).
    Repeat { at: usize, times: usize },
    /// Drop an object key or a list element.
    Drop { at: usize },
    /// Misspell or recase an object key.
    Rename { at: usize, how: u8 },
    /// Add a key, known or not.
    AddKey { at: usize, key: String },
    /// Swap two elements of a list.
    Swap { at: usize, i: usize, j: usize },
}

fn edit() -> impl Strategy<Value = Edit> {
    let at = 0usize..4096;
    prop_oneof![
        (at.clone(), 0u8..10, hostile_string(), any::<i64>()).prop_map(|(at, with, text, number)| Edit::Replace {
            at,
            with,
            text,
            number
        }),
        (at.clone(), prop_oneof![1usize..4, 100usize..300, Just(20_000usize)])
            .prop_map(|(at, times)| Edit::Repeat { at, times }),
        at.clone().prop_map(|at| Edit::Drop { at }),
        (at.clone(), 0u8..4).prop_map(|(at, how)| Edit::Rename { at, how }),
        (at.clone(), prop_oneof![Just("shwon".to_string()), Just("refuted".to_string()), "[a-z_]{1,12}"])
            .prop_map(|(at, key)| Edit::AddKey { at, key }),
        (at, 0usize..64, 0usize..64).prop_map(|(at, i, j)| Edit::Swap { at, i, j }),
    ]
}

/// How the text of a mutated document is finally written.
#[derive(Clone, Debug)]
enum Finish {
    Plain,
    Bom,
    Cut(usize),
    Insert(usize, char),
}

fn finish() -> impl Strategy<Value = Finish> {
    prop_oneof![
        6 => Just(Finish::Plain),
        1 => Just(Finish::Bom),
        1 => (0usize..4096).prop_map(Finish::Cut),
        1 => (0usize..4096, prop_oneof![Just('\u{1b}'), Just('\0'), Just('['), Just('{'), Just('"'), Just(',')])
            .prop_map(|(i, c)| Finish::Insert(i, c)),
    ]
}

/// Counts the nodes of a document in preorder.
fn count_nodes(v: &Value) -> usize {
    1 + match v {
        Value::Array(a) => a.iter().map(count_nodes).sum(),
        Value::Object(o) => o.values().map(count_nodes).sum(),
        _ => 0,
    }
}

/// The node with preorder index `i`.
fn node_mut(v: &mut Value, i: usize) -> Option<&mut Value> {
    if i == 0 {
        return Some(v);
    }
    let mut i = i - 1;
    let children: Vec<&mut Value> = match v {
        Value::Array(a) => a.iter_mut().collect(),
        Value::Object(o) => o.values_mut().collect(),
        _ => return None,
    };
    for c in children {
        let n = count_nodes(c);
        if i < n {
            return node_mut(c, i);
        }
        i -= n;
    }
    None
}

fn apply(doc: &mut Value, e: &Edit) {
    let n = count_nodes(doc);
    let pick = |at: usize| at % n;
    match e {
        Edit::Replace { at, with, text, number } => {
            if let Some(node) = node_mut(doc, pick(*at)) {
                *node = match with {
                    0 => Value::Null,
                    1 => Value::Bool(true),
                    2 => Value::from(*number),
                    3 => serde_json::json!(1e300),
                    4 => Value::String(text.clone()),
                    5 => serde_json::json!([]),
                    6 => serde_json::json!({}),
                    7 => serde_json::json!([[]]),
                    8 => serde_json::json!({"suggestion": null}),
                    _ => Value::from(-1),
                };
            }
        }
        Edit::Repeat { at, times } => {
            if let Some(Value::Array(a)) = node_mut(doc, pick(*at)) {
                if let Some(first) = a.first().cloned() {
                    a.extend(std::iter::repeat_n(first, *times));
                }
            }
        }
        Edit::Drop { at } => match node_mut(doc, pick(*at)) {
            Some(Value::Array(a)) if !a.is_empty() => {
                a.remove(at % a.len());
            }
            Some(Value::Object(o)) if !o.is_empty() => {
                let key = o.keys().nth(at % o.len()).cloned().unwrap_or_default();
                o.remove(&key);
            }
            _ => {}
        },
        Edit::Rename { at, how } => {
            if let Some(Value::Object(o)) = node_mut(doc, pick(*at)) {
                if let Some(key) = o.keys().nth(at % o.len().max(1)).cloned() {
                    let value = o.remove(&key).unwrap_or(Value::Null);
                    let new = match how {
                        0 => key.to_uppercase(),
                        1 => key.replace('_', "-"),
                        2 => format!("{key}s"),
                        _ => key.chars().rev().collect(),
                    };
                    o.insert(new, value);
                }
            }
        }
        Edit::AddKey { at, key } => {
            if let Some(Value::Object(o)) = node_mut(doc, pick(*at)) {
                o.insert(key.clone(), Value::Bool(false));
            }
        }
        Edit::Swap { at, i, j } => {
            if let Some(Value::Array(a)) = node_mut(doc, pick(*at)) {
                if !a.is_empty() {
                    let (i, j) = (i % a.len(), j % a.len());
                    a.swap(i, j);
                }
            }
        }
    }
}

fn write_text(doc: &Value, f: &Finish) -> String {
    let text = serde_json::to_string(doc).expect("serialises");
    let at = |i: usize| {
        let mut i = i % (text.len() + 1);
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    match f {
        Finish::Plain => text,
        Finish::Bom => format!("\u{feff}{text}"),
        Finish::Cut(i) => text[..at(*i)].to_string(),
        Finish::Insert(i, c) => {
            let i = at(*i);
            format!("{}{c}{}", &text[..i], &text[i..])
        }
    }
}

/// A message a person will read: bounded, printable, in the format's terms.
pub(crate) fn check_message(what: &str, message: &str) -> Result<(), TestCaseError> {
    prop_assert!(message.len() < MAX_STDERR, "{what}: message of {} bytes", message.len());
    if let Some(c) = message.chars().find(|&c| c != '\n' && is_unsafe_char(c)) {
        return Err(TestCaseError::fail(format!("{what}: raw U+{:04X} in message: {message:?}", c as u32)));
    }
    for word in RUST_WORDS {
        prop_assert!(!message.contains(word), "{what}: '{word}' in message: {message}");
    }
    Ok(())
}

/// Output written to a terminal: bounded and printable (colour is off when
/// stdout is not a terminal, so even ESC must not appear).
fn check_output(what: &str, out: &str, limit: usize) -> Result<(), TestCaseError> {
    prop_assert!(out.len() < limit, "{what}: {} bytes of output", out.len());
    if let Some(c) = out.chars().find(|&c| c != '\n' && is_unsafe_char(c)) {
        return Err(TestCaseError::fail(format!("{what}: raw U+{:04X} in output", c as u32)));
    }
    Ok(())
}

/// The number of deals the brute force would enumerate, if small.
fn small_enough_for_brute(game: &Game) -> bool {
    let deck = game.deck();
    let mut deals: f64 = deck.categories().map(|k| deck.category_cards(k).len() as f64).product();
    let mut left = (deck.len() - deck.num_categories()) as f64;
    for p in game.players() {
        let h = game.hand_size(p) as f64;
        deals *= (0..game.hand_size(p)).map(|i| (left - i as f64) / (h - i as f64)).product::<f64>();
        left -= h;
    }
    deals < 300_000.0
}

/// The invariants of an answer, and the brute-force count on small decks.
fn check_answer(game: &Game, label: &str) -> Result<(), TestCaseError> {
    let analysis = match Analysis::new(game) {
        Ok(a) => a,
        Err(e) => return check_message(label, &e.to_string()),
    };
    let total = analysis.consistent_deals();
    for card in game.deck().cards() {
        let sum: f64 = game.places().map(|p| analysis.probability(card, p)).sum();
        let want = if total == 0 || game.face_up().contains(card) { 0.0 } else { 1.0 };
        prop_assert!((sum - want).abs() < 1e-9, "{label}: probabilities of a card sum to {sum}");
    }
    if total == 0 {
        prop_assert!(analysis.conflict().is_some(), "{label}: an inconsistent game explains its conflict");
    }
    if small_enough_for_brute(game) {
        let brute = sleuth_core::brute::enumerate(game);
        prop_assert_eq!(brute.total, total, "{}: total against brute force", label);
        for card in game.deck().cards() {
            for place in game.places() {
                let i = place.index(game.num_players());
                let want = brute.marginal.get(card.index()).map_or(0, |row| row[i]);
                prop_assert_eq!(analysis.count(card, place), want, "{}: marginal against brute force", label);
            }
        }
    }
    let _ = Place::CaseFile;
    Ok(())
}

/// Runs the binary with a time limit; a run past it is killed and fails.
pub(crate) fn run_bounded(dir: &Path, args: &[&str]) -> Result<(i32, String, String), TestCaseError> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sleuth"))
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the sleuth binary runs");
    // Both pipes are drained while the child runs: a child blocked on a
    // full pipe would otherwise look like a hang.
    let drain = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let out_reader = drain(child.stdout.take().map(|p| Box::new(p) as Box<dyn std::io::Read + Send>));
    let err_reader = drain(child.stderr.take().map(|p| Box::new(p) as Box<dyn std::io::Read + Send>));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > CASE_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(TestCaseError::fail(format!("sleuth {args:?} ran past {CASE_LIMIT:?}")));
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let code = status.code().unwrap_or(-1);
    let stdout = String::from_utf8_lossy(&out_reader.join().expect("stdout reader")).into_owned();
    let stderr = String::from_utf8_lossy(&err_reader.join().expect("stderr reader")).into_owned();
    prop_assert!(code != 101 && code != -1, "sleuth {args:?} panicked or was killed:\n{stderr}");
    prop_assert!(stderr.len() < MAX_STDERR, "sleuth {args:?}: {} bytes on stderr", stderr.len());
    check_message(&format!("sleuth {args:?} stderr"), &stderr)?;
    Ok((code, stdout, stderr))
}

/// An id as a game holds it: in NFC, without invisible or control characters.
fn is_plain_id(id: &str) -> bool {
    sleuth_core::text::nfc(id) == id && !id.chars().any(is_unsafe_char)
}

fn game_case(text: &str, binary: bool) -> Result<(), TestCaseError> {
    let start = Instant::now();
    match GameFile::from_json(text) {
        Err(e) => check_message("format error", &e.to_string())?,
        Ok(file) => match Game::new(&file) {
            Ok(game)
                if game.players().any(|p| !is_plain_id(game.player_id(p)))
                    || game.deck().cards().any(|c| !is_plain_id(game.deck().id(c))) =>
            {
                return Err(TestCaseError::fail("an id not in NFC or holding an invisible character"));
            }
            Err(e) => {
                let message = e.to_string();
                check_message("game error", &message)?;
                prop_assert!(message.lines().count() <= sleuth_core::model::LISTED_PROBLEMS + 2, "a screenful at most");
            }
            Ok(game) => check_answer(&game, "analysis")?,
        },
    }
    if binary {
        let scratch = Scratch::new();
        scratch.write("game.json", text);
        for args in
            [&["check", "game.json"][..], &["notepad", "--no-color", "game.json"], &["analyze", "--json", "game.json"]]
        {
            let (_, stdout, _) = run_bounded(scratch.path(), args)?;
            let limit = if args[0] == "analyze" { 8 << 20 } else { 256 << 10 };
            check_output(&format!("sleuth {args:?}"), &stdout, limit)?;
        }
    }
    prop_assert!(start.elapsed() < CASE_LIMIT, "the case took {:?}", start.elapsed());
    Ok(())
}

#[test]
fn fuzz_game_files() {
    let corpus = game_corpus();
    let docs: Vec<Value> = corpus.iter().map(|t| serde_json::from_str(t).expect("corpus is JSON")).collect();
    let strategy = (0..docs.len(), prop::collection::vec(edit(), 1..4), finish(), 0u8..8);
    let mut runner = runner(1);
    let result = runner.run(&strategy, |(i, edits, fin, bin)| {
        let mut doc = docs[i].clone();
        for e in &edits {
            apply(&mut doc, e);
        }
        game_case(&write_text(&doc, &fin), bin == 0)
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// The issue's own cases, always run: each must be refused or answered
/// quickly, plainly and without panic.
#[test]
fn fuzz_issue_19_cases() {
    let classic = |players: &str, extra: &str| {
        format!(r#"{{"version": 1, "deck": "classic", "players": {players}{extra}, "events": []}}"#)
    };
    let long = "x".repeat(70_000);
    let ids = (0..100_000).map(|i| format!("\"p{i}\"")).collect::<Vec<_>>().join(",");
    let accusation = r#"{"accusation": {"by": "a", "cards": ["mu", "kn", "ha"], "correct": false}}"#;
    let cases = [
        classic(&format!(r#"["{long}", "b", "c"]"#), ""),
        classic(&format!("[{ids}]"), ""),
        classic(r#"["a", "b", "c"]"#, &format!(r#", "face_up": [{}]"#, vec!["\"mu\""; 100_000].join(","))),
        classic(r#"["a\u001b[31m", "b\u0007", "c\u202e"]"#, ""),
        format!(
            r#"{{"version": 1, "deck": "classic", "players": ["a", "b", "c"], "events": [{}]}}"#,
            vec![accusation; 117].join(",")
        ),
        r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c"], "events": [[]]}"#.to_string(),
        r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c"], "events": [{"suggestion": null}]}"#
            .to_string(),
        "\u{feff}{\"version\": 1, \"deck\": \"classic\", \"players\": [\"a\", \"b\", \"c\"]}".to_string(),
    ];
    for text in &cases {
        if let Err(e) = game_case(text, true) {
            panic!("{e}\ninput starts: {}", &text[..text.len().min(200)]);
        }
    }
}

fn sentence_corpus() -> Vec<String> {
    let mut out = Vec::new();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(repo().join("examples/logic"))
        .expect("examples exist")
        .map(|e| e.expect("entry").path())
        .collect();
    paths.sort();
    for p in paths {
        let text = std::fs::read_to_string(&p).expect("sentence file");
        out.extend(text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).map(str::to_string));
    }
    assert!(!out.is_empty());
    out
}

/// One structured change to a sentence.
#[derive(Clone, Debug)]
enum SentenceEdit {
    /// `s <=> s <=> ...` over renamed copies: exponential in step 1.
    IffChain(usize),
    /// A disjunction of many distinct atoms.
    ManyAtoms(usize),
    /// Insert text at a position.
    Insert(usize, String),
    /// Nest in parentheses and negations.
    Nest(usize),
    /// Cut the sentence.
    Cut(usize),
}

fn sentence_edit() -> impl Strategy<Value = SentenceEdit> {
    prop_oneof![
        (2usize..30).prop_map(SentenceEdit::IffChain),
        prop_oneof![1usize..30, Just(50_000usize)].prop_map(SentenceEdit::ManyAtoms),
        (
            0usize..200,
            prop_oneof![
                hostile_string(),
                Just(" & ".to_string()),
                Just("(".to_string()),
                Just("~".to_string()),
                Just(" <=> ".to_string())
            ]
        )
            .prop_map(|(i, s)| SentenceEdit::Insert(i, s)),
        (1usize..700).prop_map(SentenceEdit::Nest),
        (0usize..200).prop_map(SentenceEdit::Cut),
    ]
}

fn apply_sentence(s: &str, e: &SentenceEdit) -> String {
    let at = |i: usize| {
        let mut i = i % (s.len() + 1);
        while !s.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    match e {
        SentenceEdit::IffChain(n) => (0..*n).map(|i| format!("Z{i}")).collect::<Vec<_>>().join(" <=> "),
        SentenceEdit::ManyAtoms(n) => {
            format!("{s} | {}", (0..*n).map(|i| format!("A{i}")).collect::<Vec<_>>().join(" | "))
        }
        SentenceEdit::Insert(i, t) => format!("{}{t}{}", &s[..at(*i)], &s[at(*i)..]),
        SentenceEdit::Nest(n) => format!("{}{s}{}", "~(".repeat(*n), ")".repeat(*n)),
        SentenceEdit::Cut(i) => s[..at(*i)].to_string(),
    }
}

fn sentence_case(text: &str, binary: bool) -> Result<(), TestCaseError> {
    let start = Instant::now();
    match sleuth_logic::parse(text) {
        Err(e) => check_message("parse error", &e.to_string())?,
        Ok(s) => {
            let sentences = [s];
            match sleuth_logic::TruthTable::new(&sentences) {
                // Tables up to the documented 20 atoms print a million rows;
                // rendering is checked on the smaller ones.
                Ok(t) if t.rows() <= 1 << 14 => {
                    check_output("truth table", &t.render(sleuth_logic::Notation::Ascii), usize::MAX)?
                }
                Ok(_) => {}
                Err(e) => check_message("table refusal", &e.to_string())?,
            }
            match sleuth_logic::CnfSteps::new(&sentences) {
                Ok(steps) => {
                    // The four steps agree with the truth table where both run.
                    let cnf = steps.cnf();
                    if cnf.num_vars() <= 16 {
                        if let Ok(n) = sleuth_logic::count_sentence_models(&sentences) {
                            let counted = sleuth_logic::brute_force_count(cnf).expect("few variables");
                            prop_assert_eq!(counted, n, "CNF has the sentence's models");
                        }
                    }
                }
                Err(e) => check_message("cnf refusal", &e.to_string())?,
            }
            let _ = sleuth_logic::tseitin(&sentences, &mut sleuth_logic::Symbols::new());
        }
    }
    if binary {
        let scratch = Scratch::new();
        scratch.write("kb.txt", &format!("{text}\n"));
        for cmd in ["table", "cnf"] {
            let (_, stdout, _) = run_bounded(scratch.path(), &["logic", cmd, "--ascii", "-f", "kb.txt"])?;
            let _ = stdout.len();
        }
    }
    prop_assert!(start.elapsed() < CASE_LIMIT, "the case took {:?}", start.elapsed());
    Ok(())
}

#[test]
fn fuzz_sentences() {
    let corpus = sentence_corpus();
    let strategy = (0..corpus.len(), prop::collection::vec(sentence_edit(), 1..3), 0u8..8);
    let mut runner = runner(2);
    let result = runner.run(&strategy, |(i, edits, bin)| {
        let mut s = corpus[i].clone();
        for e in &edits {
            s = apply_sentence(&s, e);
        }
        sentence_case(&s, bin == 0)
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// DIMACS of the corpus's small games, as `sleuth constraints --dimacs`
/// would write it, plus a tiny hand-written file.
fn dimacs_corpus() -> Vec<String> {
    let mut out = vec!["c tiny\np cnf 3 2\n1 -2 0\n2 3 0\n".to_string()];
    for text in game_corpus() {
        let game = Game::from_json(&text).expect("corpus games are valid");
        if game.deck().len() <= 12 {
            out.push(sleuth_core::knowledge::to_dimacs(&game, &sleuth_core::Knowledge::new(&game)));
        }
    }
    out
}

fn dimacs_case(text: &str, binary: bool) -> Result<(), TestCaseError> {
    let start = Instant::now();
    match sleuth_logic::parse_dimacs(text) {
        Err(e) => check_message("dimacs error", &e.to_string())?,
        Ok(cnf) if cnf.num_vars() <= 16 => {
            let brute = sleuth_logic::brute_force_count(&cnf).expect("few variables");
            let dpll = sleuth_logic::count_models(&cnf).expect("small counts fit");
            prop_assert_eq!(u128::from(brute), dpll, "DPLL counts what brute force counts");
        }
        Ok(_) => {}
    }
    if binary {
        let scratch = Scratch::new();
        scratch.write("f.cnf", text);
        run_bounded(scratch.path(), &["logic", "simplify", "f.cnf"])?;
    }
    prop_assert!(start.elapsed() < CASE_LIMIT, "the case took {:?}", start.elapsed());
    Ok(())
}

/// One change to a DIMACS text, line by line.
#[derive(Clone, Debug)]
enum DimacsEdit {
    Header(String),
    Line(usize, String),
    DropLine(usize),
    RepeatLine(usize, usize),
}

fn dimacs_edit() -> impl Strategy<Value = DimacsEdit> {
    let junk = prop_oneof![
        Just("p cnf 4000000000 1".to_string()),
        Just("p cnf 3 -1".to_string()),
        Just("p cnf 2 1 extra".to_string()),
        Just("1 2 3".to_string()),
        Just("99999999999999999999 0".to_string()),
        Just("-0 0".to_string()),
        Just("%\n0".to_string()),
        Just("c \u{1b}[2J".to_string()),
        hostile_string(),
    ];
    prop_oneof![
        junk.clone().prop_map(DimacsEdit::Header),
        (0usize..500, junk).prop_map(|(i, s)| DimacsEdit::Line(i, s)),
        (0usize..500).prop_map(DimacsEdit::DropLine),
        (0usize..500, prop_oneof![1usize..5, Just(5_000usize)]).prop_map(|(i, n)| DimacsEdit::RepeatLine(i, n)),
    ]
}

fn apply_dimacs(text: &str, e: &DimacsEdit) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let n = lines.len().max(1);
    match e {
        DimacsEdit::Header(h) => {
            if let Some(l) = lines.iter_mut().find(|l| l.starts_with("p ")) {
                *l = h.clone();
            }
        }
        DimacsEdit::Line(i, s) => lines.insert(i % (lines.len() + 1), s.clone()),
        DimacsEdit::DropLine(i) => {
            if !lines.is_empty() {
                lines.remove(i % n);
            }
        }
        DimacsEdit::RepeatLine(i, k) => {
            if let Some(l) = lines.get(i % n).cloned() {
                lines.extend(std::iter::repeat_n(l, *k));
            }
        }
    }
    lines.join("\n") + "\n"
}

#[test]
fn fuzz_dimacs() {
    let corpus = dimacs_corpus();
    let strategy = (0..corpus.len(), prop::collection::vec(dimacs_edit(), 1..4), 0u8..8);
    let mut runner = runner(3);
    let result = runner.run(&strategy, |(i, edits, bin)| {
        let mut text = corpus[i].clone();
        for e in &edits {
            text = apply_dimacs(&text, e);
        }
        dimacs_case(&text, bin == 0)
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// The records `sleuth serve` stores, one of each kind.
fn record_corpus() -> Vec<Value> {
    use sleuth_web::store::{Record, TurnId};
    let sample = GameFile::from_json(&std::fs::read_to_string(repo().join("testdata/seed-sat-sample.json")).unwrap())
        .expect("the sample game");
    let event = sample.events[0].clone();
    [
        Record::Base { file: Box::new(sample), name: "Friday".into() },
        Record::Add { index: 0, turn: TurnId(3), event: event.clone() },
        Record::Edit { turn: TurnId(3), event },
        Record::Delete { turn: TurnId(2) },
        Record::Undo,
        Record::Redo,
        Record::Rename { name: "Saturday".into() },
    ]
    .iter()
    .map(|r| serde_json::from_str(&r.to_json()).expect("a record is JSON"))
    .collect()
}

#[test]
fn fuzz_stored_records() {
    use sleuth_web::store::Record;
    let docs = record_corpus();
    let strategy = (0..docs.len(), prop::collection::vec(edit(), 1..4), finish());
    let result = runner(4).run(&strategy, |(i, edits, fin)| {
        let mut doc = docs[i].clone();
        for e in &edits {
            apply(&mut doc, e);
        }
        let text = write_text(&doc, &fin);
        let start = Instant::now();
        match Record::from_json(&text) {
            Ok(r) => prop_assert_eq!(Record::from_json(&r.to_json()), Ok(r), "a record read back is the record"),
            Err(e) => check_message("stored record", &e)?,
        }
        prop_assert!(start.elapsed() < CASE_LIMIT);
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// A journal of the old layout (`sleuth serve` before its database), its
/// lines mutated: importing it never panics or hangs, and the game is
/// either listed or reported by id.
#[test]
fn fuzz_old_journals() {
    let dir = repo().join("crates/sleuth-web/tests/data/journal-folder/games");
    let id = "game-f50dbb526453";
    let journal = std::fs::read_to_string(dir.join(format!("{id}.journal"))).unwrap();
    let file = std::fs::read_to_string(dir.join(format!("{id}.json"))).unwrap();
    let lines: Vec<Value> = journal.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let strategy = (0..lines.len(), prop::collection::vec(edit(), 1..3), finish(), any::<bool>());
    let result = runner(5).run(&strategy, |(n, edits, fin, with_file)| {
        let mut line = lines[n].clone();
        for e in &edits {
            apply(&mut line, e);
        }
        let mut text = String::new();
        for (i, l) in lines.iter().enumerate() {
            text.push_str(&if i == n { write_text(&line, &fin) } else { l.to_string() });
            text.push('\n');
        }
        let data = tempfile::tempdir().unwrap();
        let games = data.path().join("games");
        std::fs::create_dir(&games).unwrap();
        std::fs::write(games.join(format!("{id}.journal")), &text).unwrap();
        if with_file {
            std::fs::write(games.join(format!("{id}.json")), &file).unwrap();
        }
        let start = Instant::now();
        let store = match sleuth_web::store::Store::open(data.path()) {
            Ok(s) => s,
            Err(e) => return Err(TestCaseError::fail(format!("the store did not open: {e}"))),
        };
        let report = store.report();
        for p in report.problems.iter().chain(&report.notes) {
            check_message("import report", p)?;
        }
        let listed = store.list().map_err(|e| TestCaseError::fail(e.to_string()))?.iter().any(|g| g.id == id);
        let said = report.problems.iter().chain(&report.notes).any(|p| p.contains(id));
        prop_assert!(listed || said, "game {} neither listed nor reported", id);
        prop_assert!(start.elapsed() < CASE_LIMIT, "the import took {:?}", start.elapsed());
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}
