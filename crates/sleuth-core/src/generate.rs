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
use crate::model::{default_hand_sizes, MAX_CARDS, MAX_PLAYERS};
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
    /// Categories with these numbers of cards (ids `a0`, `a1`, ..., `b0`,
    /// ...): at most [`MAX_CATEGORIES`] categories, each with at least one
    /// card, and at most [`MAX_CARDS`] cards in all.
    Custom(Vec<usize>),
}

/// The most categories of a generated custom deck (one letter each).
pub const MAX_CATEGORIES: usize = 26;

/// Why a [`GenConfig`] cannot make a game.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum GenError {
    /// Fewer than 2 or more than [`MAX_PLAYERS`] players.
    #[error("between 2 and {MAX_PLAYERS} players are supported, not {0}")]
    Players(usize),
    /// More face-up cards than there are outside the case file.
    #[error("too many face-up cards ({face_up}): at most {spare} are outside the case file")]
    FaceUp {
        /// The face-up cards asked for.
        face_up: usize,
        /// The cards outside the case file.
        spare: usize,
    },
    /// The accusation rate is not a probability.
    #[error("accusation rate {0} is not between 0 and 1")]
    AccusationRate(f64),
    /// A custom deck without categories.
    #[error("a custom deck needs at least one category")]
    NoCategories,
    /// A custom deck with more than [`MAX_CATEGORIES`] categories.
    #[error("too many categories ({0}): at most {MAX_CATEGORIES} are supported")]
    TooManyCategories(usize),
    /// A custom deck category without cards (its 0-based index; the
    /// message counts from 1).
    #[error("every category needs at least one card, and category {} has none", .0 + 1)]
    EmptyCategory(usize),
    /// A custom deck with more than [`MAX_CARDS`] cards.
    #[error("too many cards ({0}): at most {MAX_CARDS} are supported")]
    TooManyCards(usize),
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
    /// The chance, per suggestion, of an accusation after it (0 to 1).
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

impl Generated {
    /// A player's view of this game: the observer's; for a bystander's
    /// file, the first seat's, with its hand from the true deal.
    ///
    /// # Errors
    /// The game file's problems, as [`crate::Game::new`] names them.
    pub fn player_view(&self) -> Result<crate::Game, crate::GameError> {
        let game = crate::Game::new(&self.file)?;
        let Some(seat) = game.players().next().filter(|_| game.observer().is_none()) else { return Ok(game) };
        let hand: crate::CardSet = self
            .deal
            .iter()
            .filter(|(_, place)| game.player(place) == Some(seat))
            .filter_map(|(card, _)| game.deck().card(card))
            .collect();
        Ok(game.seen_by(seat, hand, |_| None))
    }
}

impl DeckChoice {
    /// How a game file names the deck: `"classic"`, `"master"`, or
    /// categories `category a`, `category b`, ... of cards `a0`, `a1`, ...,
    /// `b0`, ... (a card's id is its name). [`DeckSpec::to_deck`] builds it
    /// and names what is wrong: an empty category, or more than
    /// [`MAX_CATEGORIES`] categories (the letters start again at `a`, and
    /// the ids repeat).
    pub fn to_spec(&self) -> DeckSpec {
        match self {
            DeckChoice::Classic => DeckSpec::Named("classic".into()),
            DeckChoice::Master => DeckSpec::Named("master".into()),
            DeckChoice::Custom(sizes) => DeckSpec::Custom(CustomDeck {
                categories: sizes
                    .iter()
                    .enumerate()
                    .map(|(k, &n)| {
                        let letter = (b'a' + (k % MAX_CATEGORIES) as u8) as char;
                        CategorySpec {
                            name: format!("category {letter}"),
                            cards: (0..n).map(|i| CardSpec::Id(format!("{letter}{i}"))).collect(),
                        }
                    })
                    .collect(),
            }),
        }
    }
}

impl GenConfig {
    /// Checks that this configuration can make a valid game.
    ///
    /// # Errors
    /// The first [`GenError`] found.
    pub fn validate(&self) -> Result<(), GenError> {
        if !(2..=MAX_PLAYERS).contains(&self.players) {
            return Err(GenError::Players(self.players));
        }
        let (cards, categories) = match &self.deck {
            DeckChoice::Classic => (21, 3),
            DeckChoice::Master => (30, 3),
            DeckChoice::Custom(sizes) => {
                if sizes.is_empty() {
                    return Err(GenError::NoCategories);
                }
                if sizes.len() > MAX_CATEGORIES {
                    return Err(GenError::TooManyCategories(sizes.len()));
                }
                if let Some(k) = sizes.iter().position(|&n| n == 0) {
                    return Err(GenError::EmptyCategory(k));
                }
                let total = sizes.iter().try_fold(0usize, |a, &n| a.checked_add(n)).unwrap_or(usize::MAX);
                if total > MAX_CARDS {
                    return Err(GenError::TooManyCards(total));
                }
                (total, sizes.len())
            }
        };
        let spare = cards - categories;
        if self.face_up > spare {
            return Err(GenError::FaceUp { face_up: self.face_up, spare });
        }
        if !(0.0..=1.0).contains(&self.accusation_rate) {
            return Err(GenError::AccusationRate(self.accusation_rate));
        }
        Ok(())
    }
}

