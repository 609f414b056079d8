//! The Speed Clue wire against the real contest server's bytes: the
//! transcripts in `testdata/speedclue/` (README there), recorded from the
//! 2014 contest server with its published entrants.
//!
//! - The client's framing: each seat's stream, cut as it was written (one
//!   write per message), all in one read, and one byte per read, gives the
//!   same messages, one per write.
//! - The client: every server message of every game, for every seat (the
//!   seats of Sleuth, SpockAI, InferencePlayer, ray's `ai01.py`,
//!   CluePaddle and RandomAI), is fed to a [`Client`] with the default agent
//!   and with the random one: it accepts each one (the transcripts are real
//!   games, so no message may look like a contradiction), and each reply is
//!   read by the referee's own reader as the contest server reads it, and
//!   is legal under the contest's rules as the server applies them to that
//!   seat (no repeated suggestion, no accusation with a card seen, no pass
//!   after its own undisproved suggestion of unseen cards, a shown card held
//!   and asked for). For Sleuth's own seat, the replies that do not depend
//!   on the agent (`ok`, `dead`, and the accusation once the exact engine is
//!   certain) equal the recorded ones.
//! - The referee: every message the real server wrote is written again,
//!   byte for byte, by the referee's writer ([`Say::wire`]), and every reply
//!   the real server accepted is accepted by the referee's reader
//!   ([`judge`]).

use sleuth_core::{Card, CardSet, Deck};
use sleuth_sim::agent_by_name;
use sleuth_sim::speedclue::framing::{Frame, Framer};
use sleuth_sim::speedclue::server::wire::{judge, Answer, Expect, Say};
use sleuth_sim::speedclue::{Client, Message};

const LOGS: [(&str, &str); 2] = [
    ("sleuth-spock-ip-ray", include_str!("../../../../testdata/speedclue/sleuth-spock-ip-ray.wire.log")),
    ("paddle-random-ray", include_str!("../../../../testdata/speedclue/paddle-random-ray.wire.log")),
];

/// One seat's session: the server's writes to it, each with the reply it
/// read and the case file of the game then played.
struct Session {
    log: &'static str,
    id: String,
    exchanges: Vec<Exchange>,
}

struct Exchange {
    message: Vec<u8>,
    reply: String,
    solution: String,
}

/// The log's escapes undone: `\xNN` and `\\`.
fn unescape(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let mut bytes = text.bytes();
    while let Some(b) = bytes.next() {
        if b != b'\\' {
            out.push(b);
            continue;
        }
        match bytes.next() {
            Some(b'\\') => out.push(b'\\'),
            Some(b'x') => {
                let hex: Vec<u8> = bytes.by_ref().take(2).collect();
                let hex = std::str::from_utf8(&hex).expect("\\xNN");
                out.push(u8::from_str_radix(hex, 16).expect("\\xNN"));
            }
            other => panic!("bad escape {other:?} in {text:?}"),
        }
    }
    out
}

/// Every seat's session in a log, in the order the seats connected.
fn sessions(log: &'static str, text: &str) -> Vec<Session> {
    let mut out: Vec<Session> = Vec::new();
    let mut pending: Vec<(String, Vec<u8>)> = Vec::new();
    let mut solution = String::new();
    for line in text.lines() {
        let mut words = line.splitn(4, ' ');
        let (_, kind, id, rest) = (words.next(), words.next(), words.next(), words.next().unwrap_or(""));
        let (Some(kind), Some(id)) = (kind, id) else { continue };
        match kind {
            "=" => out.push(Session { log, id: id.to_string(), exchanges: Vec::new() }),
            "#" if id == "solution" => solution = rest.to_string(),
            ">" => pending.push((id.to_string(), unescape(rest))),
            "<" => {
                let Some(k) = pending.iter().position(|(p, _)| p == id) else { continue }; // the greeting
                let (_, message) = pending.remove(k);
                let reply = unescape(rest.split_once(' ').map_or("", |(_, r)| r));
                let end = reply.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
                let reply = String::from_utf8(reply[..end].to_vec()).expect("ASCII replies");
                let session = out.iter_mut().find(|s| s.id == id).expect("connected");
                session.exchanges.push(Exchange { message, reply, solution: solution.clone() });
            }
            _ => {}
        }
    }
    assert!(pending.is_empty(), "every message was answered");
    out
}

