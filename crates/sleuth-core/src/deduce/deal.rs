//! The deal search of the explanations on bitsets: the same search as
//! [`super::search`] (same propagation, branching and node count, so the
//! same deal, verdict or give-up), with each clause one card set and a
//! node's state a few fixed arrays, updated in place from its parent's
//! instead of propagated again from the problem (that rebuilt and hashed
//! every clause's literal vector at every node: 88 % of `analyze`'s
//! instructions on master 10 observer 20 `--corrupt` seed 135; on 101
//! inconsistent histories of `sleuth generate --corrupt`, `analyze` in
//! all 1.00 G → 0.38 G instructions, the same answers; 0.30 G with
//! [`overfull`]).

use super::{CountProblem, Deal, Found, NONE};
use crate::model::{Card, CardSet, MAX_CARDS, MAX_PLAYERS};
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use rustc_hash::FxHashSet;

/// A clause of Clue's evidence, all its literals at one place with one
/// sign: at least one of `cards` is at `place` (a suggestion refuted
/// unseen), or at least one is not (a wrong accusation, at the case file).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct SetClause {
    cards: u64,
    place: u8,
    positive: bool,
}

/// What stays fixed through one search: the deck's structure and the
/// problem's clauses.
pub(super) struct Searcher {
    np: usize,
    category_of: [u8; MAX_CARDS],
    categories: Vec<u64>,
    root: Option<Node>,
    clauses: Vec<SetClause>,
}

/// A node's state: what propagation has decided so far.
#[derive(Clone, Copy)]
struct Node {
    allowed: [u16; MAX_CARDS],
    assigned: [u8; MAX_CARDS],
    /// Per place (players, then the case file), the open cards it may
    /// still take.
    can: [u64; MAX_PLAYERS + 1],
    /// Per place, the cards assigned there.
    held: [u64; MAX_PLAYERS + 1],
    rem: [u8; MAX_PLAYERS],
    /// The cards of the categories whose case card is placed.
    done_cards: u64,
    open: u64,
}

/// The cards of a set, lowest first, as indices.
fn cards(set: u64) -> impl Iterator<Item = usize> {
    CardSet(set).iter().map(Card::index)
}

