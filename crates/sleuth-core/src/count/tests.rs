//! The counter against its references: the plain DP, the DP before
//! pruning, one count per combination of case-file candidates, and each
//! counter and card order against the others, on seeded generated games.

use super::card_outer::{backward, card_outer_and_files, card_outer_files, card_outer_passed, Kept};
use super::choice::{choose_order, plan, BaseOrders};
use super::counter::{chosen, chosen_within, players_outer_candidate, Trial, PLAYERS_MAX_MOVES};
use super::plan::{CardClasses, Plan};
use super::profile::{count_marginals_by, Counter};
use super::*;
use crate::deduce::Reduced;
use crate::generate::{try_generate, DeckChoice, GenConfig};
use rand::SeedableRng;
use std::cell::Cell;

/// The card-outer counter with a given way to compile the DP.
fn marginals_with(
    p: &CountProblem,
    plan: impl Fn(&CountProblem, &Reduced) -> Result<Plan, CountError>,
) -> Result<Counts, CountError> {
    let Some(r) = propagate(p) else { return Ok(Counts::none()) };
    card_outer_and_files(p, &r, plan, false, &CountOptions::default()).map(|(counts, _)| counts)
}

/// The counter as it was before clause-demand pruning and the new card
/// order: the obvious DP, used as the reference.
fn reference(p: &CountProblem) -> Result<Counts, CountError> {
    marginals_with(p, |p, r| {
        let cards = CardClasses::new(p, r);
        Ok(Plan::new(p, r, &cards, order::basic_order(r, &cards))?.without_demand())
    })
}

/// The plain card-outer DP (no pool) in the usual order: what the
/// pooled plans and the other orders are compared with.
fn plain_dp(p: &CountProblem) -> Result<Counts, CountError> {
    marginals_with(p, |p, r| {
        let cards = CardClasses::new(p, r);
        Plan::new(p, r, &cards, order::dp_order(r, &cards))
    })
}

/// Seeded generated games for the comparison tests: for each `(deck,
/// players)` in `sizes`, both views, 0–40 suggestions and seeds
/// `0..seeds` (some with accusations and a face-up card), generated from
/// the RNG seed `seed_of(players, seed)`; calls `f(label, problem)` on
/// each game the generator produces.
fn for_each_generated(
    sizes: &[(DeckChoice, usize)],
    seeds: u64,
    seed_of: impl Fn(usize, u64) -> u64,
    f: impl FnMut(&str, &CountProblem),
) {
    let accusations = |seed: u64| if seed % 3 == 0 { 0.1 } else { 0.0 };
    for_each_generated_with(sizes, &[0, 5, 10, 20, 40], seeds, accusations, seed_of, f);
}

/// [`for_each_generated`] after each of `suggestions` suggestions,
/// with the accusation rate `accusations(seed)`.
fn for_each_generated_with(
    sizes: &[(DeckChoice, usize)],
    suggestions: &[usize],
    seeds: u64,
    accusations: impl Fn(u64) -> f64,
    seed_of: impl Fn(usize, u64) -> u64,
    mut f: impl FnMut(&str, &CountProblem),
) {
    for (deck, players) in sizes {
        let players = *players;
        for observer in [true, false] {
            for &suggestions in suggestions {
                for seed in 0..seeds {
                    let cfg = GenConfig {
                        accusation_rate: accusations(seed),
                        face_up: (seed % 4 == 1) as usize,
                        ..GenConfig::new(deck.clone(), players, observer, suggestions)
                    };
                    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed_of(players, seed));
                    let Ok(generated) = try_generate(&cfg, &mut rng) else { continue };
                    let game = crate::Game::new(&generated.file).expect("generated games are valid");
                    let label = format!(
                        "{deck:?} {players} players, observer {observer}, {suggestions} suggestions, seed {seed}"
                    );
                    f(&label, &CountProblem::new(&game));
                }
            }
        }
    }
}

