//! `sleuth experiment sampling --quick` and `sleuth experiment merge`: the
//! files written and their structure (not the numbers).

use crate::support::Scratch;

const METHODS: [&str; 13] = [
    "alg1",
    "a",
    "b",
    "b20",
    "c",
    "d",
    "alg2",
    "tenure1",
    "tenure3",
    "tenure4",
    "tenure8",
    "uniform-samples",
    "uniform-time",
];

/// Checks an output directory of a complete run.
fn check_outputs(dir: &std::path::Path) {
    for file in ["config.json", "games.csv", "states.csv", "runs.csv", "summary.json", "summary.md"] {
        assert!(dir.join(file).is_file(), "{file} missing");
    }
    for plot in ["rmsd_variants", "rmsd_curves", "rmsd_tenure"] {
        let svg = std::fs::read_to_string(dir.join(format!("{plot}.svg"))).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("<text") && svg.contains("RMSD"), "{plot}.svg");
        if plot == "rmsd_tenure" {
            assert!(svg.contains("tabu tenure"), "{plot}.svg");
        }
        let png = std::fs::read(dir.join(format!("{plot}.png"))).unwrap();
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 10_000, "{plot}.png");
    }
    let runs = std::fs::read_to_string(dir.join("runs.csv")).unwrap();
    let mut lines = runs.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap_or_else(|| panic!("no column {name}"));
    let (method, rmsd, samples) = (col("method"), col("rmsd"), col("samples"));
    let mut seen = std::collections::BTreeSet::new();
    for line in lines {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(fields.len(), header.len(), "{line}");
        let r: f64 = fields[rmsd].parse().unwrap();
        assert!(r.is_finite() && r >= 0.0, "{line}");
        let _: u64 = fields[samples].parse().unwrap();
        seen.insert(fields[method].to_string());
    }
    assert_eq!(seen, METHODS.iter().map(|m| m.to_string()).collect());
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    let names: Vec<&str> =
        summary["methods"].as_array().unwrap().iter().map(|m| m["method"].as_str().unwrap()).collect();
    assert_eq!(names, METHODS);
}

#[test]
fn quick_sampling_experiment_writes_every_output() {
    let scratch = Scratch::new();
    let run = scratch.sleuth(&["experiment", "sampling", "--quick", "--out", "out", "--threads", "2"]);
    run.code(0);
    for label in ["Algorithm 1 (base)", "0.01021", "(e) Algorithm 2", "0.00602", "uniform, Algorithm 2's wall time"] {
        assert!(run.stdout.contains(label), "the table lacks {label}:\n{}", run.stdout);
    }
    check_outputs(&scratch.path().join("out"));
    let md = scratch.read("out/summary.md");
    assert!(md.contains("| method | paper |"), "{md}");
}

