//! A request: what one turn reads (its census, its definitions, its tool lists), fixed when the
//! turn starts. Dispatch of the calls the model makes in answer is in `dispatch.rs`.

use std::fmt;
use std::sync::Arc;

use super::shared::Shared;
use super::tool_list::ToolList;
use super::tool_set::{Owner, Snapshot};
use crate::census::Census;
use crate::definition::ToolDefinition;
use crate::wire::{WireError, WireFormat};

/// One request: its census, its tool list in any wire format, and dispatch of the calls the
/// model makes in answer to it. Cheap: it shares what the runtime built for the current tool
/// set with every other request of that tool set.
///
/// ```
/// # use std::sync::Arc;
/// # use serde_json::json;
/// # use toolwire_core::*;
/// # let echo = provider_fn("echo", vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))], |_, args| async move { Ok(args) });
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let runtime = ToolRuntime::new();
/// runtime.add_provider(Arc::new(echo)).await.unwrap();
/// let request = runtime.request();
/// assert_eq!(request.tools(WireFormat::Anthropic).unwrap()[0]["name"], "mcp_server_echo");
/// let out = request.dispatch("mcp_server_echo", json!({"text": "hi"})).await.unwrap();
/// assert_eq!(out.output, json!({"text": "hi"}));
/// # });
/// ```
pub struct Request {
    pub(super) shared: Arc<Shared>,
    snapshot: Arc<Snapshot>,
}

impl fmt::Debug for Request {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Request")
            .field("census", self.census())
            .finish_non_exhaustive()
    }
}

impl Request {
    pub(super) fn new(shared: Arc<Shared>, snapshot: Arc<Snapshot>) -> Request {
        Request { shared, snapshot }
    }

    /// Who runs the tool at census position `index`.
    pub(super) fn owner(&self, index: usize) -> &Owner {
        &self.snapshot.tool_set.owners[index]
    }

    /// The request's census.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use serde_json::json;
    /// # use toolwire_core::*;
    /// # let echo = provider_fn("echo", vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))], |_, args| async move { Ok(args) });
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(echo)).await.unwrap();
    /// let census = runtime.request().census().clone();
    /// assert_eq!(census.healing()["mcp_server_echo"], "mcp/server/echo");
    /// # });
    /// ```
    pub fn census(&self) -> &Census {
        &self.snapshot.census
    }

    /// The definitions in the census, in census order.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use serde_json::json;
    /// # use toolwire_core::*;
    /// # let echo = provider_fn("echo", vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))], |_, args| async move { Ok(args) });
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(echo)).await.unwrap();
    /// let request = runtime.request();
    /// assert_eq!(request.definitions()[0].name, "mcp/server/echo");
    /// assert_eq!(request.definitions()[0].description, "Echoes.");
    /// # });
    /// ```
    pub fn definitions(&self) -> &[ToolDefinition] {
        &self.snapshot.tool_set.definitions
    }

    /// The request's tool list in `format`: offered tools only, each under its form, each schema
    /// prepared for the format's dialect; a tool whose schema the dialect refuses is left out of
    /// this list only (with a warning, once per tool set), and still answers to its names. An
    /// error when the list is over the provider's per-request limits ([`WireError::OverLimit`]):
    /// such a request would fail whole. The list is built by the first request of a tool set
    /// that asks for `format` and shared by the next ones ([`ToolList`]). (The census was built
    /// from these very definitions, so they always match.)
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use serde_json::json;
    /// # use toolwire_core::*;
    /// # let echo = provider_fn("echo", vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))], |_, args| async move { Ok(args) });
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(echo)).await.unwrap();
    /// let tools = runtime.request().tools(WireFormat::Gemini).unwrap();
    /// assert_eq!(tools, json!([{"functionDeclarations": [{
    ///     "name": "mcp_server_echo", "description": "Echoes.",
    ///     "parameters": {"type": "OBJECT", "properties": {}},
    /// }]}]));
    /// # });
    /// ```
    pub fn tools(&self, format: WireFormat) -> Result<ToolList, WireError> {
        self.snapshot.tools(format)
    }
}