/// The case-file distribution from the identifying DP against the
/// earlier method (one count per combination of candidates, see
/// `case_file::by_fixing`) on seeded classic, master and custom games of
/// both views, with accusations and face-up cards: equal lists, in the
/// same order. Also with the identifying plan pooled and not pooled
/// whatever the size, and every case file's count summing to the total.
#[test]
fn case_files_match_one_count_per_combination() {
    let sizes = [
        (DeckChoice::Classic, 3),
        (DeckChoice::Classic, 6),
        (DeckChoice::Master, 6),
        (DeckChoice::Master, 8),
        (DeckChoice::Master, 10),
        (DeckChoice::Custom(vec![5, 4, 6]), 4),
        (DeckChoice::Custom(vec![3, 6, 2, 5]), 3),
        (DeckChoice::Custom(vec![2, 2]), 2),
        (DeckChoice::Custom(vec![3, 2, 3, 2, 2]), 3),
    ];
    let (mut compared, mut pooled, mut several) = (0, 0, 0);
    // Plain plans whose backward counts the sweep reads on u64, and
    // those too large for it (read on u128).
    let (mut narrow, mut wide) = (0, 0);
    for_each_generated(
        &sizes,
        8,
        |players, seed| 31_000 + 100 * players as u64 + seed,
        |label, p| {
            let counts = count_marginals(p, &CountOptions::default()).expect(label);
            let reference = case_file::by_fixing(p, &counts, &CountOptions::default());
            let Ok(reference) = reference else {
                assert_eq!(case_files(p, &counts, &CountOptions::default()), reference, "{label}: the same error");
                return;
            };
            assert_eq!(case_files(p, &counts, &CountOptions::default()).expect(label), reference, "{label}");
            let (again, files) = count_with_case_files(p, &CountOptions::default()).expect(label);
            assert_eq!((again.total, &again.marginal), (counts.total, &counts.marginal), "{label}: counts");
            assert_eq!(files.as_ref(), Some(&reference), "{label}: with the counts");
            let sum = reference.iter().try_fold(0u128, |s, (_, n)| s.checked_add(n)).expect("fits");
            assert_eq!(sum, counts.total, "{label}: case files sum to the total");
            // The sweep and the identifying DP on plain and pooled
            // plans, whatever the size.
            let r = propagate(p).expect("consistent games propagate");
            let cards = CardClasses::new(p, &r);
            for symmetric in [false, true] {
                let order = order::dp_order(&r, &cards);
                let plan = Plan::new_identifying(p, &r, &cards, order.clone(), symmetric).expect(label);
                pooled += usize::from(symmetric && plan.scale > 1);
                let mut files = case_file::from_plan(p, &r, &cards, &plan, &CountOptions::default()).expect(label);
                files.sort();
                assert_eq!(files, reference, "{label}: identifying, symmetric {symmetric}");
                let plan = usual_plan(p, &r, &cards, order, symmetric).expect(label);
                if !symmetric && !plan.is_symmetric() && counts.total > 0 {
                    let fits = counts.total >> 64 == 0;
                    (narrow, wide) = (narrow + usize::from(fits), wide + usize::from(!fits));
                }
                let (_, files) = card_outer_files(p, &r, &plan, true, &CountOptions::default()).expect(label);
                let mut files = files.expect("few case files");
                files.sort();
                assert_eq!(files, reference, "{label}: sweep, symmetric {symmetric}");
            }
            compared += 1;
            several += usize::from(reference.len() > 1);
        },
    );
    assert!(compared > 400, "only {compared} games compared");
    assert!(several * 2 > compared, "several case files on only {several} of {compared} games");
    assert!(pooled * 4 > compared, "pooled identifying plans on only {pooled} of {compared} games");
    assert!(narrow > 300 && wide > 20, "plain plans: {narrow} with totals on u64, {wide} beyond");
}

/// The progress callback hears every layer of the forward pass: the
/// states visited so far, growing, up to the count's states, and never
/// past the limit (by more than the layer's last chunk).
#[test]
fn the_progress_callback_hears_the_layers() {
    let cfg = GenConfig::new(DeckChoice::Master, 6, true, 10);
    let generated = try_generate(&cfg, &mut rand_chacha::ChaCha8Rng::seed_from_u64(3)).expect("generates");
    let p = CountProblem::new(&crate::Game::new(&generated.file).expect("valid"));
    let heard = std::cell::RefCell::new(Vec::new());
    let report = |visited: usize| heard.borrow_mut().push(visited);
    let options = CountOptions::new().progress(&report);
    let counts = count_marginals_by(&p, Counter::CardOuter, &options).expect("counts").expect("card-outer");
    let heard = heard.into_inner();
    assert!(heard.len() > 1, "{heard:?}");
    assert!(heard.windows(2).all(|w| w[0] <= w[1]), "{heard:?}");
    assert_eq!(heard.last(), Some(&counts.states));
    // Where the limit stops the count, no report is past it by more than
    // a chunk of the last layer's successors.
    let heard = Cell::new(0);
    let report = |visited: usize| heard.set(heard.get().max(visited));
    let limit = counts.states / 2;
    let options = CountOptions::new().max_states(limit).progress(&report);
    let refused = count_marginals_by(&p, Counter::CardOuter, &options);
    assert_eq!(refused, Err(CountError::TooManyStates(limit)));
    assert!(heard.get() > 0 && heard.get() <= limit, "{} of {limit}", heard.get());
}

/// The card-outer DP refuses a state past the state limit, and only
/// past it: with the limit at the states it visits it counts, one
/// below it refuses (whichever layer crosses it, and wherever in the
/// layer), and a small limit refuses at once; every count of an
/// analysis obeys the options it is given.
#[test]
fn the_state_limit_refuses_exactly_past_it() {
    let mut checked = 0;
    for seed in 0..6 {
        let cfg = GenConfig::new(DeckChoice::Master, 10, false, 10);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5_500 + seed);
        let Ok(generated) = try_generate(&cfg, &mut rng) else { continue };
        let p = CountProblem::new(&crate::Game::new(&generated.file).expect("valid"));
        let counts =
            count_marginals_by(&p, Counter::CardOuter, &CountOptions::default()).expect("counts").expect("card-outer");
        let with_limit = |limit: usize| {
            let options = CountOptions::new().max_states(limit);
            count_marginals_by(&p, Counter::CardOuter, &options).map(|c| c.map(|c| c.total))
        };
        assert_eq!(with_limit(counts.states), Ok(Some(counts.total)), "seed {seed}");
        assert_eq!(with_limit(counts.states - 1), Err(CountError::TooManyStates(counts.states - 1)), "seed {seed}");
        assert_eq!(with_limit(10), Err(CountError::TooManyStates(10)), "seed {seed}");
        let small = CountOptions::new().max_states(10);
        assert_eq!(count_with_case_files(&p, &small).map(|_| ()), Err(CountError::TooManyStates(10)), "seed {seed}");
        assert_eq!(count(&p, &small), Err(CountError::TooManyStates(10)), "seed {seed}");
        checked += usize::from(counts.states > 5_000);
    }
    assert!(checked >= 3, "only {checked} states past 5,000 DP states");
}

