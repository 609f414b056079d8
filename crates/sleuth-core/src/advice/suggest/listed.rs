//! Every legal suggestion evaluated from the consistent deals themselves,
//! where they are few enough to list: no shortlist, so the ranking's best
//! is the best of all, provably.
//!
//! Late in a game the deals that fit are often a few dozen, and the first
//! pass's estimate (from the marginals, as if cards were independent) is
//! then a poor guide: its shortlist can miss the suggestion most likely to
//! end the game (on classic 6-player views after 20 suggestions, one with
//! 67 % instead of 58 %). Listing the deals costs one count, and each
//! suggestion is then a pass over them: the answer in each deal (the first
//! holder after the observer, each of its suggested cards shown with equal
//! chance) and the case file it leaves. The numbers are those of the
//! counts ([`Position::evaluate`]), to the bit: the same integers go into
//! the same arithmetic.

use super::{lcm, Outcome, SuggestionEval};
use crate::advice::Position;
use crate::analysis::ratio;
use crate::count::CountError;
use crate::model::{Card, CardSet, Place, Player, MAX_CARDS, MAX_PLACES};
use crate::sample::UniformSampler;
use crate::Counts;

/// The most deal-and-suggestion pairs [`Position::evaluate_listed`] walks:
/// about a millisecond natively at the limit (classic 6-player states of
/// about 300 deals), where the shortlist's counts take about a third of
/// that; below a hundred deals, about as long.
pub const LISTED_WORK: usize = 100_000;

/// One consistent deal as the answers read it: per card, who holds it as
/// the index of that player among those asked in order (`NOT_ASKED` for
/// the case file, the observer's and face-up cards), and the case file.
struct ListedDeal {
    asked: [u8; MAX_CARDS],
    case_file: CardSet,
}

/// [`ListedDeal::asked`] of a card no player asked holds.
const NOT_ASKED: u8 = u8::MAX;

/// Per answer to one suggestion, its deals: how many, their weight (`l /
/// k` each, `k` the refuter's suggested cards, in units of `1/l` deal) and
/// per card how many put it in the case file (`case_file[answer * cards +
/// card]`); kept from one suggestion to the next.
#[derive(Default)]
struct Tallies {
    deals: Vec<u64>,
    weight: Vec<u64>,
    case_file: Vec<u64>,
}

