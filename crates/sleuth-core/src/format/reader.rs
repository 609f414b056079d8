//! Reading a [`GameFile`] from parsed JSON by hand, so that every error
//! names the field or event and says what the format expects there, in
//! the format's own terms (never a Rust type name).
//!
//! JSON is first read into a [`Node`] tree that keeps object keys in order
//! and refuses a repeated key (serde_json's own `Value` keeps the last one,
//! which would silently drop evidence).
//!
//! Every string of a game file is an id or a name: each is read in Unicode
//! NFC ([`nfc`]), so that ids are compared in one spelling, and one holding
//! an invisible or control character ([`id_problem`]) is refused here,
//! with the character shown escaped.

use super::{
    looks_like, AccusationSpec, CardSpec, CategorySpec, CustomDeck, DeckSpec, EventSpec, GameFile, SuggestionSpec,
    ACCUSATION_KEYS, CATEGORY_KEYS, DECK_KEYS, MAX_EVENTS, SUGGESTION_KEYS, TOP_KEYS,
};
use crate::text::{id_problem, nfc, quote};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::collections::{BTreeMap, HashSet};
use std::fmt;

const EVENT_KEYS: &[&str] = &["suggestion", "accusation"];
const CARD_KEYS: &[&str] = &["id", "name"];

/// How many problems a message lists before "... and N more".
const MAX_LISTED: usize = 10;

/// Up to this many keys, an object's keys are checked for repeats by
/// comparing them in turn.
const SCAN_KEYS: usize = 16;

