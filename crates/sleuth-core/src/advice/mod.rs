//! Advice for a player: which suggestion to make, whether to accuse, which
//! card to show, and how close the opponents are, all from exact counts.
//!
//! ```
//! use sleuth_core::advice::{advise, AdviceOptions};
//! use sleuth_core::Game;
//!
//! let game = Game::from_json(r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c"],
//!     "me": "a", "hand": ["mu", "pl", "kn", "ca", "ha", "lo"], "events": []}"#)?;
//! let advice = advise(&game, &AdviceOptions::default())?;
//! let best = &advice.suggestions[0];
//! assert!(best.information > 0.0);
//! assert!(!advice.accusation.accuse);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Everything is measured in bits of case-file entropy
//! ([`case_file_entropy`]: the sum over categories of the entropy of the
//! case-file card, from one exact marginal count). The pieces:
//!
//! - [`Position`]: the observer's exact counts, computed once, and the
//!   methods below on it.
//! - Suggestions ([`Position::evaluate`], [`Position::rank_suggestions`]):
//!   every answer's exact probability and the expected information; a cheap
//!   first pass over all combinations picks a shortlist to evaluate exactly.
//! - Accusations ([`Position::player_accusation`]): the most likely case
//!   file with its exact probability; accuse when certain, never below even
//!   odds, and in between when the opponents' threat outweighs waiting.
//! - Refutations ([`Position::refutation`]): the card that tells the
//!   suggester least.
//! - Opponents ([`Position::opponents_by_knowledge`]): sampled exact views
//!   of each opponent, and the chance each can know the case file by the end
//!   of its next turn.
//! - The behaviour hint ([`Position::behaviour_hint`]): the case file
//!   weighed by how rarely each opponent asks about cards it holds, read only
//!   for opponents whose play shows that habit; a labelled hint, never the
//!   basis of an accusation.
//!
//! Cost: a suggestion's evaluation is one count split by answer class,
//! shared by the suggestions of a ranking that differ only in cards of
//! certain place; [`advise`] with the default options takes a few
//! milliseconds on a classic game, most of it the opponents' estimate,
//! and about a twentieth of a second at the median on a master game of
//! ten players, half of it the suggestions (BENCHMARKS.md).

mod accuse;
mod entropy;
mod opponents;
mod refute;
mod suggest;
mod tells;

pub use accuse::{better_than_even, AccusationAdvice, AccuseReason, EVEN_ODDS, THREAT_BASIS};
pub use entropy::{case_file_candidates, case_file_entropy, certain_case_file, in_case_file};
pub use opponents::{combined_threat, solve_chance, wilson, OpponentProgress, ThreatBudget, COUNT_CHARGE, EXACT_DEALS};
pub use refute::{RefutationAdvice, RefutationOption};
pub use suggest::{
    alternatives, focused_tiers, keep_distinct, same_answers, Objective, Outcome, SuggestionEval, LISTED_WORK,
    MAX_COMBINATIONS,
};
pub use tells::{told_marginals, BehaviourHint, Tell, HABIT_SIGNIFICANCE, HINT_PRIOR_WEIGHT, PRIOR_RATE, PRIOR_WEIGHT};

use crate::analysis::ratio;
use crate::count::{
    case_files, count_marginals, count_with_case_files, CaseFileList, CountError, CountOptions, Counts, MAX_STATES,
};
use crate::deduce::CountProblem;
use crate::model::{CardSet, Event, Game, Place, Player, MAX_CARDS, MAX_PLACES};
use rand::SeedableRng;
use std::borrow::Cow;
use std::collections::HashSet;

/// Why no advice could be given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AdviceError {
    /// The game is a bystander's: advice is for a player with a hand.
    #[error("advice needs a player's view: the game file has no 'me' and 'hand'")]
    NoObserver,
    /// No deal fits the history.
    #[error("the history is inconsistent: no deal of the cards fits every event")]
    Inconsistent,
    /// The refutation asked about is impossible.
    #[error("{0}")]
    Refutation(String),
    /// A count failed.
    #[error(transparent)]
    Count(#[from] CountError),
    /// The caller of [`advise_with`] stopped it.
    #[error("the advice was stopped before it was complete")]
    Stopped,
}

