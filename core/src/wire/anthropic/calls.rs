//! The Messages API: the client tool calls of a response body (hop 4).
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//! Sources, read 2026-12 (anthropic-sdk-python 2.15 types; the tool use overview,
//! platform.claude.com/docs/en/agents-and-tools/tool-use/overview):
//! - `Message.content` is a list of blocks (`types/message.py`); a client call is the block
//!   `{type: "tool_use", id, name, input: Dict[str, object]}` (`tool_use_block.py`);
//! - `thinking` (its `signature` passed back unchanged: `thinking_block.py`),
//!   `redacted_thinking`, `server_tool_use` (`server_tool_use_block.py`), every
//!   `*_tool_result` block (`web_search_tool_result_block.py`, …) and `text` are the provider's
//!   or the model's words: not calls, kept in the body for the replay.

use serde_json::Value;

use crate::wire::calls::pruned::Keep;
use crate::wire::calls::shape::{self, member};
use crate::wire::calls::sink::CallSink;
use crate::wire::calls::{Fault, ToolCall};

/// What [`parse`] reads of a body: of each content block, `type`, `id`, `name` and `input`.
pub(crate) const READ: Keep = Keep::Members(&[(
    "content",
    Keep::Items(&Keep::Members(&[
        ("type", Keep::All),
        ("id", Keep::All),
        ("name", Keep::All),
        ("input", Keep::All),
    ])),
)]);

/// The calls of `body`, added to `sink` in order.
pub(crate) fn parse(body: &Value, sink: &mut CallSink) -> Result<(), Fault> {
    let body = shape::object(body, "", "a message object")?;
    let content = shape::array(body, "content", "")?;
    for (position, block) in content.iter().enumerate() {
        let pointer = format!("/content/{position}");
        let block = shape::object(block, &pointer, "a content block object")?;
        if shape::opt_str(block, "type", &pointer)? != Some("tool_use") {
            continue;
        }
        let id = shape::opt_id(block, "id", &pointer)?;
        let name = shape::opt_str(block, "name", &pointer)?.unwrap_or_default();
        let arguments = sink.object_arguments(member(block, "input"));
        sink.add_with_id(ToolCall::new(id, name, arguments, pointer))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::wire::calls::ArgumentsError;

    #[test]
    fn server_tool_use_is_not_a_client_call() {
        let body = json!({"content": [
            {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "q"}},
            {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []},
            {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}},
        ]});
        let mut sink = CallSink::new(64);
        parse(&body, &mut sink).unwrap();
        let calls = sink.take();
        assert_eq!(calls.len(), 1);
        assert_eq!(calls[0].pointer, "/content/2");
    }

    #[test]
    fn an_input_object_over_the_limit_is_too_long() {
        let body = json!({"content": [
            {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"a": "xxxxxxxx"}},
        ]});
        let mut sink = CallSink::new(8);
        parse(&body, &mut sink).unwrap();
        assert_eq!(
            sink.take()[0].arguments,
            Err(ArgumentsError::TooLong {
                bytes: 16,
                limit: 8
            })
        );
    }
}
