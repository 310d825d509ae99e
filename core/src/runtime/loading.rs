//! Loading: a provider added, reloaded or removed, and what its tool list says about it.
//!
//! Policy: a load failure is the provider's status (and the Tools page's), never an error of
//! the call that added it: the provider stays, to be reloaded. Nothing is awaited under the
//! state's lock; what changed while a load was awaited is checked again after it.

use std::sync::Arc;

use serde::Serialize;

use super::errors::RuntimeError;
use super::shared::Shared;
use super::tool_runtime::ToolRuntime;
use crate::census::Census;
use crate::names::model_safe_name;
use crate::provider::{ProviderKind, ToolProvider};
use crate::tools::ToolDefinition;

/// A problem found when a provider's tools were loaded.
///
/// ```
/// let p = toolwire_core::runtime::LoadProblem::EmptyName;
/// assert_eq!(serde_json::to_value(&p).unwrap()["kind"], "empty_name");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum LoadProblem {
    /// Two or more of the provider's own tools share a form. A request carries a form once, so
    /// at most one of them is offered: the one whose real name is the form, if one is; the
    /// others are left out.
    SharedForm {
        /// The form.
        form: String,
        /// The tools that travel as it, sorted.
        tools: Vec<String>,
    },
    /// The provider listed the same real name more than once.
    DuplicateName {
        /// The name.
        name: String,
    },
    /// The provider listed a tool with an empty name.
    EmptyName,
    /// A tool of the app (a static provider's) travels as the name of one of the runtime's own
    /// tools: the census leaves it out (a request would name a tool twice). Rename it.
    MetaToolName {
        /// The tool's real name.
        tool: String,
        /// The meta-tool's name, which is its form.
        name: String,
    },
    /// The provider could not be reached (it failed to list its tools, or its server exited,
    /// crashed or hung during a call). Its tools are out of every request until it is reloaded.
    Unreachable {
        /// What happened.
        reason: String,
    },
}

/// A provider's load status, as a Tools page shows it.
///
/// ```
/// let status = toolwire_core::runtime::LoadStatus::Loaded;
/// assert_eq!(serde_json::to_value(&status).unwrap(), serde_json::json!({"state": "loaded"}));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
#[non_exhaustive]
pub enum LoadStatus {
    /// Every tool loaded cleanly.
    Loaded,
    /// The load failed: the problems say why. Tools not named by a problem are still offered,
    /// unless the provider is unreachable.
    Failed {
        /// What went wrong.
        problems: Vec<LoadProblem>,
    },
}

impl LoadStatus {
    pub(super) fn is_unreachable(&self) -> bool {
        matches!(self, LoadStatus::Failed { problems } if problems.iter().any(|p| matches!(p, LoadProblem::Unreachable { .. })))
    }

    fn of(problems: Vec<LoadProblem>) -> LoadStatus {
        if problems.is_empty() {
            LoadStatus::Loaded
        } else {
            LoadStatus::Failed { problems }
        }
    }

    fn unreachable(reason: String) -> LoadStatus {
        LoadStatus::of(vec![LoadProblem::Unreachable { reason }])
    }
}

/// The census of one provider's own list, built without the census's warnings: each shared form
/// is logged once by the runtime's census of every tool (`ToolSet::build`), and the load failure
/// once by [`load`]; a third line per form would be noise. The census has no build without its
/// log yet, so this one runs under a subscriber that keeps nothing.
fn own_census(tools: &[ToolDefinition]) -> Census {
    tracing::subscriber::with_default(tracing::subscriber::NoSubscriber::default(), || {
        Census::build(tools.iter().map(|t| &t.name), &[])
    })
}

