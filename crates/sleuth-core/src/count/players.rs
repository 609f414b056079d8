//! A players-outer counter, used for states where it is estimated cheap
//! (see [`super::count_marginals`] and BENCHMARKS.md's git history, issue 2).
//!
//! The card-outer DP of [`super::dp`] keeps every player's remaining room in
//! its state, so master 10-player states reach a million states. This one
//! deals the case file first and then one player's whole hand at a time. A
//! card is *special* while some player still to come may not hold it or has
//! a clause mentioning it; the other cards left are interchangeable for
//! every player still to come, so only their number is kept. State: the set
//! of special cards not dealt yet and the number of other cards not dealt
//! yet. A player takes a set of special cards it may hold (hitting each of
//! its clauses) and the rest of its hand from the interchangeable ones, in
//! `C(n, j)` ways. The players are taken in the order that minimises an
//! upper bound on the moves (a dynamic program over the sets of players
//! done, see [`best_order`]): up to 68× fewer moves than the earlier greedy
//! order on some states, about half on average (BENCHMARKS.md's git history).
//!
//! Marginals: a special card's at a player come from the moves that take
//! it (forward count × ways × backward count). The case file's come from
//! the enumerated case files. An interchangeable card's: when it joins the
//! interchangeable ones (at a known layer), the forward pass records per
//! state the partial deals with it not dealt yet; the backward pass
//! computes, per state and later player `x`, the completions with one given
//! interchangeable card not dealt yet at `x` (the same for all of them), and
//! the two are multiplied at the joining layer.
//!
//! Only problems whose clauses all say "player p holds one of these cards"
//! are handled (every bystander state, and observer states without
//! accusations); otherwise `None`.

use super::arith::{mul, Word, BINOMIAL};
use super::demand::single_player;
use super::CountError;
use crate::deduce::{CountProblem, Reduced};
use crate::model::{Card, MAX_CARDS, MAX_PLACES};
use rustc_hash::FxHashMap;

/// The special cards a player may take: every subset of `avail` with at
/// most `left` more cards than `cur` (of `size` cards), at least `min` cards
/// in all, that meets every clause, each once. The first unmet clause is
/// met first, by each of its cards in turn as the lowest of it taken; the
/// cards below it are then out of that branch, so no subset comes twice,
/// and a branch ends as soon as some clause has no card left to meet it
/// (the clause with fewest cards first cost more than it saved).
/// Generating every small subset and filtering took a fifth of this
/// counter's instructions on master 10-player bystander states. Sizes are
/// passed down, not counted: the portable build has no `popcnt`
/// instruction, and counting cost a third of the search.
fn hitting_subsets(avail: u64, cur: u64, size: u32, left: u32, min: u32, clauses: &[u64], out: &mut Vec<(u64, u32)>) {
    if size + left < min {
        return;
    }
    let mut pick: Option<u64> = None;
    for &cl in clauses {
        if cl & cur == 0 {
            let choices = cl & avail;
            if left == 0 || choices == 0 {
                return;
            }
            pick = pick.or(Some(choices));
        }
    }
    let Some(choices) = pick else { return small_subsets(avail, cur, size, left, min, out) };
    let (mut rest, mut avail) = (choices, avail);
    while rest != 0 {
        let bit = rest & rest.wrapping_neg();
        rest &= rest - 1;
        avail &= !bit;
        hitting_subsets(avail, cur | bit, size + 1, left - 1, min, clauses, out);
    }
}

/// Every subset of `avail` with at most `left` more cards than `cur` (of
/// `size` cards) and at least `min` cards in all, each once (cards taken in
/// increasing order), with their sizes.
fn small_subsets(avail: u64, cur: u64, size: u32, left: u32, min: u32, out: &mut Vec<(u64, u32)>) {
    if size >= min {
        out.push((cur, size));
    } else if size + left.min(avail.count_ones()) < min {
        return;
    }
    if left == 0 {
        return;
    }
    let mut rest = avail;
    while rest != 0 {
        let bit = rest & rest.wrapping_neg();
        rest &= rest - 1;
        small_subsets(rest, cur | bit, size + 1, left - 1, min, out);
    }
}

impl Prepared {
    /// A static cost estimate: an upper bound on the moves of each stage,
    /// summed (see [`best_order`]).
    pub(super) fn estimate(&self) -> f64 {
        self.estimate
    }
}

