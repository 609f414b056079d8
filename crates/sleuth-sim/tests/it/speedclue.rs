//! The Speed Clue protocol: complete games between clients (the adapter
//! with different agents, each on its own thread and TCP connection) and the
//! in-process referee, and every disqualification rule of the referee.

use sleuth_core::{Card, CardSet, Deck};
use sleuth_sim::speedclue::server::{serve, Disqualification, MatchReport, Referee, Seat, SeatError, ServerConfig};
use sleuth_sim::speedclue::{play_session, Client, Message, Reply, Triple};
use sleuth_sim::{agent_by_name, AGENT_NAMES};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::thread;
use std::time::Duration;

/// Plays a match over TCP between clients with these agents; returns the
/// seat identifiers, the report and each client's number of games.
fn tcp_match(agents: &[&str], cfg: ServerConfig) -> (Vec<String>, MatchReport, Vec<usize>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a local port");
    let addr = listener.local_addr().unwrap();
    let n = agents.len();
    let server = thread::spawn(move || serve(&listener, n, cfg));
    let clients: Vec<_> = agents
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let agent = agent_by_name(name).unwrap_or_else(|| panic!("agent {name}"));
            let id = format!("c{i}-{name}");
            thread::spawn(move || {
                let mut stream = TcpStream::connect(addr).expect("connect");
                stream.set_nodelay(true).unwrap();
                let mut client = Client::new(agent, 100 + i as u64);
                play_session(&id, &mut client, &mut stream)
            })
        })
        .collect();
    let (ids, report) = server.join().unwrap().expect("the match is played");
    let games = clients.into_iter().map(|c| c.join().unwrap().expect("the client plays to the end")).collect();
    (ids, report, games)
}

fn assert_clean(report: &MatchReport, games: usize) {
    assert_eq!(report.games.len(), games);
    for (s, dq) in report.disqualified.iter().enumerate() {
        assert!(dq.is_none(), "seat {s} disqualified: {}", dq.as_ref().unwrap());
    }
    assert!(report.said_dead.iter().all(|&d| d), "{:?}", report.said_dead);
    for g in &report.games {
        // A legal finish: somebody accused correctly, before the turn limit.
        assert!(!g.turn_limit, "{g:?}");
        assert!(g.winner.is_some(), "{g:?}");
    }
}

#[test]
fn exact_and_random_clients_play_complete_games_over_tcp() {
    let cfg = ServerConfig { games: 6, seed: 5, strict: true, ..ServerConfig::default() };
    let (ids, report, games) = tcp_match(&["exact", "random", "exact", "random"], cfg);
    assert_eq!(ids.len(), 4);
    assert_clean(&report, 6);
    assert_eq!(games, vec![6; 4]);
    // Seats rotate: every seat plays first once in the first four games.
    let firsts: Vec<usize> = report.games.iter().take(4).map(|g| g.seats[0]).collect();
    assert_eq!(firsts, vec![0, 1, 2, 3]);
}

#[test]
fn every_registered_agent_plays_at_every_table_size() {
    for n in 3..=6 {
        let agents: Vec<&str> = (0..n).map(|i| AGENT_NAMES[i % AGENT_NAMES.len()]).collect();
        let cfg = ServerConfig { games: 2, seed: n as u64, strict: true, ..ServerConfig::default() };
        let (_, report, games) = tcp_match(&agents, cfg);
        assert_clean(&report, 2);
        assert_eq!(games, vec![2; n]);
    }
}

/// What a scripted seat does wrong.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Plan {
    /// Suggests new combinations holding one of its own cards, never
    /// accuses, shows its lowest matching card: never disqualified.
    Passive,
    /// Suggests the same combination (holding its own card) every turn.
    Repeat,
    /// Accuses with a card of its own hand.
    AccuseOwnCard,
    /// Suggests this combination, then passes.
    SuggestAndPass(Triple),
    /// Suggests this combination, and shows a card it does not hold when
    /// asked to disprove.
    ShowWrongCard(Triple),
    /// Never answers `suggest`.
    Silent,
    /// Answers `suggest` with nonsense.
    Garbage,
}

struct Scripted {
    deck: Deck,
    plan: Plan,
    hand: CardSet,
    turns: usize,
}

impl Scripted {
    fn boxed(plan: Plan) -> Box<dyn Seat> {
        Box::new(Scripted { deck: Deck::classic(), plan, hand: CardSet::EMPTY, turns: 0 })
    }

