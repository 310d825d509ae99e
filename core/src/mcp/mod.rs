//! MCP servers as tool providers: where a server is ([`McpServer`]: a command over stdio, a
//! URL over streamable HTTP), how long to wait and how much to accept ([`McpOptions`]), and
//! [`McpProvider`], the provider over one server (the `rmcp` client).
//!
//! One file per job:
//! - `server.rs`: where a server is, and the server-name rule;
//! - `options.rs`: timeouts and limits;
//! - `error.rs`: [`McpError`] with its [`McpHint`], and every `rmcp` error said in words;
//! - `connection.rs`: one live connection (start or reach, handshake, end);
//! - `process_group.rs`: a stdio server's process group, killed as a whole;
//! - `stderr_tail.rs`: a stdio server's last stderr lines;
//! - `stdout_tap.rs`: a stdio server's messages, bounded, and what `rmcp` drops from them
//!   (`execution.taskSupport`);
//! - `message_check.rs`: whether a stdio server's message can be read (too deep, not UTF-8, not
//!   JSON-RPC), and the error answer that fails its request at once when it cannot;
//! - `tool_reading.rs`: a `tools/list` answer read tool by tool from its raw JSON;
//! - `listing.rs`: a tool list, within the limits, with titles and annotations;
//! - `call.rs`: one `tools/call` within its limit (cancelled past it or when dropped), and the
//!   `ping` (`server/discover` in 2026-07-28) that tells a slow call from a server that
//!   stopped answering;
//! - `provider.rs`: [`McpProvider`];
//! - `serve/`: the other way round, a runtime served as an MCP server ([`serve::ToolServer`]).
//!
//! MCP tasks are not run: a tool whose `execution.taskSupport` is `required` is listed marked
//! unsupported (the runtime withholds it). `rmcp` 3.11's `Tool` does not carry `execution`, so
//! this is read from a stdio server's raw messages; over HTTP such a tool is listed like any
//! other, and a call to it fails with the server's own error.
//!
//! ```no_run
//! use std::sync::Arc;
//! use toolwire_core::mcp::{McpCommand, McpProvider};
//! use toolwire_core::ToolRuntime;
//!
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! // Each tool of the server is the runtime's `mcp/files/<tool>`, sent under its form.
//! let files = McpCommand::new("npx").arg("-y").arg("@modelcontextprotocol/server-filesystem").arg("/tmp");
//! let provider = McpProvider::connect("files", files).await?;
//! let runtime = ToolRuntime::new();
//! runtime.add_provider(Arc::new(provider)).await?.check()?;
//! # Ok(()) }
//! ```

mod call;
pub mod config;
mod connection;
mod content;
mod envelope;
mod era;
mod error;
mod input_required;
mod listing;
mod message_check;
mod options;
mod process_group;
mod provider;
pub mod serve;
mod server;
mod stderr_tail;
mod stdout_tap;
mod tool_reading;

pub use content::{call_tool_result, tool_output};
pub use error::{McpError, McpHint};

/// Not public API: the reading of a server's raw messages, for the fuzz target
/// (`fuzz/fuzz_targets/mcp_input.rs`), which sees only public items.
#[doc(hidden)]
pub mod __fuzz {
    use serde_json::Value;

    /// The deepest nesting read in one message.
    pub const MAX_MESSAGE_DEPTH: usize = super::message_check::MAX_MESSAGE_DEPTH;
    /// The `data` of the error answer that replaces an unreadable message.
    pub const UNREADABLE: &str = super::message_check::UNREADABLE;

    /// The deepest nesting of arrays and objects outside strings.
    pub fn nesting_depth(line: &[u8]) -> usize {
        super::message_check::nesting_depth(line)
    }

    /// What the stdio tap does with one line (without its newline): `("pass" | "pass_noted" |
    /// "replace" | "drop_noted" | "end", the replacement line or the reason)`.
    pub fn check_line(line: &[u8]) -> (&'static str, Vec<u8>) {
        use super::message_check::{check_line, LineVerdict};
        match check_line(line) {
            LineVerdict::Pass => ("pass", Vec::new()),
            LineVerdict::PassNoted(why) => ("pass_noted", why.into_bytes()),
            LineVerdict::Replace(answer) => ("replace", answer),
            LineVerdict::DropNoted(why) => ("drop_noted", why.into_bytes()),
            LineVerdict::End(why) => ("end", why.into_bytes()),
        }
    }

