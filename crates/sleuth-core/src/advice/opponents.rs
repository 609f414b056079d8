//! How close each opponent is to solving the case, estimated from the
//! observer's view.
//!
//! An opponent's exact knowledge is the public events, its own hand, and the
//! cards shown to it. The observer does not know that hand nor most of those
//! cards, so the model samples them: deals are drawn exactly uniformly from
//! the observer's consistent deals, and in each the opponent's view is
//! rebuilt exactly (its hand from the deal; each card shown to it is the one
//! the observer saw it shown, or else a uniformly chosen card of the deal's
//! refuter among the suggested ones, as in the answer model of
//! [`super::SuggestionEval`]). Each rebuilt view is analysed exactly.
//!
//! The views are what costs (on master 10-player states about a
//! millisecond each, nine opponents a deal), so the player's estimate
//! counts views only where it must, within a [`ThreatBudget`] counted in
//! the counter's states, not in time, and says what the sampling cost in
//! accuracy: a 95 % interval per opponent. Whether a view is certain of
//! the case file rarely needs a count: the sampled deal is one the view
//! allows, and where swapping a case-file card with another card of its
//! category still fits every event the view knows, the view allows two
//! case files ([`other_case_file`]). So the threat of knowing the case
//! file now is estimated from every sampled deal, and only the mean
//! entropy, which needs each view's count, from the first few.
//!
//! Where the observer's deals are few, nothing is sampled: every deal is
//! listed ([`UniformSampler::deals`]), every way the unseen shown cards can
//! have fallen weighed by its chance, and each distinct view counted once,
//! if they are few enough ([`ThreatBudget::exact_views`]); the numbers
//! are then exact ([`OpponentProgress::exact`]).
//!
//! Two estimates of the threat use those views:
//!
//! - [`Position::opponents_by_knowledge`], the one the player's advice
//!   uses: the chance that the opponent *can know* the case file by the end
//!   of its next turn, from its knowledge alone. In each sampled view it is
//!   1 when the view is already certain, and otherwise the exact chance (by
//!   that view's own counts) that its best question (the one most likely to
//!   end the game among a shortlist, [`Position::best_end_probability`]) makes it
//!   certain. It assumes an opponent who reasons perfectly and asks the
//!   question most likely to solve, and who accuses only when certain; it
//!   knows nothing of how Sleuth's own agents play.
//! - [`Position::opponents`], the playing agent's cheaper estimate: the
//!   solve rates of Sleuth's `sat` agents ([`solve_chance`]).

use super::entropy::{case_file_candidates, case_file_entropy, certain_case_file};
use super::Position;
use crate::count::{count_marginals, CountError, CountOptions, Progress};
use crate::deduce::CountProblem;
use crate::model::{Card, CardSet, Event, Game, Place, Player};
use crate::sample::{Deal, UniformSampler};
use rand::seq::IteratorRandom;
use rand::Rng;
use std::cell::Cell;
use std::collections::hash_map::Entry;
use std::collections::HashMap;

/// One opponent's estimated progress.
#[derive(Clone, Debug, PartialEq)]
pub struct OpponentProgress {
    /// The opponent.
    pub player: Player,
    /// Whether it is out (made a wrong accusation): it cannot win.
    pub out: bool,
    /// The estimated probability that it knows the case file now.
    pub solved: f64,
    /// The estimated probability that it solves the case and accuses before
    /// the observer's next turn: by [`Position::opponents_by_knowledge`],
    /// the chance that it knows the case file now or (with `lookahead`)
    /// by the end of its next turn; by [`Position::opponents`], from
    /// [`solve_chance`].
    pub threat: f64,
    /// A 95 % interval for `threat` from the sampling: the Wilson score
    /// interval of the mean over the `samples` views (each view's value is
    /// in [0, 1], so its variance is at most a coin's of the same mean and
    /// the interval is conservative). It says how far the sampling alone
    /// may be off, not how good the opponent model is.
    pub threat_interval: (f64, f64),
    /// Whether `threat` looks ahead to the opponent's next question (else
    /// it counts only knowing the case file now).
    pub lookahead: bool,
    /// Its mean case-file entropy, in bits, over the views of the first
    /// `entropy_samples` sampled deals.
    pub entropy: f64,
    /// How many sampled views `solved` and `threat` are from; where
    /// `exact`, how many consistent deals (every one).
    pub samples: usize,
    /// How many of them (the first) `entropy` is from: each needs the
    /// view's count, which the others may skip ([`ThreatBudget`]).
    pub entropy_samples: usize,
    /// Whether `solved`, `threat` and `entropy` are exact: the means over
    /// every consistent deal and every way the cards shown to the opponent
    /// can have fallen, not over a sample (`threat_interval` is then the
    /// point `threat`).
    pub exact: bool,
}

