//! The committed corpus (`testdata/corpus/*.json` at the workspace root)
//! against its expectations (`testdata/corpus/expected.toml`): the number of
//! consistent deals, selected exact probabilities, the most likely case
//! file, and for inconsistent histories the conflict set.
//!
//! The games come from `sleuth_core::generate` at fixed seeds. To rewrite
//! them and their expectations run
//!
//! ```text
//! UPDATE_CORPUS=1 cargo test -p sleuth-core --test it corpus
//! ```
//!
//! Each entry's `oracle` says where its numbers come from:
//! * `brute`: `sleuth_core::brute::enumerate` over every deal (small custom
//!   decks); re-checked against the enumeration on every run;
//! * `enumerator`: the pruned enumerator of `support.rs` (an independent
//!   search that finished within its node budget);
//! * `engine`: the exact counter when the file was written (regression only).
//!
//! Every consistent corpus game is also cross-checked with the SAT solver.

use crate::support::{analyse, assert_matches, enumerate_pruned, rng};
use rand::seq::SliceRandom;
use sleuth_core::brute::{enumerate, BruteCounts};
use sleuth_core::generate::{generate, DeckChoice, GenConfig};
use sleuth_core::{Analysis, Card, Game, Place, Status};
use std::fmt::Write as _;
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/corpus")
}

/// How to generate one corpus game.
struct Recipe {
    name: &'static str,
    cfg: GenConfig,
    seed: u64,
    /// Search seeds from `seed` on until the game is inconsistent.
    inconsistent: bool,
}

fn cfg(deck: DeckChoice, players: usize, observer: bool, suggestions: usize) -> GenConfig {
    GenConfig::new(deck, players, observer, suggestions)
}

fn recipes() -> Vec<Recipe> {
    use DeckChoice::{Classic, Custom, Master};
    let with = |mut c: GenConfig, face_up: usize, accusations: f64, explicit: bool| {
        c.face_up = face_up;
        c.accusation_rate = accusations;
        c.explicit_hand_sizes = explicit;
        c
    };
    let corrupt = |mut c: GenConfig| {
        c.corrupt = true;
        c
    };
    let r = |name, cfg, seed| Recipe { name, cfg, seed, inconsistent: false };
    vec![
        r("classic-observer-4p-early", cfg(Classic, 4, true, 4), 1),
        r("classic-observer-6p-mid", with(cfg(Classic, 6, true, 18), 0, 0.05, false), 2),
        r("classic-observer-3p-late", cfg(Classic, 3, true, 40), 3),
        r("classic-bystander-4p-early", with(cfg(Classic, 4, false, 5), 2, 0.0, true), 4),
        r("classic-bystander-5p-mid", with(cfg(Classic, 5, false, 20), 3, 0.05, false), 5),
        r("classic-bystander-6p-late", with(cfg(Classic, 6, false, 60), 0, 0.05, false), 6),
        r("master-6p-observer", with(cfg(Master, 6, true, 30), 3, 0.05, false), 7),
        r("master-10p-observer", with(cfg(Master, 10, true, 40), 7, 0.0, false), 8),
        r("master-8p-bystander", cfg(Master, 8, false, 12), 9),
        r("custom-3x3x4-faceup-accusations", with(cfg(Custom(vec![3, 3, 4]), 3, true, 4), 1, 0.4, false), 10),
        r("custom-4x4x4-bystander", with(cfg(Custom(vec![4, 4, 4]), 4, false, 8), 1, 0.2, false), 11),
        r("custom-2x3x4-2p-faceup", with(cfg(Custom(vec![2, 3, 4]), 2, false, 5), 2, 0.3, true), 12),
        Recipe {
            name: "classic-observer-inconsistent",
            cfg: corrupt(with(cfg(Classic, 4, true, 15), 0, 0.05, false)),
            seed: 13,
            inconsistent: true,
        },
        Recipe {
            name: "custom-3x3x3-inconsistent",
            cfg: corrupt(with(cfg(Custom(vec![3, 3, 3]), 3, true, 8), 0, 0.2, false)),
            seed: 14,
            inconsistent: true,
        },
    ]
}

/// What the expectations file says about one game.
#[derive(Debug, Default, PartialEq)]
struct Expected {
    name: String,
    oracle: String,
    models: u128,
    /// `(card id, place id, count)`; the denominator is `models`.
    probabilities: Vec<(String, String, u128)>,
    /// The most likely case file (first in the engine's order) and its count.
    case_file: Option<(Vec<String>, u128)>,
    conflict: Option<Vec<usize>>,
}

