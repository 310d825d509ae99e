//! The builder: the runtime's meta-tools, its catalog policy and its approval hook, fixed for its
//! life.
//!
//! Policy: a builder that would make a request name a tool twice does not build: two meta-tools
//! of one name, a meta-tool name that is not model-safe (it travels as it is), or one that a
//! `#[tool]` of the app travels as. Each is a [`RuntimeError`] naming the name.

use std::future::Future;
use std::sync::Arc;

use futures::FutureExt;

use super::approval::{Approval, ApprovalRequest, Approver};
use super::catalog_policy::CatalogPolicy;
use super::errors::RuntimeError;
use super::meta_tool::MetaTool;
use super::shared::Shared;
use super::tool_runtime::ToolRuntime;
use crate::names::{is_model_safe, model_safe_name};

/// Builds a [`ToolRuntime`].
///
/// ```
/// use toolwire_core::{ToolRuntime, runtime::{CatalogPolicy, MetaTool}};
/// let runtime = ToolRuntime::builder()
///     .without_meta_tool("reset_tools")
///     .catalog(CatalogPolicy::deferred(["mcp/files/read"]))
///     .approval(|req| req.tool != "mcp/shell/rm")
///     .build()
///     .unwrap();
/// assert_eq!(runtime.request().census().taken().collect::<Vec<_>>(), ["tool_search", "tool_schema", "tool_call"]);
/// ```
pub struct ToolRuntimeBuilder {
    meta_tools: Vec<MetaTool>,
    catalog: CatalogPolicy,
    approval: Option<Approver>,
}

impl Default for ToolRuntimeBuilder {
    fn default() -> Self {
        ToolRuntimeBuilder {
            meta_tools: MetaTool::built_ins(),
            catalog: CatalogPolicy::default(),
            approval: None,
        }
    }
}

impl ToolRuntimeBuilder {
    /// Adds a meta-tool (after the built-ins and any added before it).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::{ToolRuntime, runtime::MetaTool};
    /// let help = MetaTool::new("help", "Help.", json!({}), |_| async { Ok(json!("…")) });
    /// let runtime = ToolRuntime::builder().meta_tool(help).build().unwrap();
    /// assert_eq!(runtime.request().census().taken().last(), Some("help"));
    /// ```
    pub fn meta_tool(mut self, meta_tool: MetaTool) -> ToolRuntimeBuilder {
        self.meta_tools.push(meta_tool);
        self
    }

    /// Replaces every meta-tool, the built-ins included (none: a runtime with no tools of its
    /// own, and no names taken).
    ///
    /// ```
    /// use toolwire_core::{ToolRuntime, runtime::MetaTool};
    /// let runtime = ToolRuntime::builder().meta_tools([MetaTool::tool_search()]).build().unwrap();
    /// assert_eq!(runtime.request().census().taken().collect::<Vec<_>>(), ["tool_search"]);
    /// let bare = ToolRuntime::builder().meta_tools([]).build().unwrap();
    /// assert_eq!(bare.request().census().taken().count(), 0);
    /// ```
    pub fn meta_tools(
        mut self,
        meta_tools: impl IntoIterator<Item = MetaTool>,
    ) -> ToolRuntimeBuilder {
        self.meta_tools = meta_tools.into_iter().collect();
        self
    }

    /// Removes the meta-tool named `name` (a built-in, or one added before).
    ///
    /// ```
    /// use toolwire_core::ToolRuntime;
    /// let runtime = ToolRuntime::builder().without_meta_tool("tool_search").build().unwrap();
    /// assert_eq!(runtime.request().census().taken().collect::<Vec<_>>(), ["tool_schema", "reset_tools", "tool_call"]);
    /// ```
    pub fn without_meta_tool(mut self, name: &str) -> ToolRuntimeBuilder {
        self.meta_tools.retain(|m| m.name() != name);
        self
    }

    /// Which offered tools a request carries (default: [`CatalogPolicy::default`]).
    ///
    /// ```
    /// use toolwire_core::{ToolRuntime, runtime::CatalogPolicy};
    /// let runtime = ToolRuntime::builder().catalog(CatalogPolicy::All).build().unwrap();
    /// assert_eq!(runtime.catalog_policy(), &CatalogPolicy::All);
    /// ```
    pub fn catalog(mut self, policy: CatalogPolicy) -> ToolRuntimeBuilder {
        self.catalog = policy;
        self
    }

