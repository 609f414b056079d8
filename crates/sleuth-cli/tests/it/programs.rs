//! The two programs: `sleuth` runs the quick subcommands itself and hands
//! the others to `sleuth-full` beside it (ARCHITECTURE.md, "Two programs").

use crate::support::{sleuth, testdata, Scratch};
use std::process::Command;

/// The subcommands `sleuth` runs without `sleuth-full`, with arguments that
/// make each answer.
const QUICK: [&[&str]; 8] = [
    &["notepad", "seed-sat-sample.json"],
    &["analyze", "--json", "seed-sat-sample.json"],
    &["advise", "seed-sat-sample-before-accusation.json", "--samples", "4"],
    &["check", "seed-sat-sample.json"],
    &["constraints", "seed-sat-sample.json"],
    &["why", "seed-sat-sample.json", "pi", "case_file"],
    &["generate", "--seed", "3", "--suggestions", "2"],
    &["sample", "seed-sat-sample.json", "--samples", "10"],
];

/// The subcommands that run in `sleuth-full`, with arguments clap accepts.
const FULL: [&[&str]; 6] = [
    &["bench", "seed-sat-sample.json"],
    &["logic", "solve", "none.cnf"],
    &["experiment", "merge", "none"],
    &["serve"],
    &["tournament", "--games", "1"],
    &["speedclue", "sleuth", "1"],
];

/// `sleuth-full`, beside `sleuth` (Cargo builds every program of the package
/// for the tests). Not `env!("CARGO_BIN_EXE_sleuth-full")`: the POSIX shell
/// of `.cargo/link-sleuth-static` drops variables whose names hold a dash.
fn sleuth_full() -> std::path::PathBuf {
    let sleuth = std::path::Path::new(env!("CARGO_BIN_EXE_sleuth"));
    sleuth.with_file_name(format!("sleuth-full{}", std::env::consts::EXE_SUFFIX))
}

/// `sleuth` copied alone into a scratch directory, without `sleuth-full`.
fn alone(scratch: &Scratch) -> std::path::PathBuf {
    let to = scratch.path().join(format!("sleuth{}", std::env::consts::EXE_SUFFIX));
    std::fs::copy(env!("CARGO_BIN_EXE_sleuth"), &to).unwrap();
    to
}

fn run(program: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(program).args(args).current_dir(testdata("")).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn sleuth_alone_runs_every_quick_subcommand() {
    let scratch = Scratch::new();
    let program = alone(&scratch);
    for args in QUICK {
        let (code, stdout, stderr) = run(&program, args);
        assert_eq!(code, 0, "sleuth {args:?}: {stderr}");
        assert!(!stdout.is_empty(), "sleuth {args:?}");
        // The same answer as through the built pair.
        if args[0] != "advise" && args[0] != "sample" {
            assert_eq!(stdout, sleuth(args).stdout, "sleuth {args:?}");
        }
    }
}

#[test]
fn sleuth_alone_names_the_missing_companion() {
    let scratch = Scratch::new();
    let program = alone(&scratch);
    for args in FULL {
        let sub = args[0];
        let (code, stdout, stderr) = run(&program, args);
        assert_eq!(code, 2, "sleuth {sub}: {stderr}");
        assert!(stdout.is_empty(), "sleuth {sub}: {stdout}");
        assert!(stderr.contains(&format!("'sleuth {sub}' runs in the program sleuth-full")), "{stderr}");
        assert!(stderr.contains("cargo build --release"), "{stderr}");
    }
    // Help and usage errors need no companion.
    let (code, stdout, _) = run(&program, &["serve", "--help"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("Usage: sleuth serve"), "{stdout}");
    let (code, _, stderr) = run(&program, &["tournament", "--no-such-option"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("unexpected argument '--no-such-option'"), "{stderr}");
}

#[test]
fn other_subcommands_run_in_sleuth_full_with_its_exit_code() {
    // `logic solve` exits 10 on a satisfiable formula (SAT-competition
    // convention): the code and the output pass through.
    let scratch = Scratch::new();
    scratch.write("one.cnf", "p cnf 1 1\n1 0\n");
    let run = scratch.sleuth(&["logic", "solve", "one.cnf"]);
    run.code(10);
    assert!(run.stdout.contains("s SATISFIABLE"), "{}", run.stdout);
    // Usage strings name `sleuth`, as typed.
    let run = sleuth(&["logic", "solve", "--no-such-option", "x"]);
    run.code(2);
    assert!(run.stderr.contains("Usage: sleuth logic solve"), "{}", run.stderr);
}

#[test]
fn sleuth_full_runs_every_subcommand_too() {
    let full = sleuth_full();
    for args in QUICK.iter().filter(|a| a[0] != "advise" && a[0] != "sample") {
        let (code, stdout, stderr) = run(&full, args);
        assert_eq!(code, 0, "sleuth-full {args:?}: {stderr}");
        assert_eq!(stdout, sleuth(args).stdout, "sleuth-full {args:?}");
    }
}

/// `sleuth` starts quickly because it does not carry the web server and the
/// plots: their text is in `sleuth-full` only (the positive check keeps the
/// markers honest).
#[test]
fn sleuth_leaves_the_web_server_and_plots_to_sleuth_full() {
    let quick = std::fs::read(env!("CARGO_BIN_EXE_sleuth")).unwrap();
    let full = std::fs::read(sleuth_full()).unwrap();
    let has = |bytes: &[u8], marker: &str| bytes.windows(marker.len()).any(|w| w == marker.as_bytes());
    // The web page's join panel, and the plots' embedded font.
    for marker in ["Join from a phone", "DejaVu Sans"] {
        assert!(has(&full, marker), "sleuth-full lacks {marker:?}");
        assert!(!has(&quick, marker), "sleuth carries {marker:?}");
    }
}
