//! Accusations: the most likely case file, exactly, and whether accusing now
//! beats waiting.
//!
//! The player's rule ([`Position::player_accusation`], what `sleuth advise`
//! and the notepad show) rests on the exact probability `p` of the most
//! likely case file, and nothing else decides it:
//!
//! - a certain case file (`p = 1`): accuse now;
//! - a player who is out (accused wrongly): never;
//! - `p` at or below one half ([`EVEN_ODDS`]): never. A wrong accusation is final
//!   (the player is out), while waiting keeps every later chance. The only
//!   reason to accuse early is that an opponent may win first, and the
//!   threat is an estimate (of what the opponents can know, from sampled
//!   deals, assuming each reasons perfectly); an estimate never talks the
//!   player into a bet it is no more likely to win than lose;
//! - otherwise accuse when `p ≥ (1 − T) · W`: `T` the estimated chance that
//!   some opponent knows the case file by the end of its next turn
//!   ([`Position::opponents_by_knowledge`]), `W` an upper bound on the chance
//!   of being right at the next opportunity ([`Position::wait_value`]).
//!   Waiting is valued at its best (`W` is an upper bound, and an opponent
//!   who is not yet certain is assumed not to gamble), so the rule leans
//!   towards waiting: conservative about the one move that cannot be undone.
//!
//! The playing agent's rule ([`Position::accusation_advice`]) may weigh a
//! behaviour model instead; it is the agent's, never the player's.

use super::entropy::{certain_case_file, in_case_file};
use super::Position;
use crate::analysis::ratio;
use crate::count::{count, CaseFileList, CountError};
use crate::model::{Card, CardSet, Place};

/// The best accusation and whether to make it now.
#[derive(Clone, Debug, PartialEq)]
pub struct AccusationAdvice {
    /// The most likely case file found (one card per category; never a card
    /// the observer holds, since those have probability 0).
    pub cards: CardSet,
    /// The exact probability that `cards` is the case file.
    pub probability: f64,
    /// The probability of `cards` weighed by the opponents' tells, when
    /// they were read ([`Position::told_case_files`]); the recommendation
    /// then weighs this instead of `probability`.
    pub told: Option<f64>,
    /// The number of consistent deals with `cards` in the case file.
    pub deals: u128,
    /// Whether the case file is certain.
    pub certain: bool,
    /// The estimated probability that some opponent solves the case and
    /// accuses before the observer's next turn (0 when it was not needed:
    /// certain, or `probability` below the floor; see [`super::OpponentProgress`]).
    pub threat: f64,
    /// The value of waiting a round if nobody else solves: the expected
    /// chance of being right after the observer's next suggestion (1 when it
    /// was not needed). See [`Position::wait_value`].
    pub wait_value: f64,
    /// The recommendation: accuse now. Never for a player who is out (has
    /// made a wrong accusation), even when the case file is certain.
    pub accuse: bool,
    /// Why: which part of the rule decided.
    pub reason: AccuseReason,
}

/// Which part of the accusation rule decided (see the module docs).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AccuseReason {
    /// The player has accused wrongly and may not accuse again.
    Out,
    /// The case file is certain: accuse.
    Certain,
    /// The exact probability is at or below even odds: wait, whatever the threat.
    BelowEvenOdds,
    /// At least even odds, and waiting is worth more: wait.
    WaitingIsBetter,
    /// At least even odds, and the opponents' threat makes waiting worth
    /// less than accusing: accuse.
    ThreatOutweighs,
    /// The playing agent's rule decided ([`Position::accusation_advice`]).
    Agent,
}

impl AccuseReason {
    /// A short name, for JSON.
    pub fn id(self) -> &'static str {
        match self {
            AccuseReason::Out => "out",
            AccuseReason::Certain => "certain",
            AccuseReason::BelowEvenOdds => "below_even_odds",
            AccuseReason::WaitingIsBetter => "waiting_is_better",
            AccuseReason::ThreatOutweighs => "threat_outweighs",
            AccuseReason::Agent => "agent",
        }
    }

    /// The rule that decided, in a player's words.
    pub fn words(self) -> &'static str {
        match self {
            AccuseReason::Out => "you accused wrongly, so you may not accuse again",
            AccuseReason::Certain => "the case file is certain: every deal that fits the turns puts these cards there",
            AccuseReason::BelowEvenOdds => {
                "at even odds or below the advice never says accuse: a wrong accusation puts you out of the \
                 game, while waiting keeps every later chance"
            }
            AccuseReason::WaitingIsBetter => {
                "better than even odds, but waiting is worth more: your chance now is below your best chance \
                 after your next question, discounted by the chance that an opponent can solve first"
            }
            AccuseReason::ThreatOutweighs => {
                "better than even odds, and waiting is worth less: the chance that an opponent can solve first \
                 takes away more than your next question could add"
            }
            AccuseReason::Agent => "the playing agent's rule",
        }
    }
}

