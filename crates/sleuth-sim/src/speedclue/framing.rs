//! Cutting the server's byte stream into messages: the client's reading of
//! the wire.
//!
//! The real contest server (sadakatsu/SpeedClueContest,
//! `core/code/com/sadakatsu/clue/contestserver/Player.java`, `sendMessage`)
//! writes each message with `PrintWriter.format(message)` on an autoflush
//! writer: one write, **no line terminator**, and it sends a player nothing
//! more until that player has replied. So a message ends where the bytes
//! end, not at a newline. TCP may still, in principle, split one write
//! over two reads or join two writes in one read, so the client does not
//! trust read boundaries either: every message has a known shape (its
//! first word fixes the fields that follow; `reset` needs the hand size,
//! `suggestion` has a shown card exactly when this player suggested or
//! disproved), and the [`Framer`] takes a message as soon as all its fields
//! are in.
//!
//! Tolerated: NUL bytes (the published entrants' clients strip trailing
//! NULs, `SpeedClueAI.getMessage`), spaces, tabs, `\r` and `\n` anywhere
//! between fields (a server that does terminate its lines), and any letter
//! case (those clients lower-case every message).
//!
//! The framer reads each byte once, whatever the reads look like: the
//! message being read is kept as its fields so far, never scanned again.
//! A message, with the gap bytes before it, may be at most
//! [`MAX_MESSAGE_BYTES`] long (the published entrants read each message
//! with one 512-character read); a longer one is an error, so that a server
//! padding a message with megabytes of spaces is refused at once.
//!
//! One ambiguity is left: `suggest` is the start of `suggestion`. When the
//! bytes received so far end exactly after `suggest`, the framer says so
//! ([`Frame::Incomplete`] with `ambiguous`) and the caller waits a moment
//! for more before taking it as `suggest`.

use sleuth_core::text::quote;

/// The longest message, counting the gap bytes before it: the 512-character
/// read buffer of the published entrants (`SpeedClueAI`) and of the server.
pub const MAX_MESSAGE_BYTES: usize = 512;

/// What the buffered bytes hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Frame {
    /// One whole message, as a canonical line (`suggestion 0 Sc Ca Ha 2 Ca`).
    Message(String),
    /// Not a whole message yet. `ambiguous`: it is a whole `suggest` unless
    /// more bytes (the rest of a `suggestion`) are on their way.
    Incomplete {
        /// The bytes so far are exactly `suggest`.
        ambiguous: bool,
    },
    /// Bytes that are no message of the protocol (everything buffered is
    /// dropped).
    Bad {
        /// The message so far and a few bytes after, escaped and elided.
        text: String,
        /// What is wrong.
        why: String,
    },
}

/// The message heads. `suggest` is the only head that begins another.
const HEADS: [&str; 7] = ["suggestion", "accusation", "disprove", "suggest", "accuse", "reset", "done"];

/// Cards of the classic deck outside the case file.
const DEALT_CARDS: usize = 18;

/// How many bytes after the offending one a [`Frame::Bad`] shows.
const BAD_CONTEXT: usize = 16;

/// Bytes between fields: whitespace, and NULs.
fn is_gap(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0)
}

/// A byte as an error message shows it: `'x'` if printable, else its value.
fn shown(b: u8) -> String {
    if b.is_ascii_graphic() {
        format!("'{}'", char::from(b))
    } else {
        format!("the byte 0x{b:02x}")
    }
}

/// A field of a message.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Field {
    /// One digit: a player count or a player number (0 to 6).
    Digit,
    /// A two-letter card code.
    Card,
    /// `+` or `-`.
    Sign,
    /// A player number, or `-` for nobody.
    Disprover,
}

/// The message being read.
#[derive(Debug, Default)]
struct Partial {
    /// Its bytes so far, the gaps before it included.
    bytes: Vec<u8>,
    /// Its head so far, in lower case.
    head: Vec<u8>,
    /// Its head, once whole.
    whole: Option<&'static str>,
    /// Its fields so far, in canonical case.
    fields: Vec<String>,
    /// The first letter of a card code whose second is still to come.
    half_card: Option<u8>,
}

