//! A suggestion's answers, counted exactly: by answer class in one count
//! shared with the suggestions alike to it, or one count per answer.

use super::{end_probability, hartley, mode_bound, open_candidates, Outcome};
use crate::advice::entropy::{case_file_entropy, certain_case_file};
use crate::advice::Position;
use crate::analysis::ratio;
use crate::count::{alike_cards, case_file_by_class, count, count_marginals, ClassBuffers, ClassCounts, CountError};
use crate::model::{Card, CardSet, Place, Player, MAX_CARDS, MAX_PLACES};
use crate::Counts;
use std::collections::HashMap;

impl Position<'_> {
    /// [`Position::evaluate`] by the shared count alone, however many states
    /// it visits: `None` where it does not apply (the tests check that it
    /// applies where it should).
    ///
    /// # Errors
    /// [`CountError`] from the count.
    #[cfg(any(test, feature = "testing"))]
    pub fn evaluate_shared(&self, cards: CardSet) -> Result<Option<super::SuggestionEval>, CountError> {
        Ok(self
            .answers_by_class(cards, &mut Splits { dp_ratio: usize::MAX, ..Splits::planned(self, &[cards]) })?
            .map(|outcomes| self.evaluation(cards, outcomes)))
    }

    /// Every answer to `cards` with a positive probability, in the order
    /// refuters are asked (nobody last), counted one by one while `go_on`
    /// holds for an upper bound on the chance of ending the game (the
    /// answers so far that end it, plus every answer not yet counted); with
    /// whether every answer was counted. `splits` keeps the shared counts
    /// for the next suggestions.
    pub(super) fn answers(
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
    pub(super) fn answers_by_class(
        &self,
        cards: CardSet,
        splits: &mut Splits,
    ) -> Result<Option<Vec<Outcome>>, CountError> {
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
        for r in game.players_after(self.me) {
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
        self.game.players_after(self.me).find_map(|r| {
            let held: CardSet = at.iter().filter(|&&(_, q)| q == Place::Player(r).index(np)).map(|&(c, _)| c).collect();
            (!held.is_empty()).then_some((r, held))
        })
    }

    /// The cards of suggestion `cards` that may be shown to the observer:
    /// not its own, and not face up (nobody holds those).
    pub(super) fn showable(&self, cards: CardSet) -> CardSet {
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
    pub(super) fn may_hold(&self, r: Player, card: Card) -> bool {
        self.counts.marginal[card.index()][Place::Player(r).index(self.game.num_players())] > 0
    }

    /// [`Position::answers`] with one count per answer.
    pub(super) fn answers_one_by_one(
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
        for r in game.players_after(self.me) {
            if covered >= l_n {
                break; // every answer is counted
            }
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

    pub(super) fn outcome(&self, refuter: Option<Player>, shown: Option<Card>, p: f64, cc: &crate::Counts) -> Outcome {
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
pub(super) struct Splits {
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
    pub(super) fn planned(pos: &Position<'_>, planned: &[CardSet]) -> Splits {
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

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

pub(super) fn lcm(a: u128, b: u128) -> u128 {
    a / gcd(a, b) * b
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
}
