//! A validated game: deck, seats, hands, and the events in order.

use super::card::{Card, CardSet};
use super::deck::{Deck, DeckProblem};
use super::player::{Place, Player, MAX_PLAYERS};
use crate::format::{AccusationSpec, CardSpec, DeckSpec, EventSpec, GameFile, SuggestionSpec};
use std::collections::BTreeMap;
use std::fmt;

/// An event of the game, checked against the deck and the seats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A suggestion and how it was refuted.
    Suggestion(Suggestion),
    /// An accusation and its outcome.
    Accusation(Accusation),
}

/// A suggestion: one card per category, refuted by the first player clockwise
/// who holds any of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suggestion {
    /// Who suggested.
    pub by: Player,
    /// The suggested cards, one per category.
    pub cards: CardSet,
    /// Who refuted; `None` when nobody but the suggester could.
    pub refuted_by: Option<Player>,
    /// The card shown, when the observer saw it.
    pub shown: Option<Card>,
}

/// An accusation: one card per category.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accusation {
    /// Who accused.
    pub by: Player,
    /// The accused cards, one per category.
    pub cards: CardSet,
    /// Whether the case file is exactly these cards.
    pub correct: bool,
}

/// Where in a game file a problem is.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Location {
    /// The file as a whole.
    File,
    /// The `deck` field.
    Deck,
    /// The `players` field.
    Players,
    /// The `hand_sizes` field.
    HandSizes,
    /// The `face_up` field.
    FaceUp,
    /// The `me` and `hand` fields.
    Hand,
    /// The event with this index (0-based).
    Event(usize),
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::File => write!(f, "file"),
            Location::Deck => write!(f, "deck"),
            Location::Players => write!(f, "players"),
            Location::HandSizes => write!(f, "hand_sizes"),
            Location::FaceUp => write!(f, "face_up"),
            Location::Hand => write!(f, "hand"),
            Location::Event(i) => write!(f, "event {i}"),
        }
    }
}

/// One thing wrong with a game file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Where it is.
    pub location: Location,
    /// What is wrong, in lowercase without a trailing period.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location, self.message)
    }
}

/// Every problem found while validating a game file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub struct GameError {
    /// The problems, in file order.
    pub problems: Vec<Problem>,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.problems.len();
        write!(f, "the game file has {n} problem{}", if n == 1 { "" } else { "s" })?;
        for p in &self.problems {
            write!(f, "\n  {p}")?;
        }
        Ok(())
    }
}

/// A validated game. Build it with [`Game::new`]; its fields are private so
/// that every `Game` in existence has passed validation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    deck: Deck,
    players: Vec<String>,
    hand_sizes: Vec<usize>,
    face_up: CardSet,
    observer: Option<(Player, CardSet)>,
    events: Vec<Event>,
    /// Whether `hand_sizes` was given in the file (kept for round trips).
    explicit_hand_sizes: bool,
}

/// Collects problems while validating.
struct Checker<'a> {
    deck: Option<&'a Deck>,
    players: &'a [String],
    problems: Vec<Problem>,
}

