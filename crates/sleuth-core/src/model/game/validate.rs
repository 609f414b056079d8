//! Validation of a game file into a [`Game`]: every problem found at
//! once, each with its location.

use super::super::card::{Card, CardSet, MAX_CARDS};
use super::super::deck::{Deck, DeckProblem};
use super::super::error::{GameError, Location, Problem, MAX_PROBLEMS};
use super::super::event::{Accusation, Event, Suggestion};
use super::super::player::{Player, MAX_PLAYERS};
use super::{default_hand_sizes, Game};
use crate::format::{AccusationSpec, CardSpec, CategorySpec, DeckSpec, EventSpec, GameFile, SuggestionSpec};
use crate::text::{first_unsafe_char, quote, MAX_ID_CHARS};
use std::collections::{BTreeMap, HashMap, HashSet};

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
        let mut chk = Checker::new(None, &file.players);
        if file.version != 1 {
            chk.report(Location::File, format!("unsupported version {} (only version 1 exists)", file.version));
        }
        let deck = match file.deck.to_deck() {
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
            chk.report(
                Location::Players,
                format!("{n} {}; between 2 and {MAX_PLAYERS} are supported", plural(n, "player", "players")),
            );
        }
        let mut seen = HashSet::with_capacity(n);
        for (i, p) in file.players.iter().enumerate() {
            if p.is_empty() {
                chk.report(Location::Players, format!("player {i} has an empty id"));
            } else if p == "case_file" {
                chk.report(Location::Players, "'case_file' is reserved for the case file and cannot be a player id");
            } else if !seen.insert(p.as_str()) {
                chk.report(Location::Players, format!("player '{}' is listed twice", quote(p)));
            } else if let Some(problem) = text_problem(p) {
                chk.report(Location::Players, format!("player {i} ('{}'): the id {problem}", quote(p)));
            }
        }

        // Face-up cards: the known ones are kept even if some id is unknown,
        // so that later checks (a face-up card in the hand) still run.
        let face_up_cards = chk.card_set(&Location::FaceUp, &file.face_up);
        let face_up = face_up_cards.set;
        if let Some(deck) = &deck {
            for cat in deck.categories() {
                let cards = deck.category_cards(cat);
                if cards.is_subset(face_up) {
                    let name = deck.category_name(cat);
                    chk.report(
                        Location::FaceUp,
                        format!(
                            "every {name} is face up ({}), so none can be in the case file",
                            deck.ids(cards).join(", ")
                        ),
                    );
                }
            }
        }

        // Hand sizes: `None` where unknown (an unknown face-up id leaves the
        // number of dealt cards, and so the default sizes, unknown).
        let dealt = match &deck {
            Some(d) if face_up_cards.all_known => {
                Some(Dealt { deck: d.len(), case_file: d.num_categories(), face_up: face_up.len() })
            }
            _ => None,
        };
        let mut hand_sizes: Vec<Option<usize>> = match dealt {
            Some(dealt) if n > 0 => default_hand_sizes(dealt.cards(), n).into_iter().map(Some).collect(),
            _ => vec![None; n],
        };
        if let Some(sizes) = &file.hand_sizes {
            check_hand_sizes(&mut chk, sizes, &mut hand_sizes, dealt);
        }

        // Observer. A valid `me` is kept for the event checks even when the
        // hand is invalid, so that a shown card is not blamed on a bystander.
        let (viewer, observer) = match (&file.me, &file.hand) {
            (None, None) => (Viewer::Bystander, None),
            (Some(me), None) => {
                chk.report(Location::Hand, "'me' is given without 'hand'; give both, or neither for a bystander");
                (chk.player(&Location::Hand, me).map_or(Viewer::Unknown, Viewer::Observer), None)
            }
            (None, Some(hand)) => {
                chk.report(Location::Hand, "'hand' is given without 'me'; give both, or neither for a bystander");
                let cards = chk.card_set(&Location::Hand, hand);
                check_face_up_in_hand(&mut chk, cards.set, face_up);
                (Viewer::Unknown, None)
            }
            (Some(me), Some(hand)) => {
                let player = chk.player(&Location::Hand, me);
                let cards = chk.card_set(&Location::Hand, hand);
                check_face_up_in_hand(&mut chk, cards.set, face_up);
                if let (Some(p), Some(set)) = (player, cards.valid()) {
                    if let Some(size) = hand_sizes.get(p.index()).copied().flatten() {
                        if set.len() != size {
                            let held = set.len();
                            chk.report(
                                Location::Hand,
                                format!(
                                    "{held} {} in hand but {}'s hand size is {size}",
                                    plural(held, "card", "cards"),
                                    quote(me)
                                ),
                            );
                        }
                    }
                }
                let observer = match (player, cards.valid()) {
                    (Some(p), Some(set)) => Some((p, set)),
                    _ => None,
                };
                (player.map_or(Viewer::Unknown, Viewer::Observer), observer)
            }
        };

        // Events.
        let mut events = Vec::with_capacity(file.events.len());
        for (i, spec) in file.events.iter().enumerate() {
            let at = Location::Event(i);
            let event = match spec {
                EventSpec::Suggestion(s) => check_suggestion(&mut chk, &at, s, viewer),
                EventSpec::Accusation(a) => check_accusation(&mut chk, &at, a),
            };
            if let Some(e) = event {
                events.push(e);
            }
        }

        if !chk.problems.is_empty() {
            return Err(chk.error());
        }
        Ok(Game {
            deck: deck.expect("no problems means the deck is valid"),
            players: file.players.clone(),
            hand_sizes: hand_sizes.into_iter().map(|s| s.unwrap_or(0)).collect(),
            face_up,
            observer,
            events,
            explicit_hand_sizes: file.hand_sizes.is_some(),
        })
    }

    /// Appends one event, validating only that event: cheap however long
    /// the history is. On error the game is unchanged.
    ///
    /// # Errors
    /// [`GameError`] listing the event's problems, located at its index.
    pub fn push_event(&mut self, event: &EventSpec) -> Result<(), GameError> {
        let mut chk = Checker::new(Some(&self.deck), &self.players);
        let at = Location::Event(self.events.len());
        let viewer = match self.observer {
            Some((p, _)) => Viewer::Observer(p),
            None => Viewer::Bystander,
        };
        let checked = match event {
            EventSpec::Suggestion(s) => check_suggestion(&mut chk, &at, s, viewer),
            EventSpec::Accusation(a) => check_accusation(&mut chk, &at, a),
        };
        match checked {
            Some(e) if chk.problems.is_empty() => {
                self.events.push(e);
                Ok(())
            }
            _ => Err(chk.error()),
        }
    }
}

