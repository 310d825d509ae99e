//! One answer made ready for any format: the output's blocks as parts a format can write (text,
//! an image the format takes), everything else said in words, within the size limits.
//!
//! Policy: no provider facts here; a format says only which images it takes. Nothing is left
//! out silently: each block a format cannot carry becomes a note the model reads, naming its
//! type, MIME type and size, and is recorded in the answers' `notes`; never base64 as text.

use std::borrow::Cow;

use serde::{Serialize, Serializer};
use serde_json::value::RawValue;
use serde_json::Value;

use super::json_literal::json_text_literal;
use super::{AnswerLimits, AnswerNote, NoteKind};
use crate::runtime::ToolAnswer;
use crate::tools::{json_text, ContentBlock, MediaBlock, ToolOutput};
use crate::wire::api::LlmApi;
use crate::wire::json_len::{json_len, json_len_bound};

/// One answer as a format writes it.
pub(crate) struct Reply<'a> {
    /// The call's id, verbatim (`None` only for a Gemini call without one).
    pub id: Option<&'a str>,
    /// The called name, verbatim.
    pub name: &'a str,
    /// What the answer carries to the model.
    pub payload: Payload<'a>,
    /// For a JSON object carried as a value ([`Payload::Value`]) in a raw message: the most
    /// its text may be, unmeasured so far. The format's writer has it written in place
    /// ([`JsonValue`](super::out::JsonValue)), measured as it is written; one past it fails
    /// the message, and the answers are written again with [`Render::Literal`], which
    /// measures it first.
    pub in_place: Option<usize>,
}

impl Reply<'_> {
    /// The call's id, or the empty string for a format whose calls always have one (the
    /// parsers refuse a call without an id in every format but Gemini, so only a hand-built
    /// answer can lack it).
    pub fn id_or_empty(&self) -> &str {
        self.id.unwrap_or("")
    }
}

/// What one answer carries to the model, ready for any format: an error, a JSON output (as a
/// value or as its text) or content parts. Not a response body: the body is the provider's.
pub(crate) enum Payload<'a> {
    /// The call did not run or complete: what the model reads about it.
    Error(String),
    /// A JSON output, whole (within the text limit).
    Value(&'a Value),
    /// A JSON output that is not a string, whole, rendered once as its JSON text: for a format
    /// that carries a JSON output only as text, so the text measured is the text written.
    JsonText(JsonString<'a>),
    /// Content blocks, as parts; `is_error` when the tool said so (MCP `isError`).
    Parts {
        parts: Vec<Part<'a>>,
        is_error: bool,
    },
}

impl Payload<'_> {
    /// Whether the model is told the call failed.
    pub fn is_error(&self) -> bool {
        match self {
            Payload::Error(_) => true,
            Payload::Value(_) | Payload::JsonText(_) => false,
            Payload::Parts { is_error, .. } => *is_error,
        }
    }
}

/// A JSON output's text, as a format that carries it as a JSON string writes it.
pub(crate) enum JsonString<'a> {
    /// The text (for messages as `Value`s, which hold it as a `String`).
    Text(String),
    /// The text as a JSON string literal, escaped as it was rendered (for raw messages, which
    /// splice it as it is: one pass over the output, not a render and then an escape).
    Literal(Box<RawValue>),
    /// The output, rendered as a JSON string literal straight into its raw message where the
    /// message's writer meets it ([`Splice`](super::out::Splice): the `index`th reply's
    /// output), measured as it is written: for raw messages only. A render that would pass
    /// `most` fails the message, and the answers are written again with
    /// [`Render::Literal`].
    InPlace {
        index: usize,
        value: &'a Value,
        most: usize,
    },
}

/// How a JSON output that a format carries as its text is made ready.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Render {
    /// Rendered to a `String` ([`JsonString::Text`]): for messages as `Value`s.
    Text,
    /// Rendered to its JSON string literal ([`JsonString::Literal`]), measured first: for raw
    /// messages of a turn where an output rendered in place passed its limit (or, Gemini, held
    /// a `$ref` key), written again this way so it is cut (carried as text) as in `Value`s.
    Literal,
    /// Rendered into its raw message as it is written ([`JsonString::InPlace`]).
    InPlace,
}

impl JsonString<'_> {
    /// The text itself.
    pub fn text(&self) -> Cow<'_, str> {
        match self {
            JsonString::Text(text) => Cow::Borrowed(text),
            // Not on any format's way (only the formats that carry JSON as a value read the
            // text back, and they get `Text`); read back rather than assumed.
            JsonString::Literal(literal) => {
                Cow::Owned(serde_json::from_str(literal.get()).unwrap_or_default())
            }
            JsonString::InPlace { value, .. } => {
                Cow::Owned(serde_json::to_string(value).unwrap_or_default())
            }
        }
    }
}

