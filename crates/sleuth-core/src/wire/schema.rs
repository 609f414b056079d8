//! The JSON Schema of each wire shape (feature `schema`), as checked in
//! under docs/schema/.

use schemars::JsonSchema;

/// Every output shape: its file name under docs/schema/ (without `.json`)
/// and its schema, in the order of docs/game-format.md.
pub fn all() -> Vec<(&'static str, serde_json::Value)> {
    vec![
        ("analysis", of::<super::Analysis>()),
        ("why", of::<super::Why>()),
        ("check", of::<super::Check>()),
        ("advice", of::<super::Advice>()),
        ("refutation", of::<super::Refutation>()),
        ("sample", of::<super::Sample>()),
    ]
}

/// The schema of `T` (JSON Schema 2020-12) as a JSON value.
pub fn of<T: JsonSchema>() -> serde_json::Value {
    schemars::schema_for!(T).to_value()
}

impl JsonSchema for super::Count {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Count".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "An exact count, as a string of decimal digits (it can exceed what a JSON number holds exactly).",
            "type": "string",
            "pattern": "^[0-9]+$"
        })
    }
}
