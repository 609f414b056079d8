//! The seed agents (notepad, group4, sat) in whole seeded games: legal moves
//! only, notes that are true of the real deal, accusations only when their
//! own notes are certain (group4: or an early guess), certainty acted on at
//! once, no repeated suggestions, the SAT agent's knowledge equal to the
//! exact engine's, and the same game for the same seed.
//!
//! `CLUE_SLOW_TESTS=1` plays five times as many games.

use sleuth_core::count::count_marginals;
use sleuth_core::format::GameFile;
use sleuth_core::CountOptions;
use sleuth_core::{CardSet, CountProblem, Deck, Event, Game, Place, Player, Status};
use sleuth_sim::agents::group4::notes::Group4Notes;
use sleuth_sim::agents::group4::triangulation::Triangulation;
use sleuth_sim::agents::{certain_case_file, NotepadAgent, SatKnowledge};
use sleuth_sim::{agent_by_name, game_seed, play, Agent, GameConfig, GameRecord, Stats, View};
use std::time::Instant;

/// How many times more games to play (`CLUE_SLOW_TESTS=1`: 5).
fn scale() -> u64 {
    if std::env::var_os("CLUE_SLOW_TESTS").is_some_and(|v| v == "1") {
        5
    } else {
        1
    }
}

fn agents(names: &[&str]) -> Vec<Box<dyn Agent>> {
    names.iter().map(|n| agent_by_name(n).unwrap_or_else(|| panic!("no agent {n}"))).collect()
}

/// `agent` alone at the table, or in the even seats with the other
/// strategies in the odd ones.
fn lineup(agent: &'static str, players: usize, mixed: bool) -> Vec<&'static str> {
    let others: Vec<&str> = ["exact", "random", "notepad", "group4"].into_iter().filter(|&o| o != agent).collect();
    (0..players).map(|i| if !mixed || i % 2 == 0 { agent } else { others[(i / 2) % others.len()] }).collect()
}

/// One seat's own game file after the first `events` events.
struct Prefix {
    file: GameFile,
    game: Game,
}

impl Prefix {
    fn new(record: &GameRecord, seat: usize, events: usize) -> Prefix {
        let file = record.game_file_prefix(Some(Player::new(seat)), events);
        let game = Game::new(&file).expect("the record's files validate");
        Prefix { file, game }
    }

    fn view(&self) -> View<'_> {
        View::new(&self.file, &self.game).expect("a player's view")
    }
}

/// The case file as the agent's own reasoning proves it, if it does.
fn certain_for(agent: &str, prefix: &Prefix) -> Option<CardSet> {
    match agent {
        "notepad" => NotepadAgent::grid(&prefix.view()).certain_case_file(),
        "group4" => Group4Notes::from_view(&prefix.view()).grid().certain_case_file(),
        "sat" => certain_case_file(
            &prefix.game,
            &count_marginals(&CountProblem::new(&prefix.game), &CountOptions::default()).unwrap(),
        ),
        other => panic!("no certainty check for {other}"),
    }
}

