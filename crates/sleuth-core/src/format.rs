//! The game file (version 1) as it is on the wire: JSON with string ids.
//!
//! These types mirror `game-format.md` field by field and know nothing about
//! validity; [`Game::new`](crate::Game::new) turns a [`GameFile`] into a checked
//! [`Game`](crate::Game).
//!
//! Unknown keys: the format welcomes optional additions by other tools, so a
//! key Sleuth does not know is accepted and ignored — unless it looks like a
//! misspelling of a key Sleuth knows at that place (`shwon`, `handSizes`,
//! `Refuted_By`), which is an error naming the key it resembles, so that
//! evidence is never silently lost. An event must still be a single
//! `suggestion` or `accusation` object.

use crate::model::{Deck, DeckKind};
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::BTreeMap;

mod reader;

/// The most events a game file may hold. Real games have a few hundred at
/// most; the limit keeps the work of reading and explaining a file bounded.
pub const MAX_EVENTS: usize = 100_000;

/// A game file, exactly as read from or written to JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameFile {
    /// The format version; only `1` exists.
    pub version: u32,
    /// `"classic"`, `"master"` or a custom deck.
    pub deck: DeckSpec,
    /// Player ids in seat order, clockwise.
    pub players: Vec<String>,
    /// Cards per player; absent means the default dealing rule. A player
    /// named twice is an error, not "the last one wins".
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "unique_keys")]
    pub hand_sizes: Option<BTreeMap<String, i64>>,
    /// Cards every player has seen; in no hand and not in the case file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub face_up: Vec<String>,
    /// The observer; absent for a bystander.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub me: Option<String>,
    /// The observer's cards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand: Option<Vec<String>>,
    /// What happened, in order.
    #[serde(default)]
    pub events: Vec<EventSpec>,
}

/// The deck: a named standard deck or custom categories.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum DeckSpec {
    /// `"classic"` or `"master"`.
    Named(String),
    /// `{"categories": [...]}`.
    Custom(CustomDeck),
}

impl DeckSpec {
    /// How a game file names `deck`: `"classic"`, `"master"`, or its
    /// categories, each card by its id alone when its name is the id. The
    /// way back, with every problem named, is [`DeckSpec::to_deck`].
    ///
    /// # Examples
    /// ```
    /// use sleuth_core::format::DeckSpec;
    /// use sleuth_core::Deck;
    ///
    /// assert_eq!(DeckSpec::from_deck(&Deck::classic()), DeckSpec::Named("classic".into()));
    /// let deck = Deck::custom(vec![("colour".into(), vec![("r".into(), "red".into()), ("g".into(), "g".into())])])
    ///     .expect("a valid deck");
    /// let spec = DeckSpec::from_deck(&deck);
    /// assert_eq!(serde_json::to_string(&spec)?, r#"{"categories":[{"name":"colour","cards":[{"id":"r","name":"red"},"g"]}]}"#);
    /// assert_eq!(spec.to_deck().expect("the same deck").ids(deck.all()), ["r", "g"]);
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn from_deck(deck: &Deck) -> DeckSpec {
        match deck.kind() {
            DeckKind::Classic => DeckSpec::Named("classic".into()),
            DeckKind::Master => DeckSpec::Named("master".into()),
            DeckKind::Custom => DeckSpec::Custom(CustomDeck {
                categories: deck
                    .categories()
                    .map(|cat| CategorySpec {
                        name: deck.category_name(cat).to_string(),
                        cards: deck
                            .category_cards(cat)
                            .iter()
                            .map(|c| {
                                let (id, name) = (deck.id(c), deck.name(c));
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
        }
    }
}

/// A custom deck: categories in order, one case-file card from each.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CustomDeck {
    /// The categories.
    pub categories: Vec<CategorySpec>,
}

/// One category of a custom deck.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CategorySpec {
    /// The category's name, e.g. `"suspect"`.
    pub name: String,
    /// Its cards.
    pub cards: Vec<CardSpec>,
}

impl CategorySpec {
    /// The category as [`crate::Deck::custom`] takes it: its name and each
    /// card's `(id, name)`, the id standing for a card given without a name.
    pub fn to_deck_category(&self) -> (String, Vec<(String, String)>) {
        let cards = self
            .cards
            .iter()
            .map(|card| match card {
                CardSpec::Id(id) => (id.clone(), id.clone()),
                CardSpec::Named { id, name } => (id.clone(), name.clone()),
            })
            .collect();
        (self.name.clone(), cards)
    }
}

/// A card of a custom deck: an id, optionally with a display name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum CardSpec {
    /// Just the id.
    Id(String),
    /// `{"id": "mu", "name": "Colonel Mustard"}`.
    Named {
        /// The id used everywhere else in the file.
        id: String,
        /// The name shown to people.
        name: String,
    },
}

/// One event of the game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum EventSpec {
    /// A suggestion and its refutation.
    Suggestion(SuggestionSpec),
    /// An accusation and whether it was right.
    Accusation(AccusationSpec),
}

/// A suggestion as written in the file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SuggestionSpec {
    /// The suggester.
    pub by: String,
    /// One card per category.
    pub cards: Vec<String>,
    /// The first player clockwise who could refute, or `null` for nobody.
    /// The key is required: a missing key is an error, not "nobody".
    #[serde(deserialize_with = "required_nullable")]
    pub refuted_by: Option<String>,
    /// The card shown, when the observer saw it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shown: Option<String>,
}

/// An accusation as written in the file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AccusationSpec {
    /// The accuser.
    pub by: String,
    /// One card per category.
    pub cards: Vec<String>,
    /// Whether the case file is exactly these cards.
    pub correct: bool,
}

