//! An exactly uniform sampler of consistent deals, built on the counter.
//!
//! The forward and backward passes give, for every DP state, the number of
//! completions from it. A draw walks the DP from its start, taking each move
//! with probability (completions after it) / (completions before it), then
//! places the tail uniformly: a case card for each category still open,
//! chosen uniformly among the tail cards allowed there, and the other tail
//! cards dealt at random to the room left. Every consistent deal is equally
//! likely, exactly (up to the RNG).

use super::dp::{self, Forward};
use super::plan::{CardClasses, Plan};
use super::{order, CountError, CountOptions};
use crate::deduce::{propagate, CountProblem, Reduced, NONE};
use crate::model::{Place, MAX_CARDS, MAX_PLACES, MAX_PLAYERS};
use rand::seq::SliceRandom;
use rand::Rng;

/// Draws consistent deals uniformly at random.
pub struct UniformSampler {
    np: usize,
    reduced: Reduced,
    in_play: crate::model::CardSet,
    plan: Plan,
    fwd: Forward,
    back: Vec<Vec<u128>>,
    total: u128,
}

/// A deal: the place of every card in play (`None` for face-up cards).
pub type Deal = Vec<Option<Place>>;

impl UniformSampler {
    /// Prepares a sampler, within the limits of `options`; `Ok(None)` when
    /// no deal is consistent.
    ///
    /// # Errors
    /// [`CountError`] when the count does not fit or the state is too large.
    pub fn new(p: &CountProblem, options: &CountOptions<'_>) -> Result<Option<UniformSampler>, CountError> {
        let Some(r) = propagate(p) else { return Ok(None) };
        let cards = CardClasses::new(p, &r);
        let plan = Plan::new(p, &r, &cards, order::dp_order(&r, &cards))?;
        let fwd = dp::forward(&plan, true, options)?;
        let mut marginal = vec![[0u128; MAX_PLACES]; MAX_CARDS];
        let (total, back) = dp::backward(&plan, &fwd, &mut marginal, true)?;
        if total == 0 {
            return Ok(None);
        }
        Ok(Some(UniformSampler { np: p.np, reduced: r, in_play: p.in_play, plan, fwd, back, total }))
    }

    /// The number of consistent deals.
    pub fn total(&self) -> u128 {
        self.total
    }

    /// Every consistent deal, each once (in no meaningful order); `None`
    /// where there are more than `limit`, or not the memory to list them.
    /// The walk follows only the DP's moves with completions, so its work
    /// is linear in the deals listed.
    pub fn deals(&self, limit: u128) -> Option<Vec<Deal>> {
        if self.total > limit {
            return None;
        }
        let mut out = Vec::new();
        out.try_reserve_exact(usize::try_from(self.total).ok()?).ok()?;
        self.walk(0, 0, &mut self.fixed(), &mut out);
        debug_assert_eq!(out.len() as u128, self.total, "one deal per completion");
        Some(out)
    }

    /// The deals completing `place` from state `i` of layer `k`.
    fn walk(&self, k: usize, i: usize, place: &mut Deal, out: &mut Vec<Deal>) {
        let Some(step) = self.plan.steps.get(k) else { return self.tails(i, place, out) };
        for (m, j) in self.fwd.succ[k].of(i) {
            if self.back[k + 1][j] > 0 {
                place[step.card as usize] = Some(self.to_place(step.moves[m].place));
                self.walk(k + 1, j, place, out);
            }
        }
    }