/// Every check of the module docs, for every seat played by a seed agent.
/// Returns the number of early guesses by group4 (and how many were right).
fn check_record(record: &GameRecord) -> (usize, usize) {
    let places = record.deal.places(&record.deck);
    let mut early = (0, 0);
    for (seat, agent) in record.agents.iter().enumerate() {
        let agent = agent.as_str();
        if !["notepad", "group4", "sat"].contains(&agent) {
            continue;
        }
        let ctx = |k: usize| format!("seed {}, {agent} in seat {seat}, after {k} events", record.seed);
        let me = Player::new(seat);
        let hand = record.deal.hands[seat];
        let own: Vec<CardSet> = record
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Suggestion(s) if s.by == me => Some(s.cards),
                _ => None,
            })
            .collect();
        for (i, a) in own.iter().enumerate() {
            assert!(!own[..i].contains(a), "{}: suggestion {i} repeats an earlier one", ctx(0));
        }
        for k in 0..=record.events.len() {
            let prefix = Prefix::new(record, seat, k);
            match agent {
                "notepad" => {
                    let grid = NotepadAgent::grid(&prefix.view());
                    assert!(!grid.is_contradictory() && grid.holds_in(&places), "{}: {grid:?}", ctx(k));
                }
                "group4" => {
                    let notes = Group4Notes::from_view(&prefix.view());
                    assert!(!notes.is_contradictory() && notes.holds_in(&places), "{}: {notes:?}", ctx(k));
                }
                _ => {}
            }
            let certain = certain_for(agent, &prefix);
            if let Some(c) = certain {
                assert_eq!(c, record.deal.case_file, "{}: certain of a wrong case file", ctx(k));
            }
            // Certain after its own suggestion: it accuses straight away.
            if let (Some(_), Some(Event::Suggestion(s))) = (certain, k.checked_sub(1).map(|j| &record.events[j])) {
                if s.by == me {
                    assert!(
                        matches!(record.events.get(k), Some(Event::Accusation(a)) if a.by == me),
                        "{}: certain after its suggestion but did not accuse",
                        ctx(k)
                    );
                }
            }
            match record.events.get(k) {
                Some(Event::Suggestion(s)) if s.by == me => {
                    assert_eq!(certain, None, "{}: suggested although certain", ctx(k));
                }
                Some(Event::Accusation(a)) if a.by == me => {
                    assert!((a.cards & hand).is_empty(), "{}: accused with its own card", ctx(k));
                    if agent == "group4" && certain.is_none() {
                        early.0 += 1;
                        early.1 += usize::from(a.correct);
                    } else {
                        assert_eq!(Some(a.cards), certain, "{}: accused without being certain", ctx(k));
                        assert!(a.correct, "{}", ctx(k));
                    }
                }
                _ => {}
            }
        }
    }
    early
}

/// Plays `games` seeded games per configuration with `agent` alone and mixed,
/// checking each; returns the stats and group4's early guesses (made, right).
fn play_checked(agent: &'static str, configs: &[(Deck, usize)], games: u64) -> (Stats, (usize, usize)) {
    let mut stats = Stats::default();
    let mut early = (0, 0);
    for (c, (deck, players)) in configs.iter().enumerate() {
        let config = GameConfig::new(deck.clone(), *players);
        for mixed in [false, true] {
            for g in 0..games {
                let seed = game_seed(c as u64 * 1000 + u64::from(mixed), g as usize);
                let names = lineup(agent, *players, mixed);
                let record =
                    play(&config, &mut agents(&names), seed).unwrap_or_else(|e| panic!("seed {seed}, {names:?}: {e}"));
                let (made, right) = check_record(&record);
                early = (early.0 + made, early.1 + right);
                stats.add(&record);
            }
        }
    }
    (stats, early)
}

/// Classic games with 3 to 6 players.
fn classic() -> Vec<(Deck, usize)> {
    (3..=6).map(|n| (Deck::classic(), n)).collect()
}

/// Master games with 4 and 8 players.
fn master() -> Vec<(Deck, usize)> {
    vec![(Deck::master(), 4), (Deck::master(), 8)]
}

#[test]
fn notepad_plays_hundreds_of_sound_legal_games() {
    let (stats, _) = play_checked("notepad", &classic(), 25 * scale());
    assert_eq!(stats.games as u64, 200 * scale());
    let (master, _) = play_checked("notepad", &master(), 10 * scale());
    assert_eq!(master.games as u64, 40 * scale());
    // Alone at the table it always solves the game in the end.
    assert_eq!(stats.no_winner + master.no_winner, 0, "{stats:?}");
}

