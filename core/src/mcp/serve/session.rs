//! One client's session: its conversation, the `rmcp` handler that answers `server/discover`,
//! `tools/list`, `tools/call` and `subscriptions/listen`, and `list_changed` when its tools
//! change.
//!
//! Policy: one behaviour per era (`era.rs`). A legacy session is one conversation (a deferred
//! catalog's loaded tools are its own, and it hears `list_changed`); a 2026-07-28 request reads
//! the runtime alone and keeps nothing (its list is the stand-alone surface, `tool_call` runs
//! what `tool_search` found; changes come only on a `subscriptions/listen` stream). The runtime,
//! its backends and the served census are shared by every session. No lock is held across an
//! await.

use std::borrow::Cow;
use std::sync::{Mutex, PoisonError};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, Implementation, ListToolsResult,
    PaginatedRequestParams, ProtocolVersion, ResultType, ServerCapabilities, ServerConfig,
    ServerNotification, SubscriptionFilter, Tool,
};
use rmcp::service::{NotificationContext, Peer, RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{json, Value};
use tokio::sync::oneshot;

use super::call_result::{failed_call_result, served_failure};
use super::listing::ServedView;
use super::{era, ToolServer};
use crate::census::{unknown_tool_words, Resolution};
use crate::mcp::content::into_call_tool_result;
use crate::runtime::{
    meta_through_tool_call, tool_call_target, Conversation, DispatchError, Request,
};
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
    /// The tool set's changes as of this session's last `tools/list` (or its start): where a
    /// `subscriptions/listen` starts counting.
    baseline: Mutex<tokio::sync::watch::Receiver<u64>>,
}

impl ServerSession {
    pub(super) fn new(server: ToolServer) -> ServerSession {
        let (stop, stopped) = oneshot::channel();
        ServerSession {
            baseline: Mutex::new(server.runtime().tool_set_changes()),
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

    /// The request a call or a list of this era reads: a legacy session's conversation's (what
    /// it loaded), or for a request that stands alone the runtime's own, with no conversation.
    fn request(&self, stateless: bool) -> Request {
        if stateless {
            self.server.runtime().request()
        } else {
            self.conversation.request()
        }
    }

    /// A `tools/call`: `tool_call {name, arguments}` runs the tool it names as a call of that
    /// name would (served names, restarts, the tool's own result passed on); any other name is
    /// [`ServerSession::call_named`]. A name `tool_call` does not reach, or a meta-tool, is the
    /// failed result of the call to `tool_call` (the model called a listed tool: it reads why).
    async fn call(
        &self,
        called: &str,
        arguments: Value,
        stateless: bool,
        peer: &Peer<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let request = self.request(stateless);
        let view = self.server.view(&request);
        if !matches!(
            resolve(&view, &request, called),
            Ok(Resolution::Meta("tool_call"))
        ) {
            return self.call_named(called, arguments, stateless, peer).await;
        }
        let target = tool_call_target(&arguments).and_then(|(name, arguments)| {
            match resolve(&view, &request, &name) {
                Ok(Resolution::Meta(meta)) => Err(meta_through_tool_call(meta)),
                _ => Ok((name, arguments)),
            }
        });
        let (name, arguments) = match target {
            Ok(target) => target,
            Err(err) => return Ok(failed_call_result(err.for_model(called)).into()),
        };
        match self.call_named(&name, arguments, stateless, peer).await {
            Err(unknown) => Ok(failed_call_result(missed_by_tool_call(&name, &unknown)).into()),
            answered => answered,
        }
    }

    /// A call of the tool (or meta-tool) `called` names, by hop 5.
    async fn call_named(
        &self,
        called: &str,
        arguments: Value,
        stateless: bool,
        peer: &Peer<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let mut request = self.request(stateless);
        let view = self.server.view(&request);
        let (real, index) = match resolve(&view, &request, called) {
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
                request = self.request(stateless);
            }
        }
        let mut arguments = arguments;
        if index.is_none() {
            // A meta-tool's `name` argument (`tool_schema`'s) may be a served name, as
            // `tool_search` gave it: the runtime's census knows the tool by its real name.
            view.serve_name_argument(&mut arguments);
        }
        // Only a legacy session's deferred catalog loads tools (a list that is not deferred
        // carries them all; a request that stands alone has no conversation to load into).
        let loaded = (request.is_deferred() && !stateless).then(|| self.conversation.loaded());
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
                let mut result = into_call_tool_result(outcome.output);
                // A 2026-07-28 result must say `resultType` (SEP-2322; the Python SDK 2.x
                // refuses a `tools/call` result without it), and a result converted from a
                // `ToolContent` has none: it is a finished one, as rmcp's constructors say.
                // rmcp's handler drops it for an older peer (rmcp model.rs,
                // `CallToolResult::result_type`, `strip_result_type_for_legacy_peer`).
                result.result_type.get_or_insert(ResultType::COMPLETE);
                Ok(result.into())
            }
            Err(DispatchError::UnknownTool { closest, .. }) => Err(unknown_tool(called, &closest)),
            Err(err) => Ok(failed_call_result(served_failure(&err, called)).into()),
        }
    }
}

