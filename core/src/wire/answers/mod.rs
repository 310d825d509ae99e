//! Answers on the wire (issue 18, point 5): the [`ToolAnswer`]s of one response's calls as the
//! messages the next request appends after the assistant turn, in each format's own shape.
//!
//! | format | what [`write_answers`] returns in `messages` |
//! |---|---|
//! | Chat Completions | one `tool` message per call (`tool_call_id`) |
//! | Responses | one `function_call_output` item per call (`call_id`) |
//! | Messages API | one `user` message whose content is the `tool_result` blocks (`tool_use_id`, `is_error`) |
//! | Converse | one `user` message of `toolResult` blocks (`toolUseId`, `status`) |
//! | Gemini | one `user` content of `functionResponse` parts (`name` as called, `id` only when the call had one) |
//!
//! Each format carries what it can of an output (an image where the format takes one in a tool
//! result) and says in words what it cannot (a note naming the block's type, MIME type and
//! size, never base64 as text); each answer is kept within [`AnswerLimits`], cut with a note
//! the model reads. Both are also returned, in [`WireAnswers::notes`]: loud means returned.
//!
//! The layout: this folder holds no provider's facts (`reply.rs` makes an answer ready for any
//! format); each provider's shape is in its folder beside its calls
//! (`openai/chat_answers.rs`, `openai/responses_answers.rs`, `anthropic/answers.rs`,
//! `converse/answers.rs`, `gemini/answers.rs`), each citing its source.
//!
//! ```
//! # use std::sync::Arc;
//! # use serde_json::json;
//! use toolwire_core::{ToolDefinition, ToolRuntime, provider::provider_fn};
//! use toolwire_core::wire::{answers::write_answers, calls::{parse_calls, CallFormat}};
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let weather = provider_fn(
//!     "weather",
//!     vec![ToolDefinition::new("weather/get", "The weather.", json!({}))],
//!     |_tool, _arguments| async move { Ok(json!({"temperature": 18})) },
//! );
//! let runtime = ToolRuntime::new();
//! runtime.add_provider(Arc::new(weather)).await.unwrap().check().unwrap();
//! let response = json!({"candidates": [{"content": {"role": "model", "parts": [
//!     {"functionCall": {"name": "weather_get", "args": {"city": "Paris"}}},
//! ]}}]});
//! let calls = parse_calls(CallFormat::Gemini, &response).unwrap();
//! let answers = runtime.request().answer_calls(&calls).await;
//! let wire = write_answers(CallFormat::Gemini, &answers);
//! assert_eq!(wire.messages, [json!({"role": "user", "parts": [{"functionResponse": {
//!     "name": "weather_get", // as called; no id, since the call had none
//!     "response": {"output": {"temperature": 18}},
//! }}]})]);
//! assert!(wire.notes.is_empty());
//! # });
//! ```

mod json_literal;
pub(crate) mod out;
mod reply;

use serde_json::value::RawValue;
use serde_json::Value;

use super::apis::api;
use super::calls::CallFormat;
use crate::runtime::ToolAnswer;

use reply::Render;
pub(crate) use reply::{Part, Payload, Reply, EMPTY_TEXT};

/// The default limit of one answer's text (its text blocks, a JSON output's JSON text, notes
/// aside), in bytes: our caution (about 25k tokens), not any provider's rule.
pub const DEFAULT_MAX_ANSWER_TEXT_BYTES: usize = 100_000;

/// The default limit of one answer's images, decoded bytes: the Messages API's limit of one
/// image sent through the API, 5 MB ("Vision", platform.claude.com/docs/en/build-with-claude/
/// vision, "Image size limits"); our caution for the other formats.
pub const DEFAULT_MAX_ANSWER_MEDIA_BYTES: usize = 5 * 1024 * 1024;

/// How much one answer may carry. Text over `text_bytes` is cut (at a character boundary) with
/// a note; an image that would take the answer over `media_bytes` is left out with a note.
///
/// ```
/// use toolwire_core::wire::answers::{AnswerLimits, DEFAULT_MAX_ANSWER_TEXT_BYTES};
/// assert_eq!(AnswerLimits::default().text_bytes, DEFAULT_MAX_ANSWER_TEXT_BYTES);
/// assert_eq!(AnswerLimits::default().with_text_bytes(10).text_bytes, 10);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct AnswerLimits {
    /// The limit of one answer's text, in bytes.
    pub text_bytes: usize,
    /// The limit of one answer's images, in decoded bytes.
    pub media_bytes: usize,
}

