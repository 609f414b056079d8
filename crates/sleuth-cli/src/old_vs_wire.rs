//! The hand-written JSON writers against `sleuth_core::wire`, before the
//! writers go: on every game of testdata and on generated games (consistent
//! and not, classic, master and custom decks, observers and bystanders),
//! each old output parses to the same JSON value as the wire type's
//! serde_json output (floats compared exactly), once the keys the wire adds
//! (documented in docs/game-format.md) are set aside.

use serde_json::Value;
use sleuth_core::advice::{advise, AdviceOptions, Position};
use sleuth_core::deduce::Settled;
use sleuth_core::generate::{try_generate, DeckChoice, GenConfig};
use sleuth_core::sample::{estimate_from_deals, search_and_sample, Formula, UniformSampler, WalkSatConfig};
use sleuth_core::{wire, Analysis, CardSet, Game, GameFile, Place, Player, Problem};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use std::path::Path;

/// The old output, and the new with the keys it adds removed.
#[track_caller]
fn same(what: &str, old: &str, new: Value, added: &[&str]) {
    let old: Value = serde_json::from_str(old).unwrap_or_else(|e| panic!("{what}: old output is not JSON: {e}"));
    let mut new = new;
    let obj = new.as_object_mut().expect("an object");
    for key in added {
        assert!(obj.remove(*key).is_some(), "{what}: the added key {key} is missing");
    }
    assert_eq!(old, new, "{what}");
}

fn games() -> Vec<(String, Game)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    let mut out = Vec::new();
    for dir in [root.clone(), root.join("corpus"), root.join("seeds")] {
        let mut paths: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        paths.sort();
        for path in paths.into_iter().filter(|p| p.extension().is_some_and(|e| e == "json")) {
            let text = std::fs::read_to_string(&path).unwrap();
            out.push((path.display().to_string(), Game::from_json(&text).unwrap()));
        }
    }
    let decks = [
        (DeckChoice::Classic, 3),
        (DeckChoice::Classic, 6),
        (DeckChoice::Master, 5),
        (DeckChoice::Master, 9),
        (DeckChoice::Custom(vec![3, 2, 3]), 3),
        (DeckChoice::Custom(vec![4, 3, 5, 2]), 4),
    ];
    for (d, (deck, players)) in decks.into_iter().enumerate() {
        for seed in 0..12u64 {
            let cfg = GenConfig {
                face_up: (seed % 3) as usize,
                accusation_rate: 0.1,
                corrupt: seed % 4 == 3,
                ..GenConfig::new(deck.clone(), players, seed % 5 != 4, (seed * 5 % 30) as usize)
            };
            let mut rng = ChaCha8Rng::seed_from_u64(4_200 + 100 * d as u64 + seed);
            let Ok(generated) = try_generate(&cfg, &mut rng) else { continue };
            let game = Game::new(&GameFile::from_json(&generated.file.to_json()).unwrap()).unwrap();
            out.push((format!("{deck:?} {players}p seed {seed}"), game));
        }
    }
    out
}

