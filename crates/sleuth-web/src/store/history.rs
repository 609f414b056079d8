//! One game in memory: its turns with their ids, its undo history, and the
//! records that make it. Pure: nothing here touches the disk.

use super::StoreError;
use serde_json::{json, Map, Value};
use sleuth_core::format::EventSpec;
use sleuth_core::{Game, GameFile};
use std::collections::HashMap;
use std::sync::Arc;

/// Most events one game may hold (a long real game has about 150).
pub const MAX_EVENTS: usize = 2000;

/// The longest game name, in characters.
pub const MAX_NAME: usize = 80;

/// A turn's stable id, written `t7`: given by the store when the turn is
/// added, kept through edits, undo and redo, never given twice in a game.
/// Its form cannot be mistaken for a position (`7`), which it replaced in
/// the API's paths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TurnId(pub u64);

impl std::fmt::Display for TurnId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "t{}", self.0)
    }
}

impl TurnId {
    /// `t7` as a turn id; `None` for anything else (`7`, `t07`, `t0`).
    pub fn parse(s: &str) -> Option<TurnId> {
        let n: u64 = s.strip_prefix('t')?.parse().ok()?;
        (n > 0 && format!("t{n}") == s).then_some(TurnId(n))
    }
}

/// A change as a client asks for it.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// A new turn at `index` (`None`: at the end).
    Add {
        /// Where it goes, 0-based, among the turns the client saw.
        index: Option<usize>,
        /// The turn.
        event: EventSpec,
    },
    /// Turn `turn` replaced (it keeps its id).
    Edit {
        /// Which turn.
        turn: TurnId,
        /// Its new content.
        event: EventSpec,
    },
    /// Turn `turn` deleted.
    Delete {
        /// Which turn.
        turn: TurnId,
    },
    /// The last change to the turns undone.
    Undo,
    /// The last undone change redone.
    Redo,
    /// The game renamed (not a change to the turns: undo leaves names alone).
    Rename {
        /// The new name.
        name: String,
    },
}

impl Change {
    /// The request as one line, to tell a retry (the same request) from
    /// another request sent with the same idempotency key.
    pub(super) fn fingerprint(&self) -> String {
        let v = match self {
            Change::Add { index, event } => json!({"op": "add", "index": index, "event": event}),
            Change::Edit { turn, event } => json!({"op": "edit", "turn": turn.0, "event": event}),
            Change::Delete { turn } => json!({"op": "delete", "turn": turn.0}),
            Change::Undo => json!({"op": "undo"}),
            Change::Redo => json!({"op": "redo"}),
            Change::Rename { name } => json!({"op": "rename", "name": name}),
        };
        v.to_string()
    }
}

/// One stored step of a game's history: the game as created (`Base`, the
/// first), then each change with the turn ids it names resolved.
#[derive(Clone, Debug, PartialEq)]
pub enum Record {
    /// The game as created or imported, with its name.
    Base {
        /// The game file.
        file: Box<GameFile>,
        /// The name.
        name: String,
    },
    /// A turn added at `index` under the id `turn`.
    Add {
        /// Where.
        index: usize,
        /// Its new id.
        turn: TurnId,
        /// The turn.
        event: EventSpec,
    },
    /// Turn `turn` replaced.
    Edit {
        /// Which.
        turn: TurnId,
        /// Its new content.
        event: EventSpec,
    },
    /// Turn `turn` deleted.
    Delete {
        /// Which.
        turn: TurnId,
    },
    /// Undo.
    Undo,
    /// Redo.
    Redo,
    /// Rename.
    Rename {
        /// The new name.
        name: String,
    },
}

impl Record {
    /// The record as stored: one JSON object.
    pub fn to_json(&self) -> String {
        let v = match self {
            Record::Base { file, name } => {
                // The game file's own writer, so that reading it back is the file reader's job.
                let game: Value = serde_json::from_str(&file.to_json()).unwrap_or(Value::Null);
                json!({"op": "base", "name": name, "game": game})
            }
            Record::Add { index, turn, event } => json!({"op": "add", "index": index, "turn": turn.0, "event": event}),
            Record::Edit { turn, event } => json!({"op": "edit", "turn": turn.0, "event": event}),
            Record::Delete { turn } => json!({"op": "delete", "turn": turn.0}),
            Record::Undo => json!({"op": "undo"}),
            Record::Redo => json!({"op": "redo"}),
            Record::Rename { name } => json!({"op": "rename", "name": name}),
        };
        v.to_string()
    }