/// What the player order depends on.
struct OrderInput<'a> {
    /// Players with room (bitmask).
    active: u16,
    hands: &'a [u32],
    /// Per player, the cards it may hold.
    holds: &'a [u64],
    /// Per player, the cards special while it is still to come.
    marks: &'a [u64],
    /// Cards the case file may hold.
    case_ok: u64,
    /// Case-file categories still open.
    open_cats: u32,
}

/// `t[n][k] = sum_{j <= k} C(n, j)` as floats, for `n, k <= max`.
fn subsets_table(max: u32) -> Vec<Vec<f64>> {
    let max = max as usize;
    (0..=max)
        .map(|n| {
            let mut row = Vec::with_capacity(max + 1);
            let mut sum = 0.0;
            for k in 0..=max {
                if k <= n {
                    sum += BINOMIAL[n][k] as f64;
                }
                row.push(sum);
            }
            row
        })
        .collect()
}

/// The player order with the smallest estimated cost, and that cost. The
/// estimate of a stage is (states before it) × (moves per state): states
/// are bounded by the subsets of the special cards that the places already
/// dealt may hold, with at most as many cards as they took; moves by the
/// subsets of the player's allowed special cards up to its hand size. Both
/// depend only on which players are done, so the best order under this
/// estimate is a dynamic program over the 2^players sets of players done.
fn best_order(input: &OrderInput) -> (Vec<usize>, f64) {
    let active = input.active;
    let np = input.hands.len();
    let full = 1usize << np;
    // Per set of players, built from the set without its lowest player: the
    // special cards while they are to come; the cards they may hold and
    // how many they take once done.
    let (mut special, mut reach, mut dealt) =
        (vec![0u64; full], vec![input.case_ok; full], vec![input.open_cats; full]);
    for set in 1..full {
        let (low, rest) = (set.trailing_zeros() as usize, set & (set - 1));
        special[set] = special[rest] | input.marks[low];
        reach[set] = reach[rest] | input.holds[low];
        dealt[set] = dealt[rest] + input.hands[low];
    }
    let cards = input.holds.iter().fold(input.case_ok, |m, &h| m | h).count_ones().max(dealt[full - 1]);
    let up_to = subsets_table(cards);
    // best[done]: cheapest cost to deal the players in `done` (a subset of active).
    let mut best = vec![f64::INFINITY; full];
    let mut choice = vec![usize::MAX; full];
    best[0] = 0.0;
    for done in 0..full {
        if done as u16 & !active != 0 || best[done].is_infinite() {
            continue;
        }
        let rest = usize::from(active) & !done;
        let spec = special[rest];
        let states = up_to[(spec & reach[done]).count_ones() as usize][dealt[done] as usize];
        for a in (0..np).filter(|&a| rest >> a & 1 == 1) {
            let moves = up_to[(spec & input.holds[a]).count_ones() as usize][input.hands[a] as usize];
            let cost = best[done] + states * moves;
            let next = done | 1 << a;
            if cost < best[next] {
                best[next] = cost;
                choice[next] = a;
            }
        }
    }
    let mut order = Vec::new();
    let mut done = usize::from(active);
    while done != 0 {
        let a = choice[done];
        order.push(a);
        done &= !(1 << a);
    }
    order.reverse();
    (order, best[usize::from(active)])
}

/// One player's turn in the players-outer order.
struct Stage {
    player: usize,
    hand: u32,
    /// Cards the player may hold.
    allowed: u64,
    /// Cards special after this player (for the players after it).
    special: u64,
    /// Cards some later player may hold.
    live: u64,
    /// The player's clauses (card sets).
    clauses: Vec<u64>,
}

type Key = (u64, u8);

/// The total, `marginal[card][place]`, the number of states, and the
/// count of every case file (its cards as a bitmask, the categories
/// decided by propagation left out) that has deals.
pub(super) type Marginals = (u128, Vec<[u128; MAX_PLACES]>, usize, FileCounts);

/// Case files (card bitmasks) with their numbers of deals.
pub(super) type FileCounts = Vec<(u64, u128)>;

/// One stage's moves: the special cards each takes, how many
/// interchangeable ones (the rest of the hand: kept, as counting bits costs
/// more than a byte here), and the state it leads to; and where each
/// state's moves start. Kept apart rather than as tuples: 13 bytes a move
/// instead of 24, and the moves are most of this counter's memory.
#[derive(Default)]
struct Links {
    taken: Vec<u64>,
    rest: Vec<u8>,
    to: Vec<u32>,
    starts: Vec<u32>,
}

