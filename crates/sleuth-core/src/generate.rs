//! A seeded generator of random games played by the rules.
//!
//! It deals at random, plays random suggestions refuted by the rules (the
//! first player clockwise holding a suggested card shows one of them, chosen
//! at random), sprinkles accusations, and writes what one observer (or a
//! bystander) saw as a [`GameFile`]. Optionally it corrupts one event, which
//! usually makes the history inconsistent, to exercise conflict reporting.

use crate::format::{
    AccusationSpec, CardSpec, CategorySpec, CustomDeck, DeckSpec, EventSpec, GameFile, SuggestionSpec,
};
use crate::model::{default_hand_sizes, Deck};
use rand::seq::SliceRandom;
use rand::Rng;
use std::collections::BTreeMap;

/// Which deck to generate with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeckChoice {
    /// The classic 21 cards.
    Classic,
    /// Clue Master Detective's 30 cards.
    Master,
    /// Categories with these numbers of cards (ids `a0`, `b1`, ...).
    Custom(Vec<usize>),
}

/// What kind of game to generate.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// The deck.
    pub deck: DeckChoice,
    /// The number of players.
    pub players: usize,
    /// Whether the file is from a player's view (seat 0) or a bystander's.
    pub observer: bool,
    /// How many suggestions to play.
    pub suggestions: usize,
    /// How many cards to lay face up before dealing.
    pub face_up: usize,
    /// The chance, per suggestion, of an accusation after it.
    pub accusation_rate: f64,
    /// Whether to write explicit hand sizes (same values as the default).
    pub explicit_hand_sizes: bool,
    /// Whether to corrupt one random event (usually an inconsistent history).
    pub corrupt: bool,
}

impl GenConfig {
    /// A plain game: no face-up cards, accusations or corruption.
    pub fn new(deck: DeckChoice, players: usize, observer: bool, suggestions: usize) -> GenConfig {
        GenConfig {
            deck,
            players,
            observer,
            suggestions,
            face_up: 0,
            accusation_rate: 0.0,
            explicit_hand_sizes: false,
            corrupt: false,
        }
    }
}

/// A generated game: the file and the true deal behind it.
#[derive(Clone, Debug)]
pub struct Generated {
    /// What the observer saw.
    pub file: GameFile,
    /// The true place of every card id: a player id, `case_file`, or `face_up`.
    pub deal: BTreeMap<String, String>,
}

fn deck_spec(choice: &DeckChoice) -> (DeckSpec, Deck) {
    match choice {
        DeckChoice::Classic => (DeckSpec::Named("classic".into()), Deck::classic()),
        DeckChoice::Master => (DeckSpec::Named("master".into()), Deck::master()),
        DeckChoice::Custom(sizes) => {
            let categories: Vec<CategorySpec> = sizes
                .iter()
                .enumerate()
                .map(|(k, &n)| {
                    let letter = (b'a' + k as u8) as char;
                    CategorySpec {
                        name: format!("category {letter}"),
                        cards: (0..n).map(|i| CardSpec::Id(format!("{letter}{i}"))).collect(),
                    }
                })
                .collect();
            let deck = Deck::custom(
                categories
                    .iter()
                    .map(|c| {
                        let ids = c
                            .cards
                            .iter()
                            .map(|card| match card {
                                CardSpec::Id(id) => (id.clone(), id.clone()),
                                CardSpec::Named { id, name } => (id.clone(), name.clone()),
                            })
                            .collect();
                        (c.name.clone(), ids)
                    })
                    .collect(),
            )
            .expect("generated decks are valid");
            (DeckSpec::Custom(CustomDeck { categories }), deck)
        }
    }
}

