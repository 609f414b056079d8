//! Baseline agents.
//!
//! - [`ExactAgent`] (`"exact"`): reasons with the exact engine, accuses as
//!   soon as it is certain.
//! - [`RandomAgent`] (`"random"`): uniformly random legal moves, accusing
//!   only when a notepad of eliminated cards leaves one card per category.

mod exact;
mod random;

pub use exact::{certain_case_file, ExactAgent};
pub use random::RandomAgent;

use crate::agent::SimRng;
use rand::seq::IteratorRandom;
use sleuth_core::{Card, CardSet, Deck};

/// A uniformly random card of `set`.
///
/// # Panics
/// If `set` is empty.
pub fn random_card(set: CardSet, rng: &mut SimRng) -> Card {
    set.iter().choose(rng).expect("a non-empty set of cards")
}

/// A uniformly random combination: one card of each category of `deck`.
pub fn random_combination(deck: &Deck, rng: &mut SimRng) -> CardSet {
    deck.categories().map(|cat| random_card(deck.category_cards(cat), rng)).collect()
}
