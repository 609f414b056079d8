//! Pruning by clause demand: a player's room must cover its clauses.
//!
//! Most states the DP visits on busy games are dead ends (measured: about 70%
//! of the states of the slowest master 10-player bystander states had no
//! completion).
//! Hall's condition on hand sizes almost never explains them; clauses do:
//! "p holds one of {a, b, c}" needs a card of p's remaining room, and a
//! player with several such clauses (suggestions it refuted) may need more
//! room than it has left. After each step we know, per player, which of its
//! clauses in flight are still unsatisfied; with the clauses not started yet
//! they need at least their minimum hitting set in cards still to come, all
//! of which must fit in the player's room. A successor state that fails this
//! is dropped before it is stored. The check is sound (it only removes
//! states with no completion), so counts are unchanged; brute-force and
//! property tests check that.

use super::plan::Key;
use crate::deduce::CLit;

/// The demand check of one player after one step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Demand {
    /// The player's capacity field: offset and mask.
    pub off: u32,
    pub mask: u128,
    /// Key bits of the player's clauses in flight after the step (set =
    /// satisfied).
    pub slots: Vec<u32>,
    /// For each subset of `slots` still unsatisfied (bit `j` for
    /// `slots[j]`): a lower bound on the cards the player must still take
    /// (the minimum hitting set, capped).
    pub need: Vec<u8>,
    /// When the slots lie within [`WINDOW`] bits of the key from `shift`:
    /// the need read straight from those bits (`by_window[bits]`), one
    /// load where gathering the slots' bits took a loop per check.
    shift: u32,
    by_window: Vec<u8>,
}

/// The widest run of key bits read at once ([`Demand::by_window`]'s table
/// has `2^WINDOW` entries).
const WINDOW: u32 = 8;

impl Demand {
    /// The check of a player's field `off`, `mask` with its clause slots and
    /// their need table (see [`need_table`]).
    pub fn new(off: u32, mask: u128, slots: Vec<u32>, need: Vec<u8>) -> Demand {
        let shift = slots.iter().copied().min().unwrap_or(0);
        let span = slots.iter().map(|&b| b - shift + 1).max().unwrap_or(0);
        let by_window = if span <= WINDOW {
            (0..1usize << span)
                .map(|bits| {
                    let idx =
                        slots.iter().enumerate().fold(0, |idx, (j, &b)| idx | ((bits >> (b - shift)) & 1 ^ 1) << j);
                    need[idx]
                })
                .collect()
        } else {
            Vec::new()
        };
        Demand { off, mask, slots, need, shift, by_window }
    }

    /// Whether a key leaves the player enough room for its clauses.
    #[inline]
    pub fn holds<K: Key>(&self, key: K) -> bool {
        let need = if self.by_window.is_empty() {
            let mut idx = 0usize;
            for (j, &bit) in self.slots.iter().enumerate() {
                idx |= ((key >> bit).low() & 1 ^ 1) << j;
            }
            self.need[idx]
        } else {
            self.by_window[(key >> self.shift).low() & (self.by_window.len() - 1)]
        };
        // Rooms are below 256, so the low bits are the whole field.
        usize::from(need) <= ((key >> self.off) & K::narrow(self.mask)).low()
    }
}

/// A clause the check understands: all literals positive and at one player.
/// Returns that player.
pub(super) fn single_player(cl: &[CLit], np: usize) -> Option<u8> {
    let q = cl.first()?.place;
    (usize::from(q) < np && cl.iter().all(|l| l.positive && l.place == q)).then_some(q)
}

/// The size of a smallest set of cards meeting every set (card bitmasks),
/// or `cap + 1` if it exceeds `cap`.
pub(super) fn min_hitting_set(sets: &[u64], cap: u8) -> u8 {
    (0..=cap).find(|&k| hits_within(sets, k)).unwrap_or(cap + 1)
}

/// Whether at most `budget` cards meet every set.
fn hits_within(sets: &[u64], budget: u8) -> bool {
    fn go(sets: &[u64], chosen: u64, budget: u8) -> bool {
        match sets.iter().find(|&&s| s & chosen == 0) {
            None => true,
            Some(_) if budget == 0 => false,
            Some(&s) => {
                let mut rest = s;
                while rest != 0 {
                    let bit = rest & rest.wrapping_neg();
                    if go(sets, chosen | bit, budget - 1) {
                        return true;
                    }
                    rest &= rest - 1;
                }
                false
            }
        }
    }
    go(sets, 0, budget)
}

