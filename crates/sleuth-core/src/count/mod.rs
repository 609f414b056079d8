//! Exact counting of consistent deals and of every card-place marginal.
//!
//! After [propagation](crate::deduce), the cards still open split in two:
//!
//! * *DP cards*: cards some clause mentions, or cards barred from some
//!   player who still has room. They are placed one at a time by a dynamic
//!   program whose state is the vector of remaining hand capacities, one bit
//!   per case-file category already filled, and one bit per clause "in
//!   flight" (a clause is in the state only between its first and last card
//!   in the processing order, so its bit slot is reused afterwards).
//! * *Tail cards*: cards no clause mentions that may go to every player with
//!   room. Given the capacities left when the DP ends, they are placed in
//!   closed form: a choice of case-file cards times a multinomial.
//!
//! Marginals come from a forward pass (storing each layer and its edges) and
//! a backward pass that combines forward and backward counts at every edge.
//! All arithmetic is checked `u128`; a count that does not fit is an error.
//!
//! Modules: `plan` compiles the DP (key layout, moves, tail), `order`
//! has the card orders and `estimate` picks one per state, `demand` drops
//! states that leave a player too little room for its clauses, `dp` runs
//! the passes, `arith` has the checked arithmetic, `sym` the *pool* of free
//! players (players interchangeable for the rest of the DP, whose rooms the
//! key keeps only in all) and their marginals. `players` is a second, players-outer counter that
//! [`count_marginals`] uses where a static estimate says it is cheaper.

mod arith;
mod case_file;
mod case_sweep;
mod demand;
mod dp;
mod estimate;
mod excluded;
mod order;
mod plan;
mod players;
mod sym;
pub(crate) mod uniform;

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
    /// ([`default_state_limit`] unless [`STATE_LIMIT_ENV`] sets another).
    #[error("the exact counter would need more than {0} states for this game (custom decks with many categories or cards can get there; SLEUTH_MAX_STATES raises the limit, at up to 70 bytes a state); this game is too large for exact analysis")]
    TooManyStates(usize),
    /// More possible case files than [`MAX_CASE_FILES`] to list.
    #[error("there are {0} possible case files, too many to list")]
    TooManyCaseFiles(u128),
}

impl CountError {
    /// Whether the game itself is too large for the exact counter (every
    /// error but too many case files to list): WalkSAT can still estimate
    /// it (`sleuth sample --method alg2`).
    pub fn too_large_to_count(&self) -> bool {
        matches!(self, CountError::TooManyStates(_) | CountError::TooComplex(_) | CountError::Overflow)
    }
}

/// The most states one count may visit, where the machine's memory allows
/// ([`default_state_limit`]): 30-70 bytes of tables each, so up to about 7
/// GB, and a minute or so on large layers. Classic and master games stay
/// far below (see BENCHMARKS.md); only large custom decks reach it. At 20
/// million, Sleuth refused custom decks that the independent plain DP
/// (`examples/plain_dp.rs`) counts in 10-40 s: 10 of the 27 refused among
/// 150 random decks took 20-49 million states here (ARCHITECTURE.md, "The
/// state limit").
pub const MAX_STATES: usize = 100_000_000;

/// The state limit on a machine with little memory free: the limit before
/// it rose to [`MAX_STATES`].
pub const MIN_STATES: usize = 20_000_000;

/// The memory a state may take at most, measured on the largest refused
/// random decks (7 GB at the limit: keys, counts, edges and the index).
const BYTES_PER_STATE: u64 = 70;

/// The state limit unless [`STATE_LIMIT_ENV`] sets one: [`MAX_STATES`], or
/// as many states as half the memory available now holds where that is
/// fewer (never below [`MIN_STATES`]), so that a count that would not fit
/// is refused instead of pushing the machine into swap.
pub fn default_state_limit() -> usize {
    limit_for_memory(available_memory())
}

/// [`default_state_limit`] given the bytes available (`None`: unknown).
fn limit_for_memory(available: Option<u64>) -> usize {
    let half_free = available.map_or(u64::MAX, |bytes| bytes / 2);
    let fits = usize::try_from(half_free / BYTES_PER_STATE).unwrap_or(usize::MAX);
    fits.clamp(MIN_STATES, MAX_STATES)
}

/// The memory available to a new process, from Linux's `MemAvailable`
/// (`None` elsewhere or when it cannot be read).
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// The environment variable that sets another state limit, for a machine
/// with more or less memory than the default assumes (and for tests that
/// take a game past the limit without a minute of counting).
pub const STATE_LIMIT_ENV: &str = "SLEUTH_MAX_STATES";

/// The largest limit [`STATE_LIMIT_ENV`] may set: the edges' packing holds a
/// layer's state indices in 28 bits (`dp::MOVE_SHIFT`).
pub const MAX_STATE_LIMIT: usize = 250_000_000;

/// The state limit [`STATE_LIMIT_ENV`] sets: `Ok(None)` when it is unset, an
/// error in words when it is not a number from 1 to [`MAX_STATE_LIMIT`]
/// (the command line checks it at start; the counter then ignores a bad
/// value).
pub fn state_limit_from_env() -> Result<Option<usize>, String> {
    let Some(text) = std::env::var_os(STATE_LIMIT_ENV) else { return Ok(None) };
    let text = text.to_string_lossy();
    match text.trim().replace('_', "").parse::<usize>() {
        Ok(n) if (1..=MAX_STATE_LIMIT).contains(&n) => Ok(Some(n)),
        _ => Err(format!(
            "{STATE_LIMIT_ENV}={text:?}: expected a number of states from 1 to {MAX_STATE_LIMIT} (default {MAX_STATES}, fewer where memory is short)"
        )),
    }
}

/// What a long count reports after each layer of a forward pass: the
/// states that pass has visited ([`state_limit`] gives the limit).
pub type ProgressHook = fn(visited: usize);

static PROGRESS_HOOK: std::sync::OnceLock<ProgressHook> = std::sync::OnceLock::new();

/// Sets the process's progress hook (once; later calls are ignored): a
/// command line shows how far a count of many seconds has got. The hook
/// decides when to print; it is called a few dozen times per pass.
pub fn set_progress_hook(hook: ProgressHook) {
    let _ = PROGRESS_HOOK.set(hook);
}

/// Reports a forward pass's progress to the hook, if any.
fn report_progress(visited: usize) {
    if let Some(hook) = PROGRESS_HOOK.get() {
        hook(visited);
    }
}

#[cfg(test)]
thread_local! {
    /// A limit in place of [`MAX_STATES`] for the tests on this thread.
    static STATE_LIMIT: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
}

/// The most states one count may visit: the limit [`STATE_LIMIT_ENV`]
/// sets, [`default_state_limit`] (read once), or a test's limit.
pub fn state_limit() -> usize {
    #[cfg(test)]
    return STATE_LIMIT.with(std::cell::Cell::get).unwrap_or(MAX_STATES);
    #[cfg(not(test))]
    {
        static DEFAULT: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
        env_limit().unwrap_or_else(|| *DEFAULT.get_or_init(default_state_limit))
    }
}

/// [`STATE_LIMIT_ENV`]'s limit, read once (`None`: unset or not valid).
#[cfg(not(test))]
fn env_limit() -> Option<usize> {
    static LIMIT: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    *LIMIT.get_or_init(|| state_limit_from_env().ok().flatten())
}

