//! A Speed Clue server (referee) faithful to the real contest server, for
//! testing players: it deals seeded games, runs them over any [`Seat`] (a
//! TCP connection, or a script in unit tests), and disqualifies a player
//! that breaks a rule.
//!
//! # Where each rule comes from
//!
//! The real server is sadakatsu/SpeedClueContest (2014), Java, in
//! `core/code/com/sadakatsu/`. Read there:
//!
//! - **framing** (`clue/contestserver/Player.java`, `sendMessage`,
//!   `getResponse`): every message is written with `PrintWriter.format`
//!   on an autoflush writer, one write with no line terminator; the reply
//!   is read with **one** `read()` into a 512-character buffer, trailing
//!   NULs are stripped, and the rest is compared **exactly**, ignoring
//!   case: `ID alive`, `ok` (to `reset`, `suggestion`, `accusation`),
//!   `dead` (to `done`), `show Xx` (exactly 7 characters), `suggest S W R`
//!   (exactly 16), `-` or `accuse S W R` (exactly 15). A reply with a
//!   trailing `\n` is therefore a protocol violation. [`TcpSeat`] does the
//!   same (one write, one read of at most 512 bytes); Java's
//!   `BufferedReader.read` may also take bytes that are already waiting,
//!   so this referee is, if anything, stricter about a reply written in
//!   pieces.
//! - **time limits** (`clue/exception/TimeoutViolation.java`, `TIMEOUT =
//!   10000` ms, used as the socket's read timeout in `Player` and the
//!   accept timeout in `ContestServer`): a player must connect within 10 s
//!   of its launch and answer each message within 10 s.
//! - **disprove** (`Player.disprove`): asked only of a player holding two
//!   or more of the three cards; with one, the server shows it itself.
//! - **suggestion report** (`Player.suggestion`): `suggestion P S W R D`
//!   (`-` when nobody disproved), with ` X` only for the suggester and the
//!   disprover; sent to every player of the game, also those out.
//! - **disqualifications**: `DuplicateSuggestion` (the same suggestion
//!   twice in a game), `SuicidalAccusation` (an accusation with a card the
//!   player has seen: its hand or a card shown to it), `MissedAccusation`
//!   (passing on `accuse` right after its own suggestion went undisproved
//!   while it had seen none of its cards), `InvalidDisprove`,
//!   `ProtocolViolation`, `TimeoutViolation`.
//! - **end of a game** (`Match.handleAccusation`): a right accusation wins;
//!   a wrong one puts the player out (it still disproves); when one player
//!   is left, it wins.
//! - **launch file** (`util/EntryScript.java`): each line is one entrant;
//!   the first `{...}` gives its identifier, every `{...}` is replaced by
//!   it and `%%` by the server's port, and the line is split on single
//!   spaces into the command and its arguments ([`launch_command`]). The
//!   entrant's output goes to a scratch file; a player that does not
//!   connect or introduce itself in time is "disqualified - failed to
//!   start".
//!
//! Where this referee differs, on purpose: the real server plays every
//! combination of 3 to 6 entrants in every seat order and drops a
//! disqualified entrant's games; this one plays [`ServerConfig::games`]
//! games among all its seats (seats rotate one place per game, so each
//! plays first in turn), carries on without a disqualified player, and
//! stops a game after [`ServerConfig::max_turns`] turns. With
//! [`ServerConfig::strict`] it also disqualifies a player that passes
//! whenever its own view leaves exactly one possible case file (as the
//! exact engine decides), a test of the clients, not a contest rule.
//!
//! After the last game every player still in the contest gets `done` and
//! must answer `dead`.

pub mod wire;

