//! An independent exact counter: a plain card-order DP, written apart from
//! `sleuth_core::count` as the stand-in for issue 20's held-out judge and as
//! a second method to cross-check Sleuth's counter (tests/it/plain_dp.rs).
//!
//! Only the validated `Game` is taken from sleuth-core; the constraints are
//! derived here from the events, as /work/shared/game-format.md defines
//! them, with none of `deduce`, `count` or `CountProblem`.
//!
//! The DP places the cards one at a time in a fixed order (clauses
//! together). Its state is the room left in every hand, which case-file
//! categories are filled, and one bit per clause in flight (satisfied yet);
//! a clause holds a slot from its first card to its last, where it must be
//! satisfied. No symmetry between players, no closed-form tail: every card
//! that is not fixed up front goes through the DP. A layer's states are
//! indexed by a dense array when the layer's key space is compact and large,
//! by a hash map otherwise. Marginals come from a forward and a backward
//! pass over the stored layers.

use rustc_hash::FxHashMap;
use sleuth_core::{Event, Game};

/// Exact counts: every consistent deal, and per card and place the deals
/// with the card there (places: players in seat order, then the case file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlainCounts {
    /// The number of consistent deals.
    pub total: u128,
    /// `marginal[card][place]`, cards in deck order.
    pub marginal: Vec<Vec<u128>>,
    /// The DP states stored, over all layers.
    pub states: usize,
}

/// Why a game cannot be counted here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlainError {
    /// A count does not fit in `u128`.
    Overflow,
    /// The state does not fit in a 64-bit key (large custom decks only).
    TooWide,
}

impl std::fmt::Display for PlainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlainError::Overflow => write!(f, "a count does not fit in 128 bits"),
            PlainError::TooWide => write!(f, "the DP state does not fit in a 64-bit key"),
        }
    }
}

/// One clause: at least one of these cards is at a place of its mask.
type Clause = Vec<(usize, u16)>;

/// What the game file says, as allowed places per card, hand sizes and
/// clauses.
struct Constraints {
    np: usize,
    category: Vec<usize>,
    ncat: usize,
    /// Cards that are in some place (not face up).
    in_play: Vec<bool>,
    /// Per card, the places it may be at (bit `np` = the case file).
    allowed: Vec<u16>,
    hand_sizes: Vec<usize>,
    clauses: Vec<Clause>,
    /// A card face up was said to be at a place.
    impossible: bool,
}

fn constraints(game: &Game) -> Constraints {
    let deck = game.deck();
    let np = game.num_players();
    let case_file: u16 = 1 << np;
    let everywhere: u16 = (1 << (np + 1)) - 1;
    let face_up = game.face_up();
    let in_play: Vec<bool> = deck.cards().map(|c| !face_up.contains(c)).collect();
    let category: Vec<usize> = deck.cards().map(|c| deck.category(c).index()).collect();
    let mut allowed: Vec<u16> = in_play.iter().map(|&p| if p { everywhere } else { 0 }).collect();
    let mut impossible = false;
    // "card is at one of `places`": impossible for a face-up card.
    let mut place = |allowed: &mut Vec<u16>, card: usize, places: u16| {
        impossible |= !in_play[card];
        allowed[card] &= places;
    };
    if let Some((me, hand)) = game.observer() {
        for c in deck.cards() {
            if hand.contains(c) {
                place(&mut allowed, c.index(), 1 << me.index());
            } else {
                allowed[c.index()] &= !(1 << me.index());
            }
        }
    }
    let mut clauses = Vec::new();
    for event in game.events() {
        match event {
            Event::Suggestion(s) => {
                // Asked clockwise after the suggester: everyone before the
                // refuter (everyone else when nobody refuted) holds none.
                let by = s.by.index();
                let stop = s.refuted_by.map_or(by, |r| r.index());
                let mut p = (by + 1) % np;
                while p != stop && p != by {
                    for c in s.cards {
                        allowed[c.index()] &= !(1 << p);
                    }
                    p = (p + 1) % np;
                }
                if let Some(r) = s.refuted_by {
                    let refuter: u16 = 1 << r.index();
                    match s.shown {
                        Some(c) => place(&mut allowed, c.index(), refuter),
                        // A face-up card cannot be the one held: no literal.
                        None => clauses.push(
                            s.cards.iter().filter(|c| in_play[c.index()]).map(|c| (c.index(), refuter)).collect(),
                        ),
                    }
                }
            }
            Event::Accusation(a) => {
                if a.correct {
                    for c in a.cards {
                        place(&mut allowed, c.index(), case_file);
                    }
                } else if a.cards.iter().all(|c| in_play[c.index()]) {
                    // Not the case file: some card is elsewhere (a face-up
                    // card always is).
                    clauses.push(a.cards.iter().map(|c| (c.index(), everywhere & !case_file)).collect());
                }
            }
        }
    }
    let hand_sizes = game.players().map(|p| game.hand_size(p)).collect();
    Constraints { np, category, ncat: deck.num_categories(), in_play, allowed, hand_sizes, clauses, impossible }
}

