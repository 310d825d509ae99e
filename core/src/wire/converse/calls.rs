//! Bedrock Converse: the client tool calls of a response body (hop 4).
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//! Sources, read 2026-12 (botocore 1.43 `bedrock-runtime` service model, API 2023-09-30; the
//! tool use guide, docs.aws.amazon.com/bedrock/latest/userguide/tool-use.html):
//! - `ConverseResponse.output` is a `ConverseOutput` whose `message.content` is a list of
//!   `ContentBlock`s, each with one member set; a call is `toolUse`, a `ToolUseBlock`
//!   `{toolUseId, name, input, type?}`;
//! - `input` is a `Document`: any JSON value, so a string input is shape-legal and only an
//!   object is arguments (an error of that call otherwise);
//! - a `toolUse` whose `type` is `server_tool_use` is a system tool Bedrock runs itself (Nova's
//!   `nova_code_interpreter`), answered by the `toolResult` block beside it in the assistant
//!   message; `reasoningContent` (its signature replayed unmodified, `ReasoningTextBlock`) and
//!   `text` are the model's. None is a client call; all stay in the body for the replay.

use serde_json::{Map, Value};

use crate::wire::calls::pruned::Keep;
use crate::wire::calls::shape::{self, member};
use crate::wire::calls::sink::CallSink;
use crate::wire::calls::{Fault, ToolCall};

/// The value of `ToolUseBlock.type` (and `ToolUseBlockStart.type`) of a system tool.
pub(super) const SERVER_TOOL_USE: &str = "server_tool_use";

/// What [`parse`] reads of a body: of each block of `output.message.content`, `toolUse`'s
/// `type`, `toolUseId`, `name` and `input`.
pub(crate) const READ: Keep = Keep::Members(&[(
    "output",
    Keep::Members(&[(
        "message",
        Keep::Members(&[(
            "content",
            Keep::Items(&Keep::Members(&[(
                "toolUse",
                Keep::Members(&[
                    ("type", Keep::All),
                    ("toolUseId", Keep::All),
                    ("name", Keep::All),
                    ("input", Keep::All),
                ]),
            )])),
        )]),
    )]),
)]);

/// The calls of `body`, added to `sink` in order.
pub(crate) fn parse(body: &Value, sink: &mut CallSink) -> Result<(), Fault> {
    let body = shape::object(body, "", "a ConverseResponse object")?;
    let output = shape::opt_object(body, "output", "")?
        .ok_or_else(|| Fault::shape("/output", "a ConverseOutput object"))?;
    let message = shape::opt_object(output, "message", "/output")?
        .ok_or_else(|| Fault::shape("/output/message", "a Message object"))?;
    let content = shape::array(message, "content", "/output/message")?;
    for (position, block) in content.iter().enumerate() {
        let pointer = format!("/output/message/content/{position}");
        let block = shape::object(block, &pointer, "a ContentBlock object")?;
        let Some(tool_use) = shape::opt_object(block, "toolUse", &pointer)? else {
            continue;
        };
        let tool_use_pointer = || shape::Under(&pointer, "toolUse");
        if is_server_tool(tool_use, tool_use_pointer())? {
            continue;
        }
        let id = shape::opt_id(tool_use, "toolUseId", tool_use_pointer())?;
        let name = shape::opt_str(tool_use, "name", tool_use_pointer())?.unwrap_or_default();
        // The limit applies to an `input` that arrives as an object too.
        let arguments = sink.object_arguments(member(tool_use, "input"));
        sink.add_with_id(ToolCall::new(id, name, arguments, pointer))?;
    }
    Ok(())
}

/// Whether a `toolUse` (or its stream start) is a system tool's.
pub(super) fn is_server_tool(
    tool_use: &Map<String, Value>,
    pointer: impl std::fmt::Display,
) -> Result<bool, Fault> {
    Ok(shape::opt_str(tool_use, "type", pointer)? == Some(SERVER_TOOL_USE))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::wire::calls::ArgumentsError;

    #[test]
    fn a_document_input_that_is_not_an_object_is_that_calls_error() {
        let body = json!({"output": {"message": {"role": "assistant", "content": [
            {"toolUse": {"toolUseId": "t1", "name": "f", "input": "Paris"}},
            {"toolUse": {"toolUseId": "t2", "name": "g", "input": {}}},
        ]}}});
        let mut sink = CallSink::new(64);
        parse(&body, &mut sink).unwrap();
        let calls = sink.take();
        assert_eq!(
            calls[0].arguments,
            Err(ArgumentsError::NotObject { found: "a string" })
        );
        assert!(calls[1].arguments.is_ok());
    }
}
