//! The analysis of a game: exact counts, probabilities, certain facts,
//! possible case files, and explanations (why a fact holds, which events
//! conflict).

use crate::count::{count, count_with_case_files, CaseFileList, CountError, CountOptions, Counts};
use crate::deduce::{find_deal, CountProblem, Deal, Found};
use crate::knowledge::Lit;
pub use crate::model::Status;
use crate::model::{Card, Game, Place};

mod subsets;

pub use subsets::SEARCH_BUDGET;
use subsets::{smallest_subset, Grow, Verdict};

/// A set of events (and possibly the observer's hand) that explains a fact
/// or a contradiction.
///
/// Smallest means fewest events: the hand is named when it is part of the
/// reason but is no event, and among sets of as few events, one without
/// the hand is preferred. A player re-checks fewer turns when fewer events
/// are named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// Event indices, ascending.
    pub events: Vec<usize>,
    /// Whether the observer's hand is needed.
    pub hand: bool,
    /// `true` when no set with fewer events, or as few without the hand,
    /// exists (the search for one finished);
    /// `false` when its budget ([`SEARCH_BUDGET`] subsets tested, or the
    /// work of finding the subsets worth testing) ran out and the set is
    /// only minimal (no member can be dropped).
    pub minimum: bool,
}

/// The exact analysis of a game.
#[derive(Clone, Debug)]
pub struct Analysis {
    counts: Counts,
    /// `None` when there are too many to list ([`crate::count::MAX_CASE_FILES`]).
    case_files: Option<CaseFileList>,
    conflict: Option<Explanation>,
    num_places: usize,
}

impl Analysis {
    /// Analyses a game exactly.
    ///
    /// # Examples
    /// ```
    /// use sleuth_core::{Analysis, Game, Place};
    /// let game = Game::from_json(r#"{"version": 1, "deck": "classic",
    ///     "players": ["sc", "mu", "wh"], "me": "sc",
    ///     "hand": ["mu", "pl", "gr", "kn", "ca", "ha"], "events": []}"#)?;
    /// let analysis = Analysis::new(&game)?;
    /// let rope = game.deck().card("ro").unwrap();
    /// // Four unseen weapons, one of them in the case file: 1/4 each.
    /// assert!((analysis.probability(rope, Place::CaseFile) - 0.25).abs() < 1e-12);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Cost
    /// One exact count, whose passes also give the case files (see
    /// [`crate::count`]). For an inconsistent game it also finds the
    /// conflicting events with [`conflict`], which runs many more.
    ///
    /// # Errors
    /// [`CountError`] when the count does not fit in `u128`, or the game is
    /// too large for the counter's default limits.
    pub fn new(game: &Game) -> Result<Analysis, CountError> {
        Analysis::with_options(game, &CountOptions::default())
    }

    /// Analyses a game exactly, every count within the limits of `options`
    /// and reporting its progress there.
    ///
    /// # Errors
    /// [`CountError`] when the count does not fit in `u128`, or the game is
    /// too large for the limits.
    pub fn with_options(game: &Game, options: &CountOptions<'_>) -> Result<Analysis, CountError> {
        let problem = CountProblem::new(game);
        // The counts and the case files from the same passes (one code path
        // for analyze, notepad, the web and `sleuth bench`).
        let (counts, case_files) = count_with_case_files(&problem, options)?;
        let conflict = if counts.total == 0 { Some(conflict_in(game, options)?) } else { None };
        Ok(Analysis { counts, case_files, conflict, num_places: game.num_places() })
    }