impl Default for AnswerLimits {
    fn default() -> AnswerLimits {
        AnswerLimits {
            text_bytes: DEFAULT_MAX_ANSWER_TEXT_BYTES,
            media_bytes: DEFAULT_MAX_ANSWER_MEDIA_BYTES,
        }
    }
}

impl AnswerLimits {
    /// These limits with another text limit.
    ///
    /// ```
    /// # use toolwire_core::wire::answers::AnswerLimits;
    /// assert_eq!(AnswerLimits::default().with_text_bytes(1).text_bytes, 1);
    /// ```
    pub fn with_text_bytes(mut self, text_bytes: usize) -> AnswerLimits {
        self.text_bytes = text_bytes;
        self
    }

    /// These limits with another image limit.
    ///
    /// ```
    /// # use toolwire_core::wire::answers::AnswerLimits;
    /// assert_eq!(AnswerLimits::default().with_media_bytes(0).media_bytes, 0);
    /// ```
    pub fn with_media_bytes(mut self, media_bytes: usize) -> AnswerLimits {
        self.media_bytes = media_bytes;
        self
    }
}

/// The answers to one response's calls on the wire: the messages to append (Responses: the input
/// items), and what they could not carry whole.
///
/// ```
/// use toolwire_core::{runtime::{DispatchError, ToolAnswer}, wire::{answers::write_answers, calls::{CallFormat, ToolCall}}};
/// let call = ToolCall::new(Some("call_1".into()), "nope", Ok(Default::default()), "/choices/0/message/tool_calls/0");
/// let unknown = DispatchError::UnknownTool { called: "nope".into(), closest: Vec::new() };
/// let wire = write_answers(CallFormat::OpenAiChat, &[ToolAnswer::new(&call, Err(unknown))]);
/// assert_eq!(wire.messages[0]["tool_call_id"], "call_1");
/// assert_eq!(wire.messages[0]["content"], "Error: unknown tool `nope`");
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct WireAnswers {
    /// The messages (Chat Completions: one per call; Responses: one item per call; Messages
    /// API, Converse, Gemini: one `user` message) to append after the assistant turn.
    pub messages: Vec<Value>,
    /// What was cut, left out or carried otherwise, per call; each that changes what the model
    /// reads is also said in the answer ([`NoteKind::RefAsText`] changes only the JSON's form).
    pub notes: Vec<AnswerNote>,
}

/// Something one answer could not carry whole.
///
/// ```
/// use toolwire_core::wire::answers::{AnswerNote, NoteKind};
/// let note = AnswerNote { call: 0, kind: NoteKind::NotCarried { block: "image", mime_type: Some("image/png".into()), bytes: 69 } };
/// assert_eq!(note.for_model(), "[the tool returned an image (image/png, 69 bytes), which this answer cannot carry]");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnswerNote {
    /// The answer's position among the response's calls (the call's).
    pub call: usize,
    /// What happened.
    pub kind: NoteKind,
}

