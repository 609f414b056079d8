//! The referee's side of the wire: its writing of the server's messages and
//! its reading of the players' replies, from the contest server's Java
//! source (sadakatsu/SpeedClueContest, `core/code/com/sadakatsu/clue/`),
//! apart from the client's ([`framing`](crate::speedclue::framing),
//! [`message`](crate::speedclue::message)):
//!
//! - **cards** (`cards/Card.java`, `Suspect.java`, `Weapon.java`,
//!   `Room.java`): a card's abbreviation is the first two characters of its
//!   name (`Gr` for Green, `Pi` for Pipe, `Bi` for Billiards Room);
//!   `Card.from` finds the card whose abbreviation equals the first two
//!   characters of a text, ignoring case.
//! - **messages** (`contestserver/Player.java`): `reset %d %d %s` with the
//!   hand's abbreviations joined by single spaces (`Hand.getAbbreviation`,
//!   in the order of a `HashSet`: any order), `suggest`, `disprove %d %s`,
//!   `suggestion %d %s ` then the disprover and, to the suggester and the
//!   disprover only, ` ` and the card shown, or `-` (`Player.suggestion`),
//!   `accuse`, `accusation %d %s %c` with `+` or `-`, `done`; a
//!   combination is `Su We Ro` (`Suggestion.getAbbreviation`).
//! - **replies** (`Player.getResponse` and each method's check): one read,
//!   trailing NULs stripped, then compared exactly, ignoring case: `ID
//!   alive`, `ok`, `dead`, `show Xx` (exactly 7 characters), `suggest S W R`
//!   (exactly 16), `-` (exactly, `equals`) or `accuse S W R` (exactly 15).
//!   A combination is split on single whitespace characters (`split("\\s")`,
//!   trailing empty words dropped) into exactly three words of two
//!   characters, a suspect, a weapon and a room (`new Suggestion(String)`).

use crate::speedclue::Triple;
use sleuth_core::{Card, Deck};

/// The contest's cards in its order (suspects, weapons, rooms), by name,
/// each with the classic deck's id of the same card.
const CARDS: [(&str, &str); 21] = [
    ("Green", "gr"),
    ("Mustard", "mu"),
    ("Peacock", "pe"),
    ("Plum", "pl"),
    ("Scarlet", "sc"),
    ("White", "wh"),
    ("Candlestick", "ca"),
    ("Knife", "kn"),
    ("Pipe", "pi"),
    ("Revolver", "re"),
    ("Rope", "ro"),
    ("Wrench", "wr"),
    ("Ballroom", "ba"),
    ("Billiards Room", "bi"),
    ("Conservatory", "co"),
    ("Dining Room", "di"),
    ("Hall", "ha"),
    ("Kitchen", "ki"),
    ("Library", "li"),
    ("Lounge", "lo"),
    ("Study", "st"),
];

/// A card's abbreviation: the first two characters of its contest name.
///
/// # Panics
/// For a card that is not of the classic deck.
pub fn abbreviation(deck: &Deck, card: Card) -> &'static str {
    let id = deck.id(card);
    let (name, _) = CARDS.iter().find(|(_, i)| *i == id).expect("a card of the classic deck");
    &name[..2]
}

/// `Card.from`: the card whose abbreviation is the first two characters of
/// `text`, ignoring case.
pub fn card_from(deck: &Deck, text: &str) -> Option<Card> {
    let abbr = text.get(..2)?;
    let (_, id) = CARDS.iter().find(|(name, _)| name[..2].eq_ignore_ascii_case(abbr))?;
    deck.card(id)
}

/// `Suggestion.getAbbreviation`: `Su We Ro`.
pub fn combination(deck: &Deck, t: Triple) -> String {
    let [s, w, r] = t.0.map(|c| abbreviation(deck, c));
    format!("{s} {w} {r}")
}

/// `new Suggestion(String)`: three two-character words split on single
/// whitespace characters, a suspect, a weapon and a room; `None` where the
/// server throws `InvalidSuggestionString`.
fn read_combination(deck: &Deck, text: &str) -> Option<Triple> {
    // Java's `\s`: space, tab, newline, vertical tab, form feed, return.
    let mut words: Vec<&str> = text.split([' ', '\t', '\n', '\u{b}', '\u{c}', '\r']).collect();
    while words.last() == Some(&"") {
        words.pop();
    }
    let [s, w, r] = words[..] else { return None };
    let mut cards = [Card::new(0); 3];
    for (k, (cat, word)) in deck.categories().zip([s, w, r]).enumerate() {
        if word.chars().count() != 2 {
            return None;
        }
        let card = card_from(deck, word)?;
        if deck.category(card) != cat {
            return None;
        }
        cards[k] = card;
    }
    Some(Triple(cards))
}