/// The states a forward pass may still visit after `visited`, for a layer
/// that adds at most `growth`. The default limit reads the memory
/// available (about 10 µs, a hundredth of `sleuth analyze` on a small
/// state), so it is looked up only where the layer could reach
/// [`MIN_STATES`], which no default limit is below.
fn room_for(visited: usize, growth: usize) -> usize {
    #[cfg(not(test))]
    if env_limit().is_none() && visited.saturating_add(growth) < MIN_STATES {
        return MIN_STATES - visited;
    }
    let _ = growth;
    state_limit().saturating_sub(visited)
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

use crate::deduce::{propagate, Problem, Reduced, NONE};
use crate::model::{MAX_CARDS, MAX_PLACES};
use plan::{CardClasses, Plan};

/// The DP for a reduced problem.
fn plan(p: &Problem, r: &Reduced) -> Result<Plan, CountError> {
    let cards = CardClasses::new(p, r);
    plan_from(p, r, &cards, BaseOrders::if_symmetric(p, r, &cards).as_ref())
}

/// [`plan`] from the problem's card classes and, where the DP pools free
/// players, its base orders: the usual order alone otherwise.
fn plan_from(p: &Problem, r: &Reduced, cards: &CardClasses, base: Option<&BaseOrders>) -> Result<Plan, CountError> {
    match base {
        Some(base) => pooled(p, r, cards, pooled_order(p, r, cards, base)),
        None => Plan::new(p, r, cards, plain_order(p, r, cards)),
    }
}

/// The card order of a DP that does not pool players: the in-flight order
/// (the plain DP's), or the usual one where its estimate is below
/// [`OTHER_MARGIN`] × the in-flight order's. Each visits up to twice the
/// other's states on some master 6-10-player states after 20 suggestions,
/// and up to five times on 3-5 players (whose card bound is small: few
/// rooms, many clauses in flight); the estimate picks the better on most
/// of them (ARCHITECTURE.md, "The exact counter"). On the smallest states
/// the two estimates (2-6 µs each) would cost more than they save, and the
/// usual order is kept. The other orders are no candidates here: their
/// estimates mislead more often than not without the pool.
fn plain_order(p: &Problem, r: &Reduced, cards: &CardClasses) -> Vec<u8> {
    let usual = order::dp_order(r, cards);
    if card_bound(p, r, cards) < ORDER_CHOICE_MIN_CARD_BOUND {
        return usual;
    }
    let inflight = order::inflight_order(r, cards);
    if inflight == usual
        || estimate::dp_states(p, r, cards, &usual) < OTHER_MARGIN * estimate::dp_states(p, r, cards, &inflight)
    {
        usual
    } else {
        inflight
    }
}

/// Below this card-outer bound the DP that does not pool players keeps
/// the usual order without estimating: replayed on 4,400 classic and master
/// states of 3-10 players, the states the choice saves pay for the
/// estimates from about 2^13 on (it was 100,000, which left master 3-5-player
/// bystander states after 20-45 suggestions at up to 4.6 times the better
/// order's states). Two-player states have small bounds (two rooms) but
/// many clauses in flight: at 2^13, master 2-player bystander states after
/// 20 suggestions visited 1.46 times the states of the choice (up to 4.7
/// times on one), and at 2^11 the classic cells' states and times stay
/// within the noise (the estimates cost a microsecond or two there).
const ORDER_CHOICE_MIN_CARD_BOUND: f64 = 2_000.0;

/// The card order [`plan`] picks, and whether it pools free players.
fn choose_order(p: &Problem, r: &Reduced, cards: &CardClasses) -> (Vec<u8>, bool) {
    match BaseOrders::if_symmetric(p, r, cards) {
        Some(base) => (pooled_order(p, r, cards, &base), true),
        None => (plain_order(p, r, cards), false),
    }
}

/// The usual order and the one that frees players early, each with its
/// estimated states: where the DP pools free players both the choice of
/// counter ([`players_outer`]) and the choice of order start from them.
struct BaseOrders {
    usual: (f64, Vec<u8>),
    freeing: (f64, Vec<u8>),
}

impl BaseOrders {
    fn new(p: &Problem, r: &Reduced, cards: &CardClasses) -> BaseOrders {
        let usual = order::dp_order(r, cards);
        let freeing = order::freeing_order(r, cards, p.np);
        let usual_est = estimate::dp_states(p, r, cards, &usual);
        let freeing_est = if freeing == usual { usual_est } else { estimate::dp_states(p, r, cards, &freeing) };
        BaseOrders { usual: (usual_est, usual), freeing: (freeing_est, freeing) }
    }

    /// The base orders where the DP pools free players (see
    /// [`SYMMETRY_MIN_CARD_BOUND`]), `None` elsewhere.
    fn if_symmetric(p: &Problem, r: &Reduced, cards: &CardClasses) -> Option<BaseOrders> {
        (card_bound(p, r, cards) >= SYMMETRY_MIN_CARD_BOUND).then(|| BaseOrders::new(p, r, cards))
    }
}

/// The card order of a pooled DP: the in-flight order (the plain DP's
/// clause order), or another whose estimate is below a fraction of its
/// estimate, the smallest such. Neither order wins everywhere (up to 7x
/// either way), and the estimate overcounts the clause bits in flight by
/// different factors in different orders, so only a clear margin counts;
/// the frontier order is built to keep small what the estimate counts, so
/// it flatters that order most, hence its smaller fraction. Measured
/// against the older rule (the usual order first, the others by margins
/// over it) on 1,025 pooled master 10-player states: 5.8 % less forward
/// time on the seeds compared first, 1.6 % on the seeds checked after,
/// and a third as many states over 1.3 times the in-flight order's
/// (ARCHITECTURE.md, "The exact counter").
fn pooled_order(p: &Problem, r: &Reduced, cards: &CardClasses, base: &BaseOrders) -> Vec<u8> {
    let estimate = |order: &[u8]| estimate::dp_states(p, r, cards, order);
    let inflight = order::inflight_order(r, cards);
    let bar = estimate(&inflight);
    let mut best = (bar, inflight);
    let wide = order::wide_first_order(r, cards);
    let frontier = order::frontier_order(r, cards, p.np);
    let candidates = [
        (base.usual.0, &base.usual.1, OTHER_MARGIN),
        (base.freeing.0, &base.freeing.1, OTHER_MARGIN),
        (estimate(&wide), &wide, OTHER_MARGIN),
        (estimate(&frontier), &frontier, FRONTIER_MARGIN),
    ];
    for (e, order, margin) in candidates {
        if e < margin * bar && e < best.0 {
            best = (e, order.clone());
        }
    }
    best.1
}

/// The pooled plan (see [`sym`]), or the plain one when its scale does not
/// fit (large custom decks: the scale is a product of factorials of rooms).
fn pooled(p: &Problem, r: &Reduced, cards: &CardClasses, order: Vec<u8>) -> Result<Plan, CountError> {
    match Plan::new_symmetric(p, r, cards, order.clone()) {
        Err(CountError::Overflow) => Plan::new(p, r, cards, order),
        other => other,
    }
}

/// A DP leaves the in-flight order for the usual (or, when it pools
/// players, freeing or wide-first) order when its estimate is below this
/// fraction of the in-flight order's, and for the frontier order below the
/// next.
const OTHER_MARGIN: f64 = 0.7;
const FRONTIER_MARGIN: f64 = 0.4;

/// The DP in one fixed order (for profiling), symmetric on large problems.
fn plan_in(p: &Problem, r: &Reduced, freeing: bool) -> Result<Plan, CountError> {
    let cards = CardClasses::new(p, r);
    let order = if freeing { order::freeing_order(r, &cards, p.np) } else { order::dp_order(r, &cards) };
    if card_bound(p, r, &cards) >= SYMMETRY_MIN_CARD_BOUND {
        pooled(p, r, &cards, order)
    } else {
        Plan::new(p, r, &cards, order)
    }
}

/// Below this card-outer bound the symmetric DP's bookkeeping (the sweep,
/// kept keys) costs more than the states it saves: classic games measured
/// 13-19% more instructions with it (BENCHMARKS.md's git history, fifth round).
const SYMMETRY_MIN_CARD_BOUND: f64 = 1_000_000.0;

/// A crude bound on the card-outer DP's states: the room vectors times the
/// DP cards.
fn card_bound(p: &Problem, r: &Reduced, cards: &CardClasses) -> f64 {
    let room: f64 = (0..p.np).map(|a| f64::from(r.rem[a]) + 1.0).product();
    room * cards.dp.len() as f64
}

/// Counts the consistent deals of a problem, without marginals.
///
/// # Errors
/// [`CountError`] if the count does not fit or the state is too large.
pub fn count(p: &Problem) -> Result<u128, CountError> {
    let Some(r) = propagate(p) else { return Ok(0) };
    if let Some(total) = excluded::split(p).and_then(|split| total_by_subtraction(&split)) {
        return Ok(total);
    }
    let plan = plan(p, &r)?;
    let total = |plan: &Plan| dp::total(plan, &dp::forward(plan, false)?).map(|t| t / plan.scale);
    match total(&plan) {
        Err(CountError::Overflow) if plan.scale > 1 => total(&unpooled(p, &r, &plan)?),
        other => other,
    }
}

/// The same DP without the pool: pooled counts are scaled (see
/// [`sym`]), so they may overflow where the true counts fit.
fn unpooled(p: &Problem, r: &Reduced, plan: &Plan) -> Result<Plan, CountError> {
    Plan::new(p, r, &CardClasses::new(p, r), plan.steps.iter().map(|s| s.card).collect())
}

/// Counts the consistent deals and, for every card and place, the deals
/// with the card there.
///
/// # Errors
/// [`CountError`] if a count does not fit or the state is too large.
// Out of line, so that callgrind finds it in a link-time-optimised build
// (examples/count_modes_ir.sh); called once per analysis.
#[inline(never)]
pub fn count_marginals(p: &Problem) -> Result<Counts, CountError> {
    let Some(r) = propagate(p) else {
        return Ok(Counts { total: 0, marginal: vec![[0u128; MAX_PLACES]; MAX_CARDS], states: 0 });
    };
    if let Some(counts) = excluded::split(p).and_then(|split| marginals_by_subtraction(&split)) {
        return Ok(counts);
    }
    auto(p, &r)
}

/// Which counter [`count_marginals_by`] runs (for profiling).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counter {
    /// The one [`count_marginals`] picks.
    Auto,
    /// The card-outer DP.
    CardOuter,
    /// The card-outer DP in the usual card order.
    CardOuterUsual,
    /// The card-outer DP in the order that frees players early.
    CardOuterFreeing,
    /// The players-outer counter, within a large move budget.
    PlayersOuter,
}

