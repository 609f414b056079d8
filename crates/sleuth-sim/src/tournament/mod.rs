//! Tournaments between agents: every seating of the chosen agents for each
//! player count, each played by a number of seeded games, with win rates
//! and 95 % Wilson intervals by player count and by seat.
//!
//! # Format
//!
//! - **Seatings**: for each player count, every seating of
//!   [`schedule::seatings`]: every choice of different agents in every seat
//!   order when there are at least as many agents as seats (the Speed Clue
//!   contest's format), otherwise every seating in which each agent has at
//!   least one seat.
//! - **Games**: [`TournamentConfig::games`] games *per seating*, each with
//!   its own deal. The game seed is [`game_seed`] applied to the tournament
//!   seed, the deck, the player count, the seating index and the repetition,
//!   so any game can be replayed alone, and the results do not depend on
//!   threads or shards.
//! - **The game** is [`play`] with the simulator's rules (a
//!   correct accusation wins; a player left alone wins; the game ends
//!   without a winner after [`TournamentConfig::max_rounds`] rounds).
//! - **Win rate** of an agent: its wins divided by the seats it played (an
//!   agent with two seats in one game counts two seats). Games without a
//!   winner count as played and not won. Intervals are Wilson score
//!   intervals at 95 %.
//!
//! # Sharding
//!
//! Games are numbered in schedule order (player count, seating, repetition)
//! and shard `i/n` plays those whose number is `i` modulo `n`; [`merge`]
//! joins the shards' results into what one run gives.

pub mod schedule;
mod summary;

pub use summary::{summarize, wilson, write_summary, AgentRow, GambleRow, Judgement, LengthRow, SeatRow, Summary};

use crate::agents::{agent_by_name, AGENT_NAMES};
use crate::experiment::results::{read_csv, write_csv};
use crate::experiment::{ExperimentError, Progress, Shard};
use crate::journal::Journal;
use crate::record::End;
use crate::sim::{play, GameConfig};
use crate::stats::game_seed;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use sleuth_core::Deck;
use std::collections::BTreeSet;
use std::fmt;
use std::path::Path;
use std::str::FromStr;

/// The deck a tournament is played with.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DeckName {
    /// The classic 21 cards (3 to 6 players).
    #[default]
    Classic,
    /// Clue Master Detective's 30 cards (3 to 10 players).
    Master,
}

impl DeckName {
    /// `classic` or `master`.
    pub fn as_str(self) -> &'static str {
        match self {
            DeckName::Classic => "classic",
            DeckName::Master => "master",
        }
    }

    /// The deck.
    pub fn deck(self) -> Deck {
        match self {
            DeckName::Classic => Deck::classic(),
            DeckName::Master => Deck::master(),
        }
    }

    /// The player counts the deck is played with.
    pub fn players(self) -> std::ops::RangeInclusive<usize> {
        match self {
            DeckName::Classic => 3..=6,
            DeckName::Master => 3..=10,
        }
    }
}

impl fmt::Display for DeckName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for DeckName {
    type Err = String;

    fn from_str(s: &str) -> Result<DeckName, String> {
        match s {
            "classic" => Ok(DeckName::Classic),
            "master" => Ok(DeckName::Master),
            _ => Err(format!("unknown deck '{s}': 'classic' or 'master'")),
        }
    }
}

/// The agents of a tournament when none are named: the project's own
/// (every seating of 9 agents at 6 players would be 60,480 seatings; name
/// the contest-style opponents, `minimax`, `inference`, `bluffer`, to
/// play them).
pub const DEFAULT_AGENTS: &[&str] = &["random", "exact", "notepad", "group4", "sat", "sleuth"];

/// The size and seed of a tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentConfig {
    /// The agents, by registry name ([`AGENT_NAMES`]), in report order.
    pub agents: Vec<String>,
    /// The player counts, each played separately.
    pub players: Vec<usize>,
    /// Games per seating.
    pub games: usize,
    /// The deck.
    pub deck: DeckName,
    /// Rounds before a game ends without a winner.
    pub max_rounds: usize,
    /// The tournament seed.
    pub seed: u64,
    /// Which games this process plays.
    pub shard: Shard,
    /// The agent seed's varied hands: instead of `deck`, a three-category deck
    /// ([`per_player_deck`]) giving every player this many cards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cards_per_player: Option<usize>,
    /// Worker threads (`None`: one per core). Not part of the results.
    #[serde(skip)]
    pub threads: Option<usize>,
}

