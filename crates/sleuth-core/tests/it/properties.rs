//! Stated properties of the engine, each over many seeded random games:
//! small custom decks (with face-up cards, accusations, bystanders and
//! corrupted histories) and classic / master games.

use crate::support::{analyse, big_game, game_of, master_game, random_event, rng, small_game, true_deal};
use rand::seq::SliceRandom;
use rand::Rng;
use sleuth_core::count::count;
use sleuth_core::format::{CardSpec, DeckSpec, EventSpec, GameFile};
use sleuth_core::generate::Generated;
use sleuth_core::CountOptions;
use sleuth_core::{conflict, why, Analysis, Card, CountProblem, Explanation, Game, Place, Status, Why};
use std::collections::{BTreeMap, BTreeSet};

/// How many games of each kind a property runs over.
struct Sample {
    small: u64,
    classic: u64,
    master: u64,
}

/// The games of a property: `(label, generated)`.
fn games(test: &str, n: Sample) -> impl Iterator<Item = (String, Generated)> + '_ {
    let small = (0..n.small).map(move |i| (format!("{test} small {i}"), small_game(test, i)));
    let classic = (0..n.classic).map(move |i| (format!("{test} classic {i}"), big_game(test, i, false, 60, 0.1)));
    // Master games are uncorrupted (the conflict property adds corrupted
    // ones of its own) and big tables are seen by an observer.
    let master = (0..n.master).map(move |i| (format!("{test} master {i}"), master_game(test, i, 50)));
    small.chain(classic).chain(master)
}

fn label_of(label: &str, file: &GameFile) -> String {
    format!("{label}:\n{}", file.to_json())
}

/// `CountProblem::new` reads the hand and the events directly; it must give the
/// problem `CountProblem::from_knowledge` compiles from the at-least constraints
/// (same allowed places, clauses in the same order, duplicates dropped the
/// same way), also with random events: face-up cards shown, suggested and
/// accused, and events repeated.
#[test]
fn problem_read_from_the_events_is_the_compiled_one() {
    use sleuth_core::knowledge::Knowledge;
    for (label, generated) in games("problem", Sample { small: 2000, classic: 300, master: 100 }) {
        let mut game = game_of(&generated);
        let mut r = rng(&label, 1);
        for _ in 0..r.gen_range(0..6) {
            let event = if r.gen_bool(0.3) && !game.events().is_empty() {
                let at = r.gen_range(0..game.events().len());
                game.to_file().events[at].clone()
            } else {
                random_event(&game, &mut r)
            };
            game = game.with_event(event).unwrap();
        }
        let label = label_of(&label, &game.to_file());
        assert_eq!(CountProblem::new(&game), CountProblem::from_knowledge(&game, &Knowledge::new(&game)), "{label}");
    }
}

