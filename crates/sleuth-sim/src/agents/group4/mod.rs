//! The group4 agent: the full strategy of the Cluedo strategies seed ("Group
//! 4": Harel, Golub and Shin), adapted from its game to Clue's rules.
//!
//! The seed's game differs from Clue: there a player picks whom to
//! interrogate and asks about any number of cards. In Clue a suggestion names
//! one card per category and is answered by the first player clockwise who
//! can. The adaptations, each the closest reading we found:
//!
//! - **Notes** ([`notes`]): the X/O grid (its own hand, face-up cards, cards
//!   shown to it, and an `X` for every card a player could not refute,
//!   whoever asked) plus the seed's logic boxes for refutations it did not
//!   see, with the subset and shared-disjunction rules.
//! - **Whom to ask**: the seed spreads its questions so as to learn about
//!   every player evenly. The agent targets the opponent whose hand it knows
//!   the smallest part of (ties: the nearest clockwise), and "asks" that
//!   player by naming cards the players seated in between are known not to
//!   hold, so the answer comes from the target.
//! - **What to ask**: the seed starts from every card, removes those it knows
//!   the target holds, removes random unknown cards while a "yes" stays
//!   certain, then removes the known card it has revealed most. Here each
//!   category names, in this order of preference: a card the target may
//!   hold that the in-between players cannot (chosen at random: the seed's
//!   random removals); else padding that nobody before the target can
//!   refute: one of its own cards, the one it has revealed least first (the
//!   seed never asks the card it has revealed most, hoping others take its
//!   own cards for ones it does not hold), then a card known to be in the
//!   case file, then a card nobody up to the target can hold; then any card
//!   the target may hold; the target's known cards last. When no opponent
//!   can be reached with a card it may hold, it names case-file candidates.
//! - **Answering**: a card already shown to this suggester if possible (no new
//!   information for anyone); otherwise, and among those, the card it has
//!   revealed most often (ties at random), so that everybody ends up knowing
//!   the same few cards.
//! - **Early guessing** ([`triangulation`]): once at least half of the cards
//!   in play are located on the grid ("a significant portion of the game"),
//!   it accuses the triangulation's favourite case file when that favourite
//!   has stayed the same for enough of its own turns in a row:
//!   `1 + ceil(6 * (1 - located fraction))` turns (the seed waits less as it
//!   knows more, without giving numbers). Only this early guess can be wrong.
//! - **Certain accusations**: as soon as the grid leaves one case-file
//!   candidate per category, it accuses that.
//!
//! It never repeats one of its own suggestions while another combination is
//! left (see [`fresh_suggestion`](super::tactics::fresh_suggestion)).
//!
//! Two of the seed's ideas it did not use are options ([`Group4Options`],
//! registered as `group4-least-wanted` and `group4-misleading`):
//!
//! - **Least wanted cards**: "wait until halfway through the game and then
//!   look for what cards had been asked the least (but most diversely so), and
//!   decide that those cards were not in the hidden pile", "eliminate them
//!   from our questioning", combined as the seed proposes with questioning one
//!   player until its hand is known before moving on. Here: until half the
//!   cards are located it targets the opponent it knows the most of (among
//!   those not fully known); from then on, the least known as usual, and the
//!   case-file candidates below the threshold of
//!   [`triangulation::least_wanted`] are neither asked about (unless nothing
//!   else reaches the target) nor early-guess candidates.
//! - **Misleading questions**: the spoofing method the seed found it could not
//!   resist: "hides one card more than any of the others - so that it would be
//!   the last card that everyone learned about when interrogating you - and
//!   then pads that card in all of the players' questions." Here: a decoy,
//!   one card of its hand drawn at the start, is never shown while another
//!   card can answer, and is the first choice of its category in every one of
//!   its suggestions (only the rule against repeating a suggestion can push it
//!   out), so that others who count who asks about what take it for a
//!   case-file card.

pub mod notes;
pub mod triangulation;

use super::random_card;
use super::tactics::{reshow_pool, shown_by_me, suggest_by_tiers};
use crate::agent::{Agent, SimRng, View};
use crate::agents::grid::Grid;
use notes::Group4Notes;
use rand::seq::SliceRandom;
use sleuth_core::{Card, CardSet, Place, Player};
use triangulation::Triangulation;

