//! The playing agents, and the registry that builds them by name.
//!
//! - [`ExactAgent`] (`"exact"`): reasons with the exact engine, accuses as
//!   soon as it is certain.
//! - [`SleuthAgent`] (`"sleuth"`): the strongest; plays by the exact advice
//!   of `sleuth_core::advice` (focused suggestions from exact counts at up
//!   to four players, exactly ranked ones at larger tables, least revealing
//!   refutations, accusations as a race on the odds against the opponents,
//!   the deals weighed by each opponent's asking habit learned within the
//!   game, [`habits`]). Its variants ([`SLEUTH_VARIANTS`]) change one rule each:
//!   `"sleuth-checked"` reads the tells of opponents whose play shows them,
//!   `"sleuth-exact"` weighs every consistent deal alike (no habit learned),
//!   `"sleuth-certain"` accuses only when certain, `"sleuth-hide"` names its
//!   own cards rather than a certain case-file card, `"sleuth-information"`
//!   ranks every suggestion by expected information, `"sleuth-legacy"` is
//!   the agent before issue 58 (unchecked tells).
//! - [`RandomAgent`] (`"random"`): uniformly random legal moves, accusing
//!   only when a notepad of eliminated cards leaves one card per category.
//! - [`NotepadAgent`] (`"notepad"`): the X/O grid of the Cluedo strategies
//!   seed, accusing when the grid is certain.
//! - [`Group4Agent`] (`"group4"`): that seed's full strategy: the grid, logic
//!   boxes, targeted questions, careful answers and early guesses.
//! - [`SatAgent`] (`"sat"`): complete deduction by a SAT solver, accusing
//!   only when certain.
//!
//! Opponents in the style of the published Speed Clue entrants (see
//! [`entrants`]; they reason with a clause notebook, not Sleuth's engine):
//!
//! - [`MinimaxAgent`] (`"minimax"`): worst-case minimax suggestions,
//!   re-shows cards already shown, accuses only when certain (`SpockAI`).
//! - [`InferenceAgent`] (`"inference"`): suggestions by worst-case
//!   information (`InferencePlayer`).
//! - [`BlufferAgent`] (`"bluffer"`): sometimes asks about its own cards to
//!   mislead.
//!
//! Re-implementations of two published entrants, rule for rule from their
//! source (each module says where every rule comes from), checked against
//! wire transcripts of the real programs:
//!
//! - [`RayAgent`] (`"ray"`): ray's `ai01.py`.
//! - [`SpockAgent`] (`"spock"`): gamecoder's `SpockAI`, the 2014 winner.

pub mod clauses;
pub mod entrants;
mod exact;
pub mod grid;
pub mod group4;
pub mod habits;
mod notepad;
mod random;
pub mod ray;
mod sat;
mod sleuth;
pub mod spock;
pub mod tactics;

pub use entrants::{BlufferAgent, InferenceAgent, MinimaxAgent};
pub use exact::ExactAgent;
pub use group4::{Group4Agent, Group4Options};
pub use notepad::NotepadAgent;
pub use random::RandomAgent;
pub use ray::RayAgent;
pub use sat::{SatAgent, SatKnowledge};
pub use sleuth::{Accusing, SleuthAgent, Tells};
/// The case file if it is certain; the core's function, re-exported for the
/// agents and protocols that check certainty.
pub use sleuth_core::advice::certain_case_file;
pub use spock::SpockAgent;

use crate::agent::{Agent, SimRng};
use rand::seq::IteratorRandom;
use sleuth_core::advice::Objective;
use sleuth_core::{Card, CardSet, Deck};

/// The names of every agent that [`agent_by_name`] can build, in the order
/// reports list them.
pub const AGENT_NAMES: &[&str] =
    &["random", "exact", "notepad", "group4", "sat", "minimax", "inference", "bluffer", "ray", "spock", "sleuth"];

/// Variants of the `sleuth` agent, built by [`agent_by_name`] to measure
/// one rule at a time (TOURNAMENTS.md, "Speed Clue opponents").
pub const SLEUTH_VARIANTS: &[&str] =
    &["sleuth-checked", "sleuth-exact", "sleuth-certain", "sleuth-hide", "sleuth-information", "sleuth-legacy"];

/// The group4 agent with the agent seed's optional ideas ([`Group4Options`]);
/// built by [`agent_by_name`] but not in [`AGENT_NAMES`], so that default
/// tournaments keep their line-up.
pub const GROUP4_VARIANTS: &[&str] = &["group4-least-wanted", "group4-misleading", "group4-least-wanted-misleading"];

