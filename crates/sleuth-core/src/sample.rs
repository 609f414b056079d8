//! Sampling consistent deals.
//!
//! [`UniformSampler`] draws deals exactly uniformly, using the exact
//! counter; each draw costs one walk through the counting structure.

pub use crate::count::uniform::{Deal, UniformSampler};
