//! Issue 17: the player's accusation advice (`sleuth_core::advice::advise`,
//! what `sleuth advise` and the notepad show) on games Sleuth did not play:
//! the contest-style opponents (minimax, inference, bluffer; the bluffer asks
//! about its own cards), every prefix from every seat's view. Never "accuse
//! now" at or below even odds; always when the case file is certain (unless that
//! seat is out); the probability is that of a most likely case file, checked
//! against the full list of case files.

use sleuth_core::advice::{advise, AdviceOptions, EVEN_ODDS};
use sleuth_core::count::{case_files, count_marginals};
use sleuth_core::CountOptions;
use sleuth_core::{CountProblem, Deck, Event, Game, Player};
use sleuth_sim::{agent_by_name, game_seed, play, Agent, GameConfig};

fn options() -> AdviceOptions {
    AdviceOptions { samples: 8, shortlist: 4, opponent_shortlist: 2, tell_samples: 200, ..AdviceOptions::default() }
}

#[test]
fn the_advice_never_urges_a_long_shot_in_games_of_the_contest_opponents() {
    let pool = ["minimax", "inference", "bluffer"];
    let (mut positions, mut urged, mut certain) = (0, 0, 0);
    for players in 3..=5 {
        let config = GameConfig::new(Deck::classic(), players);
        for g in 0..2 {
            let names: Vec<&str> = (0..players).map(|i| pool[(i + g) % pool.len()]).collect();
            let mut agents: Vec<Box<dyn Agent>> = names.iter().map(|n| agent_by_name(n).expect("an agent")).collect();
            let record = play(&config, &mut agents, game_seed(17 + players as u64, g)).expect("a game");
            for seat in 0..players {
                let me = Player::new(seat);
                for k in 0..=record.events.len() {
                    let game = Game::new(&record.game_file_prefix(Some(me), k)).expect("the record's files validate");
                    let label = format!("{names:?} seed {}, seat {seat}, {k} events", record.seed);
                    let a = advise(&game, &options()).expect("advice").accusation;
                    let problem = CountProblem::new(&game);
                    let counts = count_marginals(&problem, &CountOptions::default()).expect("counts");
                    let mode = case_files(&problem, &counts, &CountOptions::default())
                        .expect("case files")
                        .iter()
                        .map(|(_, n)| n)
                        .max();
                    let mode = mode.expect("a case file") as f64 / counts.total as f64;
                    assert!((a.probability - mode).abs() < 1e-12, "{label}: {} vs the mode {mode}", a.probability);
                    assert!(!a.accuse || a.probability > EVEN_ODDS, "{label}: accuse now at {}", a.probability);
                    let out =
                        game.events().iter().any(|e| matches!(e, Event::Accusation(x) if x.by == me && !x.correct));
                    assert_eq!(a.certain && !out, a.certain && a.accuse, "{label}: a certain case file is urged");
                    positions += 1;
                    urged += usize::from(a.accuse);
                    certain += usize::from(a.certain);
                }
            }
        }
    }
    eprintln!("contest opponents: {positions} positions, {certain} certain, {urged} urged");
    assert!(certain > 0, "some views become certain, so the 'always urged' check bites");
}
