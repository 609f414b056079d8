//! Integration tests of sleuth-core: the exact engine against independent
//! oracles (brute force, a SAT solver) and its stated properties.

mod accusation;
mod advice;
mod brute_force;
mod corpus;
mod errors;
mod hostile;
mod plain_dp;
mod properties;
mod samplers;
mod sat;
mod seeds;
mod support;
mod threat;
mod wire;