/// One layer of the forward pass, its counts on `C` (`u64` or `u128`).
#[derive(Default)]
struct Layer<C> {
    keys: Vec<Key>,
    counts: Vec<C>,
    /// By special cards left only: within a layer the cards not dealt yet
    /// are as many in every state, so they determine the number of
    /// interchangeable ones (and hashing one `u64` is cheaper).
    index: FxHashMap<u64, u32>,
}

impl<C: Word> Layer<C> {
    fn slot(&mut self, key: Key) -> usize {
        let next = self.keys.len() as u32;
        let i = *self.index.entry(key.0).or_insert(next);
        if i == next {
            self.keys.push(key);
            self.counts.push(C::ZERO);
        }
        debug_assert_eq!(self.keys[i as usize], key, "one state per set of special cards left");
        i as usize
    }

    /// The end, every card dealt, in the final layer; `None` if no deal reaches it.
    fn end(&self) -> Option<usize> {
        self.index.get(&0).map(|&i| i as usize).filter(|&i| self.keys[i].1 == 0)
    }
}

/// The compiled players-outer problem.
pub(super) struct Prepared {
    np: usize,
    /// Every case file (card bitmask).
    files: Vec<u64>,
    /// Cards special before the first player.
    special0: u64,
    all: u64,
    stages: Vec<Stage>,
    /// The cost estimate of the chosen player order (see [`best_order`]).
    estimate: f64,
}

/// The most case files enumerated one by one.
const MAX_FILES: usize = 20_000;

/// The players-outer problem, or `None` if some clause is not a single
/// player's positive clause or there are too many case files.
#[cfg(any(test, feature = "testing"))]
pub(super) fn prepare(p: &CountProblem, r: &Reduced) -> Option<Prepared> {
    prepare_watching(p, r, 0)
}

/// [`prepare`] with the `watched` cards (a bitmask) kept special until
/// they are dealt, so that every move says which of them its player takes
/// (see [`by_class`]).
pub(super) fn prepare_watching(p: &CountProblem, r: &Reduced, watched: u64) -> Option<Prepared> {
    let np = p.np;
    let mut owners = Vec::with_capacity(r.clauses.len());
    for cl in &r.clauses {
        let a = usize::from(single_player(cl, np)?);
        // A full player's open clause can never be met; the card-outer DP
        // counts that case (zero), this counter only takes players with room.
        if r.rem[a] == 0 {
            return None;
        }
        owners.push(a);
    }
    let clause_cards: Vec<u64> = r.clauses.iter().map(|cl| cl.iter().fold(0, |m, l| m | 1 << l.card)).collect();
    let cards: Vec<usize> = r.unassigned(p).iter().map(|c| c.index()).collect();
    let all: u64 = cards.iter().fold(0, |m, &c| m | 1 << c);
    let holds_of: Vec<u64> =
        (0..np).map(|a| cards.iter().filter(|&&c| r.allowed[c] >> a & 1 == 1).fold(0, |m, &c| m | 1 << c)).collect();
    let holds = |a: usize| holds_of[a];
    // Per player, the cards it makes special while it is still to come.
    let mut marks: Vec<u64> = (0..np).map(|a| all & !holds_of[a]).collect();
    for (cl, &a) in clause_cards.iter().zip(&owners) {
        marks[a] |= cl;
    }
    for m in &mut marks {
        *m |= watched & all;
    }
    let special = |rest: u16| -> u64 { (0..np).filter(|&a| rest >> a & 1 == 1).fold(0, |m, a| m | marks[a]) };
    let mut rest: u16 = (0..np).filter(|&a| r.rem[a] > 0).fold(0, |m, a| m | 1 << a);
    let special0 = special(rest);
    let case_ok = cards.iter().filter(|&&c| r.allowed[c] >> np & 1 == 1).fold(0, |m, &c| m | 1 << c);
    let open_cats = (0..p.categories.len()).filter(|&k| r.cat_done >> k & 1 == 0).count() as u32;
    let hands: Vec<u32> = (0..np).map(|a| u32::from(r.rem[a])).collect();
    let input = OrderInput { active: rest, hands: &hands, holds: &holds_of, marks: &marks, case_ok, open_cats };
    let (order, estimate) = best_order(&input);
    let mut stages = Vec::new();
    for a in order {
        rest &= !(1 << a);
        stages.push(Stage {
            player: a,
            hand: u32::from(r.rem[a]),
            allowed: holds(a),
            special: special(rest),
            live: (0..np).filter(|&b| rest >> b & 1 == 1).fold(0, |m, b| m | holds(b)),
            clauses: clause_cards.iter().zip(&owners).filter(|&(_, &o)| o == a).map(|(&cl, _)| cl).collect(),
        });
    }
    let mut files: Vec<u64> = vec![0];
    for (k, &cat) in p.categories.iter().enumerate() {
        if r.cat_done >> k & 1 == 1 {
            continue;
        }
        let cand: Vec<usize> =
            cards.iter().copied().filter(|&c| cat.contains(Card(c as u8)) && r.allowed[c] >> np & 1 == 1).collect();
        if files.len() * cand.len() > MAX_FILES {
            return None;
        }
        files = files.iter().flat_map(|&f| cand.iter().map(move |&c| f | 1 << c)).collect();
    }
    Some(Prepared { np, files, special0, all, stages, estimate })
}

