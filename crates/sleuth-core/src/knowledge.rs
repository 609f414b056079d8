//! Clue knowledge as at-least constraints over "card c is at place p".
//!
//! Following Neller & Luo, every fact a player knows is an at-least
//! constraint `{l1, ..., ln}_m`: at least `m` of the literals hold. The deal's
//! structure (each card in one place, hand sizes, one case-file card per
//! category) and every event compile to such constraints, each tagged with
//! the [`Origin`] it came from so that explanations can name events.

use crate::model::{passed_players, Card, Category, Event, Game, Place, Player};
use std::fmt::Write as _;

/// A literal: "card is at place" or its negation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lit {
    /// The card.
    pub card: Card,
    /// The place.
    pub place: Place,
    /// `true` for "is at", `false` for "is not at".
    pub positive: bool,
}

impl Lit {
    /// "`card` is at `place`".
    pub fn is_at(card: Card, place: Place) -> Lit {
        Lit { card, place, positive: true }
    }

    /// "`card` is not at `place`".
    pub fn not_at(card: Card, place: Place) -> Lit {
        Lit { card, place, positive: false }
    }
}

/// Where a constraint comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// Every card is in exactly one place.
    Deal,
    /// A player holds exactly their hand size.
    HandSize(Player),
    /// The case file holds exactly one card of the category.
    CaseFile(Category),
    /// Face-up cards are in no place.
    FaceUp,
    /// The observer's own cards.
    Hand,
    /// The event with this index.
    Event(usize),
}

/// `{lits}_at_least`: at least `at_least` of `lits` are true.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constraint {
    /// The literals.
    pub lits: Vec<Lit>,
    /// How many of them must hold.
    pub at_least: usize,
    /// Where the constraint comes from.
    pub origin: Origin,
}

/// Everything a game says, as at-least constraints.
#[derive(Clone, Debug)]
pub struct Knowledge {
    constraints: Vec<Constraint>,
}

impl Knowledge {
    /// Compiles a game to constraints.
    pub fn new(game: &Game) -> Knowledge {
        let deck = game.deck();
        let face_up = game.face_up();
        let in_play: Vec<Card> = deck.cards().filter(|c| !face_up.contains(*c)).collect();
        let places: Vec<Place> = game.places().collect();
        let mut cs = Vec::new();
        // Evidence said twice is one constraint (the first one said): a
        // repeated event adds nothing, and must not cost the counter more.
        let np = game.num_players();
        let mut said = rustc_hash::FxHashSet::default();
        let mut push = |lits: Vec<Lit>, at_least: usize, origin: Origin| {
            if matches!(origin, Origin::Hand | Origin::Event(_)) {
                let mut key: Vec<usize> = lits
                    .iter()
                    .map(|l| (l.card.index() * (np + 1) + l.place.index(np)) * 2 + usize::from(l.positive))
                    .collect();
                key.sort_unstable();
                key.dedup();
                if !said.insert((key, at_least)) {
                    return;
                }
            }
            cs.push(Constraint { lits, at_least, origin });
        };

        // The deal: each card in play at exactly one place.
        for &c in &in_play {
            push(places.iter().map(|&p| Lit::is_at(c, p)).collect(), 1, Origin::Deal);
            push(places.iter().map(|&p| Lit::not_at(c, p)).collect(), places.len() - 1, Origin::Deal);
        }
        for c in face_up {
            for &p in &places {
                push(vec![Lit::not_at(c, p)], 1, Origin::FaceUp);
            }
        }
        for p in game.players() {
            let h = game.hand_size(p);
            let place = Place::Player(p);
            push(in_play.iter().map(|&c| Lit::is_at(c, place)).collect(), h, Origin::HandSize(p));
            push(in_play.iter().map(|&c| Lit::not_at(c, place)).collect(), in_play.len() - h, Origin::HandSize(p));
        }
        for cat in deck.categories() {
            let cards: Vec<Card> = (deck.category_cards(cat) - face_up).iter().collect();
            push(cards.iter().map(|&c| Lit::is_at(c, Place::CaseFile)).collect(), 1, Origin::CaseFile(cat));
            push(
                cards.iter().map(|&c| Lit::not_at(c, Place::CaseFile)).collect(),
                cards.len() - 1,
                Origin::CaseFile(cat),
            );
        }
        if let Some((me, hand)) = game.observer() {
            for c in hand {
                push(vec![Lit::is_at(c, Place::Player(me))], 1, Origin::Hand);
            }
        }
        for (i, event) in game.events().iter().enumerate() {
            let origin = Origin::Event(i);
            match event {
                Event::Suggestion(s) => {
                    for q in passed_players(game, s.by, s.refuted_by) {
                        for c in s.cards {
                            push(vec![Lit::not_at(c, Place::Player(q))], 1, origin);
                        }
                    }
                    if let Some(r) = s.refuted_by {
                        let r = Place::Player(r);
                        match s.shown {
                            Some(c) => push(vec![Lit::is_at(c, r)], 1, origin),
                            None => push(s.cards.iter().map(|c| Lit::is_at(c, r)).collect(), 1, origin),
                        }
                    }
                }
                Event::Accusation(a) if a.correct => {
                    for c in a.cards {
                        push(vec![Lit::is_at(c, Place::CaseFile)], 1, origin);
                    }
                }
                Event::Accusation(a) => {
                    push(a.cards.iter().map(|c| Lit::not_at(c, Place::CaseFile)).collect(), 1, origin);
                }
            }
        }
        Knowledge { constraints: cs }
    }

    /// Every constraint, structural ones first, then the hand, then events.
    pub fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }

    /// Constraints that come from the hand or from events (not the deal's
    /// structure, which the counter builds in).
    pub fn evidence(&self) -> impl Iterator<Item = &Constraint> {
        self.constraints.iter().filter(|c| matches!(c.origin, Origin::Hand | Origin::Event(_) | Origin::FaceUp))
    }
}

