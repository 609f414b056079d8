//! The fuzzer of [`fuzz`](crate::fuzz) on the Speed Clue wire: the real
//! contest server's messages to every seat (`testdata/speedclue/`), mutated
//! (hostile bytes inside a message, megabytes of padding, messages dropped,
//! repeated, swapped, cut or upper-cased), and replies mutated byte by
//! byte. What must hold for any bytes at all:
//!
//! - the client's framer cuts the same messages (and the same first error)
//!   out of a stream however it is read: as written, in one read, in random
//!   pieces, a byte at a time; each error is bounded and printable;
//! - the client answers every message it accepts with a reply the referee's
//!   own reader takes, never repeats a suggestion within a game and never
//!   accuses with a card of its hand; a message it refuses gets a bounded,
//!   printable error;
//! - the referee's reader takes a reply exactly when it is, ignoring
//!   ASCII case, one of the replies the message allows (the list of them
//!   written out in full, not by the reader's own rules);
//! - part of the cases run the `sleuth speedclue` binary against a server
//!   that sends the mutated stream: it ends with exit 0 or 2 within the
//!   case limit, its messages bounded and printable.

use crate::fuzz::{check_message, repo, run_bounded, runner, CASE_LIMIT};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use sleuth_core::{CardSet, Deck};
use sleuth_sim::agent_by_name;
use sleuth_sim::speedclue::framing::{Frame, Framer};
use sleuth_sim::speedclue::server::wire::{judge, Expect};
use sleuth_sim::speedclue::{code_of_card, Client, Message, Reply};
use std::collections::HashSet;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::time::{Duration, Instant};

/// The transcripts' escapes undone: `\xNN` and `\\`.
fn unescape(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let mut rest = text.as_bytes();
    while let Some((&b, tail)) = rest.split_first() {
        rest = tail;
        if b != b'\\' {
            out.push(b);
        } else if let Some(tail) = rest.strip_prefix(b"\\") {
            out.push(b'\\');
            rest = tail;
        } else {
            let hex = rest.get(1..3).filter(|_| rest[0] == b'x').expect("\\xNN");
            out.push(u8::from_str_radix(std::str::from_utf8(hex).expect("\\xNN"), 16).expect("\\xNN"));
            rest = &rest[3..];
        }
    }
    out
}

/// Every seat's stream in the transcripts: the server's writes to it.
fn wire_corpus() -> Vec<Vec<Vec<u8>>> {
    let mut seats: Vec<(String, Vec<Vec<u8>>)> = Vec::new();
    for log in ["sleuth-spock-ip-ray", "paddle-random-ray"] {
        let path = repo().join(format!("testdata/speedclue/{log}.wire.log"));
        let text = std::fs::read_to_string(path).expect("the transcripts are there");
        for line in text.lines() {
            let mut words = line.splitn(4, ' ');
            let (Some(_), Some(">"), Some(id), Some(message)) =
                (words.next(), words.next(), words.next(), words.next())
            else {
                continue;
            };
            let seat = format!("{log} {id}");
            match seats.iter_mut().find(|(s, _)| *s == seat) {
                Some((_, writes)) => writes.push(unescape(message)),
                None => seats.push((seat, vec![unescape(message)])),
            }
        }
    }
    assert_eq!(seats.len(), 7, "the seats of both transcripts");
    seats.into_iter().map(|(_, writes)| writes).collect()
}

/// One change to a seat's stream of writes; `at` picks a write.
#[derive(Clone, Debug)]
enum WireEdit {
    /// Bytes put inside a write.
    Insert {
        at: usize,
        offset: usize,
        bytes: Vec<u8>,
    },
    /// Padding (spaces, NULs or newlines) before a write.
    Pad {
        at: usize,
        byte: u8,
        n: usize,
    },
    Drop {
        at: usize,
    },
    Repeat {
        at: usize,
        times: usize,
    },
    Swap {
        at: usize,
        with: usize,
    },
    /// A write cut short.
    Cut {
        at: usize,
        len: usize,
    },
    Upper {
        at: usize,
    },
}