/// Serde treats a missing `Option` field as `None`; with this function (and
/// no `default`) the key must be present, though its value may be `null`.
fn required_nullable<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Option::<String>::deserialize(d)
}

/// A map whose keys must all differ (serde's maps keep the last duplicate).
fn unique_keys<'de, D: Deserializer<'de>>(d: D) -> Result<Option<BTreeMap<String, i64>>, D::Error> {
    struct Visitor;
    impl<'de> serde::de::Visitor<'de> for Visitor {
        type Value = BTreeMap<String, i64>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a map from player ids to hand sizes")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = BTreeMap::new();
            while let Some((key, value)) = map.next_entry::<String, i64>()? {
                if out.insert(key.clone(), value).is_some() {
                    return Err(serde::de::Error::custom(format!("player '{key}' has two hand sizes")));
                }
            }
            Ok(out)
        }
    }
    d.deserialize_map(Visitor).map(Some)
}

/// An error reading a game file: not JSON, or JSON of the wrong shape.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
#[non_exhaustive]
pub struct FormatError {
    /// What is wrong, with line and column.
    pub message: String,
}

impl GameFile {
    /// Parses a game file from JSON text.
    ///
    /// A leading UTF-8 byte order mark is skipped. Keys may not repeat within
    /// an object. At most [`MAX_EVENTS`] events are read.
    ///
    /// # Errors
    /// [`FormatError`] when the text is not JSON (the message names the line
    /// and column) or does not have the shape of a game file (the message
    /// names the field or event and what was expected there, in the format's
    /// own terms).
    pub fn from_json(text: &str) -> Result<GameFile, FormatError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let node: reader::Node =
            serde_json::from_str(text).map_err(|e| FormatError { message: describe_json_error(&e) })?;
        reader::game_file(&node).map_err(|message| FormatError { message })
    }

    /// Writes the file as pretty JSON with one event per line.
    pub fn to_json(&self) -> String {
        let mut out = String::from("{\n");
        let mut fields: Vec<String> = Vec::new();
        let j = |v: &dyn erased::Ser| v.json();
        fields.push(format!("  \"version\": {}", self.version));
        fields.push(format!("  \"deck\": {}", j(&self.deck)));
        fields.push(format!("  \"players\": {}", j(&self.players)));
        if let Some(sizes) = &self.hand_sizes {
            fields.push(format!("  \"hand_sizes\": {}", j(sizes)));
        }
        if !self.face_up.is_empty() {
            fields.push(format!("  \"face_up\": {}", j(&self.face_up)));
        }
        if let Some(me) = &self.me {
            fields.push(format!("  \"me\": {}", j(me)));
        }
        if let Some(hand) = &self.hand {
            fields.push(format!("  \"hand\": {}", j(hand)));
        }
        let events: Vec<String> = self.events.iter().map(|e| format!("    {}", j(e))).collect();
        if events.is_empty() {
            fields.push("  \"events\": []".to_string());
        } else {
            fields.push(format!("  \"events\": [\n{}\n  ]", events.join(",\n")));
        }
        out.push_str(&fields.join(",\n"));
        out.push_str("\n}\n");
        out
    }
}

/// Compact JSON of any serialisable value, for [`GameFile::to_json`].
mod erased {
    pub trait Ser {
        fn json(&self) -> String;
    }
    impl<T: serde::Serialize> Ser for T {
        fn json(&self) -> String {
            serde_json::to_string(self).expect("game file values always serialise")
        }
    }
}

const TOP_KEYS: &[&str] = &["version", "deck", "players", "hand_sizes", "face_up", "me", "hand", "events"];
const SUGGESTION_KEYS: &[&str] = &["by", "cards", "refuted_by", "shown"];
const ACCUSATION_KEYS: &[&str] = &["by", "cards", "correct"];
const DECK_KEYS: &[&str] = &["categories"];
const CATEGORY_KEYS: &[&str] = &["name", "cards"];

