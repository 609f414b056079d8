//! Integration tests of the simulator: one binary, one module per topic.

mod advice;
mod agents;
mod determinism;
mod entrants;
mod exact;
mod experiment;
mod habits;
mod rules;
mod sleuth;
mod speedclue;
mod support;
mod table1;
mod tournament;
mod transcripts;
mod views;
mod wire;
