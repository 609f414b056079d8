//! The exact-reasoning baseline agent.

use super::{random_card, random_combination};
use crate::agent::{Agent, SimRng, View};
use rand::seq::SliceRandom;
use sleuth_core::advice::{certain_case_file, in_case_file};
use sleuth_core::count::count_marginals;
use sleuth_core::CountOptions;
use sleuth_core::{Card, CardSet, CountProblem, Counts, Player};

/// Reasons exactly about its own view with the exact counter.
///
/// It uses the exact marginal counts of its view: the numbers that
/// [`Analysis`](sleuth_core::Analysis) reports. `Analysis::new` also lists
/// the possible case files, which these decisions do not need and which
/// costs several times more than the counts on the master deck.
///
/// - **Accuses** as soon as the case file is certain: a single possible case
///   file, holding every consistent deal. It never accuses otherwise, so it
///   is never wrong.
/// - **Suggests** the combination it cannot rule out that is most likely to
///   be the case file under independent marginals: in every category the card
///   with the highest probability of being in the case file (ties broken at
///   random). That maximises the product of the case-file probabilities, and
///   every card has a probability above 0, so each suggestion either gets a
///   card it has not seen shown (a card it did not know to be outside the case
///   file) or, when nobody refutes, proves the whole case file.
/// - **Refutes** with a random one of its matching cards.
///
/// If the exact count fails (overflow) or the view is inconsistent (which
/// the simulator never produces), it plays random legal suggestions and does
/// not accuse.
#[derive(Clone, Debug, Default)]
pub struct ExactAgent {
    /// The counts of the view with this many events.
    cache: Option<(usize, Counts)>,
}

impl ExactAgent {
    /// A new exact agent.
    pub fn new() -> ExactAgent {
        ExactAgent { cache: None }
    }

    /// The exact counts of `view`, computed once per number of events;
    /// `None` when they overflow or no deal fits.
    fn counts(&mut self, view: &View<'_>) -> Option<&Counts> {
        let events = view.events().len();
        if self.cache.as_ref().is_none_or(|(n, _)| *n != events) {
            self.cache = None;
            let counts = count_marginals(&CountProblem::new(view.game()), &CountOptions::default()).ok()?;
            self.cache = Some((events, counts));
        }
        self.cache.as_ref().map(|(_, c)| c).filter(|c| c.total > 0)
    }
}

impl Agent for ExactAgent {
    fn name(&self) -> &str {
        "exact"
    }

    fn new_game(&mut self, _view: &View<'_>, _rng: &mut SimRng) {
        self.cache = None;
    }

    fn accuse(&mut self, view: &View<'_>, _rng: &mut SimRng) -> Option<CardSet> {
        certain_case_file(view.game(), self.counts(view)?)
    }

    fn suggest(&mut self, view: &View<'_>, rng: &mut SimRng) -> CardSet {
        let deck = view.deck();
        let game = view.game();
        let Some(counts) = self.counts(view) else { return random_combination(deck, rng) };
        let mut suggestion = CardSet::EMPTY;
        let mut best: Vec<Card> = Vec::new();
        for cat in deck.categories() {
            // Exact counts share one denominator, so compare them, not floats.
            let mut top = 0u128;
            best.clear();
            for card in deck.category_cards(cat) {
                let n = in_case_file(game, counts, card);
                if n > top {
                    top = n;
                    best.clear();
                }
                if n == top && n > 0 {
                    best.push(card);
                }
            }
            match best.choose(rng) {
                Some(&card) => suggestion.insert(card),
                // Consistent analyses have a case-file card in every category.
                None => suggestion.insert(random_card(deck.category_cards(cat), rng)),
            };
        }
        suggestion
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