/// [`count_marginals`] with a chosen counter, for profiling; `None` if the
/// players-outer counter does not handle the problem.
///
/// # Errors
/// [`CountError`] if a count does not fit or the state is too large.
#[doc(hidden)]
pub fn count_marginals_by(p: &Problem, counter: Counter) -> Result<Option<Counts>, CountError> {
    let Some(r) = propagate(p) else {
        return Ok(Some(Counts { total: 0, marginal: vec![[0u128; MAX_PLACES]; MAX_CARDS], states: 0 }));
    };
    match counter {
        Counter::Auto => auto(p, &r).map(Some),
        Counter::CardOuter => card_outer(p, &r, plan).map(Some),
        Counter::CardOuterUsual => card_outer(p, &r, |p, r| plan_in(p, r, false)).map(Some),
        Counter::CardOuterFreeing => card_outer(p, &r, |p, r| plan_in(p, r, true)).map(Some),
        Counter::PlayersOuter => {
            let Some(pp) = players::prepare(p, &r) else { return Ok(None) };
            Ok(players_outer_within(p, &r, &pp, PROFILE_MAX_MOVES)?.map(|(counts, _)| counts))
        }
    }
}

/// [`count_with_case_files`] with a chosen counter (`Auto`, `CardOuter` or
/// `PlayersOuter`), for profiling; `None` if the players-outer counter does
/// not handle the problem or gives up.
///
/// # Errors
/// [`CountError`] if a count does not fit or the state is too large.
#[doc(hidden)]
pub fn count_with_case_files_by(p: &Problem, counter: Counter) -> Result<Option<(Counts, CaseFiles)>, CountError> {
    let Some(r) = propagate(p) else { return count_with_case_files(p).map(Some) };
    let found = match counter {
        Counter::PlayersOuter => {
            let Some(pp) = players::prepare(p, &r) else { return Ok(None) };
            let Some((counts, masks)) = players_outer_within(p, &r, &pp, PROFILE_MAX_MOVES)? else { return Ok(None) };
            let files = files_from_masks(p, &r, &counts, &masks);
            (counts, files)
        }
        Counter::CardOuter => card_outer_and_files(p, &r, plan, true)?,
        _ => count_with_case_files(p)?,
    };
    Ok(Some(found))
}

/// The states and moves of the players-outer counter's forward pass, its
/// estimate and the card-outer bound, for profiling; `None` if it does not
/// handle the problem or gives up.
#[doc(hidden)]
pub fn players_outer_cost(p: &Problem) -> Option<(usize, usize, f64, f64)> {
    let r = propagate(p)?;
    let pp = players::prepare(p, &r)?;
    let room: f64 = (0..p.np).map(|a| f64::from(r.rem[a]) + 1.0).product();
    let card_bound = room * CardClasses::new(p, &r).dp.len() as f64;
    let (states, moves) = players::dry_run(&pp, PROFILE_MAX_MOVES)?;
    Some((states, moves, pp.estimate(), card_bound))
}

/// The estimated card-outer states in the usual order and in the order
/// that frees players early, and the card-outer bound (for profiling).
#[doc(hidden)]
pub fn order_estimates(p: &Problem) -> Option<(f64, f64, f64)> {
    let r = propagate(p)?;
    let cards = CardClasses::new(p, &r);
    let base = BaseOrders::new(p, &r, &cards);
    Some((base.usual.0, base.freeing.0, card_bound(p, &r, &cards)))
}

/// The forward pass's states in a named card order (`usual`, `freeing`,
/// `wide`, `frontier`, or `chosen`: the one [`plan`] picks) and its
/// estimate, symmetric where [`plan`] would be; for `cb`, no states and
/// the card bound; for `plan`, only [`plan`] (its steps); `None` for an unknown name (for profiling).
#[doc(hidden)]
pub fn order_variant_states(p: &Problem, name: &str) -> Option<(usize, f64)> {
    let r = propagate(p)?;
    let cards = CardClasses::new(p, &r);
    match name {
        "cb" => return Some((0, card_bound(p, &r, &cards))),
        // Only the plan, with its choice of order.
        "plan" => return Some((plan(p, &r).ok()?.steps.len(), 0.0)),
        _ => {}
    }
    let order = match name {
        "chosen" => plan(p, &r).ok()?.steps.iter().map(|s| s.card).collect(),
        _ => order::named(name, &r, &cards, p.np)?,
    };
    let mut sorted = order.clone();
    sorted.sort_unstable();
    let dp: Vec<u8> = cards.dp.iter().map(|c| c.index() as u8).collect();
    assert_eq!(sorted, dp, "{name}: not a permutation of the DP cards");
    let est = estimate::dp_states(p, &r, &cards, &order);
    let plan = if card_bound(p, &r, &cards) >= SYMMETRY_MIN_CARD_BOUND {
        Plan::new_symmetric(p, &r, &cards, order)
    } else {
        Plan::new(p, &r, &cards, order)
    };
    Some((dp::forward(&plan.ok()?, false).ok()?.states, est))
}

/// The counter [`count_marginals`] picks, on a reduced problem.
fn auto(p: &Problem, r: &Reduced) -> Result<Counts, CountError> {
    chosen(p, r, false).map(|(counts, _)| counts)
}

/// The counts, and with `files` the case files, by the counter the state
/// suits. The players-outer counter wins on some states and loses badly on
/// others; it is considered only when its estimate (an upper bound on its
/// moves under the best player order) is at most a multiple of a crude
/// bound on the card-outer DP's layers (the room vectors times the DP
/// cards), within a move budget. Where it is, the card-outer DP first
/// runs on a budget of [`CARD_OUTER_TRIAL`] of that estimate: the
/// estimates are loose both ways, and a card-outer DP that ends within it
/// nearly always beats the players-outer counter. Past the budget, a pass
/// that looks close to its end (its states so far, plus its last layer for
/// every step left, within [`CARD_OUTER_PROJECTED`] × the budget) goes on;
/// otherwise the players-outer counter runs, and if it gives up, the
/// paused DP resumes. The constants come from seeds 0..199 of the master
/// 6–10-player cells (BENCHMARKS.md's git history; ARCHITECTURE.md,
/// "Choosing the counter").
fn chosen(p: &Problem, r: &Reduced, files: bool) -> Result<(Counts, CaseFiles), CountError> {
    chosen_within(p, r, files, Trial { share: CARD_OUTER_TRIAL, projected: CARD_OUTER_PROJECTED }, PLAYERS_MAX_MOVES)
}

/// The card-outer trial of [`chosen`]: its budget, a share of the
/// players-outer estimate, and how far past the budget a pass may be
/// projected to end and still go on, a multiple of the budget.
#[derive(Clone, Copy, Debug)]
struct Trial {
    share: f64,
    projected: f64,
}

/// [`chosen`] with the card-outer trial `trial` and the players-outer
/// counter within `max_moves` (the tests take every branch).
fn chosen_within(
    p: &Problem,
    r: &Reduced,
    files: bool,
    trial: Trial,
    max_moves: usize,
) -> Result<(Counts, CaseFiles), CountError> {
    let cards = CardClasses::new(p, r);
    let base = BaseOrders::if_symmetric(p, r, &cards);
    let plan_of = |p: &Problem, r: &Reduced| plan_from(p, r, &cards, base.as_ref());
    let Some(pp) = players_outer_candidate(p, r, &cards, base.as_ref()) else {
        return card_outer_and_files(p, r, plan_of, files);
    };
    let plan = plan_of(p, r)?;
    let budget = (trial.share * pp.estimate()) as usize;
    let near_end = |paused: &dp::Paused| paused.projected(plan.steps.len()) as f64 <= trial.projected * budget as f64;
    let fwd = match dp::forward_within(&plan, files, budget) {
        Ok(dp::Budgeted::Done(fwd)) => fwd,
        Ok(dp::Budgeted::Paused(paused)) => {
            // Far from its end, the players-outer counter takes over; the
            // paused pass goes on where it gives up.
            if !near_end(&paused) {
                if let Some((counts, masks)) = players_outer_within(p, r, &pp, max_moves)? {
                    let found = if files { files_from_masks(p, r, &counts, &masks) } else { None };
                    return Ok((counts, found));
                }
            }
            match dp::resume(&plan, files, paused) {
                Ok(fwd) => fwd,
                Err(error) => return or_unpooled(p, r, &plan, files, Err(error)),
            }
        }
        Err(error) => return or_unpooled(p, r, &plan, files, Err(error)),
    };
    let counted = card_outer_passed(p, r, &plan, files, fwd);
    or_unpooled(p, r, &plan, files, counted)
}

/// The players-outer counter's preparation where [`chosen`] considers it.
/// `base`: the base orders where the card-outer DP pools free players.
fn players_outer_candidate(
    p: &Problem,
    r: &Reduced,
    cards: &CardClasses,
    base: Option<&BaseOrders>,
) -> Option<players::Prepared> {
    let card_bound = card_bound(p, r, cards);
    if card_bound < PLAYERS_MIN_CARD_BOUND {
        return None;
    }
    let pp = players::prepare(p, r)?;
    // The symmetric DP (and its choice of order) made the card-outer DP
    // cheaper where it runs; there its layer estimate, in the better of the
    // usual and freeing orders, is a closer bound than the crude one.
    let limit = match base {
        Some(base) => PLAYERS_RATIO_SYMMETRIC * card_bound.min(base.usual.0).min(base.freeing.0),
        None => PLAYERS_RATIO * card_bound,
    };
    (pp.estimate() <= PLAYERS_MAX_ESTIMATE.min(limit)).then_some(pp)
}

