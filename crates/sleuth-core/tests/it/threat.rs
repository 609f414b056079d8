//! The opponents' threat (`Position::opponents_by_knowledge`) within a
//! budget: its interval against the exact threat by brute force, the
//! budget's prefix property, and determinism.

use crate::support::{big_game, game_of, master_game, rng};
use rand::Rng;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sleuth_core::advice::{advise, AdviceOptions, OpponentProgress, Position, ThreatBudget, EXACT_DEALS};
use sleuth_core::brute::{enumerate, enumerate_where};
use sleuth_core::format::EventSpec;
use sleuth_core::generate::{generate, DeckChoice, GenConfig};
use sleuth_core::{Card, CardSet, Event, Game, Place, Player};
use std::cell::RefCell;
use std::collections::HashMap;

/// A small observer's game (three categories of three cards, three
/// players) where every deal can be enumerated.
fn small(i: u64) -> Game {
    game_of(&small_generated(i))
}

/// [`small`] as generated, its file at hand.
fn small_generated(i: u64) -> sleuth_core::generate::Generated {
    let mut r = rng("threat-small", i);
    let cfg = GenConfig {
        deck: DeckChoice::Custom(vec![3, 3, 3]),
        players: 3,
        observer: true,
        suggestions: r.gen_range(2..=7),
        face_up: 0,
        accusation_rate: 0.0,
        explicit_hand_sizes: false,
        corrupt: false,
    };
    generate(&cfg, &mut r)
}

/// The exact chance that `player` is certain of the case file now, over
/// the observer's consistent deals (each enumerated and checked by the
/// rules) and, in each, every way the cards shown to `player` that the
/// observer did not see can have fallen (a refuter holding several of the
/// suggested cards shows each with equal chance); each rebuilt view is
/// itself enumerated.
fn exact_knows_now(game: &Game, player: Player) -> f64 {
    exact_progress(game, player).0
}

/// [`exact_knows_now`] and, over the same views, the mean case-file
/// entropy (each category's, summed: `-Σ p log2 p` over the cards, `p`
/// the share of the view's deals with the card in the case file).
fn exact_progress(game: &Game, player: Player) -> (f64, f64) {
    let (me, _) = game.observer().expect("an observer's game");
    let deals = RefCell::new(Vec::new());
    enumerate_where(game, &|place: &[Option<Place>]| {
        deals.borrow_mut().push(place.to_vec());
        true
    });
    let deals = deals.into_inner();
    // Per view (its hand and the cards it saw shown): certain, and its entropy.
    type View = (CardSet, Vec<Option<Card>>);
    let mut views: HashMap<View, (bool, f64)> = HashMap::new();
    let (mut sum, mut entropy) = (0.0, 0.0);
    for deal in &deals {
        let hand = |p: Player| -> CardSet {
            game.deck().cards().filter(|c| deal[c.index()] == Some(Place::Player(p))).collect()
        };
        // Every combination of the shown cards, with its chance.
        let mut ways: Vec<(Vec<Option<Card>>, f64)> = vec![(Vec::new(), 1.0)];
        for e in game.events() {
            let choices: Vec<Option<Card>> = match e {
                Event::Suggestion(s) if s.by == player => match (s.refuted_by, s.shown) {
                    (Some(r), Some(c)) if r == me => vec![Some(c)],
                    (Some(r), _) => (s.cards & hand(r)).iter().map(Some).collect(),
                    (None, _) => vec![None],
                },
                _ => vec![None],
            };
            let k = choices.len() as f64;
            ways = ways
                .into_iter()
                .flat_map(|(w, p)| {
                    choices.iter().map(move |&c| {
                        let mut w = w.clone();
                        w.push(c);
                        (w, p / k)
                    })
                })
                .collect();
        }
        for (shown, p) in ways {
            let key = (hand(player), shown);
            let (known, h) = *views.entry(key.clone()).or_insert_with(|| {
                let view = enumerate(&game.seen_by(player, key.0, |i| key.1[i]));
                let cf = Place::CaseFile.index(game.num_players());
                let h: f64 = view
                    .marginal
                    .iter()
                    .map(|m| m[cf] as f64 / view.total as f64)
                    .filter(|&q| q > 0.0)
                    .map(|q| -q * q.log2())
                    .sum();
                (view.case_files.len() == 1, h)
            });
            if known {
                sum += p;
            }
            entropy += p * h;
        }
    }
    (sum / deals.len() as f64, entropy / deals.len() as f64)
}

