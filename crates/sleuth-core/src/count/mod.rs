//! Exact counting of consistent deals, of every card-place marginal, and
//! of every possible case file.
//!
//! A consistent deal puts every card in play at one place so that each
//! player holds exactly their hand size, the case file one card per
//! category, and every constraint holds. After [propagation](crate::deduce)
//! the cards still open split in two:
//!
//! * *DP cards*: cards some clause mentions, or that some player with room
//!   may not hold. A dynamic program places them one at a time.
//! * *Tail cards*: cards no clause mentions that may go to every player
//!   with room. From a final DP state they are placed in closed form: a
//!   choice of case-file cards times a multinomial of the rooms left.
//!
//! # The states
//!
//! A state of the DP is one integer key (`plan`): a bit field per player
//! with room left holding that room, one bit per open case-file category
//! ("its case card is placed"), and one bit per clause *in flight*. A
//! clause holds a slot only between its first and last card in the order;
//! at its last card the state must have it satisfied, and the slot is
//! reused. A state that can no longer fill some place is dropped as early
//! as possible: hand sizes, and each player's clauses still unmet, which
//! need a minimum hitting set of the cards to come (`demand`).
//!
//! A player is *free* from a layer on when every DP card left may go to it
//! and no clause left mentions it. Free players are interchangeable except
//! for their rooms, so a pooled plan keeps only their room in all (`sym`):
//! their hands are counted through distinct slots with weights that make
//! every count a known multiple of the true one, divided out at the end.
//!
//! # The order
//!
//! The cost is the number of states, and that depends a lot on the order
//! in which the cards are placed (`order`): each clause's cards together,
//! the clause with fewest cards left first; variants free players early or
//! keep the clauses in flight fewest. None wins everywhere, so where the
//! DP is large enough to pay for it a layer-by-layer estimate of the states
//! (`estimate`) picks one per state (`choice`).
//!
//! # Marginals and case files
//!
//! The forward pass (`dp`) stores every layer and each state's edges (its
//! possible moves, with the state each leads to); the backward pass walks
//! them in reverse and adds `forward(s) × backward(s')` to the card's
//! marginal at the move's place. Cards fixed by propagation get the total.
//!
//! A key says which open categories have their case card placed, not by
//! which card. Along a path the number placed grows one at a time, so two
//! sweeps over the stored layers recover the cards (`case_sweep`): forward,
//! per state with one category placed, the count of paths into it by case
//! card; backward, per state with all but one placed, the completions by
//! the last case card; the edge that places the middle card multiplies the
//! two. Four or more open categories split each path at a chosen case card
//! in the same way. Where the sweeps do not apply, an identifying DP or one
//! count per combination of candidates lists the files (`case_file`).
//!
//! # Other paths
//!
//! Wrong accusations ("the case file is not these cards") would hold a
//! clause slot through most of the DP; the state is counted without them
//! and each accused case file's deals are subtracted (`excluded`). A
//! second counter deals player by player (`players`); where its estimate
//! says it may be cheaper, the card-outer DP first runs on a small budget
//! and hands over only if it is far from its end (`counter`).
//!
//! # Counts by class
//!
//! The advice needs, for each answer to a suggestion, the case-file counts
//! of the deals giving that answer; the answer depends only on where the
//! suggested cards are. `classes` places those cards first, so each path's
//! answer is known after three steps, and carries a vector of forward
//! counts by answer class through the other layers: one forward pass, one
//! backward pass and a sweep of vectors instead of a count per answer.
//!
//! # Limits
//!
//! All arithmetic is checked `u128` ([`CountError::Overflow`] where a count
//! does not fit). A count visits at most the states its [`CountOptions`]
//! allow ([`CountError::TooManyStates`]), and its large tables are
//! allocated fallibly ([`CountError::OutOfMemory`]): a game too large for
//! the counter, or for the memory at hand, is refused, never aborted.

mod arith;
mod card_outer;
mod case_file;
mod case_sweep;
mod choice;
mod classes;
mod counter;
mod demand;
mod dp;
mod estimate;
mod excluded;
mod options;
mod order;
mod plan;
mod players;
#[cfg(any(test, feature = "testing"))]
pub mod profile;
mod sym;
#[cfg(test)]
mod tests;
pub(crate) mod uniform;

pub use case_file::{case_files, CaseFileList};
pub use classes::{alike_cards, case_file_by_class, ClassBuffers, ClassCounts};
pub use options::{states_for_memory, CountOptions, Progress, BYTES_PER_STATE, MAX_STATES, MAX_STATE_LIMIT};