/// The chance that a player who reasons exactly, whose view leaves `open`
/// eliminations to make (`Σ_k (candidates_k − 1)` over categories), is
/// certain of the case file after its next suggestion, at a table of
/// `players` players.
///
/// Measured, not guessed: the share of suggestions by `sat` agents (complete
/// deduction) after which their view was certain, by `open` before it, in
/// 600 three-player and 1,200 four- to six-player classic games (`cargo run
/// --release -p sleuth-sim --example solve_chance`, BENCHMARKS.md
/// "Strength"). Few eliminations left is not the whole story: a suggestion
/// nobody refutes, or a shown card that completes a deduction, settles several
/// at once, so even 5 to 8 open candidates solve 10–30 % of the time.
pub fn solve_chance(open: usize, players: usize) -> f64 {
    const THREE: [f64; 13] = [1.0, 1.0, 0.53, 0.36, 0.32, 0.27, 0.25, 0.15, 0.12, 0.08, 0.07, 0.04, 0.02];
    const MORE: [f64; 13] = [1.0, 1.0, 0.33, 0.23, 0.19, 0.13, 0.10, 0.10, 0.08, 0.06, 0.06, 0.05, 0.016];
    let table = if players <= 3 { &THREE } else { &MORE };
    table[open.min(table.len() - 1)]
}

impl Position<'_> {
    /// Every player but the observer, in seat order.
    fn opponent_seats(&self) -> impl Iterator<Item = Player> + '_ {
        self.game.players().filter(|&j| j != self.me)
    }

    /// Every opponent's estimated progress, from `samples` deals drawn from
    /// the observer's consistent deals (at least one).
    ///
    /// # Errors
    /// [`CountError`] from the counts.
    pub fn opponents<R: Rng + ?Sized>(&self, samples: usize, rng: &mut R) -> Result<Vec<OpponentProgress>, CountError> {
        let samples = samples.max(1);
        let Some(sampler) = UniformSampler::new(&self.problem, &self.count)? else { return Ok(Vec::new()) };
        let deals: Vec<_> = (0..samples).map(|_| sampler.sample(rng)).collect();
        let public = CountProblem::new(&self.game.bystander());
        let mut out = Vec::new();
        for j in self.opponent_seats() {
            let is_out = self.game.is_out(j);
            let (mut solved, mut threat, mut entropy) = (0.0, 0.0, 0.0);
            for deal in &deals {
                let hands = self.hands(deal);
                let mut q = public.clone();
                for c in hands[j.index()] {
                    q.add_fact(c, Place::Player(j), true);
                }
                for e in self.game.events() {
                    let (r, shown) = match self.shown_to(j, e) {
                        ShownTo::Known(r, c) => (r, Some(c)),
                        ShownTo::Unseen(r, cards) => (r, (cards & hands[r.index()]).iter().choose(rng)),
                        ShownTo::Nothing => continue,
                    };
                    if let Some(c) = shown {
                        q.add_fact(c, Place::Player(r), true);
                    }
                }
                let counts = count_marginals(&q, &self.count)?;
                if counts.total == 0 {
                    continue; // cannot happen for a deal drawn from a consistent view
                }
                if certain_case_file(&self.game, &counts).is_some() {
                    solved += 1.0;
                }
                let open: usize = case_file_candidates(&self.game, &counts).iter().map(|n| n.saturating_sub(1)).sum();
                threat += solve_chance(open, self.game.num_players());
                entropy += case_file_entropy(&self.game, &counts);
            }
            let n = deals.len() as f64;
            out.push(OpponentProgress {
                player: j,
                out: is_out,
                solved: solved / n,
                threat: if is_out { 0.0 } else { threat / n },
                threat_interval: if is_out { (0.0, 0.0) } else { wilson(threat / n, deals.len()) },
                lookahead: true,
                entropy: entropy / n,
                samples: deals.len(),
                entropy_samples: deals.len(),
                exact: false,
            });
        }
        Ok(out)
    }
}