/// Where the observer's deals are few, every opponent's progress is exact:
/// knowing the case file now and the mean entropy equal the brute-force
/// means over every deal and every way the unseen shown cards fell, the
/// interval is the point, and the deals are all of them. Too few
/// `exact_views` for the views falls back to the sample, and so do 0 and
/// too few states for their counts.
#[test]
fn few_deals_give_every_opponent_exact_progress() {
    let (mut exact, mut fell_back) = (0, 0);
    for i in 0..150 {
        let game = small(i);
        let pos = Position::new(&game).expect("a consistent game");
        let run_with = |exact_views, lookahead| {
            let budget = ThreatBudget { exact_views, ..ThreatBudget::samples(16) };
            pos.opponents_by_knowledge(budget, lookahead, &mut ChaCha8Rng::seed_from_u64(i)).expect("counted")
        };
        let run = |exact_views| run_with(exact_views, 0);
        assert!(pos.counts().total <= EXACT_DEALS, "game {i}: small games list their deals");
        // Looking ahead changes the threat only: knowing it now and the entropy stay exact.
        for (o, now) in run_with(100_000, 2).iter().zip(run(100_000)) {
            assert!(o.exact && o.lookahead, "game {i}");
            assert_eq!((o.solved, o.entropy, o.samples), (now.solved, now.entropy, now.samples), "game {i}");
            assert!(
                o.solved <= o.threat && o.threat <= 1.0 && o.threat_interval == (o.threat, o.threat),
                "game {i}: {o:?}"
            );
        }
        for o in run(100_000) {
            assert!(o.exact, "game {i}");
            let (knows, entropy) = exact_progress(&game, o.player);
            assert!((o.solved - knows).abs() < 1e-12, "game {i}: knows now {} exactly {knows}", o.solved);
            assert!((o.entropy - entropy).abs() < 1e-9, "game {i}: entropy {} exactly {entropy}", o.entropy);
            assert_eq!((o.threat, o.threat_interval), (o.solved, (o.solved, o.solved)), "game {i}");
            assert_eq!(o.samples as u128, pos.counts().total, "game {i}");
            exact += 1;
        }
        let sampled = run(0);
        assert!(sampled.iter().all(|o| !o.exact && o.samples == 16), "game {i}");
        let one = run(1);
        if one.iter().any(|o| !o.exact) {
            assert_eq!(one, sampled, "game {i}: a budget too small for the views samples");
            fell_back += 1;
        }
        // So do too few states for the views' counts (giving up at once).
        let few_states = |exact_views| {
            let budget = ThreatBudget { exact_views, states: 1, ..ThreatBudget::samples(16) };
            pos.opponents_by_knowledge(budget, 2, &mut ChaCha8Rng::seed_from_u64(i)).expect("counted")
        };
        assert_eq!(few_states(100_000), few_states(0), "game {i}: too few states for the views samples");
    }
    assert!(exact >= 200 && fell_back >= 50, "{exact} exact opponents, {fell_back} fallbacks");
}