/// A JSON value with its object keys in file order.
#[derive(Debug)]
pub(super) enum Node {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(String),
    List(Vec<Node>),
    Object(Vec<(String, Node)>),
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Node, D::Error> {
        d.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }
    fn visit_none<E>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Node, E> {
        Ok(Node::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Node, E> {
        Ok(Node::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Node, E> {
        Ok(Node::Number(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Node, E> {
        // JSON has no NaN or infinity, so this never falls back to null.
        Ok(serde_json::Number::from_f64(v).map_or(Node::Null, Node::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Node, E> {
        Ok(Node::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Node, E> {
        Ok(Node::String(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut out = Vec::new();
        while let Some(n) = seq.next_element()? {
            out.push(n);
        }
        Ok(Node::List(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut out: Vec<(String, Node)> = Vec::new();
        // The format's objects have a few keys: those are compared in turn;
        // a set takes over past `SCAN_KEYS`, so that a huge object stays
        // linear.
        let mut seen: Option<HashSet<String>> = None;
        while let Some(key) = map.next_key::<String>()? {
            let repeated = match &mut seen {
                Some(seen) => !seen.insert(key.clone()),
                None => {
                    let repeated = out.iter().any(|(k, _)| *k == key);
                    if out.len() >= SCAN_KEYS {
                        seen = Some(out.iter().map(|(k, _)| k.clone()).chain([key.clone()]).collect());
                    }
                    repeated
                }
            };
            if repeated {
                return Err(de::Error::custom(format!("the key '{}' is repeated in one object", quote(&key))));
            }
            out.push((key, map.next_value()?));
        }
        Ok(Node::Object(out))
    }
}

impl Node {
    /// What this is, for "found ..." in messages.
    fn kind(&self) -> String {
        match self {
            Node::Null => "null".into(),
            Node::Bool(b) => b.to_string(),
            Node::Number(n) => quote(&n.to_string()),
            Node::String(s) => format!("the text \"{}\"", quote(s)),
            Node::List(_) => "a list".into(),
            Node::Object(_) => "an object".into(),
        }
    }

    fn get(&self, key: &str) -> Option<&Node> {
        match self {
            Node::Object(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}

/// Collects the problems of one file.
struct Reader {
    problems: Vec<String>,
    more: usize,
    /// Refuse every unknown key, not only likely misspellings.
    every_key: bool,
}

impl Reader {
    fn report(&mut self, message: String) {
        if self.problems.len() < MAX_LISTED {
            self.problems.push(message);
        } else {
            self.more += 1;
        }
    }

    /// Reports unknown keys that look like misspellings of known ones.
    fn check_keys(&mut self, node: &Node, known: &[&str], place: impl fmt::Display) {
        let Node::Object(entries) = node else { return };
        for (key, _) in entries {
            if known.contains(&key.as_str()) {
                continue;
            }
            if let Some(like) = known.iter().find(|k| looks_like(key, k)) {
                self.report(format!("unknown key '{}' in {place} (did you mean '{like}'?)", quote(key)));
            } else if self.every_key {
                let keys: Vec<String> = known.iter().map(|k| format!("'{k}'")).collect();
                self.report(format!("unknown key '{}' in {place} (known keys: {})", quote(key), keys.join(", ")));
            }
        }
    }

    /// An id or name as the game holds it: in NFC, without invisible or
    /// control characters (reported at `at`).
    fn text(&mut self, s: &str, at: impl fmt::Display) -> Option<String> {
        match id_problem(s) {
            Some(problem) => {
                self.report(format!("{at}: '{}' {problem}", quote(s)));
                None
            }
            None => Some(nfc(s).into_owned()),
        }
    }

    // `at` and `what` are formatted only for a message: building them for
    // every value read cost more than the rest of reading an event.
    fn string(&mut self, node: &Node, at: impl fmt::Display, what: impl fmt::Display) -> Option<String> {
        match node {
            Node::String(s) => self.text(s, at),
            other => {
                self.report(format!("{at}: expected {what} (a string), found {}", other.kind()));
                None
            }
        }
    }

    fn strings(&mut self, node: &Node, at: impl fmt::Display, what: impl fmt::Display) -> Option<Vec<String>> {
        let Node::List(items) = node else {
            self.report(format!("{at}: expected a list of {what}s such as [\"a\", \"b\"], found {}", node.kind()));
            return None;
        };
        let mut out = Vec::with_capacity(items.len());
        let mut ok = true;
        for (i, item) in items.iter().enumerate() {
            match self.string(item, format_args!("{at}: entry {i}"), format_args!("a {what}")) {
                Some(s) => out.push(s),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    /// An optional key: absent and `null` are both "not given".
    fn optional<'a>(node: &'a Node, key: &str) -> Option<&'a Node> {
        node.get(key).filter(|v| !matches!(v, Node::Null))
    }

    fn required<'a>(&mut self, node: &'a Node, key: &str, at: impl fmt::Display, hint: &str) -> Option<&'a Node> {
        let found = node.get(key);
        if found.is_none() {
            self.report(format!("{at}: '{key}' is missing ({hint})"));
        }
        found
    }
}

/// Reads a game file from its JSON tree.
pub(super) fn game_file(node: &Node) -> Result<GameFile, String> {
    let mut r = Reader { problems: Vec::new(), more: 0, every_key: false };
    let file = read_file(&mut r, node);
    match file {
        Some(file) if r.problems.is_empty() => Ok(file),
        _ => {
            let mut message = format!("not a valid game file: {}", r.problems.join("; "));
            if r.more > 0 {
                message.push_str(&format!("; ... and {} more", r.more));
            }
            Err(message)
        }
    }
}

fn read_file(r: &mut Reader, node: &Node) -> Option<GameFile> {
    if !matches!(node, Node::Object(_)) {
        r.report(format!(
            "expected an object such as {{\"version\": 1, \"deck\": \"classic\", \"players\": [...], \"events\": [...]}}, found {}",
            node.kind()
        ));
        return None;
    }
    r.check_keys(node, TOP_KEYS, "the file");
    let version = r.required(node, "version", "the file", "give \"version\": 1").and_then(|v| match v {
        Node::Number(n) => match n.as_u64().and_then(|v| u32::try_from(v).ok()) {
            Some(v) => Some(v),
            None => {
                r.report(format!("version: unsupported version {} (only version 1 exists)", quote(&n.to_string())));
                None
            }
        },
        other => {
            r.report(format!("version: expected the number 1, found {}", other.kind()));
            None
        }
    });
    let deck = r
        .required(node, "deck", "the file", "give \"classic\", \"master\" or {\"categories\": [...]}")
        .and_then(|d| read_deck(r, d));
    let players = r
        .required(node, "players", "the file", "list the player ids in seat order")
        .and_then(|p| r.strings(p, "players", "player id"));
    let hand_sizes = match Reader::optional(node, "hand_sizes") {
        None => Some(None),
        Some(h) => read_hand_sizes(r, h).map(Some),
    };
    let face_up = match Reader::optional(node, "face_up") {
        None => Some(Vec::new()),
        Some(f) => r.strings(f, "face_up", "card id"),
    };
    let me = match Reader::optional(node, "me") {
        None => Some(None),
        Some(m) => r.string(m, "me", "the observer's player id").map(Some),
    };
    let hand = match Reader::optional(node, "hand") {
        None => Some(None),
        Some(h) => r.strings(h, "hand", "card id").map(Some),
    };
    let events = match Reader::optional(node, "events") {
        None => Some(Vec::new()),
        Some(Node::List(items)) if items.len() > MAX_EVENTS => {
            r.report(format!("events: {} events; at most {MAX_EVENTS} are supported", items.len()));
            None
        }
        Some(Node::List(items)) => {
            let events: Vec<Option<EventSpec>> = items.iter().enumerate().map(|(i, e)| read_event(r, e, i)).collect();
            events.into_iter().collect()
        }
        Some(other) => {
            r.report(format!("events: expected a list of events, found {}", other.kind()));
            None
        }
    };
    Some(GameFile {
        version: version?,
        deck: deck?,
        players: players?,
        hand_sizes: hand_sizes?,
        face_up: face_up?,
        me: me?,
        hand: hand?,
        events: events?,
    })
}

const DECK_SHAPE: &str =
    "\"classic\", \"master\" or {\"categories\": [{\"name\": ..., \"cards\": [ids, or {\"id\": ..., \"name\": ...}]}]}";

fn read_deck(r: &mut Reader, node: &Node) -> Option<DeckSpec> {
    match node {
        Node::String(s) => r.text(s, "deck").map(DeckSpec::Named),
        Node::Object(_) => {
            r.check_keys(node, DECK_KEYS, "the deck");
            let cats = r.required(node, "categories", "deck", &format!("a deck is {DECK_SHAPE}"))?;
            let Node::List(cats) = cats else {
                r.report(format!("deck: 'categories' must be a list of categories, found {}", cats.kind()));
                return None;
            };
            let read: Vec<Option<CategorySpec>> =
                cats.iter().enumerate().map(|(i, c)| read_category(r, c, i)).collect();
            Some(DeckSpec::Custom(CustomDeck { categories: read.into_iter().collect::<Option<_>>()? }))
        }
        other => {
            r.report(format!("deck: expected {DECK_SHAPE}, found {}", other.kind()));
            None
        }
    }
}

fn read_category(r: &mut Reader, node: &Node, i: usize) -> Option<CategorySpec> {
    let at = format!("deck: category {i}");
    if !matches!(node, Node::Object(_)) {
        r.report(format!(
            "{at}: expected an object such as {{\"name\": \"suspect\", \"cards\": [\"mu\", \"pl\"]}}, found {}",
            node.kind()
        ));
        return None;
    }
    r.check_keys(node, CATEGORY_KEYS, format_args!("category {i} of the deck"));
    let name = r.required(node, "name", &at, "give the category a name").and_then(|n| r.string(n, &at, "a name"));
    let at = match &name {
        Some(n) => format!("deck: category {i} ('{}')", quote(n)),
        None => at,
    };
    let cards = r.required(node, "cards", &at, "list the category's cards").and_then(|c| {
        let Node::List(items) = c else {
            r.report(format!("{at}: 'cards' must be a list of card ids, found {}", c.kind()));
            return None;
        };
        let read: Vec<Option<CardSpec>> = items.iter().enumerate().map(|(j, c)| read_card(r, c, &at, j)).collect();
        read.into_iter().collect::<Option<Vec<_>>>()
    });
    Some(CategorySpec { name: name?, cards: cards? })
}

fn read_card(r: &mut Reader, node: &Node, at: &str, j: usize) -> Option<CardSpec> {
    let at = format!("{at}: card {j}");
    match node {
        Node::String(s) => r.text(s, &at).map(CardSpec::Id),
        Node::Object(_) => {
            r.check_keys(node, CARD_KEYS, &at);
            let id = r.required(node, "id", &at, "give the card's id").and_then(|v| r.string(v, &at, "an id"));
            let name = r
                .required(node, "name", &at, "give the card's name, or write just the id")
                .and_then(|v| r.string(v, &at, "a name"));
            Some(CardSpec::Named { id: id?, name: name? })
        }
        other => {
            r.report(format!(
                "{at}: expected an id (a string) or {{\"id\": ..., \"name\": ...}}, found {}",
                other.kind()
            ));
            None
        }
    }
}

fn read_hand_sizes(r: &mut Reader, node: &Node) -> Option<BTreeMap<String, i64>> {
    let Node::Object(entries) = node else {
        r.report(format!("hand_sizes: expected an object such as {{\"a\": 9, \"b\": 9}}, found {}", node.kind()));
        return None;
    };
    let mut out = BTreeMap::new();
    let mut ok = true;
    for (id, value) in entries {
        let Some(id) = r.text(id, "hand_sizes") else {
            ok = false;
            continue;
        };
        match value {
            Node::Number(n) if n.as_i64().is_some() => {
                // Two spellings of one id are one id named twice.
                if out.insert(id.clone(), n.as_i64().unwrap_or_default()).is_some() {
                    r.report(format!("hand_sizes: player '{}' has two hand sizes", quote(&id)));
                    ok = false;
                }
            }
            other => {
                r.report(format!(
                    "hand_sizes: '{}': expected a whole number of cards, found {}",
                    quote(&id),
                    other.kind()
                ));
                ok = false;
            }
        }
    }
    ok.then_some(out)
}

const EVENT_SHAPE: &str = "{\"suggestion\": {...}} or {\"accusation\": {...}}";

/// Reads one event on its own (an event sent to the web API), as an event
/// of a file is read; `at` names it in messages.
pub(super) fn event(node: &Node, at: &str, every_key: bool) -> Result<EventSpec, String> {
    let mut r = Reader { problems: Vec::new(), more: 0, every_key };
    match read_event_at(&mut r, node, &at) {
        Some(event) if r.problems.is_empty() => Ok(event),
        _ => {
            let mut message = format!("not a valid event: {}", r.problems.join("; "));
            if r.more > 0 {
                message.push_str(&format!("; ... and {} more", r.more));
            }
            Err(message)
        }
    }
}

fn read_event(r: &mut Reader, node: &Node, i: usize) -> Option<EventSpec> {
    read_event_at(r, node, &format_args!("event {i}"))
}

fn read_event_at(r: &mut Reader, node: &Node, at: &dyn fmt::Display) -> Option<EventSpec> {
    let Node::Object(entries) = node else {
        r.report(format!("{at}: expected an object such as {EVENT_SHAPE}, found {}", node.kind()));
        return None;
    };
    match entries.as_slice() {
        [(kind, body)] if kind == "suggestion" => read_suggestion(r, body, at).map(EventSpec::Suggestion),
        [(kind, body)] if kind == "accusation" => read_accusation(r, body, at).map(EventSpec::Accusation),
        [(kind, _)] => {
            let hint = match EVENT_KEYS.iter().find(|k| looks_like(kind, k)) {
                Some(like) => format!(" (did you mean '{like}'?)"),
                None => String::new(),
            };
            r.report(format!("{at}: unknown event '{}'{hint}; expected {EVENT_SHAPE}", quote(kind)));
            None
        }
        [] => {
            r.report(format!("{at}: the event is empty; expected {EVENT_SHAPE}"));
            None
        }
        _ => {
            let keys: Vec<String> = entries.iter().take(4).map(|(k, _)| format!("'{}'", quote(k))).collect();
            r.report(format!(
                "{at}: an event is one 'suggestion' or one 'accusation', found the keys {}{}",
                keys.join(", "),
                if entries.len() > 4 { ", ..." } else { "" }
            ));
            None
        }
    }
}

fn read_suggestion(r: &mut Reader, node: &Node, at: &dyn fmt::Display) -> Option<SuggestionSpec> {
    if !matches!(node, Node::Object(_)) {
        r.report(format!(
            "{at}: expected a suggestion such as {{\"by\": \"a\", \"cards\": [...], \"refuted_by\": \"b\"}}, found {}",
            node.kind()
        ));
        return None;
    }
    r.check_keys(node, SUGGESTION_KEYS, at);
    let by = r
        .required(node, "by", at, "give the suggester's id")
        .and_then(|v| r.string(v, format_args!("{at}: 'by'"), "a player id"));
    let cards = r
        .required(node, "cards", at, "list one card of each category")
        .and_then(|v| r.strings(v, format_args!("{at}: 'cards'"), "card id"));
    let refuted_by = r.required(node, "refuted_by", at, "give the refuter's id, or null when nobody refuted").and_then(
        |v| match v {
            Node::Null => Some(None),
            v => r.string(v, format_args!("{at}: 'refuted_by'"), "a player id or null").map(Some),
        },
    );
    let shown = match Reader::optional(node, "shown") {
        None => Some(None),
        Some(v) => r.string(v, format_args!("{at}: 'shown'"), "a card id").map(Some),
    };
    Some(SuggestionSpec { by: by?, cards: cards?, refuted_by: refuted_by?, shown: shown? })
}

fn read_accusation(r: &mut Reader, node: &Node, at: &dyn fmt::Display) -> Option<AccusationSpec> {
    if !matches!(node, Node::Object(_)) {
        r.report(format!(
            "{at}: expected an accusation such as {{\"by\": \"a\", \"cards\": [...], \"correct\": false}}, found {}",
            node.kind()
        ));
        return None;
    }
    r.check_keys(node, ACCUSATION_KEYS, at);
    let by = r
        .required(node, "by", at, "give the accuser's id")
        .and_then(|v| r.string(v, format_args!("{at}: 'by'"), "a player id"));
    let cards = r
        .required(node, "cards", at, "list one card of each category")
        .and_then(|v| r.strings(v, format_args!("{at}: 'cards'"), "card id"));
    let correct = r.required(node, "correct", at, "true or false").and_then(|v| match v {
        Node::Bool(b) => Some(*b),
        other => {
            r.report(format!("{at}: 'correct': expected true or false, found {}", other.kind()));
            None
        }
    });
    Some(AccusationSpec { by: by?, cards: cards?, correct: correct? })
}