impl TournamentConfig {
    /// The [`DEFAULT_AGENTS`], 3 to 6 players, one game per seating, the
    /// classic deck, 200 rounds, seed 0.
    pub fn new() -> TournamentConfig {
        TournamentConfig {
            agents: DEFAULT_AGENTS.iter().map(|s| s.to_string()).collect(),
            players: vec![3, 4, 5, 6],
            games: 1,
            deck: DeckName::Classic,
            max_rounds: GameConfig::new(Deck::classic(), 3).max_rounds,
            seed: 0,
            shard: Shard::ALL,
            cards_per_player: None,
            threads: None,
        }
    }

    /// The deck of the games with `players` players.
    ///
    /// # Errors
    /// [`ExperimentError::Invalid`] if `cards_per_player` asks for more than
    /// [`sleuth_core::model::MAX_CARDS`] cards.
    pub fn deck_for(&self, players: usize) -> Result<Deck, ExperimentError> {
        match self.cards_per_player {
            None => Ok(self.deck.deck()),
            Some(n) => per_player_deck(players, n),
        }
    }

    /// Checks the agent names, player counts, deck and shard.
    ///
    /// # Errors
    /// [`ExperimentError::Invalid`] naming the first problem.
    pub fn validate(&self) -> Result<(), ExperimentError> {
        let invalid = |m: String| Err(ExperimentError::Invalid(m));
        if self.agents.is_empty() {
            return invalid("no agents".into());
        }
        let mut seen = BTreeSet::new();
        for a in &self.agents {
            if agent_by_name(a).is_none() {
                return invalid(format!("unknown agent '{a}'; the agents are: {}", AGENT_NAMES.join(", ")));
            }
            if !seen.insert(a) {
                return invalid(format!("agent '{a}' is listed twice"));
            }
        }
        if self.players.is_empty() {
            return invalid("no player counts".into());
        }
        for &n in &self.players {
            if self.cards_per_player.is_some() {
                self.deck_for(n)?;
            }
            if !self.deck.players().contains(&n) {
                let r = self.deck.players();
                return invalid(format!(
                    "{n} players; the {} deck is played by {} to {}",
                    self.deck,
                    r.start(),
                    r.end()
                ));
            }
        }
        if self.games == 0 {
            return invalid("no games per seating".into());
        }
        if self.max_rounds == 0 {
            return invalid("the round limit must be at least 1".into());
        }
        if self.shard.count == 0 || self.shard.index >= self.shard.count {
            return invalid(format!("invalid shard {}", self.shard));
        }
        Ok(())
    }
}

impl Default for TournamentConfig {
    fn default() -> TournamentConfig {
        TournamentConfig::new()
    }
}

/// One scheduled game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fixture {
    /// The game's number in schedule order.
    pub game: usize,
    /// Players.
    pub players: usize,
    /// The seating's index among the seatings of this player count.
    pub seating: usize,
    /// The repetition of this seating (0-based).
    pub rep: usize,
    /// The agent in each seat.
    pub agents: Vec<String>,
    /// The game seed.
    pub seed: u64,
}

/// Every game of the tournament in schedule order (all shards).
///
/// # Errors
/// [`ExperimentError::Invalid`] for an invalid configuration or a schedule
/// too large to list.
pub fn fixtures(cfg: &TournamentConfig) -> Result<Vec<Fixture>, ExperimentError> {
    cfg.validate()?;
    let deck_seed = game_seed(cfg.seed, cfg.deck as usize);
    let mut out = Vec::new();
    for &n in &cfg.players {
        let seatings = schedule::seatings(cfg.agents.len(), n).map_err(ExperimentError::Invalid)?;
        let n_seed = game_seed(deck_seed, n);
        for (s, seating) in seatings.iter().enumerate() {
            let s_seed = game_seed(n_seed, s);
            for rep in 0..cfg.games {
                out.push(Fixture {
                    game: out.len(),
                    players: n,
                    seating: s,
                    rep,
                    agents: seating.iter().map(|&a| cfg.agents[a].clone()).collect(),
                    seed: game_seed(s_seed, rep),
                });
            }
        }
    }
    Ok(out)
}

/// How a game ended, as written in `games.csv`.
pub fn end_name(end: End) -> &'static str {
    match end {
        End::Solved => "solved",
        End::LastStanding => "last-standing",
        End::TurnLimit => "turn-limit",
    }
}