/// Generates a random game.
///
/// # Panics
/// If the configuration cannot make a game (more face-up cards than can be
/// spared, or fewer than 2 players).
pub fn generate<R: Rng>(cfg: &GenConfig, rng: &mut R) -> Generated {
    let (deck_spec, deck) = deck_spec(&cfg.deck);
    let n = cfg.players;
    assert!(n >= 2, "at least two players");
    let players: Vec<String> = (0..n).map(|i| format!("p{}", i + 1)).collect();

    // The case file, face-up cards, and hands.
    let mut case = Vec::new();
    for cat in deck.categories() {
        let cards: Vec<_> = deck.category_cards(cat).iter().collect();
        case.push(*cards.choose(rng).expect("categories are non-empty"));
    }
    let mut rest: Vec<_> = deck.cards().filter(|c| !case.contains(c)).collect();
    rest.shuffle(rng);
    assert!(cfg.face_up <= rest.len(), "too many face-up cards");
    let face_up: Vec<_> = rest.drain(..cfg.face_up).collect();
    let sizes = default_hand_sizes(rest.len(), n);
    let mut hands: Vec<Vec<_>> = vec![Vec::new(); n];
    for (i, c) in rest.into_iter().enumerate() {
        hands[i % n].push(c);
    }
    let holder = |c| hands.iter().position(|h| h.contains(&c));

    let mut events = Vec::new();
    let observer = cfg.observer.then_some(0usize);
    for _ in 0..cfg.suggestions {
        let by = rng.gen_range(0..n);
        let cards: Vec<_> = deck
            .categories()
            .map(|cat| *deck.category_cards(cat).iter().collect::<Vec<_>>().choose(rng).expect("non-empty"))
            .collect();
        let mut refuter = None;
        for step in 1..n {
            let q = (by + step) % n;
            if cards.iter().any(|&c| holder(c) == Some(q)) {
                refuter = Some(q);
                break;
            }
        }
        let shown = refuter.and_then(|r| {
            let held: Vec<_> = cards.iter().copied().filter(|&c| holder(c) == Some(r)).collect();
            let c = *held.choose(rng).expect("the refuter holds a suggested card");
            (observer == Some(by) || observer == Some(r)).then_some(c)
        });
        events.push(EventSpec::Suggestion(SuggestionSpec {
            by: players[by].clone(),
            cards: cards.iter().map(|&c| deck.id(c).to_string()).collect(),
            refuted_by: refuter.map(|r| players[r].clone()),
            shown: shown.map(|c| deck.id(c).to_string()),
        }));
        if rng.gen_bool(cfg.accusation_rate.clamp(0.0, 1.0)) {
            let accused: Vec<_> = deck
                .categories()
                .map(|cat| *deck.category_cards(cat).iter().collect::<Vec<_>>().choose(rng).expect("non-empty"))
                .collect();
            events.push(EventSpec::Accusation(AccusationSpec {
                by: players[rng.gen_range(0..n)].clone(),
                correct: accused == case,
                cards: accused.iter().map(|&c| deck.id(c).to_string()).collect(),
            }));
        }
    }
    if cfg.corrupt && !events.is_empty() {
        let i = rng.gen_range(0..events.len());
        let me = observer.map(|o| players[o].clone());
        corrupt(&mut events[i], &players, me.as_deref(), rng);
    }

    let mut deal = BTreeMap::new();
    for &c in &case {
        deal.insert(deck.id(c).to_string(), "case_file".to_string());
    }
    for &c in &face_up {
        deal.insert(deck.id(c).to_string(), "face_up".to_string());
    }
    for (p, hand) in hands.iter().enumerate() {
        for &c in hand {
            deal.insert(deck.id(c).to_string(), players[p].clone());
        }
    }
    let file = GameFile {
        version: 1,
        deck: deck_spec,
        hand_sizes: cfg
            .explicit_hand_sizes
            .then(|| players.iter().zip(&sizes).map(|(p, &s)| (p.clone(), s as i64)).collect()),
        face_up: face_up.iter().map(|&c| deck.id(c).to_string()).collect(),
        me: observer.map(|o| players[o].clone()),
        hand: observer.map(|o| hands[o].iter().map(|&c| deck.id(c).to_string()).collect()),
        players,
        events,
    };
    Generated { file, deal }
}

/// Changes one event so that it (usually) no longer fits the deal, keeping
/// it valid as a file.
fn corrupt<R: Rng>(event: &mut EventSpec, players: &[String], me: Option<&str>, rng: &mut R) {
    match event {
        EventSpec::Accusation(a) => a.correct = !a.correct,
        EventSpec::Suggestion(s) => {
            let others: Vec<&String> = players.iter().filter(|p| **p != s.by).collect();
            let choice = rng.gen_range(0..=others.len());
            s.refuted_by = others.get(choice).map(|p| (*p).clone());
            // A shown card only makes sense with a refuter the observer saw.
            let saw = me.is_some() && (me == Some(s.by.as_str()) || me == s.refuted_by.as_deref());
            if s.refuted_by.is_none() || !saw {
                s.shown = None;
            }
        }
    }
}
