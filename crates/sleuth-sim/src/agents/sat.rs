//! The SAT agent: complete deduction by a SAT solver, no probabilities.

use super::random_card;
use super::tactics::{reshow_pool, suggest_by_tiers};
use crate::agent::{Agent, SimRng, View};
use crate::sat::{decision_order, game_cnf, rename, OPTIONS};
use sleuth_core::advice::focused_tiers;
use sleuth_core::knowledge::dimacs_var;
use sleuth_core::{Card, CardSet, Game, Place, Player, Status};
use sleuth_logic::{Clause, Dpll, Lit, Model, SolveResult, Var};
use std::collections::VecDeque;

/// How many recent models are kept as witnesses between updates.
const MAX_WITNESSES: usize = 64;

/// What a player's view entails about every card and place, decided by
/// `sleuth-logic`'s DPLL solver on the game's CNF.
///
/// The CNF is `sleuth_core::knowledge::to_dimacs` of the view (one variable
/// per card and place, auxiliary counter variables for the hand sizes; one
/// model per consistent deal). A cell is `Yes` when the clauses with "the
/// card is not there" are unsatisfiable, `No` when those with "the card is
/// there" are, and `Maybe` otherwise: the seed's `testLiteral`. This is
/// complete: a cell is `Yes` or `No` exactly when every consistent deal
/// agrees, the same answers as the exact engine (the tests check it).
///
/// The solver is asked only what nothing cheaper settles; none of this
/// changes an answer, only how many questions reach the solver:
///
/// - **Witnesses**: a model (a consistent deal) answers "satisfiable" to
///   every question it makes true: for each card, "it is at its place in the
///   model" and "it is not at each other place". Models found earlier are
///   kept (the last 64), and those that still fit the grown
///   history (checked by playing the rules, `Game::fits`)
///   answer questions again.
/// - **Swapped witnesses**: before asking the solver for a model with a card
///   at (or away from) a place, it tries swapping that card with another
///   card in a kept model and checks the result by the rules. This finds
///   most models without the solver: in measurements on generated games it
///   cut the questions asked tenfold, leaving mostly the unsatisfiable ones,
///   which are the facts being proved.
/// - **Monotonicity**: the history only grows, so a `Yes` or `No` stays (call
///   [`SatKnowledge::reset`] for a new game); earlier facts go to the solver
///   as unit clauses, which keeps every model and shortens the search.
/// - **One place per card**: a card that is certainly at one place is
///   certainly at no other, which needs no question.
///
/// On a classic game an update takes a few milliseconds to a few tens; on the
/// master deck with many players, up to a few hundred (DPLL without clause
/// learning, on a CNF with tens of thousands of clauses).
#[derive(Clone, Debug, Default)]
pub struct SatKnowledge {
    /// The number of events of the last view decided, if any.
    events: Option<usize>,
    num_players: usize,
    /// `status[card][place index]`.
    status: Vec<Vec<Status>>,
    /// Recent models, as each card's place.
    witnesses: VecDeque<Vec<Option<Place>>>,
    consistent: bool,
    queries: u64,
    unsat: u64,
}

impl SatKnowledge {
    /// Knowledge of nothing yet; [`SatKnowledge::update`] fills it.
    pub fn new() -> SatKnowledge {
        SatKnowledge::default()
    }

    /// Forgets everything (a new game).
    pub fn reset(&mut self) {
        *self = SatKnowledge::new();
    }

    /// The status of a cell as of the last update.
    pub fn status(&self, card: Card, place: Place) -> Status {
        self.status[card.index()][place.index(self.num_players)]
    }

    /// Whether some deal fits the last view decided.
    pub fn is_consistent(&self) -> bool {
        self.consistent
    }

    /// The satisfiability questions asked so far.
    pub fn queries(&self) -> u64 {
        self.queries
    }

    /// The questions answered "unsatisfiable" so far (one per fact proved).
    pub fn proofs(&self) -> u64 {
        self.unsat
    }

    /// The case file if every category has a card certainly in it.
    pub fn certain_case_file(&self, game: &Game) -> Option<CardSet> {
        if !self.consistent {
            return None;
        }
        let deck = game.deck();
        let mut out = CardSet::EMPTY;
        for cat in deck.categories() {
            out.insert(deck.category_cards(cat).iter().find(|&c| self.status(c, Place::CaseFile) == Status::Yes)?);
        }
        Some(out)
    }