/// What to compute, and how much effort to spend.
#[derive(Clone, Debug, PartialEq)]
pub struct AdviceOptions {
    /// How many suggestions of distinct answers to list (the best first),
    /// each with those that have the same answers ([`keep_distinct`]).
    pub suggestions: usize,
    /// How many suggestions the first pass hands to the exact evaluation:
    /// the best by estimate and, a sixth of them (rounded down), the most
    /// likely to end the game unrefuted; the most likely case file and the
    /// focused combination are always added; where the deals are few,
    /// every legal suggestion is evaluated instead
    /// ([`Position::rank_suggestions`]).
    pub shortlist: usize,
    /// The most deals sampled to estimate the opponents' progress
    /// ([`ThreatBudget::samples`]).
    pub samples: usize,
    /// The states the counts of the opponents' rebuilt views may visit in
    /// all ([`ThreatBudget::states`]): the estimate's budget, in the
    /// counter's work rather than time, so that the same game and seed give
    /// the same advice on every machine. The sampling stops at `samples`
    /// deals or this budget, whichever comes first; the interval
    /// ([`OpponentProgress::threat_interval`]) says what that costs.
    pub opponent_states: usize,
    /// In how many of those deals (the first) every opponent's view is
    /// counted for its mean entropy ([`ThreatBudget::entropy_samples`]);
    /// the threat of knowing the case file now rarely needs a count.
    pub entropy_samples: usize,
    /// The most distinct opponents' views counted to give every opponent's
    /// progress exactly instead of sampling it, where the observer's deals
    /// are few ([`ThreatBudget::exact_views`]); 0 always samples.
    pub exact_views: usize,
    /// How many questions each opponent's rebuilt view evaluates exactly to
    /// find its best next question ([`Position::opponents_by_knowledge`]),
    /// when the accusation rule weighs the threat.
    pub opponent_shortlist: usize,
    /// The seed of that sampling (the same seed gives the same advice).
    pub seed: u64,
    /// How many deals are sampled to weigh the behaviour hint
    /// ([`Position::behaviour_hint`]); 0 for no hint.
    pub tell_samples: usize,
    /// The most states each exact count may visit
    /// ([`CountOptions::max_states`]).
    pub max_states: usize,
}

impl Default for AdviceOptions {
    fn default() -> AdviceOptions {
        AdviceOptions {
            suggestions: 5,
            shortlist: 12,
            samples: 32,
            opponent_states: OPPONENT_STATES,
            entropy_samples: ENTROPY_SAMPLES,
            exact_views: EXACT_VIEWS,
            opponent_shortlist: 4,
            seed: 0,
            tell_samples: TELL_SAMPLES,
            max_states: MAX_STATES,
        }
    }
}

/// The advice for the observer of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Advice {
    /// The observer.
    pub me: Player,
    /// The number of consistent deals.
    pub models: u128,
    /// The case-file entropy now, in bits.
    pub entropy: f64,
    /// The best suggestions, best first (never one the observer made
    /// before): the first [`AdviceOptions::suggestions`] of distinct
    /// answers, each with every suggestion that has the same answers
    /// ([`keep_distinct`]).
    pub suggestions: Vec<SuggestionEval>,
    /// How many suggestions were evaluated exactly: the shortlist, chosen
    /// by an estimate, or every legal one where the deals are few enough
    /// to list ([`Position::rank_suggestions`]); `suggestions` is then
    /// the best of all.
    pub evaluated: usize,
    /// How many suggestions are legal (never one the observer made before).
    pub legal: usize,
    /// The cards nobody but the observer can show ([`Position::unshowable`]):
    /// suggestions that differ only in these have the same answers
    /// ([`same_answers`]).
    pub unshowable: CardSet,
    /// Whether to accuse, and whom: the player's rule on the exact
    /// probability ([`Position::player_accusation`]).
    pub accusation: AccusationAdvice,
    /// Every opponent's progress from what it can know, in seat order
    /// ([`Position::opponents_by_knowledge`]).
    pub opponents: Vec<OpponentProgress>,
    /// The behaviour hint (`None` when not read): a labelled model of how
    /// the opponents ask, never part of the accusation advice.
    pub hint: Option<BehaviourHint>,
}