/// The problems of one provider's own tool list (shared forms, duplicates, empty names).
fn load_problems(tools: &[ToolDefinition]) -> Vec<LoadProblem> {
    let census = own_census(tools);
    let mut problems: Vec<LoadProblem> = census
        .collisions()
        .iter()
        .map(|(form, tools)| LoadProblem::SharedForm {
            form: form.clone(),
            tools: tools.clone(),
        })
        .collect();
    problems.extend(
        census
            .duplicates()
            .iter()
            .filter(|name| !name.is_empty()) // reported once below, as EmptyName
            .map(|name| LoadProblem::DuplicateName { name: name.clone() }),
    );
    if tools.iter().any(|t| t.name.is_empty()) {
        problems.push(LoadProblem::EmptyName);
    }
    problems
}

/// The tools of a static provider (the app's own) that travel as a meta-tool's name.
fn meta_name_problems(
    provider: &dyn ToolProvider,
    tools: &[ToolDefinition],
    shared: &Shared,
) -> Vec<LoadProblem> {
    if provider.kind() != ProviderKind::Static {
        return Vec::new();
    }
    tools
        .iter()
        .filter_map(|t| {
            let form = model_safe_name(&t.name);
            shared.meta_tool(&form).map(|m| LoadProblem::MetaToolName {
                tool: t.name.clone(),
                name: m.name().to_owned(),
            })
        })
        .collect()
}

/// Lists `provider`'s tools and judges the list.
async fn load(provider: &dyn ToolProvider, shared: &Shared) -> (Vec<ToolDefinition>, LoadStatus) {
    match provider.list_tools().await {
        Ok(tools) => {
            let mut problems = load_problems(&tools);
            problems.extend(meta_name_problems(provider, &tools, shared));
            if !problems.is_empty() {
                tracing::warn!(
                    provider = provider.name(),
                    ?problems,
                    "provider load failed"
                );
            }
            (tools, LoadStatus::of(problems))
        }
        Err(e) => {
            tracing::warn!(provider = provider.name(), error = %e, "provider load failed");
            (Vec::new(), LoadStatus::unreachable(e.reason))
        }
    }
}

/// Lists the provider `id`'s tools again each time `changes` moves (an MCP server's
/// `notifications/tools/list_changed`), without restarting it: the next request's census is
/// built from the new list. The task holds the runtime weakly and ends when the provider is
/// removed, the runtime dropped, the channel closed, or a newer watch of the same provider
/// started (after a reload).
fn watch_tool_list(shared: &Arc<Shared>, id: u64, mut changes: tokio::sync::watch::Receiver<u64>) {
    let Ok(handle) = tokio::runtime::Handle::try_current() else {
        tracing::warn!(
            provider = id,
            "no tokio runtime: the provider's tool list changes are not followed; reload it instead"
        );
        return;
    };
    let watch = shared.next_watch(id);
    let shared = Arc::downgrade(shared);
    handle.spawn(async move {
        while changes.changed().await.is_ok() {
            let Some(shared) = shared.upgrade() else {
                return;
            };
            let provider = {
                let state = shared.read();
                match state.slot(id) {
                    Some(slot) if slot.watch == watch => slot.provider.clone(),
                    _ => return,
                }
            };
            tracing::info!(
                provider = provider.name(),
                "tool list changed; listing again"
            );
            let (tools, status) = load(&*provider, &shared).await;
            let still_watched = shared.change_tool_set(|state| {
                state.slot(id).is_some_and(|s| s.watch == watch)
                    && state.reloaded(id, tools, status)
            });
            if !still_watched {
                return;
            }
        }
    });
}

