//! Case-file entropy and certainty from exact counts.

use crate::analysis::ratio;
use crate::count::Counts;
use crate::model::{Card, CardSet, Game, Place};

/// The case-file entropy of a state, in bits: the sum over categories of the
/// entropy of that category's case-file card,
/// `H = Σ_k −Σ_{c in k} P(c in case file) log2 P(c in case file)`.
///
/// This is the entropy of the case file if the categories were independent;
/// it is never less than the entropy of the joint case file (subadditivity),
/// and it is what one exact marginal count gives. Zero exactly when the
/// case file is certain. An inconsistent state (no deal) has entropy 0.
pub fn case_file_entropy(game: &Game, counts: &Counts) -> f64 {
    if counts.total == 0 {
        return 0.0;
    }
    let cf = Place::CaseFile.index(game.num_players());
    let deck = game.deck();
    let mut h = 0.0;
    for cat in deck.categories() {
        for c in deck.category_cards(cat) {
            let p = ratio(counts.marginal[c.index()][cf], counts.total);
            if p > 0.0 && p < 1.0 {
                h -= p * p.log2();
            }
        }
    }
    h.max(0.0)
}

/// The deals of `counts` with `card` in the case file.
pub fn in_case_file(game: &Game, counts: &Counts, card: Card) -> u128 {
    counts.marginal[card.index()][Place::CaseFile.index(game.num_players())]
}

/// The case file if it is certain (one card per category is in the case
/// file in every consistent deal); `None` otherwise or with no deal.
pub fn certain_case_file(game: &Game, counts: &Counts) -> Option<CardSet> {
    if counts.total == 0 {
        return None;
    }
    let deck = game.deck();
    let mut cards = CardSet::EMPTY;
    for cat in deck.categories() {
        let card = deck.category_cards(cat).iter().find(|&c| in_case_file(game, counts, c) == counts.total)?;
        cards.insert(card);
    }
    Some(cards)
}

/// Per category, how many cards may still be in the case file.
pub fn case_file_candidates(game: &Game, counts: &Counts) -> Vec<usize> {
    let deck = game.deck();
    deck.categories()
        .map(|cat| deck.category_cards(cat).iter().filter(|&c| in_case_file(game, counts, c) > 0).count())
        .collect()
}
