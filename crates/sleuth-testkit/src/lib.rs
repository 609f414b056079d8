//! What Sleuth's tests and measurement rigs share, kept out of the product
//! crates: an independent exact counter to hold the core's counter to
//! ([`plain_counter`]), the random custom decks the side-by-side and
//! refused-deck rigs draw ([`random_deck`]), and the generated states the
//! counter's profiling examples run on ([`states`]). Not published.
//!
//! The examples beside it are those rigs: `plain_dp` (the independent
//! counter on a game file), `refused_decks`, `count_profile`, and, with the
//! `profiling` feature (the core's `testing` feature: they run each counter
//! and card order on its own), `count_compare`, `count_orders`,
//! `count_variants`, `count_modes` and `case_file_profile`.

pub mod plain_counter;
pub mod random_deck;
pub mod states;
