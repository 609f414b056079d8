//! Refutations: which of the observer's cards to show.

use super::entropy::case_file_entropy;
use super::{AdviceError, Position};
use crate::count::count_marginals;
use crate::deduce::CountProblem;
use crate::model::{passed_players, Card, CardSet, Event, Place, Player};

/// One card the observer could show, and what it would reveal.
#[derive(Clone, Debug, PartialEq)]
pub struct RefutationOption {
    /// The card.
    pub card: Card,
    /// Whether the suggester has already been shown this card by the
    /// observer (showing it again reveals nothing).
    pub already_shown: bool,
    /// The suggester's case-file entropy after seeing the card, in bits.
    pub entropy_after: f64,
    /// What seeing the card tells the suggester about the case file, in
    /// bits: its case-file entropy before seeing the card (with the answers of
    /// the players it passed) minus its entropy after, never below 0. A card
    /// already shown to it reveals exactly 0.
    pub revealed: f64,
}

/// Which card to show, with every option.
#[derive(Clone, Debug, PartialEq)]
pub struct RefutationAdvice {
    /// The card to show: the one that reveals least.
    pub card: Card,
    /// Every card the observer could show, best first.
    pub options: Vec<RefutationOption>,
}

impl Position<'_> {
    /// The problem of what `player` certainly knows, as the observer sees
    /// it: the public events, the cards the observer showed it (held by the
    /// observer), and the cards it showed the observer (its own).
    pub fn public_model(&self, player: Player) -> CountProblem {
        let mut q = CountProblem::new(&self.game.bystander());
        for e in self.game.events() {
            let Event::Suggestion(s) = e else { continue };
            let (Some(r), Some(c)) = (s.refuted_by, s.shown) else { continue };
            if s.by == player && r == self.me {
                q.add_fact(c, Place::Player(self.me), true);
            } else if s.by == self.me && r == player {
                q.add_fact(c, Place::Player(player), true);
            }
        }
        q
    }

    /// The card to show `suggester`, who suggested `suggestion`, when the
    /// observer is the first player clockwise to hold any of it.
    ///
    /// The suggester's knowledge is modelled by what it certainly knows as
    /// far as the observer can tell ([`Position::public_model`]: public
    /// events, the cards the observer showed it, the cards it showed the
    /// observer), plus this answer: the players it passed hold none of the
    /// suggested cards and the observer holds the card shown. The card that
    /// leaves the suggester's case-file entropy highest reveals least; a card
    /// already shown to the suggester reveals nothing. Ties go to a card
    /// already shown, then to deck order.
    ///
    /// # Errors
    /// [`AdviceError::Refutation`] when the suggester is the observer, the
    /// suggestion is not one card per category, or the observer holds none
    /// of it; [`AdviceError::Count`] from the counts.
    pub fn refutation(&self, suggester: Player, suggestion: CardSet) -> Result<RefutationAdvice, AdviceError> {
        let game = self.game();
        let deck = game.deck();
        if suggester == self.me {
            return Err(AdviceError::Refutation("you cannot refute your own suggestion".into()));
        }
        let one_per_category = suggestion.is_subset(deck.all())
            && deck.categories().all(|cat| (suggestion & deck.category_cards(cat)).len() == 1);
        if !one_per_category {
            return Err(AdviceError::Refutation("a suggestion names exactly one card of each category".into()));
        }
        let candidates = suggestion & self.hand;
        if candidates.is_empty() {
            return Err(AdviceError::Refutation(format!(
                "you hold none of {}, so you cannot refute",
                deck.ids(suggestion).join(", ")
            )));
        }
        let mut shown_before = CardSet::EMPTY;
        for e in game.events() {
            if let Event::Suggestion(s) = e {
                if let (true, Some(r), Some(c)) = (s.by == suggester, s.refuted_by, s.shown) {
                    if r == self.me {
                        shown_before.insert(c);
                    }
                }
            }
        }
        let mut model = self.public_model(suggester);
        for p in passed_players(game, suggester, Some(self.me)) {
            for c in suggestion {
                model.add_fact(c, Place::Player(p), false);
            }
        }
        // The reference point, the same for every option: what the suggester
        // knows before seeing the card, with the passed players' answers.
        let before = case_file_entropy(game, &count_marginals(&model, &self.count)?);
        let mut options = Vec::new();
        for c in candidates {
            let already_shown = shown_before.contains(c);
            let mut q = model.clone();
            q.add_fact(c, Place::Player(self.me), true);
            let counts = count_marginals(&q, &self.count)?;
            let entropy_after = if counts.total == 0 { before } else { case_file_entropy(game, &counts) };
            let revealed = if already_shown { 0.0 } else { (before - entropy_after).max(0.0) };
            options.push(RefutationOption { card: c, already_shown, entropy_after, revealed });
        }
        options.sort_by(|a, b| {
            a.revealed
                .total_cmp(&b.revealed)
                .then_with(|| b.already_shown.cmp(&a.already_shown))
                .then_with(|| b.entropy_after.total_cmp(&a.entropy_after))
                .then_with(|| a.card.cmp(&b.card))
        });
        Ok(RefutationAdvice { card: options[0].card, options })
    }
}