#[test]
fn the_wire_types_write_what_the_old_writers_wrote() {
    let (mut analyses, mut advices, mut refutations, mut samples, mut inconsistent) = (0, 0, 0, 0, 0);
    for (name, game) in games() {
        let analysis = Analysis::new(&game).unwrap();
        let new = serde_json::to_value(wire::Analysis::new(&game, &analysis)).unwrap();
        same(&format!("{name}: analyze"), &crate::analyze::to_json(&game, &analysis), new, &["case_file_count"]);
        analyses += 1;

        if !analysis.is_consistent() {
            // `sample --json` wrote three keys; it now writes the analysis.
            let events: Vec<String> =
                analysis.conflict().map(|c| c.events.iter().map(usize::to_string).collect()).unwrap_or_default();
            let old = format!("{{\"consistent\": false, \"conflict\": [{}], \"models\": \"0\"}}", events.join(", "));
            let old: Value = serde_json::from_str(&old).unwrap();
            let new = serde_json::to_value(wire::Analysis::new(&game, &analysis)).unwrap();
            for (k, v) in old.as_object().unwrap() {
                assert_eq!(&new[k], v, "{name}: sample of an inconsistent game, {k}");
            }
            inconsistent += 1;
            continue;
        }

        // Samples: uniform draws, WalkSAT, and WalkSAT with what
        // propagation settles (the path of a game too large to count).
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let uniform = UniformSampler::new(&Problem::new(&game)).unwrap().unwrap();
        let mut seen: HashMap<CardSet, u64> = HashMap::new();
        let deals: Vec<_> = (0..200).map(|_| uniform.sample(&mut rng)).collect();
        for deal in &deals {
            let cf: CardSet = game
                .deck()
                .cards()
                .filter(|c| deal.get(c.index()).copied().flatten() == Some(Place::CaseFile))
                .collect();
            *seen.entry(cf).or_insert(0) += 1;
        }
        let mut case_files: Vec<(CardSet, u64)> = seen.into_iter().collect();
        case_files.sort_by(|a, b| b.1.cmp(&a.1).then(a.0 .0.cmp(&b.0 .0)));
        let estimate = estimate_from_deals(&game, deals, "uniform", true).with_method("uniform: 200 draws, seed 7");
        let known = crate::sample::Known::Exact(&analysis);
        let old = crate::sample::to_json(&game, known, &estimate, "uniform", 7, &case_files);
        let new = wire::Sample::new(
            &game,
            &estimate,
            Some(analysis.models()),
            |c, p| analysis.status(c, p),
            "uniform",
            7,
            &case_files,
        );
        same(&format!("{name}: sample uniform"), &old, serde_json::to_value(new).unwrap(), &[]);

        let cfg = WalkSatConfig { iterations: 3_000, ..WalkSatConfig::named("alg2").unwrap() };
        let settled = Settled::new(&game).unwrap();
        for exact in [true, false] {
            let formula = if exact { Formula::new(&game, &analysis) } else { Formula::by_propagation(&game, &settled) };
            let estimate = search_and_sample(&formula.unwrap(), &cfg, &mut rng);
            let (known, models) = if exact {
                (crate::sample::Known::Exact(&analysis), Some(analysis.models()))
            } else {
                (crate::sample::Known::Settled(&settled), None)
            };
            let old = crate::sample::to_json(&game, known, &estimate, "alg2", 3, &[]);
            let status = |c, p| if exact { analysis.status(c, p) } else { settled.status(c, p) };
            let new = wire::Sample::new(&game, &estimate, models, status, "alg2", 3, &[]);
            same(&format!("{name}: sample alg2 {exact}"), &old, serde_json::to_value(new).unwrap(), &[]);
        }
        samples += 3;

        let Some((me, hand)) = game.observer() else { continue };
        // A smaller advice than the default keeps the test short; the
        // writer is what is compared.
        let options = AdviceOptions { samples: 8, tell_samples: 200, ..AdviceOptions::default() };
        let advice = advise(&game, &options).unwrap();
        let new = serde_json::to_value(wire::Advice::new(&game, &advice)).unwrap();
        same(&format!("{name}: advise"), &crate::advise::advice_json(&game, &advice), new, &[]);
        advices += 1;

        // Which card to show the player before me, for a suggestion of one
        // of my cards and the first card of every other category.
        let Some(mine) = hand.iter().next() else { continue };
        let deck = game.deck();
        let cards: CardSet = deck
            .categories()
            .map(|k| {
                let cat = deck.category_cards(k);
                if cat.contains(mine) { mine } else { cat.iter().next().unwrap() }
            })
            .collect();
        let n = game.num_players();
        let by = Player::new((me.index() + n - 1) % n);
        let advice = Position::new(&game).unwrap().refutation(by, cards).unwrap();
        let new = serde_json::to_value(wire::Refutation::new(&game, by, cards, &advice)).unwrap();
        same(&format!("{name}: refute"), &crate::advise::refute_json(&game, by, cards, &advice), new, &["reason"]);
        refutations += 1;
    }
    eprintln!("{analyses} analyses ({inconsistent} inconsistent), {samples} samples, {advices} advices, {refutations} refutations");
    assert!(analyses > 80 && inconsistent > 5 && advices > 40 && refutations > 40, "too few games compared");
}
