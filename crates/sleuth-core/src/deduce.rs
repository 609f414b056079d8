//! Cheap, sound propagation over the at-least constraints.
//!
//! This is the constraint reasoning of Neller & Luo's section 3 in its
//! simplest complete-enough form: it fixes what unit constraints, full hands,
//! tight hands, single case-file candidates and unit clauses force, and
//! detects the obvious contradictions. It is *not* complete on its own: the
//! exact counter ([`crate::count`]) decides every fact exactly. Propagation
//! only shrinks the problem the counter has to solve.

use crate::knowledge::{Knowledge, Origin};
use crate::model::{passed_players, Card, CardSet, Event, Game, Place, MAX_CARDS, MAX_PLAYERS};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

mod deal;

/// "No place" in per-card place tables.
pub(crate) const NONE: u8 = u8::MAX;

/// A literal in dense form: card index, place index, sign.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct CLit {
    pub card: u8,
    pub place: u8,
    pub positive: bool,
}

/// The counting problem: which places each card may take, hand sizes,
/// categories, and the "at least one of" clauses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountProblem {
    pub(crate) np: usize,
    pub(crate) in_play: CardSet,
    pub(crate) category_of: [u8; MAX_CARDS],
    pub(crate) categories: Vec<CardSet>,
    pub(crate) cap: [u8; MAX_PLAYERS],
    pub(crate) allowed: [u16; MAX_CARDS],
    pub(crate) clauses: Vec<Vec<CLit>>,
    /// A unit fact about a card that is in no place (face up) made the
    /// problem impossible before any counting.
    pub(crate) impossible: bool,
}

impl CountProblem {
    /// The counting problem for a game: the same as
    /// [`CountProblem::from_knowledge`] on [`Knowledge::new`], read straight from
    /// the hand and the events. Compiling every constraint first, with a
    /// vector per literal list and its duplicate check, was a tenth of a
    /// small state's whole analysis.
    pub fn new(game: &Game) -> CountProblem {
        Self::with_evidence(game, true, game.events())
    }

