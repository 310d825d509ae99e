//! A server's tool list: every page, within the [`McpLimits`], as [`ToolDefinition`]s with
//! what the server says about each tool (title, annotations), and a tool that requires MCP
//! tasks marked unsupported.
//!
//! Policy: the limits are checked as the pages arrive, so a server that lists too much (or
//! pages forever) is cut off before it costs memory; one tool over a per-tool limit fails the
//! whole list, naming the tool and the limit (see [`McpLimits`]).

use std::time::Duration;

use rmcp::model::{PaginatedRequestParams, Tool};
use serde_json::Value;

use super::connection::Connection;
use super::error::{self, McpError, McpHint};
use super::options::McpLimits;
use crate::tools::{ToolAnnotations, ToolDefinition};

/// Why the runtime cannot call a tool whose `execution.taskSupport` is `required`.
pub(crate) const REQUIRES_TASKS: &str = "it requires MCP tasks (execution.taskSupport: \
     required), which toolwire does not run";

/// Why a listing failed: the server (it failed, or hung: the connection is done for) or its
/// list (over a limit: the server itself is fine).
pub(crate) enum ListFailure {
    /// The server failed or did not answer in time.
    Server(McpError),
    /// The list is over a limit.
    Limit(McpError),
}

/// Lists every tool of the server behind `client` (bare names, as the server gives them).
pub(crate) async fn list(
    connection: &Connection,
    target: &str,
    timeout: Duration,
    limits: &McpLimits,
) -> Result<Vec<ToolDefinition>, ListFailure> {
    match tokio::time::timeout(timeout, every_page(connection, target, limits)).await {
        Ok(result) => result,
        Err(_) => Err(ListFailure::Server(McpError::Timeout {
            program: target.to_owned(),
            millis: timeout.as_millis() as u64,
            reason: "listing its tools (tools/list) did not finish".to_owned(),
            hint: Some(McpHint::RaiseListTimeout),
            detail: String::new(),
        })),
    }
}

async fn every_page(
    connection: &Connection,
    target: &str,
    limits: &McpLimits,
) -> Result<Vec<ToolDefinition>, ListFailure> {
    let mut tools = Vec::new();
    let mut cursor = None;
    loop {
        let params = PaginatedRequestParams::default().with_cursor(cursor);
        let page = connection
            .client
            .list_tools(Some(params))
            .await
            .map_err(|e| {
                let why = error::request(&e);
                ListFailure::Server(McpError::Protocol {
                    program: target.to_owned(),
                    reason: format!("listing its tools failed: {}", why.text),
                    hint: why.hint,
                    detail: String::new(),
                })
            })?;
        if tools.len() + page.tools.len() > limits.max_tools {
            return Err(ListFailure::Limit(McpError::TooLarge {
                program: target.to_owned(),
                what: "its tool list".to_owned(),
                limit: "max_tools".to_owned(),
                size: tools.len() + page.tools.len(),
                max: limits.max_tools,
            }));
        }
        for tool in page.tools {
            let mut def = definition(tool, target, limits).map_err(ListFailure::Limit)?;
            if connection.requires_tasks(&def.name) {
                def = def.unsupported_because(REQUIRES_TASKS);
            }
            tools.push(def);
        }
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => return Ok(tools),
        }
    }
}

/// One server tool as a definition (its bare name), or the limit it goes over.
fn definition(tool: Tool, target: &str, limits: &McpLimits) -> Result<ToolDefinition, McpError> {
    let too_large = |what: &str, limit: &str, size: usize, max: usize| McpError::TooLarge {
        program: target.to_owned(),
        what: format!("the {what} of tool `{}`", tool.name),
        limit: limit.to_owned(),
        size,
        max,
    };
    let description = tool.description.as_deref().unwrap_or_default();
    if description.len() > limits.max_description_bytes {
        return Err(too_large(
            "description (bytes)",
            "max_description_bytes",
            description.len(),
            limits.max_description_bytes,
        ));
    }
    let schema_bytes = serde_json::to_vec(&*tool.input_schema).map_or(0, |b| b.len());
    if schema_bytes > limits.max_schema_bytes {
        return Err(too_large(
            "input schema (bytes)",
            "max_schema_bytes",
            schema_bytes,
            limits.max_schema_bytes,
        ));
    }
    let mut def = ToolDefinition::new(
        tool.name.to_string(),
        description.to_owned(),
        Value::Object((*tool.input_schema).clone()),
    );
    let hints = tool.annotations.as_ref();
    // MCP has a title in two places; the tool's own wins over its annotations' older one.
    if let Some(title) = tool
        .title
        .clone()
        .or_else(|| hints.and_then(|h| h.title.clone()))
    {
        def = def.with_title(title);
    }
    if let Some(output) = &tool.output_schema {
        def = def.with_output_schema(Value::Object((**output).clone()));
    }
    if let Some(hints) = hints {
        def = def.with_annotations(ToolAnnotations {
            read_only_hint: hints.read_only_hint,
            destructive_hint: hints.destructive_hint,
            idempotent_hint: hints.idempotent_hint,
            open_world_hint: hints.open_world_hint,
        });
    }
    Ok(def)
}
