//! An MCP `CallToolResult` to a [`ToolOutput`] and back, without loss.
//!
//! Policy: both types are MCP's JSON (`ToolContent`'s serde form is the schema's
//! `CallToolResult`), so each way is a JSON round trip: every block keeps its kind, MIME type,
//! data, annotations and `_meta`; `structuredContent` and `isError` stay distinct from the
//! blocks. Before, a result was flattened to one JSON value (an image became base64 JSON).

use rmcp::model::{CallToolResult, ContentBlock as McpBlock};
use serde_json::Value;

use crate::tools::{json_text, ContentBlock, ToolContent, ToolOutput};

/// What an MCP server's tool returned, as a [`ToolOutput::Content`].
///
/// ```
/// use rmcp::model::{CallToolResult, ContentBlock as McpBlock};
/// use toolwire_core::{mcp::tool_output, tools::{ContentBlock, ToolOutput}};
/// let result = CallToolResult::success(vec![McpBlock::text("Radar:"), McpBlock::image("iVBORw0KGgo=", "image/png")]);
/// let ToolOutput::Content(content) = tool_output(&result) else { unreachable!() };
/// assert_eq!(content.content[1], ContentBlock::image("iVBORw0KGgo=", "image/png"));
/// ```
pub fn tool_output(result: &CallToolResult) -> ToolOutput {
    let converted = serde_json::to_value(result).and_then(serde_json::from_value::<ToolContent>);
    match converted {
        Ok(content) => ToolOutput::Content(content),
        // Both sides are MCP's schema; should a later rmcp add a block kind this crate does
        // not know, keep each block that converts and say what the others were.
        Err(_) => ToolOutput::Content(ToolContent {
            content: result.content.iter().map(block).collect(),
            structured: result.structured_content.clone(),
            is_error: result.is_error == Some(true),
            ..ToolContent::default()
        }),
    }
}

fn block(mcp: &McpBlock) -> ContentBlock {
    serde_json::to_value(mcp)
        .and_then(serde_json::from_value)
        .unwrap_or_else(|_| {
            let kind = serde_json::to_value(mcp)
                .ok()
                .and_then(|v| v.get("type").and_then(Value::as_str).map(str::to_owned))
                .unwrap_or_else(|| "unknown".to_owned());
            ContentBlock::text(format!(
                "[a content block of MCP type `{kind}` toolwire cannot read]"
            ))
        })
}

/// A [`ToolOutput`] as an MCP `CallToolResult`: content blocks and their structured result as
/// they are; a JSON value as one text block of its JSON (a string as itself) and, for an
/// object, also as `structuredContent` (the MCP spec: "a tool that returns structured content
/// SHOULD also return the serialized JSON in a TextContent block"; `structuredContent` is an
/// object in the schema).
///
/// ```
/// use serde_json::json;
/// use toolwire_core::{mcp::{call_tool_result, tool_output}, tools::ToolOutput};
/// let result = call_tool_result(&ToolOutput::from(json!({"temperature": 18})));
/// assert_eq!(result.structured_content, Some(json!({"temperature": 18})));
/// assert_eq!(result.content[0].as_text().unwrap().text, r#"{"temperature":18}"#);
/// // And back: the blocks and the structured result, distinct.
/// let ToolOutput::Content(back) = tool_output(&result) else { unreachable!() };
/// assert_eq!(back.structured, Some(json!({"temperature": 18})));
/// ```
pub fn call_tool_result(output: &ToolOutput) -> CallToolResult {
    match output {
        ToolOutput::Json(value) => {
            let text = McpBlock::text(json_text(value));
            let mut result = CallToolResult::success(vec![text]);
            if value.is_object() {
                result.structured_content = Some(value.clone());
            }
            result
        }
        ToolOutput::Content(content) => {
            let converted = serde_json::to_value(content).and_then(serde_json::from_value);
            converted.unwrap_or_else(|_| {
                let blocks = content
                    .content
                    .iter()
                    .filter_map(|b| serde_json::to_value(b).ok())
                    .filter_map(|b| serde_json::from_value(b).ok())
                    .collect();
                let mut result = if content.is_error {
                    CallToolResult::error(blocks)
                } else {
                    CallToolResult::success(blocks)
                };
                result.structured_content = content.structured.clone();
                result
            })
        }
    }
}