/// The constraints after simple propagation: fixed cards placed, clauses
/// reduced; `None` when they cannot all hold.
struct Reduced {
    /// Per card, the place it is fixed at.
    fixed: Vec<Option<usize>>,
    room: Vec<usize>,
    filled: Vec<bool>,
}

fn reduce(k: &mut Constraints) -> Option<Reduced> {
    if k.impossible {
        return None;
    }
    let n = k.allowed.len();
    let np = k.np;
    let mut fixed: Vec<Option<usize>> = vec![None; n];
    let mut room: Vec<usize> = k.hand_sizes.clone();
    let mut filled = vec![false; k.ncat];
    let mut changed = true;
    while changed {
        changed = false;
        // Cards with one place left are placed.
        for c in 0..n {
            if !k.in_play[c] || fixed[c].is_some() {
                continue;
            }
            let a = k.allowed[c];
            if a == 0 {
                return None;
            }
            if a.count_ones() != 1 {
                continue;
            }
            let place = a.trailing_zeros() as usize;
            fixed[c] = Some(place);
            changed = true;
            if place == np {
                if filled[k.category[c]] {
                    return None;
                }
                filled[k.category[c]] = true;
            } else {
                room[place] = room[place].checked_sub(1)?;
            }
        }
        // Full hands and filled categories take no more cards.
        for c in 0..n {
            if fixed[c].is_some() || !k.in_play[c] {
                continue;
            }
            let before = k.allowed[c];
            for (p, &r) in room.iter().enumerate() {
                if r == 0 {
                    k.allowed[c] &= !(1 << p);
                }
            }
            if filled[k.category[c]] {
                k.allowed[c] &= !(1 << np);
            }
            changed |= k.allowed[c] != before;
        }
        // A hand whose room equals its candidates takes them all; an
        // open category with one candidate has it in the case file.
        for (p, &r) in room.iter().enumerate() {
            let cands: Vec<usize> =
                (0..n).filter(|&c| fixed[c].is_none() && k.in_play[c] && k.allowed[c] & (1 << p) != 0).collect();
            if cands.len() < r {
                return None;
            }
            if r > 0 && cands.len() == r {
                for c in cands {
                    k.allowed[c] = 1 << p;
                }
                changed = true;
            }
        }
        for cat in 0..k.ncat {
            if filled[cat] {
                continue;
            }
            let cands: Vec<usize> = (0..n)
                .filter(|&c| {
                    k.category[c] == cat && fixed[c].is_none() && k.in_play[c] && k.allowed[c] & (1 << np) != 0
                })
                .collect();
            match cands.len() {
                0 => return None,
                1 => {
                    k.allowed[cands[0]] = 1 << np;
                    changed = true;
                }
                _ => {}
            }
        }
        // Clauses: drop literals that cannot hold and clauses that must;
        // a clause with one literal left fixes its card's places.
        let mut kept = Vec::with_capacity(k.clauses.len());
        for clause in std::mem::take(&mut k.clauses) {
            let lits: Clause = clause.into_iter().filter(|&(c, m)| k.allowed[c] & m != 0).collect();
            if lits.is_empty() {
                return None;
            }
            if lits.iter().any(|&(c, m)| k.allowed[c] & !m == 0) {
                changed = true;
                continue;
            }
            if lits.len() == 1 {
                k.allowed[lits[0].0] &= lits[0].1;
                changed = true;
                continue;
            }
            kept.push(lits);
        }
        k.clauses = kept;
    }
    Some(Reduced { fixed, room, filled })
}

