//! The compiled dynamic program: key layout, moves per card, the tail.
//!
//! A DP state is one `u128` key: one bit per clause slot, one bit per open
//! case-file category ("its case card is placed"), and a bit field per player
//! with room left holding that room; in a symmetric plan also the *pool*
//! field, the room left at the free players together (see [`super::sym`]).

mod tail;

use super::arith::{mul, Stored};
use super::demand::{need_table, single_player, Demand};
use super::CountError;
use crate::deduce::{CountProblem, Reduced};
use crate::model::{Card, CardSet, MAX_CARDS, MAX_PLACES, MAX_PLAYERS};

/// How the cards still open split between the DP and the closed-form tail.
#[derive(Clone, Debug)]
pub(super) struct CardClasses {
    /// Cards some clause mentions, or that are barred from some player with
    /// room: placed by the DP.
    pub dp: CardSet,
    /// Cards no clause mentions that may go to every player with room.
    pub tail: CardSet,
}

impl CardClasses {
    pub fn new(p: &CountProblem, r: &Reduced) -> CardClasses {
        let unassigned = r.unassigned(p);
        let active: u16 = (0..p.np).filter(|&a| r.rem[a] > 0).fold(0, |m, a| m | 1 << a);
        let mut in_clause = CardSet::EMPTY;
        for cl in &r.clauses {
            for l in cl {
                in_clause.insert(Card(l.card));
            }
        }
        let restricted: CardSet =
            (unassigned - in_clause).iter().filter(|c| r.allowed[c.index()] & active != active).collect();
        let tail = unassigned - in_clause - restricted;
        CardClasses { dp: unassigned - tail, tail }
    }
}

/// The place of a move to the pool of free players (see [`super::sym`]).
pub(super) const POOL: u8 = u8::MAX;

/// One possible destination of a DP card.
#[derive(Clone, Debug)]
pub(super) struct Move {
    /// A player, the case file (`np`), or [`POOL`].
    pub place: u8,
    /// Subtracted from the key: one unit of the player's capacity field.
    take: u128,
    /// The player's field, to test that capacity is left.
    field: Option<(u32, u128)>,
    /// The category's field (or bit) of a case-file move: must be clear.
    cat_mask: u128,
    /// What a case-file move writes there: the bit, or in an identifying
    /// plan the candidate's number (see [`Plan::new_identifying`]).
    cat_val: u128,
    /// Clause slots this move satisfies.
    sat: u128,
}

/// One DP card with its moves and the checks after it.
#[derive(Clone, Debug)]
pub(super) struct Step {
    pub card: u8,
    pub moves: Vec<Move>,
    /// Clause slots whose clause ends at this card: must be set, then freed.
    end_mask: u128,
    /// Places with no room to spare: (field offset, mask, cards able to
    /// fill it from this step on, index of the move there). A state whose
    /// field equals that number must take this card there.
    tight: Vec<(u32, u128, u128, usize)>,
    /// The case-file move, when this card is the last that can fill its
    /// category: (category bit, index of the move).
    case_tight: Option<(u128, usize)>,
    /// Clause demand checks on the state after this step.
    pub demand: Vec<Demand>,
    /// The checks (bit `d` for `demand[d]`) that are not also a check of
    /// the step before: every state of a layer passed the step before's
    /// checks, so a check it repeats can fail only where a move changes
    /// the bits it reads (see [`Plan::demand_deps`]).
    pub fresh: u32,
    /// Players free before this step (see [`free_sets`]), when symmetric:
    /// their moves are the one move to the pool.
    pub free: u16,
    /// Players this step frees, who join the pool after it.
    pub joins: Vec<Join>,
    /// Whether some move of this step has a weight other than 1 (a move to
    /// the pool, or players joining it).
    pub weighted: bool,
}

