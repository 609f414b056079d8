//! The game states of the paper's section 4.1: a simulated game seen by its
//! winner, its suggestions reduced to a minimal subset that still determines
//! the case file, then suggestions removed from the end backwards.

use super::{Agents, ExperimentError, SamplingConfig};
use crate::agents::{certain_case_file, ExactAgent, RandomAgent};
use crate::record::{End, GameRecord};
use crate::sim::{play, GameConfig};
use crate::stats::game_seed;
use crate::Agent;
use sleuth_core::count::count_marginals;
use sleuth_core::format::EventSpec;
use sleuth_core::CountOptions;
use sleuth_core::{Analysis, CountError, CountProblem, Deck, Game, Status};
use std::time::Instant;

/// Whether every consistent deal of `game` has the same case file (and
/// there is at least one).
///
/// # Errors
/// [`CountError`] when the game is too large for the exact counter.
pub fn case_file_determined(game: &Game) -> Result<bool, CountError> {
    let counts = count_marginals(&CountProblem::new(game), &CountOptions::default())?;
    Ok(certain_case_file(game, &counts).is_some())
}

/// The winner's view of a finished game with its accusations left out: the
/// winner's hand and every suggestion, with the cards the winner was shown
/// or showed. `None` when nobody won.
///
/// # Errors
/// [`sleuth_core::GameError`] only if the record is corrupt.
pub fn winner_view(record: &GameRecord) -> Result<Option<Game>, sleuth_core::GameError> {
    let Some(winner) = record.winner else { return Ok(None) };
    let mut file = record.game_file_for(Some(winner));
    file.events.retain(|e| matches!(e, EventSpec::Suggestion(_)));
    Game::new(&file).map(Some)
}

/// A minimal subset of the events of `game` that still determines the case
/// file (the hand is always kept), by greedy deletion: each event in turn,
/// earliest first, is dropped if the case file stays determined without
/// it. `None` when the case file is not determined by all of them.
///
/// "Determined" is monotone (fewer events never leave fewer deals), so one
/// pass gives a minimal set: no kept event can be dropped afterwards, as
/// the set it was tested against contained the final one.
///
/// # Errors
/// [`CountError`] when the game is too large for the exact counter.
pub fn minimal_suggestions(game: &Game) -> Result<Option<Vec<usize>>, CountError> {
    if !case_file_determined(game)? {
        return Ok(None);
    }
    let mut kept: Vec<usize> = (0..game.events().len()).collect();
    let mut i = 0;
    while i < kept.len() {
        let mut without = kept.clone();
        without.remove(i);
        if case_file_determined(&game.restricted(&without, true))? {
            kept = without;
        } else {
            i += 1;
        }
    }
    Ok(Some(kept))
}

/// One game state of the experiment.
#[derive(Clone, Debug)]
pub struct State {
    /// How many suggestions were removed from the end of the minimal subset
    /// (0: the minimal subset itself).
    pub removed: usize,
    /// The events of the winner's view that are kept, ascending.
    pub events: Vec<usize>,
    /// The state as a game (the winner's hand and the kept suggestions).
    pub game: Game,
    /// Its exact analysis.
    pub analysis: Analysis,
    /// The wall time of the exact analysis, in seconds.
    pub exact_seconds: f64,
}

impl State {
    /// The number of card-place pairs that are neither certain nor
    /// impossible: the pairs the samplers estimate and RMSD is taken over.
    pub fn open_pairs(&self) -> usize {
        let deck = self.game.deck();
        deck.cards().map(|c| self.game.places().filter(|&p| self.analysis.status(c, p) == Status::Maybe).count()).sum()
    }
}

/// What became of a simulated game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum GameStatus {
    /// The game was used.
    Used,
    /// The turn limit was reached: there is no winner's view.
    NoWinner,
    /// The winner's suggestions alone do not determine the case file.
    NotDetermined,
}

impl GameStatus {
    /// `used`, `no winner` or `not determined`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Used => "used",
            GameStatus::NoWinner => "no winner",
            GameStatus::NotDetermined => "not determined",
        }
    }
}

/// A simulated game and its states.
#[derive(Clone, Debug)]
pub struct PreparedGame {
    /// The game's index in the series (0-based).
    pub index: usize,
    /// The full record.
    pub record: GameRecord,
    /// The winner's view without accusations (`None` without a winner).
    pub view: Option<Game>,
    /// The minimal subset: indices into the view's events, ascending.
    pub kept: Vec<usize>,
    /// Every state, from the minimal subset (0 removed) to no suggestions
    /// at all; consistent-deal counts never decrease along it.
    pub states: Vec<State>,
    /// Whether the game was used.
    pub status: GameStatus,
}

/// The game configuration of the experiment: the classic deck, `players`
/// seats, the default 200-round limit.
pub fn game_config(players: usize) -> GameConfig {
    GameConfig::new(Deck::classic(), players)
}

/// Simulates game `index` of the series and derives its states.
///
/// # Errors
/// A simulation or counting error (neither happens with the classic deck).
pub fn prepare_game(cfg: &SamplingConfig, index: usize) -> Result<PreparedGame, ExperimentError> {
    let config = game_config(cfg.players);
    let mut agents: Vec<Box<dyn Agent>> = (0..cfg.players)
        .map(|_| match cfg.agents {
            Agents::Exact => Box::new(ExactAgent::new()) as Box<dyn Agent>,
            Agents::Random => Box::new(RandomAgent::new()),
        })
        .collect();
    let record = play(&config, &mut agents, game_seed(cfg.seed, index))?;
    let mut prepared =
        PreparedGame { index, record, view: None, kept: Vec::new(), states: Vec::new(), status: GameStatus::NoWinner };
    if prepared.record.end != End::Solved {
        return Ok(prepared);
    }
    let Some(view) = winner_view(&prepared.record)? else { return Ok(prepared) };
    let Some(kept) = minimal_suggestions(&view)? else {
        prepared.view = Some(view);
        prepared.status = GameStatus::NotDetermined;
        return Ok(prepared);
    };
    for removed in 0..=kept.len() {
        let events = kept[..kept.len() - removed].to_vec();
        let game = view.restricted(&events, true);
        let start = Instant::now();
        let analysis = Analysis::new(&game)?;
        let exact_seconds = start.elapsed().as_secs_f64();
        prepared.states.push(State { removed, events, game, analysis, exact_seconds });
    }
    prepared.view = Some(view);
    prepared.kept = kept;
    prepared.status = GameStatus::Used;
    Ok(prepared)
}