/// Each in-play card's counts over all places sum to the total; face-up
/// cards are nowhere; each hand and each case-file category is filled;
/// statuses, fractions and probabilities agree with the counts; the case
/// files sum to the total, most likely first, and agree with the marginals.
#[test]
fn counts_add_up() {
    let mut inconsistent = 0;
    for (label, generated) in games("sums", Sample { small: 3000, classic: 200, master: 30 }) {
        let game = game_of(&generated);
        let label = label_of(&label, &generated.file);
        let a = analyse(&game);
        let total = a.consistent_deals();
        let deck = game.deck();
        if total == 0 {
            inconsistent += 1;
        }
        for card in deck.cards() {
            let row: Vec<u128> = game.places().map(|p| a.count(card, p)).collect();
            let expected = if game.face_up().contains(card) { 0 } else { total };
            assert_eq!(row.iter().sum::<u128>(), expected, "{label}: row of {}", deck.id(card));
            for place in game.places() {
                let n = a.count(card, place);
                let status = a.status(card, place);
                let want = if n == 0 {
                    Status::No
                } else if n == total {
                    Status::Yes
                } else {
                    Status::Maybe
                };
                assert_eq!(status, want, "{label}: status of {} at {}", deck.id(card), game.place_id(place));
                assert_eq!(a.fraction(card, place), (n, total));
                if total > 0 {
                    let p = a.probability(card, place);
                    assert!((p - n as f64 / total as f64).abs() < 1e-12, "{label}: probability");
                }
            }
        }
        for player in game.players() {
            let col: u128 = deck.cards().map(|c| a.count(c, Place::Player(player))).sum();
            assert_eq!(col, game.hand_size(player) as u128 * total, "{label}: column of {}", game.player_id(player));
        }
        for cat in deck.categories() {
            let col: u128 = deck.category_cards(cat).iter().map(|c| a.count(c, Place::CaseFile)).sum();
            assert_eq!(col, total, "{label}: case file {}", deck.category_name(cat));
        }
        // Case files.
        let list: Vec<(Vec<Card>, u128)> = a.case_files().map(|(c, n)| (c.to_vec(), n)).collect();
        assert_eq!(list.iter().map(|(_, n)| n).sum::<u128>(), total, "{label}: case files sum");
        assert!(list.windows(2).all(|w| w[0].1 >= w[1].1), "{label}: case files most likely first");
        assert!(list.iter().all(|(_, n)| *n > 0), "{label}: only possible case files");
        let distinct: BTreeSet<&Vec<Card>> = list.iter().map(|(c, _)| c).collect();
        assert_eq!(distinct.len(), list.len(), "{label}: case files are distinct");
        let mut per_card = vec![0u128; deck.len()];
        for (cards, n) in &list {
            let cats: Vec<usize> = cards.iter().map(|&c| deck.category(c).index()).collect();
            assert_eq!(cats, (0..deck.num_categories()).collect::<Vec<_>>(), "{label}: one card per category");
            for c in cards {
                per_card[c.index()] += n;
            }
        }
        for card in deck.cards() {
            assert_eq!(
                per_card[card.index()],
                a.count(card, Place::CaseFile),
                "{label}: {} in case file",
                deck.id(card)
            );
        }
        assert!(a.counts().marginal.len() >= deck.len());
    }
    assert!(inconsistent > 50, "only {inconsistent} inconsistent games");
}

/// The true deal of an uncorrupted generated game fits, so it is counted,
/// and every certain fact holds in it.
#[test]
fn the_true_deal_is_consistent_with_every_certain_fact() {
    let mut checked = 0;
    for (label, mut generated) in games("truth", Sample { small: 2000, classic: 200, master: 30 }) {
        // The generator's corruption is decided up front; regenerate without it.
        if generated.file.events.is_empty() {
            continue;
        }
        let game = game_of(&generated);
        let deal = true_deal(&game, &generated);
        if !game.fits(&deal) {
            // A corrupted event; drop the events that no longer fit the deal.
            let keep: Vec<usize> =
                (0..game.events().len()).filter(|&i| game.restricted(&[i], true).fits(&deal)).collect();
            let file = game.restricted(&keep, true).to_file();
            generated.file = file;
        }
        let game = game_of(&generated);
        let label = label_of(&label, &generated.file);
        assert!(game.fits(&deal), "{label}: the true deal fits");
        let a = analyse(&game);
        assert!(a.consistent_deals() >= 1, "{label}: the true deal is counted");
        for card in game.deck().cards() {
            for place in game.places() {
                let here = deal[card.index()] == Some(place);
                match a.status(card, place) {
                    Status::Yes => {
                        assert!(here, "{label}: {} is not at {}", game.deck().id(card), game.place_id(place))
                    }
                    Status::No => assert!(!here, "{label}: {} is at {}", game.deck().id(card), game.place_id(place)),
                    Status::Maybe => {}
                }
            }
        }
        let case: Vec<Card> = game.deck().cards().filter(|c| deal[c.index()] == Some(Place::CaseFile)).collect();
        assert!(a.case_files().any(|(c, _)| c == case.as_slice()), "{label}: the true case file is listed");
        checked += 1;
    }
    assert!(checked > 1000);
}