#[test]
fn group4_plays_hundreds_of_sound_legal_games() {
    let (stats, early) = play_checked("group4", &classic(), 25 * scale());
    let (master, early_master) = play_checked("group4", &master(), 10 * scale());
    assert_eq!((stats.games + master.games) as u64, 240 * scale());
    // Wrong accusations come only from early guesses (checked per game), and
    // an early guess is right more often than not.
    let (made, right) = (early.0 + early_master.0, early.1 + early_master.1);
    eprintln!("group4: {right} of {made} early guesses right; {stats:?}; {master:?}");
    assert!(made > 0, "the early guess never fired");
    assert!(2 * right >= made, "{right} of {made} early guesses right");
}

#[test]
fn sat_plays_sound_legal_games() {
    // The SAT agent is the slowest: fewer games, master only mixed with others.
    let (stats, _) = play_checked("sat", &classic(), 6 * scale());
    assert_eq!(stats.games as u64, 48 * scale());
    assert_eq!(stats.wrong_accusations, 0);
    let config = GameConfig::new(Deck::master(), 6);
    for seed in 0..3 * scale() {
        let record = play(&config, &mut agents(&["sat", "exact", "notepad", "sat", "group4", "random"]), seed).unwrap();
        check_record(&record);
    }
}

/// The exact engine's status of every cell of `game`.
fn exact_status(game: &Game) -> Vec<Vec<Status>> {
    let counts = count_marginals(&CountProblem::new(game), &CountOptions::default()).unwrap();
    counts.marginal[..game.deck().len()]
        .iter()
        .map(|row| {
            row[..game.num_places()]
                .iter()
                .map(|&m| match m {
                    0 => Status::No,
                    m if m == counts.total => Status::Yes,
                    _ => Status::Maybe,
                })
                .collect()
        })
        .collect()
}

#[test]
fn sat_knowledge_equals_the_exact_engine_on_every_cell_at_every_turn() {
    let mut cells = 0;
    let mut decided = 0;
    let lineups: [(Deck, &[&str]); 5] = [
        (Deck::classic(), &["sat", "random", "notepad"]),
        (Deck::classic(), &["sat", "exact", "group4", "random"]),
        (Deck::classic(), &["random", "notepad", "sat", "group4", "exact", "random"]),
        (Deck::master(), &["sat", "random", "exact", "notepad", "group4"]),
        (Deck::master(), &["random", "exact", "notepad", "group4", "random", "exact", "sat", "notepad"]),
    ];
    for (deck, names) in &lineups {
        let config = GameConfig::new(deck.clone(), names.len());
        let seat = names.iter().position(|&n| n == "sat").unwrap();
        for seed in 0..4 * scale() {
            let record = play(&config, &mut agents(names), seed).unwrap();
            let mut knowledge = SatKnowledge::new();
            for k in 0..=record.events.len() {
                let prefix = Prefix::new(&record, seat, k);
                knowledge.update(&prefix.game);
                assert!(knowledge.is_consistent());
                let exact = exact_status(&prefix.game);
                for card in prefix.game.deck().cards() {
                    for place in prefix.game.places() {
                        let want = exact[card.index()][place.index(names.len())];
                        assert_eq!(
                            knowledge.status(card, place),
                            want,
                            "seed {seed}, {names:?}, after {k} events: {} at {}",
                            prefix.game.deck().id(card),
                            prefix.game.place_id(place)
                        );
                        cells += 1;
                        decided += usize::from(want != Status::Maybe);
                    }
                }
            }
        }
    }
    // The comparison is not vacuous: both kinds of cells occur often.
    assert!(decided > cells / 4 && decided < cells, "{decided} of {cells} cells decided");
}

