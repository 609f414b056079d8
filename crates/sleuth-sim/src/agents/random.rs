//! The random agent.

use super::{random_card, random_combination};
use crate::agent::{Agent, SimRng, View};
use sleuth_core::{Card, CardSet, Event, Player};

/// Plays uniformly random legal moves.
///
/// - Suggests a uniformly random combination (own cards included).
/// - Refutes with a uniformly random one of its matching cards.
/// - Keeps a trivial notepad: a card is eliminated when it is in its hand,
///   face up, or was shown to it. It accuses exactly when that leaves one
///   card in every category (so it never fails to accuse a solution it has
///   on paper, and is never wrong), and otherwise never accuses. It draws no
///   other inference: not from unrefuted suggestions, not from others'
///   refutations.
#[derive(Clone, Debug, Default)]
pub struct RandomAgent;

impl RandomAgent {
    /// A new random agent.
    pub fn new() -> RandomAgent {
        RandomAgent
    }

    /// The cards its notepad rules out of the case file.
    pub fn eliminated(view: &View<'_>) -> CardSet {
        let mut out = view.hand() | view.game().face_up();
        for event in view.events() {
            if let Event::Suggestion(s) = event {
                if let Some(c) = s.shown {
                    out.insert(c);
                }
            }
        }
        out
    }
}

impl Agent for RandomAgent {
    fn name(&self) -> &str {
        "random"
    }

    fn accuse(&mut self, view: &View<'_>, _rng: &mut SimRng) -> Option<CardSet> {
        let deck = view.deck();
        let left = deck.all() - Self::eliminated(view);
        let mut accusation = CardSet::EMPTY;
        for cat in deck.categories() {
            accusation.insert((left & deck.category_cards(cat)).single_card()?);
        }
        Some(accusation)
    }

    fn suggest(&mut self, view: &View<'_>, rng: &mut SimRng) -> CardSet {
        random_combination(view.deck(), rng)
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