/// Appending an event (any valid one, consistent or not) never raises the
/// count; neither does any longer prefix of the history, nor the
/// observer's private view compared with a bystander's.
#[test]
fn evidence_never_raises_the_count() {
    let count_of = |g: &Game| count(&CountProblem::new(g), &CountOptions::default()).expect("counts fit");
    for (label, generated) in games("monotone", Sample { small: 800, classic: 80, master: 10 }) {
        let game = game_of(&generated);
        let label = label_of(&label, &generated.file);
        let base = count_of(&game);
        let mut r = rng(&label, 0);
        for _ in 0..5 {
            let event = random_event(&game, &mut r);
            let more = game.with_event(event.clone()).unwrap_or_else(|e| panic!("{label}: {event:?} is valid: {e}"));
            assert!(count_of(&more) <= base, "{label}: adding {event:?} raised the count");
        }
        let mut prev = u128::MAX;
        for k in 0..=game.events().len() {
            let prefix: Vec<usize> = (0..k).collect();
            let n = count_of(&game.restricted(&prefix, true));
            assert!(n <= prev, "{label}: prefix of {k} events has more deals than the one before");
            prev = n;
        }
        assert_eq!(prev, base);
        if game.observer().is_some() {
            let mut file = generated.file.clone();
            file.me = None;
            file.hand = None;
            for e in &mut file.events {
                if let EventSpec::Suggestion(s) = e {
                    s.shown = None;
                }
            }
            let bystander = Game::new(&file).expect("a bystander's view is valid");
            assert!(count_of(&bystander) >= base, "{label}: the bystander knows less");
        }
    }
}

/// Maps ids of a game file: players by `player`, cards by `card`; the cards
/// of each custom category are reordered by `shuffle`.
fn map_file(
    file: &GameFile,
    player: &dyn Fn(&str) -> String,
    card: &dyn Fn(&str) -> String,
    shuffle: &mut dyn FnMut(&mut Vec<CardSpec>),
) -> GameFile {
    let cards = |ids: &[String]| ids.iter().map(|c| card(c)).collect::<Vec<_>>();
    let mut out = file.clone();
    if let DeckSpec::Custom(custom) = &mut out.deck {
        for cat in &mut custom.categories {
            for spec in &mut cat.cards {
                match spec {
                    CardSpec::Id(id) => *id = card(id),
                    CardSpec::Named { id, .. } => *id = card(id),
                }
            }
            shuffle(&mut cat.cards);
        }
    }
    out.players = file.players.iter().map(|p| player(p)).collect();
    out.hand_sizes = file.hand_sizes.as_ref().map(|h| h.iter().map(|(p, &n)| (player(p), n)).collect());
    out.face_up = cards(&file.face_up);
    out.me = file.me.as_deref().map(player);
    out.hand = file.hand.as_deref().map(cards);
    for e in &mut out.events {
        match e {
            EventSpec::Suggestion(s) => {
                s.by = player(&s.by);
                s.cards = cards(&s.cards);
                s.refuted_by = s.refuted_by.as_deref().map(player);
                s.shown = s.shown.as_deref().map(card);
            }
            EventSpec::Accusation(a) => {
                a.by = player(&a.by);
                a.cards = cards(&a.cards);
            }
        }
    }
    out
}