/// The seed's ideas the plain agent leaves out; see the [module docs](self).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Group4Options {
    /// Least wanted cards, with questioning one player at a time until halfway.
    pub least_wanted: bool,
    /// Misleading questions: a decoy card of its own in every suggestion.
    pub misleading: bool,
}

/// The group4 agent; see the [module docs](self).
#[derive(Clone, Debug, Default)]
pub struct Group4Agent {
    /// Which of the seed's optional ideas it plays.
    options: Group4Options,
    /// The misleading decoy (drawn at the start of a game).
    decoy: Option<Card>,
    /// The notes of the view with this many events.
    cache: Option<(usize, Group4Notes)>,
    /// The favourite case file at its last turn, and for how many of its
    /// turns in a row it has been the favourite.
    favourite: Option<(CardSet, usize)>,
}

/// How the last accusation decision was made.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The grid proves the case file.
    Certain,
    /// The triangulation's early guess.
    Early,
}

impl Group4Agent {
    /// A new group4 agent.
    pub fn new() -> Group4Agent {
        Group4Agent::default()
    }

    /// A new group4 agent with the seed's optional ideas of `options`.
    pub fn with_options(options: Group4Options) -> Group4Agent {
        Group4Agent { options, ..Group4Agent::default() }
    }

    /// The least wanted cards now (empty without the option or before halfway).
    fn least_wanted(&self, view: &View<'_>, grid: &Grid) -> CardSet {
        if !self.options.least_wanted || !halfway(grid) {
            return CardSet::EMPTY;
        }
        let deck = view.deck();
        triangulation::least_wanted(
            &Triangulation::from_view(view),
            grid.case_file_candidates(),
            deck.categories().map(|c| deck.category_cards(c)),
        )
    }

    fn notes(&mut self, view: &View<'_>) -> &Group4Notes {
        let events = view.events().len();
        if self.cache.as_ref().is_none_or(|(n, _)| *n != events) {
            self.cache = Some((events, Group4Notes::from_view(view)));
        }
        &self.cache.as_ref().expect("just filled").1
    }

    /// The accusation it makes on `view`, and why; `None` if it does not accuse.
    pub fn decide_accusation(&mut self, view: &View<'_>) -> Option<(CardSet, Reason)> {
        let favourite = self.favourite;
        let grid = self.notes(view).grid();
        if let Some(certain) = grid.certain_case_file() {
            return Some((certain, Reason::Certain));
        }
        let (guess, streak) = favourite?;
        let located = grid.located().len() as f64 / grid.in_play().len() as f64;
        let needed = 1 + (6.0 * (1.0 - located)).ceil() as usize;
        let still_possible = guess.is_subset(grid.case_file_candidates());
        (halfway(grid) && streak >= needed && still_possible).then_some((guess, Reason::Early))
    }

    /// Notes the triangulation's favourite at the start of one of its turns.
    fn update_favourite(&mut self, view: &View<'_>) {
        let deck = view.deck();
        let grid = self.notes(view).grid().clone();
        let candidates = grid.case_file_candidates() - self.least_wanted(view, &grid);
        let now = Triangulation::from_view(view)
            .favourites_among(candidates, deck.categories().map(|c| deck.category_cards(c)));
        self.favourite = match (now, self.favourite) {
            (Some(f), Some((old, streak))) if f == old => Some((f, streak + 1)),
            (Some(f), _) => Some((f, 1)),
            (None, _) => None,
        };
    }

    /// The opponent to question: least known first, nearest clockwise on
    /// ties, among those with a card it does not know; with the cards that
    /// reach it (it may hold them, nobody seated before it can).
    fn target(notes: &Group4Notes, view: &View<'_>, most_known_first: bool) -> Option<(Player, CardSet)> {
        let grid = notes.grid();
        let game = view.game();
        let me = view.me();
        let order: Vec<Player> = game.players_after(me).collect();
        let known = |p: Player| (grid.yes(Place::Player(p)).len(), grid.hand_size(p));
        let mut targets: Vec<Player> = order.iter().copied().filter(|&p| known(p).0 < known(p).1).collect();
        // Stable: equal fractions keep the clockwise order.
        targets.sort_by(|&a, &b| {
            let ((ka, ha), (kb, hb)) = (known(a), known(b));
            let order = (ka * hb).cmp(&(kb * ha));
            if most_known_first {
                order.reverse()
            } else {
                order
            }
        });
        targets.into_iter().find_map(|t| {
            let between = order.iter().take_while(|&&q| q != t);
            let blocked = between.fold(CardSet::EMPTY, |acc, &q| acc | (grid.in_play() - grid.no(Place::Player(q))));
            let reach = grid.open(Place::Player(t)) - blocked;
            (!reach.is_empty()).then_some((t, reach))
        })
    }
}

