//! `sleuth sample`: the JSON shape, intervals around the estimates, and
//! sampled deals that fit the evidence.

use crate::support::{generated, sleuth, Scratch};
use sleuth_core::{Analysis, Game, Place};

const SEED_GAME: &str = "seed-sat-sample-before-accusation.json";

/// Checks the JSON estimate of `game`: every card and place has a
/// probability inside its interval, each card's probabilities sum to 1,
/// and certain pairs are reported exactly.
fn check_estimate(game: &Game, json: &serde_json::Value) {
    let analysis = Analysis::new(game).unwrap();
    assert_eq!(json["consistent"], true);
    assert_eq!(json["models"], analysis.consistent_deals().to_string());
    assert!(json["samples"].as_u64().unwrap() > 0, "{json}");
    let places: Vec<&str> = json["places"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
    assert_eq!(places.last(), Some(&"case_file"));
    for card in game.deck().cards() {
        let id = game.deck().id(card);
        let mut sum = 0.0;
        for &place_id in &places {
            let place = game.place(place_id).unwrap();
            let p = json["probabilities"][id][place_id].as_f64().unwrap();
            let interval = json["intervals"][id][place_id].as_array().unwrap();
            let (lo, hi) = (interval[0].as_f64().unwrap(), interval[1].as_f64().unwrap());
            assert!(0.0 <= lo && lo <= p && p <= hi && hi <= 1.0, "{id} at {place_id}: {p} not in [{lo}, {hi}]");
            assert_eq!(json["status"][id][place_id], analysis.status(card, place).as_str());
            if analysis.status(card, place) != sleuth_core::Status::Maybe {
                assert_eq!(p, analysis.probability(card, place), "{id} at {place_id}");
            }
            sum += p;
        }
        if !game.face_up().contains(card) {
            assert!((sum - 1.0).abs() < 1e-9, "{id}: probabilities sum to {sum}");
        }
    }
    let case_files = json["case_file"].as_array().unwrap();
    assert!(!case_files.is_empty());
    let total: f64 = case_files.iter().map(|c| c["probability"].as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-9);
}

/// Parses `--deals` output and checks every deal against the game.
fn check_deals(game: &Game, stdout: &str) -> usize {
    let mut n = 0;
    for line in stdout.lines() {
        let obj: serde_json::Map<String, serde_json::Value> = serde_json::from_str(line).expect("a JSON deal per line");
        let mut deal: Vec<Option<Place>> = vec![None; game.deck().len()];
        for (card, place) in &obj {
            let c = game.deck().card(card).unwrap_or_else(|| panic!("unknown card {card}"));
            deal[c.index()] = Some(game.place(place.as_str().unwrap()).unwrap());
        }
        assert_eq!(obj.len(), game.deck().len() - game.face_up().len(), "every card but the face-up ones: {line}");
        assert!(game.fits(&deal), "a sampled deal does not fit the evidence: {line}");
        n += 1;
    }
    n
}

fn load(path: &std::path::Path) -> Game {
    Game::from_json(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn seed_game_estimates_have_the_contract_keys_and_intervals() {
    let game = load(&crate::support::testdata(SEED_GAME));
    for method in ["uniform", "alg1", "alg2", "c"] {
        let budget = if method == "uniform" { ["--samples", "500"] } else { ["--iterations", "5000"] };
        let run = sleuth(&["sample", SEED_GAME, "--method", method, "--seed", "4", "--json", budget[0], budget[1]]);
        run.code(0);
        let json = run.json();
        check_estimate(&game, &json);
        let described = json["method"].as_str().unwrap();
        assert!(described.contains("seed 4"), "{described}");
        assert_eq!(json["seed"], 4);
        let name = if method == "uniform" { "uniform" } else { json["sampler"].as_str().unwrap() };
        assert!(described.starts_with(name), "{described}");
    }
}

#[test]
fn small_generated_game_deals_fit_and_estimates_cover_them() {
    let scratch = Scratch::new();
    let mut tested = 0;
    for seed in 0..12 {
        let text = generated(&["--deck", "3,3,3", "--players", "3", "--suggestions", "4", "--seed", &seed.to_string()]);
        scratch.write("g.json", &text);
        let game = load(&scratch.path().join("g.json"));
        if Analysis::new(&game).unwrap().consistent_deals() < 3 {
            continue;
        }
        tested += 1;
        for (method, budget) in
            [("uniform", ["--samples", "300"]), ("alg1", ["--iterations", "3000"]), ("d", ["--iterations", "3000"])]
        {
            let run = scratch.sleuth(&["sample", "g.json", "--method", method, "--deals", budget[0], budget[1]]);
            run.code(0);
            let n = check_deals(&game, &run.stdout);
            if method == "uniform" {
                assert_eq!(n, 300);
            } else {
                assert!(n > 0, "seed {seed}, {method}: no deal found");
            }
            let run = scratch.sleuth(&["sample", "g.json", "--method", method, "--json", budget[0], budget[1]]);
            run.code(0);
            check_estimate(&game, &run.json());
        }
        // Text output: the notepad layout with intervals.
        let run = scratch.sleuth(&["sample", "g.json", "--samples", "200", "--no-color"]);
        run.code(0);
        assert!(run.stdout.contains("200 samples recorded"), "{}", run.stdout);
        assert!(run.stdout.contains("intervals: Wilson score"), "{}", run.stdout);
    }
    assert!(tested >= 3, "only {tested} generated games had open pairs");
}

#[test]
fn sample_options_are_checked() {
    let scratch = Scratch::new();
    scratch.write("g.json", &generated(&["--seed", "1", "--suggestions", "5"]));
    for args in [
        &["--method", "alg2", "--samples", "10"][..],
        &["--iterations", "10"],
        &["--method", "alg1", "--noise", "1.5"],
        &["--method", "b", "--restart", "-0.1"],
        &["--method", "f"],
        &["--deals", "--json"],
    ] {
        let mut all = vec!["sample", "g.json"];
        all.extend_from_slice(args);
        let run = scratch.sleuth(&all);
        run.code(2);
        assert!(run.stderr.starts_with("error"), "{args:?}: {}", run.stderr);
    }
    // Overrides are described in the method.
    let run =
        scratch.sleuth(&["sample", "g.json", "--method", "alg1", "--tenure", "3", "--iterations", "200", "--json"]);
    run.code(0);
    let method = run.json()["method"].as_str().unwrap().to_string();
    assert!(method.starts_with("custom:") && method.contains("tabu tenure 3"), "{method}");
    // The same seed gives the same deals.
    let a = scratch.sleuth(&["sample", "g.json", "--deals", "--samples", "20", "--seed", "9"]);
    let b = scratch.sleuth(&["sample", "g.json", "--deals", "--samples", "20", "--seed", "9"]);
    assert_eq!(a.stdout, b.stdout);
}

/// A game past the exact counter's state limit (ten categories of six
/// cards, four players, a bystander's view, two cards face up) is still
/// estimated by WalkSAT:
/// no exact count (`models` null), statuses from propagation alone, every
/// settled pair estimated exactly; the uniform sampler, which draws through
/// the exact counter, says to use WalkSAT, and so does `analyze`. (Each run
/// first takes the exact counter to its limit, here a million states set
/// by `SLEUTH_MAX_STATES`: the default would take a minute and gigabytes.)
/// A limit that is not a number is refused before any work.
#[test]
fn a_game_too_large_to_count_is_still_sampled_by_walksat() {
    const LIMIT: &[(&str, &str)] = &[("SLEUTH_MAX_STATES", "1000000")];
    let scratch = Scratch::new();
    let deck = "6,6,6,6,6,6,6,6,6,6";
    let options =
        ["--deck", deck, "--players", "4", "--bystander", "--suggestions", "10", "--face-up", "2", "--seed", "1"];
    scratch.write("g.json", &generated(&options));
    let game = load(&scratch.path().join("g.json"));
    let run = scratch.sleuth_env(&["sample", "g.json", "--method", "alg2", "--iterations", "3000", "--json"], LIMIT);
    run.code(0);
    assert!(run.stderr.contains("too large for exact analysis"), "{}", run.stderr);
    let json = run.json();
    assert_eq!((&json["models"], &json["consistent"]), (&serde_json::Value::Null, &serde_json::Value::Bool(true)));
    assert!(json["samples"].as_u64().unwrap() > 100, "{json}");
    let settled = sleuth_core::deduce::Settled::new(&game).expect("propagation finds no contradiction");
    let mut certain = 0;
    for card in game.deck().cards() {
        let id = game.deck().id(card);
        for place in game.places() {
            let place_id = game.place_id(place);
            let status = settled.status(card, place);
            assert_eq!(json["status"][id][&place_id], status.as_str(), "{id} at {place_id}");
            let p = json["probabilities"][id][&place_id].as_f64().unwrap();
            match status {
                sleuth_core::Status::Yes => assert_eq!(p, 1.0),
                sleuth_core::Status::No => assert_eq!(p, 0.0),
                sleuth_core::Status::Maybe => continue,
            }
            certain += 1;
        }
    }
    assert!(certain >= 10, "propagation settles only {certain} pairs");
    let run = scratch.sleuth_env(&["sample", "g.json"], LIMIT);
    run.code(2);
    assert!(run.stderr.contains("--method alg2"), "{}", run.stderr);
    // And the exact commands name the one that can estimate it.
    let run = scratch.sleuth_env(&["analyze", "g.json"], LIMIT);
    run.code(2);
    assert!(run.stderr.contains("sleuth sample --method alg2"), "{}", run.stderr);
    assert!(run.stderr.contains("more than 1000000 states"), "{}", run.stderr);
    let run = scratch.sleuth_env(&["analyze", "g.json"], &[("SLEUTH_MAX_STATES", "many")]);
    run.code(2);
    assert!(run.stderr.starts_with("error: SLEUTH_MAX_STATES=\"many\": expected a number of states"), "{}", run.stderr);
    assert!(run.stdout.is_empty());
}

#[test]
fn text_list_of_case_files_says_how_many_it_leaves_out() {
    // Uniform draws from the Prolog article's example see all six case files; five are listed.
    let run = sleuth(&["sample", "seed-clp-example.json", "--samples", "2000", "--seed", "1"]);
    run.code(0);
    let out = &run.stdout;
    let list = &out[out.find("most likely case files (estimated; 6 seen):").unwrap_or_else(|| panic!("{out}"))..];
    let rows = list.lines().skip(1).take_while(|l| l.starts_with("  ")).collect::<Vec<_>>();
    assert_eq!(rows.len(), 6, "{list}");
    assert_eq!(rows[5], "  ... and 1 more", "{list}");
}
