//! A failing call's answer as MCP's `CallToolResult`. A call that ran is served by
//! [`crate::mcp::call_tool_result`], the one conversion of a `ToolOutput` to MCP content (its
//! blocks and `structuredContent` kept as they came, a JSON value as its text and, for an
//! object, its `structuredContent`).
//!
//! Policy: a backend's stderr never reaches a client or its model. What a served failure says
//! is the error's own words; what the backend left (its last stderr lines: paths, hosts,
//! tokens, a stack trace) is logged here, on the serving side, and the client reads that it is
//! there. An app running the runtime itself keeps the whole message (`Display`): its log is
//! its own.

use rmcp::model::{CallToolResult, ContentBlock};

use crate::runtime::DispatchError;
use crate::tools::ToolError;

/// What the client reads in place of a backend's stderr.
const IN_THE_LOG: &str = "; its stderr is in the gateway's log";

/// A failing call's result: `isError: true` with the message, for the model to read. MCP
/// 2025-11-25, "Tools" → "Error Handling": tool execution errors are reported "in tool results"
/// with `isError: true` (<https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling>).
pub(super) fn failed_call_result(message: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message)])
}

/// The message a served call's failure gives its client (the tool named as it was `called`),
/// with any backend stderr left out and logged here in full.
pub(super) fn served_failure(error: &DispatchError, called: &str) -> String {
    let mut summary = error.clone();
    match &mut summary {
        DispatchError::Tool(
            ToolError::Unavailable { detail, .. } | ToolError::TimedOut { detail, .. },
        ) if !detail.is_empty() => detail.clear(),
        _ => return error.for_model(called),
    }
    // The whole error, stderr and all, where the operator reads it (`toolwire serve` prints
    // this module's warnings on its stderr).
    tracing::warn!(tool = called, "a served call failed: {error}");
    format!("{}{IN_THE_LOG}", summary.for_model(called))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_backend_s_stderr_is_left_out_and_said_to_be_in_the_log() {
        let crashed = DispatchError::Tool(ToolError::Unavailable {
            tool: "mcp/fx/crash".into(),
            provider: "mcp/fx".into(),
            reason: "stopped answering: it closed its connection".into(),
            detail: "; its last lines on stderr:\n  | password=hunter2".into(),
        });
        let served = served_failure(&crashed, "mcp_fx_crash");
        assert_eq!(
            served,
            "tool `mcp_fx_crash` is unavailable: provider `mcp/fx` stopped answering: it closed \
             its connection; its stderr is in the gateway's log"
        );
        assert!(crashed.to_string().contains("hunter2"), "the app keeps it");
        let plain = DispatchError::Disabled {
            tool: "mcp/fx/crash".into(),
        };
        assert_eq!(served_failure(&plain, "c"), plain.for_model("c"));
    }
}
