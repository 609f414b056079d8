//! What Sleuth's tests and measurement examples share, kept out of the
//! product crates: an independent exact counter to hold the core's counter
//! to ([`plain_counter`]), and the random custom decks the side-by-side and
//! refused-deck rigs draw ([`random_deck`]). Not published.

pub mod plain_counter;
pub mod random_deck;
