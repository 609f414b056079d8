//! Asking habits learned within a game: a Bayesian model of how each
//! opponent chooses the cards it names, assumed of nobody.
//!
//! Each opponent asks by one of a few habits ([`HABITS`]), equally likely
//! before any play: it names, in each category, a card it holds with
//! `affinity` times the chance of a card it does not hold. Affinity 0 never
//! names its own cards (ray's entry), 1 asks blindly, 3 mostly names its
//! own (SpockAI and InferencePlayer name one of their own cards in 80 to
//! 85 % of their suggestions, a blind asker in about half). So in a deal
//! where opponent `j` holds `h` of the `m` cards of a category, it names a
//! given card of that category with probability
//!
//! ```text
//! affinity^[j holds it] / (m − h + affinity · h)
//! ```
//!
//! and its suggestions have, under each habit, a likelihood that depends
//! only on its hand in that deal. The deals are weighed by the
//! posterior-predictive: `w(d) = Π_j Σ_habit prior · L_j,habit(d)` over
//! the consistent deals, uniform before the weighing (every consistent deal
//! is as likely as any other by the rules). The case files' posterior and
//! each opponent's posterior over the habits follow from the same weights,
//! exactly over every deal ([`learn`] with the deals enumerated) or
//! estimated from deals drawn uniformly ([`learn_sampled`]).
//!
//! Nothing is assumed before the evidence: when the observer knows nothing
//! of where the named cards lie, every habit predicts the same named cards
//! (the likelihoods average out over the deals), and the weighing moves
//! only as the play places cards that an opponent named. Certainty never
//! comes from a habit; the exact counts stay the truth.

use sleuth_core::sample::UniformSampler;
use sleuth_core::{CardSet, CountError, CountOptions, CountProblem, Event, Game, Place, Player};
use std::collections::HashMap;

/// One habit of asking.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Habit {
    /// What it is, in words.
    pub name: &'static str,
    /// How many times as likely a held card is to be named as one not held.
    pub affinity: f64,
}

/// The habits, each with prior probability `1 / HABITS.len()`.
pub const HABITS: [Habit; 3] = [
    Habit { name: "never names its own cards", affinity: 0.0 },
    Habit { name: "asks blindly", affinity: 1.0 },
    Habit { name: "mostly names its own cards", affinity: 3.0 },
];

/// What the play so far says about the case file and the opponents' habits.
#[derive(Clone, Debug, PartialEq)]
pub struct Learned {
    /// Each case file with its posterior probability, the most likely first.
    pub case_files: Vec<(CardSet, f64)>,
    /// Per opponent that has suggested, in seat order, its posterior over
    /// [`HABITS`].
    pub habits: Vec<(Player, [f64; HABITS.len()])>,
}

/// One opponent's distinct suggestions.
struct Asker {
    player: Player,
    suggestions: Vec<CardSet>,
}

/// The opponents of the observer of `game` that have suggested, each
/// distinct suggestion once (a repeated report says nothing new).
fn askers(game: &Game) -> Vec<Asker> {
    let me = game.observer().map(|(me, _)| me);
    game.players()
        .filter(|&j| Some(j) != me)
        .filter_map(|j| {
            let mut suggestions: Vec<CardSet> = Vec::new();
            for e in game.events() {
                if let Event::Suggestion(s) = e {
                    if s.by == j && !suggestions.contains(&s.cards) {
                        suggestions.push(s.cards);
                    }
                }
            }
            (!suggestions.is_empty()).then_some(Asker { player: j, suggestions })
        })
        .collect()
}

/// Per habit, the likelihood of `asker`'s suggestions in a deal where it
/// holds `hand`, relative to a blind asker's (which is the same in every
/// deal, so it cancels).
fn likelihoods(game: &Game, asker: &Asker, hand: CardSet) -> [f64; HABITS.len()] {
    let deck = game.deck();
    let mut out = [1.0; HABITS.len()];
    for &cards in &asker.suggestions {
        for c in cards {
            let category = deck.category_cards(deck.category(c)) - game.face_up();
            let m = category.len() as f64;
            let h = (category & hand).len() as f64;
            let held = hand.contains(c);
            for (l, habit) in out.iter_mut().zip(&HABITS) {
                let named = if held { habit.affinity } else { 1.0 };
                *l *= named * m / (m - h + habit.affinity * h);
            }
        }
    }
    out
}

