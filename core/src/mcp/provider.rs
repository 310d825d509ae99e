//! [`McpProvider`]: a [`ToolProvider`] over one MCP server.
//!
//! Policy: the server's tools are named `mcp/<server>/<tool>`; a server that exits, crashes or
//! hangs fails only its own calls, with a typed error that explains itself (its last stderr
//! lines), is ended with its whole process group, and marks this provider failed until it is
//! reloaded. A call that runs past its limit is that call's failure alone: it is cancelled, and
//! the server counts as hung only when it does not answer `ping` (`server/discover` in
//! 2026-07-28) either (`call.rs`). A tool-list change the server announces is passed on through
//! [`ToolProvider::tools_changed`].

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures::future::BoxFuture;
use rmcp::model::{CallToolRequestParams, CallToolResponse, CallToolResult, ErrorCode};
use rmcp::service::ServiceError;
use serde_json::Value;
use tokio::sync::watch;

use super::call::{call_within, ping_bound, still_answers, CallEnd, WRITE_GRACE};
use super::connection::{connect, Connection};
use super::content::into_tool_output;
use super::era::EraMemory;
use super::error;
use super::input_required::asked_for;
use super::listing::{list, ListFailure, Listed, NoteKind};
use super::mcp_tool_name;
use super::options::{McpLimits, McpOptions, McpTimeouts};
use super::server::{check_server_name, McpCommand, McpServer};
use crate::provider::{arguments_as_object, ProviderError, ToolProvider};
use crate::runtime::LoadProblem;
use crate::tools::ToolDefinition;
use crate::tools::ToolError;
use crate::tools::ToolOutput;

/// A [`ToolProvider`] over an MCP server, spoken to over stdio or streamable HTTP. Its tools
/// are named `mcp/<server>/<tool>`; the provider is named `mcp/<server>`.
///
/// ```no_run
/// # async fn demo() -> Result<(), toolwire_core::provider::ProviderError> {
/// use std::time::Duration;
/// use toolwire_core::mcp::{McpCommand, McpHttp, McpProvider};
/// let files = McpProvider::spawn("files", McpCommand::new("mcp-server-filesystem").arg("/tmp"))
///     .await?
///     .with_call_timeout(Duration::from_secs(10));
/// let docs = McpProvider::connect(
///     "docs",
///     McpHttp::new("http://127.0.0.1:8000/mcp").header("Authorization", "Bearer s3cret"),
/// )
/// .await?;
/// # Ok(()) }
/// ```
pub struct McpProvider {
    server: String,
    provider_name: String,
    prefix: String,
    target: McpServer,
    options: McpOptions,
    /// Call limits of single tools, by the server's own tool name
    /// (`with_tool_call_timeout`); every other tool has `options.timeouts.call`.
    tool_call_timeouts: HashMap<String, Duration>,
    connection: Mutex<Option<Arc<Connection>>>,
    failed: AtomicBool,
    /// What the last listing said of some tools (refused, read leniently), as load problems.
    listing_problems: Mutex<Vec<LoadProblem>>,
    /// Bumped on each `notifications/tools/list_changed`, by every connection this provider
    /// makes: one sender for the provider's life, so a receiver keeps working across reloads.
    changed: Arc<watch::Sender<u64>>,
    /// Whether an `isError` result is returned as it came (`with_error_results_kept`).
    keep_error_results: bool,
    /// The era found for the server (`era.rs`): a reload of a stdio command skips the probe.
    era: EraMemory,
    /// When the last listing's `ttlMs` runs out: the first call after it asks for the list to
    /// be read again, through the same path as a change the server announces.
    list_expires: Mutex<Option<Instant>>,
}

impl Drop for McpProvider {
    /// Ends the server (its whole process group) when the provider goes, whoever else still
    /// holds the connection (a task of the client, a call's future that was dropped): a
    /// dropped provider never leaves a process behind.
    fn drop(&mut self) {
        let connection = self
            .connection
            .get_mut()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        if let Some(connection) = connection {
            connection.kill();
        }
    }
}

impl std::fmt::Debug for McpProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpProvider")
            .field("server", &self.server)
            .field("target", &self.target)
            .field("options", &self.options)
            .field("tool_call_timeouts", &self.tool_call_timeouts)
            .field("failed", &self.failed.load(Ordering::Relaxed))
            .finish()
    }
}

