//! Integration tests: run the built `sleuth` binary on the bundled example
//! games, on generated games and on bad input, and check exit codes, output
//! and messages.

mod advise;
mod analyze;
mod bench;
mod check;
mod cli;
mod constraints;
mod conventions;
mod errors;
mod experiment;
mod fuzz;
mod fuzz_wire;
mod generate;
mod logic;
mod memory;
mod notepad;
mod sample;
mod sat_engine;
mod schema;
mod serve;
mod speedclue;
mod support;
mod tournament;
mod why;