/// The players-outer count within `max_moves`, with the count of every
/// case file with deals (cards as a bitmask, see [`players`]); `None` if it
/// gives up.
fn players_outer_within(
    p: &Problem,
    r: &Reduced,
    pp: &players::Prepared,
    max_moves: usize,
) -> Result<Option<(Counts, players::FileCounts)>, CountError> {
    let Some((total, marginal, states, files)) = players::marginals(pp, max_moves)? else { return Ok(None) };
    let marginal = if total == 0 { vec![[0u128; MAX_PLACES]; MAX_CARDS] } else { marginal };
    Ok(Some((finish(p, r, total, marginal, states), files)))
}

/// The case files of the players-outer counter's file counts, or `None`
/// when there are more than [`MAX_CASE_FILES`].
fn files_from_masks(p: &Problem, r: &Reduced, counts: &Counts, masks: &players::FileCounts) -> CaseFiles {
    (case_file::listed(p, counts) <= MAX_CASE_FILES).then(|| case_file::from_masks(p, r, masks))
}

/// Below this card-outer bound the card-outer DP takes well under a
/// millisecond, less than preparing the players-outer counter (its order
/// search) would cost.
const PLAYERS_MIN_CARD_BOUND: f64 = 10_000.0;
/// The largest [`players::Prepared::estimate`] for which the players-outer
/// counter is tried.
const PLAYERS_MAX_ESTIMATE: f64 = 100_000_000.0;
/// ... and at most this fraction of the card-outer bound.
const PLAYERS_RATIO: f64 = 2.0;
/// ... or this one where the card-outer DP is symmetric.
const PLAYERS_RATIO_SYMMETRIC: f64 = 0.5;
/// Where the players-outer counter is considered, the card-outer DP first
/// runs within this fraction of its estimate in states: on the master
/// 6–10-player cells, where the card-outer DP visits under 1 % of the
/// estimate it beat the players-outer counter on 5 of 6 states (by up to
/// 7×), at 1–2 % on 8 of 16, past 5 % on 6 of 363 (ARCHITECTURE.md).
const CARD_OUTER_TRIAL: f64 = 0.02;
/// A paused trial goes on where it is projected to end within this many
/// times its budget: on 536 states of eleven master cells of 6–10 players
/// (seeds 0..199) where the players-outer counter is considered, the whole
/// analysis −2.8 % and states over 1.2 × the better counter's time 38 → 17;
/// on seeds 200..399, −2.1 % and 28 → 20. At 3 ×, more time on both.
const CARD_OUTER_PROJECTED: f64 = 2.0;
/// The players-outer counter gives up after this many moves.
const PLAYERS_MAX_MOVES: usize = 3_000_000;
/// [`Counter::PlayersOuter`] gives up after this many moves.
const PROFILE_MAX_MOVES: usize = 20_000_000;

/// Sets the marginals of cards fixed by propagation: they are where they
/// are in every deal.
fn finish(p: &Problem, r: &Reduced, total: u128, mut marginal: Vec<[u128; MAX_PLACES]>, states: usize) -> Counts {
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

/// The card-outer counter with a given way to compile the DP.
#[cfg(test)]
fn marginals_with(
    p: &Problem,
    plan: impl Fn(&Problem, &Reduced) -> Result<Plan, CountError>,
) -> Result<Counts, CountError> {
    let Some(r) = propagate(p) else {
        return Ok(Counts { total: 0, marginal: vec![[0u128; MAX_PLACES]; MAX_CARDS], states: 0 });
    };
    card_outer(p, &r, plan)
}

/// The card-outer counter on a reduced problem.
fn card_outer(
    p: &Problem,
    r: &Reduced,
    plan: impl Fn(&Problem, &Reduced) -> Result<Plan, CountError>,
) -> Result<Counts, CountError> {
    card_outer_and_files(p, r, plan, false).map(|(counts, _)| counts)
}

/// [`card_outer_files`] with the plan `plan` compiles, and again unpooled
/// when the pooled (scaled) counts overflow.
fn card_outer_and_files(
    p: &Problem,
    r: &Reduced,
    plan: impl Fn(&Problem, &Reduced) -> Result<Plan, CountError>,
    files: bool,
) -> Result<(Counts, CaseFiles), CountError> {
    let plan = plan(p, r)?;
    let counted = card_outer_files(p, r, &plan, files);
    or_unpooled(p, r, &plan, files, counted)
}

/// `counted`, or where `plan`'s pooled (scaled) counts overflowed, the
/// card-outer count again unpooled.
fn or_unpooled(
    p: &Problem,
    r: &Reduced,
    plan: &Plan,
    files: bool,
    counted: Result<(Counts, CaseFiles), CountError>,
) -> Result<(Counts, CaseFiles), CountError> {
    match counted {
        Err(CountError::Overflow) if plan.scale > 1 => card_outer_files(p, r, &unpooled(p, r, plan)?, files),
        other => other,
    }
}

pub use case_file::CaseFileList;

/// The possible case files with their counts; `None` when there are more
/// than [`MAX_CASE_FILES`].
pub type CaseFiles = Option<CaseFileList>;

/// The card-outer count, and with `files` the case files from the same
/// passes ([`case_sweep`], or [`case_file`]'s methods where it does not
/// apply).
fn card_outer_files(p: &Problem, r: &Reduced, plan: &Plan, files: bool) -> Result<(Counts, CaseFiles), CountError> {
    let fwd = if files { dp::forward_with_placed(plan)? } else { dp::forward(plan, true)? };
    card_outer_passed(p, r, plan, files, fwd)
}

/// [`card_outer_files`] after its forward pass `fwd` (kept, with the
/// placed categories where `files`).
fn card_outer_passed(
    p: &Problem,
    r: &Reduced,
    plan: &Plan,
    files: bool,
    fwd: dp::Forward,
) -> Result<(Counts, CaseFiles), CountError> {
    let mut marginal = vec![[0u128; MAX_PLACES]; MAX_CARDS];
    let symmetric = plan.is_symmetric();
    // The sweeps (case files, free players) read every layer's backward
    // counts: on u64 where they fit.
    let narrow = if files || symmetric { dp::backward_kept_u64(plan, &fwd, &mut marginal)? } else { None };
    let (mut total, back) = match narrow {
        Some((total, back)) => (total, Kept::Narrow(back)),
        None => {
            let (total, back) = dp::backward(plan, &fwd, &mut marginal, symmetric || files)?;
            (total, Kept::Wide(back))
        }
    };
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
        Kept::Narrow(back) => case_sweep::case_files(p, r, plan, &fwd, back, total * plan.scale)?,
        Kept::Wide(back) => case_sweep::case_files(p, r, plan, &fwd, back, total * plan.scale)?,
    };
    let found = match swept {
        Some(found) => found,
        // The other methods run at least one more pass as large as this
        // one, or one per combination: past the old state limit they would
        // take minutes, so the case files go unlisted there (their
        // marginals, above, are exact).
        None if fwd.states > FALLBACK_MAX_STATES => return Ok((counts, None)),
        None => case_file::without_sweep(p, r, &counts)?,
    };
    Ok((counts, Some(found)))
}

/// Past this many states in the count, case files the sweeps cannot list
/// are not listed at all (see [`card_outer_passed`]): the state limit
/// before it rose to [`MAX_STATES`].
const FALLBACK_MAX_STATES: usize = MIN_STATES;

/// Every layer's backward counts, as the backward pass kept them.
enum Kept {
    Narrow(dp::Layers64),
    Wide(Vec<Vec<u128>>),
}

/// The counts and the possible case files with their counts, most likely
/// first (ties in deck order), or `None` for the case files when there are
/// more than [`MAX_CASE_FILES`]: what [`crate::Analysis`] shows.
///
/// # Errors
/// [`CountError`] if a count does not fit or the state is too large.
// Out of line, so that callgrind finds it in a link-time-optimised build
// (examples/count_modes_ir.sh); called once per analysis.
#[inline(never)]
pub fn count_with_case_files(p: &Problem) -> Result<(Counts, CaseFiles), CountError> {
    let Some(r) = propagate(p) else {
        return Ok((
            Counts { total: 0, marginal: vec![[0u128; MAX_PLACES]; MAX_CARDS], states: 0 },
            Some(CaseFileList::default()),
        ));
    };
    if let Some(found) = excluded::split(p).and_then(|split| by_subtraction(&split)) {
        return Ok(found);
    }
    let (counts, mut files) = chosen(p, &r, true)?;
    if let Some(files) = &mut files {
        files.sort();
    }
    Ok((counts, files))
}

/// [`count`] of a state split by its case-file clauses (the `excluded`
/// module); `None` on an error: the state is then counted directly.
fn total_by_subtraction(split: &excluded::Split) -> Option<u128> {
    let mut total = count(&split.base).ok()?;
    for i in 0..split.files.len() {
        total = total.checked_sub(count(&split.fixed(i)).ok()?)?;
    }
    Some(total)
}