    /// One tool as read: `Ok((name, input schema, how it was read leniently))` or
    /// `Err((name or tools[N], what is wrong))`.
    pub type ReadTool = Result<(String, Value, Option<&'static str>), (String, String)>;

    /// A `tools/list` result read tool by tool, numbered from `first`: its tools and next
    /// cursor, or why it is no tool list.
    pub fn read_page(
        result: &Value,
        first: usize,
    ) -> Result<(Vec<ReadTool>, Option<String>), String> {
        use super::tool_reading::{read_page, ReadTool as Read};
        let page = read_page(result, first)?;
        let tools = page
            .tools
            .into_iter()
            .map(|tool| match tool {
                Read::Valid(v) => Ok((v.name, Value::Object(v.input_schema), v.lenient)),
                Read::Invalid { name, reason } => Err((name, reason)),
            })
            .collect();
        Ok((tools, page.next_cursor))
    }
}
pub use options::{McpLimits, McpOptions, McpTimeouts};
pub use provider::McpProvider;
pub use server::{check_server_name, McpCommand, McpHttp, McpServer};

use std::sync::Arc;

use crate::runtime::LoadProblem;
use crate::tools::ToolDefinition;

/// The runtime's real name for tool `tool` of MCP server `server`: `mcp/<server>/<tool>`. An
/// empty tool name stays empty, so a census reports it as empty instead of hiding it behind
/// the prefix.
///
/// ```
/// use toolwire_core::mcp::mcp_tool_name;
/// assert_eq!(mcp_tool_name("files", "read_file"), "mcp/files/read_file");
/// assert_eq!(mcp_tool_name("files", ""), "");
/// ```
pub fn mcp_tool_name(server: &str, tool: &str) -> String {
    if tool.is_empty() {
        String::new()
    } else {
        format!("mcp/{server}/{tool}")
    }
}

/// Starts the MCP server `program args…`, lists its tools (bare names, as the server gives
/// them) and stops it, with the default [`McpOptions`]. [`list_tools_of`] takes any
/// [`McpServer`] and options.
///
/// ```no_run
/// # async fn demo() -> Result<(), toolwire_core::mcp::McpError> {
/// let tools = toolwire_core::mcp::list_server_tools("my-mcp-server", &["--stdio".to_string()]).await?;
/// for tool in tools { println!("{}", tool.name); }
/// # Ok(()) }
/// ```
pub async fn list_server_tools(
    program: &str,
    args: &[String],
) -> Result<Vec<ToolDefinition>, McpError> {
    let mut command = McpCommand::new(program);
    command.args = args.to_vec();
    list_tools_of(&McpServer::Stdio(command), &McpOptions::default()).await
}

/// Connects to `server` (starting it, for a command), lists its tools (bare names, as the
/// server gives them, with titles and annotations) within `options`, and ends it. A tool that
/// is not valid MCP does not fail the list: it is in it, named by its name (or by its position,
/// `tools[N]`, when it has no string name) and marked unsupported with what is wrong
/// ([`ToolDefinition::unsupported`]), so a census withholds it and says why.
///
/// ```no_run
/// # async fn demo() -> Result<(), toolwire_core::mcp::McpError> {
/// use std::time::Duration;
/// use toolwire_core::mcp::{McpHttp, McpOptions, McpServer, McpTimeouts, list_tools_of};
/// let server = McpServer::Http(McpHttp::new("http://127.0.0.1:8000/mcp").header("Authorization", "Bearer s3cret"));
/// let options = McpOptions {
///     timeouts: McpTimeouts { start: Duration::from_secs(5), ..McpTimeouts::default() },
///     ..McpOptions::default()
/// };
/// for tool in list_tools_of(&server, &options).await? { println!("{}", tool.name); }
/// # Ok(()) }
/// ```
pub async fn list_tools_of(
    server: &McpServer,
    options: &McpOptions,
) -> Result<Vec<ToolDefinition>, McpError> {
    Ok(list_tools_with_notes_of(server, options).await?.tools)
}

/// What [`list_tools_with_notes_of`] read: the tools (as [`list_tools_of`] gives them) and how
/// each tool that was read leniently was read ([`LoadProblem::ReadLeniently`], named by its
/// bare name), the notes a runtime's load returns in [`LoadStatus::LoadedWithNotes`].
///
/// [`LoadStatus::LoadedWithNotes`]: crate::runtime::LoadStatus::LoadedWithNotes
///
/// ```
/// use toolwire_core::mcp::McpToolList;
/// let list = McpToolList::default();
/// assert!(list.tools.is_empty() && list.notes.is_empty());
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct McpToolList {
    /// Every listed tool, bare names as the server gives them; a tool that is not valid MCP
    /// among them, marked unsupported with what is wrong.
    pub tools: Vec<ToolDefinition>,
    /// One note per tool read leniently (an MCP tool without `inputSchema` is a tool without
    /// arguments): it is in `tools` and offered, but its server did not list it as MCP says.
    pub notes: Vec<LoadProblem>,
}

/// [`list_tools_of`], with how each tool read leniently was read: what `toolwire census` and
/// `toolwire wire` say beside the tools (loud means returned).
///
/// ```no_run
/// # async fn demo() -> Result<(), toolwire_core::mcp::McpError> {
/// use toolwire_core::mcp::{list_tools_with_notes_of, McpCommand, McpOptions, McpServer};
/// let server = McpServer::Stdio(McpCommand::new("my-mcp-server"));
/// let list = list_tools_with_notes_of(&server, &McpOptions::default()).await?;
/// for note in &list.notes { eprintln!("{note}"); }
/// # Ok(()) }
/// ```
pub async fn list_tools_with_notes_of(
    server: &McpServer,
    options: &McpOptions,
) -> Result<McpToolList, McpError> {
    let changed = Arc::new(tokio::sync::watch::channel(0).0);
    let memory = era::EraMemory::default();
    let connection = connection::connect(server, &options.timeouts, changed, &memory).await?;
    let listed = listing::list(
        &connection,
        server.target(),
        options.timeouts.list,
        &options.limits,
    )
    .await;
    match listed {
        Ok(listed) => {
            let notes = (listed.notes.into_iter())
                .filter(|note| note.kind == listing::NoteKind::Lenient)
                .map(|note| LoadProblem::ReadLeniently {
                    tool: note.tool,
                    reading: note.text,
                })
                .collect();
            Ok(McpToolList {
                tools: listed.tools,
                notes,
            })
        }
        Err(listing::ListFailure::Limit(e)) => Err(e),
        Err(listing::ListFailure::Server(e)) => {
            connection.kill();
            Err(e.followed_by(&connection.explain().await))
        }
    }
    // The connection is dropped here: its server (a stdio server's whole group) ends.
}
