//! Tells: what the opponents' own suggestions hint about their hands.
//!
//! Exact counts weigh every consistent deal alike. But players rarely
//! suggest a card they hold (they know the answer), except to mislead or once
//! that category is settled for them, so a deal in which an opponent holds
//! many of the cards it asked about is less likely than one in which it
//! holds none. The tell model weighs each deal by `rate^k` per opponent,
//! with `k` the cards it suggested that it holds in that deal, and estimates
//! the case file's posterior from deals sampled exactly uniformly. It is a
//! model of behaviour, not a deduction: the exact counts stay the truth, and
//! certainty never comes from a tell.
//!
//! Each opponent's `rate` is fitted from its own suggestions: among the cards
//! it suggested whose place the observer knows (not the observer's), how
//! many it holds, against how many a player suggesting blindly would hold,
//! starting from a prior of [`PRIOR_RATE`] worth [`PRIOR_WEIGHT`] cards. A
//! player who pads its questions with its own cards drifts towards 1 (no
//! tell), one who never does towards 0.
//!
//! Two uses, with different priors:
//!
//! - The player's advice reads the tells only as a labelled hint
//!   ([`Position::behaviour_hint`]: "if the opponents avoid asking about
//!   their own cards, ..."), never to decide an accusation and never as the
//!   probability of a case file. Its prior is no habit at all (rate 1) worth
//!   [`HINT_PRIOR_WEIGHT`] known cards, so a dozen questions move it little;
//!   and an opponent's tell is read only when the habit is checked in its
//!   own play: among the cards it asked about whose place the observer
//!   knows, it holds so few that a player asking blindly would hold as few
//!   with chance below [`HABIT_SIGNIFICANCE`]. People ask about their own
//!   cards to steer or to mislead; such a player fails the check and is
//!   weighed as a blind asker.
//! - The playing agent may use its own tuned prior ([`PRIOR_RATE`],
//!   [`PRIOR_WEIGHT`]) in play.

use super::Position;
use crate::count::CountError;
use crate::model::{CardSet, Place, Player, MAX_CARDS};
use crate::sample::UniformSampler;
use rand::Rng;
use std::collections::HashMap;

/// The playing agent's prior share of own cards in an opponent's
/// suggestions, relative to a blind suggester's (not the advice's: see
/// [`HINT_PRIOR_WEIGHT`]).
pub const PRIOR_RATE: f64 = 0.25;
/// How many known suggested cards the prior is worth.
pub const PRIOR_WEIGHT: f64 = 4.0;
/// The smallest rate used (a tell is never proof).
pub(crate) const MIN_RATE: f64 = 0.02;
/// How many known suggested cards the behaviour hint's prior of no habit
/// (rate 1) is worth.
pub const HINT_PRIOR_WEIGHT: f64 = 12.0;
/// The behaviour hint reads an opponent's tell only when a blind asker
/// would hold as few of the known cards it asked about with a chance below
/// this.
pub const HABIT_SIGNIFICANCE: f64 = 0.05;

/// One opponent's fitted tell.
#[derive(Clone, Debug, PartialEq)]
pub struct Tell {
    /// The opponent.
    pub player: Player,
    /// Its suggested cards whose place the observer knows (not the observer's).
    pub known: usize,
    /// How many of those it holds.
    pub own: usize,
    /// The fitted relative rate of suggesting a card it holds.
    pub rate: f64,
    /// The chance that a player asking blindly (each unseen card in its
    /// hand with the same chance) holds at most `own` of `known` cards: the
    /// evidence that it avoids its own cards; small is strong.
    pub blind_chance: f64,
}

/// The behaviour hint of the player's advice: what the case file would look
/// like if the opponents whose play shows the habit avoid asking about
/// their own cards. A model of behaviour, not a deduction.
#[derive(Clone, Debug, PartialEq)]
pub struct BehaviourHint {
    /// Every opponent's tell, fitted with the hint's prior of no habit; the
    /// rate of an opponent that fails the habit check is 1.
    pub tells: Vec<Tell>,
    /// The opponents whose play passes the check (in seat order).
    pub habitual: Vec<Player>,
    /// With at least one such opponent: the case file the assumption makes
    /// likeliest, and how many times its exact probability the assumption
    /// makes it (estimated from sampled deals).
    pub case_file: Option<(CardSet, f64)>,
}

