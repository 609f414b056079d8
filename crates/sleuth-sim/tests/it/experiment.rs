//! The sampling experiment at CI size: its structure, not its numbers.

use sleuth_sim::experiment::{
    case_file_determined, merge, minimal_suggestions, prepare_game, read_raw, run_sampling, run_sampling_in, summarize,
    write_merged, write_summary, Agents, GameStatus, Method, NoProgress, Range, Results, RunRow, SamplingConfig, Shard,
};
use std::collections::{BTreeMap, BTreeSet};

/// The quick configuration, run once for every test that needs it.
fn quick() -> &'static Results {
    static RESULTS: std::sync::OnceLock<Results> = std::sync::OnceLock::new();
    RESULTS.get_or_init(|| run_sampling(&SamplingConfig::quick(), &NoProgress).expect("the quick experiment runs"))
}

#[test]
fn quick_run_has_every_method_on_every_sampled_state() {
    let results = quick();
    let cfg = SamplingConfig::quick();
    assert_eq!(results.games.len(), cfg.games);
    let sampled: Vec<_> = results.states.iter().filter(|s| s.sampled).collect();
    assert!(!sampled.is_empty());
    for state in &sampled {
        assert!(state.open_pairs > 0);
        assert!(state.uniform_setup_seconds.is_some());
        for method in Method::ALL {
            let runs: BTreeSet<usize> = results
                .runs
                .iter()
                .filter(|r| r.state == state.state && r.method == method.name())
                .map(|r| r.run)
                .collect();
            assert_eq!(runs, (0..cfg.runs).collect(), "{} {}", state.state, method.name());
        }
    }
    assert_eq!(results.runs.len(), sampled.len() * Method::ALL.len() * cfg.runs);
    for r in &results.runs {
        assert!(r.rmsd.is_finite() && r.rmsd >= 0.0, "{r:?}");
        assert!(r.rmsd <= 1.0, "{r:?}");
        assert!(r.seconds >= 0.0);
        assert!(Method::from_name(&r.method).is_some());
        if r.method.starts_with("uniform") {
            assert!(r.samples >= 1, "{r:?}");
        }
    }
    // At most 2 states in the paper's range and 1 beyond per game.
    for g in &results.games {
        let of = |range| sampled.iter().filter(|s| s.game == g.game && s.range == range).count();
        assert!(of(Range::Paper) <= 2 && of(Range::Beyond) <= 1, "game {}", g.game);
    }
}

#[test]
fn states_grow_from_the_minimal_subset_to_no_suggestions() {
    let results = quick();
    let cfg = SamplingConfig::quick();
    let mut by_game: BTreeMap<usize, Vec<_>> = BTreeMap::new();
    for s in &results.states {
        by_game.entry(s.game).or_default().push(s);
    }
    for g in results.games.iter().filter(|g| g.status == "used") {
        let states = &by_game[&g.game];
        assert_eq!(states.len(), g.minimal + 1, "game {}", g.game);
        assert!(g.minimal <= g.suggestions);
        let mut last = 0u128;
        for (i, s) in states.iter().enumerate() {
            assert_eq!((s.removed, s.suggestions), (i, g.minimal - i));
            let models: u128 = s.models.parse().unwrap();
            assert!(models >= last, "game {}: deals must not decrease as suggestions go", g.game);
            assert!((s.log10_models - (models as f64).log10()).abs() < 1e-9);
            assert_eq!(s.range == Range::Paper, cfg.in_paper_range(models));
            last = models;
        }
        // Once beyond the threshold, always beyond.
        let first_beyond = states.iter().position(|s| s.range == Range::Beyond).unwrap_or(states.len());
        assert!(states[first_beyond..].iter().all(|s| s.range == Range::Beyond));
        // The last state keeps the hand only.
        assert_eq!(states.last().unwrap().suggestions, 0);
    }
}