/// [`count_marginals`] of a state split by its case-file clauses; `None`
/// on an error: the state is then counted directly.
fn marginals_by_subtraction(split: &excluded::Split) -> Option<Counts> {
    excluded::subtract(count_marginals(&split.base).ok()?, &excluded_counts(split)?)
}

/// The base's counts with each excluded case file fixed, in the split's
/// order; `None` on an error.
fn excluded_counts(split: &excluded::Split) -> Option<Vec<Counts>> {
    (0..split.files.len()).map(|i| count_marginals(&split.fixed(i)).ok()).collect()
}

/// [`count_with_case_files`] of a state split by its case-file clauses
/// (the `excluded` module): the base's counts and list, less the excluded
/// case files. `None` where the split cannot answer (an error, or too many
/// case files to list in the base): the state is then counted directly.
fn by_subtraction(split: &excluded::Split) -> Option<(Counts, CaseFiles)> {
    let (base, files) = count_with_case_files(&split.base).ok()?;
    let files = files?;
    let minus = excluded_counts(split)?;
    let counts = excluded::subtract(base, &minus)?;
    // The list stays sorted with the excluded files left out.
    let mut kept = CaseFileList::new(split.base.categories.len());
    kept.reserve(files.len());
    for (cards, n) in files.iter() {
        match split.files.binary_search_by(|f| f.as_slice().cmp(cards)) {
            Ok(i) => debug_assert_eq!(n, minus[i].total, "an excluded case file's count"),
            Err(_) => kept.push(cards.iter().copied(), n),
        }
    }
    Some((counts, Some(kept)))
}