/// The cards of a list of ids: the known ones, and whether the list was valid.
#[derive(Copy, Clone, Debug)]
struct Cards {
    /// The known cards (each once).
    set: CardSet,
    /// Whether every id named a card.
    all_known: bool,
    /// Whether no card was listed twice.
    distinct: bool,
}

impl Cards {
    /// The set, if every id was known and none repeated.
    fn valid(self) -> Option<CardSet> {
        (self.all_known && self.distinct).then_some(self.set)
    }
}

/// Who saw the events, as far as validation can tell.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Viewer {
    /// No `me` and no `hand`: nobody sees a shown card.
    Bystander,
    /// `me` names this player (whether or not the hand is valid).
    Observer(Player),
    /// The observer is unknown (`me` invalid or missing beside a `hand`):
    /// who could see a shown card is not checked.
    Unknown,
}

/// Collects problems while validating.
struct Checker<'a> {
    deck: Option<&'a Deck>,
    players: &'a [String],
    /// Each player id's first seat, for lookups in constant time.
    seats: HashMap<&'a str, usize>,
    problems: Vec<Problem>,
    omitted: usize,
}

impl<'a> Checker<'a> {
    fn new(deck: Option<&'a Deck>, players: &'a [String]) -> Checker<'a> {
        let mut seats = HashMap::with_capacity(players.len());
        for (i, p) in players.iter().enumerate() {
            seats.entry(p.as_str()).or_insert(i);
        }
        Checker { deck, players, seats, problems: Vec::new(), omitted: 0 }
    }

    fn report(&mut self, location: Location, message: impl Into<String>) {
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(Problem { location, message: message.into() });
        } else {
            self.omitted += 1;
        }
    }

    fn error(self) -> GameError {
        GameError { problems: self.problems, omitted: self.omitted }
    }

    fn player(&mut self, at: &Location, id: &str) -> Option<Player> {
        match self.seats.get(id) {
            Some(&i) if i < MAX_PLAYERS => Some(Player(i as u8)),
            Some(_) => None, // too many players: reported once, under `players`
            None => {
                let mut known: Vec<String> = self.players.iter().take(MAX_PLAYERS).map(|p| quote(p)).collect();
                if self.players.len() > MAX_PLAYERS {
                    known.push("...".into());
                }
                self.report(at.clone(), format!("unknown player '{}' (players are {})", quote(id), known.join(", ")));
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
                    Some(s) => format!(" (did you mean '{}'?)", quote(s)),
                    None => String::new(),
                };
                self.report(at.clone(), format!("unknown card '{}'{hint}", quote(id)));
                None
            }
        }
    }

    /// Cards that must all be distinct: the known ones, reporting each
    /// unknown or repeated id.
    fn card_set(&mut self, at: &Location, ids: &[String]) -> Cards {
        let mut cards = Cards { set: CardSet::EMPTY, all_known: true, distinct: true };
        let mut times = [0usize; MAX_CARDS];
        for id in ids {
            match self.card(at, id) {
                Some(c) => {
                    cards.set.insert(c);
                    times[c.index()] += 1;
                }
                None => cards.all_known = false,
            }
        }
        // One problem per repeated card, however often it is repeated.
        for c in cards.set {
            let n = times[c.index()];
            if n > 1 {
                let id = self.deck.map_or("", |d| d.id(c));
                let how = if n == 2 { "twice".to_string() } else { format!("{n} times") };
                self.report(at.clone(), format!("card '{}' is listed {how}", quote(id)));
                cards.distinct = false;
            }
        }
        cards
    }

    /// One card of every category, as suggestions and accusations name.
    fn one_per_category(&mut self, at: &Location, ids: &[String]) -> Option<CardSet> {
        let set = self.card_set(at, ids).valid()?;
        let deck = self.deck?;
        let mut ok = true;
        for cat in deck.categories() {
            let named = set & deck.category_cards(cat);
            let n = named.len();
            if n != 1 {
                let name = deck.category_name(cat);
                let msg = if n == 0 {
                    format!("no {name} named")
                } else {
                    format!("{n} cards of category {name} named ({})", deck.ids(named).join(", "))
                };
                self.report(at.clone(), format!("{msg}; name exactly one card per category"));
                ok = false;
            }
        }
        ok.then_some(set)
    }
}

