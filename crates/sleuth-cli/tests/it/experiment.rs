//! `sleuth experiment sampling --quick` and `sleuth experiment merge`: the
//! files written and their structure (not the numbers).

use crate::support::Scratch;

const METHODS: [&str; 8] = ["alg1", "a", "b", "c", "d", "alg2", "uniform-samples", "uniform-time"];

/// Checks an output directory of a complete run.
fn check_outputs(dir: &std::path::Path) {
    for file in ["config.json", "games.csv", "states.csv", "runs.csv", "summary.json", "summary.md"] {
        assert!(dir.join(file).is_file(), "{file} missing");
    }
    for plot in ["rmsd_variants", "rmsd_curves"] {
        let svg = std::fs::read_to_string(dir.join(format!("{plot}.svg"))).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("<text") && svg.contains("RMSD"), "{plot}.svg");
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
        assert!(run.stdout.contains("merge the shards"), "{}", run.stdout);
        assert!(!scratch.path().join(&out).join("summary.md").exists());
    }
    let run = scratch.sleuth(&["experiment", "merge", "shard0", "shard1", "--out", "merged"]);
    run.code(0);
    check_outputs(&scratch.path().join("merged"));
    let games = scratch.read("merged/games.csv");
    assert_eq!(games.lines().count(), 1 + 3, "{games}");
    // A shard merged with itself is refused.
    let run = scratch.sleuth(&["experiment", "merge", "shard0", "shard0", "--out", "bad"]);
    run.code(2);
    assert!(run.stderr.contains("appears in two"), "{}", run.stderr);
    let run = scratch.sleuth(&["experiment", "sampling", "--quick", "--shard", "2/2"]);
    run.code(2);
}