/// The moves of a player from a state: (cards taken from the special ones,
/// cards taken from the interchangeable ones, next state, interchangeable
/// cards joining), each made as it is read from the hands generated into
/// `subsets` rather than stored in a second buffer first.
fn moves<'a>(
    st: &'a Stage,
    (u, n): Key,
    subsets: &'a mut Vec<(u64, u32)>,
) -> impl ExactSizeIterator<Item = (u64, u32, Key, u64)> + 'a {
    subsets.clear();
    // Cards no later player may hold must be taken now: only subsets that
    // contain them are generated.
    let forced = u & !st.live;
    let taken = forced.count_ones();
    if forced & !st.allowed == 0 && taken <= st.hand {
        // At most `n` interchangeable cards: at least the rest of the hand
        // from the special ones.
        let min = st.hand.saturating_sub(u32::from(n));
        hitting_subsets(u & st.allowed & !forced, forced, taken, st.hand - taken, min, &st.clauses, subsets);
    }
    // The special cards that stop being special after this player, unless
    // taken: counted once per state, and per move only those taken.
    let leaving = u & !st.special;
    let left_over = leaving.count_ones() as u8;
    subsets.iter().map(move |&(sub, size)| {
        let j = st.hand - size;
        let joining = leaving & !sub;
        let joined = if joining == leaving { left_over } else { joining.count_ones() as u8 };
        (sub, j, ((u & !sub) & st.special, n - j as u8 + joined), joining)
    })
}

/// The forward pass without arithmetic: the states and moves it visits,
/// or `None` past `max_moves` moves (for [`super::profile`]).
#[cfg(any(test, feature = "testing"))]
pub(super) fn dry_run(pp: &Prepared, max_moves: usize) -> Option<(usize, usize)> {
    let pool0 = pp.all & !pp.special0;
    let mut cur: Vec<Key> = pp
        .files
        .iter()
        .map(|&f| {
            let left = pp.all & !f;
            (left & pp.special0, (left & pool0).count_ones() as u8)
        })
        .collect();
    cur.sort_unstable();
    cur.dedup();
    let mut subsets = Vec::new();
    let (mut states, mut edges) = (cur.len(), 0usize);
    let mut next: rustc_hash::FxHashSet<Key> = Default::default();
    for st in &pp.stages {
        next.clear();
        for &key in &cur {
            let mv = moves(st, key, &mut subsets);
            edges += mv.len();
            if edges > max_moves {
                return None;
            }
            next.extend(mv.map(|m| m.2));
        }
        states += next.len();
        cur = next.iter().copied().collect();
    }
    Some((states, edges))
}

/// The total, every marginal of the cards still open (`marginal[card][place]`)
/// and the states visited; `None` if the forward pass would take more than
/// `max_moves` moves or visit more than `max_states` states.
pub(super) fn marginals(pp: &Prepared, max_moves: usize, max_states: usize) -> Result<Option<Marginals>, CountError> {
    // The forward counts on `u64`, checked; where one does not fit (rare
    // after a few suggestions), all over again on `u128`. On `u128` the
    // checked products and sums cost about 7 % more instructions (master
    // 10 bystander 20 seed 141).
    match marginals_in::<u64>(pp, max_moves, max_states) {
        Err(CountError::Overflow) => marginals_in::<u128>(pp, max_moves, max_states),
        done => done,
    }
}

/// The forward pass: per layer its states, their counts and the cards
/// joining the interchangeable ones; per stage its moves; the first
/// layer's state of each case file; and the states visited.
struct Passed<C> {
    layers: Vec<Layer<C>>,
    joins: Vec<Vec<(usize, Vec<C>)>>,
    links: Vec<Links>,
    file_state: Vec<u32>,
    states: usize,
}

