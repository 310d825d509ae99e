//! OpenAI Chat Completions as one [`LlmApi`]: each fact is in the file beside this one that names it (its tool
//! shape and dialects in `mod.rs`, its calls, stream, replay and answers in theirs); this
//! file only joins them under one type.

use serde_json::{json, Value};

use super::{chat_answers, chat_calls, chat_replay, chat_stream};
use crate::schema::Dialect;
use crate::tools::ToolDefinition;
use crate::wire::answers::{out::Messages, AnswerNote, Reply};
use crate::wire::api::LlmApi;
use crate::wire::calls::direct::{self, BodyText};
use crate::wire::calls::machine::Machine;
use crate::wire::calls::pruned::Keep;
use crate::wire::calls::sink::CallSink;
use crate::wire::calls::{Fault, ToolCall};
use crate::wire::name_rules::LlmProvider;
use crate::wire::replay::{ArgumentsPlace, ReplayRules};
use crate::wire::RequestLimit;

/// OpenAI Chat Completions.
pub(crate) struct ChatCompletions;

impl LlmApi for ChatCompletions {
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

    fn own_limit(&self, limit: RequestLimit, _strict: bool) -> Option<usize> {
        (limit == RequestLimit::OpenAiTools).then_some(super::OPENAI_MAX_TOOLS)
    }

    fn tool(&self, form: &str, def: &ToolDefinition, schema: &Value, strict: bool) -> Value {
        super::tool(form, def, schema, strict)
    }

    /// `{"role": "user", "content": text}` (openai-python `ChatCompletionUserMessageParam`: `content` is a string or parts).
    fn user_message(&self, text: &str) -> Value {
        json!({"role": "user", "content": text})
    }

    fn parse_calls(&self, body: &Value, calls: &mut CallSink) -> Result<(), Fault> {
        chat_calls::parse(body, calls)
    }

    fn read_calls(&self, body: BodyText<'_>, limit: usize) -> Option<Vec<ToolCall>> {
        direct::read(body, chat_calls::Direct { limit })
    }

    fn calls_read(&self) -> &'static Keep {
        &chat_calls::READ
    }

    fn stream_machine(&self) -> Machine {
        Box::<chat_stream::ChatMachine>::default()
    }

    /// `data: [DONE]` ends the stream (`chat_stream/`).
    fn end_marker(&self) -> Option<&'static str> {
        Some(super::END_MARKER)
    }

    fn replay_rules(&self) -> ReplayRules {
        chat_replay::RULES
    }

    fn arguments_place(&self) -> ArgumentsPlace {
        ArgumentsPlace::text("/function", "arguments")
    }

    fn takes_image(&self, mime_type: &str) -> bool {
        chat_answers::takes_image(mime_type)
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
        chat_answers::write(replies, out)
    }
}
