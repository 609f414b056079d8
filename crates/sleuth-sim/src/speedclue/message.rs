//! The client's side of the protocol: its reading of the server's messages
//! (the canonical lines the [`framing`](super::framing) cuts out) and its
//! writing of its replies, with the card codes as the client spells them
//! (the classic deck's ids with a capital first letter).
//!
//! The referee ([`server`](super::server)) has its own writing of messages
//! and reading of replies, from the contest server's source, so that a
//! misreading on one side is not mirrored on the other; both are checked
//! against the real server's bytes (`testdata/speedclue/`).

use super::Triple;
use sleuth_core::text::quote;
use sleuth_core::{Card, Deck};
use std::fmt;

/// A line that does not follow the protocol.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad protocol line '{}': {reason}", quote(line))]
pub struct ParseError {
    /// The line as received (without its newline).
    pub line: String,
    /// What is wrong with it.
    pub reason: String,
}

fn bad<T>(line: &str, reason: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError { line: line.to_string(), reason: reason.into() })
}

/// The card of a two-letter code (`Gr`, `Kn`, `Ba`, ...): the classic
/// deck's id with a capital first letter. `None` for anything else,
/// including the lower-case id.
pub fn card_of_code(deck: &Deck, code: &str) -> Option<Card> {
    let mut chars = code.chars();
    let first = chars.next()?;
    if !first.is_ascii_uppercase() || code.len() != 2 || !chars.all(|c| c.is_ascii_lowercase()) {
        return None;
    }
    deck.card(&code.to_ascii_lowercase())
}

/// The two-letter code of a card of the classic deck.
pub fn code_of_card(deck: &Deck, card: Card) -> String {
    let id = deck.id(card);
    let mut chars = id.chars();
    chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
}

/// `S W R`: three card codes, a suspect, a weapon and a room.
fn parse_triple(deck: &Deck, line: &str, words: &[&str]) -> Result<Triple, ParseError> {
    if words.len() != 3 {
        return bad(line, format!("expected a suspect, a weapon and a room, got {} words", words.len()));
    }
    let mut cards = [Card::new(0); 3];
    for (k, (cat, word)) in deck.categories().zip(words).enumerate() {
        let Some(card) = card_of_code(deck, word) else {
            return bad(line, format!("'{}' is not a card code (such as Gr, Kn or Ba)", quote(word)));
        };
        if deck.category(card) != cat {
            return bad(line, format!("'{word}' is not a {}", deck.category_name(cat)));
        }
        cards[k] = card;
    }
    Ok(Triple(cards))
}

fn write_triple(deck: &Deck, t: Triple, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let [s, w, r] = t.0;
    write!(f, "{} {} {}", code_of_card(deck, s), code_of_card(deck, w), code_of_card(deck, r))
}

/// A message from the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// `reset N I C1 C2 ...`: a new game of `players` players; this player
    /// is number `me` and holds `hand`.
    Reset {
        /// Players in the game.
        players: usize,
        /// This player's number (0 plays first).
        me: usize,
        /// This player's cards.
        hand: Vec<Card>,
    },
    /// `suggest`: make a suggestion.
    Suggest,
    /// `disprove P S W R`: show one of the cards (this player holds two or
    /// more of them).
    Disprove {
        /// Who suggested.
        by: usize,
        /// The suggestion.
        cards: Triple,
    },
    /// `suggestion P S W R D [X]`: what happened to a suggestion.
    Suggestion {
        /// Who suggested.
        by: usize,
        /// The suggestion.
        cards: Triple,
        /// Who disproved it (`-`: nobody).
        disprover: Option<usize>,
        /// The card shown, sent only to the suggester and the disprover.
        shown: Option<Card>,
    },
    /// `accuse`: accuse (`accuse S W R`) or pass (`-`).
    Accuse,
    /// `accusation P S W R +|-`: an accusation and whether it was right.
    Accusation {
        /// Who accused.
        by: usize,
        /// The accusation.
        cards: Triple,
        /// Whether it was the case file.
        correct: bool,
    },
    /// `done`: the contest is over; answer `dead` and exit.
    Done,
}

fn player(line: &str, word: &str) -> Result<usize, ParseError> {
    word.parse().or_else(|_| bad(line, format!("'{}' is not a player number", quote(word))))
}

