//! Serving a [`ToolRuntime`] as an MCP server (`rmcp`): its `#[tool]`s, closure providers and
//! MCP backends, one definition for every client.
//!
//! Every offered tool is served under its form, cut to the [`NameBudget`] a client needs (a
//! client that prefixes names, Claude Code's `mcp__<server>__`, needs a shorter one), and only
//! when MCP and every LLM API toolwire knows accept that name (or it is withheld, saying why:
//! [`ServedListing::left_out`]). A call resolves its name by hop 5 against that census: a
//! served name or a real name reaches exactly its tool, anything else is MCP's unknown-tool
//! protocol error; there is no separator to split, so nothing is ever guessed.
//!
//! One file per job:
//! - `names.rs`: the names MCP and the LLM APIs accept;
//! - `listing.rs`: what one snapshot of the runtime serves, and what it leaves out;
//! - `call_result.rs`: a failing call as MCP's `CallToolResult` (a call that ran is
//!   `mcp::call_tool_result`, the one conversion of a `ToolOutput`);
//! - `era.rs`: which MCP revision a request speaks (a legacy session, or a 2026-07-28 request
//!   that stands alone), the revisions served, a list's cache hints;
//! - `session.rs`: one client's session: its conversation (what its catalog loaded), the
//!   handler `rmcp` runs, `list_changed` when its tools change;
//! - `http.rs`: streamable HTTP, safe by default (loopback, `Host` and `Origin` checked, a
//!   bearer token compared in constant time, bounded bodies and sessions).
//!
//! ```
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! use std::sync::Arc;
//! use serde_json::json;
//! use toolwire_core::mcp::serve::{ServeOptions, ToolServer};
//! use toolwire_core::{census::NameBudget, provider::provider_fn, ToolDefinition, ToolRuntime};
//!
//! let files = provider_fn("files", vec![ToolDefinition::new("mcp/files/read_file", "Reads.", json!({}))],
//!     |_, args| async move { Ok(args) });
//! let runtime = ToolRuntime::new();
//! runtime.add_provider(Arc::new(files)).await.unwrap().check().unwrap();
//! let options = ServeOptions::default().budget(NameBudget::new(12).unwrap());
//! let server = ToolServer::new(runtime, options);
//! let listing = server.listing();
//! assert_eq!(listing.tools[0].name, "mcp_files_re");
//! // `server.serve_stdio().await` serves it on stdin and stdout.
//! # });
//! ```

mod call_result;
mod era;
mod http;
mod listing;
mod names;
mod session;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::model::Tool;

pub use http::{
    tools_page_html, HttpOptions, DEFAULT_HEADER_READ_TIMEOUT, DEFAULT_MAX_BODY_BYTES,
    DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_TIMEOUT,
};
pub use names::{
    is_mcp_tool_name, served_name_refusal, ServedNameRefusal, MCP_TOOL_NAME_MAX_CHARS,
};
pub use session::ServerSession;

use crate::census::NameBudget;
use crate::runtime::{Request, ToolRuntime};
use crate::schema::Dialect;
use crate::wire::LeftOutTool;
use listing::ServedView;

/// How a runtime is served: the name budget, the schema dialect, the page size of
/// `tools/list`, how often a failed backend is restarted.
///
/// ```
/// use toolwire_core::{census::NameBudget, mcp::serve::ServeOptions, schema::Dialect};
/// let options = ServeOptions::default().budget(NameBudget::claude_code("gw").unwrap()).dialect(Dialect::Gemini);
/// assert_eq!(options.budget.chars(), 55);
/// assert_eq!(ServeOptions::default().page_size, 500);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ServeOptions {
    /// The longest served name ([`NameBudget::FULL`] by default).
    pub budget: NameBudget,
    /// The dialect each `inputSchema` is prepared for (`None`: each tool's schema as it is).
    pub dialect: Option<Dialect>,
    /// How many tools one `tools/list` page holds (at least 1); the rest follow `nextCursor`.
    pub page_size: usize,
    /// How many times a provider that failed (a crashed MCP server) is reloaded, each before
    /// the next call to one of its tools; past it, its calls keep failing.
    pub restarts: u32,
    /// The server's name in the MCP handshake (`serverInfo.name`).
    pub server_name: String,
}

impl Default for ServeOptions {
    fn default() -> ServeOptions {
        ServeOptions {
            budget: NameBudget::FULL,
            dialect: None,
            page_size: 500,
            restarts: 3,
            server_name: "toolwire".to_owned(),
        }
    }
}

impl ServeOptions {
    /// These options with a name budget.
    ///
    /// ```
    /// use toolwire_core::{census::NameBudget, mcp::serve::ServeOptions};
    /// assert_eq!(ServeOptions::default().budget(NameBudget::new(40).unwrap()).budget.chars(), 40);
    /// ```
    pub fn budget(mut self, budget: NameBudget) -> ServeOptions {
        self.budget = budget;
        self
    }