#[test]
fn the_minimal_subset_determines_the_case_file_and_every_kept_suggestion_is_needed() {
    let exact = SamplingConfig::quick();
    let random = SamplingConfig { agents: Agents::Random, ..SamplingConfig::quick() };
    for (cfg, index) in [(&exact, 0), (&exact, 1), (&exact, 2), (&random, 0), (&random, 1)] {
        let game = prepare_game(cfg, index).unwrap();
        assert_eq!(game.status, GameStatus::Used, "game {index}");
        let view = game.view.as_ref().unwrap();
        assert!(game.kept.windows(2).all(|w| w[0] < w[1]));
        let minimal = view.restricted(&game.kept, true);
        assert!(case_file_determined(&minimal).unwrap(), "game {index}");
        for i in 0..game.kept.len() {
            let mut without = game.kept.clone();
            without.remove(i);
            assert!(
                !case_file_determined(&view.restricted(&without, true)).unwrap(),
                "game {index}: suggestion {} is not needed",
                game.kept[i]
            );
        }
        // The winner's view has no accusations, and the true deal fits every state.
        assert!(view.events().iter().all(|e| matches!(e, sleuth_core::Event::Suggestion(_))));
        let truth = game.record.deal.places(&game.record.deck);
        for s in &game.states {
            assert!(s.game.fits(&truth), "game {index}, state {}", s.removed);
            assert_eq!(s.analysis.consistent_deals() == 1, s.open_pairs() == 0);
        }
        // The same reduction, called directly.
        assert_eq!(minimal_suggestions(view).unwrap().unwrap(), game.kept);
    }
}

#[test]
fn raw_results_round_trip_and_summaries_are_written() {
    let results = quick();
    let dir = tempfile::tempdir().unwrap();
    write_merged(dir.path(), results).unwrap();
    let back = read_raw(dir.path()).unwrap();
    assert_eq!(back.config, results.config);
    assert_eq!(back.games, results.games);
    assert_eq!(back.states.len(), results.states.len());
    assert_eq!(back.runs.len(), results.runs.len());
    // The CSV parses with plain csv too, with the documented columns.
    let mut reader = csv::Reader::from_path(dir.path().join("runs.csv")).unwrap();
    let headers: Vec<String> = reader.headers().unwrap().iter().map(str::to_string).collect();
    for col in ["state", "game", "suggestions", "log10_models", "method", "run", "rmsd", "samples", "seconds"] {
        assert!(headers.iter().any(|h| h == col), "runs.csv lacks {col}: {headers:?}");
    }
    let rows: Vec<RunRow> = reader.deserialize().collect::<Result<_, _>>().unwrap();
    assert_eq!(rows.len(), results.runs.len());

    let summary = summarize(results);
    write_summary(dir.path(), &summary).unwrap();
    for file in ["config.json", "games.csv", "states.csv", "runs.csv", "summary.json", "summary.md"] {
        assert!(dir.path().join(file).is_file(), "{file} was not written");
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("summary.json")).unwrap()).unwrap();
    let methods = json["methods"].as_array().unwrap();
    assert_eq!(methods.len(), Method::ALL.len());
    assert_eq!(methods[0]["paper_rmsd"], 0.01021);
    assert!(methods.iter().all(|m| m["all"]["rmsd"].as_f64().is_some_and(|x| x.is_finite() && x >= 0.0)));
    let md = std::fs::read_to_string(dir.path().join("summary.md")).unwrap();
    for m in Method::ALL {
        assert!(md.contains(&m.label()), "summary.md lacks {}", m.label());
    }
    assert!(md.contains("0.00602"));
}

/// Everything but the clock: times, and the draws of time-matched uniform
/// runs.
fn strip(runs: &[RunRow]) -> Vec<RunRow> {
    runs.iter().filter(|r| r.method != "uniform-time").map(|r| RunRow { seconds: 0.0, ..r.clone() }).collect()
}

