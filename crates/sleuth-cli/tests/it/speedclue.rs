//! `sleuth speedclue`: whole matches against the in-process referee, and
//! clear errors (exit code 2) for servers that break the protocol.

use crate::support::sleuth;
use sleuth_sim::speedclue::server::{serve, ServerConfig};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::thread;

#[test]
fn three_sleuth_processes_play_a_match_to_the_end() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    let cfg = ServerConfig { games: 3, seed: 2, strict: true, ..ServerConfig::default() };
    let server = thread::spawn(move || serve(&listener, 3, cfg));
    let players: Vec<_> = [("a", "exact"), ("b", "random"), ("c", "exact")]
        .into_iter()
        .map(|(id, agent)| {
            let port = port.clone();
            thread::spawn(move || sleuth(&["speedclue", id, &port, "--agent", agent]))
        })
        .collect();
    let (ids, report) = server.join().unwrap().unwrap();
    assert_eq!(ids, vec!["a", "b", "c"]);
    for run in players {
        let run = run.join().unwrap();
        run.code(0);
        assert!(run.stdout.contains("3 games played"), "{}", run.stdout);
    }
    assert_eq!(report.disqualified, vec![None; 3]);
    assert!(report.games.iter().all(|g| g.winner.is_some()));
    assert_eq!(report.said_dead, vec![true; 3]);
}

/// Runs `sleuth speedclue` against a server that sends `lines` (answers
/// ignored), then hangs up; returns the run.
fn against(lines: &'static [&'static str]) -> crate::support::Run {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    let server = thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut writer = stream;
        let mut hello = String::new();
        reader.read_line(&mut hello).unwrap();
        assert_eq!(hello, "x alive\n");
        for line in lines {
            if writeln!(writer, "{line}").is_err() {
                break;
            }
            let mut answer = String::new();
            if reader.read_line(&mut answer).unwrap_or(0) == 0 {
                break;
            }
        }
    });
    let run = sleuth(&["speedclue", "x", &port, "--agent", "exact"]);
    server.join().unwrap();
    run
}

#[test]
fn a_bad_server_line_is_a_clear_error() {
    for (lines, says) in [
        (&["hello"][..], "unknown message 'hello'"),
        (&["reset 3 0 Gr Mu"][..], "invalid"),
        (&["reset 3 0 Gr Mu Kn Ca Ba Bi", "suggestion 0 Pl Ro"][..], "takes 5 or 6 words"),
        (&["reset 3 0 Gr Mu Kn Ca Ba Bi", "suggest"][..], "closed the connection before 'done'"),
    ] {
        let run = against(lines);
        run.code(2);
        assert!(run.stderr.contains(says), "{lines:?}: {}", run.stderr);
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    }
}

#[test]
fn no_server_is_a_clear_error() {
    // A port that was just free.
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port().to_string();
    let run = sleuth(&["speedclue", "x", &port]);
    run.code(2);
    assert!(run.stderr.contains("cannot connect"), "{}", run.stderr);
}