impl Position<'_> {
    /// Every opponent's progress from what it can know (see the module
    /// docs): deals drawn uniformly from the observer's view, each
    /// opponent's view rebuilt in each and analysed exactly; `threat` is the
    /// chance that the opponent is certain of the case file by the end of
    /// its next turn, its next question chosen from the `shortlist` most
    /// promising ones by its own view's counts; with `shortlist` 0
    /// (cheap), only the chance that it knows it now.
    ///
    /// The sampling goes round by round: each round draws one deal and
    /// rebuilds every opponent's view in it, in seat order. A view is
    /// counted when the look-ahead needs it, in an opponent's first
    /// `budget.entropy_samples` rounds (for its entropy) while the counts
    /// have visited less than half of `budget.states` states, and when no
    /// swap shows it uncertain: the drawn deal is one the view allows, and
    /// where swapping a case-file card with another card of its category
    /// still fits every event the view knows, it allows two case files. A
    /// view seen before is not counted again. The sampling stops after
    /// `budget.samples` rounds, or at the first view it would have to
    /// count once the counts so far visited `budget.states` states (the
    /// first round always completes, so every opponent has a view). The cost is
    /// thus measured in the counter's states, not in time: the same game,
    /// seed and budget give the same numbers on every machine, and a
    /// smaller budget gives a prefix of the same sample (each opponent's
    /// estimate is the one the same seed gives with its own numbers of
    /// rounds, `samples` and `entropy_samples`, and no state budget).
    ///
    /// Where the observer's consistent deals are few enough to list and
    /// their opponents' views few enough to count within the budget
    /// ([`ThreatBudget::exact_views`]), nothing is sampled: each
    /// opponent's numbers are the means over every deal and every way the
    /// unseen shown cards can have fallen ([`OpponentProgress::exact`]).
    ///
    /// # Errors
    /// [`CountError`] from the counts.
    pub fn opponents_by_knowledge<R: Rng + ?Sized>(
        &self,
        budget: ThreatBudget,
        shortlist: usize,
        rng: &mut R,
    ) -> Result<Vec<OpponentProgress>, CountError> {
        let Some(sampler) = UniformSampler::new(&self.problem, &self.count)? else { return Ok(Vec::new()) };
        if let Some(exact) = self.opponents_exactly(&sampler, budget, shortlist)? {
            return Ok(exact);
        }
        let mut tallies: Vec<Tally> = self
            .opponent_seats()
            .map(|player| Tally {
                player,
                out: self.game.is_out(player),
                // Many deals give the opponent the same view: each is analysed once.
                seen: HashMap::new(),
                certain: 0.0,
                threat: 0.0,
                n: 0,
                entropy: 0.0,
                entropy_n: 0,
            })
            .collect();
        let mut spent = 0usize;
        'rounds: for round in 0..budget.samples.max(1) {
            let deal = sampler.sample(rng);
            for t in &mut tallies {
                let view = self.view_in_deal(t.player, &deal, rng);
                let lookahead = if t.out { 0 } else { shortlist };
                // The entropy is the mean over an unbroken run of first
                // rounds, which may spend half the budget where the threat
                // would not count the views: the rest is for the views only
                // a count settles.
                let for_entropy = t.entropy_n == t.n
                    && (lookahead > 0
                        || (t.n < budget.entropy_samples.max(1) && (round == 0 || spent < budget.states / 2)));
                let v = match t.seen.get(&view) {
                    Some(&v) => v,
                    None => {
                        let over = round > 0 && spent >= budget.states;
                        let game = self.game.seen_by(t.player, view.0, |i| view.1[i]);
                        let v = if lookahead == 0 && !for_entropy && other_case_file(&game, &deal) {
                            ViewProgress { certain: 0.0, threat: 0.0, entropy: None }
                        } else if over {
                            break 'rounds;
                        } else {
                            let (v, states) = view_progress(&game, lookahead, &self.count)?;
                            spent = spent.saturating_add(states);
                            v
                        };
                        t.seen.insert(view, v);
                        v
                    }
                };
                t.certain += v.certain;
                t.threat += v.threat;
                t.n += 1;
                if let (true, Some(h)) = (for_entropy, v.entropy) {
                    t.entropy += h;
                    t.entropy_n += 1;
                }
            }
        }
        Ok(tallies
            .into_iter()
            .map(|t| {
                let n = t.n as f64;
                let threat = if t.out { 0.0 } else { t.threat / n };
                OpponentProgress {
                    player: t.player,
                    out: t.out,
                    solved: t.certain / n,
                    threat,
                    threat_interval: if t.out { (0.0, 0.0) } else { wilson(threat, t.n) },
                    lookahead: shortlist > 0,
                    entropy: t.entropy / t.entropy_n as f64,
                    samples: t.n,
                    entropy_samples: t.entropy_n,
                    exact: false,
                }
            })
            .collect())
    }

    /// Every opponent's progress over every consistent deal and, in each,
    /// every way the cards shown to it that the observer did not see can
    /// have fallen (a refuter holding several of the suggested cards shows
    /// each with equal chance): each distinct view is counted once and
    /// weighted by its chance. `None` (sample instead) where the budget
    /// allows no exact answer: more than [`EXACT_DEALS`] deals, more than
    /// `budget.exact_views` distinct views in all, or counts that would
    /// pass twice `budget.states` at the mean cost of those so far.
    ///
    /// # Errors
    /// [`CountError`] from the counts.
    fn opponents_exactly(
        &self,
        sampler: &UniformSampler,
        budget: ThreatBudget,
        shortlist: usize,
    ) -> Result<Option<Vec<OpponentProgress>>, CountError> {
        if budget.exact_views == 0 {
            return Ok(None);
        }
        let Some(deals) = sampler.deals(EXACT_DEALS) else { return Ok(None) };
        // Per opponent, the events whose shown card the observer did not
        // see, and each distinct view (its hand and the cards it saw shown
        // there) with its chance, in the order first met; deal by deal, so
        // that too many views stop the listing early.
        let mut opponents: Vec<ExactTally> = self
            .opponent_seats()
            .map(|player| ExactTally {
                player,
                unseen: self.unseen_shown(player),
                index: HashMap::new(),
                views: Vec::new(),
            })
            .collect();
        let mut distinct = 0usize;
        let per_deal = 1.0 / deals.len() as f64;
        for deal in &deals {
            let hands = self.hands(deal);
            for t in &mut opponents {
                // The cards each refuter may have shown, and how many ways in all.
                let choices: Vec<CardSet> = t.unseen.iter().map(|&(r, cards)| cards & hands[r.index()]).collect();
                let ways = choices.iter().try_fold(1usize, |n, c| n.checked_mul(c.len()));
                if ways.is_none_or(|n| distinct + n > budget.exact_views) {
                    return Ok(None); // more views than the budget (each way is a view)
                }
                let chance = per_deal / ways.unwrap_or(1) as f64;
                for shown in every_choice(&choices) {
                    match t.index.entry((hands[t.player.index()], shown)) {
                        Entry::Occupied(seen) => t.views[*seen.get()].1 += chance,
                        Entry::Vacant(new) => {
                            distinct += 1;
                            if distinct > budget.exact_views {
                                return Ok(None);
                            }
                            t.views.push((new.key().clone(), chance));
                            new.insert(t.views.len() - 1);
                        }
                    }
                }
            }
        }
        let (mut spent, mut counted) = (0usize, 0usize);
        let mut out = Vec::new();
        for t in opponents {
            let out_of_game = self.game.is_out(t.player);
            let lookahead = if out_of_game { 0 } else { shortlist };
            let (mut certain, mut threat, mut entropy) = (0.0, 0.0, 0.0);
            for ((hand, unseen), p) in t.views {
                // The card it saw shown per event: known, the next of `unseen`, or none.
                let mut unseen = unseen.into_iter();
                let shown: Vec<Option<Card>> = (self.game.events().iter())
                    .map(|e| match self.shown_to(t.player, e) {
                        ShownTo::Known(_, c) => Some(c),
                        ShownTo::Unseen(..) => unseen.next(),
                        ShownTo::Nothing => None,
                    })
                    .collect();
                let game = self.game.seen_by(t.player, hand, |i| shown[i]);
                let (v, states) = view_progress(&game, lookahead, &self.count)?;
                spent = spent.saturating_add(states);
                counted += 1;
                // The exact answer may spend twice the sampling's budget:
                // giving up at the budget and sampling after would spend
                // as much. It gives up as soon as the views counted so far
                // say the rest will not fit, as the sampling reuses none of
                // this work.
                let expected = (spent / counted).saturating_mul(distinct - counted);
                if spent.saturating_add(expected) > budget.states.saturating_mul(2) {
                    return Ok(None);
                }
                certain += p * v.certain;
                threat += p * v.threat;
                entropy += p * v.entropy.unwrap_or(0.0);
            }
            // Chances summed in floating point may pass 1 by a rounding.
            let (certain, threat) = (certain.min(1.0), if out_of_game { 0.0 } else { threat.min(1.0) });
            out.push(OpponentProgress {
                player: t.player,
                out: out_of_game,
                solved: certain,
                threat,
                threat_interval: (threat, threat),
                lookahead: shortlist > 0,
                entropy,
                samples: deals.len(),
                entropy_samples: deals.len(),
                exact: true,
            });
        }
        Ok(Some(out))
    }

    /// Per suggestion `player` made whose shown card the observer did not
    /// see: the refuter and the suggested cards, in event order.
    fn unseen_shown(&self, player: Player) -> Vec<(Player, CardSet)> {
        let events = self.game.events().iter();
        events
            .filter_map(|e| match self.shown_to(player, e) {
                ShownTo::Unseen(r, cards) => Some((r, cards)),
                _ => None,
            })
            .collect()
    }

    /// What `player` saw shown at event `e`, as far as the observer knows.
    fn shown_to(&self, player: Player, e: &Event) -> ShownTo {
        match e {
            Event::Suggestion(s) if s.by == player => match (s.refuted_by, s.shown) {
                (Some(r), Some(c)) if r == self.me => ShownTo::Known(r, c),
                (Some(r), _) => ShownTo::Unseen(r, s.cards),
                (None, _) => ShownTo::Nothing,
            },
            _ => ShownTo::Nothing,
        }
    }

    /// Every player's hand in `deal`, by seat.
    fn hands(&self, deal: &Deal) -> Vec<CardSet> {
        let mut hands = vec![CardSet::EMPTY; self.game.num_players()];
        for c in self.game.deck().cards() {
            if let Some(Place::Player(p)) = deal[c.index()] {
                hands[p.index()].insert(c);
            }
        }
        hands
    }

    /// `player`'s hand in `deal` and, per event, the card it saw shown: the
    /// one the observer saw shown to it, or else a uniformly chosen card of
    /// the deal's refuter among the suggested ones.
    fn view_in_deal<R: Rng + ?Sized>(&self, player: Player, deal: &Deal, rng: &mut R) -> OpponentView {
        let hands = self.hands(deal);
        let shown = (self.game.events().iter())
            .map(|e| match self.shown_to(player, e) {
                ShownTo::Known(_, c) => Some(c),
                ShownTo::Unseen(r, cards) => (cards & hands[r.index()]).iter().choose(rng),
                ShownTo::Nothing => None,
            })
            .collect();
        (hands[player.index()], shown)
    }
}

