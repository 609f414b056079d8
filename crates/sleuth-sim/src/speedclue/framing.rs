//! Cutting the server's byte stream into messages.
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
//! One ambiguity is left: `suggest` is the start of `suggestion`. When the
//! bytes received so far end exactly after `suggest`, the framer says so
//! ([`Frame::Incomplete`] with `ambiguous`) and the caller waits a moment
//! for more before taking it as `suggest`.

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
    /// Bytes that cannot start any message (dropped from the buffer).
    Bad(String),
}

/// The message heads, longest first so that `suggestion` wins over
/// `suggest` and `accusation` over `accuse`.
const HEADS: [&str; 7] = ["suggestion", "accusation", "disprove", "suggest", "accuse", "reset", "done"];

/// Cards of the classic deck outside the case file.
const DEALT_CARDS: usize = 18;

/// Bytes between fields: whitespace, and NULs.
fn is_gap(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0)
}

/// Accumulates the bytes read from the server and cuts messages out.
#[derive(Debug, Default)]
pub struct Framer {
    buf: Vec<u8>,
}

/// A field that is not there yet, or is wrong.
enum Short {
    More,
    Bad(String),
}

/// A cursor over the buffered bytes.
struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Cursor<'_> {
    fn skip_gaps(&mut self) {
        while self.pos < self.bytes.len() && is_gap(self.bytes[self.pos]) {
            self.pos += 1;
        }
    }

    /// The next non-gap byte, consumed.
    fn byte(&mut self) -> Result<u8, Short> {
        self.skip_gaps();
        let b = *self.bytes.get(self.pos).ok_or(Short::More)?;
        self.pos += 1;
        Ok(b)
    }

    /// A one-digit number (player counts and numbers are 0 to 6).
    fn digit(&mut self, what: &str) -> Result<usize, Short> {
        let b = self.byte()?;
        if b.is_ascii_digit() {
            Ok(usize::from(b - b'0'))
        } else {
            Err(Short::Bad(format!("expected {what}, got '{}'", char::from(b))))
        }
    }

    /// A two-letter card code, in canonical case (`Gr`).
    fn card(&mut self) -> Result<String, Short> {
        let a = self.byte()?;
        let b = *self.bytes.get(self.pos).ok_or(Short::More)?;
        self.pos += 1;
        if !a.is_ascii_alphabetic() || !b.is_ascii_alphabetic() {
            return Err(Short::Bad(format!("expected a card code, got '{}{}'", char::from(a), char::from(b))));
        }
        Ok(format!("{}{}", char::from(a.to_ascii_uppercase()), char::from(b.to_ascii_lowercase())))
    }

    /// One of the given one-byte words (`+`, `-`) or a digit.
    fn sign_or_digit(&mut self, digits: bool) -> Result<String, Short> {
        let b = self.byte()?;
        if b == b'+' || b == b'-' || (digits && b.is_ascii_digit()) {
            Ok(char::from(b).to_string())
        } else {
            Err(Short::Bad(format!("unexpected '{}'", char::from(b))))
        }
    }
}

impl Framer {
    /// An empty framer.
    pub fn new() -> Framer {
        Framer::default()
    }

    /// Adds bytes read from the server.
    pub fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// Whether only gaps (or nothing) are buffered.
    pub fn is_idle(&self) -> bool {
        self.buf.iter().all(|&b| is_gap(b))
    }