fn all_sessions() -> Vec<Session> {
    let out: Vec<Session> = LOGS.iter().flat_map(|(name, text)| sessions(name, text)).collect();
    assert_eq!(out.len(), 7, "Sleuth, Spock, IP, Ray; Paddle, RND, Ray");
    out
}

/// The messages `framer` cuts from `chunks`, in order; `me` is followed
/// from the `reset` lines (read with the client's reader).
fn frame(chunks: &[&[u8]]) -> Vec<String> {
    let deck = Deck::classic();
    let mut framer = Framer::new();
    let mut me = None;
    let mut out = Vec::new();
    let mut take = |framer: &mut Framer, settled: bool, out: &mut Vec<String>| loop {
        match framer.next(me, settled) {
            Frame::Message(line) => {
                if let Ok(Message::Reset { me: i, .. }) = Message::parse(&deck, &line) {
                    me = Some(i);
                }
                out.push(line);
            }
            Frame::Incomplete { .. } => break,
            bad @ Frame::Bad { .. } => panic!("{bad:?} after {out:?}"),
        }
    };
    for chunk in chunks {
        framer.push(chunk);
        take(&mut framer, false, &mut out);
    }
    take(&mut framer, true, &mut out);
    out
}

#[test]
fn the_client_frames_every_recorded_stream_alike_however_it_is_read() {
    for s in all_sessions() {
        let writes: Vec<&[u8]> = s.exchanges.iter().map(|e| e.message.as_slice()).collect();
        let whole: Vec<u8> = writes.concat();
        let as_written = frame(&writes);
        assert_eq!(as_written.len(), writes.len(), "{} {}: one message per write", s.log, s.id);
        assert_eq!(frame(&[&whole]), as_written, "{} {}: in one read", s.log, s.id);
        let bytes: Vec<&[u8]> = whole.chunks(1).collect();
        assert_eq!(frame(&bytes), as_written, "{} {}: a byte per read", s.log, s.id);
    }
}

/// The reply a message expects.
fn expects(message: &Message) -> Expect {
    match message {
        Message::Reset { .. } | Message::Suggestion { .. } | Message::Accusation { .. } => Expect::Ok,
        Message::Done => Expect::Dead,
        Message::Disprove { .. } => Expect::Show,
        Message::Suggest => Expect::Suggest,
        Message::Accuse => Expect::Accuse,
    }
}

/// What the contest server knows of one seat (`Player.java`): its hand,
/// the cards it has seen, its suggestions this game, and whether it must
/// accuse (its own suggestion went undisproved and it had seen none of the
/// cards).
#[derive(Default)]
struct Rules {
    hand: CardSet,
    seen: CardSet,
    suggestions: Vec<CardSet>,
    must_accuse: bool,
    me: usize,
}

impl Rules {
    /// Follows the game as the server saw it (`reply`: what the seat
    /// really answered).
    fn follow(&mut self, deck: &Deck, message: &Message, reply: &str) {
        match message {
            Message::Reset { me, hand, .. } => {
                *self = Rules { hand: hand.iter().copied().collect(), me: *me, ..Rules::default() };
                self.seen = self.hand;
            }
            Message::Suggest => {
                let Ok(Answer::Suggest(t)) = judge(deck, Expect::Suggest, reply) else { panic!("{reply}") };
                self.suggestions.push(t.set());
            }
            Message::Suggestion { by, cards, disprover, shown } if *by == self.me => match (disprover, shown) {
                (Some(_), Some(c)) => {
                    self.seen.insert(*c);
                }
                (None, _) if (cards.set() & self.seen).is_empty() => self.must_accuse = true,
                _ => {}
            },
            _ => {}
        }
    }

