//! The Clue-to-SAT bridge: a game as CNF (the core's DIMACS, or the seed's
//! basic ClueReasoner clauses), the solver order that makes DPLL without
//! clause learning practical on it, and the notepad of the seed's
//! ClueReasoner computed by `testLiteral`. `sleuth notepad --engine sat`,
//! `sleuth logic` and the SAT agent ([`crate::agents::SatAgent`]) all use it.
//!
//! The game is compiled to DIMACS CNF by `sleuth_core::knowledge::to_dimacs`
//! (the card-place atoms, then auxiliary counter variables for the hand sizes
//! and the other at-least constraints), read back with
//! `sleuth_logic::parse_dimacs`, and every card-place atom is asked of one
//! incremental `sleuth_logic::Dpll` solver: `True` (the clauses entail the atom)
//! is an `O`, `False` (they entail its negation) an `X`, `Unknown` a `-`. There
//! are no probabilities: the solver decides entailment, it does not count.
//!
//! Two details make this practical with a DPLL solver that has no clause
//! learning (see [`Method`] and [`decision_order`]): the atoms are renumbered
//! so that `Heuristic::Ordered` decides the most constrained ones first, and,
//! by default, a question that a model found earlier already answers is not
//! asked again. Neither changes any answer.

use sleuth_core::knowledge::{dimacs_var, to_dimacs};
use sleuth_core::model::passed_players;
use sleuth_core::{Card, Event, Game, Knowledge, Place, Status};
use sleuth_logic::{
    parse_dimacs, Clause, Cnf, Dpll, DpllOptions, Heuristic, Lit, Model, SolveResult, Stats, Truth, Var,
};

/// The solver's options: decisions in variable order (after [`decision_order`]),
/// true first, with the pure literal rule.
///
/// With the default Jeroslow-Wang heuristic the solver branches on the
/// counters' auxiliary variables and, without clause learning, took up to 35 s
/// for one notepad of an early six-player game; see [`decision_order`].
pub const OPTIONS: DpllOptions =
    DpllOptions { heuristic: Heuristic::Ordered, pure_literals: true, watched_literals: true };

/// How the cells are decided; both give the same answers.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Method {
    /// Tests every card-place atom, as the ClueReasoner of Neller, Markov and
    /// Russell's "Clue Deduction" does: two satisfiability questions per atom
    /// (one when the first is unsatisfiable).
    TestLiteral,
    /// The same questions, skipping those that a model found by an earlier
    /// question already answers: a model with the atom true shows that
    /// "clauses ∧ atom" is satisfiable, one with it false that "clauses ∧ ¬atom"
    /// is. Only the unsatisfiable questions (the `O` and `X` cells) and the first
    /// witnesses of each `-` cell are left, which also skips most of the
    /// questions a DPLL solver without clause learning finds hard.
    Witnesses,
}

/// Which clauses describe the game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reasoner {
    /// Everything the game file says, hand sizes included (the CNF of `sleuth
    /// constraints --dimacs`), with the card counting of "Clue Deduction"'s advanced
    /// project 10.1 through a unary counter. Its notepad agrees with the exact
    /// engine's certain cells.
    Counting,
    /// Exactly the ClueReasoner of Neller, Markov and Russell's "Clue Deduction"
    /// (section 8), before its advanced projects: the four kinds of initial
    /// clauses, the hand, suggestions and accusations, and no card counting.
    Basic,
}

/// The notepad as the SAT engine sees it.
#[derive(Clone, Debug)]
pub struct SatNotepad {
    /// `cells[card][place]`, places indexed as by `Place::index`.
    cells: Vec<Vec<Truth>>,
    num_players: usize,
    consistent: bool,
    num_vars: u32,
    num_clauses: usize,
    queries: u64,
    stats: Stats,
}

impl SatNotepad {
    /// Builds the game's CNF and decides every card-place atom.
    pub fn with_method(game: &Game, method: Method) -> SatNotepad {
        SatNotepad::with_reasoner(game, Reasoner::Counting, method)
    }

