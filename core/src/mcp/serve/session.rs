//! One client's session: its conversation, the `rmcp` handler that answers `tools/list` and
//! `tools/call`, and `notifications/tools/list_changed` when its tools change.
//!
//! Policy: a session is one conversation (a deferred catalog's loaded tools are its own); the
//! runtime, its backends and the served census are shared by every session. No lock is held
//! across an await.

use std::borrow::Cow;
use std::sync::{Mutex, PoisonError};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, Implementation, ListToolsResult,
    PaginatedRequestParams, ProtocolVersion, ServerCapabilities, ServerConfig,
};
use rmcp::service::{NotificationContext, Peer, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{json, Value};
use tokio::sync::oneshot;

use super::call_result::failed_call_result;
use super::ToolServer;
use crate::census::Resolution;
use crate::mcp::content::into_call_tool_result;
use crate::runtime::{Conversation, DispatchError};
use crate::tools::ToolOutput;

/// One client's session of a [`ToolServer`]: the `rmcp` [`ServerHandler`] for one connection
/// (stdio) or one MCP session (streamable HTTP).
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use rmcp::ServiceExt;
/// let server = toolwire_core::mcp::serve::ToolServer::new(toolwire_core::ToolRuntime::new(), Default::default());
/// let (client_end, server_end) = tokio::io::duplex(64 * 1024);
/// tokio::spawn(async move { server.session().serve(server_end).await?.waiting().await?; Ok::<_, Box<dyn std::error::Error + Send + Sync>>(()) });
/// let client = ().serve(client_end).await.unwrap();
/// assert!(client.list_all_tools().await.unwrap().is_empty());
/// # });
/// ```
pub struct ServerSession {
    server: ToolServer,
    conversation: Conversation,
    /// Ends the session's watch of the tool set when the session is dropped.
    _stop: oneshot::Sender<()>,
    stopped: Mutex<Option<oneshot::Receiver<()>>>,
}

impl ServerSession {
    pub(super) fn new(server: ToolServer) -> ServerSession {
        let (stop, stopped) = oneshot::channel();
        ServerSession {
            conversation: server.runtime().conversation(),
            server,
            _stop: stop,
            stopped: Mutex::new(Some(stopped)),
        }
    }

    /// The session's conversation: what its catalog has loaded.
    ///
    /// ```
    /// let server = toolwire_core::mcp::serve::ToolServer::new(toolwire_core::ToolRuntime::new(), Default::default());
    /// assert!(server.session().conversation().loaded().is_empty());
    /// ```
    pub fn conversation(&self) -> &Conversation {
        &self.conversation
    }

    /// Sends this session's client `notifications/tools/list_changed` on every change of the
    /// runtime's tool set, until the session ends. Started once, when the client is ready.
    fn watch_tool_set(&self, peer: Peer<RoleServer>) {
        let Some(mut stopped) = self
            .stopped
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
        else {
            return;
        };
        let mut changes = self.server.runtime().tool_set_changes();
        changes.borrow_and_update();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = &mut stopped => return,
                    changed = changes.changed() => {
                        if changed.is_err() || peer.notify_tool_list_changed().await.is_err() {
                            return;
                        }
                    }
                }
            }
        });
    }

    async fn call(
        &self,
        called: &str,
        arguments: Value,
        peer: &Peer<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let mut request = self.conversation.request();
        let view = self.server.view(&request);
        // Hop 5 against the served census: a served (budgeted) name, a real name or a
        // meta-tool's name; never a split, never a guess.
        // The runtime's own forms (uncut, as `tool_search` and `tool_schema` name tools) are
        // asked only for a name the served census does not know: each reaches one tool too.
        let resolved = match view.census.resolve(called) {
            Err(_) => request.census().resolve(called),
            served => served,
        };
        let (real, index) = match resolved {
            Ok(Resolution::Meta(meta)) => (meta.to_owned(), None),
            Ok(Resolution::Tool(hit)) => (hit.name.to_owned(), Some(hit.index)),
            _ => {
                return Err(unknown_tool(
                    called,
                    &view.census.closest_offered(called, 3),
                ))
            }
        };
        // A backend that failed (a crashed MCP server) is restarted before this, its next,
        // call, a bounded number of times.
        if let Some(index) = index {
            let (provider, failed) = request.provider_of(index);
            if failed && self.server.take_restart(provider) {
                let provider = provider.to_owned();
                // A failed reload is the provider's status; the call then says why it fails.
                let _ = self.server.runtime().reload_provider(&provider).await;
                request = self.conversation.request();
            }
        }
        let mut arguments = arguments;
        if index.is_none() {
            // A meta-tool's `name` argument (`tool_schema`'s) may be a served name, as
            // `tool_search` gave it: the runtime's census knows the tool by its real name.
            view.serve_name_argument(&mut arguments);
        }
        // Only a deferred catalog loads tools (a list that is not deferred carries them all).
        let loaded = request.is_deferred().then(|| self.conversation.loaded());
        let outcome = request.dispatch(&real, arguments).await;
        if loaded.is_some_and(|loaded| self.conversation.loaded() != loaded) {
            // The catalog loaded a tool for this session (`tool_schema`, or a call by name):
            // its list changed (a list that is not deferred carries every tool anyway). A
            // client that is gone is no error of this call.
            let _ = peer.notify_tool_list_changed().await;
        }
        match outcome {
            Ok(mut outcome) => {
                if index.is_none() {
                    // A meta-tool names tools by the runtime's forms; the client calls the
                    // served ones.
                    if let ToolOutput::Json(answer) = &mut outcome.output {
                        view.serve_forms(answer);
                    }
                }
                Ok(into_call_tool_result(outcome.output).into())
            }
            Err(DispatchError::UnknownTool { closest, .. }) => Err(unknown_tool(called, &closest)),
            Err(err) => Ok(failed_call_result(err.for_model(called)).into()),
        }
    }
}