    /// The problem of the game with only some of its evidence: the hand if
    /// `hand`, and `events`; the same as [`CountProblem::new`] of
    /// [`Game::restricted`], without building that game (the explanations
    /// test hundreds of subsets of the events).
    pub(crate) fn with_evidence<'a>(
        game: &Game,
        hand: bool,
        events: impl IntoIterator<Item = &'a Event>,
    ) -> CountProblem {
        let mut problem = Self::structure(game);
        let np = game.num_players();
        let case_file = np as u8;
        if let Some((me, cards)) = game.observer().filter(|_| hand) {
            for c in cards {
                problem.add_unit(CLit { card: c.index() as u8, place: me.index() as u8, positive: true });
            }
        }
        // Clauses said twice are one (the first), as in `Knowledge::new`.
        let mut said = rustc_hash::FxHashSet::default();
        let mut clause = |problem: &mut CountProblem, cards: CardSet, place: u8, positive: bool| {
            if !said.insert((cards, place, positive)) {
                return;
            }
            problem.add_clause(cards.iter().map(|c| CLit { card: c.index() as u8, place, positive }).collect());
        };
        for event in events {
            match event {
                Event::Suggestion(s) => {
                    for q in passed_players(game, s.by, s.refuted_by) {
                        for c in s.cards {
                            problem.add_unit(CLit { card: c.index() as u8, place: q.index() as u8, positive: false });
                        }
                    }
                    if let Some(r) = s.refuted_by {
                        let place = r.index() as u8;
                        match s.shown {
                            Some(c) => problem.add_unit(CLit { card: c.index() as u8, place, positive: true }),
                            None => clause(&mut problem, s.cards, place, true),
                        }
                    }
                }
                Event::Accusation(a) if a.correct => {
                    for c in a.cards {
                        problem.add_unit(CLit { card: c.index() as u8, place: case_file, positive: true });
                    }
                }
                Event::Accusation(a) => clause(&mut problem, a.cards, case_file, false),
            }
        }
        problem
    }

    /// The counting problem for compiled knowledge (its evidence: the hand
    /// and the events). [`CountProblem::new`] gives the same problem for the
    /// game's own knowledge.
    pub fn from_knowledge(game: &Game, knowledge: &Knowledge) -> CountProblem {
        let np = game.num_players();
        let mut problem = Self::structure(game);
        for con in knowledge.evidence() {
            if con.origin == Origin::FaceUp {
                continue; // face-up cards are simply not in play
            }
            debug_assert_eq!(con.at_least, 1, "evidence constraints are clauses");
            let lits: Vec<CLit> = con
                .lits
                .iter()
                .map(|l| CLit { card: l.card.index() as u8, place: l.place.index(np) as u8, positive: l.positive })
                .collect();
            problem.add_clause(lits);
        }
        problem
    }

    /// The deal's structure alone: every card in play may be anywhere.
    fn structure(game: &Game) -> CountProblem {
        let deck = game.deck();
        let np = game.num_players();
        let in_play = deck.all() - game.face_up();
        let mut category_of = [0u8; MAX_CARDS];
        for c in deck.cards() {
            category_of[c.index()] = deck.category(c).index() as u8;
        }
        let categories = deck.categories().map(|k| deck.category_cards(k) & in_play).collect();
        let mut cap = [0u8; MAX_PLAYERS];
        for p in game.players() {
            cap[p.index()] = game.hand_size(p) as u8;
        }
        let all_places = (1u16 << (np + 1)) - 1;
        let mut allowed = [0u16; MAX_CARDS];
        for c in in_play {
            allowed[c.index()] = all_places;
        }
        CountProblem { np, in_play, category_of, categories, cap, allowed, clauses: Vec::new(), impossible: false }
    }

    /// A one-literal clause, without building a vector.
    fn add_unit(&mut self, l: CLit) {
        if !self.in_play.contains(Card(l.card)) {
            // About a face-up card: "not at" holds, "at" cannot.
            self.impossible |= l.positive;
            return;
        }
        let bit = 1u16 << l.place;
        if l.positive {
            self.allowed[l.card as usize] &= bit;
        } else {
            self.allowed[l.card as usize] &= !bit;
        }
    }

    /// Adds the fact that `card` is (or is not) at `place`.
    pub fn add_fact(&mut self, card: Card, place: Place, positive: bool) {
        self.add_unit(CLit { card: card.index() as u8, place: place.index(self.np) as u8, positive });
    }

    fn add_clause(&mut self, lits: Vec<CLit>) {
        // Literals about face-up cards are decided: "at" is false, "not at" true.
        if lits.iter().any(|l| !l.positive && !self.in_play.contains(Card(l.card))) {
            return;
        }
        let lits: Vec<CLit> = lits.into_iter().filter(|l| self.in_play.contains(Card(l.card))).collect();
        match lits.as_slice() {
            [] => self.impossible = true,
            &[l] => self.add_unit(l),
            _ => self.clauses.push(lits),
        }
    }

    /// The number of players.
    pub fn num_players(&self) -> usize {
        self.np
    }
}

/// The problem after propagation: fixed cards, what is left of each hand,
/// which case-file categories are settled, and the clauses still open.
#[derive(Clone, Debug)]
pub(crate) struct Reduced {
    pub assigned: [u8; MAX_CARDS],
    pub allowed: [u16; MAX_CARDS],
    pub rem: [u8; MAX_PLAYERS],
    pub cat_done: u64,
    pub clauses: Vec<Vec<CLit>>,
    /// The cards in play not assigned yet (kept by `assign`: propagation
    /// asks for them in every loop of every pass).
    open: CardSet,
}

impl Reduced {
    pub fn unassigned(&self, p: &CountProblem) -> CardSet {
        debug_assert_eq!(self.open, p.in_play.iter().filter(|c| self.assigned[c.index()] == NONE).collect());
        self.open
    }

    /// Per player, the unassigned cards it may still take.
    fn possible_by_player(&self, p: &CountProblem) -> [CardSet; MAX_PLAYERS] {
        let mut possible = [0u64; MAX_PLAYERS];
        let players = (1u16 << p.np) - 1;
        for c in self.unassigned(p) {
            // Over every player slot, without branches (the places past the
            // players masked off).
            let (places, bit) = (u64::from(self.allowed[c.index()] & players), 1u64 << c.index());
            for (a, set) in possible.iter_mut().enumerate() {
                *set |= (places >> a & 1) * bit;
            }
        }
        possible.map(CardSet)
    }