/// What an [`AnswerNote`] says.
///
/// ```
/// use toolwire_core::wire::answers::NoteKind;
/// let cut = NoteKind::Cut { bytes: 300, kept: 100, limit: 100 };
/// assert!(matches!(cut, NoteKind::Cut { kept: 100, .. }));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NoteKind {
    /// A text (or a JSON output's text) was cut at the text limit.
    Cut {
        /// Its length, in bytes.
        bytes: usize,
        /// How many bytes were kept.
        kept: usize,
        /// The answer's text limit.
        limit: usize,
    },
    /// A block the format cannot carry in a tool result (audio everywhere; an image where the
    /// format takes none, or not of that type; a binary resource), said in words instead.
    NotCarried {
        /// The MCP block type (`image`, `audio`, `resource`).
        block: &'static str,
        /// Its MIME type, when known.
        mime_type: Option<String>,
        /// Its size, decoded bytes.
        bytes: usize,
    },
    /// The answer's text was empty or only whitespace, which the format refuses (Converse:
    /// "text content blocks must contain non-whitespace text"): the model reads
    /// [`for_model`](AnswerNote::for_model)'s placeholder instead, and blank text beside other
    /// content is left out.
    EmptyText,
    /// A JSON output holds a `$ref` key, which the format would read as a reference (Gemini 3
    /// resolves `$ref` inside `functionResponse.response` against the response's media parts,
    /// and refuses the request when none matches): it travels as its JSON text instead, which
    /// the model reads unchanged.
    RefAsText,
    /// An image the format takes, left out: the answer's images would pass the media limit.
    MediaOverLimit {
        /// The MCP block type.
        block: &'static str,
        /// Its MIME type.
        mime_type: String,
        /// Its size, decoded bytes.
        bytes: usize,
        /// The answer's media limit.
        limit: usize,
    },
}

impl AnswerNote {
    /// The note's words, as the answer the model reads carries them.
    ///
    /// ```
    /// use toolwire_core::wire::answers::{AnswerNote, NoteKind};
    /// let note = AnswerNote { call: 1, kind: NoteKind::Cut { bytes: 250, kept: 100, limit: 100 } };
    /// assert_eq!(note.for_model(), "[output cut: 100 of its 250 bytes are above; the answer limit is 100 bytes]");
    /// ```
    pub fn for_model(&self) -> String {
        fn block_words(block: &str, mime_type: Option<&str>, bytes: usize) -> String {
            let article = if block.starts_with(['a', 'e', 'i', 'o', 'u']) {
                "an"
            } else {
                "a"
            };
            match mime_type {
                Some(mime) if !mime.is_empty() => {
                    format!("{article} {block} ({mime}, {bytes} bytes)")
                }
                _ => format!("{article} {block} ({bytes} bytes)"),
            }
        }
        match &self.kind {
            NoteKind::Cut { bytes, kept, limit } => format!(
                "[output cut: {kept} of its {bytes} bytes are above; the answer limit is {limit} bytes]"
            ),
            NoteKind::NotCarried {
                block,
                mime_type,
                bytes,
            } => format!(
                "[the tool returned {}, which this answer cannot carry]",
                block_words(block, mime_type.as_deref(), *bytes)
            ),
            NoteKind::EmptyText => EMPTY_TEXT.to_owned(),
            NoteKind::RefAsText => {
                "[the output holds `$ref`: it travels as JSON text, as it was]".to_owned()
            }
            NoteKind::MediaOverLimit {
                block,
                mime_type,
                bytes,
                limit,
            } => format!(
                "[the tool returned {}, left out: the answer's images may take {limit} bytes]",
                block_words(block, Some(mime_type), *bytes)
            ),
        }
    }
}

/// The answers to one response's calls in `format`'s shape, within the default [`AnswerLimits`].
///
/// ```
/// # use serde_json::json;
/// use toolwire_core::{runtime::{CallOutcome, Route, ToolAnswer}, wire::{answers::write_answers, calls::{CallFormat, ToolCall}}};
/// let call = ToolCall::new(Some("toolu_1".into()), "get_weather", Ok(Default::default()), "/content/0");
/// let outcome = CallOutcome { tool: "get_weather".into(), provider: "app".into(), route: Route::Exact, output: json!({"c": 18}).into() };
/// let wire = write_answers(CallFormat::Anthropic, &[ToolAnswer::new(&call, Ok(outcome))]);
/// assert_eq!(wire.messages, [json!({"role": "user", "content": [
///     {"type": "tool_result", "tool_use_id": "toolu_1", "content": r#"{"c":18}"#},
/// ]})]);
/// ```
pub fn write_answers(format: CallFormat, answers: &[ToolAnswer]) -> WireAnswers {
    write_answers_with(format, answers, &AnswerLimits::default())
}