impl Checker<'_> {
    fn report(&mut self, location: Location, message: impl Into<String>) {
        self.problems.push(Problem { location, message: message.into() });
    }

    fn player(&mut self, at: &Location, id: &str) -> Option<Player> {
        match self.players.iter().position(|p| p == id) {
            Some(i) => Some(Player(i as u8)),
            None => {
                let known = self.players.join(", ");
                self.report(at.clone(), format!("unknown player '{id}' (players are {known})"));
                None
            }
        }
    }

    fn card(&mut self, at: &Location, id: &str) -> Option<Card> {
        let deck = self.deck?;
        match deck.card(id) {
            Some(c) => Some(c),
            None => {
                let hint = match deck.suggest_id(id) {
                    Some(s) => format!(" (did you mean '{s}'?)"),
                    None => String::new(),
                };
                self.report(at.clone(), format!("unknown card '{id}'{hint}"));
                None
            }
        }
    }

    /// Cards that must all be distinct; `None` if any is unknown or repeated.
    fn card_set(&mut self, at: &Location, ids: &[String]) -> Option<CardSet> {
        let mut set = CardSet::EMPTY;
        let mut ok = true;
        for id in ids {
            match self.card(at, id) {
                Some(c) if !set.insert(c) => {
                    self.report(at.clone(), format!("card '{id}' is listed twice"));
                    ok = false;
                }
                Some(_) => {}
                None => ok = false,
            }
        }
        ok.then_some(set)
    }

    /// One card of every category, as suggestions and accusations name.
    fn one_per_category(&mut self, at: &Location, ids: &[String]) -> Option<CardSet> {
        let set = self.card_set(at, ids)?;
        let deck = self.deck?;
        let mut ok = true;
        for cat in deck.categories() {
            let n = (set & deck.category_cards(cat)).len();
            if n != 1 {
                let name = deck.category_name(cat);
                let msg =
                    if n == 0 { format!("no {name} named") } else { format!("{n} cards of category {name} named") };
                self.report(at.clone(), format!("{msg}; name exactly one card per category"));
                ok = false;
            }
        }
        ok.then_some(set)
    }
}

fn deck_from_spec(spec: &DeckSpec) -> Result<Deck, Vec<String>> {
    match spec {
        DeckSpec::Named(name) => match name.as_str() {
            "classic" => Ok(Deck::classic()),
            "master" => Ok(Deck::master()),
            other => {
                Err(vec![format!("unknown deck '{other}' (use \"classic\", \"master\" or {{\"categories\": [...]}})")])
            }
        },
        DeckSpec::Custom(custom) => {
            let cats = custom
                .categories
                .iter()
                .map(|c| {
                    let cards = c
                        .cards
                        .iter()
                        .map(|card| match card {
                            CardSpec::Id(id) => (id.clone(), id.clone()),
                            CardSpec::Named { id, name } => (id.clone(), name.clone()),
                        })
                        .collect();
                    (c.name.clone(), cards)
                })
                .collect();
            Deck::custom(cats).map_err(|ps| ps.iter().map(DeckProblem::to_string).collect())
        }
    }
}

/// The default dealing rule: cards dealt one at a time clockwise from the
/// first player, so earlier seats get the extra cards.
pub fn default_hand_sizes(num_cards_dealt: usize, num_players: usize) -> Vec<usize> {
    (0..num_players).map(|i| num_cards_dealt / num_players + usize::from(i < num_cards_dealt % num_players)).collect()
}

