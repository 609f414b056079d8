//! A small Speed Clue server (referee) that enforces the contest's rules,
//! for testing players: it deals seeded games, runs them over any [`Seat`]
//! (a TCP connection, or a script in unit tests), and disqualifies a player
//! that breaks a rule.
//!
//! # A game
//!
//! Every seat gets `reset N I hand` (seats rotate one place per game, so
//! each plays first in turn). Then players take turns in order, skipping
//! those who are out or disqualified. On a turn the player is asked
//! `suggest`; the first player after it in order who holds any of the three
//! cards disproves (players who are out still disprove): with one matching
//! card it is shown without asking, with two or more the player is asked
//! `disprove P S W R` (a disqualified player's card is chosen by the
//! server: its lowest). Every live player is told `suggestion P S W R D
//! [X]`, with `X` only for the suggester and the disprover. The suggester
//! is then asked `accuse`; an accusation is announced to every live player
//! as `accusation P S W R +|-`. A right one wins; a wrong one puts the
//! player out. The game ends when someone wins, nobody is left, or after
//! [`ServerConfig::max_turns`] turns. After the last game every player still
//! in the contest gets `done` and must answer `dead`.
//!
//! # Disqualifications
//!
//! A player is out of the contest (never asked anything again) when it
//! ([`Disqualification`]):
//!
//! - repeats one of its own suggestions (within a game);
//! - accuses with a card of its own hand;
//! - passes on `accuse` when it knows the answer: its suggestion was not
//!   disproved and it holds none of the three cards. With
//!   [`ServerConfig::strict`], also whenever its own view (hand, every
//!   suggestion and accusation, the cards shown to it) leaves exactly one
//!   possible case file, as the exact engine decides;
//! - takes longer than [`ServerConfig::timeout`] (10 s in the contest) to
//!   answer;
//! - answers something else than the protocol allows (a malformed line, a
//!   shown card it was not asked for, a closed connection).

use super::message::{Message, Reply, Triple};
use crate::agents::certain_case_file;
use crate::deal::Deal;
use crate::perspective::{event_spec, Perspective};
use crate::sim::deal_rng;
use crate::stats::game_seed;
use sleuth_core::count::count_marginals;
use sleuth_core::format::GameFile;
use sleuth_core::model::{Accusation, Suggestion};
use sleuth_core::{Card, CardSet, Deck, Event, Player, Problem};
use std::collections::HashSet;
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

/// Why a seat gave no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatError {
    /// No answer within the time limit.
    Timeout,
    /// The connection was closed or failed.
    Closed(String),
}

/// One player's connection: a question, and its one-line answer.
pub trait Seat: Send {
    /// Sends `line` and waits for the answer (without its newline), at most
    /// `timeout`.
    ///
    /// # Errors
    /// [`SeatError`] when no answer comes.
    fn ask(&mut self, line: &str, timeout: Duration) -> Result<String, SeatError>;
}

/// A player over TCP, one line each way.
pub struct TcpSeat {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

impl TcpSeat {
    /// Wraps a connected stream.
    ///
    /// # Errors
    /// When the stream cannot be cloned.
    pub fn new(stream: TcpStream) -> std::io::Result<TcpSeat> {
        // One short line each way: without this, Nagle's algorithm and
        // delayed acknowledgements hold each line back for tens of ms.
        stream.set_nodelay(true)?;
        let writer = stream.try_clone()?;
        Ok(TcpSeat { reader: BufReader::new(stream), writer })
    }

    /// Reads one line within `timeout`.
    fn read_line(&mut self, timeout: Duration) -> Result<String, SeatError> {
        let deadline = Instant::now() + timeout;
        let mut line = String::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(SeatError::Timeout);
            }
            self.reader.get_ref().set_read_timeout(Some(left)).map_err(|e| SeatError::Closed(e.to_string()))?;
            match self.reader.read_line(&mut line) {
                Ok(0) => return Err(SeatError::Closed("connection closed".into())),
                Ok(_) if line.ends_with('\n') => {
                    return Ok(line.trim_end_matches(['\n', '\r']).to_string());
                }
                Ok(_) => continue,
                Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {
                    return Err(SeatError::Timeout)
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(SeatError::Closed(e.to_string())),
            }
        }
    }
}

impl Seat for TcpSeat {
    fn ask(&mut self, line: &str, timeout: Duration) -> Result<String, SeatError> {
        self.writer.write_all(format!("{line}\n").as_bytes()).map_err(|e| SeatError::Closed(e.to_string()))?;
        self.writer.flush().map_err(|e| SeatError::Closed(e.to_string()))?;
        self.read_line(timeout)
    }
}

