//! The OpenAI Responses API as one [`LlmApi`]: each fact is in the file beside this one that names it (its tool
//! shape and dialects in `mod.rs`, its calls, stream, replay and answers in theirs); this
//! file only joins them under one type.

use serde_json::{json, Value};

use super::{responses_answers, responses_calls, responses_replay, responses_stream};
use crate::schema::Dialect;
use crate::tools::ToolDefinition;
use crate::wire::answers::{out::Messages, AnswerNote, Reply};
use crate::wire::api::{LlmApi, NamespaceTool};
use crate::wire::calls::direct::{self, BodyText};
use crate::wire::calls::machine::Machine;
use crate::wire::calls::pruned::Keep;
use crate::wire::calls::sink::CallSink;
use crate::wire::calls::{Fault, ToolCall};
use crate::wire::name_rules::LlmProvider;
use crate::wire::replay::{ArgumentsPlace, ReplayRules};
use crate::wire::RequestLimit;

/// The OpenAI Responses API.
pub(crate) struct Responses;

impl LlmApi for Responses {
    fn provider(&self) -> LlmProvider {
        LlmProvider::OpenAi
    }

    fn dialect(&self, strict: bool) -> Dialect {
        if strict {
            Dialect::OpenAiStrict
        } else {
            Dialect::OpenAi
        }
    }

    /// The 128-tool limit is Chat Completions' reference; the Responses API reference states
    /// none found here, so it is kept for both (our caution: a list the Chat API takes). It
    /// counts every function, inside `namespace` tools too.
    fn own_limit(&self, limit: RequestLimit, _strict: bool) -> Option<usize> {
        (limit == RequestLimit::OpenAiTools).then_some(super::OPENAI_MAX_TOOLS)
    }

    fn namespace_tool(&self) -> Option<NamespaceTool> {
        Some(super::namespace_tool)
    }

    fn tool(&self, form: &str, def: &ToolDefinition, schema: &Value, strict: bool) -> Value {
        super::responses_tool(form, def, schema, strict)
    }

    /// `{"role": "user", "content": text}` (an item of `input`, openai-python `EasyInputMessageParam`).
    fn user_message(&self, text: &str) -> Value {
        json!({"role": "user", "content": text})
    }

    fn parse_calls(&self, body: &Value, calls: &mut CallSink) -> Result<(), Fault> {
        responses_calls::parse(body, calls)
    }

    fn read_calls(&self, body: BodyText<'_>, limit: usize) -> Option<Vec<ToolCall>> {
        direct::read(body, responses_calls::Direct { limit })
    }

    fn calls_read(&self) -> &'static Keep {
        &responses_calls::READ
    }

    fn stream_machine(&self) -> Machine {
        Box::<responses_stream::ResponsesMachine>::default()
    }

    /// Chat Completions' end marker, `data: [DONE]`, is read as an end here too, not as an
    /// event that is not JSON (our caution: a server or proxy that ends a Responses stream the
    /// Chat way; the Responses API's own end is `response.completed`, `responses_stream.rs`).
    fn end_marker(&self) -> Option<&'static str> {
        Some(super::END_MARKER)
    }

    fn replay_rules(&self) -> ReplayRules {
        responses_replay::RULES
    }

    fn arguments_place(&self) -> ArgumentsPlace {
        ArgumentsPlace::text("", "arguments")
    }

    fn takes_image(&self, mime_type: &str) -> bool {
        responses_answers::takes_image(mime_type)
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
        responses_answers::write(replies, out)
    }
}