#[test]
fn shards_merge() {
    let scratch = Scratch::new();
    for shard in ["0/2", "1/2"] {
        let out = format!("shard{}", &shard[..1]);
        let run = scratch.sleuth(&["experiment", "sampling", "--quick", "--shard", shard, "--out", &out]);
        run.code(0);
        assert!(run.stdout.contains("merge every shard"), "{}", run.stdout);
        assert!(!scratch.path().join(&out).join("summary.md").exists());
    }
    let run = scratch.sleuth(&["experiment", "merge", "shard0", "shard1", "--out", "merged"]);
    run.code(0);
    check_outputs(&scratch.path().join("merged"));
    let games = scratch.read("merged/games.csv");
    assert_eq!(games.lines().count(), 1 + 3, "{games}");
    // A shard merged with itself, or alone, is refused.
    let run = scratch.sleuth(&["experiment", "merge", "shard0", "shard0", "--out", "bad"]);
    run.code(2);
    assert!(run.stderr.contains("shard 0/2 is given twice"), "{}", run.stderr);
    let run = scratch.sleuth(&["experiment", "merge", "shard1", "--out", "bad"]);
    run.code(2);
    assert!(run.stderr.contains("1 of the 2 shards is missing (0/2)"), "{}", run.stderr);
    // A shard of other settings is named, with the settings that differ.
    scratch.sleuth(&["experiment", "sampling", "--quick", "--shard", "1/2", "--seed", "3", "--out", "other"]).code(0);
    let run = scratch.sleuth(&["experiment", "merge", "shard0", "other", "--out", "bad"]);
    run.code(2);
    assert!(run.stderr.contains("'other' is a shard of another sampling experiment"), "{}", run.stderr);
    assert!(run.stderr.contains("seed 0 in 'shard0', 3 in 'other'"), "{}", run.stderr);
    assert!(!scratch.path().join("bad").exists());
    let run = scratch.sleuth(&["experiment", "sampling", "--quick", "--shard", "2/2"]);
    run.code(2);
    // 3 games in 4 shards: shard 3/4 is empty, says so, and still merges.
    let run = scratch.sleuth(&["experiment", "sampling", "--quick", "--shard", "3/4", "--out", "empty"]);
    run.code(0);
    assert!(run.stderr.contains("shard 3/4 is empty: the run has 3 games"), "{}", run.stderr);
    assert!(run.stdout.contains("shard 3/4: 0 games") && run.stdout.contains("shard 3/4 is empty"), "{}", run.stdout);
}

/// Everything of a run's results but the clock: games, states, and every
/// run's numbers except its time (and the time-matched uniform runs).
fn untimed(dir: &std::path::Path) -> String {
    let r = sleuth_sim::experiment::read_raw(dir).unwrap();
    let runs: Vec<String> = r
        .runs
        .iter()
        .filter(|r| r.method != "uniform-time")
        .map(|r| format!("{} {} {} {} {:?} {}", r.state, r.method, r.run, r.rmsd, r.samples, r.log10_models))
        .collect();
    let states: Vec<String> = r.states.iter().map(|s| format!("{} {}", s.state, s.sampled)).collect();
    format!("{:?}\n{}\n{}", r.games, states.join("\n"), runs.join("\n"))
}

#[test]
fn a_killed_run_resumes_into_the_unbroken_run() {
    let s = Scratch::new();
    let args = ["experiment", "sampling", "--quick", "--threads", "1"];
    s.sleuth(&[&args[..], &["--out", "whole"]].concat()).code(0);
    let killed = [&args[..], &["--out", "cut"]].concat();
    let kept = crate::support::kill_midway(s.path(), &killed, "cut/results.jsonl", 5);
    let total = s.read("whole/results.jsonl").lines().count();
    assert!(kept < total, "the run finished before the kill ({kept} records)");
    let run = s.sleuth(&killed);
    run.code(2);
    assert!(run.stderr.contains("'cut' already holds files: add --resume"), "{}", run.stderr);
    // Other settings do not resume it.
    let run = s.sleuth(&[&args[..], &["--out", "cut", "--resume", "--seed", "1"]].concat());
    run.code(2);
    assert!(run.stderr.contains("seed 1 on the command line, 0 in 'cut'"), "{}", run.stderr);
    let run = s.sleuth(&[&args[..], &["--out", "cut", "--resume"]].concat());
    run.code(0);
    assert!(run.stdout.contains("resumed in 'cut'"), "{}", run.stdout);
    assert_eq!(s.read("cut/results.jsonl").lines().count(), total);
    assert_eq!(untimed(&s.path().join("cut")), untimed(&s.path().join("whole")));
    // --force starts afresh.
    s.sleuth(&[&args[..], &["--out", "cut", "--force"]].concat()).code(0);
    assert_eq!(untimed(&s.path().join("cut")), untimed(&s.path().join("whole")));
}