/// [`marginals`] with the forward counts on `C`.
fn marginals_in<C: Word>(pp: &Prepared, max_moves: usize, max_states: usize) -> Result<Option<Marginals>, CountError> {
    let np = pp.np;
    let Some(Passed { layers, joins, links, file_state, states }) = forward::<C>(pp, true, max_moves, max_states)?
    else {
        return Ok(None);
    };
    let last = layers.last().expect("layers start non-empty");
    let end = last.end();
    let total = end.map_or(0, |i| last.counts[i].wide());
    let mut marginal = vec![[0u128; MAX_PLACES]; MAX_CARDS];
    if total == 0 {
        return Ok(Some((0, marginal, states, Vec::new())));
    }

    let end = end.expect("a positive total has an end state");
    let back = if total <= u128::from(u64::MAX) {
        backward::<u64, C>(pp, &layers, &links, &joins, end, &mut marginal)
    } else {
        backward::<u128, C>(pp, &layers, &links, &joins, end, &mut marginal)
    };
    // The case file: each one was dealt first, into its own state.
    let mut files = Vec::new();
    for (&f, &s) in pp.files.iter().zip(&file_state) {
        let bs = back[s as usize];
        for c in bits(f) {
            marginal[c][np] += bs;
        }
        if bs > 0 {
            files.push((f, bs));
        }
    }
    Ok(Some((total, marginal, states, files)))
}

/// The forward pass on `C`, with the joining cards' counts if `with_joins`
/// (only the marginals of interchangeable cards need them); `None` past
/// `max_moves` moves or `max_states` states.
fn forward<C: Word>(
    pp: &Prepared,
    with_joins: bool,
    max_moves: usize,
    max_states: usize,
) -> Result<Option<Passed<C>>, CountError> {
    let n_layers = pp.stages.len() + 1;
    // Forward.
    let mut layers: Vec<Layer<C>> = Vec::with_capacity(n_layers);
    // joins[t]: per card joining the interchangeable cards at layer t, the
    // number of partial deals reaching each state of layer t with that card
    // not dealt yet.
    let mut joins: Vec<Vec<(usize, Vec<C>)>> = Vec::with_capacity(n_layers);
    let mut first: Layer<C> = Layer::default();
    let mut file_state = Vec::with_capacity(pp.files.len());
    let pool0 = pp.all & !pp.special0;
    let mut join0: Vec<(usize, Vec<C>)> =
        if with_joins { bits(pool0).map(|c| (c, Vec::new())).collect() } else { Vec::new() };
    for &f in &pp.files {
        let left = pp.all & !f;
        let i = first.slot((left & pp.special0, (left & pool0).count_ones() as u8));
        first.counts[i] = first.counts[i].add_checked(C::of(1))?;
        file_state.push(i as u32);
        for (c, g) in &mut join0 {
            if left >> *c & 1 == 1 {
                bump(g, i, C::of(1))?;
            }
        }
    }
    layers.push(first);
    joins.push(join0);
    let mut subsets = Vec::new();
    let (mut states, mut edges) = (layers[0].keys.len(), 0usize);
    // Per stage: the moves of every state (cards taken, next state, cards
    // taken from the interchangeable ones) and where each state's start.
    let mut links: Vec<Links> = Vec::with_capacity(pp.stages.len());
    for st in &pp.stages {
        // Only the final layer's index is read again: each layer takes over
        // the one before's (its memory is already touched).
        let mut index = std::mem::take(&mut layers.last_mut().expect("layers start non-empty").index);
        index.clear();
        let cur = layers.last().expect("layers start non-empty");
        let mut next: Layer<C> = Layer { index, ..Layer::default() };
        let mut join: Vec<(usize, Vec<C>)> = Vec::new();
        // Where each card's entry in `join` is.
        let mut join_at = [NO_JOIN; MAX_CARDS];
        // Room for as many moves per state as the stage before had (the
        // vectors grew by copying: 5 % of this counter's instructions), at
        // most the moves left in the budget (past it the count gives up).
        let per_state = links.last().map_or(1, |l: &Links| l.to.len().div_ceil(l.starts.len().max(1)));
        let room = cur.keys.len().saturating_mul(per_state).min(max_moves.saturating_sub(edges));
        let mut out = Links {
            taken: Vec::with_capacity(room),
            rest: Vec::with_capacity(room),
            to: Vec::with_capacity(room),
            starts: Vec::with_capacity(cur.keys.len() + 1),
        };
        for (&key, &f) in cur.keys.iter().zip(&cur.counts) {
            out.starts.push(out.to.len() as u32);
            let mv = moves(st, key, &mut subsets);
            edges += mv.len();
            if edges > max_moves {
                return Ok(None);
            }
            for (sub, j, nk, joining) in mv {
                // Binomials of up to 64 cards fit in 64 bits.
                let w = f.mul_checked(C::of(BINOMIAL[usize::from(key.1)][j as usize]))?;
                let i = next.slot(nk);
                out.taken.push(sub);
                out.rest.push(j as u8);
                out.to.push(i as u32);
                next.counts[i] = next.counts[i].add_checked(w)?;
                for c in bits(if with_joins { joining } else { 0 }) {
                    if join_at[c] == NO_JOIN {
                        join_at[c] = join.len() as u8;
                        join.push((c, Vec::new()));
                    }
                    bump(&mut join[usize::from(join_at[c])].1, i, w)?;
                }
            }
        }
        out.starts.push(out.to.len() as u32);
        links.push(out);
        states += next.keys.len();
        if edges > max_moves || states > max_states {
            return Ok(None);
        }
        layers.push(next);
        joins.push(join);
    }
    Ok(Some(Passed { layers, joins, links, file_state, states }))
}

