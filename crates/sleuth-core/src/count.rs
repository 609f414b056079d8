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
//! Marginals come from a forward pass (storing each layer) and a backward
//! pass that combines forward and backward counts at every transition. All
//! arithmetic is checked `u128`; a count that does not fit is an error.

use crate::deduce::{propagate, Problem, Reduced, NONE};
use crate::model::{Card, CardSet, MAX_CARDS, MAX_PLACES, MAX_PLAYERS};
use rustc_hash::FxHashMap;

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
}

/// The result of an exact count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counts {
    /// The number of consistent deals.
    pub total: u128,
    /// `marginal[card][place]`: the number of consistent deals with the card
    /// at the place (place index: players in seat order, then the case file).
    pub marginal: Vec<[u128; MAX_PLACES]>,
}

/// Binomial coefficients up to 64 choose k, all of which fit in u128.
static BINOMIAL: [[u128; 65]; 65] = {
    let mut t = [[0u128; 65]; 65];
    let mut n = 0;
    while n <= 64 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

fn add(a: u128, b: u128) -> Result<u128, CountError> {
    a.checked_add(b).ok_or(CountError::Overflow)
}

fn mul(a: u128, b: u128) -> Result<u128, CountError> {
    a.checked_mul(b).ok_or(CountError::Overflow)
}

/// `m! / prod(parts!)` where `m = sum(parts)`.
fn multinomial(parts: &[u8]) -> Result<u128, CountError> {
    let mut left: usize = parts.iter().map(|&x| x as usize).sum();
    let mut acc = 1u128;
    for &k in parts {
        acc = mul(acc, BINOMIAL[left][k as usize])?;
        left -= k as usize;
    }
    Ok(acc)
}

/// One possible destination of a DP card.
#[derive(Clone, Debug)]
struct Move {
    place: u8,
    /// Subtracted from the key: one unit of the player's capacity field.
    take: u128,
    /// The player's field, to test that capacity is left.
    field: Option<(u32, u128)>,
    /// The category bit set by a case-file move.
    cat_bit: u128,
    /// Clause slots this move satisfies.
    sat: u128,
}

/// One DP card with its moves and the checks after it.
#[derive(Clone, Debug)]
struct Step {
    card: u8,
    moves: Vec<Move>,
    /// Clause slots whose clause ends at this card: must be set, then freed.
    end_mask: u128,
    /// Fields (offset, mask, max) that must not exceed the cards still able
    /// to fill them after this step.
    caps: Vec<(u32, u128, u128)>,
    /// A category bit that must be set unless a later card can still fill it.
    cat_needed: Option<u128>,
}

/// Tail cards of one category, split by whether the case file is allowed.
#[derive(Clone, Debug, Default)]
struct TailClass {
    cards: Vec<u8>,
    category: usize,
    case_ok: bool,
}

/// The compiled dynamic program for one reduced problem.
struct Plan {
    steps: Vec<Step>,
    init: u128,
    /// Active players: (player index, field offset, mask).
    fields: Vec<(usize, u32, u128)>,
    /// Open categories: (category, key bit, tail cards allowed in the case file).
    open_cats: Vec<(usize, u128, u8)>,
    tail: Vec<TailClass>,
    np: usize,
}

fn bits_for(max: u8) -> u32 {
    u8::BITS - max.leading_zeros()
}

impl Plan {
    fn new(p: &Problem, r: &Reduced) -> Result<Plan, CountError> {
        let np = p.np;
        let cf = np as u8;
        let unassigned = r.unassigned(p);
        let active: u16 = (0..np).filter(|&a| r.rem[a] > 0).fold(0, |m, a| m | 1 << a);

        // Which cards are in clauses; which are restricted.
        let mut in_clause = CardSet::EMPTY;
        for cl in &r.clauses {
            for l in cl {
                in_clause.insert(Card(l.card));
            }
        }
        let restricted: CardSet =
            (unassigned - in_clause).iter().filter(|c| r.allowed[c.index()] & active != active).collect();
        let tail_cards = unassigned - in_clause - restricted;

        // Order: restricted free cards, then clause cards clause by clause,
        // always continuing with the clause that has the fewest cards left.
        let mut order: Vec<u8> = restricted.iter().map(|c| c.index() as u8).collect();
        let mut placed = restricted;
        let mut pending: Vec<CardSet> =
            r.clauses.iter().map(|cl| cl.iter().map(|l| Card(l.card)).collect()).collect();
        while !pending.is_empty() {
            let (i, _) = pending
                .iter()
                .enumerate()
                .min_by_key(|(_, s)| ((**s - placed).len(), s.len()))
                .expect("pending is not empty");
            let set = pending.swap_remove(i);
            for c in set - placed {
                order.push(c.index() as u8);
            }
            placed |= set;
        }

        // Clause intervals and slots (interval colouring).
        let pos_of = |c: u8| order.iter().position(|&x| x == c).expect("clause cards are ordered");
        let mut intervals: Vec<(usize, usize, usize)> = r
            .clauses
            .iter()
            .enumerate()
            .map(|(i, cl)| {
                let ps = cl.iter().map(|l| pos_of(l.card));
                (ps.clone().min().unwrap_or(0), ps.max().unwrap_or(0), i)
            })
            .collect();
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

        // Key layout: clause slots, category bits, capacity fields.
        let mut offset = num_slots;
        let mut open_cats = Vec::new();
        for (k, &cards) in p.categories.iter().enumerate() {
            if r.cat_done >> k & 1 == 0 {
                let tail_ok = (cards & tail_cards).iter().filter(|c| r.allowed[c.index()] >> cf & 1 == 1).count();
                open_cats.push((k, 1u128 << offset, tail_ok as u8));
                offset += 1;
            }
        }
        let mut fields = Vec::new();
        let mut field_of = [None; MAX_PLAYERS];
        let mut init = 0u128;
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
        if offset > 128 {
            return Err(CountError::TooComplex(offset));
        }
        let cat_bit = |k: usize| open_cats.iter().find(|o| o.0 == k).map(|o| o.1).unwrap_or(0);

        // Availability after each step, for pruning dead states early.
        let n = order.len();
        let mut avail = vec![[0u128; MAX_PLACES]; n + 1];
        let mut cat_avail = vec![vec![0u8; p.categories.len()]; n + 1];
        for &(k, _, t) in &open_cats {
            cat_avail[n][k] = t;
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

        let mut steps = Vec::with_capacity(n);
        for (i, &c) in order.iter().enumerate() {
            let ci = c as usize;
            let mut end_mask = 0u128;
            let mut clause_sat = [0u128; MAX_PLACES];
            for (j, cl) in r.clauses.iter().enumerate() {
                let bit = 1u128 << slot_of[j];
                if intervals.iter().any(|&(_, last, idx)| idx == j && last == i) {
                    end_mask |= bit;
                }
                for l in cl.iter().filter(|l| l.card == c) {
                    for q in 0..=np {
                        if (q as u8 == l.place) == l.positive {
                            clause_sat[q] |= bit;
                        }
                    }
                }
            }
            let mut moves = Vec::new();
            let mut caps = Vec::new();
            for q in 0..=np {
                if r.allowed[ci] >> q & 1 == 0 {
                    continue;
                }
                if q < np {
                    let (off, mask) = field_of[q].expect("allowed players have room");
                    moves.push(Move { place: q as u8, take: 1 << off, field: Some((off, mask)), cat_bit: 0, sat: clause_sat[q] });
                    caps.push((off, mask, avail[i + 1][q]));
                } else {
                    let bit = cat_bit(p.category_of[ci] as usize);
                    moves.push(Move { place: q as u8, take: 0, field: None, cat_bit: bit, sat: clause_sat[q] });
                }
            }
            let k = p.category_of[ci] as usize;
            let cat_needed = (r.allowed[ci] >> cf & 1 == 1 && cat_avail[i + 1][k] == 0).then(|| cat_bit(k));
            steps.push(Step { card: c, moves, end_mask, caps, cat_needed });
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
        Ok(Plan { steps, init, fields, open_cats, tail, np })
    }

    #[inline]
    fn apply(step: &Step, key: u128, mv: &Move) -> Option<u128> {
        let mut nk = match mv.field {
            Some((off, mask)) => {
                if (key >> off) & mask == 0 {
                    return None;
                }
                key - mv.take
            }
            None => {
                if key & mv.cat_bit != 0 {
                    return None;
                }
                key | mv.cat_bit
            }
        };
        nk |= mv.sat;
        if nk & step.end_mask != step.end_mask {
            return None;
        }
        nk &= !step.end_mask;
        for &(off, mask, max) in &step.caps {
            if (nk >> off) & mask > max {
                return None;
            }
        }
        if let Some(bit) = step.cat_needed {
            if nk & bit == 0 {
                return None;
            }
        }
        Some(nk)
    }

    /// Remaining capacities and open categories of a final state.
    fn final_parts(&self, key: u128) -> ([u8; MAX_PLAYERS], Vec<(usize, u8)>) {
        let mut rem = [0u8; MAX_PLAYERS];
        for &(a, off, mask) in &self.fields {
            rem[a] = ((key >> off) & mask) as u8;
        }
        let open = self.open_cats.iter().filter(|o| key & o.1 == 0).map(|o| (o.0, o.2)).collect();
        (rem, open)
    }

    /// Ways to place the tail cards from a final state.
    fn tail_ways(&self, key: u128) -> Result<u128, CountError> {
        let (rem, open) = self.final_parts(key);
        let mut ways = multinomial(&rem[..self.np])?;
        for (_, t) in open {
            ways = mul(ways, t as u128)?;
        }
        Ok(ways)
    }

    /// Per tail class, the number of ways with one given card of the class
    /// at each place, from a final state.
    fn tail_marginals(&self, key: u128) -> Result<Vec<[u128; MAX_PLACES]>, CountError> {
        let (rem, open) = self.final_parts(key);
        let np = self.np;
        let full = multinomial(&rem[..np])?;
        let mut out = Vec::with_capacity(self.tail.len());
        for class in &self.tail {
            let mut m = [0u128; MAX_PLACES];
            let mut others = 1u128; // case-file choices of the other open categories
            let mut own = None; // this class's category's tail choices, if open
            for &(k, t) in &open {
                if k == class.category {
                    own = Some(t as u128);
                } else {
                    others = mul(others, t as u128)?;
                }
            }
            let all_choices = mul(others, own.unwrap_or(1))?;
            let with_this_card = if class.case_ok && own.is_some() { others } else { 0 };
            m[np] = mul(with_this_card, full)?;
            let without = all_choices - with_this_card;
            for a in 0..np {
                if rem[a] > 0 {
                    let mut r = rem;
                    r[a] -= 1;
                    m[a] = mul(without, multinomial(&r[..np])?)?;
                }
            }
            out.push(m);
        }
        Ok(out)
    }
}

/// Counts the consistent deals of a problem, without marginals.
///
/// # Errors
/// [`CountError`] if the count does not fit or the state is too large.
pub fn count(p: &Problem) -> Result<u128, CountError> {
    let Some(r) = propagate(p) else { return Ok(0) };
    let plan = Plan::new(p, &r)?;
    let mut cur: FxHashMap<u128, u128> = FxHashMap::default();
    cur.insert(plan.init, 1);
    for step in &plan.steps {
        cur = advance(step, &cur)?;
        if cur.is_empty() {
            return Ok(0);
        }
    }
    let mut total = 0u128;
    for (&key, &f) in &cur {
        total = add(total, mul(f, plan.tail_ways(key)?)?)?;
    }
    Ok(total)
}

fn advance(step: &Step, cur: &FxHashMap<u128, u128>) -> Result<FxHashMap<u128, u128>, CountError> {
    let mut next: FxHashMap<u128, u128> = FxHashMap::with_capacity_and_hasher(cur.len() * 2, Default::default());
    for (&key, &f) in cur {
        for mv in &step.moves {
            if let Some(nk) = Plan::apply(step, key, mv) {
                let e = next.entry(nk).or_insert(0);
                *e = add(*e, f)?;
            }
        }
    }
    Ok(next)
}

/// Counts the consistent deals and, for every card and place, the deals
/// with the card there.
///
/// # Errors
/// [`CountError`] if a count does not fit or the state is too large.
pub fn count_marginals(p: &Problem) -> Result<Counts, CountError> {
    let mut marginal = vec![[0u128; MAX_PLACES]; MAX_CARDS];
    let Some(r) = propagate(p) else {
        return Ok(Counts { total: 0, marginal });
    };
    let plan = Plan::new(p, &r)?;

    // Forward, keeping every layer.
    let mut layers: Vec<FxHashMap<u128, u128>> = Vec::with_capacity(plan.steps.len() + 1);
    let mut first = FxHashMap::default();
    first.insert(plan.init, 1u128);
    layers.push(first);
    for step in &plan.steps {
        let next = advance(step, layers.last().expect("layers start non-empty"))?;
        layers.push(next);
    }

    // The tail closes the last layer.
    let mut total = 0u128;
    let last = layers.pop().expect("at least the first layer");
    let mut back: FxHashMap<u128, u128> = FxHashMap::with_capacity_and_hasher(last.len(), Default::default());
    let mut tail_marg = vec![[0u128; MAX_PLACES]; plan.tail.len()];
    for (&key, &f) in &last {
        let w = plan.tail_ways(key)?;
        if w == 0 {
            continue;
        }
        total = add(total, mul(f, w)?)?;
        back.insert(key, w);
        for (acc, m) in tail_marg.iter_mut().zip(plan.tail_marginals(key)?) {
            for q in 0..=plan.np {
                acc[q] = add(acc[q], mul(f, m[q])?)?;
            }
        }
    }
    if total == 0 {
        return Ok(Counts { total: 0, marginal });
    }
    for (class, m) in plan.tail.iter().zip(&tail_marg) {
        for &c in &class.cards {
            marginal[c as usize] = *m;
        }
    }

    // Backward, combining forward and backward counts at each move.
    for (step, layer) in plan.steps.iter().zip(layers.iter()).rev() {
        let mut prev: FxHashMap<u128, u128> = FxHashMap::with_capacity_and_hasher(layer.len(), Default::default());
        let row = &mut marginal[step.card as usize];
        for (&key, &f) in layer {
            let mut b_sum = 0u128;
            for mv in &step.moves {
                if let Some(nk) = Plan::apply(step, key, mv) {
                    if let Some(&b) = back.get(&nk) {
                        b_sum = add(b_sum, b)?;
                        row[mv.place as usize] = add(row[mv.place as usize], mul(f, b)?)?;
                    }
                }
            }
            if b_sum > 0 {
                prev.insert(key, b_sum);
            }
        }
        back = prev;
    }

    // Cards fixed by propagation are where they are in every deal.
    for c in p.in_play {
        let q = r.assigned[c.index()];
        if q != NONE {
            marginal[c.index()][q as usize] = total;
        }
    }
    Ok(Counts { total, marginal })
}

/// Possible case files with their number of consistent deals, most likely
/// first (ties in deck order).
///
/// Cards that are interchangeable (same allowed places, in no clause) give
/// equal counts, so only one representative of each group is counted.
///
/// # Errors
/// [`CountError`] from the underlying counts.
pub fn case_files(p: &Problem, counts: &Counts) -> Result<Vec<(Vec<Card>, u128)>, CountError> {
    if counts.total == 0 {
        return Ok(Vec::new());
    }
    let cf = p.np;
    let Some(r) = propagate(p) else { return Ok(Vec::new()) };
    let mut in_clause = CardSet::EMPTY;
    for cl in &r.clauses {
        for l in cl {
            in_clause.insert(Card(l.card));
        }
    }
    // Per category: groups of interchangeable candidates.
    let mut groups: Vec<Vec<Vec<Card>>> = Vec::new();
    for &cards in &p.categories {
        let mut cat_groups: Vec<Vec<Card>> = Vec::new();
        for c in cards.iter().filter(|c| counts.marginal[c.index()][cf] > 0) {
            let free = !in_clause.contains(c) && r.assigned[c.index()] == NONE;
            let same = cat_groups.iter_mut().find(|g| {
                let d = g[0];
                free && !in_clause.contains(d)
                    && r.assigned[d.index()] == NONE
                    && r.allowed[d.index()] == r.allowed[c.index()]
            });
            match same {
                Some(g) => g.push(c),
                None => cat_groups.push(vec![c]),
            }
        }
        groups.push(cat_groups);
    }
    // Every combination of representatives.
    let mut result = Vec::new();
    let mut choice = vec![0usize; groups.len()];
    loop {
        let mut q = p.clone();
        for (k, &g) in choice.iter().enumerate() {
            let rep = groups[k][g][0];
            q.add_clause_unit(rep, cf as u8);
        }
        let n = count(&q)?;
        if n > 0 {
            expand(&groups, &choice, n, &mut result);
        }
        // Next combination.
        let mut k = 0;
        loop {
            if k == choice.len() {
                result.sort_by(|a: &(Vec<Card>, u128), b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
                return Ok(result);
            }
            choice[k] += 1;
            if choice[k] < groups[k].len() {
                break;
            }
            choice[k] = 0;
            k += 1;
        }
    }
}

fn expand(groups: &[Vec<Vec<Card>>], choice: &[usize], n: u128, out: &mut Vec<(Vec<Card>, u128)>) {
    let mut idx = vec![0usize; choice.len()];
    loop {
        let cards = (0..choice.len()).map(|k| groups[k][choice[k]][idx[k]]).collect();
        out.push((cards, n));
        let mut k = 0;
        loop {
            if k == idx.len() {
                return;
            }
            idx[k] += 1;
            if idx[k] < groups[k][choice[k]].len() {
                break;
            }
            idx[k] = 0;
            k += 1;
        }
    }
}

impl Problem {
    fn add_clause_unit(&mut self, card: Card, place: u8) {
        self.allowed[card.index()] &= 1 << place;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials_are_right() {
        assert_eq!(BINOMIAL[5][2], 10);
        assert_eq!(BINOMIAL[64][32], 1_832_624_140_942_590_534);
        assert_eq!(multinomial(&[2, 1, 1]).unwrap(), 12);
        assert_eq!(multinomial(&[]).unwrap(), 1);
    }
}