    /// The `k`-th combination holding this seat's lowest card.
    fn own_combination(&self, k: usize) -> Triple {
        let own = self.hand.first_card().expect("a hand");
        let mut all = Vec::new();
        let cats: Vec<CardSet> = self.deck.categories().map(|c| self.deck.category_cards(c)).collect();
        for s in cats[0] {
            for w in cats[1] {
                for r in cats[2] {
                    if [s, w, r].contains(&own) {
                        all.push(Triple([s, w, r]));
                    }
                }
            }
        }
        all[k % all.len()]
    }
}

impl Seat for Scripted {
    fn ask(&mut self, line: &str, _timeout: Duration) -> Result<String, SeatError> {
        let deck = &self.deck;
        let reply = match Message::parse(deck, line).expect("the referee speaks the protocol") {
            Message::Reset { hand, .. } => {
                self.hand = hand.into_iter().collect();
                Reply::Ok
            }
            Message::Suggest => {
                self.turns += 1;
                match self.plan {
                    Plan::Silent => return Err(SeatError::Timeout),
                    Plan::Garbage => return Ok("suggest Gr Gr Gr".into()),
                    Plan::Repeat => Reply::Suggest(self.own_combination(0)),
                    Plan::SuggestAndPass(t) | Plan::ShowWrongCard(t) if self.turns == 1 => Reply::Suggest(t),
                    _ => Reply::Suggest(self.own_combination(self.turns)),
                }
            }
            Message::Disprove { cards, .. } => {
                let matching = cards.set() & self.hand;
                let card: Card = match self.plan {
                    Plan::ShowWrongCard(_) => (cards.set() - self.hand).first_card().expect("a card not held"),
                    _ => matching.first_card().expect("asked only with matching cards"),
                };
                Reply::Show(card)
            }
            Message::Accuse => match self.plan {
                Plan::AccuseOwnCard => Reply::Accuse(self.own_combination(1)),
                _ => Reply::Pass,
            },
            Message::Suggestion { .. } | Message::Accusation { .. } => Reply::Ok,
            Message::Done => Reply::Dead,
        };
        let line = reply.display(deck).to_string();
        Ok(line)
    }
}

fn referee(plans: &[Plan], cfg: ServerConfig) -> MatchReport {
    let mut seats: Vec<Box<dyn Seat>> = plans.iter().map(|&p| Scripted::boxed(p)).collect();
    Referee::new(cfg, &mut seats).run()
}

fn short() -> ServerConfig {
    ServerConfig { games: 1, seed: 3, max_turns: 40, ..ServerConfig::default() }
}

#[test]
fn passive_players_are_never_disqualified() {
    let report = referee(&[Plan::Passive; 4], short());
    assert_eq!(report.disqualified, vec![None; 4]);
    assert!(report.games[0].turn_limit);
    assert_eq!(report.games[0].turns, 40);
    assert_eq!(report.said_dead, vec![true; 4]);
}

#[test]
fn a_repeated_suggestion_disqualifies() {
    let report = referee(&[Plan::Repeat, Plan::Passive, Plan::Passive], short());
    assert!(matches!(report.disqualified[0], Some(Disqualification::RepeatedSuggestion(_))), "{report:?}");
    assert_eq!(report.disqualified[1..], [None, None]);
    // Its second turn is the fourth of the game.
    assert!(report.games[0].turn_limit);
    assert!(!report.said_dead[0] && report.said_dead[1]);
}

#[test]
fn accusing_with_an_own_card_disqualifies() {
    let report = referee(&[Plan::Passive, Plan::AccuseOwnCard, Plan::Passive], short());
    assert!(matches!(report.disqualified[1], Some(Disqualification::AccusedSeenCard(_))), "{report:?}");
    assert_eq!(report.games[0].wrong_accusations, vec![0; 3]);
}

#[test]
fn passing_with_an_undisproved_suggestion_disqualifies() {
    let cfg = short();
    let deal = cfg.deal(0, 3);
    let case_file = Triple::from_set(&Deck::classic(), deal.case_file).unwrap();
    let report = referee(&[Plan::SuggestAndPass(case_file), Plan::Passive, Plan::Passive], cfg.clone());
    assert!(matches!(report.disqualified[0], Some(Disqualification::FailedToAccuse(_))), "{report:?}");
    // Passing after a suggestion someone disproved is fine (the passive
    // players do it on every turn, above and in the other tests).
    assert_eq!(report.disqualified[1..], [None, None]);
}

