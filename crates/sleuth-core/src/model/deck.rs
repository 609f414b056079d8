//! Decks: categories of cards, one of each in the case file.

use super::card::{Card, CardSet, MAX_CARDS};
use crate::text::quote;

/// A category of cards (suspect, weapon, room, ...), as an index into its deck.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Category(pub(crate) u8);

impl Category {
    /// The index of this category in its deck.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Names of one card.
#[derive(Clone, Debug, PartialEq, Eq)]
struct CardInfo {
    id: String,
    name: String,
    category: Category,
}

/// A validated deck: at most [`MAX_CARDS`] cards with unique ids, in
/// categories that each hold at least one card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deck {
    kind: DeckKind,
    category_names: Vec<String>,
    category_cards: Vec<CardSet>,
    cards: Vec<CardInfo>,
}

/// Which deck this is, so that files can name it instead of listing it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeckKind {
    /// The classic 21-card deck.
    Classic,
    /// Clue Master Detective, 30 cards.
    Master,
    /// Categories given in the file.
    Custom,
}

type Names = &'static [(&'static str, &'static str)];

const CLASSIC: [(&str, Names); 3] = [
    (
        "suspect",
        &[
            ("mu", "Colonel Mustard"),
            ("pl", "Professor Plum"),
            ("gr", "Mr. Green"),
            ("pe", "Mrs. Peacock"),
            ("sc", "Miss Scarlet"),
            ("wh", "Mrs. White"),
        ],
    ),
    (
        "weapon",
        &[
            ("kn", "Knife"),
            ("ca", "Candlestick"),
            ("re", "Revolver"),
            ("ro", "Rope"),
            ("pi", "Lead Pipe"),
            ("wr", "Wrench"),
        ],
    ),
    (
        "room",
        &[
            ("ha", "Hall"),
            ("lo", "Lounge"),
            ("di", "Dining Room"),
            ("ki", "Kitchen"),
            ("ba", "Ballroom"),
            ("co", "Conservatory"),
            ("bi", "Billiard Room"),
            ("li", "Library"),
            ("st", "Study"),
        ],
    ),
];

const MASTER: [(&str, Names); 3] = [
    (
        "suspect",
        &[
            ("mu", "Colonel Mustard"),
            ("pl", "Professor Plum"),
            ("gr", "Mr. Green"),
            ("pe", "Mrs. Peacock"),
            ("sc", "Miss Scarlet"),
            ("wh", "Mrs. White"),
            ("rs", "Madame Rose"),
            ("gy", "Sergeant Gray"),
            ("br", "Monsieur Brunette"),
            ("pc", "Miss Peach"),
        ],
    ),
    (
        "weapon",
        &[
            ("kn", "Knife"),
            ("ca", "Candlestick"),
            ("re", "Revolver"),
            ("ro", "Rope"),
            ("pi", "Lead Pipe"),
            ("wr", "Wrench"),
            ("po", "Poison"),
            ("hs", "Horseshoe"),
        ],
    ),
    (
        "room",
        &[
            ("ch", "Carriage House"),
            ("co", "Conservatory"),
            ("ki", "Kitchen"),
            ("tr", "Trophy Room"),
            ("di", "Dining Room"),
            ("dr", "Drawing Room"),
            ("ga", "Gazebo"),
            ("cy", "Courtyard"),
            ("fo", "Fountain"),
            ("li", "Library"),
            ("bi", "Billiard Room"),
            ("su", "Studio"),
        ],
    ),
];

/// Why a list of categories is not a deck.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DeckProblem {
    /// The deck has no categories.
    NoCategories,
    /// A category has no cards.
    EmptyCategory(String),
    /// A card id is used twice.
    BadCardId(String),
    /// A card of this category has an empty id.
    EmptyCardId(String),
    /// More than [`MAX_CARDS`] cards.
    TooManyCards(usize),
}

impl std::fmt::Display for DeckProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DeckProblem::NoCategories => write!(f, "the deck has no categories"),
            DeckProblem::EmptyCategory(c) => write!(f, "category '{}' has no cards", quote(c)),
            DeckProblem::EmptyCardId(c) => write!(f, "a card id is empty (in category '{}')", quote(c)),
            DeckProblem::BadCardId(id) => write!(f, "card id '{}' is used more than once", quote(id)),
            DeckProblem::TooManyCards(n) => {
                write!(f, "the deck has {n} cards; at most {MAX_CARDS} are supported")
            }
        }
    }
}

impl Deck {
    /// The classic deck: 6 suspects, 6 weapons, 9 rooms.
    pub fn classic() -> Deck {
        Self::from_static(DeckKind::Classic, &CLASSIC)
    }

    /// Clue Master Detective: 10 suspects, 8 weapons, 12 rooms.
    pub fn master() -> Deck {
        Self::from_static(DeckKind::Master, &MASTER)
    }

    fn from_static(kind: DeckKind, cats: &[(&str, Names)]) -> Deck {
        let categories = cats
            .iter()
            .map(|(name, cards)| {
                let cards = cards.iter().map(|(id, n)| (id.to_string(), n.to_string())).collect();
                (name.to_string(), cards)
            })
            .collect();
        let mut deck = Deck::custom(categories).expect("built-in decks are valid");
        deck.kind = kind;
        deck
    }