/// An opponent's rebuilt view: its hand and, per event, the card it saw shown.
type OpponentView = (CardSet, Vec<Option<Card>>);

/// What an opponent saw shown at one event, as far as the observer knows:
/// the card the observer showed it, the refuter and suggested cards where
/// the observer did not see which was shown, or nothing shown to it.
enum ShownTo {
    Known(Player, Card),
    Unseen(Player, CardSet),
    Nothing,
}

/// One opponent's views in [`Position::opponents_exactly`]: its hand and
/// the card it saw shown at each of its `unseen` events, with its chance.
struct ExactTally {
    player: Player,
    unseen: Vec<(Player, CardSet)>,
    index: HashMap<(CardSet, Vec<Card>), usize>,
    views: Vec<((CardSet, Vec<Card>), f64)>,
}

/// Every choice of one card from each set, in order (one empty choice for
/// no sets).
fn every_choice(sets: &[CardSet]) -> Vec<Vec<Card>> {
    sets.iter().fold(vec![Vec::new()], |ways, set| {
        ways.iter().flat_map(|way| set.iter().map(move |c| [way.as_slice(), &[c]].concat())).collect()
    })
}

/// How much [`Position::opponents_by_knowledge`] may spend: at most
/// `samples` rounds (deals), views counted for the entropy alone in the
/// first `entropy_samples` rounds only and within half of `states`, and
/// no new view counted once `states` states have been visited by its
/// counts (see there).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ThreatBudget {
    /// The most deals drawn (at least one).
    pub samples: usize,
    /// In how many rounds (the first) every view is counted for its
    /// entropy; later views are counted only where the threat needs it.
    pub entropy_samples: usize,
    /// The states the views' counts may visit, summed over all of them,
    /// each count charged [`COUNT_CHARGE`] on top
    /// ([`Counts::states`](crate::Counts::states) of each view's count, and
    /// for the look-ahead the states and passes its counts report through
    /// [`CountOptions::progress`]).
    pub states: usize,
    /// The most distinct views (over every opponent) counted for an exact
    /// answer instead of a sample, where the observer's consistent deals
    /// are at most [`EXACT_DEALS`]; 0 always samples. Their counts may
    /// visit twice `states` (giving up on them at `states` and sampling
    /// after would cost as much).
    pub exact_views: usize,
}