/// A player joining the pool of free players (see [`super::sym`]).
#[derive(Clone, Debug)]
pub(super) struct Join {
    player: usize,
    /// The player's field: offset and mask.
    off: u32,
    mask: u128,
    /// The weight of joining with room `r`, at `r`: `M! / r!` for the
    /// player's room `M` before the DP.
    weight: Vec<u128>,
}

/// Which moves of a step a state may take.
pub(super) enum Allowed {
    /// None: the state cannot be completed.
    Dead,
    /// Only the move with this index.
    Only(usize),
    /// Every move.
    All,
}

/// Tail cards of one category, split by whether the case file is allowed.
#[derive(Clone, Debug, Default)]
pub(super) struct TailClass {
    pub cards: Vec<u8>,
    pub category: usize,
    pub case_ok: bool,
}

/// A case-file category not decided by propagation.
#[derive(Clone, Debug)]
pub(super) struct OpenCat {
    pub category: usize,
    /// Its field in the key: nonzero once its case card is placed by the DP.
    mask: u128,
    off: u32,
    /// Tail cards allowed in the case file.
    tail_ok: u8,
    /// In an identifying plan, the DP cards allowed in the case file: the
    /// field holds `i + 1` when `cands[i]` is the case card.
    pub cands: Vec<u8>,
}

/// The compiled dynamic program for one reduced problem.
pub(super) struct Plan {
    pub steps: Vec<Step>,
    pub init: u128,
    /// Active players: (player index, field offset, mask).
    fields: Vec<(usize, u32, u128)>,
    /// Open categories, in category order.
    open_cats: Vec<OpenCat>,
    pub tail: Vec<TailClass>,
    pub np: usize,
    /// How many low bits of a key are used.
    pub key_bits: u32,
    /// Each active player's field: offset and mask.
    field_of: [Option<(u32, u128)>; MAX_PLAYERS],
    /// Players free in the final layer, when symmetric.
    pub free_final: u16,
    /// Every player's room before the DP.
    pub rem0: [u8; MAX_PLAYERS],
    /// The pool's field (offset, mask), when symmetric.
    pool: Option<(u32, u128)>,
    /// What every count of a symmetric plan is multiplied by (the product of
    /// `M!` over the players ever free, see [`super::sym`]); 1 otherwise.
    pub scale: u128,
    /// Whether every move's weight fits in `u64` and keys in 64 bits, so
    /// that [`Plan::weight64`] applies.
    pub weights64: bool,
}

/// A key as the forward pass computes on it: `u64` when the layout fits,
/// since `u64` shifts and masks are single instructions where `u128` ones
/// (variable shifts especially) take several. The plan stores `u128`
/// constants; `narrow` keeps their low bits, which is exact when the key
/// fits.
pub(super) trait Key:
    Copy
    + Eq
    + std::hash::Hash
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::Not<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Add<Output = Self>
    + std::ops::Shr<u32, Output = Self>
    + Stored
{
    const ZERO: Self;
    fn narrow(x: u128) -> Self;
    fn wide(self) -> u128;
    /// The low bits as an index (only a few are read).
    fn low(self) -> usize;
}

impl Key for u64 {
    const ZERO: u64 = 0;
    #[inline]
    fn narrow(x: u128) -> u64 {
        x as u64
    }
    #[inline]
    fn wide(self) -> u128 {
        self as u128
    }
    #[inline]
    fn low(self) -> usize {
        self as usize
    }
}

impl Key for u128 {
    const ZERO: u128 = 0;
    #[inline]
    fn narrow(x: u128) -> u128 {
        x
    }
    #[inline]
    fn wide(self) -> u128 {
        self
    }
    #[inline]
    fn low(self) -> usize {
        self as usize
    }
}

fn bits_for(max: u8) -> u32 {
    u8::BITS - max.leading_zeros()
}

impl Plan {
    /// Compiles the DP for a reduced problem and an order of its DP cards.
    pub fn new(p: &CountProblem, r: &Reduced, cards: &CardClasses, order: Vec<u8>) -> Result<Plan, CountError> {
        Plan::build(p, r, cards, order, false, false)
    }

