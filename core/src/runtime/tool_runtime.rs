//! The runtime itself: a cheap handle over the shared state, the user's switches, and the
//! request each turn starts from. Loading lives in `loading.rs`, the report in `report.rs`.

use std::fmt;
use std::sync::Arc;

use super::builder::ToolRuntimeBuilder;
use super::request::Request;
use super::shared::Shared;

/// Holds tool providers and dispatches calls. Cheap to clone; clones share everything.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use std::sync::Arc;
/// use serde_json::json;
/// use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
///
/// let echo = provider_fn(
///     "echo",
///     vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))],
///     |_tool, arguments| async move { Ok(arguments) },
/// );
/// let runtime = ToolRuntime::new();
/// runtime.add_provider(Arc::new(echo)).await.unwrap();
/// let request = runtime.request();
/// assert_eq!(request.tools(WireFormat::OpenAi).unwrap()[3]["function"]["name"], "mcp_server_echo");
/// let out = request.dispatch("mcp_server_echo", json!({"x": 1})).await.unwrap();
/// assert_eq!((out.tool.as_str(), out.route), ("mcp/server/echo", Route::Form));
/// # });
/// ```
#[derive(Clone)]
pub struct ToolRuntime {
    pub(super) shared: Arc<Shared>,
}

impl Default for ToolRuntime {
    fn default() -> Self {
        ToolRuntime::new()
    }
}

impl fmt::Debug for ToolRuntime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = self.shared.read();
        let providers: Vec<&str> = state.slots().iter().map(|s| s.provider.name()).collect();
        f.debug_struct("ToolRuntime")
            .field("providers", &providers)
            .field("meta_tools", &self.shared.meta_tools)
            .field("catalog", &self.shared.catalog)
            .finish()
    }
}

impl ToolRuntime {
    /// A runtime with the default meta-tools and no approval hook.
    ///
    /// ```
    /// use toolwire_core::{ToolRuntime, names::DEFAULT_META_TOOLS};
    /// let runtime = ToolRuntime::new();
    /// assert_eq!(runtime.request().census().taken().collect::<Vec<_>>(), DEFAULT_META_TOOLS);
    /// assert!(runtime.report().providers.is_empty());
    /// ```
    pub fn new() -> ToolRuntime {
        // The built-ins are model-safe and distinct, and `#[tool]` refuses their names at
        // compile time: nothing for `build` to refuse. (A tool registered by hand under one of
        // them is left out by the census, as the spec says of a taken name.)
        ToolRuntime {
            shared: Arc::new(Shared::new(
                super::meta_tool::MetaTool::built_ins(),
                super::catalog::CatalogPolicy::default(),
                None,
            )),
        }
    }

    /// A builder for a runtime with other meta-tools or an approval hook.
    ///
    /// ```
    /// use toolwire_core::{ToolRuntime, runtime::DispatchError};
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::builder().meta_tools([]).build().unwrap();
    /// let err = runtime.request().dispatch("tool_search", serde_json::json!({})).await;
    /// assert!(matches!(err, Err(DispatchError::UnknownTool { .. })));
    /// # });
    /// ```
    pub fn builder() -> ToolRuntimeBuilder {
        ToolRuntimeBuilder::default()
    }

    /// Switches the tool with real name `tool` on or off (the user's switch). A switched-off
    /// tool is in no request and its calls fail with
    /// [`DispatchError::Disabled`](crate::runtime::DispatchError::Disabled).
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use serde_json::json;
    /// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
    /// # let echo = provider_fn("echo", vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))], |_, args| async move { Ok(args) });
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(echo)).await.unwrap();
    /// let before = runtime.request();
    /// runtime.set_enabled("mcp/server/echo", false);
    /// assert_eq!(runtime.request().tools(WireFormat::OpenAi).unwrap().as_array().unwrap().len(), 3);
    /// let err = before.dispatch("mcp_server_echo", json!({})).await.unwrap_err();
    /// assert_eq!(err, DispatchError::Disabled { tool: "mcp/server/echo".into() });
    /// // A later request no longer offers it, and still says why a call cannot reach it.
    /// let err = runtime.request().dispatch("mcp/server/echo", json!({})).await.unwrap_err();
    /// assert_eq!(err, DispatchError::Disabled { tool: "mcp/server/echo".into() });
    /// # });
    /// ```
    pub fn set_enabled(&self, tool: &str, enabled: bool) {
        self.shared.write().set_enabled(tool, enabled);
    }

    /// Whether the user's switch for `tool` (real name) is on.
    ///
    /// ```
    /// use toolwire_core::ToolRuntime;
    /// let runtime = ToolRuntime::new();
    /// assert!(runtime.is_enabled("mcp/server/echo"));
    /// runtime.set_enabled("mcp/server/echo", false);
    /// assert!(!runtime.is_enabled("mcp/server/echo"));
    /// ```
    pub fn is_enabled(&self, tool: &str) -> bool {
        !self.shared.read().is_disabled(tool)
    }

    /// The census and tool lists of one request, as the providers are now. Built once per
    /// change: while no provider is added, removed or reloaded and no switch moves, every
    /// request shares one census, one set of definitions and each wire list, and the census's
    /// warnings (one per shared form) are not repeated.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use serde_json::json;
    /// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
    /// # let echo = provider_fn("echo", vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))], |_, args| async move { Ok(args) });
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::new();
    /// let empty = runtime.request();
    /// runtime.add_provider(Arc::new(echo)).await.unwrap();
    /// assert_eq!(empty.census().tools().len(), 0);
    /// assert_eq!(runtime.request().census().offered().count(), 1);
    /// # });
    /// ```
    pub fn request(&self) -> Request {
        self.request_for(None)
    }

    /// A request, made by a conversation (with what it loaded) or not.
    pub(super) fn request_for(
        &self,
        conversation: Option<(
            super::conversation::Conversation,
            std::collections::BTreeSet<String>,
        )>,
    ) -> Request {
        let snapshot = self.shared.snapshot(&self.shared.read());
        Request::new(self.shared.clone(), snapshot, conversation)
    }

    /// The catalog policy it was built with.
    ///
    /// ```
    /// use toolwire_core::{ToolRuntime, runtime::CatalogPolicy};
    /// assert_eq!(ToolRuntime::new().catalog_policy(), &CatalogPolicy::default());
    /// ```
    pub fn catalog_policy(&self) -> &super::catalog::CatalogPolicy {
        &self.shared.catalog
    }

    /// A receiver that sees every change of the tool set (a provider added, removed, reloaded,
    /// or its tool list changed): await `changed()` to learn that the next request differs.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use serde_json::json;
    /// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
    /// # let echo = provider_fn("echo", vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))], |_, args| async move { Ok(args) });
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::new();
    /// let mut changes = runtime.tool_set_changes();
    /// runtime.add_provider(Arc::new(echo)).await.unwrap();
    /// changes.changed().await.unwrap(); // returns at once: a change was seen
    /// assert_eq!(runtime.request().census().offered().count(), 1);
    /// # });
    /// ```
    pub fn tool_set_changes(&self) -> tokio::sync::watch::Receiver<u64> {
        self.shared.subscribe()
    }
}