/// The most consistent deals listed for the opponents' exact progress
/// ([`ThreatBudget::exact_views`]): listing them and their views is cheap
/// beside a count; it is the views' counts that the budget bounds.
pub const EXACT_DEALS: u128 = 1024;

/// What [`ThreatBudget::states`] charges each count on top of the states it
/// visits: setting a count up (propagation, the plan, the card order) takes
/// about as long as visiting this many states. Measured: over 4,400
/// rebuilt views of master 10-player states (10 and 20 suggestions), a
/// view's count took about 370 µs plus 0.1 µs per state.
pub const COUNT_CHARGE: usize = 4_000;

impl ThreatBudget {
    /// No limit but `samples` deals, every view counted, never exact.
    pub fn samples(samples: usize) -> ThreatBudget {
        ThreatBudget { samples, entropy_samples: samples, states: usize::MAX, exact_views: 0 }
    }
}

/// One opponent's sampling so far.
struct Tally {
    player: Player,
    out: bool,
    seen: HashMap<OpponentView, ViewProgress>,
    /// The sums of `certain` and `threat` over the views sampled (`n` of
    /// them, repeats included) ...
    certain: f64,
    threat: f64,
    n: usize,
    /// ... and of the entropy over the first `entropy_n`.
    entropy: f64,
    entropy_n: usize,
}

