//! The `sleuth` agent: a thin wrapper around [`sleuth_core::advice`].

use super::tactics::suggest_by_tiers;
use super::{random_card, random_combination};
use crate::agent::{Agent, SimRng, View};
use sleuth_core::advice::{
    certain_case_file, combined_threat, told_marginals, AdviceError, Objective, Position, PRIOR_RATE, PRIOR_WEIGHT,
};
use sleuth_core::count::count_marginals;
use sleuth_core::{Card, CardSet, Counts, Event, Player, Problem};

/// Plays by the exact advice of [`sleuth_core::advice`].
///
/// - **Suggests**, at tables of up to [`SleuthAgent::focused_up_to`]
///   players (4), a focused combination from its exact counts
///   ([`Position::focused_tiers`]): in each category a certain case-file
///   card (or one of its own), else a candidate with the fewest possible
///   places; among equals, the card most likely in the case file by the
///   opponents' tells ([`Position::told_case_files`]: players rarely ask
///   about cards they hold, so what they ask about hints at their hands and
///   at what they know); never a combination it suggested before (the next
///   best by [`super::tactics::fresh_suggestion`]).
///   At larger tables it ranks a shortlist by the exact chance of ending
///   the game, then expected information ([`Position::rank_suggestions`],
///   what `sleuth advise` shows). Each rule won more tournament games where
///   it is used: see BENCHMARKS.md, "Strength".
/// - **Refutes** with the card that tells the suggester least
///   ([`Position::refutation`]); a card already shown to it costs nothing.
/// - **Accuses** at once when the case file is certain. Otherwise only after
///   its own suggestion has been answered (nothing can change before then),
///   when the probability of its most likely case file weighed by the
///   opponents' tells is at least the chance that no opponent solves first
///   ([`Position::accusation_advice`], with the opponents' progress sampled
///   from its view). If the simulator
///   never asks it after its suggestion, it weighs that at the start of its
///   turn instead.
///
/// If counting fails (overflow) it plays random legal suggestions and does
/// not accuse.
#[derive(Clone, Debug)]
pub struct SleuthAgent {
    /// How many suggestions the first pass hands to the exact evaluation.
    pub shortlist: usize,
    /// Deals sampled to estimate the opponents' progress.
    pub samples: usize,
    /// Below this probability of being right it never accuses.
    pub accuse_floor: f64,
    /// At tables of at most this many players suggestions follow
    /// [`Position::focused_tiers`]; at larger ones, the exact ranking by
    /// `objective`.
    pub focused_up_to: usize,
    /// What suggestions are ranked by at larger tables.
    pub objective: Objective,
    /// Whether accusations weigh the value of waiting by a one-suggestion
    /// lookahead ([`Position::wait_value`]) instead of taking it as 1 (it
    /// made no measurable difference in simulation and costs time).
    pub lookahead: bool,
    /// Deals sampled to weigh an accusation by the opponents' tells
    /// ([`Position::told_case_files`]); 0 for the exact probability alone.
    pub tell_samples: usize,
    /// The prior rate and weight of the tells (see [`sleuth_core::advice::Tell`]).
    pub tell_prior: (f64, f64),
    /// Whether the cheap bound on the exact probability may skip weighing
    /// an accusation even when tells are used.
    pub tell_bound: bool,
    /// Whether focused suggestions read the tells too: within the first
    /// tier of a category, the card most likely in the case file by them
    /// (at random among the tier otherwise).
    pub tell_suggest: bool,
    /// The counts of the view with this many events.
    cache: Option<(usize, Problem, Counts)>,
    /// Whether it was asked to accuse after one of its own suggestions
    /// this game.
    asked_after_suggestion: bool,
}

impl Default for SleuthAgent {
    fn default() -> SleuthAgent {
        SleuthAgent::new()
    }
}

impl SleuthAgent {
    /// The agent with its tournament settings.
    pub fn new() -> SleuthAgent {
        SleuthAgent {
            shortlist: 1,
            samples: 6,
            accuse_floor: 0.25,
            focused_up_to: 4,
            objective: Objective::default(),
            lookahead: false,
            tell_samples: 1000,
            tell_prior: (PRIOR_RATE, PRIOR_WEIGHT),
            tell_bound: true,
            tell_suggest: true,
            cache: None,
            asked_after_suggestion: false,
        }
    }

    /// The case files weighed by the opponents' tells, most likely first;
    /// `None` when tells are off or sampling fails.
    fn told(&self, pos: &Position<'_>, rng: &mut SimRng) -> Option<Vec<(CardSet, f64)>> {
        if self.tell_samples == 0 {
            return None;
        }
        let (prior, weight) = self.tell_prior;
        pos.told_case_files(&pos.tells_with_prior(prior, weight), self.tell_samples, rng).ok()
    }

