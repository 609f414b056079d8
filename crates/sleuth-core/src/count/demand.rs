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
#[derive(Clone, Debug)]
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
}

impl Demand {
    /// Whether a key leaves the player enough room for its clauses.
    #[inline]
    pub fn holds<K: Key>(&self, key: K) -> bool {
        let mut idx = 0usize;
        for (j, &bit) in self.slots.iter().enumerate() {
            idx |= ((key >> bit).low() & 1 ^ 1) << j;
        }
        // Rooms are below 256, so the low bits are the whole field.
        usize::from(self.need[idx]) <= ((key >> self.off) & K::narrow(self.mask)).low()
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
    (0..=cap).find(|&k| go(sets, 0, k)).unwrap_or(cap + 1)
}

/// The need table for in-flight clause card sets `flight` (remaining cards)
/// and clauses not yet started `future`.
pub(super) fn need_table(flight: &[u64], future: &[u64], cap: u8) -> Vec<u8> {
    (0..1usize << flight.len())
        .map(|idx| {
            let mut sets: Vec<u64> = future.to_vec();
            sets.extend(flight.iter().enumerate().filter(|&(j, _)| idx >> j & 1 == 1).map(|(_, &s)| s));
            min_hitting_set(&sets, cap)
        })
        .collect()
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

    #[test]
    fn holds_reads_unsatisfied_slots_and_room() {
        // Slots at bits 0 and 1, room field at bits 4..6.
        let d = Demand { off: 4, mask: 0b11, slots: vec![0, 1], need: vec![0, 1, 1, 2] };
        assert!(d.holds(0b01_0000u128 | 0b11)); // both satisfied, room 1
        assert!(d.holds(0b01_0000u128 | 0b01)); // one open, room 1
        assert!(!d.holds(0b01_0000u128)); // two open, room 1
        assert!(d.holds(0b10_0000u128)); // two open, room 2
        assert!(!d.holds(0b10u128)); // one open, room 0
    }
}