    /// The analysis of `game` supposing `facts` ("pl holds the knife",
    /// "the rope is not in the case file") besides its evidence: the exact
    /// conditional notepad and case files of a what-if, without a turn.
    ///
    /// Nothing is explained: [`Analysis::conflict`] is `None`, also when no
    /// deal fits the game and the facts (zero deals).
    ///
    /// # Examples
    /// ```
    /// use sleuth_core::{Analysis, Game, Lit, Place};
    /// let game = Game::from_json(r#"{"version": 1, "deck": "classic",
    ///     "players": ["sc", "mu", "wh"], "me": "sc",
    ///     "hand": ["mu", "pl", "gr", "kn", "ca", "ha"], "events": []}"#)?;
    /// let rope = game.deck().card("ro").unwrap();
    /// let mu = game.place("mu").unwrap();
    /// let base = Analysis::new(&game)?;
    /// let what_if = Analysis::supposing(&game, &[Lit::is_at(rope, mu)], &Default::default())?;
    /// // The deals with the rope at mu, and none with it in the case file.
    /// assert_eq!(what_if.consistent_deals(), base.count(rope, mu));
    /// assert_eq!(what_if.count(rope, Place::CaseFile), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`Analysis::with_options`].
    pub fn supposing(game: &Game, facts: &[Lit], options: &CountOptions<'_>) -> Result<Analysis, CountError> {
        let mut problem = CountProblem::new(game);
        for f in facts {
            problem.add_fact(f.card, f.place, f.positive);
        }
        let (counts, case_files) = count_with_case_files(&problem, options)?;
        Ok(Analysis { counts, case_files, conflict: None, num_places: game.num_places() })
    }

    /// The number of consistent deals: every deal of the cards that fits
    /// the hand sizes, the face-up cards, the observer's hand and every event.
    ///
    /// # Examples
    /// ```
    /// use sleuth_core::{Analysis, Game};
    /// let game = Game::from_json(r#"{"version": 1, "deck": "classic",
    ///     "players": ["a", "b", "c"], "me": "a", "hand": ["mu", "pl", "gr", "kn", "ca", "ha"],
    ///     "events": [{"suggestion": {"by": "a", "cards": ["pe", "ro", "lo"], "refuted_by": null}}]}"#)?;
    /// let analysis = Analysis::new(&game)?;
    /// // Nobody refuted a's suggestion, and a holds none of pe, ro, lo:
    /// // all three are in the case file, and b and c share the other 12
    /// // cards 6 and 6.
    /// assert_eq!(analysis.consistent_deals(), 924);
    /// assert!(analysis.is_consistent());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// The wire schema calls it `models` ([`wire::Analysis`](crate::wire::Analysis)).
    pub fn consistent_deals(&self) -> u128 {
        self.counts.total
    }

    /// Whether any deal fits the evidence.
    pub fn is_consistent(&self) -> bool {
        self.counts.total > 0
    }