#[test]
fn the_same_seed_gives_the_same_game_with_each_seed_agent() {
    for agent in ["notepad", "group4", "sat"] {
        for (deck, players) in [(Deck::classic(), 5), (Deck::master(), 4)] {
            let config = GameConfig::new(deck, players);
            for mixed in [false, true] {
                let names = lineup(agent, players, mixed);
                let mut reused = agents(&names);
                let first: Vec<GameRecord> = (0..3).map(|s| play(&config, &mut reused, s).unwrap()).collect();
                for (s, a) in first.iter().enumerate() {
                    let fresh = play(&config, &mut agents(&names), s as u64).unwrap();
                    assert_eq!(a, &fresh, "{agent}: seed {s}");
                }
                assert_ne!(first[0].events, first[1].events, "{agent}: different seeds, different games");
            }
        }
    }
}

/// A classic four-player game (hands 5, 5, 4, 4) seen by `d`, the last seat.
fn four_player_view(events: &str) -> (GameFile, Game) {
    let text = format!(
        r#"{{"version": 1, "deck": "classic", "players": ["a", "b", "c", "d"], "me": "d",
            "hand": ["ha", "lo", "sc", "wr"], "events": [{events}]}}"#
    );
    let file = GameFile::from_json(&text).unwrap();
    let game = Game::new(&file).unwrap();
    (file, game)
}

#[test]
fn logic_boxes_follow_the_subset_rule_and_reduce_to_os() {
    let (file, game) = four_player_view("");
    let deck = game.deck();
    let set = |ids: &[&str]| -> CardSet { ids.iter().map(|id| deck.card(id).unwrap()).collect() };
    let view = View::new(&file, &game).unwrap();
    let mut notes = Group4Notes::from_view(&view);
    let (a, b) = (Player::new(0), Player::new(1));
    notes.add_box(a, set(&["mu", "kn", "ba"]));
    notes.add_box(a, set(&["mu", "kn"]));
    assert_eq!(notes.boxes(a), [set(&["mu", "kn"])], "the superset goes");
    notes.add_box(a, set(&["mu", "kn", "di"]));
    assert_eq!(notes.boxes(a), [set(&["mu", "kn"])], "a superset is not added");
    // `ha` is d's own card: the box loses it on the way in.
    notes.add_box(b, set(&["pl", "ro", "ha"]));
    assert_eq!(notes.boxes(b), [set(&["pl", "ro"])]);
    notes.settle();
    // Crossing out `mu` for a leaves a box of one card: an O.
    notes.grid_mut().mark_no(deck.card("mu").unwrap(), Place::Player(a));
    notes.settle();
    assert!(notes.boxes(a).is_empty());
    assert_eq!(notes.grid().status(deck.card("kn").unwrap(), Place::Player(a)), Status::Yes);
    assert_eq!(notes.grid().status(deck.card("kn").unwrap(), Place::CaseFile), Status::No);
    // A box holding a card known to be there says nothing more.
    notes.grid_mut().mark_yes(deck.card("ro").unwrap(), Place::Player(b));
    notes.settle();
    assert!(notes.boxes(b).is_empty());
    assert!(!notes.is_contradictory());
}