impl DeckSpec {
    /// The deck a game file names, or every problem with it in words (an
    /// unknown name; an id or name too long or holding a control
    /// character; an empty category; an id used twice). The way there is
    /// [`DeckSpec::from_deck`].
    ///
    /// # Errors
    /// The problems, each naming the category and card.
    pub fn to_deck(&self) -> Result<Deck, Vec<String>> {
        match self {
            DeckSpec::Named(name) => match name.as_str() {
                "classic" => Ok(Deck::classic()),
                "master" => Ok(Deck::master()),
                other => Err(vec![format!(
                    "unknown deck '{}' (use \"classic\", \"master\" or {{\"categories\": [...]}})",
                    quote(other)
                )]),
            },
            DeckSpec::Custom(custom) => {
                let problems = custom_deck_text_problems(custom);
                if !problems.is_empty() {
                    return Err(problems);
                }
                let cats = custom.categories.iter().map(CategorySpec::to_deck_category).collect();
                Deck::custom(cats).map_err(|ps| ps.iter().map(DeckProblem::to_string).collect())
            }
        }
    }
}

/// What is wrong with an id or name as text: too long, or holding a
/// character that must not reach a terminal raw (see [`crate::text`]).
fn text_problem(s: &str) -> Option<String> {
    let n = s.chars().count();
    if n > MAX_ID_CHARS {
        return Some(format!("is {n} characters long; at most {MAX_ID_CHARS} are allowed"));
    }
    first_unsafe_char(s).map(|(i, c)| {
        format!(
            "holds a control or bidi character (U+{:04X}) at character {i}; ids and names must be printable text",
            c as u32
        )
    })
}

/// Problems with the text of a custom deck's names and ids, each naming
/// the category and card.
fn custom_deck_text_problems(custom: &crate::format::CustomDeck) -> Vec<String> {
    let mut out = Vec::new();
    for (i, cat) in custom.categories.iter().enumerate() {
        let at = format!("category {i} ('{}')", quote(&cat.name));
        if let Some(p) = text_problem(&cat.name) {
            out.push(format!("{at}: the name {p}"));
        }
        for (j, card) in cat.cards.iter().enumerate() {
            let (id, name) = match card {
                CardSpec::Id(id) => (id, None),
                CardSpec::Named { id, name } => (id, Some(name)),
            };
            if let Some(p) = text_problem(id) {
                out.push(format!("{at}, card {j} ('{}'): the id {p}", quote(id)));
            }
            if let Some(p) = name.and_then(|n| text_problem(n)) {
                out.push(format!("{at}, card {j} ('{}'): the name {p}", quote(id)));
            }
            if out.len() >= MAX_PROBLEMS {
                return out;
            }
        }
    }
    out
}

