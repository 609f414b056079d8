//! The package's exceptions, raised from Rust. They are defined in Python
//! (python/sleuth/_types.py): `GameError` is both a `SleuthError` and a
//! `ValueError`, which `create_exception!` cannot express.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;
use sleuth_core::count::BYTES_PER_STATE;
use sleuth_core::CountError;

static SLEUTH_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static GAME_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static TOO_LARGE_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

fn raise(py: Python<'_>, class: &PyOnceLock<Py<PyType>>, name: &str, message: String) -> PyErr {
    match class.import(py, "sleuth._types", name) {
        Ok(ty) => PyErr::from_type(ty.clone(), message),
        Err(e) => e,
    }
}

/// `sleuth.GameError`: the input is not a valid game (or not one the
/// operation can use), with the message the CLI prints.
pub fn game_error(py: Python<'_>, message: impl Into<String>) -> PyErr {
    raise(py, &GAME_ERROR, "GameError", message.into())
}

/// `sleuth.TooLargeError`: the game is valid but too large to count exactly.
pub fn too_large(py: Python<'_>, message: impl Into<String>) -> PyErr {
    raise(py, &TOO_LARGE_ERROR, "TooLargeError", message.into())
}

/// A failed count: too large to count exactly (`TooLargeError`, with what
/// can still be done), or another limit (`SleuthError`).
pub fn count_error(py: Python<'_>, e: CountError) -> PyErr {
    if !e.too_large_to_count() {
        return raise(py, &SLEUTH_ERROR, "SleuthError", e.to_string());
    }
    let raise_limit = match e {
        CountError::TooManyStates(_) => {
            format!("; max_states= raises the limit, at up to {BYTES_PER_STATE} bytes a state")
        }
        _ => String::new(),
    };
    too_large(py, format!("{e}{raise_limit}; WalkSAT can still estimate it: sleuth.estimate(game, n, method=\"alg2\")"))
}