impl EventSpec {
    /// Parses one event as an event of a game file is parsed: the same
    /// reader and the same messages, with `place` ("the event") naming it.
    /// With `every_key`, any key Sleuth does not know is refused too: for a
    /// caller that stores the parsed event, where an ignored key would be
    /// silently lost.
    ///
    /// # Errors
    /// [`FormatError`] saying what is wrong.
    pub fn from_value(value: &serde_json::Value, place: &str, every_key: bool) -> Result<EventSpec, FormatError> {
        let node = reader::Node::deserialize(value).map_err(|e| FormatError { message: e.to_string() })?;
        reader::event(&node, place, every_key).map_err(|message| FormatError { message })
    }
}

/// Whether `key` is probably a misspelling of `known`: equal once case,
/// `_` and `-` are ignored, or within a small edit distance.
fn looks_like(key: &str, known: &str) -> bool {
    // A key much longer than any known one is no misspelling (and the edit
    // distance below is quadratic).
    if key.len() > 4 * known.len() + 8 {
        return false;
    }
    let norm = |s: &str| s.chars().filter(|c| *c != '_' && *c != '-').flat_map(char::to_lowercase).collect::<Vec<_>>();
    let (a, b) = (norm(key), norm(known));
    if a == b {
        return true;
    }
    let allowed = match b.len() {
        0..=3 => 0,
        4 => 1,
        _ => 2,
    };
    edit_distance(&a, &b) <= allowed
}