    /// A deck from categories of `(id, display name)` pairs, in order.
    ///
    /// # Errors
    /// Every [`DeckProblem`] found.
    pub fn custom(categories: Vec<(String, Vec<(String, String)>)>) -> Result<Deck, Vec<DeckProblem>> {
        let mut problems = Vec::new();
        if categories.is_empty() {
            problems.push(DeckProblem::NoCategories);
        }
        let total: usize = categories.iter().map(|(_, cards)| cards.len()).sum();
        if total > MAX_CARDS {
            problems.push(DeckProblem::TooManyCards(total));
            return Err(problems);
        }
        let mut deck =
            Deck { kind: DeckKind::Custom, category_names: Vec::new(), category_cards: Vec::new(), cards: Vec::new() };
        for (ci, (name, cards)) in categories.into_iter().enumerate() {
            if cards.is_empty() {
                problems.push(DeckProblem::EmptyCategory(name.clone()));
            }
            let mut set = CardSet::EMPTY;
            for (id, display) in cards {
                if id.is_empty() {
                    problems.push(DeckProblem::EmptyCardId(name.clone()));
                } else if deck.cards.iter().any(|c| c.id == id) {
                    problems.push(DeckProblem::BadCardId(id.clone()));
                }
                set.insert(Card(deck.cards.len() as u8));
                deck.cards.push(CardInfo { id, name: display, category: Category(ci as u8) });
            }
            deck.category_names.push(name);
            deck.category_cards.push(set);
        }
        if problems.is_empty() {
            Ok(deck)
        } else {
            Err(problems)
        }
    }

    /// Which deck this is.
    pub fn kind(&self) -> &DeckKind {
        &self.kind
    }

    /// The number of cards.
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// Whether the deck has no cards (never true of a valid deck).
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// Every card of the deck.
    pub fn all(&self) -> CardSet {
        CardSet::first(self.cards.len())
    }

    /// Every card, in deck order.
    pub fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        (0..self.cards.len()).map(|i| Card(i as u8))
    }

    /// The number of categories (= cards in the case file).
    pub fn num_categories(&self) -> usize {
        self.category_cards.len()
    }

    /// Every category, in order.
    pub fn categories(&self) -> impl Iterator<Item = Category> + '_ {
        (0..self.category_cards.len()).map(|i| Category(i as u8))
    }

    /// The cards of a category.
    pub fn category_cards(&self, category: Category) -> CardSet {
        self.category_cards[category.index()]
    }

    /// The name of a category.
    pub fn category_name(&self, category: Category) -> &str {
        &self.category_names[category.index()]
    }

    /// The category of a card.
    pub fn category(&self, card: Card) -> Category {
        self.cards[card.index()].category
    }

    /// The id of a card, as used in game files.
    pub fn id(&self, card: Card) -> &str {
        &self.cards[card.index()].id
    }

    /// The display name of a card.
    pub fn name(&self, card: Card) -> &str {
        &self.cards[card.index()].name
    }

    /// Looks a card up by id (exact match).
    pub fn card(&self, id: &str) -> Option<Card> {
        self.cards.iter().position(|c| c.id == id).map(|i| Card(i as u8))
    }

    /// The ids of a set of cards, in deck order.
    pub fn ids(&self, set: CardSet) -> Vec<String> {
        set.iter().map(|c| self.id(c).to_string()).collect()
    }

    /// The id closest to a misspelt one, for "did you mean" hints.
    pub fn suggest_id(&self, wrong: &str) -> Option<&str> {
        let wrong_lower = wrong.to_lowercase();
        self.cards
            .iter()
            .find(|c| c.id.to_lowercase() == wrong_lower || c.name.to_lowercase() == wrong_lower)
            .or_else(|| self.cards.iter().find(|c| c.name.to_lowercase().starts_with(&wrong_lower)))
            .map(|c| c.id.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_decks_have_the_right_shape() {
        let classic = Deck::classic();
        assert_eq!(classic.len(), 21);
        assert_eq!(classic.num_categories(), 3);
        assert_eq!(classic.id(classic.card("pi").unwrap()), "pi");
        let master = Deck::master();
        let sizes: Vec<usize> = master.categories().map(|c| master.category_cards(c).len()).collect();
        assert_eq!(sizes, vec![10, 8, 12]);
    }

    #[test]
    fn custom_decks_report_every_problem() {
        let bad = Deck::custom(vec![
            ("a".into(), vec![("x".into(), "x".into()), ("x".into(), "x".into())]),
            ("b".into(), vec![]),
        ])
        .unwrap_err();
        assert_eq!(bad.len(), 2);
    }

    #[test]
    fn suggests_ids_for_names() {
        let classic = Deck::classic();
        assert_eq!(classic.suggest_id("Rope"), Some("ro"));
        assert_eq!(classic.suggest_id("MU"), Some("mu"));
    }
}