/// The need table for in-flight clause card sets `flight` (remaining cards)
/// and clauses not yet started `future`.
///
/// One more set raises a smallest hitting set by at most one card, so each
/// entry is its subset's without the highest set plus zero or one: one
/// search per entry instead of one per size tried.
pub(super) fn need_table(flight: &[u64], future: &[u64], cap: u8) -> Vec<u8> {
    let mut need = Vec::with_capacity(1 << flight.len());
    need.push(min_hitting_set(future, cap));
    let mut sets: Vec<u64> = Vec::with_capacity(future.len() + flight.len());
    for idx in 1..1usize << flight.len() {
        let base = need[idx & !(1 << (usize::BITS - 1 - idx.leading_zeros()))];
        let next = if base > cap {
            base
        } else {
            sets.clear();
            sets.extend_from_slice(future);
            sets.extend(flight.iter().enumerate().filter(|&(j, _)| idx >> j & 1 == 1).map(|(_, &s)| s));
            if hits_within(&sets, base) {
                base
            } else {
                base + 1
            }
        };
        need.push(next);
    }
    need
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hitting_sets() {
        assert_eq!(min_hitting_set(&[], 3), 0);
        assert_eq!(min_hitting_set(&[0b111], 3), 1);
        // Two clauses sharing a card need one card; disjoint ones need two.
        assert_eq!(min_hitting_set(&[0b011, 0b110], 3), 1);
        assert_eq!(min_hitting_set(&[0b011, 0b1100], 3), 2);
        // Capped: four disjoint sets with room 2 report 3.
        assert_eq!(min_hitting_set(&[0b1, 0b10, 0b100, 0b1000], 2), 3);
        assert_eq!(need_table(&[0b1, 0b10], &[0b100], 3), vec![1, 2, 2, 3]);
    }

    /// The incremental table against a search per entry, on random sets
    /// of up to three of ten cards.
    #[test]
    fn need_table_matches_a_search_per_entry() {
        use rand::{Rng, SeedableRng};
        let mut r = rand_chacha::ChaCha8Rng::seed_from_u64(20);
        let set =
            |r: &mut rand_chacha::ChaCha8Rng| (0..r.gen_range(1..=3)).fold(0u64, |m, _| m | 1 << r.gen_range(0..10));
        for _ in 0..2000 {
            let flight: Vec<u64> = (0..r.gen_range(0..=5)).map(|_| set(&mut r)).collect();
            let future: Vec<u64> = (0..r.gen_range(0..=4)).map(|_| set(&mut r)).collect();
            let cap = r.gen_range(0..=3);
            let want: Vec<u8> = (0..1usize << flight.len())
                .map(|idx| {
                    let mut sets = future.clone();
                    sets.extend(flight.iter().enumerate().filter(|&(j, _)| idx >> j & 1 == 1).map(|(_, &s)| s));
                    min_hitting_set(&sets, cap)
                })
                .collect();
            assert_eq!(need_table(&flight, &future, cap), want, "{flight:?} {future:?} cap {cap}");
        }
    }

    /// The table read from a window of key bits and the loop over the
    /// slots (used where the slots spread wider) give the same answers.
    #[test]
    fn holds_by_window_matches_the_loop() {
        use rand::{Rng, SeedableRng};
        let mut r = rand_chacha::ChaCha8Rng::seed_from_u64(44);
        for _ in 0..500 {
            let k = r.gen_range(0..=4);
            let spread = if r.gen_bool(0.5) { 8 } else { 30 };
            let mut slots: Vec<u32> = Vec::new();
            while slots.len() < k {
                let b = r.gen_range(8..8 + spread);
                if !slots.contains(&b) {
                    slots.push(b);
                }
            }
            let need: Vec<u8> = (0..1 << k).map(|_| r.gen_range(0..4)).collect();
            let d = Demand::new(0, 0b111, slots.clone(), need.clone());
            for _ in 0..50 {
                let key: u64 = r.gen::<u64>();
                let idx = slots.iter().enumerate().fold(0, |idx, (j, &b)| idx | (((key >> b) & 1) ^ 1) << j);
                let want = u64::from(need[idx as usize]) <= key & 0b111;
                assert_eq!(d.holds(key), want, "slots {slots:?} key {key:#x}");
                assert_eq!(d.holds(u128::from(key)), want);
            }
        }
    }

    #[test]
    fn holds_reads_unsatisfied_slots_and_room() {
        // Slots at bits 0 and 1, room field at bits 4..6.
        let d = Demand::new(4, 0b11, vec![0, 1], vec![0, 1, 1, 2]);
        assert!(d.holds(0b01_0000u128 | 0b11)); // both satisfied, room 1
        assert!(d.holds(0b01_0000u128 | 0b01)); // one open, room 1
        assert!(!d.holds(0b01_0000u128)); // two open, room 1
        assert!(d.holds(0b10_0000u128)); // two open, room 2
        assert!(!d.holds(0b10u128)); // one open, room 0
    }
}