    /// The events that cannot all hold, when the game is inconsistent
    /// (`None` when it is consistent).
    ///
    /// # Examples
    /// ```
    /// use sleuth_core::{Analysis, Game};
    /// let game = Game::from_json(r#"{"version": 1, "deck": "classic",
    ///     "players": ["a", "b", "c"], "me": "a", "hand": ["mu", "pl", "gr", "kn", "ca", "ha"],
    ///     "events": [{"suggestion": {"by": "a", "cards": ["pe", "ro", "lo"], "refuted_by": null}},
    ///                {"accusation": {"by": "b", "cards": ["pe", "ro", "lo"], "correct": false}}]}"#)?;
    /// let analysis = Analysis::new(&game)?;
    /// // Nobody refuted pe, ro, lo and a holds none of them, so they are the
    /// // case file; yet b's accusation of them was wrong.
    /// let conflict = analysis.conflict().expect("inconsistent");
    /// assert_eq!(conflict.events, [0, 1]);
    /// assert!(conflict.hand);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn conflict(&self) -> Option<&Explanation> {
        self.conflict.as_ref()
    }

    /// The number of consistent deals with `card` at `place`: exact, so that
    /// `count / consistent_deals` is the exact probability.
    ///
    /// # Examples
    /// ```
    /// use sleuth_core::{Analysis, Game, Place};
    /// let game = Game::from_json(r#"{"version": 1, "deck": "classic",
    ///     "players": ["a", "b", "c"], "me": "a", "hand": ["mu", "pl", "gr", "kn", "ca", "ha"],
    ///     "events": [{"suggestion": {"by": "a", "cards": ["pe", "ro", "lo"], "refuted_by": null}}]}"#)?;
    /// let analysis = Analysis::new(&game)?;
    /// let knife = game.deck().card("kn").unwrap();
    /// let wrench = game.deck().card("wr").unwrap();
    /// let b = game.place("b").unwrap();
    /// assert_eq!(analysis.count(knife, b), 0); // a holds it
    /// assert_eq!(analysis.count(wrench, Place::CaseFile), 0); // the rope is there
    /// assert_eq!(analysis.count(wrench, b), 462); // half the deals
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn count(&self, card: Card, place: Place) -> u128 {
        self.counts.marginal[card.index()][place.index(self.num_places - 1)]
    }

    /// The exact probability as a fraction `(deals with it, all deals)`, not
    /// reduced: `(count, consistent_deals)`.
    ///
    /// # Examples
    /// ```
    /// use sleuth_core::{Analysis, Game};
    /// let game = Game::from_json(r#"{"version": 1, "deck": "classic",
    ///     "players": ["a", "b", "c"], "me": "a", "hand": ["mu", "pl", "gr", "kn", "ca", "ha"],
    ///     "events": [{"suggestion": {"by": "a", "cards": ["pe", "ro", "lo"], "refuted_by": null}}]}"#)?;
    /// let analysis = Analysis::new(&game)?;
    /// let wrench = game.deck().card("wr").unwrap();
    /// assert_eq!(analysis.fraction(wrench, game.place("c").unwrap()), (462, 924));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fraction(&self, card: Card, place: Place) -> (u128, u128) {
        (self.count(card, place), self.counts.total)
    }

    /// The probability that `card` is at `place`, the nearest `f64` to the
    /// exact fraction (0 for an inconsistent game).
    ///
    /// # Examples
    /// ```
    /// use sleuth_core::{Analysis, Game, Place};
    /// let game = Game::from_json(r#"{"version": 1, "deck": "classic",
    ///     "players": ["a", "b", "c"], "me": "a", "hand": ["mu", "pl", "gr", "kn", "ca", "ha"],
    ///     "events": [{"suggestion": {"by": "a", "cards": ["pe", "ro", "lo"], "refuted_by": null}}]}"#)?;
    /// let analysis = Analysis::new(&game)?;
    /// let rope = game.deck().card("ro").unwrap();
    /// let wrench = game.deck().card("wr").unwrap();
    /// assert_eq!(analysis.probability(rope, Place::CaseFile), 1.0);
    /// assert_eq!(analysis.probability(wrench, game.place("b").unwrap()), 0.5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn probability(&self, card: Card, place: Place) -> f64 {
        ratio(self.count(card, place), self.counts.total)
    }

    /// Whether the fact is certain, impossible or open.
    ///
    /// # Examples
    /// ```
    /// use sleuth_core::{Analysis, Game, Place, Status};
    /// let game = Game::from_json(r#"{"version": 1, "deck": "classic",
    ///     "players": ["a", "b", "c"], "me": "a", "hand": ["mu", "pl", "gr", "kn", "ca", "ha"],
    ///     "events": [{"suggestion": {"by": "a", "cards": ["pe", "ro", "lo"], "refuted_by": null}}]}"#)?;
    /// let analysis = Analysis::new(&game)?;
    /// let card = |id| game.deck().card(id).unwrap();
    /// assert_eq!(analysis.status(card("ro"), Place::CaseFile), Status::Yes);
    /// assert_eq!(analysis.status(card("kn"), Place::CaseFile), Status::No);
    /// assert_eq!(analysis.status(card("wr"), game.place("c").unwrap()), Status::Maybe);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn status(&self, card: Card, place: Place) -> Status {
        let n = self.count(card, place);
        if n == 0 {
            Status::No
        } else if n == self.counts.total {
            Status::Yes
        } else {
            Status::Maybe
        }
    }

    /// The possible case files and their numbers of deals, most likely first.
    ///
    /// Each is one card per category, in category order, with its number of
    /// consistent deals: its exact probability is that over
    /// [`Analysis::consistent_deals`]. Ties keep deck order. Empty when there are more
    /// than [`crate::count::MAX_CASE_FILES`] possible case files;
    /// [`Analysis::case_files_listed`] tells.
    ///
    /// # Examples
    /// ```
    /// use sleuth_core::{Analysis, Game};
    /// let game = Game::from_json(r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c"],
    ///     "me": "a", "hand": ["mu", "pl", "gr", "pe", "sc", "kn"], "events": []}"#)?;
    /// let analysis = Analysis::new(&game)?;
    /// let files: Vec<(Vec<String>, u128)> =
    ///     analysis.case_files().map(|(cards, n)| (game.deck().ids(cards.iter().copied().collect()), n)).collect();
    /// // White, one of 5 weapons, one of 9 rooms: 45, equally likely.
    /// assert_eq!(files.len(), 45);
    /// assert_eq!(files[0].0, ["wh", "ca", "ha"]);
    /// assert!(files.iter().all(|&(_, n)| n * 45 == analysis.consistent_deals()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn case_files(&self) -> impl Iterator<Item = (&[Card], u128)> {
        self.case_files.iter().flat_map(CaseFileList::iter)
    }

    /// Whether the possible case files were listed (false when there are
    /// too many; the per-card probabilities are exact either way).
    pub fn case_files_listed(&self) -> bool {
        self.case_files.is_some()
    }

    /// The raw counts.
    pub fn counts(&self) -> &Counts {
        &self.counts
    }
}