/// Wrong accusations counted by subtraction (`excluded`) against the
/// same states counted directly, their clauses in the DP: equal totals,
/// marginals and case-file lists, on seeded games of three to five
/// categories, both views, where every suggestion is followed by an
/// accusation half the time. (The brute-force tests check both ways on
/// small decks, through `Analysis`.)
#[test]
fn wrong_accusations_by_subtraction_match_the_direct_count() {
    let sizes = [
        (DeckChoice::Classic, 3),
        (DeckChoice::Classic, 6),
        (DeckChoice::Master, 4),
        (DeckChoice::Master, 10),
        (DeckChoice::Custom(vec![4, 5, 3]), 3),
        (DeckChoice::Custom(vec![3, 3, 2, 3]), 3),
        (DeckChoice::Custom(vec![2, 3, 2, 2, 3]), 4),
    ];
    let (mut compared, mut excluded, mut removed) = (0, 0, 0);
    for_each_generated_with(
        &sizes,
        &[3, 8, 15, 25],
        6,
        |_| 0.5,
        |players, seed| 83_000 + 100 * players as u64 + seed,
        |label, p| {
            let Some(split) = excluded::split(p) else { return };
            let Some(r) = propagate(p) else { return };
            let (direct, files) = chosen(p, &r, true, &CountOptions::default()).expect(label);
            let (counts, listed) = count_with_case_files(p, &CountOptions::default()).expect(label);
            assert_eq!((counts.total, &counts.marginal), (direct.total, &direct.marginal), "{label}");
            let marginals = count_marginals(p, &CountOptions::default()).expect(label);
            assert_eq!((marginals.total, &marginals.marginal), (direct.total, &direct.marginal), "{label}");
            assert_eq!(count(p, &CountOptions::default()).expect(label), direct.total, "{label}: total");
            let (direct_files, listed) = (sorted(files), sorted(listed));
            assert_eq!(listed, direct_files, "{label}: case files");
            // Where an accused file was possible without the
            // accusations, the subtraction did something (in about
            // 40 % of these games; the others accuse files already
            // ruled out).
            let base = sorted(count_with_case_files(&split.base, &CountOptions::default()).expect(label).1);
            removed += usize::from(base.len() > listed.len());
            excluded += split.files.len();
            compared += 1;
        },
    );
    assert!(compared > 250, "only {compared} games with wrong accusations");
    assert!(excluded > 2 * compared, "{excluded} accused files in {compared} games");
    assert!(removed * 3 > compared, "case files removed in only {removed} of {compared} games");
}

/// The sweeps for any number of open categories (`case_sweep::many`)
/// against those tuned for up to three, on plain and pooled plans of
/// seeded classic, master and custom games of both views, split where
/// they choose and at every place: equal case files. (On four or more, `case_files_match_one_count_per_combination`
/// checks them against one count per combination.)
#[test]
fn general_case_sweeps_match_the_tuned_ones() {
    let sizes = [
        (DeckChoice::Classic, 4),
        (DeckChoice::Master, 3),
        (DeckChoice::Master, 6),
        (DeckChoice::Master, 10),
        (DeckChoice::Custom(vec![5, 4, 6]), 4),
        (DeckChoice::Custom(vec![4, 4]), 3),
        (DeckChoice::Custom(vec![7]), 2),
    ];
    let (mut compared, mut by_open, mut wide) = (0, [0usize; 4], 0);
    for_each_generated(
        &sizes,
        6,
        |players, seed| 47_000 + 100 * players as u64 + seed,
        |label, p| {
            let Some(r) = propagate(p) else { return };
            let cards = CardClasses::new(p, &r);
            for symmetric in [false, true] {
                let plan = usual_plan(p, &r, &cards, order::dp_order(&r, &cards), symmetric).expect(label);
                // The sweeps alone, after the count's own passes: the
                // scaled total and the case files.
                let files = |general: Option<usize>| {
                    let fwd = dp::forward_with_placed(&plan, &CountOptions::default()).expect(label);
                    let mut marginal = vec![[0u128; MAX_PLACES]; MAX_CARDS];
                    let (total, back) = backward(&plan, &fwd, true, &mut marginal).expect(label);
                    let swept = match &back {
                        Kept::Narrow(back) => case_sweep::case_files(p, &r, &plan, &fwd, back, total, general),
                        Kept::Wide(back) => case_sweep::case_files(p, &r, &plan, &fwd, back, total, general),
                    };
                    (total, swept.expect(label).map(|f| sorted(Some(f))))
                };
                let (total, expected) = files(None);
                assert!(total > 0 && expected.is_some(), "{label}: the tuned sweeps list the case files");
                // Split where the sweeps choose, and after 0, 1 or 2
                // case cards.
                for split in [usize::MAX, 0, 1, 2] {
                    let at = format!("{label}, symmetric {symmetric}, split {split}");
                    assert_eq!(files(Some(split)).1, expected, "{at}");
                }
                // The sweeps run on u128 past u64 (scaled totals).
                wide += usize::from(total >> 64 != 0);
                compared += 1;
                by_open[plan.open_cats().len().min(3)] += 1;
            }
        },
    );
    assert!(compared > 500, "only {compared} plans compared");
    assert!(by_open.iter().all(|&n| n > 20), "plans by open categories: {by_open:?}");
    assert!(wide > 10, "only {wide} plans with totals past u64");
}

