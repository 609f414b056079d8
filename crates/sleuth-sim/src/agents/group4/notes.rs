//! Group 4's notes: the X/O grid plus a list of "logic boxes" per player.
//!
//! A logic box of a player is a disjunction: the player holds at least one of
//! its cards. A refutation whose card this player did not see gives the
//! refuter the box of the suggested cards; a player who could not refute
//! gets an `X` for each suggested card. The seed's rules, all sound:
//!
//! - **Reduction**: a box loses the cards its player is known not to hold; a
//!   box holding a card the player is known to hold says nothing and goes; a
//!   box of one card is an `O`.
//! - **Subset rule**: of two boxes of the same player where one is a subset
//!   of the other, the superset goes (it says less). The seed applies this
//!   when a box is added; here it is also applied after reductions, which
//!   can make one box a subset of another.
//! - **Shared-disjunction rule**: when `k` players have the same box of `k`
//!   cards, the `k` cards are in those players' hands, one each: none is in
//!   the case file, and no other player holds any of them. The seed then
//!   assigns the cards to the players at random ("the exact location is not
//!   important to us"); that would write `O`s that may be false, so these
//!   notes keep only the sound part, the `X`s.

use crate::agent::View;
use crate::agents::grid::Grid;
use sleuth_core::model::passed_players;
use sleuth_core::{CardSet, Event, Game, Place, Player};

/// The X/O grid and the logic boxes of one player's view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group4Notes {
    grid: Grid,
    /// `boxes[player]`: that player's disjunctions.
    boxes: Vec<Vec<CardSet>>,
    contradiction: bool,
}

impl Group4Notes {
    /// Empty notes for `game` (face-up cards crossed out, no boxes).
    pub fn new(game: &Game) -> Group4Notes {
        Group4Notes { grid: Grid::new(game), boxes: vec![Vec::new(); game.num_players()], contradiction: false }
    }

    /// The notes of `view`: the own hand, the face-up cards, and every event
    /// in order, settled after each.
    pub fn from_view(view: &View<'_>) -> Group4Notes {
        let game = view.game();
        let me = view.me();
        let mut notes = Group4Notes::new(game);
        for c in view.hand() {
            notes.grid.mark_yes(c, Place::Player(me));
        }
        notes.settle();
        for event in view.events() {
            // Accusations are ignored: a correct one ends the game, and a
            // wrong one is a disjunction about the case file, not a box.
            let Event::Suggestion(s) = event else { continue };
            for q in passed_players(game, s.by, s.refuted_by) {
                for c in s.cards {
                    notes.grid.mark_no(c, Place::Player(q));
                }
            }
            match (s.refuted_by, s.shown) {
                (Some(r), Some(c)) => {
                    notes.grid.mark_yes(c, Place::Player(r));
                }
                (Some(r), None) => notes.add_box(r, s.cards),
                (None, _) => {}
            }
            notes.settle();
        }
        notes
    }

    /// The X/O grid.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The grid, to mark by hand (call [`Group4Notes::settle`] afterwards).
    pub fn grid_mut(&mut self) -> &mut Grid {
        &mut self.grid
    }

    /// `player`'s logic boxes.
    pub fn boxes(&self, player: Player) -> &[CardSet] {
        &self.boxes[player.index()]
    }

    /// Whether the notes contradict themselves (never with true facts).
    pub fn is_contradictory(&self) -> bool {
        self.contradiction || self.grid.is_contradictory()
    }

    /// Adds the box "`player` holds one of `cards`", reduced by the grid, by
    /// the subset rule: it is not added if it is a superset of one of the
    /// player's boxes, and the boxes that are supersets of it go.
    pub fn add_box(&mut self, player: Player, cards: CardSet) {
        let place = Place::Player(player);
        let b = cards - self.grid.no(place);
        if !(b & self.grid.yes(place)).is_empty() {
            return;
        }
        let boxes = &mut self.boxes[player.index()];
        if boxes.iter().any(|&old| old.is_subset(b)) {
            return;
        }
        boxes.retain(|&old| !b.is_subset(old));
        boxes.push(b);
    }

    /// Applies the grid rules, the reduction, the subset rule and the
    /// shared-disjunction rule until nothing changes.
    pub fn settle(&mut self) {
        let n = self.grid.num_players();
        loop {
            self.grid.close();
            if self.is_contradictory() {
                return;
            }
            let mut changed = false;
            // Reduction and the subset rule.
            for p in 0..n {
                let place = Place::Player(Player::new(p));
                let old = std::mem::take(&mut self.boxes[p]);
                let mut kept: Vec<CardSet> = Vec::with_capacity(old.len());
                for b in &old {
                    let r = *b - self.grid.no(place);
                    if !(r & self.grid.yes(place)).is_empty() {
                        continue;
                    }
                    match r.len() {
                        0 => self.contradiction = true,
                        1 => {
                            let card = r.first_card().expect("one card");
                            changed |= self.grid.mark_yes(card, place);
                        }
                        _ => kept.push(r),
                    }
                }
                // Drop duplicates and strict supersets, keeping the first copy.
                let mut reduced: Vec<CardSet> = Vec::with_capacity(kept.len());
                for (i, &b) in kept.iter().enumerate() {
                    let dominated =
                        kept.iter().enumerate().any(|(j, &other)| other.is_subset(b) && (other != b || j < i));
                    if !dominated {
                        reduced.push(b);
                    }
                }
                changed |= reduced != old;
                self.boxes[p] = reduced;
            }
            // The shared-disjunction rule.
            let mut shared: Vec<(CardSet, Vec<usize>)> = Vec::new();
            for (p, boxes) in self.boxes.iter().enumerate() {
                for &b in boxes {
                    match shared.iter_mut().find(|(s, _)| *s == b) {
                        Some((_, players)) => players.push(p),
                        None => shared.push((b, vec![p])),
                    }
                }
            }
            for (b, players) in shared {
                if players.len() < b.len() {
                    continue;
                }
                self.contradiction |= players.len() > b.len();
                for c in b {
                    changed |= self.grid.mark_no(c, Place::CaseFile);
                    for q in (0..n).filter(|q| !players.contains(q)) {
                        changed |= self.grid.mark_no(c, Place::Player(Player::new(q)));
                    }
                }
            }
            if !changed {
                return;
            }
        }
    }

    /// Whether every mark of the grid and every box is true of a deal, given
    /// as each card's place (`None` for face-up cards).
    pub fn holds_in(&self, places: &[Option<Place>]) -> bool {
        self.grid.holds_in(places)
            && self.boxes.iter().enumerate().all(|(p, boxes)| {
                let place = Some(Place::Player(Player::new(p)));
                boxes.iter().all(|b| b.iter().any(|c| places[c.index()] == place))
            })
    }
}
