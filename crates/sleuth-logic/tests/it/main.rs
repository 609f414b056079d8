//! Integration tests for sleuth-logic: one binary, one module per area.

mod common;
mod convert;
mod dimacs;
mod dpll;
mod exercises;
mod parser;
mod resolution;
mod simplify;
mod walksat;