/// The card order: clauses together, then the other cards, most restricted
/// first. The next clause is the one with the fewest cards not placed yet,
/// then the one that leaves the fewest clauses in flight (started, not
/// finished), then the one whose cards have the fewest places; within a
/// clause, the most restricted cards first. (On master 10-player bystander
/// states after 20 suggestions this visits about 20% fewer states than
/// taking the fewest cards alone.)
fn card_order(k: &Constraints, r: &Reduced) -> Vec<usize> {
    let n = k.allowed.len();
    let places = |c: usize| k.allowed[c].count_ones();
    let mut placed = vec![false; n];
    let mut done = vec![false; k.clauses.len()];
    let mut order = Vec::new();
    loop {
        let unplaced = |j: usize| k.clauses[j].iter().map(|&(c, _)| c).filter(|&c| !placed[c]);
        let has = |j: usize, card: usize| k.clauses[j].iter().any(|&(c, _)| c == card);
        // The clauses other than j in flight once j's cards are placed.
        let in_flight_after = |j: usize| {
            (0..k.clauses.len())
                .filter(|&o| o != j && !done[o])
                .filter(|&o| {
                    let now = |&(c, _): &(usize, u16)| placed[c] || has(j, c);
                    k.clauses[o].iter().any(now) && !k.clauses[o].iter().all(now)
                })
                .count()
        };
        let next = (0..k.clauses.len())
            .filter(|&j| !done[j])
            .min_by_key(|&j| (unplaced(j).count(), in_flight_after(j), unplaced(j).map(places).sum::<u32>(), j));
        let Some(j) = next else { break };
        done[j] = true;
        let mut cards: Vec<usize> = unplaced(j).collect();
        cards.sort_by_key(|&c| (places(c), c));
        for c in cards {
            placed[c] = true;
            order.push(c);
        }
    }
    let mut rest: Vec<usize> = (0..n).filter(|&c| k.in_play[c] && r.fixed[c].is_none() && !placed[c]).collect();
    rest.sort_by_key(|&c| (places(c), c));
    order.extend(rest);
    order
}

/// A move of a step: the card goes to one place.
#[derive(Clone, Copy)]
struct Move {
    place: usize,
    /// The room field of that player (`None`: the case file).
    field: Option<Field>,
    /// The clause slots this placement satisfies.
    sat: u64,
    /// For a player: its clauses' slots after this step, and whether a
    /// clause of its starts later: a player with such a clause unsatisfied
    /// needs room for it.
    needs: u64,
    needs_later: bool,
}

/// A player's room field in the key, and how much room the cards from this
/// step on can still fill.
#[derive(Clone, Copy)]
struct Field {
    shift: u32,
    mask: u64,
    after: u64,
}

/// One DP step: the card, its moves, and what the key must satisfy.
struct Step {
    card: usize,
    moves: Vec<Move>,
    /// The category's bit in the key.
    cat_bit: u64,
    /// Whether this card is the last candidate of its category.
    last_of_category: bool,
    /// Slots of the clauses whose last card this is.
    ending: u64,
}

/// How the states of one layer are indexed: a dense array over a compact
/// key space, or a hash map.
struct LayerIndex {
    /// Per player: the room field's shift and mask, the lowest room
    /// possible at this layer, and the stride.
    rooms: Vec<(u32, u64, u64, u64)>,
    cat_shift: u32,
    cat_mask: u64,
    /// The stride of the category field and of the slot field.
    cat_stride: u64,
    slot_stride: u64,
    slot_shift: u32,
    slot_mask: u64,
    /// The size of the key space, when dense.
    dense: Option<usize>,
}

impl LayerIndex {
    fn slot(&self, key: u64) -> usize {
        let mut i = 0u64;
        for &(shift, mask, lo, stride) in &self.rooms {
            i += (((key >> shift) & mask) - lo) * stride;
        }
        i += ((key >> self.cat_shift) & self.cat_mask) * self.cat_stride;
        i += ((key >> self.slot_shift) & self.slot_mask) * self.slot_stride;
        i as usize
    }
}

/// A layer is dense when its key space has between `DENSE_MIN` and
/// `DENSE_MAX` entries (4 bytes each) and at most `DENSE_SPARSITY` entries
/// per successor the step could make; sparser, computing the dense index and
/// touching the table cost more than hashing (master 10-player states, 2026-11-24:
/// at 8 entries per successor the counts took about 17% longer than hashed).
const DENSE_MIN: usize = 1 << 12;
pub const DENSE_MAX: usize = 1 << 22;
const DENSE_SPARSITY: usize = 2;
const NONE: u32 = u32::MAX;

