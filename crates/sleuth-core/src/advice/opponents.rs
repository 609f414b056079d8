//! How close each opponent is to solving the case, estimated from the
//! observer's view.
//!
//! An opponent's exact knowledge is the public events, its own hand, and the
//! cards shown to it. The observer does not know that hand nor most of those
//! cards, so the model samples them: deals are drawn exactly uniformly from
//! the observer's consistent deals, and in each the opponent's view is
//! rebuilt exactly (its hand from the deal; each card shown to it is the one
//! the observer saw it shown, or else a uniformly chosen card of the deal's
//! refuter among the suggested ones, as in the answer model of
//! [`super::SuggestionEval`]). Each rebuilt view is analysed exactly.

use super::entropy::{case_file_candidates, case_file_entropy, certain_case_file};
use super::Position;
use crate::count::{count_marginals, CountError};
use crate::deduce::Problem;
use crate::model::{CardSet, Event, Place, Player};
use crate::sample::UniformSampler;
use rand::seq::IteratorRandom;
use rand::Rng;

/// One opponent's estimated progress.
#[derive(Clone, Debug, PartialEq)]
pub struct OpponentProgress {
    /// The opponent.
    pub player: Player,
    /// Whether it is out (made a wrong accusation): it cannot win.
    pub out: bool,
    /// The estimated probability that it knows the case file now.
    pub solved: f64,
    /// The estimated probability that it solves the case and accuses before
    /// the observer's next turn (see [`solve_chance`]).
    pub threat: f64,
    /// Its mean case-file entropy, in bits, over the sampled views.
    pub entropy: f64,
    /// The case-file entropy of what it certainly knows in every deal: the
    /// public events and the cards the observer knows it has seen or holds,
    /// without its hand. An upper bound on its uncertainty in spirit (it
    /// knows more), computed exactly.
    pub public_entropy: f64,
    /// How many sampled views the estimates are from.
    pub samples: usize,
}

/// The chance that a player whose view leaves `open` eliminations to make
/// (`Σ_k (candidates_k − 1)` over categories) solves the case within one
/// suggestion: 1 when it is solved; 0.9 with one card to eliminate (a
/// suggestion of one of the two candidates with known case-file or own cards
/// settles it, unless the player does not play so); 0.35, 0.1 and 0.02 with
/// two, three and more. A heuristic: the opponents' play is unknown.
pub fn solve_chance(open: usize) -> f64 {
    match open {
        0 => 1.0,
        1 => 0.9,
        2 => 0.35,
        3 => 0.1,
        _ => 0.02,
    }
}

impl Position<'_> {
    /// The problem of what `player` certainly knows, as the observer sees
    /// it: the public events, the cards the observer showed it (held by the
    /// observer), and the cards it showed the observer (its own).
    pub fn public_model(&self, player: Player) -> Problem {
        let mut q = Problem::new(&self.game.bystander());
        for e in self.game.events() {
            if let Event::Suggestion(s) = e {
                if let (Some(r), Some(c)) = (s.refuted_by, s.shown) {
                    if s.by == player && r == self.me {
                        q.add_fact(c, Place::Player(self.me), true);
                    } else if s.by == self.me && r == player {
                        q.add_fact(c, Place::Player(player), true);
                    }
                }
            }
        }
        q
    }

    /// Every opponent's estimated progress, from `samples` deals drawn from
    /// the observer's consistent deals (at least one).
    ///
    /// # Errors
    /// [`CountError`] from the counts.
    pub fn opponents<R: Rng + ?Sized>(&self, samples: usize, rng: &mut R) -> Result<Vec<OpponentProgress>, CountError> {
        let samples = samples.max(1);
        let Some(sampler) = UniformSampler::new(&self.problem)? else { return Ok(Vec::new()) };
        let deals: Vec<_> = (0..samples).map(|_| sampler.sample(rng)).collect();
        let public = Problem::new(&self.game.bystander());
        let mut out = Vec::new();
        for j in self.game.players().filter(|&j| j != self.me) {
            let is_out =
                self.game.events().iter().any(|e| matches!(e, Event::Accusation(a) if a.by == j && !a.correct));
            let public_entropy = case_file_entropy(self.game, &count_marginals(&self.public_model(j))?);
            let (mut solved, mut threat, mut entropy) = (0.0, 0.0, 0.0);
            for deal in &deals {
                let hand = |p: Player| -> CardSet {
                    self.game.deck().cards().filter(|c| deal[c.index()] == Some(Place::Player(p))).collect()
                };
                let mut q = public.clone();
                for c in hand(j) {
                    q.add_fact(c, Place::Player(j), true);
                }
                for e in self.game.events() {
                    let Event::Suggestion(s) = e else { continue };
                    let (true, Some(r)) = (s.by == j, s.refuted_by) else { continue };
                    let shown = match s.shown {
                        Some(c) if r == self.me => Some(c),
                        _ => (s.cards & hand(r)).iter().choose(rng),
                    };
                    if let Some(c) = shown {
                        q.add_fact(c, Place::Player(r), true);
                    }
                }
                let counts = count_marginals(&q)?;
                if counts.total == 0 {
                    continue; // cannot happen for a deal drawn from a consistent view
                }
                if certain_case_file(self.game, &counts).is_some() {
                    solved += 1.0;
                }
                let open: usize = case_file_candidates(self.game, &counts).iter().map(|n| n.saturating_sub(1)).sum();
                threat += solve_chance(open);
                entropy += case_file_entropy(self.game, &counts);
            }
            let n = deals.len() as f64;
            out.push(OpponentProgress {
                player: j,
                out: is_out,
                solved: solved / n,
                threat: if is_out { 0.0 } else { threat / n },
                entropy: entropy / n,
                public_entropy,
                samples: deals.len(),
            });
        }
        Ok(out)
    }
}

/// The probability that at least one opponent solves before the observer's
/// next turn, treating opponents as independent.
pub fn combined_threat(opponents: &[OpponentProgress]) -> f64 {
    1.0 - opponents.iter().map(|o| 1.0 - o.threat).product::<f64>()
}