/// How the opponents' threat is estimated, in a player's words.
pub const THREAT_BASIS: &str = "estimated from deals drawn at random among those that fit what you know: in each, \
    every opponent's knowledge (the public turns, its hand and the cards shown to it) is worked out exactly, assuming \
    it asks the question most likely to solve and accuses only when certain";

/// The exact probability at or below which the player's advice never urges
/// an accusation that is not certain (a coin flip is not worth going out on).
pub const EVEN_ODDS: f64 = 0.5;

/// Whether `deals` of `total` is strictly better than even odds, in exact
/// integers (no rounding can turn a coin flip into "accuse now").
pub fn better_than_even(deals: u128, total: u128) -> bool {
    deals > total - deals.min(total)
}

/// The first of `files` (most likely first) and its deals; `None` for no file.
pub(super) fn most_likely(files: &CaseFileList) -> Option<(CardSet, u128)> {
    files.first().map(|(cards, n)| (cards.iter().copied().collect(), n))
}

/// How many case-file candidates per category are tried for the most
/// likely case file.
const CANDIDATES_PER_CATEGORY: usize = 3;

impl Position<'_> {
    /// The most likely case file and its exact number of deals.
    ///
    /// When the case file is certain, that one. Otherwise the first of the
    /// exact list of case files ([`crate::count::case_files`]: most likely first, ties in
    /// deck order), so the probability is that of a true joint mode. Only
    /// when too many case files are possible to list (large custom decks)
    /// is the joint mode searched among the combinations of each category's
    /// three most likely case-file cards (one exact count each): almost
    /// always the mode, but a search, not a proof; the probability reported
    /// is exact for the combination returned. The advice ([`super::advise`])
    /// reads the list its position's count made; a position made otherwise
    /// lists them in a count of their own.
    ///
    /// # Errors
    /// [`CountError`] from the counts.
    pub fn best_accusation(&self) -> Result<(CardSet, u128), CountError> {
        if let Some(cards) = certain_case_file(&self.game, &self.counts) {
            return Ok((cards, self.counts.total));
        }
        if let Some(mode) = self.case_file_list()?.and_then(|files| most_likely(&files)) {
            return Ok(mode);
        }
        self.searched_accusation()
    }

    /// The joint mode searched among the combinations of each category's
    /// three most likely case-file cards (see [`Position::best_accusation`]);
    /// the playing agent's search, kept as it was measured.
    fn searched_accusation(&self) -> Result<(CardSet, u128), CountError> {
        if let Some(cards) = certain_case_file(&self.game, &self.counts) {
            return Ok((cards, self.counts.total));
        }
        let deck = self.game.deck();
        let mut lists: Vec<Vec<Card>> = Vec::new();
        for cat in deck.categories() {
            let mut cards: Vec<Card> =
                deck.category_cards(cat).iter().filter(|&c| in_case_file(&self.game, &self.counts, c) > 0).collect();
            cards.sort_by_key(|&c| std::cmp::Reverse(in_case_file(&self.game, &self.counts, c)));
            cards.truncate(CANDIDATES_PER_CATEGORY);
            lists.push(cards);
        }
        let mut best = (CardSet::EMPTY, 0u128);
        let mut idx = vec![0usize; lists.len()];
        loop {
            let combo: CardSet = idx.iter().zip(&lists).map(|(&i, l)| l[i]).collect();
            // A combination can only beat the best if each card's marginal does.
            if combo.iter().all(|c| in_case_file(&self.game, &self.counts, c) > best.1) {
                let n = self.deals_with_case_file(combo)?;
                if n > best.1 || (n == best.1 && best.0 == CardSet::EMPTY) {
                    best = (combo, n);
                }
            }
            let mut k = 0;
            loop {
                if k == idx.len() {
                    return Ok(best);
                }
                idx[k] += 1;
                if idx[k] < lists[k].len() {
                    break;
                }
                idx[k] = 0;
                k += 1;
            }
        }
    }

    /// The playing agent's accusation rule (not the player's: see
    /// [`Position::player_accusation`]): certain → accuse; below `floor` → wait; else
    /// `weigh` gives the opponents' threat `t` (the chance one of them solves
    /// before the observer's next turn) and the value `w` of waiting (the
    /// chance of being right at the next opportunity), and the advice is to
    /// accuse when that is the better bet: `p ≥ (1 − t) · w`.
    ///
    /// `p` is the exact probability of the most likely case file, or, with
    /// `told` (the most likely case file by the opponents' tells and its
    /// weighed probability, see [`Position::told_case_files`]), that case
    /// file and its weighed probability. Certainty is always exact.
    ///
    /// This compares one round only: waiting longer can be worth more than
    /// `w`, and opponents can solve later too.
    ///
    /// # Errors
    /// [`CountError`] from the counts.
    pub fn accusation_advice(
        &self,
        floor: f64,
        told: Option<(CardSet, f64)>,
        weigh: impl FnOnce(&Self) -> Result<(f64, f64), CountError>,
    ) -> Result<AccusationAdvice, CountError> {
        let certain_cards = certain_case_file(&self.game, &self.counts);
        let (cards, deals) = match (certain_cards, told) {
            (None, Some((cards, _))) => (cards, self.deals_with_case_file(cards)?),
            _ => self.searched_accusation()?,
        };
        let probability = ratio(deals, self.counts.total);
        let certain = deals == self.counts.total;
        let told = told.filter(|_| !certain).map(|(_, p)| p);
        let bet = told.unwrap_or(probability);
        // A player who has accused wrongly is out: it may not accuse again.
        let out = self.is_out();
        let (threat, wait_value, accuse) = if out {
            (0.0, 1.0, false)
        } else if certain {
            (0.0, 1.0, true)
        } else if bet < floor {
            (0.0, 1.0, false)
        } else {
            let (t, w) = weigh(self)?;
            (t, w, bet >= (1.0 - t) * w)
        };
        let reason = AccuseReason::Agent;
        Ok(AccusationAdvice { cards, probability, told, deals, certain, threat, wait_value, accuse, reason })
    }

    /// The player's accusation advice, on the exact probability `p` of the
    /// most likely case file (see the module docs for the rule and why):
    /// certain → accuse; out → never; `p` at most [`EVEN_ODDS`] → wait; else
    /// accuse when `p ≥ (1 − threat) · W`, `W` = [`Position::wait_value`] with
    /// `shortlist`. `threat` is the chance that some opponent knows the case
    /// file by the end of its next turn (as [`combined_threat`](super::combined_threat)
    /// of [`Position::opponents_by_knowledge`]); it is reported whatever the
    /// decision.
    ///
    /// # Errors
    /// [`CountError`] from the counts.
    pub fn player_accusation(&self, threat: f64, shortlist: usize) -> Result<AccusationAdvice, CountError> {
        self.accusation_waiting(threat, self.best_accusation()?, || self.wait_value(shortlist))
    }

    /// [`Position::player_accusation`] on the best accusation `best` (as
    /// [`Position::best_accusation`]), `wait` giving the value of waiting
    /// where the rule weighs it: [`advise`](super::advise) has both at hand.
    pub(super) fn accusation_waiting(
        &self,
        threat: f64,
        best: (CardSet, u128),
        wait: impl FnOnce() -> Result<f64, CountError>,
    ) -> Result<AccusationAdvice, CountError> {
        let (cards, deals) = best;
        let probability = ratio(deals, self.counts.total);
        let certain = deals == self.counts.total;
        let (mut wait_value, mut accuse) = (1.0, false);
        let reason = if self.is_out() {
            AccuseReason::Out
        } else if certain {
            accuse = true;
            AccuseReason::Certain
        } else if !better_than_even(deals, self.counts.total) {
            AccuseReason::BelowEvenOdds
        } else {
            wait_value = wait()?;
            accuse = probability >= (1.0 - threat) * wait_value;
            if accuse {
                AccuseReason::ThreatOutweighs
            } else {
                AccuseReason::WaitingIsBetter
            }
        };
        Ok(AccusationAdvice { cards, probability, told: None, deals, certain, threat, wait_value, accuse, reason })
    }

    /// Whether the observer has accused wrongly (and is out).
    fn is_out(&self) -> bool {
        self.game.is_out(self.me)
    }

    /// The consistent deals with `cards` in the case file.
    pub(super) fn deals_with_case_file(&self, cards: CardSet) -> Result<u128, CountError> {
        let mut q = self.problem.clone();
        for c in cards {
            q.add_fact(c, Place::CaseFile, true);
        }
        count(&q, &self.count)
    }

    /// An upper bound on the probability of any case file now: the smallest,
    /// over categories, of the largest case-file marginal.
    pub fn mode_bound(&self) -> f64 {
        super::suggest::mode_bound(&self.game, &self.counts)
    }

    /// The value of waiting one round: over the `shortlist` best suggestions
    /// (see [`Position::rank_suggestions`]), the largest expected
    /// [`Outcome::mode_bound`](super::Outcome::mode_bound) after the answer,
    /// at least the probability of the best accusation now. It bounds the
    /// chance of being right after that suggestion from above (the bound is
    /// per answer), and ignores what the opponents' turns will reveal.
    ///
    /// # Errors
    /// [`CountError`] from the counts.
    pub fn wait_value(&self, shortlist: usize) -> Result<f64, CountError> {
        Ok(self.wait_value_of(&self.rank_suggestions(shortlist)?))
    }

    /// [`Position::wait_value`] over the evaluations `ranked`.
    pub(super) fn wait_value_of(&self, ranked: &[super::SuggestionEval]) -> f64 {
        let now = super::suggest::mode_bound(&self.game, &self.counts);
        let best = ranked
            .iter()
            .map(|e| e.outcomes.iter().map(|o| o.probability * o.mode_bound).sum::<f64>())
            .fold(now, f64::max);
        best.min(1.0)
    }
}