impl Serialize for JsonString<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            JsonString::Text(text) => serializer.serialize_str(text),
            JsonString::Literal(literal) => literal.serialize(serializer),
            // The raw messages' writer renders the `index`th reply's output where it meets
            // this `u128` (no message, and no `Value`, holds one: `Splice`).
            JsonString::InPlace { index, .. } => serializer.serialize_u128(*index as u128),
        }
    }
}

pub(crate) enum Part<'a> {
    Text(Cow<'a, str>),
    Image { mime_type: &'a str, data: &'a str },
}

/// What the model reads for an answer that has no content at all: our caution for every
/// format, and Converse's rule (an empty `content`, or an empty text block, is refused:
/// "text content blocks must be non-empty", NousResearch/hermes-agent PR #55093).
pub(crate) const NO_OUTPUT: &str = "(the tool returned no output)";

/// What the model reads for an answer whose text is empty or only whitespace, where the format
/// refuses such text (Converse).
pub(crate) const EMPTY_TEXT: &str = "(the tool returned empty text)";

/// Prepares `answer` (the `index`th of the response's calls) for `api`, which says the images
/// it takes and whether it carries a JSON output only as its text ([`Payload::JsonText`]), within
/// `limits`, recording what it could not carry in `notes`; `render`: how.
pub(crate) fn reply<'a>(
    answer: &'a ToolAnswer,
    index: usize,
    api: &dyn LlmApi,
    limits: &AnswerLimits,
    render: Render,
    notes: &mut Vec<AnswerNote>,
) -> Reply<'a> {
    let mut budget = Budget {
        index,
        text_left: limits.text_bytes,
        media_left: limits.media_bytes,
        limits: *limits,
        notes,
    };
    let takes_image = &|mime_type: &str| api.takes_image(mime_type);
    let renders_json = api.renders_json();
    let mut in_place = None;
    let payload = match &answer.result {
        Err(_) => {
            let text = answer.error_for_model().unwrap_or_default();
            Payload::Error(budget.cut(Cow::Owned(text)).into_owned())
        }
        Ok(outcome) => match &outcome.output {
            ToolOutput::Json(value)
                if renders_json && !value.is_string() && render == Render::InPlace =>
            {
                // Rendered once, escaped as it is rendered, straight into its message;
                // measured as it is written.
                Payload::JsonText(JsonString::InPlace {
                    index,
                    value,
                    most: budget.text_left,
                })
            }
            ToolOutput::Json(value)
                if renders_json && !value.is_string() && render == Render::Literal =>
            {
                // Rendered once, escaped as it is rendered; measured as it is written, and the
                // render stops where it passes the limit.
                if let Some((literal, _)) = json_text_literal(value, budget.text_left) {
                    Payload::JsonText(JsonString::Literal(literal))
                } else {
                    let text = serde_json::to_string(value).unwrap_or_default();
                    Payload::Parts {
                        parts: vec![Part::Text(budget.cut(Cow::Owned(text)))],
                        is_error: false,
                    }
                }
            }
            ToolOutput::Json(value) if renders_json && !value.is_string() => {
                // Rendered once: measured by its length, written as it is.
                let text = serde_json::to_string(value).unwrap_or_default();
                if text.len() <= budget.text_left {
                    Payload::JsonText(JsonString::Text(text))
                } else {
                    Payload::Parts {
                        parts: vec![Part::Text(budget.cut(Cow::Owned(text)))],
                        is_error: false,
                    }
                }
            }
            ToolOutput::Json(value) if render == Render::InPlace && value.is_object() => {
                // Written into its message as it is, measured as it is written.
                in_place = Some(budget.text_left);
                Payload::Value(value)
            }
            ToolOutput::Json(value) => {
                // Measured, not rendered: the writer carries it as a JSON value.
                if json_text_fits(value, budget.text_left) {
                    Payload::Value(value)
                } else {
                    let cut = budget.cut(Cow::Owned(json_text(value)));
                    Payload::Parts {
                        parts: vec![Part::Text(cut)],
                        is_error: false,
                    }
                }
            }
            ToolOutput::Content(content) => {
                let mut parts = Vec::new();
                if content.content.is_empty() {
                    // The MCP spec's structured result alone (no text block beside it).
                    if let Some(structured) = &content.structured {
                        parts.push(Part::Text(budget.cut(Cow::Owned(json_text(structured)))));
                    }
                }
                for block in &content.content {
                    budget.block(block, takes_image, &mut parts);
                }
                Payload::Parts {
                    parts,
                    is_error: content.is_error,
                }
            }
        },
    };
    let payload = match payload {
        Payload::Parts { parts, is_error } if parts.is_empty() => Payload::Parts {
            parts: vec![Part::Text(Cow::Borrowed(NO_OUTPUT))],
            is_error,
        },
        payload => payload,
    };
    Reply {
        id: answer.id.as_deref(),
        name: &answer.called,
        payload,
        in_place,
    }
}