impl ToolRuntime {
    /// Adds a provider and loads its tools. A load failure is recorded in its status (and the
    /// tools report), not returned: the provider stays, to be reloaded.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use serde_json::json;
    /// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let echo = Arc::new(provider_fn(
    ///     "echo",
    ///     vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))],
    ///     |_, args| async move { Ok(args) },
    /// ));
    /// let runtime = ToolRuntime::new();
    /// assert_eq!(runtime.add_provider(echo.clone()).await, Ok(LoadStatus::Loaded));
    /// let again = runtime.add_provider(echo).await;
    /// assert_eq!(again, Err(RuntimeError::DuplicateProvider("echo".into())));
    /// # });
    /// ```
    pub async fn add_provider(
        &self,
        provider: Arc<dyn ToolProvider>,
    ) -> Result<LoadStatus, RuntimeError> {
        let name = provider.name().to_owned();
        if self.shared.read().slot_named(&name).is_some() {
            return Err(RuntimeError::DuplicateProvider(name));
        }
        let (tools, status) = load(&*provider, &self.shared).await;
        let changes = provider.tools_changed();
        let id = self.shared.change_tool_set(|state| {
            // Checked again: another task may have added the same name while we awaited.
            if state.slot_named(&name).is_some() {
                return Err(RuntimeError::DuplicateProvider(name));
            }
            Ok(state.add_slot(provider, tools, status.clone()))
        })?;
        if let Some(changes) = changes {
            watch_tool_list(&self.shared, id, changes);
        }
        Ok(status)
    }

    /// Removes the provider named `name` and shuts it down ([`ToolProvider::shutdown`]); whether
    /// there was one. Later calls to its tools fail with
    /// [`DispatchError::ProviderRemoved`](crate::runtime::DispatchError::ProviderRemoved).
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use serde_json::json;
    /// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
    /// # let echo = provider_fn("echo", vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))], |_, args| async move { Ok(args) });
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(echo)).await.unwrap();
    /// let request = runtime.request();
    /// assert!(runtime.remove_provider("echo"));
    /// assert!(!runtime.remove_provider("echo"));
    /// let err = request.dispatch("mcp_server_echo", json!({})).await.unwrap_err();
    /// assert!(matches!(err, DispatchError::ProviderRemoved { .. }));
    /// # });
    /// ```
    pub fn remove_provider(&self, name: &str) -> bool {
        let removed = self
            .shared
            .change_tool_set(|state| state.remove_named(name));
        // Outside the lock: an old request may still hold the provider, so stop it now
        // rather than when the last such request is dropped.
        for slot in &removed {
            slot.provider.shutdown();
        }
        !removed.is_empty()
    }

    /// Restarts the provider named `name` and loads its tools again.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use serde_json::json;
    /// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
    /// # let echo = provider_fn("echo", vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))], |_, args| async move { Ok(args) });
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(echo)).await.unwrap();
    /// assert_eq!(runtime.reload_provider("echo").await, Ok(LoadStatus::Loaded));
    /// let missing = runtime.reload_provider("nope").await;
    /// assert_eq!(missing, Err(RuntimeError::NoSuchProvider("nope".into())));
    /// # });
    /// ```
    pub async fn reload_provider(&self, name: &str) -> Result<LoadStatus, RuntimeError> {
        let (id, provider) = {
            let state = self.shared.read();
            let slot = state
                .slot_named(name)
                .ok_or_else(|| RuntimeError::NoSuchProvider(name.to_owned()))?;
            (slot.id, slot.provider.clone())
        };
        let (tools, status) = match provider.reload().await {
            Ok(()) => load(&*provider, &self.shared).await,
            Err(e) => (Vec::new(), LoadStatus::unreachable(e.reason)),
        };
        // A restarted provider may signal its list changes on a new channel.
        if let Some(changes) = provider.tools_changed() {
            watch_tool_list(&self.shared, id, changes);
        }
        let reloaded = self
            .shared
            .change_tool_set(|state| state.reloaded(id, tools, status.clone()));
        if !reloaded {
            return Err(RuntimeError::NoSuchProvider(name.to_owned()));
        }
        Ok(status)
    }

    /// A provider's load status.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use serde_json::json;
    /// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
    /// # let echo = provider_fn("echo", vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))], |_, args| async move { Ok(args) });
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(echo)).await.unwrap();
    /// assert_eq!(runtime.provider_status("echo"), Some(LoadStatus::Loaded));
    /// assert_eq!(runtime.provider_status("nope"), None);
    /// # });
    /// ```
    pub fn provider_status(&self, name: &str) -> Option<LoadStatus> {
        self.shared
            .read()
            .slot_named(name)
            .map(|s| s.status.clone())
    }
}