impl Game {
    /// Validates a game file, reporting every problem found at once.
    ///
    /// Only structural problems are errors. Events that merely contradict one
    /// another (no deal fits them all) make a valid game whose analysis says
    /// so; see [`crate::analysis`].
    ///
    /// # Errors
    /// [`GameError`] listing each problem with its location.
    pub fn new(file: &GameFile) -> Result<Game, GameError> {
        let mut chk = Checker { deck: None, players: &file.players, problems: Vec::new() };
        if file.version != 1 {
            chk.report(Location::File, format!("unsupported version {} (only version 1 exists)", file.version));
        }
        let deck = match deck_from_spec(&file.deck) {
            Ok(d) => Some(d),
            Err(msgs) => {
                for m in msgs {
                    chk.report(Location::Deck, m);
                }
                None
            }
        };
        chk.deck = deck.as_ref();

        // Players.
        let n = file.players.len();
        if !(2..=MAX_PLAYERS).contains(&n) {
            chk.report(Location::Players, format!("{n} players; between 2 and {MAX_PLAYERS} are supported"));
        }
        for (i, p) in file.players.iter().enumerate() {
            if p.is_empty() {
                chk.report(Location::Players, format!("player {i} has an empty id"));
            } else if p == "case_file" {
                chk.report(Location::Players, "'case_file' is reserved for the case file and cannot be a player id");
            } else if file.players[..i].contains(p) {
                chk.report(Location::Players, format!("player '{p}' is listed twice"));
            }
        }

        // Face-up cards.
        let face_up = chk.card_set(&Location::FaceUp, &file.face_up).unwrap_or_default();
        if let Some(deck) = &deck {
            for cat in deck.categories() {
                if deck.category_cards(cat).is_subset(face_up) {
                    let name = deck.category_name(cat);
                    chk.report(Location::FaceUp, format!("every {name} is face up, so none can be in the case file"));
                }
            }
        }

        // Hand sizes.
        let dealt = deck.as_ref().map(|d| d.len().saturating_sub(d.num_categories() + face_up.len()));
        let mut hand_sizes = vec![0; n];
        if let Some(dealt) = dealt {
            hand_sizes = default_hand_sizes(dealt, n.max(1));
            hand_sizes.truncate(n);
        }
        if let Some(sizes) = &file.hand_sizes {
            check_hand_sizes(&mut chk, sizes, &mut hand_sizes, dealt);
        }

        // Observer.
        let observer = match (&file.me, &file.hand) {
            (None, None) => None,
            (Some(_), None) => {
                chk.report(Location::Hand, "'me' is given without 'hand'; give both, or neither for a bystander");
                None
            }
            (None, Some(_)) => {
                chk.report(Location::Hand, "'hand' is given without 'me'; give both, or neither for a bystander");
                None
            }
            (Some(me), Some(hand)) => {
                let player = chk.player(&Location::Hand, me);
                let cards = chk.card_set(&Location::Hand, hand);
                match (player, cards) {
                    (Some(p), Some(cards)) => {
                        let overlap = cards & face_up;
                        if !overlap.is_empty() {
                            let ids = deck.as_ref().map(|d| d.ids(overlap).join(", ")).unwrap_or_default();
                            chk.report(Location::Hand, format!("face-up cards {ids} cannot be in a hand"));
                        }
                        if cards.len() != hand_sizes[p.index()] {
                            chk.report(
                                Location::Hand,
                                format!(
                                    "{} cards in hand but {me}'s hand size is {}",
                                    cards.len(),
                                    hand_sizes[p.index()]
                                ),
                            );
                        }
                        Some((p, cards))
                    }
                    _ => None,
                }
            }
        };

        // Events.
        let mut events = Vec::with_capacity(file.events.len());
        for (i, spec) in file.events.iter().enumerate() {
            let at = Location::Event(i);
            let event = match spec {
                EventSpec::Suggestion(s) => check_suggestion(&mut chk, &at, s, observer.map(|o| o.0)),
                EventSpec::Accusation(a) => check_accusation(&mut chk, &at, a),
            };
            if let Some(e) = event {
                events.push(e);
            }
        }

        if !chk.problems.is_empty() {
            return Err(GameError { problems: chk.problems });
        }
        Ok(Game {
            deck: deck.expect("no problems means the deck is valid"),
            players: file.players.clone(),
            hand_sizes,
            face_up,
            observer,
            events,
            explicit_hand_sizes: file.hand_sizes.is_some(),
        })
    }

    /// Parses and validates a game file from JSON text.
    ///
    /// # Errors
    /// A [`LoadError`] for malformed JSON or an invalid game.
    pub fn from_json(text: &str) -> Result<Game, LoadError> {
        let file = GameFile::from_json(text)?;
        Ok(Game::new(&file)?)
    }

    /// The deck.
    pub fn deck(&self) -> &Deck {
        &self.deck
    }

    /// The number of players.
    pub fn num_players(&self) -> usize {
        self.players.len()
    }

    /// The number of places: players and the case file.
    pub fn num_places(&self) -> usize {
        self.players.len() + 1
    }

