//! One random custom-deck game to generate, as `plain_dp_side_by_side
//! --random-decks` and `refused_decks` draw them: 1 to 12 categories of 2
//! to 9 cards, 2 to 10 players (at most one card short of the dealt cards),
//! either view, 5 to 30 suggestions, up to two face-up cards, and the seed
//! of the game. Decks no one plays, drawn to find where Sleuth is slow or
//! refuses on games it has not seen.

use rand::Rng;

/// A drawn game's shape and seed.
pub struct RandomDeck {
    pub sizes: Vec<usize>,
    pub players: usize,
    pub face_up: usize,
    pub bystander: bool,
    pub suggestions: usize,
    pub seed: u64,
}

impl RandomDeck {
    /// The next game from `rng`, or `None` for a deck with too few dealt
    /// cards or more than 64 cards (the caller draws again).
    pub fn draw(rng: &mut impl Rng) -> Option<RandomDeck> {
        let categories = rng.gen_range(1..=12);
        let sizes: Vec<usize> = (0..categories).map(|_| rng.gen_range(2..=9)).collect();
        let dealt = sizes.iter().sum::<usize>() - categories;
        if dealt < 2 || dealt + categories > 64 {
            return None;
        }
        let players = rng.gen_range(2..=10.min(dealt));
        let face_up = rng.gen_range(0..=2).min(dealt - players);
        let (bystander, suggestions) = (rng.gen_bool(0.5), rng.gen_range(5..=30));
        let seed = rng.gen_range(0..1000);
        Some(RandomDeck { sizes, players, face_up, bystander, suggestions, seed })
    }

    /// The deck as `sleuth generate --deck` takes it (`7,5,9`).
    pub fn deck(&self) -> String {
        self.sizes.iter().map(usize::to_string).collect::<Vec<_>>().join(",")
    }
}