/// A fresh agent of the strategy called `name` (one of [`AGENT_NAMES`]), or
/// `None` for an unknown name.
pub fn agent_by_name(name: &str) -> Option<Box<dyn Agent>> {
    let agent: Box<dyn Agent> = match name {
        "random" => Box::new(RandomAgent::new()),
        "exact" => Box::new(ExactAgent::new()),
        "notepad" => Box::new(NotepadAgent::new()),
        "group4" => Box::new(Group4Agent::new()),
        "group4-least-wanted" => {
            Box::new(Group4Agent::with_options(Group4Options { least_wanted: true, misleading: false }))
        }
        "group4-misleading" => {
            Box::new(Group4Agent::with_options(Group4Options { least_wanted: false, misleading: true }))
        }
        "group4-least-wanted-misleading" => {
            Box::new(Group4Agent::with_options(Group4Options { least_wanted: true, misleading: true }))
        }
        "sat" => Box::new(SatAgent::new()),
        "minimax" => Box::new(MinimaxAgent::new()),
        "inference" => Box::new(InferenceAgent::new()),
        "bluffer" => Box::new(BlufferAgent::new()),
        "ray" => Box::new(RayAgent::new()),
        "spock" => Box::new(SpockAgent::new()),
        "sleuth" => Box::new(SleuthAgent::new()),
        "sleuth-checked" => Box::new(Named("sleuth-checked", sleuth(|a| a.tells = Tells::Checked))),
        "sleuth-exact" => Box::new(Named("sleuth-exact", sleuth(|a| a.tells = Tells::Off))),
        "sleuth-certain" => Box::new(Named("sleuth-certain", sleuth(|a| a.accusing = Accusing::Certain))),
        "sleuth-hide" => Box::new(Named("sleuth-hide", sleuth(|a| a.hide = true))),
        "sleuth-information" => Box::new(Named(
            "sleuth-information",
            sleuth(|a| {
                a.focused_up_to = 0;
                a.objective = Objective::Information;
                a.shortlist = 12;
            }),
        )),
        "sleuth-legacy" => Box::new(Named(
            "sleuth-legacy",
            sleuth(|a| {
                a.accusing = Accusing::Legacy;
                a.samples = 6;
            }),
        )),
        _ => return None,
    };
    Some(agent)
}

/// The `sleuth` agent with one setting changed.
fn sleuth(change: impl FnOnce(&mut SleuthAgent)) -> SleuthAgent {
    let mut agent = SleuthAgent::new();
    change(&mut agent);
    agent
}

/// An agent under another name (a variant in tournaments).
struct Named<A>(&'static str, A);

impl<A: Agent> Agent for Named<A> {
    fn name(&self) -> &str {
        self.0
    }
    fn new_game(&mut self, view: &crate::View<'_>, rng: &mut SimRng) {
        self.1.new_game(view, rng);
    }
    fn accuse(&mut self, view: &crate::View<'_>, rng: &mut SimRng) -> Option<CardSet> {
        self.1.accuse(view, rng)
    }
    fn suggest(&mut self, view: &crate::View<'_>, rng: &mut SimRng) -> CardSet {
        self.1.suggest(view, rng)
    }
    fn choose_card_to_show(
        &mut self,
        view: &crate::View<'_>,
        suggester: sleuth_core::Player,
        suggestion: CardSet,
        candidates: CardSet,
        rng: &mut SimRng,
    ) -> Card {
        self.1.choose_card_to_show(view, suggester, suggestion, candidates, rng)
    }
}

/// A uniformly random card of `set`.
///
/// # Panics
/// If `set` is empty.
pub fn random_card(set: CardSet, rng: &mut SimRng) -> Card {
    set.iter().choose(rng).expect("a non-empty set of cards")
}

/// A uniformly random combination: one card of each category of `deck`.
pub fn random_combination(deck: &Deck, rng: &mut SimRng) -> CardSet {
    deck.categories().map(|cat| random_card(deck.category_cards(cat), rng)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_agent_can_be_built_under_its_own_name() {
        for &name in AGENT_NAMES.iter().chain(GROUP4_VARIANTS).chain(SLEUTH_VARIANTS) {
            let agent = agent_by_name(name).unwrap_or_else(|| panic!("agent {name} is listed but not built"));
            assert_eq!(agent.name(), name);
        }
        assert!(agent_by_name("no-such-agent").is_none());
    }
}
