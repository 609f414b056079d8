//! The notepad agent: the X/O grid of the Cluedo strategies seed and nothing
//! more.

use super::grid::Grid;
use super::random_card;
use super::tactics::{reshow_pool, suggest_by_tiers};
use crate::agent::{Agent, SimRng, View};
use sleuth_core::model::passed_players;
use sleuth_core::{Card, CardSet, Event, Place, Player};

/// Plays from the seed's X/O grid alone, the way a careful player with a
/// paper notepad does.
///
/// - **Notes**: `O` for its own cards (and, its hand being full, `X` for
///   every other card in its row), `X` everywhere for face-up cards, `O`
///   for a card shown to it in the refuter's row, and `X` for all three
///   suggested cards in the row of every player who could not refute a
///   suggestion (the seed: "when we learn that a player does not have a
///   card, we put an X"); then the grid rules of [`Grid::close`]. It draws
///   nothing from *who* refuted other players' suggestions ("holds at least
///   one of these"): those disjunctions are the logic boxes of the
///   [`group4`](super::Group4Agent) agent.
/// - **Accuses** as soon as the grid leaves exactly one case-file candidate
///   in every category, and never otherwise. The grid is sound, so it is
///   never wrong.
/// - **Suggests** the seed's simple way: it asks only about cards it knows
///   nothing about, that is, one case-file candidate per category (a
///   category already solved names its culprit, which nobody can refute).
///   It never repeats an earlier suggestion of its own while another
///   combination is left; see [`fresh_suggestion`](super::tactics::fresh_suggestion).
/// - **Refutes** as the seed's answering starts: a card it has already shown
///   to the same suggester if it can (the suggester learns nothing new),
///   otherwise a random matching card.
#[derive(Clone, Debug, Default)]
pub struct NotepadAgent;

impl NotepadAgent {
    /// A new notepad agent.
    pub fn new() -> NotepadAgent {
        NotepadAgent
    }

    /// The agent's grid for `view`: its own hand, the face-up cards and the
    /// cards shown to it, closed under the grid rules.
    pub fn grid(view: &View<'_>) -> Grid {
        let mut grid = Grid::new(view.game());
        let me = view.me();
        for c in view.hand() {
            grid.mark_yes(c, Place::Player(me));
        }
        for event in view.events() {
            if let Event::Suggestion(s) = event {
                if let (true, Some(r), Some(c)) = (s.by == me, s.refuted_by, s.shown) {
                    grid.mark_yes(c, Place::Player(r));
                }
                for q in passed_players(view.game(), s.by, s.refuted_by) {
                    for c in s.cards {
                        grid.mark_no(c, Place::Player(q));
                    }
                }
            }
        }
        grid.close();
        grid
    }
}

impl Agent for NotepadAgent {
    fn name(&self) -> &str {
        "notepad"
    }

    fn accuse(&mut self, view: &View<'_>, _rng: &mut SimRng) -> Option<CardSet> {
        NotepadAgent::grid(view).certain_case_file()
    }

    fn suggest(&mut self, view: &View<'_>, rng: &mut SimRng) -> CardSet {
        let candidates = NotepadAgent::grid(view).case_file_candidates();
        suggest_by_tiers(view, rng, |cards| vec![cards & candidates])
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