    /// Reads a stored record through the same strict readers as the API and
    /// the game file: an unknown or misspelt key anywhere is an error, never
    /// silently dropped.
    ///
    /// # Errors
    /// What is wrong, in words.
    pub fn from_json(text: &str) -> Result<Record, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
        let Value::Object(o) = v else { return Err("not a JSON object".into()) };
        let op = o.get("op").and_then(Value::as_str).ok_or("no \"op\"")?;
        let keys: &[&str] = match op {
            "base" => &["op", "name", "game"],
            "add" => &["op", "index", "turn", "event"],
            "edit" => &["op", "turn", "event"],
            "delete" => &["op", "turn"],
            "undo" | "redo" => &["op"],
            "rename" => &["op", "name"],
            other => return Err(format!("unknown change '{}'", other.escape_debug())),
        };
        if let Some(k) = o.keys().find(|k| !keys.contains(&k.as_str())) {
            return Err(format!("unknown key '{}' in a '{op}' change", k.escape_debug()));
        }
        let name = || o.get("name").and_then(Value::as_str).map(str::to_string).ok_or("no \"name\"");
        Ok(match op {
            "base" => {
                let game = o.get("game").ok_or("no \"game\"")?;
                let file = GameFile::from_json(&game.to_string()).map_err(|e| format!("the game: {e}"))?;
                Record::Base { file: Box::new(file), name: name()? }
            }
            "add" => Record::Add { index: number(&o, "index")?, turn: turn(&o)?, event: event(&o)? },
            "edit" => Record::Edit { turn: turn(&o)?, event: event(&o)? },
            "delete" => Record::Delete { turn: turn(&o)? },
            "undo" => Record::Undo,
            "redo" => Record::Redo,
            _ => Record::Rename { name: name()? },
        })
    }
}

fn number(o: &Map<String, Value>, key: &str) -> Result<usize, String> {
    o.get(key)
        .and_then(Value::as_u64)
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| format!("no number \"{key}\""))
}

fn turn(o: &Map<String, Value>) -> Result<TurnId, String> {
    let n = number(o, "turn")?;
    (n > 0).then_some(TurnId(n as u64)).ok_or_else(|| "turn ids start at 1".to_string())
}

fn event(o: &Map<String, Value>) -> Result<EventSpec, String> {
    let v = o.get("event").ok_or("no \"event\"")?;
    EventSpec::from_value(v, "the event", true).map_err(|e| e.to_string())
}

/// A game name as stored: trimmed, 1 to [`MAX_NAME`] characters, no
/// control characters.
///
/// # Errors
/// [`StoreError::Invalid`] saying what is wrong with it.
pub fn check_name(name: &str) -> Result<String, StoreError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(StoreError::Invalid("a game name cannot be empty".into()));
    }
    if name.chars().count() > MAX_NAME {
        return Err(StoreError::Invalid(format!("a game name has at most {MAX_NAME} characters")));
    }
    if name.chars().any(char::is_control) {
        return Err(StoreError::Invalid("a game name cannot hold control characters (tabs, line breaks)".into()));
    }
    Ok(name.to_string())
}

/// A game error as one line: its problems joined.
pub fn game_error(e: &sleuth_core::GameError) -> String {
    e.problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
}

/// The turns at one moment: ids and events side by side.
#[derive(Clone, Debug, PartialEq)]
struct Turns {
    ids: Vec<TurnId>,
    events: Vec<EventSpec>,
}

/// What a change stored under an idempotency key did.
#[derive(Clone, Debug, PartialEq)]
pub struct Done {
    /// The version the change made.
    pub version: u64,
    /// The turn it added, edited or deleted.
    pub turn: Option<TurnId>,
    /// The request, to tell a retry from another request with the same key.
    pub(super) request: String,
}

impl Done {
    /// Whether `change` is the request this was the answer to (a retry).
    pub fn answers(&self, change: &Change) -> bool {
        self.request == change.fingerprint()
    }
}

/// A change checked against the game, ready to be stored and applied.
pub struct Planned {
    /// The record to store.
    pub record: Record,
    turns: Turns,
    game: Option<Game>,
}