    /// These options with every `inputSchema` prepared for `dialect`.
    ///
    /// ```
    /// use toolwire_core::{mcp::serve::ServeOptions, schema::Dialect};
    /// assert_eq!(ServeOptions::default().dialect(Dialect::OpenAiStrict).dialect, Some(Dialect::OpenAiStrict));
    /// ```
    pub fn dialect(mut self, dialect: Dialect) -> ServeOptions {
        self.dialect = Some(dialect);
        self
    }

    /// These options with `tools/list` pages of `size` tools (at least 1).
    ///
    /// ```
    /// assert_eq!(toolwire_core::mcp::serve::ServeOptions::default().page_size(0).page_size, 1);
    /// ```
    pub fn page_size(mut self, size: usize) -> ServeOptions {
        self.page_size = size.max(1);
        self
    }

    /// These options with at most `restarts` reloads of each failed provider.
    ///
    /// ```
    /// assert_eq!(toolwire_core::mcp::serve::ServeOptions::default().restarts(0).restarts, 0);
    /// ```
    pub fn restarts(mut self, restarts: u32) -> ServeOptions {
        self.restarts = restarts;
        self
    }

    /// These options with `name` as the server's name in the handshake.
    ///
    /// ```
    /// assert_eq!(toolwire_core::mcp::serve::ServeOptions::default().server_name("gw").server_name, "gw");
    /// ```
    pub fn server_name(mut self, name: impl Into<String>) -> ServeOptions {
        self.server_name = name.into();
        self
    }
}

/// What a new session's `tools/list` gives, whole, and what is not served, with why.
///
/// ```
/// let listing = toolwire_core::mcp::serve::ToolServer::new(toolwire_core::ToolRuntime::new(), Default::default()).listing();
/// assert!(listing.tools.is_empty() && listing.left_out.is_empty());
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ServedListing {
    /// The tools served, in the order `tools/list` pages them.
    pub tools: Vec<Tool>,
    /// Each served tool's real name, tool by tool.
    pub real_names: Vec<String>,
    /// Every tool not served (the census under the budget left it out, a name an API refuses,
    /// a schema the dialect refuses, switched off, unreachable), with its real name and why.
    pub left_out: Vec<LeftOutTool>,
}

/// A runtime served as an MCP server: shared by every session (each with its own
/// [`ServerSession`]); backends start once, in the runtime, and serve every session.
///
/// ```
/// use toolwire_core::{mcp::serve::{ServeOptions, ToolServer}, ToolRuntime};
/// let server = ToolServer::new(ToolRuntime::new(), ServeOptions::default());
/// let _one = server.session();
/// let _another = server.session(); // its own conversation: its own loaded catalog tools
/// ```
#[derive(Clone)]
pub struct ToolServer {
    inner: Arc<Inner>,
}

struct Inner {
    runtime: ToolRuntime,
    options: ServeOptions,
    /// The last snapshot's view: rebuilt when the runtime's tool set or switches change.
    view: Mutex<Option<Arc<ServedView>>>,
    /// Each provider's reloads so far, against [`ServeOptions::restarts`].
    restarts: Mutex<HashMap<String, u32>>,
}

impl std::fmt::Debug for ToolServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolServer")
            .field("runtime", &self.inner.runtime)
            .field("options", &self.inner.options)
            .finish_non_exhaustive()
    }
}

impl ToolServer {
    /// Serves `runtime` with `options`.
    ///
    /// ```
    /// let server = toolwire_core::mcp::serve::ToolServer::new(toolwire_core::ToolRuntime::new(), Default::default());
    /// assert_eq!(server.options().page_size, 500);
    /// ```
    pub fn new(runtime: ToolRuntime, options: ServeOptions) -> ToolServer {
        ToolServer {
            inner: Arc::new(Inner {
                runtime,
                options,
                view: Mutex::new(None),
                restarts: Mutex::new(HashMap::new()),
            }),
        }
    }

    /// The runtime it serves.
    ///
    /// ```
    /// let server = toolwire_core::mcp::serve::ToolServer::new(toolwire_core::ToolRuntime::new(), Default::default());
    /// assert!(server.runtime().report().tools.is_empty());
    /// ```
    pub fn runtime(&self) -> &ToolRuntime {
        &self.inner.runtime
    }

    /// The options it serves with.
    ///
    /// ```
    /// let server = toolwire_core::mcp::serve::ToolServer::new(toolwire_core::ToolRuntime::new(), Default::default());
    /// assert_eq!(server.options().restarts, 3);
    /// ```
    pub fn options(&self) -> &ServeOptions {
        &self.inner.options
    }

    /// A new session: one client's conversation (what its catalog loads is its own).
    ///
    /// ```
    /// let server = toolwire_core::mcp::serve::ToolServer::new(toolwire_core::ToolRuntime::new(), Default::default());
    /// let session = server.session();
    /// assert!(session.conversation().loaded().is_empty());
    /// ```
    pub fn session(&self) -> ServerSession {
        ServerSession::new(self.clone())
    }

