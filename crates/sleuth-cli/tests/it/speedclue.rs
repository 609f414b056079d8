//! `sleuth speedclue`: whole matches against the in-process referee (which
//! speaks as the real contest server does), the binary launched from
//! launch-file lines as the contest launches it, and clear errors (exit
//! code 2) for servers that break the protocol.

use crate::support::sleuth;
use sleuth_sim::speedclue::server::{run_contest, serve, ServerConfig};
use std::io::{Read, Write};
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

/// Runs `sleuth speedclue` against a server that sends `messages` (each in
/// one write, unterminated, answers read and ignored), then hangs up;
/// returns the run.
fn against(messages: &'static [&'static str]) -> crate::support::Run {
    against_bytes(messages.iter().map(|m| m.as_bytes().to_vec()).collect())
}

fn against_bytes(messages: Vec<Vec<u8>>) -> crate::support::Run {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    let server = thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let mut buf = [0u8; 512];
        let n = stream.read(&mut buf).unwrap();
        assert_eq!(&buf[..n], b"x alive");
        for m in messages {
            if stream.write_all(&m).is_err() {
                break;
            }
            if stream.read(&mut buf).unwrap_or(0) == 0 {
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
        (&["hello"][..], "bad protocol message 'hello'"),
        (&["reset 3 0 Gr Mu Kn Ca Ba Bi", "suggestion 0 Pl Ro 12"][..], "expected a card code"),
        (&["reset 3 0 Gr Mu Kn Ca Ba Bi", "suggest"][..], "closed the connection before 'done'"),
    ] {
        let run = against(lines);
        run.code(2);
        assert!(run.stderr.contains(says), "{lines:?}: {}", run.stderr);
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    }
}

/// Issue 59: a message that contradicts the client's own hand stops it
/// with exit 2, naming the message.
#[test]
fn a_message_that_contradicts_the_hand_stops_the_client() {
    for lines in [
        &["reset 3 0 Mu Kn Ca Ba Bi Co", "suggestion 1 Mu Re Di -"][..],
        &["reset 3 0 Mu Kn Ca Ba Bi Co", "accusation 1 Mu Re Di +"][..],
    ] {
        let run = against(lines);
        run.code(2);
        let said = format!("'{}' contradicts the game so far", lines[1]);
        assert!(run.stderr.contains(&said), "{lines:?}: {}", run.stderr);
    }
}

/// Issue 59: a `reset` padded with 5 MB of spaces is refused at once (the
/// framer reads each byte once and a message is at most 512 bytes), and an
/// invisible character in a message reaches the terminal escaped.
#[test]
fn padded_and_invisible_messages_are_clear_errors() {
    let padded = format!("reset{}3 0 Gr Mu Kn Ca Ba Bi", " ".repeat(5 << 20)).into_bytes();
    let run = against_bytes(vec![padded]);
    run.code(2);
    assert!(run.stderr.contains("longer than 512 bytes"), "{}", run.stderr);
    let run = against_bytes(vec!["reset 3 0 G\u{200b}r Mu Kn Ca Ba Bi".as_bytes().to_vec()]);
    run.code(2);
    assert!(run.stderr.contains("G\\u{200b}r") && !run.stderr.contains('\u{200b}'), "{}", run.stderr);
}

#[test]
fn an_identifier_with_an_invisible_character_is_refused() {
    let run = sleuth(&["speedclue", "a\u{200b}", "1"]);
    run.code(2);
    assert!(run.stderr.contains("'a\\u{200b}' holds the invisible or control character \\u{200b}"), "{}", run.stderr);
}

#[test]
fn no_server_is_a_clear_error() {
    // A port that was just free.
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port().to_string();
    let run = sleuth(&["speedclue", "x", &port]);
    run.code(2);
    assert!(run.stderr.contains("cannot connect"), "{}", run.stderr);
}

/// The launch-file line of this build's binary.
fn launch_line(rest: &str) -> String {
    format!("{} speedclue {rest}", env!("CARGO_BIN_EXE_sleuth"))
}

#[test]
fn sleuth_launched_from_launch_file_lines_plays_complete_matches() {
    for (lines, games) in [
        (
            vec![
                launch_line("{Sleuth} %%"),
                launch_line("{Exact} %% --agent exact"),
                launch_line("{Rand} %% --agent random"),
            ],
            3,
        ),
        (
            vec![
                launch_line("{Sleuth} %%"),
                launch_line("{Notepad} %% --agent notepad"),
                launch_line("{Exact} %% --agent exact"),
                launch_line("{Random} %% --agent random"),
            ],
            4,
        ),
    ] {
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let cfg = ServerConfig { games, seed: 11, ..ServerConfig::default() };
        let contest = run_contest(&lines, cfg).unwrap();
        assert_eq!(contest.failed_to_start, vec![]);
        assert_eq!(contest.identifiers[0], "Sleuth");
        let report = contest.report.expect("a match");
        assert_eq!(report.disqualified, vec![None; lines.len()], "{report:?}");
        assert_eq!(report.said_dead, vec![true; lines.len()]);
        assert_eq!(report.games.len(), games);
        assert!(report.games.iter().all(|g| g.winner.is_some() && !g.turn_limit), "{report:?}");
    }
}

#[test]
fn an_entrant_that_cannot_start_is_reported() {
    let good = [launch_line("{A} %% --agent exact"), launch_line("{B} %% --agent exact")];
    let lines = [good[0].as_str(), good[1].as_str(), "/nonexistent/player {C} %%"];
    let contest = run_contest(&lines, ServerConfig { games: 1, ..ServerConfig::default() }).unwrap();
    assert_eq!(contest.identifiers, ["A", "B"]);
    assert_eq!(contest.failed_to_start.len(), 1);
    assert_eq!(contest.failed_to_start[0].0, "C");
}
