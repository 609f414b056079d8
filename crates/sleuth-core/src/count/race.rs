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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::plan::CardClasses;
    use crate::count::{card_outer_files, card_outer_from, case_file, dp, order};
    use crate::deduce::{propagate, Problem};
    use crate::generate::{try_generate, DeckChoice, GenConfig};
    use rand::SeedableRng;

    /// The work of a candidate's whole forward pass, run alone.
    fn alone(plan: &Plan) -> u64 {
        let mut run = Run::new(plan, false, false);
        while !run.advance(u64::MAX).expect("counts") {}
        run.work()
    }

    /// On seeded master games (both views, 6-10 players, 10-20
    /// suggestions), a race between the four card orders (pooled) and
    /// between the first two: the winner's pass is complete and is the
    /// candidate with the least work (up to one slice); its counts, case
    /// files and total equal those of the plain DP in the usual order; and
    /// the winner is not always the same order.
    #[test]
    fn the_race_picks_the_finished_cheapest_order_and_counts_exactly() {
        let names = ["usual", "freeing", "wide", "frontier"];
        let (mut games, mut winners) = (0, [0usize; 4]);
        for (players, observer, suggestions) in [(6, true, 10), (8, false, 10), (10, false, 20), (10, true, 10)] {
            for seed in 0..12u64 {
                let cfg = GenConfig::new(DeckChoice::Master, players, observer, suggestions);
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(70_000 + seed);
                let generated = try_generate(&cfg, &mut rng).expect("generates");
                let game = crate::Game::new(&generated.file).expect("generated games are valid");
                let p = Problem::new(&game);
                let label = format!("{players} players, observer {observer}, {suggestions} suggestions, seed {seed}");
                let r = propagate(&p).expect("generated games are consistent");
                let cards = CardClasses::new(&p, &r);
                let plain = Plan::new(&p, &r, &cards, order::dp_order(&r, &cards)).expect(&label);
                let (reference, mut reference_files) = card_outer_files(&p, &r, &plain, true).expect(&label);
                if let Some(files) = &mut reference_files {
                    case_file::sort(files);
                }
                let plans: Vec<Plan> = names
                    .iter()
                    .map(|name| {
                        let order = order::named(name, &r, &cards, p.np).expect("a known order");
                        Plan::new_symmetric(&p, &r, &cards, order).expect(&label)
                    })
                    .collect();
                let work: Vec<u64> = plans.iter().map(alone).collect();
                for n in [4, 2] {
                    let plans = &plans[..n];
                    for (keep, keys) in [(true, true), (true, false), (false, false)] {
                        let finish = race(plans, keep, keys);
                        let w = finish.winner;
                        let fwd = finish.forward.expect(&label);
                        let layers = if keep { plans[w].steps.len() + 1 } else { 1 };
                        assert_eq!((fwd.layers.len(), fwd.succ.len()), (layers, layers - 1), "{label}: complete");
                        // The winner's last slice may overrun by one state's moves.
                        let slack = SLICE + 64;
                        for (i, &other) in work[..n].iter().enumerate() {
                            assert!(
                                work[w] <= other + slack,
                                "{label}: {} won with work {} over {} with {other}",
                                names[w],
                                work[w],
                                names[i]
                            );
                        }
                        assert!(finish.states >= fwd.states, "{label}: the race's states include the winner's");
                        if keep {
                            let (counts, mut files) = card_outer_from(&p, &r, &plans[w], fwd, keys).expect(&label);
                            assert_eq!(counts.total, reference.total, "{label}: total");
                            assert_eq!(counts.marginal, reference.marginal, "{label}: marginals");
                            if keys {
                                if let Some(files) = &mut files {
                                    case_file::sort(files);
                                }
                                assert_eq!(files, reference_files, "{label}: case files");
                            }
                        } else {
                            let total = dp::total(&plans[w], &fwd).expect(&label) / plans[w].scale;
                            assert_eq!(total, reference.total, "{label}: total without marginals");
                        }
                        if n == 4 && keep && keys {
                            winners[w] += 1;
                        }
                    }
                }
                games += 1;
            }
        }
        assert_eq!(games, 48);
        assert!(winners.iter().filter(|&&n| n > 0).count() >= 2, "always the same winner: {winners:?}");
    }
}