/// Whether `json_text(value)` fits in `left` bytes, without rendering it: a bound of its
/// length first (a walk that formats nothing), and only where the bound does not fit, the
/// length counted as `serde_json` writes it.
pub(crate) fn json_text_fits(value: &Value, left: usize) -> bool {
    match value {
        Value::String(text) => text.len() <= left,
        other => json_len_bound(other) <= left || json_text_len(other) <= left,
    }
}

/// The length in bytes of `json_text(value)`, counted as `serde_json` writes it: no copy.
fn json_text_len(value: &Value) -> usize {
    match value {
        Value::String(text) => text.len(),
        other => json_len(other),
    }
}

struct Budget<'n> {
    index: usize,
    text_left: usize,
    media_left: usize,
    limits: AnswerLimits,
    notes: &'n mut Vec<AnswerNote>,
}

impl Budget<'_> {
    fn note(&mut self, kind: NoteKind) -> String {
        let note = AnswerNote {
            call: self.index,
            kind,
        };
        let words = note.for_model();
        self.notes.push(note);
        words
    }

    /// `text` within what is left of the text limit: cut at a character boundary, with a note
    /// the model reads at the end.
    fn cut<'a>(&mut self, text: Cow<'a, str>) -> Cow<'a, str> {
        if text.len() <= self.text_left {
            self.text_left -= text.len();
            return text;
        }
        let mut end = self.text_left;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        self.text_left = 0;
        let note = self.note(NoteKind::Cut {
            bytes: text.len(),
            kept: end,
            limit: self.limits.text_bytes,
        });
        Cow::Owned(format!("{}\n{note}", &text[..end]))
    }

    fn block<'a>(
        &mut self,
        block: &'a ContentBlock,
        takes_image: &dyn Fn(&str) -> bool,
        parts: &mut Vec<Part<'a>>,
    ) {
        match block {
            ContentBlock::Text(text) => {
                if text.text.is_empty() {
                    return; // nothing to read; Converse refuses an empty text block
                }
                if self.text_left == 0 {
                    return; // the cut's note already says the rest is left out
                }
                parts.push(Part::Text(self.cut(Cow::Borrowed(&text.text))));
            }
            ContentBlock::Image(image) => self.media("image", image, takes_image, parts),
            ContentBlock::Audio(audio) => {
                let words = self.not_carried("audio", Some(&audio.mime_type), audio.decoded_len());
                parts.push(Part::Text(Cow::Owned(words)));
            }
            ContentBlock::ResourceLink(link) => {
                let mut words = format!("[a link to the resource `{}`", link.uri);
                if link.name != link.uri {
                    words.push_str(&format!(" named `{}`", link.name));
                }
                if let Some(mime) = &link.mime_type {
                    words.push_str(&format!(", {mime}"));
                }
                if let Some(size) = link.size {
                    words.push_str(&format!(", {size} bytes"));
                }
                words.push(']');
                if let Some(description) = &link.description {
                    words.push_str(&format!(": {description}"));
                }
                parts.push(Part::Text(self.cut(Cow::Owned(words))));
            }
            ContentBlock::Resource(embedded) => {
                let resource = &embedded.resource;
                if let Some(text) = &resource.text {
                    let words = format!("[the resource `{}`]\n{text}", resource.uri);
                    parts.push(Part::Text(self.cut(Cow::Owned(words))));
                } else if let Some(blob) = &resource.blob {
                    let mime = resource.mime_type.as_deref().unwrap_or("");
                    let as_media = MediaBlock::new(blob.as_str(), mime);
                    let bytes = as_media.decoded_len();
                    if mime.starts_with("image/") && takes_image(mime) && bytes <= self.media_left {
                        self.media_left -= bytes;
                        parts.push(Part::Image {
                            mime_type: mime,
                            data: blob,
                        });
                    } else {
                        let words =
                            self.not_carried("resource", resource.mime_type.as_deref(), bytes);
                        parts.push(Part::Text(Cow::Owned(format!(
                            "{words} (`{}`)",
                            resource.uri
                        ))));
                    }
                }
            }
        }
    }

    fn media<'a>(
        &mut self,
        block: &'static str,
        media: &'a MediaBlock,
        takes_image: &dyn Fn(&str) -> bool,
        parts: &mut Vec<Part<'a>>,
    ) {
        let bytes = media.decoded_len();
        if !takes_image(&media.mime_type) {
            let words = self.not_carried(block, Some(&media.mime_type), bytes);
            parts.push(Part::Text(Cow::Owned(words)));
        } else if bytes > self.media_left {
            let note = self.note(NoteKind::MediaOverLimit {
                block,
                mime_type: media.mime_type.clone(),
                bytes,
                limit: self.limits.media_bytes,
            });
            parts.push(Part::Text(Cow::Owned(note)));
        } else {
            self.media_left -= bytes;
            parts.push(Part::Image {
                mime_type: &media.mime_type,
                data: &media.data,
            });
        }
    }

    fn not_carried(
        &mut self,
        block: &'static str,
        mime_type: Option<&str>,
        bytes: usize,
    ) -> String {
        self.note(NoteKind::NotCarried {
            block,
            mime_type: mime_type.map(str::to_owned),
            bytes,
        })
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::Value;

    use super::json_text_fits;
    use crate::wire::json_len::{json_len_bound, number_len, number_len_bound};

    /// Numbers as JSON texts of every kind: small and 64-bit integers, integers past 64 bits,
    /// fractions, exponents (some past `f64`'s range), long mantissas. Without
    /// `arbitrary_precision` serde_json reads the long ones as `f64` (and refuses those out of
    /// range); with it, a `Number` keeps the text whole.
    fn number() -> impl Strategy<Value = Value> {
        let text = prop_oneof![
            any::<i64>().prop_map(|n| n.to_string()),
            any::<u64>().prop_map(|n| n.to_string()),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(|f| f.to_string()),
            "-?[1-9][0-9]{0,80}",
            "-?[1-9][0-9]{0,40}\\.[0-9]{1,40}",
            "-?[1-9]\\.[0-9]{0,30}[eE][+-]?[0-9]{1,3}",
        ];
        text.prop_filter_map("a JSON number serde_json reads", |text| {
            serde_json::from_str::<Value>(&text).ok()
        })
    }

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            number(),
            any::<String>().prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 32, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::btree_map(any::<String>(), inner, 0..6)
                    .prop_map(|map| Value::Object(map.into_iter().collect())),
            ]
        })
    }

    /// The longest floats `serde_json` writes fit in the bound.
    #[test]
    fn the_longest_floats_fit_the_bound() {
        for float in [
            f64::MIN,
            f64::MAX,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
            -5e-324,
            -1.234_567_890_123_456_7e-300,
            -0.000_123_456_789_012_345_67,
            -123_456_789_012_345_680.0,
            -1.234_567_890_123_456_7e16,
        ] {
            let number = serde_json::Number::from_f64(float).unwrap();
            let len = serde_json::to_string(&number).unwrap().len();
            assert!(number_len_bound(&number) >= len, "{float}: {len}");
        }
    }

    proptest! {
        /// A number's bound is at least its text's length, under either serde_json build, and
        /// its length exactly where it is an integer; `number_len` is its length.
        #[test]
        fn a_numbers_bound_is_its_length(number in number()) {
            let len = serde_json::to_string(&number).unwrap().len();
            let Value::Number(n) = &number else { unreachable!() };
            prop_assert_eq!(number_len(n), len);
            prop_assert!(number_len_bound(n) >= len, "{} < {}", number_len_bound(n), len);
            if n.is_i64() || n.is_u64() {
                prop_assert_eq!(json_len_bound(&number), len);
            }
        }

        /// Any value's bound is at least its text's length, so the shortcut that trusts the
        /// bound never lets an output over the limit through whole.
        #[test]
        fn a_values_bound_is_never_below_its_length(value in value()) {
            let len = serde_json::to_string(&value).unwrap().len();
            prop_assert!(json_len_bound(&value) >= len, "{} < {}", json_len_bound(&value), len);
            prop_assert!(json_text_fits(&value, len));
            if !value.is_string() {
                prop_assert!(!json_text_fits(&value, len - 1));
            }
        }
    }
}