use super::Triple;
use crate::agents::certain_case_file;
use crate::deal::Deal;
use crate::perspective::{event_spec, Perspective};
use crate::sim::deal_rng;
use crate::stats::game_seed;
use sleuth_core::count::count_marginals;
use sleuth_core::format::GameFile;
use sleuth_core::model::{Accusation, Suggestion};
use sleuth_core::CountOptions;
use sleuth_core::{Card, CardSet, CountProblem, Deck, Event, Player};
use std::collections::HashSet;
use std::fmt;
use std::io::{ErrorKind, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::Stdio;
use std::time::{Duration, Instant};
use wire::{greeting, judge, Answer, Say};

/// Why a seat gave no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatError {
    /// No answer within the time limit.
    Timeout,
    /// The connection was closed or failed.
    Closed(String),
}

/// One player's connection: a message, and the player's reply.
pub trait Seat: Send {
    /// Sends `message` and returns the reply as received (trailing NULs
    /// stripped), waiting at most `timeout`.
    ///
    /// # Errors
    /// [`SeatError`] when no answer comes.
    fn ask(&mut self, message: &str, timeout: Duration) -> Result<String, SeatError>;
}

/// The size of the server's read buffer (`Player.buffer`, 512 characters).
pub const READ_SIZE: usize = 512;

/// A player over TCP, as the real server speaks to it: each message in one
/// write without terminator, each reply in one read.
pub struct TcpSeat {
    stream: TcpStream,
}

impl TcpSeat {
    /// Wraps a connected stream.
    ///
    /// # Errors
    /// When the stream cannot be configured.
    pub fn new(stream: TcpStream) -> std::io::Result<TcpSeat> {
        // Short messages each way: without this, Nagle's algorithm and
        // delayed acknowledgements hold each one back for tens of ms.
        stream.set_nodelay(true)?;
        Ok(TcpSeat { stream })
    }

    /// One `read()` of at most [`READ_SIZE`] bytes within `timeout`, with
    /// trailing NULs stripped (`Player.getResponse`).
    pub fn read_reply(&mut self, timeout: Duration) -> Result<String, SeatError> {
        let closed = |e: std::io::Error| SeatError::Closed(e.to_string());
        self.stream.set_read_timeout(Some(timeout.max(Duration::from_millis(1)))).map_err(closed)?;
        let mut buf = [0u8; READ_SIZE];
        let n = loop {
            match self.stream.read(&mut buf) {
                Ok(0) => return Err(SeatError::Closed("connection closed".into())),
                Ok(n) => break n,
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                    return Err(SeatError::Timeout)
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(closed(e)),
            }
        };
        let text = &buf[..n];
        let end = text.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
        Ok(String::from_utf8_lossy(&text[..end]).into_owned())
    }
}

impl Seat for TcpSeat {
    fn ask(&mut self, message: &str, timeout: Duration) -> Result<String, SeatError> {
        // One write, no terminator (`PrintWriter.format` with autoflush).
        self.stream.write_all(message.as_bytes()).map_err(|e| SeatError::Closed(e.to_string()))?;
        self.stream.flush().map_err(|e| SeatError::Closed(e.to_string()))?;
        self.read_reply(timeout)
    }
}

/// Why a player was disqualified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Disqualification {
    /// It made the same suggestion twice in one game.
    RepeatedSuggestion(String),
    /// It accused with a card it has seen: of its own hand, or shown to it
    /// (`SuicidalAccusation`).
    AccusedSeenCard(String),
    /// It passed on `accuse` when it knew the answer.
    FailedToAccuse(String),
    /// It took longer than the time limit.
    Timeout(String),
    /// It answered something the protocol does not allow there (not the
    /// exact text expected), or hung up.
    BadAnswer(String),
}