impl Message {
    /// Parses a line from the server (the classic deck's cards).
    ///
    /// # Errors
    /// [`ParseError`] saying what is wrong.
    pub fn parse(deck: &Deck, line: &str) -> Result<Message, ParseError> {
        let line = line.trim_end_matches(['\r', '\n']);
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&head, rest)) = words.split_first() else { return bad(line, "empty line") };
        let arity = |n: usize| -> Result<(), ParseError> {
            if rest.len() == n {
                Ok(())
            } else {
                bad(line, format!("'{head}' takes {n} words after it, got {}", rest.len()))
            }
        };
        match head {
            "reset" => {
                if rest.len() < 2 {
                    return bad(line, "'reset' needs the number of players and this player's number");
                }
                let players = player(line, rest[0])?;
                let me = player(line, rest[1])?;
                if !(2..=deck.len()).contains(&players) || me >= players {
                    return bad(line, format!("player {me} of {players} players"));
                }
                let hand = rest[2..]
                    .iter()
                    .map(|w| {
                        card_of_code(deck, w)
                            .map_or_else(|| bad(line, format!("'{}' is not a card code", quote(w))), Ok)
                    })
                    .collect::<Result<Vec<Card>, _>>()?;
                Ok(Message::Reset { players, me, hand })
            }
            "suggest" => arity(0).map(|_| Message::Suggest),
            "accuse" => arity(0).map(|_| Message::Accuse),
            "done" => arity(0).map(|_| Message::Done),
            "disprove" => {
                arity(4)?;
                Ok(Message::Disprove { by: player(line, rest[0])?, cards: parse_triple(deck, line, &rest[1..4])? })
            }
            "suggestion" => {
                if rest.len() != 5 && rest.len() != 6 {
                    return bad(line, format!("'suggestion' takes 5 or 6 words after it, got {}", rest.len()));
                }
                let by = player(line, rest[0])?;
                let cards = parse_triple(deck, line, &rest[1..4])?;
                let disprover = match rest[4] {
                    "-" => None,
                    w => Some(player(line, w)?),
                };
                let shown = match rest.get(5) {
                    None => None,
                    Some(w) => {
                        let Some(card) = card_of_code(deck, w) else {
                            return bad(line, format!("'{}' is not a card code", quote(w)));
                        };
                        if disprover.is_none() || !cards.set().contains(card) {
                            return bad(line, format!("card {w} shown, but it was not disproved with it"));
                        }
                        Some(card)
                    }
                };
                Ok(Message::Suggestion { by, cards, disprover, shown })
            }
            "accusation" => {
                arity(5)?;
                let by = player(line, rest[0])?;
                let cards = parse_triple(deck, line, &rest[1..4])?;
                let correct = match rest[4] {
                    "+" => true,
                    "-" => false,
                    w => return bad(line, format!("'{}' is neither + nor -", quote(w))),
                };
                Ok(Message::Accusation { by, cards, correct })
            }
            _ => bad(line, format!("unknown message '{}'", quote(head))),
        }
    }
}

/// A player's reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `IDENTIFIER alive`: the first line a player sends.
    Alive(String),
    /// `ok`.
    Ok,
    /// `suggest S W R`.
    Suggest(Triple),
    /// `show X`.
    Show(Card),
    /// `-`: no accusation.
    Pass,
    /// `accuse S W R`.
    Accuse(Triple),
    /// `dead`: the answer to `done`.
    Dead,
}

impl Reply {
    /// The reply as the client sends it: one line without terminator.
    pub fn display<'a>(&'a self, deck: &'a Deck) -> impl fmt::Display + 'a {
        Written(deck, self)
    }
}

struct Written<'a>(&'a Deck, &'a Reply);