/// Why a player was disqualified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Disqualification {
    /// It made the same suggestion twice in one game.
    RepeatedSuggestion(String),
    /// It accused with a card of its own hand.
    AccusedOwnCard(String),
    /// It passed on `accuse` when it knew the answer.
    FailedToAccuse(String),
    /// It took longer than the time limit.
    Timeout(String),
    /// It answered something the protocol does not allow there, or hung up.
    BadAnswer(String),
}

impl fmt::Display for Disqualification {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Disqualification::RepeatedSuggestion(s) => write!(f, "repeated its suggestion {s}"),
            Disqualification::AccusedOwnCard(s) => write!(f, "accused with a card of its own hand: {s}"),
            Disqualification::FailedToAccuse(s) => write!(f, "did not accuse though it knew the answer: {s}"),
            Disqualification::Timeout(s) => write!(f, "took too long to answer '{s}'"),
            Disqualification::BadAnswer(s) => write!(f, "answered against the protocol: {s}"),
        }
    }
}

/// The referee's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerConfig {
    /// Games to play.
    pub games: usize,
    /// Seeds the deals (game `g` is dealt from [`game_seed`]`(seed, g)`).
    pub seed: u64,
    /// The time limit per answer (the contest: 10 s).
    pub timeout: Duration,
    /// Turns before a game ends without a winner.
    pub max_turns: usize,
    /// Whether a player must accuse whenever its view determines the case
    /// file (not only after an undisproved suggestion of cards it does not
    /// hold).
    pub strict: bool,
}

impl ServerConfig {
    /// The deal of game `game` with `players` players (seeded by
    /// [`game_seed`]`(seed, game)`); player `p` holds `hands[p]`.
    ///
    /// # Panics
    /// Unless `players` is 2 to 6 (the classic deck).
    pub fn deal(&self, game: usize, players: usize) -> Deal {
        Deal::random(&Deck::classic(), players, 0, &mut deal_rng(game_seed(self.seed, game)))
            .expect("the classic deck deals to 2 to 6 players")
    }
}

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        ServerConfig { games: 1, seed: 0, timeout: Duration::from_secs(10), max_turns: 1000, strict: false }
    }
}

/// How one game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameReport {
    /// The true case file.
    pub case_file: CardSet,
    /// The seat (connection index) of each player number.
    pub seats: Vec<usize>,
    /// The winning seat, if any.
    pub winner: Option<usize>,
    /// Turns played.
    pub turns: usize,
    /// Wrong accusations, by seat.
    pub wrong_accusations: Vec<usize>,
    /// The game was cut off by the turn limit.
    pub turn_limit: bool,
}

/// The contest's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchReport {
    /// Every game.
    pub games: Vec<GameReport>,
    /// Each seat's disqualification, if any.
    pub disqualified: Vec<Option<Disqualification>>,
    /// Which seats answered `done` with `dead`.
    pub said_dead: Vec<bool>,
}

/// The referee of a match between `seats`.
pub struct Referee<'a> {
    deck: Deck,
    cfg: ServerConfig,
    seats: &'a mut [Box<dyn Seat>],
    disqualified: Vec<Option<Disqualification>>,
}

/// A disqualification, or an answer.
type Asked<T> = Result<T, Disqualification>;