impl Partial {
    /// The next field, `None` when the message is whole; `Err` when the
    /// fields so far cannot be a message. `me`: this player's number in the
    /// current game, which decides whether a `suggestion` carries a card.
    fn expected(&self, head: &str, me: Option<usize>) -> Result<Option<Field>, String> {
        let f = &self.fields;
        let digit = |k: usize| f[k].parse::<usize>().ok();
        let next = match head {
            "reset" if f.len() < 2 => Some(Field::Digit),
            "reset" => {
                let (n, i) = (digit(0).unwrap_or(0), digit(1).unwrap_or(0));
                if n == 0 || i >= n {
                    return Err(format!("player {i} of {n} players"));
                }
                let size = DEALT_CARDS / n + usize::from(i < DEALT_CARDS % n);
                (f.len() < 2 + size).then_some(Field::Card)
            }
            "disprove" => [Field::Digit, Field::Card, Field::Card, Field::Card].get(f.len()).copied(),
            "accusation" => [Field::Digit, Field::Card, Field::Card, Field::Card, Field::Sign].get(f.len()).copied(),
            // `P S W R D [X]`: `X` exactly when `D` is a player and this
            // player is `P` or `D` (`Player.suggestion` in the server).
            "suggestion" => match f.len() {
                0 => Some(Field::Digit),
                1..=3 => Some(Field::Card),
                4 => Some(Field::Disprover),
                5 => {
                    let d = digit(4);
                    (d.is_some() && me.is_some() && (me == digit(0) || me == d)).then_some(Field::Card)
                }
                _ => None,
            },
            _ => None,
        };
        Ok(next)
    }
}

/// Accumulates the bytes read from the server and cuts messages out,
/// reading each byte once.
#[derive(Debug, Default)]
pub struct Framer {
    /// Bytes received; those before `pos` are read.
    buf: Vec<u8>,
    pos: usize,
    msg: Partial,
}

impl Framer {
    /// An empty framer.
    pub fn new() -> Framer {
        Framer::default()
    }

    /// Adds bytes read from the server.
    pub fn push(&mut self, bytes: &[u8]) {
        // The bytes read so far are in `msg`: drop them from the buffer.
        self.buf.drain(..self.pos);
        self.pos = 0;
        self.buf.extend_from_slice(bytes);
    }

    /// Whether only gaps (or nothing) are buffered.
    pub fn is_idle(&self) -> bool {
        self.msg.head.is_empty() && self.buf[self.pos..].iter().all(|&b| is_gap(b))
    }

    /// Takes the next whole message, if the buffer holds one. `me` is this
    /// player's number in the current game (it decides whether a
    /// `suggestion` carries a shown card). `settled`: no more bytes are
    /// coming now, so a lone `suggest` is taken as such.
    pub fn next(&mut self, me: Option<usize>, settled: bool) -> Frame {
        loop {
            if let Some(head) = self.msg.whole {
                match self.msg.expected(head, me) {
                    Ok(None) => return self.take(head),
                    Ok(Some(_)) => {}
                    Err(why) => return self.bad(why),
                }
            }
            let Some(&b) = self.buf.get(self.pos) else {
                if self.msg.head == b"suggest" && self.msg.whole.is_none() {
                    if !settled {
                        return Frame::Incomplete { ambiguous: true };
                    }
                    self.msg.whole = Some("suggest");
                    continue;
                }
                return Frame::Incomplete { ambiguous: false };
            };
            if self.msg.bytes.len() >= MAX_MESSAGE_BYTES {
                return self.bad(format!("longer than {MAX_MESSAGE_BYTES} bytes, the most a message may be"));
            }
            let step = match self.msg.whole {
                None => self.head_byte(b),
                Some(head) => self.field_byte(head, b, me),
            };
            match step {
                Ok(true) => {
                    self.msg.bytes.push(b);
                    self.pos += 1;
                }
                Ok(false) => {}
                Err(why) => return self.bad(why),
            }
        }
    }

    /// Reads `b` as part of the head. `Ok(true)`: consumed; `Ok(false)`:
    /// the head is whole before `b`.
    fn head_byte(&mut self, b: u8) -> Result<bool, String> {
        let m = &mut self.msg;
        if m.head.is_empty() && is_gap(b) {
            return Ok(true);
        }
        let lower = b.to_ascii_lowercase();
        let extends = |h: &&str| h.len() > m.head.len() && h.as_bytes()[..m.head.len()] == m.head[..];
        if b.is_ascii_alphabetic() && HEADS.iter().any(|h| extends(h) && h.as_bytes()[m.head.len()] == lower) {
            m.head.push(lower);
            // Whole at once unless a longer head begins with it.
            if let Some(&h) = HEADS.iter().find(|h| h.as_bytes() == m.head) {
                if !HEADS.iter().any(|o| o.len() > h.len() && o.starts_with(h)) {
                    m.whole = Some(h);
                }
            }
            return Ok(true);
        }
        match HEADS.iter().find(|h| h.as_bytes() == m.head) {
            Some(&h) => {
                m.whole = Some(h);
                Ok(false)
            }
            None => Err("not a message of the protocol".into()),
        }
    }

