//! The re-implemented entrants (`ray`, `spock`) against wire transcripts of
//! the real programs (`testdata/speedclue/`, recorded from the contest
//! server; README there): every game's messages to ray's `ai01.py` and
//! `SpockAI` are replayed to the re-implementation, and wherever the
//! original's choice is deterministic the re-implementation must make the
//! same move in the same position:
//!
//! - ray: its wanted suggestion when it was not asked before (else the
//!   source pops an arbitrary unasked triple), its pass or accusation, the
//!   card it shows; positions after its hash order decided a deduction are
//!   skipped ([`RayNotes::order_mattered`]);
//! - Spock: its suggestion is among its least-worst-case triples (the source
//!   picks among them at random; equal when there is one), its pass or
//!   accusation, the card it shows (when not several were shown before).

use sleuth_core::format::{DeckSpec, GameFile};
use sleuth_core::model::{Accusation, Suggestion};
use sleuth_core::{CardSet, Deck, Event, Player};
use sleuth_sim::agents::ray::RayNotes;
use sleuth_sim::agents::spock::SpockNotes;
use sleuth_sim::agents::tactics::shown_to;
use sleuth_sim::speedclue::{Message, Triple};
use sleuth_sim::{event_spec, Perspective};
use std::collections::HashMap;

/// One game of a transcript: seat ids, and per id the server's messages
/// with the replies read.
struct GameLog {
    seats: Vec<String>,
    exchanges: HashMap<String, Vec<(String, String)>>,
}

fn unescape(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find('\\') {
        out.push_str(&rest[..i]);
        if rest[i + 1..].starts_with('\\') {
            out.push('\\');
            rest = &rest[i + 2..];
        } else {
            let code = u8::from_str_radix(&rest[i + 2..i + 4], 16).expect("\\xNN");
            out.push(char::from(code));
            rest = &rest[i + 4..];
        }
    }
    out.push_str(rest);
    out.trim_end_matches('\0').to_string()
}

fn parse(text: &str) -> Vec<GameLog> {
    let mut games: Vec<GameLog> = Vec::new();
    let mut pending: HashMap<String, String> = HashMap::new();
    for line in text.lines() {
        let mut words = line.splitn(4, ' ');
        let (_, kind, id, rest) = (words.next(), words.next(), words.next(), words.next().unwrap_or(""));
        let (Some(kind), Some(id)) = (kind, id) else { continue };
        match kind {
            "#" if id == "game" => {
                games.push(GameLog { seats: rest.split(' ').map(str::to_string).collect(), exchanges: HashMap::new() })
            }
            ">" => {
                pending.insert(id.to_string(), unescape(rest));
            }
            "<" => {
                let reply = unescape(rest.split_once(' ').map_or("", |(_, r)| r));
                if let (Some(message), Some(game)) = (pending.remove(id), games.last_mut()) {
                    game.exchanges.entry(id.to_string()).or_default().push((message, reply));
                }
            }
            _ => {}
        }
    }
    games
}

fn triple(deck: &Deck, set: CardSet) -> String {
    let t = Triple::from_set(deck, set).expect("a triple");
    t.0.iter().map(|&c| sleuth_sim::speedclue::code_of_card(deck, c)).collect::<Vec<_>>().join(" ")
}

/// What one replay checked.
#[derive(Default, Debug)]
struct Tally {
    suggestions: usize,
    accusations: usize,
    shows: usize,
    skipped: usize,
    /// Spock's equally good suggestions, summed over its turns.
    options: usize,
}

/// The two re-implementations behind one interface.
enum Notes {
    Ray(RayNotes),
    Spock(SpockNotes),
}