    fn assign(&mut self, p: &CountProblem, c: usize, q: u8) -> Option<()> {
        debug_assert_eq!(self.assigned[c], NONE);
        if self.allowed[c] & (1 << q) == 0 {
            return None;
        }
        self.assigned[c] = q;
        self.open.remove(Card(c as u8));
        self.allowed[c] = 1 << q;
        if (q as usize) < p.np {
            self.rem[q as usize] = self.rem[q as usize].checked_sub(1)?;
        } else {
            let bit = 1u64 << p.category_of[c];
            if self.cat_done & bit != 0 {
                return None;
            }
            self.cat_done |= bit;
        }
        Some(())
    }

    /// The truth of a literal if already decided.
    fn truth(&self, l: CLit) -> Option<bool> {
        let c = l.card as usize;
        if self.assigned[c] != NONE {
            Some((self.assigned[c] == l.place) == l.positive)
        } else if self.allowed[c] & (1 << l.place) == 0 {
            Some(!l.positive)
        } else {
            None
        }
    }
}

/// Propagates to a fixpoint. `None` means a contradiction was found.
pub(crate) fn propagate(p: &CountProblem) -> Option<Reduced> {
    if p.impossible {
        return None;
    }
    let mut r = Reduced {
        assigned: [NONE; MAX_CARDS],
        allowed: p.allowed,
        rem: p.cap,
        cat_done: 0,
        clauses: p.clauses.clone(),
        open: p.in_play,
    };
    let cf = p.np as u8;
    loop {
        let mut changed = false;

        // Cards: drop full hands and settled categories; fix single places.
        let full: u16 = (0..p.np).filter(|&a| r.rem[a] == 0).fold(0, |m, a| m | 1 << a);
        for c in r.unassigned(p) {
            let c = c.index();
            let mut al = r.allowed[c] & !full;
            if r.cat_done >> p.category_of[c] & 1 == 1 {
                al &= !(1 << cf);
            }
            if al == 0 {
                return None;
            }
            if al != r.allowed[c] {
                r.allowed[c] = al;
                changed = true;
            }
            if al.count_ones() == 1 {
                r.assign(p, c, al.trailing_zeros() as u8)?;
                changed = true;
            }
        }

        // Players: a hand that can only be filled one way. Each player's
        // possible cards from one pass over the cards, again after a hand
        // is filled (one pass per player was half of the explanations'
        // time, which propagate at every node of their searches).
        let mut possible = r.possible_by_player(p);
        for a in 0..p.np {
            if r.rem[a] == 0 {
                continue;
            }
            match possible[a].len().cmp(&(r.rem[a] as usize)) {
                std::cmp::Ordering::Less => return None,
                std::cmp::Ordering::Equal => {
                    for c in possible[a] {
                        r.assign(p, c.index(), a as u8)?;
                    }
                    changed = true;
                    possible = r.possible_by_player(p);
                }
                std::cmp::Ordering::Greater => {}
            }
        }

        // Case file: a category with one candidate left.
        for (k, &cards) in p.categories.iter().enumerate() {
            if r.cat_done >> k & 1 == 1 {
                continue;
            }
            let candidates: CardSet =
                (cards & r.unassigned(p)).iter().filter(|c| r.allowed[c.index()] >> cf & 1 == 1).collect();
            match candidates.single_card() {
                _ if candidates.is_empty() => return None,
                Some(c) => {
                    r.assign(p, c.index(), cf)?;
                    changed = true;
                }
                None => {}
            }
        }

        // Clauses: drop satisfied ones and false literals; apply units.
        let mut clauses = std::mem::take(&mut r.clauses);
        let mut kept = Vec::with_capacity(clauses.len());
        // Clauses that became equal (or were equal) are kept once: each
        // clause in flight costs the counter a bit of state.
        let mut seen = std::collections::HashSet::with_capacity(clauses.len());
        for mut cl in clauses.drain(..) {
            if cl.iter().any(|&l| r.truth(l) == Some(true)) {
                changed = true;
                continue;
            }
            let before = cl.len();
            cl.retain(|&l| r.truth(l).is_none());
            changed |= cl.len() != before;
            match cl.as_slice() {
                [] => return None,
                [l] => {
                    changed = true;
                    if l.positive {
                        r.assign(p, l.card as usize, l.place)?;
                    } else {
                        r.allowed[l.card as usize] &= !(1 << l.place);
                    }
                }
                _ => {
                    let mut key: Vec<(u8, u8, bool)> = cl.iter().map(|l| (l.card, l.place, l.positive)).collect();
                    key.sort_unstable();
                    if seen.insert(key) {
                        kept.push(cl);
                    } else {
                        changed = true;
                    }
                }
            }
        }
        r.clauses = kept;

        if !changed {
            return Some(r);
        }
    }
}