/// Hop 5 for `called`: the served census first (a served, budgeted name, a real name or a
/// meta-tool's name), then the runtime's own (its uncut forms, as `tool_search` and
/// `tool_schema` name tools); each reaches one tool, never by a split, never by a guess.
fn resolve<'a>(view: &'a ServedView, request: &'a Request, called: &str) -> ResolveResult<'a> {
    match view.census.resolve(called) {
        Err(_) => request.census().resolve(called),
        served => served,
    }
}

type ResolveResult<'a> = Result<Resolution<'a>, crate::census::UnknownTool>;

/// What `tool_call` says when its `name` reaches no tool: the unknown-tool words every answer
/// gives (`census::unknown_tool_words`), with the closest served names the protocol error
/// carries, as its failed result for the model to read.
fn missed_by_tool_call(called: &str, unknown: &ErrorData) -> String {
    let closest: Vec<&str> = unknown
        .data
        .as_ref()
        .and_then(|data| data.get("closest"))
        .and_then(Value::as_array)
        .map(|closest| closest.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    format!(
        "tool_call: {}; search with tool_search",
        unknown_tool_words(called, &closest)
    )
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

    /// Every revision up to 2026-07-28 (`era.rs`): a legacy session is one conversation, a
    /// 2026-07-28 request stands alone (SEP-2567: "sessions are removed from the `2026-07-28`
    /// version", rmcp's `StreamableHttpServerConfig::legacy_session_mode`).
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        era::served_versions()
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.watch_tool_set(context.peer);
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let stateless = era::is_stateless(&context);
        // Watched before the list is read: a change after it is one a listener is told.
        let seen = self.server.runtime().tool_set_changes();
        let runtime_request = self.request(stateless);
        *self.baseline.lock().unwrap_or_else(PoisonError::into_inner) = seen;
        let view = self.server.view(&runtime_request);
        let tools = view.list_for(&runtime_request, stateless);
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
        let (ttl_ms, scope) =
            era::list_cache_hints(&context, !stateless && runtime_request.is_deferred());
        Ok(page.with_ttl_ms(ttl_ms).with_cache_scope(scope))
    }

    /// The served tool a name reaches (`ServedView::tool_named`), so rmcp's HTTP transport
    /// checks `Mcp-Param-*` headers (SEP-2243); the same for every era and caller.
    fn get_tool(&self, name: &str) -> Option<Tool> {
        let request = self.server.runtime().request();
        self.server.view(&request).tool_named(name).cloned()
    }

    /// `subscriptions/listen` (MCP 2026-07-28): the tool list's changes, and nothing else this
    /// server has (rmcp intersects this with what the client asked and `get_info` advertises,
    /// and acknowledges before [`ServerHandler::listen`] runs).
    fn accepted_subscription_filter(
        &self,
        _requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(SubscriptionFilter::builder().tools_list_changed().build())
    }

    /// One `notifications/tools/list_changed` per change of the runtime's tool set on the
    /// subscription's stream (rmcp's `SubscriptionSink` puts the `subscriptionId` on each),
    /// until the client cancels it or goes. A change since this session last answered
    /// `tools/list` (or began) is told at once, so over stdio one the client could have missed
    /// between its list and the acknowledgment is not lost; a told change it had seen costs a
    /// re-list. Over HTTP each 2026-07-28 request has a session of its own (rmcp builds a
    /// handler per request), so the baseline is the listen request's arrival, and a client that
    /// wants no gap lists again after the acknowledgment (docs/mcp.md says so).
    async fn listen(&self, subscription: SubscriptionContext) -> Result<(), ErrorData> {
        let mut changes = self
            .baseline
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        if subscription.accepted().tools_list_changed != Some(true) {
            subscription.cancelled().await;
            return Ok(());
        }
        loop {
            tokio::select! {
                _ = subscription.cancelled() => return Ok(()),
                changed = changes.changed() => {
                    if changed.is_err() {
                        return Ok(());
                    }
                    let note = ServerNotification::ToolListChangedNotification(Default::default());
                    if subscription.sink().send(note).await.is_err() {
                        return Ok(());
                    }
                }
            }
        }
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = Value::Object(request.arguments.unwrap_or_default());
        let stateless = era::is_stateless(&context);
        self.call(&request.name, arguments, stateless, &context.peer)
            .await
    }
}