/// What the referee says to a player (the methods of `Player.java`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Say {
    /// A new game of `players`, this player number `me`, holding `hand`.
    Reset {
        /// Players in the game.
        players: usize,
        /// The player's number.
        me: usize,
        /// Its cards, in the order written.
        hand: Vec<Card>,
    },
    /// Make a suggestion.
    Suggest,
    /// Choose a card to show player `by`.
    Disprove {
        /// The suggester.
        by: usize,
        /// The suggestion.
        cards: Triple,
    },
    /// What happened to a suggestion.
    Suggestion {
        /// The suggester.
        by: usize,
        /// The suggestion.
        cards: Triple,
        /// Who disproved it and with which card (`None`: nobody).
        disproof: Option<(usize, Card)>,
    },
    /// Accuse or pass.
    Accuse,
    /// An accusation and whether it was right.
    Accusation {
        /// The accuser.
        by: usize,
        /// The accusation.
        cards: Triple,
        /// Whether it was the case file.
        correct: bool,
    },
    /// The contest is over.
    Done,
}

impl Say {
    /// The message as the server writes it to player `to` (only a
    /// suggestion depends on who reads it: the card shown goes to the
    /// suggester and the disprover).
    pub fn wire(&self, deck: &Deck, to: usize) -> String {
        match self {
            Say::Reset { players, me, hand } => {
                let cards: Vec<&str> = hand.iter().map(|&c| abbreviation(deck, c)).collect();
                format!("reset {players} {me} {}", cards.join(" "))
            }
            Say::Suggest => "suggest".into(),
            Say::Disprove { by, cards } => format!("disprove {by} {}", combination(deck, *cards)),
            Say::Suggestion { by, cards, disproof } => {
                let mut message = format!("suggestion {by} {} ", combination(deck, *cards));
                match disproof {
                    Some((d, card)) => {
                        message.push_str(&d.to_string());
                        if to == *by || to == *d {
                            message.push(' ');
                            message.push_str(abbreviation(deck, *card));
                        }
                    }
                    None => message.push('-'),
                }
                message
            }
            Say::Accuse => "accuse".into(),
            Say::Accusation { by, cards, correct } => {
                format!("accusation {by} {} {}", combination(deck, *cards), if *correct { '+' } else { '-' })
            }
            Say::Done => "done".into(),
        }
    }

    /// The reply this message expects.
    pub fn expects(&self) -> Expect {
        match self {
            Say::Reset { .. } | Say::Suggestion { .. } | Say::Accusation { .. } => Expect::Ok,
            Say::Done => Expect::Dead,
            Say::Disprove { .. } => Expect::Show,
            Say::Suggest => Expect::Suggest,
            Say::Accuse => Expect::Accuse,
        }
    }
}

/// The reply a message expects.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// `ok`.
    Ok,
    /// `dead`.
    Dead,
    /// `show Xx`.
    Show,
    /// `suggest S W R`.
    Suggest,
    /// `-` or `accuse S W R`.
    Accuse,
}

/// A player's reply, as the referee read it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// `ok`.
    Ok,
    /// `dead`.
    Dead,
    /// `show X`.
    Show(Card),
    /// `suggest S W R`.
    Suggest(Triple),
    /// `-`.
    Pass,
    /// `accuse S W R`.
    Accuse(Triple),
}

/// Judges a reply exactly as the real server does (`Player.java`): the
/// whole text, case ignored, with the exact length; anything else is a
/// protocol violation (`Err` says what was expected).
pub fn judge(deck: &Deck, expect: Expect, reply: &str) -> Result<Answer, String> {
    let starts =
        |p: &str| reply.len() >= p.len() && reply.is_char_boundary(p.len()) && reply[..p.len()].eq_ignore_ascii_case(p);
    // Java counts characters (UTF-16 units; every character that can pass
    // is ASCII).
    let len = reply.chars().count();
    let wrong = |what: &str| Err(format!("expected {what}, got {:?}", sleuth_core::text::quote(reply)));
    match expect {
        Expect::Ok if reply.eq_ignore_ascii_case("ok") => Ok(Answer::Ok),
        Expect::Ok => wrong("'ok'"),
        Expect::Dead if reply.eq_ignore_ascii_case("dead") => Ok(Answer::Dead),
        Expect::Dead => wrong("'dead'"),
        Expect::Show => match (len == 7 && starts("show ")).then(|| card_from(deck, &reply[5..])) {
            Some(Some(card)) => Ok(Answer::Show(card)),
            _ => wrong("'show Xx' (7 characters)"),
        },
        Expect::Suggest => match (len == 16 && starts("suggest ")).then(|| read_combination(deck, &reply[8..])) {
            Some(Some(t)) => Ok(Answer::Suggest(t)),
            _ => wrong("'suggest S W R' (16 characters)"),
        },
        Expect::Accuse if reply == "-" => Ok(Answer::Pass),
        Expect::Accuse => match (len == 15 && starts("accuse ")).then(|| read_combination(deck, &reply[7..])) {
            Some(Some(t)) => Ok(Answer::Accuse(t)),
            _ => wrong("'-' or 'accuse S W R' (15 characters)"),
        },
    }
}