    /// Builds the clauses of `reasoner` and decides every card-place atom.
    pub fn with_reasoner(game: &Game, reasoner: Reasoner, method: Method) -> SatNotepad {
        SatNotepad::with_options(game, reasoner, method, OPTIONS)
    }

    /// The same with the solver's options given (`sleuth logic dpll-clue`
    /// compares them).
    pub fn with_options(game: &Game, reasoner: Reasoner, method: Method, options: DpllOptions) -> SatNotepad {
        let cnf = match reasoner {
            Reasoner::Counting => game_cnf(game),
            Reasoner::Basic => basic_cnf(game),
        };
        let atoms = (game.num_places() * game.deck().len()) as u32;
        let order = decision_order(&cnf, atoms);
        let renamed = rename(&cnf, &order);
        let to_solver = |l: Lit| rename_lit(l, &order);

        let mut dpll = Dpll::with_options(options);
        dpll.add_cnf(&renamed);
        // `seen[v]`: bit 1 if a model with solver atom v true was found, bit 2 if false.
        let mut seen = vec![0u8; atoms as usize + 1];
        fn record(m: &Model, seen: &mut [u8]) {
            for (v, s) in seen.iter_mut().enumerate().skip(1) {
                let var = Var::new(v as u32).expect("v starts at 1");
                *s |= if m.get(var).unwrap_or(false) { 1 } else { 2 };
            }
        }
        let mut queries = 1;
        // `Dpll::stats` counts the last call only; these are the sums.
        let mut stats = Stats::default();
        fn add(sum: &mut Stats, s: Stats) {
            sum.decisions += s.decisions;
            sum.propagations += s.propagations;
            sum.conflicts += s.conflicts;
            sum.pure_literals += s.pure_literals;
            sum.clause_visits += s.clause_visits;
        }
        // An unsatisfiable clause set entails everything; say so instead.
        let first = dpll.solve();
        add(&mut stats, dpll.stats());
        let consistent = match first {
            SolveResult::Sat(m) => {
                record(&m, &mut seen);
                true
            }
            SolveResult::Unsat => false,
        };

        let num_players = game.num_players();
        let places: Vec<Place> = game.places().collect();
        let mut cells = vec![vec![Truth::False; places.len()]; game.deck().len()];
        if consistent {
            for card in game.deck().cards() {
                for &place in &places {
                    let lit = to_solver(atom(game, card, place));
                    let truth = match method {
                        Method::TestLiteral => {
                            // Asks `clauses ∧ l`, then `clauses ∧ ¬l` unless the
                            // first is unsatisfiable.
                            // `Dpll::test_literal`, spelled out to sum the work of both calls.
                            queries += 1;
                            let with = dpll.solve_with(&[lit]).is_sat();
                            add(&mut stats, dpll.stats());
                            if !with {
                                Truth::False
                            } else {
                                queries += 1;
                                let without = dpll.solve_with(&[!lit]).is_sat();
                                add(&mut stats, dpll.stats());
                                if without {
                                    Truth::Unknown
                                } else {
                                    Truth::True
                                }
                            }
                        }
                        Method::Witnesses => {
                            let (mask_true, mask_false) = if lit.is_positive() { (1, 2) } else { (2, 1) };
                            let v = lit.var().index() + 1;
                            let mut truth = Truth::Unknown;
                            for (l, mask, if_unsat) in [(lit, mask_true, Truth::False), (!lit, mask_false, Truth::True)]
                            {
                                if seen[v] & mask != 0 {
                                    continue;
                                }
                                queries += 1;
                                let result = dpll.solve_with(&[l]);
                                add(&mut stats, dpll.stats());
                                match result {
                                    SolveResult::Sat(m) => record(&m, &mut seen),
                                    SolveResult::Unsat => {
                                        truth = if_unsat;
                                        break;
                                    }
                                }
                            }
                            truth
                        }
                    };
                    cells[card.index()][place.index(num_players)] = truth;
                }
            }
        }
        SatNotepad { cells, num_players, consistent, num_vars: cnf.num_vars(), num_clauses: cnf.len(), queries, stats }
    }

