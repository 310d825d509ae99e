//! The handle: [`ToolRuntime`], a cheap clone over the shared state, and every one of its
//! methods: its providers (added, reloaded, removed, followed), the user's switches, the request
//! and the conversation each round with the model starts from, and the Tools page's report.
//!
//! Policy: the handle holds nothing of its own; what a method does to the state is one change
//! under the lock (`shared.rs`), and what it awaits (a provider's list, a reload) is awaited
//! outside it, then checked again (`loading.rs` lists and judges a provider's tools).

use std::fmt;
use std::sync::Arc;

use super::builder::ToolRuntimeBuilder;
use super::catalog_policy::CatalogPolicy;
use super::conversation::{Conversation, ConversationState};
use super::errors::RuntimeError;
use super::load_status::{LoadStatus, ProviderHealth};
use super::loading::{load, watch_tool_list};
use super::meta_tool::MetaTool;
use super::report::{clashes_of, ProviderReport, ReportStatus, ToolReport, ToolsReport};
use super::request::Request;
use super::shared::Shared;
use crate::census::LeftOutReason;
use crate::provider::ToolProvider;
use crate::schema::{prepare_definition_cached, Dialect, SchemaReport};

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
/// runtime.add_provider(Arc::new(echo)).await.unwrap().check().unwrap();
/// let request = runtime.request();
/// assert_eq!(request.tools(WireFormat::OpenAi).unwrap()[0]["function"]["name"], "mcp_server_echo");
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

/// Making one, and what it was made with.
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
                MetaTool::built_ins(),
                CatalogPolicy::default(),
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

    /// The catalog policy it was built with.
    ///
    /// ```
    /// use toolwire_core::{ToolRuntime, runtime::CatalogPolicy};
    /// assert_eq!(ToolRuntime::new().catalog_policy(), &CatalogPolicy::default());
    /// ```
    pub fn catalog_policy(&self) -> &CatalogPolicy {
        &self.shared.catalog
    }
}

/// Its providers: added, removed and reloaded while calls run, each one's tool list followed.
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
    /// runtime.add_provider(Arc::new(echo)).await.unwrap().check().unwrap();
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
    /// runtime.add_provider(Arc::new(echo)).await.unwrap().check().unwrap();
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
        // "Restarting" on a Tools page until the reload is done, or dropped half-way.
        self.shared.set_reloading(id, true);
        let _reloading = ReloadingMark {
            shared: &self.shared,
            id,
        };
        let (tools, status) = match provider.reload().await {
            Ok(()) => load(&*provider, &self.shared).await,
            Err(e) => (Vec::new(), LoadStatus::unreachable(e.reason)),
        };
        // A restarted provider may signal its list changes on a new channel.
        if let Some(changes) = provider.tools_changed() {
            watch_tool_list(&self.shared, id, changes);
        }
        let reloaded = self.shared.change_tool_set(|state| {
            state.set_reloading(id, false);
            state.reloaded(id, tools, status.clone())
        });
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
    /// runtime.add_provider(Arc::new(echo)).await.unwrap().check().unwrap();
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

    /// A receiver that sees every change of the tool set (a provider added, removed, reloaded,
    /// or its tool list changed) and every provider marked unreachable (a crashed MCP server,
    /// whose tools are then withheld): await `changed()` to learn that the next request
    /// differs.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use serde_json::json;
    /// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
    /// # let echo = provider_fn("echo", vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))], |_, args| async move { Ok(args) });
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::new();
    /// let mut changes = runtime.tool_set_changes();
    /// runtime.add_provider(Arc::new(echo)).await.unwrap().check().unwrap();
    /// changes.changed().await.unwrap(); // returns at once: a change was seen
    /// assert_eq!(runtime.request().census().offered().count(), 1);
    /// # });
    /// ```
    pub fn tool_set_changes(&self) -> tokio::sync::watch::Receiver<u64> {
        self.shared.subscribe()
    }

    /// A receiver that sees every change the tools report shows: each of
    /// [`tool_set_changes`](Self::tool_set_changes), and a provider's reload begun (its
    /// health "restarting", which needs no `list_changed`). What a Tools page's live refresh
    /// follows.
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))]
    pub(crate) fn report_changes(&self) -> tokio::sync::watch::Receiver<u64> {
        self.shared.subscribe_report()
    }
}

/// The user's switches, by real name.
impl ToolRuntime {
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
    /// runtime.add_provider(Arc::new(echo)).await.unwrap().check().unwrap();
    /// let before = runtime.request();
    /// runtime.set_enabled("mcp/server/echo", false);
    /// let tools = runtime.request().tools(WireFormat::OpenAi).unwrap();
    /// assert_eq!(tools.as_array().unwrap().len(), 0);
    /// assert_eq!(tools.left_out()[0].reason, WhyLeftOut::SwitchedOff); // and says so
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
}