    /// Whether the contest server accepts `answer` to `message`.
    fn legal(&self, message: &Message, answer: Answer) -> Result<(), String> {
        match (message, answer) {
            (Message::Suggest, Answer::Suggest(t)) if self.suggestions.contains(&t.set()) => {
                Err("DuplicateSuggestion".into())
            }
            (Message::Accuse, Answer::Accuse(t)) if !(t.set() & self.seen).is_empty() => {
                Err("SuicidalAccusation".into())
            }
            (Message::Accuse, Answer::Pass) if self.must_accuse => Err("MissedAccusation".into()),
            (Message::Disprove { cards, .. }, Answer::Show(c))
                if !(self.hand.contains(c) && cards.set().contains(c)) =>
            {
                Err("InvalidDisprove".into())
            }
            _ => Ok(()),
        }
    }
}

/// What the replays compared.
#[derive(Debug, Default)]
struct Tally {
    /// Sleuth's agent-free replies, equal to the recorded ones.
    recorded: usize,
    /// Accusations the rules required, equal to the case file.
    required: usize,
}

/// Replays `session` to a client with `agent`: every message accepted,
/// every reply read by the referee's reader and legal, and an accusation
/// the rules require is the case file. For Sleuth's seat, the agent-free
/// replies must equal the recorded ones.
fn replay(s: &Session, agent: &str, tally: &mut Tally) {
    let deck = Deck::classic();
    let mut client = Client::new(agent_by_name(agent).expect("an agent"), 0);
    let mut framer = Framer::new();
    let mut rules = Rules::default();
    for (k, Exchange { message: bytes, reply: recorded, solution }) in s.exchanges.iter().enumerate() {
        let at = || format!("{} {} ({agent}), exchange {k}: {:?}", s.log, s.id, String::from_utf8_lossy(bytes));
        framer.push(bytes);
        let line = match framer.next(client.me(), false) {
            Frame::Message(line) => line,
            Frame::Incomplete { ambiguous: true } => match framer.next(client.me(), true) {
                Frame::Message(line) => line,
                other => panic!("{}: {other:?}", at()),
            },
            other => panic!("{}: {other:?}", at()),
        };
        assert_eq!(framer.next(client.me(), false), Frame::Incomplete { ambiguous: false }, "{}", at());
        let message = Message::parse(&deck, &line).unwrap_or_else(|e| panic!("{}: {e}", at()));
        let reply = client.answer_line(&line).unwrap_or_else(|e| panic!("{}: refused: {e}", at()));
        let text = reply.display(&deck).to_string();
        let answer = judge(&deck, expects(&message), &text).unwrap_or_else(|e| panic!("{}: {e}", at()));
        rules.legal(&message, answer).unwrap_or_else(|e| panic!("{}: '{text}' is a {e}", at()));
        if matches!(message, Message::Accuse) && rules.must_accuse {
            assert_eq!(text, format!("accuse {solution}"), "{}", at());
            tally.required += 1;
        }
        if s.id == "Sleuth" && agent == "sleuth" && matches!(expects(&message), Expect::Ok | Expect::Dead) {
            assert!(text.eq_ignore_ascii_case(recorded), "{}: '{text}', recorded '{recorded}'", at());
            tally.recorded += 1;
        }
        rules.follow(&deck, &message, recorded);
    }
    assert_eq!(client.answer_line("done").ok(), Some(sleuth_sim::speedclue::Reply::Dead), "the session ends with done");
}

#[test]
fn the_client_answers_every_recorded_game_legally_from_every_seat() {
    let mut tally = Tally::default();
    for s in all_sessions() {
        for agent in ["sleuth", "random"] {
            replay(&s, agent, &mut tally);
        }
    }
    eprintln!("{tally:?}");
    // Sleuth's 82 `ok` and its `dead`; and a few required accusations.
    assert_eq!(tally.recorded, 83, "{tally:?}");
    assert!(tally.required > 0, "{tally:?}");
}

