//! Suggestions: the exact distribution of their answers, the expected
//! information about the case file, and a cheap first pass that picks which
//! ones to evaluate exactly.
//!
//! `answers` counts a suggestion's answers (by answer class, sharing counts
//! between suggestions, or one count per answer); `rank` is the first pass
//! and the ranking.

mod answers;
mod listed;
mod rank;
mod same;

use super::entropy::{case_file_candidates, in_case_file};
use super::Position;
use crate::analysis::ratio;
use crate::count::CountError;
use crate::model::{Card, CardSet, Player};
use answers::{lcm, Splits};

pub use listed::LISTED_WORK;
pub use rank::{focused_tiers, Objective, MAX_COMBINATIONS};
pub use same::{alternatives, keep_distinct, same_answers};

/// One possible answer to a suggestion of the observer's.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Who refutes; `None` when nobody can.
    pub refuter: Option<Player>,
    /// The card shown to the observer (`None` when nobody refutes).
    pub shown: Option<Card>,
    /// The probability of this answer (see [`SuggestionEval`] for the model).
    pub probability: f64,
    /// The case-file entropy after this answer, in bits
    /// ([`case_file_entropy`](crate::advice::case_file_entropy)).
    pub entropy_after: f64,
    /// Whether the case file is certain after this answer.
    pub solves: bool,
    /// `Σ_k log2(n_k)` after this answer, `n_k` the number of cards of
    /// category `k` that may still be in the case file (Hartley entropy).
    pub candidates_after: f64,
    /// The number of consistent deals after this answer.
    pub models_after: u128,
    /// An upper bound on the probability of the most likely case file after
    /// this answer: the smallest, over categories, of the largest case-file
    /// marginal (1 when the case file is certain).
    pub mode_bound: f64,
    /// How many case-file candidates are left to rule out after this answer:
    /// `Σ_k (n_k − 1)` (0 exactly when the case file is certain).
    pub open_after: usize,
}

/// The exact evaluation of one suggestion by the observer.
///
/// The answer model: players are asked clockwise from the suggester; the
/// first who holds any of the suggested cards refutes, and when they hold
/// several they show each with equal probability (the maximum-entropy
/// assumption: nothing is known about how they choose). The probability of
/// an answer is computed exactly from counts of consistent deals, each deal
/// equally likely: `P(r shows c) = Σ_deals [r is first] [r holds c] / k(deal)`
/// over all deals, where `k` is how many suggested cards `r` holds. After an
/// answer, the posterior is the engine's (every deal consistent with the new
/// event equally likely), exactly what the observer's notepad will show.
///
/// `information` is the case-file entropy now minus its expectation after
/// the answer, both as [`case_file_entropy`](crate::advice::case_file_entropy) (sum over categories, in bits).
#[derive(Clone, Debug, PartialEq)]
pub struct SuggestionEval {
    /// The suggested cards, one per category.
    pub cards: CardSet,
    /// Expected information about the case file, in bits.
    pub information: f64,
    /// The probability that the case file is certain after the answer.
    pub end_probability: f64,
    /// The expected drop of `Σ_k log2(n_k)`, `n_k` the case-file candidates
    /// of category `k`: case-file candidates ruled out, in bits.
    pub elimination: f64,
    /// The expected number of case-file candidates ruled out by the answer
    /// (from [`Outcome::open_after`]).
    pub ruled_out: f64,
    /// Expected information about the whole deal, in bits: `log2 N` minus
    /// the expected `log2` of the number of deals after the answer.
    pub deal_information: f64,
    /// Every possible answer with a positive probability, in the order
    /// refuters are asked (nobody last).
    pub outcomes: Vec<Outcome>,
    /// The first-pass estimate of `information` that put this suggestion on
    /// the shortlist.
    pub estimate: f64,
    /// The product of the suggested cards' case-file probabilities: how
    /// likely the suggestion is to be the case file if the categories were
    /// independent (the `exact` agent's criterion).
    pub likelihood: f64,
}