/// The posterior from `deals` drawn uniformly from (or listing every one
/// of) the deals consistent with the observer's view of `game`.
pub fn learn(game: &Game, deals: impl IntoIterator<Item = Vec<Option<Place>>>) -> Learned {
    let askers = askers(game);
    let prior = 1.0 / HABITS.len() as f64;
    let mut case_mass: HashMap<CardSet, f64> = HashMap::new();
    let mut habit_mass = vec![[0.0; HABITS.len()]; askers.len()];
    let mut sum = 0.0;
    for deal in deals {
        let per: Vec<[f64; HABITS.len()]> = askers
            .iter()
            .map(|a| {
                let hand: CardSet =
                    game.deck().cards().filter(|c| deal[c.index()] == Some(Place::Player(a.player))).collect();
                likelihoods(game, a, hand)
            })
            .collect();
        let predictive: Vec<f64> = per.iter().map(|l| prior * l.iter().sum::<f64>()).collect();
        let weight: f64 = predictive.iter().product();
        if weight == 0.0 {
            continue;
        }
        for (i, l) in per.iter().enumerate() {
            let others = weight / predictive[i];
            for (mass, li) in habit_mass[i].iter_mut().zip(l) {
                *mass += others * prior * li;
            }
        }
        let case: CardSet = game.deck().cards().filter(|c| deal[c.index()] == Some(Place::CaseFile)).collect();
        *case_mass.entry(case).or_insert(0.0) += weight;
        sum += weight;
    }
    let norm = if sum > 0.0 { sum } else { 1.0 };
    let mut case_files: Vec<(CardSet, f64)> = case_mass.into_iter().map(|(k, w)| (k, w / norm)).collect();
    case_files.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0 .0.cmp(&b.0 .0)));
    let habits = askers.iter().zip(habit_mass).map(|(a, mass)| (a.player, mass.map(|w| w / norm))).collect();
    Learned { case_files, habits }
}