    /// Decides every cell of `game`, which must extend the game of the last
    /// update (the same deck, players and hand, and more events), or be the
    /// first one since [`SatKnowledge::new`] or [`SatKnowledge::reset`].
    pub fn update(&mut self, game: &Game) {
        let events = game.events().len();
        match self.events {
            Some(n) if n == events => return,
            Some(n) if n > events => self.reset(),
            _ => {}
        }
        let deck = game.deck();
        let n = game.num_players();
        let num_places = n + 1;
        if self.events.is_none() {
            self.num_players = n;
            self.status = vec![vec![Status::Maybe; num_places]; deck.len()];
        }
        self.events = Some(events);

        // The solver is built only if some question needs it: often the
        // witnesses answer everything.
        let mut solver: Option<Solver> = None;
        self.witnesses.retain(|w| game.fits(w));
        if self.witnesses.is_empty() {
            self.queries += 1;
            match solver.get_or_insert_with(|| Solver::new(game, &self.status)).solve(game, None) {
                Some(w) => self.witnesses.push_back(w),
                None => {
                    self.consistent = false;
                    return;
                }
            }
        }
        self.consistent = true;
        // `seen[card][place]`: bit 1 if a witness has the card there, bit 2 if not.
        let mut seen = vec![vec![0u8; num_places]; deck.len()];
        let record = |w: &[Option<Place>], seen: &mut [Vec<u8>]| {
            for (c, row) in seen.iter_mut().enumerate() {
                for (i, s) in row.iter_mut().enumerate() {
                    *s |= if w[c] == Some(Place::from_index(i, n)) { 1 } else { 2 };
                }
            }
        };
        for w in &self.witnesses {
            record(w, &mut seen);
        }
        let face_up = game.face_up();
        for card in deck.cards() {
            let c = card.index();
            if face_up.contains(card) {
                self.status[c].fill(Status::No);
                continue;
            }
            for i in 0..num_places {
                if self.status[c].contains(&Status::Yes) {
                    break;
                }
                if self.status[c][i] != Status::Maybe {
                    continue;
                }
                let place = Place::from_index(i, n);
                for (at, bit, if_unsat) in [(true, 1u8, Status::No), (false, 2u8, Status::Yes)] {
                    if seen[c][i] & bit != 0 {
                        continue;
                    }
                    let found = swap_witness(game, &self.witnesses, card, place, at).or_else(|| {
                        self.queries += 1;
                        let solver = solver.get_or_insert_with(|| Solver::new(game, &self.status));
                        solver.solve(game, Some((card, place, at)))
                    });
                    match found {
                        Some(w) => {
                            record(&w, &mut seen);
                            if self.witnesses.len() == MAX_WITNESSES {
                                self.witnesses.pop_front();
                            }
                            self.witnesses.push_back(w);
                        }
                        None => {
                            self.unsat += 1;
                            self.status[c][i] = if_unsat;
                            break;
                        }
                    }
                }
            }
            // One place per card.
            if let Some(j) = self.status[c].iter().position(|&s| s == Status::Yes) {
                for (k, s) in self.status[c].iter_mut().enumerate() {
                    *s = if k == j { Status::Yes } else { Status::No };
                }
            }
        }
    }
}

/// The DPLL solver on the game's CNF, atoms renumbered by [`decision_order`].
struct Solver {
    dpll: Dpll,
    /// `order[old variable]`: the solver's number for it.
    order: Vec<u32>,
}

impl Solver {
    /// The solver for `game`'s CNF, with the facts of `status` (already
    /// proved for a prefix of this history, so still entailed) as unit
    /// clauses: they keep every model and cut the search.
    fn new(game: &Game, status: &[Vec<Status>]) -> Solver {
        let cnf = game_cnf(game);
        let atoms = (game.num_places() * game.deck().len()) as u32;
        let order = decision_order(&cnf, atoms);
        let mut dpll = Dpll::with_options(OPTIONS);
        dpll.add_cnf(&rename(&cnf, &order));
        let mut solver = Solver { dpll, order };
        for card in game.deck().cards() {
            for (i, &s) in status[card.index()].iter().enumerate() {
                let l = solver.lit(game, card, Place::from_index(i, game.num_players()));
                match s {
                    Status::Yes => solver.dpll.add_clause(&Clause::new([l])),
                    Status::No => solver.dpll.add_clause(&Clause::new([!l])),
                    Status::Maybe => {}
                }
            }
        }
        solver
    }

    /// The solver's literal of "card is at place".
    fn lit(&self, game: &Game, card: Card, place: Place) -> Lit {
        let v = dimacs_var(game, card, place) as usize;
        Var::new(self.order[v]).expect("renumbered from 1").positive()
    }