struct Layer {
    keys: Vec<u64>,
    counts: Vec<u128>,
    /// Per state and move, the successor's index in the next layer.
    succ: Vec<u32>,
}

/// How layers are indexed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Dense where the key space is compact and large, hashed otherwise.
    Auto,
    /// Always a hash map.
    Hashed,
    /// Dense wherever the key space fits in [`DENSE_MAX`] entries.
    DenseWhenFits,
}

/// Counts the consistent deals of a game and every card-place marginal.
///
/// # Errors
/// [`PlainError`] when a count or the state does not fit.
pub fn count(game: &Game) -> Result<PlainCounts, PlainError> {
    count_with(game, Layout::Auto)
}

/// [`count`] with a chosen layout (the tests run every layout).
///
/// # Errors
/// [`PlainError`] when a count or the state does not fit.
pub fn count_with(game: &Game, layout: Layout) -> Result<PlainCounts, PlainError> {
    let mut k = constraints(game);
    let nc = k.allowed.len();
    let places = k.np + 1;
    let zero = PlainCounts { total: 0, marginal: vec![vec![0; places]; nc], states: 0 };
    let Some(r) = reduce(&mut k) else { return Ok(zero) };
    let order = card_order(&k, &r);
    let np = k.np;

    // Key layout: room fields, category bits, clause slots.
    let mut shift = 0u32;
    let mut room_field = Vec::with_capacity(np);
    for &room in &r.room {
        let bits = usize::BITS - room.leading_zeros();
        room_field.push((shift, (1u64 << bits) - 1));
        shift += bits;
    }
    let cat_shift = shift;
    shift += k.ncat as u32;
    let slot_shift = shift;
    let (slots, nslots) = assign_slots(&k, &order);
    if u64::from(slot_shift) + nslots as u64 >= 64 {
        return Err(PlainError::TooWide);
    }

    // after[p][i]: the cards from step i on that may go to player p.
    let n = order.len();
    let mut after = vec![vec![0u64; n + 1]; np];
    let mut cat_after = vec![vec![0usize; n + 1]; k.ncat];
    for i in (0..n).rev() {
        let c = order[i];
        for p in 0..np {
            after[p][i] = after[p][i + 1] + u64::from(k.allowed[c] >> p & 1);
        }
        for cat in 0..k.ncat {
            cat_after[cat][i] =
                cat_after[cat][i + 1] + usize::from(k.category[c] == cat && k.allowed[c] >> np & 1 == 1);
        }
    }
    let steps: Vec<Step> = (0..n)
        .map(|i| {
            let c = order[i];
            let moves = (0..places)
                .filter(|&q| k.allowed[c] >> q & 1 == 1)
                .map(|q| {
                    let field =
                        (q < np).then(|| Field { shift: room_field[q].0, mask: room_field[q].1, after: after[q][i] });
                    let mut sat = 0u64;
                    for (j, clause) in k.clauses.iter().enumerate() {
                        if clause.iter().any(|&(cc, m)| cc == c && m >> q & 1 == 1) {
                            sat |= 1 << (slot_shift + slots[j].slot);
                        }
                    }
                    // The slots (in flight after this step) of the clauses
                    // only this player can satisfy.
                    let mut needs = 0u64;
                    let mut needs_later = false;
                    for (j, clause) in k.clauses.iter().enumerate() {
                        if q < np && clause.iter().all(|&(_, m)| m == 1 << q) {
                            if slots[j].first <= i && i < slots[j].last {
                                needs |= 1 << (slot_shift + slots[j].slot);
                            }
                            needs_later |= slots[j].first > i;
                        }
                    }
                    Move { place: q, field, sat, needs, needs_later }
                })
                .collect();
            let ending = slots.iter().filter(|s| s.last == i).fold(0u64, |acc, s| acc | 1 << (slot_shift + s.slot));
            Step {
                card: c,
                moves,
                cat_bit: 1 << (cat_shift + k.category[c] as u32),
                last_of_category: cat_after[k.category[c]][i] == 1,
                ending,
            }
        })
        .collect();

    // Feasibility of the start: enough cards for every room and category.
    let mut start = 0u64;
    for p in 0..np {
        if r.room[p] as u64 > after[p][0] {
            return Ok(zero);
        }
        start |= (r.room[p] as u64) << room_field[p].0;
    }
    for cat in 0..k.ncat {
        if r.filled[cat] {
            start |= 1 << (cat_shift + cat as u32);
        } else if cat_after[cat][0] == 0 {
            return Ok(zero);
        }
    }

    // Counts stay below the product of the moves per card: when that fits,
    // no sum or product below can overflow and none is checked.
    let bound = steps.iter().try_fold(1u128, |acc, s| acc.checked_mul(s.moves.len() as u128));
    let checked = bound.is_none();

    // Forward.
    let mut layers: Vec<Layer> = Vec::with_capacity(n + 1);
    layers.push(Layer { keys: vec![start], counts: vec![1], succ: Vec::new() });
    let mut table: Vec<u32> = Vec::new();
    let mut map: FxHashMap<u64, u32> = FxHashMap::default();
    for i in 0..n {
        let step = &steps[i];
        let index = layer_index(&r.room, &room_field, &after, &order, &k, i + 1, (cat_shift, slot_shift), &slots);
        let cur = layers.last_mut().expect("the start layer");
        let moves = step.moves.len();
        let mut next = Layer { keys: Vec::new(), counts: Vec::new(), succ: Vec::new() };
        let dense = match layout {
            Layout::Auto => {
                index.dense.filter(|&size| size >= DENSE_MIN && size <= DENSE_SPARSITY * cur.keys.len() * moves)
            }
            Layout::Hashed => None,
            Layout::DenseWhenFits => index.dense,
        };
        if let Some(size) = dense {
            if table.len() < size {
                table.resize(size, NONE);
            }
        } else {
            map.clear();
        }
        let mut succ = vec![NONE; cur.keys.len() * moves];
        for (s, (&key, &f)) in cur.keys.iter().zip(&cur.counts).enumerate() {
            // A player with as much room as cards left for it, or the
            // category's last candidate, must take this card.
            let mut open = 0u32;
            let mut forced = None;
            let mut dead = false;
            for (m, mv) in step.moves.iter().enumerate() {
                let must = match mv.field {
                    Some(fd) => {
                        let room = (key >> fd.shift) & fd.mask;
                        if room == 0 {
                            continue;
                        }
                        room == fd.after
                    }
                    None => {
                        if key & step.cat_bit != 0 {
                            continue;
                        }
                        step.last_of_category
                    }
                };
                open |= 1 << m;
                if must {
                    dead |= forced.is_some();
                    forced = Some(m);
                }
            }
            if dead {
                continue;
            }
            if let Some(m) = forced {
                open &= 1 << m;
            }
            for (m, mv) in step.moves.iter().enumerate() {
                if open >> m & 1 == 0 {
                    continue;
                }
                let mut to = match mv.field {
                    Some(fd) => key - (1 << fd.shift),
                    None => key | step.cat_bit,
                } | mv.sat;
                if to & step.ending != step.ending {
                    continue;
                }
                to &= !step.ending;
                if let Some(fd) = mv.field {
                    // A full hand cannot satisfy its clauses any more.
                    if (to >> fd.shift) & fd.mask == 0 && (mv.needs_later || mv.needs & !to != 0) {
                        continue;
                    }
                }
                let t = match dense {
                    Some(_) => {
                        let slot = &mut table[index.slot(to)];
                        if *slot == NONE {
                            *slot = next.keys.len() as u32;
                            next.keys.push(to);
                            next.counts.push(0);
                        }
                        *slot
                    }
                    None => *map.entry(to).or_insert_with(|| {
                        next.keys.push(to);
                        next.counts.push(0);
                        next.keys.len() as u32 - 1
                    }),
                };
                let c = &mut next.counts[t as usize];
                *c = add(*c, f, checked)?;
                succ[s * moves + m] = t;
            }
        }
        if dense.is_some() {
            for &key in &next.keys {
                table[index.slot(key)] = NONE;
            }
        }
        cur.succ = succ;
        layers.push(next);
    }
    let last = layers.last().expect("the final layer");
    let total = last.counts.iter().try_fold(0u128, |acc, &c| add(acc, c, checked))?;
    let states = layers.iter().map(|l| l.keys.len()).sum();

    // Backward, with the marginals of the DP cards.
    let mut marginal = vec![vec![0u128; places]; nc];
    let mut b_next = vec![1u128; last.keys.len()];
    for i in (0..n).rev() {
        let step = &steps[i];
        let layer = &layers[i];
        let moves = step.moves.len();
        let mut b = vec![0u128; layer.keys.len()];
        let mut at = vec![0u128; moves];
        for (s, &f) in layer.counts.iter().enumerate() {
            let mut sum = 0u128;
            for (m, &t) in layer.succ[s * moves..(s + 1) * moves].iter().enumerate() {
                if t == NONE {
                    continue;
                }
                let bt = b_next[t as usize];
                sum = add(sum, bt, checked)?;
                at[m] = add(at[m], mul(f, bt, checked)?, checked)?;
            }
            b[s] = sum;
        }
        for (m, mv) in step.moves.iter().enumerate() {
            marginal[step.card][mv.place] = at[m];
        }
        b_next = b;
    }
    for (c, place) in r.fixed.iter().enumerate() {
        if let Some(q) = *place {
            marginal[c][q] = total;
        }
    }
    Ok(PlainCounts { total, marginal, states })
}

