//! Sleuth for Python: the `sleuth` package's native module, `sleuth._sleuth`.
//!
//! A thin layer over `sleuth_core`: arguments are parsed into the core's
//! types, the core computes, and results come back as Python values (exact
//! counts as Python ints and `fractions.Fraction`, tables as NumPy arrays,
//! the JSON contract as dicts of the wire types). Counting and sampling run
//! with the interpreter detached (the GIL released). The pure-Python part of
//! the package (python/sleuth) holds the exception classes, `Explanation`,
//! the docstrings' stubs and the re-exports.

use pyo3::prelude::*;

mod analysis;
mod errors;
mod game;
mod html;
mod play;
mod py;
mod sample;

#[pymodule]
mod _sleuth {
    #[pymodule_export]
    use crate::analysis::{analyze, analyze_many, why, Analysis};
    #[pymodule_export]
    use crate::game::Game;
    #[pymodule_export]
    use crate::play::{advise, generate};
    #[pymodule_export]
    use crate::sample::{estimate, estimate_report, sample};
}