/// A request, alone or in a conversation.
impl ToolRuntime {
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
    /// runtime.add_provider(Arc::new(echo)).await.unwrap().check().unwrap();
    /// assert_eq!(empty.census().tools().len(), 0);
    /// assert_eq!(runtime.request().census().offered().count(), 1);
    /// # });
    /// ```
    pub fn request(&self) -> Request {
        Request::new(self.shared.clone(), None)
    }

    /// A new conversation, nothing loaded.
    ///
    /// ```
    /// let conversation = toolwire_core::ToolRuntime::new().conversation();
    /// assert!(conversation.loaded().is_empty());
    /// ```
    pub fn conversation(&self) -> Conversation {
        self.resume(ConversationState::default())
    }

    /// A conversation from its saved state.
    ///
    /// ```
    /// use toolwire_core::{ToolRuntime, runtime::ConversationState};
    /// let runtime = ToolRuntime::new();
    /// let first = runtime.conversation();
    /// first.load("mcp/files/read");
    /// let saved = serde_json::to_string(&first).unwrap();
    /// let resumed = runtime.resume(serde_json::from_str::<ConversationState>(&saved).unwrap());
    /// assert_eq!(resumed.loaded(), ["mcp/files/read"]);
    /// ```
    ///
    /// The state keeps the tool each call answered and not yet replayed ran
    /// ([`ConversationState::dispatched`]): a turn answered before the save and replayed
    /// after the resume records the tool that ran, whatever the names reach here. A state
    /// saved before history names were recorded with their tool (its `aliases`) is read too:
    /// each alias becomes a record of the tool its call reaches now.
    pub fn resume(&self, mut state: ConversationState) -> Conversation {
        if state.has_old_aliases() {
            state.upgrade(self.request().census());
        }
        Conversation::new(self.shared.clone(), state)
    }
}

/// Clears a provider's "restarting" when its reload ends, however it ends (a reload whose
/// future is dropped half-way included).
struct ReloadingMark<'a> {
    shared: &'a Shared,
    id: u64,
}

impl Drop for ReloadingMark<'_> {
    fn drop(&mut self) {
        self.shared.set_reloading(self.id, false);
    }
}

/// What a Tools page shows.
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
    /// runtime.add_provider(Arc::new(echo)).await.unwrap().check().unwrap();
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
                health: ProviderHealth::of(&slot.status, slot.reloading),
                restarts: slot.restarts,
                restarts_left: None,
                protocol_version: slot.provider.protocol_version(),
            });
            for index in tool_set.positions_of(slot.id) {
                let def = &tool_set.definitions[index];
                let entry = &snapshot.census.tools()[index];
                let (status, reason) = snapshot.tool_status(&state, index);
                let left_out = entry
                    .left_out_reason()
                    .filter(|_| status == ReportStatus::LeftOut);
                let reason_key = match status {
                    ReportStatus::Offered => None,
                    ReportStatus::LeftOut => left_out.map(LeftOutReason::key),
                    ReportStatus::Disabled => Some("switched_off"),
                    ReportStatus::Unavailable => Some("unreachable"),
                    _ => Some("unsupported"),
                };
                // Guarded only when the code that runs the tool checks the schema its
                // definition reports: the definition says so, and so does its provider.
                let validated = def.guarded_when_run(slot.provider.validates_arguments());
                tools.push(ToolReport {
                    name: def.name.clone(),
                    provider: slot.provider.name().to_owned(),
                    form: entry.form().to_owned(),
                    title: def.title.clone(),
                    annotations: def.annotations.clone(),
                    description: def.description.clone(),
                    served: None,
                    status,
                    reason,
                    reason_key,
                    clashes_with: match left_out {
                        // The earlier tool of this very name: its real name is this one's, and
                        // the reason names its provider.
                        Some(LeftOutReason::DuplicateName { first }) => {
                            vec![tool_set.definitions[*first].name.clone()]
                        }
                        other => other.map(clashes_of).unwrap_or_default(),
                    },
                    schemas: Dialect::ALL
                        .into_iter()
                        .map(|d| {
                            let preparation = prepare_definition_cached(d, def);
                            (
                                d.key(),
                                SchemaReport::of_preparation(&preparation, validated),
                            )
                        })
                        .collect(),
                });
            }
        }
        ToolsReport { providers, tools }
    }
}