fn add(a: u128, b: u128, checked: bool) -> Result<u128, PlainError> {
    if checked {
        a.checked_add(b).ok_or(PlainError::Overflow)
    } else {
        Ok(a + b)
    }
}

fn mul(a: u128, b: u128, checked: bool) -> Result<u128, PlainError> {
    if checked {
        a.checked_mul(b).ok_or(PlainError::Overflow)
    } else {
        Ok(a * b)
    }
}

/// A clause's slot and the steps of its first and last card.
struct Slot {
    slot: u32,
    first: usize,
    last: usize,
}

/// Gives every clause a slot from its first card's step to its last's;
/// returns the slots and how many there are.
fn assign_slots(k: &Constraints, order: &[usize]) -> (Vec<Slot>, usize) {
    let pos: FxHashMap<usize, usize> = order.iter().enumerate().map(|(i, &c)| (c, i)).collect();
    let mut spans: Vec<(usize, usize, usize)> = k
        .clauses
        .iter()
        .enumerate()
        .map(|(j, clause)| {
            let steps = clause.iter().map(|(c, _)| pos[c]);
            (steps.clone().min().unwrap_or(0), steps.max().unwrap_or(0), j)
        })
        .collect();
    spans.sort_unstable();
    let mut slots: Vec<Slot> = (0..k.clauses.len()).map(|_| Slot { slot: 0, first: 0, last: 0 }).collect();
    // free_at[s]: the first step at which slot s is free again.
    let mut free_at: Vec<usize> = Vec::new();
    for (first, last, j) in spans {
        let s = match free_at.iter().position(|&f| f <= first) {
            Some(s) => s,
            None => {
                free_at.push(0);
                free_at.len() - 1
            }
        };
        free_at[s] = last + 1;
        slots[j] = Slot { slot: s as u32, first, last };
    }
    (slots, free_at.len())
}