/// MCP's answer to a call of a tool no one answers to: a protocol error, `-32602`. MCP
/// 2025-11-25, "Tools" → "Error Handling": protocol errors are for "Unknown tools", with the
/// example `{"code": -32602, "message": "Unknown tool: invalid_tool_name"}`
/// (<https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling>).
fn unknown_tool<S: AsRef<str>>(called: &str, closest: &[S]) -> ErrorData {
    let closest: Vec<&str> = closest.iter().map(AsRef::as_ref).collect();
    ErrorData::invalid_params(
        format!("Unknown tool: {called}"),
        Some(json!({ "closest": closest })),
    )
}

/// The page of `tools/list` a cursor asks for: a cursor is the position of the page's first
/// tool. MCP 2025-11-25, "Pagination": cursors are opaque to the client, and "Invalid cursors
/// SHOULD result in an error with code -32602 (Invalid params)"
/// (<https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination>).
fn page_start(cursor: Option<&str>, len: usize) -> Result<usize, ErrorData> {
    match cursor {
        None => Ok(0),
        Some(cursor) => cursor
            .parse::<usize>()
            .ok()
            .filter(|&start| start <= len)
            .ok_or_else(|| ErrorData::invalid_params(format!("invalid cursor `{cursor}`"), None)),
    }
}

impl ServerHandler for ServerSession {
    fn get_info(&self) -> ServerConfig {
        let options = self.server.options();
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .build(),
        )
        .with_server_info(Implementation::new(
            options.server_name.clone(),
            env!("CARGO_PKG_VERSION"),
        ))
    }

    /// Up to 2025-11-25: a session is one conversation, and the 2026-07-28 revision removes
    /// sessions (SEP-2567: "sessions are removed from the `2026-07-28` version", rmcp's
    /// `StreamableHttpServerConfig::legacy_session_mode`), so a deferred catalog's loaded tools
    /// and the `list_changed` pushed to one client need the revisions that have them.
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::known_up_to(&ProtocolVersion::V_2025_11_25))
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.watch_tool_set(context.peer);
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let turn = self.conversation.request();
        let view = self.server.view(&turn);
        let tools = view.list_for(&turn);
        let start = page_start(
            request.as_ref().and_then(|r| r.cursor.as_deref()),
            tools.len(),
        )?;
        let end = start
            .saturating_add(self.server.options().page_size)
            .min(tools.len());
        let page = tools[start..end].iter().map(|&t| t.clone()).collect();
        let mut page = ListToolsResult::with_all_items(page);
        if end < tools.len() {
            page.next_cursor = Some(end.to_string());
        }
        Ok(page)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = Value::Object(request.arguments.unwrap_or_default());
        self.call(&request.name, arguments, &context.peer).await
    }
}
