//! The `sleuth` agent: a thin wrapper around [`sleuth_core::advice`].

use super::habits;
use super::tactics::suggest_by_tiers;
use super::{random_card, random_combination};
use crate::agent::{Agent, SimRng, View};
use sleuth_core::advice::{
    certain_case_file, combined_threat, told_marginals, AdviceError, Objective, Position, Tell, HABIT_SIGNIFICANCE,
    HINT_PRIOR_WEIGHT, PRIOR_RATE, PRIOR_WEIGHT,
};
use sleuth_core::count::count_marginals;
use sleuth_core::CountOptions;
use sleuth_core::{Card, CardSet, CountProblem, Counts, Event, Player};

/// Plays by the exact advice of [`sleuth_core::advice`].
///
/// - **Suggests**, at tables of up to [`SleuthAgent::focused_up_to`]
///   players (4), a focused combination from its exact counts
///   ([`Position::focused_tiers`]): in each category a certain case-file
///   card (or one of its own), else a candidate with the fewest possible
///   places; among equals, the card most likely in the case file once the
///   deals are weighed by the opponents' asking habits learned in the game
///   ([`Tells::Learned`], [`super::habits`]); never a combination it
///   suggested before (the next best by [`super::tactics::fresh_suggestion`]).
///   At larger tables it ranks a shortlist by the exact chance of ending
///   the game, then expected information ([`Position::rank_suggestions`],
///   what `sleuth advise` shows). Each rule won more tournament games where
///   it is used: see BENCHMARKS.md, "Strength".
/// - **Refutes** with the card that tells the suggester least
///   ([`Position::refutation`]); a card already shown to it costs nothing.
/// - **Accuses** at once when the case file is certain. Otherwise, by
///   [`Accusing`]: the race on exact odds (the default) weighs only after
///   its own suggestion has been answered (nothing can change before its
///   next chance), and accuses the most likely case file when its
///   probability `p` is at least `(1 − T) · W`: `T` the chance that some
///   opponent accuses correctly before its next turn, estimated from what
///   each can know ([`Position::opponents`]: exact views rebuilt in sampled
///   deals, and the measured chance that a perfect reasoner with that many
///   candidates left solves with its next question), `W` the value of
///   waiting, 1 (waiting keeps every later chance; [`SleuthAgent::lookahead`]
///   bounds it by the next question instead). `p` is the probability of
///   the most likely case file with the deals weighed by the learned
///   habits at up to [`SleuthAgent::habits_up_to`] players, else exact.
///   If the simulator never asks it after
///   its suggestion, it weighs that at the start of its turn instead.
///
/// If counting fails (overflow) it plays random legal suggestions and does
/// not accuse.
#[derive(Clone, Debug)]
pub struct SleuthAgent {
    /// How many suggestions the first pass hands to the exact evaluation.
    pub shortlist: usize,
    /// Deals sampled to estimate the opponents' progress.
    pub samples: usize,
    /// When to accuse a case file that is not certain.
    pub accusing: Accusing,
    /// At tables of at most this many players suggestions follow
    /// [`Position::focused_tiers`]; at larger ones, the exact ranking by
    /// `objective`.
    pub focused_up_to: usize,
    /// What suggestions are ranked by at larger tables.
    pub objective: Objective,
    /// Whether accusations weigh the value of waiting by a one-suggestion
    /// lookahead ([`Position::wait_value`]) instead of taking it as 1.
    pub lookahead: bool,
    /// Whether focused suggestions name one of its own cards, rather than
    /// the case-file card, in a category whose case-file card is certain:
    /// nobody can show either, but an unrefuted case-file card asked again
    /// and again points the others at it.
    pub hide: bool,
    /// Whether and how the opponents' asking habits are read.
    pub tells: Tells,
    /// Deals sampled to weigh case files by the tells.
    pub tell_samples: usize,
    /// [`Tells::Learned`] weighs the deals only at tables of at most this
    /// many players (4): at five, with fewer questions per opponent before
    /// the end, it did not help (TOURNAMENTS.md, "Habits learned within
    /// the game").
    pub habits_up_to: usize,
    /// How many known cards the checked tells' prior of no habit is worth
    /// ([`HINT_PRIOR_WEIGHT`] by default).
    pub tell_weight: f64,
    /// Whether an opponent's tell is read only once its play passes the
    /// habit check ([`HABIT_SIGNIFICANCE`]); without it the prior alone
    /// holds the rate back.
    pub tell_gate: bool,
    /// The counts of the view with this many events.
    cache: Option<(usize, CountProblem, Counts)>,
    /// Whether it was asked to accuse after one of its own suggestions
    /// this game.
    asked_after_suggestion: bool,
}

/// When the agent accuses a case file that is not certain.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Accusing {
    /// Never: it waits for certainty.
    Certain,
    /// The race on exact odds (see [`SleuthAgent`]).
    Race,
    /// The rule before issue 58, kept to measure against: the race with
    /// unchecked tells (prior rate [`PRIOR_RATE`] worth [`PRIOR_WEIGHT`]
    /// cards, whatever the opponents' play) and never below a probability
    /// of 0.25.
    Legacy,
}