/// Asserts that two analyses are the same up to renaming: `card` and
/// `player` map ids of `a`'s game to ids of `b`'s.
fn assert_same_up_to_names(
    (ga, a): (&Game, &Analysis),
    (gb, b): (&Game, &Analysis),
    player: &dyn Fn(&str) -> String,
    card: &dyn Fn(&str) -> String,
    label: &str,
) {
    assert_eq!(a.consistent_deals(), b.consistent_deals(), "{label}: models");
    let place_b = |p: Place| match p {
        Place::CaseFile => Place::CaseFile,
        Place::Player(q) => gb.place(&player(ga.player_id(q))).expect("mapped place"),
    };
    let card_b = |c: Card| gb.deck().card(&card(ga.deck().id(c))).expect("mapped card");
    for c in ga.deck().cards() {
        for p in ga.places() {
            assert_eq!(
                a.count(c, p),
                b.count(card_b(c), place_b(p)),
                "{label}: {} at {}",
                ga.deck().id(c),
                ga.place_id(p)
            );
        }
    }
    let case_a: BTreeMap<BTreeSet<String>, u128> =
        a.case_files().map(|(cs, n)| (cs.iter().map(|&c| card(ga.deck().id(c))).collect(), n)).collect();
    let case_b: BTreeMap<BTreeSet<String>, u128> =
        b.case_files().map(|(cs, n)| (cs.iter().map(|&c| gb.deck().id(c).to_string()).collect(), n)).collect();
    assert_eq!(case_a, case_b, "{label}: case files");
    // Explanations depend only on counts of sub-histories, so they coincide.
    assert_eq!(a.conflict(), b.conflict(), "{label}: conflict");
}

/// Renaming players (same seats) changes nothing.
#[test]
fn relabelling_players_changes_nothing() {
    for (label, generated) in games("relabel", Sample { small: 600, classic: 80, master: 15 }) {
        let game = game_of(&generated);
        let label = label_of(&label, &generated.file);
        // A random injective renaming, including names of the other players.
        let mut r = rng(&label, 1);
        let mut names: Vec<String> = (0..game.num_players()).map(|i| format!("p{}", i + 1)).collect();
        names.shuffle(&mut r);
        names[0] = format!("{}-renamed", names[0]);
        let map: BTreeMap<String, String> = generated.file.players.iter().cloned().zip(names).collect();
        let player = |p: &str| map[p].clone();
        let same = |c: &str| c.to_string();
        let file = map_file(&generated.file, &player, &same, &mut |_| {});
        let other = Game::new(&file).unwrap_or_else(|e| panic!("{label}: renamed file is valid: {e}"));
        assert_same_up_to_names((&game, &analyse(&game)), (&other, &analyse(&other)), &player, &same, &label);
    }
}

/// Rotating the seat list keeps the clockwise order, so with explicit hand
/// sizes (the default deal depends on who is listed first) nothing changes.
#[test]
fn rotating_the_seat_list_changes_nothing() {
    for (label, generated) in games("rotate", Sample { small: 600, classic: 80, master: 15 }) {
        let game = game_of(&generated);
        let label = label_of(&label, &generated.file);
        let mut file = generated.file.clone();
        file.hand_sizes =
            Some(game.players().map(|p| (game.player_id(p).to_string(), game.hand_size(p) as i64)).collect());
        let k = rng(&label, 2).gen_range(1..game.num_players());
        file.players.rotate_left(k);
        let other = Game::new(&file).unwrap_or_else(|e| panic!("{label}: rotated file is valid: {e}"));
        let same = |c: &str| c.to_string();
        assert_same_up_to_names((&game, &analyse(&game)), (&other, &analyse(&other)), &same, &same, &label);
    }
}

/// Reordering the cards of each custom category and renaming them changes
/// nothing.
#[test]
fn permuting_and_renaming_cards_changes_nothing() {
    for (label, generated) in games("cards", Sample { small: 800, classic: 0, master: 0 }) {
        let game = game_of(&generated);
        let label = label_of(&label, &generated.file);
        let mut r = rng(&label, 3);
        let card = |c: &str| format!("{}'", c.chars().rev().collect::<String>());
        let same = |p: &str| p.to_string();
        let file = map_file(&generated.file, &same, &card, &mut |cards| cards.shuffle(&mut r));
        let other = Game::new(&file).unwrap_or_else(|e| panic!("{label}: permuted file is valid: {e}"));
        assert_same_up_to_names((&game, &analyse(&game)), (&other, &analyse(&other)), &same, &card, &label);
    }
}

/// The items of an explanation as a subset of `0..events (+ hand)`.
fn items(game: &Game, e: &Explanation) -> Vec<usize> {
    let n = game.events().len();
    e.events.iter().copied().chain(e.hand.then_some(n)).collect()
}

