//! The `sleuth` agent: legal, sensible play on many seeded games, and
//! stronger than the random agent.

use sleuth_core::count::count_marginals;
use sleuth_core::generate::DeckChoice;
use sleuth_core::CountOptions;
use sleuth_core::{CardSet, CountProblem, Deck, Event, Game, Player};
use sleuth_sim::agents::certain_case_file;
use sleuth_sim::{agent_by_name, deck_from_choice, game_seed, play, play_many, Agent, GameConfig, GameRecord};

fn sleuths(n: usize) -> Vec<Box<dyn Agent>> {
    (0..n).map(|_| agent_by_name("sleuth").expect("registered")).collect()
}

/// Every accusation names no card of the accuser's hand; no player repeats
/// a suggestion; a player certain of the case file right after its own
/// suggestion accuses at once.
fn check_sensible(record: &GameRecord) {
    let ctx = format!("seed {}, {} players", record.seed, record.players.len());
    let mut made: Vec<(Player, CardSet)> = Vec::new();
    for (i, event) in record.events.iter().enumerate() {
        match event {
            Event::Accusation(a) => {
                assert!((a.cards & record.deal.hands[a.by.index()]).is_empty(), "{ctx}: accused an own card");
            }
            Event::Suggestion(s) => {
                assert!(!made.contains(&(s.by, s.cards)), "{ctx}: event {i} repeats a suggestion");
                made.push((s.by, s.cards));
                let accused_next = matches!(record.events.get(i + 1), Some(Event::Accusation(a)) if a.by == s.by);
                if !accused_next {
                    let view = Game::new(&record.game_file_prefix(Some(s.by), i + 1)).expect("a valid view");
                    let counts = count_marginals(&CountProblem::new(&view), &CountOptions::default()).expect("counts");
                    assert!(
                        certain_case_file(&view, &counts).is_none(),
                        "{ctx}: certain after event {i} but did not accuse"
                    );
                }
            }
        }
    }
}

#[test]
fn sleuth_agents_play_legal_sensible_games() {
    let custom = deck_from_choice(&DeckChoice::Custom(vec![3, 4, 2, 5])).expect("a deck");
    let mut configs: Vec<GameConfig> = (3..=6).map(|n| GameConfig::new(Deck::classic(), n)).collect();
    configs.push(GameConfig::new(Deck::master(), 4));
    configs.push(GameConfig::new(Deck::classic(), 5).with_even_hands());
    configs.push(GameConfig::new(custom, 3));
    for config in &configs {
        for g in 0..5 {
            let n = config.players.len();
            let record = play(config, &mut sleuths(n), game_seed(77, g)).expect("legal moves only");
            assert!(record.winner.is_some(), "seed {}: the game ends with a winner", record.seed);
            check_sensible(&record);
        }
    }
}

#[test]
fn sleuth_plays_sensibly_against_other_agents() {
    for players in [3, 4, 6] {
        let config = GameConfig::new(Deck::classic(), players);
        for g in 0..6 {
            let mut seats: Vec<Box<dyn Agent>> = (0..players)
                .map(|s| agent_by_name(["sleuth", "exact", "random"][(s + g) % 3]).expect("registered"))
                .collect();
            let record = play(&config, &mut seats, game_seed(78, g)).expect("legal moves only");
            check_sensible(&record);
        }
    }
}

/// One sleuth against three random agents, seats rotated: it wins most games
/// (about 90% over 300 games; see TOURNAMENTS.md).
#[test]
fn sleuth_beats_random_agents() {
    let config = GameConfig::new(Deck::classic(), 4);
    let stats = play_many(&config, 40, 79, |i, seat| {
        let name = if seat.index() == i % 4 { "sleuth" } else { "random" };
        agent_by_name(name).expect("registered")
    })
    .expect("legal games");
    let rate = stats.win_rate("sleuth");
    assert!(rate >= 0.6, "sleuth won {rate:.2} of its games against random agents");
}
