//! `sleuth tournament` and `sleuth tournament merge`: the files written, and
//! shards merging into the unsharded run.

use crate::support::Scratch;

fn check_outputs(dir: &std::path::Path) {
    for file in ["config.json", "games.csv", "summary.json", "summary.md"] {
        assert!(dir.join(file).is_file(), "{file} missing");
    }
    let svg = std::fs::read_to_string(dir.join("win_rates.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("win rate"), "win_rates.svg");
    let png = std::fs::read(dir.join("win_rates.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "win_rates.png");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["missing"], 0);
}

const ARGS: [&str; 8] = ["tournament", "--agents", "random,exact", "--players", "3..4", "--games", "2", "--seed=4"];

#[test]
fn tournament_writes_results_summary_and_plot() {
    let s = Scratch::new();
    let mut args = ARGS.to_vec();
    args.extend(["--out", "full"]);
    let run = s.sleuth(&args);
    run.code(0);
    assert!(run.stdout.contains("| random |") && run.stdout.contains("| exact |"), "{}", run.stdout);
    assert!(run.stdout.contains("3 players: exact leads random"), "{}", run.stdout);
    check_outputs(&s.path().join("full"));
    // (6 + 14 seatings) x 2 games, plus the header.
    assert_eq!(s.read("full/games.csv").lines().count(), 41);
}

#[test]
fn shards_merge_into_the_unsharded_run() {
    let s = Scratch::new();
    let mut args = ARGS.to_vec();
    args.extend(["--out", "full"]);
    s.sleuth(&args).code(0);
    for i in 0..2 {
        let shard = format!("{i}/2");
        let out = format!("shard{i}");
        let mut args = ARGS.to_vec();
        args.extend(["--shard", &shard, "--out", &out, "--threads", "1"]);
        let run = s.sleuth(&args);
        run.code(0);
        assert!(run.stdout.contains("sleuth tournament merge"), "{}", run.stdout);
    }
    s.sleuth(&["tournament", "merge", "shard1", "shard0", "--out", "merged"]).code(0);
    check_outputs(&s.path().join("merged"));
    assert_eq!(s.read("merged/games.csv"), s.read("full/games.csv"));
    assert_eq!(s.read("merged/summary.md"), s.read("full/summary.md"));
    // Merging a shard with itself is refused.
    let run = s.sleuth(&["tournament", "merge", "shard0", "shard0", "--out", "bad"]);
    run.code(2);
    assert!(run.stderr.contains("appears in two"), "{}", run.stderr);
}

#[test]
fn bad_options_are_usage_errors() {
    let s = Scratch::new();
    for (args, says) in [
        (vec!["tournament", "--agents", "nobody"], "unknown agent 'nobody'"),
        (vec!["tournament", "--players", "2..9"], "the classic deck is played by 3 to 6"),
        (vec!["tournament", "--players", "x"], "not a number of players"),
        (vec!["tournament", "--shard", "3/2"], "below the number of shards"),
        (vec!["tournament", "--deck", "tiny"], "unknown deck"),
    ] {
        let run = s.sleuth(&args);
        run.code(2);
        assert!(run.stderr.contains(says), "{args:?}: {}", run.stderr);
    }
}