/// Whether the agent reads the opponents' tells (how they ask).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Tells {
    /// Exact probabilities alone.
    Off,
    /// Only the tells of opponents whose own play shows the habit
    /// ([`Position::checked_tells`]).
    Checked,
    /// Every opponent's habit learned within the game, assuming none
    /// ([`super::habits`]): the case files weighed by the posterior-predictive.
    Learned,
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
            samples: 24,
            accusing: Accusing::Race,
            focused_up_to: 4,
            objective: Objective::default(),
            lookahead: false,
            hide: false,
            tells: Tells::Learned,
            tell_samples: 1000,
            habits_up_to: 4,
            tell_weight: HINT_PRIOR_WEIGHT,
            tell_gate: true,
            cache: None,
            asked_after_suggestion: false,
        }
    }

    /// The tells it reads in `pos`: `None` when none is.
    fn tells_of(&self, pos: &Position<'_>) -> Option<Vec<Tell>> {
        let tells = match (self.accusing, self.tells) {
            (Accusing::Legacy, _) => pos.tells_with_prior(PRIOR_RATE, PRIOR_WEIGHT),
            (_, Tells::Checked) => {
                let mut tells = pos.tells_with_prior(1.0, self.tell_weight);
                for t in &mut tells {
                    if self.tell_gate && t.blind_chance >= HABIT_SIGNIFICANCE {
                        t.rate = 1.0;
                    }
                }
                tells
            }
            (_, Tells::Off | Tells::Learned) => return None,
        };
        tells.iter().any(|t| t.rate < 1.0).then_some(tells)
    }

    /// The case files weighed by the tells it reads, most likely first;
    /// `None` when it reads none or sampling fails.
    fn told(&self, pos: &Position<'_>, rng: &mut SimRng) -> Option<Vec<(CardSet, f64)>> {
        if self.tells == Tells::Learned && self.accusing != Accusing::Legacy {
            if pos.game().num_players() > self.habits_up_to {
                return None;
            }
            let (_, problem, _) = self.cache.as_ref()?;
            let learned = habits::learn_sampled(pos.game(), problem, self.tell_samples, rng).ok()??;
            return Some(learned.case_files);
        }
        let tells = self.tells_of(pos)?;
        pos.told_case_files(&tells, self.tell_samples, rng).ok()
    }

    /// The position of `view`, from counts computed once per event.
    fn position<'v>(&mut self, view: &View<'v>) -> Result<Position<'v>, AdviceError> {
        let events = view.events().len();
        if self.cache.as_ref().is_none_or(|(n, _, _)| *n != events) {
            self.cache = None;
            let problem = CountProblem::new(view.game());
            let counts = count_marginals(&problem, &CountOptions::default())?;
            self.cache = Some((events, problem, counts));
        }
        let (_, problem, counts) = self.cache.as_ref().expect("just filled");
        Position::with_counts(view.game(), problem.clone(), counts.clone())
    }
}

/// The legacy rule's smallest probability worth accusing on.
const LEGACY_FLOOR: f64 = 0.25;

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
        let (samples, shortlist, lookahead) = (self.samples, self.shortlist, self.lookahead);
        let floor = if self.accusing == Accusing::Legacy { LEGACY_FLOOR } else { 0.0 };
        let pos = self.position(view).ok()?;
        if let Some(cards) = certain_case_file(view.game(), pos.counts()) {
            return Some(cards);
        }
        if !weigh || self.accusing == Accusing::Certain {
            return None;
        }
        // No case file can reach the floor: nothing to weigh (a cheap bound).
        if pos.mode_bound() < floor {
            return None;
        }
        let told = match self.told(&pos, rng) {
            Some(told) => Some(*told.first()?),
            None => None,
        };
        let advice = pos
            .accusation_advice(floor, told, |p| {
                let threat = combined_threat(&p.opponents(samples, rng)?);
                let wait = if lookahead { p.wait_value(shortlist)? } else { 1.0 };
                Ok((threat, wait))
            })
            .ok()?;
        advice.accuse.then_some(advice.cards)
    }

    fn suggest(&mut self, view: &View<'_>, rng: &mut SimRng) -> CardSet {
        if view.game().num_players() <= self.focused_up_to {
            if let Ok(pos) = self.position(view) {
                let told = self.told(&pos, rng);
                let mass = told.map(|t| told_marginals(&t));
                let (hide, hand) = (self.hide, view.hand());
                return suggest_by_tiers(view, rng, |cards| {
                    let mut tiers = pos.focused_tiers(cards);
                    // A settled category is one tier: its case-file card and our own cards.
                    if hide && tiers.len() == 1 && !(tiers[0] & hand).is_empty() {
                        tiers.insert(0, tiers[0] & hand);
                    }
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
