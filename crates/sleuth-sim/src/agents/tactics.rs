//! Tactics shared by the notepad, group4 and SAT agents: suggestions that do
//! not repeat, and the memory of which cards this player has shown to whom.

use crate::agent::{SimRng, View};
use rand::seq::SliceRandom;
use sleuth_core::{Card, CardSet, Deck, Event, Player};

/// This player's earlier suggestions, in order.
pub fn own_suggestions(view: &View<'_>) -> Vec<CardSet> {
    let me = view.me();
    view.events()
        .iter()
        .filter_map(|e| match e {
            Event::Suggestion(s) if s.by == me => Some(s.cards),
            _ => None,
        })
        .collect()
}

/// The cards of `category_cards` in order of preference: the cards of each
/// tier in random order, tier after tier, then the cards in no tier in random
/// order. A card in two tiers counts in the first.
pub fn ranked(category_cards: CardSet, tiers: &[CardSet], rng: &mut SimRng) -> Vec<Card> {
    let mut out = Vec::with_capacity(category_cards.len());
    let mut left = category_cards;
    for &tier in tiers.iter().chain(std::iter::once(&category_cards)) {
        let mut cards: Vec<Card> = (tier & left).iter().collect();
        cards.shuffle(rng);
        left = left - tier;
        out.extend(cards);
    }
    out
}

/// The most preferred combination not in `used`: `prefs[k]` lists every card
/// of category `k` best first, and combinations are tried by increasing sum
/// of their cards' ranks (so the best combination first, then those that
/// change one card by one place, and so on). When every combination has been
/// used, the best one.
///
/// The Speed Clue contest disqualifies repeated suggestions, and a repeated
/// suggestion only repeats an answer already heard, so every agent but the
/// baselines picks its suggestion through this.
///
/// # Panics
/// If some `prefs[k]` is empty.
pub fn fresh_suggestion(prefs: &[Vec<Card>], used: &[CardSet]) -> CardSet {
    let best: CardSet = prefs.iter().map(|p| p[0]).collect();
    if !used.contains(&best) {
        return best;
    }
    let max: usize = prefs.iter().map(|p| p.len() - 1).sum();
    (1..=max).find_map(|budget| search(prefs, budget, CardSet::EMPTY, used)).unwrap_or(best)
}

/// A combination of the categories `prefs` not in `used` whose ranks sum to
/// exactly `budget`, added to `acc`.
fn search(prefs: &[Vec<Card>], budget: usize, acc: CardSet, used: &[CardSet]) -> Option<CardSet> {
    let Some((first, rest)) = prefs.split_first() else {
        return (budget == 0 && !used.contains(&acc)).then_some(acc);
    };
    let room: usize = rest.iter().map(|p| p.len() - 1).sum();
    let lo = budget.saturating_sub(room);
    (lo..=budget.min(first.len() - 1)).find_map(|r| search(rest, budget - r, acc | CardSet::single(first[r]), used))
}

/// Per category of `deck`, its cards ranked by [`ranked`] with the tiers
/// `tiers(category cards)`, then [`fresh_suggestion`] against this player's
/// own earlier suggestions.
pub fn suggest_by_tiers(view: &View<'_>, rng: &mut SimRng, mut tiers: impl FnMut(CardSet) -> Vec<CardSet>) -> CardSet {
    let deck: &Deck = view.deck();
    let prefs: Vec<Vec<Card>> = deck
        .categories()
        .map(|cat| {
            let cards = deck.category_cards(cat);
            ranked(cards, &tiers(cards), rng)
        })
        .collect();
    fresh_suggestion(&prefs, &own_suggestions(view))
}

/// Every card this player has shown, with whom it was shown to, in order.
pub fn shown_by_me<'a>(view: &View<'a>) -> impl Iterator<Item = (Player, Card)> + 'a {
    let me = view.me();
    view.events().iter().filter_map(move |e| match e {
        Event::Suggestion(s) if s.refuted_by == Some(me) => s.shown.map(|c| (s.by, c)),
        _ => None,
    })
}

/// The cards this player has already shown to `suggester`.
pub fn shown_to(view: &View<'_>, suggester: Player) -> CardSet {
    shown_by_me(view).filter(|&(to, _)| to == suggester).map(|(_, c)| c).collect()
}

/// The cards worth showing `suggester` among `candidates`: those it has
/// already seen (showing one again tells it nothing), or every candidate when
/// it has seen none of them.
pub fn reshow_pool(view: &View<'_>, suggester: Player, candidates: CardSet) -> CardSet {
    let again = shown_to(view, suggester) & candidates;
    if again.is_empty() {
        candidates
    } else {
        again
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use sleuth_core::Deck;

    fn set(deck: &Deck, ids: &[&str]) -> CardSet {
        ids.iter().map(|id| deck.card(id).unwrap()).collect()
    }

    #[test]
    fn a_fresh_suggestion_changes_as_little_as_possible_and_never_repeats() {
        let deck = Deck::classic();
        let mut rng = SimRng::seed_from_u64(1);
        let prefs: Vec<Vec<Card>> = deck
            .categories()
            .map(|cat| ranked(deck.category_cards(cat), &[deck.category_cards(cat)], &mut rng))
            .collect();
        let best: CardSet = prefs.iter().map(|p| p[0]).collect();
        assert_eq!(fresh_suggestion(&prefs, &[]), best);
        let second = fresh_suggestion(&prefs, &[best]);
        assert_ne!(second, best);
        assert_eq!((second & best).len(), 2, "one card changed to the next in its list");
        // Every one of the 6 * 6 * 9 combinations comes out once.
        let mut used = Vec::new();
        for _ in 0..324 {
            let s = fresh_suggestion(&prefs, &used);
            assert!(!used.contains(&s));
            assert_eq!(s.len(), 3);
            used.push(s);
        }
        assert_eq!(fresh_suggestion(&prefs, &used), best, "all used: the best again");
    }

    #[test]
    fn ranked_lists_tiers_in_order() {
        let deck = Deck::classic();
        let mut rng = SimRng::seed_from_u64(2);
        let suspects = deck.category_cards(deck.category(deck.card("mu").unwrap()));
        let first = set(&deck, &["pe", "sc"]);
        let second = set(&deck, &["mu", "sc"]);
        let order = ranked(suspects, &[first, second], &mut rng);
        assert_eq!(order.len(), 6);
        assert_eq!(order[..2].iter().copied().collect::<CardSet>(), first);
        assert_eq!(order[2], deck.card("mu").unwrap());
        assert_eq!(order.iter().copied().collect::<CardSet>(), suspects);
    }
}