impl fmt::Display for Written<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let deck = self.0;
        match self.1 {
            Reply::Alive(id) => write!(f, "{id} alive"),
            Reply::Ok => f.write_str("ok"),
            Reply::Pass => f.write_str("-"),
            Reply::Dead => f.write_str("dead"),
            Reply::Show(c) => write!(f, "show {}", code_of_card(deck, *c)),
            Reply::Suggest(t) => {
                f.write_str("suggest ")?;
                write_triple(deck, *t, f)
            }
            Reply::Accuse(t) => {
                f.write_str("accuse ")?;
                write_triple(deck, *t, f)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deck() -> Deck {
        Deck::classic()
    }

    #[test]
    fn every_contest_code_names_a_classic_card() {
        let d = deck();
        let codes = [
            "Gr", "Mu", "Pe", "Pl", "Sc", "Wh", "Ca", "Kn", "Pi", "Re", "Ro", "Wr", "Ba", "Bi", "Co", "Di", "Ha", "Ki",
            "Li", "Lo", "St",
        ];
        let cards: sleuth_core::CardSet =
            codes.iter().map(|c| card_of_code(&d, c).unwrap_or_else(|| panic!("{c}"))).collect();
        assert_eq!(cards, d.all());
        for c in d.cards() {
            assert_eq!(card_of_code(&d, &code_of_card(&d, c)), Some(c));
        }
        assert_eq!(d.name(card_of_code(&d, "Pi").unwrap()), "Lead Pipe");
        assert_eq!(d.name(card_of_code(&d, "Bi").unwrap()), "Billiard Room");
        for bad in ["gr", "GR", "G", "Grx", "Xx", "", "Gé"] {
            assert_eq!(card_of_code(&d, bad), None, "{bad}");
        }
    }

    fn card(code: &str) -> Card {
        card_of_code(&deck(), code).unwrap()
    }

    fn triple(codes: [&str; 3]) -> Triple {
        Triple(codes.map(card))
    }

    #[test]
    fn messages_are_read() {
        let d = deck();
        let read = |line: &str| Message::parse(&d, line).unwrap_or_else(|e| panic!("{e}"));
        let hand = ["Gr", "Kn", "Ba", "Wh", "St"].map(card).to_vec();
        assert_eq!(read("reset 4 2 Gr Kn Ba Wh St"), Message::Reset { players: 4, me: 2, hand });
        assert_eq!(read("suggest"), Message::Suggest);
        assert_eq!(read("suggest\r\n"), Message::Suggest);
        assert_eq!(read("accuse"), Message::Accuse);
        assert_eq!(read("done"), Message::Done);
        assert_eq!(read("disprove 1 Pl Ro Ki"), Message::Disprove { by: 1, cards: triple(["Pl", "Ro", "Ki"]) });
        let sc_ca_ha = triple(["Sc", "Ca", "Ha"]);
        assert_eq!(
            read("suggestion 0 Sc Ca Ha 2 Ca"),
            Message::Suggestion { by: 0, cards: sc_ca_ha, disprover: Some(2), shown: Some(card("Ca")) }
        );
        assert_eq!(
            read("suggestion 3 Sc Ca Ha -"),
            Message::Suggestion { by: 3, cards: sc_ca_ha, disprover: None, shown: None }
        );
        assert_eq!(
            read("suggestion 3 Sc Ca Ha 1"),
            Message::Suggestion { by: 3, cards: sc_ca_ha, disprover: Some(1), shown: None }
        );
        let pe_pi_bi = triple(["Pe", "Pi", "Bi"]);
        assert_eq!(read("accusation 2 Pe Pi Bi +"), Message::Accusation { by: 2, cards: pe_pi_bi, correct: true });
        assert_eq!(read("accusation 2 Pe Pi Bi -"), Message::Accusation { by: 2, cards: pe_pi_bi, correct: false });
    }

    #[test]
    fn replies_are_written_without_terminator() {
        let d = deck();
        let t = triple(["Gr", "Kn", "Ba"]);
        for (reply, line) in [
            (Reply::Alive("bot7".into()), "bot7 alive"),
            (Reply::Ok, "ok"),
            (Reply::Pass, "-"),
            (Reply::Dead, "dead"),
            (Reply::Show(card("Kn")), "show Kn"),
            (Reply::Suggest(t), "suggest Gr Kn Ba"),
            (Reply::Accuse(t), "accuse Gr Kn Ba"),
        ] {
            assert_eq!(reply.display(&d).to_string(), line);
        }
    }

    #[test]
    fn bad_lines_are_clear_errors() {
        let d = deck();
        for (line, says) in [
            ("", "empty line"),
            ("hello", "unknown message 'hello'"),
            ("suggest now", "takes 0 words"),
            ("reset 4", "needs the number of players"),
            ("reset four 1", "'four' is not a player number"),
            ("reset 4 4 Gr", "player 4 of 4 players"),
            ("reset 4 1 Gx", "'Gx' is not a card code"),
            ("disprove 1 Kn Pl Ki", "'Kn' is not a suspect"),
            ("disprove 1 Pl Ro", "takes 4 words"),
            ("suggestion 0 Sc Ca Ha - Ca", "not disproved with it"),
            ("suggestion 0 Sc Ca Ha 1 Wr", "not disproved with it"),
            ("suggestion 0 Sc Ca Ha x", "'x' is not a player number"),
            ("accusation 2 Pe Pi Bi ?", "neither + nor -"),
        ] {
            let e = Message::parse(&d, line).unwrap_err();
            assert!(e.to_string().contains(says), "{line}: {e}");
        }
    }
}
