//! The tools report: what a Tools page shows, every provider and every tool, read from the same
//! census the requests carry.
//!
//! Policy: one read of the state for the whole report, so its providers and tools always
//! agree; a tool's form and status come from its census entry, never recomputed.

use std::collections::BTreeMap;

use serde::Serialize;

use super::loading::LoadStatus;
use super::shared::State;
use super::tool_runtime::ToolRuntime;
use super::tool_set::Snapshot;
use crate::census::LeftOutReason;
use crate::provider::ProviderKind;
use crate::schema::Dialect;
use crate::schema::SchemaReport;
use crate::tools::ToolAnnotations;

impl ToolRuntime {
    /// The tools report: every tool, its provider, its form, offered or left out and why, and
    /// every provider's load status. Serializes to JSON.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use serde_json::json;
    /// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
    /// # let echo = provider_fn("echo", vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))], |_, args| async move { Ok(args) });
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(echo)).await.unwrap();
    /// let report = runtime.report();
    /// assert_eq!(report.providers[0].status, LoadStatus::Loaded);
    /// assert_eq!(report.tools[0].form, "mcp_server_echo");
    /// assert_eq!(report.tools[0].status, ReportStatus::Offered);
    /// # });
    /// ```
    pub fn report(&self) -> ToolsReport {
        let state = self.shared.read();
        let snapshot = self.shared.snapshot(&state);
        let tool_set = &snapshot.tool_set;
        let mut providers = Vec::new();
        let mut tools = Vec::new();
        // Providers in the order they were added; each one's tools in its own order, which is
        // the order of its census positions.
        for slot in state.slots() {
            providers.push(ProviderReport {
                name: slot.provider.name().to_owned(),
                kind: slot.provider.kind(),
                tools: slot.tools.len(),
                status: slot.status.clone(),
            });
            for index in tool_set.positions_of(slot.id) {
                let def = &tool_set.definitions[index];
                let entry = &snapshot.census.tools()[index];
                let (status, reason) = tool_status(&state, &snapshot, index);
                let schema = def.parameters_schema();
                tools.push(ToolReport {
                    name: def.name.clone(),
                    provider: slot.provider.name().to_owned(),
                    form: entry.form().to_owned(),
                    title: def.title.clone(),
                    annotations: def.annotations.clone(),
                    status,
                    reason,
                    schemas: Dialect::ALL
                        .into_iter()
                        .map(|d| (d.key(), SchemaReport::of(d, &schema)))
                        .collect(),
                });
            }
        }
        ToolsReport { providers, tools }
    }
}

/// Whether the tool at census position `index` of `snapshot` is offered and, when it is not,
/// why: the one judgement the Tools page and `tool_schema` share.
pub(super) fn tool_status(
    state: &State,
    snapshot: &Snapshot,
    index: usize,
) -> (ReportStatus, Option<String>) {
    let tool_set = &snapshot.tool_set;
    let def = &tool_set.definitions[index];
    let reachable = state
        .slot(tool_set.owners[index].slot)
        .is_some_and(|slot| !slot.status.is_unreachable());
    if !reachable {
        (
            ReportStatus::Unavailable,
            Some("its provider is unreachable".to_owned()),
        )
    } else if let Some(reason) = &def.unsupported {
        (ReportStatus::Unsupported, Some(reason.clone()))
    } else if state.is_disabled(&def.name) {
        (ReportStatus::Disabled, Some("switched off".to_owned()))
    } else {
        match snapshot.census.tools()[index].left_out_reason() {
            None => (ReportStatus::Offered, None),
            Some(LeftOutReason::DuplicateName { first }) => (
                ReportStatus::LeftOut,
                Some(format!(
                    "provider `{}` already has a tool of this name",
                    tool_set.owners[*first].provider.name()
                )),
            ),
            Some(reason) => (ReportStatus::LeftOut, Some(reason.to_string())),
        }
    }
}

/// Whether a tool is in the requests, for the tools report.
///
/// ```
/// # use std::sync::Arc;
/// # use serde_json::json;
/// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
/// # let echo = provider_fn("echo", vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))], |_, args| async move { Ok(args) });
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let runtime = ToolRuntime::new();
/// runtime.add_provider(Arc::new(echo)).await.unwrap();
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
    /// The runtime cannot call it (an MCP tool that requires tasks): withheld, with the reason.
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
/// runtime.add_provider(Arc::new(echo)).await.unwrap();
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
    /// Offered, left out, switched off or unavailable.
    pub status: ReportStatus,
    /// Why it is not offered, when it is not.
    pub reason: Option<String>,
    /// How its schema travels in each dialect (by [`Dialect::key`]): as is, rewritten, with
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
/// runtime.add_provider(Arc::new(echo)).await.unwrap();
/// let expected = ProviderReport {
///     name: "echo".into(),
///     kind: ProviderKind::Loaded,
///     tools: 1,
///     status: LoadStatus::Loaded,
/// };
/// assert_eq!(runtime.report().providers, [expected]);
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