/// The identifier of an `ID alive` greeting read in one read, exactly
/// (a trailing newline makes it something else).
pub fn greeting(text: &str) -> Option<&str> {
    let cut = text.len().checked_sub(" alive".len())?;
    let id = (text.is_char_boundary(cut) && text[cut..].eq_ignore_ascii_case(" alive")).then(|| &text[..cut])?;
    (!id.is_empty() && !id.contains(char::is_whitespace)).then_some(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(deck: &Deck, ids: [&str; 3]) -> Triple {
        Triple(ids.map(|id| deck.card(id).unwrap()))
    }

    #[test]
    fn every_classic_card_has_its_contest_abbreviation() {
        let d = Deck::classic();
        for c in d.cards() {
            assert_eq!(card_from(&d, abbreviation(&d, c)), Some(c));
        }
        let mut abbreviations: Vec<&str> = d.cards().map(|c| abbreviation(&d, c)).collect();
        abbreviations.sort_unstable();
        assert_eq!(abbreviations.join(" "), "Ba Bi Ca Co Di Gr Ha Ki Kn Li Lo Mu Pe Pi Pl Re Ro Sc St Wh Wr");
        assert_eq!(card_from(&d, "BI"), d.card("bi"));
        assert_eq!(card_from(&d, "Xx"), None);
        assert_eq!(card_from(&d, "G"), None);
    }

    #[test]
    fn messages_are_written_as_the_contest_server_writes_them() {
        let d = Deck::classic();
        let card = |id: &str| d.card(id).unwrap();
        let hand = ["bi", "lo", "ha", "li", "wh", "di"].map(card).to_vec();
        assert_eq!(Say::Reset { players: 3, me: 0, hand }.wire(&d, 0), "reset 3 0 Bi Lo Ha Li Wh Di");
        assert_eq!(Say::Suggest.wire(&d, 1), "suggest");
        let plwrba = t(&d, ["pl", "wr", "ba"]);
        assert_eq!(Say::Disprove { by: 1, cards: plwrba }.wire(&d, 2), "disprove 1 Pl Wr Ba");
        let told = Say::Suggestion { by: 1, cards: plwrba, disproof: Some((2, card("wr"))) };
        assert_eq!(told.wire(&d, 0), "suggestion 1 Pl Wr Ba 2");
        assert_eq!(told.wire(&d, 1), "suggestion 1 Pl Wr Ba 2 Wr");
        assert_eq!(told.wire(&d, 2), "suggestion 1 Pl Wr Ba 2 Wr");
        let nobody = Say::Suggestion { by: 2, cards: plwrba, disproof: None };
        assert_eq!(nobody.wire(&d, 2), "suggestion 2 Pl Wr Ba -");
        let right = Say::Accusation { by: 1, cards: t(&d, ["sc", "ca", "co"]), correct: true };
        assert_eq!(right.wire(&d, 0), "accusation 1 Sc Ca Co +");
        assert_eq!(Say::Accuse.wire(&d, 0), "accuse");
        assert_eq!(Say::Done.wire(&d, 0), "done");
    }

    #[test]
    fn replies_are_judged_exactly_as_the_contest_server_does() {
        let d = Deck::classic();
        assert_eq!(judge(&d, Expect::Ok, "OK"), Ok(Answer::Ok));
        assert!(judge(&d, Expect::Ok, "ok\n").is_err());
        assert!(judge(&d, Expect::Ok, "ok\r\n").is_err());
        assert!(judge(&d, Expect::Ok, " ok").is_err());
        assert_eq!(judge(&d, Expect::Dead, "Dead"), Ok(Answer::Dead));
        let kn = d.card("kn").unwrap();
        assert_eq!(judge(&d, Expect::Show, "SHOW kn"), Ok(Answer::Show(kn)));
        assert!(judge(&d, Expect::Show, "show Kn\n").is_err());
        assert!(judge(&d, Expect::Show, "show Xx").is_err());
        let grknba = t(&d, ["gr", "kn", "ba"]);
        assert_eq!(judge(&d, Expect::Suggest, "suggest gr KN Ba"), Ok(Answer::Suggest(grknba)));
        assert!(judge(&d, Expect::Suggest, "suggest Gr Kn Ba\n").is_err());
        assert!(judge(&d, Expect::Suggest, "suggest Kn Gr Ba").is_err());
        assert!(judge(&d, Expect::Suggest, "suggest Gr  Kn Ba").is_err());
        // Tabs split words as spaces do (`\s`).
        assert_eq!(judge(&d, Expect::Suggest, "suggest Gr\tKn Ba"), Ok(Answer::Suggest(grknba)));
        assert_eq!(judge(&d, Expect::Accuse, "accuse Gr Kn Ba"), Ok(Answer::Accuse(grknba)));
        assert_eq!(judge(&d, Expect::Accuse, "-"), Ok(Answer::Pass));
        assert!(judge(&d, Expect::Accuse, "-\n").is_err());
        assert!(judge(&d, Expect::Accuse, "accuse Gr Kn Ba\r\n").is_err());
        // Sixteen characters (17 bytes): the length passes, the card does not.
        assert!(judge(&d, Expect::Suggest, "suggest Gr Kn Bé").is_err());
        assert_eq!(greeting("bot7 alive"), Some("bot7"));
        assert_eq!(greeting("bot7 ALIVE"), Some("bot7"));
        assert_eq!(greeting("bot7 alive\n"), None);
        assert_eq!(greeting(" alive"), None);
    }
}