/// One played game, a row of `games.csv`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRow {
    /// The game's number in schedule order.
    pub game: usize,
    /// Players.
    pub players: usize,
    /// The seating's index.
    pub seating: usize,
    /// The repetition of the seating.
    pub rep: usize,
    /// The game seed.
    pub seed: u64,
    /// The agents in seat order, separated by spaces.
    pub agents: String,
    /// The winner's seat (0-based), empty when nobody won.
    pub winner_seat: Option<usize>,
    /// The winner's agent, empty when nobody won.
    pub winner: String,
    /// `solved`, `last-standing` or `turn-limit`.
    pub end: String,
    /// Turns taken.
    pub turns: usize,
    /// Rounds begun.
    pub rounds: usize,
    /// Wrong accusations made.
    pub wrong_accusations: usize,
    /// Every accusation its accuser could not be certain of, separated by
    /// spaces: `SEAT:P:+` (right) or `SEAT:P:-` (wrong), `P` the exact
    /// probability of the accused case file in the accuser's view just
    /// before ([`gambles`]).
    #[serde(default)]
    pub gambles: String,
}

/// One accusation made without certainty.
#[derive(Clone, Debug, PartialEq)]
pub struct Gamble {
    /// The accusation's index among the record's events.
    pub event: usize,
    /// The accuser's seat.
    pub seat: usize,
    /// The exact probability of the accused case file in its view.
    pub probability: f64,
    /// Whether it was right.
    pub correct: bool,
}

/// Every accusation of `record` whose case file was not certain in its
/// accuser's view, with its exact probability there (counted over every
/// deal consistent with that view). `games.csv` keeps all but the event.
///
/// # Errors
/// A count that fails, or a record whose files do not validate.
pub fn gambles(record: &crate::GameRecord) -> Result<Vec<Gamble>, String> {
    let mut out = Vec::new();
    for (k, e) in record.events.iter().enumerate() {
        let sleuth_core::Event::Accusation(a) = e else { continue };
        let game = sleuth_core::Game::new(&record.game_file_prefix(Some(a.by), k)).map_err(|e| e.to_string())?;
        let mut problem = sleuth_core::CountProblem::new(&game);
        let options = sleuth_core::CountOptions::default();
        let total = sleuth_core::count::count(&problem, &options).map_err(|e| e.to_string())?;
        for c in a.cards {
            problem.add_fact(c, sleuth_core::Place::CaseFile, true);
        }
        let deals = sleuth_core::count::count(&problem, &options).map_err(|e| e.to_string())?;
        if deals < total {
            let probability = if total == 0 { 0.0 } else { deals as f64 / total as f64 };
            out.push(Gamble { event: k, seat: a.by.index(), probability, correct: a.correct });
        }
    }
    Ok(out)
}

impl GameRow {
    /// The accusations made without certainty, from [`GameRow::gambles`]
    /// (their `event` is not kept: 0).
    pub fn gamble_list(&self) -> Vec<Gamble> {
        self.gambles
            .split_whitespace()
            .filter_map(|g| {
                let mut parts = g.split(':');
                let seat = parts.next()?.parse().ok()?;
                let probability = parts.next()?.parse().ok()?;
                let correct = parts.next()? == "+";
                Some(Gamble { event: 0, seat, probability, correct })
            })
            .collect()
    }
}

impl GameRow {
    /// The agent of each seat.
    pub fn seat_agents(&self) -> impl Iterator<Item = &str> {
        self.agents.split(' ')
    }
}

/// Everything a tournament (or a merge of shards) produced.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentResults {
    /// The configuration (for a merge: with the whole run as its shard).
    pub config: TournamentConfig,
    /// Every game played, in schedule order.
    pub games: Vec<GameRow>,
}

/// The agent seed's games with "1 card per player", "2-3", "5-8" or "16"
/// (its tournament results, by cards per player): a Clue deck of three
/// categories, suspects `s1`, `s2`, ..., weapons `w1`, ..., rooms `r1`, ...,
/// with `players * per_player + 3` cards split as evenly as possible, so that
/// after the case file every player holds `per_player` cards and none is left
/// over.
///
/// # Errors
/// [`ExperimentError::Invalid`] when `per_player` is 0 or the deck would
/// exceed [`sleuth_core::model::MAX_CARDS`] cards.
pub fn per_player_deck(players: usize, per_player: usize) -> Result<Deck, ExperimentError> {
    let total = players * per_player + 3;
    if per_player == 0 || total > sleuth_core::model::MAX_CARDS {
        return Err(ExperimentError::Invalid(format!(
            "{per_player} cards per player with {players} players needs {total} cards; 1 to {} cards are supported",
            sleuth_core::model::MAX_CARDS
        )));
    }
    let categories = [("suspect", "s"), ("weapon", "w"), ("room", "r")]
        .iter()
        .enumerate()
        .map(|(i, &(name, prefix))| {
            let size = total / 3 + usize::from(i < total % 3);
            let cards = (1..=size).map(|k| (format!("{prefix}{k}"), format!("{name} {k}"))).collect();
            (name.to_string(), cards)
        })
        .collect();
    Deck::custom(categories).map_err(|e| ExperimentError::Invalid(format!("cannot build the deck: {e:?}")))
}

