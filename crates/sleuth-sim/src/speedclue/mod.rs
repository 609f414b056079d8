//! The Speed Clue protocol, so that Sleuth's agents can enter that
//! contest's server and meet its AIs.
//!
//! A player connects to the server over TCP, sends `IDENTIFIER alive`, and
//! answers every message until `done` (answered `dead`). Messages and
//! replies carry **no line terminator**: each is one write, and the server
//! reads each reply with a single `read()` (see [`server`] for where each
//! rule comes from, and [`framing`] for how the client cuts messages out of
//! the byte stream). Cards are two-letter
//! codes with a capital first letter: the classic deck's ids (`Gr`, `Mu`,
//! `Pe`, `Pl`, `Sc`, `Wh`; `Ca`, `Kn`, `Pi`, `Re`, `Ro`, `Wr`; `Ba`, `Bi`,
//! `Co`, `Di`, `Ha`, `Ki`, `Li`, `Lo`, `St`). Players are numbered `0` to
//! `n − 1` in play order; hand sizes are `floor(18/n)`, plus one for the
//! first `18 mod n` players (the game file's default dealing rule).
//!
//! | server | player |
//! |---|---|
//! | `reset N I C1 C2 ...` | `ok` |
//! | `suggest` | `suggest S W R` |
//! | `disprove P S W R` (only when holding two or more) | `show X` |
//! | `suggestion P S W R D [X]` (`D` = `-`: nobody; `X` only to `P` and `D`) | `ok` |
//! | `accuse` | `-` or `accuse S W R` |
//! | `accusation P S W R +\|-` | `ok` |
//! | `done` | `dead` |
//!
//! The two sides read and write the wire separately, each from its own
//! source, so that a misreading in one is not mirrored in the other:
//!
//! - the client: [`framing`] cuts the server's byte stream into messages,
//!   [`message`] reads them and writes the replies; [`Client`] drives any
//!   [`Agent`](crate::Agent), checks every message against its own hand and
//!   what it has seen, and enforces the rules as a safety net;
//!   [`play_session`] runs it over any pair of streams (the CLI passes a TCP
//!   connection);
//! - the referee: [`server`] plays the contest's games with its
//!   disqualification rules, writing messages and judging replies as the
//!   contest server's Java source does ([`server::wire`]), used by the tests
//!   to play complete games against clients.
//!
//! Both are checked against the real server's bytes: the wire transcripts
//! in `testdata/speedclue/` (see `tests/it/wire.rs`).

mod client;
pub mod framing;
pub mod message;
pub mod server;

pub use client::{best_unrepeated, Client, ClientError};
pub use framing::MAX_MESSAGE_BYTES;
pub use message::{card_of_code, code_of_card, Message, ParseError, Reply};

use framing::{Frame, Framer};
use sleuth_core::{Card, CardSet, Deck};
use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// A suspect, a weapon and a room, in that order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Triple(pub [Card; 3]);

impl Triple {
    /// The triple of a combination (one card of each of the deck's three
    /// categories); `None` otherwise.
    pub fn from_set(deck: &Deck, set: CardSet) -> Option<Triple> {
        if deck.num_categories() != 3 || !set.is_subset(deck.all()) {
            return None;
        }
        let mut cards = [Card::new(0); 3];
        for (k, cat) in deck.categories().enumerate() {
            cards[k] = (set & deck.category_cards(cat)).single_card()?;
        }
        Some(Triple(cards))
    }

    /// The three cards as a set.
    pub fn set(self) -> CardSet {
        self.0.into_iter().collect()
    }
}