#[test]
fn the_default_folder_is_new_and_committed_results_are_never_overwritten() {
    let s = Scratch::new();
    std::fs::create_dir_all(s.path().join("experiments/sampling")).unwrap();
    s.write("experiments/sampling/summary.md", "the paper's results");
    let run = s.sleuth(&["experiment", "sampling", "--quick", "--out", "experiments/sampling"]);
    run.code(2);
    assert!(run.stderr.contains("'experiments/sampling' already holds files"), "{}", run.stderr);
    assert_eq!(s.read("experiments/sampling/summary.md"), "the paper's results");
    let run = s.sleuth(&["experiment", "sampling", "--quick"]);
    run.code(0);
    let made: Vec<_> = std::fs::read_dir(s.path().join("results")).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(made.len(), 1);
    assert!(made[0].file_name().unwrap().to_string_lossy().starts_with("sampling-"));
    check_outputs(&made[0]);
}

#[test]
fn methods_option_runs_only_those() {
    let scratch = Scratch::new();
    let run = scratch.sleuth(&["experiment", "sampling", "--quick", "--methods", "alg1,b20,tenure3", "--out", "out"]);
    run.code(0);
    let runs = scratch.read("out/runs.csv");
    let seen: std::collections::BTreeSet<&str> = runs.lines().skip(1).map(|l| l.split(',').nth(6).unwrap()).collect();
    assert_eq!(seen, ["alg1", "b20", "tenure3"].into_iter().collect(), "{runs}");
    assert!(run.stdout.contains("restart p = 0.2"), "{}", run.stdout);
    // The uniform methods are matched to Algorithm 2: without it they are refused.
    let run = scratch.sleuth(&["experiment", "sampling", "--quick", "--methods", "alg1,uniform-time", "--out", "x"]);
    run.code(2);
    assert!(run.stderr.contains("add alg2"), "{}", run.stderr);
    let run = scratch.sleuth(&["experiment", "sampling", "--quick", "--methods", "tenure5", "--out", "x"]);
    run.code(2);
    assert!(run.stderr.contains("unknown method"), "{}", run.stderr);
}

/// The card rows of a printed table: lines that start with a card id.
fn card_rows(block: &str) -> Vec<&str> {
    const CARDS: [&str; 21] = [
        "mu", "pl", "gr", "pe", "sc", "wh", "kn", "ca", "re", "ro", "pi", "wr", "ha", "lo", "di", "ki", "ba", "co",
        "bi", "li", "st",
    ];
    block.lines().filter(|l| CARDS.iter().any(|c| l.starts_with(&format!("{c} ")))).collect()
}

#[test]
fn table1_prints_the_papers_layout() {
    let scratch = Scratch::new();
    let run = scratch.sleuth(&["experiment", "table1", "--iterations", "5000", "--seeds", "3"]);
    run.code(0);
    let out = &run.stdout;
    let at = |s: &str| out.find(s).unwrap_or_else(|| panic!("no {s:?} in:\n{out}"));
    let (a, b, c, d, both, obs) = (
        at("(a) Game play"),
        at("(b) Exact"),
        at("(c) Algorithm 1"),
        at("(d) Algorithm 2"),
        at("(c) and (d) over seeds 0..=2"),
        at("The paper's observations"),
    );
    assert!(a < b && b < c && c < d && d < both && both < obs, "{out}");
    assert!(out[..a].contains("hand pl ro li"), "{out}");
    assert_eq!(out[a..b].lines().filter(|l| l.trim_start().starts_with(['m', 'w', 'g', 's'])).count(), 10, "{out}");
    assert!(out[a..b].contains("[ba]") && out[a..b].contains("[gr]") && out[a..b].contains("[li]"), "{out}");
    // The paper: 11 cards uncertain; the reading of its (b): 6,798 deals.
    assert!(out[b..c].contains("6,798 consistent deals, 11 cards uncertain"), "{out}");
    let mut open = 0;
    for (from, to, width) in [(b, c, 7), (c, d, 7), (d, both, 7)] {
        let rows = card_rows(&out[from..to]);
        assert_eq!(rows.len(), 21, "{}", &out[from..to]);
        // Every row has a cell per place: O, X, or a probability.
        for row in rows {
            let cells: Vec<&str> =
                row.split_whitespace().skip(1).filter(|t| *t == "O" || *t == "X" || t.starts_with('.')).collect();
            assert_eq!(cells.len(), width, "{row}");
            if from == b {
                open += cells.iter().filter(|t| t.starts_with('.')).count();
            }
        }
        assert!(out[from..to].contains("sc") && out[from..to].contains("cf"), "{out}");
    }
    assert!(out[c..d].contains("5,000 iterations, seed 0"), "{out}");
    // Side by side: one line per open cell of (b), exact, then each algorithm's mean and range.
    let side: Vec<&str> = out[both..obs].lines().filter(|l| card_rows(l.trim_start()).len() == 1).collect();
    assert_eq!(side.len(), open, "{}", &out[both..obs]);
    for line in side {
        assert!(line.split_whitespace().filter(|t| t.contains('-')).count() >= 2, "{line}");
    }
    for (i, obs_line) in
        ["1. \"Boldface", "2. \"the greatest", "3. they \"are roughly half", "4. \"and such"].iter().enumerate()
    {
        let line = out[obs..].lines().find(|l| l.starts_with(obs_line)).unwrap_or_else(|| panic!("{out}"));
        assert!(i == 0 || line.contains(" of 3 seeds"), "{line}");
    }
    assert!(out[obs..].matches("holds at ").count() >= 5, "{out}");
}

