//! The builder: the runtime's own tool names and the approval hook, fixed for its life.

use std::sync::Arc;

use super::dispatch::{ApprovalHook, ApprovalRequest};
use super::shared::Shared;
use super::tool_runtime::ToolRuntime;
use crate::meta_tools::META_TOOLS;

/// Builds a [`ToolRuntime`].
///
/// ```
/// let runtime = toolwire_core::ToolRuntime::builder()
///     .taken(["tool_search"])
///     .approval(|req| req.tool != "mcp/shell/rm")
///     .build();
/// assert_eq!(runtime.request().census().taken().collect::<Vec<_>>(), ["tool_search"]);
/// ```
#[derive(Default)]
pub struct ToolRuntimeBuilder {
    taken: Option<Vec<String>>,
    approval: Option<ApprovalHook>,
}

impl ToolRuntimeBuilder {
    /// The runtime's own tool names (default: [`META_TOOLS`]).
    ///
    /// ```
    /// use toolwire_core::ToolRuntime;
    /// let runtime = ToolRuntime::builder().taken(["help"]).build();
    /// let request = runtime.request();
    /// assert_eq!(request.census().taken().collect::<Vec<_>>(), ["help"]);
    /// ```
    pub fn taken<I, S>(mut self, taken: I) -> ToolRuntimeBuilder
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.taken = Some(taken.into_iter().map(Into::into).collect());
        self
    }

    /// A hook asked before every tool runs, with the tool's real name; `false` refuses it.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use serde_json::json;
    /// # use toolwire_core::*;
    /// # let echo = provider_fn("echo", vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))], |_, args| async move { Ok(args) });
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::builder()
    ///     .approval(|req| req.tool != "mcp/server/echo")
    ///     .build();
    /// runtime.add_provider(Arc::new(echo)).await.unwrap();
    /// let err = runtime.request().dispatch("mcp_server_echo", json!({})).await.unwrap_err();
    /// assert_eq!(err, DispatchError::Denied { tool: "mcp/server/echo".into() });
    /// # });
    /// ```
    pub fn approval(
        mut self,
        hook: impl Fn(&ApprovalRequest<'_>) -> bool + Send + Sync + 'static,
    ) -> ToolRuntimeBuilder {
        self.approval = Some(Box::new(hook));
        self
    }

    /// The runtime.
    ///
    /// ```
    /// use toolwire_core::{ToolRuntime, META_TOOLS};
    /// let runtime = ToolRuntime::builder().build();
    /// let request = runtime.request();
    /// assert_eq!(request.census().taken().collect::<Vec<_>>(), META_TOOLS);
    /// ```
    pub fn build(self) -> ToolRuntime {
        let taken = self
            .taken
            .unwrap_or_else(|| META_TOOLS.iter().map(|m| m.to_string()).collect());
        ToolRuntime {
            shared: Arc::new(Shared::new(taken, self.approval)),
        }
    }
}