impl Agent for Group4Agent {
    fn name(&self) -> &str {
        match (self.options.least_wanted, self.options.misleading) {
            (false, false) => "group4",
            (true, false) => "group4-least-wanted",
            (false, true) => "group4-misleading",
            (true, true) => "group4-least-wanted-misleading",
        }
    }

    fn new_game(&mut self, view: &View<'_>, rng: &mut SimRng) {
        *self = Group4Agent::with_options(self.options);
        if self.options.misleading {
            let hand: Vec<Card> = view.hand().iter().collect();
            self.decoy = hand.choose(rng).copied();
        }
    }

    fn accuse(&mut self, view: &View<'_>, _rng: &mut SimRng) -> Option<CardSet> {
        self.decide_accusation(view).map(|(cards, _)| cards)
    }

    fn suggest(&mut self, view: &View<'_>, rng: &mut SimRng) -> CardSet {
        self.update_favourite(view);
        let notes = self.notes(view).clone();
        let grid = notes.grid();
        let hand = view.hand();
        let least_wanted = self.least_wanted(view, grid);
        let one_at_a_time = self.options.least_wanted && !halfway(grid);
        let decoy = self.decoy.map_or(CardSet::EMPTY, CardSet::single);
        let Some((target, reach)) = Group4Agent::target(&notes, view, one_at_a_time) else {
            // Every hand is known: ask about the case-file candidates.
            let candidates = grid.case_file_candidates();
            return suggest_by_tiers(view, rng, |cards| vec![cards & decoy, cards & candidates]);
        };
        let game = view.game();
        let me = view.me();
        let t = Place::Player(target);
        // Cards nobody from the next player up to the target may hold.
        let mut silent = grid.in_play();
        for p in game.players_after(me) {
            silent &= grid.no(Place::Player(p));
            if p == target {
                break;
            }
        }
        let revealed = reveal_counts(view);
        let mut own_by_reveals: Vec<CardSet> = Vec::new();
        let mut counts: Vec<usize> = hand.iter().map(|c| revealed[c.index()]).collect();
        counts.sort_unstable();
        counts.dedup();
        for k in counts {
            own_by_reveals.push(hand.iter().filter(|c| revealed[c.index()] == k).collect());
        }
        let case_file = grid.yes(Place::CaseFile);
        let open = grid.open(t);
        // Least wanted cards are left out of the questions while others reach the target.
        let reach = if (reach - least_wanted).is_empty() { reach } else { reach - least_wanted };
        suggest_by_tiers(view, rng, |cards| {
            let mut tiers = vec![cards & decoy, cards & reach];
            tiers.extend(own_by_reveals.iter().map(|&own| cards & own));
            tiers.extend([cards & case_file, cards & silent, cards & open, cards - grid.yes(t)]);
            tiers
        })
    }

    fn choose_card_to_show(
        &mut self,
        view: &View<'_>,
        suggester: Player,
        _suggestion: CardSet,
        candidates: CardSet,
        rng: &mut SimRng,
    ) -> Card {
        // The decoy stays hidden while another card can answer.
        let candidates = match self.decoy {
            Some(d) if candidates.len() > 1 => candidates - CardSet::single(d),
            _ => candidates,
        };
        let pool = reshow_pool(view, suggester, candidates);
        let revealed = reveal_counts(view);
        let top = pool.iter().map(|c| revealed[c.index()]).max().unwrap_or(0);
        let best: Vec<Card> = pool.iter().filter(|c| revealed[c.index()] == top).collect();
        best.choose(rng).copied().unwrap_or_else(|| random_card(candidates, rng))
    }
}

/// "A significant portion of the game": at least half of the cards in play
/// are located on the grid.
fn halfway(grid: &Grid) -> bool {
    2 * grid.located().len() >= grid.in_play().len()
}

/// How many times this player has shown each card, indexed by card.
fn reveal_counts(view: &View<'_>) -> Vec<usize> {
    let mut counts = vec![0; view.deck().len()];
    for (_, c) in shown_by_me(view) {
        counts[c.index()] += 1;
    }
    counts
}
