//! The tools report: what a Tools page shows, every provider and every tool, read from the same
//! census the requests carry. [`ToolRuntime::report`](crate::runtime::ToolRuntime::report)
//! builds it.
//!
//! Policy: one read of the state for the whole report, so its providers and tools always
//! agree; a tool's form and status come from its census entry, never recomputed; why a tool is
//! not offered is the same judgement `tool_schema` gives the model.
//!
//! ```
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! use std::sync::Arc;
//! use serde_json::json;
//! use toolwire_core::{provider::provider_fn, runtime::report::ReportStatus};
//! use toolwire_core::{ToolDefinition, ToolRuntime};
//!
//! let echo = provider_fn("echo", vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))], |_, args| async move { Ok(args) });
//! let runtime = ToolRuntime::new();
//! runtime.add_provider(Arc::new(echo)).await.unwrap().check().unwrap();
//! runtime.set_enabled("mcp/server/echo", false);
//! let report = runtime.report();
//! assert_eq!((report.providers[0].name.as_str(), report.providers[0].tools), ("echo", 1));
//! assert_eq!((report.tools[0].status, report.tools[0].reason.as_deref()), (ReportStatus::Disabled, Some("switched off")));
//! # });
//! ```

use std::collections::BTreeMap;

use serde::Serialize;

use super::load_status::{LoadStatus, ProviderHealth};
use crate::census::LeftOutReason;
use crate::provider::ProviderKind;
use crate::schema::SchemaReport;
use crate::tools::ToolAnnotations;

/// Whether a tool is in the requests, for the tools report.
///
/// ```
/// # use std::sync::Arc;
/// # use serde_json::json;
/// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
/// # let echo = provider_fn("echo", vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))], |_, args| async move { Ok(args) });
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let runtime = ToolRuntime::new();
/// runtime.add_provider(Arc::new(echo)).await.unwrap().check().unwrap();
/// runtime.set_enabled("mcp/server/echo", false);
/// let tool = &runtime.report().tools[0];
/// assert_eq!((tool.status, tool.reason.as_deref()), (ReportStatus::Disabled, Some("switched off")));
/// assert_eq!(serde_json::to_value(ReportStatus::LeftOut).unwrap(), "left_out");
/// # });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ReportStatus {
    /// In the request under its form.
    Offered,
    /// Left out by the census.
    LeftOut,
    /// Switched off by the user.
    Disabled,
    /// Its provider is unreachable.
    Unavailable,
    /// The runtime cannot call it (an MCP tool that requires tasks, or one that is not valid
    /// MCP): withheld, with the reason.
    Unsupported,
}

/// One tool in the tools report.
///
/// ```
/// # use std::sync::Arc;
/// # use serde_json::json;
/// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
/// # let echo = provider_fn("echo", vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))], |_, args| async move { Ok(args) });
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let runtime = ToolRuntime::new();
/// runtime.add_provider(Arc::new(echo)).await.unwrap().check().unwrap();
/// let report = runtime.report();
/// let tool = &report.tools[0];
/// assert_eq!((tool.name.as_str(), tool.provider.as_str()), ("mcp/server/echo", "echo"));
/// assert_eq!((tool.form.as_str(), tool.status, tool.reason.as_deref()), ("mcp_server_echo", ReportStatus::Offered, None));
/// // How its schema travels to each dialect: Gemini writes `OBJECT`, strict closes the object.
/// assert_eq!(tool.schemas["openai"].status, SchemaStatus::AsIs);
/// assert_eq!(tool.schemas["gemini"].status, SchemaStatus::Rewritten);
/// assert_eq!(tool.schemas["openai-strict"].status, SchemaStatus::Lossy);
/// # });
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ToolReport {
    /// The real name.
    pub name: String,
    /// Its provider.
    pub provider: String,
    /// Its model-safe form.
    pub form: String,
    /// Its name for people, if its server gave one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What its server says about it.
    #[serde(skip_serializing_if = "ToolAnnotations::is_empty")]
    pub annotations: ToolAnnotations,
    /// What its server says it does, as it said it (text from a server nobody here
    /// controls: a page escapes it).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// The name a gateway serves it under (`mcp::serve::ToolServer::report`, feature `mcp`),
    /// when it is served: its form cut to the gateway's name budget. `None` in a runtime's
    /// own report.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub served: Option<String>,
    /// Offered, left out, switched off or unavailable.
    pub status: ReportStatus,
    /// Why it is not offered, when it is not.
    pub reason: Option<String>,
    /// The reason's stable key when it is not offered: the census's
    /// ([`LeftOutReason::key`](crate::census::LeftOutReason::key): `shares_form`,
    /// `form_is_another_tool`, `meta_tool`, `budget_clash`, ...) or `switched_off`,
    /// `unreachable`, `unsupported`, as [`WhyLeftOut::key`](crate::wire::WhyLeftOut::key)
    /// spells them.
    pub reason_key: Option<&'static str>,
    /// The other tools, by real name, whose names keep this one from being called: those it
    /// shares its form with, the one whose real name its form is, those that outrank it, the
    /// earlier tool of the same real name (another provider's, for a duplicate name). Empty
    /// when no other tool is in the way.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub clashes_with: Vec<String>,
    /// How its schema travels in each dialect (by [`Dialect::key`](crate::schema::Dialect::key)): as is, rewritten, with
    /// losses (listed), or refused (why).
    pub schemas: BTreeMap<&'static str, SchemaReport>,
}