/// How many cards are dealt to the players, and why.
#[derive(Copy, Clone, Debug)]
struct Dealt {
    deck: usize,
    case_file: usize,
    face_up: usize,
}

impl Dealt {
    fn cards(self) -> usize {
        self.deck.saturating_sub(self.case_file + self.face_up)
    }
}

/// `one` when `n` is 1, else `many`.
fn plural(n: usize, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// Card ids quoted and joined: `'mu', 'kn'`.
fn quoted(deck: &Deck, cards: CardSet) -> String {
    cards.iter().map(|c| format!("'{}'", quote(deck.id(c)))).collect::<Vec<_>>().join(", ")
}

/// Reports face-up cards listed in the observer's hand.
fn check_face_up_in_hand(chk: &mut Checker<'_>, hand: CardSet, face_up: CardSet) {
    let overlap = hand & face_up;
    if let (false, Some(deck)) = (overlap.is_empty(), chk.deck) {
        let msg =
            format!("face-up {} {} cannot be in a hand", plural(overlap.len(), "card", "cards"), quoted(deck, overlap));
        chk.report(Location::Hand, msg);
    }
}

fn check_hand_sizes(
    chk: &mut Checker<'_>,
    sizes: &BTreeMap<String, i64>,
    hand_sizes: &mut [Option<usize>],
    dealt: Option<Dealt>,
) {
    // Explicit sizes replace the default ones; a player without one has none.
    hand_sizes.fill(None);
    let mut ok = true;
    for (id, &size) in sizes {
        let Some(p) = chk.player(&Location::HandSizes, id) else {
            ok = false;
            continue;
        };
        if !(0..=MAX_CARDS as i64).contains(&size) {
            chk.report(
                Location::HandSizes,
                format!("hand size {size} for '{}' is out of range (0 to {MAX_CARDS})", quote(id)),
            );
            ok = false;
        } else {
            hand_sizes[p.index()] = Some(size as usize);
        }
    }
    for id in chk.players.iter() {
        if !sizes.contains_key(id) {
            chk.report(Location::HandSizes, format!("no hand size for '{}'", quote(id)));
            ok = false;
        }
    }
    if let (true, Some(dealt)) = (ok, dealt) {
        let total: usize = hand_sizes.iter().flatten().sum();
        if total != dealt.cards() {
            let Dealt { deck, case_file, face_up } = dealt;
            chk.report(
                Location::HandSizes,
                format!(
                    "hand sizes add up to {total}, but {} cards are dealt ({deck} in the deck, \
                     {case_file} in the case file, {face_up} face up)",
                    dealt.cards()
                ),
            );
        }
    }
}

fn check_suggestion(chk: &mut Checker<'_>, at: &Location, s: &SuggestionSpec, viewer: Viewer) -> Option<Event> {
    let by = chk.player(at, &s.by);
    let cards = chk.one_per_category(at, &s.cards);
    let refuted_by = match &s.refuted_by {
        None => Some(None),
        Some(id) => chk.player(at, id).map(Some),
    };
    if let (Some(b), Some(Some(r))) = (by, refuted_by) {
        if b == r {
            chk.report(at.clone(), format!("'{}' cannot refute their own suggestion", quote(&s.by)));
        }
    }
    let shown = match &s.shown {
        None => Some(None),
        Some(id) => {
            let card = chk.card(at, id);
            if let (Some(c), Some(set)) = (card, cards) {
                if !set.contains(c) {
                    chk.report(at.clone(), format!("shown card '{}' was not suggested", quote(id)));
                }
            }
            // Who could have seen it; skipped where a player is unknown, as
            // the unknown id is reported already.
            match (refuted_by, viewer) {
                (Some(None), _) => chk.report(at.clone(), format!("card '{}' is shown but nobody refuted", quote(id))),
                (Some(Some(_)), Viewer::Bystander) => chk.report(
                    at.clone(),
                    format!("a bystander cannot see the shown card '{}'; remove 'shown' or give 'me'", quote(id)),
                ),
                (Some(Some(r)), Viewer::Observer(me)) if me != r && by.is_some_and(|b| b != me) => {
                    let (me, id) = (quote(&chk.players[me.index()]), quote(id));
                    let msg = format!(
                        "the observer neither suggested nor refuted, so '{me}' cannot have seen the shown card '{id}'"
                    );
                    chk.report(at.clone(), msg);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::LoadError;

    /// The problems of a classic three-player file with these extra fields.
    fn problems(extra: &str) -> Vec<String> {
        let text = format!(r#"{{"version": 1, "deck": "classic", "players": ["a", "b", "c"], {extra}}}"#);
        match Game::from_json(&text) {
            Err(LoadError::Game(e)) => e.problems.iter().map(Problem::to_string).collect(),
            Err(e) => panic!("{e}"),
            Ok(_) => Vec::new(),
        }
    }

    const SHOWN_TO_A: &str =
        r#""events": [{"suggestion": {"by": "a", "cards": ["mu", "kn", "ha"], "refuted_by": "b", "shown": "kn"}}]"#;

    #[test]
    fn an_invalid_hand_keeps_the_observer_for_shown_cards() {
        let got = problems(&format!(r#""me": "a", "hand": ["mu", "mu", "gr", "pe", "sc", "wh"], {SHOWN_TO_A}"#));
        assert_eq!(got, ["hand: card 'mu' is listed twice"]);
        let got = problems(&format!(r#""me": "a", "hand": ["mu", "zz", "gr", "pe", "sc", "wh"], {SHOWN_TO_A}"#));
        assert_eq!(got, ["hand: unknown card 'zz'"]);
        // The observer is still checked: c neither suggested nor refuted.
        let got = problems(&format!(
            r#""me": "c", "hand": ["zz"], {}"#,
            r#""events": [{"suggestion": {"by": "a", "cards": ["mu", "kn", "ha"], "refuted_by": "b", "shown": "kn"}}]"#
        ));
        assert_eq!(
            got,
            [
                "hand: unknown card 'zz'",
                "event 0: the observer neither suggested nor refuted, so 'c' cannot have seen the shown card 'kn'",
            ]
        );
    }

    #[test]
    fn an_unknown_observer_skips_the_shown_card_check() {
        let got = problems(&format!(r#""me": "z", "hand": ["mu", "pl", "gr", "pe", "sc", "wh"], {SHOWN_TO_A}"#));
        assert_eq!(got, ["hand: unknown player 'z' (players are a, b, c)"]);
        let got = problems(&format!(r#""hand": ["mu", "pl", "gr", "pe", "sc", "wh"], {SHOWN_TO_A}"#));
        assert_eq!(got, ["hand: 'hand' is given without 'me'; give both, or neither for a bystander"]);
        // `me` alone still names the observer, and is checked.
        let got = problems(&format!(r#""me": "a", {SHOWN_TO_A}"#));
        assert_eq!(got, ["hand: 'me' is given without 'hand'; give both, or neither for a bystander"]);
        let got = problems(&format!(r#""me": "q", {SHOWN_TO_A}"#));
        assert_eq!(
            got,
            [
                "hand: 'me' is given without 'hand'; give both, or neither for a bystander",
                "hand: unknown player 'q' (players are a, b, c)",
            ]
        );
        // A bystander really cannot see it; the message names the card.
        assert_eq!(
            problems(SHOWN_TO_A),
            ["event 0: a bystander cannot see the shown card 'kn'; remove 'shown' or give 'me'"]
        );
    }

    #[test]
    fn an_unknown_suggester_is_not_blamed_on_the_observer() {
        let got = problems(
            r#""me": "c", "hand": ["mu", "pl", "gr", "pe", "sc", "wh"], "events": [
              {"suggestion": {"by": "x", "cards": ["mu", "kn", "ha"], "refuted_by": "b", "shown": "kn"}},
              {"suggestion": {"by": "a", "cards": ["mu", "kn", "ha"], "refuted_by": "y", "shown": "kn"}}]"#,
        );
        assert_eq!(
            got,
            ["event 0: unknown player 'x' (players are a, b, c)", "event 1: unknown player 'y' (players are a, b, c)"]
        );
    }

    #[test]
    fn unknown_face_up_ids_keep_the_known_ones() {
        // 'mu' is still face up, so it cannot be in the hand; the hand size
        // is unknown (the number of face-up cards is), so it is not checked.
        let got = problems(r#""face_up": ["mu", "zz"], "me": "a", "hand": ["mu"]"#);
        assert_eq!(got, ["face_up: unknown card 'zz'", "hand: face-up card 'mu' cannot be in a hand"]);
        let got = problems(r#""face_up": ["mu", "kn"], "me": "a", "hand": ["mu", "kn", "ha", "lo", "di", "ki"]"#);
        assert_eq!(got, ["hand: face-up cards 'mu', 'kn' cannot be in a hand"]);
        // Explicit hand sizes do not depend on the face-up cards.
        let got = problems(
            r#""face_up": ["zz"], "hand_sizes": {"a": 6, "b": 6, "c": 6}, "me": "a", "hand": ["mu", "pl", "gr"]"#,
        );
        assert_eq!(got, ["face_up: unknown card 'zz'", "hand: 3 cards in hand but a's hand size is 6"]);
    }

    #[test]
    fn counts_are_singular_or_plural() {
        assert_eq!(problems(r#""me": "a", "hand": ["mu"]"#), ["hand: 1 card in hand but a's hand size is 6"]);
        assert_eq!(problems(r#""me": "a", "hand": []"#), ["hand: 0 cards in hand but a's hand size is 6"]);
        let one = Game::from_json(r#"{"version": 1, "deck": "classic", "players": ["a"]}"#).unwrap_err();
        assert!(one.to_string().contains("players: 1 player; between 2 and 10 are supported"), "{one}");
        let none = Game::from_json(r#"{"version": 1, "deck": "classic", "players": []}"#).unwrap_err();
        assert!(none.to_string().contains("players: 0 players; between 2 and 10 are supported"), "{none}");
    }

    #[test]
    fn messages_name_what_is_wrong_and_where() {
        let got = problems(r#""hand_sizes": {"a": 6, "b": 6, "c": 5}"#);
        assert_eq!(
            got,
            ["hand_sizes: hand sizes add up to 17, but 18 cards are dealt (21 in the deck, 3 in the case file, 0 face up)"]
        );
        let got =
            problems(r#""events": [{"suggestion": {"by": "a", "cards": ["mu", "pl", "kn"], "refuted_by": null}}]"#);
        assert_eq!(
            got,
            [
                "event 0: 2 cards of category suspect named (mu, pl); name exactly one card per category",
                "event 0: no room named; name exactly one card per category",
            ]
        );
        let got = problems(r#""face_up": ["mu", "pl", "gr", "pe", "sc", "wh"]"#);
        assert_eq!(
            got,
            ["face_up: every suspect is face up (mu, pl, gr, pe, sc, wh), so none can be in the case file"]
        );
        let text =
            r#"{"version": 1, "deck": {"categories": [{"name": "s", "cards": ["x", ""]}]}, "players": ["a", "b"]}"#;
        let err = Game::from_json(text).unwrap_err().to_string();
        assert!(err.contains("deck: a card id is empty (in category 's')"), "{err}");
        // Every message: lowercase start, no trailing period.
        for p in problems(
            r#""face_up": ["zz", "mu", "mu"], "hand_sizes": {"a": 99, "q": 1}, "me": "z", "hand": ["kn", "kn"],
            "events": [{"suggestion": {"by": "a", "cards": ["mu"], "refuted_by": "a", "shown": "ro"}},
                       {"accusation": {"by": "b", "cards": ["x"], "correct": true}}]"#,
        ) {
            let message = p.split_once(": ").unwrap().1;
            assert!(!message.ends_with('.'), "{p}");
            assert!(!message.starts_with(|c: char| c.is_uppercase()), "{p}");
        }
    }
}

#[cfg(test)]
mod push_tests {
    use super::*;
    use crate::generate::{generate, DeckChoice, GenConfig};
    use rand::SeedableRng;

    /// Pushing events one at a time gives the same game as validating the
    /// whole file, and a bad event is refused without changing the game.
    #[test]
    fn pushing_events_equals_validating_the_file() {
        for seed in 0..50u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let cfg = GenConfig { accusation_rate: 0.2, ..GenConfig::new(DeckChoice::Classic, 4, seed % 2 == 0, 12) };
            let file = generate(&cfg, &mut rng).file;
            let whole = Game::new(&file).unwrap();
            let mut empty = file.clone();
            empty.events.clear();
            let mut game = Game::new(&empty).unwrap();
            for e in &file.events {
                game.push_event(e).unwrap();
            }
            assert_eq!(game, whole);
            let before = game.clone();
            let bad = EventSpec::Accusation(AccusationSpec { by: "nobody".into(), cards: vec![], correct: false });
            let err = game.push_event(&bad).unwrap_err();
            assert!(err.problems.iter().all(|p| p.location == Location::Event(file.events.len())));
            assert_eq!(game, before);
        }
    }
}