impl Searcher {
    /// The searcher for `p`, or `None` if a clause mixes places or signs
    /// (evidence never does; [`super::search`] takes any clause).
    pub(super) fn new(p: &CountProblem) -> Option<Searcher> {
        let clauses = p
            .clauses
            .iter()
            .map(|cl| {
                let first = cl.first()?;
                let same = cl.iter().all(|l| l.place == first.place && l.positive == first.positive);
                same.then(|| SetClause {
                    cards: cl.iter().fold(0, |m, l| m | 1 << l.card),
                    place: first.place,
                    positive: first.positive,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        // Clause literals in card order: the branching card is the first
        // open one of a clause, as in `super::search` on the evidence's
        // clauses (written in card order).
        let in_order = p.clauses.iter().all(|cl| cl.windows(2).all(|w| w[0].card < w[1].card));
        if !in_order {
            return None;
        }
        let root = (!p.impossible).then(|| {
            let mut node = Node {
                allowed: [0; MAX_CARDS],
                assigned: [NONE; MAX_CARDS],
                can: [0; MAX_PLAYERS + 1],
                held: [0; MAX_PLAYERS + 1],
                rem: p.cap,
                done_cards: 0,
                open: p.in_play.0,
            };
            for c in cards(p.in_play.0) {
                node.allowed[c] = p.allowed[c];
                for q in 0..=p.np {
                    node.can[q] |= u64::from(p.allowed[c] >> q & 1) << c;
                }
            }
            node
        });
        Some(Searcher {
            np: p.np,
            category_of: p.category_of,
            categories: p.categories.iter().map(|k| k.0).collect(),
            root,
            clauses,
        })
    }

    /// One run within `left` nodes (see [`super::find_deal`]).
    pub(super) fn run(&self, left: &mut usize, shuffle: Option<&mut ChaCha8Rng>) -> Found {
        let Some(root) = self.root else { return Found::NoDeal };
        let mut run = Run {
            s: self,
            stack: self.clauses.clone(),
            seen: FxHashSet::default(),
            scratch: Vec::new(),
            left,
            shuffle,
        };
        run.search(root, 0)
    }
}

/// One run's working memory: the clauses of the nodes on the current
/// path, each node's after its parent's (a node's children read its list
/// and push theirs after it).
struct Run<'a, 'b> {
    s: &'a Searcher,
    stack: Vec<SetClause>,
    seen: FxHashSet<SetClause>,
    scratch: Vec<(u8, u32, u64)>,
    left: &'b mut usize,
    shuffle: Option<&'b mut ChaCha8Rng>,
}

impl Run<'_, '_> {
    /// The search below `node`, whose parent's clauses start at `from` and
    /// end the stack.
    fn search(&mut self, node: Node, from: usize) -> Found {
        let start = self.stack.len();
        let Some(node) = self.propagate(node, from) else {
            self.stack.truncate(start);
            return Found::NoDeal;
        };
        let positive = self.stack[start..].iter().filter(|cl| cl.positive).map(|cl| (cl.cards, cl.place));
        if overfull(&node.rem[..self.s.np], positive, &mut self.scratch) {
            self.stack.truncate(start);
            return Found::NoDeal;
        }
        let found = self.branch(&node, start);
        self.stack.truncate(start);
        found
    }

    /// Branches on a card of the shortest positive clause left, else the
    /// card with the fewest places (its clauses from `start` on).
    fn branch(&mut self, node: &Node, start: usize) -> Found {
        let s = self.s;
        let cf = s.np;
        let clauses = &self.stack[start..];
        let shortest = clauses.iter().filter(|cl| cl.positive).min_by_key(|cl| cl.cards.count_ones());
        let card = match shortest {
            Some(cl) => cl.cards.trailing_zeros() as usize,
            None => match cards(node.open).min_by_key(|&c| (node.allowed[c].count_ones(), c)) {
                Some(c) => c,
                None => return Found::Deal(Box::new(node.assigned as Deal)),
            },
        };
        let mut places = [0u8; MAX_PLAYERS + 1];
        let mut n = 0;
        for q in 0..=cf {
            if node.allowed[card] >> q & 1 == 1 {
                places[n] = q as u8;
                n += 1;
            }
        }
        let places = &mut places[..n];
        match self.shuffle.as_deref_mut() {
            Some(rng) => places.shuffle(rng),
            None => {
                let meets = |q: u8| {
                    clauses.iter().filter(|cl| cl.positive && cl.place == q && cl.cards >> card & 1 == 1).count()
                };
                let room = |q: u8| if usize::from(q) == cf { 1 } else { node.rem[usize::from(q)] };
                let mut keyed = [(0usize, 0u8, 0u8); MAX_PLAYERS + 1];
                for (k, &q) in keyed.iter_mut().zip(places.iter()) {
                    *k = (meets(q), room(q), q);
                }
                let keyed = &mut keyed[..n];
                keyed.sort_by_key(|&(meets, room, q)| (std::cmp::Reverse(meets), std::cmp::Reverse(room), q));
                for (q, k) in places.iter_mut().zip(keyed.iter()) {
                    *q = k.2;
                }
            }
        }
        let mut gave_up = false;
        for &q in places.iter() {
            if *self.left == 0 {
                return Found::GaveUp;
            }
            *self.left -= 1;
            let mut child = *node;
            child.only_at(card, q);
            match self.search(child, start) {
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

    /// Propagates `node` to a fixpoint by the rules of
    /// [`super::propagate`], pushing its clauses left (satisfied ones
    /// dropped, false literals removed, each once) after the stack, read
    /// from `from` to the stack's end; `None` on a contradiction.
    fn propagate(&mut self, mut node: Node, from: usize) -> Option<Node> {
        let s = self.s;
        let cf = s.np;
        let start = self.stack.len();
        let mut read = from..start;
        let mut shrunk = false;
        loop {
            let mut changed = false;

            // Cards: drop full hands and settled categories; fix single
            // places (by the places' sets, not card by card).
            for a in 0..s.np {
                if node.rem[a] == 0 && node.can[a] != 0 {
                    for c in cards(node.can[a]) {
                        node.narrow(c, node.allowed[c] & !(1 << a));
                    }
                    changed = true;
                }
            }
            let settled = node.can[cf] & node.done_cards;
            if settled != 0 {
                for c in cards(settled) {
                    node.narrow(c, node.allowed[c] & !(1 << cf));
                }
                changed = true;
            }
            let (mut once, mut twice) = (0u64, 0u64);
            for &can in &node.can[..=cf] {
                twice |= once & can;
                once |= can;
            }
            if node.open & !once != 0 {
                return None;
            }
            let single = once & !twice;
            if single != 0 {
                for c in cards(single) {
                    node.assign(s, c, node.allowed[c].trailing_zeros() as usize)?;
                }
                changed = true;
            }

            // Players: a hand that can only be filled one way.
            for a in 0..s.np {
                if node.rem[a] == 0 {
                    continue;
                }
                match node.can[a].count_ones().cmp(&u32::from(node.rem[a])) {
                    std::cmp::Ordering::Less => return None,
                    std::cmp::Ordering::Equal => {
                        for c in cards(node.can[a]) {
                            node.assign(s, c, a)?;
                        }
                        changed = true;
                    }
                    std::cmp::Ordering::Greater => {}
                }
            }

            // Case file: a category with one candidate left.
            for &cat in &s.categories {
                if node.done_cards & cat != 0 {
                    continue;
                }
                let candidates = cat & node.can[cf];
                if candidates == 0 {
                    return None;
                }
                if candidates.count_ones() == 1 {
                    node.assign(s, candidates.trailing_zeros() as usize, cf)?;
                    changed = true;
                }
            }

            // Clauses: drop satisfied ones and false literals; apply units.
            // The first pass copies the parent's list, later ones compact
            // this node's own in place.
            let mut kept = start;
            for i in read.clone() {
                let cl = self.stack[i];
                let q = usize::from(cl.place);
                let open = if cl.positive {
                    if cl.cards & node.held[q] != 0 {
                        continue;
                    }
                    cl.cards & node.can[q]
                } else {
                    // "Not at the case file" holds for a card placed
                    // elsewhere or no longer allowed there.
                    if cl.cards & !(node.held[q] | node.can[q]) != 0 {
                        continue;
                    }
                    cl.cards & node.can[q]
                };
                match open.count_ones() {
                    0 => return None,
                    1 => {
                        let c = open.trailing_zeros() as usize;
                        if cl.positive {
                            node.assign(s, c, q)?;
                        } else {
                            node.narrow(c, node.allowed[c] & !(1 << q));
                        }
                        changed = true;
                    }
                    _ => {
                        shrunk |= open != cl.cards;
                        let left = SetClause { cards: open, ..cl };
                        if kept < self.stack.len() {
                            self.stack[kept] = left;
                        } else {
                            self.stack.push(left);
                        }
                        kept += 1;
                    }
                }
            }
            self.stack.truncate(kept);
            read = start..kept;

            if !changed {
                // A parent's clauses are distinct: only clauses that lost
                // literals can have become equal. The problem's own (read
                // from 0) may repeat, once face-up cards are dropped.
                if shrunk || from == 0 {
                    self.keep_first_of_each(start);
                }
                return Some(node);
            }
        }
    }

    /// Keeps each clause from `start` on once, the first (clauses that
    /// became equal are one constraint; the branching counts clauses).
    fn keep_first_of_each(&mut self, start: usize) {
        self.seen.clear();
        let mut kept = start;
        for i in start..self.stack.len() {
            let cl = self.stack[i];
            if self.seen.insert(cl) {
                self.stack[kept] = cl;
                kept += 1;
            }
        }
        self.stack.truncate(kept);
    }
}

/// Whether some player has more clauses "it holds one of these" without
/// a card in common than cards left to deal it: each needs a card of its
/// own. The clauses are `(cards, place)`; `rem` is each player's room
/// (places past it are not players). Taken greedily, fewest cards first (a
/// lower bound on the cards they need, so only ever a true
/// contradiction), in an order of their values alone, so that any order
/// of the same clauses gives the same answer. Propagation misses these: on
/// the explanations' subsets without deals it left 76 of 77 searches that
/// gave up.
pub(super) fn overfull(
    rem: &[u8],
    clauses: impl Iterator<Item = (u64, u8)>,
    scratch: &mut Vec<(u8, u32, u64)>,
) -> bool {
    scratch.clear();
    scratch
        .extend(clauses.filter(|&(_, q)| usize::from(q) < rem.len()).map(|(cards, q)| (q, cards.count_ones(), cards)));
    scratch.sort_unstable();
    let mut i = 0;
    while i < scratch.len() {
        let q = scratch[i].0;
        let end = i + scratch[i..].partition_point(|e| e.0 == q);
        if end - i > usize::from(rem[usize::from(q)]) {
            let (mut taken, mut disjoint) = (0u64, 0usize);
            for &(_, _, cards) in &scratch[i..end] {
                if cards & taken == 0 {
                    taken |= cards;
                    disjoint += 1;
                }
            }
            if disjoint > usize::from(rem[usize::from(q)]) {
                return true;
            }
        }
        i = end;
    }
    false
}

impl Node {
    /// Narrows an open card's places to `al` (a subset of its own).
    fn narrow(&mut self, c: usize, al: u16) {
        let mut gone = self.allowed[c] & !al;
        while gone != 0 {
            self.can[gone.trailing_zeros() as usize] &= !(1 << c);
            gone &= gone - 1;
        }
        self.allowed[c] = al;
    }

    /// Puts an open card at `q`; `None` where that breaks a rule.
    fn assign(&mut self, s: &Searcher, c: usize, q: usize) -> Option<()> {
        debug_assert_eq!(self.assigned[c], NONE);
        if self.allowed[c] >> q & 1 == 0 {
            return None;
        }
        self.narrow(c, 1 << q);
        self.can[q] &= !(1 << c);
        self.assigned[c] = q as u8;
        self.open &= !(1 << c);
        self.held[q] |= 1 << c;
        if q < s.np {
            self.rem[q] = self.rem[q].checked_sub(1)?;
        } else {
            let category = s.categories[usize::from(s.category_of[c])];
            if self.done_cards & category != 0 {
                return None;
            }
            self.done_cards |= category;
        }
        Some(())
    }

    /// The branch "`card` is at `q`" (an open card allowed there).
    fn only_at(&mut self, card: usize, q: u8) {
        self.narrow(card, 1 << q);
    }
}

#[cfg(test)]
mod tests {
    use super::super::{find_deal, find_deal_reference};
    use super::*;
    use crate::generate::{try_generate, DeckChoice, GenConfig};
    use crate::model::Game;
    use rand::{Rng, SeedableRng};

    /// `overfull` only ever says what is true: where it fires, some player
    /// cannot meet its clauses with the room it has (the fewest cards
    /// meeting them all, by brute force over every set of up to 10 cards);
    /// and in any order of the same clauses it says the same.
    #[test]
    fn overfull_is_sound() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let (mut fired, mut tight) = (0, 0);
        for _ in 0..3_000 {
            let players = rng.gen_range(1..=3usize);
            let rem: Vec<u8> = (0..players).map(|_| rng.gen_range(0..=4)).collect();
            let mut clauses: Vec<(u64, u8)> = (0..rng.gen_range(0..8))
                .map(|_| (rng.gen_range(1..1u64 << 10), rng.gen_range(0..=players as u8)))
                .collect();
            let says = overfull(&rem, clauses.iter().copied(), &mut Vec::new());
            clauses.reverse();
            assert_eq!(says, overfull(&rem, clauses.iter().copied(), &mut Vec::new()));
            let fewest = |a: usize| {
                let sets: Vec<u64> = clauses.iter().filter(|&&(_, q)| usize::from(q) == a).map(|&(c, _)| c).collect();
                (0..1u64 << 10).filter(|&h| sets.iter().all(|&c| c & h != 0)).map(u64::count_ones).min().unwrap()
            };
            let impossible = (0..players).any(|a| fewest(a) > u32::from(rem[a]));
            if says {
                assert!(impossible, "{rem:?} {clauses:?}");
                fired += 1;
            }
            tight += usize::from(impossible);
        }
        assert!(fired > 300 && fired * 2 > tight, "fired {fired} of {tight}");
    }

    /// The bitset search against the reference search, on the problems the
    /// explanations build (seeded games of several decks, both views,
    /// accusations and face-up cards, most corrupted; subsets of their
    /// events, with and without the hand) at node budgets from 1 to
    /// unbounded: the same deal, the same verdict, the same give-ups.
    #[test]
    fn the_bitset_search_is_the_reference_search() {
        let decks = [
            (DeckChoice::Custom(vec![3, 2, 3]), 3),
            (DeckChoice::Custom(vec![2, 3, 2, 3]), 2),
            (DeckChoice::Classic, 4),
            (DeckChoice::Classic, 6),
            (DeckChoice::Master, 3),
            (DeckChoice::Master, 6),
            (DeckChoice::Master, 10),
        ];
        let (mut compared, mut deals, mut none, mut gave_up) = (0usize, 0usize, 0usize, 0usize);
        for (d, (deck, players)) in decks.into_iter().enumerate() {
            for seed in 0..30u64 {
                let mut rng = ChaCha8Rng::seed_from_u64(7_300 + 100 * d as u64 + seed);
                let cfg = GenConfig {
                    accusation_rate: 0.1,
                    face_up: usize::from(seed % 5 == 0),
                    corrupt: seed % 3 != 0,
                    ..GenConfig::new(deck.clone(), players, rng.gen_bool(0.5), rng.gen_range(0..=30))
                };
                let Ok(generated) = try_generate(&cfg, &mut rng) else { continue };
                let game = Game::new(&generated.file).expect("generated games are valid");
                for i in 0..6 {
                    let keep = [1.0, 0.9, 0.7, 0.5, 0.3, 0.1][i];
                    let events: Vec<_> = game.events().iter().filter(|_| rng.gen_bool(keep)).collect();
                    let p = CountProblem::with_evidence(&game, rng.gen_bool(0.7), events);
                    assert!(Searcher::new(&p).is_some(), "evidence clauses are set clauses");
                    for nodes in [1, 3, 10, 50, 200, usize::MAX] {
                        let found = find_deal(&p, nodes);
                        assert_eq!(
                            found,
                            find_deal_reference(&p, nodes),
                            "{deck:?} seed {seed}, keep {keep}, {nodes} nodes"
                        );
                        match found {
                            Found::Deal(deal) => {
                                assert!(p.admits(&deal));
                                deals += 1;
                            }
                            Found::NoDeal => none += 1,
                            Found::GaveUp => gave_up += 1,
                        }
                        compared += 1;
                    }
                }
            }
        }
        assert!(
            deals > 1_000 && none > 200 && gave_up > 50,
            "{compared}: {deals} deals, {none} none, {gave_up} gave up"
        );
    }
}