impl Position<'_> {
    /// Evaluates one suggestion exactly: every answer from one count of the
    /// deals by answer class ([`case_file_by_class`](crate::count::case_file_by_class)); where that does not
    /// apply, one marginal count per possible (refuter, shown card), one
    /// more count when the refuter may hold all three cards, and one for
    /// "nobody refutes" (the same numbers, to the bit).
    ///
    /// # Errors
    /// [`CountError`] from the counts.
    pub fn evaluate(&self, cards: CardSet) -> Result<SuggestionEval, CountError> {
        self.evaluate_sharing(cards, &mut Splits::planned(self, &[cards]))
    }

    /// [`Position::evaluate`], sharing counts with the other suggestions
    /// evaluated with `splits`.
    fn evaluate_sharing(&self, cards: CardSet, splits: &mut Splits) -> Result<SuggestionEval, CountError> {
        let (outcomes, _) = self.answers(cards, splits, |_| true)?;
        Ok(self.evaluation(cards, outcomes))
    }

    /// [`Position::evaluate`] counting each answer on its own (one count per
    /// answer, as described there): the reference the property tests hold
    /// the shared evaluation to.
    ///
    /// # Errors
    /// [`CountError`] from the counts.
    #[cfg(any(test, feature = "testing"))]
    pub fn evaluate_one_by_one(&self, cards: CardSet) -> Result<SuggestionEval, CountError> {
        let (outcomes, _) = self.answers_one_by_one(cards, |_| true)?;
        Ok(self.evaluation(cards, outcomes))
    }

    /// The evaluation of `cards` from its answers.
    fn evaluation(&self, cards: CardSet, outcomes: Vec<Outcome>) -> SuggestionEval {
        let np = self.game.num_players();
        let total = self.counts.total;
        let after: f64 = outcomes.iter().map(|o| o.probability * o.entropy_after).sum();
        let hartley_after: f64 = outcomes.iter().map(|o| o.probability * o.candidates_after).sum();
        SuggestionEval {
            cards,
            information: (self.entropy - after).max(0.0),
            end_probability: end_probability(&outcomes),
            elimination: (hartley(&self.game, &self.counts) - hartley_after).max(0.0),
            ruled_out: open_candidates(&self.game, &self.counts) as f64
                - outcomes.iter().map(|o| o.probability * o.open_after as f64).sum::<f64>(),
            deal_information: (log2(total)
                - outcomes.iter().map(|o| o.probability * log2(o.models_after)).sum::<f64>())
            .max(0.0),
            outcomes,
            estimate: self.estimate(cards),
            likelihood: cards.iter().map(|c| self.prob[c.index()][np]).product(),
        }
    }

    /// The largest chance of ending the game
    /// ([`SuggestionEval::end_probability`]) among the suggestions
    /// [`Position::rank_suggestions`] shortlists with `shortlist`, 0 with
    /// none: the same number as the largest in that ranking, for less
    /// (where the deals are listed, that ranking evaluates every suggestion
    /// and may find a larger one: the opponents' look-ahead, which calls
    /// this for every view it counts, keeps to the shortlist). A
    /// suggestion's answers are counted one by one, and it is left as soon
    /// as those that end the game and the answers not yet counted add up to
    /// less than the best so far. That sum bounds its chance of ending the
    /// game from above (the chance is the sum of the probabilities of the
    /// answers that end it, and those not yet counted add up to one minus
    /// those counted, exactly, in integer weights), so a suggestion left
    /// could not be the largest.
    ///
    /// # Errors
    /// [`CountError`] from the counts.
    pub fn best_end_probability(&self, shortlist: usize) -> Result<f64, CountError> {
        let mut best = 0.0;
        let chosen = self.shortlisted(&self.legal_suggestions(), shortlist, Objective::End)?;
        let mut splits = Splits::planned(self, &chosen);
        for cards in chosen {
            if let Some(end) = self.end_probability_beating(cards, best, &mut splits)? {
                best = f64::max(best, end);
            }
        }
        Ok(best)
    }

    /// The chance that `cards` ends the game ([`SuggestionEval::end_probability`],
    /// the same number), or `None` when it is below `best`: the answers are
    /// counted one by one, and the evaluation stops once those that end the
    /// game so far and every answer not yet counted add up to less than
    /// `best` (with a relative margin of `1e-12`, far above the rounding of
    /// the sums, so a suggestion that could tie `best` is always counted).
    ///
    /// # Errors
    /// [`CountError`] from the counts.
    fn end_probability_beating(
        &self,
        cards: CardSet,
        best: f64,
        splits: &mut Splits,
    ) -> Result<Option<f64>, CountError> {
        let (outcomes, complete) = self.answers(cards, splits, |bound| bound * (1.0 + 1e-12) >= best)?;
        Ok(complete.then(|| end_probability(&outcomes)))
    }
}

/// The chance that the answer ends the game: the answers after which the
/// case file is certain, in order.
fn end_probability(outcomes: &[Outcome]) -> f64 {
    outcomes.iter().filter(|o| o.solves).map(|o| o.probability).sum()
}

/// `Σ_k log2(n_k)`, `n_k` the number of case-file candidates of category `k`.
fn hartley(game: &crate::Game, counts: &crate::Counts) -> f64 {
    case_file_candidates(game, counts).iter().map(|&n| (n.max(1) as f64).log2()).sum()
}

/// `log2` of a count.
fn log2(n: u128) -> f64 {
    (n as f64).log2()
}

/// `Σ_k (n_k − 1)`, `n_k` the number of case-file candidates of category `k`.
fn open_candidates(game: &crate::Game, counts: &crate::Counts) -> usize {
    case_file_candidates(game, counts).iter().map(|&n| n.saturating_sub(1)).sum()
}

/// `min_k max_{c in k} P(c in case file)`: no case file is more likely.
pub(super) fn mode_bound(game: &crate::Game, counts: &crate::Counts) -> f64 {
    let deck = game.deck();
    deck.categories()
        .map(|k| {
            let best = deck.category_cards(k).iter().map(|c| in_case_file(game, counts, c)).max().unwrap_or(0);
            ratio(best, counts.total)
        })
        .fold(1.0, f64::min)
}
