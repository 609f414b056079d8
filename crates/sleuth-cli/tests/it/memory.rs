//! A count that the memory cannot hold is refused, never aborted (issue 59,
//! item 2): under `ulimit -v` the state limit follows the address space
//! left, and where a limit set by hand lets the count outgrow the memory,
//! the allocation that fails becomes the same refusal. Either way: exit 2,
//! the message that names `sleuth sample --method alg2`, and no abort.

use crate::support::{generated, Run, Scratch};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The address space each run may use, in KiB (`ulimit -v`): 300 MB.
const ULIMIT_KIB: u64 = 300_000;

/// A run that has not ended by then hangs: the test fails instead of
/// waiting for it.
const HANG: Duration = Duration::from_secs(120);

/// The game of issue 59: 8 categories of 4 cards and 8 of 2, 6 players, a
/// bystander's view, 60 suggestions. Its count needs far more than 300 MB.
fn large_game(scratch: &Scratch) -> String {
    let deck = "4,4,4,4,4,4,4,4,2,2,2,2,2,2,2,2";
    let options = ["--deck", deck, "--players", "6", "--bystander", "--suggestions", "60", "--seed", "1"];
    scratch.write("large.json", &generated(&options))
}

/// Runs `sleuth` under `ulimit -v` (through `sh`), with environment
/// variables set; fails the test if it runs past [`HANG`].
fn sleuth_limited(scratch: &Scratch, args: &[&str], vars: &[(&str, &str)]) -> (Run, Duration) {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!("ulimit -v {ULIMIT_KIB} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_sleuth"))
        .args(args)
        .current_dir(scratch.path())
        .env_remove("SLEUTH_MAX_STATES")
        .envs(vars.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let start = Instant::now();
    let mut child = cmd.spawn().expect("sh runs");
    while child.try_wait().expect("waits").is_none() {
        if start.elapsed() > HANG {
            let _ = child.kill();
            panic!("sleuth {args:?} under ulimit -v {ULIMIT_KIB} still runs after {HANG:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("sleuth finishes");
    let run = Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    };
    (run, start.elapsed())
}

/// The refusal: exit 2, a last line of error naming the game file and the
/// command that can still estimate it, nothing on standard output, and
/// before it only the count's progress (no allocator's complaint, no
/// backtrace).
#[track_caller]
fn assert_refused(run: &Run, why: &str) {
    run.code(2);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    let mut lines: Vec<&str> = run.stderr.lines().collect();
    let line = lines.pop().unwrap_or_default();
    assert!(line.starts_with("error: 'large.json': the exact counter"), "{}", run.stderr);
    assert!(line.contains(why), "{line}");
    assert!(line.ends_with("sleuth sample --method alg2 'large.json'"), "{line}");
    assert!(lines.iter().all(|l| l.starts_with("counting exactly: ")), "{}", run.stderr);
}

/// With the limit measured, the count stops at the states half the address
/// space left holds (about 2 million states at 70 bytes, in a few seconds,
/// with the system allocator).
#[cfg(target_os = "linux")]
#[test]
fn a_count_past_the_address_space_is_refused_by_the_state_limit() {
    let scratch = Scratch::new();
    let game = large_game(&scratch);
    let (run, took) = sleuth_limited(&scratch, &["analyze", &game], &[]);
    assert_refused(&run, "would need more than");
    // The limit follows the address space left: at most what half of it
    // holds at 70 bytes a state (what the process maps already is less).
    let limit: usize = run
        .stderr
        .split("more than ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("the message names the limit");
    let address_space = ULIMIT_KIB as usize * 1024;
    assert!((1..=address_space / 2 / 70).contains(&limit), "limit {limit}");
    eprintln!("refused at {limit} states after {took:?}");
}

/// With a limit set by hand far past what the address space holds, the
/// count outgrows the memory, and the allocation that fails is refused
/// the same way (it was an abort, SIGABRT, exit 134).
#[cfg(target_os = "linux")]
#[test]
fn a_count_whose_memory_runs_out_is_refused_not_aborted() {
    let scratch = Scratch::new();
    let game = large_game(&scratch);
    for command in ["analyze", "notepad", "check"] {
        let (run, took) = sleuth_limited(&scratch, &[command, &game], &[("SLEUTH_MAX_STATES", "250000000")]);
        let run = if command == "check" {
            // check prints its summary first, then the refusal.
            assert!(run.stdout.contains("history not checked"), "{}", run.stdout);
            Run { stdout: String::new(), ..run }
        } else {
            run
        };
        assert_refused(&run, "ran out of memory");
        eprintln!("{command}: refused after {took:?}");
    }
}