/// One rebuilt view's progress: 1 if it is certain of the case file, the
/// chance it is certain after its best next question among a shortlist (1
/// when certain, 0 with an empty shortlist), and its case-file entropy
/// (`None` when the view was not counted).
#[derive(Copy, Clone, Debug, Default)]
struct ViewProgress {
    certain: f64,
    threat: f64,
    entropy: Option<f64>,
}

/// Whether `view` allows another case file than `deal`'s, a deal it allows
/// (the deal it was rebuilt from): whether swapping one case-file card with
/// another card of its category, held by a player, still fits every event
/// and the view's hand
/// ([`Game::fits`]; a swap keeps every hand's size). A yes is a proof that
/// the view is not certain of the case file; a no proves nothing (two
/// swaps might be needed), and the caller counts. Cheap: a few checks of
/// the events, where a count visits thousands of states.
fn other_case_file(view: &Game, deal: &Deal) -> bool {
    let deck = view.deck();
    let mut swapped = deal.clone();
    for c in deck.cards().filter(|c| deal[c.index()] == Some(Place::CaseFile)) {
        for x in deck.category_cards(deck.category(c)) {
            let Some(holder) = deal[x.index()].filter(|&q| q != Place::CaseFile) else { continue };
            swapped[c.index()] = Some(holder);
            swapped[x.index()] = Some(Place::CaseFile);
            let fits = view.fits(&swapped);
            swapped[c.index()] = Some(Place::CaseFile);
            swapped[x.index()] = Some(holder);
            if fits {
                return true;
            }
        }
    }
    false
}