/// One game: its file and validated game, its turn ids, its undo history,
/// and the idempotency keys of the changes that made it.
pub struct Entry {
    pub(super) id: String,
    pub(super) name: String,
    /// Set when the game is deleted, for handlers still holding the entry.
    pub(super) deleted: bool,
    file: GameFile,
    ids: Vec<TurnId>,
    game: Game,
    undo: Vec<Turns>,
    redo: Vec<Turns>,
    next_turn: u64,
    pub(super) version: u64,
    /// Last change, in seconds since the Unix epoch.
    pub(super) updated: u64,
    pub(super) keys: HashMap<String, Done>,
    /// Why this game takes no change (its stored history is damaged).
    pub(super) damaged: Option<String>,
    /// The last analysis, for `version`.
    pub cache: Option<(u64, Arc<Value>)>,
    /// The last advice, for `version`.
    pub advice: Option<(u64, Arc<Value>)>,
    /// The advice being counted for `GET .../advice?progress`: the version
    /// and the advice so far, or why its count failed.
    pub advising: Option<(u64, Result<Value, String>)>,
}

impl Entry {
    /// A new game at version 0, its turns numbered t1, t2, ...
    ///
    /// # Errors
    /// [`StoreError::Invalid`] for a game that does not validate.
    pub fn new(id: &str, file: GameFile, name: String, updated: u64) -> Result<Entry, StoreError> {
        if file.events.len() > MAX_EVENTS {
            return Err(StoreError::Invalid(format!("a game holds at most {MAX_EVENTS} events")));
        }
        let game = Game::new(&file).map_err(|e| StoreError::Invalid(game_error(&e)))?;
        let ids: Vec<TurnId> = (1..=file.events.len() as u64).map(TurnId).collect();
        Ok(Entry {
            id: id.to_string(),
            name,
            deleted: false,
            next_turn: ids.len() as u64 + 1,
            ids,
            file,
            game,
            undo: Vec::new(),
            redo: Vec::new(),
            version: 0,
            updated,
            keys: HashMap::new(),
            damaged: None,
            cache: None,
            advice: None,
            advising: None,
        })
    }

    /// A game as stored with its turn ids, without its history (what is
    /// served when the history is damaged but the game itself is intact).
    pub(super) fn without_history(
        id: &str,
        file: GameFile,
        ids: Vec<TurnId>,
        name: String,
        version: u64,
        updated: u64,
    ) -> Result<Entry, String> {
        if ids.len() != file.events.len() || ids.iter().any(|t| t.0 == 0) {
            return Err("the turn ids do not match the turns".into());
        }
        let mut e = Entry::new(id, file, name, updated).map_err(|e| e.to_string())?;
        e.next_turn = ids.iter().map(|t| t.0).max().unwrap_or(0) + 1;
        e.ids = ids;
        e.version = version;
        Ok(e)
    }

    /// The game's id.
    pub fn id(&self) -> &str {
        &self.id
    }
    /// The game's name.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// Whether the game was deleted.
    pub fn deleted(&self) -> bool {
        self.deleted
    }
    /// The current game file.
    pub fn file(&self) -> &GameFile {
        &self.file
    }
    /// The current turns' ids, in the order of the turns.
    pub fn turn_ids(&self) -> &[TurnId] {
        &self.ids
    }
    /// The current validated game.
    pub fn game(&self) -> &Game {
        &self.game
    }
    /// The change counter.
    pub fn version(&self) -> u64 {
        self.version
    }
    /// Whether there is a change to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }
    /// Whether there is an undone change to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }
    /// Why the game takes no change, when its stored history is damaged.
    pub fn damaged(&self) -> Option<&str> {
        self.damaged.as_deref()
    }
    /// What the change stored under `key` did, if one was.
    pub fn keyed(&self, key: &str) -> Option<&Done> {
        self.keys.get(key)
    }

    /// The record a client's change makes: positions and new ids resolved.
    ///
    /// # Errors
    /// [`StoreError::Invalid`] for a bad name, [`StoreError::NotFound`] for
    /// a turn that is not in the game.
    pub fn resolve(&self, change: Change) -> Result<Record, StoreError> {
        Ok(match change {
            Change::Add { index, event } => {
                Record::Add { index: index.unwrap_or(self.ids.len()), turn: TurnId(self.next_turn), event }
            }
            Change::Edit { turn, event } => Record::Edit { turn: self.position(turn).map(|_| turn)?, event },
            Change::Delete { turn } => Record::Delete { turn: self.position(turn).map(|_| turn)? },
            Change::Undo => Record::Undo,
            Change::Redo => Record::Redo,
            Change::Rename { name } => Record::Rename { name: check_name(&name)? },
        })
    }