/// The game with only these items (events, and the hand as item `events`).
fn restrict(game: &Game, subset: &[usize]) -> Game {
    let n = game.events().len();
    let events: Vec<usize> = subset.iter().copied().filter(|&i| i < n).collect();
    game.restricted(&events, subset.contains(&n))
}

/// Checks that `holds` is true of `set`, false of every set with one item
/// fewer, and, when `smallest`, of every subset of `0..n` that comes before
/// it (if there are at most [`MAX_SMALLER_SETS`] to try); returns whether
/// it checked those. With `hand`, item `n - 1` is the hand, which does not
/// count: a set comes before another with fewer events, or as many without
/// the hand (issue 52, item 8).
fn check_minimal(
    n: usize,
    hand: bool,
    set: &[usize],
    smallest: bool,
    holds: &dyn Fn(&[usize]) -> bool,
    label: &str,
) -> bool {
    assert!(holds(set), "{label}: the set {set:?} does not do it");
    for i in 0..set.len() {
        let mut less = set.to_vec();
        less.remove(i);
        assert!(!holds(&less), "{label}: {set:?} is not minimal: {less:?} does it too");
    }
    let is_hand = |i: usize| hand && i == n - 1;
    let key = |s: &[usize]| (s.iter().filter(|&&i| !is_hand(i)).count(), s.iter().any(|&i| is_hand(i)));
    let (events, _) = key(set);
    // Every set before it has at most `events` items.
    let binomial = |k: usize| (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64);
    if !smallest || (0..=events).map(binomial).sum::<f64>() > MAX_SMALLER_SETS {
        return false;
    }
    for size in 0..=events {
        let mut sub: Vec<usize> = (0..size).collect();
        loop {
            if key(&sub) < key(set) {
                assert!(!holds(&sub), "{label}: {sub:?} comes before the 'smallest' {set:?}");
            }
            // The next combination of `size` items.
            let Some(j) = (0..size).rev().find(|&j| sub[j] < n - size + j) else { break };
            sub[j] += 1;
            for l in j + 1..size {
                sub[l] = sub[l - 1] + 1;
            }
        }
    }
    true
}

/// The most smaller sets [`check_minimal`] goes through to check that a
/// set said to be smallest is.
const MAX_SMALLER_SETS: f64 = 7_000.0;

/// `why` sets really force their fact (the sub-history plus the negated fact
/// has no deal) and are minimal (smallest when they say so).
#[test]
fn why_sets_force_their_fact_and_are_minimal() {
    let (mut explained, mut smallest_past_twelve) = (0, 0);
    for (label, generated) in games("why", Sample { small: 400, classic: 20, master: 4 }) {
        let game = game_of(&generated);
        let label = label_of(&label, &generated.file);
        let a = analyse(&game);
        if !a.is_consistent() {
            assert_eq!(
                why(&game, Card::new(0), Place::CaseFile, &CountOptions::default()).unwrap(),
                Why::Inconsistent,
                "{label}: nothing to explain"
            );
            continue;
        }
        let mut facts: Vec<(Card, Place)> = game
            .deck()
            .cards()
            .filter(|c| !game.face_up().contains(*c))
            .flat_map(|c| game.places().map(move |p| (c, p)))
            .filter(|&(c, p)| a.status(c, p) != Status::Maybe)
            .collect();
        let small = game.deck().len() <= 12;
        if !small {
            facts.shuffle(&mut rng(&label, 4));
            facts.truncate(4);
        }
        let n_items = game.events().len() + usize::from(game.has_hand());
        for (card, place) in facts {
            let what = format!("{label}\nwhy {} at {}", game.deck().id(card), game.place_id(place));
            let Why::Certain { status, explanation: e } = why(&game, card, place, &CountOptions::default()).unwrap()
            else {
                panic!("{what}: certain fact")
            };
            assert_eq!(status, a.status(card, place), "{what}: status");
            let forces = |set: &[usize]| {
                let mut p = CountProblem::new(&restrict(&game, set));
                p.add_fact(card, place, status == Status::No);
                count(&p, &CountOptions::default()).unwrap() == 0
            };
            let checked = check_minimal(n_items, game.has_hand(), &items(&game, &e), e.minimum, &forces, &what);
            smallest_past_twelve += usize::from(checked && n_items > 12);
            explained += 1;
        }
        // A fact that is not certain has no explanation.
        let open = game
            .deck()
            .cards()
            .flat_map(|c| game.places().map(move |p| (c, p)))
            .find(|&(c, p)| a.status(c, p) == Status::Maybe);
        if let Some((c, p)) = open {
            assert_eq!(
                why(&game, c, p, &CountOptions::default()).unwrap(),
                Why::NotCertain,
                "{label}: open facts have no explanation"
            );
        }
    }
    assert!(explained > 2000, "only {explained} facts explained");
    assert!(smallest_past_twelve > 50, "only {smallest_past_twelve} smallest sets of over 12 items checked");
}