impl McpProvider {
    /// Starts the server's program and connects (the MCP handshake), with the default
    /// [`McpOptions`]. The provider is named `mcp/<server>`; `server` must pass
    /// [`check_server_name`].
    ///
    /// ```
    /// use toolwire_core::mcp::{McpCommand, McpProvider};
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let missing = McpCommand::new("/nonexistent/mcp-server");
    /// let err = McpProvider::spawn("files", missing).await.unwrap_err();
    /// assert_eq!(err.provider, "mcp/files");
    /// assert!(err.reason.contains("could not start MCP server `/nonexistent/mcp-server`"));
    /// let err = McpProvider::spawn("", McpCommand::new("x")).await.unwrap_err();
    /// assert!(err.reason.contains("bad MCP server name ``"), "{err}");
    /// # });
    /// ```
    pub async fn spawn(
        server: impl Into<String>,
        command: McpCommand,
    ) -> Result<McpProvider, ProviderError> {
        McpProvider::connect_with(server, command, McpOptions::default()).await
    }

    /// Connects to `server` (starting it, for a command), with the default [`McpOptions`].
    ///
    /// ```
    /// use toolwire_core::mcp::{McpHttp, McpProvider};
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let err = McpProvider::connect("docs", McpHttp::new("ftp://example.invalid/mcp"))
    ///     .await
    ///     .unwrap_err();
    /// assert_eq!(err.provider, "mcp/docs");
    /// assert!(err.reason.contains("http://"), "{err}");
    /// # });
    /// ```
    pub async fn connect(
        server: impl Into<String>,
        target: impl Into<McpServer>,
    ) -> Result<McpProvider, ProviderError> {
        McpProvider::connect_with(server, target, McpOptions::default()).await
    }

