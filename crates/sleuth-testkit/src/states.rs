//! The generated states the counter examples run on, from their shared
//! arguments: `DECK PLAYERS observer|bystander SUGGESTIONS SEEDS`, with
//! DECK `classic`, `master` or category sizes (`12,12,12`) and SEEDS
//! either `N` (seeds 0..N) or `A..B`.

use rand::SeedableRng;
use sleuth_core::generate::{try_generate, DeckChoice, GenConfig};
use sleuth_core::{CountProblem, Game};

/// The states of the first five arguments after the program name, as
/// `(seed, problem)`, and the arguments after them; `None` when there
/// are fewer than five.
pub fn from_args(args: &[String]) -> Option<(impl Iterator<Item = (u64, CountProblem)>, Vec<String>)> {
    let (games, rest) = games_from_args(args)?;
    Some((games.map(|(seed, game)| (seed, CountProblem::new(&game))), rest))
}

/// [`from_args`], the states as games: `(seed, game)`.
pub fn games_from_args(args: &[String]) -> Option<(impl Iterator<Item = (u64, Game)>, Vec<String>)> {
    if args.len() < 6 {
        return None;
    }
    let deck = match args[1].as_str() {
        "master" => DeckChoice::Master,
        "classic" => DeckChoice::Classic,
        sizes => {
            DeckChoice::Custom(sizes.split(',').map(|n| n.parse().expect("deck: classic, master or sizes")).collect())
        }
    };
    let players: usize = args[2].parse().expect("players");
    let observer = args[3] == "observer";
    let suggestions: usize = args[4].parse().expect("suggestions");
    let (from, to): (u64, u64) = match args[5].split_once("..") {
        Some((x, y)) => (x.parse().expect("seed"), y.parse().expect("seed")),
        None => (0, args[5].parse().expect("seeds")),
    };
    let cfg = GenConfig::new(deck, players, observer, suggestions);
    let games = (from..to).map(move |seed| {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        (seed, Game::new(&try_generate(&cfg, &mut rng).expect("generates").file).expect("valid"))
    });
    Some((games, args[6..].to_vec()))
}
