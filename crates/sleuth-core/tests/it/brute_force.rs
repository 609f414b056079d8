//! The exact counter against brute-force enumeration of every deal.

use crate::support::{small_game, small_game_many_categories, small_game_most_categories};
use sleuth_core::brute::enumerate;
use sleuth_core::{Analysis, Game};

/// Compares counts, every marginal, and the case-file distribution.
fn check(game: &Game, label: &str) {
    let brute = enumerate(game);
    let analysis = Analysis::new(game).expect("small games count");
    assert_eq!(analysis.consistent_deals(), brute.total, "{label}: total");
    for card in game.deck().cards() {
        for place in game.places() {
            let i = place.index(game.num_players());
            assert_eq!(
                analysis.count(card, place),
                brute.marginal[card.index()][i],
                "{label}: card {} at {}",
                game.deck().id(card),
                game.place_id(place)
            );
        }
    }
    let engine: std::collections::BTreeMap<_, _> =
        analysis.case_files().map(|(cards, n)| (cards.to_vec(), n)).collect();
    assert_eq!(engine, brute.case_files, "{label}: case files");
    assert_eq!(analysis.is_consistent(), brute.total > 0);
    if !analysis.is_consistent() {
        assert!(analysis.conflict().is_some(), "{label}: an inconsistent game names a conflict");
    }
}

#[test]
fn exact_counts_match_brute_force_on_thousands_of_small_games() {
    use sleuth_core::Event;
    let (mut inconsistent, mut face_up, mut bystander, mut correct, mut failed) = (0, 0, 0, 0, 0);
    for i in 0..3000 {
        let generated = small_game("brute", i);
        let game = Game::new(&generated.file).expect("generated games are valid");
        check(&game, &format!("game {i}: {}", generated.file.to_json()));
        inconsistent += usize::from(sleuth_core::brute::enumerate(&game).total == 0);
        face_up += usize::from(!game.face_up().is_empty());
        bystander += usize::from(game.observer().is_none());
        let accusations = game.events().iter().filter_map(|e| match e {
            Event::Accusation(a) => Some(a.correct),
            Event::Suggestion(_) => None,
        });
        for right in accusations {
            if right {
                correct += 1;
            } else {
                failed += 1;
            }
        }
    }
    // The corpus must exercise every kind of evidence the issue names.
    let kinds = [("inconsistent", inconsistent), ("face-up", face_up), ("bystander", bystander)];
    for (kind, n) in kinds.into_iter().chain([("correct accusation", correct), ("failed accusation", failed)]) {
        assert!(n > 50, "only {n} games or events with {kind}");
    }
}

/// The same on decks of four or five categories, whose case files come
/// from the sweeps for any number of open categories.
#[test]
fn exact_counts_match_brute_force_with_many_categories() {
    check_games(400, |i| small_game_many_categories("brute many", i), 200, (8, 60));
}

/// The same on decks of nine or ten categories (their placed
/// categories take a second byte per state).
#[test]
fn exact_counts_match_brute_force_with_most_categories() {
    check_games(40, |i| small_game_most_categories("brute most", i), 20, (32, 10));
}

/// [`check`] on games `0..games`, of which more than `consistent` must be
/// consistent and more than `many` must list over `files` case files.
fn check_games(
    games: u64,
    game_of: impl Fn(u64) -> sleuth_core::generate::Generated,
    consistent: usize,
    (files, many): (usize, usize),
) {
    let (mut consistent_games, mut many_files) = (0, 0);
    for i in 0..games {
        let generated = game_of(i);
        let game = Game::new(&generated.file).expect("generated games are valid");
        check(&game, &format!("game {i}: {}", generated.file.to_json()));
        let analysis = Analysis::new(&game).expect("small games count");
        consistent_games += usize::from(analysis.is_consistent());
        many_files += usize::from(analysis.case_files().count() > files);
    }
    assert!(
        consistent_games > consistent && many_files > many,
        "{consistent_games} consistent, {many_files} with over {files} case files"
    );
}

/// The pruned enumerator of `support` (used as an oracle for bigger games
/// in `seeds` and `corpus`) agrees with plain enumeration.
#[test]
fn the_pruned_enumerator_agrees_with_plain_enumeration() {
    for i in 0..1500 {
        let generated = small_game("pruned", i);
        let game = Game::new(&generated.file).expect("generated games are valid");
        let pruned = crate::support::enumerate_pruned(&game, u64::MAX).expect("no limit");
        assert_eq!(pruned, enumerate(&game), "game {i}: {}", generated.file.to_json());
    }
}

/// A what-if ([`Analysis::supposing`]) against the deals brute force keeps
/// when it also checks the supposed facts, over many small games and
/// random facts (held, not held, in the case file, on face-up cards).
#[test]
fn what_if_counts_match_brute_force() {
    use rand::{Rng, SeedableRng};
    use sleuth_core::{Lit, Place};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(53);
    let (mut zero, mut some) = (0, 0);
    for i in 0..600 {
        let generated = small_game("what-if", i);
        let game = Game::new(&generated.file).expect("generated games are valid");
        let places: Vec<Place> = game.places().collect();
        let cards: Vec<_> = game.deck().cards().collect();
        let facts: Vec<Lit> = (0..rng.gen_range(1..=2))
            .map(|_| Lit {
                card: cards[rng.gen_range(0..cards.len())],
                place: places[rng.gen_range(0..places.len())],
                positive: rng.gen_bool(0.6),
            })
            .collect();
        let keep =
            |place: &[Option<Place>]| facts.iter().all(|f| (place[f.card.index()] == Some(f.place)) == f.positive);
        let brute = sleuth_core::brute::enumerate_where(&game, &keep);
        let a = Analysis::supposing(&game, &facts, &Default::default()).expect("small games count");
        let label = format!("game {i} supposing {facts:?}: {}", generated.file.to_json());
        assert_eq!(a.consistent_deals(), brute.total, "{label}: total");
        for &card in &cards {
            for &place in &places {
                let n = brute.marginal[card.index()][place.index(game.num_players())];
                assert_eq!(a.count(card, place), n, "{label}: {} at {}", game.deck().id(card), game.place_id(place));
            }
        }
        let engine: std::collections::BTreeMap<_, _> = a.case_files().map(|(c, n)| (c.to_vec(), n)).collect();
        assert_eq!(engine, brute.case_files, "{label}: case files");
        assert!(a.conflict().is_none(), "{label}: a what-if explains nothing");
        if brute.total == 0 {
            zero += 1
        } else {
            some += 1
        }
    }
    assert!(zero > 30 && some > 200, "the facts must make some games impossible and keep many others: {zero} / {some}");
}