    /// Reads `b` as part of the fields of a `head` message (consumed).
    fn field_byte(&mut self, head: &str, b: u8, me: Option<usize>) -> Result<bool, String> {
        let m = &mut self.msg;
        if let Some(a) = m.half_card {
            if !b.is_ascii_alphabetic() {
                return Err(format!("expected a card code, got {} then {}", shown(a), shown(b)));
            }
            m.half_card = None;
            m.fields.push(format!("{}{}", char::from(a.to_ascii_uppercase()), char::from(b.to_ascii_lowercase())));
            return Ok(true);
        }
        if is_gap(b) {
            return Ok(true);
        }
        let field = m.expected(head, me)?.expect("a field is expected");
        let c = char::from(b);
        match field {
            Field::Card if b.is_ascii_alphabetic() => m.half_card = Some(b),
            Field::Digit if b.is_ascii_digit() => m.fields.push(c.to_string()),
            Field::Sign if matches!(b, b'+' | b'-') => m.fields.push(c.to_string()),
            Field::Disprover if b == b'-' || b.is_ascii_digit() => m.fields.push(c.to_string()),
            _ => {
                let what = match field {
                    Field::Card => "a card code",
                    Field::Digit if head == "reset" && m.fields.is_empty() => "the number of players",
                    Field::Digit if head == "reset" => "this player's number",
                    Field::Digit => "a player number",
                    Field::Sign => "'+' or '-'",
                    Field::Disprover => "a player number or '-'",
                };
                return Err(format!("expected {what}, got {}", shown(b)));
            }
        }
        Ok(true)
    }

    /// The whole message as a canonical line; the framer moves on.
    fn take(&mut self, head: &str) -> Frame {
        let msg = std::mem::take(&mut self.msg);
        let line = std::iter::once(head.to_string()).chain(msg.fields).collect::<Vec<_>>().join(" ");
        Frame::Message(line)
    }