#[test]
fn showing_a_card_not_asked_for_disqualifies() {
    let deck = Deck::classic();
    // Find a deal where player 1 holds two cards of different categories
    // that player 0 does not hold, and suggest them with a case-file card.
    for seed in 0..50 {
        let cfg = ServerConfig { seed, ..short() };
        let deal = cfg.deal(0, 3);
        let mut cards = CardSet::EMPTY;
        for cat in deck.categories() {
            let held = deal.hands[1] & deck.category_cards(cat);
            let pick = if cards.len() < 2 { held.first_card() } else { None };
            let pick = pick.or_else(|| (deal.case_file & deck.category_cards(cat)).first_card());
            cards.insert(pick.unwrap());
        }
        if (cards & deal.hands[1]).len() < 2 {
            continue;
        }
        let t = Triple::from_set(&deck, cards).unwrap();
        let report = referee(&[Plan::ShowWrongCard(t), Plan::ShowWrongCard(t), Plan::Passive], cfg);
        assert!(
            matches!(&report.disqualified[1], Some(Disqualification::BadAnswer(m)) if m.contains("show")),
            "{report:?}"
        );
        return;
    }
    panic!("no suitable deal in 50 seeds");
}

#[test]
fn silence_and_nonsense_disqualify() {
    let report = referee(&[Plan::Passive, Plan::Silent, Plan::Garbage], short());
    assert!(matches!(report.disqualified[1], Some(Disqualification::Timeout(_))), "{report:?}");
    assert!(matches!(report.disqualified[2], Some(Disqualification::BadAnswer(_))), "{report:?}");
    assert_eq!(report.disqualified[0], None);
}

#[test]
fn a_tcp_client_that_does_not_answer_in_time_is_disqualified() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let cfg = ServerConfig { timeout: Duration::from_millis(300), ..short() };
    let server = thread::spawn(move || serve(&listener, 2, cfg));
    // A good client and one that introduces itself, then reads without answering.
    let good = thread::spawn(move || {
        let mut stream = TcpStream::connect(addr).unwrap();
        play_session("a-good", &mut Client::new(agent_by_name("exact").unwrap(), 1), &mut stream)
    });
    let mute = thread::spawn(move || {
        let mut stream = TcpStream::connect(addr).unwrap();
        stream.write_all(b"b-mute alive").unwrap();
        let mut buf = [0u8; 512];
        // Reads until the server gives up on it and the match ends.
        while stream.read(&mut buf).map(|n| n > 0).unwrap_or(false) {}
    });
    let (ids, report) = server.join().unwrap().unwrap();
    assert_eq!(ids, vec!["a-good", "b-mute"]);
    assert!(matches!(report.disqualified[1], Some(Disqualification::Timeout(_))), "{report:?}");
    assert_eq!(report.disqualified[0], None);
    assert!(good.join().unwrap().is_ok());
    drop(mute);
}

#[test]
fn the_client_rejects_bad_lines_with_clear_errors() {
    let mut client = Client::new(agent_by_name("exact").unwrap(), 0);
    for (line, says) in [("suggest", "has not sent 'reset'"), ("bogus", "unknown message")] {
        let e = client.answer_line(line).unwrap_err().to_string();
        assert!(e.contains(says), "{line}: {e}");
    }
    assert_eq!(client.answer_line("reset 3 0 Gr Mu Kn Ca Ba Bi").unwrap(), Reply::Ok);
    for (line, says) in [
        ("disprove 1 Pl Ro Ki", "none of the cards"),
        ("suggestion 7 Pl Ro Ki -", "no player 7"),
        ("suggestion 1 Pl Ro Ki 2 Ro", "a card shown to others"),
        ("suggestion 1 Pl Ro Ki 2 Wr", "bad protocol line"),
        ("suggestion 0 Pl Ro Ki 1", "card shown is missing"),
        ("disprove 0 Gr Kn Ki", "its own suggestion"),
    ] {
        let e = client.answer_line(line).unwrap_err().to_string();
        assert!(e.contains(says), "{line}: {e}");
    }
    // Player 1 cannot have shown Gr, which player 0 holds.
    let e = client.answer_line("suggestion 0 Gr Ro Ki 1 Gr").unwrap_err().to_string();
    assert!(e.contains("show a card we hold"), "{e}");
    let e = client.answer_line("suggestion 1 Pl Ro Ki 0 Ki").unwrap_err().to_string();
    assert!(e.contains("do not hold"), "{e}");
    // The hand must have the size the deal gives (6 of 18 for 3 players).
    let e = Client::new(agent_by_name("exact").unwrap(), 0).answer_line("reset 3 0 Gr Mu").unwrap_err().to_string();
    assert!(e.contains("invalid"), "{e}");
}