/// The pruned, reordered DP against the reference on seeded random
/// classic and master games of every size the benchmark uses (not only
/// tiny ones): totals and every marginal must be equal, and pruning
/// must never visit more states. Some of the games take the in-flight
/// order without pooling players ([`plain_order`]).
#[test]
fn pruned_counter_matches_the_reference_on_random_classic_and_master_games() {
    let sizes: Vec<(DeckChoice, usize)> =
        (3..=6).map(|n| (DeckChoice::Classic, n)).chain([6, 8, 10].map(|n| (DeckChoice::Master, n))).collect();
    let (mut compared, mut fewer, mut inflight) = (0, 0, 0);
    for_each_generated(
        &sizes,
        6,
        |players, seed| 1000 * players as u64 + seed,
        |label, p| {
            let (new, old) = (count_marginals(p, &CountOptions::default()).expect(label), reference(p).expect(label));
            assert_eq!(new.total, old.total, "{label}: total");
            assert_eq!(new.marginal, old.marginal, "{label}: marginals");
            assert!(new.total > 0, "{label}: generated histories are consistent");
            compared += 1;
            fewer += usize::from(new.states < old.states);
            if let Some(r) = propagate(p) {
                let cards = CardClasses::new(p, &r);
                let (order, pooled) = choose_order(p, &r, &cards);
                inflight += usize::from(!pooled && order != order::dp_order(&r, &cards));
            }
        },
    );
    assert!(compared > 300, "only {compared} games compared");
    assert!(inflight > 0, "no game took the in-flight order without pooling");
    assert!(fewer > compared / 4, "pruning visited fewer states on only {fewer} of {compared} games");
}

/// The symmetric card-outer DP (free players pooled, their marginals
/// from `sym::free_marginals`) against the same DP without
/// symmetry, on seeded games of every size: equal totals and marginals of
/// every card at every place; and symmetry must occur on many of them.
#[test]
fn symmetric_dp_matches_the_plain_dp() {
    let sizes = [
        (DeckChoice::Classic, 3),
        (DeckChoice::Classic, 5),
        (DeckChoice::Master, 6),
        (DeckChoice::Master, 8),
        (DeckChoice::Master, 10),
        // Uneven hands, and four case-file categories.
        (DeckChoice::Custom(vec![5, 4, 6]), 4),
        (DeckChoice::Custom(vec![3, 6, 2, 5]), 3),
    ];
    let (mut compared, mut fewer) = (0, 0);
    for_each_generated(
        &sizes,
        5,
        |players, seed| 9000 + 100 * players as u64 + seed,
        |label, p| {
            let plain = plain_dp(p).expect(label);
            // Symmetric whatever the size (`plan` uses it on large games only).
            let sym = marginals_with(p, |p, r| {
                let cards = CardClasses::new(p, r);
                Plan::new_symmetric(p, r, &cards, order::dp_order(r, &cards))
            })
            .expect(label);
            assert_eq!(sym.total, plain.total, "{label}: total");
            assert_eq!(sym.marginal, plain.marginal, "{label}: marginals");
            compared += 1;
            fewer += usize::from(sym.states < plain.states);
        },
    );
    assert!(compared > 150, "only {compared} games compared");
    assert!(fewer * 4 > compared, "symmetry saved states on only {fewer} of {compared} games");
}