    /// [`Plan::new`] with free players pooled (see [`super::sym`]): fewer
    /// states, but a state no longer says which free player has which room,
    /// so marginals need [`super::sym::free_marginals`], counts are scaled
    /// by [`Plan::scale`], and the uniform sampler cannot use it.
    pub fn new_symmetric(
        p: &CountProblem,
        r: &Reduced,
        cards: &CardClasses,
        order: Vec<u8>,
    ) -> Result<Plan, CountError> {
        Plan::build(p, r, cards, order, true, false)
    }

    /// A plan whose key says *which* DP card is the case card of each
    /// category ([`Plan::case_card`]), not only whether it is placed: its
    /// final layer gives the distribution of the case file in one forward
    /// pass (see [`super::case_file`]). The case cards of a category are
    /// mutually exclusive, so the field is a number, not one bit per card.
    pub fn new_identifying(
        p: &CountProblem,
        r: &Reduced,
        cards: &CardClasses,
        order: Vec<u8>,
        symmetric: bool,
    ) -> Result<Plan, CountError> {
        Plan::build(p, r, cards, order, symmetric, true)
    }

    fn build(
        p: &CountProblem,
        r: &Reduced,
        cards: &CardClasses,
        order: Vec<u8>,
        symmetric: bool,
        identify: bool,
    ) -> Result<Plan, CountError> {
        let np = p.np;
        let cf = np as u8;
        let tail_cards = cards.tail;

        // Clause intervals and slots (interval colouring).
        let pos = Positions::new(&order);
        let mut intervals = clause_intervals(r, &pos);
        intervals.sort();
        let mut slot_free_after: Vec<usize> = Vec::new(); // last position using each slot
        let mut slot_of = vec![0u32; r.clauses.len()];
        for &(first, last, i) in &intervals {
            let slot = match slot_free_after.iter().position(|&end| end < first) {
                Some(s) => {
                    slot_free_after[s] = last;
                    s
                }
                None => {
                    slot_free_after.push(last);
                    slot_free_after.len() - 1
                }
            };
            slot_of[i] = slot as u32;
        }
        let num_slots = slot_free_after.len() as u32;

        // Key layout: clause slots, category bits (fields when identifying),
        // capacity fields.
        let mut offset = num_slots;
        let mut open_cats = Vec::new();
        for (k, &cat_cards) in p.categories.iter().enumerate() {
            if r.cat_done >> k & 1 == 0 {
                let case_ok = |c: &Card| r.allowed[c.index()] >> cf & 1 == 1;
                let tail_ok = (cat_cards & tail_cards).iter().filter(case_ok).count() as u8;
                let cands: Vec<u8> = if identify {
                    order.iter().copied().filter(|&c| cat_cards.contains(Card(c)) && case_ok(&Card(c))).collect()
                } else {
                    Vec::new()
                };
                let width = if identify { bits_for(cands.len() as u8).max(1) } else { 1 };
                if offset + width > 128 {
                    return Err(CountError::TooComplex(offset + width));
                }
                open_cats.push(OpenCat {
                    category: k,
                    mask: ((1u128 << width) - 1) << offset,
                    off: offset,
                    tail_ok,
                    cands,
                });
                offset += width;
            }
        }
        let mut fields = Vec::new();
        let mut field_of = [None; MAX_PLAYERS];
        let mut init = 0u128;
        let n = order.len();
        let free = if symmetric { free_sets(r, np, &order, &intervals) } else { vec![0; n + 1] };
        for a in 0..np {
            if r.rem[a] > 0 {
                let width = bits_for(r.rem[a]);
                if offset + width > 128 {
                    return Err(CountError::TooComplex(offset + width));
                }
                let mask = (1u128 << width) - 1;
                fields.push((a, offset, mask));
                field_of[a] = Some((offset, mask));
                init |= (r.rem[a] as u128) << offset;
                offset += width;
            }
        }
        // The pool: the sets only grow, so the last one has every player
        // ever free.
        let ever_free = (0..np).filter(|&a| free[n] >> a & 1 == 1);
        let pool_room: u32 = ever_free.clone().map(|a| u32::from(r.rem[a])).sum();
        let mut scale = 1u128;
        for a in ever_free {
            scale = mul(scale, falling(r.rem[a], 0)?)?;
        }
        let pool = (free[n] != 0).then(|| {
            let width = u32::BITS - pool_room.leading_zeros();
            let field = (offset, (1u128 << width) - 1);
            offset += width;
            field
        });
        if offset > 128 {
            return Err(CountError::TooComplex(offset));
        }
        // A case-file move's field and value: the category's bit, or the
        // card's number among its candidates.
        let cat_field = |k: usize, c: u8| {
            open_cats.iter().find(|o| o.category == k).map_or((0, 0), |o| {
                let val = match o.cands.iter().position(|&x| x == c) {
                    Some(i) if identify => (i as u128 + 1) << o.off,
                    _ => o.mask,
                };
                (o.mask, val)
            })
        };

        // Availability after each step, for pruning dead states early.
        let mut avail = vec![[0u128; MAX_PLACES]; n + 1];
        let mut cat_avail = vec![vec![0u8; p.categories.len()]; n + 1];
        for o in &open_cats {
            cat_avail[n][o.category] = o.tail_ok;
        }
        for a in 0..np {
            avail[n][a] = tail_cards.len() as u128;
        }
        for i in (0..n).rev() {
            avail[i] = avail[i + 1];
            cat_avail[i] = cat_avail[i + 1].clone();
            let c = order[i] as usize;
            for a in 0..np {
                if r.allowed[c] >> a & 1 == 1 {
                    avail[i][a] += 1;
                }
            }
            if r.allowed[c] >> cf & 1 == 1 {
                cat_avail[i][p.category_of[c] as usize] += 1;
            }
        }

        // Players free from the start join the pool with weight 1.
        let joins_of = |set: u16| -> Result<Vec<Join>, CountError> {
            (0..np)
                .filter(|&a| set >> a & 1 == 1)
                .map(|player| {
                    let (off, mask) = field_of[player].expect("free players have room");
                    let m = r.rem[player];
                    let weight = (0..=m).map(|x| falling(m, x)).collect::<Result<_, _>>()?;
                    Ok(Join { player, off, mask, weight })
                })
                .collect()
        };
        let init = match pool {
            Some(pool) => fold(init, &joins_of(free[0])?, pool),
            None => init,
        };
        // Per step, the slots of the clauses whose last card it places
        // (one pass over the clauses, not one per step and clause).
        let mut end_masks = vec![0u128; n];
        for &(_, last, j) in &intervals {
            if let Some(m) = end_masks.get_mut(last) {
                *m |= 1u128 << slot_of[j];
            }
        }
        let mut steps: Vec<Step> = Vec::with_capacity(n);
        for (i, &c) in order.iter().enumerate() {
            let ci = c as usize;
            let end_mask = end_masks[i];
            let mut clause_sat = [0u128; MAX_PLACES];
            for (j, cl) in r.clauses.iter().enumerate() {
                let bit = 1u128 << slot_of[j];
                for l in cl.iter().filter(|l| l.card == c) {
                    for q in 0..=np {
                        if (q as u8 == l.place) == l.positive {
                            clause_sat[q] |= bit;
                        }
                    }
                }
            }
            let mut moves = Vec::new();
            let mut tight = Vec::new();
            let mut case_tight = None;
            for q in 0..=np {
                if r.allowed[ci] >> q & 1 == 0 {
                    continue;
                }
                if free[i] >> q & 1 == 1 {
                    // Free players may hold every DP card left and no clause
                    // mentions them, so `clause_sat` is the same for all.
                    if !moves.iter().any(|m: &Move| m.place == POOL) {
                        let (off, mask) = pool.expect("a symmetric plan has a pool");
                        moves.push(Move {
                            place: POOL,
                            take: 1 << off,
                            field: Some((off, mask)),
                            cat_mask: 0,
                            cat_val: 0,
                            sat: clause_sat[q],
                        });
                    }
                    continue;
                }
                if q < np {
                    let (off, mask) = field_of[q].expect("allowed players have room");
                    moves.push(Move {
                        place: q as u8,
                        take: 1 << off,
                        field: Some((off, mask)),
                        cat_mask: 0,
                        cat_val: 0,
                        sat: clause_sat[q],
                    });
                    tight.push((off, mask, avail[i][q], moves.len() - 1));
                } else {
                    let k = p.category_of[ci] as usize;
                    let (cat_mask, cat_val) = cat_field(k, c);
                    moves.push(Move { place: q as u8, take: 0, field: None, cat_mask, cat_val, sat: clause_sat[q] });
                    if cat_avail[i][k] == 1 {
                        case_tight = Some((cat_mask, moves.len() - 1));
                    }
                }
            }
            let demand = if fields.len() >= MIN_PLAYERS_FOR_DEMAND {
                demands(r, np, &pos, i, &intervals, &slot_of, &field_of)
            } else {
                Vec::new()
            };
            let joins = joins_of(free[i + 1] & !free[i])?;
            let weighted = !joins.is_empty() || moves.iter().any(|m| m.place == POOL);
            let fresh = match steps.last() {
                Some(before) => fresh_checks(&demand, &before.demand),
                None => u32::MAX,
            };
            steps.push(Step {
                card: c,
                moves,
                end_mask,
                tight,
                case_tight,
                demand,
                fresh,
                free: free[i],
                joins,
                weighted,
            });
        }

        // Tail classes by (category, case file allowed).
        let mut tail: Vec<TailClass> = Vec::new();
        for c in tail_cards {
            let ci = c.index();
            let category = p.category_of[ci] as usize;
            let case_ok = r.allowed[ci] >> cf & 1 == 1;
            match tail.iter_mut().find(|t| t.category == category && t.case_ok == case_ok) {
                Some(t) => t.cards.push(ci as u8),
                None => tail.push(TailClass { cards: vec![ci as u8], category, case_ok }),
            }
        }
        let mut rem0 = [0u8; MAX_PLAYERS];
        rem0[..np].copy_from_slice(&r.rem[..np]);
        Ok(Plan {
            steps,
            init,
            fields,
            open_cats,
            tail,
            np,
            key_bits: offset,
            field_of,
            free_final: free[n],
            rem0,
            pool,
            scale,
            weights64: offset <= 64
                && u128::from(pool_room).max(1).checked_mul(scale).is_some_and(|w| w <= u128::from(u64::MAX)),
        })
    }

