//! What a count may spend, and whom it tells how far it has got. The
//! caller passes both in: the core reads nothing from the machine, so a
//! program that knows its memory (the command line measures it) sets the
//! limit, and one that shows progress passes a callback.

use std::fmt;

/// The default state limit: 30-70 bytes of tables a state, so up to about
/// 7 GB. Classic and master games stay far below it; only large custom
/// decks reach it.
pub const MAX_STATES: usize = 100_000_000;

/// The largest state limit: the forward pass packs a layer's state indices
/// in 28 bits (see `dp::MOVE_SHIFT`).
pub const MAX_STATE_LIMIT: usize = 250_000_000;

/// The most memory a state of the count takes (keys, counts, edges and the
/// index, measured on the largest random custom decks counted).
pub const BYTES_PER_STATE: u64 = 70;

/// The state limit that `bytes` of memory hold, at [`BYTES_PER_STATE`]
/// (at least one state, at most [`MAX_STATE_LIMIT`]).
///
/// # Examples
/// ```
/// use sleuth_core::count::{states_for_memory, CountOptions};
/// // Half of 2 GB for the count's tables.
/// let options = CountOptions::new().max_states(states_for_memory(1_000_000_000));
/// assert_eq!(options.get_max_states(), 14_285_714);
/// ```
pub fn states_for_memory(bytes: u64) -> usize {
    usize::try_from(bytes / BYTES_PER_STATE).unwrap_or(usize::MAX).clamp(1, MAX_STATE_LIMIT)
}

/// The limits and the progress callback of the exact counter, for every
/// count an analysis runs.
///
/// A count that would visit more states than the limit stops with
/// [`CountError::TooManyStates`](super::CountError::TooManyStates), and one
/// whose tables cannot be allocated with
/// [`CountError::OutOfMemory`](super::CountError::OutOfMemory): a refusal,
/// never an abort. The default needs nothing from the machine: at most
/// [`MAX_STATES`] states, no progress reports.
///
/// # Examples
/// ```
/// use sleuth_core::{Analysis, CountOptions, Game};
/// use std::cell::Cell;
///
/// let game = Game::from_json(r#"{"version": 1, "deck": "master",
///     "players": ["a", "b", "c", "d", "e", "f"], "events": []}"#)?;
/// let most = Cell::new(0);
/// let report = |visited: usize| most.set(most.get().max(visited));
/// let options = CountOptions::new().max_states(1_000_000).progress(&report);
/// let analysis = Analysis::with_options(&game, &options)?;
/// assert!(analysis.is_consistent());
/// assert!(most.get() <= 1_000_000);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct CountOptions<'a> {
    max_states: usize,
    progress: Option<&'a dyn Progress>,
}

/// Hears how far a count has got ([`CountOptions::progress`]); every
/// `Fn(usize)` closure is one.
pub trait Progress {
    /// After each layer of a count's forward pass: the states the pass has
    /// visited so far (a few dozen calls per pass).
    fn visited(&self, states: usize);
}

impl<F: Fn(usize)> Progress for F {
    fn visited(&self, states: usize) {
        self(states);
    }
}

impl Default for CountOptions<'_> {
    fn default() -> Self {
        CountOptions { max_states: MAX_STATES, progress: None }
    }
}

impl fmt::Debug for CountOptions<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CountOptions")
            .field("max_states", &self.max_states)
            .field("progress", &self.progress.map(|_| "callback"))
            .finish()
    }
}

impl<'a> CountOptions<'a> {
    /// The default options: [`MAX_STATES`], no progress reports.
    pub fn new() -> Self {
        Self::default()
    }

    /// The most states one count may visit, from 1 to [`MAX_STATE_LIMIT`]
    /// (a value outside is taken to the nearest end).
    #[must_use]
    pub fn max_states(self, limit: usize) -> Self {
        CountOptions { max_states: limit.clamp(1, MAX_STATE_LIMIT), ..self }
    }

    /// Who hears, after each layer of a count's forward pass, how many
    /// states that pass has visited: a few dozen calls per pass, so it
    /// decides itself when to show anything.
    #[must_use]
    pub fn progress(self, report: &'a dyn Progress) -> Self {
        CountOptions { progress: Some(report), ..self }
    }

    /// The state limit.
    pub fn get_max_states(&self) -> usize {
        self.max_states
    }

    /// Tells the callback, if any, that a pass has visited `visited` states.
    pub(crate) fn report(&self, visited: usize) {
        if let Some(report) = self.progress {
            report.visited(visited);
        }
    }
}
