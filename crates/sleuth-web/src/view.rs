//! The JSON the API sends: a game's state, its analysis, explanations and
//! advice, built by hand from sleuth-core's types (which carry no serde).

use serde_json::{json, Value};
use sleuth_core::analysis::ratio;
use sleuth_core::{why, Analysis, Card, CardSet, Event, Game, Place, Why};
use std::time::Instant;

/// How many possible case files the analysis lists at most.
pub const CASE_FILES_SHOWN: usize = 50;

/// The deck as categories of `{id, name}` cards.
pub fn deck(game: &Game) -> Value {
    let deck = game.deck();
    let cats: Vec<Value> = deck
        .categories()
        .map(|cat| {
            let cards: Vec<Value> =
                deck.category_cards(cat).iter().map(|c| json!({"id": deck.id(c), "name": deck.name(c)})).collect();
            json!({"name": deck.category_name(cat), "cards": cards})
        })
        .collect();
    Value::Array(cats)
}

/// The built-in decks, for the setup form.
pub fn decks() -> Value {
    let of = |name: &str| {
        let file = sleuth_core::GameFile {
            version: 1,
            deck: sleuth_core::format::DeckSpec::Named(name.into()),
            players: vec!["a".into(), "b".into(), "c".into()],
            hand_sizes: None,
            face_up: vec![],
            me: None,
            hand: None,
            events: vec![],
        };
        Game::new(&file).map(|g| deck(&g)).unwrap_or(Value::Null)
    };
    json!({"classic": of("classic"), "master": of("master")})
}

/// A game's state: the file, the resolved hand sizes, each event in words.
pub fn state(id: &str, version: u64, game: &Game, file: &sleuth_core::GameFile, undo: bool, redo: bool) -> Value {
    let events: Vec<Value> = (0..game.events().len())
        .map(|i| json!({"index": i, "text": game.describe_event(i).unwrap_or_default(), "event": file.events[i]}))
        .collect();
    let hand_sizes: Vec<usize> = game.players().map(|p| game.hand_size(p)).collect();
    json!({
        "id": id,
        "version": version,
        "file": file,
        "deck": deck(game),
        "hand_sizes": hand_sizes,
        "events": events,
        "can_undo": undo,
        "can_redo": redo,
    })
}

/// The analysis: counts, every cell's probability and status, the case
/// files, and the conflicting events when no deal fits.
///
/// # Errors
/// The count error's message when the count does not fit.
pub fn analysis(game: &Game, version: u64) -> Result<Value, String> {
    let start = Instant::now();
    let a = Analysis::new(game).map_err(|e| e.to_string())?;
    let millis = start.elapsed().as_secs_f64() * 1000.0;
    let deck = game.deck();
    let places: Vec<Place> = game.places().collect();
    let mut cells = serde_json::Map::new();
    for card in deck.cards() {
        let row: Vec<Value> = places
            .iter()
            .map(|&p| json!({"p": a.probability(card, p), "status": a.status(card, p).as_str()}))
            .collect();
        cells.insert(deck.id(card).to_string(), Value::Array(row));
    }
    let total = a.models();
    let all: Vec<(&[Card], u128)> = a.case_files().collect();
    let case_files: Vec<Value> = all
        .iter()
        .take(CASE_FILES_SHOWN)
        .map(|(cards, n)| {
            let ids: Vec<&str> = cards.iter().map(|&c| deck.id(c)).collect();
            json!({"cards": ids, "probability": ratio(*n, total)})
        })
        .collect();
    let conflict = a.conflict().map(|c| {
        let events: Vec<Value> =
            c.events.iter().map(|&i| json!({"index": i, "text": game.describe_event(i).unwrap_or_default()})).collect();
        json!({"events": events, "hand": c.hand, "minimum": c.minimum})
    });
    Ok(json!({
        "version": version,
        "consistent": a.is_consistent(),
        "conflict": conflict,
        "models": total.to_string(),
        "method": "exact",
        "places": places.iter().map(|&p| game.place_id(p)).collect::<Vec<_>>(),
        "cells": cells,
        "case_files": case_files,
        "case_files_count": if a.case_files_listed() { Some(all.len()) } else { None },
        "millis": millis,
    }))
}

