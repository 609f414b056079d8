//! Progress of long runs (experiments, tournaments): an indicatif bar on a
//! terminal, otherwise a line on standard error every 30 seconds.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sleuth_sim::experiment::Progress;
use std::io::IsTerminal as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// An indicatif bar on a terminal; otherwise a line on stderr every 30 s.
pub struct Bar {
    bar: Option<ProgressBar>,
    state: Mutex<(String, u64, Instant, Instant)>,
    done: AtomicU64,
}

impl Bar {
    /// A bar on standard error (or periodic lines when it is not a terminal).
    pub fn new() -> Bar {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
            let bar_spec = if crate::output::Paint::for_stderr().is_on() { "{bar:40.cyan/blue}" } else { "{bar:40}" };
            let template = format!("{{msg:>8}} {bar_spec} {{pos}}/{{len}} [{{elapsed_precise}}, eta {{eta}}]");
            if let Ok(style) = ProgressStyle::with_template(&template) {
                bar.set_style(style);
            }
            bar
        });
        let now = Instant::now();
        Bar { bar, state: Mutex::new((String::new(), 0, now, now)), done: AtomicU64::new(0) }
    }

    /// Clears the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Progress for Bar {
    fn phase(&self, name: &str, total: u64) {
        self.done.store(0, Ordering::Relaxed);
        if let Some(bar) = &self.bar {
            bar.set_message(name.to_string());
            bar.set_length(total);
            bar.set_position(0);
            bar.reset_eta();
        } else if let Ok(mut s) = self.state.lock() {
            let now = Instant::now();
            *s = (name.to_string(), total, now, now);
            eprintln!("{name}: {total} tasks");
        }
    }

    fn advance(&self, n: u64) {
        let done = self.done.fetch_add(n, Ordering::Relaxed) + n;
        if let Some(bar) = &self.bar {
            bar.inc(n);
            return;
        }
        let Ok(mut s) = self.state.lock() else { return };
        let (name, total, start, last) = &mut *s;
        if last.elapsed() >= Duration::from_secs(30) || done == *total {
            *last = Instant::now();
            let secs = start.elapsed().as_secs_f64();
            let eta = if done > 0 { secs * (*total - done.min(*total)) as f64 / done as f64 } else { 0.0 };
            eprintln!(
                "{name}: {done}/{total} ({:.1} %), {secs:.0} s, eta {eta:.0} s",
                100.0 * done as f64 / (*total).max(1) as f64
            );
        }
    }
}
