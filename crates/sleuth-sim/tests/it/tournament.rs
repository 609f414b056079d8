//! Tournaments at test size: the schedule is played in full, results add up,
//! and shards merge into exactly the unsharded run.

use sleuth_sim::experiment::{NoProgress, Shard};
use sleuth_sim::tournament::{
    fixtures, merge, read_games, run_tournament, run_tournament_in, summarize, write_merged, TournamentConfig,
    TournamentResults,
};

fn small() -> TournamentConfig {
    TournamentConfig {
        agents: vec!["random".into(), "exact".into()],
        players: vec![3, 4],
        games: 2,
        max_rounds: 60,
        seed: 11,
        threads: Some(2),
        ..TournamentConfig::new()
    }
}

fn full() -> &'static TournamentResults {
    static RESULTS: std::sync::OnceLock<TournamentResults> = std::sync::OnceLock::new();
    RESULTS.get_or_init(|| run_tournament(&small(), &NoProgress).expect("the tournament runs"))
}

#[test]
fn every_seating_is_played_the_given_number_of_times() {
    let results = full();
    // 2 agents: 3 seats -> 2^3 - 2 = 6 seatings, 4 seats -> 14; 2 games each.
    assert_eq!(results.games.len(), (6 + 14) * 2);
    for (i, g) in results.games.iter().enumerate() {
        assert_eq!(g.game, i);
        let agents: Vec<&str> = g.seat_agents().collect();
        assert_eq!(agents.len(), g.players);
        assert!(agents.contains(&"random") && agents.contains(&"exact"), "{g:?}");
        match g.winner_seat {
            Some(w) => assert_eq!(agents[w], g.winner),
            None => assert_eq!(g.end, "turn-limit"),
        }
    }
}

#[test]
fn summary_adds_up() {
    let results = full();
    let summary = summarize(results);
    assert_eq!(summary.missing, 0);
    for l in &summary.lengths {
        let games = results.games.iter().filter(|g| g.players == l.players).count();
        assert_eq!(l.games, games);
        assert_eq!(l.solved + l.last_standing + l.turn_limit, games);
        let wins: usize = summary.by_agent.iter().filter(|r| r.players == Some(l.players)).map(|r| r.wins).sum();
        assert_eq!(wins, l.solved + l.last_standing);
        let seats: usize = summary.by_agent.iter().filter(|r| r.players == Some(l.players)).map(|r| r.seats).sum();
        assert_eq!(seats, games * l.players);
        // Each agent has the same number of seats (the schedule is symmetric).
        let per: Vec<usize> =
            summary.by_agent.iter().filter(|r| r.players == Some(l.players)).map(|r| r.seats).collect();
        assert!(per.iter().all(|&s| s == per[0]), "{per:?}");
    }
    for r in &summary.by_agent {
        assert!(r.low <= r.rate && r.rate <= r.high, "{r:?}");
    }
    let md = summary.markdown();
    assert!(md.contains("| random |") && md.contains("| exact |"), "{md}");
}

#[test]
fn shards_merge_into_the_full_run_and_round_trip_through_files() {
    let dir = tempfile::tempdir().unwrap();
    let mut dirs = Vec::new();
    for index in 0..3 {
        let cfg = TournamentConfig { shard: Shard { index, count: 3 }, threads: Some(1), ..small() };
        let path = dir.path().join(format!("shard{index}"));
        let (part, already) = run_tournament_in(&path, &cfg, false, &NoProgress).unwrap();
        assert_eq!(already, 0);
        assert_eq!(read_games(&path).unwrap().games, part.games);
        dirs.push(path);
    }
    // Merge order does not matter.
    dirs.reverse();
    let merged = merge(&dirs, false).unwrap();
    let mut expected = full().clone();
    expected.config.threads = None;
    assert_eq!(merged, expected);
    let out = dir.path().join("merged");
    write_merged(&out, &merged).unwrap();
    assert_eq!(read_games(&out).unwrap(), merged);
}