    /// Connects to `target` with `options`: its [`McpTimeouts`] bound the start itself, every
    /// listing and every call; its [`McpLimits`] bound every listing.
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), toolwire_core::provider::ProviderError> {
    /// use std::time::Duration;
    /// use toolwire_core::mcp::{McpCommand, McpOptions, McpProvider, McpTimeouts};
    /// let options = McpOptions {
    ///     timeouts: McpTimeouts { start: Duration::from_secs(120), ..McpTimeouts::default() },
    ///     ..McpOptions::default()
    /// };
    /// let command = McpCommand::new("npx").arg("-y").arg("@modelcontextprotocol/server-memory");
    /// let memory = McpProvider::connect_with("memory", command, options).await?;
    /// # let _ = memory;
    /// # Ok(()) }
    /// ```
    pub async fn connect_with(
        server: impl Into<String>,
        target: impl Into<McpServer>,
        options: McpOptions,
    ) -> Result<McpProvider, ProviderError> {
        let server = server.into();
        let provider_name = format!("mcp/{server}");
        check_server_name(&server)
            .map_err(|e| ProviderError::new(&provider_name, e.to_string()))?;
        let provider = McpProvider {
            prefix: format!("mcp/{server}/"),
            provider_name,
            server,
            target: target.into(),
            options,
            tool_call_timeouts: HashMap::new(),
            connection: Mutex::new(None),
            listing_problems: Mutex::new(Vec::new()),
            failed: AtomicBool::new(false),
            changed: Arc::new(watch::channel(0).0),
            keep_error_results: false,
            era: EraMemory::default(),
            list_expires: Mutex::new(None),
        };
        provider.start().await?;
        Ok(provider)
    }

    /// This provider with a different per-call timeout (60 s by default). A call that takes
    /// longer fails with [`ToolError::TimedOut`] and is cancelled on the server; only a server
    /// that then does not answer `ping` (`server/discover` in 2026-07-28) either is ended and
    /// marks the provider failed
    /// ([`McpTimeouts::call`]).
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), toolwire_core::provider::ProviderError> {
    /// use std::time::Duration;
    /// use toolwire_core::mcp::{McpCommand, McpProvider};
    /// let slow = McpProvider::spawn("slow", McpCommand::new("my-slow-server"))
    ///     .await?
    ///     .with_call_timeout(Duration::from_secs(300));
    /// # let _ = slow;
    /// # Ok(()) }
    /// ```
    pub fn with_call_timeout(mut self, timeout: Duration) -> McpProvider {
        self.options.timeouts.call = timeout;
        self
    }

    /// This provider with a call limit of `tool`'s own, in place of [`McpTimeouts::call`] for
    /// that tool alone: a slow export beside quick lookups on one server, each with a limit
    /// that fits it. `tool` is the name the server lists (`export`, not `mcp/<server>/export`);
    /// a name the server does not list limits nothing. A call past it is cancelled and treated
    /// as any call past its limit ([`with_call_timeout`](McpProvider::with_call_timeout)); the
    /// limit stays through [`with_timeouts`](McpProvider::with_timeouts) and reloads.
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), toolwire_core::provider::ProviderError> {
    /// use std::time::Duration;
    /// use toolwire_core::mcp::{McpCommand, McpProvider};
    /// let db = McpProvider::spawn("db", McpCommand::new("my-db-server"))
    ///     .await?
    ///     .with_call_timeout(Duration::from_secs(5))
    ///     .with_tool_call_timeout("export", Duration::from_secs(600));
    /// # let _ = db;
    /// # Ok(()) }
    /// ```
    pub fn with_tool_call_timeout(
        mut self,
        tool: impl Into<String>,
        timeout: Duration,
    ) -> McpProvider {
        self.tool_call_timeouts.insert(tool.into(), timeout);
        self
    }

    /// This provider with a tool's `isError` result returned as it came, a
    /// [`ToolOutput::Content`] whose `is_error` is set (every block and the
    /// `structuredContent` kept), instead of a [`ToolError`] of its text. For a gateway that
    /// serves the result on to an MCP client (`toolwire serve`): the client gets the backend's
    /// error result unchanged, an image beside the text included. A runtime whose answers go to
    /// an LLM API keeps the default, a typed error (an SDK's input-validation text becomes
    /// [`ToolError::InvalidArguments`]).
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), toolwire_core::provider::ProviderError> {
    /// use toolwire_core::mcp::{McpCommand, McpProvider};
    /// let backend = McpProvider::spawn("wx", McpCommand::new("wx-server")).await?.with_error_results_kept();
    /// # let _ = backend;
    /// # Ok(()) }
    /// ```
    pub fn with_error_results_kept(mut self) -> McpProvider {
        self.keep_error_results = true;
        self
    }

    /// This provider with other timeouts for what follows: listing, calls, and the start of a
    /// reload (the first start already happened; pass timeouts for it to
    /// [`connect_with`](McpProvider::connect_with)).
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), toolwire_core::provider::ProviderError> {
    /// use std::time::Duration;
    /// use toolwire_core::mcp::{McpCommand, McpProvider, McpTimeouts};
    /// let timeouts = McpTimeouts { list: Duration::from_secs(5), ..McpTimeouts::default() };
    /// let quick = McpProvider::spawn("quick", McpCommand::new("my-server")).await?.with_timeouts(timeouts);
    /// assert_eq!(quick.options().timeouts, timeouts);
    /// # Ok(()) }
    /// ```
    pub fn with_timeouts(mut self, timeouts: McpTimeouts) -> McpProvider {
        self.options.timeouts = timeouts;
        self
    }

    /// This provider with other limits on its tool list, from its next listing on.
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), toolwire_core::provider::ProviderError> {
    /// use toolwire_core::mcp::{McpCommand, McpLimits, McpProvider};
    /// let limits = McpLimits { max_tools: 100, ..McpLimits::default() };
    /// let small = McpProvider::spawn("small", McpCommand::new("my-server")).await?.with_limits(limits);
    /// assert_eq!(small.options().limits.max_tools, 100);
    /// # Ok(()) }
    /// ```
    pub fn with_limits(mut self, limits: McpLimits) -> McpProvider {
        self.options.limits = limits;
        self
    }

    /// The timeouts and limits in force.
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), toolwire_core::provider::ProviderError> {
    /// use toolwire_core::mcp::{McpCommand, McpOptions, McpProvider};
    /// let files = McpProvider::spawn("files", McpCommand::new("mcp-server-filesystem")).await?;
    /// assert_eq!(files.options(), &McpOptions::default());
    /// # Ok(()) }
    /// ```
    pub fn options(&self) -> &McpOptions {
        &self.options
    }

    /// The server's short name.
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), toolwire_core::provider::ProviderError> {
    /// use toolwire_core::{mcp::{McpCommand, McpProvider}, provider::ToolProvider};
    /// let files = McpProvider::spawn("files", McpCommand::new("mcp-server-filesystem")).await?;
    /// assert_eq!(files.server(), "files");
    /// assert_eq!(files.name(), "mcp/files");
    /// # Ok(()) }
    /// ```
    pub fn server(&self) -> &str {
        &self.server
    }

    /// Whether the server exited, crashed or hung since it was last (re)started.
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), toolwire_core::provider::ProviderError> {
    /// use toolwire_core::{mcp::{McpCommand, McpProvider}, provider::ToolProvider};
    /// let files = McpProvider::spawn("files", McpCommand::new("mcp-server-filesystem")).await?;
    /// assert!(!files.is_failed());
    /// if files.is_failed() {
    ///     files.reload().await?; // a fresh server process
    /// }
    /// # Ok(()) }
    /// ```
    pub fn is_failed(&self) -> bool {
        self.failed.load(Ordering::SeqCst)
    }

    /// The MCP protocol version negotiated with the running server (`"2026-07-28"` for one
    /// that answered `server/discover`, an earlier revision for one spoken to with
    /// `initialize`), or `None` while it is not running. Fixed for the life of a stdio server's
    /// process; a reload may find another.
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), toolwire_core::provider::ProviderError> {
    /// use toolwire_core::mcp::{McpCommand, McpProvider};
    /// let files = McpProvider::spawn("files", McpCommand::new("mcp-server-filesystem")).await?;
    /// println!("files speaks MCP {}", files.protocol_version().unwrap_or_default());
    /// # Ok(()) }
    /// ```
    pub fn protocol_version(&self) -> Option<String> {
        self.connection()
            .map(|connection| connection.protocol_version().to_string())
    }

    /// Asks for the list to be read again if its `ttlMs` has run out (once per listing).
    fn relist_if_stale(&self) {
        let mut expires = self.list_expires.lock().unwrap_or_else(|p| p.into_inner());
        if expires.is_some_and(|at| Instant::now() >= at) {
            *expires = None;
            drop(expires);
            self.changed.send_modify(|n| *n = n.wrapping_add(1));
        }
    }

    async fn start(&self) -> Result<(), ProviderError> {
        let connection = connect(
            &self.target,
            &self.options.timeouts,
            self.changed.clone(),
            &self.era,
        )
        .await
        .map_err(|e| ProviderError::new(&self.provider_name, e.to_string()))?;
        let old = self
            .connection
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .replace(Arc::new(connection));
        if let Some(old) = old {
            old.kill(); // Even while a call in flight still holds it.
        }
        self.failed.store(false, Ordering::SeqCst);
        Ok(())
    }

    fn connection(&self) -> Option<Arc<Connection>> {
        self.connection
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Marks the provider failed and ends `used`, the connection the failed request went
    /// through (its whole process group). A connection started by a reload since is left alone.
    fn fail(&self, used: &Arc<Connection>) {
        used.kill();
        let mut current = self.connection.lock().unwrap_or_else(|p| p.into_inner());
        if current.as_ref().is_some_and(|c| Arc::ptr_eq(c, used)) {
            self.failed.store(true, Ordering::SeqCst);
            let old = current.take();
            drop(current);
            drop(old);
        }
    }

    /// The answer to a call to `tool` that ran past its `limit` (rmcp has cancelled the
    /// request already when `cancel_taken`; otherwise the outer bound ended it while its cancel
    /// was still being written, see `call_within`): the server is asked whether it is alive
    /// ([`still_answers`], bounded by [`ping_bound`]), and only a server that does not answer is
    /// ended and marks the provider failed. The calls running beside this one on a server that
    /// answers go on.
    async fn timed_out(
        &self,
        tool: &str,
        limit: Duration,
        cancel_taken: bool,
        connection: &Arc<Connection>,
    ) -> ToolError {
        let bound = ping_bound(self.options.timeouts.start);
        let version = connection.protocol_version();
        let detail = match still_answers(&connection.client, version, bound).await {
            // The server's words so far, not waited for: it has not exited.
            Ok(_) if cancel_taken => format!(
                "; the request was cancelled, and the server still answers{}",
                connection.tail_so_far()
            ),
            // A legacy HTTP server that holds the cancel's POST but answers the probe's.
            Ok(method) => format!(
                "; its cancel is still queued, and the server answers `{method}` now{}",
                connection.tail_so_far()
            ),
            Err(unanswered) => {
                connection.kill();
                let (verdict, tail) = connection.explain_apart().await;
                self.fail(connection);
                let unwritten = if cancel_taken {
                    String::new()
                } else {
                    format!(
                        "; not even its cancel was taken within {} ms more",
                        WRITE_GRACE.as_millis()
                    )
                };
                format!("{unwritten}; {unanswered}, so it was ended{verdict}{tail}")
            }
        };
        ToolError::TimedOut {
            tool: tool.to_owned(),
            provider: self.provider_name.clone(),
            millis: limit.as_millis().try_into().unwrap_or(u64::MAX),
            detail,
        }
    }

    /// The server said it has no such tool (`answered` is its words): the list it gave is stale
    /// ([`mark_list_stale`](Self::mark_list_stale)).
    fn no_such_tool(&self, tool: &str, answered: &str) -> ToolError {
        self.mark_list_stale();
        self.unavailable(
            tool,
            format!(
                "has no such tool: its server answered `{answered}`; its tool list is marked to be read again"
            ),
        )
    }

    /// Sends the change signal [`relist_if_stale`](Self::relist_if_stale) sends
    /// ([`ToolProvider::tools_changed`]). A `ToolRuntime` lists this provider again on it, in a
    /// task of its own (`runtime/loading.rs`, `watch_tool_list`): a request made once that
    /// listing is in (`ToolRuntime::tool_set_changes` says when) no longer offers the tool; one
    /// made before it still does, and its call of the tool gets this error again.
    fn mark_list_stale(&self) {
        *self.list_expires.lock().unwrap_or_else(|p| p.into_inner()) = None;
        self.changed.send_modify(|n| *n = n.wrapping_add(1));
    }

    fn unavailable(&self, tool: &str, reason: impl Into<String>) -> ToolError {
        ToolError::Unavailable {
            tool: tool.to_owned(),
            provider: self.provider_name.clone(),
            reason: reason.into(),
            detail: String::new(),
        }
    }
}

fn error_text(result: &CallToolResult) -> String {
    let texts: Vec<&str> = result
        .content
        .iter()
        .filter_map(|b| b.as_text().map(|t| t.text.as_str()))
        .collect();
    if texts.is_empty() {
        "the server reported an error with no text".to_owned()
    } else {
        texts.join("\n")
    }
}

/// The argument at fault (when the text names one) and the reason, when a server's `isError`
/// text is its answer to arguments its tool's schema refused, so the model is told its
/// arguments were wrong (and can fix them), not that the tool failed. The reason is the text
/// without the words that only say "bad arguments" again, so the error says so once.
///
/// Our source is the SDKs' behaviour, not the MCP spec (which leaves it to the server). The
/// TypeScript SDK's `McpServer` (`src/server/mcp.ts`): `validateToolInput` throws
/// `new McpError(ErrorCode.InvalidParams, "Input validation error: Invalid arguments for tool
/// <name>: <issues>")` inside the `tools/call` handler's `try`, whose `catch` returns
/// `this.createToolError(error.message)`, i.e. `{ content: [{ type: 'text', text }], isError:
/// true }`; an `McpError`'s message is prefixed `MCP error -32602: `. The Python SDK's
/// low-level `Server.call_tool` answers a `jsonschema.ValidationError` with
/// `self._make_error_result(f"Input validation error: {e.message}")`. So the text starts with
/// `Input validation error:`, after that optional prefix. A toolwire gateway (`toolwire serve`)
/// serves a bad-argument call as the `isError` text of `ToolError::InvalidArguments`
/// (`tools/tool_error.rs`, through `mcp/serve/call_result.rs`): ``bad arguments for tool
/// `<name>`[, argument `<a>`]: <reason>``.
fn bad_arguments(text: &str) -> Option<(Option<String>, String)> {
    let text = text.strip_prefix(SDK_INVALID_PARAMS).unwrap_or(text);
    if let Some(rest) = text.strip_prefix("Input validation error: ") {
        let issues = rest
            .strip_prefix("Invalid arguments for tool ")
            .and_then(|named| named.split_once(": "))
            .map_or(rest, |(_, issues)| issues);
        return Some((None, issues.to_owned()));
    }
    if text == "Input validation error:" {
        return Some((None, text.to_owned()));
    }
    let (_, after_name) = text
        .strip_prefix("bad arguments for tool `")?
        .split_once('`')?;
    match after_name.strip_prefix(", argument `") {
        Some(named) => {
            let (argument, reason) = named.split_once('`')?;
            Some((
                Some(argument.to_owned()),
                reason.strip_prefix(": ")?.to_owned(),
            ))
        }
        None => Some((None, after_name.strip_prefix(": ")?.to_owned())),
    }
}

/// Whether a server's words for a call of its tool `bare` say it has no such tool, which is no
/// fault of the arguments: a `-32602` (Invalid params) error's message (`protocol`), or an
/// `isError` result's text. Reading the words is our caution: the code alone cannot tell the
/// two apart. The patterns are anchored and must name `bare`, the tool called: a bad-argument
/// text that happens to say "not found" ("Invalid arguments for tool read: path not found")
/// stays bad arguments, and a tool whose own answer names another tool ("Unknown tool: x" from
/// a tool that runs tools) is that tool's failure, not a stale list. The texts, each the whole
/// message after the TypeScript SDK's optional `MCP error -32602: ` prefix (`McpError`'s
/// constructor, `dist/esm/types.js`: `MCP error ${code}: ${message}`):
/// - MCP 2025-11-25, "Tools" → "Error Handling", lists "Unknown tools" among the protocol
///   errors, with `{"code": -32602, "message": "Unknown tool: invalid_tool_name"}`
///   (<https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling>);
///   the Python SDK's `MCPServer` (main branch, `src/mcp/server/mcpserver/tools/tool_manager.py`,
///   `ToolManager.call_tool`) raises `ToolError(f"Unknown tool: {name}")`, which its server
///   returns as an `isError` result of that text.
/// - rmcp 3.11's tool router answers `invalid_params("tool not found")`
///   (`src/handler/server/router/tool.rs`): no name, so read only as a protocol error.
/// - The TypeScript SDK 1.32.2's `McpServer` (`dist/esm/server/mcp.js`, the `tools/call`
///   handler) throws `new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`)`, and
///   `Tool ${name} disabled` for a tool it no longer lists (its `tools/list` handler keeps only
///   `tool.enabled` ones), inside its `try`, whose `catch` returns
///   `createToolError(error.message)`: an `isError` result whose text is
///   `MCP error -32602: Tool <name> not found` (or `disabled`).
fn names_an_unknown_tool(message: &str, bare: &str, protocol: bool) -> bool {
    let message = message.strip_prefix(SDK_INVALID_PARAMS).unwrap_or(message);
    let message = message.trim();
    let unknown = strip_prefix_ignoring_case(message, "unknown tool: ") == Some(bare);
    let named = strip_prefix_ignoring_case(message, "tool ").and_then(|rest| {
        rest.strip_suffix(" not found")
            .or(rest.strip_suffix(" disabled"))
    }) == Some(bare);
    unknown || named || (protocol && message.eq_ignore_ascii_case("tool not found"))
}

/// `text` after `prefix`, the prefix compared without case (the SDKs capitalise it apart).
fn strip_prefix_ignoring_case<'t>(text: &'t str, prefix: &str) -> Option<&'t str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &text[prefix.len()..])
}

