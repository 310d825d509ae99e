//! A failing call's answer as MCP's `CallToolResult`. A call that ran is served by
//! [`crate::mcp::call_tool_result`], the one conversion of a `ToolOutput` to MCP content (its
//! blocks and `structuredContent` kept as they came, a JSON value as its text and, for an
//! object, its `structuredContent`).

use rmcp::model::{CallToolResult, ContentBlock};

/// A failing call's result: `isError: true` with the message, for the model to read. MCP
/// 2025-11-25, "Tools" → "Error Handling": tool execution errors are reported "in tool results"
/// with `isError: true` (<https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling>).
pub(super) fn failed_call_result(message: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message)])
}