/// Per class: its deals and, per card, those with it in the case file.
pub(super) type ByClass = Vec<(u128, Vec<u128>)>;

/// The deals split by class, as [`super::classes::case_file_by_class`]:
/// per class (numbered by `class_of`, given the place of each card of
/// `watched`, in that order: players in seat order, then the case file),
/// its deals and, per card, those with it in the case file; the cards
/// fixed by propagation are left to the caller. `pp` must have been
/// prepared watching these cards ([`prepare_watching`]): then each is
/// dealt by the move that takes it (the last player takes every special
/// card left), and a backward pass keeps, per state, the completions by
/// where they put the watched cards not dealt yet. The case file, dealt
/// first, gives the rest. `None` as for [`marginals`].
pub(super) fn by_class(
    pp: &Prepared,
    watched: &[usize],
    class_of: &mut dyn FnMut(&[u8]) -> usize,
    max_moves: usize,
    max_states: usize,
) -> Result<Option<ByClass>, CountError> {
    let Some(fwd) = forward::<u128>(pp, false, max_moves, max_states)? else { return Ok(None) };
    let np = pp.np;
    let slot_of = |c: usize| watched.iter().position(|&w| w == c);
    let last = fwd.layers.last().expect("layers start non-empty");
    let end = last.end();
    let mut back: Vec<Vec<(Placed, u128)>> = vec![Vec::new(); last.keys.len()];
    match end {
        Some(end) => back[end].push((0, 1)),
        None => return Ok(Some(Vec::new())),
    }
    for t in (0..pp.stages.len()).rev() {
        let st = &pp.stages[t];
        let layer = &fwd.layers[t];
        let links = &fwd.links[t];
        let mut b: Vec<Vec<(Placed, u128)>> = vec![Vec::new(); layer.keys.len()];
        let mut sums = PlacementSums::default();
        for (i, &(_, n)) in layer.keys.iter().enumerate() {
            let moves = links.starts[i] as usize..links.starts[i + 1] as usize;
            for ((&sub, &j), &to) in
                links.taken[moves.clone()].iter().zip(&links.rest[moves.clone()]).zip(&links.to[moves])
            {
                let w = BINOMIAL[usize::from(n)][usize::from(j)];
                let mut here: Placed = 0;
                for c in bits(sub) {
                    if let Some(k) = slot_of(c) {
                        here |= (st.player as u64 + 1) << (8 * k);
                    }
                }
                for &(placed, count) in &back[to as usize] {
                    sums.add(placed | here, mul(w, count)?)?;
                }
            }
            b[i] = sums.take();
        }
        back = b;
    }
    let mut out: ByClass = Vec::new();
    let mut places = vec![0u8; watched.len()];
    // The class of each placement: a placement is one whatever the case file.
    let mut classes: FxHashMap<Placed, usize> = FxHashMap::default();
    for (&f, &s) in pp.files.iter().zip(&fwd.file_state) {
        for &(placed, count) in &back[s as usize] {
            let class = *classes.entry(placed).or_insert_with(|| {
                for (k, (&c, at)) in watched.iter().zip(&mut places).enumerate() {
                    let byte = (placed >> (8 * k)) as u8;
                    // Not dealt to a player: in the case file.
                    debug_assert!(byte > 0 || f >> c & 1 == 1, "every watched card is dealt");
                    *at = if byte == 0 { np as u8 } else { byte - 1 };
                }
                class_of(&places)
            });
            if out.len() <= class {
                out.resize(class + 1, (0, vec![0; MAX_CARDS]));
            }
            let (total, case_file) = &mut out[class];
            *total = total.checked_add(count).ok_or(CountError::Overflow)?;
            for c in bits(f) {
                case_file[c] = case_file[c].checked_add(count).ok_or(CountError::Overflow)?;
            }
        }
    }
    Ok(Some(out))
}

