//! The approval hook: asked before a tool runs, with the tool's real name and what its server
//! says about it; it may wait (ask the user) and refuse with a reason the model reads. Set it
//! with [`ToolRuntimeBuilder::approval`](crate::runtime::ToolRuntimeBuilder::approval) or
//! [`approval_async`](crate::runtime::ToolRuntimeBuilder::approval_async).
//!
//! ```
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! use std::sync::Arc;
//! use serde_json::json;
//! use toolwire_core::{provider::provider_fn, runtime::{approval::Approval, DispatchError}};
//! use toolwire_core::{ToolDefinition, ToolRuntime};
//!
//! let shell = provider_fn("shell", vec![ToolDefinition::new("mcp/shell/rm", "Removes a file.", json!({}))], |_, args| async move { Ok(args) });
//! let runtime = ToolRuntime::builder()
//!     .approval_async(|request| async move { Approval::refuse(format!("not `{}`", request.tool)) })
//!     .build()
//!     .unwrap();
//! runtime.add_provider(Arc::new(shell)).await.unwrap().check().unwrap();
//! let err = runtime.request().dispatch("mcp_shell_rm", json!({})).await.unwrap_err();
//! assert_eq!(err, DispatchError::Denied { tool: "mcp/shell/rm".into(), reason: Some("not `mcp/shell/rm`".into()) });
//! # });
//! ```

use std::sync::Arc;

use futures::future::BoxFuture;
use serde::Serialize;
use serde_json::Value;

use super::route::Route;
use crate::tools::ToolAnnotations;

/// What the approval hook is asked before a tool runs. `tool` is the real name, whatever form
/// the model used; `title` and `annotations` are what the tool's server says about it.
///
/// ```
/// # use std::sync::Arc;
/// # use serde_json::json;
/// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
/// # let echo = provider_fn("echo", vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))], |_, args| async move { Ok(args) });
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let runtime = ToolRuntime::builder()
///     .approval(|req| req.tool == "mcp/server/echo" && req.route == Route::Form)
///     .build()
///     .unwrap();
/// runtime.add_provider(Arc::new(echo)).await.unwrap().check().unwrap();
/// let request = runtime.request();
/// assert!(request.dispatch("mcp_server_echo", json!({})).await.is_ok());
/// let by_name = request.dispatch("mcp/server/echo", json!({})).await;
/// assert_eq!(by_name.unwrap_err(), DispatchError::Denied { tool: "mcp/server/echo".into(), reason: None });
/// # });
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct ApprovalRequest {
    /// The tool's real name.
    pub tool: String,
    /// The provider that runs it.
    pub provider: String,
    /// The name the model called.
    pub called: String,
    /// How the call reached the tool.
    pub route: Route,
    /// The call's arguments, shared with the runtime rather than copied for the hook: read them
    /// through the `Arc` (`request.arguments["path"]`, `request.arguments.get("path")`). The
    /// tool gets them once the hook has answered; a hook that keeps its request (or a clone
    /// of this `Arc`) keeps reading them, and the tool then gets a copy. Serialized, they are
    /// the JSON value itself.
    ///
    /// ```
    /// # use std::sync::{Arc, Mutex};
    /// # use serde_json::json;
    /// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
    /// # let rm = provider_fn("shell", vec![ToolDefinition::new("mcp/shell/rm", "Removes a file.", json!({}))], |_, args| async move { Ok(args) });
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let kept = Arc::new(Mutex::new(Vec::new()));
    /// let log = kept.clone();
    /// let runtime = ToolRuntime::builder()
    ///     .approval(move |req| {
    ///         log.lock().unwrap().push(Arc::clone(&req.arguments));
    ///         req.arguments["path"] != "/"
    ///     })
    ///     .build()
    ///     .unwrap();
    /// runtime.add_provider(Arc::new(rm)).await.unwrap().check().unwrap();
    /// let request = runtime.request();
    /// let out = request.dispatch("mcp_shell_rm", json!({"path": "notes.txt"})).await.unwrap();
    /// assert_eq!(out.output.to_value(), json!({"path": "notes.txt"}));
    /// assert!(request.dispatch("mcp_shell_rm", json!({"path": "/"})).await.is_err());
    /// assert_eq!(*kept.lock().unwrap()[0], json!({"path": "notes.txt"}));
    /// # });
    /// ```
    pub arguments: Arc<Value>,
    /// The tool's name for people, if its server gave one.
    pub title: Option<String>,
    /// What the tool's server says about it (read-only, destructive, …).
    pub annotations: ToolAnnotations,
}

/// The approval hook's answer.
///
/// ```
/// use toolwire_core::runtime::approval::Approval;
/// assert_eq!(Approval::refuse("not now"), Approval::Refuse { reason: Some("not now".into()) });
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Approval {
    /// The call runs.
    Approve,
    /// The call does not run; the model reads the reason, if there is one.
    Refuse {
        /// Why, in words for the model.
        reason: Option<String>,
    },
}

impl Approval {
    /// A refusal with a reason the model reads.
    ///
    /// ```
    /// let no = toolwire_core::runtime::approval::Approval::refuse("the user said no");
    /// assert!(matches!(no, toolwire_core::runtime::approval::Approval::Refuse { reason: Some(_) }));
    /// ```
    pub fn refuse(reason: impl Into<String>) -> Approval {
        Approval::Refuse {
            reason: Some(reason.into()),
        }
    }
}

/// The hook as the runtime holds it: always async (the synchronous form is wrapped).
pub(super) type Approver =
    Arc<dyn Fn(ApprovalRequest) -> BoxFuture<'static, Approval> + Send + Sync>;