    /// A hook asked before every tool runs; `false` refuses the call
    /// ([`DispatchError::Denied`](crate::runtime::DispatchError::Denied), no reason). For a hook that
    /// asks the user and waits, or says why, see [`approval_async`](Self::approval_async).
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use serde_json::json;
    /// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
    /// # let echo = provider_fn("echo", vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))], |_, args| async move { Ok(args) });
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::builder()
    ///     .approval(|req| req.tool != "mcp/server/echo")
    ///     .build()
    ///     .unwrap();
    /// runtime.add_provider(Arc::new(echo)).await.unwrap().check().unwrap();
    /// let err = runtime.request().dispatch("mcp_server_echo", json!({})).await.unwrap_err();
    /// assert_eq!(err, DispatchError::Denied { tool: "mcp/server/echo".into(), reason: None });
    /// # });
    /// ```
    pub fn approval(
        mut self,
        hook: impl Fn(&ApprovalRequest) -> bool + Send + Sync + 'static,
    ) -> ToolRuntimeBuilder {
        self.approval = Some(Arc::new(move |request: ApprovalRequest| {
            let approval = if hook(&request) {
                Approval::Approve
            } else {
                Approval::Refuse { reason: None }
            };
            async move { approval }.boxed()
        }));
        self
    }

    /// An async hook asked before every tool runs: it may ask the user and wait, and refuse with
    /// a reason the model reads. The request carries the tool's real name, its title and its
    /// server's annotations.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use serde_json::json;
    /// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let rm = ToolDefinition::new("mcp/shell/rm", "Removes a file.", json!({}))
    ///     .with_annotations(ToolAnnotations { destructive_hint: Some(true), ..Default::default() });
    /// let shell = provider_fn("shell", vec![rm], |_, args| async move { Ok(args) });
    /// let runtime = ToolRuntime::builder()
    ///     .approval_async(|req| async move {
    ///         if req.annotations.destructive_hint == Some(true) {
    ///             Approval::refuse("the user keeps destructive tools off")
    ///         } else {
    ///             Approval::Approve
    ///         }
    ///     })
    ///     .build()
    ///     .unwrap();
    /// runtime.add_provider(Arc::new(shell)).await.unwrap().check().unwrap();
    /// let err = runtime.request().dispatch("mcp_shell_rm", json!({})).await.unwrap_err();
    /// assert_eq!(err.to_string(), "the call to tool `mcp/shell/rm` was not approved: the user keeps destructive tools off");
    /// # });
    /// ```
    pub fn approval_async<H, F>(mut self, hook: H) -> ToolRuntimeBuilder
    where
        H: Fn(ApprovalRequest) -> F + Send + Sync + 'static,
        F: Future<Output = Approval> + Send + 'static,
    {
        self.approval = Some(Arc::new(move |request| hook(request).boxed()));
        self
    }

    /// The runtime, or why it cannot be built: two meta-tools of one name
    /// ([`RuntimeError::DuplicateMetaTool`]), a meta-tool name that is not model-safe
    /// ([`RuntimeError::BadMetaToolName`]), or one a `#[tool]` of the app travels as
    /// ([`RuntimeError::MetaToolClash`]).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::{ToolRuntime, names::DEFAULT_META_TOOLS, runtime::{MetaTool, RuntimeError}};
    /// let runtime = ToolRuntime::builder().build().unwrap();
    /// assert_eq!(runtime.request().census().taken().collect::<Vec<_>>(), DEFAULT_META_TOOLS);
    ///
    /// let twice = ToolRuntime::builder().meta_tool(MetaTool::tool_search()).build().unwrap_err();
    /// assert_eq!(twice, RuntimeError::DuplicateMetaTool { name: "tool_search".into() });
    /// let slash = MetaTool::new("app/help", "Help.", json!({}), |_| async { Ok(json!(null)) });
    /// let err = ToolRuntime::builder().meta_tool(slash).build().unwrap_err();
    /// assert!(err.to_string().contains("`app/help`") && err.to_string().contains("`app_help`"));
    /// ```
    pub fn build(self) -> Result<ToolRuntime, RuntimeError> {
        for (i, meta) in self.meta_tools.iter().enumerate() {
            let name = meta.name();
            if !is_model_safe(name) {
                return Err(RuntimeError::BadMetaToolName {
                    name: name.to_owned(),
                    form: model_safe_name(name).into_owned(),
                });
            }
            if self.meta_tools[..i].iter().any(|m| m.name() == name) {
                return Err(RuntimeError::DuplicateMetaTool {
                    name: name.to_owned(),
                });
            }
            // The app's own `#[tool]`s: the macro refuses the built-in names at compile time;
            // an app's own meta-tool name is checked here, before any request is built.
            if let Some(tool) = crate::tools::registered_tools()
                .into_iter()
                .find(|t| t.form == name)
            {
                return Err(RuntimeError::MetaToolClash {
                    name: name.to_owned(),
                    tool: tool.name.to_owned(),
                });
            }
        }
        Ok(ToolRuntime {
            shared: Arc::new(Shared::new(self.meta_tools, self.catalog, self.approval)),
        })
    }
}