    /// What the clauses say about "card is at place". Meaningless (always
    /// `False`) when the history is inconsistent.
    pub fn truth(&self, card: Card, place: Place) -> Truth {
        self.cells[card.index()][place.index(self.num_players)]
    }

    /// The same as a notepad status: `True` is yes, `False` no, `Unknown` maybe.
    pub fn status(&self, card: Card, place: Place) -> Status {
        status_of(self.truth(card, place))
    }

    /// Whether the clauses are satisfiable, that is, some deal fits the history.
    pub fn is_consistent(&self) -> bool {
        self.consistent
    }

    /// The number of variables of the CNF (atoms and auxiliary counter variables).
    pub fn num_vars(&self) -> u32 {
        self.num_vars
    }

    /// The number of clauses of the CNF.
    pub fn num_clauses(&self) -> usize {
        self.num_clauses
    }

    /// The solver's work: decisions, propagations, conflicts, pure literals.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// The number of satisfiability questions asked of the solver, including the
    /// first one (is any deal consistent?).
    pub fn queries(&self) -> u64 {
        self.queries
    }
}

/// The game as CNF, exactly as `sleuth constraints --dimacs` prints it.
///
/// # Panics
///
/// If the DIMACS text the core writes does not read back (a bug).
pub fn game_cnf(game: &Game) -> Cnf {
    let text = to_dimacs(game, &Knowledge::new(game));
    parse_dimacs(&text).expect("sleuth-core writes valid DIMACS")
}

/// The seed's ClueReasoner (section 8) without card counting, clause by clause.
///
/// Variables are the seed's `getPairNum`: place index × number of cards + card
/// index + 1, the case file being the place after the last player (the same
/// numbering as [`game_cnf`]'s atoms). The clauses:
///
/// - `addInitialClauses`: (1) each card is in at least one place; (2) in no two
///   places; (3) at least one card of each category is in the case file; (4) no
///   two cards of a category are.
/// - `hand(player, cards)`: a unit clause for each card held. The seed asks for
///   "the simple clauses representing the known possession of these cards" and
///   nothing more: no clause says the observer holds no other card (that would
///   be card counting).
/// - `suggest`: every player strictly between the suggester and the refuter
///   (every other player when nobody refuted) holds none of the three cards;
///   the refuter holds the shown card when it was seen, else one of the three.
/// - `accuse`: a correct accusation puts its three cards in the case file, a
///   wrong one says at least one of them is not there.
///
/// The game format's face-up cards, which the seed does not have, are in no
/// place: their clause (1) is left out and each of their atoms is false.
pub fn basic_cnf(game: &Game) -> Cnf {
    let deck = game.deck();
    let places: Vec<Place> = game.places().collect();
    let mut cnf = Cnf::with_vars((places.len() * deck.len()) as u32);
    let mut add = |lits: Vec<Lit>| cnf.add_clause(Clause::new(lits));
    let face_up = game.face_up();
    for card in deck.cards() {
        if face_up.contains(card) {
            for &p in &places {
                add(vec![!atom(game, card, p)]);
            }
            continue;
        }
        add(places.iter().map(|&p| atom(game, card, p)).collect());
        for (i, &p) in places.iter().enumerate() {
            for &q in &places[i + 1..] {
                add(vec![!atom(game, card, p), !atom(game, card, q)]);
            }
        }
    }
    for cat in deck.categories() {
        let cards: Vec<Card> = deck.category_cards(cat).iter().collect();
        add(cards.iter().map(|&c| atom(game, c, Place::CaseFile)).collect());
        for (i, &c) in cards.iter().enumerate() {
            for &d in &cards[i + 1..] {
                add(vec![!atom(game, c, Place::CaseFile), !atom(game, d, Place::CaseFile)]);
            }
        }
    }
    if let Some((me, hand)) = game.observer() {
        for card in hand {
            add(vec![atom(game, card, Place::Player(me))]);
        }
    }
    for event in game.events() {
        match event {
            Event::Suggestion(s) => {
                for p in passed_players(game, s.by, s.refuted_by) {
                    for card in s.cards {
                        add(vec![!atom(game, card, Place::Player(p))]);
                    }
                }
                match (s.refuted_by, s.shown) {
                    (Some(r), Some(shown)) => add(vec![atom(game, shown, Place::Player(r))]),
                    (Some(r), None) => add(s.cards.iter().map(|c| atom(game, c, Place::Player(r))).collect()),
                    (None, _) => {}
                }
            }
            Event::Accusation(a) if a.correct => {
                for card in a.cards {
                    add(vec![atom(game, card, Place::CaseFile)]);
                }
            }
            Event::Accusation(a) => add(a.cards.iter().map(|c| !atom(game, c, Place::CaseFile)).collect()),
        }
    }
    cnf
}

