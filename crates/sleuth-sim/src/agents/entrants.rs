//! Opponents in the style of the published Speed Clue entrants
//! (sadakatsu/SpeedClueContest, `entries/`), so that Sleuth is measured
//! against play that is not its own. Each reasons with the [`Clauses`]
//! notebook those entrants keep (never Sleuth's exact engine), never
//! repeats a suggestion (a disqualification on the contest server), and
//! accuses only when its notebook leaves a single combination.
//!
//! - [`MinimaxAgent`] (`"minimax"`), after gamecoder's `SpockAI`: suggests
//!   the combination whose worst outcome leaves the fewest possible
//!   solutions (then the fewest open cards in the other hands); when
//!   disproving, shows again a card it already showed that player, else the
//!   card of the category with the most candidates left.
//! - [`InferenceAgent`] (`"inference"`), after Peter Taylor's
//!   `InferencePlayer`: suggests by the worst case of a score of the notes
//!   (`−1000·solutions + 10·clause weight − open cards`); when disproving,
//!   shows again a card already shown to that player, else the card it has
//!   shown to the most players.
//! - [`BlufferAgent`] (`"bluffer"`): suggests a candidate combination, but
//!   one time in three puts one of its own cards in (the "padding" of the
//!   Cluedo agent-strategies seed) to mislead those who read its
//!   suggestions; shows a random matching card.

use super::clauses::{combinations, Clauses};
use super::random_card;
use super::tactics::{own_suggestions, shown_to};
use crate::agent::{Agent, SimRng, View};
use rand::seq::SliceRandom;
use rand::Rng;
use sleuth_core::{Card, CardSet, Player};
use std::collections::HashSet;

/// The combinations `view`'s player has suggested this game, as a set.
fn made(view: &View<'_>) -> HashSet<CardSet> {
    own_suggestions(view).into_iter().collect()
}

/// The unmade combination with the best worst-case score (higher is
/// better), ties broken at random; `None` when every one was made.
fn best_worst_case(
    view: &View<'_>,
    notes: &Clauses,
    rng: &mut SimRng,
    score: impl Fn(&Clauses) -> f64,
) -> Option<CardSet> {
    let me = view.me().index();
    let made = made(view);
    let mut candidates: Vec<CardSet> = combinations(view.deck()).into_iter().filter(|c| !made.contains(c)).collect();
    candidates.shuffle(rng);
    let mut best: Option<(f64, CardSet)> = None;
    for cards in candidates {
        let worst = notes.outcomes(me, cards).iter().map(&score).fold(f64::INFINITY, f64::min);
        if best.is_none_or(|(b, _)| worst > b) {
            best = Some((worst, cards));
        }
    }
    best.map(|(_, c)| c)
}

/// A random unmade combination (the fallback of every entrant).
fn any_unmade(view: &View<'_>, rng: &mut SimRng) -> CardSet {
    let made = made(view);
    let open: Vec<CardSet> = combinations(view.deck()).into_iter().filter(|c| !made.contains(c)).collect();
    open.choose(rng).copied().unwrap_or_else(|| super::random_combination(view.deck(), rng))
}

/// `SpockAI`'s minimax suggester.
#[derive(Clone, Debug, Default)]
pub struct MinimaxAgent;

impl MinimaxAgent {
    /// A new minimax agent.
    pub fn new() -> MinimaxAgent {
        MinimaxAgent
    }
}

impl Agent for MinimaxAgent {
    fn name(&self) -> &str {
        "minimax"
    }

    fn accuse(&mut self, view: &View<'_>, _rng: &mut SimRng) -> Option<CardSet> {
        Clauses::of_view(view.game()).certain()
    }

    fn suggest(&mut self, view: &View<'_>, rng: &mut SimRng) -> CardSet {
        let notes = Clauses::of_view(view.game());
        let me = view.me().index();
        // Fewest solutions in the worst case, then fewest open cards.
        let score = |k: &Clauses| -((k.solutions() * 1000 + k.open_pairs(me)) as f64);
        best_worst_case(view, &notes, rng, score).unwrap_or_else(|| any_unmade(view, rng))
    }

