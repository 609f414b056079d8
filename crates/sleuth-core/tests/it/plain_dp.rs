//! Sleuth's counter against an independent one: the plain card-order DP of
//! `sleuth_testkit::plain_counter` (issue 20's judge, reproduced), which derives
//! its constraints from the events itself and shares no counting code with
//! `sleuth_core::count`. Totals and every card-place marginal must agree.

use crate::support::{rng, small_game};
use rand::Rng;
use sleuth_core::count::count_marginals;
use sleuth_core::generate::{generate, DeckChoice, GenConfig, Generated};
use sleuth_core::CountOptions;
use sleuth_core::{CountProblem, Game};
use sleuth_testkit::plain_counter::{count, count_with, Layout, PlainCounts};

/// A classic or master game: 3-6 players (3-10 on master), observer or
/// bystander, 0-40 suggestions, sometimes face-up cards, accusations and a
/// corrupted event (usually an impossible history: a count of 0).
fn game(test: &str, i: u64, master: bool) -> Generated {
    let mut r = rng(test, i);
    let players = if master { r.gen_range(3..=10) } else { r.gen_range(3..=6) };
    let dealt = if master { 27 } else { 18 };
    let face_up = match r.gen_range(0..4) {
        0 => dealt % players,
        1 => r.gen_range(0..=3),
        _ => 0,
    };
    let cfg = GenConfig {
        deck: if master { DeckChoice::Master } else { DeckChoice::Classic },
        players,
        observer: r.gen_bool(0.5),
        suggestions: r.gen_range(0..=40),
        face_up,
        accusation_rate: if r.gen_bool(0.5) { 0.1 } else { 0.0 },
        explicit_hand_sizes: r.gen_bool(0.2),
        corrupt: r.gen_bool(0.1),
    };
    generate(&cfg, &mut r)
}

/// Panics, with the game, unless the two counts agree on the total and on
/// every card-place marginal.
fn assert_agree(game: &Game, plain: &PlainCounts, what: &str) {
    let sleuth = count_marginals(&CountProblem::new(game), &CountOptions::default()).expect("counts fit");
    let text = || game.to_file().to_json();
    assert_eq!(plain.total, sleuth.total, "{what}: totals differ\n{}", text());
    let places = game.num_places();
    for c in game.deck().cards() {
        for q in 0..places {
            assert_eq!(
                plain.marginal[c.index()][q],
                sleuth.marginal[c.index()][q],
                "{what}: card {} at place {q} differs\n{}",
                game.deck().id(c),
                text()
            );
        }
    }
}

/// Compares the plain DP (every layout given) with Sleuth's counter on one
/// game; returns whether the history is possible and the plain DP's states.
fn check(generated: &Generated, what: &str, layouts: &[Layout]) -> (bool, usize) {
    let game = Game::new(&generated.file).expect("generated games are valid");
    let plain = count(&game).expect("classic and master games fit");
    assert_agree(&game, &plain, what);
    for &layout in layouts {
        let other = count_with(&game, layout).expect("classic and master games fit");
        assert_eq!(other, plain, "{what}: layout {layout:?} differs\n{}", generated.file.to_json());
    }
    (plain.total > 0, plain.states)
}

#[test]
fn plain_dp_agrees_on_classic_games() {
    let mut consistent = 0;
    for i in 0..150 {
        let layouts: &[Layout] = if i % 5 == 0 { &[Layout::Hashed, Layout::DenseWhenFits] } else { &[] };
        consistent += usize::from(check(&game("plain-classic", i, false), &format!("classic {i}"), layouts).0);
    }
    // The comparison is not vacuous: most histories are possible.
    assert!(consistent > 100, "only {consistent} of 150 consistent");
}

#[test]
fn plain_dp_agrees_on_master_games() {
    let (mut consistent, mut states) = (0, 0);
    for i in 0..150 {
        let layouts: &[Layout] = if i % 5 == 0 { &[Layout::Hashed, Layout::DenseWhenFits] } else { &[] };
        let (ok, n) = check(&game("plain-master", i, true), &format!("master {i}"), layouts);
        consistent += usize::from(ok);
        states += n;
    }
    eprintln!("plain DP: {states} states over 150 master games");
    assert!(consistent > 100, "only {consistent} of 150 consistent");
}

#[test]
fn plain_dp_agrees_on_small_custom_decks() {
    // Two or three categories of 2-4 cards: other category counts, hands
    // of one card, many accusations and corrupted histories.
    for i in 0..300 {
        check(&small_game("plain-small", i), &format!("small {i}"), &[Layout::Hashed, Layout::DenseWhenFits]);
    }
}
