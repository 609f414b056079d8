//! The card-outer count from a plan: the forward pass, the backward pass,
//! the free players' marginals and the case-file sweep, and the unpooled
//! recount where a pooled plan's scaled counts overflow.

use super::case_file;
use super::case_sweep;
use super::choice::{plan, unpooled};
use super::dp;
use super::plan::Plan;
use super::sym;
use super::{CaseFileList, CaseFiles, CountError, CountOptions, Counts, MAX_CASE_FILES};
use crate::deduce::{CountProblem, Reduced, NONE};
use crate::model::{MAX_CARDS, MAX_PLACES};

/// Past this many states in the count, case files the sweeps cannot list
/// go unlisted: the other methods run at least one more pass as large, or
/// one per combination, and would take minutes there.
const FALLBACK_MAX_STATES: usize = 20_000_000;

/// The total of a reduced problem by the card-outer DP, without marginals.
pub(super) fn total(p: &CountProblem, r: &Reduced, options: &CountOptions<'_>) -> Result<u128, CountError> {
    let plan = plan(p, r)?;
    let total = |plan: &Plan| dp::total(plan, &dp::forward(plan, false, options)?).map(|t| t / plan.scale);
    match total(&plan) {
        Err(CountError::Overflow) if plan.scale > 1 => total(&unpooled(p, r, &plan)?),
        other => other,
    }
}

/// [`card_outer_files`] with the plan `plan` compiles, and again unpooled
/// when the pooled (scaled) counts overflow.
pub(super) fn card_outer_and_files(
    p: &CountProblem,
    r: &Reduced,
    plan: impl Fn(&CountProblem, &Reduced) -> Result<Plan, CountError>,
    files: bool,
    options: &CountOptions<'_>,
) -> Result<(Counts, CaseFiles), CountError> {
    let plan = plan(p, r)?;
    let counted = card_outer_files(p, r, &plan, files, options);
    or_unpooled(p, r, &plan, files, counted, options)
}

/// `counted`, or where `plan`'s pooled (scaled) counts overflowed, the
/// card-outer count again unpooled.
pub(super) fn or_unpooled(
    p: &CountProblem,
    r: &Reduced,
    plan: &Plan,
    files: bool,
    counted: Result<(Counts, CaseFiles), CountError>,
    options: &CountOptions<'_>,
) -> Result<(Counts, CaseFiles), CountError> {
    match counted {
        Err(CountError::Overflow) if plan.scale > 1 => card_outer_files(p, r, &unpooled(p, r, plan)?, files, options),
        other => other,
    }
}

/// The card-outer count, and with `files` the case files from the same
/// passes ([`case_sweep`], or [`case_file`]'s methods where it does not
/// apply).
pub(super) fn card_outer_files(
    p: &CountProblem,
    r: &Reduced,
    plan: &Plan,
    files: bool,
    options: &CountOptions<'_>,
) -> Result<(Counts, CaseFiles), CountError> {
    let fwd = if files { dp::forward_with_placed(plan, options)? } else { dp::forward(plan, true, options)? };
    card_outer_passed(p, r, plan, files, fwd, options)
}

/// Every layer's backward counts, as the backward pass kept them.
pub(super) enum Kept {
    Narrow(dp::Layers64),
    Wide(Vec<Vec<u128>>),
}

/// The backward pass after the forward pass `fwd`: the total and every
/// layer's backward counts where the sweeps (case files, free players)
/// read them, on `u64` where they fit.
pub(super) fn backward(
    plan: &Plan,
    fwd: &dp::Forward,
    keep: bool,
    marginal: &mut [[u128; MAX_PLACES]],
) -> Result<(u128, Kept), CountError> {
    let narrow = if keep { dp::backward_kept_u64(plan, fwd, marginal)? } else { None };
    Ok(match narrow {
        Some((total, back)) => (total, Kept::Narrow(back)),
        None => {
            let (total, back) = dp::backward(plan, fwd, marginal, keep)?;
            (total, Kept::Wide(back))
        }
    })
}

/// [`card_outer_files`] after its forward pass `fwd` (kept, with the
/// placed categories where `files`).
pub(super) fn card_outer_passed(
    p: &CountProblem,
    r: &Reduced,
    plan: &Plan,
    files: bool,
    fwd: dp::Forward,
    options: &CountOptions<'_>,
) -> Result<(Counts, CaseFiles), CountError> {
    let mut marginal = vec![[0u128; MAX_PLACES]; MAX_CARDS];
    let symmetric = plan.is_symmetric();
    let (mut total, back) = backward(plan, &fwd, files || symmetric, &mut marginal)?;
    if symmetric && total > 0 {
        match &back {
            Kept::Narrow(back) => sym::free_marginals(plan, &fwd, total, back, &mut marginal)?,
            Kept::Wide(back) => sym::free_marginals(plan, &fwd, total, back, &mut marginal)?,
        }
    }
    if total == 0 {
        marginal = vec![[0u128; MAX_PLACES]; MAX_CARDS];
    }
    if plan.scale > 1 {
        debug_assert!(total % plan.scale == 0 && marginal.iter().flatten().all(|m| m % plan.scale == 0));
        total /= plan.scale;
        marginal.iter_mut().flatten().for_each(|m| *m /= plan.scale);
    }
    let counts = finish(p, r, total, marginal, fwd.states);
    if !files || total == 0 {
        return Ok((counts, Some(CaseFileList::default())));
    }
    if case_file::listed(p, &counts) > MAX_CASE_FILES {
        return Ok((counts, None));
    }
    let swept = match &back {
        Kept::Narrow(back) => case_sweep::case_files(p, r, plan, &fwd, back, total * plan.scale, None)?,
        Kept::Wide(back) => case_sweep::case_files(p, r, plan, &fwd, back, total * plan.scale, None)?,
    };
    let found = match swept {
        Some(found) => found,
        None if fwd.states > FALLBACK_MAX_STATES => return Ok((counts, None)),
        None => case_file::without_sweep(p, r, &counts, options)?,
    };
    Ok((counts, Some(found)))
}

/// Sets the marginals of cards fixed by propagation: they are where they
/// are in every deal.
pub(super) fn finish(
    p: &CountProblem,
    r: &Reduced,
    total: u128,
    mut marginal: Vec<[u128; MAX_PLACES]>,
    states: usize,
) -> Counts {
    if total > 0 {
        for c in p.in_play {
            let q = r.assigned[c.index()];
            if q != NONE {
                marginal[c.index()][q as usize] = total;
            }
        }
    }
    Counts { total, marginal, states }
}
