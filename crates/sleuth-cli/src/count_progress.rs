//! Progress of a long exact count on standard error: the counter reports
//! after each layer (`sleuth_core::count::set_progress_hook`); from one
//! second on a terminal shows the states visited, updated in place, and
//! other standard errors get a line every ten seconds. Counts of classic
//! and master games end long before anything is shown.

use std::io::{IsTerminal as _, Write as _};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// When the first layer was reported.
static START: OnceLock<Instant> = OnceLock::new();
/// Milliseconds after `START` of the last line shown (0: none yet).
static LAST_MS: AtomicU64 = AtomicU64::new(0);
/// Whether a line is on the terminal, to be cleared.
static SHOWN: AtomicBool = AtomicBool::new(false);

const FIRST: Duration = Duration::from_secs(1);
const EVERY_TERMINAL: Duration = Duration::from_millis(250);
const EVERY_LINE: Duration = Duration::from_secs(10);

/// Installs the hook (the commands that count call it first).
pub fn install() {
    sleuth_core::count::set_progress_hook(report);
}

fn report(visited: usize) {
    let elapsed = START.get_or_init(Instant::now).elapsed();
    if elapsed < FIRST {
        return;
    }
    let terminal = std::io::stderr().is_terminal();
    let every = if terminal { EVERY_TERMINAL } else { EVERY_LINE };
    let ms = u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX);
    let last = LAST_MS.load(Ordering::Relaxed);
    if last != 0 && ms.saturating_sub(last) < u64::try_from(every.as_millis()).unwrap_or(u64::MAX) {
        return;
    }
    LAST_MS.store(ms, Ordering::Relaxed);
    let line = format!(
        "counting exactly: {} of at most {} states, {:.0} s (SLEUTH_MAX_STATES sets the limit)",
        crate::output::group_digits(visited as u128),
        crate::output::group_digits(sleuth_core::count::state_limit() as u128),
        elapsed.as_secs_f64()
    );
    let mut err = std::io::stderr().lock();
    let _ = if terminal { write!(err, "\r\x1b[2K{line}") } else { writeln!(err, "{line}") };
    let _ = err.flush();
    SHOWN.store(terminal, Ordering::Relaxed);
}

/// Clears the terminal's progress line, if one is shown.
pub fn clear() {
    if SHOWN.swap(false, Ordering::Relaxed) {
        let _ = write!(std::io::stderr().lock(), "\r\x1b[2K");
    }
}