/// Conflict sets really conflict (no deal fits them) and are minimal
/// (smallest when they say so); consistent games have none.
#[test]
fn conflict_sets_conflict_and_are_minimal() {
    let (mut conflicts, mut smallest_past_twelve) = (0, 0);
    // Also corrupted classic games of 13-25 events, where sets said to be
    // smallest are checked against every smaller set of events.
    let corrupted = (0..150)
        .map(|i| (format!("conflict corrupted {i}"), crate::support::big_game_corrupted("conflict corrupted", i, 25)));
    // And master games of 3-10 players, most of them corrupted.
    let master = (0..100).map(|i| (format!("conflict master {i}"), big_game("conflict master", i, true, 25, 0.9)));
    let corrupted = corrupted.chain(master);
    for (label, generated) in games("conflict", Sample { small: 2000, classic: 100, master: 0 }).chain(corrupted) {
        let game = game_of(&generated);
        let label = label_of(&label, &generated.file);
        let a = analyse(&game);
        let c = conflict(&game, &CountOptions::default()).unwrap();
        assert_eq!(c.as_ref(), a.conflict(), "{label}: the analysis reports the same conflict");
        let Some(e) = c else {
            assert!(a.is_consistent(), "{label}: an inconsistent game names a conflict");
            continue;
        };
        assert!(!a.is_consistent(), "{label}: a consistent game has no conflict");
        let n_items = game.events().len() + usize::from(game.has_hand());
        let conflicting =
            |set: &[usize]| count(&CountProblem::new(&restrict(&game, set)), &CountOptions::default()).unwrap() == 0;
        let checked = check_minimal(n_items, game.has_hand(), &items(&game, &e), e.minimum, &conflicting, &label);
        smallest_past_twelve += usize::from(checked && n_items > 12);
        conflicts += 1;
    }
    assert!(conflicts > 100, "only {conflicts} conflicts");
    assert!(smallest_past_twelve > 40, "only {smallest_past_twelve} smallest sets of over 12 items checked");
}

/// Issue 52's example: with the hand `mu kn ha lo di` and three of the
/// player's own suggestions nobody refuted, events 0, 2 and 3 conflict
/// without the hand, and 2 and 3 with it: the conflict is the two events
/// and the hand (the hand is no event); without the hand, events 0, 2 and 3.
#[test]
fn a_conflict_has_the_fewest_events_and_the_hand_does_not_count() {
    let game = Game::from_json(
        r#"{"version": 1, "deck": "classic", "players": ["sc", "mu", "wh", "gr"],
            "me": "sc", "hand": ["mu", "kn", "ha", "lo", "di"], "events": [
            {"suggestion": {"by": "sc", "cards": ["mu", "kn", "ha"], "refuted_by": null}},
            {"suggestion": {"by": "gr", "cards": ["pe", "re", "co"], "refuted_by": null}},
            {"suggestion": {"by": "sc", "cards": ["sc", "wr", "ba"], "refuted_by": null}},
            {"suggestion": {"by": "sc", "cards": ["gr", "re", "di"], "refuted_by": null}}]}"#,
    )
    .unwrap();
    let options = CountOptions::default();
    let found = conflict(&game, &options).unwrap().expect("inconsistent");
    assert_eq!(found, Explanation { events: vec![2, 3], hand: true, minimum: true });
    assert_eq!(analyse(&game).conflict(), Some(&found));
    // Both sets conflict: the hand is what makes the smaller one.
    let conflicting = |g: &Game| count(&CountProblem::new(g), &options).unwrap() == 0;
    assert!(conflicting(&game.restricted(&[0, 2, 3], false)));
    assert!(conflicting(&game.restricted(&[2, 3], true)));
    assert!(!conflicting(&game.restricted(&[2, 3], false)));
    // A sc who never recorded a hand (a bystander's view of the same
    // history) conflicts in events 0, 2 and 3.
    let bystander = game.restricted(&[0, 1, 2, 3], false);
    let found = conflict(&bystander, &options).unwrap().expect("inconsistent");
    assert_eq!((found.events.as_slice(), found.hand), (&[0, 2, 3][..], false));
}

