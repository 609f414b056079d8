//! A race between card orders: the forward passes of several plans of the
//! same problem run side by side, a slice of work at a time, always the one
//! that has done the least work so far; the first to finish wins and the
//! others are dropped.
//!
//! The estimate that ranks orders ([`super::estimate`]) is a loose upper
//! bound and misjudges some states by 2-4x either way (BENCHMARKS.md), so
//! instead of trusting it the count races its pick against the usual order:
//! the forward pass then costs at most the number of candidates times the
//! winner's, however wrong the estimate was. Every candidate counts the same
//! deals, so the winner's pass gives the exact counts.

use super::dp::{Forward, Run};
use super::plan::Plan;
use super::CountError;

/// The work (states taken plus moves tried) a candidate runs before the
/// race looks again: small against a master state's passes (10^5-10^7),
/// large against the cost of switching.
const SLICE: u64 = 4096;

/// The result of a race: the winner's index in the plans, its forward
/// pass (or the first candidate's error when every candidate failed), and
/// the states every candidate visited, the losers' included.
pub(super) struct Finish {
    pub winner: usize,
    pub forward: Result<Forward, CountError>,
    pub states: usize,
}

/// Races the forward passes of `plans` (`keep` as in [`super::dp::forward`];
/// with `keys`, every layer's keys are kept, as
/// [`super::dp::forward_with_keys`] does). A candidate that fails (too many
/// states, a count that overflows) drops out.
pub(super) fn race(plans: &[Plan], keep: bool, keys: bool) -> Finish {
    let mut runs: Vec<Option<Run>> =
        plans.iter().map(|plan| Some(Run::new(plan, keep, keys || plan.is_symmetric()))).collect();
    let mut first_error = None;
    let mut dropped_states = 0;
    loop {
        // The running candidate with the least work (ties: the earlier one).
        let Some(i) = (0..runs.len()).filter(|&i| runs[i].is_some()).min_by_key(|&i| runs[i].as_ref().map(Run::work))
        else {
            let error = first_error.expect("a candidate failed");
            return Finish { winner: 0, forward: Err(error), states: dropped_states };
        };
        let run = runs[i].as_mut().expect("a running candidate");
        match run.advance(SLICE) {
            Ok(false) => {}
            Ok(true) => {
                let states = runs.iter().flatten().map(Run::states).sum::<usize>() + dropped_states;
                let forward = runs[i].take().expect("the winner").finish();
                return Finish { winner: i, forward: Ok(forward), states };
            }
            Err(e) => {
                dropped_states += run.states();
                runs[i] = None;
                if i == 0 || first_error.is_none() {
                    first_error = Some(e);
                }
            }
        }
    }
}