impl Position<'_> {
    /// The exact evaluation of each of `suggestions` from the listed
    /// consistent deals; `None` for no suggestions, or where the deals
    /// times the suggestions pass [`LISTED_WORK`] (evaluate a shortlist by
    /// counts instead).
    ///
    /// # Errors
    /// [`CountError`] from the count that lists the deals.
    pub fn evaluate_listed(&self, suggestions: &[CardSet]) -> Result<Option<Vec<SuggestionEval>>, CountError> {
        let work = (suggestions.len() as u128).saturating_mul(self.counts.total);
        if suggestions.is_empty() || work > LISTED_WORK as u128 {
            return Ok(None);
        }
        let Some(sampler) = UniformSampler::new(&self.problem, &self.count)? else { return Ok(None) };
        let Some(deals) = sampler.deals(self.counts.total) else { return Ok(None) };
        let asked: Vec<Player> = self.game.players_after(self.me).collect();
        let deals: Vec<ListedDeal> = deals
            .iter()
            .map(|deal| {
                let mut listed = ListedDeal { asked: [NOT_ASKED; MAX_CARDS], case_file: CardSet::EMPTY };
                for c in self.game.deck().cards() {
                    match deal[c.index()] {
                        Some(Place::Player(p)) => {
                            if let Some(i) = asked.iter().position(|&r| r == p) {
                                listed.asked[c.index()] = i as u8;
                            }
                        }
                        Some(Place::CaseFile) => {
                            listed.case_file.insert(c);
                        }
                        None => {}
                    }
                }
                listed
            })
            .collect();
        let mut tallies = Tallies::default();
        let mut counts = Counts { total: 0, marginal: vec![[0u128; MAX_PLACES]; MAX_CARDS], states: 0 };
        suggestions
            .iter()
            .map(|&cards| self.evaluate_on(&deals, &asked, cards, &mut tallies, &mut counts))
            .collect::<Result<_, _>>()
            .map(Some)
    }

    /// The evaluation of `cards` over `deals`, the players `asked` in
    /// order; `tallies` and `counts` are working memory.
    fn evaluate_on(
        &self,
        deals: &[ListedDeal],
        asked: &[Player],
        cards: CardSet,
        tallies: &mut Tallies,
        counts: &mut Counts,
    ) -> Result<SuggestionEval, CountError> {
        let open: Vec<Card> = (cards - self.hand).iter().collect();
        let l = (1..=open.len() as u128).fold(1, lcm) as u64;
        let n = self.game.deck().len();
        // Answer `i * open.len() + j`: the `i`th player asked shows the
        // `j`th open card; the last, nobody.
        let answers = asked.len() * open.len() + 1;
        let nobody = answers - 1;
        for v in [&mut tallies.deals, &mut tallies.weight] {
            v.clear();
            v.resize(answers, 0);
        }
        tallies.case_file.clear();
        tallies.case_file.resize(answers * n, 0);
        let mut add = |answer: usize, weight: u64, case_file: CardSet| {
            tallies.deals[answer] += 1;
            tallies.weight[answer] += weight;
            for c in case_file {
                tallies.case_file[answer * n + c.index()] += 1;
            }
        };
        for deal in deals {
            let first = open.iter().map(|c| deal.asked[c.index()]).min().unwrap_or(NOT_ASKED);
            if first == NOT_ASKED {
                add(nobody, l, deal.case_file);
                continue;
            }
            let held = open.iter().filter(|c| deal.asked[c.index()] == first).count() as u64;
            for (j, c) in open.iter().enumerate() {
                if deal.asked[c.index()] == first {
                    add(usize::from(first) * open.len() + j, l / held, deal.case_file);
                }
            }
        }
        let total = self.counts.total;
        let l_n = total.checked_mul(l.into()).ok_or(CountError::Overflow)?;
        let cf = Place::CaseFile.index(self.game.num_players());
        let mut outcome = |answer: usize, refuter: Option<Player>, shown: Option<Card>| {
            counts.total = tallies.deals[answer].into();
            // Only the case-file column is filled: all `outcome` reads.
            for (m, &x) in counts.marginal.iter_mut().zip(&tallies.case_file[answer * n..(answer + 1) * n]) {
                m[cf] = x.into();
            }
            let p = match shown {
                Some(_) => ratio(tallies.weight[answer].into(), l_n),
                None => ratio(counts.total, total),
            };
            self.outcome(refuter, shown, p, counts)
        };
        let mut outcomes: Vec<Outcome> = Vec::new();
        for (i, &r) in asked.iter().enumerate() {
            for (j, &c) in open.iter().enumerate() {
                if tallies.deals[i * open.len() + j] > 0 {
                    outcomes.push(outcome(i * open.len() + j, Some(r), Some(c)));
                }
            }
        }
        if tallies.deals[nobody] > 0 {
            outcomes.push(outcome(nobody, None, None));
        }
        Ok(self.evaluation(cards, outcomes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{generate, DeckChoice, GenConfig};
    use rand::SeedableRng;

    /// The evaluation from the listed deals is the counts' one, to the
    /// bit, for every legal suggestion of generated views with few deals
    /// (classic, master and custom decks of three and four categories,
    /// late in the game, some with face-up cards and accusations); the
    /// ranking is all of them, and the advice says so (elsewhere, a
    /// shortlist).
    #[test]
    fn listed_deals_evaluate_as_the_counts_do() {
        let (mut states, mut compared, mut advised, mut shortlisted, mut unlisted) = (0, 0, 0, 0, 0);
        for seed in 0..400 {
            let (deck, players) = match seed % 6 {
                0 => (DeckChoice::Classic, 3),
                1 => (DeckChoice::Classic, 6),
                2 => (DeckChoice::Master, 6),
                3 => (DeckChoice::Custom(vec![4, 4, 5]), 3),
                4 => (DeckChoice::Custom(vec![3, 4, 4, 5]), 4),
                _ => (DeckChoice::Classic, 4),
            };
            let mut cfg = GenConfig::new(deck, players, seed % 5 != 0, 15 + (seed % 4) as usize * 5);
            cfg.face_up = (seed % 3) as usize;
            cfg.accusation_rate = if seed % 4 == 1 { 0.1 } else { 0.0 };
            let game = generate(&cfg, &mut rand_chacha::ChaCha8Rng::seed_from_u64(seed)).player_view().expect("valid");
            let pos = Position::new(&game).expect("generated games count");
            let legal = pos.legal_suggestions();
            let Some(listed) = pos.evaluate_listed(&legal).expect("counts") else {
                // A shortlist: the advice says how many of the legal ones
                // (on every third such state: a count each).
                unlisted += 1;
                if unlisted % 3 == 1 {
                    let options = crate::advice::AdviceOptions { samples: 2, tell_samples: 0, ..Default::default() };
                    let advice = crate::advice::advise(&game, &options).expect("counts");
                    assert!(advice.evaluated < advice.legal && advice.legal == legal.len(), "seed {seed}");
                    shortlisted += 1;
                }
                continue;
            };
            assert_eq!(listed.len(), legal.len());
            for (eval, &cards) in listed.iter().zip(&legal) {
                assert_eq!(eval, &pos.evaluate(cards).expect("counts"), "seed {seed}, {cards:?}");
                compared += 1;
            }
            // The ranking is every legal suggestion's, best first.
            let mut ranked = pos.rank_suggestions(12).expect("counts");
            let mut sorted = listed;
            pos.rank(&mut sorted, crate::advice::Objective::default());
            assert_eq!(ranked, sorted, "seed {seed}");
            ranked.sort_by_key(|e| e.cards.0);
            assert!(ranked.windows(2).all(|w| w[0].cards != w[1].cards), "seed {seed}: a suggestion twice");
            // The advice says every legal suggestion was evaluated.
            if seed % 10 == 1 {
                let options = crate::advice::AdviceOptions { samples: 2, tell_samples: 0, ..Default::default() };
                let advice = crate::advice::advise(&game, &options).expect("counts");
                assert_eq!((advice.evaluated, advice.legal), (legal.len(), legal.len()), "seed {seed}");
                advised += 1;
            }
            states += 1;
        }
        assert!(states >= 100 && compared >= 20_000, "{states} states, {compared} suggestions");
        assert!(advised >= 5 && shortlisted >= 5, "advised {advised} listed, {shortlisted} shortlisted");
    }
}