fn hostile_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(b"\0".to_vec()),
        Just(b"\r\n".to_vec()),
        Just(b"\x1b[31m".to_vec()),
        Just("\u{200b}".as_bytes().to_vec()),
        Just("e\u{301}".as_bytes().to_vec()),
        Just(b"\xff\xfe".to_vec()),
        Just(b" ".to_vec()),
        Just(b"suggest".to_vec()),
        Just(b"reset 9 9 ".to_vec()),
        Just(b"Mu ".to_vec()),
        prop::collection::vec(any::<u8>(), 1..8),
    ]
}

fn wire_edit() -> impl Strategy<Value = WireEdit> {
    let at = 0usize..4096;
    prop_oneof![
        4 => (at.clone(), 0usize..64, hostile_bytes()).prop_map(|(at, offset, bytes)| WireEdit::Insert { at, offset, bytes }),
        2 => (at.clone(), prop_oneof![Just(b' '), Just(0u8), Just(b'\n')], prop_oneof![1usize..700, Just(5usize << 20)])
            .prop_map(|(at, byte, n)| WireEdit::Pad { at, byte, n }),
        1 => at.clone().prop_map(|at| WireEdit::Drop { at }),
        1 => (at.clone(), 1usize..4).prop_map(|(at, times)| WireEdit::Repeat { at, times }),
        1 => (at.clone(), 0usize..4096).prop_map(|(at, with)| WireEdit::Swap { at, with }),
        1 => (at.clone(), 0usize..24).prop_map(|(at, len)| WireEdit::Cut { at, len }),
        1 => at.prop_map(|at| WireEdit::Upper { at }),
    ]
}

fn apply_wire(writes: &mut Vec<Vec<u8>>, e: &WireEdit) {
    if writes.is_empty() {
        return;
    }
    let n = writes.len();
    match e {
        WireEdit::Insert { at, offset, bytes } => {
            let w = &mut writes[at % n];
            let i = offset % (w.len() + 1);
            w.splice(i..i, bytes.iter().copied());
        }
        WireEdit::Pad { at, byte, n: len } => {
            writes[at % n].splice(0..0, std::iter::repeat_n(*byte, *len));
        }
        WireEdit::Drop { at } => {
            writes.remove(at % n);
        }
        WireEdit::Repeat { at, times } => {
            let w = writes[at % n].clone();
            writes.splice(at % n..at % n, std::iter::repeat_n(w, *times));
        }
        WireEdit::Swap { at, with } => writes.swap(at % n, with % n),
        WireEdit::Cut { at, len } => writes[at % n].truncate(*len),
        WireEdit::Upper { at } => writes[at % n].make_ascii_uppercase(),
    }
}

/// What a framer cut out of a stream: its messages, and the first error
/// (what is wrong, and the bytes shown, which include as many of those
/// after the offending one as had arrived: they are not compared).
#[derive(Debug)]
struct Framed {
    messages: Vec<String>,
    bad: Option<(String, String)>,
}

impl PartialEq for Framed {
    fn eq(&self, other: &Framed) -> bool {
        let why = |f: &Framed| f.bad.as_ref().map(|(_, why)| why.clone());
        self.messages == other.messages && why(self) == why(other)
    }
}

/// The messages (and the first error, where the client stops) that the
/// framer cuts from `chunks`, the player's number followed from the
/// `reset` messages as the client does; a lone `suggest` is taken once
/// the stream has ended.
fn frame(deck: &Deck, chunks: &[&[u8]]) -> Framed {
    let mut framer = Framer::new();
    let mut me = None;
    let mut out = Framed { messages: Vec::new(), bad: None };
    let mut take = |framer: &mut Framer, settled: bool, out: &mut Framed| loop {
        match framer.next(me, settled) {
            Frame::Message(line) => {
                if let Ok(Message::Reset { me: i, .. }) = Message::parse(deck, &line) {
                    me = Some(i);
                }
                out.messages.push(line);
            }
            Frame::Incomplete { .. } => return true,
            Frame::Bad { text, why } => {
                out.bad = Some((text, why));
                return false;
            }
        }
    };
    for chunk in chunks {
        framer.push(chunk);
        if !take(&mut framer, false, &mut out) {
            return out;
        }
    }
    take(&mut framer, true, &mut out);
    out
}

