//! A players-outer counter (prototype, totals only; not used by the engine
//! yet, see BENCHMARKS.md, issue 2).
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
//! `C(n, j)` ways. The players are taken greedily: next, the one whose
//! removal leaves the fewest special cards.
//!
//! Only problems whose clauses all say "player p holds one of these cards"
//! are handled (every bystander state, and observer states without
//! accusations); otherwise `None`.

use super::arith::{add, mul, BINOMIAL};
use super::demand::single_player;
use super::CountError;
use crate::deduce::{Problem, Reduced};
use crate::model::Card;
use rustc_hash::FxHashMap;

/// The total number of deals of a reduced problem and the number of states
/// visited, or `None` if some clause is not a single player's positive
/// clause or the state budget `max_states` is exceeded.
pub(super) fn total(p: &Problem, r: &Reduced, max_states: usize) -> Result<Option<(u128, usize)>, CountError> {
    let np = p.np;
    let mut owners = Vec::with_capacity(r.clauses.len());
    for cl in &r.clauses {
        match single_player(cl, np) {
            Some(a) => owners.push(usize::from(a)),
            None => return Ok(None),
        }
    }
    let clause_cards: Vec<u64> = r.clauses.iter().map(|cl| cl.iter().fold(0, |m, l| m | 1 << l.card)).collect();
    let cards: Vec<usize> = r.unassigned(p).iter().map(|c| c.index()).collect();
    let all: u64 = cards.iter().fold(0, |m, &c| m | 1 << c);
    let holds = |a: usize| -> u64 { cards.iter().filter(|&&c| r.allowed[c] >> a & 1 == 1).fold(0, |m, &c| m | 1 << c) };
    // Cards special for a set of players (bit a = still to come).
    let special = |rest: u16| -> u64 {
        let mut m = 0u64;
        for a in (0..np).filter(|&a| rest >> a & 1 == 1) {
            m |= all & !holds(a);
        }
        for (cl, &a) in clause_cards.iter().zip(&owners) {
            if rest >> a & 1 == 1 {
                m |= cl;
            }
        }
        m
    };

    // Greedy player order.
    let mut rest: u16 = (0..np).filter(|&a| r.rem[a] > 0).fold(0, |m, a| m | 1 << a);
    let mut order = Vec::new();
    while rest != 0 {
        let a = (0..np)
            .filter(|&a| rest >> a & 1 == 1)
            .min_by_key(|&a| special(rest & !(1 << a)).count_ones())
            .expect("rest is not empty");
        rest &= !(1 << a);
        order.push(a);
    }
    let mut rest: u16 = order.iter().fold(0, |m, &a| m | 1 << a);

    // The case file: one allowed card per open category, enumerated card by
    // card (at most a few hundred files), merging equal states.
    let cf = np;
    let spec0 = special(rest);
    let mut cur: FxHashMap<(u64, u8), u128> = FxHashMap::default();
    let mut files: Vec<u64> = vec![0];
    for (k, &cat) in p.categories.iter().enumerate() {
        if r.cat_done >> k & 1 == 1 {
            continue;
        }
        let cand: Vec<usize> =
            cards.iter().copied().filter(|&c| cat.contains(Card(c as u8)) && r.allowed[c] >> cf & 1 == 1).collect();
        files = files.iter().flat_map(|&f| cand.iter().map(move |&c| f | 1 << c)).collect();
    }
    for f in files {
        let left = all & !f;
        let key = (left & spec0, (left & !spec0).count_ones() as u8);
        let e = cur.entry(key).or_insert(0);
        *e = add(*e, 1)?;
    }
    let mut states = cur.len();

    let mut subsets = Vec::new();
    for &a in &order {
        rest &= !(1 << a);
        let spec = special(rest);
        let live: u64 = (0..np).filter(|&b| rest >> b & 1 == 1).fold(0, |m, b| m | holds(b));
        let mine: Vec<u64> = clause_cards.iter().zip(&owners).filter(|&(_, &o)| o == a).map(|(&cl, _)| cl).collect();
        let (allowed_a, h) = (holds(a), u32::from(r.rem[a]));
        let mut next: FxHashMap<(u64, u8), u128> = FxHashMap::default();
        for (&(u, n), &f) in &cur {
            subsets.clear();
            small_subsets(u & allowed_a, 0, h, &mut subsets);
            for &sub in &subsets {
                let k = sub.count_ones();
                let j = h - k;
                if j > u32::from(n) || !mine.iter().all(|&cl| cl & sub != 0) {
                    continue;
                }
                let u2 = u & !sub;
                if u2 & !live != 0 {
                    continue; // a special card no later player may hold
                }
                let key = (u2 & spec, n - j as u8 + (u2 & !spec).count_ones() as u8);
                let w = mul(f, BINOMIAL[usize::from(n)][j as usize])?;
                let e = next.entry(key).or_insert(0);
                *e = add(*e, w)?;
            }
        }
        states += next.len();
        if states > max_states {
            return Ok(None);
        }
        cur = next;
    }
    Ok(Some((cur.get(&(0, 0)).copied().unwrap_or(0), states)))
}

/// Every subset of `avail` with at most `left` more cards than `cur`, each
/// once (cards taken in increasing order).
fn small_subsets(avail: u64, cur: u64, left: u32, out: &mut Vec<u64>) {
    out.push(cur);
    if left == 0 {
        return;
    }
    let mut rest = avail;
    while rest != 0 {
        let bit = rest & rest.wrapping_neg();
        rest &= rest - 1;
        small_subsets(rest, cur | bit, left - 1, out);
    }
}