pub use case_file::case_files;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{try_generate, DeckChoice, GenConfig};
    use rand::SeedableRng;

    /// The counter as it was before clause-demand pruning and the new card
    /// order: the obvious DP, used as the reference.
    fn reference(p: &Problem) -> Result<Counts, CountError> {
        marginals_with(p, |p, r| {
            let cards = CardClasses::new(p, r);
            Ok(Plan::new(p, r, &cards, order::basic_order(r, &cards))?.without_demand())
        })
    }

    /// The plain card-outer DP (no pool) in the usual order: what the
    /// pooled plans and the other orders are compared with.
    fn plain_dp(p: &Problem) -> Result<Counts, CountError> {
        marginals_with(p, |p, r| {
            let cards = CardClasses::new(p, r);
            Plan::new(p, r, &cards, order::dp_order(r, &cards))
        })
    }

    /// Seeded generated games for the comparison tests: for each `(deck,
    /// players)` in `sizes`, both views, 0–40 suggestions and seeds
    /// `0..seeds` (some with accusations and a face-up card), generated from
    /// the RNG seed `seed_of(players, seed)`; calls `f(label, problem)` on
    /// each game the generator produces.
    fn for_each_generated(
        sizes: &[(DeckChoice, usize)],
        seeds: u64,
        seed_of: impl Fn(usize, u64) -> u64,
        f: impl FnMut(&str, &Problem),
    ) {
        let accusations = |seed: u64| if seed % 3 == 0 { 0.1 } else { 0.0 };
        for_each_generated_with(sizes, &[0, 5, 10, 20, 40], seeds, accusations, seed_of, f);
    }

    /// [`for_each_generated`] after each of `suggestions` suggestions,
    /// with the accusation rate `accusations(seed)`.
    fn for_each_generated_with(
        sizes: &[(DeckChoice, usize)],
        suggestions: &[usize],
        seeds: u64,
        accusations: impl Fn(u64) -> f64,
        seed_of: impl Fn(usize, u64) -> u64,
        mut f: impl FnMut(&str, &Problem),
    ) {
        for (deck, players) in sizes {
            let players = *players;
            for observer in [true, false] {
                for &suggestions in suggestions {
                    for seed in 0..seeds {
                        let cfg = GenConfig {
                            accusation_rate: accusations(seed),
                            face_up: (seed % 4 == 1) as usize,
                            ..GenConfig::new(deck.clone(), players, observer, suggestions)
                        };
                        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed_of(players, seed));
                        let Ok(generated) = try_generate(&cfg, &mut rng) else { continue };
                        let game = crate::Game::new(&generated.file).expect("generated games are valid");
                        let label = format!(
                            "{deck:?} {players} players, observer {observer}, {suggestions} suggestions, seed {seed}"
                        );
                        f(&label, &Problem::new(&game));
                    }
                }
            }
        }
    }

    /// The case-file distribution from the identifying DP against the
    /// earlier method (one count per combination of candidates, see
    /// `case_file::by_fixing`) on seeded classic, master and custom games of
    /// both views, with accusations and face-up cards: equal lists, in the
    /// same order. Also with the identifying plan pooled and not pooled
    /// whatever the size, and every case file's count summing to the total.
    #[test]
    fn case_files_match_one_count_per_combination() {
        let sizes = [
            (DeckChoice::Classic, 3),
            (DeckChoice::Classic, 6),
            (DeckChoice::Master, 6),
            (DeckChoice::Master, 8),
            (DeckChoice::Master, 10),
            (DeckChoice::Custom(vec![5, 4, 6]), 4),
            (DeckChoice::Custom(vec![3, 6, 2, 5]), 3),
            (DeckChoice::Custom(vec![2, 2]), 2),
            (DeckChoice::Custom(vec![3, 2, 3, 2, 2]), 3),
        ];
        let (mut compared, mut pooled, mut several) = (0, 0, 0);
        // Plain plans whose backward counts the sweep reads on u64, and
        // those too large for it (read on u128).
        let (mut narrow, mut wide) = (0, 0);
        for_each_generated(
            &sizes,
            8,
            |players, seed| 31_000 + 100 * players as u64 + seed,
            |label, p| {
                let counts = count_marginals(p).expect(label);
                let reference = case_file::by_fixing(p, &counts);
                let Ok(reference) = reference else {
                    assert_eq!(case_files(p, &counts), reference, "{label}: the same error");
                    return;
                };
                assert_eq!(case_files(p, &counts).expect(label), reference, "{label}");
                let (again, files) = count_with_case_files(p).expect(label);
                assert_eq!((again.total, &again.marginal), (counts.total, &counts.marginal), "{label}: counts");
                assert_eq!(files.as_ref(), Some(&reference), "{label}: with the counts");
                let sum = reference.iter().try_fold(0u128, |s, (_, n)| s.checked_add(n)).expect("fits");
                assert_eq!(sum, counts.total, "{label}: case files sum to the total");
                // The sweep and the identifying DP on plain and pooled
                // plans, whatever the size.
                let r = propagate(p).expect("consistent games propagate");
                let cards = CardClasses::new(p, &r);
                for symmetric in [false, true] {
                    let order = order::dp_order(&r, &cards);
                    let plan = Plan::new_identifying(p, &r, &cards, order.clone(), symmetric).expect(label);
                    pooled += usize::from(symmetric && plan.scale > 1);
                    let mut files = case_file::from_plan(p, &r, &cards, &plan).expect(label);
                    files.sort();
                    assert_eq!(files, reference, "{label}: identifying, symmetric {symmetric}");
                    let plan = usual_plan(p, &r, &cards, order, symmetric).expect(label);
                    if !symmetric && !plan.is_symmetric() && counts.total > 0 {
                        let fits = counts.total >> 64 == 0;
                        (narrow, wide) = (narrow + usize::from(fits), wide + usize::from(!fits));
                    }
                    let (_, files) = card_outer_files(p, &r, &plan, true).expect(label);
                    let mut files = files.expect("few case files");
                    files.sort();
                    assert_eq!(files, reference, "{label}: sweep, symmetric {symmetric}");
                }
                compared += 1;
                several += usize::from(reference.len() > 1);
            },
        );
        assert!(compared > 400, "only {compared} games compared");
        assert!(several * 2 > compared, "several case files on only {several} of {compared} games");
        assert!(pooled * 4 > compared, "pooled identifying plans on only {pooled} of {compared} games");
        assert!(narrow > 300 && wide > 20, "plain plans: {narrow} with totals on u64, {wide} beyond");
    }

    /// The card-outer DP refuses a state past the state limit, and only
    /// past it: with the limit at the states it visits it counts, one
    /// below it refuses (whichever layer crosses it, and wherever in the
    /// layer), and a small limit refuses at once.
    /// The progress hook hears every forward pass's layers: states visited
    /// so far, never past the limit. (Other tests' passes report too, so
    /// only what holds for every report is checked.)
    #[test]
    fn the_progress_hook_hears_the_layers() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static MOST: AtomicUsize = AtomicUsize::new(0);
        static PAST_LIMIT: AtomicUsize = AtomicUsize::new(0);
        set_progress_hook(|visited| {
            MOST.fetch_max(visited, Ordering::Relaxed);
            if visited > state_limit() + 4096 * MAX_PLACES {
                PAST_LIMIT.fetch_add(1, Ordering::Relaxed);
            }
        });
        let cfg = GenConfig::new(DeckChoice::Master, 6, true, 10);
        let generated = try_generate(&cfg, &mut rand_chacha::ChaCha8Rng::seed_from_u64(3)).expect("generates");
        let p = Problem::new(&crate::Game::new(&generated.file).expect("valid"));
        let counts = count_marginals_by(&p, Counter::CardOuter).expect("counts").expect("card-outer");
        assert!(MOST.load(Ordering::Relaxed) >= counts.states, "{} < {}", MOST.load(Ordering::Relaxed), counts.states);
        assert_eq!(PAST_LIMIT.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn the_default_state_limit_follows_the_memory_available() {
        let gb = 1_000_000_000u64;
        assert_eq!(limit_for_memory(None), MAX_STATES);
        assert_eq!(limit_for_memory(Some(0)), MIN_STATES);
        assert_eq!(limit_for_memory(Some(gb)), MIN_STATES);
        assert_eq!(limit_for_memory(Some(10 * gb)), (10 * gb / 2 / BYTES_PER_STATE) as usize);
        assert_eq!(limit_for_memory(Some(100 * gb)), MAX_STATES);
        assert_eq!(limit_for_memory(Some(u64::MAX)), MAX_STATES);
        assert!((MIN_STATES..=MAX_STATES).contains(&default_state_limit()));
    }

    #[test]
    fn the_state_limit_refuses_exactly_past_it() {
        let mut checked = 0;
        for seed in 0..6 {
            let cfg = GenConfig::new(DeckChoice::Master, 10, false, 10);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5_500 + seed);
            let Ok(generated) = try_generate(&cfg, &mut rng) else { continue };
            let p = Problem::new(&crate::Game::new(&generated.file).expect("valid"));
            let counts = count_marginals_by(&p, Counter::CardOuter).expect("counts").expect("card-outer");
            let with_limit = |limit: usize| {
                STATE_LIMIT.with(|l| l.set(Some(limit)));
                let found = count_marginals_by(&p, Counter::CardOuter).map(|c| c.map(|c| c.total));
                STATE_LIMIT.with(|l| l.set(None));
                found
            };
            assert_eq!(with_limit(counts.states), Ok(Some(counts.total)), "seed {seed}");
            assert_eq!(with_limit(counts.states - 1), Err(CountError::TooManyStates(counts.states - 1)), "seed {seed}");
            assert_eq!(with_limit(10), Err(CountError::TooManyStates(10)), "seed {seed}");
            checked += usize::from(counts.states > 5_000);
        }
        assert!(checked >= 3, "only {checked} states past 5,000 DP states");
    }

    /// Wrong accusations counted by subtraction (`excluded`) against the
    /// same states counted directly, their clauses in the DP: equal totals,
    /// marginals and case-file lists, on seeded games of three to five
    /// categories, both views, where every suggestion is followed by an
    /// accusation half the time. (The brute-force tests check both ways on
    /// small decks, through `Analysis`.)
    #[test]
    fn wrong_accusations_by_subtraction_match_the_direct_count() {
        let sizes = [
            (DeckChoice::Classic, 3),
            (DeckChoice::Classic, 6),
            (DeckChoice::Master, 4),
            (DeckChoice::Master, 10),
            (DeckChoice::Custom(vec![4, 5, 3]), 3),
            (DeckChoice::Custom(vec![3, 3, 2, 3]), 3),
            (DeckChoice::Custom(vec![2, 3, 2, 2, 3]), 4),
        ];
        let (mut compared, mut excluded, mut removed) = (0, 0, 0);
        for_each_generated_with(
            &sizes,
            &[3, 8, 15, 25],
            6,
            |_| 0.5,
            |players, seed| 83_000 + 100 * players as u64 + seed,
            |label, p| {
                let Some(split) = excluded::split(p) else { return };
                let Some(r) = propagate(p) else { return };
                let (direct, files) = chosen(p, &r, true).expect(label);
                let (counts, listed) = count_with_case_files(p).expect(label);
                assert_eq!((counts.total, &counts.marginal), (direct.total, &direct.marginal), "{label}");
                let marginals = count_marginals(p).expect(label);
                assert_eq!((marginals.total, &marginals.marginal), (direct.total, &direct.marginal), "{label}");
                assert_eq!(count(p).expect(label), direct.total, "{label}: total");
                let (direct_files, listed) = (sorted(files), sorted(listed));
                assert_eq!(listed, direct_files, "{label}: case files");
                // Where an accused file was possible without the
                // accusations, the subtraction did something (in about
                // 40 % of these games; the others accuse files already
                // ruled out).
                let base = sorted(count_with_case_files(&split.base).expect(label).1);
                removed += usize::from(base.len() > listed.len());
                excluded += split.files.len();
                compared += 1;
            },
        );
        assert!(compared > 250, "only {compared} games with wrong accusations");
        assert!(excluded > 2 * compared, "{excluded} accused files in {compared} games");
        assert!(removed * 3 > compared, "case files removed in only {removed} of {compared} games");
    }

    /// The sweeps for any number of open categories (`case_sweep::many`)
    /// against those tuned for up to three, on plain and pooled plans of
    /// seeded classic, master and custom games of both views, split where
    /// they choose and at every place: equal case files. (On four or more, `case_files_match_one_count_per_combination`
    /// checks them against one count per combination.)
    #[test]
    fn general_case_sweeps_match_the_tuned_ones() {
        let sizes = [
            (DeckChoice::Classic, 4),
            (DeckChoice::Master, 3),
            (DeckChoice::Master, 6),
            (DeckChoice::Master, 10),
            (DeckChoice::Custom(vec![5, 4, 6]), 4),
            (DeckChoice::Custom(vec![4, 4]), 3),
            (DeckChoice::Custom(vec![7]), 2),
        ];
        let (mut compared, mut by_open, mut wide) = (0, [0usize; 4], 0);
        for_each_generated(
            &sizes,
            6,
            |players, seed| 47_000 + 100 * players as u64 + seed,
            |label, p| {
                let Some(r) = propagate(p) else { return };
                let cards = CardClasses::new(p, &r);
                for symmetric in [false, true] {
                    let plan = usual_plan(p, &r, &cards, order::dp_order(&r, &cards), symmetric).expect(label);
                    let files = |general: Option<usize>| {
                        case_sweep::GENERAL.with(|g| g.set(general));
                        let (counts, files) = card_outer_files(p, &r, &plan, true).expect(label);
                        case_sweep::GENERAL.with(|g| g.set(None));
                        (counts.total, files.map(|f| sorted(Some(f))))
                    };
                    let (total, expected) = files(None);
                    // Split where the sweeps choose, and after 0, 1 or 2
                    // case cards.
                    for split in [usize::MAX, 0, 1, 2] {
                        let at = format!("{label}, symmetric {symmetric}, split {split}");
                        assert_eq!(files(Some(split)).1, expected, "{at}");
                    }
                    // The sweeps run on u128 past u64 (scaled totals).
                    wide += usize::from((total * plan.scale) >> 64 != 0);
                    compared += 1;
                    by_open[plan.open_cats().len().min(3)] += 1;
                }
            },
        );
        assert!(compared > 500, "only {compared} plans compared");
        assert!(by_open.iter().all(|&n| n > 20), "plans by open categories: {by_open:?}");
        assert!(wide > 10, "only {wide} plans with totals past u64");
    }

    /// The pruned, reordered DP against the reference on seeded random
    /// classic and master games of every size the benchmark uses (not only
    /// tiny ones): totals and every marginal must be equal, and pruning
    /// must never visit more states. Some of the games take the in-flight
    /// order without pooling players ([`plain_order`]).
    #[test]
    fn pruned_counter_matches_the_reference_on_random_classic_and_master_games() {
        let sizes: Vec<(DeckChoice, usize)> =
            (3..=6).map(|n| (DeckChoice::Classic, n)).chain([6, 8, 10].map(|n| (DeckChoice::Master, n))).collect();
        let (mut compared, mut fewer, mut inflight) = (0, 0, 0);
        for_each_generated(
            &sizes,
            6,
            |players, seed| 1000 * players as u64 + seed,
            |label, p| {
                let (new, old) = (count_marginals(p).expect(label), reference(p).expect(label));
                assert_eq!(new.total, old.total, "{label}: total");
                assert_eq!(new.marginal, old.marginal, "{label}: marginals");
                assert!(new.total > 0, "{label}: generated histories are consistent");
                compared += 1;
                fewer += usize::from(new.states < old.states);
                if let Some(r) = propagate(p) {
                    let cards = CardClasses::new(p, &r);
                    let (order, pooled) = choose_order(p, &r, &cards);
                    inflight += usize::from(!pooled && order != order::dp_order(&r, &cards));
                }
            },
        );
        assert!(compared > 300, "only {compared} games compared");
        assert!(inflight > 0, "no game took the in-flight order without pooling");
        assert!(fewer > compared / 4, "pruning visited fewer states on only {fewer} of {compared} games");
    }

    /// The symmetric card-outer DP (free players pooled, their marginals
    /// from `sym::free_marginals`) against the same DP without
    /// symmetry, on seeded games of every size: equal totals and marginals of
    /// every card at every place; and symmetry must occur on many of them.
    #[test]
    fn symmetric_dp_matches_the_plain_dp() {
        let sizes = [
            (DeckChoice::Classic, 3),
            (DeckChoice::Classic, 5),
            (DeckChoice::Master, 6),
            (DeckChoice::Master, 8),
            (DeckChoice::Master, 10),
            // Uneven hands, and four case-file categories.
            (DeckChoice::Custom(vec![5, 4, 6]), 4),
            (DeckChoice::Custom(vec![3, 6, 2, 5]), 3),
        ];
        let (mut compared, mut fewer) = (0, 0);
        for_each_generated(
            &sizes,
            5,
            |players, seed| 9000 + 100 * players as u64 + seed,
            |label, p| {
                let plain = plain_dp(p).expect(label);
                // Symmetric whatever the size (`plan` uses it on large games only).
                let sym = marginals_with(p, |p, r| {
                    let cards = CardClasses::new(p, r);
                    Plan::new_symmetric(p, r, &cards, order::dp_order(r, &cards))
                })
                .expect(label);
                assert_eq!(sym.total, plain.total, "{label}: total");
                assert_eq!(sym.marginal, plain.marginal, "{label}: marginals");
                compared += 1;
                fewer += usize::from(sym.states < plain.states);
            },
        );
        assert!(compared > 150, "only {compared} games compared");
        assert!(fewer * 4 > compared, "symmetry saved states on only {fewer} of {compared} games");
    }

    /// The DP in the order that frees players early, the wide-first, the
    /// frontier and the in-flight orders (symmetric, whatever the size) against the
    /// plain DP in the usual order, on seeded classic and master games:
    /// equal totals and marginals of every card at every place; each order
    /// a permutation of the DP cards, differing from the usual one on many
    /// games.
    #[test]
    fn freeing_order_matches_the_plain_dp() {
        let sizes = [
            (DeckChoice::Classic, 3),
            (DeckChoice::Classic, 6),
            (DeckChoice::Master, 6),
            (DeckChoice::Master, 8),
            (DeckChoice::Master, 10),
        ];
        let (mut compared, differ) = (0, [(); 4].map(|_| std::cell::Cell::new(0)));
        for_each_generated(
            &sizes,
            5,
            |players, seed| 5000 + 100 * players as u64 + seed,
            |label, p| {
                let plain = plain_dp(p).expect(label);
                for (i, name) in ["freeing", "wide", "frontier", "inflight"].into_iter().enumerate() {
                    let other = marginals_with(p, |p, r| {
                        let cards = CardClasses::new(p, r);
                        let order = order::named(name, r, &cards, p.np).expect("a known order");
                        let mut sorted = order.clone();
                        sorted.sort_unstable();
                        let dp: Vec<u8> = cards.dp.iter().map(|c| c.index() as u8).collect();
                        assert_eq!(sorted, dp, "{label}: the {name} order has every DP card once");
                        differ[i].set(differ[i].get() + usize::from(order != order::dp_order(r, &cards)));
                        Plan::new_symmetric(p, r, &cards, order)
                    })
                    .expect(label);
                    assert_eq!(other.total, plain.total, "{label}: {name} order: total");
                    assert_eq!(other.marginal, plain.marginal, "{label}: {name} order: marginals");
                }
                compared += 1;
            },
        );
        assert!(compared > 150, "only {compared} games compared");
        for (differ, name) in differ.iter().zip(["freeing", "wide", "frontier", "inflight"]) {
            let differ = differ.get();
            assert!(differ * 4 > compared, "the {name} order differs on only {differ} of {compared} games");
        }
    }

    /// Pooled counts are scaled by a product of factorials of rooms, so on
    /// custom decks with large hands the scale, or a scaled count, can
    /// overflow where the true counts fit: the count then falls back to the
    /// plain DP and must still be exact. Two decks, one for each case
    /// (checked below: the pooled plan fails there), compared with the plain
    /// DP.
    #[test]
    fn pooled_counts_that_overflow_fall_back_to_the_plain_dp() {
        let mut fell_back = [0, 0];
        for (case, (deck, players)) in [(vec![13, 13, 13], 6), (vec![22, 21, 21], 4)].into_iter().enumerate() {
            for seed in 0..6u64 {
                let cfg = GenConfig::new(DeckChoice::Custom(deck.clone()), players, false, 4 + seed as usize);
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                let generated = try_generate(&cfg, &mut rng).expect("generates");
                let game = crate::Game::new(&generated.file).expect("generated games are valid");
                let p = Problem::new(&game);
                let label = format!("deck {deck:?}, {players} players, seed {seed}");
                let r = propagate(&p).expect("generated games are consistent");
                let cards = CardClasses::new(&p, &r);
                let scaled = Plan::new_symmetric(&p, &r, &cards, order::dp_order(&r, &cards))
                    .and_then(|plan| card_outer_files(&p, &r, &plan, false).map(|_| ()));
                if scaled == Err(CountError::Overflow) {
                    fell_back[case] += 1;
                }
                let plain = plain_dp(&p).expect(&label);
                let counted = count_marginals(&p).expect(&label);
                assert_eq!(counted.total, plain.total, "{label}: total");
                assert_eq!(counted.marginal, plain.marginal, "{label}: marginals");
                assert_eq!(count(&p).expect(&label), plain.total, "{label}: count");
            }
        }
        assert!(fell_back.iter().all(|&n| n > 0), "the pooled plan overflowed on too few games: {fell_back:?}");
    }

    /// The profiling entry point gives the same counts with either counter
    /// (on states where both are worth running and the choice matters).
    #[test]
    fn every_counter_of_count_marginals_by_agrees() {
        for (observer, suggestions) in [(false, 10), (true, 10), (false, 20)] {
            for seed in 0..3u64 {
                let cfg = GenConfig::new(DeckChoice::Master, 10, observer, suggestions);
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                let generated = try_generate(&cfg, &mut rng).expect("generates");
                let game = crate::Game::new(&generated.file).expect("generated games are valid");
                let p = Problem::new(&game);
                let label = format!("observer {observer}, {suggestions} suggestions, seed {seed}");
                let auto = count_marginals(&p).expect(&label);
                for counter in [
                    Counter::Auto,
                    Counter::CardOuter,
                    Counter::CardOuterUsual,
                    Counter::CardOuterFreeing,
                    Counter::PlayersOuter,
                ] {
                    let Some(c) = count_marginals_by(&p, counter).expect(&label) else { continue };
                    assert_eq!((c.total, &c.marginal), (auto.total, &auto.marginal), "{label}: {counter:?}");
                }
            }
        }
    }

    /// A forward pass whose counts outgrow `u64` goes on from that step on
    /// `u128`: its layers (narrow before, wide after) and edges equal those
    /// of a pass on `u128` throughout, and the analysis the plain DP's
    /// counts. Pooled master 10-player bystander states after 10
    /// suggestions, where a few of every hundred outgrow it.
    #[test]
    fn forward_counts_widen_where_they_outgrow_u64() {
        let cfg = GenConfig::new(DeckChoice::Master, 10, false, 10);
        let mut widened = 0;
        for seed in 0..200u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let generated = try_generate(&cfg, &mut rng).expect("generates");
            let p = Problem::new(&crate::Game::new(&generated.file).expect("generated games are valid"));
            let Some(r) = propagate(&p) else { continue };
            let plan = plan(&p, &r).expect("plans");
            let fwd = dp::forward_with_placed(&plan).expect("counts");
            let wide = |c: &arith::Column| matches!(c, arith::Column::Wide(_));
            if !fwd.layers.iter().any(|l| wide(&l.counts)) {
                continue;
            }
            widened += 1;
            let first_wide = fwd.layers.iter().position(|l| wide(&l.counts)).expect("one is wide");
            assert!(fwd.layers[first_wide..].iter().all(|l| wide(&l.counts)), "seed {seed}: wide from one step on");
            let reference = dp::forward_wide(&plan).expect("counts");
            assert_eq!(fwd.states, reference.states, "seed {seed}");
            assert_eq!(fwd.placed, reference.placed, "seed {seed}");
            for (t, (a, b)) in fwd.layers.iter().zip(&reference.layers).enumerate() {
                assert!(a.counts.iter().eq(b.counts.iter()), "seed {seed}: layer {t}'s counts");
            }
            for (t, (a, b)) in fwd.succ.iter().zip(&reference.succ).enumerate() {
                for i in 0..fwd.layers[t].counts.len() {
                    assert_eq!(a.slice(i), b.slice(i), "seed {seed}: step {t}, state {i}");
                }
            }
            let plain = plain_dp(&p).expect("counts");
            let (counted, _) = count_with_case_files(&p).expect("counts");
            assert_eq!((counted.total, &counted.marginal), (plain.total, &plain.marginal), "seed {seed}");
        }
        assert!(widened > 0, "no state outgrew u64: the widening went untested");
    }

    /// A forward pass paused at a state budget and resumed is the pass
    /// run at once (layers, edges, placed categories, and the analysis
    /// after it), paused anywhere, before or after its counts widen; and
    /// the counter choice gives the card-outer DP's answer on each of its
    /// branches: the trial ends, the players-outer counter ends, or it
    /// gives up and the paused DP resumes.
    #[test]
    fn a_paused_forward_pass_resumes_to_the_same_answer() {
        let (mut paused, mut widened, mut candidates) = (0, 0, 0);
        // Bystander 10 states past seed 12 only where the counts widen.
        for (observer, suggestions, seeds) in [(false, 10, 200), (true, 20, 40)] {
            for seed in 0..seeds {
                let cfg = GenConfig::new(DeckChoice::Master, 10, observer, suggestions);
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                let generated = try_generate(&cfg, &mut rng).expect("generates");
                let p = Problem::new(&crate::Game::new(&generated.file).expect("generated games are valid"));
                let label = format!("observer {observer}, {suggestions} suggestions, seed {seed}");
                let Some(r) = propagate(&p) else { continue };
                let plan = plan(&p, &r).expect("plans");
                let whole = dp::forward_with_placed(&plan).expect("counts");
                let wide = whole.layers.iter().any(|l| matches!(l.counts, arith::Column::Wide(_)));
                if !observer && seed >= 12 && !wide {
                    continue;
                }
                let expected = card_outer_files(&p, &r, &plan, true).expect("counts");
                for budget in [0, whole.states / 3, 2 * whole.states / 3, whole.states] {
                    let fwd = match dp::forward_within(&plan, true, budget).expect("counts") {
                        dp::Budgeted::Done(fwd) => fwd,
                        dp::Budgeted::Paused(pause) => {
                            paused += 1;
                            dp::resume(&plan, true, pause).expect("counts")
                        }
                    };
                    assert_eq!(fwd.placed, whole.placed, "{label}, budget {budget}");
                    assert_same_pass(&fwd, &whole, &format!("{label}, budget {budget}"));
                    widened += usize::from(wide);
                    let (counts, files) = card_outer_passed(&p, &r, &plan, true, fwd).expect("counts");
                    assert_eq!((counts.total, &counts.marginal), (expected.0.total, &expected.0.marginal), "{label}");
                    assert_eq!(sorted(files), sorted(expected.1.clone()), "{label}, budget {budget}");
                }
                let cards = CardClasses::new(&p, &r);
                let base = BaseOrders::if_symmetric(&p, &r, &cards);
                candidates += usize::from(players_outer_candidate(&p, &r, &cards, base.as_ref()).is_some());
                // Whole trial, no trial with the players-outer counter, no
                // trial with it giving up at once, a short trial that
                // always goes on once paused.
                let trials =
                    [(1e9, 0.0, PLAYERS_MAX_MOVES), (0.0, 0.0, PLAYERS_MAX_MOVES), (0.0, 0.0, 0), (1e-3, 1e12, 0)];
                for (share, projected, max_moves) in trials {
                    let trial = Trial { share, projected };
                    let (counts, files) = chosen_within(&p, &r, true, trial, max_moves).expect("counts");
                    let at = format!("{label}, {trial:?}, {max_moves} moves");
                    assert_eq!((counts.total, &counts.marginal), (expected.0.total, &expected.0.marginal), "{at}");
                    assert_eq!(sorted(files), sorted(expected.1.clone()), "{at}");
                }
            }
        }
        assert!(
            paused > 100 && widened > 0 && candidates > 8,
            "paused {paused}, widened {widened}, candidates {candidates}"
        );
    }

    /// A demand check repeated from the step before is run only where a move
    /// changes its bits: the forward pass keeps exactly the states and
    /// edges it keeps running every check everywhere, on seeded classic,
    /// master and custom games of both views (pruning is sound either way,
    /// so only the states can differ).
    #[test]
    fn repeated_demand_checks_prune_the_same_states() {
        let sizes = [
            (DeckChoice::Classic, 3),
            (DeckChoice::Classic, 6),
            (DeckChoice::Master, 3),
            (DeckChoice::Master, 5),
            (DeckChoice::Master, 8),
            (DeckChoice::Master, 10),
            (DeckChoice::Custom(vec![5, 4, 6]), 4),
        ];
        let (mut compared, mut skipped) = (0, 0);
        for_each_generated(
            &sizes,
            12,
            |players, seed| 47_000 + 100 * players as u64 + seed,
            |label, p| {
                let Some(r) = propagate(p) else { return };
                let Ok(fast_plan) = plan(p, &r) else { return };
                skipped += fast_plan
                    .steps
                    .iter()
                    .map(|s| (!s.fresh & ((1u64 << s.demand.len()) - 1) as u32).count_ones())
                    .sum::<u32>();
                let Ok(fast) = dp::forward(&fast_plan, true) else { return };
                let every = dp::forward(&plan(p, &r).expect(label).every_check_fresh(), true).expect(label);
                assert_same_pass(&fast, &every, label);
                compared += 1;
            },
        );
        assert!(compared > 800 && skipped > 5000, "compared {compared}, repeated checks {skipped}");
    }

    /// Two forward passes keep the same states: as many, with the same
    /// counts layer by layer and the same edges out of every state.
    fn assert_same_pass(a: &dp::Forward, b: &dp::Forward, at: &str) {
        assert_eq!((a.states, a.layers.len(), a.succ.len()), (b.states, b.layers.len(), b.succ.len()), "{at}");
        for (t, (x, y)) in a.layers.iter().zip(&b.layers).enumerate() {
            assert!(x.counts.iter().eq(y.counts.iter()), "{at}: layer {t}");
        }
        for (t, (x, y)) in a.succ.iter().zip(&b.succ).enumerate() {
            for i in 0..a.layers[t].counts.len() {
                assert_eq!(x.slice(i), y.slice(i), "{at}: edges of state {i} at step {t}");
            }
        }
    }

    /// The card-outer plan in `order`, pooled where `symmetric` (and the
    /// state allows it).
    fn usual_plan(
        p: &Problem,
        r: &Reduced,
        cards: &CardClasses,
        order: Vec<u8>,
        symmetric: bool,
    ) -> Result<Plan, CountError> {
        if symmetric {
            Plan::new_symmetric(p, r, cards, order)
        } else {
            Plan::new(p, r, cards, order)
        }
    }

    /// Pooled plans give the same counts and case files with their
    /// weights on `u64` (where they fit: the backward pass and the case
    /// sweeps) as on `u128`.
    #[test]
    fn weights_on_u64_count_as_on_u128() {
        let sizes = [(DeckChoice::Master, 6), (DeckChoice::Master, 8), (DeckChoice::Master, 10)];
        let mut compared = 0;
        for_each_generated(
            &sizes,
            6,
            |players, seed| 53_000 + 100 * players as u64 + seed,
            |label, p| {
                let Some(r) = propagate(p) else { return };
                let cards = CardClasses::new(p, &r);
                let Ok(plan) = usual_plan(p, &r, &cards, order::freeing_order(&r, &cards, p.np), true) else {
                    return;
                };
                if !plan.weights64 || plan.scale == 1 {
                    return;
                }
                let (counts, files) = card_outer_files(p, &r, &plan, true).expect(label);
                let (wide, wide_files) = card_outer_files(p, &r, &plan.with_u128_weights(), true).expect(label);
                assert_eq!((counts.total, &counts.marginal), (wide.total, &wide.marginal), "{label}");
                assert_eq!(sorted(files), sorted(wide_files), "{label}: case files");
                compared += 1;
            },
        );
        assert!(compared > 150, "only {compared} pooled plans compared");
    }

    /// A list of case files in one order, to compare.
    fn sorted(files: CaseFiles) -> Vec<(Vec<crate::model::Card>, u128)> {
        let mut files = files.expect("the case files are listed");
        files.sort();
        files.iter().map(|(cards, n)| (cards.to_vec(), n)).collect()
    }

    /// The players-outer counter against the reference DP on every seeded
    /// game it handles (no estimate limit, a large move budget): equal
    /// totals and marginals of every card; and it handles most of them.
    #[test]
    fn players_outer_counter_matches_the_reference() {
        let sizes =
            [(DeckChoice::Classic, 3), (DeckChoice::Classic, 6), (DeckChoice::Master, 6), (DeckChoice::Master, 10)];
        let (mut compared, mut handled, mut wide) = (0, 0, 0);
        for_each_generated(
            &sizes,
            8,
            |players, seed| 7000 + 100 * players as u64 + seed,
            |label, p| {
                let old = reference(p).expect(label);
                compared += 1;
                let Some(r) = propagate(p) else {
                    assert_eq!(old.total, 0, "{label}");
                    return;
                };
                let Some(pp) = players::prepare(p, &r) else { return };
                let Some((total, m, _, _)) = players::marginals(&pp, 5_000_000).expect(label) else { return };
                assert_eq!(total, old.total, "{label}: total");
                for c in r.unassigned(p) {
                    assert_eq!(m[c.index()], old.marginal[c.index()], "{label}: card {}", c.index());
                }
                handled += 1;
                wide += usize::from(total > u128::from(u64::MAX));
            },
        );
        assert!(handled * 10 > compared * 7, "handled {handled} of {compared}");
        // Both widths of its passes are compared: totals past 64 bits take
        // the `u128` ones.
        assert!(wide > 0 && wide < handled, "{wide} of {handled} totals past 64 bits");
    }
}