/// The reply a message asks for.
fn expects(message: &Message) -> Expect {
    match message {
        Message::Reset { .. } | Message::Suggestion { .. } | Message::Accusation { .. } => Expect::Ok,
        Message::Suggest => Expect::Suggest,
        Message::Disprove { .. } => Expect::Show,
        Message::Accuse => Expect::Accuse,
        Message::Done => Expect::Dead,
    }
}

/// Plays the messages to a client; checks each reply as the referee reads
/// it and the rules the client keeps whatever its agent does.
fn play(deck: &Deck, agent: &str, seed: u64, messages: &[String]) -> Result<(), TestCaseError> {
    let mut client = Client::new(agent_by_name(agent).expect("a registered agent"), seed);
    let mut hand = CardSet::EMPTY;
    let mut suggested: HashSet<CardSet> = HashSet::new();
    for line in messages {
        let reply = match client.answer_line(line) {
            Ok(reply) => reply,
            Err(e) => return check_message(&format!("the client on {line:?}"), &e.to_string()),
        };
        let message = Message::parse(deck, line).expect("an answered message parses");
        let written = reply.display(deck).to_string();
        if let Err(why) = judge(deck, expects(&message), &written) {
            return Err(TestCaseError::fail(format!("{agent}: '{written}' to '{line}': {why}")));
        }
        match (&message, &reply) {
            (Message::Reset { hand: h, .. }, _) => {
                hand = h.iter().copied().collect();
                suggested.clear();
            }
            (_, Reply::Suggest(t)) => prop_assert!(suggested.insert(t.set()), "{}: '{}' repeated", agent, written),
            (_, Reply::Accuse(t)) => {
                prop_assert!((t.set() & hand).is_empty(), "{}: '{}' with its hand", agent, written)
            }
            (_, Reply::Dead) => return Ok(()),
            _ => {}
        }
    }
    Ok(())
}

/// Runs `sleuth speedclue` against a server that sends `writes`, each in
/// one write, reading (briefly) for a reply after each, then hangs up.
fn binary_against(writes: Vec<Vec<u8>>) -> Result<(), TestCaseError> {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a local port");
    let port = listener.local_addr().expect("bound").port().to_string();
    let server = std::thread::spawn(move || {
        let Ok((mut stream, _)) = listener.accept() else { return };
        let _ = stream.set_read_timeout(Some(Duration::from_millis(200)));
        let mut buf = [0u8; 512];
        let _ = stream.read(&mut buf);
        for w in writes {
            if stream.write_all(&w).is_err() || matches!(stream.read(&mut buf), Ok(0)) {
                return;
            }
        }
    });
    let scratch = crate::support::Scratch::new();
    let result = run_bounded(scratch.path(), &["speedclue", "x", &port, "--agent", "exact"]);
    // A client that never connected leaves the server waiting: connect once.
    let _ = std::net::TcpStream::connect(("127.0.0.1", port.parse::<u16>().expect("a port")));
    let _ = server.join();
    let (code, _, stderr) = result?;
    prop_assert!(code == 0 || code == 2, "sleuth speedclue exited {}: {}", code, stderr);
    prop_assert!(code == 0 || stderr.starts_with("error: "), "{}", stderr);
    Ok(())
}

fn wire_case(
    deck: &Deck,
    writes: &[Vec<u8>],
    pieces: &[usize],
    agent: &str,
    binary: bool,
) -> Result<(), TestCaseError> {
    let start = Instant::now();
    let as_written: Vec<&[u8]> = writes.iter().map(Vec::as_slice).collect();
    let whole = writes.concat();
    let reference = frame(deck, &as_written);
    prop_assert_eq!(&frame(deck, &[&whole]), &reference, "in one read");
    let mut random = Vec::new();
    let mut rest = whole.as_slice();
    for &k in pieces.iter().cycle() {
        if rest.is_empty() {
            break;
        }
        let (piece, tail) = rest.split_at(k.min(rest.len()));
        random.push(piece);
        rest = tail;
    }
    prop_assert_eq!(&frame(deck, &random), &reference, "in pieces of {:?} bytes", pieces);
    if whole.len() < 64 << 10 {
        let bytes: Vec<&[u8]> = whole.chunks(1).collect();
        prop_assert_eq!(&frame(deck, &bytes), &reference, "a byte per read");
    }
    if let Some((text, why)) = &reference.bad {
        prop_assert!(text.len() < 256, "the bad bytes shown: {} bytes", text.len());
        check_message("a framing error", &format!("{text}: {why}"))?;
    }
    play(deck, agent, 1, &reference.messages)?;
    if binary {
        binary_against(writes.to_vec())?;
    }
    prop_assert!(start.elapsed() < CASE_LIMIT, "the case took {:?}", start.elapsed());
    Ok(())
}