/// Inconsistent master 10-player histories (bystander, 20 suggestions, one
/// event corrupted; `sleuth generate --corrupt`) where testing every smaller
/// combination ran out of its budget of 4,000 tests: the search with cuts
/// proves their conflicts smallest (checked here against every smaller set
/// of events where that is at most 7,000 sets), and the same sets where
/// the old search did prove it.
#[test]
fn conflicts_of_master_histories_are_proven_smallest() {
    use rand::SeedableRng;
    use sleuth_core::generate::{generate, DeckChoice, GenConfig};
    // Seed: the conflict's events (the same as before cuts on 9 and 18).
    let cases: [(u64, &[usize]); 5] = [
        (9, &[6, 11, 13]),
        (12, &[0, 4, 5, 6, 9, 12, 15, 19]),
        (14, &[2, 5, 6, 10, 11]),
        (18, &[1, 9, 11]),
        (19, &[1, 11, 15, 18]),
    ];
    for (seed, events) in cases {
        let cfg = GenConfig { corrupt: true, ..GenConfig::new(DeckChoice::Master, 10, false, 20) };
        let generated = generate(&cfg, &mut rand_chacha::ChaCha8Rng::seed_from_u64(seed));
        let game = game_of(&generated);
        let found = conflict(&game, &CountOptions::default()).unwrap().expect("inconsistent");
        let label = format!("master 10 bystander 20 --corrupt seed {seed}");
        assert_eq!((found.events.as_slice(), found.hand, found.minimum), (events, false, true), "{label}");
        let n_items = game.events().len();
        let conflicting =
            |set: &[usize]| count(&CountProblem::new(&restrict(&game, set)), &CountOptions::default()).unwrap() == 0;
        check_minimal(n_items, game.has_hand(), &items(&game, &found), found.minimum, &conflicting, &label);
    }
}

/// Files round-trip through JSON, and games through their files.
#[test]
fn game_files_round_trip() {
    for (label, generated) in games("json", Sample { small: 500, classic: 100, master: 40 }) {
        let label = label_of(&label, &generated.file);
        let text = generated.file.to_json();
        let back = GameFile::from_json(&text).unwrap_or_else(|e| panic!("{label}: reparse: {e}"));
        assert_eq!(back, generated.file, "{label}: file round trip");
        let game = Game::new(&generated.file).expect("valid");
        assert_eq!(Game::new(&back).expect("valid"), game, "{label}: game from the reparsed file");
        assert_eq!(Game::from_json(&text).expect("valid"), game, "{label}: Game::from_json");
        let again = Game::new(&game.to_file()).expect("a game's own file is valid");
        assert_eq!(again, game, "{label}: game round trip");
        // A game's own file (ids in deck order) is a fixed point.
        let own = game.to_file();
        assert_eq!(GameFile::from_json(&own.to_json()).expect("reparse"), own, "{label}: own file round trip");
        assert_eq!(again.to_file(), own, "{label}: printing is stable");
    }
}
