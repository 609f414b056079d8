//! The first pass over every legal suggestion (an estimate from the
//! marginals), the shortlist it picks, and the ranking of the exact
//! evaluations.

use super::answers::Splits;
use super::SuggestionEval;
use crate::advice::entropy::in_case_file;
use crate::advice::Position;
use crate::count::CountError;
use crate::model::Status;
use crate::model::{Card, CardSet, MAX_CARDS};
use std::collections::HashMap;

/// The most combinations [`Position::legal_suggestions`] lists one by one
/// (classic decks have 324, master decks 960).
pub const MAX_COMBINATIONS: usize = 100_000;

impl Position<'_> {
    /// The first-pass estimate of a suggestion's expected information, from
    /// the current marginals alone, treating card locations as independent.
    ///
    /// Each player in turn holds each open card (not in the observer's hand)
    /// with its marginal probability; the first holder refutes and shows a
    /// uniformly chosen one of its cards. Seeing card `c` is worth the drop in
    /// entropy of `c`'s category when `c` leaves the case-file candidates;
    /// nobody refuting is worth the whole entropy of the open cards'
    /// categories (they must be in the case file). It ignores what is learnt
    /// about who holds what, which the exact evaluation counts.
    pub fn estimate(&self, cards: CardSet) -> f64 {
        let open = cards - self.hand;
        let m = open.len();
        // Nothing allocated, and per player only the `m` entries read are
        // set: the opponents' look-ahead estimates every legal suggestion of
        // every view it counts.
        let mut h = [0.0f64; MAX_CARDS];
        let mut reach = 1.0;
        let mut score = 0.0;
        for r in self.game.players_after(self.me) {
            for (i, c) in open.iter().enumerate() {
                h[i] = self.prob[c.index()][r.index()];
            }
            for (i, c) in open.iter().enumerate() {
                score += reach * show_probability(&h[..m], i) * self.gain[c.index()];
            }
            reach *= h[..m].iter().map(|x| 1.0 - x).product::<f64>();
        }
        let deck = self.game.deck();
        let nobody: f64 = open.iter().map(|c| self.category_entropy[deck.category(c).index()]).sum();
        score + reach * nobody
    }

    /// Every combination the observer may suggest: one card per category,
    /// never one it has suggested before (a repeat teaches nothing new about
    /// who holds what, and Speed Clue forbids it).
    ///
    /// A custom deck with more than [`MAX_COMBINATIONS`] combinations gets a
    /// smaller list instead: the most likely case file and every combination
    /// that differs from it in one category.
    pub fn legal_suggestions(&self) -> Vec<CardSet> {
        let deck = self.game.deck();
        let made = self.own_suggestions();
        let all: f64 = deck.categories().map(|k| deck.category_cards(k).len() as f64).product();
        if all > MAX_COMBINATIONS as f64 {
            let Some(mode) = self.mode_combination() else { return Vec::new() };
            let mut combos = vec![mode];
            for cat in deck.categories() {
                let cards = deck.category_cards(cat);
                for c in cards - mode {
                    combos.push((mode - cards) | CardSet::single(c));
                }
            }
            combos.retain(|s| !made.contains(s));
            return combos;
        }
        let mut combos = vec![CardSet::EMPTY];
        for cat in deck.categories() {
            let mut next = Vec::with_capacity(combos.len() * deck.category_cards(cat).len());
            for &s in &combos {
                for c in deck.category_cards(cat) {
                    next.push(s | CardSet::single(c));
                }
            }
            combos = next;
        }
        combos.retain(|s| !made.contains(s));
        combos
    }

    /// Ranks suggestions: the first pass over every legal combination, then
    /// `shortlist` of them (the best by estimate and a sixth, rounded down,
    /// the most likely to end the game unrefuted), the most likely case file
    /// (the `exact` agent's choice) and the focused combination
    /// ([`Position::focused_combination`], the `sat` agent's rule) evaluated
    /// exactly, best first by [`Objective::default`]; ties go to more
    /// information, a higher chance of ending the game, a higher estimate,
    /// then deck order. With a `shortlist` of 6 or more, a position that did
    /// not list its case files lists them here (a count of its own).
    ///
    /// Where the consistent deals are few (their number times the legal
    /// suggestions at most [`LISTED_WORK`](super::LISTED_WORK)), there is
    /// no shortlist: every legal suggestion is evaluated, from the listed
    /// deals ([`Position::evaluate_listed`]), and the best is the best of
    /// all.
    ///
    /// # Errors
    /// [`CountError`] from the counts.
    pub fn rank_suggestions(&self, shortlist: usize) -> Result<Vec<SuggestionEval>, CountError> {
        self.rank_suggestions_by(shortlist, Objective::default())
    }

    /// As [`Position::rank_suggestions`], ranked by `objective` first.
    ///
    /// # Errors
    /// [`CountError`] from the counts.
    pub fn rank_suggestions_by(
        &self,
        shortlist: usize,
        objective: Objective,
    ) -> Result<Vec<SuggestionEval>, CountError> {
        Ok(self.rank_suggestions_with(shortlist, objective, |_, _| true)?.unwrap_or_default())
    }

    /// [`Position::rank_suggestions_by`] step by step: before the first
    /// exact evaluation and after each one (after all of them, where every
    /// suggestion is evaluated from the listed deals), `on_update` gets the
    /// ranking so far (the suggestions evaluated so far, best first, each
    /// exactly as in the final ranking) and how many are shortlisted, and
    /// answers whether to go on. The ranking is the same whatever the
    /// updates see (each is a sort by a total order); `None` when
    /// `on_update` stopped it.
    ///
    /// # Errors
    /// [`CountError`] from the counts.
    pub fn rank_suggestions_with(
        &self,
        shortlist: usize,
        objective: Objective,
        mut on_update: impl FnMut(&[SuggestionEval], usize) -> bool,
    ) -> Result<Option<Vec<SuggestionEval>>, CountError> {
        let legal = self.legal_suggestions();
        if let Some(mut evals) = self.evaluate_listed(&legal)? {
            self.rank(&mut evals, objective);
            let n = evals.len();
            return Ok((on_update(&[], n) && on_update(&evals, n)).then_some(evals));
        }
        let chosen = self.shortlisted(&legal, shortlist, objective)?;
        let mut evals = Vec::with_capacity(chosen.len());
        if !on_update(&evals, chosen.len()) {
            return Ok(None);
        }
        let mut splits = Splits::planned(self, &chosen);
        for &cards in &chosen {
            evals.push(self.evaluate_sharing(cards, &mut splits)?);
            self.rank(&mut evals, objective);
            if !on_update(&evals, chosen.len()) {
                return Ok(None);
            }
        }
        Ok(Some(evals))
    }

    /// Sorts `evals` best first by `objective`, then by a higher chance
    /// of ending the game, a higher estimate, then deck order (a total order).
    pub(super) fn rank(&self, evals: &mut [SuggestionEval], objective: Objective) {
        evals.sort_by(|a, b| {
            objective
                .score(b)
                .total_cmp(&objective.score(a))
                .then_with(|| match objective {
                    Objective::EndThenLikely => b.likelihood.total_cmp(&a.likelihood),
                    _ => std::cmp::Ordering::Equal,
                })
                .then_with(|| b.information.total_cmp(&a.information))
                .then_with(|| b.end_probability.total_cmp(&a.end_probability))
                .then_with(|| b.estimate.total_cmp(&a.estimate))
                .then_with(|| a.cards.0.cmp(&b.cards.0))
        });
    }

    /// The suggestions of `legal` [`Position::rank_suggestions_by`]
    /// evaluates for `objective`: the `shortlist` best by estimate, the most likely case
    /// file and the focused combination. For the objectives led by the
    /// chance of ending the game ([`Objective::End`], the default, and
    /// [`Objective::EndThenLikely`]) a sixth of the `shortlist` (rounded
    /// down: 2 of the default 12) are instead the suggestions most likely to
    /// end it unrefuted ([`Position::unrefuted_ends`]): the estimate predicts
    /// information, not the end, and the best suggestion by that objective
    /// is often one nobody may refute (`sleuth-testkit`'s example
    /// `shortlist_misses`, BENCHMARKS.md).
    pub(super) fn shortlisted(
        &self,
        legal: &[CardSet],
        shortlist: usize,
        objective: Objective,
    ) -> Result<Vec<CardSet>, CountError> {
        let unrefuted = if matches!(objective, Objective::End | Objective::EndThenLikely) { shortlist / 6 } else { 0 };
        let mut scored: Vec<(f64, CardSet)> = legal.iter().map(|&s| (self.estimate(s), s)).collect();
        // The best `n` by estimate (a total order: ties in deck order),
        // best first; the rest left unsorted.
        let n = (shortlist - unrefuted).max(1).min(scored.len());
        let by_estimate =
            |a: &(f64, CardSet), b: &(f64, CardSet)| b.0.total_cmp(&a.0).then_with(|| a.1 .0.cmp(&b.1 .0));
        if n < scored.len() {
            scored.select_nth_unstable_by(n, by_estimate);
        }
        scored[..n].sort_by(by_estimate);
        let mut chosen: Vec<CardSet> = scored[..n].iter().map(|x| x.1).collect();
        let ending = if unrefuted > 0 { self.unrefuted_ends(legal, unrefuted)? } else { Vec::new() };
        let made = self.own_suggestions();
        for extra in
            ending.into_iter().chain([self.mode_combination(), self.focused_combination()].into_iter().flatten())
        {
            if !chosen.contains(&extra) && !made.contains(&extra) {
                chosen.push(extra);
            }
        }
        Ok(chosen)
    }

    /// The `n` suggestions of `legal` with the most deals in which nobody
    /// can refute them and the case file is then certain without a further
    /// deduction, most first (ties in deck order; none with no such deal).
    /// Nobody refutes exactly where the suggested cards that may be shown
    /// are all in the case file; the case file is then those cards and, in
    /// the categories where no card may be shown, the case-file card
    /// already certain, if every such category has one. Those deals are one
    /// case file's, read from the exact list of case files
    /// ([`Position::case_file_list`]); none where there are too many to
    /// list. They are a share of the suggestion's chance of ending the game
    /// ([`SuggestionEval::end_probability`]), never more.
    ///
    /// # Errors
    /// [`CountError`] from listing the case files.
    fn unrefuted_ends(&self, legal: &[CardSet], n: usize) -> Result<Vec<CardSet>, CountError> {
        let Some(files) = self.case_file_list()? else { return Ok(Vec::new()) };
        let deals: HashMap<CardSet, u128> =
            files.iter().map(|(cards, n)| (cards.iter().copied().collect(), n)).collect();
        let deck = self.game.deck();
        let certain: CardSet =
            deck.cards().filter(|&c| in_case_file(&self.game, &self.counts, c) == self.counts.total).collect();
        let mut scored: Vec<(u128, CardSet)> = legal
            .iter()
            .filter_map(|&s| {
                let shown = self.showable(s);
                let mut file = shown;
                for cat in deck.categories() {
                    let cards = deck.category_cards(cat);
                    if (shown & cards).is_empty() {
                        let known = certain & cards;
                        if known.is_empty() {
                            return None;
                        }
                        file |= known;
                    }
                }
                deals.get(&file).map(|&n| (n, s))
            })
            .collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1 .0.cmp(&b.1 .0)));
        Ok(scored.into_iter().take(n).map(|x| x.1).collect())
    }

    /// A focused combination (the `sat` agent's rule, from exact counts): in
    /// a category whose case-file card is certain, that card (nobody can
    /// refute it, so the answer is about the other categories); otherwise
    /// the case-file candidate with the fewest possible places, the most
    /// likely in the case file among those, then deck order: the best card
    /// of the first tier of [`Position::focused_tiers`].
    pub fn focused_combination(&self) -> Option<CardSet> {
        let deck = self.game.deck();
        let np = self.game.num_players();
        let in_case_file = |c: &Card| self.prob[c.index()][np];
        let mut s = CardSet::EMPTY;
        for cat in deck.categories() {
            let first = self.focused_tiers(deck.category_cards(cat)).into_iter().find(|t| !t.is_empty())?;
            let pick = first
                .iter()
                .filter(|c| in_case_file(c) > 0.0)
                .max_by(|a, b| in_case_file(a).total_cmp(&in_case_file(b)).then_with(|| b.index().cmp(&a.index())))?;
            s.insert(pick);
        }
        Some(s)
    }

    /// [`focused_tiers`] of one category (`cards`) from exact counts. Cards
    /// in one tier are equally good; playing agents pick among them at random.
    pub fn focused_tiers(&self, cards: CardSet) -> Vec<CardSet> {
        let np = self.game.num_players();
        let case_file = |c: Card| match self.prob[c.index()][np] {
            p if p >= 1.0 => Status::Yes,
            p if p > 0.0 => Status::Maybe,
            _ => Status::No,
        };
        let places = |c: Card| self.prob[c.index()][..=np].iter().filter(|&&p| p > 0.0).count();
        focused_tiers(cards, self.hand, np + 1, case_file, places)
    }

    /// The combination of each category's most likely case-file card (the
    /// `exact` agent's suggestion), ties in deck order.
    fn mode_combination(&self) -> Option<CardSet> {
        let deck = self.game.deck();
        let cf = self.game.num_players();
        let mut s = CardSet::EMPTY;
        for cat in deck.categories() {
            let best = deck.category_cards(cat).iter().max_by(|a, b| {
                self.prob[a.index()][cf].total_cmp(&self.prob[b.index()][cf]).then_with(|| b.index().cmp(&a.index()))
            })?;
            s.insert(best);
        }
        Some(s)
    }
}