/// `num / den` as the nearest `f64`, without overflow for huge counts.
pub fn ratio(num: u128, den: u128) -> f64 {
    if den == 0 {
        return 0.0;
    }
    // Scale both down so that the division is exact to f64 precision.
    let shift = (128 - den.leading_zeros()).saturating_sub(100);
    ((num >> shift) as f64) / ((den >> shift) as f64)
}

/// Items of an explanation: the distinct events (an event repeated in the
/// history says nothing new, so only its first occurrence is an item), then
/// the hand if the game has one.
struct Items {
    /// The event index of each event item, ascending.
    events: Vec<usize>,
    hand: bool,
}

impl Items {
    fn of(game: &Game) -> Items {
        let mut seen = std::collections::HashSet::new();
        let events = (0..game.events().len()).filter(|&i| seen.insert(&game.events()[i])).collect();
        Items { events, hand: game.has_hand() }
    }
    fn len(&self) -> usize {
        self.events.len() + usize::from(self.hand)
    }
    /// The problem of a subset of the items: the rules, those events, and
    /// the hand if it is one of them.
    fn problem(&self, game: &Game, subset: &[usize]) -> CountProblem {
        let events = subset.iter().filter_map(|&i| self.events.get(i)).map(|&e| &game.events()[e]);
        let hand = self.hand && subset.contains(&self.events.len());
        CountProblem::with_evidence(game, hand, events)
    }
    /// Each item's problem alone (the rules and that event, or the hand).
    fn singles(&self, game: &Game) -> Vec<CountProblem> {
        (0..self.len()).map(|i| self.problem(game, &[i])).collect()
    }
    fn explain(&self, subset: Vec<usize>, minimum: bool) -> Explanation {
        let hand = self.hand && subset.contains(&self.events.len());
        let mut events: Vec<usize> = subset.iter().filter_map(|&i| self.events.get(i).copied()).collect();
        events.sort_unstable();
        Explanation { events, hand, minimum }
    }
}

/// Nodes the search for one deal may visit before [`Witnesses`] counts
/// instead: a subset with deals mostly shows one within a node per open
/// card (30 on master), and an inconsistent one to propagation.
const DEAL_SEARCH_NODES: usize = 200;

/// The most deals [`Witnesses`] keeps (each subset tested is checked
/// against all of them).
const MAX_WITNESSES: usize = 64;

/// Nodes each search for a deal may visit while a cut grows (see
/// [`Witnesses::grown_cut`]): where it gives up, the item simply stays in
/// the cut.
const GROW_NODES: usize = 50;

/// At most this many searches grow one cut (each builds the problem of
/// nearly every item: long histories would pay it per broken item).
const GROW_SEARCHES: usize = 24;

