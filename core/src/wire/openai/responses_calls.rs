//! The Responses API: the client tool calls of a response body (hop 4).
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//! Sources, read 2026-12 (openai-python 3.57 types; the function calling guide,
//! developers.openai.com/api/docs/guides/function-calling; the tool search guide for
//! namespaces):
//! - `Response.output` is a list of items (`types/responses/response.py`); a client function
//!   call is the item `{type: "function_call", id, call_id, name, arguments: str, namespace?}`
//!   (`response_function_tool_call.py`): `call_id` is what the answer's
//!   `function_call_output.call_id` names, `id` the item's own (`fc_…`), `namespace` "the
//!   namespace of the function to run" for a tool sent inside a `namespace` tool;
//! - `reasoning`, `message`, `web_search_call` and the other built-in tool items of the output
//!   union are the provider's (`response_reasoning_item.py`, `response_output_message.py`,
//!   `response_function_web_search.py`): not calls, kept in the body for the replay.
//!
//! Our own rule: other client-executed items (`custom_tool_call`, `computer_call`,
//! `local_shell_call`, …) answer tools toolwire never sends, so they stay in the body for the
//! app.

use serde_json::Value;

use super::chat_calls::arguments_member;
use crate::wire::calls::pruned::Keep;
use crate::wire::calls::shape::{self, member};
use crate::wire::calls::sink::CallSink;
use crate::wire::calls::{Fault, ToolCall};

/// What [`parse`] reads of a body: of each output item, `type`, `call_id`, `name`,
/// `namespace` and `arguments`.
pub(crate) const READ: Keep = Keep::Members(&[(
    "output",
    Keep::Items(&Keep::Members(&[
        ("type", Keep::All),
        ("call_id", Keep::All),
        ("name", Keep::All),
        ("namespace", Keep::All),
        ("arguments", Keep::All),
    ])),
)]);

/// The calls of `body`, added to `sink` in order.
pub(crate) fn parse(body: &Value, sink: &mut CallSink) -> Result<(), Fault> {
    let body = shape::object(body, "", "a response object")?;
    let output = shape::array(body, "output", "")?;
    for (position, item) in output.iter().enumerate() {
        let pointer = format!("/output/{position}");
        let item = shape::object(item, &pointer, "an output item object")?;
        if shape::opt_str(item, "type", &pointer)? != Some("function_call") {
            continue;
        }
        sink.add_with_id(function_call(item, pointer, sink.limit())?)?;
    }
    Ok(())
}

/// One `function_call` item as a call (a body's item, or a stream's done item).
pub(super) fn function_call(
    item: &serde_json::Map<String, Value>,
    pointer: String,
    limit: usize,
) -> Result<ToolCall, Fault> {
    let id = shape::opt_id(item, "call_id", &pointer)?;
    let name = shape::opt_str(item, "name", &pointer)?.unwrap_or_default();
    let namespace = shape::opt_str(item, "namespace", &pointer)?;
    let arguments = arguments_member(member(item, "arguments"), limit);
    let call = ToolCall::new(id, name, arguments, pointer);
    Ok(match namespace {
        Some(namespace) => call.in_namespace(namespace),
        None => call,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn provider_items_are_not_calls_and_keep_their_place() {
        let body = json!({"output": [
            {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "x"},
            {"type": "web_search_call", "id": "ws_1", "status": "completed"},
            {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f",
             "arguments": "{}", "namespace": "mcp_github"},
        ]});
        let mut sink = CallSink::new(1024);
        parse(&body, &mut sink).unwrap();
        let calls = sink.take();
        assert_eq!(calls.len(), 1);
        assert_eq!(calls[0].pointer, "/output/2");
        assert_eq!(calls[0].id.as_deref(), Some("call_1"));
        assert_eq!(calls[0].namespace.as_deref(), Some("mcp_github"));
    }
}
