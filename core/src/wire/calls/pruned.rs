//! A response body read from its text as a `Value` of only the members its calls are read from
//! (each format says which, a [`Keep`] beside its parser): the rest of the body is read and
//! checked exactly as `serde_json::from_str::<Value>` reads it, but not kept. The text of a
//! reply, its reasoning, its usage and its signatures are not copied into strings and maps only
//! to be dropped. It is the fallback of the direct read (`direct.rs`), which reads the calls
//! themselves and gives up on anything it does not mirror exactly; its skipping is shared.
//!
//! Policy: the same body is refused the same way. Everything is read through `serde_json`'s own
//! `deserialize_any`, as `Value` is (its numbers parsed and range-checked, its strings
//! unescaped and checked, its depth counted), and every visitor here takes any JSON value, so
//! the only errors are `serde_json`'s, at the same byte, with the same message. What is kept is
//! built as `Value` builds it (a repeated key: the last one wins). A member the format reads is
//! kept whatever type it has, and a value where an object or an array was expected keeps its
//! type (not its contents), so the format's parser finds the same faults at the same pointers
//! in the pruned body as in the whole one. Two `serde_json` behaviours are not imitated but
//! handed to `from_str::<Value>` itself: a build with `arbitrary_precision` (a number is then a
//! map of its text), and an object whose first key is `serde_json`'s raw-value token (with the
//! `raw_value` feature, which this crate turns on, `Value` reads such an object as the JSON of
//! its string).

use std::cell::Cell;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::{Map, Number, Value};

use crate::wire::json_len::holds_number_text;

/// What of a value a format's parser reads.
#[derive(Debug)]
pub(crate) enum Keep {
    /// All of it.
    All,
    /// Of an object, these members (each as its `Keep` says); of another value, its type.
    Members(&'static [(&'static str, Keep)]),
    /// Of an array, every item (as the `Keep` says); of another value, its type.
    Items(&'static Keep),
}

/// The first key by which `Value` reads an object as the JSON text of its one string member,
/// with `serde_json`'s `raw_value` feature (serde_json 1.0 `raw::TOKEN`, read by
/// `value::de::KeyClassifier`). A body that holds it is read as a whole `Value`.
pub(crate) const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

/// `text` as `serde_json::from_str::<Value>` reads it, with only what `keep` keeps; the same
/// error where that refuses it.
pub(crate) fn from_str(text: &str, keep: &Keep) -> serde_json::Result<Value> {
    if holds_number_text() {
        return serde_json::from_str(text);
    }
    let read = read(serde_json::Deserializer::from_str(text), keep);
    read.unwrap_or_else(|| serde_json::from_str(text))
}

/// `bytes` as `serde_json::from_slice::<Value>` reads them, with only what `keep` keeps.
pub(crate) fn from_slice(bytes: &[u8], keep: &Keep) -> serde_json::Result<Value> {
    if holds_number_text() {
        return serde_json::from_slice(bytes);
    }
    let read = read(serde_json::Deserializer::from_slice(bytes), keep);
    read.unwrap_or_else(|| serde_json::from_slice(bytes))
}

/// The pruned read of one whole text (nothing but whitespace after its value), or `None` when
/// it met the raw-value token, for the caller to read the text whole instead.
fn read<'de, R: serde_json::de::Read<'de>>(
    mut deserializer: serde_json::Deserializer<R>,
    keep: &Keep,
) -> Option<serde_json::Result<Value>> {
    let met_token = Cell::new(false);
    let read = Pruned {
        keep,
        met_token: &met_token,
    }
    .deserialize(&mut deserializer)
    .and_then(|value| deserializer.end().map(|()| value));
    (!met_token.get()).then_some(read)
}

/// The error that stops a read at the raw-value token, for [`from_str`] to read the body
/// whole instead.
fn token_met<E: serde::de::Error>(met_token: &Cell<bool>) -> E {
    met_token.set(true);
    E::custom("the raw-value token")
}

/// A value, kept as `keep` says.
#[derive(Clone, Copy)]
struct Pruned<'k> {
    keep: &'k Keep,
    met_token: &'k Cell<bool>,
}

impl<'de> DeserializeSeed<'de> for Pruned<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        match self.keep {
            Keep::All => Value::deserialize(deserializer),
            _ => deserializer.deserialize_any(self),
        }
    }
}

