//! A call's answer as MCP's `CallToolResult`: the one place a runtime's output becomes MCP
//! content, so a richer output (MCP content blocks kept as they came) swaps in here alone.

use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::Value;

/// The MCP result of a call's output (today a JSON value: `CallOutcome::output`).
///
/// An object is the result's `structuredContent`, with its JSON text as the one text block
/// beside it: MCP 2025-11-25, "Tools" → "Structured Content": "For backwards compatibility, a
/// tool that returns structured content SHOULD also return the serialized JSON in a TextContent
/// block" (<https://modelcontextprotocol.io/specification/2025-11-25/server/tools#structured-content>),
/// and `structuredContent` is an object in the schema (`{ [key: string]: unknown }`). A string
/// is one text block as it is; any other value is its JSON text.
pub(super) fn call_tool_result(output: Value) -> CallToolResult {
    match output {
        Value::Object(_) => CallToolResult::structured(output),
        Value::String(text) => CallToolResult::success(vec![ContentBlock::text(text)]),
        other => CallToolResult::success(vec![ContentBlock::text(other.to_string())]),
    }
}

/// A failing call's result: `isError: true` with the message, for the model to read. MCP
/// 2025-11-25, "Tools" → "Error Handling": tool execution errors are reported "in tool results"
/// with `isError: true` (<https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling>).
pub(super) fn failed_call_result(message: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message)])
}