    /// Players in seat order.
    pub fn players(&self) -> impl Iterator<Item = Player> + '_ {
        (0..self.players.len()).map(|i| Player(i as u8))
    }

    /// Every place: players in seat order, then the case file.
    pub fn places(&self) -> impl Iterator<Item = Place> + '_ {
        self.players().map(Place::Player).chain(std::iter::once(Place::CaseFile))
    }

    /// A player's id.
    pub fn player_id(&self, player: Player) -> &str {
        &self.players[player.index()]
    }

    /// Looks a player up by id.
    pub fn player(&self, id: &str) -> Option<Player> {
        self.players.iter().position(|p| p == id).map(|i| Player(i as u8))
    }

    /// A place's id: the player id, or `case_file`.
    pub fn place_id(&self, place: Place) -> &str {
        match place {
            Place::Player(p) => self.player_id(p),
            Place::CaseFile => "case_file",
        }
    }

    /// Looks a place up by id (`case_file` or a player id).
    pub fn place(&self, id: &str) -> Option<Place> {
        if id == "case_file" {
            Some(Place::CaseFile)
        } else {
            self.player(id).map(Place::Player)
        }
    }

    /// How many cards a player holds.
    pub fn hand_size(&self, player: Player) -> usize {
        self.hand_sizes[player.index()]
    }

    /// The face-up cards.
    pub fn face_up(&self) -> CardSet {
        self.face_up
    }

    /// The observer and their hand; `None` for a bystander.
    pub fn observer(&self) -> Option<(Player, CardSet)> {
        self.observer
    }

    /// The events in order.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The player after `player` clockwise.
    pub fn next_player(&self, player: Player) -> Player {
        Player(((player.index() + 1) % self.players.len()) as u8)
    }

    /// The same game with only some events, and optionally without the
    /// observer's hand (the observer still sees what it saw). Used to find
    /// which events force a fact or conflict.
    pub fn restricted(&self, keep_events: &[usize], keep_hand: bool) -> Game {
        let mut g = self.clone();
        g.events = keep_events.iter().map(|&i| self.events[i].clone()).collect();
        if !keep_hand {
            if let Some((p, _)) = g.observer {
                g.observer = Some((p, CardSet::EMPTY));
            }
        }
        g
    }

    /// The same game with one more event appended (not re-validated beyond
    /// the checks that [`Game::new`] would make on it).
    ///
    /// # Errors
    /// [`GameError`] if the event is invalid for this game.
    pub fn with_event(&self, event: EventSpec) -> Result<Game, GameError> {
        let mut file = self.to_file();
        file.events.push(event);
        Game::new(&file)
    }

    /// Whether the observer's hand is known (false for bystanders and for
    /// games restricted without the hand).
    pub fn has_hand(&self) -> bool {
        matches!(self.observer, Some((p, h)) if h.len() == self.hand_size(p))
    }

    /// The game file for this game.
    pub fn to_file(&self) -> GameFile {
        let deck = match self.deck.kind() {
            super::deck::DeckKind::Classic => DeckSpec::Named("classic".into()),
            super::deck::DeckKind::Master => DeckSpec::Named("master".into()),
            super::deck::DeckKind::Custom => DeckSpec::Custom(crate::format::CustomDeck {
                categories: self
                    .deck
                    .categories()
                    .map(|cat| crate::format::CategorySpec {
                        name: self.deck.category_name(cat).to_string(),
                        cards: self
                            .deck
                            .category_cards(cat)
                            .iter()
                            .map(|c| {
                                let (id, name) = (self.deck.id(c), self.deck.name(c));
                                if id == name {
                                    CardSpec::Id(id.into())
                                } else {
                                    CardSpec::Named { id: id.into(), name: name.into() }
                                }
                            })
                            .collect(),
                    })
                    .collect(),
            }),
        };
        let ids = |s: CardSet| self.deck.ids(s);
        let events = self
            .events
            .iter()
            .map(|e| match e {
                Event::Suggestion(s) => EventSpec::Suggestion(SuggestionSpec {
                    by: self.player_id(s.by).into(),
                    cards: ids(s.cards),
                    refuted_by: s.refuted_by.map(|p| self.player_id(p).into()),
                    shown: s.shown.map(|c| self.deck.id(c).into()),
                }),
                Event::Accusation(a) => EventSpec::Accusation(AccusationSpec {
                    by: self.player_id(a.by).into(),
                    cards: ids(a.cards),
                    correct: a.correct,
                }),
            })
            .collect();
        GameFile {
            version: 1,
            deck,
            players: self.players.clone(),
            hand_sizes: self
                .explicit_hand_sizes
                .then(|| self.players().map(|p| (self.player_id(p).to_string(), self.hand_size(p) as i64)).collect()),
            face_up: ids(self.face_up),
            me: self.observer.map(|(p, _)| self.player_id(p).to_string()),
            hand: self.observer.map(|(_, h)| ids(h)),
            events,
        }
    }
}