/// The answers to one response's calls in `format`'s shape, within `limits`.
///
/// ```
/// # use serde_json::json;
/// use toolwire_core::{runtime::{CallOutcome, Route, ToolAnswer}, wire::{answers::*, calls::{CallFormat, ToolCall}}};
/// let call = ToolCall::new(Some("call_1".into()), "echo", Ok(Default::default()), "/output/0");
/// let outcome = CallOutcome { tool: "echo".into(), provider: "app".into(), route: Route::Exact, output: json!("a".repeat(50)).into() };
/// let limits = AnswerLimits::default().with_text_bytes(10);
/// let wire = write_answers_with(CallFormat::OpenAiResponses, &[ToolAnswer::new(&call, Ok(outcome))], &limits);
/// let text = wire.messages[0]["output"][0]["text"].as_str().unwrap();
/// assert!(text.starts_with("aaaaaaaaaa\n[output cut: 10 of its 50 bytes"), "{text}");
/// assert_eq!(wire.notes[0].kind, NoteKind::Cut { bytes: 50, kept: 10, limit: 10 });
/// ```
pub fn write_answers_with(
    format: CallFormat,
    answers: &[ToolAnswer],
    limits: &AnswerLimits,
) -> WireAnswers {
    let (messages, notes) = write_to(format, answers, limits, false);
    WireAnswers {
        messages: messages.values,
        notes,
    }
}

/// The answers to one response's calls on the wire as raw JSON text, for an app that splices them
/// into the request body it writes itself: the same messages as [`WireAnswers`]'s, each the very
/// text `serde_json::to_string` writes of its `Value`, byte for byte, written straight from the
/// answers (no `Value` is built).
///
/// ```
/// # use serde_json::json;
/// use toolwire_core::{runtime::{CallOutcome, Route, ToolAnswer}, wire::{answers::*, calls::{CallFormat, ToolCall}}};
/// let call = ToolCall::new(Some("call_1".into()), "get_weather", Ok(Default::default()), "/choices/0/message/tool_calls/0");
/// let outcome = CallOutcome { tool: "get_weather".into(), provider: "app".into(), route: Route::Exact, output: json!({"c": 18}).into() };
/// let answers = [ToolAnswer::new(&call, Ok(outcome))];
/// let raw = write_raw_answers(CallFormat::OpenAiChat, &answers, &AnswerLimits::default());
/// assert_eq!(raw.messages[0].get(), r#"{"content":"{\"c\":18}","role":"tool","tool_call_id":"call_1"}"#);
/// // Spliced into a request body of the app's own:
/// let body = format!(r#"{{"model":"gpt-4o","messages":[{}]}}"#, raw.messages[0]);
/// let read: serde_json::Value = serde_json::from_str(&body).unwrap();
/// assert_eq!(read["messages"][0], write_answers(CallFormat::OpenAiChat, &answers).messages[0]);
/// assert!(raw.notes.is_empty());
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct RawAnswers {
    /// The messages, as in [`WireAnswers::messages`], each as its JSON text.
    pub messages: Vec<Box<RawValue>>,
    /// What was cut, left out or carried otherwise, as in [`WireAnswers::notes`].
    pub notes: Vec<AnswerNote>,
}

