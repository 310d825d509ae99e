//! A server's tool list: every page, within the [`McpLimits`], as [`ToolDefinition`]s with
//! what the server says about each tool (title, annotations), and a tool that requires MCP
//! tasks marked unsupported.
//!
//! Policy: each page is read tool by tool (`tool_reading.rs`): a tool that is not valid MCP is
//! that tool's fault (listed, withheld, with why), never the page's. The limits are checked as
//! the pages arrive, so a server that lists too much (or pages forever) is cut off before it
//! costs memory; one tool over a per-tool limit fails the whole list, naming the tool and the
//! limit (see [`McpLimits`]).

use std::time::Duration;

use rmcp::model::{ClientRequest, ListToolsRequest, PaginatedRequestParams, ServerResult};
use serde_json::Value;

use super::connection::Connection;
use super::error::{self, McpError, McpHint};
use super::options::McpLimits;
use super::tool_reading::{read_page, ReadTool, ValidTool, NOT_VALID_MCP, REQUIRES_TASKS};
use crate::tools::ToolDefinition;

/// Why a listing failed: the server (it failed, or hung: the connection is done for) or its
/// list (over a limit: the server itself is fine).
pub(crate) enum ListFailure {
    /// The server failed or did not answer in time.
    Server(McpError),
    /// The list is over a limit.
    Limit(McpError),
}

/// What a listing found: every tool (bare names, as the server gives them; a tool that is not
/// valid MCP among them, named by its name or `tools[N]` and marked unsupported with why), and
/// what the list said of some tools beyond their definitions.
#[derive(Debug, Default)]
pub(crate) struct Listed {
    pub(crate) tools: Vec<ToolDefinition>,
    pub(crate) notes: Vec<ToolNote>,
    /// How long the list may be taken as fresh: the shortest `ttlMs` of its pages (MCP
    /// 2026-07-28, <https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching>,
    /// "Time-to-Live (TTL) Field"); `None` when no page gave one (a legacy server).
    pub(crate) ttl: Option<Duration>,
}

/// What a listing says of one tool beyond its definition.
#[derive(Debug)]
pub(crate) struct ToolNote {
    /// The tool's bare name, or its position (`tools[N]`).
    pub(crate) tool: String,
    pub(crate) kind: NoteKind,
    /// What is wrong, or how it was read.
    pub(crate) text: String,
}

/// Whether a tool was refused or read leniently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoteKind {
    /// Not valid MCP: refused (listed, marked unsupported).
    Invalid,
    /// Read leniently: loaded and offered.
    Lenient,
}

/// Lists every tool of the server behind `client`.
pub(crate) async fn list(
    connection: &Connection,
    target: &str,
    timeout: Duration,
    limits: &McpLimits,
) -> Result<Listed, ListFailure> {
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
) -> Result<Listed, ListFailure> {
    let mut listed = Listed::default();
    let mut read = 0usize;
    let mut cursor = None;
    loop {
        let result = page(connection, target, cursor).await?;
        if let Some(ttl) = result.get("ttlMs").and_then(Value::as_u64) {
            let ttl = Duration::from_millis(ttl);
            listed.ttl = Some(listed.ttl.map_or(ttl, |shortest| shortest.min(ttl)));
        }
        let page = read_page(&result, read).map_err(|why| {
            ListFailure::Server(McpError::Protocol {
                program: target.to_owned(),
                reason: format!("listing its tools failed: {why}"),
                hint: None,
                detail: String::new(),
            })
        })?;
        read += page.tools.len();
        if read > limits.max_tools {
            return Err(ListFailure::Limit(McpError::TooLarge {
                program: target.to_owned(),
                what: "its tool list".to_owned(),
                limit: "max_tools".to_owned(),
                size: read,
                max: limits.max_tools,
            }));
        }
        for tool in page.tools {
            match tool {
                ReadTool::Valid(tool) => {
                    if let Some(how) = tool.lenient {
                        listed.notes.push(ToolNote {
                            tool: tool.name.clone(),
                            kind: NoteKind::Lenient,
                            text: how.to_owned(),
                        });
                    }
                    // One judge (`tool_reading::requires_tasks`), read where `execution` is
                    // still there: the raw answer, or the stdio tap's line before `rmcp` drops it.
                    let withheld = tool.withheld;
                    let mut def = definition(tool, target, limits).map_err(ListFailure::Limit)?;
                    if let Some(why) = withheld {
                        def = def.unsupported_because(why);
                    } else if connection.requires_tasks(&def.name) {
                        def = def.unsupported_because(REQUIRES_TASKS);
                    }
                    listed.tools.push(def);
                }
                ReadTool::Invalid { name, reason } => {
                    // Kept in the list, withheld: the census keeps its name taken, a call to
                    // it says why, and `census`/`wire` list it as left out.
                    listed.tools.push(
                        ToolDefinition::new(name.clone(), String::new(), Value::Null)
                            .unsupported_because(format!("{NOT_VALID_MCP}{reason}")),
                    );
                    listed.notes.push(ToolNote {
                        tool: name,
                        kind: NoteKind::Invalid,
                        text: reason,
                    });
                }
            }
        }
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => return Ok(listed),
        }
    }
}

/// One page's raw result: `tools/list` sent as `rmcp` sends it, the answer taken raw when
/// `rmcp`'s own `ListToolsResult` does not read it (its untagged `ServerResult` then holds it
/// as a `CustomResult`), so one tool that is not MCP fails only itself.
async fn page(
    connection: &Connection,
    target: &str,
    cursor: Option<String>,
) -> Result<Value, ListFailure> {
    let params = PaginatedRequestParams::default().with_cursor(cursor);
    let request = ClientRequest::ListToolsRequest(ListToolsRequest::with_param(params));
    let failed = |why: error::Reason| {
        ListFailure::Server(McpError::Protocol {
            program: target.to_owned(),
            reason: format!("listing its tools failed: {}", why.text),
            hint: why.hint,
            detail: String::new(),
        })
    };
    match connection.client.send_request(request).await {
        Ok(ServerResult::ListToolsResult(result)) => {
            serde_json::to_value(result).map_err(|e| failed(e.to_string().into()))
        }
        Ok(ServerResult::CustomResult(raw)) => Ok(raw.0),
        Ok(_) => Err(failed(
            "its answer to tools/list is another kind of MCP result"
                .to_owned()
                .into(),
        )),
        Err(e) => Err(failed(error::request(&e))),
    }
}

/// One server tool as a definition (its bare name), or the limit it goes over.
fn definition(
    tool: ValidTool,
    target: &str,
    limits: &McpLimits,
) -> Result<ToolDefinition, McpError> {
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
    let schema_bytes = serde_json::to_vec(&tool.input_schema).map_or(0, |b| b.len());
    if schema_bytes > limits.max_schema_bytes {
        return Err(too_large(
            "input schema (bytes)",
            "max_schema_bytes",
            schema_bytes,
            limits.max_schema_bytes,
        ));
    }
    let mut def = ToolDefinition::new(
        tool.name.clone(),
        description.to_owned(),
        Value::Object(tool.input_schema),
    );
    // MCP has a title in two places; the tool's own wins over its annotations' older one.
    if let Some(title) = tool.title.or(tool.annotations_title) {
        def = def.with_title(title);
    }
    if let Some(output) = tool.output_schema {
        def = def.with_output_schema(Value::Object(output));
    }
    if let Some(hints) = tool.annotations {
        def = def.with_annotations(hints);
    }
    Ok(def)
}
