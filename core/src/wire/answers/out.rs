//! Where written messages go: each format's writer serializes borrowed values (the outputs, the
//! texts, the images' base64) straight into [`Messages`], as `Value`s or as raw JSON text,
//! from the same `Serialize` (no `json!` copy per level).
//!
//! Every writer emits an object's keys in sorted order: what `serde_json` writes for a `Value`
//! (its `Map` is a `BTreeMap` without the `preserve_order` feature), so a raw message is the
//! same text as `to_string` of the same message as a `Value`, byte for byte.

use std::io;

use serde::ser::{Serialize, SerializeSeq, Serializer};
use serde_json::ser::Formatter;
use serde_json::value::RawValue;
use serde_json::Value;

use super::json_literal::{write_json_text_literal, write_json_value};
use super::reply::{JsonString, Payload, Reply};

/// A sink of written messages.
pub(crate) trait Out {
    fn message<T: Serialize>(&mut self, message: &T);
}

/// Where the answers to one response's calls go: as `Value`s
/// ([`WireAnswers::messages`](super::WireAnswers::messages)) or as raw JSON text
/// ([`RawAnswers::messages`](super::RawAnswers::messages)). One type for both, so each API's
/// writer is one method of its [`LlmApi`](crate::wire::api::LlmApi) (a trait object takes no
/// generic sink).
pub(crate) struct Messages<'r> {
    /// Whether the messages are wanted as raw text (else as `Value`s).
    raw: bool,
    pub(crate) values: Vec<Value>,
    pub(crate) raws: Vec<Box<RawValue>>,
    /// Raw: whether a message failed, its output rendered in place passing its limit (or,
    /// Gemini, holding a `$ref` key)
    /// ([`JsonString::InPlace`]): the answers are then written again.
    pub(crate) failed: bool,
    /// Raw: the room a message's buffer starts with.
    capacity: usize,
    /// Raw: the replies, whose outputs [`Splice`] renders in place.
    replies: &'r [Reply<'r>],
}

impl<'r> Messages<'r> {
    /// A sink of messages as raw text (`raw`) or as `Value`s, for the messages of `replies`.
    pub(crate) fn new(raw: bool, replies: &'r [Reply<'r>]) -> Messages<'r> {
        Messages {
            raw,
            values: Vec::new(),
            raws: Vec::new(),
            failed: false,
            // A few small messages' or a kilobyte-sized output's.
            capacity: 1024,
            replies,
        }
    }
}

impl Out for Messages<'_> {
    fn message<T: Serialize>(&mut self, message: &T) {
        if self.raw {
            // Each message its own buffer, which becomes its text (shrunk in place, not
            // copied: a copy, and growing a shared buffer, each cost an instruction a byte),
            // sized as the last message was.
            let mut bytes = Vec::with_capacity(self.capacity);
            let mut serializer = serde_json::Serializer::with_formatter(
                &mut bytes,
                Splice {
                    replies: self.replies,
                },
            );
            // Fails only where `Splice` refuses an output past its limit or (Gemini) holding a
            // `$ref` key: writing to a `Vec`
            // cannot fail, every key is a string, every number one a `Value` already held, and
            // every `u128` one `Splice` renders. The fallback is valid JSON.
            let written = message.serialize(&mut serializer).is_ok();
            // Only an output `Splice` refused fails a message (see above).
            self.failed |= !written;
            // At most a megabyte: one huge message does not make every next one's buffer huge.
            self.capacity = (bytes.len() + bytes.len() / 4).min(1 << 20);
            let raw = if written {
                // Checked in debug builds (every test of raw answers) only: the check is a
                // pass over the message, an instruction a byte (5% of the baseline's turn with
                // kilobyte-sized outputs).
                debug_assert!(
                    std::str::from_utf8(&bytes).is_ok(),
                    "a raw message is UTF-8"
                );
                // SAFETY: the bytes are UTF-8: `serde_json`'s serializer writes a message's
                // strings as the `str`s they are (its escapes, punctuation, numbers, `true`,
                // `false` and `null` are ASCII), and so does `Splice` (its literals' escapes
                // are ASCII, their unescaped runs `str`s); `serde_json::to_string` itself takes
                // its bytes unchecked on the same ground. Tested: every raw message of the
                // tests (`core/tests/answers/written.rs`, whose property test writes any
                // `String` in every place of an output, and the oracle) passes the check above.
                let text = unsafe { String::from_utf8_unchecked(bytes) };
                // SAFETY: `text` is one well-formed JSON value with no whitespace around it:
                // what `serde_json`'s serializer wrote of one message through `Splice`, which
                // formats every token as `serde_json`'s compact formatter does (its default
                // methods) but a `u128`, for which it writes one well-formed JSON string
                // (`write_json_text_literal`) or value (`write_json_value`). Tested: every
                // format's raw messages are `to_string` of its `Value`s, byte for byte
                // (`core/tests/answers/written.rs`, the oracle), and debug builds parse each
                // (serde_json's `debug_assert!`). As for the literals: the checked
                // `from_string` would parse the message again.
                unsafe { RawValue::from_string_unchecked(text) }
            } else {
                // A failed message is never handed out: the turn is written again
                // (`write_to`), so its partial text is dropped unread.
                Box::<RawValue>::default()
            };
            self.raws.push(raw);
        } else {
            // Infallible as above.
            self.values
                .push(serde_json::to_value(message).unwrap_or(Value::Null));
        }
    }
}

