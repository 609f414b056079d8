//! The sampler's view of a game: one boolean per card-place atom, every
//! at-least constraint of [`Knowledge`], and the atoms fixed by deduction.

use crate::analysis::Analysis;
use crate::knowledge::Knowledge;
use crate::model::Status;
use crate::model::{Card, Game, Place};

use super::Deal;

/// A game's knowledge as at-least constraints `{l1, ..., ln}_m` over
/// card-place variables, with some variables fixed.
///
/// Variable `card.index() * num_places + place_index` stands for "card is at
/// place", places numbered as [`Place::index`] does (players in seat order,
/// then the case file). The constraints are all of
/// [`Knowledge::constraints`]: the deal's structure (each card in exactly one
/// place, hand sizes, one case-file card per category, face-up cards
/// nowhere), the observer's hand and every event.
///
/// Fixed variables are left out of the search. Each constraint is stored
/// over its non-fixed literals only, its threshold lowered by the fixed
/// literals that are true, and constraints the fixed literals already
/// satisfy are dropped. This changes no step of the search: for every
/// assignment of the non-fixed variables a constraint is satisfied exactly
/// when its reduced form is, and flipping a non-fixed variable breaks
/// exactly the same constraints.
#[derive(Clone, Debug)]
pub struct Formula {
    num_cards: usize,
    num_players: usize,
    /// `Some(value)` for fixed variables.
    fixed: Vec<Option<bool>>,
    /// The non-fixed variables, ascending.
    free: Vec<u32>,
    /// Reduced constraints: literals `lits[start[c]..start[c + 1]]`, each
    /// `(variable, positive)`, of which at least `need[c]` must hold.
    start: Vec<u32>,
    lits: Vec<(u32, bool)>,
    need: Vec<u32>,
    /// `origin[c]`: the index in [`Knowledge::constraints`] of constraint `c`.
    origin: Vec<u32>,
    /// Occurrences of variable `v`: `occ[occ_start[v]..occ_start[v + 1]]`,
    /// each `(constraint, positive)`.
    occ_start: Vec<u32>,
    occ: Vec<(u32, bool)>,
    /// How many constraints the knowledge has before reduction.
    original: usize,
}

/// A variable's fixed value for a status: yes true, no false, maybe free.
fn certain(status: Status) -> Option<bool> {
    match status {
        Status::Yes => Some(true),
        Status::No => Some(false),
        Status::Maybe => None,
    }
}

impl Formula {
    /// The formula of a game, with every variable that exact deduction
    /// settles fixed (status yes: true, no: false), as in the paper's
    /// section 4.1; `None` when no deal is consistent.
    pub fn new(game: &Game, analysis: &Analysis) -> Option<Formula> {
        if !analysis.is_consistent() {
            return None;
        }
        Formula::with_fixed(game, |card, place| certain(analysis.status(card, place)))
    }

    /// The formula of a game with the variables fixed that propagation
    /// alone settles (`settled`, from [`crate::deduce::Settled::new`]): for
    /// games too large for the exact counter.
    pub fn by_propagation(game: &Game, settled: &crate::deduce::Settled) -> Option<Formula> {
        Formula::with_fixed(game, |card, place| certain(settled.status(card, place)))
    }