    fn position(&self, turn: TurnId) -> Result<usize, StoreError> {
        self.ids.iter().position(|t| *t == turn).ok_or_else(|| {
            StoreError::NotFound(format!(
                "no turn {turn} in this game (it was deleted, or never was); nothing was changed"
            ))
        })
    }

    /// Checks `record` against the game, changing nothing.
    ///
    /// # Errors
    /// [`StoreError::Invalid`], [`StoreError::NotFound`] or
    /// [`StoreError::Conflict`] when it does not fit the game.
    pub fn plan(&self, record: Record) -> Result<Planned, StoreError> {
        let mut turns = Turns { ids: self.ids.clone(), events: self.file.events.clone() };
        let len = turns.ids.len();
        match &record {
            Record::Base { .. } => return Err(StoreError::Invalid("a game has one base".into())),
            Record::Rename { name } => {
                check_name(name)?;
                return Ok(Planned { record, turns, game: None });
            }
            Record::Add { index, turn, event } => {
                if *index > len {
                    return Err(StoreError::Invalid(format!(
                        "cannot add a turn at position {index}: the game has {len} turns; nothing was changed"
                    )));
                }
                if len >= MAX_EVENTS {
                    return Err(StoreError::Invalid(format!("a game holds at most {MAX_EVENTS} events")));
                }
                if turn.0 < self.next_turn {
                    return Err(StoreError::Invalid(format!("turn id {turn} was given before")));
                }
                turns.ids.insert(*index, *turn);
                turns.events.insert(*index, event.clone());
            }
            Record::Edit { turn, event } => turns.events[self.position(*turn)?] = event.clone(),
            Record::Delete { turn } => {
                let i = self.position(*turn)?;
                turns.ids.remove(i);
                turns.events.remove(i);
            }
            Record::Undo => turns = self.undo.last().cloned().ok_or(StoreError::Conflict("nothing to undo".into()))?,
            Record::Redo => turns = self.redo.last().cloned().ok_or(StoreError::Conflict("nothing to redo".into()))?,
        }
        let game = match &record {
            // A turn added at the end validates only the new turn.
            Record::Add { index, event, .. } if *index == len => {
                let mut g = self.game.clone();
                g.push_event(event).map_err(|e| StoreError::Invalid(game_error(&e)))?;
                g
            }
            _ => {
                let file = GameFile { events: turns.events.clone(), ..self.file.clone() };
                Game::new(&file).map_err(|e| StoreError::Invalid(game_error(&e)))?
            }
        };
        Ok(Planned { record, turns, game: Some(game) })
    }

    /// Applies a planned change (stored first by the caller): the turns,
    /// the undo history, the version.
    pub fn apply(&mut self, planned: Planned, key: Option<(&str, &str)>, now: u64) -> Done {
        let Planned { record, turns, game } = planned;
        let turn = match &record {
            Record::Add { turn, .. } | Record::Edit { turn, .. } | Record::Delete { turn } => Some(*turn),
            _ => None,
        };
        if let Record::Rename { name } = record {
            self.name = name;
        } else if let Some(game) = game {
            let old = Turns {
                ids: std::mem::replace(&mut self.ids, turns.ids),
                events: std::mem::replace(&mut self.file.events, turns.events),
            };
            match record {
                Record::Undo => {
                    self.undo.pop();
                    self.redo.push(old);
                }
                Record::Redo => {
                    self.redo.pop();
                    self.undo.push(old);
                }
                _ => {
                    self.undo.push(old);
                    self.redo.clear();
                }
            }
            if let Some(t) = turn {
                self.next_turn = self.next_turn.max(t.0 + 1);
            }
            self.game = game;
        }
        self.version += 1;
        self.updated = now;
        let done = Done { version: self.version, turn, request: key.map_or_else(String::new, |(_, r)| r.to_string()) };
        if let Some((key, _)) = key {
            self.keys.insert(key.to_string(), done.clone());
        }
        done
    }

    /// The turns' ids as stored in the games table: `[1, 4, 2]`.
    pub(super) fn ids_json(&self) -> String {
        ids_json(&self.ids)
    }

    /// The turns' ids after `planned`, as stored.
    pub(super) fn ids_json_of(planned: &Planned) -> String {
        ids_json(&planned.turns.ids)
    }

    /// The name and the game file after `planned`.
    pub(super) fn after(&self, planned: &Planned) -> (String, GameFile) {
        let name = match &planned.record {
            Record::Rename { name } => name.clone(),
            _ => self.name.clone(),
        };
        (name, GameFile { events: planned.turns.events.clone(), ..self.file.clone() })
    }
}

