//! Reading a provider's JSON by the shape its format gives it. Policy: absent and `null` are
//! the same (the SDKs' optional fields serialize either way); any other value of the wrong type
//! is a [`Fault::Shape`] naming its pointer, built only when it fails (a parent's pointer is
//! anything that displays as it, so a caller need not build it before then).

use std::fmt::Display;

use serde_json::{Map, Value};

use super::error::Fault;

/// The pointer of a member of the value at a pointer (`{0}/{1}`), written only if a fault
/// names it.
#[derive(Clone, Copy)]
pub(crate) struct Under<'a>(pub(crate) &'a str, pub(crate) &'static str);

impl Display for Under<'_> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "{}/{}", self.0, self.1)
    }
}

/// `value` as an object, or a fault at `pointer`.
pub(crate) fn object<'v>(
    value: &'v Value,
    pointer: &str,
    expected: &'static str,
) -> Result<&'v Map<String, Value>, Fault> {
    value
        .as_object()
        .ok_or_else(|| Fault::shape(pointer, expected))
}

/// The member `key` of `object`, `None` when absent or `null`.
pub(crate) fn member<'v>(object: &'v Map<String, Value>, key: &str) -> Option<&'v Value> {
    object.get(key).filter(|value| !value.is_null())
}

/// The member `key` as an object, if present.
pub(crate) fn opt_object<'v>(
    object: &'v Map<String, Value>,
    key: &str,
    parent: impl Display,
) -> Result<Option<&'v Map<String, Value>>, Fault> {
    match member(object, key) {
        None => Ok(None),
        Some(Value::Object(inner)) => Ok(Some(inner)),
        Some(_) => Err(Fault::shape(format!("{parent}/{key}"), "an object")),
    }
}

/// The member `key` as an array, if present.
pub(crate) fn opt_array<'v>(
    object: &'v Map<String, Value>,
    key: &str,
    parent: impl Display,
) -> Result<Option<&'v [Value]>, Fault> {
    match member(object, key) {
        None => Ok(None),
        Some(Value::Array(items)) => Ok(Some(items)),
        Some(_) => Err(Fault::shape(format!("{parent}/{key}"), "an array")),
    }
}

/// The member `key` as an array, which the format requires.
pub(crate) fn array<'v>(
    object: &'v Map<String, Value>,
    key: &str,
    parent: impl Display,
) -> Result<&'v [Value], Fault> {
    opt_array(object, key, &parent)?
        .ok_or_else(|| Fault::shape(format!("{parent}/{key}"), "an array"))
}

/// The member `key` as a string, if present.
pub(crate) fn opt_str<'v>(
    object: &'v Map<String, Value>,
    key: &str,
    parent: impl Display,
) -> Result<Option<&'v str>, Fault> {
    match member(object, key) {
        None => Ok(None),
        Some(Value::String(text)) => Ok(Some(text)),
        Some(_) => Err(Fault::shape(format!("{parent}/{key}"), "a string")),
    }
}

/// The member `key` as an index (a non-negative integer), if present.
pub(crate) fn opt_index(
    object: &Map<String, Value>,
    key: &str,
    parent: impl Display,
) -> Result<Option<u64>, Fault> {
    match member(object, key) {
        None => Ok(None),
        Some(value) => value
            .as_u64()
            .map(Some)
            .ok_or_else(|| Fault::shape(format!("{parent}/{key}"), "a non-negative integer")),
    }
}

/// The member `key` as an index, which the format requires.
pub(crate) fn index(
    object: &Map<String, Value>,
    key: &str,
    parent: impl Display,
) -> Result<u64, Fault> {
    opt_index(object, key, &parent)?
        .ok_or_else(|| Fault::shape(format!("{parent}/{key}"), "a non-negative integer"))
}

/// A call's id, which every format but Gemini requires (the answer names the call by it):
/// `None` when absent or empty, for `CallSink::add_with_id` to refuse.
pub(crate) fn opt_id(
    object: &Map<String, Value>,
    key: &str,
    parent: impl Display,
) -> Result<Option<String>, Fault> {
    Ok(opt_str(object, key, parent)?
        .filter(|id| !id.is_empty())
        .map(str::to_owned))
}