impl Position<'_> {
    /// Every opponent's tell, fitted from the exact counts with the default
    /// prior (see the module docs).
    pub fn tells(&self) -> Vec<Tell> {
        self.tells_with_prior(PRIOR_RATE, PRIOR_WEIGHT)
    }

    /// Every opponent's tell, fitted from the exact counts with a prior rate
    /// `prior` worth `weight` known cards.
    pub fn tells_with_prior(&self, prior: f64, weight: f64) -> Vec<Tell> {
        let game = self.game();
        let np = game.num_players();
        let total = self.counts.total;
        // The cards the observer does not hold and that are not face up.
        let unseen = game.deck().cards().count() - self.hand.len() - game.face_up().len();
        let mut out = Vec::new();
        for j in game.players().filter(|&j| j != self.me) {
            let share = game.hand_size(j) as f64 / unseen.max(1) as f64;
            let (mut known, mut own) = (0usize, 0usize);
            for cards in self.suggestions_by(j) {
                for c in cards - self.hand {
                    let m = &self.counts.marginal[c.index()];
                    if (0..=np).any(|q| m[q] == total) {
                        known += 1;
                        own += usize::from(m[Place::Player(j).index(np)] == total);
                    }
                }
            }
            let rate = (own as f64 + weight * prior * share) / ((known as f64 + weight) * share);
            let blind_chance = binomial_cdf(own, known, share.min(1.0));
            out.push(Tell { player: j, known, own, rate: rate.clamp(MIN_RATE, 1.0), blind_chance });
        }
        out
    }

    /// The case files weighed by the opponents' `tells`, from `samples`
    /// deals drawn uniformly from the consistent ones: each case file with
    /// its estimated posterior probability, the most likely first.
    ///
    /// # Errors
    /// [`CountError`] from the sampler.
    pub fn told_case_files<R: Rng + ?Sized>(
        &self,
        tells: &[Tell],
        samples: usize,
        rng: &mut R,
    ) -> Result<Vec<(CardSet, f64)>, CountError> {
        let Some(sampler) = UniformSampler::new(&self.problem, &self.count)? else { return Ok(Vec::new()) };
        let asked: Vec<(Player, f64, Vec<CardSet>)> =
            tells.iter().map(|t| (t.player, t.rate, self.suggestions_by(t.player))).collect();
        let mut mass: HashMap<CardSet, f64> = HashMap::new();
        let mut sum = 0.0;
        for _ in 0..samples.max(1) {
            let deal = sampler.sample(rng);
            let mut weight = 1.0;
            for (j, rate, suggestions) in &asked {
                for cards in suggestions {
                    for c in *cards {
                        if deal[c.index()] == Some(Place::Player(*j)) {
                            weight *= rate;
                        }
                    }
                }
            }
            let case: CardSet = self.game.deck().cards().filter(|c| deal[c.index()] == Some(Place::CaseFile)).collect();
            *mass.entry(case).or_insert(0.0) += weight;
            sum += weight;
        }
        let mut out: Vec<(CardSet, f64)> = mass.into_iter().map(|(k, w)| (k, w / sum)).collect();
        out.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0 .0.cmp(&b.0 .0)));
        Ok(out)
    }
}

impl Position<'_> {
    /// Every opponent's tell with the hint's prior of no habit, read only
    /// where its own play shows the habit: the rate of an opponent that
    /// fails the check (see the module docs) is 1, which weighs nothing.
    pub fn checked_tells(&self) -> Vec<Tell> {
        let mut tells = self.tells_with_prior(1.0, HINT_PRIOR_WEIGHT);
        for t in &mut tells {
            if t.blind_chance >= HABIT_SIGNIFICANCE {
                t.rate = 1.0;
            }
        }
        tells
    }

    /// The behaviour hint (see the module docs and [`BehaviourHint`]), its
    /// case file weighed from `samples` deals drawn uniformly.
    ///
    /// # Errors
    /// [`CountError`] from the counts.
    pub fn behaviour_hint<R: Rng + ?Sized>(&self, samples: usize, rng: &mut R) -> Result<BehaviourHint, CountError> {
        let tells = self.checked_tells();
        let habitual: Vec<Player> = tells.iter().filter(|t| t.rate < 1.0).map(|t| t.player).collect();
        let mut case_file = None;
        if !habitual.is_empty() {
            if let Some(&(cards, weighed)) = self.told_case_files(&tells, samples, rng)?.first() {
                let exact = crate::analysis::ratio(self.deals_with_case_file(cards)?, self.counts.total);
                if exact > 0.0 {
                    case_file = Some((cards, weighed / exact));
                }
            }
        }
        Ok(BehaviourHint { tells, habitual, case_file })
    }
}

/// `P(X ≤ k)` for `X` binomial with `n` trials of chance `q`.
fn binomial_cdf(k: usize, n: usize, q: f64) -> f64 {
    if q >= 1.0 {
        return if k >= n { 1.0 } else { 0.0 };
    }
    let mut term = (1.0 - q).powi(n as i32); // P(X = 0)
    let mut sum = 0.0;
    for i in 0..=k.min(n) {
        sum += term;
        term *= (n - i) as f64 / (i + 1) as f64 * q / (1.0 - q);
    }
    sum.min(1.0)
}

/// Per card (by index), the probability that it is in the case file by
/// `told` (case files with their weighed probabilities, as from
/// [`Position::told_case_files`]).
pub fn told_marginals(told: &[(CardSet, f64)]) -> Vec<f64> {
    let mut mass = vec![0.0; MAX_CARDS];
    for (cards, p) in told {
        for c in *cards {
            mass[c.index()] += p;
        }
    }
    mass
}