/// A shard stopped after some games (its results file cut, the last line
/// half written) resumes into exactly the unbroken run.
#[test]
fn a_cut_shard_resumes_into_the_unbroken_run() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = TournamentConfig { shard: Shard { index: 1, count: 2 }, threads: Some(2), ..small() };
    let (whole, _) = run_tournament_in(dir.path(), &cfg, false, &NoProgress).unwrap();
    let log = dir.path().join("results.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), whole.games.len());
    let cut = format!("{}\n{}", lines[..5].join("\n"), &lines[5][..lines[5].len() / 2]);
    std::fs::write(&log, cut).unwrap();
    std::fs::remove_file(dir.path().join("games.csv")).unwrap();
    let (resumed, already) = run_tournament_in(dir.path(), &cfg, true, &NoProgress).unwrap();
    assert_eq!(already, 5);
    assert_eq!(resumed.games, whole.games);
    assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), whole.games.len());
    // Another shard's settings do not resume it.
    let other = TournamentConfig { shard: Shard { index: 0, count: 2 }, ..cfg.clone() };
    assert!(run_tournament_in(dir.path(), &other, true, &NoProgress).is_err());
    let other = TournamentConfig { seed: 12, ..cfg };
    let err = run_tournament_in(dir.path(), &other, true, &NoProgress).unwrap_err().to_string();
    assert!(err.contains("seed 12 on the command line, 11 in"), "{err}");
}