/// The observer may leave out which card it showed: the opponent still saw
/// one of the observer's suggested cards, each equally likely, in the exact
/// progress as in the brute-force means.
#[test]
fn an_unrecorded_card_the_observer_showed_is_any_of_its_cards() {
    let mut checked = 0;
    for i in 0..150 {
        let mut generated = small_generated(i);
        let me = generated.file.me.clone();
        let mut dropped = false;
        for e in &mut generated.file.events {
            if let EventSpec::Suggestion(s) = e {
                if s.refuted_by.is_some() && s.refuted_by == me && s.shown.take().is_some() {
                    dropped = true;
                }
            }
        }
        if !dropped {
            continue;
        }
        let game = game_of(&generated);
        let pos = Position::new(&game).expect("a consistent game");
        let budget = ThreatBudget { exact_views: 100_000, ..ThreatBudget::samples(16) };
        for o in pos.opponents_by_knowledge(budget, 0, &mut ChaCha8Rng::seed_from_u64(i)).expect("counted") {
            let (knows, entropy) = exact_progress(&game, o.player);
            assert!(o.exact, "game {i}");
            assert!((o.solved - knows).abs() < 1e-12, "game {i}: knows now {} exactly {knows}", o.solved);
            assert!((o.entropy - entropy).abs() < 1e-9, "game {i}: entropy {} exactly {entropy}", o.entropy);
            checked += 1;
        }
    }
    assert!(checked >= 50, "{checked} opponents checked");
}

/// The 95 % intervals of the threat (knowing the case file now, from 16
/// deals) hold the exact threat in at least 90 % of the opponents whose
/// threat is neither 0 nor 1 (those two are trivially held: every view
/// agrees), over 200 small games.
#[test]
fn the_threat_interval_holds_the_exact_threat() {
    let (mut held, mut open, mut trivial) = (0, 0, 0);
    for i in 0..200 {
        let game = small(i);
        let pos = Position::new(&game).expect("a consistent game");
        let mut r = ChaCha8Rng::seed_from_u64(i);
        let opponents = pos.opponents_by_knowledge(ThreatBudget::samples(16), 0, &mut r).expect("counted");
        for o in &opponents {
            assert_eq!(o.samples, 16, "game {i}");
            assert_eq!(o.threat, o.solved, "game {i}: without a look-ahead the threat is knowing it now");
            let exact = exact_knows_now(&game, o.player);
            let (lo, hi) = o.threat_interval;
            if exact == 0.0 || exact == 1.0 {
                assert_eq!(o.threat, exact, "game {i}: every view agrees");
                trivial += 1;
            } else {
                open += 1;
                held += usize::from(lo <= exact && exact <= hi);
            }
        }
    }
    // Enough opponents with a threat strictly between 0 and 1 for the check to mean something.
    assert!(open >= 50, "{open} open, {trivial} trivial");
    assert!(held * 10 >= open * 9, "the interval held the exact threat for {held} of {open} opponents");
}

/// A small budget stops the sampling early, and what each opponent got is
/// exactly what the same seed gives with its own numbers of deals (for the
/// threat and for the entropy) and no state budget; a large budget changes
/// nothing.
#[test]
fn a_budget_keeps_a_prefix_of_the_unbudgeted_sample() {
    let (mut cut, mut states) = (0, 0);
    for i in 0..40 {
        let game = game_of(&master_game("threat-budget", i, 12));
        let Ok(pos) = Position::new(&game) else { continue }; // an unlucky accusation
        let lookahead = if i % 4 == 0 { 2 } else { 0 };
        let run = |budget: ThreatBudget| -> Vec<OpponentProgress> {
            pos.opponents_by_knowledge(budget, lookahead, &mut ChaCha8Rng::seed_from_u64(i)).expect("counted")
        };
        let full = run(ThreatBudget { entropy_samples: 4, ..ThreatBudget::samples(12) });
        assert_eq!(
            run(ThreatBudget { samples: 12, entropy_samples: 4, states: 1 << 50, exact_views: 0 }),
            full,
            "game {i}"
        );
        let small = run(ThreatBudget { samples: 12, entropy_samples: 4, states: 20_000, exact_views: 0 });
        for (o, f) in small.iter().zip(&full) {
            assert!(o.samples >= 1 && o.samples <= 12, "game {i}");
            assert!(o.entropy_samples >= 1 && o.entropy_samples <= o.samples, "game {i}");
            if !o.lookahead || o.out {
                assert!(o.entropy_samples <= 4, "game {i}");
            }
            // The rounds are in seat order: a later seat has at most as many deals.
            assert!(small.iter().take_while(|p| p.player != o.player).all(|p| p.samples >= o.samples));
            if o.samples < 12 || o.entropy_samples < f.entropy_samples {
                cut += 1;
                let alone = run(ThreatBudget {
                    samples: o.samples,
                    entropy_samples: o.entropy_samples,
                    states: usize::MAX,
                    exact_views: 0,
                });
                let same = alone.iter().find(|a| a.player == o.player).expect("every opponent");
                assert_eq!(o, same, "game {i}");
            } else {
                assert_eq!(o, f, "game {i}");
            }
        }
        states += 1;
    }
    assert!(states >= 20 && cut >= 30, "{cut} opponents cut short in {states} states");
}