/// The expectations of a game from an analysis (and its oracle).
fn expectations(name: &str, game: &Game, a: &Analysis, oracle: &str) -> Expected {
    let deck = game.deck();
    let mut picks: Vec<(Card, Place)> = Vec::new();
    if a.is_consistent() {
        // The top case-file candidate of each category, then a few open
        // facts about players chosen at random (seeded by the name).
        for cat in deck.categories() {
            let best = deck
                .category_cards(cat)
                .iter()
                .max_by_key(|&c| (a.count(c, Place::CaseFile), u8::MAX - c.index() as u8));
            picks.extend(best.map(|c| (c, Place::CaseFile)));
        }
        let mut open: Vec<(Card, Place)> = deck
            .cards()
            .flat_map(|c| game.players().map(move |p| (c, Place::Player(p))))
            .filter(|&(c, p)| a.status(c, p) == Status::Maybe)
            .collect();
        open.shuffle(&mut rng(name, 0));
        picks.extend(open.into_iter().take(5));
    }
    Expected {
        name: name.to_string(),
        oracle: oracle.to_string(),
        models: a.consistent_deals(),
        probabilities: picks
            .into_iter()
            .map(|(c, p)| (deck.id(c).to_string(), game.place_id(p).to_string(), a.count(c, p)))
            .collect(),
        case_file: a.case_files().next().map(|(cards, n)| (cards.iter().map(|&c| deck.id(c).to_string()).collect(), n)),
        conflict: a.conflict().map(|e| {
            let mut v = e.events.clone();
            if e.hand {
                v.push(game.events().len());
            }
            v
        }),
    }
}

const HEADER: &str = "\
# Expected results for the corpus games in this directory (regression
# tests of sleuth-core; see crates/sleuth-core/tests/it/corpus.rs).
#
# models: the number of consistent deals. probabilities: \"card place = n/models\".
# case_file: the most likely case file and its number of deals.
# conflict: for inconsistent histories, the event indices of the smallest
#   conflicting set (the index equal to the number of events means the hand).
# oracle: where the numbers come from:
#   brute      = sleuth_core::brute::enumerate over every deal (re-checked each run)
#   enumerator = the independent pruned enumerator of tests/it/support.rs
#   engine     = the exact counter when this file was written (regression only)
#
# Regenerate with: UPDATE_CORPUS=1 cargo test -p sleuth-core --test it corpus
";

fn write_expected(all: &[Expected]) -> String {
    let mut out = HEADER.to_string();
    for e in all {
        let _ = writeln!(out, "\n[{}]", e.name);
        let _ = writeln!(out, "oracle = \"{}\"", e.oracle);
        let _ = writeln!(out, "models = \"{}\"", e.models);
        if let Some((cards, n)) = &e.case_file {
            let _ = writeln!(out, "case_file = \"{} = {n}\"", cards.join(" "));
        }
        if let Some(c) = &e.conflict {
            let ids: Vec<String> = c.iter().map(|i| i.to_string()).collect();
            let _ = writeln!(out, "conflict = [{}]", ids.join(", "));
        }
        if !e.probabilities.is_empty() {
            out.push_str("probabilities = [\n");
            for (card, place, n) in &e.probabilities {
                let _ = writeln!(out, "  \"{card} {place} = {n}/{}\",", e.models);
            }
            out.push_str("]\n");
        }
    }
    out
}