    /// Which moves a state may take so that every place can still be
    /// filled afterwards. States only ever hold fields no larger than the
    /// cards left that can fill them, so only places with no room to spare
    /// need a look.
    #[inline]
    pub fn allowed<K: Key>(step: &Step, key: K) -> Allowed {
        let mut only = None;
        for &(off, mask, avail, i) in &step.tight {
            if (key >> off) & K::narrow(mask) == K::narrow(avail) {
                if only.is_some() {
                    return Allowed::Dead;
                }
                only = Some(i);
            }
        }
        if let Some((bit, i)) = step.case_tight {
            if key & K::narrow(bit) == K::ZERO {
                if only.is_some() {
                    return Allowed::Dead;
                }
                only = Some(i);
            }
        }
        match only {
            Some(i) => Allowed::Only(i),
            None => Allowed::All,
        }
    }

    /// The same DP without clause-demand pruning: the reference of the
    /// property test that compares counters.
    #[cfg(test)]
    pub fn without_demand(mut self) -> Plan {
        for step in &mut self.steps {
            step.demand.clear();
        }
        self
    }

    /// The same DP with every demand check run at every step, as before
    /// checks repeated from the step before were skipped: the reference of
    /// the test that the skipping prunes the same states.
    #[cfg(test)]
    pub fn every_check_fresh(mut self) -> Plan {
        for step in &mut self.steps {
            step.fresh = u32::MAX;
        }
        self
    }