impl fmt::Display for Disqualification {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Disqualification::RepeatedSuggestion(s) => write!(f, "repeated its suggestion {s}"),
            Disqualification::AccusedSeenCard(s) => write!(f, "accused with a card it has seen: {s}"),
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
                said_dead[s] = matches!(self.ask(s, &Say::Done, 0), Ok(Answer::Dead));
            }
        }
        MatchReport { games, disqualified: self.disqualified, said_dead }
    }

    /// Asks seat `s`, player `to` of the game, and judges its reply
    /// exactly; a timeout, a hang-up or a reply that is not exactly what
    /// the message expects is a disqualification. An answer is always of
    /// the kind the message expects.
    fn ask(&mut self, s: usize, say: &Say, to: usize) -> Asked<Answer> {
        let line = say.wire(&self.deck, to);
        let start = Instant::now();
        match self.seats[s].ask(&line, self.cfg.timeout) {
            Ok(_) if start.elapsed() > self.cfg.timeout => Err(Disqualification::Timeout(line)),
            Ok(answer) => judge(&self.deck, say.expects(), &answer)
                .map_err(|e| Disqualification::BadAnswer(format!("to '{line}': {e}"))),
            Err(SeatError::Timeout) => Err(Disqualification::Timeout(line)),
            Err(SeatError::Closed(why)) => Err(Disqualification::BadAnswer(format!("no answer to '{line}': {why}"))),
        }
    }

    /// Asks, and disqualifies on failure (`None`).
    fn ask_or_dq(&mut self, s: usize, say: &Say, to: usize) -> Option<Answer> {
        match self.ask(s, say, to) {
            Ok(r) => Some(r),
            Err(d) => {
                self.disqualified[s] = Some(d);
                None
            }
        }
    }

    /// Tells every live seat of the game something that must be answered
    /// `ok`.
    fn tell_all(&mut self, seats: &[usize], say: &Say) {
        for (p, &s) in seats.iter().enumerate() {
            if self.disqualified[s].is_none() {
                self.ask_or_dq(s, say, p);
            }
        }
    }

    fn combo(&self, t: Triple) -> String {
        wire::combination(&self.deck, t)
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
                    deck: sleuth_core::format::DeckSpec::from_deck(&deck),
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
            self.ask_or_dq(s, &Say::Reset { players: n, me: p, hand }, p);
        }
        let mut out = vec![false; n];
        // The cards each player has seen: its hand, and those shown to it.
        let mut seen: Vec<CardSet> = deal.hands.clone();
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
            let Some(Answer::Suggest(cards)) = self.ask_or_dq(s, &Say::Suggest, p) else { continue };
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
                    None => match self.ask_or_dq(seats[q], &Say::Disprove { by: p, cards }, q) {
                        Some(Answer::Show(c)) if matching.contains(c) => c,
                        answer => {
                            // `InvalidDisprove`: a card it does not hold or
                            // that is not in the suggestion.
                            if let Some(Answer::Show(c)) = answer {
                                self.disqualified[seats[q]] = Some(Disqualification::BadAnswer(format!(
                                    "'show {}' to disprove {}",
                                    wire::abbreviation(&deck, c),
                                    self.combo(cards)
                                )));
                            }
                            matching.first_card().expect("not empty")
                        }
                    },
                };
                disproof = Some((q, shown));
                seen[p].insert(shown);
                break;
            }
            self.tell_all(seats, &Say::Suggestion { by: p, cards, disproof });
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
            // `MissedAccusation`: nobody disproved, and it has seen none of
            // the three cards.
            let knows = (disproof.is_none() && (cards.set() & seen[p]).is_empty())
                || (self.cfg.strict && determined(&mut views[p]));
            let accusation = match self.ask_or_dq(s, &Say::Accuse, p) {
                Some(Answer::Pass) if knows => {
                    self.disqualified[s] = Some(Disqualification::FailedToAccuse(format!(
                        "the case file was {}",
                        self.combo(Triple::from_set(&deck, deal.case_file).expect("a case file"))
                    )));
                    continue;
                }
                Some(Answer::Pass) => None,
                Some(Answer::Accuse(t)) if !(t.set() & seen[p]).is_empty() => {
                    self.disqualified[s] = Some(Disqualification::AccusedSeenCard(self.combo(t)));
                    continue;
                }
                Some(Answer::Accuse(t)) => Some(t),
                _ => continue,
            };
            if let Some(t) = accusation {
                let correct = t.set() == deal.case_file;
                self.tell_all(seats, &Say::Accusation { by: p, cards: t, correct });
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
                // The last player left wins (`Match.handleAccusation`).
                let left: Vec<usize> = (0..n).filter(|&q| !out[q] && self.disqualified[seats[q]].is_none()).collect();
                if let [last] = left[..] {
                    report.winner = Some(seats[last]);
                    return report;
                }
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
    count_marginals(&CountProblem::new(game), &CountOptions::default())
        .ok()
        .is_some_and(|c| certain_case_file(game, &c).is_some())
}