fn small() -> SamplingConfig {
    SamplingConfig {
        games: 3,
        runs: 2,
        iterations: 500,
        max_states: Some(1),
        beyond: Some(0),
        seed: 7,
        threads: Some(1),
        ..SamplingConfig::paper()
    }
}

#[test]
fn shards_merge_into_the_whole_and_threads_do_not_change_results() {
    let cfg = small();
    let whole = run_sampling(&SamplingConfig { threads: Some(2), ..cfg.clone() }, &NoProgress).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let dirs: Vec<_> = (0..2).map(|i| dir.path().join(format!("shard{i}"))).collect();
    for (i, d) in dirs.iter().enumerate() {
        let shard = SamplingConfig { shard: Shard { index: i, count: 2 }, ..cfg.clone() };
        let (part, _) = run_sampling_in(d, &shard, false, &NoProgress).unwrap();
        if i == 0 {
            assert_eq!(part.games.iter().map(|g| g.game).collect::<Vec<_>>(), vec![0, 2]);
        }
    }
    let merged = merge(&dirs).unwrap();
    assert_eq!(merged.config.shard, Shard::ALL);
    assert_eq!(merged.games, whole.games);
    assert_eq!(strip(&merged.runs), strip(&whole.runs));
    // The same shard twice does not merge.
    let err = merge(&[&dirs[0], &dirs[0]]).unwrap_err().to_string();
    assert!(err.contains("shard 0/2 is given twice"), "{err}");
    assert!("1/2".parse::<Shard>().is_ok() && "2/2".parse::<Shard>().is_err() && "x".parse::<Shard>().is_err());
}

/// A run stopped part way (its results file cut after some records, the
/// last line half written) resumes into the unbroken run's results.
#[test]
fn a_cut_run_resumes_into_the_unbroken_run() {
    let cfg = SamplingConfig { max_states: Some(2), beyond: Some(1), ..small() };
    let dir = tempfile::tempdir().unwrap();
    let (whole, _) = run_sampling_in(dir.path(), &cfg, false, &NoProgress).unwrap();
    let log = dir.path().join("results.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() >= 6, "{} records", lines.len());
    for keep in [0, 1, lines.len() / 2, lines.len() - 1] {
        let done: String = lines[..keep].iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(&log, format!("{done}{}", &lines[keep][..9])).unwrap();
        let (resumed, _) = run_sampling_in(dir.path(), &cfg, true, &NoProgress).unwrap();
        assert_eq!(resumed.games, whole.games, "cut after {keep} records");
        assert_eq!(resumed.states.len(), whole.states.len());
        assert_eq!(strip(&resumed.runs), strip(&whole.runs), "cut after {keep} records");
        assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), lines.len());
    }
    // A finished run resumed does nothing more.
    let (again, already) = run_sampling_in(dir.path(), &cfg, true, &NoProgress).unwrap();
    assert_eq!((again.games.len(), already), (3, 3));
}

#[test]
fn a_config_without_methods_ran_the_original_eight() {
    // config.json of the runs before (b)'s second reading and the tenure sweep.
    let mut v = serde_json::to_value(SamplingConfig::quick()).unwrap();
    v.as_object_mut().unwrap().remove("methods");
    let cfg: SamplingConfig = serde_json::from_value(v).unwrap();
    assert_eq!(cfg.methods, Method::ORIGINAL);
    assert_eq!(SamplingConfig::paper().methods, Method::ALL);
    for m in Method::ALL {
        assert_eq!(Method::from_name(&m.name()), Some(m));
        assert_eq!(m.walksat(7).is_some(), m.is_walksat());
    }
    assert_eq!(Method::B20.walksat(7).unwrap().restart_prob, 0.2);
    assert_eq!(Method::B.walksat(7).unwrap().restart_prob, 0.8);
    for (tenure, m) in Method::TENURES {
        let w = m.walksat(7).unwrap();
        assert_eq!((w.tenure, w.unique, w.noise, w.restart_prob), (tenure, true, 0.0, 0.0));
    }
}
