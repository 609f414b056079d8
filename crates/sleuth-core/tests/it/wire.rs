//! The wire types: their checked-in JSON Schemas (docs/schema/*.json) are
//! the ones generated from the types, and what they write reads back.

use sleuth_core::generate::{try_generate, DeckChoice, GenConfig};
use sleuth_core::{wire, Analysis, Game};

/// Fails when a type changed and its schema was not regenerated. To
/// regenerate: `UPDATE_EXPECT=1 cargo test -p sleuth-core --test it wire`.
#[test]
fn checked_in_schemas_are_the_generated_ones() {
    let schemas = wire::schema::all();
    for (name, schema) in &schemas {
        let text = serde_json::to_string_pretty(schema).unwrap() + "\n";
        expect_test::expect_file![format!("../../../../docs/schema/{name}.json")].assert_eq(&text);
    }
    // No stale schema of a shape that is gone.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/schema");
    for entry in std::fs::read_dir(dir).unwrap() {
        let file = entry.unwrap().file_name().into_string().unwrap();
        assert!(schemas.iter().any(|(name, _)| file == format!("{name}.json")), "docs/schema/{file} is not generated");
    }
}

/// An analysis written and read back is the same value, counts past 2^64
/// included; a count is only ever a string of digits.
#[test]
fn analyses_read_back() {
    use rand::SeedableRng;
    for (d, deck) in
        [DeckChoice::Classic, DeckChoice::Master, DeckChoice::Custom(vec![9, 9, 9, 9, 9, 9])].into_iter().enumerate()
    {
        for seed in 0..6u64 {
            let cfg =
                GenConfig { corrupt: seed == 5, ..GenConfig::new(deck.clone(), 3, seed % 2 == 0, seed as usize * 3) };
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(900 + 10 * d as u64 + seed);
            let Ok(generated) = try_generate(&cfg, &mut rng) else { continue };
            let game = Game::new(&generated.file).unwrap();
            let Ok(analysis) = Analysis::new(&game) else { continue };
            let out = wire::Analysis::new(&game, &analysis);
            let text = serde_json::to_string(&out).unwrap();
            assert_eq!(serde_json::from_str::<wire::Analysis>(&text).unwrap(), out, "{deck:?} seed {seed}");
            assert_eq!(out.models.0, analysis.consistent_deals());
        }
    }
    let big = wire::Count(u128::MAX);
    assert_eq!(serde_json::to_string(&big).unwrap(), format!("\"{}\"", u128::MAX));
    assert_eq!(serde_json::from_str::<wire::Count>(&format!("\"{}\"", u128::MAX)).unwrap(), big);
    for bad in ["\"+1\"", "\"\"", "\"1e3\"", "\"-1\"", "12", "\"340282366920938463463374607431768211456\""] {
        assert!(serde_json::from_str::<wire::Count>(bad).is_err(), "{bad}");
    }
}