    /// The position of `view`, from counts computed once per event.
    fn position<'v>(&mut self, view: &View<'v>) -> Result<Position<'v>, AdviceError> {
        let events = view.events().len();
        if self.cache.as_ref().is_none_or(|(n, _, _)| *n != events) {
            self.cache = None;
            let problem = Problem::new(view.game());
            let counts = count_marginals(&problem)?;
            self.cache = Some((events, problem, counts));
        }
        let (_, problem, counts) = self.cache.as_ref().expect("just filled");
        Position::with_counts(view.game(), problem.clone(), counts.clone())
    }
}

/// Puts the card of the first non-empty tier with the largest `mass` in a
/// tier of its own before it (the first such card in card order).
fn prefer_most_likely(tiers: &mut Vec<CardSet>, mass: &[f64]) {
    let Some(k) = tiers.iter().position(|t| !t.is_empty()) else { return };
    let best = tiers[k].iter().fold(None, |best: Option<Card>, c| match best {
        Some(b) if mass[b.index()] >= mass[c.index()] => Some(b),
        _ => Some(c),
    });
    if let Some(best) = best {
        tiers.insert(k, CardSet::single(best));
    }
}

impl Agent for SleuthAgent {
    fn name(&self) -> &str {
        "sleuth"
    }

    fn new_game(&mut self, _view: &View<'_>, _rng: &mut SimRng) {
        self.cache = None;
        self.asked_after_suggestion = false;
    }

    fn accuse(&mut self, view: &View<'_>, rng: &mut SimRng) -> Option<CardSet> {
        let me = view.me();
        let after_suggestion = matches!(view.events().last(), Some(Event::Suggestion(s)) if s.by == me);
        self.asked_after_suggestion |= after_suggestion;
        let made_suggestions = view.events().iter().any(|e| matches!(e, Event::Suggestion(s) if s.by == me));
        // Weigh the risk now only if no suggestion can come before the next chance to accuse.
        let weigh = after_suggestion || (made_suggestions && !self.asked_after_suggestion);
        let (samples, shortlist) = (self.samples, self.shortlist);
        let patient = !self.lookahead;
        let floor = self.accuse_floor;
        let pos = self.position(view).ok()?;
        // Certain: accuse at once. Otherwise nothing to weigh unless it is
        // time to, and no case file can reach the floor (cheap bound first).
        if let Some(cards) = certain_case_file(view.game(), pos.counts()) {
            return Some(cards);
        }
        let tells = self.tell_samples > 0;
        if !weigh || ((!tells || self.tell_bound) && pos.mode_bound() < floor) {
            return None;
        }
        let told = if tells { Some(*self.told(&pos, rng)?.first()?) } else { None };
        let advice = pos
            .accusation_advice(floor, told, |p| {
                let threat = combined_threat(&p.opponents(samples, rng)?);
                let wait = if patient { 1.0 } else { p.wait_value(shortlist)? };
                Ok((threat, wait))
            })
            .ok()?;
        advice.accuse.then_some(advice.cards)
    }

    fn suggest(&mut self, view: &View<'_>, rng: &mut SimRng) -> CardSet {
        if view.game().num_players() <= self.focused_up_to {
            if let Ok(pos) = self.position(view) {
                let told = if self.tell_suggest { self.told(&pos, rng) } else { None };
                let mass = told.map(|t| told_marginals(&t));
                return suggest_by_tiers(view, rng, |cards| {
                    let mut tiers = pos.focused_tiers(cards);
                    if let Some(mass) = &mass {
                        prefer_most_likely(&mut tiers, mass);
                    }
                    tiers
                });
            }
        }
        let (shortlist, objective) = (self.shortlist, self.objective);
        let best = self
            .position(view)
            .ok()
            .and_then(|pos| pos.rank_suggestions_by(shortlist, objective).ok())
            .and_then(|ranked| ranked.first().map(|s| s.cards));
        best.unwrap_or_else(|| random_combination(view.deck(), rng))
    }

    fn choose_card_to_show(
        &mut self,
        view: &View<'_>,
        suggester: Player,
        suggestion: CardSet,
        candidates: CardSet,
        rng: &mut SimRng,
    ) -> Card {
        // A card already shown to this suggester reveals nothing: the best
        // answer, found without counting.
        let me = view.me();
        let shown_before = view.events().iter().find_map(|e| match e {
            Event::Suggestion(s) if s.by == suggester && s.refuted_by == Some(me) => {
                s.shown.filter(|&c| candidates.contains(c))
            }
            _ => None,
        });
        if let Some(card) = shown_before {
            return card;
        }
        match self.position(view).and_then(|pos| pos.refutation(suggester, suggestion)) {
            Ok(advice) if candidates.contains(advice.card) => advice.card,
            _ => random_card(candidates, rng),
        }
    }
}