#[test]
fn table1_candidates_and_hand() {
    let scratch = Scratch::new();
    let run = scratch.sleuth(&["experiment", "table1", "--candidates"]);
    run.code(0);
    assert!(run.stdout.contains("pl,ro,li") && run.stdout.contains("9 hands"), "{}", run.stdout);
    let run = scratch.sleuth(&["experiment", "table1", "--hand", "kn,ro,li", "--iterations", "1000", "--seeds", "1"]);
    run.code(0);
    assert!(run.stdout.contains("hand kn ro li"), "{}", run.stdout);
    let run = scratch.sleuth(&["experiment", "table1", "--hand", "kn,ro", "--seeds", "1"]);
    run.code(2);
}

#[test]
fn sampling_defaults_are_the_papers_experiment() {
    let scratch = Scratch::new();
    let help = scratch.sleuth(&["experiment", "sampling", "--help"]);
    help.code(0);
    assert!(help.stdout.contains("The defaults are the paper's experiment"), "{}", help.stdout);
    // Only the size options given: the rest is the default configuration.
    let run = scratch.sleuth(&[
        "experiment",
        "sampling",
        "--games",
        "1",
        "--runs",
        "1",
        "--iterations",
        "10",
        "--max-states",
        "0",
        "--out",
        "out",
    ]);
    run.code(0);
    let config: serde_json::Value = serde_json::from_str(&scratch.read("out/config.json")).unwrap();
    assert_eq!(config["agents"], "random", "{config}");
    assert_eq!(config["beyond"], 0, "{config}");
    assert_eq!(config["players"], 6, "{config}");
    assert_eq!(config["max_models"], 10_000_000, "{config}");
    assert_eq!(config["methods"].as_array().unwrap().len(), METHODS.len(), "{config}");
    // --beyond all: every state past the threshold.
    let run = scratch.sleuth(&[
        "experiment",
        "sampling",
        "--games",
        "1",
        "--runs",
        "1",
        "--iterations",
        "10",
        "--max-states",
        "0",
        "--beyond",
        "all",
        "--methods",
        "alg1",
        "--out",
        "all",
    ]);
    run.code(0);
    let config: serde_json::Value = serde_json::from_str(&scratch.read("all/config.json")).unwrap();
    assert_eq!(config["beyond"], serde_json::Value::Null, "{config}");
    scratch.sleuth(&["experiment", "sampling", "--beyond", "some", "--out", "x"]).code(2);
}