/// How layer `i` (the states before step `i`) is indexed: the range of
/// every room (between what the cards before could have taken and what the
/// cards after can fill), the category bits and the slots in use.
#[allow(clippy::too_many_arguments)]
fn layer_index(
    room0: &[usize],
    room_field: &[(u32, u64)],
    after: &[Vec<u64>],
    order: &[usize],
    k: &Constraints,
    i: usize,
    (cat_shift, slot_shift): (u32, u32),
    slots: &[Slot],
) -> LayerIndex {
    let mut size: usize = 1;
    let mut rooms = Vec::with_capacity(room0.len());
    for (p, &room) in room0.iter().enumerate() {
        let before = order[..i].iter().filter(|&&c| k.allowed[c] >> p & 1 == 1).count();
        let lo = room.saturating_sub(before) as u64;
        let hi = (room as u64).min(after[p][i]);
        let span = (hi + 1).saturating_sub(lo).max(1) as usize;
        rooms.push((room_field[p].0, room_field[p].1, lo, size as u64));
        size = size.saturating_mul(span);
    }
    let cat_stride = size as u64;
    size = size.saturating_mul(1 << k.ncat);
    let in_use = slots.iter().filter(|s| s.first < i && i <= s.last).map(|s| s.slot + 1).max().unwrap_or(0);
    let slot_stride = size as u64;
    size = size.saturating_mul(1usize.checked_shl(in_use).unwrap_or(usize::MAX));
    LayerIndex {
        rooms,
        cat_shift,
        cat_mask: (1u64 << k.ncat) - 1,
        cat_stride,
        slot_stride,
        slot_shift,
        slot_mask: (1u64 << in_use) - 1,
        dense: (size <= DENSE_MAX).then_some(size),
    }
}
