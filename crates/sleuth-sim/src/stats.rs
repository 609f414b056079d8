//! Many games in a row, summed up (a tournament-lite; tournaments proper
//! come later).

use crate::agent::Agent;
use crate::error::SimError;
use crate::record::{End, GameRecord};
use crate::sim::{play, GameConfig};
use sleuth_core::Player;
use std::collections::BTreeMap;

/// The seed of game `index` of a series started from `seed` (SplitMix64 of
/// the two), so that any game of a series can be replayed alone.
pub fn game_seed(seed: u64, index: usize) -> u64 {
    let mut z = seed.wrapping_add((index as u64).wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Results of a series of games.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    /// Games played.
    pub games: usize,
    /// Wins per seat.
    pub wins_by_seat: Vec<usize>,
    /// Wins per agent name.
    pub wins_by_agent: BTreeMap<String, usize>,
    /// Seats played per agent name (the denominator of its win rate).
    pub seats_by_agent: BTreeMap<String, usize>,
    /// Games won by a correct accusation.
    pub solved: usize,
    /// Games won by the last player left in.
    pub last_standing: usize,
    /// Games that hit the turn limit.
    pub no_winner: usize,
    /// Wrong accusations made.
    pub wrong_accusations: usize,
    /// Turns over all games.
    pub total_turns: usize,
    /// Rounds over all games.
    pub total_rounds: usize,
}

impl Stats {
    /// Adds one game.
    pub fn add(&mut self, record: &GameRecord) {
        let n = record.players.len();
        if self.wins_by_seat.len() < n {
            self.wins_by_seat.resize(n, 0);
        }
        self.games += 1;
        for name in &record.agents {
            *self.seats_by_agent.entry(name.clone()).or_default() += 1;
        }
        if let Some(w) = record.winner {
            self.wins_by_seat[w.index()] += 1;
            *self.wins_by_agent.entry(record.agents[w.index()].clone()).or_default() += 1;
        }
        match record.end {
            End::Solved => self.solved += 1,
            End::LastStanding => self.last_standing += 1,
            End::TurnLimit => self.no_winner += 1,
        }
        self.wrong_accusations += record.accusations().filter(|a| !a.correct).count();
        self.total_turns += record.turns;
        self.total_rounds += record.rounds;
    }

    /// Average turns per game (0 with no games).
    pub fn average_turns(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.total_turns as f64 / self.games as f64
        }
    }

    /// Average rounds per game (0 with no games).
    pub fn average_rounds(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.total_rounds as f64 / self.games as f64
        }
    }

    /// An agent's wins per seat played (0 if it never played).
    pub fn win_rate(&self, agent: &str) -> f64 {
        let seats = self.seats_by_agent.get(agent).copied().unwrap_or(0);
        let wins = self.wins_by_agent.get(agent).copied().unwrap_or(0);
        if seats == 0 {
            0.0
        } else {
            wins as f64 / seats as f64
        }
    }
}

/// Plays `games` games of `config`, game `i` with seed
/// [`game_seed`]`(seed, i)`. `agents(i, seat)` makes the agent for a seat of
/// game `i` (rotate seats there if you want to).
///
/// # Errors
/// The first [`SimError`] of any game.
pub fn play_many(
    config: &GameConfig,
    games: usize,
    seed: u64,
    mut agents: impl FnMut(usize, Player) -> Box<dyn Agent>,
) -> Result<Stats, SimError> {
    let mut stats = Stats { wins_by_seat: vec![0; config.players.len()], ..Stats::default() };
    for i in 0..games {
        let mut seats: Vec<Box<dyn Agent>> = (0..config.players.len()).map(|s| agents(i, Player::new(s))).collect();
        let record = play(config, &mut seats, game_seed(seed, i))?;
        stats.add(&record);
    }
    Ok(stats)
}