    /// What a new session's `tools/list` gives, and what is not served, with why: the census
    /// a gateway prints at start.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use std::sync::Arc;
    /// use serde_json::json;
    /// use toolwire_core::{mcp::serve::ToolServer, provider::provider_fn, wire::WhyLeftOut, ToolDefinition, ToolRuntime};
    /// let tools = provider_fn("t", vec![
    ///     ToolDefinition::new("3d/render", "Renders.", json!({})),
    ///     ToolDefinition::new("echo", "Echoes.", json!({})),
    /// ], |_, args| async move { Ok(args) });
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(tools)).await.unwrap().check().unwrap();
    /// let listing = ToolServer::new(runtime, Default::default()).listing();
    /// assert_eq!(listing.tools.iter().map(|t| &*t.name).collect::<Vec<_>>(), ["echo"]);
    /// // Gemini wants a letter or `_` first: `3d_render` is withheld, saying so.
    /// assert!(matches!(listing.left_out[0].reason, WhyLeftOut::FormRefused(_)));
    /// # });
    /// ```
    pub fn listing(&self) -> ServedListing {
        let request = self.inner.runtime.request();
        let view = self.view(&request);
        let (tools, real_names) = view.named_list_for(&request).into_iter().unzip();
        ServedListing {
            tools,
            real_names,
            left_out: view.left_out.clone(),
        }
    }

    /// The view of the snapshot `request` reads, built once per snapshot.
    fn view(&self, request: &Request) -> Arc<ServedView> {
        let mut current = self
            .inner
            .view
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(view) = current.as_ref().filter(|v| v.is_for(request)) {
            return view.clone();
        }
        let view = Arc::new(ServedView::build(
            request,
            &self.inner.runtime,
            &self.inner.options,
        ));
        *current = Some(view.clone());
        view
    }

    /// How many restarts of provider `name` this server has used (what
    /// [`ServeOptions::restarts`] bounds).
    fn restarts_used(&self, name: &str) -> u32 {
        let restarts = self
            .inner
            .restarts
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        restarts.get(name).copied().unwrap_or(0)
    }

    /// Whether provider `name` may be reloaded once more, counting this reload if so.
    fn take_restart(&self, name: &str) -> bool {
        let mut restarts = self
            .inner
            .restarts
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let used = restarts.entry(name.to_owned()).or_insert(0);
        if *used >= self.inner.options.restarts {
            return false;
        }
        *used += 1;
        true
    }

    /// Serves one session on stdin and stdout until stdin ends (or the client goes).
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
    /// let server = toolwire_core::mcp::serve::ToolServer::new(toolwire_core::ToolRuntime::new(), Default::default());
    /// server.serve_stdio().await?;
    /// # Ok(()) }
    /// ```
    pub async fn serve_stdio(&self) -> Result<(), ServeError> {
        // rmcp 3.11 `transport::stdio_pipes` (transport/io.rs): when stdin and stdout are FIFOs
        // (as an MCP client starts a server), they are reopened through /proc/self/fd and read
        // on tokio's reactor, not handed to the blocking pool on every read and write (a
        // cross-thread hand-off per message both ways, what the gateway's profile showed); any
        // other stream, and any other OS, gets the blocking handles as before.
        let (read, write) = rmcp::transport::stdio_pipes();
        self.serve_io(read, write).await
    }

    /// Serves one session over a byte stream pair (newline-delimited JSON-RPC, as over stdio)
    /// until the reader ends (before the handshake too: a client that came and went).
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let server = toolwire_core::mcp::serve::ToolServer::new(toolwire_core::ToolRuntime::new(), Default::default());
    /// let (ours, _theirs) = tokio::io::duplex(1024);
    /// let (read, write) = tokio::io::split(ours);
    /// drop(_theirs); // the client is gone before the handshake
    /// assert!(server.serve_io(read, write).await.is_ok());
    /// # });
    /// ```
    pub async fn serve_io<R, W>(&self, read: R, write: W) -> Result<(), ServeError>
    where
        R: tokio::io::AsyncRead + Send + Unpin + 'static,
        W: tokio::io::AsyncWrite + Send + Unpin + 'static,
    {
        use rmcp::ServiceExt;
        let running = match self.session().serve((read, write)).await {
            Ok(running) => running,
            // The reader ended before a handshake: a client that came and went, not an error.
            Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
            Err(e) => return Err(ServeError(format!("the MCP handshake failed: {e}"))),
        };
        running
            .waiting()
            .await
            .map_err(|e| ServeError(format!("the session ended in error: {e}")))?;
        Ok(())
    }
}

/// Why serving stopped: the handshake failed, the transport broke, the address could not be
/// bound.
///
/// ```
/// let err = toolwire_core::mcp::serve::ServeError::from("cannot bind 127.0.0.1:1".to_owned());
/// assert_eq!(err.to_string(), "cannot bind 127.0.0.1:1");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ServeError(String);

impl From<String> for ServeError {
    fn from(message: String) -> ServeError {
        ServeError(message)
    }
}
