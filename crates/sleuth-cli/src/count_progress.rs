//! How the commands that count exactly count: within this process's state
//! limit ([`crate::limits`]), with a long count's progress on standard
//! error. The counter reports after each layer; from one second on a
//! terminal shows the states visited, updated in place, and other standard
//! errors get a line every ten seconds. Counts of classic and master games
//! end long before anything is shown.

use sleuth_core::count::{CountOptions, Progress};
use std::cell::Cell;
use std::io::{IsTerminal as _, Write as _};
use std::time::{Duration, Instant};

const FIRST: Duration = Duration::from_secs(1);
const EVERY_TERMINAL: Duration = Duration::from_millis(250);
const EVERY_LINE: Duration = Duration::from_secs(10);

/// The limit and the progress display of a command's counts; the line on
/// the terminal, if any, is cleared when it is dropped.
pub struct Counting {
    max_states: usize,
    start: Instant,
    /// When the last line was shown (`None`: none yet).
    last: Cell<Option<Duration>>,
    /// Whether a line is on the terminal, to be cleared.
    shown: Cell<bool>,
}

impl Counting {
    /// The counts of a command, within this process's state limit.
    ///
    /// # Errors
    /// When `SLEUTH_MAX_STATES` is set but not a valid limit.
    pub fn new() -> anyhow::Result<Counting> {
        Ok(Counting::within(crate::limits::max_states()?))
    }

    /// The counts of a command, within `max_states` states.
    pub fn within(max_states: usize) -> Counting {
        Counting { max_states, start: Instant::now(), last: Cell::new(None), shown: Cell::new(false) }
    }

    /// The options of every count: the limit, and this display.
    pub fn options(&self) -> CountOptions<'_> {
        CountOptions::new().max_states(self.max_states).progress(self)
    }
}

impl Progress for Counting {
    fn visited(&self, states: usize) {
        let elapsed = self.start.elapsed();
        if elapsed < FIRST {
            return;
        }
        let terminal = std::io::stderr().is_terminal();
        let every = if terminal { EVERY_TERMINAL } else { EVERY_LINE };
        if self.last.get().is_some_and(|last| elapsed.saturating_sub(last) < every) {
            return;
        }
        self.last.set(Some(elapsed));
        let line = format!(
            "counting exactly: {} of at most {} states, {:.0} s (SLEUTH_MAX_STATES sets the limit)",
            crate::output::group_digits(states as u128),
            crate::output::group_digits(self.max_states as u128),
            elapsed.as_secs_f64()
        );
        let mut err = std::io::stderr().lock();
        let _ = if terminal { write!(err, "\r\x1b[2K{line}") } else { writeln!(err, "{line}") };
        let _ = err.flush();
        self.shown.set(terminal);
    }
}

impl Drop for Counting {
    fn drop(&mut self) {
        if self.shown.get() {
            let _ = write!(std::io::stderr().lock(), "\r\x1b[2K");
        }
    }
}