#[test]
fn two_players_with_the_same_two_card_box_hold_both_cards() {
    // b and c refute (cards unseen by d) suggestions that, without d's own
    // `ha` and `lo`, both come down to mu ∨ kn: the seed's example.
    let (file, game) = four_player_view(
        r#"{"suggestion": {"by": "a", "cards": ["mu", "kn", "ha"], "refuted_by": "b"}},
           {"suggestion": {"by": "b", "cards": ["mu", "kn", "lo"], "refuted_by": "c"}}"#,
    );
    let deck = game.deck();
    let view = View::new(&file, &game).unwrap();
    let notes = Group4Notes::from_view(&view);
    let mu_kn: CardSet = ["mu", "kn"].iter().map(|id| deck.card(id).unwrap()).collect();
    let (a, b, c) = (Player::new(0), Player::new(1), Player::new(2));
    assert_eq!(notes.boxes(b), [mu_kn]);
    assert_eq!(notes.boxes(c), [mu_kn]);
    for card in mu_kn {
        assert_eq!(notes.grid().status(card, Place::CaseFile), Status::No, "neither card is hidden");
        assert_eq!(notes.grid().status(card, Place::Player(a)), Status::No, "nor with anyone else");
        // Which of b and c holds which is not known, and the notes do not guess.
        assert_eq!(notes.grid().status(card, Place::Player(b)), Status::Maybe);
        assert_eq!(notes.grid().status(card, Place::Player(c)), Status::Maybe);
    }
    // One box alone says nothing about the case file.
    let (file, game) =
        four_player_view(r#"{"suggestion": {"by": "a", "cards": ["mu", "kn", "ha"], "refuted_by": "b"}}"#);
    let notes = Group4Notes::from_view(&View::new(&file, &game).unwrap());
    assert_eq!(notes.grid().status(deck.card("mu").unwrap(), Place::CaseFile), Status::Maybe);
}

#[test]
fn group4_questions_the_least_known_player_past_those_in_between() {
    // d learnt one of a's cards; a could not refute gr, ro, di, which b then
    // refuted unseen. b is the least known opponent nearest to d, and only
    // gr, ro and di are cards b may hold that a cannot: d asks exactly them.
    let (file, game) = four_player_view(
        r#"{"suggestion": {"by": "d", "cards": ["pl", "kn", "ba"], "refuted_by": "a", "shown": "pl"}},
           {"suggestion": {"by": "c", "cards": ["gr", "ro", "di"], "refuted_by": "b"}}"#,
    );
    let deck = game.deck();
    let view = View::new(&file, &game).unwrap();
    let expected: CardSet = ["gr", "ro", "di"].iter().map(|id| deck.card(id).unwrap()).collect();
    for seed in 0..10 {
        let mut agent = agent_by_name("group4").unwrap();
        assert_eq!(agent.suggest(&view, &mut sleuth_sim::agent_rng(seed, 3)), expected);
    }
}

#[test]
fn triangulation_favours_cards_asked_by_many_players() {
    // One round: a asks about mu, b and c about pl; nobody can refute.
    let (file, game) = four_player_view(
        r#"{"suggestion": {"by": "a", "cards": ["mu", "ro", "ba"], "refuted_by": null}},
           {"suggestion": {"by": "b", "cards": ["pl", "ro", "ba"], "refuted_by": null}},
           {"suggestion": {"by": "c", "cards": ["pl", "ro", "ba"], "refuted_by": null}}"#,
    );
    let deck = game.deck();
    let t = Triangulation::from_view(&View::new(&file, &game).unwrap());
    let score = |id: &str| t.scores(deck.card(id).unwrap());
    // Asked once each by two players beats asked by one.
    assert!(score("pl").0 > score("mu").0);
    assert!(score("ro").0 > score("pl").0, "asked by three players");
    assert_eq!(score("gr"), (1.0, 1.0), "never asked");
    // d's own question would not count.
    let (file, game) =
        four_player_view(r#"{"suggestion": {"by": "d", "cards": ["mu", "ro", "ba"], "refuted_by": null}}"#);
    let t = Triangulation::from_view(&View::new(&file, &game).unwrap());
    assert_eq!(t.scores(deck.card("ro").unwrap()), (1.0, 1.0));
}

#[test]
fn sat_knowledge_solves_the_seed_sample_game_in_the_seed_order() {
    // The SAT paper's sample game, just before the final accusation: its
    // notepad is fully solved. Updated event by event, as an agent would.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/seed-sat-sample-before-accusation.json");
    let file = GameFile::from_json(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut knowledge = SatKnowledge::new();
    for k in 0..=file.events.len() {
        let mut prefix = file.clone();
        prefix.events.truncate(k);
        knowledge.update(&Game::new(&prefix).unwrap());
    }
    let game = Game::new(&file).unwrap();
    let deck = game.deck();
    let expected: CardSet = ["pe", "pi", "bi"].iter().map(|id| deck.card(id).unwrap()).collect();
    assert_eq!(knowledge.certain_case_file(&game), Some(expected));
    assert_eq!(knowledge.status(deck.card("mu").unwrap(), game.place("pl").unwrap()), Status::Yes);
    // Fresh knowledge of the whole game agrees with the incremental one.
    let mut fresh = SatKnowledge::new();
    fresh.update(&game);
    for card in deck.cards() {
        for place in game.places() {
            assert_eq!(fresh.status(card, place), knowledge.status(card, place));
        }
    }
}

#[test]
fn refuters_show_again_what_the_suggester_has_seen() {
    // d showed `ha` to a, then `lo` to b, then `lo` to c; now a and b
    // suggest cards that d can refute with `ha` or `lo`.
    let (file, game) = four_player_view(
        r#"{"suggestion": {"by": "a", "cards": ["mu", "kn", "ha"], "refuted_by": "d", "shown": "ha"}},
           {"suggestion": {"by": "b", "cards": ["mu", "kn", "lo"], "refuted_by": "d", "shown": "lo"}},
           {"suggestion": {"by": "c", "cards": ["mu", "kn", "lo"], "refuted_by": "d", "shown": "lo"}}"#,
    );
    let deck = game.deck();
    let view = View::new(&file, &game).unwrap();
    let set = |ids: &[&str]| -> CardSet { ids.iter().map(|id| deck.card(id).unwrap()).collect() };
    let (a, b) = (Player::new(0), Player::new(1));
    for name in ["notepad", "group4", "sat"] {
        let mut agent = agent_by_name(name).unwrap();
        for seed in 0..20 {
            let mut rng = sleuth_sim::agent_rng(seed, 3);
            let shown = agent.choose_card_to_show(&view, a, set(&["sc", "kn", "ha"]), set(&["sc", "ha"]), &mut rng);
            assert_eq!(deck.id(shown), "ha", "{name}: a has seen ha");
            let shown = agent.choose_card_to_show(&view, b, set(&["sc", "kn", "lo"]), set(&["sc", "lo"]), &mut rng);
            assert_eq!(deck.id(shown), "lo", "{name}: b has seen lo");
        }
    }
    // group4 also prefers the card it has revealed most when the suggester has
    // seen none: `lo` (twice) over `ha` (once) and `wr` (never).
    let mut agent = agent_by_name("group4").unwrap();
    let c = Player::new(2);
    let mut rng = sleuth_sim::agent_rng(0, 3);
    let shown = agent.choose_card_to_show(&view, a, set(&["sc", "wr", "lo"]), set(&["sc", "wr", "lo"]), &mut rng);
    assert_eq!(deck.id(shown), "lo");
    let shown = agent.choose_card_to_show(&view, c, set(&["sc", "wr", "ha"]), set(&["sc", "wr", "ha"]), &mut rng);
    assert_eq!(deck.id(shown), "ha");
}

/// Win rates of a few line-ups, every seat rotation played equally often;
/// run with `cargo test -p sleuth-sim --test it agents::win_rates -- --ignored --nocapture`.
#[test]
#[ignore]
fn win_rates() {
    let lineups: &[(&str, Deck, &[&str])] = &[
        ("classic 4", Deck::classic(), &["notepad", "group4", "sat", "exact"]),
        ("classic 4 without exact", Deck::classic(), &["notepad", "group4", "sat", "random"]),
        ("classic 3", Deck::classic(), &["notepad", "group4", "random"]),
        ("master 6", Deck::master(), &["notepad", "group4", "sat", "exact", "random", "notepad"]),
    ];
    for (label, deck, names) in lineups {
        let config = GameConfig::new(deck.clone(), names.len());
        let mut stats = Stats::default();
        let start = Instant::now();
        for seed in 0..25 {
            for r in 0..names.len() {
                let rotated: Vec<&str> = (0..names.len()).map(|i| names[(i + r) % names.len()]).collect();
                stats.add(&play(&config, &mut agents(&rotated), seed).unwrap());
            }
        }
        let rates: Vec<String> = stats
            .seats_by_agent
            .iter()
            .map(|(name, &seats)| {
                let wins = stats.wins_by_agent.get(name).copied().unwrap_or(0);
                format!("{name} {:.0}%", 100.0 * wins as f64 / seats as f64)
            })
            .collect();
        println!(
            "{label}: {} games, win rate per seat: {}; {:.1} rounds per game, {} wrong accusations ({:?})",
            stats.games,
            rates.join(", "),
            stats.total_rounds as f64 / stats.games as f64,
            stats.wrong_accusations,
            start.elapsed()
        );
    }
}

#[test]
fn notepad_crosses_out_the_suggested_cards_of_players_who_could_not_refute() {
    // a suggests; b passes, c refutes unseen by d: b gets three X's, c none.
    let (file, game) = four_player_view(
        r#"{"suggestion": {"by": "a", "cards": ["mu", "ro", "ba"], "refuted_by": "c", "shown": null}}"#,
    );
    let deck = game.deck();
    let grid = NotepadAgent::grid(&View::new(&file, &game).unwrap());
    let (b, c) = (Place::Player(Player::new(1)), Place::Player(Player::new(2)));
    for id in ["mu", "ro", "ba"] {
        let card = deck.card(id).unwrap();
        assert_eq!(grid.status(card, b), Status::No, "{id} at b");
        assert_eq!(grid.status(card, c), Status::Maybe, "{id} at c");
    }
}

/// The agent seed's misleading questions: one card of its own hand (the decoy)
/// is named in its suggestions (all but the rare one where naming it would
/// repeat an earlier suggestion: at most 2 % here) and shown only when it is
/// the one card that can answer. Least wanted cards: legal, sound games (the rules
/// checks of `play`), in both options' line-ups.
#[test]
fn group4_options_play_legal_games_and_the_decoy_is_asked_and_never_shown() {
    let (mut suggestions, mut kept_hidden, mut missing) = (0, 0, 0);
    for players in 3..=5 {
        let config = GameConfig::new(Deck::classic(), players);
        for g in 0..10u64 {
            let mut names = vec!["group4-misleading", "group4-least-wanted"];
            names.extend(["group4", "notepad", "group4-least-wanted-misleading"].iter().take(players - 2));
            let seed = game_seed(900 + players as u64, g as usize);
            let record = play(&config, &mut agents(&names), seed).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            let hand = record.deal.hands[0];
            let suggested = |e: &Event| match e {
                Event::Suggestion(s) if s.by == Player::new(0) => Some(s.cards),
                _ => None,
            };
            let own: Vec<CardSet> = record.events.iter().filter_map(suggested).collect();
            // The decoy: the card of its hand it names most often.
            let decoy = hand.iter().max_by_key(|&c| own.iter().filter(|s| s.contains(c)).count()).unwrap();
            let with = own.iter().filter(|s| s.contains(decoy)).count();
            suggestions += own.len();
            missing += own.len() - with;
            let common = CardSet::single(decoy);
            for e in &record.events {
                let Event::Suggestion(s) = e else { continue };
                if s.refuted_by == Some(Player::new(0)) && (s.cards & hand).len() > 1 {
                    kept_hidden += 1;
                    let shown = s.shown.expect("the record has every shown card");
                    assert!(!common.contains(shown), "seed {seed}: the decoy was shown");
                }
            }
        }
    }
    assert!(suggestions > 50 && kept_hidden > 0, "{suggestions} suggestions, {kept_hidden} choices");
    // Only the rule against repeating a suggestion may leave the decoy out.
    assert!(missing * 50 <= suggestions, "the decoy is missing from {missing} of {suggestions} suggestions");
}