/// Decides whether subsets of a game's items have deals, for the
/// explanations (the test holds where none has). Deals found are kept: a
/// subset one of them meets has deals without a search (of the small
/// subsets the search for a smallest explanation tests, most are met by
/// one of a few deals).
struct Witnesses<'o, F> {
    /// The deals kept, each with the items it breaks (a deal meets a
    /// subset exactly when it breaks none of its items: each subset's
    /// problem is the rules and its items' constraints, and every deal
    /// kept was found for such a problem, so it meets what they share).
    kept: Vec<(Deal, Vec<usize>)>,
    /// Each item's problem alone.
    singles: Vec<CountProblem>,
    /// The problem of a subset of the items.
    problem_of: F,
    /// The limits of the counts.
    options: CountOptions<'o>,
}

impl<'o, F: Fn(&[usize]) -> CountProblem> Witnesses<'o, F> {
    fn new(singles: Vec<CountProblem>, problem_of: F, options: &CountOptions<'o>) -> Witnesses<'o, F> {
        Witnesses { kept: Vec::new(), singles, problem_of, options: *options }
    }

    /// Whether the subset `set` has no deal: a deal kept, else a search for
    /// one, else a count. Where a deal fits, the items it breaks are the
    /// cut of the failure (every set of items without a deal has one of
    /// them; see [`Witnesses::grown_cut`]). A count too large for `u128` is
    /// certainly not zero, so a subset whose count overflows simply has
    /// deals.
    fn verdict(&mut self, set: &[usize], grow: Grow) -> Result<Verdict, CountError> {
        let met = |(_, broken): &&(Deal, Vec<usize>)| set.iter().all(|i| broken.binary_search(i).is_err());
        let deal = match self.kept.iter().rev().find(met) {
            // Its cut is the items it breaks, unless it is to be grown.
            Some((_, broken)) if matches!(grow, Grow::No) => {
                return Ok(Verdict::Fails { broken: Some(broken.clone()) })
            }
            Some(&(deal, _)) => deal,
            None => {
                let p = (self.problem_of)(set);
                match find_deal(&p, DEAL_SEARCH_NODES) {
                    Found::Deal(deal) => *deal,
                    Found::NoDeal => return Ok(Verdict::Holds),
                    Found::GaveUp => {
                        return match count(&p, &self.options) {
                            Ok(0) => Ok(Verdict::Holds),
                            Ok(_) | Err(CountError::Overflow) => Ok(Verdict::Fails { broken: None }),
                            Err(e) => Err(e),
                        }
                    }
                }
            }
        };
        let (cut, deal) = match grow {
            Grow::Yes => self.grown_cut(deal),
            Grow::No => (self.broken_by(&deal), deal),
        };
        self.keep(deal, &cut);
        Ok(Verdict::Fails { broken: Some(cut) })
    }

    /// The items a deal breaks, after growing the items it meets: each
    /// broken item in turn joins them where a short search finds a deal of
    /// them all, which then replaces the deal. What stays broken is a cut
    /// (the last deal meets every other item), and a small one: a set
    /// without deals needs one of its items, so the fewer, the fewer sets
    /// the search for a smallest explanation tests (on 139 inconsistent
    /// histories, 256 cuts grown from 13.0 items on average to 1.8). Returns
    /// the cut and the last deal.
    fn grown_cut(&self, mut deal: Deal) -> (Vec<usize>, Deal) {
        let mut broken = self.broken_by(&deal);
        let mut next = 0;
        for _ in 0..GROW_SEARCHES {
            let Some(&item) = broken.get(next) else { break };
            let mut met = vec![true; self.singles.len()];
            for &i in &broken {
                met[i] = false;
            }
            met[item] = true;
            let met: Vec<usize> = (0..met.len()).filter(|&i| met[i]).collect();
            match find_deal(&(self.problem_of)(&met), GROW_NODES) {
                Found::Deal(found) => {
                    deal = *found;
                    broken = self.broken_by(&deal);
                    // The items before `item` stay broken: they had no deal
                    // (or none found) with fewer items met.
                    next = broken.partition_point(|&i| i < item);
                }
                Found::NoDeal | Found::GaveUp => next += 1,
            }
        }
        (broken, deal)
    }

    /// The items a deal breaks.
    fn broken_by(&self, deal: &Deal) -> Vec<usize> {
        (0..self.singles.len()).filter(|&i| !self.singles[i].admits(deal)).collect()
    }

    /// Keeps a deal and the items it breaks (not twice), dropping the
    /// oldest past [`MAX_WITNESSES`].
    fn keep(&mut self, deal: Deal, broken: &[usize]) {
        if self.kept.iter().any(|(kept, _)| *kept == deal) {
            return;
        }
        if self.kept.len() == MAX_WITNESSES {
            self.kept.remove(0);
        }
        self.kept.push((deal, broken.to_vec()));
    }
}

/// A smallest set of events (and the hand, if it is part of the reason)
/// that cannot all hold together, or `None` if the game is consistent:
/// fewest events first, then without the hand (see [`Explanation`]).
///
/// # Cost
/// One exact count to test consistency; if the game is inconsistent, then
/// O(k log(n/k)) tests (QuickXplain) to find a minimal set of k among the n
/// distinct events (a repeated event counts once),
/// and at most [`SEARCH_BUDGET`] more to look for a smaller set (only sets
/// that no deal found so far fits: see `analysis/subsets.rs`). A test is
/// a check against the deals found so far, else a search for a deal, and
/// only where that search gives up a count (about as long as
/// [`Analysis::new`]'s). [`Explanation::minimum`] is `false` when the budget ran
/// out (the set is then minimal, not necessarily smallest).
///
/// # Errors
/// [`CountError`] from the underlying counts, each within the limits of
/// `options`.
pub fn conflict(game: &Game, options: &CountOptions<'_>) -> Result<Option<Explanation>, CountError> {
    if count(&CountProblem::new(game), options)? > 0 {
        return Ok(None);
    }
    conflict_in(game, options).map(Some)
}

/// [`conflict`] of a game known to be inconsistent ([`Analysis::new`] has
/// just counted it).
fn conflict_in(game: &Game, options: &CountOptions<'_>) -> Result<Explanation, CountError> {
    let items = Items::of(game);
    let mut witnesses = Witnesses::new(items.singles(game), |s: &[usize]| items.problem(game, s), options);
    let (set, minimum) = smallest_subset(items.len(), items.hand, |s, grow| witnesses.verdict(s, grow))?;
    Ok(items.explain(set, minimum))
}

/// The answer of [`why`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Why {
    /// The fact is certain: `status` is [`Status::Yes`] (the card is at the
    /// place in every consistent deal) or [`Status::No`] (in none), and
    /// `explanation` is a smallest set of events (and the hand) that forces
    /// it. An empty set means the rules alone (deck, hand sizes, face-up
    /// cards) force it.
    Certain {
        /// [`Status::Yes`] or [`Status::No`].
        status: Status,
        /// What forces it.
        explanation: Explanation,
    },
    /// The fact is open: some consistent deals have it and some do not.
    NotCertain,
    /// No deal fits the evidence, so nothing is explained; see [`conflict`].
    Inconsistent,
}