    /// Takes the next whole message, if the buffer holds one. `me` is this
    /// player's number in the current game (it decides whether a
    /// `suggestion` carries a shown card). `settled`: no more bytes are
    /// coming now, so a lone `suggest` is taken as such.
    pub fn next(&mut self, me: Option<usize>, settled: bool) -> Frame {
        let mut cur = Cursor { bytes: &self.buf, pos: 0 };
        cur.skip_gaps();
        let start = cur.pos;
        let rest = &self.buf[start..];
        if rest.is_empty() {
            self.buf.clear();
            return Frame::Incomplete { ambiguous: false };
        }
        let starts = |h: &str| rest.len() >= h.len() && rest[..h.len()].eq_ignore_ascii_case(h.as_bytes());
        let partial = |h: &str| rest.len() < h.len() && h.as_bytes()[..rest.len()].eq_ignore_ascii_case(rest);
        let Some(head) = HEADS.into_iter().find(|h| starts(h)) else {
            if HEADS.iter().any(|h| partial(h)) {
                return Frame::Incomplete { ambiguous: false };
            }
            return self.bad(start);
        };
        if head == "suggest" && partial("suggestion") && !settled {
            return Frame::Incomplete { ambiguous: rest.len() == head.len() };
        }
        cur.pos = start + head.len();
        let fields = match head {
            "suggest" | "accuse" | "done" => Ok(Vec::new()),
            "reset" => reset_fields(&mut cur),
            "disprove" => player_and_triple(&mut cur),
            "accusation" => player_and_triple(&mut cur).and_then(|mut f| {
                f.push(cur.sign_or_digit(false)?);
                Ok(f)
            }),
            _ => suggestion_fields(&mut cur, me),
        };
        match fields {
            Ok(fields) => {
                let end = cur.pos;
                let line = std::iter::once(head.to_string()).chain(fields).collect::<Vec<_>>().join(" ");
                self.buf.drain(..end);
                Frame::Message(line)
            }
            Err(Short::More) => Frame::Incomplete { ambiguous: false },
            Err(Short::Bad(why)) => {
                let text = String::from_utf8_lossy(&self.buf[start..]).trim_end_matches(is_gap_char).to_string();
                self.buf.clear();
                Frame::Bad(format!("{text} ({why})"))
            }
        }
    }

    /// Drops everything buffered from `start`, returning it as text.
    fn bad(&mut self, start: usize) -> Frame {
        let text = String::from_utf8_lossy(&self.buf[start..]).trim_end_matches(is_gap_char).to_string();
        self.buf.clear();
        Frame::Bad(text)
    }
}

fn is_gap_char(c: char) -> bool {
    u8::try_from(c).is_ok_and(is_gap)
}

/// `N I C1 .. Ck`, with `k` the hand size of player `I` of `N`.
fn reset_fields(cur: &mut Cursor<'_>) -> Result<Vec<String>, Short> {
    let n = cur.digit("the number of players")?;
    let me = cur.digit("this player's number")?;
    if n == 0 || me >= n {
        return Err(Short::Bad(format!("player {me} of {n} players")));
    }
    let size = DEALT_CARDS / n + usize::from(me < DEALT_CARDS % n);
    let mut fields = vec![n.to_string(), me.to_string()];
    for _ in 0..size {
        fields.push(cur.card()?);
    }
    Ok(fields)
}

/// `P S W R`.
fn player_and_triple(cur: &mut Cursor<'_>) -> Result<Vec<String>, Short> {
    let mut fields = vec![cur.digit("a player number")?.to_string()];
    for _ in 0..3 {
        fields.push(cur.card()?);
    }
    Ok(fields)
}

/// `P S W R D [X]`: `X` exactly when `D` is a player and this player is
/// `P` or `D` (`Player.suggestion` in the contest server).
fn suggestion_fields(cur: &mut Cursor<'_>, me: Option<usize>) -> Result<Vec<String>, Short> {
    let mut fields = player_and_triple(cur)?;
    let by = fields[0].parse::<usize>().ok();
    let disprover = cur.sign_or_digit(true)?;
    let d = disprover.parse::<usize>().ok();
    fields.push(disprover);
    if d.is_some() && me.is_some() && (me == by || me == d) {
        fields.push(cur.card()?);
    }
    Ok(fields)
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

    #[test]
    fn garbage_is_reported() {
        assert_eq!(all(&[b"hello"], None), vec![Frame::Bad("hello".into())]);
        assert!(matches!(&all(&[b"reset x 0"], None)[..], [Frame::Bad(m)] if m.contains("number of players")));
        assert!(matches!(&all(&[b"disprove 1 P1 Ro Ki"], None)[..], [Frame::Bad(m)] if m.contains("card code")));
        assert!(matches!(&all(&[b"reset 3 3 Gr"], None)[..], [Frame::Bad(m)] if m.contains("player 3 of 3")));
    }
}
