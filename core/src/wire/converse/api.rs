//! Amazon Bedrock Converse as one [`LlmApi`]: each fact is in the file beside this one that names it (its tool
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

/// Amazon Bedrock Converse.
pub(crate) struct Converse;

impl LlmApi for Converse {
    fn provider(&self) -> LlmProvider {
        LlmProvider::Converse
    }

    /// The strict shape takes the `anthropic-strict` dialect (`mod.rs`).
    fn dialect(&self, strict: bool) -> Dialect {
        if strict {
            super::STRICT_DIALECT
        } else {
            Dialect::Converse
        }
    }

    fn tool(&self, form: &str, def: &ToolDefinition, schema: &Value, strict: bool) -> Value {
        super::tool(form, def, schema, strict)
    }

    /// `{"role": "user", "content": [{"text": text}]}` (Bedrock API reference, `Message`, botocore: `content` is an array of `ContentBlock`, never a string).
    fn user_message(&self, text: &str) -> Value {
        json!({"role": "user", "content": [{"text": text}]})
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
        Box::<stream::ConverseMachine>::default()
    }

    fn replay_rules(&self) -> ReplayRules {
        replay::RULES
    }

    fn arguments_place(&self) -> ArgumentsPlace {
        ArgumentsPlace::object("/toolUse", "input")
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
