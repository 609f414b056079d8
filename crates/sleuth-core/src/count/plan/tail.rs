//! The tail and the final states: the case-file fields of a key, the rooms
//! left, and the closed forms that place the tail cards from a final state
//! (a choice of case-file cards times a multinomial of the rooms left).

use super::{OpenCat, Plan};
use crate::count::arith::{add, mul, multinomial};
use crate::count::CountError;
use crate::model::{MAX_PLACES, MAX_PLAYERS};

impl Plan {
    /// The open categories.
    pub fn open_cats(&self) -> &[OpenCat] {
        &self.open_cats
    }

    /// The case-file fields of a key (all of them together), which in an
    /// identifying plan say which DP card is each open category's case card.
    pub fn case_of(&self, key: u128) -> u128 {
        key & self.open_cats.iter().fold(0, |m, o| m | o.mask)
    }

    /// In an identifying plan, the case card of open category `i` recorded
    /// in `case` (from [`Plan::case_of`]); `None` while it is not placed
    /// (the tail then supplies it).
    pub fn case_card(&self, case: u128, i: usize) -> Option<u8> {
        let o = &self.open_cats[i];
        let v = ((case & o.mask) >> o.off) as usize;
        (v > 0).then(|| o.cands[v - 1])
    }

    /// Where the placed open categories sit in a key, their one-bit fields
    /// side by side (bit `i` for `open_cats[i]`): the shift and the mask
    /// (none placed without open categories); `None` in an identifying
    /// plan, whose fields are wider.
    pub fn placed_field(&self) -> Option<(u32, u128)> {
        let Some(first) = self.open_cats.first() else { return Some((0, 0)) };
        let side_by_side = self
            .open_cats
            .iter()
            .enumerate()
            .all(|(i, o)| o.mask == 1u128 << (first.off + i as u32) && o.off == first.off + i as u32);
        side_by_side.then(|| (first.off, (1u128 << self.open_cats.len()) - 1))
    }

    /// The open categories of a final state (bit `i` for `open_cats[i]`).
    pub fn open_of(&self, key: u128) -> u32 {
        let mut open = 0u32;
        for (i, o) in self.open_cats.iter().enumerate() {
            if key & o.mask == 0 {
                open |= 1 << i;
            }
        }
        open
    }

    /// For each place, the number of ways to deal the tail to the players
    /// from a final state with one given tail card at that place, ignoring
    /// the case file: `multinomial(rem - e_a)` for player `a`, and
    /// `multinomial(rem)` for the case file (the card itself is the case
    /// card). Written in place: the backward pass runs this per final state.
    pub fn player_shares(&self, key: u128, shares: &mut [u128; MAX_PLACES]) -> Result<(), CountError> {
        let rem = self.rooms(key);
        let (full, m) = self.players_from(&rem, self.pool_room(key))?;
        shares[self.np] = full;
        for a in 0..self.np {
            shares[a] = if rem[a] > 0 { share(full, m, rem[a] as u128)? } else { 0 };
        }
        Ok(())
    }

    /// Case-file choices for the tail: (all choices, choices without
    /// `category`'s case card coming from its tail, that category's count).
    fn case_choices(&self, open: u32, category: Option<usize>) -> Result<(u128, u128), CountError> {
        let mut others = 1u128;
        let mut own = None;
        for (i, o) in self.open_cats.iter().enumerate() {
            if open >> i & 1 == 0 {
                continue;
            }
            let t = u128::from(o.tail_ok);
            if Some(o.category) == category {
                own = Some(t);
            } else {
                others = mul(others, t)?;
            }
        }
        Ok((others, own.unwrap_or(1)))
    }

    /// For a final state of a symmetric plan: the tail ways with one given
    /// tail card in one given slot of the pool, ignoring the case file.
    pub fn slot_share(&self, key: u128) -> Result<u128, CountError> {
        let (full, m) = self.players_from(&self.rooms(key), self.pool_room(key))?;
        if m == 0 {
            return Ok(0);
        }
        share(full, m, 1)
    }