/// Generates a random game.
///
/// # Panics
/// If the configuration cannot make a game; see [`try_generate`].
pub fn generate<R: Rng>(cfg: &GenConfig, rng: &mut R) -> Generated {
    match try_generate(cfg, rng) {
        Ok(generated) => generated,
        Err(e) => panic!("cannot generate a game: {e}"),
    }
}

/// Generates a random game, or says why the configuration cannot make one.
/// For a valid configuration the result is the same as [`generate`]'s with
/// the same RNG state. The game file is always valid
/// ([`Game::new`](crate::Game::new) accepts it).
///
/// # Errors
/// [`GenError`] when the configuration cannot make a valid game; see
/// [`GenConfig::validate`]. Nothing is drawn from `rng` then.
pub fn try_generate<R: Rng>(cfg: &GenConfig, rng: &mut R) -> Result<Generated, GenError> {
    cfg.validate()?;
    let deck_spec = cfg.deck.to_spec();
    let deck = deck_spec.to_deck().expect("a valid configuration names a valid deck");
    let n = cfg.players;
    let players: Vec<String> = (0..n).map(|i| format!("p{}", i + 1)).collect();

    // The case file, face-up cards, and hands.
    let mut case = Vec::new();
    for cat in deck.categories() {
        let cards: Vec<_> = deck.category_cards(cat).iter().collect();
        case.push(*cards.choose(rng).expect("categories are non-empty"));
    }
    let mut rest: Vec<_> = deck.cards().filter(|c| !case.contains(c)).collect();
    rest.shuffle(rng);
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
        if rng.gen_bool(cfg.accusation_rate) {
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
        let me = observer.map(|o| {
            let hand: Vec<String> = hands[o].iter().map(|&c| deck.id(c).to_string()).collect();
            (players[o].clone(), hand)
        });
        corrupt(&mut events[i], &players, me.as_ref().map(|(p, h)| (p.as_str(), h.as_slice())), rng);
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
    Ok(Generated { file, deal })
}

/// Changes one event so that it (usually) no longer fits the deal, keeping
/// it valid as a file. `me` is the observer's id and hand.
///
/// A suggestion gets a random new refuter (or none). A shown card stays only
/// where the observer could see it; when the new refuter is the observer,
/// the shown card is one of the suggested cards in the observer's hand, and
/// absent if it holds none (the history is then inconsistent).
fn corrupt<R: Rng>(event: &mut EventSpec, players: &[String], me: Option<(&str, &[String])>, rng: &mut R) {
    match event {
        EventSpec::Accusation(a) => a.correct = !a.correct,
        EventSpec::Suggestion(s) => {
            let others: Vec<&String> = players.iter().filter(|p| **p != s.by).collect();
            let choice = rng.gen_range(0..=others.len());
            s.refuted_by = others.get(choice).map(|p| (*p).clone());
            match (me, s.refuted_by.as_deref()) {
                (Some((me, hand)), Some(r)) if r == me => {
                    s.shown = s.cards.iter().find(|c| hand.contains(c)).cloned();
                }
                (Some((me, _)), Some(_)) if me == s.by => {}
                // A shown card needs a refuter the observer saw.
                _ => s.shown = None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn cfg(deck: DeckChoice, players: usize) -> GenConfig {
        GenConfig::new(deck, players, true, 10)
    }

    #[test]
    fn bad_configurations_are_errors_not_panics() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let check = |cfg: GenConfig, want: GenError, message: &str| {
            let err = try_generate(&cfg, &mut ChaCha8Rng::seed_from_u64(1)).unwrap_err();
            assert_eq!(err, want);
            assert_eq!(err.to_string(), message);
        };
        check(cfg(DeckChoice::Classic, 1), GenError::Players(1), "between 2 and 10 players are supported, not 1");
        check(cfg(DeckChoice::Classic, 0), GenError::Players(0), "between 2 and 10 players are supported, not 0");
        check(cfg(DeckChoice::Master, 11), GenError::Players(11), "between 2 and 10 players are supported, not 11");
        let mut c = cfg(DeckChoice::Classic, 4);
        c.face_up = 19;
        check(
            c,
            GenError::FaceUp { face_up: 19, spare: 18 },
            "too many face-up cards (19): at most 18 are outside the case file",
        );
        for rate in [f64::NAN, -0.1, 1.5, f64::INFINITY] {
            let mut c = cfg(DeckChoice::Classic, 4);
            c.accusation_rate = rate;
            let err = try_generate(&c, &mut rng).unwrap_err();
            assert!(matches!(err, GenError::AccusationRate(_)), "{err}");
            assert!(err.to_string().ends_with("is not between 0 and 1"), "{err}");
        }
        check(cfg(DeckChoice::Custom(vec![]), 2), GenError::NoCategories, "a custom deck needs at least one category");
        check(
            cfg(DeckChoice::Custom(vec![1; 27]), 2),
            GenError::TooManyCategories(27),
            "too many categories (27): at most 26 are supported",
        );
        check(
            cfg(DeckChoice::Custom(vec![3, 0, 3]), 2),
            GenError::EmptyCategory(1),
            "every category needs at least one card, and category 2 has none",
        );
        check(
            cfg(DeckChoice::Custom(vec![30, 30, 30]), 2),
            GenError::TooManyCards(90),
            "too many cards (90): at most 64 are supported",
        );
        check(
            cfg(DeckChoice::Custom(vec![usize::MAX, 2]), 2),
            GenError::TooManyCards(usize::MAX),
            &format!("too many cards ({}): at most 64 are supported", usize::MAX),
        );
    }

    #[test]
    #[should_panic(expected = "cannot generate a game: between 2 and 10 players are supported, not 1")]
    fn generate_panics_on_a_bad_configuration() {
        generate(&cfg(DeckChoice::Classic, 1), &mut ChaCha8Rng::seed_from_u64(1));
    }

    #[test]
    fn edge_configurations_make_valid_games() {
        let mut configs = vec![
            cfg(DeckChoice::Custom(vec![1; 26]), 2),
            cfg(DeckChoice::Custom(vec![2; 26]), 10),
            cfg(DeckChoice::Custom(vec![64]), 3),
            cfg(DeckChoice::Custom(vec![1, 1]), 2),
            cfg(DeckChoice::Master, 10),
        ];
        let mut all_face_up = cfg(DeckChoice::Classic, 3);
        all_face_up.face_up = 18;
        all_face_up.accusation_rate = 1.0;
        configs.push(all_face_up);
        for (i, c) in configs.iter().enumerate() {
            let generated = try_generate(c, &mut ChaCha8Rng::seed_from_u64(i as u64)).unwrap();
            Game::new(&generated.file).unwrap_or_else(|e| panic!("{c:?}: {e}"));
        }
    }

    #[test]
    fn try_generate_and_generate_agree() {
        let mut c = cfg(DeckChoice::Classic, 5);
        c.accusation_rate = 0.2;
        c.face_up = 3;
        let a = try_generate(&c, &mut ChaCha8Rng::seed_from_u64(9)).unwrap();
        let b = generate(&c, &mut ChaCha8Rng::seed_from_u64(9));
        assert_eq!(a.file, b.file);
        assert_eq!(a.deal, b.deal);
    }

    #[test]
    fn corrupting_makes_the_observer_show_a_card_it_holds() {
        let players: Vec<String> = ["p1", "p2", "p3"].iter().map(|s| s.to_string()).collect();
        let hand: Vec<String> = ["kn", "ha"].iter().map(|s| s.to_string()).collect();
        let suggestion = |shown: Option<&str>| {
            EventSpec::Suggestion(SuggestionSpec {
                by: "p2".into(),
                cards: vec!["mu".into(), "kn".into(), "ha".into()],
                refuted_by: Some("p3".into()),
                shown: shown.map(String::from),
            })
        };
        let (mut seen_holding, mut seen_empty) = (false, false);
        for seed in 0..200 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            // The observer p1 holds kn and ha; with an empty hand it holds none.
            let observer_hand: &[String] = if seed % 2 == 0 { &hand } else { &[] };
            let mut event = suggestion(None);
            corrupt(&mut event, &players, Some(("p1", observer_hand)), &mut rng);
            let EventSpec::Suggestion(s) = &event else { unreachable!() };
            if s.refuted_by.as_deref() == Some("p1") {
                if observer_hand.is_empty() {
                    assert_eq!(s.shown, None);
                    seen_empty = true;
                } else {
                    assert_eq!(s.shown.as_deref(), Some("kn"));
                    seen_holding = true;
                }
            } else {
                assert_eq!(s.shown, None, "{s:?}");
            }
        }
        assert!(seen_holding && seen_empty);
    }

    #[test]
    fn corrupt_games_are_valid_files() {
        for seed in 0..300 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut c = cfg(if seed % 3 == 0 { DeckChoice::Custom(vec![2, 3, 3]) } else { DeckChoice::Classic }, 3);
            c.suggestions = 1 + (seed as usize % 5);
            c.observer = seed % 4 != 0;
            c.accusation_rate = 0.2;
            c.corrupt = true;
            let generated = try_generate(&c, &mut rng).unwrap();
            Game::new(&generated.file).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{}", generated.file.to_json()));
        }
    }
}
