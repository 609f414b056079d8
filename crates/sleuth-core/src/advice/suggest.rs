//! Suggestions: the exact distribution of their answers, the expected
//! information about the case file, and a cheap first pass that picks which
//! ones to evaluate exactly.

use super::entropy::{case_file_candidates, case_file_entropy, certain_case_file, in_case_file};
use super::Position;
use crate::analysis::ratio;
use crate::count::{alike_cards, case_file_by_class, count, count_marginals, ClassBuffers, ClassCounts, CountError};
use crate::model::Status;
use crate::model::{Card, CardSet, Place, Player, MAX_CARDS, MAX_PLACES};
use crate::Counts;
use std::collections::HashMap;

/// The most combinations [`Position::legal_suggestions`] lists one by one
/// (classic decks have 324, master decks 960).
pub const MAX_COMBINATIONS: usize = 100_000;

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
    /// ([`case_file_entropy`]).
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
/// the answer, both as [`case_file_entropy`] (sum over categories, in bits).
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
    /// deals by answer class ([`case_file_by_class`]); where that does not
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

    /// [`Position::evaluate`] by the shared count alone, however many states
    /// it visits: `None` where it does not apply (the tests check that it
    /// applies where it should).
    ///
    /// # Errors
    /// [`CountError`] from the count.
    #[cfg(any(test, feature = "testing"))]
    pub fn evaluate_shared(&self, cards: CardSet) -> Result<Option<SuggestionEval>, CountError> {
        Ok(self
            .answers_by_class(cards, &mut Splits { dp_ratio: usize::MAX, ..Splits::planned(self, &[cards]) })?
            .map(|outcomes| self.evaluation(cards, outcomes)))
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
    /// [`Position::rank_suggestions`] evaluates with `shortlist`, 0 with
    /// none: the same number as the largest in that ranking, for less. A
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
        let chosen = self.shortlisted(shortlist, Objective::End)?;
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

    /// Every answer to `cards` with a positive probability, in the order
    /// refuters are asked (nobody last), counted one by one while `go_on`
    /// holds for an upper bound on the chance of ending the game (the
    /// answers so far that end it, plus every answer not yet counted); with
    /// whether every answer was counted. `splits` keeps the shared counts
    /// for the next suggestions.
    fn answers(
        &self,
        cards: CardSet,
        splits: &mut Splits,
        go_on: impl Fn(f64) -> bool,
    ) -> Result<(Vec<Outcome>, bool), CountError> {
        // Where the shared count does not apply, fails, or would visit
        // more than [`SHARED_DP_RATIO`] times the states of one count per
        // answer (its forced card order), each answer is counted alone.
        if let Ok(Some(outcomes)) = self.answers_by_class(cards, splits) {
            return Ok((outcomes, true));
        }
        self.answers_one_by_one(cards, go_on)
    }

    /// Every answer to `cards` with a positive probability, as
    /// [`Position::answers`], from one count of the deals split by answer
    /// class ([`case_file_by_class`]): a class is the first player after
    /// the observer who holds some of the open suggested cards, and which
    /// of them (or nobody). The answer "`r` shows `c`" is the union of the
    /// classes of `r` with `c`; its weight, `Σ l / k` over its deals, is
    /// each class's total times `l / |held|`. `None` where the shared count
    /// does not apply.
    ///
    /// Only the cards whose place is uncertain split the deals (the others
    /// are where they are in every deal). Suggestions that differ only in
    /// cards of certain place, or in the observer's own cards, have the
    /// same uncertain cards: a ranking splits their deals once, by the
    /// combination of their answer classes ([`Splits`]).
    fn answers_by_class(&self, cards: CardSet, splits: &mut Splits) -> Result<Option<Vec<Outcome>>, CountError> {
        let open = cards - self.hand;
        let uncertain = self.uncertain(cards);
        let classes: Vec<(AnswerClass, ClassCounts)> = if uncertain.is_empty() {
            let np = self.game.num_players();
            let case_file = self.counts.marginal.iter().map(|m| m[np]).collect();
            vec![(self.answer_class(cards, uncertain, &[]), ClassCounts { total: self.counts.total, case_file })]
        } else {
            let Some(classes) = splits.classes_of(self, cards, uncertain) else { return Ok(None) };
            classes
        };
        self.outcomes_of_classes(open, &classes).map(Some)
    }

    /// The answers to a suggestion with open cards `open` from its deals
    /// split by answer class.
    fn outcomes_of_classes(
        &self,
        open: CardSet,
        classes: &[(AnswerClass, ClassCounts)],
    ) -> Result<Vec<Outcome>, CountError> {
        let game = self.game();
        let np = game.num_players();
        let total = self.counts.total;
        let l = (1..=open.len() as u128).fold(1, lcm);
        let l_n = total.checked_mul(l).ok_or(CountError::Overflow)?;
        let cf = Place::CaseFile.index(np);
        // The deals of the classes `pick` takes, each with its weight.
        let union = |pick: &dyn Fn(&AnswerClass) -> Option<u128>| {
            let mut cc = Counts { total: 0, marginal: vec![[0u128; MAX_PLACES]; MAX_CARDS], states: 0 };
            let mut weight = 0u128;
            for (key, class) in classes {
                let Some(per_deal) = pick(key) else { continue };
                cc.total = cc.total.checked_add(class.total).ok_or(CountError::Overflow)?;
                let w = class.total.checked_mul(per_deal).ok_or(CountError::Overflow)?;
                weight = weight.checked_add(w).ok_or(CountError::Overflow)?;
                for (m, &x) in cc.marginal.iter_mut().zip(&class.case_file) {
                    m[cf] = m[cf].checked_add(x).ok_or(CountError::Overflow)?;
                }
            }
            Ok::<_, CountError>((cc, weight))
        };
        let mut outcomes = Vec::new();
        let mut covered = 0u128;
        let mut r = game.next_player(self.me);
        while r != self.me {
            for c in open {
                let (cc, weight) = union(&|key| match key {
                    Some((q, held)) if *q == r && held.contains(c) => Some(l / held.len() as u128),
                    _ => None,
                })?;
                if cc.total > 0 {
                    covered = covered.checked_add(weight).ok_or(CountError::Overflow)?;
                    // Only the case-file column is filled: all `outcome` reads.
                    outcomes.push(self.outcome(Some(r), Some(c), ratio(weight, l_n), &cc));
                }
            }
            r = game.next_player(r);
        }
        let (cc, weight) = union(&|key| key.is_none().then_some(l))?;
        if cc.total > 0 {
            covered = covered.checked_add(weight).ok_or(CountError::Overflow)?;
            outcomes.push(self.outcome(None, None, ratio(cc.total, total), &cc));
        }
        debug_assert_eq!(covered, l_n, "answer probabilities add up to one");
        Ok(outcomes)
    }

    /// The answer class of the deals that put the `uncertain` cards of
    /// suggestion `cards` at `places` (in deck order).
    fn answer_class(&self, cards: CardSet, uncertain: CardSet, places: &[u8]) -> AnswerClass {
        let np = self.game.num_players();
        let place = |c: Card| match uncertain.iter().position(|u| u == c) {
            Some(i) => usize::from(places[i]),
            None => self.certain_place(c).expect("the others' place is certain"),
        };
        let at: Vec<(Card, usize)> = self.showable(cards).iter().map(|c| (c, place(c))).collect();
        let mut r = self.game.next_player(self.me);
        while r != self.me {
            let held: CardSet = at.iter().filter(|&&(_, q)| q == Place::Player(r).index(np)).map(|&(c, _)| c).collect();
            if !held.is_empty() {
                return Some((r, held));
            }
            r = self.game.next_player(r);
        }
        None
    }

    /// The cards of suggestion `cards` that may be shown to the observer:
    /// not its own, and not face up (nobody holds those).
    fn showable(&self, cards: CardSet) -> CardSet {
        cards - self.hand - self.game.face_up()
    }

    /// The showable cards of `cards` whose place is uncertain.
    fn uncertain(&self, cards: CardSet) -> CardSet {
        self.showable(cards).iter().filter(|&c| self.certain_place(c).is_none()).collect()
    }

    /// Where `card` is in every consistent deal, if that place is certain
    /// (its index: players in seat order, then the case file).
    fn certain_place(&self, card: Card) -> Option<usize> {
        let np = self.game.num_players();
        (0..=np).find(|&q| self.counts.marginal[card.index()][q] == self.counts.total)
    }

    /// At most how many counts [`Position::answers_one_by_one`] makes for
    /// `cards`: one per player after the observer and open card it may
    /// hold, and one for nobody.
    fn one_by_one_counts(&self, cards: CardSet) -> usize {
        let open = cards - self.hand;
        let held = |r: Player| open.iter().filter(|&c| self.may_hold(r, c)).count();
        1 + self.game.players().filter(|&r| r != self.me).map(held).sum::<usize>()
    }

    /// Whether player `r` holds `card` in some consistent deal.
    fn may_hold(&self, r: Player, card: Card) -> bool {
        self.counts.marginal[card.index()][Place::Player(r).index(self.game.num_players())] > 0
    }

    /// [`Position::answers`] with one count per answer.
    fn answers_one_by_one(
        &self,
        cards: CardSet,
        go_on: impl Fn(f64) -> bool,
    ) -> Result<(Vec<Outcome>, bool), CountError> {
        let game = self.game();
        let total = self.counts.total;
        let open = cards - self.hand;
        // Weights are in units of 1/l deal, l = lcm(1..=|open|), so that 1/k is exact.
        let l = (1..=open.len() as u128).fold(1, lcm);
        let l_n = total.checked_mul(l).ok_or(CountError::Overflow)?;
        let mut outcomes = Vec::new();
        let mut covered = 0u128;
        let mut prefix = self.problem.clone();
        let mut r = game.next_player(self.me);
        while r != self.me && covered < l_n {
            let rp = Place::Player(r);
            // The counts of `rp` holding several of the cards, shared by the cards it may show.
            let mut held = Vec::new();
            for c in open {
                if !self.may_hold(r, c) {
                    continue;
                }
                if !go_on(end_probability(&outcomes) + ratio(l_n - covered, l_n)) {
                    return Ok((outcomes, false));
                }
                let mut q = prefix.clone();
                q.add_fact(c, rp, true);
                let cc = count_marginals(&q, &self.count)?;
                if cc.total == 0 {
                    continue;
                }
                let weight = refuter_weight(&q, &cc, c, open, rp, l, &mut held, &self.count)?;
                covered = covered.checked_add(weight).ok_or(CountError::Overflow)?;
                outcomes.push(self.outcome(Some(r), Some(c), ratio(weight, l_n), &cc));
            }
            for c in open {
                prefix.add_fact(c, rp, false);
            }
            r = game.next_player(r);
        }
        if covered < l_n {
            if !go_on(end_probability(&outcomes) + ratio(l_n - covered, l_n)) {
                return Ok((outcomes, false));
            }
            let cc = count_marginals(&prefix, &self.count)?;
            if cc.total > 0 {
                covered = cc.total.checked_mul(l).and_then(|w| covered.checked_add(w)).ok_or(CountError::Overflow)?;
                outcomes.push(self.outcome(None, None, ratio(cc.total, total), &cc));
            }
        }
        debug_assert_eq!(covered, l_n, "answer probabilities add up to one");
        Ok((outcomes, true))
    }

    fn outcome(&self, refuter: Option<Player>, shown: Option<Card>, p: f64, cc: &crate::Counts) -> Outcome {
        Outcome {
            refuter,
            shown,
            probability: p,
            entropy_after: case_file_entropy(&self.game, cc),
            solves: certain_case_file(&self.game, cc).is_some(),
            candidates_after: hartley(&self.game, cc),
            models_after: cc.total,
            mode_bound: mode_bound(&self.game, cc),
            open_after: open_candidates(&self.game, cc),
        }
    }

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
        let mut r = self.game.next_player(self.me);
        while r != self.me {
            for (i, c) in open.iter().enumerate() {
                h[i] = self.prob[c.index()][r.index()];
            }
            for (i, c) in open.iter().enumerate() {
                score += reach * show_probability(&h[..m], i) * self.gain[c.index()];
            }
            reach *= h[..m].iter().map(|x| 1.0 - x).product::<f64>();
            r = self.game.next_player(r);
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

    /// [`Position::rank_suggestions_by`] step by step: after each exact
    /// evaluation, `on_update` gets the ranking so far (the suggestions
    /// evaluated so far, best first, each exactly as in the final ranking)
    /// and how many are shortlisted, and answers whether to go on. The
    /// ranking is the same whatever the updates see (each is a sort by a
    /// total order); `None` when `on_update` stopped it.
    ///
    /// # Errors
    /// [`CountError`] from the counts.
    pub fn rank_suggestions_with(
        &self,
        shortlist: usize,
        objective: Objective,
        mut on_update: impl FnMut(&[SuggestionEval], usize) -> bool,
    ) -> Result<Option<Vec<SuggestionEval>>, CountError> {
        let chosen = self.shortlisted(shortlist, objective)?;
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
    fn rank(&self, evals: &mut [SuggestionEval], objective: Objective) {
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

    /// The suggestions [`Position::rank_suggestions_by`] evaluates for
    /// `objective`: the `shortlist` best by estimate, the most likely case
    /// file and the focused combination. For the objectives led by the
    /// chance of ending the game ([`Objective::End`], the default, and
    /// [`Objective::EndThenLikely`]) a sixth of the `shortlist` (rounded
    /// down: 2 of the default 12) are instead the suggestions most likely to
    /// end it unrefuted ([`Position::unrefuted_ends`]): the estimate predicts
    /// information, not the end, and the best suggestion by that objective
    /// is often one nobody may refute (`sleuth-testkit`'s example
    /// `shortlist_misses`, BENCHMARKS.md).
    fn shortlisted(&self, shortlist: usize, objective: Objective) -> Result<Vec<CardSet>, CountError> {
        let legal = self.legal_suggestions();
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
        let ending = if unrefuted > 0 { self.unrefuted_ends(&legal, unrefuted)? } else { Vec::new() };
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

/// `Σ_deals l / k(deal)` over the deals of `cc` (those of `q`, where the
/// refuter `rp` is the first holder and holds `c`), `k` being how many of the
/// `open` suggested cards `rp` holds.
///
/// By inclusion and exclusion over the other open cards `U` that `rp` also
/// holds, with `g(U)` the deals where it holds `c` and all of `U`:
/// `Σ_deals 1/k = Σ_U (−1)^|U| g(U) / (|U| + 1)`. `g(∅)` and `g({x})` come from
/// the marginal count; larger `U` need one count each (at most one for a
/// three-category deck). That count, of the deals where `rp` holds all of
/// `U` and `c`, is the same for each card of the set: `held` keeps the
/// ones counted for `rp`.
#[allow(clippy::too_many_arguments)]
fn refuter_weight(
    q: &crate::CountProblem,
    cc: &crate::Counts,
    c: Card,
    open: CardSet,
    rp: Place,
    l: u128,
    held: &mut Vec<(CardSet, u128)>,
    options: &crate::count::CountOptions<'_>,
) -> Result<u128, CountError> {
    let np = q.num_players();
    let others: Vec<Card> =
        (open - CardSet::single(c)).iter().filter(|x| cc.marginal[x.index()][rp.index(np)] > 0).collect();
    let (mut plus, mut minus) = (0u128, 0u128);
    for mask in 0u32..(1 << others.len()) {
        let size = mask.count_ones() as usize;
        let g = match size {
            0 => cc.total,
            1 => cc.marginal[others[mask.trailing_zeros() as usize].index()][rp.index(np)],
            _ => {
                let set: CardSet =
                    others.iter().enumerate().filter(|&(j, _)| mask & (1 << j) != 0).map(|(_, &x)| x).collect();
                let set = set | CardSet::single(c);
                match held.iter().find(|&&(s, _)| s == set) {
                    Some(&(_, g)) => g,
                    None => {
                        let mut b = q.clone();
                        for x in set {
                            b.add_fact(x, rp, true);
                        }
                        let g = count(&b, options)?;
                        held.push((set, g));
                        g
                    }
                }
            }
        };
        let term = g.checked_mul(l / (size as u128 + 1)).ok_or(CountError::Overflow)?;
        if size % 2 == 0 {
            plus = plus.checked_add(term).ok_or(CountError::Overflow)?;
        } else {
            minus = minus.checked_add(term).ok_or(CountError::Overflow)?;
        }
    }
    // Inclusion and exclusion never goes below zero: it counts deals.
    Ok(plus.saturating_sub(minus))
}

/// A class of deals by the answer to a suggestion: the first player after
/// the suggester who holds some of the suggested cards, and which ones
/// (`None`: nobody holds any).
type AnswerClass = Option<(Player, CardSet)>;

/// The deals split by where some uncertain cards are, for the suggestions
/// whose uncertain cards are those or alike to them: one part per
/// combination of their answer classes (per suggestion, in `members`'
/// order), with its counts.
struct Split {
    members: Vec<CardSet>,
    parts: Vec<(Vec<AnswerClass>, ClassCounts)>,
}

/// The shared counts of a position's suggestions, kept per set of
/// uncertain cards while they are evaluated (see
/// [`Position::answers_by_class`]).
///
/// Suggestions whose uncertain cards are alike ([`alike_cards`]: unplaced,
/// in no clause, of one category with the same allowed places) share one
/// count too: swapping alike cards maps the deals onto themselves, so the
/// deals split by where the first card of each group is give every
/// member's classes, the cards swapped back (a fifth fewer counts by class
/// on the master 10-player advice states of BENCHMARKS.md).
#[derive(Default)]
struct Splits {
    /// Per card, the first card alike to it ([`alike_cards`]).
    alike: Vec<Card>,
    /// Per set of uncertain cards, each replaced by the first card alike
    /// to it, the suggestions planned with it (see [`Splits::planned`]).
    planned: HashMap<CardSet, Vec<CardSet>>,
    /// The counts so far; `None` where the shared count does not apply.
    counted: HashMap<CardSet, Option<Split>>,
    /// The memory the counts by class reuse.
    buffers: ClassBuffers,
    /// How many times the states of one count per answer a count by class
    /// may visit ([`SHARED_DP_RATIO`]).
    dp_ratio: usize,
}

impl Splits {
    /// Splits for evaluating `planned` on `pos`: each shared count serves
    /// the planned suggestions with its uncertain cards, or alike ones.
    fn planned(pos: &Position<'_>, planned: &[CardSet]) -> Splits {
        let mut splits = Splits { dp_ratio: SHARED_DP_RATIO, alike: alike_cards(&pos.problem), ..Splits::default() };
        for &cards in planned {
            let members = splits.planned.entry(splits.first_alike(pos.uncertain(cards))).or_default();
            if !members.contains(&cards) {
                members.push(cards);
            }
        }
        splits
    }

    /// `cards`, each replaced by the first card alike to it. A suggestion
    /// has one card per category, so these are as many cards, and taking
    /// each back to its own is swapping disjoint pairs.
    fn first_alike(&self, cards: CardSet) -> CardSet {
        cards.iter().map(|c| self.alike[c.index()]).collect()
    }

    /// The deals of suggestion `cards` split by answer class, from the
    /// count shared by its planned companions (counted on first use);
    /// `None` where that count does not apply, or for a suggestion not
    /// planned.
    fn classes_of(
        &mut self,
        pos: &Position<'_>,
        cards: CardSet,
        uncertain: CardSet,
    ) -> Option<Vec<(AnswerClass, ClassCounts)>> {
        let watched = self.first_alike(uncertain);
        let members = self.planned.get(&watched).filter(|m| m.contains(&cards))?;
        let (buffers, dp_ratio, alike) = (&mut self.buffers, self.dp_ratio, &self.alike);
        let split = self
            .counted
            .entry(watched)
            .or_insert_with(|| Split::count(pos, members.clone(), watched, alike, dp_ratio, buffers));
        let split = split.as_ref()?;
        let at = split.members.iter().position(|&m| m == cards).expect("a member");
        let swap = |counts: &ClassCounts| {
            let mut counts = counts.clone();
            for c in uncertain {
                counts.case_file.swap(c.index(), self.alike[c.index()].index());
            }
            counts
        };
        Some(split.parts.iter().map(|(keys, counts)| (keys[at], swap(counts))).collect())
    }
}

impl Split {
    /// The shared count of `members` by the places of the `watched` cards
    /// (their uncertain cards, or the first cards alike to them): `None`
    /// where it does not apply or fails (its card order may make it larger
    /// than the usual count; the one-by-one counts then report any real
    /// error).
    fn count(
        pos: &Position<'_>,
        members: Vec<CardSet>,
        watched: CardSet,
        alike: &[Card],
        dp_ratio: usize,
        buffers: &mut ClassBuffers,
    ) -> Option<Split> {
        // Per member, its uncertain cards and where each one's alike card
        // is among the watched ones: a deal that puts the watched cards at
        // `places` is, swapped, one that puts the member's cards there.
        let at: Vec<(CardSet, Vec<usize>)> = members
            .iter()
            .map(|&m| {
                let uncertain = pos.uncertain(m);
                let at = uncertain
                    .iter()
                    .map(|c| watched.iter().position(|w| w == alike[c.index()]).expect("watched"))
                    .collect();
                (uncertain, at)
            })
            .collect();
        let mut keys: Vec<Vec<AnswerClass>> = Vec::new();
        let mut own = Vec::new();
        let mut index = |places: &[u8]| {
            let key: Vec<AnswerClass> = members
                .iter()
                .zip(&at)
                .map(|(&m, (uncertain, at))| {
                    own.clear();
                    own.extend(at.iter().map(|&i| places[i]));
                    pos.answer_class(m, *uncertain, &own)
                })
                .collect();
            keys.iter().position(|k| *k == key).unwrap_or_else(|| {
                keys.push(key);
                keys.len() - 1
            })
        };
        // Where the DP by class would visit more than `dp_ratio` times the
        // states of one count per answer, those counts are taken instead.
        let answers: usize = members.iter().map(|&m| pos.one_by_one_counts(m)).sum();
        let dp_states = dp_ratio.saturating_mul(answers).saturating_mul(pos.counts.states.max(1));
        let counts =
            case_file_by_class(&pos.problem, watched, &mut index, &pos.count, dp_states, buffers).ok().flatten()?;
        Some(Split { parts: keys.into_iter().zip(counts).collect(), members })
    }
}

/// How many times the states of one count per answer (the position's
/// count's states per count) the card-outer DP by answer class may visit
/// before the answers are counted one by one: its forced order visits up
/// to a hundred times the ordinary count's states. Measured on the 3,661
/// shared counts of 400 master 10-player advice states: 13 pass twice,
/// each one then 2 to 7 times faster one by one; at a ratio of 1, one
/// state was 5 times slower one by one (its answers' counts could not
/// take the players-outer counter).
const SHARED_DP_RATIO: usize = 2;

/// The chance that the answer ends the game: the answers after which the
/// case file is certain, in order.
fn end_probability(outcomes: &[Outcome]) -> f64 {
    outcomes.iter().filter(|o| o.solves).map(|o| o.probability).sum()
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn lcm(a: u128, b: u128) -> u128 {
    a / gcd(a, b) * b
}

/// `Σ_k log2(n_k)`, `n_k` the number of case-file candidates of category `k`.
fn hartley(game: &crate::Game, counts: &crate::Counts) -> f64 {
    case_file_candidates(game, counts).iter().map(|&n| (n.max(1) as f64).log2()).sum()
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
    /// ([`Outcome::mode_bound`]): how sure an accusation could be.
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
    use crate::generate::{generate, DeckChoice, GenConfig};
    use rand::SeedableRng;

    /// Over its states limit, a count by answer class gives way to one
    /// count per answer: the same evaluations. A limit of 0 sends every
    /// card-outer DP by class there (the players-outer split keeps its own
    /// gate), on master 10-player states where both kinds occur.
    #[test]
    fn counts_by_class_over_their_limit_give_way_to_one_count_per_answer() {
        let mut gave_way = 0;
        for seed in 0..4 {
            let cfg = GenConfig::new(DeckChoice::Master, 10, true, 10);
            let game = generate(&cfg, &mut rand_chacha::ChaCha8Rng::seed_from_u64(seed)).player_view().expect("valid");
            let pos = Position::new(&game).expect("generated games count");
            let ranked = pos.rank_suggestions(6).expect("generated games count");
            let cards: Vec<CardSet> = ranked.iter().map(|e| e.cards).collect();
            let mut splits = Splits { dp_ratio: 0, ..Splits::planned(&pos, &cards) };
            for eval in &ranked {
                assert_eq!(&pos.evaluate_sharing(eval.cards, &mut splits).expect("counts"), eval, "seed {seed}");
            }
            gave_way += splits.counted.values().filter(|s| s.is_none()).count();
        }
        assert!(gave_way > 0, "no count by class reached its limit");
    }

    /// Suggestions whose uncertain cards are alike share one count by
    /// class, each taking its classes with the cards swapped back: every
    /// evaluation is still the one of one count per answer, to the bit.
    #[test]
    fn suggestions_with_alike_cards_share_a_count() {
        let mut shared = 0;
        for seed in 0..12 {
            let (deck, players) = if seed % 2 == 0 { (DeckChoice::Classic, 4) } else { (DeckChoice::Master, 6) };
            let cfg = GenConfig::new(deck, players, seed % 3 != 0, 5 + seed as usize);
            let game = generate(&cfg, &mut rand_chacha::ChaCha8Rng::seed_from_u64(seed)).player_view().expect("valid");
            let pos = Position::new(&game).expect("generated games count");
            let cards: Vec<CardSet> = pos.legal_suggestions().into_iter().step_by(7).take(40).collect();
            let mut splits = Splits::planned(&pos, &cards);
            for &s in &cards {
                let eval = pos.evaluate_sharing(s, &mut splits).expect("counts");
                assert_eq!(eval, pos.evaluate_one_by_one(s).expect("counts"), "seed {seed}, {s:?}");
            }
            for (key, members) in &splits.planned {
                if splits.counted.get(key).is_some_and(Option::is_some) {
                    shared += members.iter().filter(|&&m| pos.uncertain(m) != *key).count();
                }
            }
        }
        assert!(shared > 100, "{shared} evaluations from the count of alike cards");
    }

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