/// The states [`AdviceOptions::default`] lets the opponents' estimate visit
/// ([`ThreatBudget::states`]): about 50 ms of counting natively. On master
/// 10-player states it ends the entropy's counts after a few deals, and
/// bounds the look-ahead's; classic games rarely reach it.
pub const OPPONENT_STATES: usize = 500_000;

/// In how many deals [`AdviceOptions::default`] counts every opponent's
/// view for its mean entropy: a mean of values that vary little from deal
/// to deal, where the threat is a rare event and gets every deal.
pub const ENTROPY_SAMPLES: usize = 8;

/// How many distinct opponents' views [`AdviceOptions::default`] counts
/// for an exact answer instead of a sample: about the views its sampling
/// counts for the entropy (eight deals of five to nine opponents), so that
/// the exact answer costs about what the estimate does (a tenth of a
/// millisecond more on classic states at most; the `opponents_exact`
/// example of sleuth-testkit measures it).
pub const EXACT_VIEWS: usize = 64;

impl AdviceOptions {
    /// The opponents' estimate's budget from these options.
    pub fn threat_budget(&self) -> ThreatBudget {
        ThreatBudget {
            samples: self.samples,
            entropy_samples: self.entropy_samples,
            states: self.opponent_states,
            exact_views: self.exact_views,
        }
    }
}

/// How many deals [`AdviceOptions::default`] samples to weigh the behaviour hint.
pub const TELL_SAMPLES: usize = 2000;

/// The observer's position: the game and its exact counts, with what the
/// advice needs precomputed.
///
/// A repeated event says nothing new, so the position holds the game with
/// each event once (its first time): every piece of advice (the opponents'
/// rebuilt views, the behaviour hint, the suggestions made) then works in
/// the number of distinct events, however long the history.
#[derive(Clone, Debug)]
pub struct Position<'g> {
    game: Cow<'g, Game>,
    me: Player,
    hand: CardSet,
    problem: CountProblem,
    counts: Counts,
    entropy: f64,
    /// `prob[card][place]` as floats.
    prob: Vec<[f64; MAX_PLACES]>,
    /// Per category, the entropy of its case-file card.
    category_entropy: Vec<f64>,
    /// Per card, how much its category's entropy drops when it is ruled out
    /// of the case file.
    gain: Vec<f64>,
    /// The case files with their deals, where the position's own count
    /// listed them ([`Position::listing_case_files`]; `Some(None)`: more
    /// than [`crate::count::MAX_CASE_FILES`]); `None` where it did not list
    /// them ([`Position::case_file_list`] then lists them on demand).
    files: Option<Option<CaseFileList>>,
    /// The limits of every count.
    count: CountOptions<'g>,
}

impl<'g> Position<'g> {
    /// Counts the observer's view of `game` exactly.
    ///
    /// # Errors
    /// [`AdviceError::NoObserver`] for a bystander's game,
    /// [`AdviceError::Inconsistent`] when no deal fits, and
    /// [`AdviceError::Count`] when counting fails.
    pub fn new(game: &'g Game) -> Result<Position<'g>, AdviceError> {
        Position::with_options(game, &CountOptions::default())
    }

    /// [`Position::new`], every count of the position and of the advice
    /// on it within the limits of `options`.
    ///
    /// # Errors
    /// As [`Position::new`].
    pub fn with_options(game: &'g Game, options: &CountOptions<'g>) -> Result<Position<'g>, AdviceError> {
        let problem = CountProblem::new(game);
        let counts = count_marginals(&problem, options)?;
        Position::from_counts(game, problem, counts, options)
    }

