//! Arguments, help, exit codes and pipes.

use crate::support::{sleuth, testdata, Scratch};
use std::io::{Read, Write};
use std::process::{Command, Stdio};

#[test]
fn unknown_subcommand_is_a_usage_error() {
    let run = sleuth(&["frobnicate"]);
    run.code(2);
    assert!(run.stderr.contains("unrecognized subcommand 'frobnicate'"), "{}", run.stderr);
}

#[test]
fn unknown_option_is_a_usage_error() {
    let run = sleuth(&["notepad", "--colour", "seed-sat-sample.json"]);
    run.code(2);
    assert!(run.stderr.contains("unexpected argument '--colour'"), "{}", run.stderr);
}

#[test]
fn missing_argument_is_a_usage_error() {
    let run = sleuth(&["why", "seed-sat-sample.json", "pi"]);
    run.code(2);
    assert!(run.stderr.contains("<PLACE>"), "{}", run.stderr);
    sleuth(&[]).code(2);
}

#[test]
fn help_documents_exit_codes() {
    let run = sleuth(&["--help"]);
    run.code(0);
    for line in ["0  success", "1  no result", "2  usage or input error", "3  the history is inconsistent"] {
        assert!(run.stdout.contains(line), "{line}\n{}", run.stdout);
    }
    for cmd in ["notepad", "analyze", "check", "constraints", "why", "generate", "bench"] {
        assert!(run.stdout.contains(cmd), "{cmd}");
        let sub = sleuth(&[cmd, "--help"]);
        sub.code(0);
        assert!(sub.stdout.contains("Exit codes:"), "{cmd}");
    }
    sleuth(&["--version"]).code(0);
}

#[test]
fn closed_pipe_exits_cleanly() {
    // `sleuth constraints --dimacs big | head -1`: the reader goes away
    // after the first line; sleuth must not panic or report an error. The
    // output (230 KB) outgrows the pipe, so the write really fails: SIGPIPE
    // must not kill the process, and the error must end it quietly.
    let mut child = Command::new(env!("CARGO_BIN_EXE_sleuth"))
        .args(["constraints", "--dimacs", "seed-sat-sample.json"])
        .current_dir(testdata(""))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.as_mut().unwrap().read_exact(&mut first).unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn output_to_a_pipe_closed_before_the_first_write_ends_quietly() {
    // `sleuth analyze - < game | head -1` where the reader has already gone:
    // the game comes on standard input, sent only after the read end of the
    // output pipe is closed, so the first write of the answer fails.
    let game = std::fs::read(testdata("seed-sat-sample.json")).unwrap();
    for args in [&["analyze", "--json", "-"][..], &["notepad", "-"], &["why", "-", "pi", "case_file"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sleuth"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        child.stdin.take().unwrap().write_all(&game).unwrap();
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "sleuth {args:?}: {stderr}");
        assert!(stderr.is_empty(), "sleuth {args:?}: {stderr}");
    }
}

/// Runs `sleuth ARGS` from `sh` with the standard streams `redirect` closes
/// (`>&-`, `2>&-`, `<&-`), in `dir`; the streams left open are piped.
#[cfg(unix)]
fn sleuth_with_closed(redirect: &str, args: &[&str], dir: &std::path::Path) -> (Option<i32>, String, String) {
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("exec \"$0\" \"$@\" {redirect}"))
        .arg(env!("CARGO_BIN_EXE_sleuth"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// A parent may start `sleuth` with standard streams closed. Nothing
/// panics (exit code 101), and no file `sleuth` opens takes a closed
/// stream's place: what it would print there goes nowhere.
#[cfg(unix)]
#[test]
fn closed_standard_streams_do_not_panic() {
    let data = testdata("");
    let (code, stdout, stderr) = sleuth_with_closed(">&-", &["analyze", "--json", "seed-sat-sample.json"], &data);
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (Some(0), "", ""));

    let (code, stdout, stderr) = sleuth_with_closed(">&-", &["analyze", "no-such-game.json"], &data);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stdout.is_empty() && stderr.starts_with("error: ") && stderr.contains("no-such-game.json"), "{stderr}");

    let (code, stdout, stderr) = sleuth_with_closed("2>&-", &["analyze", "no-such-game.json"], &data);
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (Some(2), "", ""));

    let (code, stdout, stderr) = sleuth_with_closed("<&-", &["check", "-"], &data);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stdout.is_empty() && stderr.starts_with("error: "), "{stderr}");

    // All three closed: the game file written is the same as with them open.
    let scratch = Scratch::new();
    let args = ["generate", "--seed", "3", "--suggestions", "4", "-o", "closed.json"];
    let (code, stdout, stderr) = sleuth_with_closed(">&- 2>&- <&-", &args, scratch.path());
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (Some(0), "", ""));
    scratch.sleuth(&["generate", "--seed", "3", "--suggestions", "4", "-o", "open.json"]).code(0);
    assert_eq!(scratch.read("closed.json"), scratch.read("open.json"));
}