    /// A [`Frame::Bad`] for the message so far; everything buffered is
    /// dropped.
    fn bad(&mut self, why: String) -> Frame {
        let msg = std::mem::take(&mut self.msg);
        let end = (self.pos + BAD_CONTEXT).min(self.buf.len());
        let mut bytes = msg.bytes;
        bytes.extend_from_slice(&self.buf[self.pos..end]);
        let text = String::from_utf8_lossy(&bytes);
        let text = text.trim_matches(|c: char| u8::try_from(c).is_ok_and(is_gap));
        self.buf.clear();
        self.pos = 0;
        Frame::Bad { text: quote(text), why }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(chunks: &[&[u8]], me: Option<usize>) -> Vec<Frame> {
        let mut f = Framer::new();
        let mut out = Vec::new();
        for c in chunks {
            f.push(c);
            loop {
                match f.next(me, false) {
                    Frame::Incomplete { .. } => break,
                    frame => out.push(frame),
                }
            }
        }
        out
    }

    fn msg(s: &str) -> Frame {
        Frame::Message(s.to_string())
    }

    #[test]
    fn unterminated_messages_are_whole() {
        assert_eq!(all(&[b"reset 3 0 Gr Mu Kn Ca Ba Bi"], None), vec![msg("reset 3 0 Gr Mu Kn Ca Ba Bi")]);
        assert_eq!(all(&[b"accuse"], Some(0)), vec![msg("accuse")]);
        assert_eq!(all(&[b"done"], Some(0)), vec![msg("done")]);
        assert_eq!(all(&[b"disprove 1 Pl Ro Ki"], Some(0)), vec![msg("disprove 1 Pl Ro Ki")]);
        assert_eq!(all(&[b"accusation 2 Pe Pi Bi +"], Some(0)), vec![msg("accusation 2 Pe Pi Bi +")]);
        // No card for a bystander; a card for the suggester and the disprover.
        assert_eq!(all(&[b"suggestion 0 Sc Ca Ha 2"], Some(1)), vec![msg("suggestion 0 Sc Ca Ha 2")]);
        assert_eq!(all(&[b"suggestion 0 Sc Ca Ha 2 Ca"], Some(0)), vec![msg("suggestion 0 Sc Ca Ha 2 Ca")]);
        assert_eq!(all(&[b"suggestion 0 Sc Ca Ha -"], Some(0)), vec![msg("suggestion 0 Sc Ca Ha -")]);
    }

    #[test]
    fn nuls_newlines_and_case_are_tolerated() {
        assert_eq!(all(&[b"RESET 3 1 gr MU kn Ca ba Bi\r\n\0\0"], None), vec![msg("reset 3 1 Gr Mu Kn Ca Ba Bi")]);
        assert_eq!(all(&[b"\0accuse\n"], Some(0)), vec![msg("accuse")]);
    }

    #[test]
    fn a_message_split_over_reads_is_still_understood() {
        let whole = b"suggestion 0 Sc Ca Ha 2 Ca";
        for cut in 1..whole.len() {
            let got = all(&[&whole[..cut], &whole[cut..]], Some(2));
            assert_eq!(got, vec![msg("suggestion 0 Sc Ca Ha 2 Ca")], "cut at {cut}");
        }
        // Waiting for the card a disprover always gets.
        let mut f = Framer::new();
        f.push(b"suggestion 0 Sc Ca Ha 2");
        assert_eq!(f.next(Some(2), true), Frame::Incomplete { ambiguous: false });
    }

    #[test]
    fn two_messages_in_one_read_are_both_understood() {
        assert_eq!(
            all(&[b"suggestion 1 Sc Ca Ha -accuse"], Some(1)),
            vec![msg("suggestion 1 Sc Ca Ha -"), msg("accuse")]
        );
        assert_eq!(all(&[b"done\ndone"], None), vec![msg("done"), msg("done")]);
    }

    #[test]
    fn a_lone_suggest_waits_to_be_settled() {
        let mut f = Framer::new();
        f.push(b"suggest");
        assert_eq!(f.next(Some(0), false), Frame::Incomplete { ambiguous: true });
        assert_eq!(f.next(Some(0), true), msg("suggest"));
        assert!(f.is_idle());
        let mut f = Framer::new();
        f.push(b"sugges");
        assert_eq!(f.next(Some(0), true), Frame::Incomplete { ambiguous: false });
        f.push(b"tion 1 Gr Kn Ba -");
        assert_eq!(f.next(Some(0), false), msg("suggestion 1 Gr Kn Ba -"));
    }

    fn bad(frames: &[Frame]) -> (&str, &str) {
        match frames {
            [Frame::Bad { text, why }] => (text, why),
            other => panic!("expected one bad frame, got {other:?}"),
        }
    }

    #[test]
    fn garbage_is_reported() {
        assert_eq!(bad(&all(&[b"hello"], None)), ("hello", "not a message of the protocol"));
        assert!(bad(&all(&[b"reset x 0"], None)).1.contains("number of players"));
        assert!(bad(&all(&[b"disprove 1 P1 Ro Ki"], None)).1.contains("card code"));
        assert!(bad(&all(&[b"reset 3 3 Gr"], None)).1.contains("player 3 of 3"));
        assert!(bad(&all(&[b"sugg est"], None)).1.contains("not a message"));
        assert!(bad(&all(&[b"suggestion 0 Sc Ca Ha +"], Some(1))).1.contains("a player number or '-'"));
        // An invisible character inside a card code is shown escaped.
        let frames = all(&["reset 3 0 G\u{200b}r Mu Kn Ca Ba Bi".as_bytes()], None);
        let (text, why) = bad(&frames);
        assert!(text.contains("G\\u{200b}r"), "{text}");
        assert!(why.contains("expected a card code"), "{why}");
    }

    #[test]
    fn a_message_may_be_at_most_512_bytes_with_the_gaps_before_it() {
        let padded = |pad: usize| format!("{}reset 3 0 Gr Mu Kn Ca Ba Bi", " ".repeat(pad));
        let fits = padded(MAX_MESSAGE_BYTES - "reset 3 0 Gr Mu Kn Ca Ba Bi".len());
        assert_eq!(all(&[fits.as_bytes()], None), vec![msg("reset 3 0 Gr Mu Kn Ca Ba Bi")]);
        let over = padded(MAX_MESSAGE_BYTES + 1 - "reset 3 0 Gr Mu Kn Ca Ba Bi".len());
        assert!(bad(&all(&[over.as_bytes()], None)).1.contains("longer than 512 bytes"));
        // Padding inside the message counts too.
        let inside = format!("reset{}3 0 Gr Mu Kn Ca Ba Bi", "\0".repeat(600));
        assert!(bad(&all(&[inside.as_bytes()], None)).1.contains("longer than 512 bytes"));
    }

    /// Each byte is read once: a framer fed 5 MB of padding one 512-byte
    /// read at a time looks at 5 MB, not at the square of it. The framer
    /// reads a byte only by moving `pos` or by dropping the buffer, so the
    /// bytes it still holds after each read bound the work left.
    #[test]
    fn padding_is_read_once_and_refused() {
        let mut f = Framer::new();
        let chunk = [b' '; 512];
        let mut frames = Vec::new();
        for _ in 0..(5 << 20) / 512 {
            f.push(&chunk);
            assert!(f.buf.len() <= 2 * chunk.len(), "the buffer grows: {}", f.buf.len());
            match f.next(None, false) {
                Frame::Incomplete { .. } => {}
                frame => {
                    frames.push(frame);
                    break;
                }
            }
        }
        assert!(matches!(&frames[..], [Frame::Bad { why, .. }] if why.contains("longer than")), "{frames:?}");
        // Two messages in one push are both taken, the second from where
        // the first ended.
        let mut f = Framer::new();
        f.push(b"accuse done");
        assert_eq!(f.next(Some(0), false), msg("accuse"));
        assert_eq!(f.pos, "accuse".len());
        assert_eq!(f.next(Some(0), false), msg("done"));
        assert!(f.is_idle());
    }
}