/// The cards of one category (`cards`) in tiers of preference for a focused
/// suggestion (the `sat` agent's rule), from any complete knowledge of where
/// cards may be: `case_file(c)` says whether `c` is in the case file and
/// `places(c)` at how many of the `num_places` places it may be. A certain
/// case-file card together with the player's own cards (`hand`) of the
/// category, as nobody can refute either; otherwise the case-file candidates
/// with 2 possible places, then 3, and so on, then the player's own cards.
pub fn focused_tiers(
    cards: CardSet,
    hand: CardSet,
    num_places: usize,
    case_file: impl Fn(Card) -> Status,
    places: impl Fn(Card) -> usize,
) -> Vec<CardSet> {
    let certain: CardSet = cards.iter().filter(|&c| case_file(c) == Status::Yes).collect();
    if !certain.is_empty() {
        return vec![certain | (cards & hand)];
    }
    let open: Vec<Card> = cards.iter().filter(|&c| case_file(c) == Status::Maybe).collect();
    let mut tiers: Vec<CardSet> =
        (2..=num_places).map(|m| open.iter().copied().filter(|&c| places(c) == m).collect()).collect();
    tiers.push(cards & hand);
    tiers
}

/// What a suggestion is ranked by.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Objective {
    /// Expected information about the case file ([`SuggestionEval::information`]).
    Information,
    /// Expected case-file candidates ruled out ([`SuggestionEval::elimination`]).
    Elimination,
    /// The chance of ending the game, then information: the default, which
    /// solved fastest in simulation.
    #[default]
    End,
    /// Expected information about the whole deal.
    Deal,
    /// Information about the case file plus a quarter of that about the deal.
    Mixed,
    /// Expected case-file candidates ruled out ([`SuggestionEval::ruled_out`]).
    RuledOut,
    /// The expected bound on the most likely case file after the answer
    /// ([`Outcome::mode_bound`](super::Outcome::mode_bound)): how sure an accusation could be.
    Mode,
    /// The chance of ending the game, then [`SuggestionEval::likelihood`].
    EndThenLikely,
}