/// The literal "card is at place", numbered as in [`game_cnf`].
pub fn atom(game: &Game, card: Card, place: Place) -> Lit {
    let v = dimacs_var(game, card, place);
    Var::new(v).expect("dimacs_var numbers variables from 1").positive()
}

/// A `Truth` as the exact engine's `Status`.
pub fn status_of(truth: Truth) -> Status {
    match truth {
        Truth::True => Status::Yes,
        Truth::False => Status::No,
        Truth::Unknown => Status::Maybe,
    }
}

/// New numbers for the atoms `1..=atoms` (index: old number; entry 0 unused),
/// so that `Heuristic::Ordered` decides the most constrained atoms first: those
/// in the shortest clauses made only of positive atoms, in clause order. For a
/// Clue game that is the cards known or shown to be somewhere, then the
/// refutations ("the refuter holds one of these three"), then the case file's
/// categories, then each card's place, card by card.
///
/// `to_dimacs` numbers atoms place by place, so `Ordered` on it fills the first
/// player's hand, then the next one's, and a contradiction found at the last
/// player undoes the others' hands by chronological backtracking, one by one:
/// on an early six-player bystander game that took minutes for one notepad,
/// and well under a second in this order (measured on generated games).
pub fn decision_order(cnf: &Cnf, atoms: u32) -> Vec<u32> {
    let n = atoms as usize;
    // (length of the shortest positive atom clause, its index, old number)
    let mut key: Vec<(usize, usize, u32)> = (1..=atoms).map(|v| (usize::MAX, usize::MAX, v)).collect();
    for (i, c) in cnf.clauses().iter().enumerate() {
        if c.lits().iter().all(|l| l.is_positive() && l.var().index() < n) {
            for l in c.lits() {
                let k = &mut key[l.var().index()];
                if (c.len(), i) < (k.0, k.1) {
                    (k.0, k.1) = (c.len(), i);
                }
            }
        }
    }
    key.sort_unstable();
    let mut order = vec![0; n + 1];
    for (rank, &(_, _, old)) in key.iter().enumerate() {
        order[old as usize] = rank as u32 + 1;
    }
    order
}

/// The literal under the renumbering; variables above the atoms keep their number.
pub fn rename_lit(l: Lit, order: &[u32]) -> Lit {
    match order.get(l.var().index() + 1) {
        Some(&new) => Var::new(new).expect("new numbers start at 1").lit(l.is_positive()),
        None => l,
    }
}

/// The clauses under the renumbering.
pub fn rename(cnf: &Cnf, order: &[u32]) -> Cnf {
    let mut out = Cnf::with_vars(cnf.num_vars());
    for c in cnf.clauses() {
        out.add_clause(Clause::new(c.lits().iter().map(|&l| rename_lit(l, order))));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_order_puts_short_positive_clauses_first() {
        // Atoms 1..=4; clause {3, 4} is the shortest positive one, then {1, 2, 3}.
        let cnf = Cnf::from_dimacs(&[&[1, 2, 3], &[-1, -2], &[3, 4], &[5, -4]]).unwrap();
        let order = decision_order(&cnf, 4);
        assert_eq!(order, vec![0, 3, 4, 1, 2]);
        let renamed = rename(&cnf, &order);
        assert_eq!(renamed.clauses()[2].to_dimacs(), vec![1, 2]);
        assert_eq!(renamed.clauses()[3].to_dimacs(), vec![5, -2]);
    }
}