/// A placement of the watched cards in [`by_class`]: a byte per card, its
/// player + 1 (0: not dealt to a player).
type Placed = u64;

/// One state's completions in [`by_class`], summed by placement: searched
/// for while few, by hash once many (a state's moves may reach hundreds,
/// and a search per entry would be quadratic in them).
#[derive(Default)]
struct PlacementSums {
    row: Vec<(Placed, u128)>,
    /// Where each placement is in `row`, once `row` is longer than [`Self::SEARCHED`].
    at: FxHashMap<Placed, usize>,
}

impl PlacementSums {
    const SEARCHED: usize = 24;

    fn add(&mut self, placed: Placed, count: u128) -> Result<(), CountError> {
        let hashed = self.row.len() > Self::SEARCHED;
        let found = if hashed {
            if self.at.is_empty() {
                self.at.extend(self.row.iter().enumerate().map(|(i, e)| (e.0, i)));
            }
            self.at.get(&placed).copied()
        } else {
            self.row.iter().position(|e| e.0 == placed)
        };
        match found {
            Some(i) => self.row[i].1 = self.row[i].1.checked_add(count).ok_or(CountError::Overflow)?,
            None => {
                if hashed {
                    self.at.insert(placed, self.row.len());
                }
                self.row.push((placed, count));
            }
        }
        Ok(())
    }

    /// The sums so far, leaving none.
    fn take(&mut self) -> Vec<(Placed, u128)> {
        self.at.clear();
        std::mem::take(&mut self.row)
    }
}

/// The backward pass: every state's completions (returned for the first
/// layer), and the marginals of the cards dealt to players, added into
/// `marginal`.
///
/// Every number here counts deals through a state or a move with
/// completions (each stored state has partial deals reaching it), so none
/// exceeds the total: on `T = u64` when the total fits, unchecked (on
/// `u128` the checks cost half of this pass).
fn backward<T: Word, C: Word>(
    pp: &Prepared,
    layers: &[Layer<C>],
    links: &[Links],
    joins: &[Vec<(usize, Vec<C>)>],
    end: usize,
    marginal: &mut [[u128; MAX_PLACES]],
) -> Vec<u128> {
    // b = completions of a state; q[x] = completions with one given
    // interchangeable card not dealt yet at player x.
    let last = layers.last().expect("layers start non-empty");
    let mut back = vec![T::ZERO; last.keys.len()];
    back[end] = T::of(1);
    // q is kept per state for the players still to come only (this stage's
    // and the later ones: `width` entries, in stage order): a row of every
    // player was most of this counter's memory.
    let mut q_next: Vec<T> = Vec::new();
    // Each layer's b and q reuse the buffers of the layer two after it.
    let (mut b_spare, mut q_spare) = (Vec::new(), Vec::new());
    for t in (0..pp.stages.len()).rev() {
        let st = &pp.stages[t];
        let layer = &layers[t];
        // This stage's player and the later ones: q's entries, in order.
        let players: Vec<usize> = pp.stages[t..].iter().map(|s| s.player).collect();
        let (width, width_next) = (players.len(), players.len() - 1);
        let mut b: Vec<T> = std::mem::take(&mut b_spare);
        b.clear();
        b.resize(layer.keys.len(), T::ZERO);
        let mut q: Vec<T> = std::mem::take(&mut q_spare);
        q.clear();
        q.resize(layer.keys.len() * width, T::ZERO);
        let links = &links[t];
        for (i, (&key, &f)) in layer.keys.iter().zip(&layer.counts).enumerate() {
            let n = usize::from(key.1);
            let q_row = &mut q[i * width..(i + 1) * width];
            let moves = links.starts[i] as usize..links.starts[i + 1] as usize;
            let (taken, rest) = (&links.taken[moves.clone()], &links.rest[moves.clone()]);
            for ((&sub, &j), &s) in taken.iter().zip(rest).zip(&links.to[moves]) {
                let (bs, j) = (back[s as usize], usize::from(j));
                if bs != T::ZERO {
                    // Binomials of up to 64 cards fit in 64 bits.
                    let w = T::of(BINOMIAL[n][j]) * bs;
                    b[i] += w;
                    if sub != 0 {
                        let fw = (T::of(f.wide()) * w).wide();
                        for c in bits(sub) {
                            marginal[c][st.player] += fw;
                        }
                    }
                    if n > 0 && j > 0 {
                        q_row[0] += T::of(BINOMIAL[n - 1][j - 1]) * bs;
                    }
                }
                if n > 0 && j < n {
                    let s = s as usize;
                    let (keep, qs) = (T::of(BINOMIAL[n - 1][j]), &q_next[s * width_next..(s + 1) * width_next]);
                    for (qx, &later) in q_row[1..].iter_mut().zip(qs) {
                        if later != T::ZERO {
                            *qx += keep * later;
                        }
                    }
                }
            }
        }
        join_marginals(&joins[t], &q, &players, marginal);
        b_spare = std::mem::replace(&mut back, b);
        q_spare = std::mem::replace(&mut q_next, q);
    }
    back.into_iter().map(T::wide).collect()
}