/// The DP in the order that frees players early, the wide-first, the
/// frontier and the in-flight orders (symmetric, whatever the size) against the
/// plain DP in the usual order, on seeded classic and master games:
/// equal totals and marginals of every card at every place; each order
/// a permutation of the DP cards, differing from the usual one on many
/// games.
#[test]
fn freeing_order_matches_the_plain_dp() {
    let sizes = [
        (DeckChoice::Classic, 3),
        (DeckChoice::Classic, 6),
        (DeckChoice::Master, 6),
        (DeckChoice::Master, 8),
        (DeckChoice::Master, 10),
    ];
    let (mut compared, differ) = (0, [(); 4].map(|_| std::cell::Cell::new(0)));
    for_each_generated(
        &sizes,
        5,
        |players, seed| 5000 + 100 * players as u64 + seed,
        |label, p| {
            let plain = plain_dp(p).expect(label);
            for (i, name) in ["freeing", "wide", "frontier", "inflight"].into_iter().enumerate() {
                let other = marginals_with(p, |p, r| {
                    let cards = CardClasses::new(p, r);
                    let order = order::named(name, r, &cards, p.np).expect("a known order");
                    let mut sorted = order.clone();
                    sorted.sort_unstable();
                    let dp: Vec<u8> = cards.dp.iter().map(|c| c.index() as u8).collect();
                    assert_eq!(sorted, dp, "{label}: the {name} order has every DP card once");
                    differ[i].set(differ[i].get() + usize::from(order != order::dp_order(r, &cards)));
                    Plan::new_symmetric(p, r, &cards, order)
                })
                .expect(label);
                assert_eq!(other.total, plain.total, "{label}: {name} order: total");
                assert_eq!(other.marginal, plain.marginal, "{label}: {name} order: marginals");
            }
            compared += 1;
        },
    );
    assert!(compared > 150, "only {compared} games compared");
    for (differ, name) in differ.iter().zip(["freeing", "wide", "frontier", "inflight"]) {
        let differ = differ.get();
        assert!(differ * 4 > compared, "the {name} order differs on only {differ} of {compared} games");
    }
}

/// Pooled counts are scaled by a product of factorials of rooms, so on
/// custom decks with large hands the scale, or a scaled count, can
/// overflow where the true counts fit: the count then falls back to the
/// plain DP and must still be exact. Two decks, one for each case
/// (checked below: the pooled plan fails there), compared with the plain
/// DP.
#[test]
fn pooled_counts_that_overflow_fall_back_to_the_plain_dp() {
    let mut fell_back = [0, 0];
    for (case, (deck, players)) in [(vec![13, 13, 13], 6), (vec![22, 21, 21], 4)].into_iter().enumerate() {
        for seed in 0..6u64 {
            let cfg = GenConfig::new(DeckChoice::Custom(deck.clone()), players, false, 4 + seed as usize);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let generated = try_generate(&cfg, &mut rng).expect("generates");
            let game = crate::Game::new(&generated.file).expect("generated games are valid");
            let p = CountProblem::new(&game);
            let label = format!("deck {deck:?}, {players} players, seed {seed}");
            let r = propagate(&p).expect("generated games are consistent");
            let cards = CardClasses::new(&p, &r);
            let scaled = Plan::new_symmetric(&p, &r, &cards, order::dp_order(&r, &cards))
                .and_then(|plan| card_outer_files(&p, &r, &plan, false, &CountOptions::default()).map(|_| ()));
            if scaled == Err(CountError::Overflow) {
                fell_back[case] += 1;
            }
            let plain = plain_dp(&p).expect(&label);
            let counted = count_marginals(&p, &CountOptions::default()).expect(&label);
            assert_eq!(counted.total, plain.total, "{label}: total");
            assert_eq!(counted.marginal, plain.marginal, "{label}: marginals");
            assert_eq!(count(&p, &CountOptions::default()).expect(&label), plain.total, "{label}: count");
        }
    }
    assert!(fell_back.iter().all(|&n| n > 0), "the pooled plan overflowed on too few games: {fell_back:?}");
}

/// The profiling entry point gives the same counts with either counter
/// (on states where both are worth running and the choice matters).
#[test]
fn every_counter_of_count_marginals_by_agrees() {
    for (observer, suggestions) in [(false, 10), (true, 10), (false, 20)] {
        for seed in 0..3u64 {
            let cfg = GenConfig::new(DeckChoice::Master, 10, observer, suggestions);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let generated = try_generate(&cfg, &mut rng).expect("generates");
            let game = crate::Game::new(&generated.file).expect("generated games are valid");
            let p = CountProblem::new(&game);
            let label = format!("observer {observer}, {suggestions} suggestions, seed {seed}");
            let auto = count_marginals(&p, &CountOptions::default()).expect(&label);
            for counter in [
                Counter::Auto,
                Counter::CardOuter,
                Counter::CardOuterUsual,
                Counter::CardOuterFreeing,
                Counter::PlayersOuter,
            ] {
                let Some(c) = count_marginals_by(&p, counter, &CountOptions::default()).expect(&label) else {
                    continue;
                };
                assert_eq!((c.total, &c.marginal), (auto.total, &auto.marginal), "{label}: {counter:?}");
            }
        }
    }
}