/// The answers to one response's calls in `format`'s shape, within `limits`, as raw JSON text:
/// [`RawAnswers`].
///
/// ```
/// # use serde_json::json;
/// use toolwire_core::{runtime::{CallOutcome, Route, ToolAnswer}, wire::{answers::*, calls::{CallFormat, ToolCall}}};
/// let call = ToolCall::new(None, "weather_get", Ok(Default::default()), "/candidates/0/content/parts/0");
/// let outcome = CallOutcome { tool: "weather/get".into(), provider: "app".into(), route: Route::Exact, output: json!({"temperature": 18}).into() };
/// let raw = write_raw_answers(CallFormat::Gemini, &[ToolAnswer::new(&call, Ok(outcome))], &AnswerLimits::default());
/// assert_eq!(raw.messages[0].get(), r#"{"parts":[{"functionResponse":{"name":"weather_get","response":{"output":{"temperature":18}}}}],"role":"user"}"#);
/// ```
pub fn write_raw_answers(
    format: CallFormat,
    answers: &[ToolAnswer],
    limits: &AnswerLimits,
) -> RawAnswers {
    let (messages, notes) = write_to(format, answers, limits, true);
    RawAnswers {
        messages: messages.raws,
        notes,
    }
}

/// What [`write_to`] wrote: the messages as `Value`s or as raw text.
struct Written {
    values: Vec<Value>,
    raws: Vec<Box<RawValue>>,
    /// Raw: an output rendered in place passed its limit (or, Gemini, held a `$ref` key).
    failed: bool,
}

/// Writes the answers' messages, as raw text (`raw`) or as `Value`s; returns them and their
/// notes, in call order.
fn write_to(
    format: CallFormat,
    answers: &[ToolAnswer],
    limits: &AnswerLimits,
    raw: bool,
) -> (Written, Vec<AnswerNote>) {
    if !raw {
        return write_with(format, answers, limits, Render::Text);
    }
    // Each JSON output rendered straight into its message, measured as it is written; where
    // one passes the limit (rare: the limit is about 25k tokens) or, Gemini, holds a `$ref`
    // key, the answers are written again, each output first measured as its own literal, so
    // that one is cut (or carried as text).
    let (written, notes) = write_with(format, answers, limits, Render::InPlace);
    if !written.failed {
        return (written, notes);
    }
    let (written, notes) = write_with(format, answers, limits, Render::Literal);
    if !written.failed {
        return (written, notes);
    }
    // Not reached: a literal rendering hands `Splice` no output to write in place, and only
    // that can fail a message. Should that ever change, the messages are still whole, never a
    // failed message's `null`: the `Value`s' own text (`to_raw_value` of a `Value` cannot
    // fail: its keys are strings). Debug builds, every test's, say so at once.
    debug_assert!(false, "a literal rendering failed a raw message: {format}");
    let (mut written, notes) = write_with(format, answers, limits, Render::Text);
    written.raws = written
        .values
        .iter()
        .map(|message| serde_json::value::to_raw_value(message).unwrap_or_default())
        .collect();
    (written, notes)
}

/// [`write_to`], each JSON output carried as text made ready as `render` says.
fn write_with(
    format: CallFormat,
    answers: &[ToolAnswer],
    limits: &AnswerLimits,
    render: Render,
) -> (Written, Vec<AnswerNote>) {
    let api = api(format);
    let mut notes = Vec::new();
    let replies: Vec<Reply<'_>> = answers
        .iter()
        .enumerate()
        .map(|(index, answer)| reply::reply(answer, index, api, limits, render, &mut notes))
        .collect();
    let mut out = out::Messages::new(render != Render::Text, &replies);
    if !replies.is_empty() {
        // No call, no answer: an empty `user` message would be refused.
        api.write_answers(&replies, &mut notes, &mut out);
    }
    // A format's own notes come after the shared ones: in call order again (a stable sort,
    // which leaves a turn without notes untouched).
    notes.sort_by_key(|note| note.call);
    let written = Written {
        values: out.values,
        raws: out.raws,
        failed: out.failed,
    };
    (written, notes)
}