fn replay(name: &str, log: &[(String, String)], tally: &mut Tally) {
    let deck = Deck::classic();
    let mut perspective: Option<Perspective> = None;
    let mut notes: Option<Notes> = None;
    let mut asked: Vec<CardSet> = Vec::new();
    let mut players: Vec<String> = Vec::new();
    for (k, (line, reply)) in log.iter().enumerate() {
        let ctx = || format!("{name}, exchange {k}: '{line}' answered '{reply}'");
        let message = Message::parse(&deck, line).unwrap_or_else(|e| panic!("{}: {e}", ctx()));
        let reply = reply.to_ascii_lowercase();
        let me = |p: &Perspective| p.file().players.iter().position(|x| Some(x) == p.file().me.as_ref()).unwrap();
        match message {
            Message::Reset { players: n, me, hand } => {
                players = (0..n).map(|p| format!("p{p}")).collect();
                let file = GameFile {
                    version: 1,
                    deck: DeckSpec::from_deck(&deck),
                    players: players.clone(),
                    hand_sizes: None,
                    face_up: Vec::new(),
                    me: Some(players[me].clone()),
                    hand: Some(hand.iter().map(|&c| deck.id(c).to_string()).collect()),
                    events: Vec::new(),
                };
                let mut p = Perspective::new(file).expect("a valid hand");
                let view = p.view().unwrap().unwrap();
                notes = Some(if name == "Ray" {
                    Notes::Ray(RayNotes::new(&view, None))
                } else {
                    Notes::Spock(SpockNotes::new(&view))
                });
                perspective = Some(p);
                asked.clear();
            }
            Message::Suggestion { by, cards, disprover, shown } => {
                let event = Event::Suggestion(Suggestion {
                    by: Player::new(by),
                    cards: cards.set(),
                    refuted_by: disprover.map(Player::new),
                    shown,
                });
                let p = perspective.as_mut().unwrap();
                let observer = Some(Player::new(me(p)));
                p.push(event_spec(&players, &deck, &event, observer));
                match notes.as_mut().unwrap() {
                    Notes::Ray(r) => r.suggestion(by, cards.set(), disprover, shown),
                    Notes::Spock(s) => s.suggestion(by, cards.set(), disprover, shown).expect("consistent notes"),
                }
            }
            Message::Accusation { by, cards, correct } => {
                let event = Event::Accusation(Accusation { by: Player::new(by), cards: cards.set(), correct });
                let p = perspective.as_mut().unwrap();
                p.push(event_spec(&players, &deck, &event, None));
                match notes.as_mut().unwrap() {
                    Notes::Ray(r) if !correct => r.wrong_accusation(cards.set()),
                    Notes::Ray(_) => {}
                    Notes::Spock(s) => s.accusation(by, cards.set(), correct).expect("consistent notes"),
                }
            }
            Message::Suggest => {
                let said = reply.strip_prefix("suggest ").unwrap_or_else(|| panic!("{}", ctx()));
                let said_set = parse_triple(&deck, said);
                match notes.as_ref().unwrap() {
                    Notes::Ray(r) if r.order_mattered() => tally.skipped += 1,
                    Notes::Ray(r) => {
                        let wanted = r.wanted();
                        if asked.contains(&wanted) {
                            assert!(!asked.contains(&said_set), "{}: ray repeated a suggestion", ctx());
                            tally.skipped += 1;
                        } else {
                            assert_eq!(triple(&deck, wanted).to_ascii_lowercase(), said, "{}: ray's suggestion", ctx());
                            tally.suggestions += 1;
                        }
                    }
                    Notes::Spock(s) => {
                        let options = s.best_suggestions(&deck, &asked);
                        let shown: Vec<String> = options.iter().map(|&o| triple(&deck, o)).collect();
                        assert!(
                            options.contains(&said_set),
                            "{}: Spock's suggestion is not among its best: {shown:?}",
                            ctx()
                        );
                        tally.suggestions += 1;
                        tally.options += options.len();
                    }
                }
                asked.push(said_set);
            }
            Message::Accuse => {
                let wanted = match notes.as_ref().unwrap() {
                    Notes::Ray(r) if r.order_mattered() => {
                        tally.skipped += 1;
                        continue;
                    }
                    Notes::Ray(r) => r.solved(),
                    Notes::Spock(s) => match s.solutions() {
                        [only] => Some(*only),
                        _ => None,
                    },
                };
                let expected = wanted.map_or("-".to_string(), |w| format!("accuse {}", triple(&deck, w)));
                assert_eq!(expected.to_ascii_lowercase(), reply, "{}: accusation", ctx());
                tally.accusations += 1;
            }
            Message::Disprove { by, cards } => {
                let p = perspective.as_mut().unwrap();
                let view = p.view().unwrap().unwrap();
                let candidates = cards.set() & view.hand();
                let said = reply.strip_prefix("show ").unwrap_or_else(|| panic!("{}", ctx()));
                let expected = match notes.as_ref().unwrap() {
                    Notes::Ray(_) => CardSet::single(cards.0.into_iter().find(|&c| candidates.contains(c)).unwrap()),
                    Notes::Spock(s) => s.to_show(candidates, shown_to(&view, Player::new(by))),
                };
                if expected.len() == 1 {
                    let c = expected.first_card().unwrap();
                    assert_eq!(sleuth_sim::speedclue::code_of_card(&deck, c).to_ascii_lowercase(), said, "{}", ctx());
                    tally.shows += 1;
                } else {
                    tally.skipped += 1;
                }
            }
            Message::Done => {}
        }
    }
}

fn parse_triple(deck: &Deck, words: &str) -> CardSet {
    words
        .split(' ')
        .map(|w| {
            let mut code = w.to_string();
            code[..1].make_ascii_uppercase();
            sleuth_sim::speedclue::card_of_code(deck, &code).unwrap_or_else(|| panic!("card {w}"))
        })
        .collect()
}

fn replay_file(text: &str, who: &str) -> Tally {
    let mut tally = Tally::default();
    for game in parse(text) {
        if game.seats.iter().any(|s| s == who) {
            replay(who, &game.exchanges[who], &mut tally);
        }
    }
    tally
}

const WITH_SPOCK: &str = include_str!("../../../../testdata/speedclue/sleuth-spock-ip-ray.wire.log");
const WITH_PADDLE: &str = include_str!("../../../../testdata/speedclue/paddle-random-ray.wire.log");

#[test]
fn ray_makes_the_moves_of_ai01_in_every_recorded_position() {
    let a = replay_file(WITH_SPOCK, "Ray");
    let b = replay_file(WITH_PADDLE, "Ray");
    eprintln!("ray: {a:?} {b:?}");
    assert!(a.suggestions + b.suggestions >= 40, "{a:?} {b:?}");
    assert!(a.accusations + b.accusations >= 40 && b.shows + a.shows >= 5, "{a:?} {b:?}");
}

#[test]
fn spock_makes_the_moves_of_spockai_in_every_recorded_position() {
    let t = replay_file(WITH_SPOCK, "Spock");
    eprintln!("spock: {t:?}");
    assert!(t.suggestions >= 10 && t.accusations >= 10, "{t:?}");
    // The check has teeth: a few dozen equally good triples of the 324 at most.
    assert!(t.options <= 30 * t.suggestions, "{t:?}");
}
