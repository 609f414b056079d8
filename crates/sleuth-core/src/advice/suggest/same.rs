//! Suggestions with the same answers: those that differ only in cards
//! nobody but the observer can show.
//!
//! The refuter is the first player after the observer who holds a suggested
//! card, and it shows one of those. A card that no other player holds in
//! any consistent deal (the observer's own, a face-up one, a case-file card
//! that is certain) is never held by a refuter, so putting another such
//! card of its category in its place changes no answer in any deal: the
//! same deals stay consistent after each answer, and the evaluation is the
//! same to the bit. A ranking that lists both says one thing twice; the
//! advice lists such suggestions together, as one choice.

use super::SuggestionEval;
use crate::advice::Position;
use crate::model::{Card, CardSet, Deck};
use std::collections::hash_map::Entry;
use std::collections::HashMap;

impl Position<'_> {
    /// The cards nobody but the observer can show in answer to its
    /// suggestions: no other player holds them in any consistent deal (its
    /// own cards, the face-up ones, and a case-file card that is certain).
    /// In a suggestion, any of them in place of another of its category
    /// gives the same answers ([`same_answers`]).
    pub fn unshowable(&self) -> CardSet {
        let nobody_else = |c: &Card| self.game.players().all(|r| r == self.me || !self.may_hold(r, *c));
        self.game.deck().cards().filter(nobody_else).collect()
    }
}

/// Per suggestion of `ranked`, the index of the first one before it with
/// the same answers, or `None` when it is the first of its answers: the
/// same cards but for cards of `unshowable` ([`Position::unshowable`]).
pub fn same_answers(ranked: &[SuggestionEval], unshowable: CardSet) -> Vec<Option<usize>> {
    let mut first: HashMap<CardSet, usize> = HashMap::new();
    (ranked.iter().enumerate())
        .map(|(i, e)| match first.entry(e.cards - unshowable) {
            Entry::Occupied(seen) => Some(*seen.get()),
            Entry::Vacant(new) => {
                new.insert(i);
                None
            }
        })
        .collect()
}

/// `ranked` (best first) cut to its first `n` distinct choices: the first
/// `n` suggestions of distinct answers ([`same_answers`]) and every one
/// with the same answers as one of those, in their order.
pub fn keep_distinct(ranked: &mut Vec<SuggestionEval>, n: usize, unshowable: CardSet) {
    let mut kept: Vec<bool> = Vec::with_capacity(ranked.len());
    let mut firsts = 0;
    for same in same_answers(ranked, unshowable) {
        kept.push(match same {
            Some(first) => kept[first],
            None => {
                firsts += 1;
                firsts <= n
            }
        });
    }
    let mut kept = kept.into_iter();
    ranked.retain(|_| kept.next().unwrap_or(false));
}

/// The other cards of `card`'s category that give the same answers in its
/// place in a suggestion: where `card` is one of `unshowable`
/// ([`Position::unshowable`]), the others of its category; else none.
pub fn alternatives(deck: &Deck, card: Card, unshowable: CardSet) -> CardSet {
    match unshowable.contains(card) {
        true => (unshowable & deck.category_cards(deck.category(card))) - CardSet::single(card),
        false => CardSet::EMPTY,
    }
}
