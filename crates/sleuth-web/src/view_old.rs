//! The web API's hand-built JSON shapes, against the wire types that
//! replace them: on the games of testdata and generated games, every value
//! of an old shape is in the new one (renamed where the page's keys became
//! the command line's), floats compared exactly.
#![allow(dead_code)]

use serde_json::{json, Value};
use sleuth_core::advice::{advise, advise_refutation, AdviceError, AdviceOptions, THREAT_BASIS};
use sleuth_core::analysis::ratio;
use sleuth_core::{why, Analysis, Card, CardSet, Game, Place, Player, Why};
use std::time::Instant;

use crate::view::CASE_FILES_SHOWN;

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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use sleuth_core::generate::{try_generate, DeckChoice, GenConfig};

    fn games() -> Vec<(String, Game)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
        let mut out = Vec::new();
        for dir in [root.clone(), root.join("corpus")] {
            let mut paths: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
            paths.sort();
            for path in paths.into_iter().filter(|p| p.extension().is_some_and(|e| e == "json")) {
                let text = std::fs::read_to_string(&path).unwrap();
                out.push((path.display().to_string(), Game::from_json(&text).unwrap()));
            }
        }
        let decks = [(DeckChoice::Classic, 4), (DeckChoice::Master, 6), (DeckChoice::Custom(vec![3, 3, 4]), 3)];
        for (d, (deck, players)) in decks.into_iter().enumerate() {
            for seed in 0..10u64 {
                let cfg = GenConfig {
                    face_up: (seed % 2) as usize,
                    corrupt: seed % 3 == 2,
                    ..GenConfig::new(deck.clone(), players, seed % 4 != 3, (seed * 4 % 24) as usize)
                };
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5_100 + 100 * d as u64 + seed);
                let Ok(generated) = try_generate(&cfg, &mut rng) else { continue };
                out.push((format!("{deck:?} seed {seed}"), Game::new(&generated.file).unwrap()));
            }
        }
        out
    }

    #[test]
    fn the_wire_shapes_carry_every_old_value() {
        let (mut whys, mut advices, mut refutations) = (0, 0, 0);
        for (name, game) in games() {
            let old = analysis(&game, 7).unwrap();
            let new = crate::view::analysis(&game, 7).unwrap();
            for key in ["version", "consistent", "models", "method", "places"] {
                assert_eq!(old[key], new[key], "{name}: {key}");
            }
            let places: Vec<&str> = new["places"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
            for (card, row) in old["cells"].as_object().unwrap() {
                for (i, cell) in row.as_array().unwrap().iter().enumerate() {
                    assert_eq!(cell["p"], new["probabilities"][card][places[i]], "{name}: {card}");
                    assert_eq!(cell["status"], new["status"][card][places[i]], "{name}: {card}");
                }
            }
            assert_eq!(old["cells"].as_object().unwrap().len(), new["status"].as_object().unwrap().len());
            let files = new["case_file"].as_array().unwrap();
            assert_eq!(old["case_files"].as_array().unwrap().len(), files.len(), "{name}");
            for (o, n) in old["case_files"].as_array().unwrap().iter().zip(files) {
                assert_eq!((&o["cards"], &o["probability"]), (&n["cards"], &n["probability"]), "{name}");
            }
            assert_eq!(old["case_files_count"], new["case_file_count"], "{name}");
            if old["conflict"].is_null() {
                assert!(new.get("conflict").is_none(), "{name}");
            } else {
                let events: Vec<Value> =
                    old["conflict"]["events"].as_array().unwrap().iter().map(|e| e["index"].clone()).collect();
                assert_eq!(Value::Array(events), new["conflict"], "{name}");
                assert_eq!(old["conflict"]["hand"], new["conflict_hand"], "{name}");
                assert_eq!(old["conflict"]["minimum"], new["conflict_minimum"], "{name}");
            }

            // Why, for a few cells of each status.
            let a = Analysis::new(&game).unwrap();
            for (k, card) in game.deck().cards().enumerate().filter(|(k, _)| k % 7 == 0) {
                let place = game.places().nth(k % game.num_places()).unwrap();
                let old = explain(&game, card, place).unwrap();
                let new = crate::view::explain(&game, card, place).unwrap();
                assert_eq!((&old["card"], &old["place"]), (&new["card"], &new["place"]), "{name}");
                assert_eq!(old["certain"], Value::Bool(!new["reason"].is_null()), "{name}");
                assert_eq!(old.get("inconsistent").is_some_and(|i| i == true), new["consistent"] == false, "{name}");
                if old["certain"] == true {
                    assert_eq!(old["status"], new["status"], "{name}");
                    let events: Vec<Value> =
                        old["events"].as_array().unwrap().iter().map(|e| e["index"].clone()).collect();
                    assert_eq!(Value::Array(events), new["reason"]["events"], "{name}");
                    assert_eq!((&old["hand"], &old["minimum"]), (&new["reason"]["hand"], &new["reason"]["minimum"]));
                }
                assert_eq!(new["count"], Value::String(a.count(card, place).to_string()));
                whys += 1;
            }

            let Some((me, hand)) = game.observer() else { continue };
            let old = advice(&game, 3).unwrap();
            let new = crate::view::advice(&game, 3).unwrap();
            assert_eq!((&old["version"], &old["consistent"]), (&new["version"], &new["consistent"]), "{name}");
            if old["consistent"] == true {
                assert_eq!((&old["models"], &old["entropy"]), (&new["models"], &new["entropy"]), "{name}");
                let (o, n) = (&old["accuse"], &new["accusation"]);
                for (ok, nk) in [
                    ("cards", "cards"),
                    ("probability", "probability"),
                    ("deals", "models"),
                    ("now", "accuse"),
                    ("certain", "certain"),
                    ("reason", "reason"),
                    ("rule", "rule"),
                    ("threat", "threat"),
                    ("threat_basis", "threat_basis"),
                    ("wait_value", "wait_value"),
                ] {
                    assert_eq!(o[ok], n[nk], "{name}: accuse.{ok}");
                }
                let lookahead = new["opponents"].as_array().unwrap().iter().any(|o| o["lookahead"] == true);
                assert_eq!(o["lookahead"], Value::Bool(lookahead), "{name}");
                let (os, ns) = (old["suggest"].as_array().unwrap(), new["suggestions"].as_array().unwrap());
                assert_eq!(os.len(), ns.len(), "{name}");
                for (o, n) in os.iter().zip(ns) {
                    for key in ["cards", "information", "end_probability"] {
                        assert_eq!(o[key], n[key], "{name}: suggest.{key}");
                    }
                }
                let (oo, no) = (old["opponents"].as_array().unwrap(), new["opponents"].as_array().unwrap());
                assert_eq!(oo.len(), no.len(), "{name}");
                for (o, n) in oo.iter().zip(no) {
                    for key in ["player", "out", "solved", "threat", "lookahead", "entropy"] {
                        assert_eq!(o[key], n[key], "{name}: opponents.{key}");
                    }
                }
                let (oh, nh) = (&old["hint"], &new["behaviour_hint"]);
                assert_eq!(oh.is_null(), nh.is_null(), "{name}");
                if !oh.is_null() {
                    for key in ["habitual", "cards", "factor"] {
                        assert_eq!(oh[key], nh[key], "{name}: hint.{key}");
                    }
                    for (o, n) in oh["tells"].as_array().unwrap().iter().zip(nh["tells"].as_array().unwrap()) {
                        for key in ["player", "known", "own", "blind_chance"] {
                            assert_eq!(o[key], n[key], "{name}: hint.tells.{key}");
                        }
                    }
                }
                advices += 1;
            }

            // Which card to show: one of mine (or none: a pass).
            let deck = game.deck();
            let n = game.num_players();
            let by = Player::new((me.index() + 1) % n);
            for pass in [false, true] {
                let cards: CardSet = deck
                    .categories()
                    .map(|k| {
                        let cat = deck.category_cards(k);
                        let mine = cat & hand;
                        let pick = if pass {
                            cat - hand
                        } else if mine.is_empty() {
                            cat
                        } else {
                            mine
                        };
                        pick.iter().next().unwrap_or_else(|| cat.iter().next().unwrap())
                    })
                    .collect();
                let (Ok(old), Ok(new)) = (refutation(&game, by, cards), crate::view::refutation(&game, by, cards))
                else {
                    assert_eq!(
                        refutation(&game, by, cards).is_err(),
                        crate::view::refutation(&game, by, cards).is_err()
                    );
                    continue;
                };
                let o = &old["show"];
                assert_eq!((&o["card"], &o["reason"]), (&new["show"], &new["reason"]), "{name}");
                let (oo, no) = (o["options"].as_array().unwrap(), new["options"].as_array().unwrap());
                assert_eq!(oo.len(), no.len(), "{name}");
                for (o, n) in oo.iter().zip(no) {
                    for key in ["card", "already_shown", "revealed"] {
                        assert_eq!(o[key], n[key], "{name}: show.options.{key}");
                    }
                }
                refutations += 1;
            }
        }
        eprintln!("{whys} whys, {advices} advices, {refutations} refutations");
        assert!(whys > 100 && advices > 15 && refutations > 30, "too few compared");
    }
}