    /// A consistent deal, with `card` at `place` (`at`) or not at it
    /// (`!at`) when asked; `None` if there is none.
    fn solve(&mut self, game: &Game, assume: Option<(Card, Place, bool)>) -> Option<Vec<Option<Place>>> {
        let assumptions: Vec<Lit> = assume
            .map(|(card, place, at)| {
                let l = self.lit(game, card, place);
                if at {
                    l
                } else {
                    !l
                }
            })
            .into_iter()
            .collect();
        match self.dpll.solve_with(&assumptions) {
            SolveResult::Sat(m) => Some(self.deal(game, &m)),
            SolveResult::Unsat => None,
        }
    }

    /// The deal of a model: each card's place (`None` for face-up cards).
    fn deal(&self, game: &Game, m: &Model) -> Vec<Option<Place>> {
        game.deck().cards().map(|c| game.places().find(|&p| m.get(self.lit(game, c, p).var()) == Some(true))).collect()
    }
}

/// A consistent deal with `card` at `place` (`at`) or not at it (`!at`),
/// made by swapping `card` with one other card in one of the witnesses, if
/// such a swap fits the history. A swap keeps every hand size, and keeps one
/// case-file card per category when it swaps within the category, so the
/// rules of play (`Game::fits`) are all that is left to check.
fn swap_witness(
    game: &Game,
    witnesses: &VecDeque<Vec<Option<Place>>>,
    card: Card,
    place: Place,
    at: bool,
) -> Option<Vec<Option<Place>>> {
    let deck = game.deck();
    let category = deck.category_cards(deck.category(card));
    for w in witnesses.iter().rev() {
        let Some(from) = w[card.index()] else { continue };
        if (from == place) == at {
            continue;
        }
        for other in deck.cards() {
            let Some(to) = w[other.index()] else { continue };
            let lands = if at { to == place } else { to != place };
            let same_category = category.contains(other);
            if to == from || !lands || ((from == Place::CaseFile || to == Place::CaseFile) && !same_category) {
                continue;
            }
            let mut deal = w.clone();
            deal[card.index()] = Some(to);
            deal[other.index()] = Some(from);
            if game.fits(&deal) {
                return Some(deal);
            }
        }
    }
    None
}

/// Complete deduction without probabilities.
///
/// - **Knows** what [`SatKnowledge`] decides: exactly the yes/no facts of
///   the exact engine, found by a SAT solver instead of by counting.
/// - **Accuses** as soon as every category has a card certainly in the case
///   file, and never otherwise, so it is never wrong.
/// - **Suggests** by yes/no/maybe alone. In each category whose culprit is
///   unknown it names a card that may be in the case file, preferring the
///   cards with the fewest possible places (the nearest to being settled:
///   when only the case file and one player are left, any answer about it
///   may decide it). In a category whose culprit is known it names the
///   culprit or one of its own cards, which nobody can refute, so that the
///   answer concerns the open categories. If nobody refutes, every open card
///   named is in the case file. It never repeats one of its own suggestions
///   while another combination is left.
/// - **Refutes** with a card it has already shown to the same suggester if it
///   can (nothing new is given away), otherwise a random matching card.
#[derive(Clone, Debug, Default)]
pub struct SatAgent {
    knowledge: SatKnowledge,
}

impl SatAgent {
    /// A new SAT agent.
    pub fn new() -> SatAgent {
        SatAgent::default()
    }

    /// The knowledge of `view`, brought up to date.
    pub fn knowledge(&mut self, view: &View<'_>) -> &SatKnowledge {
        self.knowledge.update(view.game());
        &self.knowledge
    }
}

impl Agent for SatAgent {
    fn name(&self) -> &str {
        "sat"
    }

    fn new_game(&mut self, _view: &View<'_>, _rng: &mut SimRng) {
        self.knowledge.reset();
    }

    fn accuse(&mut self, view: &View<'_>, _rng: &mut SimRng) -> Option<CardSet> {
        self.knowledge(view).certain_case_file(view.game())
    }

    fn suggest(&mut self, view: &View<'_>, rng: &mut SimRng) -> CardSet {
        let game = view.game();
        let hand = view.hand();
        let k = self.knowledge(view);
        let places: Vec<Place> = game.places().collect();
        let possible = |c: Card| places.iter().filter(|&&p| k.status(c, p) != Status::No).count();
        suggest_by_tiers(view, rng, |cards| {
            focused_tiers(cards, hand, places.len(), |c| k.status(c, Place::CaseFile), possible)
        })
    }

    fn choose_card_to_show(
        &mut self,
        view: &View<'_>,
        suggester: Player,
        _suggestion: CardSet,
        candidates: CardSet,
        rng: &mut SimRng,
    ) -> Card {
        random_card(reshow_pool(view, suggester, candidates), rng)
    }
}