#[test]
fn the_client_never_repeats_and_accuses_when_certain() {
    let deck = Deck::classic();
    let mut client = Client::new(agent_by_name("random").unwrap(), 9);
    client.answer_line("reset 3 0 Gr Mu Kn Ca Ba Bi").unwrap();
    // The random agent draws suggestions at random, so in 60 draws from
    // 324 combinations it repeats itself: the client must replace those.
    let mut seen = std::collections::HashSet::new();
    for _ in 0..60 {
        let Reply::Suggest(t) = client.answer_line("suggest").unwrap() else { panic!("a suggestion") };
        assert!(seen.insert(t.set()), "repeated {}", Reply::Suggest(t).display(&deck));
    }
    // Nobody disproves player 0's Pl Ro Ki, and it holds none of them: it
    // knows, though the random agent would not accuse yet.
    let mut client = Client::new(agent_by_name("random").unwrap(), 9);
    client.answer_line("reset 3 0 Gr Mu Kn Ca Ba Bi").unwrap();
    client.answer_line("suggestion 1 Pl Ro Ki -").unwrap();
    assert_eq!(client.answer_line("accuse").unwrap(), Reply::Pass, "player 1 may hold them");
    client.answer_line("suggestion 0 Pl Ro Ki -").unwrap();
    assert_eq!(client.answer_line("accuse").unwrap().display(&deck).to_string(), "accuse Pl Ro Ki");
}

/// Reads one reply as the contest server does: one read, trailing NULs off.
fn one_read(stream: &mut TcpStream) -> String {
    let mut buf = [0u8; 512];
    let n = stream.read(&mut buf).expect("a reply");
    String::from_utf8_lossy(&buf[..n]).trim_end_matches('\0').to_string()
}

#[test]
fn the_client_replies_without_terminator_however_messages_arrive() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let server = thread::spawn(move || {
        let (mut s, _) = listener.accept().unwrap();
        s.set_nodelay(true).unwrap();
        let mut replies = vec![one_read(&mut s)];
        let mut say = |s: &mut TcpStream, pieces: &[&[u8]], gap: u64| {
            for p in pieces {
                s.write_all(p).unwrap();
                thread::sleep(Duration::from_millis(gap));
            }
            replies.push(one_read(s));
        };
        // Split in the middle of a card code.
        say(&mut s, &[b"reset 3 0 Gr Mu Kn C", b"a Ba Bi"], 30);
        // Upper case, a newline and NULs.
        say(&mut s, &[b"SUGGESTION 1 pl ro ki -\r\n\0\0"], 0);
        // A `suggestion` in two writes right after `suggest` (two TCP
        // segments; the client waits briefly when the bytes end there).
        say(&mut s, &[b"suggest", b"ion 2 Pl Ro Ki 1"], 0);
        // A lone `suggest`.
        say(&mut s, &[b"suggest"], 0);
        say(&mut s, &[b"done"], 0);
        replies
    });
    let mut stream = TcpStream::connect(addr).unwrap();
    let mut client = Client::new(agent_by_name("exact").unwrap(), 0);
    assert_eq!(play_session("x", &mut client, &mut stream).unwrap(), 1);
    let replies = server.join().unwrap();
    assert_eq!(replies[..4], ["x alive", "ok", "ok", "ok"]);
    assert!(replies[4].starts_with("suggest ") && replies[4].len() == 16, "{:?}", replies[4]);
    assert_eq!(replies[5], "dead");
}

#[test]
fn a_newline_terminated_reply_is_a_protocol_violation() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let server = thread::spawn(move || serve(&listener, 3, short()));
    let good: Vec<_> = ["a-good", "b-good"]
        .into_iter()
        .map(|id| {
            thread::spawn(move || {
                let mut stream = TcpStream::connect(addr).unwrap();
                play_session(id, &mut Client::new(agent_by_name("exact").unwrap(), 1), &mut stream)
            })
        })
        .collect();
    // Greets correctly, then ends every reply with a newline, as the
    // project's first client did.
    let lines = thread::spawn(move || {
        let mut stream = TcpStream::connect(addr).unwrap();
        stream.write_all(b"c-lines alive").unwrap();
        let mut buf = [0u8; 512];
        while let Ok(n @ 1..) = stream.read(&mut buf) {
            let reply = if buf[..n].starts_with(b"done") { "dead\n" } else { "ok\n" };
            if stream.write_all(reply.as_bytes()).is_err() {
                break;
            }
        }
    });
    let (ids, report) = server.join().unwrap().unwrap();
    assert_eq!(ids, ["a-good", "b-good", "c-lines"]);
    assert!(
        matches!(&report.disqualified[2], Some(Disqualification::BadAnswer(m)) if m.contains("expected 'ok'")),
        "{report:?}"
    );
    assert_eq!(report.disqualified[..2], [None, None]);
    for g in good {
        assert!(g.join().unwrap().is_ok());
    }
    lines.join().unwrap();
}
