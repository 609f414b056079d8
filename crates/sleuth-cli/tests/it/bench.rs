//! `sleuth bench`.

use crate::support::sleuth;

#[test]
fn times_given_files() {
    let run = sleuth(&["bench", "--quick", "seed-sat-sample.json", "seed-sat-sample-before-accusation.json"]);
    run.code(0);
    assert!(run.stdout.contains("machine: "), "{}", run.stdout);
    assert!(run.stdout.contains("peak memory (VmHWM): "), "{}", run.stdout);
    let rows: Vec<&str> = run.stdout.lines().filter(|l| l.starts_with("seed-sat-sample")).collect();
    assert_eq!(rows.len(), 2, "{}", run.stdout);
    // The count and the whole analysis (counts and case files), side by side.
    assert!(run.stdout.contains("count median ms") && run.stdout.contains("whole median ms"), "{}", run.stdout);
    assert!(run.stdout.contains("whole/count"), "{}", run.stdout);
}

#[test]
fn generated_cells_as_markdown() {
    let run = sleuth(&["bench", "--games", "1", "--repeat", "1", "--markdown"]);
    run.code(0);
    let rows: Vec<&str> =
        run.stdout.lines().filter(|l| l.starts_with("| classic") || l.starts_with("| master")).collect();
    // 8 kinds of game (classic 3-6, master 6, 8, 10, master 10 bystander) x 5 lengths.
    assert_eq!(rows.len(), 40, "{}", run.stdout);
    assert!(run.stdout.contains("| deck "));
    assert!(run.stdout.contains("bystander"));
    for column in ["| count max ms |", "| whole max ms |", "| max whole/count |", "| over 2x+2ms |"] {
        assert!(run.stdout.contains(column), "{column}: {}", run.stdout);
    }
}

/// `--plot DIR` draws the timed states against the target, as SVG and PNG,
/// and leaves the table on standard output as it was.
#[test]
fn plots_the_timed_states() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("plots");
    let run = sleuth(&["bench", "--quick", "--plot", out.to_str().unwrap(), "seed-sat-sample.json"]);
    run.code(0);
    assert!(run.stdout.lines().any(|l| l.starts_with("seed-sat-sample.json")), "{}", run.stdout);
    assert!(run.stderr.contains("bench_times.svg"), "{}", run.stderr);
    let svg = std::fs::read_to_string(out.join("bench_times.svg")).unwrap();
    assert!(svg.starts_with("<svg"), "bench_times.svg");
    for text in ["target: 2 × count + 2 ms (0 of 1 states above)", "game files (1)", "whole = count"] {
        assert!(svg.contains(text), "{text}: bench_times.svg");
    }
    let png = std::fs::read(out.join("bench_times.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "bench_times.png");
}

/// A plot directory that cannot be made is a clear error (exit 2), after the
/// table.
#[test]
fn a_plot_directory_in_the_way_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("taken");
    std::fs::write(&file, "not a directory").unwrap();
    let run = sleuth(&["bench", "--quick", "--plot", file.to_str().unwrap(), "seed-sat-sample.json"]);
    run.code(2);
    assert!(run.stdout.lines().any(|l| l.starts_with("seed-sat-sample.json")), "{}", run.stdout);
    assert!(run.stderr.contains("cannot create the directory: a file of that name is in the way"), "{}", run.stderr);
}

/// A file that cannot be read is reported, the others are still timed, and
/// the exit code (1: a state could not be analysed) says something failed.
#[test]
fn bad_files_are_reported_and_the_rest_timed() {
    let good = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/seed-sat-sample.json");
    let run = sleuth(&["bench", "--quick", "no-such-file.json", good]);
    run.code(1);
    assert!(run.stderr.contains("cannot read 'no-such-file.json'"), "{}", run.stderr);
    let row = run.stdout.lines().find(|l| l.contains("seed-sat-sample.json")).expect("the good file has a row");
    assert!(row.split_whitespace().nth(1) == Some("1"), "one consistent deal: {row}");
    assert!(run.stdout.lines().any(|l| l.starts_with("no-such-file.json") && l.contains("failed")), "{}", run.stdout);
}

/// `--advice` with files: a row per file with its whole analysis,
/// suggestions and advice, one over them all, and a file that cannot be
/// read reported (exit 1) while the others are timed.
#[test]
fn times_the_advice_of_given_files() {
    let run = sleuth(&[
        "bench",
        "--advice",
        "--repeat",
        "1",
        "seed-sat-sample-midgame.json",
        "no-such-file.json",
        "seed-sat-sample.json",
    ]);
    run.code(1);
    assert!(run.stderr.contains("cannot read 'no-such-file.json'"), "{}", run.stderr);
    for column in ["whole ms", "suggestions ms", "advice ms"] {
        assert!(run.stdout.contains(column), "{column}: {}", run.stdout);
    }
    let rows: Vec<&str> = run.stdout.lines().filter(|l| l.starts_with("seed-sat-sample")).collect();
    assert_eq!(rows.len(), 2, "{}", run.stdout);
    for row in rows {
        let ms: Vec<f64> = row.split_whitespace().skip(1).map(|x| x.parse().unwrap()).collect();
        assert!(ms.len() == 3 && ms.iter().all(|&x| x > 0.0), "{row}");
    }
    let all =
        run.stdout.lines().find_map(|l| l.strip_prefix("all 2 (median / p95 / max)")).expect("a row over them all");
    // Three columns of median / p95 / max.
    assert_eq!(all.matches(" / ").count(), 6, "{all}");
}

/// `--advice --plot DIR` draws each file's advice against its whole
/// analysis, with the advice's targets, and leaves the table on standard
/// output as it was.
#[test]
fn plots_the_advice() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("plots");
    let run = sleuth(&[
        "bench",
        "--advice",
        "--repeat",
        "1",
        "--plot",
        out.to_str().unwrap(),
        "seed-sat-sample-midgame.json",
    ]);
    run.code(0);
    assert!(run.stdout.lines().any(|l| l.starts_with("seed-sat-sample-midgame.json")), "{}", run.stdout);
    assert!(run.stderr.contains("bench_advice.svg"), "{}", run.stderr);
    let svg = std::fs::read_to_string(out.join("bench_advice.svg")).unwrap();
    assert!(svg.starts_with("<svg"), "bench_advice.svg");
    for text in ["game files (1)", "advice = whole analysis"] {
        assert!(svg.contains(text), "{text}: bench_advice.svg");
    }
    // How many states are above a target depends on this machine's speed.
    for target in ["target, master 10 players: at worst 300 ms (", "target, classic: 5 ms ("] {
        let at = svg.find(target).unwrap_or_else(|| panic!("{target}: bench_advice.svg"));
        let rest = &svg[at + target.len()..];
        assert!(rest.starts_with("0 of 1 state above)") || rest.starts_with("1 of 1 state above)"), "{rest}");
    }
    let png = std::fs::read(out.join("bench_advice.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "bench_advice.png");
}
