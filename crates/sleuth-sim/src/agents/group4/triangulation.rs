//! Group 4's "triangulation": guessing the case file from who asks about
//! which cards, before the grid proves it.
//!
//! The seed's premise: nobody asks about a card they know to be in the asked
//! player's hand, so the case-file cards, which nobody can ever find, keep
//! being asked about, and by many different players. Two tables record every
//! other player's suggestions: who asked about each card (`asked_by`) and who
//! was asked (`asked_of`: every player who answered, passing or refuting).
//! Each mention adds `3` when the answer was no and `2` when it was yes (a
//! "no" makes it likelier that the card is hidden). For `asked_by` the answer
//! is the suggestion's (refuted or not); for `asked_of` it is that player's.
//! Every cell is halved at the start of each round, so later questions,
//! asked with more knowledge, weigh more.
//!
//! A card's score in a table is the product over players of `1 + cell`:
//! the seed multiplies "the card cells of both arrays together" so that a
//! card asked about by five players beats one asked five times by one player
//! (for the same total, a product is largest when spread out; the `1 +`
//! keeps a player who never mentioned a card from zeroing its score, which
//! the seed's plain product would do). Its own suggestions say nothing about
//! what others know, so the agent leaves them out.
//!
//! The favourites are, per category, the case-file candidate with the top
//! score in each table; they count only when both tables agree and each top
//! is unique (the seed's "top sets of numbers from the two arrays" being the
//! same).

use crate::agent::View;
use crate::agents::grid::Grid;
use sleuth_core::model::passed_players;
use sleuth_core::{Card, CardSet, Event};

/// What a "no" adds to a cell.
pub const NO_WEIGHT: f64 = 3.0;
/// What a "yes" adds to a cell.
pub const YES_WEIGHT: f64 = 2.0;

/// The two tables of who asked about which card, and who was asked.
#[derive(Clone, Debug, PartialEq)]
pub struct Triangulation {
    /// `asked_by[player][card]`.
    asked_by: Vec<Vec<f64>>,
    /// `asked_of[player][card]`.
    asked_of: Vec<Vec<f64>>,
}

impl Triangulation {
    /// The tables of `view`'s suggestions by other players.
    pub fn from_view(view: &View<'_>) -> Triangulation {
        let game = view.game();
        let (n, cards) = (game.num_players(), game.deck().len());
        let mut t = Triangulation { asked_by: vec![vec![0.0; cards]; n], asked_of: vec![vec![0.0; cards]; n] };
        let mut last_seat = None;
        for event in view.events() {
            let Event::Suggestion(s) = event else { continue };
            // Turns go in seat order: a suggester not after the last one starts a round.
            if last_seat.is_some_and(|l| s.by.index() <= l) {
                t.halve();
            }
            last_seat = Some(s.by.index());
            if s.by == view.me() {
                continue;
            }
            let answer = |yes: bool| if yes { YES_WEIGHT } else { NO_WEIGHT };
            for c in s.cards {
                t.asked_by[s.by.index()][c.index()] += answer(s.refuted_by.is_some());
                for q in passed_players(game, s.by, s.refuted_by) {
                    t.asked_of[q.index()][c.index()] += answer(false);
                }
                if let Some(r) = s.refuted_by {
                    t.asked_of[r.index()][c.index()] += answer(true);
                }
            }
        }
        t
    }

    fn halve(&mut self) {
        for row in self.asked_by.iter_mut().chain(self.asked_of.iter_mut()) {
            for x in row {
                *x /= 2.0;
            }
        }
    }

    /// How diversely `card` was asked about: by whom, and of whom.
    pub fn scores(&self, card: Card) -> (f64, f64) {
        let score = |table: &[Vec<f64>]| table.iter().map(|row| 1.0 + row[card.index()]).product();
        (score(&self.asked_by), score(&self.asked_of))
    }

    /// The favourite case file: per category of `categories`, the grid's
    /// case-file candidate with the unique top score in both tables, if the
    /// two agree in every category.
    pub fn favourites(&self, grid: &Grid, categories: impl IntoIterator<Item = CardSet>) -> Option<CardSet> {
        self.favourites_among(grid.case_file_candidates(), categories)
    }

    /// [`favourites`](Self::favourites) among `candidates` only.
    pub fn favourites_among(
        &self,
        candidates: CardSet,
        categories: impl IntoIterator<Item = CardSet>,
    ) -> Option<CardSet> {
        let mut out = CardSet::EMPTY;
        for cat in categories {
            let cards = cat & candidates;
            let by = unique_top(cards, |c| self.scores(c).0)?;
            let of = unique_top(cards, |c| self.scores(c).1)?;
            if by != of {
                return None;
            }
            out.insert(by);
        }
        Some(out)
    }
}

/// The seed's "least wanted cards": per category of `categories`, the case-file
/// candidates asked about so little that they are taken not to be hidden.
/// The seed draws a threshold line without giving its height; here a card is
/// least wanted when its score is below half the median score of its
/// category's candidates in both tables. At least one candidate per category
/// is always kept.
pub fn least_wanted(t: &Triangulation, candidates: CardSet, categories: impl IntoIterator<Item = CardSet>) -> CardSet {
    let mut out = CardSet::EMPTY;
    for cat in categories {
        let cards: Vec<Card> = (cat & candidates).iter().collect();
        if cards.len() < 2 {
            continue;
        }
        let median = |pick: fn((f64, f64)) -> f64| {
            let mut s: Vec<f64> = cards.iter().map(|&c| pick(t.scores(c))).collect();
            s.sort_by(f64::total_cmp);
            s[s.len() / 2]
        };
        let (by, of) = (median(|s| s.0), median(|s| s.1));
        let low: Vec<Card> = cards
            .iter()
            .copied()
            .filter(|&c| {
                let (b, o) = t.scores(c);
                b < by / 2.0 && o < of / 2.0
            })
            .collect();
        // A median-based threshold never takes every card, but keep one to be safe.
        for &c in low.iter().take(cards.len() - 1) {
            out.insert(c);
        }
    }
    out
}

/// The card of `cards` with the highest score, if no other card ties it.
fn unique_top(cards: CardSet, score: impl Fn(Card) -> f64) -> Option<Card> {
    let mut best: Option<(Card, f64)> = None;
    let mut tied = false;
    for c in cards {
        let s = score(c);
        match best {
            Some((_, b)) if s < b => {}
            Some((_, b)) if s == b => tied = true,
            _ => {
                best = Some((c, s));
                tied = false;
            }
        }
    }
    best.filter(|_| !tied).map(|(c, _)| c)
}