/// A view settled without its count (a swap of a case-file card that still
/// fits the events it knows: it allows two case files) is one the count
/// finds uncertain: whether each view knows the case file now comes out
/// the same, to the bit, when every view is counted and when only the
/// first deal's are. Small decks where opponents often know it, classic
/// and master games.
#[test]
fn views_settled_without_a_count_are_the_uncertain_ones() {
    let (mut opponents, mut knowing) = (0, 0);
    for i in 0..120 {
        let game = match i % 3 {
            0 => small(i),
            k => big_game("threat-witness", i, k == 1, if k == 1 { 14 } else { 40 }, 0.0)
                .player_view()
                .expect("generated games are valid"),
        };
        let Ok(pos) = Position::new(&game) else { continue }; // an unlucky accusation
        let run = |entropy_samples: usize| -> Vec<OpponentProgress> {
            let budget = ThreatBudget { entropy_samples, ..ThreatBudget::samples(12) };
            pos.opponents_by_knowledge(budget, 0, &mut ChaCha8Rng::seed_from_u64(i)).expect("counted")
        };
        let (counted, settled) = (run(12), run(1));
        for (c, s) in counted.iter().zip(&settled) {
            assert_eq!((c.samples, s.samples, c.entropy_samples, s.entropy_samples), (12, 12, 12, 1), "game {i}");
            assert_eq!(c.solved.to_bits(), s.solved.to_bits(), "game {i}");
            assert_eq!(c.threat.to_bits(), s.threat.to_bits(), "game {i}");
            assert_eq!(c.threat_interval, s.threat_interval, "game {i}");
            opponents += 1;
            knowing += usize::from(c.solved > 0.0);
        }
    }
    // Certain views are what a wrong shortcut would miss: there must be many.
    assert!(opponents >= 200 && knowing >= 40, "{knowing} of {opponents} opponents know the case file in some view");
}

/// The same game and seed give the same advice, and the opponents' budget
/// leaves the behaviour hint's sample alone.
#[test]
fn the_advice_is_deterministic_and_the_budget_touches_only_the_opponents() {
    for i in 0..12 {
        let game = game_of(&master_game("threat-determinism", i, 15));
        let options = AdviceOptions { seed: i, tell_samples: 200, ..AdviceOptions::default() };
        let Ok(once) = advise(&game, &options) else { continue };
        assert_eq!(advise(&game, &options).expect("advised once"), once, "game {i}");
        let tight = advise(&game, &AdviceOptions { opponent_states: 1, ..options.clone() }).expect("advised once");
        assert_eq!(tight.hint, once.hint, "game {i}");
        assert_eq!(tight.suggestions, once.suggestions, "game {i}");
        // One round always completes; later rounds only while their views were counted before.
        assert!(tight.opponents.iter().all(|o| o.samples >= 1), "game {i}");
    }
}