    /// The ways to deal the tail's player cards, given the players' rooms
    /// and the pool's room (as that many distinct slots, see
    /// [`super::sym`]), and how many cards that is.
    fn players_from(&self, rem: &[u8; MAX_PLAYERS], slots: u128) -> Result<(u128, u128), CountError> {
        let mut full = multinomial(&rem[..self.np])?;
        let mut m: u128 = rem.iter().map(|&x| x as u128).sum();
        for _ in 0..slots {
            m += 1;
            full = mul(full, m)?;
        }
        Ok((full, m))
    }

    /// Remaining room per player in a key (0 for players without a field).
    fn rooms(&self, key: u128) -> [u8; MAX_PLAYERS] {
        let mut rem = [0u8; MAX_PLAYERS];
        // Variable u128 shifts take several instructions each; this runs
        // once per final state.
        if self.key_bits <= 64 {
            let key = key as u64;
            for &(a, off, mask) in &self.fields {
                rem[a] = ((key >> off) & mask as u64) as u8;
            }
        } else {
            for &(a, off, mask) in &self.fields {
                rem[a] = ((key >> off) & mask) as u8;
            }
        }
        rem
    }

    /// Remaining room per player, and the categories whose case card must
    /// come from the tail, in a final state.
    pub fn final_state(&self, key: u128) -> ([u8; MAX_PLAYERS], Vec<usize>) {
        let rem = self.rooms(key);
        let open = self.open_cats.iter().filter(|o| key & o.mask == 0).map(|o| o.category).collect();
        (rem, open)
    }

    /// Ways to place the tail from a final state.
    pub fn tail_ways(&self, key: u128) -> Result<u128, CountError> {
        let mut shares = [0u128; MAX_PLACES];
        self.player_shares(key, &mut shares)?;
        self.ways_from(self.open_of(key), &shares)
    }

    /// Ways to place the tail, from [`Plan::open_of`] and
    /// [`Plan::player_shares`].
    pub fn ways_from(&self, open: u32, shares: &[u128; MAX_PLACES]) -> Result<u128, CountError> {
        let (others, own) = self.case_choices(open, None)?;
        mul(mul(others, own)?, shares[self.np])
    }

    /// Marginals of one card of each tail class, from the forward-weighted
    /// sums of [`Plan::player_shares`] grouped by open categories.
    pub fn tail_marginals(&self, sums: &[(u32, [u128; MAX_PLACES])]) -> Result<Vec<[u128; MAX_PLACES]>, CountError> {
        let np = self.np;
        let mut out = vec![[0u128; MAX_PLACES]; self.tail.len()];
        for (class, m) in self.tail.iter().zip(out.iter_mut()) {
            for &(open, shares) in sums {
                let (others, own) = self.case_choices(open, Some(class.category))?;
                let own_open =
                    self.open_cats.iter().enumerate().any(|(i, o)| o.category == class.category && open >> i & 1 == 1);
                // With this card as the case card: the other categories' choices.
                let with_card = if class.case_ok && own_open { others } else { 0 };
                let without = mul(others, own)? - with_card;
                m[np] = add(m[np], mul(with_card, shares[np])?)?;
                for a in 0..np {
                    m[a] = add(m[a], mul(without, shares[a])?)?;
                }
            }
        }
        Ok(out)
    }
}

/// `full * x / m`, an integer here; split so nothing overflows.
fn share(full: u128, m: u128, x: u128) -> Result<u128, CountError> {
    // A u64 division is one instruction, a u128 one a library call; with
    // `x <= m` (a player's room is part of all room left) nothing below
    // exceeds `full`.
    if full >> 64 == 0 {
        let (full, m, x) = (full as u64, m as u64, x as u64);
        return Ok(u128::from((full / m) * x + (full % m) * x / m));
    }
    let (q, r) = (full / m, full % m);
    add(mul(q, x)?, r * x / m)
}
