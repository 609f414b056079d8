//! A brute-force oracle: enumerate every deal and check every event by the
//! rules, independently of [`crate::knowledge`] and [`crate::count`].
//!
//! Exponential; for tests on small decks only, with the `testing` feature.

use crate::model::{Card, Game, Place, MAX_PLACES, MAX_PLAYERS};
use std::collections::BTreeMap;

/// What the enumeration found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BruteCounts {
    /// Consistent deals.
    pub total: u128,
    /// `marginal[card][place index]`.
    pub marginal: Vec<[u128; MAX_PLACES]>,
    /// Consistent deals per case file (cards in deck order).
    pub case_files: BTreeMap<Vec<Card>, u128>,
}

/// Enumerates every deal of the game and counts the consistent ones.
pub fn enumerate(game: &Game) -> BruteCounts {
    enumerate_where(game, &|_| true)
}

/// [`enumerate`], counting only the consistent deals (`place[card]`) that
/// `keep` accepts: the oracle of a what-if.
pub fn enumerate_where(game: &Game, keep: &dyn Fn(&[Option<Place>]) -> bool) -> BruteCounts {
    let deck = game.deck();
    let cards: Vec<Card> = deck.cards().filter(|c| !game.face_up().contains(*c)).collect();
    let mut cap = [0usize; MAX_PLAYERS];
    for p in game.players() {
        cap[p.index()] = game.hand_size(p);
    }
    let mut state = Enum {
        game,
        keep,
        cards,
        cap,
        case_taken: vec![false; deck.num_categories()],
        place: vec![None; deck.len()],
        out: BruteCounts { marginal: vec![[0; MAX_PLACES]; deck.len()], ..Default::default() },
    };
    state.go(0);
    state.out
}

struct Enum<'a> {
    game: &'a Game,
    keep: &'a dyn Fn(&[Option<Place>]) -> bool,
    cards: Vec<Card>,
    cap: [usize; MAX_PLAYERS],
    case_taken: Vec<bool>,
    place: Vec<Option<Place>>,
    out: BruteCounts,
}

impl Enum<'_> {
    fn go(&mut self, i: usize) {
        if i == self.cards.len() {
            if self.case_taken.iter().all(|&t| t) && self.game.fits(&self.place) && (self.keep)(&self.place) {
                let n = self.game.num_players();
                self.out.total += 1;
                let mut case = Vec::new();
                for (c, p) in self.place.iter().enumerate() {
                    if let Some(p) = p {
                        self.out.marginal[c][p.index(n)] += 1;
                        if *p == Place::CaseFile {
                            case.push(Card::new(c));
                        }
                    }
                }
                *self.out.case_files.entry(case).or_insert(0) += 1;
            }
            return;
        }
        let c = self.cards[i];
        for p in self.game.players() {
            if self.cap[p.index()] > 0 {
                self.cap[p.index()] -= 1;
                self.place[c.index()] = Some(Place::Player(p));
                self.go(i + 1);
                self.cap[p.index()] += 1;
            }
        }
        let k = self.game.deck().category(c).index();
        if !self.case_taken[k] {
            self.case_taken[k] = true;
            self.place[c.index()] = Some(Place::CaseFile);
            self.go(i + 1);
            self.case_taken[k] = false;
        }
        self.place[c.index()] = None;
    }
}