/// Reads the subset of TOML that [`write_expected`] writes.
fn read_expected(text: &str) -> Vec<Expected> {
    let mut all: Vec<Expected> = Vec::new();
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#'));
    let unquote = |s: &str| -> String {
        let s = s.trim().trim_end_matches(',');
        s.strip_prefix('"').and_then(|s| s.strip_suffix('"')).unwrap_or_else(|| panic!("not a string: {s}")).to_string()
    };
    while let Some(line) = lines.next() {
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            all.push(Expected { name: name.to_string(), ..Default::default() });
            continue;
        }
        let e = all.last_mut().expect("a [section] comes first");
        let (key, value) = line.split_once(" = ").unwrap_or_else(|| panic!("bad line: {line}"));
        match key {
            "oracle" => e.oracle = unquote(value),
            "models" => e.models = unquote(value).parse().expect("models"),
            "case_file" => {
                let v = unquote(value);
                let (cards, n) = v.split_once(" = ").expect("cards = n");
                e.case_file = Some((cards.split(' ').map(String::from).collect(), n.parse().expect("count")));
            }
            "conflict" => {
                let inner = value.trim_start_matches('[').trim_end_matches(']');
                e.conflict = Some(
                    inner.split(',').filter(|s| !s.trim().is_empty()).map(|s| s.trim().parse().unwrap()).collect(),
                );
            }
            "probabilities" => {
                assert_eq!(value, "[", "probabilities start a multi-line list");
                for item in lines.by_ref() {
                    if item == "]" {
                        break;
                    }
                    let v = unquote(item);
                    let (fact, frac) = v.split_once(" = ").expect("fact = n/d");
                    let (card, place) = fact.split_once(' ').expect("card place");
                    let (n, d) = frac.split_once('/').expect("n/d");
                    assert_eq!(d.parse::<u128>().unwrap(), e.models, "{}: denominator is the model count", e.name);
                    e.probabilities.push((card.into(), place.into(), n.parse().unwrap()));
                }
            }
            other => panic!("unknown key {other}"),
        }
    }
    all
}

/// Rewrites the corpus files and expectations.
fn regenerate() {
    let dir = dir();
    std::fs::create_dir_all(&dir).expect("create testdata/corpus");
    let mut all = Vec::new();
    for recipe in recipes() {
        let mut seed = recipe.seed;
        let (file, game) = loop {
            let mut r = rng("corpus", seed);
            let generated = generate(&recipe.cfg, &mut r);
            let game = Game::new(&generated.file).expect("generated games are valid");
            if !recipe.inconsistent || analyse(&game).consistent_deals() == 0 {
                break (generated.file, game);
            }
            seed += 1000;
        };
        let a = analyse(&game);
        let oracle = if game.deck().len() <= 12 {
            assert_matches(&game, &a, &enumerate(&game), recipe.name);
            "brute"
        } else if let Some(found) = enumerate_pruned(&game, 30_000_000) {
            assert_matches(&game, &a, &found, recipe.name);
            "enumerator"
        } else {
            "engine"
        };
        std::fs::write(dir.join(format!("{}.json", recipe.name)), file.to_json()).expect("write corpus file");
        all.push(expectations(recipe.name, &game, &a, oracle));
    }
    std::fs::write(dir.join("expected.toml"), write_expected(&all)).expect("write expected.toml");
}

#[test]
fn corpus_matches_expectations() {
    if std::env::var("UPDATE_CORPUS").is_ok_and(|v| v == "1") {
        regenerate();
    }
    let dir = dir();
    let text = std::fs::read_to_string(dir.join("expected.toml")).expect("testdata/corpus/expected.toml exists");
    let expected = read_expected(&text);
    assert_eq!(write_expected(&expected), text, "expected.toml is in canonical form");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("corpus directory")
        .filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".json").map(String::from))
        .collect();
    names.sort();
    let mut listed: Vec<String> = expected.iter().map(|e| e.name.clone()).collect();
    listed.sort();
    assert_eq!(names, listed, "every corpus file has expectations and vice versa");
    assert!(names.len() >= 12);
    assert!(expected.iter().any(|e| e.models == 0), "the corpus holds an inconsistent history");

    for want in &expected {
        let path = dir.join(format!("{}.json", want.name));
        let game = Game::from_json(&std::fs::read_to_string(&path).expect("read")).expect("corpus games are valid");
        let a = analyse(&game);
        let got = expectations(&want.name, &game, &a, &want.oracle);
        let label = &want.name;
        assert_eq!(got.models, want.models, "{label}: models");
        assert_eq!(got.case_file, want.case_file, "{label}: most likely case file");
        assert_eq!(got.conflict, want.conflict, "{label}: conflict");
        for (card, place, n) in &want.probabilities {
            let c = game.deck().card(card).unwrap_or_else(|| panic!("{label}: card {card}"));
            let p = game.place(place).unwrap_or_else(|| panic!("{label}: place {place}"));
            assert_eq!(a.fraction(c, p), (*n, want.models), "{label}: {card} at {place}");
        }
        match want.oracle.as_str() {
            "brute" => {
                let brute: BruteCounts = enumerate(&game);
                assert_matches(&game, &a, &brute, label);
            }
            "enumerator" | "engine" => {}
            other => panic!("{label}: unknown oracle {other}"),
        }
        crate::sat::check_statuses(&game, label);
    }
}