impl<'de> Visitor<'de> for Pruned<'_> {
    type Value = Value;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        Ok(Number::from_f64(value).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_owned()))
    }

    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        self.deserialize(deserializer)
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Value, A::Error> {
        let Keep::Items(keep) = self.keep else {
            let skip = Skip(self.met_token);
            while items.next_element_seed(skip)?.is_some() {}
            return Ok(Value::Array(Vec::new()));
        };
        let item = Pruned { keep, ..self };
        let mut kept = Vec::new();
        while let Some(value) = items.next_element_seed(item)? {
            kept.push(value);
        }
        Ok(Value::Array(kept))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<Value, A::Error> {
        let skip = Skip(self.met_token);
        let mut kept = Map::new();
        let mut first = true;
        while let Some(key) = members.next_key_seed(KeyName)? {
            if first && key == RAW_VALUE_TOKEN {
                return Err(token_met(self.met_token));
            }
            first = false;
            let wanted = match self.keep {
                Keep::Members(wanted) => wanted.iter().find(|(name, _)| *name == key),
                _ => None,
            };
            match wanted {
                Some((_, keep)) => {
                    let value = members.next_value_seed(Pruned { keep, ..self })?;
                    kept.insert(key.into_owned(), value);
                }
                None => members.next_value_seed(skip)?,
            }
        }
        Ok(Value::Object(kept))
    }
}

/// An object's key, read as `Value` reads its first key (`deserialize_str`), borrowed where it
/// has no escape.
#[derive(Clone, Copy)]
pub(crate) struct KeyName;

impl<'de> DeserializeSeed<'de> for KeyName {
    type Value = std::borrow::Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeyName {
    type Value = std::borrow::Cow<'de, str>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a string key")
    }

    fn visit_borrowed_str<E>(self, key: &'de str) -> Result<Self::Value, E> {
        Ok(std::borrow::Cow::Borrowed(key))
    }

    fn visit_str<E>(self, key: &str) -> Result<Self::Value, E> {
        Ok(std::borrow::Cow::Owned(key.to_owned()))
    }
}

/// A value read and checked as `Value` reads it, and not kept.
#[derive(Clone, Copy)]
struct Skip<'k>(&'k Cell<bool>);

/// A value read and checked as [`Skip`] reads it, for a reader that gives up at any error
/// (`calls::direct`): the raw-value token is an error, and nobody asks why.
#[derive(Clone, Copy)]
pub(crate) struct SkipValue;

impl<'de> DeserializeSeed<'de> for SkipValue {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        Skip(&Cell::new(false)).deserialize(deserializer)
    }
}

impl<'de> DeserializeSeed<'de> for Skip<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

/// A value read and checked as [`SkipValue`] reads it, telling whether it is not `null` (all a
/// parser asks of Gemini's `promptFeedback`).
#[derive(Clone, Copy)]
pub(crate) struct NotNull;

impl<'de> DeserializeSeed<'de> for NotNull {
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for NotNull {
    type Value = bool;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<bool, E> {
        Ok(true)
    }

    fn visit_i64<E>(self, _: i64) -> Result<bool, E> {
        Ok(true)
    }

    fn visit_u64<E>(self, _: u64) -> Result<bool, E> {
        Ok(true)
    }

    fn visit_f64<E>(self, _: f64) -> Result<bool, E> {
        Ok(true)
    }

    fn visit_str<E>(self, _: &str) -> Result<bool, E> {
        Ok(true)
    }

    fn visit_unit<E>(self) -> Result<bool, E> {
        Ok(false)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, items: A) -> Result<bool, A::Error> {
        Skip(&Cell::new(false)).visit_seq(items).map(|()| true)
    }

    fn visit_map<A: MapAccess<'de>>(self, members: A) -> Result<bool, A::Error> {
        Skip(&Cell::new(false)).visit_map(members).map(|()| true)
    }
}