/// `serde_json`'s compact formatting (the `Formatter` trait's default methods, as its
/// `CompactFormatter`), but for a `u128`: the index of the reply whose output is written
/// there, measured as it is written: as its JSON text in a JSON string literal
/// ([`JsonString::InPlace`]), or as it is ([`JsonValue`], [`Reply::in_place`]). No
/// message holds a `u128` of its own: their numbers are a `Value`'s, which `serde_json` writes as
/// `u64`, `i64`, `f64` or (`arbitrary_precision`) their text, never through `write_u128`. And
/// no writer uses a [`JsonValue`] or [`JsonString::InPlace`] as a map key: `serde_json` would
/// quote the key around `write_u128`, and a literal inside those quotes is not JSON.
pub(crate) struct Splice<'r> {
    replies: &'r [Reply<'r>],
}

impl Formatter for Splice<'_> {
    fn write_u128<W: ?Sized + io::Write>(&mut self, writer: &mut W, index: u128) -> io::Result<()> {
        let reply = usize::try_from(index & u128::from(u64::MAX))
            .ok()
            .and_then(|index| self.replies.get(index));
        let refuse_ref = index & REFUSE_REF != 0;
        match reply.map(|reply| (&reply.payload, reply.in_place)) {
            Some((Payload::JsonText(JsonString::InPlace { value, most, .. }), _)) => {
                write_json_text_literal(value, writer, *most).map(drop)
            }
            Some((Payload::Value(value), Some(most))) => {
                write_json_value(value, writer, most, refuse_ref)
            }
            _ => Err(io::Error::other("no output to splice here")),
        }
    }
}

/// The bit of a `u128` for [`Splice`] that refuses a `$ref` key in the output (its low 64 bits
/// are the reply's index).
const REFUSE_REF: u128 = 1 << 64;

/// A JSON output a format carries as a JSON value: as it is, or, where the reply says so
/// ([`Reply::in_place`]), rendered in place by [`Splice`] (the `index`th reply's), measured as
/// it is written and, with `refuse_ref`, refused where an object has a `$ref` key.
pub(crate) struct JsonValue<'a> {
    pub(crate) value: &'a Value,
    pub(crate) index: usize,
    pub(crate) in_place: bool,
    pub(crate) refuse_ref: bool,
}

impl<'a> JsonValue<'a> {
    /// `reply`'s JSON output `value`, the `index`th reply's.
    pub(crate) fn of(reply: &Reply<'_>, value: &'a Value, index: usize) -> JsonValue<'a> {
        JsonValue {
            value,
            index,
            in_place: reply.in_place.is_some(),
            refuse_ref: false,
        }
    }
}

impl Serialize for JsonValue<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.in_place {
            let refuse_ref = if self.refuse_ref { REFUSE_REF } else { 0 };
            serializer.serialize_u128(self.index as u128 | refuse_ref)
        } else {
            self.value.serialize(serializer)
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