/// [`learn`] from `samples` deals drawn exactly uniformly from the
/// consistent ones; `None` when no deal is consistent.
///
/// # Errors
/// [`CountError`] from the sampler.
pub fn learn_sampled<R: rand::Rng + ?Sized>(
    game: &Game,
    problem: &CountProblem,
    samples: usize,
    rng: &mut R,
) -> Result<Option<Learned>, CountError> {
    let Some(sampler) = UniformSampler::new(problem, &CountOptions::default())? else { return Ok(None) };
    Ok(Some(learn(game, (0..samples.max(1)).map(|_| sampler.sample(rng)))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use sleuth_core::Card;

    /// Every deal of `game` that fits its events, by brute force.
    fn every_deal(game: &Game) -> Vec<Vec<Option<Place>>> {
        let deck = game.deck();
        let cards: Vec<Card> = deck.cards().collect();
        let np = game.num_players();
        let mut out = Vec::new();
        let mut place = vec![None; cards.len().max(sleuth_core::model::MAX_CARDS)];
        fn go(
            game: &Game,
            cards: &[Card],
            k: usize,
            place: &mut Vec<Option<Place>>,
            np: usize,
            out: &mut Vec<Vec<Option<Place>>>,
        ) {
            if k == cards.len() {
                let deck = game.deck();
                let full = game.players().all(|p| {
                    cards.iter().filter(|c| place[c.index()] == Some(Place::Player(p))).count() == game.hand_size(p)
                });
                let one_each = deck.categories().all(|cat| {
                    deck.category_cards(cat).iter().filter(|c| place[c.index()] == Some(Place::CaseFile)).count() == 1
                });
                if full && one_each && game.fits(place) {
                    out.push(place.clone());
                }
                return;
            }
            for q in 0..=np {
                place[cards[k].index()] = Some(Place::from_index(q, np));
                go(game, cards, k + 1, place, np, out);
            }
        }
        go(game, &cards, 0, &mut place, np, &mut out);
        out
    }

    fn game(events: &str) -> Game {
        Game::from_json(&format!(
            r#"{{"version": 1, "players": ["a", "b", "c"], "me": "a", "hand": ["s1", "w1"],
            "deck": {{"categories": [{{"name": "s", "cards": ["s1", "s2", "s3"]}},
                {{"name": "w", "cards": ["w1", "w2", "w3"]}}, {{"name": "r", "cards": ["r1", "r2", "r3"]}}]}},
            "events": [{events}]}}"#
        ))
        .unwrap()
    }

    #[test]
    fn sampled_posterior_matches_the_exact_one_over_every_deal() {
        let g = game(
            r#"{"suggestion": {"by": "b", "cards": ["s2", "w2", "r2"], "refuted_by": "c"}},
               {"suggestion": {"by": "a", "cards": ["s1", "w2", "r3"], "refuted_by": "b", "shown": "r3"}},
               {"suggestion": {"by": "c", "cards": ["s3", "w3", "r1"], "refuted_by": "b"}}"#,
        );
        let deals = every_deal(&g);
        assert!(deals.len() > 3);
        let exact = learn(&g, deals);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let sampled = learn_sampled(&g, &CountProblem::new(&g), 40_000, &mut rng).unwrap().unwrap();
        let p = |l: &Learned, cards: CardSet| l.case_files.iter().find(|e| e.0 == cards).map_or(0.0, |e| e.1);
        for &(cards, q) in &exact.case_files {
            assert!((p(&sampled, cards) - q).abs() < 0.02, "{cards:?}: {} vs exact {q}", p(&sampled, cards));
        }
        assert_eq!(exact.habits.len(), 2);
        for ((j, e), (k, s)) in exact.habits.iter().zip(&sampled.habits) {
            assert_eq!(j, k);
            for (x, y) in e.iter().zip(s) {
                assert!((x - y).abs() < 0.02, "habits of {j:?}: {s:?} vs exact {e:?}");
            }
            assert!((e.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        }
    }

    #[test]
    fn no_suggestions_by_opponents_weigh_nothing() {
        let g = game(r#"{"suggestion": {"by": "a", "cards": ["s1", "w2", "r3"], "refuted_by": "b", "shown": "r3"}}"#);
        let deals = every_deal(&g);
        let total = deals.len() as f64;
        let mut exact: HashMap<CardSet, f64> = HashMap::new();
        for d in &deals {
            let case: CardSet = g.deck().cards().filter(|c| d[c.index()] == Some(Place::CaseFile)).collect();
            *exact.entry(case).or_insert(0.0) += 1.0 / total;
        }
        let learned = learn(&g, deals);
        assert!(learned.habits.is_empty());
        for (cards, p) in learned.case_files {
            assert!((p - exact[&cards]).abs() < 1e-12);
        }
    }

    /// When b's named cards are placed by the play, its habit shows: a card
    /// it named turns out to be its own, or none ever does.
    #[test]
    fn the_habit_follows_where_the_named_cards_turn_out_to_be() {
        // b names r2 and s3, which b later shows to a; in `never` none of b's named cards is b's.
        let own = game(
            r#"{"suggestion": {"by": "b", "cards": ["s2", "w2", "r2"], "refuted_by": "c"}},
               {"suggestion": {"by": "a", "cards": ["s1", "w1", "r2"], "refuted_by": "b", "shown": "r2"}},
               {"suggestion": {"by": "b", "cards": ["s3", "w3", "r3"], "refuted_by": "c"}},
               {"suggestion": {"by": "a", "cards": ["s3", "w1", "r1"], "refuted_by": "b", "shown": "s3"}}"#,
        );
        let never = game(
            r#"{"suggestion": {"by": "b", "cards": ["s2", "w2", "r2"], "refuted_by": "c"}},
               {"suggestion": {"by": "a", "cards": ["s2", "w1", "r2"], "refuted_by": "c", "shown": "s2"}},
               {"suggestion": {"by": "a", "cards": ["s1", "w2", "r2"], "refuted_by": "c", "shown": "w2"}}"#,
        );
        let posterior =
            |g: &Game| learn(g, every_deal(g)).habits.into_iter().find(|h| h.0 == Player::new(1)).unwrap().1;
        let own = posterior(&own);
        assert_eq!(own[0], 0.0, "b named a card it holds: it does not always avoid its own");
        assert!(own[2] > own[1], "{own:?}");
        let never = posterior(&never);
        assert!(never[0] > 1.0 / 3.0 && never[0] > never[2], "{never:?}");
    }
}