impl<'a> Referee<'a> {
    /// A referee for these seats (classic deck).
    ///
    /// # Panics
    /// In [`Referee::run`], unless there are 2 to 6 seats.
    pub fn new(cfg: ServerConfig, seats: &'a mut [Box<dyn Seat>]) -> Referee<'a> {
        let n = seats.len();
        Referee { deck: Deck::classic(), cfg, seats, disqualified: vec![None; n] }
    }

    /// Plays every game, then says `done`.
    pub fn run(mut self) -> MatchReport {
        let n = self.seats.len();
        let mut games = Vec::new();
        for g in 0..self.cfg.games {
            let seats: Vec<usize> = (0..n).map(|i| (i + g) % n).collect();
            games.push(self.play_game(g, &seats));
        }
        let mut said_dead = vec![false; n];
        for s in 0..n {
            if self.disqualified[s].is_none() {
                said_dead[s] = matches!(self.ask(s, &Message::Done), Ok(Reply::Dead));
            }
        }
        MatchReport { games, disqualified: self.disqualified, said_dead }
    }

    /// Asks seat `s` and parses its reply; a timeout, a hang-up or an
    /// unparseable reply is a disqualification.
    fn ask(&mut self, s: usize, message: &Message) -> Asked<Reply> {
        let line = message.display(&self.deck).to_string();
        let start = Instant::now();
        match self.seats[s].ask(&line, self.cfg.timeout) {
            Ok(_) if start.elapsed() > self.cfg.timeout => Err(Disqualification::Timeout(line)),
            Ok(answer) => Reply::parse(&self.deck, &answer).map_err(|e| Disqualification::BadAnswer(e.to_string())),
            Err(SeatError::Timeout) => Err(Disqualification::Timeout(line)),
            Err(SeatError::Closed(why)) => Err(Disqualification::BadAnswer(format!("no answer to '{line}': {why}"))),
        }
    }

    /// Asks, and disqualifies on failure (`None`).
    fn ask_or_dq(&mut self, s: usize, message: &Message) -> Option<Reply> {
        match self.ask(s, message) {
            Ok(r) => Some(r),
            Err(d) => {
                self.disqualified[s] = Some(d);
                None
            }
        }
    }

    /// Tells every live seat of the game something that must be answered
    /// `ok`; `shown` goes only to the seats in `involved`.
    fn tell_all(&mut self, seats: &[usize], message: &Message, private: Option<(&Message, [usize; 2])>) {
        for (p, &s) in seats.iter().enumerate() {
            if self.disqualified[s].is_some() {
                continue;
            }
            let m = match private {
                Some((m, who)) if who.contains(&p) => m,
                _ => message,
            };
            match self.ask_or_dq(s, m) {
                Some(Reply::Ok) | None => {}
                Some(other) => {
                    self.disqualified[s] = Some(Disqualification::BadAnswer(format!(
                        "'{}' to '{}'",
                        other.display(&self.deck),
                        m.display(&self.deck)
                    )))
                }
            }
        }
    }

    fn combo(&self, t: Triple) -> String {
        Reply::Suggest(t).display(&self.deck).to_string()["suggest ".len()..].to_string()
    }

    fn play_game(&mut self, g: usize, seats: &[usize]) -> GameReport {
        let n = seats.len();
        let deck = self.deck.clone();
        let deal = self.cfg.deal(g, n);
        let mut report = GameReport {
            case_file: deal.case_file,
            seats: seats.to_vec(),
            winner: None,
            turns: 0,
            wrong_accusations: vec![0; self.seats.len()],
            turn_limit: false,
        };
        // Each player's view, for the strict rule.
        let ids: Vec<String> = (0..n).map(|p| format!("p{p}")).collect();
        let mut views: Vec<Perspective> = (0..n)
            .map(|p| {
                let file = GameFile {
                    version: 1,
                    deck: crate::deal::deck_spec(&deck),
                    players: ids.clone(),
                    hand_sizes: None,
                    face_up: Vec::new(),
                    me: Some(ids[p].clone()),
                    hand: Some(deck.ids(deal.hands[p])),
                    events: Vec::new(),
                };
                Perspective::new(file).expect("a dealt hand is a valid game")
            })
            .collect();
        for (p, &s) in seats.iter().enumerate() {
            if self.disqualified[s].is_some() {
                continue;
            }
            let hand: Vec<Card> = deal.hands[p].iter().collect();
            let reset = Message::Reset { players: n, me: p, hand };
            match self.ask_or_dq(s, &reset) {
                Some(Reply::Ok) | None => {}
                Some(other) => {
                    self.disqualified[s] =
                        Some(Disqualification::BadAnswer(format!("'{}' to reset", other.display(&deck))))
                }
            }
        }
        let mut out = vec![false; n];
        let mut suggested: Vec<HashSet<CardSet>> = vec![HashSet::new(); n];
        let mut p = 0;
        while report.turns < self.cfg.max_turns {
            let live = |r: &Referee<'_>, q: usize| !out[q] && r.disqualified[seats[q]].is_none();
            if !(0..n).any(|q| live(self, q)) {
                return report;
            }
            if !live(self, p) {
                p = (p + 1) % n;
                continue;
            }
            report.turns += 1;
            let s = seats[p];
            // Suggest.
            let cards = match self.ask_or_dq(s, &Message::Suggest) {
                Some(Reply::Suggest(t)) => t,
                None => continue,
                Some(other) => {
                    self.disqualified[s] =
                        Some(Disqualification::BadAnswer(format!("'{}' to suggest", other.display(&deck))));
                    continue;
                }
            };
            if !suggested[p].insert(cards.set()) {
                self.disqualified[s] = Some(Disqualification::RepeatedSuggestion(self.combo(cards)));
                continue;
            }
            // Disprove.
            let mut disproof = None;
            for step in 1..n {
                let q = (p + step) % n;
                let matching = deal.hands[q] & cards.set();
                if matching.is_empty() {
                    continue;
                }
                let shown = match matching.single_card() {
                    Some(c) => c,
                    None if self.disqualified[seats[q]].is_some() => matching.first_card().expect("not empty"),
                    None => match self.ask_or_dq(seats[q], &Message::Disprove { by: p, cards }) {
                        Some(Reply::Show(c)) if matching.contains(c) => c,
                        answer => {
                            if let Some(a) = answer {
                                self.disqualified[seats[q]] = Some(Disqualification::BadAnswer(format!(
                                    "'{}' to disprove {}",
                                    a.display(&deck),
                                    self.combo(cards)
                                )));
                            }
                            matching.first_card().expect("not empty")
                        }
                    },
                };
                disproof = Some((q, shown));
                break;
            }
            let public = Message::Suggestion { by: p, cards, disprover: disproof.map(|d| d.0), shown: None };
            let private = disproof
                .map(|(q, c)| (Message::Suggestion { by: p, cards, disprover: Some(q), shown: Some(c) }, [p, q]));
            self.tell_all(seats, &public, private.as_ref().map(|(m, w)| (m, *w)));
            let event = Event::Suggestion(Suggestion {
                by: Player::new(p),
                cards: cards.set(),
                refuted_by: disproof.map(|d| Player::new(d.0)),
                shown: disproof.map(|d| d.1),
            });
            for (v, view) in views.iter_mut().enumerate() {
                view.push(event_spec(&ids, &deck, &event, Some(Player::new(v))));
            }
            if self.disqualified[s].is_some() {
                continue;
            }
            // Accuse.
            let knows = (disproof.is_none() && (cards.set() & deal.hands[p]).is_empty())
                || (self.cfg.strict && determined(&mut views[p]));
            let accusation = match self.ask_or_dq(s, &Message::Accuse) {
                None => continue,
                Some(Reply::Pass) if knows => {
                    self.disqualified[s] = Some(Disqualification::FailedToAccuse(format!(
                        "the case file was {}",
                        self.combo(Triple::from_set(&deck, deal.case_file).expect("a case file"))
                    )));
                    continue;
                }
                Some(Reply::Pass) => None,
                Some(Reply::Accuse(t)) if !(t.set() & deal.hands[p]).is_empty() => {
                    self.disqualified[s] = Some(Disqualification::AccusedOwnCard(self.combo(t)));
                    continue;
                }
                Some(Reply::Accuse(t)) => Some(t),
                Some(other) => {
                    self.disqualified[s] =
                        Some(Disqualification::BadAnswer(format!("'{}' to accuse", other.display(&deck))));
                    continue;
                }
            };
            if let Some(t) = accusation {
                let correct = t.set() == deal.case_file;
                self.tell_all(seats, &Message::Accusation { by: p, cards: t, correct }, None);
                let event = Event::Accusation(Accusation { by: Player::new(p), cards: t.set(), correct });
                for (v, view) in views.iter_mut().enumerate() {
                    view.push(event_spec(&ids, &deck, &event, Some(Player::new(v))));
                }
                if correct {
                    report.winner = Some(s);
                    return report;
                }
                report.wrong_accusations[s] += 1;
                out[p] = true;
            }
            p = (p + 1) % n;
        }
        report.turn_limit = true;
        report
    }
}

/// Whether a player's view leaves exactly one possible case file.
fn determined(view: &mut Perspective) -> bool {
    let Ok(game) = view.game() else { return false };
    count_marginals(&Problem::new(game)).ok().is_some_and(|c| certain_case_file(game, &c).is_some())
}

/// Accepts `players` connections on `listener`, reads each one's
/// `IDENTIFIER alive` (within the time limit), seats them in order of
/// their identifiers, and referees the match. Returns the identifiers in
/// seat order and the report.
///
/// # Errors
/// When a connection cannot be accepted or does not introduce itself.
pub fn serve(listener: &TcpListener, players: usize, cfg: ServerConfig) -> Result<(Vec<String>, MatchReport), String> {
    let deck = Deck::classic();
    let mut joined: Vec<(String, Box<dyn Seat>)> = Vec::new();
    for _ in 0..players {
        let (stream, _) = listener.accept().map_err(|e| format!("cannot accept a player: {e}"))?;
        let mut seat = TcpSeat::new(stream).map_err(|e| format!("cannot use a connection: {e}"))?;
        let line = seat.read_line(cfg.timeout).map_err(|e| format!("a player did not introduce itself: {e:?}"))?;
        match Reply::parse(&deck, &line) {
            Ok(Reply::Alive(id)) => joined.push((id, Box::new(seat))),
            _ => return Err(format!("a player introduced itself with '{line}', not 'IDENTIFIER alive'")),
        }
    }
    joined.sort_by(|a, b| a.0.cmp(&b.0));
    let (ids, mut seats): (Vec<String>, Vec<Box<dyn Seat>>) = joined.into_iter().unzip();
    let report = Referee::new(cfg, &mut seats).run();
    Ok((ids, report))
}
