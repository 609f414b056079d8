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
    assert!(run.stderr.contains("shard 0/2 is given twice: 'shard0' and 'shard0'"), "{}", run.stderr);
}

/// The tournament of the kill test: 192 games, one thread, each game
/// flushed to disk as it ends (about a second).
const SMALL: [&str; 7] = ["tournament", "--agents", "random,exact,notepad", "--players", "3..5", "--threads", "1"];

#[test]
fn a_killed_shard_resumes_into_the_unbroken_run() {
    let s = Scratch::new();
    let with = |extra: &[&'static str]| [&SMALL[..], extra].concat();
    s.sleuth(&with(&["--out", "whole"])).code(0);
    let shards = [("0/2", "s0"), ("1/2", "s1")];
    let mut kept = Vec::new();
    for (shard, out) in shards {
        let args = with(&["--shard", shard, "--out", out]);
        let n = crate::support::kill_midway(s.path(), &args, &format!("{out}/results.jsonl"), 10);
        assert!(n < 96, "shard {shard} finished before the kill ({n} games)");
        assert!(!s.path().join(out).join("games.csv").exists());
        // Rerunning without --resume is refused.
        let run = s.sleuth(&args);
        run.code(2);
        assert!(run.stderr.contains(&format!("'{out}' already holds files: add --resume")), "{}", run.stderr);
        kept.push(n);
    }
    // Merging killed shards is refused, naming one.
    let run = s.sleuth(&["tournament", "merge", "s0", "s1"]);
    run.code(2);
    let says = format!("shard 0/2 in 's0' is unfinished ({} of its 96 games played)", kept[0]);
    assert!(run.stderr.contains(&says), "{}", run.stderr);
    for ((shard, out), n) in shards.into_iter().zip(kept) {
        let run = s.sleuth(&with(&["--shard", shard, "--out", out, "--resume"]));
        run.code(0);
        assert!(run.stdout.contains(&format!("resumed in '{out}': {n} of the 96 games")), "{}", run.stdout);
    }
    s.sleuth(&["tournament", "merge", "s0", "s1", "--out", "merged"]).code(0);
    assert_eq!(s.read("merged/games.csv"), s.read("whole/games.csv"));
    assert_eq!(s.read("merged/summary.md"), s.read("whole/summary.md"));
}

#[test]
fn merge_refuses_incomplete_doubled_and_foreign_sets_in_words() {
    let s = Scratch::new();
    let base = ["tournament", "--agents", "random,exact", "--players", "3", "--threads", "1"];
    for (shard, out) in [("0/3", "a0"), ("1/3", "a1"), ("2/3", "a2")] {
        s.sleuth(&[&base[..], &["--shard", shard, "--out", out]].concat()).code(0);
    }
    s.sleuth(&[&base[..], &["--shard", "2/3", "--seed", "5", "--out", "b2"]].concat()).code(0);
    for (dirs, says) in [
        (vec!["a0", "a1"], "1 of the 3 shards is missing (2/3)"),
        (vec!["a0", "a1", "a1", "a2"], "shard 1/3 is given twice: 'a1' and 'a1'"),
        (vec!["a0", "a1", "b2"], "'b2' is a shard of another tournament than 'a0': seed 0 in 'a0', 5 in 'b2'"),
        (vec!["a0", "nowhere"], "'nowhere' holds no tournament results"),
    ] {
        let run = s.sleuth(&[&["tournament", "merge"][..], &dirs].concat());
        run.code(2);
        assert!(run.stderr.contains(says), "{dirs:?}: {}", run.stderr);
        assert!(!run.stderr.contains("TournamentConfig") && !run.stderr.contains('{'), "{}", run.stderr);
    }
    assert!(!s.path().join("results").exists(), "a refused merge wrote nothing");
    s.sleuth(&["tournament", "merge", "a2", "a0", "a1", "--out", "m"]).code(0);
    // An existing folder is not written over without --force.
    let run = s.sleuth(&["tournament", "merge", "a2", "a0", "a1", "--out", "m"]);
    run.code(2);
    assert!(run.stderr.contains("'m' already holds files"), "{}", run.stderr);
    s.sleuth(&["tournament", "merge", "a2", "a0", "a1", "--out", "m", "--force"]).code(0);
}

#[test]
fn quick_defaults_and_empty_shards() {
    let s = Scratch::new();
    // --quick: the default agents at 3 players, into a new folder.
    let run = s.sleuth(&["tournament", "--quick"]);
    run.code(0);
    let made: Vec<_> = std::fs::read_dir(s.path().join("results")).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(made.len(), 1);
    let name = made[0].file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.starts_with("tournament-"), "{name}");
    assert!(run.stdout.contains(&format!("written to 'results/{name}'")), "{}", run.stdout);
    // 6 agents in 3 seats, one game per seating.
    assert_eq!(std::fs::read_to_string(made[0].join("games.csv")).unwrap().lines().count(), 1 + 120);
    for agent in ["random", "exact", "notepad", "group4", "sat", "sleuth"] {
        assert!(run.stdout.contains(&format!("| {agent} |")), "{agent}: {}", run.stdout);
    }
    // 6 games in 8 shards: shard 7/8 has none, and says so.
    let run = s.sleuth(&["tournament", "--agents", "random,exact", "--players", "3", "--shard", "7/8", "--out", "e"]);
    run.code(0);
    assert!(run.stderr.contains("shard 7/8 is empty"), "{}", run.stderr);
    assert!(run.stdout.contains("shard 7/8: 0 games") && run.stdout.contains("shard 7/8 is empty"), "{}", run.stdout);
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
