//! Where written messages go: each format's writer serializes borrowed values (the outputs, the
//! texts, the images' base64) straight into [`Messages`], as `Value`s or as raw JSON text,
//! from the same `Serialize` (no `json!` copy per level).
//!
//! Every writer emits an object's keys in sorted order: what `serde_json` writes for a `Value`
//! (its `Map` is a `BTreeMap` without the `preserve_order` feature), so a raw message is the
//! same text as `to_string` of the same message as a `Value`, byte for byte.

use serde::ser::{Serialize, SerializeSeq, Serializer};
use serde_json::value::RawValue;
use serde_json::Value;

/// A sink of written messages.
pub(crate) trait Out {
    fn message<T: Serialize>(&mut self, message: &T);
}

/// Where the answers to one response's calls go: as `Value`s
/// ([`WireAnswers::messages`](super::WireAnswers::messages)) or as raw JSON text
/// ([`RawAnswers::messages`](super::RawAnswers::messages)). One type for both, so each API's
/// writer is one method of its [`LlmApi`](crate::wire::api::LlmApi) (a trait object takes no
/// generic sink).
#[derive(Default)]
pub(crate) struct Messages {
    /// Whether the messages are wanted as raw text (else as `Value`s).
    pub(crate) raw: bool,
    pub(crate) values: Vec<Value>,
    pub(crate) raws: Vec<Box<RawValue>>,
}

impl Out for Messages {
    fn message<T: Serialize>(&mut self, message: &T) {
        if self.raw {
            // Infallible: writing to a `Vec` cannot fail, every key is a string, every number
            // one a `Value` already held. The fallback is valid JSON.
            let raw = serde_json::value::to_raw_value(message).unwrap_or_default();
            self.raws.push(raw);
        } else {
            // Infallible as above.
            self.values
                .push(serde_json::to_value(message).unwrap_or(Value::Null));
        }
    }
}

/// A JSON value as the text a format carries it in (`tools::json_text`): a string is its own
/// text, any other value its compact JSON, rendered once. Rendered to a `String` and then
/// serialized, not streamed through `collect_str`: `Value`'s `Display` goes through
/// `fmt::Write` a token at a time, which measured 2.5x the render (docs/performance.md).
pub(crate) struct JsonText<'a>(pub(crate) &'a Value);

impl Serialize for JsonText<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::String(text) => serializer.serialize_str(text),
            // `serde_json::to_string`, not `Value::to_string` (the `Display` path above).
            other => serializer.serialize_str(&serde_json::to_string(other).unwrap_or_default()),
        }
    }
}

/// `{"text": …, "type": …}`: the text block of the Messages API (`text`), Chat Completions
/// (`text`) and the Responses API (`input_text`).
#[derive(serde::Serialize)]
pub(crate) struct TypedText<'a> {
    pub(crate) text: &'a str,
    #[serde(rename = "type")]
    pub(crate) kind: &'static str,
}

/// A sequence serialized from an iterator, without collecting it first.
pub(crate) struct Seq<F>(pub(crate) F);

impl<F, I> Serialize for Seq<F>
where
    F: Fn() -> I,
    I: Iterator,
    I::Item: Serialize,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(None)?;
        for item in (self.0)() {
            seq.serialize_element(&item)?;
        }
        seq.end()
    }
}
