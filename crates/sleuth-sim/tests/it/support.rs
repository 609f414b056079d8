//! Scripted agents, a view-recording wrapper and small helpers.

use sleuth_core::format::GameFile;
use sleuth_core::{Card, CardSet, Deck, Game, Player};
use sleuth_sim::{Agent, SimRng, View};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// The cards with these ids.
pub fn cards(deck: &Deck, ids: &[&str]) -> CardSet {
    ids.iter().map(|id| deck.card(id).unwrap_or_else(|| panic!("no card {id}"))).collect()
}

pub fn card(deck: &Deck, id: &str) -> Card {
    deck.card(id).unwrap()
}

/// One step of a scripted agent's plan.
#[derive(Clone, Debug)]
pub enum Step {
    /// Accuse at the next chance to.
    Accuse(CardSet),
    /// Decline the next chance to accuse.
    Pass,
    /// Make this suggestion at the next turn (declining accusations until then).
    Suggest(CardSet),
}

/// What a scripted agent was asked to show, and by whom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShowCall {
    pub me: Player,
    pub suggester: Player,
    pub suggestion: CardSet,
    pub candidates: CardSet,
    pub events_seen: usize,
}

/// Follows a script; afterwards suggests `fallback` and never accuses.
/// Refutes with the first card of `show_preference` it may show, else the
/// lowest candidate (or `bad_show` if set, to test illegal moves).
pub struct Scripted {
    pub plan: VecDeque<Step>,
    pub fallback: CardSet,
    pub show_preference: Vec<Card>,
    pub bad_show: Option<Card>,
    pub calls: Arc<Mutex<Vec<ShowCall>>>,
}

impl Scripted {
    pub fn new(plan: Vec<Step>, fallback: CardSet) -> Scripted {
        Scripted {
            plan: plan.into(),
            fallback,
            show_preference: Vec::new(),
            bad_show: None,
            calls: Arc::new(Mutex::new(Vec::new())),
        }
    }
}

impl Agent for Scripted {
    fn name(&self) -> &str {
        "scripted"
    }

    fn accuse(&mut self, _view: &View<'_>, _rng: &mut SimRng) -> Option<CardSet> {
        match self.plan.front() {
            Some(Step::Accuse(c)) => {
                let c = *c;
                self.plan.pop_front();
                Some(c)
            }
            Some(Step::Pass) => {
                self.plan.pop_front();
                None
            }
            _ => None,
        }
    }

    fn suggest(&mut self, _view: &View<'_>, _rng: &mut SimRng) -> CardSet {
        match self.plan.front() {
            Some(Step::Suggest(c)) => {
                let c = *c;
                self.plan.pop_front();
                c
            }
            _ => self.fallback,
        }
    }

    fn choose_card_to_show(
        &mut self,
        view: &View<'_>,
        suggester: Player,
        suggestion: CardSet,
        candidates: CardSet,
        _rng: &mut SimRng,
    ) -> Card {
        self.calls.lock().unwrap().push(ShowCall {
            me: view.me(),
            suggester,
            suggestion,
            candidates,
            events_seen: view.events().len(),
        });
        if let Some(c) = self.bad_show {
            return c;
        }
        self.show_preference
            .iter()
            .copied()
            .find(|&c| candidates.contains(c))
            .unwrap_or_else(|| candidates.first_card().unwrap())
    }
}

/// What an agent was shown at one call.
#[derive(Clone, Debug)]
pub struct Seen {
    pub seat: usize,
    pub call: &'static str,
    pub file: GameFile,
    pub game: Game,
    pub me: Player,
    pub hand: CardSet,
}

/// Every view recorded, shared by the recorders of one game.
pub type Log = Arc<Mutex<Vec<Seen>>>;

/// Wraps an agent and records every view it is given.
pub struct Recorder {
    pub inner: Box<dyn Agent>,
    pub seat: usize,
    pub log: Log,
}

impl Recorder {
    fn note(&self, call: &'static str, view: &View<'_>) {
        self.log.lock().unwrap().push(Seen {
            seat: self.seat,
            call,
            file: view.file().clone(),
            game: view.game().clone(),
            me: view.me(),
            hand: view.hand(),
        });
    }
}

impl Agent for Recorder {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn new_game(&mut self, view: &View<'_>, rng: &mut SimRng) {
        self.note("new_game", view);
        self.inner.new_game(view, rng);
    }
    fn accuse(&mut self, view: &View<'_>, rng: &mut SimRng) -> Option<CardSet> {
        self.note("accuse", view);
        self.inner.accuse(view, rng)
    }
    fn suggest(&mut self, view: &View<'_>, rng: &mut SimRng) -> CardSet {
        self.note("suggest", view);
        self.inner.suggest(view, rng)
    }
    fn choose_card_to_show(
        &mut self,
        view: &View<'_>,
        suggester: Player,
        suggestion: CardSet,
        candidates: CardSet,
        rng: &mut SimRng,
    ) -> Card {
        self.note("show", view);
        self.inner.choose_card_to_show(view, suggester, suggestion, candidates, rng)
    }
}

pub fn exact_agents(n: usize) -> Vec<Box<dyn Agent>> {
    (0..n).map(|_| Box::new(sleuth_sim::ExactAgent::new()) as Box<dyn Agent>).collect()
}

pub fn random_agents(n: usize) -> Vec<Box<dyn Agent>> {
    (0..n).map(|_| Box::new(sleuth_sim::RandomAgent::new()) as Box<dyn Agent>).collect()
}

/// Exact agents in even seats, random ones in odd seats.
pub fn mixed_agents(n: usize) -> Vec<Box<dyn Agent>> {
    (0..n)
        .map(|i| {
            if i % 2 == 0 {
                Box::new(sleuth_sim::ExactAgent::new()) as Box<dyn Agent>
            } else {
                Box::new(sleuth_sim::RandomAgent::new()) as Box<dyn Agent>
            }
        })
        .collect()
}
