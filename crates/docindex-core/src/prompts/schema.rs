//! JSON schemas of the replies we parse, sent where a server can constrain its output to
//! one (OpenAI's `json_schema`, llama.cpp's grammar from a schema, Ollama's `format`). Every
//! object is closed and every field required, as strict modes demand; ids the model may name
//! are an enum of the ids it was offered, so a small model cannot invent a section.

use serde_json::{json, Value};

/// A closed object whose every field is required.
pub fn object(fields: &[(&str, Value)]) -> Value {
    let properties: serde_json::Map<String, Value> = fields
        .iter()
        .map(|(name, schema)| (name.to_string(), schema.clone()))
        .collect();
    let required: Vec<&str> = fields.iter().map(|(name, _)| *name).collect();
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

pub fn string() -> Value {
    json!({"type": "string"})
}

pub fn number() -> Value {
    json!({"type": "number"})
}

pub fn integer() -> Value {
    json!({"type": "integer"})
}

/// One of `choices`; any string when there are none (an empty enum admits nothing).
pub fn one_of<S: AsRef<str>>(choices: &[S]) -> Value {
    if choices.is_empty() {
        return string();
    }
    let choices: Vec<&str> = choices.iter().map(AsRef::as_ref).collect();
    json!({"type": "string", "enum": choices})
}

/// `schema` or null.
pub fn nullable(schema: Value) -> Value {
    let mut schema = schema;
    if let Some(kind) = schema.get("type").cloned() {
        schema["type"] = json!([kind, "null"]);
    }
    if let Some(choices) = schema.get_mut("enum").and_then(Value::as_array_mut) {
        choices.push(Value::Null);
    }
    schema
}

pub fn array(items: Value) -> Value {
    json!({"type": "array", "items": items})
}

/// An array of at most `max` items.
pub fn array_of_at_most(items: Value, max: usize) -> Value {
    json!({"type": "array", "items": items, "maxItems": max})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_are_closed_and_ids_are_the_offered_ones() {
        let plan = object(&[
            ("action", one_of(&["read", "answer"])),
            ("node_ids", array_of_at_most(one_of(&["0001", "0002"]), 3)),
            ("ref", nullable(one_of(&["0003"]))),
        ]);
        assert_eq!(plan["additionalProperties"], false);
        assert_eq!(plan["required"], json!(["action", "node_ids", "ref"]));
        assert_eq!(
            plan["properties"]["node_ids"]["items"]["enum"],
            json!(["0001", "0002"])
        );
        assert_eq!(plan["properties"]["ref"]["type"], json!(["string", "null"]));
        assert_eq!(plan["properties"]["ref"]["enum"], json!(["0003", null]));
        assert_eq!(one_of::<&str>(&[]), string());
    }
}
