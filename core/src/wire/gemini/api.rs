//! Google Gemini generateContent as one [`LlmApi`]: each fact is in the file beside this one that names it (its tool
//! shape and dialects in `mod.rs`, its calls, stream, replay and answers in theirs); this
//! file only joins them under one type.

use serde_json::{json, Value};

use super::{answers, calls, replay, stream};
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

/// Google Gemini generateContent.
pub(crate) struct Gemini;

impl LlmApi for Gemini {
    fn provider(&self) -> LlmProvider {
        LlmProvider::Gemini
    }

    /// Gemini has no strict mode (`FunctionDeclaration` carries no `strict`: `mod.rs`).
    fn dialect(&self, _strict: bool) -> Dialect {
        Dialect::Gemini
    }

    fn tool(&self, form: &str, def: &ToolDefinition, schema: &Value, _strict: bool) -> Value {
        super::declaration(form, def, schema)
    }

    fn tool_list(&self, tools: Vec<Value>) -> Value {
        super::tool_list(tools)
    }

    /// `{"role": "user", "parts": [{"text": text}]}` (google-genai `types.Content`: `parts`, no `content`).
    fn user_message(&self, text: &str) -> Value {
        json!({"role": "user", "parts": [{"text": text}]})
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
        Box::<stream::GeminiMachine>::default()
    }

    fn replay_rules(&self) -> ReplayRules {
        replay::RULES
    }

    fn arguments_place(&self) -> ArgumentsPlace {
        ArgumentsPlace::object("/functionCall", "args")
    }

    fn takes_image(&self, mime_type: &str) -> bool {
        answers::takes_image(mime_type)
    }

    fn renders_json(&self) -> bool {
        false
    }

    fn write_answers(
        &self,
        replies: &[Reply<'_>],
        notes: &mut Vec<AnswerNote>,
        out: &mut Messages<'_>,
    ) {
        answers::write(replies, notes, out)
    }
}