/// Plays the games of `cfg.shard` on all cores (or `cfg.threads`), in
/// memory.
///
/// # Errors
/// An invalid configuration, or the first game in which an agent broke the
/// rules (with its seed, to replay it).
pub fn run_tournament(cfg: &TournamentConfig, progress: &dyn Progress) -> Result<TournamentResults, ExperimentError> {
    run_recorded(cfg, progress, Vec::new(), &|_| Ok(()))
}

/// Plays the games of `cfg.shard` into the results folder `dir`, each game
/// appended to `results.jsonl` as it ends ([`crate::journal`]). With
/// `resume`, the games already recorded there are kept and only the others
/// are played (the folder must hold this run: the same settings and
/// shard); otherwise the run starts afresh. `games.csv` is written at the
/// end.
///
/// Returns the results and how many of the shard's games were already done.
///
/// # Errors
/// As [`run_tournament`], and a folder that cannot be written or holds
/// another run.
pub fn run_tournament_in(
    dir: &Path,
    cfg: &TournamentConfig,
    resume: bool,
    progress: &dyn Progress,
) -> Result<(TournamentResults, usize), ExperimentError> {
    cfg.validate()?;
    let (journal, done) = if resume { Journal::resume(dir, cfg)? } else { (Journal::start(dir, cfg)?, Vec::new()) };
    let already = done.len();
    let results = run_recorded(cfg, progress, done, &|g| journal.append(g))?;
    write_csv(&dir.join("games.csv"), &results.games)?;
    Ok((results, already))
}

impl crate::journal::RunConfig for TournamentConfig {
    const KIND: &'static str = "tournament";
    fn shard(&self) -> Shard {
        self.shard
    }
}

/// The games of `cfg.shard`, in schedule order.
///
/// # Errors
/// As [`fixtures`].
pub fn shard_fixtures(cfg: &TournamentConfig) -> Result<Vec<Fixture>, ExperimentError> {
    Ok(fixtures(cfg)?.into_iter().filter(|f| cfg.shard.contains(f.game)).collect())
}

/// Checks recorded games against the schedule of `cfg.shard`: each must be
/// one of its games (the same seating and seed), recorded once.
fn check_records(cfg: &TournamentConfig, mine: &[Fixture], games: &[GameRow]) -> Result<(), ExperimentError> {
    let by_game: std::collections::BTreeMap<usize, &Fixture> = mine.iter().map(|f| (f.game, f)).collect();
    let mut seen = BTreeSet::new();
    for g in games {
        match by_game.get(&g.game) {
            Some(f) if f.seed == g.seed && f.agents.join(" ") == g.agents => {}
            _ => {
                return Err(ExperimentError::Invalid(format!(
                    "the results hold game {}, which is not one of shard {}'s games",
                    g.game, cfg.shard
                )))
            }
        }
        if !seen.insert(g.game) {
            return Err(ExperimentError::Invalid(format!("the results hold game {} twice", g.game)));
        }
    }
    Ok(())
}

/// What a shard's games lack, in words (`None`: it is finished).
pub fn unfinished(cfg: &TournamentConfig, games: &[GameRow]) -> Option<String> {
    let mine = match shard_fixtures(cfg) {
        Ok(mine) => mine,
        Err(e) => return Some(e.to_string()),
    };
    if let Err(e) = check_records(cfg, &mine, games) {
        return Some(e.to_string());
    }
    (games.len() < mine.len()).then(|| format!("{} of its {} games played", games.len(), mine.len()))
}

