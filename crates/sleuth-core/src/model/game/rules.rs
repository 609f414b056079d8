//! The rules of play checked on a complete deal.

use super::Game;
use crate::model::{Card, Event, Place};

impl Game {
    /// Whether a complete deal (`place[card]`, `None` for face-up cards) fits
    /// every event and the observer's hand, checked by playing the rules:
    /// independent of the deduction and the counter, so it checks them (a
    /// sampled deal, a witness from a SAT solver, the true deal of a
    /// simulated game).
    pub fn fits(&self, place: &[Option<Place>]) -> bool {
        let holds = |p: Place, c: Card| place[c.index()] == Some(p);
        if let Some((me, hand)) = self.observer() {
            if !hand.iter().all(|c| holds(Place::Player(me), c)) {
                return false;
            }
        }
        for event in self.events() {
            match event {
                Event::Suggestion(s) => {
                    // Ask clockwise; the first player holding any card refutes.
                    let actual = self.players_after(s.by).find(|&q| s.cards.iter().any(|c| holds(Place::Player(q), c)));
                    if actual != s.refuted_by {
                        return false;
                    }
                    if let (Some(r), Some(c)) = (s.refuted_by, s.shown) {
                        if !holds(Place::Player(r), c) {
                            return false;
                        }
                    }
                }
                Event::Accusation(a) => {
                    let right = a.cards.iter().all(|c| holds(Place::CaseFile, c));
                    if right != a.correct {
                        return false;
                    }
                }
            }
        }
        true
    }
}