impl<'de> Visitor<'de> for Skip<'_> {
    type Value = ();

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_none<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        self.deserialize(deserializer)
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<(), A::Error> {
        while items.next_element_seed(self)?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<(), A::Error> {
        let mut first = true;
        while let Some(key) = members.next_key_seed(KeyName)? {
            if first && key == RAW_VALUE_TOKEN {
                return Err(token_met(self.0));
            }
            first = false;
            members.next_value_seed(self)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::{json, Value};

    use super::{from_slice, from_str, Keep};

    const KEEP: Keep = Keep::Members(&[
        (
            "a",
            Keep::Items(&Keep::Members(&[
                ("b", Keep::All),
                ("c", Keep::Members(&[])),
            ])),
        ),
        ("d", Keep::All),
    ]);

    /// `value` with only what `KEEP` keeps, from the whole `Value`.
    fn pruned(value: &Value, keep: &Keep) -> Value {
        match (keep, value) {
            (Keep::All, value) => value.clone(),
            (Keep::Members(wanted), Value::Object(map)) => Value::Object(
                map.iter()
                    .filter_map(|(key, value)| {
                        let (_, keep) = wanted.iter().find(|(name, _)| name == key)?;
                        Some((key.clone(), pruned(value, keep)))
                    })
                    .collect(),
            ),
            (Keep::Items(keep), Value::Array(items)) => {
                Value::Array(items.iter().map(|item| pruned(item, keep)).collect())
            }
            (_, Value::Object(_)) => json!({}),
            (_, Value::Array(_)) => json!([]),
            (_, scalar) => scalar.clone(),
        }
    }

    fn same_as_value(text: &str) {
        let whole = serde_json::from_str::<Value>(text);
        let read = from_str(text, &KEEP);
        match (&whole, &read) {
            // A body with the raw-value token is read whole.
            (Ok(whole), Ok(read)) if whole == read => {}
            (Ok(whole), Ok(read)) => assert_eq!(&pruned(whole, &KEEP), read, "{text}"),
            (Err(whole), Err(read)) => assert_eq!(whole.to_string(), read.to_string(), "{text}"),
            _ => panic!("{text}: {whole:?} but {read:?}"),
        }
        let whole = serde_json::from_slice::<Value>(text.as_bytes());
        let read = from_slice(text.as_bytes(), &KEEP);
        match (&whole, &read) {
            // A body with the raw-value token is read whole.
            (Ok(whole), Ok(read)) if whole == read => {}
            (Ok(whole), Ok(read)) => assert_eq!(&pruned(whole, &KEEP), read, "{text}"),
            (Err(whole), Err(read)) => assert_eq!(whole.to_string(), read.to_string(), "{text}"),
            _ => panic!("{text}: {whole:?} but {read:?}"),
        }
    }

    #[test]
    fn bodies_are_read_and_refused_as_value_reads_them() {
        for text in [
            r#"{"a": [{"b": 1, "c": {"x": [1, 2]}, "e": "skipped"}, 3, "s", null], "d": {"k": 1.5}}"#,
            r#"{"a": {"b": 1}, "d": [1], "z": {"deep": [[[{"q": "\u00e9\n"}]]]}}"#,
            r#"{"a": [{"b": 1, "b": 2, "c": 5}], "a": [], "\u0064": "escaped key"}"#,
            r#"[1, 2, {"a": 1}]"#,
            r#""a string""#,
            r#"{"z": 1e400}"#,
            r#"{"z": "\ud800"}"#,
            r#"{"z": "\x"}"#,
            r#"{"z": [1, 2,]}"#,
            r#"{"z": 1} trailing"#,
            r#"{"a": [{"b": "#,
            "{\"z\": \"ctrl\u{1}\"}",
            r#"{"z": {"$serde_json::private::RawValue": "[1, 2]"}, "a": [{"b": 1}]}"#,
            r#"{"$serde_json::private::RawValue": "{\"a\": 1}"}"#,
            r#"{"z": {"$serde_json::private::RawValue": 5}}"#,
            r#"{"z": {"k": 1, "$serde_json::private::RawValue": "[1]"}}"#,
        ] {
            same_as_value(text);
        }
        let deep = format!("{{\"z\": {}{}}}", "[".repeat(200), "]".repeat(200));
        same_as_value(&deep);
        let deep = format!(
            "{{\"a\": [{{\"c\": {}{}}}]}}",
            "[".repeat(126),
            "]".repeat(126)
        );
        same_as_value(&deep);
    }

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            "[a-e\"\\\\é]{0,6}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 32, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
                prop::collection::btree_map("[a-e]", inner, 0..5)
                    .prop_map(|map| Value::Object(map.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// Any JSON text, whole or cut short anywhere, is read as `Value` reads it.
        #[test]
        fn any_text_is_read_as_value_reads_it(value in value(), cut in 0usize..400) {
            let text = serde_json::to_string(&value).unwrap();
            same_as_value(&text);
            let mut end = cut.min(text.len());
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            same_as_value(&text[..end]);
        }
    }
}