fn run_recorded(
    cfg: &TournamentConfig,
    progress: &dyn Progress,
    done: Vec<GameRow>,
    record: &(dyn Fn(&GameRow) -> Result<(), ExperimentError> + Sync),
) -> Result<TournamentResults, ExperimentError> {
    let mine = shard_fixtures(cfg)?;
    check_records(cfg, &mine, &done)?;
    let played: BTreeSet<usize> = done.iter().map(|g| g.game).collect();
    let todo: Vec<&Fixture> = mine.iter().filter(|f| !played.contains(&f.game)).collect();
    let run = || -> Result<Vec<GameRow>, ExperimentError> {
        progress.phase("games", todo.len() as u64);
        todo.par_iter()
            .map(|f| {
                let row = cfg.deck_for(f.players).and_then(|deck| play_fixture(cfg, &deck, f))?;
                record(&row)?;
                progress.advance(1);
                Ok(row)
            })
            .collect()
    };
    let new = match cfg.threads {
        Some(threads) => rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build()
            .map_err(|e| ExperimentError::Invalid(format!("cannot start {threads} threads: {e}")))?
            .install(run)?,
        None => run()?,
    };
    let mut games = done;
    games.extend(new);
    games.sort_by_key(|g| g.game);
    Ok(TournamentResults { config: cfg.clone(), games })
}

/// Plays one scheduled game.
fn play_fixture(cfg: &TournamentConfig, deck: &Deck, f: &Fixture) -> Result<GameRow, ExperimentError> {
    let mut config = GameConfig::new(deck.clone(), f.players);
    config.max_rounds = cfg.max_rounds;
    let mut agents = f
        .agents
        .iter()
        .map(|name| agent_by_name(name).ok_or_else(|| ExperimentError::Invalid(format!("unknown agent '{name}'"))))
        .collect::<Result<Vec<_>, _>>()?;
    let record = play(&config, &mut agents, f.seed).map_err(|e| {
        ExperimentError::Invalid(format!(
            "game {} ({} players, seating {}: {}; seed {}): {e}",
            f.game,
            f.players,
            f.seating,
            f.agents.join(" "),
            f.seed
        ))
    })?;
    Ok(GameRow {
        game: f.game,
        players: f.players,
        seating: f.seating,
        rep: f.rep,
        seed: f.seed,
        agents: f.agents.join(" "),
        winner_seat: record.winner.map(|w| w.index()),
        winner: record.winner_agent().unwrap_or_default().to_string(),
        end: end_name(record.end).to_string(),
        turns: record.turns,
        rounds: record.rounds,
        wrong_accusations: record.accusations().filter(|a| !a.correct).count(),
        gambles: gambles(&record)
            .map_err(|e| ExperimentError::Invalid(format!("game {} (seed {}): {e}", f.game, f.seed)))?
            .iter()
            .map(|g| format!("{}:{:.4}:{}", g.seat, g.probability, if g.correct { '+' } else { '-' }))
            .collect::<Vec<_>>()
            .join(" "),
    })
}

/// Writes merged results as the folder of an unsharded run: `config.json`,
/// `results.jsonl` and `games.csv`.
///
/// # Errors
/// [`ExperimentError::Io`] and friends when a file cannot be written.
pub fn write_merged(dir: &Path, results: &TournamentResults) -> Result<(), ExperimentError> {
    let journal = Journal::start(dir, &results.config)?;
    journal.append_all(&results.games)?;
    write_csv(&dir.join("games.csv"), &results.games)
}

/// Reads the settings and `games.csv` of a finished run.
///
/// # Errors
/// [`ExperimentError::Io`] and friends when a file is missing or malformed.
pub fn read_games(dir: &Path) -> Result<TournamentResults, ExperimentError> {
    Ok(TournamentResults { config: crate::journal::read_config(dir)?, games: read_csv(&dir.join("games.csv"))? })
}

/// Joins the shards in `dirs` into the results of the whole tournament, in
/// schedule order. With `partial`, shards may be missing (a part of the
/// schedule played on purpose; [`Summary::missing`] counts its games).
///
/// # Errors
/// [`ExperimentError::Invalid`], in words naming the folder, when a shard is
/// missing (unless `partial`), given twice, of another tournament (its
/// differing settings listed) or unfinished; read errors.
pub fn merge(dirs: &[impl AsRef<Path>], partial: bool) -> Result<TournamentResults, ExperimentError> {
    let parts = dirs
        .iter()
        .map(|d| crate::journal::read_part::<TournamentConfig, GameRow>(d.as_ref()))
        .collect::<Result<Vec<_>, _>>()?;
    crate::journal::check_shards(&parts, partial, |p| unfinished(&p.config, &p.records))?;
    let config = TournamentConfig { shard: Shard::ALL, ..parts[0].config.clone() };
    let mut games: Vec<GameRow> = parts.into_iter().flat_map(|p| p.records).collect();
    games.sort_by_key(|g| g.game);
    check_records(&config, &fixtures(&config)?, &games)?;
    Ok(TournamentResults { config, games })
}