impl Objective {
    /// The primary score of an evaluation under this objective.
    pub fn score(self, e: &SuggestionEval) -> f64 {
        match self {
            Objective::Information => e.information,
            Objective::Elimination => e.elimination,
            Objective::End => e.end_probability,
            Objective::Deal => e.deal_information,
            Objective::Mixed => e.information + 0.25 * e.deal_information,
            Objective::RuledOut => e.ruled_out,
            Objective::Mode => e.outcomes.iter().map(|o| o.probability * o.mode_bound).sum(),
            Objective::EndThenLikely => e.end_probability,
        }
    }
}

/// The probability that a player who holds each card `j` independently
/// with probability `h[j]` shows card `i`, choosing uniformly among those it
/// holds: `h_i · E[1 / (1 + K)]`, `K` the number of the other cards it holds.
fn show_probability(h: &[f64], i: usize) -> f64 {
    // A suggestion's two or three open cards, unrolled: the operations of
    // the loop in the same order, so the same bits (the estimate orders the
    // shortlist). The opponents' look-ahead estimates every legal
    // suggestion of every view it counts.
    let other = |j: usize| h[j + usize::from(j >= i)];
    match h.len() {
        2 => {
            let a = other(0);
            h[i] * ((1.0 - a) + a / 2.0)
        }
        3 => {
            let (a, b) = (other(0), other(1));
            h[i] * ((1.0 - a) * (1.0 - b) + (a * (1.0 - b) + (1.0 - a) * b) / 2.0 + a * b / 3.0)
        }
        _ => show_probability_looped(h, i),
    }
}

