//! A JSON document that keeps each object's keys in the order they were written, so that
//! setup gives the person's settings file back in their order with its own keys after.
//!
//! serde_json's `preserve_order` feature would do the same for `serde_json::Value`, but
//! cargo turns a feature on for the whole build: every `Value` in warden (the law's
//! requests, the hook, the HTTP API) would change its size and the order of the keys it
//! prints. Reading and writing go through serde_json all the same; only the tree is ours.

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use std::fmt;

/// A JSON value whose objects keep their keys' order.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Json {
    /// `null` (and what an index finds where there is nothing).
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as serde_json reads it.
    Number(serde_json::Number),
    /// A string.
    String(String),
    /// A list.
    Array(Vec<Json>),
    /// An object, its keys in order.
    Object(Object),
}

/// An object's entries in the order written. Two objects are equal when they hold the
/// same keys with equal values, whatever the order (as JSON reads them).
#[derive(Debug, Clone, Default)]
pub struct Object(Vec<(String, Json)>);

static NULL: Json = Json::Null;

impl Object {
    /// An empty object.
    pub fn new() -> Object {
        Object(Vec::new())
    }

    /// The value at `key`.
    pub fn get(&self, key: &str) -> Option<&Json> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The value at `key`, to change.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Json> {
        self.0.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Sets `key`: in its place when it is there, else after the others.
    pub fn insert(&mut self, key: &str, value: Json) {
        match self.get_mut(key) {
            Some(old) => *old = value,
            None => self.0.push((key.to_string(), value)),
        }
    }

    /// The value at `key`, made by `make` (after the others) when absent.
    pub fn or_insert_with(&mut self, key: &str, make: impl FnOnce() -> Json) -> &mut Json {
        let at = match self.0.iter().position(|(k, _)| k == key) {
            Some(at) => at,
            None => {
                self.0.push((key.to_string(), make()));
                self.0.len() - 1
            }
        };
        &mut self.0[at].1
    }

    /// The keys, in order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(k, _)| k.as_str())
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// No entries.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl PartialEq for Object {
    fn eq(&self, other: &Object) -> bool {
        self.len() == other.len() && self.0.iter().all(|(k, v)| other.get(k) == Some(v))
    }
}

impl Json {
    /// Reads a JSON text (serde_json's reader: its errors carry the line and column).
    pub fn parse(text: &str) -> Result<Json, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The text, indented by two spaces, as `serde_json::to_string_pretty` writes it.
    pub fn pretty(&self) -> String {
        // Writing a tree of strings, numbers and string keys into a String can't fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    /// The object, if this is one.
    pub fn as_object(&self) -> Option<&Object> {
        match self {
            Json::Object(o) => Some(o),
            _ => None,
        }
    }

    /// The object, to change, if this is one.
    pub fn as_object_mut(&mut self) -> Option<&mut Object> {
        match self {
            Json::Object(o) => Some(o),
            _ => None,
        }
    }

    /// The list, if this is one.
    pub fn as_array(&self) -> Option<&Vec<Json>> {
        match self {
            Json::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The value at `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Json> {
        self.as_object()?.get(key)
    }

    /// What the value is, in words (`a string`).
    pub fn kind(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a boolean",
            Json::Number(_) => "a number",
            Json::String(_) => "a string",
            Json::Array(_) => "a list",
            Json::Object(_) => "an object",
        }
    }
}

impl std::ops::Index<&str> for Json {
    type Output = Json;

    /// The value at `key` of an object; `null` where there is none.
    fn index(&self, key: &str) -> &Json {
        self.get(key).unwrap_or(&NULL)
    }
}

impl std::ops::Index<usize> for Json {
    type Output = Json;

    /// The list's value at `i`; `null` where there is none.
    fn index(&self, i: usize) -> &Json {
        self.as_array().and_then(|a| a.get(i)).unwrap_or(&NULL)
    }
}

impl fmt::Display for Json {
    /// The value on one line, as JSON.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = serde_json::to_string(self).map_err(|_| fmt::Error)?;
        f.write_str(&text)
    }
}

impl From<serde_json::Value> for Json {
    /// A serde_json value (its objects come in its own order: sorted by key).
    fn from(value: serde_json::Value) -> Json {
        use serde_json::Value;
        match value {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(b),
            Value::Number(n) => Json::Number(n),
            Value::String(s) => Json::String(s),
            Value::Array(a) => Json::Array(a.into_iter().map(Json::from).collect()),
            Value::Object(o) => Json::Object(Object(
                o.into_iter().map(|(k, v)| (k, Json::from(v))).collect(),
            )),
        }
    }
}

impl From<bool> for Json {
    fn from(b: bool) -> Json {
        Json::Bool(b)
    }
}

impl From<&str> for Json {
    fn from(s: &str) -> Json {
        Json::String(s.to_string())
    }
}

impl From<u64> for Json {
    fn from(n: u64) -> Json {
        Json::Number(n.into())
    }
}

impl From<Vec<(&str, Json)>> for Json {
    /// An object with these entries, in this order.
    fn from(entries: Vec<(&str, Json)>) -> Json {
        let mut object = Object::new();
        for (key, value) in entries {
            object.insert(key, value);
        }
        Json::Object(object)
    }
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => serializer.serialize_unit(),
            Json::Bool(b) => serializer.serialize_bool(*b),
            Json::Number(n) => n.serialize(serializer),
            Json::String(s) => serializer.serialize_str(s),
            Json::Array(a) => {
                let mut seq = serializer.serialize_seq(Some(a.len()))?;
                for value in a {
                    seq.serialize_element(value)?;
                }
                seq.end()
            }
            Json::Object(o) => {
                let mut map = serializer.serialize_map(Some(o.len()))?;
                for (key, value) in &o.0 {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Json, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

/// Reads any JSON value into a [`Json`], keys in order (a repeated key keeps its first
/// place and its last value, as JavaScript's `JSON.parse` and Claude Code read it).
struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Json, E> {
        Ok(Json::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Json, E> {
        Ok(Json::Number(n.into()))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Json, E> {
        Ok(Json::Number(n.into()))
    }

    fn visit_f64<E>(self, n: f64) -> Result<Json, E> {
        Ok(serde_json::Number::from_f64(n).map_or(Json::Null, Json::Number))
    }

    fn visit_str<E>(self, s: &str) -> Result<Json, E> {
        Ok(Json::String(s.to_string()))
    }

    fn visit_string<E>(self, s: String) -> Result<Json, E> {
        Ok(Json::String(s))
    }

    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_none<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Json, D::Error> {
        Json::deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut values = Vec::new();
        while let Some(value) = seq.next_element()? {
            values.push(value);
        }
        Ok(Json::Array(values))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut object = Object::new();
        while let Some((key, value)) = map.next_entry::<String, Json>()? {
            object.insert(&key, value);
        }
        Ok(Json::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_is_written_back_in_its_own_order() {
        let text = "{\n  \"zeta\": 1,\n  \"alpha\": {\n    \"b\": [\n      true,\n      null,\n      \"x\"\n    ],\n    \"a\": -2.5\n  },\n  \"mid\": \"é\\n\"\n}";
        let json = Json::parse(text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(json.pretty(), text);
        let keys: Vec<&str> = json
            .as_object()
            .into_iter()
            .flat_map(Object::keys)
            .collect();
        assert_eq!(keys, ["zeta", "alpha", "mid"]);
        assert_eq!(json["alpha"]["b"][2], Json::from("x"));
        assert_eq!(json["nothing"]["here"], Json::Null);
    }

    #[test]
    fn a_repeated_key_keeps_its_first_place_and_its_last_value() {
        let json = Json::parse(r#"{"a": 1, "b": 2, "a": 3}"#).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(json.to_string(), r#"{"a":3,"b":2}"#);
    }

    #[test]
    fn objects_are_equal_whatever_their_order() {
        let one = Json::parse(r#"{"a": 1, "b": [1, 2]}"#).unwrap_or_else(|e| panic!("{e}"));
        let two = Json::parse(r#"{"b": [1, 2], "a": 1}"#).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(one, two);
        let three = Json::parse(r#"{"b": [2, 1], "a": 1}"#).unwrap_or_else(|e| panic!("{e}"));
        assert_ne!(one, three, "a list's order counts");
    }

    #[test]
    fn numbers_survive_as_serde_json_reads_them() {
        let text = r#"[0,-7,18446744073709551615,1.5,1e+100]"#;
        let json = Json::parse(text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(json.to_string(), text);
    }
}