/// What propagation alone settles about a game: sound, not complete (the
/// exact counter decides every fact; this is for games too large for it).
#[derive(Clone, Debug)]
pub struct Settled {
    np: usize,
    allowed: [u16; MAX_CARDS],
}

impl Settled {
    /// The facts propagation settles; `None` when it finds that no deal
    /// fits.
    pub fn new(game: &Game) -> Option<Settled> {
        let p = CountProblem::new(game);
        let r = propagate(&p)?;
        let mut allowed = [0u16; MAX_CARDS];
        for c in p.in_play {
            allowed[c.index()] = r.allowed[c.index()];
        }
        Some(Settled { np: p.np, allowed })
    }

    /// Yes: the card is there in every deal; no: in none; maybe: not
    /// settled by propagation (it may still be certain).
    pub fn status(&self, card: Card, place: Place) -> crate::model::Status {
        use crate::model::Status;
        let allowed = self.allowed[card.index()];
        let bit = 1u16 << place.index(self.np);
        if allowed & bit == 0 {
            Status::No
        } else if allowed == bit {
            Status::Yes
        } else {
            Status::Maybe
        }
    }
}

/// A deal: every card's place index (players, then the case file at
/// `np`), [`NONE`] for cards not in play.
pub(crate) type Deal = [u8; MAX_CARDS];

impl CountProblem {
    /// Whether a deal of this game's structure (hand sizes, one case card
    /// per category: a deal found for the same game) meets every fact and
    /// clause of this problem.
    pub(crate) fn admits(&self, deal: &Deal) -> bool {
        !self.impossible
            && self.in_play.iter().all(|c| self.allowed[c.index()] >> deal[c.index()] & 1 == 1)
            && self.clauses.iter().all(|cl| cl.iter().any(|l| (deal[l.card as usize] == l.place) == l.positive))
    }
}

/// What [`find_deal`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    /// A deal that fits.
    Deal(Box<Deal>),
    /// Proof that none fits: the whole search tree, cut by propagation.
    NoDeal,
    /// The node budget ran out first.
    GaveUp,
}

/// A deal that fits `p`, by depth-first searches with propagation at every
/// node, within `nodes` nodes in all. Deciding that deals exist needs one,
/// not a count of them all: the explanations of [`crate::analysis`] test
/// hundreds of subsets of the events, most of them with deals.
///
/// The search restarts after [`RESTART_NODES_PER_CARD`] nodes per card in
/// play, then after twice as many, and so on: the first run in the order
/// below, each later one with every card's places in a seeded random order.
/// One long run that took a wrong turn near the root stays below it; short
/// runs leave it. A run proves that no deal fits only by exhausting its
/// tree, which the growing runs eventually can.
pub(crate) fn find_deal(p: &CountProblem, nodes: usize) -> Found {
    match deal::Searcher::new(p) {
        Some(searcher) => restarts(p, nodes, |left, shuffle| searcher.run(left, shuffle)),
        None => restarts(p, nodes, |left, shuffle| search(p, left, shuffle)),
    }
}

/// [`find_deal`] by the reference search alone (the tests hold the fast
/// one to it).
#[cfg(test)]
pub(crate) fn find_deal_reference(p: &CountProblem, nodes: usize) -> Found {
    restarts(p, nodes, |left, shuffle| search(p, left, shuffle))
}