/// Accepts `players` connections on `listener`, reads each one's
/// `IDENTIFIER alive` (one read, within the time limit), seats them in
/// order of their identifiers, and referees the match. Returns the
/// identifiers in seat order and the report.
///
/// # Errors
/// When a connection cannot be accepted or does not introduce itself.
pub fn serve(listener: &TcpListener, players: usize, cfg: ServerConfig) -> Result<(Vec<String>, MatchReport), String> {
    let mut joined: Vec<(String, Box<dyn Seat>)> = Vec::new();
    for _ in 0..players {
        let (stream, _) = listener.accept().map_err(|e| format!("cannot accept a player: {e}"))?;
        let mut seat = TcpSeat::new(stream).map_err(|e| format!("cannot use a connection: {e}"))?;
        let text = seat.read_reply(cfg.timeout).map_err(|e| format!("a player did not introduce itself: {e:?}"))?;
        match greeting(&text) {
            Some(id) => joined.push((id.to_string(), Box::new(seat))),
            None => return Err(format!("a player introduced itself with {text:?}, not 'IDENTIFIER alive'")),
        }
    }
    joined.sort_by(|a, b| a.0.cmp(&b.0));
    let (ids, mut seats): (Vec<String>, Vec<Box<dyn Seat>>) = joined.into_iter().unzip();
    let report = Referee::new(cfg, &mut seats).run();
    Ok((ids, report))
}

/// The identifier and the command of a launch-file line, as the contest
/// server reads it (`EntryScript.process`): the first `{...}` (at least one
/// character, up to the first `}`) is the identifier; every `{...}` is
/// replaced by it, every `%%` by `port`; then the line is split on single
/// spaces (so two spaces make an empty argument; trailing empty words are
/// dropped, as Java's `String.split` does).
///
/// # Errors
/// A line without `{identifier}`.
pub fn launch_command(line: &str, port: u16) -> Result<(String, Vec<String>), String> {
    // The `{...}` spans, left to right, not overlapping (`\{([^}]+)\}`).
    let mut spans = Vec::new();
    let mut from = 0;
    while let Some(open) = line[from..].find('{').map(|i| from + i) {
        match line[open + 1..].find('}').map(|i| open + 1 + i) {
            Some(close) if close > open + 1 => {
                spans.push((open, close));
                from = close + 1;
            }
            Some(_) => from = open + 1,
            None => break,
        }
    }
    let Some(&(open, close)) = spans.first() else {
        return Err(format!("the identifier must be wrapped with curly braces: '{line}'"));
    };
    let id = line[open + 1..close].to_string();
    let mut replaced = String::new();
    let mut last = 0;
    for (open, close) in spans {
        replaced.push_str(&line[last..open]);
        replaced.push_str(&id);
        last = close + 1;
    }
    replaced.push_str(&line[last..]);
    let replaced = replaced.replace("%%", &port.to_string());
    let mut words: Vec<String> = replaced.split(' ').map(str::to_string).collect();
    while words.last().is_some_and(String::is_empty) {
        words.pop();
    }
    Ok((id, words))
}

/// A contest run from launch-file lines.
#[derive(Debug)]
pub struct Contest {
    /// The identifiers of the entrants that started, in seat order.
    pub identifiers: Vec<String>,
    /// Entrants that did not start ("disqualified - failed to start"), with
    /// the reason.
    pub failed_to_start: Vec<(String, String)>,
    /// The match among those that started (`None` with fewer than two).
    pub report: Option<MatchReport>,
}

