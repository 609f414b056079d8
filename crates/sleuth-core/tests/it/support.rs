//! Helpers shared by the integration tests.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sleuth_core::generate::{generate, DeckChoice, GenConfig, Generated};

/// A seeded RNG for test case `i` of a named test.
pub fn rng(test: &str, i: u64) -> ChaCha8Rng {
    let mut seed = 0xcafe_f00d_u64 ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    for b in test.bytes() {
        seed = seed.rotate_left(5) ^ u64::from(b);
    }
    ChaCha8Rng::seed_from_u64(seed)
}

/// A random small game: 2 or 3 categories of 2-4 cards, 2-4 players,
/// face-up cards, accusations, observers and bystanders, sometimes corrupted.
pub fn small_game(test: &str, i: u64) -> Generated {
    use rand::Rng;
    let mut r = rng(test, i);
    let cats = r.gen_range(2..=3);
    let sizes: Vec<usize> = (0..cats).map(|_| r.gen_range(2..=4)).collect();
    let total: usize = sizes.iter().sum();
    let players = r.gen_range(2..=4.min(total - cats));
    let spare = total - cats - players; // keep at least one card per player
    let cfg = GenConfig {
        deck: DeckChoice::Custom(sizes),
        players,
        observer: r.gen_bool(0.6),
        suggestions: r.gen_range(0..=8),
        face_up: if r.gen_bool(0.3) { r.gen_range(0..=spare.min(2)) } else { 0 },
        accusation_rate: 0.15,
        explicit_hand_sizes: r.gen_bool(0.3),
        corrupt: r.gen_bool(0.2),
    };
    generate(&cfg, &mut r)
}