    /// [`Position::with_options`], the case files listed in the same count,
    /// for advice that reads them (the best accusation, the shortlist): a
    /// share of the count's cost, where listing them later is a count of
    /// its own.
    fn listing_case_files(game: &'g Game, options: &CountOptions<'g>) -> Result<Position<'g>, AdviceError> {
        let problem = CountProblem::new(game);
        let (counts, files) = count_with_case_files(&problem, options)?;
        let mut pos = Position::from_counts(game, problem, counts, options)?;
        pos.files = Some(files);
        Ok(pos)
    }

    /// The position from counts already computed for `problem`, which must
    /// be `CountProblem::new(game)` (not checked).
    ///
    /// # Errors
    /// As [`Position::new`].
    pub fn with_counts(game: &'g Game, problem: CountProblem, counts: Counts) -> Result<Position<'g>, AdviceError> {
        Position::from_counts(game, problem, counts, &CountOptions::default())
    }

    /// [`Position::with_counts`] with the limits of later counts.
    fn from_counts(
        game: &'g Game,
        problem: CountProblem,
        counts: Counts,
        options: &CountOptions<'g>,
    ) -> Result<Position<'g>, AdviceError> {
        let game = distinct_events(game);
        let (me, hand) = game.observer().ok_or(AdviceError::NoObserver)?;
        if counts.total == 0 {
            return Err(AdviceError::Inconsistent);
        }
        let deck = game.deck();
        let np = game.num_players();
        let mut prob = vec![[0.0; MAX_PLACES]; MAX_CARDS];
        for c in deck.cards() {
            for q in 0..=np {
                prob[c.index()][q] = ratio(counts.marginal[c.index()][q], counts.total);
            }
        }
        let cf = Place::CaseFile.index(np);
        let h = |ps: &mut dyn Iterator<Item = f64>| -> f64 {
            ps.filter(|&p| p > 0.0 && p < 1.0).map(|p| -p * p.log2()).sum::<f64>().max(0.0)
        };
        let mut category_entropy = Vec::new();
        let mut gain = vec![0.0; MAX_CARDS];
        for cat in deck.categories() {
            let cards = deck.category_cards(cat);
            let hk = h(&mut cards.iter().map(|c| prob[c.index()][cf]));
            category_entropy.push(hk);
            for c in cards {
                let pc = prob[c.index()][cf];
                if pc > 0.0 && pc < 1.0 {
                    let rest = 1.0 - pc;
                    let without = h(&mut cards.iter().filter(|&d| d != c).map(|d| prob[d.index()][cf] / rest));
                    gain[c.index()] = (hk - without).max(0.0);
                }
            }
        }
        let entropy = case_file_entropy(&game, &counts);
        Ok(Position {
            game,
            me,
            hand,
            problem,
            counts,
            entropy,
            prob,
            category_entropy,
            gain,
            files: None,
            count: *options,
        })
    }

    /// The game, each event once (see [`Position`]).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The observer.
    pub fn me(&self) -> Player {
        self.me
    }

    /// The exact counts of the observer's view.
    pub fn counts(&self) -> &Counts {
        &self.counts
    }

    /// The case-file entropy now, in bits.
    pub fn entropy(&self) -> f64 {
        self.entropy
    }

    /// The suggestions the observer has made so far.
    pub fn own_suggestions(&self) -> Vec<CardSet> {
        self.suggestions_by(self.me)
    }

    /// The exact list of case files with their deals: the one the
    /// position's count made, or else one of its own; `None` where there
    /// are too many to list ([`crate::count::MAX_CASE_FILES`]).
    ///
    /// # Errors
    /// [`CountError`] from the listing.
    fn case_file_list(&self) -> Result<Option<Cow<'_, CaseFileList>>, CountError> {
        match &self.files {
            Some(files) => Ok(files.as_ref().map(Cow::Borrowed)),
            None => match case_files(&self.problem, &self.counts, &self.count) {
                Ok(files) => Ok(Some(Cow::Owned(files))),
                Err(CountError::TooManyCaseFiles(_)) => Ok(None),
                Err(e) => Err(e),
            },
        }
    }

    /// The suggestions `player` made, in order.
    pub fn suggestions_by(&self, player: Player) -> Vec<CardSet> {
        self.game
            .events()
            .iter()
            .filter_map(|e| match e {
                Event::Suggestion(s) if s.by == player => Some(s.cards),
                _ => None,
            })
            .collect()
    }
}

/// `game` with each event once, at its first place: the game itself when
/// no event repeats.
fn distinct_events(game: &Game) -> Cow<'_, Game> {
    let mut seen = HashSet::with_capacity(game.events().len());
    let first: Vec<usize> = (0..game.events().len()).filter(|&i| seen.insert(&game.events()[i])).collect();
    if first.len() == game.events().len() {
        Cow::Borrowed(game)
    } else {
        Cow::Owned(game.restricted(&first, true))
    }
}

