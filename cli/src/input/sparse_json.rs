//! The names-only parse: a JSON value reduced to what tool names need ([`Json`]).
//!
//! Policy: a tool set can be large (100,000 tools with descriptions and schemas), so only the
//! members under [`KEPT_KEYS`] (where a tool name can sit, in any format read) are built;
//! every other value (descriptions, schemas) is skipped by serde_json without being built. An
//! object remembers its first keys and how many it has, for messages about it.

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

use super::layout::{JsonView, Kind};

/// The keys a tool name can sit under, in any format read, and where an MCP tool says it needs
/// MCP tasks (`execution.taskSupport`, which decides whether the runtime withholds it): the
/// only ones [`Json`] keeps.
const KEPT_KEYS: [&str; 10] = [
    "name",
    "type",
    "function",
    "toolSpec",
    "tools",
    "servers",
    "server",
    "result",
    "execution",
    "taskSupport",
];

/// How many key names an [`Object`] remembers for messages.
const KEYS_SHOWN: usize = 8;

/// A JSON value reduced to what tool names need: strings and structure under [`KEPT_KEYS`];
/// numbers and booleans only as their kind.
#[derive(Debug)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool,
    /// Any number.
    Number,
    /// A string, kept.
    String(String),
    /// An array, every element kept.
    Array(Vec<Json>),
    /// An object, only its [`KEPT_KEYS`] members kept.
    Object(Object),
}

impl JsonView for Json {
    fn kind(&self) -> Kind {
        match self {
            Json::Null => Kind::Null,
            Json::Bool => Kind::Boolean,
            Json::Number => Kind::Number,
            Json::String(_) => Kind::String,
            Json::Array(_) => Kind::Array,
            Json::Object(_) => Kind::Object,
        }
    }
    fn member(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(object) => object.get(key),
            _ => None,
        }
    }
    fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(text) => Some(text),
            _ => None,
        }
    }
}

/// A JSON object: its kept members, the names of its first keys and how many keys it has.
#[derive(Debug, Default)]
pub struct Object {
    /// The members under [`KEPT_KEYS`], in order.
    kept: Vec<(&'static str, Json)>,
    /// The first [`KEYS_SHOWN`] keys, for messages.
    first_keys: Vec<String>,
    /// How many members the object has.
    len: usize,
}

impl Object {
    /// The member `key` (the last one, as serde_json does, if the key is repeated).
    pub fn get(&self, key: &str) -> Option<&Json> {
        self.kept
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v)
    }

    /// `keys `a`, `b``, at most [`KEYS_SHOWN`] of them, for messages.
    pub fn describe_keys(&self) -> String {
        if self.len == 0 {
            return "no keys".to_owned();
        }
        let mut keys: Vec<String> = self.first_keys.iter().map(|k| format!("`{k}`")).collect();
        if self.len > self.first_keys.len() {
            keys.push(format!("and {} more", self.len - self.first_keys.len()));
        }
        format!("keys {}", keys.join(", "))
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Json, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

/// Builds a [`Json`] from any JSON value.
struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }
    fn visit_bool<E>(self, _: bool) -> Result<Json, E> {
        Ok(Json::Bool)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Json, E> {
        Ok(Json::Number)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Json, E> {
        Ok(Json::Number)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Json, E> {
        Ok(Json::Number)
    }
    fn visit_str<E>(self, s: &str) -> Result<Json, E> {
        Ok(Json::String(s.to_owned()))
    }
    fn visit_string<E>(self, s: String) -> Result<Json, E> {
        Ok(Json::String(s))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut object = Object::default();
        while let Some(key) = map.next_key_seed(KeySeed {
            remember: object.len < KEYS_SHOWN,
        })? {
            object.len += 1;
            if let Some(text) = key.text {
                object.first_keys.push(text);
            }
            match key.kept {
                Some(kept) => object.kept.push((kept, map.next_value()?)),
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Json::Object(object))
    }
}

/// An object key: which kept key it is, and its text if the object still remembers keys.
struct Key {
    /// The kept key it is, if it is one.
    kept: Option<&'static str>,
    /// Its text, while the object remembers keys.
    text: Option<String>,
}

/// Reads one object key without allocating unless its text is remembered.
struct KeySeed {
    /// Whether to keep the key's text.
    remember: bool,
}

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Key;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Key, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object key")
    }
    fn visit_str<E>(self, key: &str) -> Result<Key, E> {
        Ok(Key {
            kept: KEPT_KEYS.iter().copied().find(|k| *k == key),
            text: self.remember.then(|| key.to_owned()),
        })
    }
}