    /// The same DP with every weight computed on `u128`, as where they do
    /// not fit in `u64`: the reference of the test of [`Plan::weight64`].
    #[cfg(test)]
    pub fn with_u128_weights(mut self) -> Plan {
        self.weights64 = false;
        self
    }

    /// Per move of a step, the demand checks (bit `d` for `step.demand[d]`)
    /// whose bits the move may change: its field (a move needs room, so
    /// nothing borrows out of it), the bits it sets and the slots the step
    /// frees. The other checks read the same bits before the step as after
    /// the move, so the forward pass runs them once per state.
    pub fn demand_deps(step: &Step) -> Vec<u32> {
        debug_assert!(step.demand.len() <= 32, "one demand per player");
        step.moves
            .iter()
            .map(|mv| {
                let touched = mv.field.map_or(0, |(off, mask)| mask << off) | mv.sat | mv.cat_mask | step.end_mask;
                step.demand
                    .iter()
                    .enumerate()
                    .filter(|(_, d)| d.slots.iter().fold(d.mask << d.off, |m, &s| m | 1 << s) & touched != 0)
                    .fold(0, |m, (x, _)| m | 1 << x)
            })
            .collect()
    }

    /// The demand checks among `set` (bits as in [`Plan::demand_deps`])
    /// that a key fails: a state after a step must pass them all to leave
    /// every player room for its clauses (see [`super::demand`]).
    #[inline]
    pub fn failing<K: Key>(step: &Step, key: K, set: u32) -> u32 {
        let (mut rest, mut fail) = (set, 0);
        while rest != 0 {
            let x = rest.trailing_zeros();
            if !step.demand[x as usize].holds(key) {
                fail |= 1 << x;
            }
            rest &= rest - 1;
        }
        fail
    }