/// Full advice for the observer of `game`: the best suggestions, whether
/// to accuse, and every opponent's progress.
///
/// # Errors
/// [`AdviceError`] for a bystander's game, an inconsistent history, or a
/// failed count.
pub fn advise(game: &Game, options: &AdviceOptions) -> Result<Advice, AdviceError> {
    advise_with(game, options, |_| true)
}

/// The ranking so far of a progressive [`advise_with`].
#[derive(Clone, Copy, Debug)]
pub struct AdviceProgress<'a> {
    /// The number of consistent deals.
    pub models: u128,
    /// The case-file entropy now, in bits.
    pub entropy: f64,
    /// The suggestions evaluated so far, best first, each with the exact
    /// numbers it has in the final advice (all of them, not truncated to
    /// [`AdviceOptions::suggestions`]).
    pub suggestions: &'a [SuggestionEval],
    /// How many suggestions are evaluated in all.
    pub shortlisted: usize,
    /// The cards nobody but the observer can show (as [`Advice::unshowable`]).
    pub unshowable: CardSet,
}

/// [`advise`] step by step, for a page that shows the ranking as it firms
/// up: `on_update` gets the ranking before the first exact evaluation and
/// after each one ([`Position::rank_suggestions_with`]), and answers
/// whether to go on. The accusation and the opponents' progress follow the
/// last update. The advice is the same as [`advise`]'s.
///
/// # Errors
/// As [`advise`], and [`AdviceError::Stopped`] when `on_update` stopped it.
pub fn advise_with(
    game: &Game,
    options: &AdviceOptions,
    mut on_update: impl FnMut(&AdviceProgress<'_>) -> bool,
) -> Result<Advice, AdviceError> {
    let pos = Position::listing_case_files(game, &CountOptions::new().max_states(options.max_states))?;
    let unshowable = pos.unshowable();
    let progress = |suggestions: &[SuggestionEval], shortlisted: usize| {
        on_update(&AdviceProgress {
            models: pos.counts.total,
            entropy: pos.entropy,
            suggestions,
            shortlisted,
            unshowable,
        })
    };
    let mut suggestions =
        pos.rank_suggestions_with(options.shortlist, Objective::default(), progress)?.ok_or(AdviceError::Stopped)?;
    // One stream per estimate, so that the opponents' budget does not change the hint's sample.
    let rng = |stream| {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(options.seed);
        rng.set_stream(stream);
        rng
    };
    // Looking ahead to the opponents' next questions is costly and only
    // matters when the accusation rule weighs the threat (better than even
    // odds, not certain); otherwise the threat counts knowing it now.
    let best = pos.best_accusation()?;
    let weighed = best.1 < pos.counts.total && better_than_even(best.1, pos.counts.total);
    let lookahead = if weighed { options.opponent_shortlist } else { 0 };
    let opponents = pos.opponents_by_knowledge(options.threat_budget(), lookahead, &mut rng(0))?;
    // The value of waiting is over the suggestions just ranked (as
    // `Position::player_accusation` would rank them again).
    let accusation =
        pos.accusation_waiting(combined_threat(&opponents), best, || Ok(pos.wait_value_of(&suggestions)))?;
    let evaluated = suggestions.len();
    keep_distinct(&mut suggestions, options.suggestions, unshowable);
    let hint =
        if options.tell_samples > 0 { Some(pos.behaviour_hint(options.tell_samples, &mut rng(1))?) } else { None };
    Ok(Advice {
        me: pos.me,
        models: pos.counts.total,
        entropy: pos.entropy,
        suggestions,
        evaluated,
        legal: pos.legal_suggestions().len(),
        unshowable,
        accusation,
        opponents,
        hint,
    })
}

/// Which card to show `suggester`, who suggested `suggestion`, from the
/// observer's view of `game` (which does not yet include that suggestion).
///
/// # Errors
/// [`AdviceError`] as [`advise`], and [`AdviceError::Refutation`] when the
/// observer cannot refute (see [`Position::refutation`]).
pub fn advise_refutation(game: &Game, suggester: Player, suggestion: CardSet) -> Result<RefutationAdvice, AdviceError> {
    Position::new(game)?.refutation(suggester, suggestion)
}