/// Waits up to `timeout` for a connection (`ServerSocket.setSoTimeout`).
fn accept_within(listener: &TcpListener, timeout: Duration) -> Result<TcpStream, String> {
    listener.set_nonblocking(true).map_err(|e| e.to_string())?;
    let deadline = Instant::now() + timeout;
    let accepted = loop {
        match listener.accept() {
            Ok((stream, _)) => break Ok(stream),
            Err(e) if e.kind() == ErrorKind::WouldBlock && Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => break Err("no connection within the time limit".into()),
            Err(e) => break Err(e.to_string()),
        }
    };
    listener.set_nonblocking(false).map_err(|e| e.to_string())?;
    let stream = accepted?;
    stream.set_nonblocking(false).map_err(|e| e.to_string())?;
    Ok(stream)
}

/// Runs a contest as the real server does: for each launch-file line in
/// turn, starts the command (output discarded), waits [`ServerConfig::timeout`]
/// for its connection and its exact `ID alive`; then referees the match
/// among those that started, says `done`, and reaps the processes (killing
/// any still running 10 s later).
///
/// # Errors
/// When no local port can be opened, or a line has no `{identifier}`.
pub fn run_contest(lines: &[&str], cfg: ServerConfig) -> Result<Contest, String> {
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| format!("cannot open a local port: {e}"))?;
    let port = listener.local_addr().map_err(|e| e.to_string())?.port();
    let mut children = Vec::new();
    let mut joined: Vec<(String, Box<dyn Seat>)> = Vec::new();
    let mut failed_to_start = Vec::new();
    for line in lines {
        let (id, words) = launch_command(line, port)?;
        let started = std::process::Command::new(&words[0])
            .args(&words[1..])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let child = match started {
            Ok(c) => c,
            Err(e) => {
                failed_to_start.push((id, format!("cannot run '{}': {e}", words[0])));
                continue;
            }
        };
        children.push(child);
        let seat = accept_within(&listener, cfg.timeout).and_then(|stream| {
            let mut seat = TcpSeat::new(stream).map_err(|e| e.to_string())?;
            let text = seat.read_reply(cfg.timeout).map_err(|e| format!("no greeting: {e:?}"))?;
            if text.eq_ignore_ascii_case(&format!("{id} alive")) {
                Ok(seat)
            } else {
                Err(format!("greeted with {text:?}, not '{id} alive'"))
            }
        });
        match seat {
            Ok(seat) => joined.push((id, Box::new(seat))),
            Err(why) => failed_to_start.push((id, why)),
        }
    }
    let (identifiers, mut seats): (Vec<String>, Vec<Box<dyn Seat>>) = joined.into_iter().unzip();
    let report = (seats.len() >= 2).then(|| Referee::new(cfg, &mut seats).run());
    drop(seats);
    for mut child in children {
        let deadline = Instant::now() + Duration::from_secs(10);
        while matches!(child.try_wait(), Ok(None)) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        if matches!(child.try_wait(), Ok(None)) {
            let _ = child.kill();
        }
        let _ = child.wait();
    }
    Ok(Contest { identifiers, failed_to_start, report })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn launch_lines_are_read_as_the_contest_server_reads_them() {
        let (id, words) = launch_command("target/release/sleuth speedclue {Sleuth} %%", 4242).unwrap();
        assert_eq!(id, "Sleuth");
        assert_eq!(words, ["target/release/sleuth", "speedclue", "Sleuth", "4242"]);
        let (id, words) = launch_command("java -cp {a}.jar Main {b} %%  x  ", 7).unwrap();
        assert_eq!(id, "a");
        assert_eq!(words, ["java", "-cp", "a.jar", "Main", "a", "7", "", "x"]);
        let (id, _) = launch_command("run {} {x}", 1).unwrap();
        assert_eq!(id, "x");
        assert!(launch_command("run x 50%%", 1).unwrap_err().contains("curly braces"));
    }
}