#[test]
fn fuzz_speedclue_streams() {
    let deck = Deck::classic();
    let corpus = wire_corpus();
    let strategy = (
        0..corpus.len(),
        prop::collection::vec(wire_edit(), 0..4),
        prop::collection::vec(1usize..600, 1..8),
        prop_oneof![Just("exact"), Just("random")],
        0u8..16,
    );
    let mut runner = runner(4);
    let result = runner.run(&strategy, |(i, edits, pieces, agent, bin)| {
        let mut writes = corpus[i].clone();
        for e in &edits {
            apply_wire(&mut writes, e);
        }
        wire_case(&deck, &writes, &pieces, agent, bin == 0)
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// Every reply a message allows, in lower case, written out from the deck.
fn allowed(deck: &Deck, expect: Expect) -> HashSet<String> {
    let code = |c| code_of_card(deck, c).to_ascii_lowercase();
    let cats: Vec<Vec<String>> = deck.categories().map(|k| deck.category_cards(k).iter().map(code).collect()).collect();
    let triples = || {
        let cats = &cats;
        cats[0]
            .iter()
            .flat_map(move |s| cats[1].iter().flat_map(move |w| cats[2].iter().map(move |r| format!("{s} {w} {r}"))))
    };
    match expect {
        Expect::Ok => HashSet::from(["ok".to_string()]),
        Expect::Dead => HashSet::from(["dead".to_string()]),
        Expect::Show => deck.cards().map(|c| format!("show {}", code(c))).collect(),
        Expect::Suggest => triples().map(|t| format!("suggest {t}")).collect(),
        Expect::Accuse => triples().map(|t| format!("accuse {t}")).chain(["-".to_string()]).collect(),
    }
}

#[test]
fn fuzz_referee_reads_replies() {
    let deck = Deck::classic();
    let kinds = [Expect::Ok, Expect::Dead, Expect::Show, Expect::Suggest, Expect::Accuse];
    let sets: Vec<HashSet<String>> = kinds.iter().map(|&k| allowed(&deck, k)).collect();
    let valid: Vec<Vec<String>> = sets.iter().map(|s| s.iter().cloned().collect()).collect();
    let byte = prop_oneof![Just(b' '), Just(b'\n'), Just(0u8), Just(b'-'), Just(b'x'), Just(b'k'), 0x20u8..0x7f];
    let edit = (0u8..4, 0usize..32, byte);
    let strategy = (0..kinds.len(), 0usize..4096, prop::collection::vec(edit, 0..3));
    let mut runner = runner(5);
    let result = runner.run(&strategy, |(k, pick, edits)| {
        let mut reply = valid[k][pick % valid[k].len()].clone().into_bytes();
        for (how, at, b) in edits {
            let i = at % (reply.len() + 1);
            match how {
                0 => reply.insert(i, b),
                1 if i < reply.len() => drop(reply.remove(i)),
                2 if i < reply.len() => reply[i].make_ascii_uppercase(),
                _ => reply.truncate(i),
            }
        }
        let reply = String::from_utf8(reply).expect("ASCII");
        let taken = judge(&deck, kinds[k], &reply);
        prop_assert_eq!(taken.is_ok(), sets[k].contains(&reply.to_ascii_lowercase()), "{:?}: {:?}", kinds[k], reply);
        if let Err(why) = taken {
            check_message("the referee's reason", &why)?;
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}
