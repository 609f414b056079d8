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

use super::Position;
use crate::count::CountError;
use crate::model::{CardSet, Place, Player, MAX_CARDS};
use crate::sample::UniformSampler;
use rand::Rng;
use std::collections::HashMap;

/// The prior share of own cards in an opponent's suggestions, relative to a
/// blind suggester's.
pub const PRIOR_RATE: f64 = 0.25;
/// How many known suggested cards the prior is worth.
pub const PRIOR_WEIGHT: f64 = 4.0;
/// The smallest rate used (a tell is never proof).
pub const MIN_RATE: f64 = 0.02;

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
        let game = self.game;
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
            out.push(Tell { player: j, known, own, rate: rate.clamp(MIN_RATE, 1.0) });
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
        let Some(sampler) = UniformSampler::new(&self.problem)? else { return Ok(Vec::new()) };
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