/// The argument at fault and the reason a `-32602` error's message gives, said once like an
/// `isError` bad-argument text: an SDK's message carries its own `MCP error -32602: ` and
/// `Invalid arguments for tool <name>: ` words, which `InvalidArguments` says already. The
/// TypeScript SDK 1.32's `McpServer.validateToolInput` (`dist/esm/server/mcp.js`) also throws
/// `Invalid arguments for tool ${toolName}: arguments contain more than the maximum of …`
/// without `Input validation error: ` before it.
fn invalid_params_reason(message: &str) -> (Option<String>, String) {
    bad_arguments(message).unwrap_or_else(|| {
        let reason = message.strip_prefix(SDK_INVALID_PARAMS).unwrap_or(message);
        let reason = reason
            .strip_prefix("Invalid arguments for tool ")
            .and_then(|named| named.split_once(": "))
            .map_or(reason, |(_, issues)| issues);
        (None, reason.to_owned())
    })
}

/// The prefix the TypeScript SDK's `McpError` puts before its message (`dist/esm/types.js`,
/// `class McpError`: `super(`MCP error ${code}: ${message}`)`) for `-32602`.
const SDK_INVALID_PARAMS: &str = "MCP error -32602: ";

impl ToolProvider for McpProvider {
    fn name(&self) -> &str {
        &self.provider_name
    }

