//! A response body read straight into its calls, with no `Value` between: each format's reader
//! (a `DeserializeSeed` beside its parser, `DirectRead`) walks the text once, keeps only the
//! calls' ids, names and arguments, each built once as the call's own, and skips the rest as
//! the pruned read does. This module holds what the readers share; `CallParser` tries it first
//! and falls back to the pruned read (`pruned.rs`) and the format's parser.
//!
//! Policy: the read gives calls only when they are certainly the ones the pruned read and the
//! parser give, or it gives up (`None`) and that path runs from the start and decides, with its
//! errors: any error of `serde_json`, a member the parser reads given twice, a member of a type
//! the parser would refuse or that this read does not mirror, the raw-value token,
//! `arbitrary_precision`, a call the sink refuses (no name, no id, an id used before). Giving up
//! is always right, only slower; so every value is still read through `deserialize_any`, as
//! `Value` reads it (the same numbers, strings and depth refused), never skipped unchecked
//! (`IgnoredAny` counts no depth).

use std::borrow::Cow;
use std::fmt;

use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{DeserializeSeed, Deserializer, Error, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::{Number, Value};

use super::arguments::from_owned_value_within;
use super::pruned::{KeyName, RAW_VALUE_TOKEN};
use super::tool_call::{Arguments, ArgumentsError, ToolCall};
use crate::wire::json_len::holds_number_text;

pub(crate) use super::pruned::{NotNull, SkipValue};

/// A body as the caller holds it: text (`from_str`: UTF-8 already) or bytes (`from_slice`).
#[derive(Clone, Copy, Debug)]
pub(crate) enum BodyText<'b> {
    Str(&'b str),
    Slice(&'b [u8]),
}

/// A format's direct reader of one body, made with the arguments limit: the calls of the
/// whole value it is given, or an error where it gives up.
pub(crate) trait DirectRead: for<'de> DeserializeSeed<'de, Value = Vec<ToolCall>> {}

impl<T: for<'de> DeserializeSeed<'de, Value = Vec<ToolCall>>> DirectRead for T {}

/// The calls `reader` reads of `body`, or `None` where it gives up (the caller then runs the
/// pruned read, which decides).
pub(crate) fn read(body: BodyText<'_>, reader: impl DirectRead) -> Option<Vec<ToolCall>> {
    // A number is then a map of its text: not mirrored.
    if holds_number_text() {
        return None;
    }
    match body {
        BodyText::Str(text) => whole(serde_json::Deserializer::from_str(text), reader),
        BodyText::Slice(bytes) => whole(serde_json::Deserializer::from_slice(bytes), reader),
    }
}

/// The read of one whole text: nothing but whitespace after its value, as `from_str` requires.
fn whole<'de, R: serde_json::de::Read<'de>>(
    mut deserializer: serde_json::Deserializer<R>,
    reader: impl DeserializeSeed<'de, Value = Vec<ToolCall>>,
) -> Option<Vec<ToolCall>> {
    let calls = reader.deserialize(&mut deserializer).ok()?;
    deserializer.end().ok()?;
    Some(calls)
}

/// The error that gives up: its message is never read.
pub(crate) fn give_up<E: Error>() -> E {
    E::custom("the direct read gives up")
}

/// The next key of an object, borrowed where it has no escape; the raw-value token gives up
/// (`Value` would read its object as raw JSON text).
pub(crate) fn next_key<'de, A: MapAccess<'de>>(
    members: &mut A,
) -> Result<Option<Cow<'de, str>>, A::Error> {
    match members.next_key_seed(KeyName)? {
        Some(key) if key == RAW_VALUE_TOKEN => Err(give_up()),
        key => Ok(key),
    }
}

/// The members of one object a reader has met: a second of one gives up (`Value` keeps the
/// last one; not mirrored).
#[derive(Default)]
pub(crate) struct Seen(u8);

impl Seen {
    /// Marks member `bit` (0 to 7) met, or gives up if it was.
    pub(crate) fn first<E: Error>(&mut self, bit: u8) -> Result<(), E> {
        let mask = 1 << bit;
        if self.0 & mask != 0 {
            return Err(give_up());
        }
        self.0 |= mask;
        Ok(())
    }
}

/// A member that must be a string or `null` (absent): the string, owned; any other type gives
/// up (the parsers' `opt_str` refuses it).
pub(crate) struct OptString;

impl<'de> DeserializeSeed<'de> for OptString {
    type Value = Option<String>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for OptString {
    type Value = Option<String>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a string or null")
    }

    fn visit_str<E>(self, text: &str) -> Result<Self::Value, E> {
        Ok(Some(text.to_owned()))
    }

    fn visit_string<E>(self, text: String) -> Result<Self::Value, E> {
        Ok(Some(text))
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
}

/// A member that must be a string or `null`: whether it is this string (`None` for `null`),
/// without keeping it.
pub(crate) struct IsStr(pub(crate) &'static str);

impl<'de> DeserializeSeed<'de> for IsStr {
    type Value = Option<bool>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for IsStr {
    type Value = Option<bool>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a string or null")
    }

    fn visit_str<E>(self, text: &str) -> Result<Self::Value, E> {
        Ok(Some(text == self.0))
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
}

/// A member that must be an index (a non-negative integer, as `Value::as_u64` reads one) or
/// `null`; anything else gives up (`opt_index` refuses it).
pub(crate) struct OptIndex;

impl<'de> DeserializeSeed<'de> for OptIndex {
    type Value = Option<u64>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for OptIndex {
    type Value = Option<u64>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a non-negative integer or null")
    }

    fn visit_u64<E>(self, index: u64) -> Result<Self::Value, E> {
        Ok(Some(index))
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
}

/// An object read whole as `Value` reads it (`Keep::All`), for a visitor that reads one type
/// itself and takes any other as its `Value`.
pub(crate) fn value_of_map<'de, A: MapAccess<'de>>(members: A) -> Result<Value, A::Error> {
    Value::deserialize(MapAccessDeserializer::new(members))
}

/// [`value_of_map`] of an array.
pub(crate) fn value_of_seq<'de, A: SeqAccess<'de>>(items: A) -> Result<Value, A::Error> {
    Value::deserialize(SeqAccessDeserializer::new(items))
}

/// A float as `Value` keeps it.
pub(crate) fn value_of_f64(number: f64) -> Value {
    Number::from_f64(number).map_or(Value::Null, Value::Number)
}

/// The arguments of Messages API `input`, Converse `input` and Gemini `args`: the value read as
/// `Value` reads it, then as the pruned path's sink takes it (an object within the limit moved
/// into the call, any other value that call's error, `null` none).
pub(crate) struct ObjectArguments(pub(crate) usize);

impl<'de> DeserializeSeed<'de> for ObjectArguments {
    type Value = Result<Arguments, ArgumentsError>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        Ok(from_owned_value_within(
            Value::deserialize(deserializer)?,
            self.0,
        ))
    }
}

/// A call read but for its pointer, which the list holding it writes (it knows the position).
pub(crate) struct Unplaced {
    pub(crate) id: Option<String>,
    pub(crate) name: String,
    pub(crate) arguments: Result<Arguments, ArgumentsError>,
}

impl Unplaced {
    /// The call, at `pointer`.
    pub(crate) fn at(self, pointer: String) -> ToolCall {
        ToolCall::new(self.id, self.name, self.arguments, pointer)
    }
}

/// A call's pointer: `prefix` then `position`, written without `format!`'s machinery (one per
/// call, and a body's pointers are most of what its calls allocate besides their arguments).
pub(crate) fn pointer(prefix: &str, position: usize) -> String {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = position;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    let mut pointer = String::with_capacity(prefix.len() + digits.len() - at);
    pointer.push_str(prefix);
    pointer.extend(digits[at..].iter().map(|&digit| char::from(digit)));
    pointer
}

#[cfg(test)]
mod tests;
