//! One LLM API as one type: the trait every API of a provider folder implements, which is all
//! the generic code of the wire knows of a provider. An API carries its name rule and schema
//! dialects (with their rules), the shape of one tool in its tool list (and where `strict`
//! goes), its per-request limits and the tools of its own it may add (a native tool search, a
//! `namespace` tool), its body parser and stream machine (with its stream's end marker), its
//! replay rules, and its answer writer with what an answer can carry.
//!
//! Each implementation lives in its provider's folder (`wire/openai/`: Chat Completions and the
//! Responses API; `wire/anthropic/`, `wire/converse/`, `wire/gemini/`); the table that maps the
//! public keys ([`CallFormat`], [`WireFormat`](crate::WireFormat), [`Dialect`],
//! [`LlmProvider`]) to them is `wire/apis.rs`, the one place that names every provider.
//!
//! The trait is crate-visible, not public: the public API stays keyed by the enums, because
//! which provider a request goes to is run-time data, and a public trait would freeze the
//! internal types its methods take (the call sink, the faults, the replies).
//!
//! Generic code asks an API through this trait at run time. The public `const fn`s
//! ([`LlmProvider::definition_rule`], [`Dialect::rules`]) cannot call a trait object, so the
//! table keeps `const` maps of the same provider constants, and a test there checks that each
//! API answers as the maps do.

use serde_json::Value;

use super::answers::{out::Messages, AnswerNote, Reply};
use super::apis;
use super::calls::direct::BodyText;
use super::calls::machine::StreamMachine;
use super::calls::pruned::Keep;
use super::calls::sink::CallSink;
#[cfg(doc)]
use super::calls::CallFormat;
use super::calls::{Fault, ToolCall};
use super::format::RequestLimit;
use super::name_rules::{LlmProvider, NameRule};
use super::replay::{ArgumentsPlace, ReplayRules};
use crate::schema::dialect::DialectRules;
use crate::schema::Dialect;
use crate::tools::ToolDefinition;

/// What one LLM API is on the wire, both ways.
pub(crate) trait LlmApi: Sync {
    /// The provider it is: the key of its public facts (`LlmProvider`), and what its errors name.
    fn provider(&self) -> LlmProvider;

    /// The rule for a tool definition's name: its provider's, read from the table (the one
    /// map from a provider to its rule, which the public `const fn`s read too).
    fn name_rule(&self) -> NameRule {
        apis::name_rule(self.provider())
    }

    /// The schema dialect of its tools' parameters, strict or not.
    fn dialect(&self, strict: bool) -> Dialect;

    /// What that dialect accepts (its rules, from the table).
    fn dialect_rules(&self, strict: bool) -> DialectRules {
        self.dialect(strict).rules()
    }

    /// The most of `limit` one request of it takes (strict or not), if it sets one: over it,
    /// the API refuses the whole request. Its own limits ([`own_limit`](Self::own_limit)),
    /// then the strict limits of its dialect.
    fn request_limit(&self, limit: RequestLimit, strict: bool) -> Option<usize> {
        self.own_limit(limit, strict)
            .or_else(|| strict_limit(self.dialect_rules(strict), limit))
    }

    /// The limits of one request it sets itself, beside its dialect's: none by default.
    fn own_limit(&self, _limit: RequestLimit, _strict: bool) -> Option<usize> {
        None
    }

    /// Its own tool search, when a list of it can defer tools to it (strict or not).
    fn native_search(&self, _strict: bool) -> Option<NativeSearch> {
        None
    }

    /// Its `namespace` tool, when its tool list can group tools under one.
    fn namespace_tool(&self) -> Option<NamespaceTool> {
        None
    }

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

    /// The calls of a response body read straight from its text (`calls::direct`, with the
    /// arguments limit `limit`), or `None` where that read gives up and the pruned read and
    /// [`parse_calls`](Self::parse_calls) decide.
    fn read_calls(&self, body: BodyText<'_>, limit: usize) -> Option<Vec<ToolCall>>;

    /// What of a response body [`parse_calls`](Self::parse_calls) reads: a body read from its
    /// text keeps only that (`calls::pruned`).
    fn calls_read(&self) -> &'static Keep;

    /// A new machine for one of its streams.
    fn stream_machine(&self) -> Box<dyn StreamMachine>;

    /// The `data` of the event that ends its streams, when they have one that is not JSON.
    fn end_marker(&self) -> Option<&'static str> {
        None
    }

    /// Where its turn and its called names sit, and which names it refuses in history.
    fn replay_rules(&self) -> ReplayRules;

    /// Where a call's arguments sit in its block, and its empty arguments.
    fn arguments_place(&self) -> ArgumentsPlace;

    /// Whether an answer can carry an image of `mime_type` as an image.
    fn takes_image(&self, mime_type: &str) -> bool;

    /// Whether it carries a JSON output only as its text (else as a JSON value).
    fn renders_json(&self) -> bool;

    /// Writes the `replies` to one response's calls (never empty) into `out`, adding its own notes
    /// to `notes`.
    fn write_answers(
        &self,
        replies: &[Reply<'_>],
        notes: &mut Vec<AnswerNote>,
        out: &mut Messages<'_>,
    );
}

/// The most of `limit` a dialect with `rules` takes, when it is one of the dialect's strict
/// request limits ([`DialectRules::strict_request`]).
fn strict_limit(rules: DialectRules, limit: RequestLimit) -> Option<usize> {
    let strict_limits = rules.strict_request?;
    match limit {
        RequestLimit::StrictTools => Some(strict_limits.tools),
        RequestLimit::StrictOptionalParameters => Some(strict_limits.optional_parameters),
        RequestLimit::StrictUnionParameters => Some(strict_limits.union_parameters),
        _ => None,
    }
}

/// An API's own tool search: the tool a list with native deferral carries first, and how a
/// tool of the list is deferred to it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NativeSearch {
    /// The search tool's name, which no tool of the list may travel under.
    pub(crate) name: &'static str,
    /// The search tool as it stands in the list.
    pub(crate) tool: fn() -> Value,
    /// Marks a tool of the list as deferred: the model finds it through the search tool.
    pub(crate) defer: fn(&mut Value),
}

/// A `namespace` tool made of its name, its description and its tool list (the function tools
/// inside it, in the API's shape).
pub(crate) type NamespaceTool = fn(&str, String, Value) -> Value;