/// Adds, for every card joining at a layer, its deals at every later player.
/// `q` holds a row per state, an entry per player of `players`.
fn join_marginals<T: Word, C: Word>(
    joins: &[(usize, Vec<C>)],
    q: &[T],
    players: &[usize],
    marginal: &mut [[u128; MAX_PLACES]],
) {
    for (c, g) in joins {
        for (&gi, qi) in g.iter().zip(q.chunks_exact(players.len())) {
            if gi == C::ZERO {
                continue;
            }
            for (&x, &qx) in players.iter().zip(qi) {
                if qx != T::ZERO {
                    // Deals through a state with completions: within the total.
                    marginal[*c][x] += (T::of(gi.wide()) * qx).wide();
                }
            }
        }
    }
}

/// A card with no entry in a layer's joins.
const NO_JOIN: u8 = u8::MAX;

fn bump<C: Word>(v: &mut Vec<C>, i: usize, w: C) -> Result<(), CountError> {
    if v.len() <= i {
        v.resize(i + 1, C::ZERO);
    }
    v[i] = v[i].add_checked(w)?;
    Ok(())
}

/// The indices of the set bits of a mask.
fn bits(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            c
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The obvious way: every subset of `avail` with at most `left` more
    /// cards than `cur`, then those of `min` cards or more that meet every
    /// clause.
    fn filtered_subsets(avail: u64, cur: u64, left: u32, min: u32, clauses: &[u64]) -> Vec<u64> {
        let mut out = Vec::new();
        let mut sub = avail;
        loop {
            let all = cur | sub;
            if sub.count_ones() <= left && all.count_ones() >= min && clauses.iter().all(|&cl| cl & all != 0) {
                out.push(all);
            }
            if sub == 0 {
                break;
            }
            sub = (sub - 1) & avail;
        }
        out
    }

    /// The pruned search gives exactly the filtered subsets, each once, on
    /// random cards, hands and clauses.
    #[test]
    fn hitting_subsets_are_the_filtered_small_subsets() {
        let mut r = rand_chacha::ChaCha8Rng::seed_from_u64(141);
        for _ in 0..3000 {
            let avail: u64 = (0..r.gen_range(0..=12)).fold(0, |m, _| m | 1 << r.gen_range(0..16));
            let cur: u64 = (0..r.gen_range(0..=2)).fold(0, |m, _| m | 1 << r.gen_range(16..20));
            let (left, min) = (r.gen_range(0..=6), r.gen_range(0..=6));
            let clauses: Vec<u64> = (0..r.gen_range(0..=3))
                .map(|_| (0..r.gen_range(1..=3)).fold(0, |m, _| m | 1 << r.gen_range(0..20)))
                .collect();
            let mut sized = Vec::new();
            hitting_subsets(avail, cur, cur.count_ones(), left, min, &clauses, &mut sized);
            assert!(sized.iter().all(|&(sub, size)| sub.count_ones() == size));
            let mut got: Vec<u64> = sized.into_iter().map(|(sub, _)| sub).collect();
            let n = got.len();
            got.sort_unstable();
            got.dedup();
            assert_eq!(got.len(), n, "a subset twice: {avail:#x} {cur:#x} {left} {min} {clauses:?}");
            let mut want = filtered_subsets(avail, cur, left, min, &clauses);
            want.sort_unstable();
            assert_eq!(got, want, "{avail:#x} {cur:#x} {left} {min} {clauses:?}");
        }
    }
}