    /// Whether some layer has free players (pooled).
    pub fn is_symmetric(&self) -> bool {
        self.free_final != 0 || self.steps.iter().any(|s| s.free != 0)
    }

    /// A player's room in a key.
    pub fn room(&self, key: u128, a: usize) -> usize {
        let (off, mask) = self.field_of[a].expect("only players with room are asked");
        ((key >> off) & mask) as usize
    }

    /// The pool's room in a key (0 without a pool).
    pub fn pool_room(&self, key: u128) -> u128 {
        self.pool.map_or(0, |(off, mask)| (key >> off) & mask)
    }

    /// The state after a step's move, once the players it frees have
    /// joined the pool (see [`super::sym`]).
    #[inline]
    pub fn join<K: Key>(&self, step: &Step, key: K) -> K {
        match self.pool {
            Some(pool) if !step.joins.is_empty() => fold(key, &step.joins, pool),
            _ => key,
        }
    }

    /// The weight of move `m` of a step from a state: the pool's room for a
    /// move to the pool (the slot the card takes, see [`super::sym`]), times
    /// the weights of the players joining the pool after it. The two
    /// factors are returned apart.
    pub fn weight(&self, step: &Step, key: u128, m: usize) -> (u128, u128) {
        let mv = &step.moves[m];
        let slots = if mv.place == POOL { self.pool_room(key) } else { 1 };
        let mut joins = 1u128;
        for join in &step.joins {
            let room = ((key >> join.off) & join.mask) as usize - usize::from(usize::from(mv.place) == join.player);
            // A product of falling factorials of rooms: at most `scale`.
            joins *= join.weight[room];
        }
        (slots, joins)
    }