fn ids_json(ids: &[TurnId]) -> String {
    serde_json::to_string(&ids.iter().map(|t| t.0).collect::<Vec<_>>()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GameFile {
        GameFile::from_json(
            r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c"], "me": "a",
                "hand": ["mu", "pl", "gr", "kn", "ca", "ha"], "events": []}"#,
        )
        .unwrap()
    }

    fn event(by: &str) -> EventSpec {
        EventSpec::from_value(
            &json!({"suggestion": {"by": by, "cards": ["pe", "re", "lo"], "refuted_by": null}}),
            "e",
            true,
        )
        .unwrap()
    }

    fn change(e: &mut Entry, c: Change) -> Result<(), StoreError> {
        let planned = e.plan(e.resolve(c)?)?;
        e.apply(planned, None, 0);
        Ok(())
    }

    #[test]
    fn turn_ids_are_stable_through_edits_deletes_undo_and_redo_and_never_given_twice() {
        let mut e = Entry::new("g", sample(), "G".into(), 0).unwrap();
        for by in ["a", "b", "c"] {
            change(&mut e, Change::Add { index: None, event: event(by) }).unwrap();
        }
        assert_eq!(e.turn_ids(), [TurnId(1), TurnId(2), TurnId(3)]);
        change(&mut e, Change::Add { index: Some(0), event: event("c") }).unwrap();
        assert_eq!(e.turn_ids(), [TurnId(4), TurnId(1), TurnId(2), TurnId(3)]);
        change(&mut e, Change::Edit { turn: TurnId(2), event: event("a") }).unwrap();
        assert_eq!(e.file().events[2], event("a"));
        change(&mut e, Change::Delete { turn: TurnId(1) }).unwrap();
        assert_eq!(e.turn_ids(), [TurnId(4), TurnId(2), TurnId(3)]);
        // Deleting it again names no other turn.
        let again = e.resolve(Change::Delete { turn: TurnId(1) });
        assert!(matches!(again, Err(StoreError::NotFound(_))), "{:?}", again.err());
        change(&mut e, Change::Undo).unwrap();
        assert_eq!(e.turn_ids(), [TurnId(4), TurnId(1), TurnId(2), TurnId(3)]);
        change(&mut e, Change::Undo).unwrap();
        change(&mut e, Change::Undo).unwrap();
        change(&mut e, Change::Redo).unwrap();
        change(&mut e, Change::Delete { turn: TurnId(4) }).unwrap();
        // A new turn after an undone add gets a new id, not the undone one's.
        change(&mut e, Change::Undo).unwrap();
        change(&mut e, Change::Undo).unwrap();
        change(&mut e, Change::Add { index: None, event: event("b") }).unwrap();
        assert_eq!(e.turn_ids(), [TurnId(1), TurnId(2), TurnId(3), TurnId(5)]);
        assert_eq!(e.version(), 14);
    }

    #[test]
    fn records_round_trip_and_their_reader_is_strict() {
        let records = [
            Record::Base { file: Box::new(sample()), name: "Friday".into() },
            Record::Add { index: 0, turn: TurnId(3), event: event("b") },
            Record::Edit { turn: TurnId(3), event: event("c") },
            Record::Delete { turn: TurnId(3) },
            Record::Undo,
            Record::Redo,
            Record::Rename { name: "x".into() },
        ];
        for r in &records {
            assert_eq!(&Record::from_json(&r.to_json()).unwrap(), r);
        }
        let bad = [
            (r#"{"op":"delete","turn":0}"#, "start at 1"),
            (r#"{"op":"undo","steps":2}"#, "unknown key 'steps'"),
            (r#"{"op":"drop"}"#, "unknown change"),
            (
                r#"{"op":"edit","turn":1,"event":{"suggestion":{"by":"a","cards":["pe","re","lo"],"refuted_by":"b","shwon":"pe"}}}"#,
                "did you mean 'shown'",
            ),
            ("{\"op\":\"undo\"", "not valid JSON"),
        ];
        for (text, message) in bad {
            let e = Record::from_json(text).unwrap_err();
            assert!(e.contains(message), "{text}: {e}");
        }
        assert_eq!(TurnId::parse("t12"), Some(TurnId(12)));
        for s in ["12", "t012", "t0", "t", "t-1", "T3"] {
            assert_eq!(TurnId::parse(s), None, "{s}");
        }
    }
}
