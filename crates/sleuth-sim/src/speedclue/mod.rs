//! The Speed Clue protocol, so that Sleuth's agents can enter that
//! contest's server and meet its AIs.
//!
//! A player connects to the server over TCP, sends `IDENTIFIER alive`, and
//! answers every line until `done` (answered `dead`). Cards are two-letter
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
//! - [`message`]: parsing and printing of every line.
//! - [`Client`]: a player that drives any [`Agent`](crate::Agent) and
//!   enforces the rules as a safety net; [`play_session`] runs it over any
//!   pair of streams (the CLI passes a TCP connection).
//! - [`server`]: a referee with the contest's disqualification rules, used
//!   by the tests to play complete games against clients.

mod client;
pub mod message;
pub mod server;

pub use client::{best_unrepeated, Client, ClientError};
pub use message::{card_of_code, code_of_card, Message, ParseError, Reply, Triple};

use std::io::{BufRead, Write};

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
    /// A line the client could not answer.
    #[error(transparent)]
    Client(#[from] ClientError),
}

/// Plays a whole session: sends `IDENTIFIER alive`, then answers every line
/// from `input` on `output` until `done`, answered `dead`. Returns the
/// number of games played.
///
/// # Errors
/// [`SessionError`]: a connection error, a closed connection before
/// `done`, or a line the client cannot answer (nothing is sent for it).
pub fn play_session(
    identifier: &str,
    client: &mut Client,
    mut input: impl BufRead,
    mut output: impl Write,
) -> Result<usize, SessionError> {
    // Whole lines in one write each, so that a TCP stream sends one packet.
    output.write_all(format!("{identifier} alive\n").as_bytes())?;
    output.flush()?;
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Err(SessionError::Closed);
        }
        let text = line.trim_end_matches(['\n', '\r']);
        let reply = client.answer_line(text)?;
        output.write_all(format!("{}\n", reply.display(client.deck())).as_bytes())?;
        output.flush()?;
        if reply == Reply::Dead {
            return Ok(client.games());
        }
    }
}
