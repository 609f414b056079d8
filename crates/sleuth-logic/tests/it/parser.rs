//! Parser and printer: round trips, minimal parentheses, every spelling, errors.

use proptest::prelude::*;
use rand::Rng;
use sleuth_logic::{parse, Notation, ParseErrorKind, Problem, Sentence};

use crate::common::{random_sentence, rng};

const ATOMS: &[&str] = &["A", "B", "C", "pi_wh", "x1", "Tom"];

fn sentence_strategy() -> impl Strategy<Value = Sentence> {
    let leaf = prop_oneof![
        1 => Just(Sentence::True),
        1 => Just(Sentence::False),
        8 => proptest::sample::select(ATOMS).prop_map(Sentence::atom),
    ];
    leaf.prop_recursive(6, 48, 4, |inner| {
        prop_oneof![
            inner.clone().prop_map(Sentence::negate),
            proptest::collection::vec(inner.clone(), 2..=4).prop_map(Sentence::And),
            proptest::collection::vec(inner.clone(), 2..=4).prop_map(Sentence::Or),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Sentence::implies(a, b)),
            (inner.clone(), inner).prop_map(|(a, b)| Sentence::iff(a, b)),
        ]
    })
}

/// A fully parenthesised rendering with a random spelling for every connective and
/// random spacing: an independent printer for the parser to read.
fn noisy(s: &Sentence, rng: &mut impl Rng) -> String {
    fn pick<'a>(rng: &mut impl Rng, options: &[&'a str]) -> &'a str {
        options[rng.gen_range(0..options.len())]
    }
    fn sp(rng: &mut impl Rng) -> &'static str {
        pick(rng, &[" ", "  ", "\t", " "])
    }
    fn wrap(s: &Sentence, rng: &mut impl Rng) -> String {
        format!("({})", noisy(s, rng))
    }
    match s {
        Sentence::True => pick(rng, &["true", "⊤"]).to_owned(),
        Sentence::False => pick(rng, &["false", "⊥"]).to_owned(),
        Sentence::Atom(a) => a.clone(),
        Sentence::Not(x) => {
            let op = pick(rng, &["¬", "~", "!", "not "]);
            format!("{op}{}", wrap(x, rng))
        }
        Sentence::And(v) | Sentence::Or(v) => {
            let ops: &[&str] = if matches!(s, Sentence::And(_)) {
                &["∧", "&", "&&", "/\\", "and"]
            } else {
                &["∨", "|", "||", "\\/", "or"]
            };
            let mut out = wrap(&v[0], rng);
            for x in &v[1..] {
                let op = pick(rng, ops);
                let (a, b) = (sp(rng), sp(rng));
                out.push_str(&format!("{a}{op}{b}{}", wrap(x, rng)));
            }
            out
        }
        Sentence::Implies(a, b) => {
            let op = pick(rng, &["⇒", "→", "=>", "->", "implies"]);
            format!("{} {op} {}", wrap(a, rng), wrap(b, rng))
        }
        Sentence::Iff(a, b) => {
            let op = pick(rng, &["⇔", "↔", "<=>", "<->", "iff"]);
            format!("{} {op} {}", wrap(a, rng), wrap(b, rng))
        }
    }
}

/// Every way of deleting one matching pair of parentheses from `text`.
fn without_one_pair(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut stack = Vec::new();
    let mut out = Vec::new();
    for (i, &c) in chars.iter().enumerate() {
        if c == '(' {
            stack.push(i);
        } else if c == ')' {
            let open = stack.pop().expect("balanced");
            let s: String = chars.iter().enumerate().filter(|&(k, _)| k != open && k != i).map(|(_, c)| c).collect();
            out.push(s);
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn print_then_parse_is_identity(s in sentence_strategy()) {
        let unicode = s.to_string();
        prop_assert_eq!(parse(&unicode).unwrap(), s.clone(), "{}", unicode);
        let ascii = s.to_string_with(Notation::Ascii);
        prop_assert_eq!(parse(&ascii).unwrap(), s, "{}", ascii);
    }

    #[test]
    fn printed_parentheses_are_all_needed(s in sentence_strategy()) {
        let text = s.to_string();
        for shorter in without_one_pair(&text) {
            prop_assert!(parse(&shorter).ok() != Some(s.clone()), "{} -> {}", text, shorter);
        }
    }

    #[test]
    fn parser_never_panics(text in "[A-C~!&|()<=>\\- ¬∧∨⇒⇔#$]{0,24}") {
        let _ = parse(&text);
    }

    #[test]
    fn errors_point_inside_the_input(text in "[A-C~&|()<=> ¬∧]{0,16}") {
        if let Err(e) = parse(&text) {
            prop_assert!(e.offset <= text.len());
            prop_assert!(text.is_char_boundary(e.offset));
            prop_assert_eq!(e.column, text[..e.offset].chars().count() + 1);
        }
    }
}

#[test]
fn every_spelling_parses_back() {
    for case in 0..500 {
        let mut r = rng("every_spelling_parses_back", case);
        let s = random_sentence(&mut r, ATOMS, 4);
        let text = noisy(&s, &mut r);
        assert_eq!(parse(&text).unwrap(), s, "{text}");
    }
}

#[test]
fn seed_precedence_examples() {
    let check = |text: &str, printed: &str| {
        let s = parse(text).unwrap();
        assert_eq!(s.to_string(), printed, "{text}");
    };
    check("(A => ~B) & (~B => A)", "(A ⇒ ¬B) ∧ (¬B ⇒ A)");
    check("~A & ~B => C", "¬A ∧ ¬B ⇒ C");
    check("(A & B) | (C & D) | (E & F)", "A ∧ B ∨ C ∧ D ∨ E ∧ F");
    check("~(A & B)", "¬(A ∧ B)");
    check("not not A", "¬¬A");
    check("A -> (B -> C)", "A ⇒ B ⇒ C");
    check("(A -> B) -> C", "(A ⇒ B) ⇒ C");
    check("A <-> (B <-> C)", "A ⇔ (B ⇔ C)");
    check("(A | B) & C", "(A ∨ B) ∧ C");
}

#[test]
fn error_messages() {
    let check = |text: &str, message: &str| {
        let e = parse(text).unwrap_err();
        assert_eq!(e.to_string(), message, "{text}");
    };
    check("A &", "column 4: expected a sentence, found end of input");
    check("(A | B", "column 7: expected `)` to close `(` at column 1, found end of input");
    check("(A | B C)", "column 8: expected `)` to close `(` at column 1, found `C`");
    check("A | B)", "column 6: unmatched `)`");
    check("¬¬¬ ∨ A", "column 5: expected a sentence, found `∨`");
    check("A ⇒ ⇒", "column 5: expected a sentence, found `⇒`");
    check("and", "column 1: expected a sentence, found `and`");
    check("A % B", "column 3: unexpected character `%`");
    let e = parse(&format!("{}A", "~".repeat(600))).unwrap_err();
    assert_eq!(e.kind, ParseErrorKind::TooDeep);
}

#[test]
fn sentence_files() {
    let text = "# comment\nA <=> ~B\n\n  B | C   # trailing\n#? ~A\n";
    let p = Problem::parse(text).unwrap();
    assert_eq!(p.sentences.len(), 2);
    assert_eq!(p.queries, vec![parse("~A").unwrap()]);
    let e = Problem::parse("A\nB &\n").unwrap_err();
    assert_eq!(e.to_string(), "line 2, column 4: expected a sentence, found end of input");
}