    /// [`Plan::weight`] on `u64`, where [`Plan::weights64`] (a weight is at
    /// most the pool's room times the scale, the joins' product at most
    /// the scale): the backward pass and the case sweeps recompute every
    /// edge's weight, and on `u128` that was 2-3 % of a pooled plan's
    /// analysis. (The forward pass and the free players' marginals gain
    /// nothing from it: their keys are at the pass's width already.)
    #[inline]
    pub fn weight64(&self, step: &Step, key: u64, m: usize) -> (u64, u64) {
        let mv = &step.moves[m];
        let slots = match self.pool {
            Some((off, mask)) if mv.place == POOL => (key >> off) & mask as u64,
            _ => 1,
        };
        let mut joins = 1u64;
        for join in &step.joins {
            let room =
                ((key >> join.off) & join.mask as u64) as usize - usize::from(usize::from(mv.place) == join.player);
            joins *= join.weight[room] as u64;
        }
        (slots, joins)
    }

    /// The state after a move, if the move is possible and no clause ending
    /// here is left unsatisfied.
    #[inline]
    pub fn apply<K: Key>(step: &Step, key: K, mv: &Move) -> Option<K> {
        let cat_mask = K::narrow(mv.cat_mask);
        let mut nk = match mv.field {
            Some((off, mask)) => {
                if (key >> off) & K::narrow(mask) == K::ZERO {
                    return None;
                }
                key - K::narrow(mv.take)
            }
            None => {
                if key & cat_mask != K::ZERO {
                    return None;
                }
                key | K::narrow(mv.cat_val)
            }
        };
        nk = nk | K::narrow(mv.sat);
        let end_mask = K::narrow(step.end_mask);
        if nk & end_mask != end_mask {
            return None;
        }
        Some(nk & !end_mask)
    }
}

/// `m! / x!` for `x <= m`.
fn falling(m: u8, x: u8) -> Result<u128, CountError> {
    (x + 1..=m).try_fold(1u128, |acc, v| mul(acc, u128::from(v)))
}

/// Moves the rooms of joining players into the pool field.
#[inline]
fn fold<K: Key>(key: K, joins: &[Join], (pool_off, _): (u32, u128)) -> K {
    let mut out = key;
    for join in joins {
        let room = (out >> join.off) & K::narrow(join.mask);
        out = out & !K::narrow(join.mask << join.off);
        out = out + K::narrow((room.low() as u128) << pool_off);
    }
    out
}

/// Each DP card's position in a card order.
pub(super) struct Positions([usize; MAX_CARDS]);

impl Positions {
    pub fn new(order: &[u8]) -> Positions {
        let mut pos = [usize::MAX; MAX_CARDS];
        for (i, &c) in order.iter().enumerate() {
            pos[usize::from(c)] = i;
        }
        Positions(pos)
    }

    /// The position of a clause card (every clause card is in the order).
    pub fn of(&self, c: u8) -> usize {
        let at = self.0[usize::from(c)];
        assert!(at != usize::MAX, "clause cards are ordered");
        at
    }
}

/// Each clause's first and last position in the order, and its index.
pub(super) fn clause_intervals(r: &Reduced, pos: &Positions) -> Vec<(usize, usize, usize)> {
    r.clauses
        .iter()
        .enumerate()
        .map(|(j, cl)| {
            let ps = cl.iter().map(|l| pos.of(l.card));
            (ps.clone().min().unwrap_or(0), ps.max().unwrap_or(0), j)
        })
        .collect()
}