/// A forward pass whose counts outgrow `u64` goes on from that step on
/// `u128`: its layers (narrow before, wide after) and edges equal those
/// of a pass on `u128` throughout, and the analysis the plain DP's
/// counts. Pooled master 10-player bystander states after 10
/// suggestions, where a few of every hundred outgrow it.
#[test]
fn forward_counts_widen_where_they_outgrow_u64() {
    let cfg = GenConfig::new(DeckChoice::Master, 10, false, 10);
    let mut widened = 0;
    for seed in 0..200u64 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let generated = try_generate(&cfg, &mut rng).expect("generates");
        let p = CountProblem::new(&crate::Game::new(&generated.file).expect("generated games are valid"));
        let Some(r) = propagate(&p) else { continue };
        let plan = plan(&p, &r).expect("plans");
        let fwd = dp::forward_with_placed(&plan, &CountOptions::default()).expect("counts");
        let wide = |c: &arith::Column| matches!(c, arith::Column::Wide(_));
        if !fwd.layers.iter().any(|l| wide(&l.counts)) {
            continue;
        }
        widened += 1;
        let first_wide = fwd.layers.iter().position(|l| wide(&l.counts)).expect("one is wide");
        assert!(fwd.layers[first_wide..].iter().all(|l| wide(&l.counts)), "seed {seed}: wide from one step on");
        let reference = dp::forward_wide(&plan).expect("counts");
        assert_eq!(fwd.states, reference.states, "seed {seed}");
        assert_eq!(fwd.placed, reference.placed, "seed {seed}");
        for (t, (a, b)) in fwd.layers.iter().zip(&reference.layers).enumerate() {
            assert!(a.counts.iter().eq(b.counts.iter()), "seed {seed}: layer {t}'s counts");
        }
        for (t, (a, b)) in fwd.succ.iter().zip(&reference.succ).enumerate() {
            for i in 0..fwd.layers[t].counts.len() {
                assert_eq!(a.slice(i), b.slice(i), "seed {seed}: step {t}, state {i}");
            }
        }
        let plain = plain_dp(&p).expect("counts");
        let (counted, _) = count_with_case_files(&p, &CountOptions::default()).expect("counts");
        assert_eq!((counted.total, &counted.marginal), (plain.total, &plain.marginal), "seed {seed}");
    }
    assert!(widened > 0, "no state outgrew u64: the widening went untested");
}

/// A forward pass paused at a state budget and resumed is the pass
/// run at once (layers, edges, placed categories, and the analysis
/// after it), paused anywhere, before or after its counts widen; and
/// the counter choice gives the card-outer DP's answer on each of its
/// branches: the trial ends, the players-outer counter ends, or it
/// gives up and the paused DP resumes.
#[test]
fn a_paused_forward_pass_resumes_to_the_same_answer() {
    let (mut paused, mut widened, mut candidates) = (0, 0, 0);
    // Bystander 10 states past seed 12 only where the counts widen.
    for (observer, suggestions, seeds) in [(false, 10, 200), (true, 20, 40)] {
        for seed in 0..seeds {
            let cfg = GenConfig::new(DeckChoice::Master, 10, observer, suggestions);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let generated = try_generate(&cfg, &mut rng).expect("generates");
            let p = CountProblem::new(&crate::Game::new(&generated.file).expect("generated games are valid"));
            let label = format!("observer {observer}, {suggestions} suggestions, seed {seed}");
            let Some(r) = propagate(&p) else { continue };
            let plan = plan(&p, &r).expect("plans");
            let whole = dp::forward_with_placed(&plan, &CountOptions::default()).expect("counts");
            let wide = whole.layers.iter().any(|l| matches!(l.counts, arith::Column::Wide(_)));
            if !observer && seed >= 12 && !wide {
                continue;
            }
            let expected = card_outer_files(&p, &r, &plan, true, &CountOptions::default()).expect("counts");
            for budget in [0, whole.states / 3, 2 * whole.states / 3, whole.states] {
                let fwd = match dp::forward_within(&plan, true, budget, &CountOptions::default()).expect("counts") {
                    dp::Budgeted::Done(fwd) => fwd,
                    dp::Budgeted::Paused(pause) => {
                        paused += 1;
                        dp::resume(&plan, true, pause, &CountOptions::default()).expect("counts")
                    }
                };
                assert_eq!(fwd.placed, whole.placed, "{label}, budget {budget}");
                assert_same_pass(&fwd, &whole, &format!("{label}, budget {budget}"));
                widened += usize::from(wide);
                let (counts, files) =
                    card_outer_passed(&p, &r, &plan, true, fwd, &CountOptions::default()).expect("counts");
                assert_eq!((counts.total, &counts.marginal), (expected.0.total, &expected.0.marginal), "{label}");
                assert_eq!(sorted(files), sorted(expected.1.clone()), "{label}, budget {budget}");
            }
            let cards = CardClasses::new(&p, &r);
            let base = BaseOrders::if_symmetric(&p, &r, &cards);
            candidates += usize::from(players_outer_candidate(&p, &r, &cards, base.as_ref()).is_some());
            // Whole trial, no trial with the players-outer counter, no
            // trial with it giving up at once, a short trial that
            // always goes on once paused.
            let trials = [(1e9, 0.0, PLAYERS_MAX_MOVES), (0.0, 0.0, PLAYERS_MAX_MOVES), (0.0, 0.0, 0), (1e-3, 1e12, 0)];
            for (share, projected, max_moves) in trials {
                let trial = Trial { share, projected };
                let (counts, files) =
                    chosen_within(&p, &r, true, trial, max_moves, &CountOptions::default()).expect("counts");
                let at = format!("{label}, {trial:?}, {max_moves} moves");
                assert_eq!((counts.total, &counts.marginal), (expected.0.total, &expected.0.marginal), "{at}");
                assert_eq!(sorted(files), sorted(expected.1.clone()), "{at}");
            }
        }
    }
    assert!(
        paused > 100 && widened > 0 && candidates > 8,
        "paused {paused}, widened {widened}, candidates {candidates}"
    );
}