    fn list_tools(&self) -> BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>> {
        Box::pin(async move {
            let connection = self.connection().ok_or_else(|| {
                ProviderError::new(&self.provider_name, "the server is not running; reload it")
            })?;
            let listed = list(
                &connection,
                self.target.target(),
                self.options.timeouts.list,
                &self.options.limits,
            )
            .await;
            let Listed {
                mut tools,
                notes,
                ttl,
            } = match listed {
                Ok(listed) => listed,
                Err(ListFailure::Limit(e)) => {
                    return Err(ProviderError::new(&self.provider_name, e.to_string()))
                }
                Err(ListFailure::Server(e)) => {
                    connection.kill();
                    let e = e.followed_by(&connection.explain().await);
                    self.fail(&connection);
                    return Err(ProviderError::new(&self.provider_name, e.to_string()));
                }
            };
            // A positive ttlMs is honoured; 0 or none ("immediately stale", MCP 2026-07-28
            // caching, "Time-to-Live (TTL) Field": the client MAY re-fetch every time) is not
            // turned into a listing per call (our caution): such a server's changes still come
            // on its subscription or its list_changed notifications.
            *self.list_expires.lock().unwrap_or_else(|p| p.into_inner()) = ttl
                .filter(|ttl| !ttl.is_zero())
                .map(|ttl| Instant::now() + ttl);
            for tool in &mut tools {
                tool.name = mcp_tool_name(&self.server, &tool.name);
            }
            let problems = notes.into_iter().map(|note| {
                let tool = mcp_tool_name(&self.server, &note.tool);
                match note.kind {
                    NoteKind::Invalid => LoadProblem::InvalidTool {
                        tool,
                        reason: note.text,
                    },
                    NoteKind::Lenient => LoadProblem::ReadLeniently {
                        tool,
                        reading: note.text,
                    },
                }
            });
            *self
                .listing_problems
                .lock()
                .unwrap_or_else(|p| p.into_inner()) = problems.collect();
            Ok(tools)
        })
    }