/// Why `card` is (or is not) at `place`: the events that force it.
///
/// # Errors
/// The count error's message when the count does not fit.
pub fn explain(game: &Game, card: Card, place: Place) -> Result<Value, String> {
    let deck = game.deck();
    let head = json!({"card": deck.id(card), "place": game.place_id(place)});
    let body = match why(game, card, place).map_err(|e| e.to_string())? {
        Why::Certain { status, explanation } => {
            let events: Vec<Value> = explanation
                .events
                .iter()
                .map(|&i| json!({"index": i, "text": game.describe_event(i).unwrap_or_default()}))
                .collect();
            json!({"certain": true, "status": status.as_str(), "events": events, "hand": explanation.hand,
                   "minimum": explanation.minimum})
        }
        Why::Inconsistent => json!({"certain": false, "inconsistent": true}),
        _ => json!({"certain": false, "inconsistent": false}),
    };
    let mut out = head;
    if let (Some(o), Value::Object(b)) = (out.as_object_mut(), body) {
        o.extend(b);
    }
    Ok(out)
}

/// Minimal advice read off the analysis, until sleuth-core's advisor is
/// wired in: accuse the most likely case file (with its chance), suggest
/// the most likely case files, and, when `asked` names a suggestion put to
/// the observer, the card to show (one the suggester has seen already,
/// else one shown to the most players, so that little new is revealed).
///
/// The page reads this shape, so a real advisor plugs in here by filling
/// the same keys: `source` (`"minimal"` makes the page show `note` as a
/// label), `consistent`, `accuse: {cards, probability, now} | null`,
/// `suggest: [{cards, probability}]` (best first) and
/// `show: {card | null, reason} | null`.
pub fn advice(game: &Game, asked: Option<(sleuth_core::Player, CardSet)>) -> Result<Value, String> {
    let a = Analysis::new(game).map_err(|e| e.to_string())?;
    let deck = game.deck();
    let total = a.models();
    let ids = |cards: &[Card]| cards.iter().map(|&c| deck.id(c)).collect::<Vec<_>>();
    let ranked: Vec<(&[Card], u128)> = a.case_files().take(3).collect();
    let accuse = ranked.first().map(|(cards, n)| {
        let p = ratio(*n, total);
        json!({"cards": ids(cards), "probability": p, "now": *n == total})
    });
    let suggest: Vec<Value> =
        ranked.iter().map(|(cards, n)| json!({"cards": ids(cards), "probability": ratio(*n, total)})).collect();
    let show = match (asked, game.observer()) {
        (Some((by, cards)), Some((me, hand))) => {
            let mine = cards & hand;
            // For each of my cards, to whom I showed it.
            let mut seen_by: Vec<Vec<usize>> = vec![Vec::new(); deck.len()];
            for e in game.events() {
                if let Event::Suggestion(s) = e {
                    if let (Some(r), Some(c)) = (s.refuted_by, s.shown) {
                        if r == me && !seen_by[c.index()].contains(&s.by.index()) {
                            seen_by[c.index()].push(s.by.index());
                        }
                    }
                }
            }
            let best = mine.iter().max_by_key(|c| (seen_by[c.index()].contains(&by.index()), seen_by[c.index()].len()));
            Some(match best {
                None => json!({"card": null, "reason": "you hold none of these cards: pass"}),
                Some(c) if seen_by[c.index()].contains(&by.index()) => {
                    json!({"card": deck.id(c), "reason": format!("{} has seen it already", game.player_id(by))})
                }
                Some(c) if !seen_by[c.index()].is_empty() => {
                    json!({"card": deck.id(c), "reason": "already shown to other players"})
                }
                Some(c) => {
                    json!({"card": deck.id(c), "reason": if mine.len() == 1 { "your only card of these" } else { "no card of these was shown before" }})
                }
            })
        }
        _ => None,
    };
    Ok(json!({
        "source": "minimal",
        "note": "read off the analysis; the full advisor is not wired in yet",
        "consistent": a.is_consistent(),
        "accuse": accuse,
        "suggest": suggest,
        "show": show,
    }))
}
