//! The Anthropic Messages API as one [`LlmApi`]: each fact is in the file beside this one that names it (its tool
//! shape and dialects in `mod.rs`, its calls, stream, replay and answers in theirs); this
//! file only joins them under one type.

use serde_json::{json, Value};

use super::{answers, calls, replay, stream};
use crate::schema::Dialect;
use crate::tools::ToolDefinition;
use crate::wire::answers::{out::Messages, AnswerNote, Reply};
use crate::wire::api::{LlmApi, NativeSearch};
use crate::wire::calls::direct::{self, BodyText};
use crate::wire::calls::machine::Machine;
use crate::wire::calls::pruned::Keep;
use crate::wire::calls::sink::CallSink;
use crate::wire::calls::{Fault, ToolCall};
use crate::wire::name_rules::LlmProvider;
use crate::wire::replay::{ArgumentsPlace, ReplayRules};
use crate::wire::RequestLimit;

/// The Anthropic Messages API.
pub(crate) struct AnthropicMessages;

impl LlmApi for AnthropicMessages {
    fn provider(&self) -> LlmProvider {
        LlmProvider::Anthropic
    }

    fn dialect(&self, strict: bool) -> Dialect {
        if strict {
            Dialect::AnthropicStrict
        } else {
            Dialect::Anthropic
        }
    }

    /// The tool search's deferred tools, only where its native search is (`native_search`:
    /// the plain shape).
    fn own_limit(&self, limit: RequestLimit, strict: bool) -> Option<usize> {
        let deferred = limit == RequestLimit::AnthropicDeferredTools && !strict;
        deferred.then_some(super::MAX_DEFERRED_TOOLS)
    }

    /// The plain shape only: its native deferral is the one confirmed here (the tool search
    /// tool page, `mod.rs`); the strict shape with it is not (our caution).
    fn native_search(&self, strict: bool) -> Option<NativeSearch> {
        (!strict).then_some(NativeSearch {
            name: super::NATIVE_SEARCH_NAME,
            tool: super::native_search_tool,
            defer: super::defer,
        })
    }

    fn tool(&self, form: &str, def: &ToolDefinition, schema: &Value, strict: bool) -> Value {
        super::tool(form, def, schema, strict)
    }

    /// `{"role": "user", "content": text}` (anthropic-sdk-python `MessageParam`: `content` is a string or blocks).
    fn user_message(&self, text: &str) -> Value {
        json!({"role": "user", "content": text})
    }

    fn parse_calls(&self, body: &Value, calls: &mut CallSink) -> Result<(), Fault> {
        calls::parse(body, calls)
    }

    fn read_calls(&self, body: BodyText<'_>, limit: usize) -> Option<Vec<ToolCall>> {
        direct::read(body, calls::Direct { limit })
    }

    fn calls_read(&self) -> &'static Keep {
        &calls::READ
    }

    fn stream_machine(&self) -> Machine {
        Box::<stream::AnthropicMachine>::default()
    }

    fn replay_rules(&self) -> ReplayRules {
        replay::RULES
    }

    fn arguments_place(&self) -> ArgumentsPlace {
        ArgumentsPlace::object("", "input")
    }

    fn takes_image(&self, mime_type: &str) -> bool {
        answers::takes_image(mime_type)
    }

    fn renders_json(&self) -> bool {
        true
    }

    /// No notes of its own: every block it cannot carry is said in the shared reply.
    fn write_answers(
        &self,
        replies: &[Reply<'_>],
        _notes: &mut Vec<AnswerNote>,
        out: &mut Messages<'_>,
    ) {
        answers::write(replies, out)
    }
}