    /// Every way to place the tail from final state `i`: a case card per
    /// open category among its tail cards allowed there, and each other
    /// tail card to any player with room left.
    fn tails(&self, i: usize, place: &Deal, out: &mut Vec<Deal>) {
        let (rem, open) = self.final_state(i);
        let eligible: Vec<Vec<u8>> = open.iter().map(|&k| self.case_candidates(k)).collect();
        let tail: Vec<u8> = self.plan.tail.iter().flat_map(|t| t.cards.iter().copied()).collect();
        let mut pick = vec![0usize; open.len()];
        'files: loop {
            let case_cards: Vec<u8> = pick.iter().zip(&eligible).map(|(&n, cards)| cards[n]).collect();
            let mut deal = place.clone();
            for &c in &case_cards {
                deal[c as usize] = Some(Place::CaseFile);
            }
            let rest: Vec<u8> = tail.iter().copied().filter(|c| !case_cards.contains(c)).collect();
            self.deal_rest(&rest, &mut rem.clone(), &mut deal, out);
            // The next choice of case cards, as an odometer.
            for (n, cards) in pick.iter_mut().zip(&eligible) {
                *n += 1;
                if *n < cards.len() {
                    continue 'files;
                }
                *n = 0;
            }
            break;
        }
    }

    /// Every way to deal `rest` to the players' rooms `rem`, card by card.
    fn deal_rest(&self, rest: &[u8], rem: &mut [u8], deal: &mut Deal, out: &mut Vec<Deal>) {
        let Some((&c, more)) = rest.split_first() else { return out.push(deal.clone()) };
        for a in 0..self.np {
            if rem[a] > 0 {
                rem[a] -= 1;
                deal[c as usize] = Some(self.to_place(a as u8));
                self.deal_rest(more, rem, deal, out);
                rem[a] += 1;
            }
        }
    }

    /// The rooms left per player and the open case-file categories at
    /// state `i` of the final layer.
    fn final_state(&self, i: usize) -> ([u8; MAX_PLAYERS], Vec<usize>) {
        let last = self.fwd.layers.last().expect("a forward pass has a final layer");
        self.plan.final_state(last.keys.get(i))
    }

    /// The tail cards that may be the case card of open category `k`.
    fn case_candidates(&self, k: usize) -> Vec<u8> {
        let allowed = self.plan.tail.iter().filter(|t| t.category == k && t.case_ok);
        allowed.flat_map(|t| t.cards.iter().copied()).collect()
    }

    /// The place of index `q` (players in seat order, then the case file).
    fn to_place(&self, q: u8) -> Place {
        Place::from_index(q as usize, self.np)
    }

    /// The places propagation fixed, every other card unplaced.
    fn fixed(&self) -> Deal {
        let mut place = vec![None; MAX_CARDS];
        for c in self.in_play {
            let q = self.reduced.assigned[c.index()];
            if q != NONE {
                place[c.index()] = Some(self.to_place(q));
            }
        }
        place
    }

    /// Draws one deal.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Deal {
        let mut place = self.fixed();
        let to_place = |q: u8| self.to_place(q);
        // Walk the DP.
        let mut i = 0usize;
        for (k, step) in self.plan.steps.iter().enumerate() {
            let mut pick = rng.gen_range(0..self.back[k][i]);
            let mut chosen = None;
            for (m, j) in self.fwd.succ[k].of(i) {
                let b = self.back[k + 1][j];
                if pick < b {
                    chosen = Some((step.moves[m].place, j));
                    break;
                }
                pick -= b;
            }
            let (q, j) = chosen.expect("backward counts add up over the moves");
            place[step.card as usize] = Some(to_place(q));
            i = j;
        }
        // The tail from the final state.
        let (rem, open) = self.final_state(i);
        let mut rest: Vec<u8> = Vec::new();
        let mut case_cards: Vec<u8> = Vec::new();
        for &k in &open {
            let c = *self.case_candidates(k).choose(rng).expect("a final state with weight has tail case cards");
            case_cards.push(c);
        }
        for class in &self.plan.tail {
            rest.extend(class.cards.iter().copied().filter(|c| !case_cards.contains(c)));
        }
        for &c in &case_cards {
            place[c as usize] = Some(Place::CaseFile);
        }
        rest.shuffle(rng);
        let mut cards = rest.into_iter();
        for a in 0..self.np {
            for _ in 0..rem[a] {
                let c = cards.next().expect("the tail fills the room left exactly");
                place[c as usize] = Some(to_place(a as u8));
            }
        }
        debug_assert!(cards.next().is_none());
        place
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brute::{enumerate, enumerate_where};
    use crate::generate::{generate, DeckChoice, GenConfig};
    use crate::Game;
    use rand::SeedableRng;
    use std::collections::HashMap;

    /// The chi-square critical value at significance 0.0001 (Wilson-Hilferty).
    fn chi2_critical(df: f64) -> f64 {
        let z = 3.719_016;
        let a = 2.0 / (9.0 * df);
        df * (1.0 - a + z * a.sqrt()).powi(3)
    }

    /// A generated game on a custom deck of `sizes`: an observer's view on
    /// even seeds, a face-up card on every third, some wrong accusations.
    fn small_game(
        seed: u64,
        sizes: Vec<usize>,
        players: usize,
        suggestions: usize,
        rng: &mut rand_chacha::ChaCha8Rng,
    ) -> Game {
        let cfg = GenConfig {
            face_up: (seed % 3 == 0) as usize,
            accusation_rate: 0.1,
            ..GenConfig::new(DeckChoice::Custom(sizes), players, seed % 2 == 0, suggestions)
        };
        Game::new(&generate(&cfg, rng).file).unwrap()
    }

    #[test]
    fn draws_are_consistent_and_uniform_on_small_games() {
        let mut tested = 0;
        for seed in 0..400u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let game = small_game(seed, vec![3, 3, 2], 2 + (seed % 2) as usize, (seed % 5) as usize, &mut rng);
            let brute = enumerate(&game);
            if !(2..=60).contains(&brute.total) {
                continue;
            }
            let sampler = UniformSampler::new(&CountProblem::new(&game), &CountOptions::default()).unwrap().unwrap();
            assert_eq!(sampler.total(), brute.total);
            let draws = 100 * brute.total as usize;
            let mut freq: HashMap<Deal, usize> = HashMap::new();
            for _ in 0..draws {
                let mut deal = sampler.sample(&mut rng);
                deal.truncate(game.deck().len());
                assert!(game.fits(&deal), "seed {seed}: a draw does not fit the evidence");
                *freq.entry(deal).or_insert(0) += 1;
            }
            assert_eq!(freq.len() as u128, brute.total, "seed {seed}: every deal is drawn");
            let expected = draws as f64 / brute.total as f64;
            let chi2: f64 = freq.values().map(|&o| (o as f64 - expected).powi(2) / expected).sum();
            let df = (brute.total - 1) as f64;
            assert!(chi2 < chi2_critical(df), "seed {seed}: chi2 {chi2:.1} over {df} degrees of freedom");
            tested += 1;
        }
        assert!(tested > 50, "only {tested} games had a testable number of deals");
    }

    /// The listing holds every consistent deal once, against the brute-force
    /// enumeration (which checks each deal by the rules), and refuses past
    /// its limit.
    #[test]
    fn deals_lists_every_consistent_deal_once() {
        let mut tested = 0;
        for seed in 0..300u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let deck = vec![3, 3, 2 + (seed % 2) as usize];
            let game = small_game(seed, deck, 2 + (seed % 3) as usize, (seed % 6) as usize, &mut rng);
            let brute = std::cell::RefCell::new(Vec::new());
            enumerate_where(&game, &|deal: &[Option<Place>]| {
                brute.borrow_mut().push(deal.to_vec());
                true
            });
            let mut brute = brute.into_inner();
            let Some(sampler) = UniformSampler::new(&CountProblem::new(&game), &CountOptions::default()).unwrap()
            else {
                assert!(brute.is_empty(), "seed {seed}");
                continue;
            };
            let mut listed = sampler.deals(u128::MAX).expect("no limit");
            for deal in &mut listed {
                deal.truncate(game.deck().len());
            }
            brute.sort();
            listed.sort();
            assert_eq!(listed, brute, "seed {seed}");
            assert_eq!(sampler.deals(sampler.total() - 1), None, "seed {seed}: past the limit");
            tested += usize::from(brute.len() > 1);
        }
        assert!(tested > 100, "only {tested} games with several deals");
    }
}
