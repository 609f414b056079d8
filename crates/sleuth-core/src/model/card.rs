//! Cards and sets of cards.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Sub};

/// The most cards a deck may have: a [`CardSet`] is one 64-bit word.
pub const MAX_CARDS: usize = 64;

/// A card, as an index into its [`Deck`](super::Deck).
///
/// A `Card` is only meaningful together with the deck that handed it out.
/// Mixing decks is a logic error (wrong answers), never a memory-safety issue.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(pub(crate) u8);

impl Card {
    /// The card with this index.
    ///
    /// # Panics
    /// If `index >= MAX_CARDS`.
    pub fn new(index: usize) -> Card {
        assert!(index < MAX_CARDS, "card index {index} out of range");
        Card(index as u8)
    }

    /// The index of this card in its deck.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A set of cards as a 64-bit bitboard.
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash)]
pub struct CardSet(pub u64);

impl CardSet {
    /// The empty set.
    pub const EMPTY: CardSet = CardSet(0);

    /// The set of the first `n` cards.
    pub fn first(n: usize) -> CardSet {
        debug_assert!(n <= MAX_CARDS);
        if n >= 64 {
            CardSet(u64::MAX)
        } else {
            CardSet((1u64 << n) - 1)
        }
    }

    /// The set holding just `card`.
    pub fn single(card: Card) -> CardSet {
        CardSet(1u64 << card.0)
    }

    /// Whether `card` is in the set.
    pub fn contains(self, card: Card) -> bool {
        self.0 >> card.0 & 1 == 1
    }

    /// Adds `card`; returns whether it was absent.
    pub fn insert(&mut self, card: Card) -> bool {
        let absent = !self.contains(card);
        self.0 |= 1u64 << card.0;
        absent
    }

    /// Removes `card`; returns whether it was present.
    pub fn remove(&mut self, card: Card) -> bool {
        let present = self.contains(card);
        self.0 &= !(1u64 << card.0);
        present
    }

    /// The number of cards in the set.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether every card of `self` is in `other`.
    pub fn is_subset(self, other: CardSet) -> bool {
        self.0 & !other.0 == 0
    }

    /// The lowest card in the set, if any.
    pub fn first_card(self) -> Option<Card> {
        (self.0 != 0).then(|| Card(self.0.trailing_zeros() as u8))
    }

    /// The only card of a one-card set.
    pub fn single_card(self) -> Option<Card> {
        (self.len() == 1).then(|| Card(self.0.trailing_zeros() as u8))
    }

    /// Iterates over the cards, lowest first.
    pub fn iter(self) -> CardSetIter {
        CardSetIter(self.0)
    }

    /// Iterates over every subset of `self` with exactly `k` cards.
    pub fn subsets_of_size(self, k: usize) -> impl Iterator<Item = CardSet> {
        let cards: Vec<Card> = self.iter().collect();
        SubsetsOfSize::new(cards, k)
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(|c| c.0)).finish()
    }
}

/// Iterator over the cards of a [`CardSet`], lowest first.
#[derive(Clone)]
pub struct CardSetIter(u64);

impl Iterator for CardSetIter {
    type Item = Card;
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let card = Card(self.0.trailing_zeros() as u8);
        self.0 &= self.0 - 1;
        Some(card)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardSetIter {}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardSetIter;
    fn into_iter(self) -> CardSetIter {
        self.iter()
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        let mut set = CardSet::EMPTY;
        for card in iter {
            set.insert(card);
        }
        set
    }
}

/// Subsets of a fixed size, in lexicographic order of card positions.
struct SubsetsOfSize {
    cards: Vec<Card>,
    idx: Vec<usize>,
    done: bool,
}

impl SubsetsOfSize {
    fn new(cards: Vec<Card>, k: usize) -> Self {
        let done = k > cards.len();
        SubsetsOfSize { idx: (0..k).collect(), cards, done }
    }
}

impl Iterator for SubsetsOfSize {
    type Item = CardSet;
    fn next(&mut self) -> Option<CardSet> {
        if self.done {
            return None;
        }
        let set = self.idx.iter().map(|&i| self.cards[i]).collect();
        // Advance to the next combination of indices.
        let n = self.cards.len();
        let k = self.idx.len();
        let mut i = k;
        loop {
            if i == 0 {
                self.done = true;
                break;
            }
            i -= 1;
            if self.idx[i] < n - k + i {
                self.idx[i] += 1;
                for j in i + 1..k {
                    self.idx[j] = self.idx[j - 1] + 1;
                }
                break;
            }
        }
        Some(set)
    }
}

macro_rules! set_op {
    ($trait:ident, $method:ident, $op:tt) => {
        impl $trait for CardSet {
            type Output = CardSet;
            fn $method(self, rhs: CardSet) -> CardSet {
                CardSet(self.0 $op rhs.0)
            }
        }
    };
}
set_op!(BitOr, bitor, |);
set_op!(BitAnd, bitand, &);
set_op!(BitXor, bitxor, ^);

impl Sub for CardSet {
    type Output = CardSet;
    fn sub(self, rhs: CardSet) -> CardSet {
        CardSet(self.0 & !rhs.0)
    }
}

impl Not for CardSet {
    type Output = CardSet;
    fn not(self) -> CardSet {
        CardSet(!self.0)
    }
}

impl BitOrAssign for CardSet {
    fn bitor_assign(&mut self, rhs: CardSet) {
        self.0 |= rhs.0;
    }
}

impl BitAndAssign for CardSet {
    fn bitand_assign(&mut self, rhs: CardSet) {
        self.0 &= rhs.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let a: CardSet = [Card(1), Card(3), Card(5)].into_iter().collect();
        let b: CardSet = [Card(3), Card(4)].into_iter().collect();
        assert_eq!((a | b).len(), 4);
        assert_eq!((a & b).single_card(), Some(Card(3)));
        assert_eq!((a - b).iter().collect::<Vec<_>>(), vec![Card(1), Card(5)]);
        assert!(CardSet::single(Card(3)).is_subset(a));
        assert_eq!(CardSet::first(64).len(), 64);
        assert_eq!(CardSet::first(0), CardSet::EMPTY);
    }

    #[test]
    fn subsets_of_size_are_all_distinct_and_complete() {
        let set = CardSet::first(6);
        for k in 0..=7 {
            let subsets: Vec<CardSet> = set.subsets_of_size(k).collect();
            let expected = match k {
                0 => 1,
                1 => 6,
                2 => 15,
                3 => 20,
                4 => 15,
                5 => 6,
                6 => 1,
                _ => 0,
            };
            assert_eq!(subsets.len(), expected, "k = {k}");
            assert!(subsets.iter().all(|s| s.len() == k && s.is_subset(set)));
            let unique: std::collections::HashSet<u64> = subsets.iter().map(|s| s.0).collect();
            assert_eq!(unique.len(), subsets.len());
        }
    }
}