fn check_hand_sizes(
    chk: &mut Checker<'_>,
    sizes: &BTreeMap<String, i64>,
    hand_sizes: &mut [usize],
    dealt: Option<usize>,
) {
    let mut ok = true;
    for (id, &size) in sizes {
        let Some(p) = chk.player(&Location::HandSizes, id) else {
            ok = false;
            continue;
        };
        if !(0..=64).contains(&size) {
            chk.report(Location::HandSizes, format!("hand size {size} for '{id}' is out of range"));
            ok = false;
        } else {
            hand_sizes[p.index()] = size as usize;
        }
    }
    for id in chk.players.iter() {
        if !sizes.contains_key(id) {
            chk.problems.push(Problem { location: Location::HandSizes, message: format!("no hand size for '{id}'") });
            ok = false;
        }
    }
    if let (true, Some(dealt)) = (ok, dealt) {
        let total: usize = hand_sizes.iter().sum();
        if total != dealt {
            chk.report(
                Location::HandSizes,
                format!(
                    "hand sizes add up to {total}, but {dealt} cards are dealt (deck minus case file minus face-up)"
                ),
            );
        }
    }
}

fn check_suggestion(chk: &mut Checker<'_>, at: &Location, s: &SuggestionSpec, me: Option<Player>) -> Option<Event> {
    let by = chk.player(at, &s.by);
    let cards = chk.one_per_category(at, &s.cards);
    let refuted_by = match &s.refuted_by {
        None => Some(None),
        Some(id) => chk.player(at, id).map(Some),
    };
    if let (Some(b), Some(Some(r))) = (by, refuted_by) {
        if b == r {
            chk.report(at.clone(), format!("'{}' cannot refute their own suggestion", s.by));
        }
    }
    let shown = match &s.shown {
        None => Some(None),
        Some(id) => {
            let card = chk.card(at, id);
            if let (Some(c), Some(set)) = (card, cards) {
                if !set.contains(c) {
                    chk.report(at.clone(), format!("shown card '{id}' was not suggested"));
                }
            }
            match refuted_by {
                Some(None) => chk.report(at.clone(), format!("card '{id}' is shown but nobody refuted")),
                Some(Some(r)) if me.is_none() => {
                    let _ = r;
                    chk.report(at.clone(), "a bystander cannot see the shown card; remove 'shown' or give 'me'");
                }
                Some(Some(r)) if me != by && me != Some(r) => {
                    chk.report(
                        at.clone(),
                        "the observer neither suggested nor refuted, so cannot have seen the shown card",
                    );
                }
                _ => {}
            }
            card.map(Some)
        }
    };
    let (by, cards, refuted_by, shown) = (by?, cards?, refuted_by?, shown?);
    if refuted_by == Some(by) {
        return None;
    }
    Some(Event::Suggestion(Suggestion { by, cards, refuted_by, shown }))
}

fn check_accusation(chk: &mut Checker<'_>, at: &Location, a: &AccusationSpec) -> Option<Event> {
    let by = chk.player(at, &a.by);
    let cards = chk.one_per_category(at, &a.cards);
    Some(Event::Accusation(Accusation { by: by?, cards: cards?, correct: a.correct }))
}

/// An error loading a game: bad JSON or an invalid game.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The text is not a game file.
    #[error(transparent)]
    Format(#[from] crate::format::FormatError),
    /// The game file is not a valid game.
    #[error(transparent)]
    Game(#[from] GameError),
}

/// The places a suggestion's answer passed: every player strictly between the
/// suggester and the refuter, clockwise (everyone else when nobody refuted).
pub fn passed_players(game: &Game, by: Player, refuted_by: Option<Player>) -> Vec<Player> {
    let mut out = Vec::new();
    let mut p = game.next_player(by);
    while p != by && Some(p) != refuted_by {
        out.push(p);
        p = game.next_player(p);
    }
    out
}