/// The DIMACS variable of "card `card` is at place `place`", numbered as in
/// the ClueReasoner of the SAT seed: `place_index * num_cards + card_index + 1`.
pub fn dimacs_var(game: &Game, card: Card, place: Place) -> u32 {
    (place.index(game.num_players()) * game.deck().len() + card.index() + 1) as u32
}

/// Writes the knowledge as DIMACS CNF.
///
/// Variables `1..=places*cards` are the card-place atoms ([`dimacs_var`]);
/// at-least constraints with `1 < m < n` use a unary counter whose auxiliary
/// variables are functionally determined by the atoms (each counter variable
/// is defined by an equivalence), so the CNF has exactly one model per
/// consistent deal and model counters can check Sleuth's counts directly.
pub fn to_dimacs(game: &Game, knowledge: &Knowledge) -> String {
    let mut enc = CnfBuilder::new((game.num_places() * game.deck().len()) as i64);
    for c in knowledge.constraints() {
        let lits: Vec<i64> = c
            .lits
            .iter()
            .map(|l| {
                let v = i64::from(dimacs_var(game, l.card, l.place));
                if l.positive {
                    v
                } else {
                    -v
                }
            })
            .collect();
        enc.at_least(&lits, c.at_least);
    }
    let mut out = String::new();
    let _ = writeln!(out, "c Sleuth: Clue knowledge as CNF");
    let _ = writeln!(out, "c variable = place_index * {} + card_index + 1", game.deck().len());
    for place in game.places() {
        let _ = writeln!(out, "c place {} = {}", place.index(game.num_players()), game.place_id(place));
    }
    for card in game.deck().cards() {
        let _ = writeln!(out, "c card {} = {}", card.index(), game.deck().id(card));
    }
    let primary = game.num_places() * game.deck().len();
    let _ = writeln!(out, "c variables above {primary} are auxiliary and determined by the atoms");
    let show: Vec<String> = (1..=primary).map(|v| v.to_string()).collect();
    let _ = writeln!(out, "c p show {} 0", show.join(" "));
    let _ = writeln!(out, "p cnf {} {}", enc.num_vars, enc.clauses.len());
    for cl in &enc.clauses {
        for l in cl {
            let _ = write!(out, "{l} ");
        }
        out.push_str("0\n");
    }
    out
}

/// Builds CNF clauses, allocating auxiliary variables.
struct CnfBuilder {
    num_vars: i64,
    clauses: Vec<Vec<i64>>,
    truth: Option<i64>,
}

impl CnfBuilder {
    fn new(num_vars: i64) -> Self {
        CnfBuilder { num_vars, clauses: Vec::new(), truth: None }
    }

    fn fresh(&mut self) -> i64 {
        self.num_vars += 1;
        self.num_vars
    }

    /// A variable fixed true by a unit clause.
    fn truth(&mut self) -> i64 {
        if let Some(t) = self.truth {
            return t;
        }
        let t = self.fresh();
        self.clauses.push(vec![t]);
        self.truth = Some(t);
        t
    }

    fn at_least(&mut self, lits: &[i64], m: usize) {
        let n = lits.len();
        if m == 0 {
            return;
        }
        if m > n {
            self.clauses.push(Vec::new());
            return;
        }
        if m == 1 {
            self.clauses.push(lits.to_vec());
            return;
        }
        if m == n {
            for &l in lits {
                self.clauses.push(vec![l]);
            }
            return;
        }
        // s[j] after literal i: "at least j of lits[..=i] are true", defined by
        // s_ij <-> s_(i-1)j | (l_i & s_(i-1)(j-1)), with s_(.)0 = true and
        // s_0j = false for j > 0.
        let t = self.truth();
        let mut prev: Vec<i64> = (0..=m).map(|j| if j == 0 { t } else { -t }).collect();
        for &l in lits {
            let mut cur = vec![t];
            for j in 1..=m {
                let s = self.fresh();
                let (a, b) = (prev[j], prev[j - 1]);
                self.clauses.push(vec![-a, s]);
                self.clauses.push(vec![-l, -b, s]);
                self.clauses.push(vec![-s, a, l]);
                self.clauses.push(vec![-s, a, b]);
                cur.push(s);
            }
            prev = cur;
        }
        self.clauses.push(vec![prev[m]]);
    }
}

/// Prints constraints in the paper's notation, one per line:
/// `{mu@sc, pl@sc, ...}_1   # event 3`.
pub fn format_constraints(game: &Game, knowledge: &Knowledge, include_structure: bool) -> String {
    let mut out = String::new();
    for c in knowledge.constraints() {
        if !include_structure && matches!(c.origin, Origin::Deal | Origin::HandSize(_) | Origin::CaseFile(_)) {
            continue;
        }
        let lits: Vec<String> = c
            .lits
            .iter()
            .map(|l| {
                let neg = if l.positive { "" } else { "¬" };
                format!("{neg}{}@{}", game.deck().id(l.card), game.place_id(l.place))
            })
            .collect();
        let origin = match c.origin {
            Origin::Deal => "deal: each card in one place".to_string(),
            Origin::HandSize(p) => format!("hand size of {}", game.player_id(p)),
            Origin::CaseFile(cat) => format!("case file: one {}", game.deck().category_name(cat)),
            Origin::FaceUp => "face up".to_string(),
            Origin::Hand => "hand".to_string(),
            Origin::Event(i) => format!("event {i}"),
        };
        let _ = writeln!(out, "{{{}}}_{}  # {origin}", lits.join(", "), c.at_least);
    }
    out
}