/// One provider in the tools report.
///
/// ```
/// # use std::sync::Arc;
/// # use serde_json::json;
/// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
/// # let echo = provider_fn("echo", vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))], |_, args| async move { Ok(args) });
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let runtime = ToolRuntime::new();
/// runtime.add_provider(Arc::new(echo)).await.unwrap().check().unwrap();
/// let expected = ProviderReport {
///     name: "echo".into(),
///     kind: ProviderKind::Loaded,
///     tools: 1,
///     status: LoadStatus::Loaded,
///     health: ProviderHealth::Running,
///     restarts: 0,
///     restarts_left: None,
///     protocol_version: None,
/// };
/// assert_eq!(runtime.report().providers, [expected]);
/// // A reload (a gateway's restart of a crashed server) is counted; health is running again.
/// runtime.reload_provider("echo").await.unwrap().check().unwrap();
/// let echo = &runtime.report().providers[0];
/// assert_eq!((echo.health, echo.restarts), (ProviderHealth::Running, 1));
/// # });
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProviderReport {
    /// The provider's name.
    pub name: String,
    /// Static or loaded.
    pub kind: ProviderKind,
    /// How many tools it listed.
    pub tools: usize,
    /// Its load status.
    pub status: LoadStatus,
    /// Running, failed (unreachable) or restarting (a reload under way).
    pub health: ProviderHealth,
    /// How many times it was reloaded ([`ToolRuntime::reload_provider`]: a gateway's restarts
    /// of a crashed server); a `list_changed` relisting is not counted.
    ///
    /// [`ToolRuntime::reload_provider`]: crate::runtime::ToolRuntime::reload_provider
    pub restarts: u32,
    /// How many restarts a gateway has left for it (its `--restarts` bound less those used;
    /// `mcp::serve::ToolServer::report`, feature `mcp`, whose `restarts` then counts the
    /// gateway's own restarts). `None` in a runtime's own report: nothing bounds its reloads.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restarts_left: Option<u32>,
    /// The protocol version it speaks to its server ([`ToolProvider::protocol_version`]): an
    /// MCP server's negotiated revision; absent for a provider without one.
    ///
    /// [`ToolProvider::protocol_version`]: crate::provider::ToolProvider::protocol_version
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protocol_version: Option<String>,
}

/// The data a Tools page shows.
///
/// ```
/// let report = toolwire_core::ToolRuntime::new().report();
/// assert_eq!(serde_json::to_value(&report).unwrap(), serde_json::json!({"providers": [], "tools": []}));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ToolsReport {
    /// Every provider.
    pub providers: Vec<ProviderReport>,
    /// Every tool of every provider.
    pub tools: Vec<ToolReport>,
}

/// The other tools, by real name, whose names keep a tool the census left out for `reason`
/// from being called (none for a reason that names no other tool).
pub(crate) fn clashes_of(reason: &LeftOutReason) -> Vec<String> {
    match reason {
        LeftOutReason::SharesForm { others } => others.clone(),
        LeftOutReason::FormIsAnotherTool { owner } => vec![owner.clone()],
        LeftOutReason::Outranked { holders } => holders.clone(),
        LeftOutReason::BudgetClash { cause, .. } => clashes_of(cause),
        _ => Vec::new(),
    }
}
