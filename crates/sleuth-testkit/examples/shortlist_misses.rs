//! How often the exact ranking's best suggestion is not the best of all
//! legal suggestions by the default objective (the chance of ending the
//! game, then information): every legal suggestion is evaluated exactly on
//! generated player views, against `Position::rank_suggestions`, which
//! evaluates only its shortlist (issue 57 asks for a shortlist that keeps
//! the best).
//!
//! Usage: shortlist_misses DECK PLAYERS observer SUGGESTIONS SEEDS [SHORTLIST]
//!
//! One line per state where the ranking misses the best, then how many.
//! Slow on master decks with many players: every one of the 960 legal
//! suggestions is counted.

use sleuth_core::advice::{AdviceOptions, Position, SuggestionEval};
use sleuth_testkit::states;

/// Whether `a` is better than `b` by the default objective, beyond rounding.
fn better(a: &SuggestionEval, b: &SuggestionEval) -> bool {
    const EPS: f64 = 1e-12;
    a.end_probability > b.end_probability + EPS
        || (a.end_probability >= b.end_probability - EPS && a.information > b.information + EPS)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some((games, rest)) = states::games_from_args(&args) else {
        eprintln!("usage: shortlist_misses DECK PLAYERS observer SUGGESTIONS SEEDS [SHORTLIST]");
        std::process::exit(2);
    };
    let shortlist = rest.first().map_or(AdviceOptions::default().shortlist, |n| n.parse().expect("shortlist"));
    let (mut states, mut misses) = (0, 0);
    for (seed, game) in games {
        let pos = Position::new(&game).expect("a player's consistent view");
        let ranked = pos.rank_suggestions(shortlist).expect("counts");
        let mut best = ranked[0].clone();
        for cards in pos.legal_suggestions() {
            let eval = pos.evaluate(cards).expect("counts");
            if better(&eval, &best) {
                best = eval;
            }
        }
        states += 1;
        if best.cards != ranked[0].cards {
            misses += 1;
            println!(
                "seed {seed}: ranked best ends {:.4}, {:.4} bits; best of all ends {:.4}, {:.4} bits",
                ranked[0].end_probability, ranked[0].information, best.end_probability, best.information
            );
        }
    }
    println!("{misses} of {states} states: the ranking's best is not the best of all legal suggestions");
}