/// A demand check repeated from the step before is run only where a move
/// changes its bits: the forward pass keeps exactly the states and
/// edges it keeps running every check everywhere, on seeded classic,
/// master and custom games of both views (pruning is sound either way,
/// so only the states can differ).
#[test]
fn repeated_demand_checks_prune_the_same_states() {
    let sizes = [
        (DeckChoice::Classic, 3),
        (DeckChoice::Classic, 6),
        (DeckChoice::Master, 3),
        (DeckChoice::Master, 5),
        (DeckChoice::Master, 8),
        (DeckChoice::Master, 10),
        (DeckChoice::Custom(vec![5, 4, 6]), 4),
    ];
    let (mut compared, mut skipped) = (0, 0);
    for_each_generated(
        &sizes,
        12,
        |players, seed| 47_000 + 100 * players as u64 + seed,
        |label, p| {
            let Some(r) = propagate(p) else { return };
            let Ok(fast_plan) = plan(p, &r) else { return };
            skipped += fast_plan
                .steps
                .iter()
                .map(|s| (!s.fresh & ((1u64 << s.demand.len()) - 1) as u32).count_ones())
                .sum::<u32>();
            let Ok(fast) = dp::forward(&fast_plan, true, &CountOptions::default()) else { return };
            let every = dp::forward(&plan(p, &r).expect(label).every_check_fresh(), true, &CountOptions::default())
                .expect(label);
            assert_same_pass(&fast, &every, label);
            compared += 1;
        },
    );
    assert!(compared > 800 && skipped > 5000, "compared {compared}, repeated checks {skipped}");
}

/// Two forward passes keep the same states: as many, with the same
/// counts layer by layer and the same edges out of every state.
fn assert_same_pass(a: &dp::Forward, b: &dp::Forward, at: &str) {
    assert_eq!((a.states, a.layers.len(), a.succ.len()), (b.states, b.layers.len(), b.succ.len()), "{at}");
    for (t, (x, y)) in a.layers.iter().zip(&b.layers).enumerate() {
        assert!(x.counts.iter().eq(y.counts.iter()), "{at}: layer {t}");
    }
    for (t, (x, y)) in a.succ.iter().zip(&b.succ).enumerate() {
        for i in 0..a.layers[t].counts.len() {
            assert_eq!(x.slice(i), y.slice(i), "{at}: edges of state {i} at step {t}");
        }
    }
}

/// The card-outer plan in `order`, pooled where `symmetric` (and the
/// state allows it).
fn usual_plan(
    p: &CountProblem,
    r: &Reduced,
    cards: &CardClasses,
    order: Vec<u8>,
    symmetric: bool,
) -> Result<Plan, CountError> {
    if symmetric {
        Plan::new_symmetric(p, r, cards, order)
    } else {
        Plan::new(p, r, cards, order)
    }
}

/// Pooled plans give the same counts and case files with their
/// weights on `u64` (where they fit: the backward pass and the case
/// sweeps) as on `u128`.
#[test]
fn weights_on_u64_count_as_on_u128() {
    let sizes = [(DeckChoice::Master, 6), (DeckChoice::Master, 8), (DeckChoice::Master, 10)];
    let mut compared = 0;
    for_each_generated(
        &sizes,
        6,
        |players, seed| 53_000 + 100 * players as u64 + seed,
        |label, p| {
            let Some(r) = propagate(p) else { return };
            let cards = CardClasses::new(p, &r);
            let Ok(plan) = usual_plan(p, &r, &cards, order::freeing_order(&r, &cards, p.np), true) else {
                return;
            };
            if !plan.weights64 || plan.scale == 1 {
                return;
            }
            let (counts, files) = card_outer_files(p, &r, &plan, true, &CountOptions::default()).expect(label);
            let (wide, wide_files) =
                card_outer_files(p, &r, &plan.with_u128_weights(), true, &CountOptions::default()).expect(label);
            assert_eq!((counts.total, &counts.marginal), (wide.total, &wide.marginal), "{label}");
            assert_eq!(sorted(files), sorted(wide_files), "{label}: case files");
            compared += 1;
        },
    );
    assert!(compared > 150, "only {compared} pooled plans compared");
}

/// A list of case files in one order, to compare.
fn sorted(files: CaseFiles) -> Vec<(Vec<crate::model::Card>, u128)> {
    let mut files = files.expect("the case files are listed");
    files.sort();
    files.iter().map(|(cards, n)| (cards.to_vec(), n)).collect()
}

/// The players-outer counter against the reference DP on every seeded
/// game it handles (no estimate limit, a large move budget): equal
/// totals and marginals of every card; and it handles most of them.
#[test]
fn players_outer_counter_matches_the_reference() {
    let sizes = [(DeckChoice::Classic, 3), (DeckChoice::Classic, 6), (DeckChoice::Master, 6), (DeckChoice::Master, 10)];
    let (mut compared, mut handled, mut wide) = (0, 0, 0);
    for_each_generated(
        &sizes,
        8,
        |players, seed| 7000 + 100 * players as u64 + seed,
        |label, p| {
            let old = reference(p).expect(label);
            compared += 1;
            let Some(r) = propagate(p) else {
                assert_eq!(old.total, 0, "{label}");
                return;
            };
            let Some(pp) = players::prepare(p, &r) else { return };
            let Some((total, m, _, _)) = players::marginals(&pp, 5_000_000, usize::MAX).expect(label) else { return };
            assert_eq!(total, old.total, "{label}: total");
            for c in r.unassigned(p) {
                assert_eq!(m[c.index()], old.marginal[c.index()], "{label}: card {}", c.index());
            }
            handled += 1;
            wide += usize::from(total > u128::from(u64::MAX));
        },
    );
    assert!(handled * 10 > compared * 7, "handled {handled} of {compared}");
    // Both widths of its passes are compared: totals past 64 bits take
    // the `u128` ones.
    assert!(wide > 0 && wide < handled, "{wide} of {handled} totals past 64 bits");
}