#[test]
fn merge_refuses_missing_doubled_foreign_and_unfinished_shards() {
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, cfg: TournamentConfig| {
        let path = dir.path().join(name);
        run_tournament_in(&path, &cfg, false, &NoProgress).unwrap();
        path
    };
    let shard = |i| TournamentConfig { shard: Shard { index: i, count: 3 }, ..small() };
    let (s0, s1, s2) = (run("s0", shard(0)), run("s1", shard(1)), run("s2", shard(2)));
    let foreign = run("f2", TournamentConfig { seed: 99, ..shard(2) });
    let err = |dirs: &[&std::path::PathBuf]| merge(dirs, false).unwrap_err().to_string();
    assert!(err(&[&s0, &s1]).contains("1 of the 3 shards is missing (2/3)"));
    assert!(err(&[&s0, &s1, &s1, &s2]).contains("shard 1/3 is given twice"));
    let e = err(&[&s0, &s1, &foreign]);
    assert!(e.contains("is a shard of another tournament") && e.contains("seed 11 in"), "{e}");
    // An unfinished shard: its last games cut from the file.
    let log = s2.join("results.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    let kept: Vec<&str> = text.lines().take(3).collect();
    std::fs::write(&log, kept.join("\n") + "\n").unwrap();
    let e = err(&[&s0, &s1, &s2]);
    assert!(e.contains("shard 2/3 in") && e.contains("unfinished (3 of its"), "{e}");
    let none: &[&std::path::Path] = &[];
    assert!(merge(none, false).is_err());
    // A part of the schedule on purpose.
    assert_eq!(
        summarize(&merge(&[&s0, &s1], true).unwrap()).missing,
        sleuth_sim::tournament::shard_fixtures(&shard(2)).unwrap().len()
    );
}

#[test]
fn bad_configurations_are_errors() {
    for cfg in [
        TournamentConfig { agents: vec!["nobody".into()], ..small() },
        TournamentConfig { agents: vec!["random".into(), "random".into()], ..small() },
        TournamentConfig { players: vec![7], ..small() },
        TournamentConfig { games: 0, ..small() },
        TournamentConfig { shard: Shard { index: 2, count: 2 }, ..small() },
    ] {
        assert!(fixtures(&cfg).is_err(), "{cfg:?}");
    }
}

#[test]
fn game_seeds_depend_on_the_seating_not_on_the_rest_of_the_schedule() {
    let a = fixtures(&small()).unwrap();
    let b = fixtures(&TournamentConfig { players: vec![4], ..small() }).unwrap();
    let a4: Vec<u64> = a.iter().filter(|f| f.players == 4).map(|f| f.seed).collect();
    let b4: Vec<u64> = b.iter().map(|f| f.seed).collect();
    assert_eq!(a4, b4);
}

/// The agent seed's tournaments by cards per player: the deck gives every
/// player exactly that many cards, and a run plays on it.
#[test]
fn cards_per_player_decks_deal_that_many_cards() {
    use sleuth_sim::tournament::per_player_deck;
    for (players, n) in [(3, 1), (3, 2), (4, 5), (3, 16), (6, 3)] {
        let deck = per_player_deck(players, n).unwrap();
        assert_eq!(deck.num_categories(), 3);
        assert_eq!(deck.len(), players * n + 3);
        let sizes = sleuth_core::model::default_hand_sizes(deck.len() - 3, players);
        assert!(sizes.iter().all(|&s| s == n), "{players} players, {n}: {sizes:?}");
    }
    assert!(per_player_deck(4, 16).is_err(), "67 cards are more than a card set holds");
    assert!(per_player_deck(3, 0).is_err());
    let cfg = TournamentConfig {
        agents: vec!["group4".into(), "group4-least-wanted".into(), "group4-misleading".into()],
        players: vec![3],
        cards_per_player: Some(2),
        ..small()
    };
    let results = run_tournament(&cfg, &NoProgress).unwrap();
    assert_eq!(results.games.len(), 6 * 2);
    assert_eq!(summarize(&results).deck, "2-cards-per-player");
    let too_big = TournamentConfig { players: vec![4], cards_per_player: Some(16), ..cfg };
    assert!(too_big.validate().is_err());
}

/// Each accusation made without certainty is reported with the exact
/// probability a brute-force enumeration of the accuser's view gives, and
/// no certain accusation is reported (small decks, where every deal can be
/// listed; the agents of issue 58 and the one before it, which gambles).
#[test]
fn gambles_carry_the_probability_that_enumerating_every_deal_gives() {
    use sleuth_core::brute::enumerate;
    use sleuth_core::{Event, Game};
    use sleuth_sim::tournament::{gambles, per_player_deck};
    use sleuth_sim::{agent_by_name, play, GameConfig};
    let (mut seen, mut certain) = (0, 0);
    for seed in 0..120u64 {
        let players = 3 + (seed % 2) as usize;
        let config = GameConfig::new(per_player_deck(players, 2).unwrap(), players);
        let lineup = ["sleuth-legacy", "sleuth", "ray", "random"];
        let mut agents: Vec<_> =
            (0..players).map(|i| agent_by_name(lineup[(i + seed as usize) % 4]).unwrap()).collect();
        let record = play(&config, &mut agents, seed).expect("a legal game");
        let reported = gambles(&record).unwrap();
        for (k, e) in record.events.iter().enumerate() {
            let Event::Accusation(a) = e else { continue };
            let game = Game::new(&record.game_file_prefix(Some(a.by), k)).unwrap();
            let brute = enumerate(&game);
            let cards: Vec<_> = a.cards.iter().collect();
            let exact = brute.case_files.get(&cards).copied().unwrap_or(0) as f64 / brute.total as f64;
            match reported.iter().find(|g| g.event == k) {
                Some(g) => {
                    assert!((g.probability - exact).abs() < 1e-12 && exact < 1.0, "seed {seed}: {g:?} vs {exact}");
                    assert_eq!((g.seat, g.correct), (a.by.index(), a.correct));
                    seen += 1;
                }
                None => {
                    assert_eq!(exact, 1.0, "seed {seed}, event {k}: an uncertain accusation went unreported");
                    certain += 1;
                }
            }
        }
    }
    assert!(seen >= 5 && certain >= 20, "{seen} gambles, {certain} certain accusations");
}