    fn listing_problems(&self) -> Vec<LoadProblem> {
        self.listing_problems
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    fn call<'a>(
        &'a self,
        tool: &'a str,
        arguments: Value,
    ) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(async move {
            let Some(bare) = tool.strip_prefix(&self.prefix) else {
                return Err(self.unavailable(tool, "has no such tool"));
            };
            self.relist_if_stale();
            let Some(connection) = self.connection() else {
                return Err(self.unavailable(tool, "has failed and not been reloaded"));
            };
            let arguments = arguments_as_object(tool, arguments)?;
            let params = CallToolRequestParams::new(bare.to_owned()).with_arguments(arguments);
            let limit = self
                .tool_call_timeouts
                .get(bare)
                .copied()
                .unwrap_or(self.options.timeouts.call);
            let answer = match call_within(&connection.client, params, limit).await {
                CallEnd::Answered(CallToolResponse::Complete(result)) => Ok(result),
                CallEnd::Answered(CallToolResponse::InputRequired(asked)) => {
                    return Err(ToolError::InputRequired {
                        tool: tool.to_owned(),
                        provider: self.provider_name.clone(),
                        asked: asked_for(&asked),
                    })
                }
                CallEnd::Answered(_) => {
                    return Err(ToolError::Unavailable {
                        tool: tool.to_owned(),
                        provider: self.provider_name.clone(),
                        // rmcp 3.11 `CallToolResponse::Task` (SEP-2663, `resultType: "task"`).
                        reason: "answered with an MCP task (resultType: task), which toolwire \
                                 does not run"
                            .to_owned(),
                        detail: String::new(),
                    });
                }
                CallEnd::TimedOut { cancel_taken } => {
                    return Err(self.timed_out(tool, limit, cancel_taken, &connection).await)
                }
                CallEnd::Failed(e) => Err(e),
            };
            match answer {
                Ok(result) if result.is_error == Some(true) && !self.keep_error_results => {
                    let text = error_text(&result);
                    if let Some((argument, reason)) = bad_arguments(&text) {
                        Err(ToolError::InvalidArguments {
                            tool: tool.to_owned(),
                            argument,
                            reason,
                        })
                    } else if names_an_unknown_tool(&text, bare, false) {
                        // The TypeScript and Python SDKs answer an unknown tool this way.
                        Err(self.no_such_tool(tool, &text))
                    } else {
                        Err(ToolError::Failed {
                            tool: tool.to_owned(),
                            message: text,
                        })
                    }
                }
                Ok(result) => {
                    if result.is_error == Some(true)
                        && names_an_unknown_tool(&error_text(&result), bare, false)
                    {
                        // Kept for the client as it came, and still a sign the list is stale.
                        self.mark_list_stale();
                    }
                    Ok(into_tool_output(result))
                }
                Err(ServiceError::McpError(e))
                    if e.code == ErrorCode::INVALID_PARAMS
                        && names_an_unknown_tool(&e.message, bare, true) =>
                {
                    Err(self.no_such_tool(tool, &e.message))
                }
                Err(ServiceError::McpError(e)) if e.code == ErrorCode::INVALID_PARAMS => {
                    let (argument, reason) = invalid_params_reason(&e.message);
                    Err(ToolError::InvalidArguments {
                        tool: tool.to_owned(),
                        argument,
                        reason,
                    })
                }
                Err(ServiceError::McpError(e)) => Err(ToolError::Failed {
                    tool: tool.to_owned(),
                    message: e.message.to_string(),
                }),
                Err(e) => {
                    connection.kill();
                    let (verdict, tail) = connection.explain_apart().await;
                    let reason = format!("stopped answering: {}{verdict}", error::request(&e));
                    self.fail(&connection);
                    Err(ToolError::Unavailable {
                        tool: tool.to_owned(),
                        provider: self.provider_name.clone(),
                        reason,
                        detail: tail,
                    })
                }
            }
        })
    }

    fn reload(&self) -> BoxFuture<'_, Result<(), ProviderError>> {
        Box::pin(self.start())
    }

    fn is_failed(&self) -> bool {
        McpProvider::is_failed(self)
    }

    fn tools_changed(&self) -> Option<watch::Receiver<u64>> {
        Some(self.changed.subscribe())
    }

    fn protocol_version(&self) -> Option<String> {
        McpProvider::protocol_version(self)
    }

    fn shutdown(&self) {
        self.failed.store(true, Ordering::SeqCst);
        let connection = self
            .connection
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        if let Some(connection) = connection {
            // Now, even while a call in flight still holds the connection.
            connection.kill();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The error a bad-argument `isError` text becomes, as the app reads it.
    fn read_as(text: &str) -> String {
        let (argument, reason) = bad_arguments(text).expect("bad arguments");
        let tool = "mcp/gw/files_read".to_owned();
        ToolError::InvalidArguments {
            tool,
            argument,
            reason,
        }
        .to_string()
    }

    #[test]
    fn a_toolwire_gateway_s_bad_arguments_are_said_once_with_their_argument() {
        let served = "bad arguments for tool `files_read`, argument `path`: missing field `path`";
        assert_eq!(
            read_as(served),
            "bad arguments for tool `mcp/gw/files_read`, argument `path`: missing field `path`"
        );
        let served = "bad arguments for tool `files_read`: the arguments must be a JSON object";
        assert_eq!(
            read_as(served),
            "bad arguments for tool `mcp/gw/files_read`: the arguments must be a JSON object"
        );
    }

    #[test]
    fn an_sdk_s_validation_words_are_said_once() {
        let ts =
            "MCP error -32602: Input validation error: Invalid arguments for tool files_read: \
                  [{\"path\": [\"path\"]}]";
        assert_eq!(
            read_as(ts),
            "bad arguments for tool `mcp/gw/files_read`: [{\"path\": [\"path\"]}]"
        );
        let python = "Input validation error: 'path' is a required property";
        assert_eq!(
            read_as(python),
            "bad arguments for tool `mcp/gw/files_read`: 'path' is a required property"
        );
        // Any other text is the tool's own failure.
        assert_eq!(bad_arguments("tool `files_read` failed: disk full"), None);
        assert_eq!(bad_arguments("bad arguments for tool files_read"), None);
    }

    #[test]
    fn a_server_s_words_for_an_unknown_tool_are_read_by_anchored_patterns() {
        for (unknown, bare, protocol) in [
            // MCP 2025-11-25's example; the Python SDK's `ToolError` isError text.
            (
                "Unknown tool: invalid_tool_name",
                "invalid_tool_name",
                false,
            ),
            ("unknown tool: invalid_tool_name", "invalid_tool_name", true),
            // rmcp 3.11's tool router, as a protocol error.
            ("tool not found", "files_read", true),
            // The TypeScript SDK's isError texts, and a message bare.
            (
                "MCP error -32602: Tool files_read not found",
                "files_read",
                false,
            ),
            (
                "MCP error -32602: Tool files_read disabled",
                "files_read",
                false,
            ),
            ("Tool files_read not found", "files_read", true),
        ] {
            assert!(names_an_unknown_tool(unknown, bare, protocol), "{unknown}");
        }
        for (words, protocol) in [
            ("Invalid arguments for tool read: path not found", true),
            (
                "MCP error -32602: Invalid arguments for tool read: path not found",
                false,
            ),
            ("tool read: file not found", false),
            ("Tool  not found", true),
            ("no tool named `files_read`", true),
            ("the tool failed: unknown tool-chain", false),
            // Another tool's name: the answer of a tool that runs tools, not a stale list.
            ("Unknown tool: other_tool", false),
            ("MCP error -32602: Tool other_tool not found", false),
            ("Unknown tools: files_read", false),
            ("Unknown toolchain files_read", false),
            // No name: only a protocol error says it of the call itself.
            ("tool not found", false),
            ("invalid params", true),
            ("missing field `path`", true),
            ("Invalid arguments", true),
        ] {
            assert!(
                !names_an_unknown_tool(words, "files_read", protocol),
                "{words}"
            );
        }
    }

    #[test]
    fn a_32602_s_reason_is_said_once() {
        let ts = "MCP error -32602: Input validation error: Invalid arguments for tool x: \
                  [{\"path\": [\"path\"]}]";
        assert_eq!(
            invalid_params_reason(ts),
            (None, "[{\"path\": [\"path\"]}]".to_owned())
        );
        assert_eq!(
            invalid_params_reason("MCP error -32602: Invalid arguments for tool x: bad path"),
            (None, "bad path".to_owned())
        );
        assert_eq!(
            invalid_params_reason("files/read needs a string argument `path`"),
            (None, "files/read needs a string argument `path`".to_owned())
        );
    }
}