/// Per layer `0..=n` (before step `i`), the players that are *free* from
/// there on: every DP card left may go to them and no clause in flight or
/// to come mentions them. They are interchangeable for the rest of the DP
/// except for their room (tail cards may go to every player with room), so
/// they can be pooled (see [`super::sym`]). Sets of fewer than two players
/// are left empty (the rooms' sum already implies one player's room); the
/// sets only grow from layer to layer.
pub(super) fn free_sets(r: &Reduced, np: usize, order: &[u8], intervals: &[(usize, usize, usize)]) -> Vec<u16> {
    let active: u16 = (0..np).filter(|&a| r.rem[a] > 0).fold(0, |m, a| m | 1 << a);
    let players = (1u16 << np) - 1;
    let n = order.len();
    // The players each layer's last clause cards mention: walking back, a
    // clause is busy from its last card on.
    let mut ending = vec![0u16; n + 1];
    for &(_, last, j) in intervals {
        let mentioned = r.clauses[j].iter().filter(|l| usize::from(l.place) < np).fold(0u16, |m, l| m | 1 << l.place);
        ending[last] |= mentioned;
    }
    let mut out = vec![0u16; n + 1];
    let (mut barred, mut busy) = (0u16, 0u16);
    for i in (0..=n).rev() {
        if i < n {
            barred |= !r.allowed[order[i] as usize] & players;
        }
        busy |= ending[i];
        let free = active & !barred & !busy;
        out[i] = if free.count_ones() >= 2 { free } else { 0 };
    }
    out
}

/// The checks of `demand` (as bits) that are not one of `before`.
fn fresh_checks(demand: &[Demand], before: &[Demand]) -> u32 {
    demand.iter().enumerate().filter(|(_, d)| !before.contains(d)).fold(0, |m, (x, _)| m | 1 << x)
}

/// In-flight clauses per player the demand check reads (its table has
/// `2^MAX_DEMAND_SLOTS` entries).
const MAX_DEMAND_SLOTS: usize = 6;
/// The largest need the demand check computes exactly; larger needs count
/// as `MAX_DEMAND_NEED + 1`, a lower bound.
const MAX_DEMAND_NEED: u8 = 3;

/// Below this many players with room (key fields) the plan has no demand
/// checks: two players' rooms (9 to 14 cards each) rarely bind before the
/// last cards, so the checks cut few states (master 2 bystander 20, seeds
/// 0..199: 961,232 states without them against 932,444 with, at most 1.16
/// times on a state) and cost more than they save (the whole analysis
/// 15 % fewer instructions on master 2 bystander 20, 9 % on 10
/// suggestions). From three players on they pay on the whole (classic 3
/// bystander 20: 44 % more states without them, up to 2.4 times).
const MIN_PLAYERS_FOR_DEMAND: usize = 3;

/// The clause demand checks after step `i`: per player with room, its
/// single-player clauses in flight (by slot) and not yet started.
fn demands(
    r: &Reduced,
    np: usize,
    pos: &Positions,
    i: usize,
    intervals: &[(usize, usize, usize)],
    slot_of: &[u32],
    field_of: &[Option<(u32, u128)>; MAX_PLAYERS],
) -> Vec<Demand> {
    let mut out = Vec::new();
    for (a, field) in field_of.iter().enumerate().take(np) {
        let Some((off, mask)) = *field else { continue };
        let (mut slots, mut flight, mut future) = (Vec::new(), Vec::new(), Vec::new());
        for &(first, last, j) in intervals {
            let cl = &r.clauses[j];
            if last <= i || single_player(cl, np) != Some(a as u8) {
                continue;
            }
            let rest: u64 = cl.iter().filter(|l| pos.of(l.card) > i).fold(0, |m, l| m | 1 << l.card);
            if first > i {
                future.push(rest);
            } else {
                slots.push(slot_of[j]);
                flight.push(rest);
            }
        }
        // Few slots per player in practice; bound the table size and the
        // hitting-set search regardless (large custom decks). Leaving clauses
        // out and capping the need only weakens the check: it stays sound.
        if slots.len() > MAX_DEMAND_SLOTS {
            slots.truncate(MAX_DEMAND_SLOTS);
            flight.truncate(MAX_DEMAND_SLOTS);
        }
        let cap = r.rem[a].min(MAX_DEMAND_NEED);
        let need = need_table(&flight, &future, cap);
        if need.iter().any(|&n| n > 0) {
            out.push(Demand::new(off, mask, slots, need));
        }
    }
    out
}