/// The counts by class of the players-outer counter against the card-outer
/// DP's (watched cards first), on every seeded game the former handles:
/// one to three watched cards, each deal's class the places of all of
/// them; the same deals and case-file counts in every class.
#[test]
fn counts_by_class_agree_between_counters() {
    use super::classes::{card_outer, players_outer_with, unfixed, ClassCounts};
    use crate::model::{Card, CardSet};
    // A count by class, given the class of each placement of the watched cards.
    type Counting<'a> = dyn FnMut(&mut dyn FnMut(&[u8]) -> usize) -> Option<Vec<ClassCounts>> + 'a;
    use std::collections::HashMap;
    let sizes = [(DeckChoice::Classic, 3), (DeckChoice::Classic, 6), (DeckChoice::Master, 6), (DeckChoice::Master, 10)];
    let (mut compared, mut handled) = (0, 0);
    for_each_generated(
        &sizes,
        8,
        |players, seed| 7300 + 100 * players as u64 + seed,
        |label, p| {
            let Some(r) = propagate(p) else { return };
            compared += 1;
            // Cards of uncertain place, a fixed one among them at times.
            let open: Vec<Card> = r.unassigned(p).iter().filter(|c| r.allowed[c.index()].count_ones() >= 2).collect();
            let fixed = p.in_play.iter().find(|c| r.assigned[c.index()] != crate::deduce::NONE);
            let n = 1 + compared % 3;
            let mut watched: CardSet = open.iter().step_by(3).take(n).copied().collect();
            if compared % 4 == 0 {
                watched |= fixed.map_or(CardSet::EMPTY, CardSet::single);
            }
            if watched.is_empty() {
                return;
            }
            let Some(pp) = players::prepare_watching(p, &r, unfixed(&r, watched).0) else { return };
            let keyed = |count: &mut Counting| {
                let mut keys: Vec<Vec<u8>> = Vec::new();
                let mut class_of = |places: &[u8]| {
                    keys.iter().position(|k| k == places).unwrap_or_else(|| {
                        keys.push(places.to_vec());
                        keys.len() - 1
                    })
                };
                let counts = count(&mut class_of)?;
                Some(keys.into_iter().zip(counts).filter(|(_, c)| c.total > 0).collect::<HashMap<_, _>>())
            };
            let Some(players) =
                keyed(&mut |of| players_outer_with(p, &r, &pp, watched, of, 5_000_000, usize::MAX).expect(label))
            else {
                return;
            };
            let cards = keyed(&mut |of| Some(card_outer(p, &r, watched, of, &CountOptions::default()).expect(label)));
            assert_eq!(Some(players), cards, "{label}: watched {watched:?}");
            handled += 1;
        },
    );
    assert!(handled * 2 > compared, "handled {handled} of {compared}");
}

/// Alike cards ([`alike_cards`]) are interchangeable, as the ranking's
/// shared counts assume: for a pair of them and any two places, the deals
/// that put the first at one and the second at the other have the marginals
/// of those that put them the other way round, with the two cards' rows
/// swapped. (Pairing a card in a clause, of another category or with other
/// allowed places breaks this on some of these games.)
#[test]
fn alike_cards_swap_to_the_same_counts() {
    use crate::model::Place;
    let sizes = [(DeckChoice::Classic, 4), (DeckChoice::Master, 6)];
    let mut pairs = 0;
    for_each_generated(
        &sizes,
        3,
        |players, seed| 7700 + 100 * players as u64 + seed,
        |label, p| {
            let alike = alike_cards(p);
            let Some((c, d)) = p.in_play.iter().map(|c| (alike[c.index()], c)).find(|(a, c)| a != c) else { return };
            for q1 in 0..=p.np {
                for q2 in q1 + 1..=p.np {
                    let at = |x, y| {
                        let mut q = p.clone();
                        q.add_fact(c, Place::from_index(x, p.np), true);
                        q.add_fact(d, Place::from_index(y, p.np), true);
                        count_marginals(&q, &CountOptions::default()).expect(label)
                    };
                    let (one, other) = (at(q1, q2), at(q2, q1));
                    let mut swapped = other.marginal.clone();
                    swapped.swap(c.index(), d.index());
                    assert_eq!(
                        (one.total, one.marginal),
                        (other.total, swapped),
                        "{label}: {c:?} at {q1}, {d:?} at {q2}"
                    );
                }
            }
            pairs += 1;
        },
    );
    assert!(pairs > 40, "{pairs} pairs of alike cards");
}