/// Why a session ended badly.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SessionError {
    /// Reading from or writing to the server failed.
    #[error("connection error: {0}")]
    Io(#[from] std::io::Error),
    /// The server closed the connection before `done`.
    #[error("the server closed the connection before 'done'")]
    Closed,
    /// Bytes that are no message of the protocol (among them a message
    /// longer than [`MAX_MESSAGE_BYTES`]).
    #[error("bad protocol message '{text}': {why}")]
    Garbage {
        /// The bytes, escaped and elided.
        text: String,
        /// What is wrong.
        why: String,
    },
    /// A message the client could not answer.
    #[error(transparent)]
    Client(#[from] ClientError),
}

/// A connection to the server: bytes both ways, and reads that can be
/// given a time limit (to wait briefly for the rest of a message).
pub trait Connection: Read + Write {
    /// Sets how long a read may block (`None`: forever).
    ///
    /// # Errors
    /// When the connection cannot be configured.
    fn set_read_limit(&mut self, limit: Option<Duration>) -> std::io::Result<()>;
}

impl Connection for TcpStream {
    fn set_read_limit(&mut self, limit: Option<Duration>) -> std::io::Result<()> {
        self.set_read_timeout(limit)
    }
}

/// How long to wait for the rest of a `suggestion` when the bytes so far
/// end exactly after `suggest` (the real server sends each message in one
/// write, so the rest almost never comes: this is a guard, not a delay).
const SPLIT_GRACE: Duration = Duration::from_millis(20);

/// The published entrants read into a 512-character buffer, and so does
/// the server (`Player.getResponse`).
const READ_SIZE: usize = 512;

/// Sends one reply: the whole text in a single write, no terminator, then
/// a flush. The server reads each reply with one `read()`, so a reply
/// written in pieces could arrive in pieces and be judged on the first.
fn send(conn: &mut impl Connection, text: &str) -> std::io::Result<()> {
    conn.write_all(text.as_bytes())?;
    conn.flush()
}

/// Reads whatever the server has sent (blocking), into `framer`; `false`
/// when the connection is closed.
fn fill(conn: &mut impl Connection, framer: &mut Framer) -> std::io::Result<bool> {
    let mut chunk = [0u8; READ_SIZE];
    loop {
        match conn.read(&mut chunk) {
            Ok(0) => return Ok(false),
            Ok(n) => {
                framer.push(&chunk[..n]);
                return Ok(true);
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
}

/// The next message from the server, waiting for as many reads as it takes.
fn receive(conn: &mut impl Connection, framer: &mut Framer, me: Option<usize>) -> Result<String, SessionError> {
    loop {
        match framer.next(me, false) {
            Frame::Message(line) => return Ok(line),
            Frame::Bad { text, why } => return Err(SessionError::Garbage { text, why }),
            Frame::Incomplete { ambiguous: false } => {
                if !fill(conn, framer)? {
                    return Err(SessionError::Closed);
                }
            }
            Frame::Incomplete { ambiguous: true } => {
                conn.set_read_limit(Some(SPLIT_GRACE))?;
                let more = fill(conn, framer);
                conn.set_read_limit(None)?;
                match more {
                    Ok(true) => {}
                    Ok(false) => return Err(SessionError::Closed),
                    Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                        if let Frame::Message(line) = framer.next(me, true) {
                            return Ok(line);
                        }
                    }
                    Err(e) => return Err(e.into()),
                }
            }
        }
    }
}

/// Plays a whole session: sends `IDENTIFIER alive`, then answers every
/// message until `done`, answered `dead`. Returns the number of games
/// played. Every reply is one write without a line terminator (the real
/// server compares the whole read with the expected text, so `ok\n` is a
/// protocol violation there).
///
/// # Errors
/// [`SessionError`]: a connection error, a closed connection before
/// `done`, or a message the client cannot answer (nothing is sent for it).
pub fn play_session(identifier: &str, client: &mut Client, conn: &mut impl Connection) -> Result<usize, SessionError> {
    send(conn, &format!("{identifier} alive"))?;
    let mut framer = Framer::new();
    loop {
        let line = receive(conn, &mut framer, client.me())?;
        let reply = client.answer_line(&line)?;
        send(conn, &reply.display(client.deck()).to_string())?;
        if reply == Reply::Dead {
            return Ok(client.games());
        }
    }
}