#[test]
fn the_referee_writes_every_recorded_message_byte_for_byte_and_accepts_every_recorded_reply() {
    let deck = Deck::classic();
    let mut written = 0;
    for s in all_sessions() {
        let mut me = 0;
        for Exchange { message: bytes, reply, .. } in &s.exchanges {
            let text = std::str::from_utf8(bytes).expect("ASCII messages");
            let message = Message::parse(&deck, text).unwrap_or_else(|e| panic!("{} {}: {e}", s.log, s.id));
            let say = match message.clone() {
                Message::Reset { players, me: i, hand } => {
                    me = i;
                    Say::Reset { players, me: i, hand }
                }
                Message::Suggest => Say::Suggest,
                Message::Disprove { by, cards } => Say::Disprove { by, cards },
                // A bystander is not told the card: any card stands for it.
                Message::Suggestion { by, cards, disprover, shown } => {
                    Say::Suggestion { by, cards, disproof: disprover.map(|d| (d, shown.unwrap_or(cards.0[0]))) }
                }
                Message::Accuse => Say::Accuse,
                Message::Accusation { by, cards, correct } => Say::Accusation { by, cards, correct },
                Message::Done => Say::Done,
            };
            assert_eq!(say.wire(&deck, me), text, "{} {}", s.log, s.id);
            written += 1;
            judge(&deck, say.expects(), reply).unwrap_or_else(|e| panic!("{} {}: '{text}': {e}", s.log, s.id));
        }
    }
    let messages: usize = LOGS.iter().map(|(_, text)| text.lines().filter(|l| l.contains(" > ")).count()).sum();
    assert_eq!(written, messages);
}

/// The card a code names, for the tests below.
fn card(code: &str) -> Card {
    sleuth_sim::speedclue::card_of_code(&Deck::classic(), code).expect("a card code")
}

#[test]
fn messages_that_contradict_the_clients_hand_are_refused_naming_them() {
    let start = || {
        let mut client = Client::new(agent_by_name("exact").unwrap(), 0);
        client.answer_line("reset 3 0 Mu Kn Ca Ba Bi Co").unwrap();
        client
    };
    assert_eq!(start().deck().card("mu"), Some(card("Mu")));
    for (line, says) in [
        // Nobody could disprove, yet this player holds Mu.
        ("suggestion 1 Mu Re Di -", "no deal of the cards fits it"),
        // Mu is in this player's hand, not the case file.
        ("accusation 1 Mu Re Di +", "no deal of the cards fits it"),
        // Player 2's suggestion went past this player (0, the next after
        // 2) to player 1, though this player holds Kn.
        ("suggestion 2 Pl Kn Di 1", "no deal of the cards fits it"),
        ("suggestion 0 Pl Kn Di 2 Kn", "another player was said to show a card we hold"),
    ] {
        let e = start().answer_line(line).unwrap_err().to_string();
        assert!(e.contains(&format!("'{line}' contradicts the game so far")) && e.contains(says), "{line}: {e}");
    }
    // What it has seen counts too: player 1 showed it Pl; a later report
    // that nobody could disprove Pl is a contradiction.
    let mut client = start();
    client.answer_line("suggestion 0 Pl Re Di 1 Pl").unwrap();
    let e = client.answer_line("suggestion 2 Pl Wr Lo -").unwrap_err().to_string();
    assert!(e.contains("contradicts"), "{e}");
    // The same messages from another hand are fine.
    let mut client = Client::new(agent_by_name("exact").unwrap(), 0);
    client.answer_line("reset 3 0 Gr Kn Ca Ba Bi Co").unwrap();
    client.answer_line("suggestion 1 Mu Re Di -").unwrap();
}