    /// The formula of a game with the given variables fixed (`fixed`
    /// returns `Some(value)` for them); `None` when the fixed values already
    /// violate a constraint on their own.
    ///
    /// Fixing nothing (`|_, _| None`) gives plain WalkSAT over all atoms.
    /// Fixed values are taken as facts: the resulting [`Estimate`]s
    /// report them as exact.
    ///
    /// [`Estimate`]: super::Estimate
    pub fn with_fixed(game: &Game, mut fixed: impl FnMut(Card, Place) -> Option<bool>) -> Option<Formula> {
        let num_cards = game.deck().len();
        let num_players = game.num_players();
        let np = num_players + 1;
        let num_vars = num_cards * np;
        let mut fixed_vals = vec![None; num_vars];
        for card in game.deck().cards() {
            for place in game.places() {
                fixed_vals[card.index() * np + place.index(num_players)] = fixed(card, place);
            }
        }
        let free: Vec<u32> = (0..num_vars as u32).filter(|&v| fixed_vals[v as usize].is_none()).collect();

        let knowledge = Knowledge::new(game);
        let mut start = vec![0u32];
        let mut lits = Vec::new();
        let mut need = Vec::new();
        let mut origin = Vec::new();
        for (i, c) in knowledge.constraints().iter().enumerate() {
            let mut m = c.at_least;
            let before = lits.len();
            for l in &c.lits {
                let v = l.card.index() * np + l.place.index(num_players);
                match fixed_vals[v] {
                    Some(value) => {
                        if value == l.positive {
                            m = m.saturating_sub(1);
                        }
                    }
                    None => lits.push((v as u32, l.positive)),
                }
            }
            let n = lits.len() - before;
            if m == 0 {
                lits.truncate(before);
                continue;
            }
            if m > n {
                return None;
            }
            need.push(m as u32);
            origin.push(i as u32);
            start.push(lits.len() as u32);
        }

        let mut occ_count = vec![0u32; num_vars + 1];
        for &(v, _) in &lits {
            occ_count[v as usize + 1] += 1;
        }
        let mut occ_start = occ_count;
        for v in 0..num_vars {
            occ_start[v + 1] += occ_start[v];
        }
        let mut fill = occ_start.clone();
        let mut occ = vec![(0u32, false); lits.len()];
        for c in 0..need.len() {
            for &(v, positive) in &lits[start[c] as usize..start[c + 1] as usize] {
                occ[fill[v as usize] as usize] = (c as u32, positive);
                fill[v as usize] += 1;
            }
        }
        Some(Formula {
            num_cards,
            num_players,
            fixed: fixed_vals,
            free,
            start,
            lits,
            need,
            origin,
            occ_start,
            occ,
            original: knowledge.constraints().len(),
        })
    }

    /// The number of cards in the deck.
    pub fn num_cards(&self) -> usize {
        self.num_cards
    }

    /// The number of places (players and the case file).
    pub fn num_places(&self) -> usize {
        self.num_players + 1
    }

    /// The number of variables: cards × places.
    pub fn num_vars(&self) -> usize {
        self.fixed.len()
    }

    /// The variable of "card is at place".
    pub fn var(&self, card: Card, place: Place) -> usize {
        card.index() * self.num_places() + place.index(self.num_players)
    }

    /// The atom of a variable.
    pub fn atom(&self, var: usize) -> (Card, Place) {
        let np = self.num_places();
        (Card::new(var / np), Place::from_index(var % np, self.num_players))
    }

    /// The value of a fixed variable, or `None` for a searched one.
    pub fn fixed(&self, var: usize) -> Option<bool> {
        self.fixed[var]
    }

    /// The non-fixed variables, ascending.
    pub fn free_vars(&self) -> &[u32] {
        &self.free
    }

    /// The number of constraints of the game's knowledge.
    pub fn num_constraints(&self) -> usize {
        self.original
    }

    /// The number of constraints the search tracks: those the fixed
    /// variables do not satisfy already.
    pub fn num_active_constraints(&self) -> usize {
        self.need.len()
    }

    /// The deal an assignment describes (indexed by card, `None` for a card
    /// in no place), or `None` when some card is in two or more places.
    ///
    /// # Panics
    /// If `assignment` does not have [`num_vars`](Self::num_vars) entries.
    pub fn deal(&self, assignment: &[bool]) -> Option<Deal> {
        assert_eq!(assignment.len(), self.num_vars(), "one value per variable");
        let np = self.num_places();
        let mut deal = vec![None; self.num_cards];
        for (card, slot) in deal.iter_mut().enumerate() {
            for q in 0..np {
                if assignment[card * np + q] {
                    if slot.is_some() {
                        return None;
                    }
                    *slot = Some(Place::from_index(q, self.num_players));
                }
            }
        }
        Some(deal)
    }

    pub(super) fn constraint(&self, c: usize) -> &[(u32, bool)] {
        &self.lits[self.start[c] as usize..self.start[c + 1] as usize]
    }

    pub(super) fn need(&self, c: usize) -> u32 {
        self.need[c]
    }

    /// The index in [`Knowledge::constraints`] of active constraint `c`.
    pub(super) fn origin(&self, c: usize) -> usize {
        self.origin[c] as usize
    }

    pub(super) fn occurrences(&self, var: u32) -> &[(u32, bool)] {
        &self.occ[self.occ_start[var as usize] as usize..self.occ_start[var as usize + 1] as usize]
    }
}