fn edit_distance(a: &[char], b: &[char]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            cur.push((prev[j] + usize::from(ca != cb)).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// A reader's message for text that could not be read as JSON at all.
fn describe_json_error(e: &serde_json::Error) -> String {
    use serde_json::error::Category;
    let what = match e.classify() {
        Category::Io => "could not be read",
        Category::Data => "not a valid game file",
        _ => "not valid JSON",
    };
    // serde_json's own message already ends with "at line L column C".
    format!("{what}: {}", crate::text::escape_message(&e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_the_format_example() {
        let text = r#"{
          "version": 1, "deck": "classic",
          "players": ["sc", "mu", "wh", "gr", "pe", "pl"],
          "hand_sizes": {"sc": 3, "mu": 3, "wh": 3, "gr": 3, "pe": 3, "pl": 3},
          "face_up": [], "me": "sc", "hand": ["wh", "li", "st"],
          "events": [
            {"suggestion": {"by": "sc", "cards": ["sc", "ro", "lo"], "refuted_by": "mu", "shown": "sc"}},
            {"suggestion": {"by": "pl", "cards": ["pe", "pi", "ba"], "refuted_by": null}},
            {"accusation": {"by": "gr", "cards": ["pe", "kn", "ha"], "correct": false}}
          ]}"#;
        let file = GameFile::from_json(text).unwrap();
        assert_eq!(file.events.len(), 3);
        let again = GameFile::from_json(&file.to_json()).unwrap();
        assert_eq!(file, again);
    }

    #[test]
    fn missing_refuted_by_is_an_error() {
        let text = r#"{"version": 1, "deck": "classic", "players": ["a","b","c"],
          "events": [{"suggestion": {"by": "a", "cards": ["mu","kn","ha"]}}]}"#;
        let err = GameFile::from_json(text).unwrap_err();
        assert!(err.message.contains("refuted_by"), "{}", err.message);
    }

    #[test]
    fn unknown_keys_are_accepted_but_misspellings_are_errors() {
        let base = |extra: &str| {
            format!(
                r#"{{"version": 1, "deck": "classic", "players": ["a","b","c"]{extra},
                "events": [{{"suggestion": {{"by": "a", "cards": ["mu","kn","ha"], "refuted_by": "b", "turn": 3}}}}]}}"#
            )
        };
        assert!(GameFile::from_json(&base(r#", "tool": "other notepad""#)).is_ok());
        let err = GameFile::from_json(&base(r#", "handSizes": {}"#)).unwrap_err();
        assert!(err.message.contains("'handSizes' in the file (did you mean 'hand_sizes'?)"), "{}", err.message);
        let err = GameFile::from_json(&base(r#", "face-up": []"#)).unwrap_err();
        assert!(err.message.contains("did you mean 'face_up'"), "{}", err.message);
        let text = r#"{"version": 1, "deck": "classic", "players": ["a","b","c"], "me": "a", "hand": [],
          "events": [{"suggestion": {"by": "a", "cards": ["mu","kn","ha"], "refuted_by": "b", "shwon": "mu"}}]}"#;
        let err = GameFile::from_json(text).unwrap_err();
        assert!(err.message.contains("'shwon' in event 0 (did you mean 'shown'?)"), "{}", err.message);
    }

    #[test]
    fn one_event_is_parsed_as_in_a_file() {
        let ev = |v: serde_json::Value, every: bool| EventSpec::from_value(&v, "the event", every);
        let good =
            serde_json::json!({"suggestion": {"by": "a", "cards": ["mu","kn","ha"], "refuted_by": "b", "shown": "mu"}});
        let in_file = GameFile::from_json(&format!(
            r#"{{"version": 1, "deck": "classic", "players": ["a","b","c"], "events": [{good}]}}"#
        ))
        .unwrap();
        assert_eq!(ev(good.clone(), true).unwrap(), in_file.events[0]);
        let shwon =
            serde_json::json!({"suggestion": {"by": "a", "cards": ["mu","kn","ha"], "refuted_by": "b", "shwon": "mu"}});
        let err = ev(shwon, false).unwrap_err();
        assert!(err.message.contains("'shwon' in the event (did you mean 'shown'?)"), "{}", err.message);
        let caps = serde_json::json!({"suggestion": {"by": "a", "cards": ["mu","kn","ha"], "Refuted_By": "b"}});
        let err = ev(caps, false).unwrap_err();
        assert!(err.message.contains("did you mean 'refuted_by'"), "{}", err.message);
        let turn =
            serde_json::json!({"suggestion": {"by": "a", "cards": ["mu","kn","ha"], "refuted_by": null, "turn": 3}});
        assert!(ev(turn.clone(), false).is_ok());
        assert!(ev(turn, true).unwrap_err().message.contains("unknown key 'turn'"));
        assert!(ev(serde_json::json!({"guess": {}}), true).is_err());
    }

    #[test]
    fn ids_are_read_in_nfc_and_invisible_characters_refused() {
        let file = |players: &str, rest: &str| {
            GameFile::from_json(&format!(r#"{{"version": 1, "deck": "classic", "players": {players}{rest}}}"#))
        };
        // Composed and decomposed, one id: the game sees it listed twice.
        let f = file(r#"["caf\u00e9", "cafe\u0301", "b"]"#, "").unwrap();
        assert_eq!(f.players, ["caf\u{e9}", "caf\u{e9}", "b"]);
        let e = crate::Game::new(&f).unwrap_err().to_string();
        assert!(e.contains("listed twice"), "{e}");
        // Events, hands and hand sizes name the same id in either spelling.
        let f = file(
            r#"["caf\u00e9", "b", "c"]"#,
            r#", "me": "cafe\u0301", "hand": ["mu"], "hand_sizes": {"cafe\u0301": 6, "b": 6, "c": 6},
               "events": [{"suggestion": {"by": "cafe\u0301", "cards": ["mu", "kn", "ha"], "refuted_by": null}}]"#,
        )
        .unwrap();
        assert_eq!(f.me.as_deref(), Some("caf\u{e9}"));
        let sizes = f.hand_sizes.as_ref().unwrap();
        assert_eq!(sizes.get("caf\u{e9}"), Some(&6));
        assert!(matches!(&f.events[0], EventSpec::Suggestion(s) if s.by == "caf\u{e9}"));
        let e = file(r#"["a", "b"]"#, r#", "hand_sizes": {"caf\u00e9": 9, "cafe\u0301": 9}"#).unwrap_err();
        assert!(e.message.contains("two hand sizes"), "{}", e.message);
        // A zero-width space, anywhere an id or name is read, is refused
        // with the character shown escaped.
        for (players, rest, at) in [
            (r#"["a", "a\u200b", "b"]"#, "", "players: entry 1"),
            (r#"["a", "b"]"#, r#", "me": "a\u2060""#, "me"),
            (r#"["a", "b"]"#, r#", "face_up": ["mu\u00ad"]"#, "face_up: entry 0"),
            (
                r#"["a", "b"]"#,
                r#", "events": [{"accusation": {"by": "a", "cards": ["mu", "kn\ufeff", "ha"], "correct": false}}]"#,
                "event 0: 'cards': entry 1",
            ),
        ] {
            let e = file(players, rest).unwrap_err().message;
            assert!(e.contains(at) && e.contains("invisible or control character \\u{"), "{e}");
        }
        let e = GameFile::from_json(
            r#"{"version": 1, "players": ["a", "b"], "deck": {"categories": [{"name": "who", "cards": ["x\u200b", "y"]}]}}"#,
        )
        .unwrap_err()
        .message;
        assert!(e.contains("'x\\u{200b}' holds the invisible or control character \\u{200b} at character 1"), "{e}");
    }

    #[test]
    fn misspelt_keys_are_errors() {
        let text = r#"{"version": 1, "deck": "classic", "players": ["a","b","c"],
          "events": [{"suggestion": {"by": "a", "cards": ["mu","kn","ha"], "refuted": null}}]}"#;
        assert!(GameFile::from_json(text).is_err());
        assert!(GameFile::from_json("{").unwrap_err().message.contains("line"));
    }
}