use crate::deduce::{propagate, CountProblem};
use crate::model::{MAX_CARDS, MAX_PLACES};

/// Why a count could not be computed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CountError {
    /// A count exceeded `u128`.
    #[error("the number of consistent deals does not fit in 128 bits; this deck is too large for exact counting")]
    Overflow,
    /// The dynamic program's state does not fit in 128 bits.
    #[error("the game's constraints are too entangled for the exact counter ({0} state bits needed, 128 available)")]
    TooComplex(u32),
    /// The dynamic program would visit more states than its limit
    /// ([`CountOptions::max_states`]).
    #[error("the exact counter would need more than {0} states for this game (custom decks with many categories or cards can get there); this game is too large for exact analysis")]
    TooManyStates(usize),
    /// The memory for the counter's tables could not be allocated.
    #[error("the exact counter ran out of memory for this game (custom decks with many categories or cards can get there); this game is too large for exact analysis with the memory at hand")]
    OutOfMemory,
    /// More possible case files than [`MAX_CASE_FILES`] to list.
    #[error("there are {0} possible case files, too many to list")]
    TooManyCaseFiles(u128),
}

impl CountError {
    /// Whether the game itself is too large for the exact counter (every
    /// error but too many case files to list): WalkSAT can still estimate
    /// it (`sleuth sample --method alg2`).
    pub fn too_large_to_count(&self) -> bool {
        matches!(
            self,
            CountError::TooManyStates(_) | CountError::TooComplex(_) | CountError::Overflow | CountError::OutOfMemory
        )
    }
}

/// The most possible case files that are listed one by one.
pub const MAX_CASE_FILES: u128 = 100_000;

/// The result of an exact count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counts {
    /// The number of consistent deals.
    pub total: u128,
    /// `marginal[card][place]`: the number of consistent deals with the card
    /// at the place (place index: players in seat order, then the case file).
    pub marginal: Vec<[u128; MAX_PLACES]>,
    /// How many states the counter visited (the card-outer DP's, or the
    /// players-outer counter's when it was used): a measure of effort that
    /// does not depend on the machine.
    pub states: usize,
}

impl Counts {
    /// The counts of a problem without deals.
    fn none() -> Counts {
        Counts { total: 0, marginal: vec![[0u128; MAX_PLACES]; MAX_CARDS], states: 0 }
    }
}

/// The possible case files with their counts; `None` when there are more
/// than [`MAX_CASE_FILES`].
pub(crate) type CaseFiles = Option<CaseFileList>;

/// Counts the consistent deals of a problem, without marginals.
///
/// # Errors
/// [`CountError`] if the count does not fit or the state is too large.
pub fn count(p: &CountProblem, options: &CountOptions<'_>) -> Result<u128, CountError> {
    let Some(r) = propagate(p) else { return Ok(0) };
    if let Some(total) = excluded::split(p).and_then(|split| split.total(options)) {
        return Ok(total);
    }
    card_outer::total(p, &r, options)
}

/// Counts the consistent deals and, for every card and place, the deals
/// with the card there.
///
/// # Errors
/// [`CountError`] if a count does not fit or the state is too large.
// Out of line, so that a profiler finds it in a link-time-optimised build;
// called once per analysis.
#[inline(never)]
pub fn count_marginals(p: &CountProblem, options: &CountOptions<'_>) -> Result<Counts, CountError> {
    let Some(r) = propagate(p) else { return Ok(Counts::none()) };
    if let Some(counts) = excluded::split(p).and_then(|split| split.marginals(options)) {
        return Ok(counts);
    }
    counter::chosen(p, &r, false, options).map(|(counts, _)| counts)
}

/// The counts and the possible case files with their counts, most likely
/// first (ties in deck order), or `None` for the case files when there are
/// more than [`MAX_CASE_FILES`]: what [`crate::Analysis`] shows.
///
/// # Errors
/// [`CountError`] if a count does not fit or the state is too large.
// Out of line, so that a profiler finds it in a link-time-optimised build;
// called once per analysis.
#[inline(never)]
pub(crate) fn count_with_case_files(
    p: &CountProblem,
    options: &CountOptions<'_>,
) -> Result<(Counts, CaseFiles), CountError> {
    let Some(r) = propagate(p) else { return Ok((Counts::none(), Some(CaseFileList::default()))) };
    if let Some(found) = excluded::split(p).and_then(|split| split.with_case_files(options)) {
        return Ok(found);
    }
    let (counts, mut files) = counter::chosen(p, &r, true, options)?;
    if let Some(files) = &mut files {
        files.sort();
    }
    Ok((counts, files))
}