/// A smallest set of events (and the hand, if it is part of the reason)
/// that forces the fact "card is (or is not) at place": fewest events
/// first, then without the hand (see [`Explanation`]).
///
/// # Examples
/// ```
/// use sleuth_core::{why, CountOptions, Game, Place, Status, Why};
/// let game = Game::from_json(r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c"],
///     "events": [{"suggestion": {"by": "a", "cards": ["mu", "kn", "ha"], "refuted_by": "c"}},
///                {"suggestion": {"by": "b", "cards": ["pl", "kn", "lo"], "refuted_by": null}}]}"#)?;
/// let (knife, rope) = (game.deck().card("kn").unwrap(), game.deck().card("ro").unwrap());
/// // Nobody refuted b's suggestion, so a does not hold the knife.
/// match why(&game, knife, game.place("a").unwrap(), &CountOptions::default())? {
///     Why::Certain { status, explanation } => {
///         assert_eq!(status, Status::No);
///         assert_eq!(explanation.events, vec![1]);
///     }
///     other => panic!("{other:?}"),
/// }
/// // And b passed a's suggestion: the knife is in the case file.
/// let options = CountOptions::default();
/// let Why::Certain { status: Status::Yes, explanation } = why(&game, knife, Place::CaseFile, &options)? else {
///     panic!("certain")
/// };
/// assert_eq!(explanation.events, vec![0, 1]);
/// assert_eq!(why(&game, rope, game.place("c").unwrap(), &options)?, Why::NotCertain);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Cost
/// Two exact counts to find the status; for a certain fact, then tests of
/// subsets of the items as in [`conflict`]: O(k log(n/k)) to find a minimal
/// set of k items, at most [`SEARCH_BUDGET`] more to look for a smaller
/// set. A test that needs a count takes about as long as
/// [`Analysis::new`]. [`Explanation::minimum`] is `false` when the budget
/// ran out (the set is then minimal, not necessarily smallest).
///
/// # Errors
/// [`CountError`] from the underlying counts.
pub fn why(game: &Game, card: Card, place: Place, options: &CountOptions<'_>) -> Result<Why, CountError> {
    let problem = CountProblem::new(game);
    let total = count(&problem, options)?;
    if total == 0 {
        return Ok(Why::Inconsistent);
    }
    let with = {
        let mut p = problem.clone();
        p.add_fact(card, place, true);
        count(&p, options)?
    };
    let status = if with == total {
        Status::Yes
    } else if with == 0 {
        Status::No
    } else {
        return Ok(Why::NotCertain);
    };
    let items = Items::of(game);
    // The fact is forced by a subset when the subset plus its negation has
    // no deal.
    let problem_of = |s: &[usize]| {
        let mut p = items.problem(game, s);
        p.add_fact(card, place, status == Status::No);
        p
    };
    let mut witnesses = Witnesses::new(items.singles(game), problem_of, options);
    let (set, minimum) = smallest_subset(items.len(), items.hand, |s, grow| witnesses.verdict(s, grow))?;
    Ok(Why::Certain { status, explanation: items.explain(set, minimum) })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search for one deal against the count, on seeded classic,
    /// master and small custom games, three in four corrupted (often
    /// inconsistent), and on subsets of their events (what the
    /// explanations test): whenever it decides, it agrees with whether the
    /// count is zero; unbounded, on small decks, it always decides; and
    /// within the budget the explanations give it, it decides most.
    #[test]
    fn the_deal_search_agrees_with_the_count() {
        use crate::generate::{try_generate, DeckChoice, GenConfig};
        use rand::{Rng, SeedableRng};
        let decks = [
            (DeckChoice::Custom(vec![3, 2, 3]), 3),
            (DeckChoice::Classic, 4),
            (DeckChoice::Master, 6),
            (DeckChoice::Master, 10),
        ];
        let (mut tested, mut decided, mut without) = (0usize, 0usize, 0usize);
        for (d, (deck, players)) in decks.into_iter().enumerate() {
            for seed in 0..40u64 {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9_100 + 100 * d as u64 + seed);
                let cfg = GenConfig {
                    accusation_rate: 0.05,
                    corrupt: seed % 4 != 0,
                    ..GenConfig::new(deck.clone(), players, rng.gen_bool(0.5), rng.gen_range(0..=25))
                };
                let Ok(generated) = try_generate(&cfg, &mut rng) else { continue };
                let game = Game::new(&generated.file).expect("generated games are valid");
                let items = Items::of(&game);
                for i in 0..5 {
                    // All the events, then most of them.
                    let subset: Vec<usize> = (0..items.len()).filter(|_| i == 0 || rng.gen_bool(0.85)).collect();
                    let p = items.problem(&game, &subset);
                    let events: Vec<usize> = subset.iter().filter_map(|&i| items.events.get(i).copied()).collect();
                    let hand = items.hand && subset.contains(&items.events.len());
                    assert_eq!(
                        p,
                        CountProblem::new(&game.restricted(&events, hand)),
                        "seed {seed}: the subset's problem"
                    );
                    let has = count(&p, &CountOptions::default()).expect("these games count") > 0;
                    let decide = |nodes| match find_deal(&p, nodes) {
                        Found::Deal(deal) => {
                            assert!(p.admits(&deal), "{deck:?} seed {seed}: the deal found breaks a constraint");
                            Some(true)
                        }
                        Found::NoDeal => Some(false),
                        Found::GaveUp => None,
                    };
                    if d == 0 {
                        assert_eq!(decide(usize::MAX), Some(has), "seed {seed}");
                    }
                    if let Some(found) = decide(DEAL_SEARCH_NODES) {
                        assert_eq!(found, has, "{deck:?} seed {seed}, events {subset:?}");
                        decided += 1;
                    }
                    without += usize::from(!has);
                    tested += 1;
                }
            }
        }
        assert!(tested > 700 && without > 100, "{tested} subsets, {without} without deals");
        assert!(decided * 10 > tested * 9, "decided only {decided} of {tested}");
    }

    /// What propagation settles (`deduce::Settled`, the statuses of a game
    /// too large to count) is sound: every yes and no agrees with the exact
    /// analysis, on seeded classic, master and custom games of both views.
    #[test]
    fn propagation_settles_only_what_is_certain() {
        use crate::generate::{try_generate, DeckChoice, GenConfig};
        use rand::SeedableRng;
        let (mut settled_facts, mut exact_facts) = (0usize, 0usize);
        for (d, deck) in
            [DeckChoice::Classic, DeckChoice::Master, DeckChoice::Custom(vec![4, 3, 5, 2])].into_iter().enumerate()
        {
            for seed in 0..30u64 {
                let cfg = GenConfig {
                    face_up: (seed % 3) as usize,
                    accusation_rate: 0.05,
                    ..GenConfig::new(deck.clone(), 3 + (seed % 4) as usize, seed % 2 == 0, (seed * 3 % 30) as usize)
                };
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7_300 + 100 * d as u64 + seed);
                let Ok(generated) = try_generate(&cfg, &mut rng) else { continue };
                let game = Game::new(&generated.file).expect("generated games are valid");
                let exact = Analysis::new(&game).expect("these games count");
                let Some(settled) = crate::deduce::Settled::new(&game) else {
                    assert!(!exact.is_consistent(), "propagation refuted a consistent game");
                    continue;
                };
                for card in game.deck().cards() {
                    for place in game.places() {
                        let s = settled.status(card, place);
                        if s != Status::Maybe && exact.is_consistent() {
                            assert_eq!(s, exact.status(card, place), "{deck:?} seed {seed}");
                            settled_facts += 1;
                        }
                        exact_facts += usize::from(exact.status(card, place) != Status::Maybe);
                    }
                }
            }
        }
        assert!(settled_facts > 1000 && settled_facts < exact_facts, "{settled_facts} settled, {exact_facts} exact");
    }

    #[test]
    fn why_tells_open_facts_from_inconsistent_games() {
        let game = Game::from_json(
            r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c"],
                "me": "a", "hand": ["mu", "pl", "gr", "pe", "sc", "kn"], "events": [
                {"suggestion": {"by": "b", "cards": ["wh", "ca", "ha"], "refuted_by": "c"}}]}"#,
        )
        .unwrap();
        let card = |id| game.deck().card(id).unwrap();
        let place = |id| game.place(id).unwrap();
        // a holds every suspect but White, so White is in the case file and
        // c showed ca or ha: the hand alone forces it.
        let o = CountOptions::default();
        let Why::Certain { status, explanation } = why(&game, card("wh"), Place::CaseFile, &o).unwrap() else {
            panic!("certain")
        };
        assert_eq!(status, Status::Yes);
        assert_eq!(explanation, Explanation { events: vec![], hand: true, minimum: true });
        assert_eq!(why(&game, card("ca"), place("c"), &o).unwrap(), Why::NotCertain);

        // A correct accusation naming a card that a holds contradicts the hand.
        let bad = game
            .with_event(crate::format::EventSpec::Accusation(crate::format::AccusationSpec {
                by: "b".into(),
                cards: vec!["mu".into(), "ca".into(), "ha".into()],
                correct: true,
            }))
            .unwrap();
        assert_eq!(why(&bad, card("wh"), Place::CaseFile, &o).unwrap(), Why::Inconsistent);
        assert_eq!(conflict(&bad, &o).unwrap().unwrap().events, vec![1]);
    }

    #[test]
    fn ratio_handles_huge_counts() {
        assert_eq!(ratio(1, 4), 0.25);
        assert!((ratio(u128::MAX / 3, u128::MAX) - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(ratio(5, 0), 0.0);
    }
}
