//! One LLM API as one type: the trait every API of a provider folder implements, which is all
//! the generic code of the wire knows of a provider. An API carries its name rule and schema
//! dialects, the shape of one tool in its tool list (and where `strict` goes), its body parser
//! and stream machine, its replay rules, and its answer writer with what an answer can carry.
//!
//! Each implementation lives in its provider's folder (`wire/openai/`: Chat Completions and the
//! Responses API; `wire/anthropic/`, `wire/converse/`, `wire/gemini/`); the table that maps the
//! public keys ([`CallFormat`], [`WireFormat`](crate::WireFormat), [`Dialect`],
//! [`LlmProvider`]) to them is `wire/apis.rs`, the one place that names every provider.
//!
//! The trait is crate-visible, not public: the public API stays keyed by the enums, because
//! which provider a request goes to is run-time data, and a public trait would freeze the
//! internal types its methods take (the call sink, the faults, the replies).

use serde_json::Value;

use super::answers::{out::Messages, AnswerNote, Reply};
use super::calls::machine::StreamMachine;
use super::calls::pruned::Keep;
use super::calls::sink::CallSink;
#[cfg(doc)]
use super::calls::CallFormat;
use super::calls::Fault;
use super::name_rules::LlmProvider;
use super::replay::{ArgumentsPlace, ReplayRules};
use crate::schema::Dialect;
use crate::tools::ToolDefinition;

/// What one LLM API is on the wire, both ways.
pub(crate) trait LlmApi: Sync {
    /// The provider whose tool-name rule and request limits apply.
    fn provider(&self) -> LlmProvider;

    /// The schema dialect of its tools' parameters, strict or not.
    fn dialect(&self, strict: bool) -> Dialect;

    /// One tool of its tool list, under `form`, with its prepared `schema`; `strict` puts
    /// `strict: true` where the API takes it.
    fn tool(&self, form: &str, def: &ToolDefinition, schema: &Value, strict: bool) -> Value;

    /// The value of a request's tool list, of tools made by [`tool`](Self::tool): the array
    /// itself, unless the API wraps it.
    fn tool_list(&self, tools: Vec<Value>) -> Value {
        Value::Array(tools)
    }

    /// The user's first message of a conversation, `text` alone, as its history carries it.
    fn user_message(&self, text: &str) -> Value;

    /// Reads a response body's client calls into `calls`, in order.
    fn parse_calls(&self, body: &Value, calls: &mut CallSink) -> Result<(), Fault>;

    /// What of a response body [`parse_calls`](Self::parse_calls) reads: a body read from its
    /// text keeps only that (`calls::pruned`).
    fn calls_read(&self) -> &'static Keep;

    /// A new machine for one of its streams.
    fn stream_machine(&self) -> Box<dyn StreamMachine>;

    /// Where its turn and its called names sit, and which names it refuses in history.
    fn replay_rules(&self) -> ReplayRules;

    /// Where a call's arguments sit in its block, and its empty arguments.
    fn arguments_place(&self) -> ArgumentsPlace;

    /// Whether an answer can carry an image of `mime_type` as an image.
    fn takes_image(&self, mime_type: &str) -> bool;

    /// Whether it carries a JSON output only as its text (else as a JSON value).
    fn renders_json(&self) -> bool;

    /// Writes one turn's `replies` (never empty) into `out`, adding its own notes to `notes`.
    fn write_answers(&self, replies: &[Reply<'_>], notes: &mut Vec<AnswerNote>, out: &mut Messages);
}