/// One rebuilt view's progress with the states its counts visited.
fn view_progress(
    game: &Game,
    shortlist: usize,
    options: &CountOptions<'_>,
) -> Result<(ViewProgress, usize), CountError> {
    let problem = CountProblem::new(game);
    let counts = count_marginals(&problem, options)?;
    let states = counts.states.saturating_add(COUNT_CHARGE);
    if counts.total == 0 {
        // Cannot happen for a deal drawn from a consistent view.
        return Ok((ViewProgress { entropy: Some(0.0), ..ViewProgress::default() }, states));
    }
    let entropy = Some(case_file_entropy(game, &counts));
    if certain_case_file(game, &counts).is_some() {
        return Ok((ViewProgress { certain: 1.0, threat: 1.0, entropy }, states));
    }
    let unsolved = ViewProgress { certain: 0.0, threat: 0.0, entropy };
    if shortlist == 0 {
        return Ok((unsolved, states));
    }
    // The look-ahead's counts happen inside the suggestion evaluation: their
    // states are heard through the progress callback.
    let meter = StateMeter::default();
    let metered = options.progress(&meter);
    let Ok(pos) = Position::from_counts(game, problem, counts, &metered) else { return Ok((unsolved, states)) };
    let threat = pos.best_end_probability(shortlist)?;
    Ok((ViewProgress { threat, ..unsolved }, states.saturating_add(meter.total.get())))
}

/// Sums what the passes a progress callback hears cost: each report is the
/// states its pass has visited so far, so a report below the last one
/// starts a new pass, charged [`COUNT_CHARGE`]. (A pass that starts above
/// the last one's end is heard as its continuation: only a pass after a
/// pass of a few states, a small undercount.)
#[derive(Default)]
struct StateMeter {
    total: Cell<usize>,
    last: Cell<usize>,
}

impl Progress for StateMeter {
    fn visited(&self, states: usize) {
        let new = match states.checked_sub(self.last.get()) {
            Some(more) if self.last.get() > 0 => more,
            _ => states.saturating_add(COUNT_CHARGE),
        };
        self.total.set(self.total.get().saturating_add(new));
        self.last.set(states);
    }
}

/// The 95 % Wilson score interval of a mean `p` of `n` values in [0, 1].
pub fn wilson(p: f64, n: usize) -> (f64, f64) {
    const Z: f64 = 1.959_963_984_540_054;
    let (p, n) = (p.clamp(0.0, 1.0), n.max(1) as f64);
    let z2 = Z * Z / n;
    let centre = (p + z2 / 2.0) / (1.0 + z2);
    let half = Z * (p * (1.0 - p) / n + z2 / (4.0 * n)).max(0.0).sqrt() / (1.0 + z2);
    // The interval always holds `p`; said outright, as rounding can miss it at 0 and 1.
    ((centre - half).clamp(0.0, p), (centre + half).clamp(p, 1.0))
}

/// The probability that at least one opponent solves before the observer's
/// next turn, treating opponents as independent.
pub fn combined_threat(opponents: &[OpponentProgress]) -> f64 {
    1.0 - opponents.iter().map(|o| 1.0 - o.threat).product::<f64>()
}

#[cfg(test)]
mod tests {
    use super::{solve_chance, wilson};

    #[test]
    fn wilson_intervals_hold_the_mean_and_match_known_values() {
        // 0 of 32 and 16 of 32, against the textbook formula's values.
        let (lo, hi) = wilson(0.0, 32);
        assert!(lo == 0.0 && (hi - 0.107_2).abs() < 1e-4, "{lo} {hi}");
        let (lo, hi) = wilson(0.5, 32);
        assert!((lo - 0.336_3).abs() < 1e-4 && (hi - 0.663_7).abs() < 1e-4, "{lo} {hi}");
        for n in [1, 2, 10, 1000] {
            for p in [0.0, 0.01, 0.3, 0.99, 1.0] {
                let (lo, hi) = wilson(p, n);
                assert!(0.0 <= lo && lo <= p && p <= hi && hi <= 1.0, "{p} of {n}: [{lo}, {hi}]");
            }
        }
    }

    #[test]
    fn solve_chance_is_a_probability_that_falls_as_candidates_grow() {
        for players in 3..=10 {
            assert_eq!(solve_chance(0, players), 1.0, "a solved player solves");
            for open in 1..40 {
                let (now, next) = (solve_chance(open, players), solve_chance(open + 1, players));
                assert!((0.0..=1.0).contains(&now) && next <= now, "{players} players, open {open}");
            }
        }
    }
}
