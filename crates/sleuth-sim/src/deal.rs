//! Decks for simulation and the true deal of a game.

use crate::error::SimError;
use rand::seq::SliceRandom;
use rand::Rng;
use sleuth_core::generate::{DeckChoice, MAX_CATEGORIES};
use sleuth_core::model::{default_hand_sizes, MAX_PLAYERS};
use sleuth_core::{Card, CardSet, Deck, Place, Player};

/// The deck for a [`DeckChoice`], with the ids `sleuth_core::generate`
/// gives ([`DeckChoice::to_spec`]: categories `category a`, `category b`,
/// ..., cards `a0`, `a1`, ..., `b0`, ...).
///
/// # Errors
/// [`SimError::Setup`] when the custom deck is invalid (an empty category,
/// more than 26 categories or more than 64 cards).
pub fn deck_from_choice(choice: &DeckChoice) -> Result<Deck, SimError> {
    if let DeckChoice::Custom(sizes) = choice {
        if sizes.len() > MAX_CATEGORIES {
            return Err(SimError::Setup(format!("{} categories; at most {MAX_CATEGORIES} are supported", sizes.len())));
        }
    }
    choice.to_spec().to_deck().map_err(|problems| SimError::Setup(format!("invalid deck: {}", problems.join("; "))))
}

/// Where every card truly is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deal {
    /// One card of each category.
    pub case_file: CardSet,
    /// Cards laid face up, in no hand.
    pub face_up: CardSet,
    /// Each seat's hand.
    pub hands: Vec<CardSet>,
}

impl Deal {
    /// A random deal: a random case file, then the other cards shuffled;
    /// the first `face_up` of them are laid face up and the rest dealt one
    /// at a time clockwise from seat 0.
    ///
    /// # Errors
    /// [`SimError::Setup`] when there are not 2 to 10 players or not enough
    /// cards for `face_up`.
    pub fn random<R: Rng + ?Sized>(deck: &Deck, players: usize, face_up: usize, rng: &mut R) -> Result<Deal, SimError> {
        if !(2..=MAX_PLAYERS).contains(&players) {
            return Err(SimError::Setup(format!("{players} players; between 2 and {MAX_PLAYERS} are supported")));
        }
        let mut case_file = CardSet::EMPTY;
        for cat in deck.categories() {
            let cards: Vec<Card> = deck.category_cards(cat).iter().collect();
            case_file.insert(*cards.choose(rng).expect("categories of a valid deck are non-empty"));
        }
        let mut rest: Vec<Card> = (deck.all() - case_file).iter().collect();
        if face_up > rest.len() {
            return Err(SimError::Setup(format!(
                "{face_up} face-up cards asked for, but only {} cards are outside the case file",
                rest.len()
            )));
        }
        rest.shuffle(rng);
        let face: CardSet = rest.drain(..face_up).collect();
        let mut hands = vec![CardSet::EMPTY; players];
        for (i, c) in rest.into_iter().enumerate() {
            hands[i % players].insert(c);
        }
        Ok(Deal { case_file, face_up: face, hands })
    }

    /// A scripted deal, checked: the case file has one card per category,
    /// every card of the deck is in exactly one place, and the hand sizes
    /// follow the default dealing rule (so game files can omit them).
    ///
    /// # Errors
    /// [`SimError::Setup`] describing the first problem found.
    pub fn new(deck: &Deck, case_file: CardSet, face_up: CardSet, hands: Vec<CardSet>) -> Result<Deal, SimError> {
        let bad = |m: String| Err(SimError::Setup(m));
        if !(2..=MAX_PLAYERS).contains(&hands.len()) {
            return bad(format!("{} hands; between 2 and {MAX_PLAYERS} players are supported", hands.len()));
        }
        for cat in deck.categories() {
            if (case_file & deck.category_cards(cat)).len() != 1 {
                return bad(format!("the case file needs exactly one {}", deck.category_name(cat)));
            }
        }
        let mut seen = case_file;
        for set in std::iter::once(face_up).chain(hands.iter().copied()) {
            if !(seen & set).is_empty() {
                return bad(format!("cards {} are in two places", deck.ids(seen & set).join(", ")));
            }
            seen |= set;
        }
        if seen != deck.all() {
            return bad(format!("cards {} are nowhere", deck.ids(deck.all() - seen).join(", ")));
        }
        let dealt = deck.len() - deck.num_categories() - face_up.len();
        let sizes = default_hand_sizes(dealt, hands.len());
        if hands.iter().map(|h| h.len()).ne(sizes.iter().copied()) {
            return bad(format!("hand sizes must follow the default dealing rule: {sizes:?}"));
        }
        Ok(Deal { case_file, face_up, hands })
    }

    /// The number of players.
    pub fn num_players(&self) -> usize {
        self.hands.len()
    }

    /// The player holding `card`, if any.
    pub fn holder(&self, card: Card) -> Option<Player> {
        self.hands.iter().position(|h| h.contains(card)).map(Player::new)
    }

    /// Where `card` is: a hand or the case file; `None` when face up.
    pub fn place_of(&self, card: Card) -> Option<Place> {
        if self.case_file.contains(card) {
            Some(Place::CaseFile)
        } else {
            self.holder(card).map(Place::Player)
        }
    }

    /// Every card's place, indexed by card, as `Game::fits`
    /// takes it.
    pub fn places(&self, deck: &Deck) -> Vec<Option<Place>> {
        deck.cards().map(|c| self.place_of(c)).collect()
    }
}
