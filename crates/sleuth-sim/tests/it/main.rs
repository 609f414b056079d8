//! Integration tests of the simulator: one binary, one module per topic.

mod determinism;
mod exact;
mod experiment;
mod rules;
mod sleuth;
mod support;
mod views;
