//! Every `--json` output validates against its checked-in JSON Schema
//! (docs/schema/*.json, generated from sleuth-core's wire types): analyze,
//! why, check, advise (and --refute) and sample, on the games of testdata
//! and on generated games, consistent and not.

use crate::support::{generated, testdata, Run, Scratch};
use serde_json::Value;
use sleuth_core::Game;

/// The checked-in schema `name`, compiled.
fn validator(name: &str) -> jsonschema::Validator {
    let path = testdata(&format!("../docs/schema/{name}.json"));
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("the schema is checked in")).unwrap();
    jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("{name}: not a valid schema: {e}"))
}

struct Schemas {
    by_name: Vec<(&'static str, jsonschema::Validator)>,
    checked: Vec<(&'static str, usize)>,
}

impl Schemas {
    fn new() -> Schemas {
        let names = ["analysis", "why", "check", "advice", "refutation", "sample"];
        Schemas { by_name: names.iter().map(|&n| (n, validator(n))).collect(), checked: Vec::new() }
    }

    /// Validates the output of `run` against schema `name`.
    #[track_caller]
    fn check(&mut self, name: &'static str, what: &str, run: &Run) {
        let out = run.json();
        let (_, v) = self.by_name.iter().find(|(n, _)| *n == name).unwrap();
        let errors: Vec<String> = v.iter_errors(&out).map(|e| format!("{e} at {}", e.instance_path())).collect();
        assert!(errors.is_empty(), "{what}: does not fit {name}.json:\n{}", errors.join("\n"));
        match self.checked.iter_mut().find(|(n, _)| *n == name) {
            Some((_, k)) => *k += 1,
            None => self.checked.push((name, 1)),
        }
    }
}

/// One card of each category, one of them the observer's when it has one.
fn refute_list(game: &Game) -> Option<String> {
    let (_, hand) = game.observer()?;
    let deck = game.deck();
    let mine = hand.iter().next()?;
    let cards: Vec<&str> = deck
        .categories()
        .map(|k| {
            let cat = deck.category_cards(k);
            deck.id(if cat.contains(mine) { mine } else { cat.iter().next().unwrap() })
        })
        .collect();
    Some(cards.join(","))
}

#[test]
fn every_json_output_fits_its_schema() {
    let scratch = Scratch::new();
    let mut games: Vec<(String, String)> = Vec::new();
    for dir in ["", "corpus", "seeds"] {
        let mut paths: Vec<_> = std::fs::read_dir(testdata(dir)).unwrap().map(|e| e.unwrap().path()).collect();
        paths.sort();
        for p in paths.into_iter().filter(|p| p.extension().is_some_and(|e| e == "json")) {
            games.push((p.display().to_string(), std::fs::read_to_string(&p).unwrap()));
        }
    }
    let variants: &[&[&str]] = &[
        &["--suggestions", "8"],
        &["--suggestions", "14", "--corrupt", "--players", "4"],
        &["--suggestions", "10", "--bystander", "--face-up", "2", "--players", "4"],
        &["--suggestions", "6", "--deck", "master", "--players", "5"],
        &["--suggestions", "12", "--deck", "3,2,4", "--players", "3", "--corrupt"],
    ];
    for variant in variants {
        for seed in ["1", "2"] {
            let mut args = variant.to_vec();
            args.extend(["--seed", seed]);
            games.push((format!("generate {args:?}"), generated(&args)));
        }
    }
    let mut schemas = Schemas::new();
    let (mut consistent, mut inconsistent) = (0, 0);
    for (k, (what, text)) in games.iter().enumerate() {
        let name = scratch.write(&format!("g{k}.json"), text);
        let game = Game::from_json(text).unwrap();
        let run = scratch.sleuth(&["analyze", "--json", &name]);
        schemas.check("analysis", what, &run);
        let ok = run.json()["consistent"] == true;
        if ok {
            consistent += 1
        } else {
            inconsistent += 1
        }
        schemas.check("check", what, &scratch.sleuth(&["check", "--json", &name]));
        // why: a certain cell and an open one (where there is one).
        let deck = game.deck();
        let first = deck.id(deck.cards().next().unwrap());
        for place in ["case_file", game.place_id(game.places().next().unwrap())] {
            schemas.check("why", what, &scratch.sleuth(&["why", "--json", &name, first, place]));
        }
        let run = scratch.sleuth(&["sample", "--json", &name, "--samples", "50"]);
        schemas.check(if ok { "sample" } else { "analysis" }, what, &run);
        if ok {
            let run = scratch.sleuth(&["sample", "--json", &name, "--method", "alg2", "--iterations", "2000"]);
            schemas.check("sample", what, &run);
        }
        if let (true, Some(list)) = (ok, refute_list(&game)) {
            let fast = ["--suggestions", "2", "--shortlist", "3", "--samples", "4", "--tell-samples", "100"];
            let mut args = vec!["advise", "--json", &name];
            args.extend(fast);
            schemas.check("advice", what, &scratch.sleuth(&args));
            schemas.check("refutation", what, &scratch.sleuth(&["advise", "--json", &name, "--refute", &list]));
        }
    }
    eprintln!("{consistent} consistent and {inconsistent} inconsistent games; outputs checked: {:?}", schemas.checked);
    assert!(consistent > 15 && inconsistent > 3, "too few games of each kind");
    assert_eq!(schemas.checked.len(), 6, "every schema was used: {:?}", schemas.checked);
}
