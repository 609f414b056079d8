//! The JSON the API sends: a game's state, its analysis, explanations and
//! advice, built by hand from sleuth-core's types (which carry no serde).

use serde_json::{json, Value};
use sleuth_core::advice::{advise, advise_refutation, AdviceError, AdviceOptions, THREAT_BASIS};
use sleuth_core::analysis::ratio;
use sleuth_core::{why, Analysis, Card, CardSet, Game, Place, Player, Why};
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

/// The options of the page's advice: sleuth-core's defaults (five
/// suggestions from a shortlist of twelve, 32 sampled deals for the
/// opponents, a fixed seed so that the same game gets the same advice).
pub fn advice_options() -> AdviceOptions {
    AdviceOptions::default()
}

/// sleuth-core's advice for the observer of `game` at `version`: whether
/// to accuse now, the best suggestions, and every opponent's progress.
///
/// The shape: `source` (`"sleuth-core"`), `version`, `consistent`,
/// `models` (a string), `entropy` (bits), `accuse: {cards, probability,
/// deals, now, certain, reason, rule, threat, lookahead, threat_basis,
/// wait_value}` (`probability`: exact; `rule`: the part of the rule that
/// decided, in words; `threat`: the estimated chance that an opponent knows
/// the case file now, or with `lookahead` by the end of its next turn),
/// `suggest: [{cards, information, end_probability, likelihood}]` (best
/// first), `opponents: [{player, out, solved, threat, lookahead, entropy}]`,
/// `hint` (the behaviour hint, or null: `{habitual: [player], cards (or
/// null), factor (or null), tells: [{player, known, own, blind_chance}]}`,
/// never part of the accusation) and `millis`. An inconsistent history is
/// `consistent: false` with no advice.
///
/// # Errors
/// The advisor's message for a bystander's game or a failed count.
pub fn advice(game: &Game, version: u64) -> Result<Value, String> {
    let start = Instant::now();
    let a = match advise(game, &advice_options()) {
        Ok(a) => a,
        Err(AdviceError::Inconsistent) => {
            return Ok(json!({"source": "sleuth-core", "version": version, "consistent": false}));
        }
        Err(e) => return Err(e.to_string()),
    };
    let deck = game.deck();
    let ids = |cards: CardSet| cards.iter().map(|c| deck.id(c)).collect::<Vec<_>>();
    let acc = &a.accusation;
    let suggest: Vec<Value> = a
        .suggestions
        .iter()
        .map(|s| {
            json!({"cards": ids(s.cards), "information": s.information, "end_probability": s.end_probability,
                   "likelihood": s.likelihood})
        })
        .collect();
    let hint = a.hint.as_ref().map(|h| {
        json!({"habitual": h.habitual.iter().map(|&p| game.player_id(p)).collect::<Vec<_>>(),
               "cards": h.case_file.map(|(c, _)| ids(c)), "factor": h.case_file.map(|(_, f)| f),
               "tells": h.tells.iter().map(|t| json!({"player": game.player_id(t.player), "known": t.known,
                   "own": t.own, "blind_chance": t.blind_chance})).collect::<Vec<_>>()})
    });
    let opponents: Vec<Value> = a
        .opponents
        .iter()
        .map(|o| {
            json!({"player": game.player_id(o.player), "out": o.out, "solved": o.solved, "threat": o.threat,
                   "lookahead": o.lookahead, "entropy": o.entropy})
        })
        .collect();
    Ok(json!({
        "source": "sleuth-core",
        "version": version,
        "consistent": true,
        "models": a.models.to_string(),
        "entropy": a.entropy,
        "accuse": {"cards": ids(acc.cards), "probability": acc.probability, "deals": acc.deals.to_string(),
                   "now": acc.accuse, "certain": acc.certain, "reason": acc.reason.id(), "rule": acc.reason.words(),
                   "threat": acc.threat, "lookahead": a.opponents.iter().any(|o| o.lookahead),
                   "threat_basis": THREAT_BASIS, "wait_value": acc.wait_value},
        "hint": hint,
        "suggest": suggest,
        "opponents": opponents,
        "millis": start.elapsed().as_secs_f64() * 1000.0,
    }))
}

/// Which card to show `by`, who suggested `cards` and reached the
/// observer: sleuth-core's refutation advice (the card that tells `by`
/// least), as `{"show": {card | null, reason, options: [{card,
/// already_shown, revealed}]}}`. Holding none of the cards is a pass.
///
/// # Errors
/// `Err((true, message))` for a question that cannot be asked (the
/// observer asking itself, not one card per category); `Err((false,
/// message))` when the advisor fails (a bystander's game, an inconsistent
/// history, a failed count).
pub fn refutation(game: &Game, by: Player, cards: CardSet) -> Result<Value, (bool, String)> {
    let deck = game.deck();
    let Some((me, hand)) = game.observer() else {
        return Err((false, AdviceError::NoObserver.to_string()));
    };
    if by == me {
        return Err((true, "you do not answer your own suggestion".into()));
    }
    let one_per_category = deck.categories().all(|cat| (deck.category_cards(cat) & cards).len() == 1);
    if !one_per_category {
        return Err((true, "a suggestion names one card of each category".into()));
    }
    if (cards & hand).is_empty() {
        return Ok(json!({"show": {"card": null, "reason": "you hold none of these cards: pass", "options": []}}));
    }
    let r = advise_refutation(game, by, cards).map_err(|e| match e {
        AdviceError::Refutation(m) => (true, m),
        e => (false, e.to_string()),
    })?;
    let options: Vec<Value> = r
        .options
        .iter()
        .map(|o| json!({"card": deck.id(o.card), "already_shown": o.already_shown, "revealed": o.revealed}))
        .collect();
    let best = r.options.iter().find(|o| o.card == r.card);
    let who = game.player_id(by);
    let reason = match best {
        Some(o) if o.already_shown => format!("{who} has seen it already: it reveals nothing"),
        _ if r.options.len() == 1 => "your only card of these".to_string(),
        Some(o) => format!("it tells {who} least about the case file ({:.2} bits)", o.revealed),
        None => "it tells the suggester least".to_string(),
    };
    Ok(json!({"show": {"card": deck.id(r.card), "reason": reason, "options": options}}))
}
