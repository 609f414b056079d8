//! Python values the results are handed back as: `fractions.Fraction`,
//! NumPy arrays, and the JSON contract as dicts.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyByteArray;

static FRACTION: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static FROMBUFFER: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static JSON_LOADS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// `Fraction(num, den)`, exact; `Fraction(0)` for a game with no
/// consistent deal (den 0), where every probability is 0.
pub fn fraction(py: Python<'_>, num: u128, den: u128) -> PyResult<Bound<'_, PyAny>> {
    let class = FRACTION.import(py, "fractions", "Fraction")?;
    if den == 0 {
        class.call1((0,))
    } else {
        class.call1((num, den))
    }
}

/// A NumPy array of `shape` over `bytes` (native-endian `dtype` items),
/// writable: it owns a bytearray, not a copy of one.
fn array<'py>(py: Python<'py>, bytes: &[u8], dtype: &str, shape: (usize, usize)) -> PyResult<Bound<'py, PyAny>> {
    let frombuffer = FROMBUFFER.import(py, "numpy", "frombuffer")?;
    let buffer = PyByteArray::new(py, bytes);
    frombuffer.call1((buffer, dtype))?.call_method1("reshape", (shape,))
}

/// A float64 array of `shape`, row-major.
pub fn float_array<'py>(py: Python<'py>, values: &[f64], shape: (usize, usize)) -> PyResult<Bound<'py, PyAny>> {
    let bytes: Vec<u8> = values.iter().flat_map(|x| x.to_ne_bytes()).collect();
    array(py, &bytes, "float64", shape)
}

/// An int8 array of `shape`, row-major.
pub fn int8_array<'py>(py: Python<'py>, values: &[i8], shape: (usize, usize)) -> PyResult<Bound<'py, PyAny>> {
    let bytes: Vec<u8> = values.iter().map(|&x| x as u8).collect();
    array(py, &bytes, "int8", shape)
}

/// A wire type as Python values, through its JSON (exactly what the CLI's
/// `--json` prints, parsed).
pub fn to_python<'py>(py: Python<'py>, value: &impl serde::Serialize) -> PyResult<Bound<'py, PyAny>> {
    let text = to_json(value)?;
    JSON_LOADS.import(py, "json", "loads")?.call1((text,))
}

/// A wire type as JSON text.
pub fn to_json(value: &impl serde::Serialize) -> PyResult<String> {
    serde_json::to_string(value).map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))
}