    fn choose_card_to_show(
        &mut self,
        view: &View<'_>,
        suggester: Player,
        _suggestion: CardSet,
        candidates: CardSet,
        _rng: &mut SimRng,
    ) -> Card {
        if let Some(c) = (shown_to(view, suggester) & candidates).first_card() {
            return c;
        }
        let notes = Clauses::of_view(view.game());
        let deck = view.deck();
        let open = |c: Card| (notes.case_file_candidates() & deck.category_cards(deck.category(c))).len();
        candidates.iter().max_by_key(|&c| open(c)).expect("a matching card")
    }
}

/// `InferencePlayer`'s worst-case information suggester.
#[derive(Clone, Debug, Default)]
pub struct InferenceAgent;

impl InferenceAgent {
    /// A new inference agent.
    pub fn new() -> InferenceAgent {
        InferenceAgent
    }
}

/// `InferencePlayer.evaluate`: known solution best; else fewer solutions,
/// more (and shorter) clauses, fewer open cards.
fn inference_score(k: &Clauses) -> f64 {
    if k.solutions() == 1 {
        return f64::INFINITY;
    }
    let weights = [0.0, 136.0, 16.0, 1.0];
    let clauses: f64 = k.clause_sizes().map(|s| weights.get(s).copied().unwrap_or(0.0)).sum();
    let open: usize = (0..k.players_count()).map(|q| k.possible(q).len()).sum();
    -1000.0 * k.solutions() as f64 + 10.0 * clauses - open as f64
}

impl Agent for InferenceAgent {
    fn name(&self) -> &str {
        "inference"
    }

    fn accuse(&mut self, view: &View<'_>, _rng: &mut SimRng) -> Option<CardSet> {
        Clauses::of_view(view.game()).certain()
    }

    fn suggest(&mut self, view: &View<'_>, rng: &mut SimRng) -> CardSet {
        let notes = Clauses::of_view(view.game());
        best_worst_case(view, &notes, rng, inference_score).unwrap_or_else(|| any_unmade(view, rng))
    }

    fn choose_card_to_show(
        &mut self,
        view: &View<'_>,
        suggester: Player,
        _suggestion: CardSet,
        candidates: CardSet,
        _rng: &mut SimRng,
    ) -> Card {
        if let Some(c) = (shown_to(view, suggester) & candidates).first_card() {
            return c;
        }
        // The card already shown to the most players.
        let shown_count = |c: Card| view.game().players().filter(|&p| shown_to(view, p).contains(c)).count();
        candidates.iter().max_by_key(|&c| shown_count(c)).expect("a matching card")
    }
}

/// A player that sometimes asks about its own cards to mislead.
#[derive(Clone, Debug, Default)]
pub struct BlufferAgent;

impl BlufferAgent {
    /// A new bluffer.
    pub fn new() -> BlufferAgent {
        BlufferAgent
    }
}

impl Agent for BlufferAgent {
    fn name(&self) -> &str {
        "bluffer"
    }

    fn accuse(&mut self, view: &View<'_>, _rng: &mut SimRng) -> Option<CardSet> {
        Clauses::of_view(view.game()).certain()
    }

    fn suggest(&mut self, view: &View<'_>, rng: &mut SimRng) -> CardSet {
        let notes = Clauses::of_view(view.game());
        let deck = view.deck();
        let made = made(view);
        for _ in 0..20 {
            let mut cards = CardSet::EMPTY;
            for cat in deck.categories() {
                let open = notes.case_file_candidates() & deck.category_cards(cat);
                let pool = if open.is_empty() { deck.category_cards(cat) } else { open };
                cards.insert(random_card(pool, rng));
            }
            // The bluff: one category asked with a card of its own hand.
            if rng.gen_bool(1.0 / 3.0) {
                let mine: Vec<Card> = view.hand().iter().collect();
                if let Some(&own) = mine.choose(rng) {
                    let cat = deck.category_cards(deck.category(own));
                    cards = (cards - cat) | CardSet::single(own);
                }
            }
            if !made.contains(&cards) {
                return cards;
            }
        }
        any_unmade(view, rng)
    }

    fn choose_card_to_show(
        &mut self,
        _view: &View<'_>,
        _suggester: Player,
        _suggestion: CardSet,
        candidates: CardSet,
        rng: &mut SimRng,
    ) -> Card {
        random_card(candidates, rng)
    }
}