/// [`show_probability`] for any number of cards: `K`'s distribution built
/// card by card.
fn show_probability_looped(h: &[f64], i: usize) -> f64 {
    let m = h.len();
    let mut dist = [0.0f64; MAX_CARDS];
    dist[0] = 1.0;
    for (j, &hj) in h.iter().enumerate() {
        if j == i {
            continue;
        }
        for k in (0..m).rev() {
            dist[k] = dist[k] * (1.0 - hj) + if k > 0 { dist[k - 1] * hj } else { 0.0 };
        }
    }
    h[i] * dist[..m].iter().enumerate().map(|(k, p)| p / (k + 1) as f64).sum::<f64>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// The same probability by summing over every subset of held cards.
    fn by_subsets(h: &[f64], i: usize) -> f64 {
        let mut show = 0.0;
        for mask in 0u32..(1 << h.len()) {
            if mask & (1 << i) == 0 {
                continue;
            }
            let pt: f64 =
                h.iter().enumerate().map(|(j, &hj)| if mask & (1 << j) != 0 { hj } else { 1.0 - hj }).product();
            show += pt / f64::from(mask.count_ones());
        }
        show
    }

    /// The unrolled two and three cards give the loop's bits.
    #[test]
    fn show_probability_unrolled_is_the_loop_to_the_bit() {
        use rand::Rng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let edges = [0.0, 1.0, 0.5, 1.0 / 3.0];
        for round in 0..20_000 {
            let m = 2 + round % 2;
            let h: Vec<f64> =
                (0..m).map(|_| if rng.gen_bool(0.2) { edges[rng.gen_range(0..4)] } else { rng.gen::<f64>() }).collect();
            for i in 0..m {
                let looped = show_probability_looped(&h, i);
                assert_eq!(show_probability(&h, i).to_bits(), looped.to_bits(), "{h:?} card {i}");
            }
        }
    }

    #[test]
    fn show_probability_matches_the_sum_over_subsets() {
        let cases: [&[f64]; 5] = [&[0.3], &[0.5, 0.2], &[0.1, 0.7, 0.4], &[0.0, 1.0, 0.5, 0.25], &[1.0, 1.0, 1.0]];
        for h in cases {
            let mut total = 0.0;
            for i in 0..h.len() {
                let (a, b) = (show_probability(h, i), by_subsets(h, i));
                assert!((a - b).abs() < 1e-12, "{h:?} card {i}: {a} vs {b}");
                total += a;
            }
            // Some card is shown exactly when at least one is held.
            let none: f64 = h.iter().map(|x| 1.0 - x).product();
            assert!((total + none - 1.0).abs() < 1e-12);
        }
    }
}