/// The runs of [`find_deal`], each by `run` within the nodes it is given.
fn restarts(p: &CountProblem, nodes: usize, run: impl Fn(&mut usize, Option<&mut ChaCha8Rng>) -> Found) -> Found {
    let mut per_run = (RESTART_NODES_PER_CARD * p.in_play.len() as f64) as usize + 2;
    let mut left_in_all = nodes;
    let mut shuffle = None;
    loop {
        let mut left = per_run.min(left_in_all);
        per_run = per_run.saturating_mul(2);
        let budget = left;
        match run(&mut left, shuffle.as_mut()) {
            Found::GaveUp => {}
            found => return found,
        }
        // A run gives up only with its budget spent.
        left_in_all -= budget - left;
        if left_in_all == 0 {
            return Found::GaveUp;
        }
        shuffle.get_or_insert_with(|| ChaCha8Rng::seed_from_u64(RESTART_SEED));
    }
}

/// Nodes per card in play of each run of [`find_deal`] (a deal is about a
/// node per open card deep). Replayed on the 139 inconsistent histories of
/// `sleuth generate --corrupt` (master 3-10 players and classic 6, 10-20
/// suggestions) in `analyze`.
const RESTART_NODES_PER_CARD: f64 = 1.5;

/// The seed of the restarts' random orders (the same answers every time).
const RESTART_SEED: u64 = 1;

/// One run of [`find_deal`] within `left` nodes (the reference:
/// [`deal::Searcher`] runs the same search faster on the evidence's
/// clauses), its places in a random
/// order where `shuffle` is given. Branches on a card of the shortest
/// clause left ("a player holds one of these"; else the card with the
/// fewest places), first at the places that meet the most clauses, then
/// those with the most room: the clauses are what a deal is hard to find
/// for (a search by fewest places first, most room first, gave up on 48
/// subsets with deals where this gives up on 11, on the same histories).
/// A node is also dead where a player has more disjoint clauses than room.
fn search(p: &CountProblem, left: &mut usize, mut shuffle: Option<&mut ChaCha8Rng>) -> Found {
    let Some(r) = propagate(p) else { return Found::NoDeal };
    // A hand too small for its clauses (see `deal::overfull`).
    let positive = r.clauses.iter().filter_map(|cl| {
        let at_one_player = cl.iter().all(|l| l.positive && l.place == cl[0].place);
        at_one_player.then(|| (cl.iter().fold(0u64, |m, l| m | 1 << l.card), cl[0].place))
    });
    if deal::overfull(&r.rem[..p.np], positive, &mut Vec::new()) {
        return Found::NoDeal;
    }
    // Every card placed at a fixpoint: propagation has checked the hands,
    // the case file and every clause.
    let open = r.unassigned(p);
    let shortest = r.clauses.iter().filter(|cl| cl.iter().all(|l| l.positive)).min_by_key(|cl| cl.len());
    let of_clause = shortest.and_then(|cl| cl.iter().map(|l| Card(l.card)).find(|&c| open.contains(c)));
    let fewest_places = || open.iter().min_by_key(|c| (r.allowed[c.index()].count_ones(), c.index()));
    let Some(card) = of_clause.or_else(fewest_places) else {
        return Found::Deal(Box::new(r.assigned));
    };
    // The child problems start from what propagation left (fewer clauses
    // to go over at every node below).
    let mut reduced = p.clone();
    reduced.allowed = r.allowed;
    reduced.clauses = r.clauses;
    let cf = p.np;
    let room = |q: usize| if q == cf { 1 } else { usize::from(r.rem[q]) };
    let meets = |q: usize| {
        let here = |l: &CLit| l.positive && l.card as usize == card.index() && l.place as usize == q;
        reduced.clauses.iter().filter(|cl| cl.iter().any(here)).count()
    };
    let mut places: Vec<usize> = (0..=cf).filter(|&q| r.allowed[card.index()] >> q & 1 == 1).collect();
    match shuffle.as_deref_mut() {
        Some(rng) => places.shuffle(rng),
        None => places.sort_by_key(|&q| (std::cmp::Reverse(meets(q)), std::cmp::Reverse(room(q)), q)),
    }
    let mut gave_up = false;
    for q in places {
        if *left == 0 {
            return Found::GaveUp;
        }
        *left -= 1;
        let mut child = reduced.clone();
        child.add_unit(CLit { card: card.index() as u8, place: q as u8, positive: true });
        match search(&child, left, shuffle.as_deref_mut()) {
            Found::NoDeal => {}
            Found::GaveUp => gave_up = true,
            found => return found,
        }
    }
    if gave_up {
        Found::GaveUp
    } else {
        Found::NoDeal
    }
}
