//! The runtime: providers added and removed while calls run, one census per request, and every
//! call resolved (hop 5) and dispatched to exactly its tool, or failed with a typed error.
//!
//! Policy: no lock is held across an await; a provider that fails only fails its own tools;
//! the real name is the identity the approval hook and the switches see.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Arc, PoisonError, RwLock};

use serde::Serialize;
use serde_json::{json, Value};

use crate::census::{Census, LeftOutReason, Resolution, Via};
use crate::dialect_rules::Dialect;
use crate::meta_tools::META_TOOLS;
use crate::provider::{ProviderKind, ToolProvider};
use crate::schema::{restore_arguments, SchemaReport};
use crate::tool_error::ToolError;
use crate::wire::{wire_tools, ToolDefinition, WireError, WireFormat};

/// A problem found when a provider's tools were loaded.
///
/// ```
/// let p = toolwire_core::LoadProblem::EmptyName;
/// assert_eq!(serde_json::to_value(&p).unwrap()["kind"], "empty_name");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LoadProblem {
    /// Two or more of the provider's own tools share a form: none of them can be offered.
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
/// let status = toolwire_core::LoadStatus::Loaded;
/// assert_eq!(serde_json::to_value(&status).unwrap(), serde_json::json!({"state": "loaded"}));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
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
    fn is_unreachable(&self) -> bool {
        matches!(self, LoadStatus::Failed { problems } if problems.iter().any(|p| matches!(p, LoadProblem::Unreachable { .. })))
    }
}

/// How a call reached what answered it.
///
/// ```
/// use toolwire_core::{Route, ToolRuntime};
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let request = ToolRuntime::new().request();
/// let out = request.dispatch("tool_search", serde_json::json!({})).await.unwrap();
/// assert_eq!(out.route, Route::Meta);
/// assert_eq!(serde_json::to_value(Route::Form).unwrap(), "form");
/// # });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Route {
    /// A meta-tool, answered by the runtime.
    Meta,
    /// The tool's real name.
    Exact,
    /// The tool's model-safe form.
    Form,
}

impl From<Via> for Route {
    fn from(via: Via) -> Route {
        match via {
            Via::Exact => Route::Exact,
            Via::Form => Route::Form,
        }
    }
}

/// What the approval hook is asked before a tool runs. `tool` is the real name, whatever
/// form the model used.
///
/// ```
/// # use std::sync::Arc;
/// # use futures::future::BoxFuture;
/// # use serde_json::{json, Value};
/// # use toolwire_core::*;
/// # struct Echo;
/// # impl ToolProvider for Echo {
/// #     fn name(&self) -> &str { "echo" }
/// #     fn list_tools(&self) -> BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>> {
/// #         Box::pin(async { Ok(vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))]) })
/// #     }
/// #     fn call<'a>(&'a self, _: &'a str, args: Value) -> BoxFuture<'a, Result<Value, ToolError>> {
/// #         Box::pin(async move { Ok(args) })
/// #     }
/// # }
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let runtime = ToolRuntime::builder()
///     .approval(|req| req.tool == "mcp/server/echo" && req.route == Route::Form)
///     .build();
/// runtime.add_provider(Arc::new(Echo)).await.unwrap();
/// let request = runtime.request();
/// assert!(request.dispatch("mcp_server_echo", json!({})).await.is_ok());
/// let by_name = request.dispatch("mcp/server/echo", json!({})).await;
/// assert_eq!(by_name.unwrap_err(), DispatchError::Denied { tool: "mcp/server/echo".into() });
/// # });
/// ```
#[derive(Debug)]
pub struct ApprovalRequest<'a> {
    /// The tool's real name.
    pub tool: &'a str,
    /// The provider that runs it.
    pub provider: &'a str,
    /// The name the model called.
    pub called: &'a str,
    /// How the call reached the tool.
    pub route: Route,
    /// The call's arguments.
    pub arguments: &'a Value,
}

type ApprovalHook = Box<dyn Fn(&ApprovalRequest<'_>) -> bool + Send + Sync>;

/// A call that ran: which tool answered, how it was reached, and its output.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::{CallOutcome, Route, ToolRuntime};
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let out = ToolRuntime::new().request().dispatch("reset_tools", json!({})).await.unwrap();
/// let expected = CallOutcome {
///     tool: "reset_tools".into(),
///     provider: "runtime".into(),
///     route: Route::Meta,
///     output: json!({"tools": []}),
/// };
/// assert_eq!(out, expected);
/// # });
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CallOutcome {
    /// The real name of the tool (or the meta-tool) that answered.
    pub tool: String,
    /// Its provider (`runtime` for a meta-tool).
    pub provider: String,
    /// How the call reached it.
    pub route: Route,
    /// The tool's output.
    pub output: Value,
}

/// Why a call was not run or did not complete.
///
/// ```
/// let err = toolwire_core::DispatchError::UnknownTool { called: "serch".into(), closest: vec!["search".into()] };
/// assert!(err.to_string().contains("`search`"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DispatchError {
    /// No tool answers to the called name (never a guess).
    #[error("unknown tool `{called}`{}", if closest.is_empty() { String::new() } else { format!("; the closest offered tools are {}", closest.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ")) })]
    UnknownTool {
        /// The name the call used.
        called: String,
        /// The offered forms closest to it.
        closest: Vec<String>,
    },
    /// The user switched the tool off.
    #[error("tool `{tool}` is switched off")]
    Disabled {
        /// The tool's real name.
        tool: String,
    },
    /// The approval hook refused the call.
    #[error("the call to tool `{tool}` was not approved")]
    Denied {
        /// The tool's real name.
        tool: String,
    },
    /// The tool's provider was removed after this request was built.
    #[error("tool `{tool}` is gone: its provider `{provider}` was removed")]
    ProviderRemoved {
        /// The tool's real name.
        tool: String,
        /// The provider.
        provider: String,
    },
    /// A meta-tool of a custom taken set that the runtime does not answer itself.
    #[error("meta-tool `{name}` is the app's to answer")]
    MetaToolUnhandled {
        /// The meta-tool's name.
        name: String,
    },
    /// The tool ran and failed, or could not run.
    #[error(transparent)]
    Tool(#[from] ToolError),
}

/// The runtime was asked something it cannot do.
///
/// ```
/// use toolwire_core::{RuntimeError, ToolRuntime};
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let err = ToolRuntime::new().reload_provider("mcp/files").await.unwrap_err();
/// assert_eq!(err, RuntimeError::NoSuchProvider("mcp/files".into()));
/// assert_eq!(err.to_string(), "no provider named `mcp/files`");
/// # });
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuntimeError {
    /// A provider of that name is already in the runtime.
    #[error("a provider named `{0}` is already loaded; remove it first or give it another name")]
    DuplicateProvider(String),
    /// No provider of that name.
    #[error("no provider named `{0}`")]
    NoSuchProvider(String),
}

struct Slot {
    id: u64,
    /// Bumped at every reload: a failure seen by a call into an older load is stale.
    generation: u64,
    provider: Arc<dyn ToolProvider>,
    tools: Vec<ToolDefinition>,
    status: LoadStatus,
}

#[derive(Default)]
struct State {
    slots: Vec<Slot>,
    disabled: BTreeSet<String>,
    next_id: u64,
}

struct Shared {
    state: RwLock<State>,
    taken: Vec<String>,
    approval: Option<ApprovalHook>,
}

impl Shared {
    fn read(&self) -> std::sync::RwLockReadGuard<'_, State> {
        self.state.read().unwrap_or_else(PoisonError::into_inner)
    }
    fn write(&self) -> std::sync::RwLockWriteGuard<'_, State> {
        self.state.write().unwrap_or_else(PoisonError::into_inner)
    }

    fn mark_unreachable(&self, slot_id: u64, generation: u64, reason: String) {
        let mut state = self.write();
        // A failure seen by a call into an older load says nothing about the reloaded one.
        if let Some(slot) = state
            .slots
            .iter_mut()
            .find(|s| s.id == slot_id && s.generation == generation)
        {
            tracing::warn!(provider = slot.provider.name(), %reason, "provider marked failed");
            slot.status = LoadStatus::Failed {
                problems: vec![LoadProblem::Unreachable { reason }],
            };
        }
    }
}

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
    /// # use futures::future::BoxFuture;
    /// # use serde_json::{json, Value};
    /// # use toolwire_core::*;
    /// # struct Echo;
    /// # impl ToolProvider for Echo {
    /// #     fn name(&self) -> &str { "echo" }
    /// #     fn list_tools(&self) -> BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>> {
    /// #         Box::pin(async { Ok(vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))]) })
    /// #     }
    /// #     fn call<'a>(&'a self, _: &'a str, args: Value) -> BoxFuture<'a, Result<Value, ToolError>> {
    /// #         Box::pin(async move { Ok(args) })
    /// #     }
    /// # }
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::builder()
    ///     .approval(|req| req.tool != "mcp/server/echo")
    ///     .build();
    /// runtime.add_provider(Arc::new(Echo)).await.unwrap();
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
        ToolRuntime {
            shared: Arc::new(Shared {
                state: RwLock::new(State::default()),
                taken: self
                    .taken
                    .unwrap_or_else(|| META_TOOLS.iter().map(|m| m.to_string()).collect()),
                approval: self.approval,
            }),
        }
    }
}

/// Holds tool providers and dispatches calls. Cheap to clone; clones share everything.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use std::sync::Arc;
/// use futures::future::BoxFuture;
/// use serde_json::{json, Value};
/// use toolwire_core::*;
///
/// struct Echo;
/// impl ToolProvider for Echo {
///     fn name(&self) -> &str { "echo" }
///     fn list_tools(&self) -> BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>> {
///         Box::pin(async { Ok(vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))]) })
///     }
///     fn call<'a>(&'a self, _: &'a str, args: Value) -> BoxFuture<'a, Result<Value, ToolError>> {
///         Box::pin(async move { Ok(args) })
///     }
/// }
///
/// let runtime = ToolRuntime::new();
/// runtime.add_provider(Arc::new(Echo)).await.unwrap();
/// let request = runtime.request();
/// assert_eq!(request.tools(WireFormat::OpenAi).unwrap()[0]["function"]["name"], "mcp_server_echo");
/// let out = request.dispatch("mcp_server_echo", json!({"x": 1})).await.unwrap();
/// assert_eq!((out.tool.as_str(), out.route), ("mcp/server/echo", Route::Form));
/// # });
/// ```
#[derive(Clone)]
pub struct ToolRuntime {
    shared: Arc<Shared>,
}

impl Default for ToolRuntime {
    fn default() -> Self {
        ToolRuntime::new()
    }
}

impl std::fmt::Debug for ToolRuntime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = self.shared.read();
        f.debug_struct("ToolRuntime")
            .field(
                "providers",
                &state
                    .slots
                    .iter()
                    .map(|s| s.provider.name())
                    .collect::<Vec<_>>(),
            )
            .field("taken", &self.shared.taken)
            .finish()
    }
}

/// The problems of one provider's own tool list (shared forms, duplicates, empty names).
fn load_problems(tools: &[ToolDefinition]) -> Vec<LoadProblem> {
    let census = Census::build(tools.iter().map(|t| &t.name), &[]);
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

fn status_of(problems: Vec<LoadProblem>) -> LoadStatus {
    if problems.is_empty() {
        LoadStatus::Loaded
    } else {
        LoadStatus::Failed { problems }
    }
}

async fn load(provider: &dyn ToolProvider) -> (Vec<ToolDefinition>, LoadStatus) {
    match provider.list_tools().await {
        Ok(tools) => {
            let problems = load_problems(&tools);
            if !problems.is_empty() {
                tracing::warn!(
                    provider = provider.name(),
                    ?problems,
                    "provider load failed"
                );
            }
            (tools, status_of(problems))
        }
        Err(e) => {
            tracing::warn!(provider = provider.name(), error = %e, "provider load failed");
            (
                Vec::new(),
                status_of(vec![LoadProblem::Unreachable { reason: e.reason }]),
            )
        }
    }
}

impl ToolRuntime {
    /// A runtime with the default meta-tools and no approval hook.
    ///
    /// ```
    /// use toolwire_core::{ToolRuntime, META_TOOLS};
    /// let runtime = ToolRuntime::new();
    /// assert_eq!(runtime.request().census().taken().collect::<Vec<_>>(), META_TOOLS);
    /// assert!(runtime.report().providers.is_empty());
    /// ```
    pub fn new() -> ToolRuntime {
        ToolRuntime::builder().build()
    }

    /// A builder for a runtime with other meta-tools or an approval hook.
    ///
    /// ```
    /// use toolwire_core::{DispatchError, ToolRuntime};
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::builder().taken(Vec::<String>::new()).build();
    /// let err = runtime.request().dispatch("tool_search", serde_json::json!({})).await;
    /// assert!(matches!(err, Err(DispatchError::UnknownTool { .. })));
    /// # });
    /// ```
    pub fn builder() -> ToolRuntimeBuilder {
        ToolRuntimeBuilder::default()
    }

    /// Adds a provider and loads its tools. A load failure is recorded in its status (and the
    /// tools report), not returned: the provider stays, to be reloaded.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use futures::future::BoxFuture;
    /// # use serde_json::{json, Value};
    /// # use toolwire_core::*;
    /// # struct Echo;
    /// # impl ToolProvider for Echo {
    /// #     fn name(&self) -> &str { "echo" }
    /// #     fn list_tools(&self) -> BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>> {
    /// #         Box::pin(async { Ok(vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))]) })
    /// #     }
    /// #     fn call<'a>(&'a self, _: &'a str, args: Value) -> BoxFuture<'a, Result<Value, ToolError>> {
    /// #         Box::pin(async move { Ok(args) })
    /// #     }
    /// # }
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::new();
    /// assert_eq!(runtime.add_provider(Arc::new(Echo)).await, Ok(LoadStatus::Loaded));
    /// let again = runtime.add_provider(Arc::new(Echo)).await;
    /// assert_eq!(again, Err(RuntimeError::DuplicateProvider("echo".into())));
    /// # });
    /// ```
    pub async fn add_provider(
        &self,
        provider: Arc<dyn ToolProvider>,
    ) -> Result<LoadStatus, RuntimeError> {
        let name = provider.name().to_owned();
        if self.has_provider(&name) {
            return Err(RuntimeError::DuplicateProvider(name));
        }
        let (tools, status) = load(&*provider).await;
        let mut state = self.shared.write();
        // Checked again: another task may have added the same name while we awaited.
        if state.slots.iter().any(|s| s.provider.name() == name) {
            return Err(RuntimeError::DuplicateProvider(name));
        }
        let id = state.next_id;
        state.next_id += 1;
        state.slots.push(Slot {
            id,
            generation: 0,
            provider,
            tools,
            status: status.clone(),
        });
        Ok(status)
    }

    fn has_provider(&self, name: &str) -> bool {
        self.shared
            .read()
            .slots
            .iter()
            .any(|s| s.provider.name() == name)
    }

    /// Removes the provider named `name` and shuts it down ([`ToolProvider::shutdown`]); whether
    /// there was one. Later calls to its tools fail with [`DispatchError::ProviderRemoved`].
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use futures::future::BoxFuture;
    /// # use serde_json::{json, Value};
    /// # use toolwire_core::*;
    /// # struct Echo;
    /// # impl ToolProvider for Echo {
    /// #     fn name(&self) -> &str { "echo" }
    /// #     fn list_tools(&self) -> BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>> {
    /// #         Box::pin(async { Ok(vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))]) })
    /// #     }
    /// #     fn call<'a>(&'a self, _: &'a str, args: Value) -> BoxFuture<'a, Result<Value, ToolError>> {
    /// #         Box::pin(async move { Ok(args) })
    /// #     }
    /// # }
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(Echo)).await.unwrap();
    /// let request = runtime.request();
    /// assert!(runtime.remove_provider("echo"));
    /// assert!(!runtime.remove_provider("echo"));
    /// let err = request.dispatch("mcp_server_echo", json!({})).await.unwrap_err();
    /// assert!(matches!(err, DispatchError::ProviderRemoved { .. }));
    /// # });
    /// ```
    pub fn remove_provider(&self, name: &str) -> bool {
        let removed: Vec<Slot> = {
            let mut state = self.shared.write();
            let (removed, kept) = std::mem::take(&mut state.slots)
                .into_iter()
                .partition(|s| s.provider.name() == name);
            state.slots = kept;
            removed
        };
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
    /// # use futures::future::BoxFuture;
    /// # use serde_json::{json, Value};
    /// # use toolwire_core::*;
    /// # struct Echo;
    /// # impl ToolProvider for Echo {
    /// #     fn name(&self) -> &str { "echo" }
    /// #     fn list_tools(&self) -> BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>> {
    /// #         Box::pin(async { Ok(vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))]) })
    /// #     }
    /// #     fn call<'a>(&'a self, _: &'a str, args: Value) -> BoxFuture<'a, Result<Value, ToolError>> {
    /// #         Box::pin(async move { Ok(args) })
    /// #     }
    /// # }
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(Echo)).await.unwrap();
    /// assert_eq!(runtime.reload_provider("echo").await, Ok(LoadStatus::Loaded));
    /// let missing = runtime.reload_provider("nope").await;
    /// assert_eq!(missing, Err(RuntimeError::NoSuchProvider("nope".into())));
    /// # });
    /// ```
    pub async fn reload_provider(&self, name: &str) -> Result<LoadStatus, RuntimeError> {
        let (id, provider) = {
            let state = self.shared.read();
            let slot = state
                .slots
                .iter()
                .find(|s| s.provider.name() == name)
                .ok_or_else(|| RuntimeError::NoSuchProvider(name.to_owned()))?;
            (slot.id, slot.provider.clone())
        };
        let (tools, status) = match provider.reload().await {
            Ok(()) => load(&*provider).await,
            Err(e) => (
                Vec::new(),
                status_of(vec![LoadProblem::Unreachable { reason: e.reason }]),
            ),
        };
        let mut state = self.shared.write();
        let slot = state
            .slots
            .iter_mut()
            .find(|s| s.id == id)
            .ok_or_else(|| RuntimeError::NoSuchProvider(name.to_owned()))?;
        slot.tools = tools;
        slot.status = status.clone();
        slot.generation += 1;
        Ok(status)
    }

    /// A provider's load status.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use futures::future::BoxFuture;
    /// # use serde_json::{json, Value};
    /// # use toolwire_core::*;
    /// # struct Echo;
    /// # impl ToolProvider for Echo {
    /// #     fn name(&self) -> &str { "echo" }
    /// #     fn list_tools(&self) -> BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>> {
    /// #         Box::pin(async { Ok(vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))]) })
    /// #     }
    /// #     fn call<'a>(&'a self, _: &'a str, args: Value) -> BoxFuture<'a, Result<Value, ToolError>> {
    /// #         Box::pin(async move { Ok(args) })
    /// #     }
    /// # }
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(Echo)).await.unwrap();
    /// assert_eq!(runtime.provider_status("echo"), Some(LoadStatus::Loaded));
    /// assert_eq!(runtime.provider_status("nope"), None);
    /// # });
    /// ```
    pub fn provider_status(&self, name: &str) -> Option<LoadStatus> {
        self.shared
            .read()
            .slots
            .iter()
            .find(|s| s.provider.name() == name)
            .map(|s| s.status.clone())
    }

    /// Switches the tool with real name `tool` on or off (the user's switch). A switched-off
    /// tool is in no request and its calls fail with [`DispatchError::Disabled`].
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use futures::future::BoxFuture;
    /// # use serde_json::{json, Value};
    /// # use toolwire_core::*;
    /// # struct Echo;
    /// # impl ToolProvider for Echo {
    /// #     fn name(&self) -> &str { "echo" }
    /// #     fn list_tools(&self) -> BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>> {
    /// #         Box::pin(async { Ok(vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))]) })
    /// #     }
    /// #     fn call<'a>(&'a self, _: &'a str, args: Value) -> BoxFuture<'a, Result<Value, ToolError>> {
    /// #         Box::pin(async move { Ok(args) })
    /// #     }
    /// # }
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(Echo)).await.unwrap();
    /// let before = runtime.request();
    /// runtime.set_enabled("mcp/server/echo", false);
    /// assert_eq!(runtime.request().tools(WireFormat::OpenAi).unwrap(), json!([]));
    /// let err = before.dispatch("mcp_server_echo", json!({})).await.unwrap_err();
    /// assert_eq!(err, DispatchError::Disabled { tool: "mcp/server/echo".into() });
    /// // A later request no longer offers it, and still says why a call cannot reach it.
    /// let err = runtime.request().dispatch("mcp/server/echo", json!({})).await.unwrap_err();
    /// assert_eq!(err, DispatchError::Disabled { tool: "mcp/server/echo".into() });
    /// # });
    /// ```
    pub fn set_enabled(&self, tool: &str, enabled: bool) {
        let mut state = self.shared.write();
        if enabled {
            state.disabled.remove(tool);
        } else {
            state.disabled.insert(tool.to_owned());
        }
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
        !self.shared.read().disabled.contains(tool)
    }

    /// The census and tool list of one request, built from the providers as they are now.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use futures::future::BoxFuture;
    /// # use serde_json::{json, Value};
    /// # use toolwire_core::*;
    /// # struct Echo;
    /// # impl ToolProvider for Echo {
    /// #     fn name(&self) -> &str { "echo" }
    /// #     fn list_tools(&self) -> BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>> {
    /// #         Box::pin(async { Ok(vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))]) })
    /// #     }
    /// #     fn call<'a>(&'a self, _: &'a str, args: Value) -> BoxFuture<'a, Result<Value, ToolError>> {
    /// #         Box::pin(async move { Ok(args) })
    /// #     }
    /// # }
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::new();
    /// let empty = runtime.request();
    /// runtime.add_provider(Arc::new(Echo)).await.unwrap();
    /// assert_eq!(empty.census().tools().len(), 0);
    /// assert_eq!(runtime.request().census().offered().count(), 1);
    /// # });
    /// ```
    pub fn request(&self) -> Request {
        let state = self.shared.read();
        self.request_from(&state)
    }

    /// The request for the providers as `state` holds them (the caller holds the lock).
    fn request_from(&self, state: &State) -> Request {
        let mut order: Vec<&Slot> = state.slots.iter().collect();
        // Static providers first: of two tools with one real name, the first is the tool.
        order.sort_by_key(|s| s.provider.kind().rank());
        let mut definitions = Vec::new();
        let mut owners = Vec::new();
        let mut withheld = Vec::new();
        for slot in order {
            let unreachable = slot.status.is_unreachable();
            for def in &slot.tools {
                // A switched-off tool, or one whose provider is down, stays in the census
                // (withheld): its names must not heal to another tool meanwhile.
                if unreachable || state.disabled.contains(&def.name) {
                    withheld.push(definitions.len());
                }
                definitions.push(def.clone());
                owners.push(Owner {
                    slot: slot.id,
                    generation: slot.generation,
                    provider: slot.provider.clone(),
                });
            }
        }
        let taken: Vec<&str> = self.shared.taken.iter().map(String::as_str).collect();
        let mut census = Census::build_ranked(
            definitions
                .iter()
                .zip(&owners)
                .map(|(d, o)| (d.name.as_str(), o.provider.kind().rank())),
            &taken,
        );
        for index in withheld {
            census.withhold(index);
        }
        Request {
            shared: self.shared.clone(),
            census,
            definitions,
            owners,
        }
    }

    /// The tools report: every tool, its provider, its form, offered or left out and why, and
    /// every provider's load status. Serializes to JSON.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use futures::future::BoxFuture;
    /// # use serde_json::{json, Value};
    /// # use toolwire_core::*;
    /// # struct Echo;
    /// # impl ToolProvider for Echo {
    /// #     fn name(&self) -> &str { "echo" }
    /// #     fn list_tools(&self) -> BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>> {
    /// #         Box::pin(async { Ok(vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))]) })
    /// #     }
    /// #     fn call<'a>(&'a self, _: &'a str, args: Value) -> BoxFuture<'a, Result<Value, ToolError>> {
    /// #         Box::pin(async move { Ok(args) })
    /// #     }
    /// # }
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(Echo)).await.unwrap();
    /// let report = runtime.report();
    /// assert_eq!(report.providers[0].status, LoadStatus::Loaded);
    /// assert_eq!(report.tools[0].form, "mcp_server_echo");
    /// assert_eq!(report.tools[0].status, ReportStatus::Offered);
    /// # });
    /// ```
    pub fn report(&self) -> ToolsReport {
        // One read of the state for both the census and the list, so they always agree.
        let state = self.shared.read();
        let request = self.request_from(&state);
        // Each provider's census entries, in the order its tools were listed.
        let mut entries_of: HashMap<u64, std::collections::VecDeque<usize>> = HashMap::new();
        for (index, owner) in request.owners.iter().enumerate() {
            entries_of.entry(owner.slot).or_default().push_back(index);
        }
        let mut providers = Vec::new();
        let mut tools = Vec::new();
        for slot in &state.slots {
            providers.push(ProviderReport {
                name: slot.provider.name().to_owned(),
                kind: slot.provider.kind(),
                tools: slot.tools.len(),
                status: slot.status.clone(),
            });
            let mut entries = entries_of.remove(&slot.id).unwrap_or_default();
            for def in &slot.tools {
                // request_from put every tool of this slot in the census, in order.
                let entry = entries.pop_front();
                let (status, reason) = if slot.status.is_unreachable() {
                    (
                        ReportStatus::Unavailable,
                        Some("its provider is unreachable".to_owned()),
                    )
                } else if state.disabled.contains(&def.name) {
                    (ReportStatus::Disabled, Some("switched off".to_owned()))
                } else {
                    match entry.map(|i| request.census.tools()[i].left_out_reason()) {
                        Some(None) => (ReportStatus::Offered, None),
                        Some(Some(LeftOutReason::DuplicateName { first })) => (
                            ReportStatus::LeftOut,
                            Some(format!(
                                "provider `{}` already has a tool of this name",
                                request.owners[*first].provider.name()
                            )),
                        ),
                        Some(Some(reason)) => (ReportStatus::LeftOut, Some(reason.to_string())),
                        None => (ReportStatus::LeftOut, None),
                    }
                };
                let schema = def.parameters_schema();
                tools.push(ToolReport {
                    name: def.name.clone(),
                    provider: slot.provider.name().to_owned(),
                    form: crate::naming::model_safe_name(&def.name).into_owned(),
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

/// Whether a tool is in the requests, for the tools report.
///
/// ```
/// # use std::sync::Arc;
/// # use futures::future::BoxFuture;
/// # use serde_json::{json, Value};
/// # use toolwire_core::*;
/// # struct Echo;
/// # impl ToolProvider for Echo {
/// #     fn name(&self) -> &str { "echo" }
/// #     fn list_tools(&self) -> BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>> {
/// #         Box::pin(async { Ok(vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))]) })
/// #     }
/// #     fn call<'a>(&'a self, _: &'a str, args: Value) -> BoxFuture<'a, Result<Value, ToolError>> {
/// #         Box::pin(async move { Ok(args) })
/// #     }
/// # }
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let runtime = ToolRuntime::new();
/// runtime.add_provider(Arc::new(Echo)).await.unwrap();
/// runtime.set_enabled("mcp/server/echo", false);
/// let tool = &runtime.report().tools[0];
/// assert_eq!((tool.status, tool.reason.as_deref()), (ReportStatus::Disabled, Some("switched off")));
/// assert_eq!(serde_json::to_value(ReportStatus::LeftOut).unwrap(), "left_out");
/// # });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReportStatus {
    /// In the request under its form.
    Offered,
    /// Left out by the census.
    LeftOut,
    /// Switched off by the user.
    Disabled,
    /// Its provider is unreachable.
    Unavailable,
}

/// One tool in the tools report.
///
/// ```
/// # use std::sync::Arc;
/// # use futures::future::BoxFuture;
/// # use serde_json::{json, Value};
/// # use toolwire_core::*;
/// # struct Echo;
/// # impl ToolProvider for Echo {
/// #     fn name(&self) -> &str { "echo" }
/// #     fn list_tools(&self) -> BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>> {
/// #         Box::pin(async { Ok(vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))]) })
/// #     }
/// #     fn call<'a>(&'a self, _: &'a str, args: Value) -> BoxFuture<'a, Result<Value, ToolError>> {
/// #         Box::pin(async move { Ok(args) })
/// #     }
/// # }
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let runtime = ToolRuntime::new();
/// runtime.add_provider(Arc::new(Echo)).await.unwrap();
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
/// # use futures::future::BoxFuture;
/// # use serde_json::{json, Value};
/// # use toolwire_core::*;
/// # struct Echo;
/// # impl ToolProvider for Echo {
/// #     fn name(&self) -> &str { "echo" }
/// #     fn list_tools(&self) -> BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>> {
/// #         Box::pin(async { Ok(vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))]) })
/// #     }
/// #     fn call<'a>(&'a self, _: &'a str, args: Value) -> BoxFuture<'a, Result<Value, ToolError>> {
/// #         Box::pin(async move { Ok(args) })
/// #     }
/// # }
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let runtime = ToolRuntime::new();
/// runtime.add_provider(Arc::new(Echo)).await.unwrap();
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

#[derive(Clone)]
struct Owner {
    slot: u64,
    generation: u64,
    provider: Arc<dyn ToolProvider>,
}

/// One request: its census, its tool list in any wire format, and dispatch of the calls the
/// model makes in answer to it.
///
/// ```
/// # use std::sync::Arc;
/// # use futures::future::BoxFuture;
/// # use serde_json::{json, Value};
/// # use toolwire_core::*;
/// # struct Echo;
/// # impl ToolProvider for Echo {
/// #     fn name(&self) -> &str { "echo" }
/// #     fn list_tools(&self) -> BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>> {
/// #         Box::pin(async { Ok(vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))]) })
/// #     }
/// #     fn call<'a>(&'a self, _: &'a str, args: Value) -> BoxFuture<'a, Result<Value, ToolError>> {
/// #         Box::pin(async move { Ok(args) })
/// #     }
/// # }
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let runtime = ToolRuntime::new();
/// runtime.add_provider(Arc::new(Echo)).await.unwrap();
/// let request = runtime.request();
/// assert_eq!(request.tools(WireFormat::Anthropic).unwrap()[0]["name"], "mcp_server_echo");
/// let out = request.dispatch("mcp_server_echo", json!({"text": "hi"})).await.unwrap();
/// assert_eq!(out.output, json!({"text": "hi"}));
/// # });
/// ```
pub struct Request {
    shared: Arc<Shared>,
    census: Census,
    definitions: Vec<ToolDefinition>,
    owners: Vec<Owner>,
}

impl std::fmt::Debug for Request {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Request")
            .field("census", &self.census)
            .finish_non_exhaustive()
    }
}

impl Request {
    /// The request's census.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use futures::future::BoxFuture;
    /// # use serde_json::{json, Value};
    /// # use toolwire_core::*;
    /// # struct Echo;
    /// # impl ToolProvider for Echo {
    /// #     fn name(&self) -> &str { "echo" }
    /// #     fn list_tools(&self) -> BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>> {
    /// #         Box::pin(async { Ok(vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))]) })
    /// #     }
    /// #     fn call<'a>(&'a self, _: &'a str, args: Value) -> BoxFuture<'a, Result<Value, ToolError>> {
    /// #         Box::pin(async move { Ok(args) })
    /// #     }
    /// # }
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(Echo)).await.unwrap();
    /// let census = runtime.request().census().clone();
    /// assert_eq!(census.healing()["mcp_server_echo"], "mcp/server/echo");
    /// # });
    /// ```
    pub fn census(&self) -> &Census {
        &self.census
    }

    /// The definitions in the census, in census order.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use futures::future::BoxFuture;
    /// # use serde_json::{json, Value};
    /// # use toolwire_core::*;
    /// # struct Echo;
    /// # impl ToolProvider for Echo {
    /// #     fn name(&self) -> &str { "echo" }
    /// #     fn list_tools(&self) -> BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>> {
    /// #         Box::pin(async { Ok(vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))]) })
    /// #     }
    /// #     fn call<'a>(&'a self, _: &'a str, args: Value) -> BoxFuture<'a, Result<Value, ToolError>> {
    /// #         Box::pin(async move { Ok(args) })
    /// #     }
    /// # }
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(Echo)).await.unwrap();
    /// let request = runtime.request();
    /// assert_eq!(request.definitions()[0].name, "mcp/server/echo");
    /// assert_eq!(request.definitions()[0].description, "Echoes.");
    /// # });
    /// ```
    pub fn definitions(&self) -> &[ToolDefinition] {
        &self.definitions
    }

    /// The request's tool list in `format`: offered tools only, each under its form, each schema
    /// prepared for the format's dialect; a tool whose schema the dialect refuses is left out of
    /// this list only (with a warning), and still answers to its names. An error when the list is
    /// over the provider's per-request limits ([`WireError::OverLimit`]): such a request would
    /// fail whole. (The census was built from these very definitions, so they always match.)
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use futures::future::BoxFuture;
    /// # use serde_json::{json, Value};
    /// # use toolwire_core::*;
    /// # struct Echo;
    /// # impl ToolProvider for Echo {
    /// #     fn name(&self) -> &str { "echo" }
    /// #     fn list_tools(&self) -> BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>> {
    /// #         Box::pin(async { Ok(vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))]) })
    /// #     }
    /// #     fn call<'a>(&'a self, _: &'a str, args: Value) -> BoxFuture<'a, Result<Value, ToolError>> {
    /// #         Box::pin(async move { Ok(args) })
    /// #     }
    /// # }
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(Echo)).await.unwrap();
    /// let tools = runtime.request().tools(WireFormat::Gemini).unwrap();
    /// assert_eq!(tools, json!([{"functionDeclarations": [{
    ///     "name": "mcp_server_echo", "description": "Echoes.",
    ///     "parameters": {"type": "OBJECT", "properties": {}},
    /// }]}]));
    /// # });
    /// ```
    pub fn tools(&self, format: WireFormat) -> Result<Value, WireError> {
        wire_tools(&self.census, &self.definitions, format)
    }

    /// Dispatches a call whose arguments came as a JSON text (as OpenAI sends them).
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use futures::future::BoxFuture;
    /// # use serde_json::{json, Value};
    /// # use toolwire_core::*;
    /// # struct Echo;
    /// # impl ToolProvider for Echo {
    /// #     fn name(&self) -> &str { "echo" }
    /// #     fn list_tools(&self) -> BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>> {
    /// #         Box::pin(async { Ok(vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))]) })
    /// #     }
    /// #     fn call<'a>(&'a self, _: &'a str, args: Value) -> BoxFuture<'a, Result<Value, ToolError>> {
    /// #         Box::pin(async move { Ok(args) })
    /// #     }
    /// # }
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(Echo)).await.unwrap();
    /// let request = runtime.request();
    /// let out = request.dispatch_json("mcp_server_echo", r#"{"x": 1}"#).await.unwrap();
    /// assert_eq!(out.output, json!({"x": 1}));
    /// assert_eq!(request.dispatch_json("mcp_server_echo", "").await.unwrap().output, json!({}));
    /// let bad = request.dispatch_json("mcp_server_echo", "{x").await.unwrap_err();
    /// assert!(matches!(bad, DispatchError::Tool(ToolError::InvalidArguments { .. })));
    /// # });
    /// ```
    pub async fn dispatch_json(
        &self,
        called: &str,
        arguments: &str,
    ) -> Result<CallOutcome, DispatchError> {
        let arguments: Value = if arguments.trim().is_empty() {
            json!({})
        } else {
            match serde_json::from_str(arguments) {
                Ok(v) => v,
                Err(e) => {
                    let tool = match self.census.resolve(called) {
                        Ok(Resolution::Tool(hit)) => hit.name.to_owned(),
                        Ok(Resolution::Meta(meta)) => meta.to_owned(),
                        Err(_) => return Err(self.unknown(called)),
                    };
                    return Err(ToolError::InvalidArguments {
                        tool,
                        argument: None,
                        reason: format!("the arguments are not valid JSON: {e}"),
                    }
                    .into());
                }
            }
        };
        self.dispatch(called, arguments).await
    }

    fn unknown(&self, called: &str) -> DispatchError {
        DispatchError::UnknownTool {
            called: called.to_owned(),
            closest: self
                .census
                .closest_offered(called, 3)
                .into_iter()
                .map(str::to_owned)
                .collect(),
        }
    }

    /// Resolves `called` (hop 5) against this request's census and runs the tool it names.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use futures::future::BoxFuture;
    /// # use serde_json::{json, Value};
    /// # use toolwire_core::*;
    /// # struct Echo;
    /// # impl ToolProvider for Echo {
    /// #     fn name(&self) -> &str { "echo" }
    /// #     fn list_tools(&self) -> BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>> {
    /// #         Box::pin(async { Ok(vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))]) })
    /// #     }
    /// #     fn call<'a>(&'a self, _: &'a str, args: Value) -> BoxFuture<'a, Result<Value, ToolError>> {
    /// #         Box::pin(async move { Ok(args) })
    /// #     }
    /// # }
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(Echo)).await.unwrap();
    /// let request = runtime.request();
    /// let out = request.dispatch("mcp/server/echo", json!({"x": 1})).await.unwrap();
    /// assert_eq!((out.provider.as_str(), out.route), ("echo", Route::Exact));
    /// let err = request.dispatch("echo", json!({})).await.unwrap_err();
    /// let closest = vec!["mcp_server_echo".to_string()];
    /// assert_eq!(err, DispatchError::UnknownTool { called: "echo".into(), closest });
    /// # });
    /// ```
    pub async fn dispatch(
        &self,
        called: &str,
        arguments: Value,
    ) -> Result<CallOutcome, DispatchError> {
        let hit = match self.census.resolve(called) {
            Err(_) => return Err(self.unknown(called)),
            Ok(Resolution::Meta(meta)) => return self.answer_meta(meta, &arguments),
            Ok(Resolution::Tool(hit)) => hit,
        };
        let tool = hit.name;
        let owner = &self.owners[hit.index];
        let provider_name = owner.provider.name();
        let mut arguments = match arguments {
            Value::Null => json!({}),
            Value::Object(map) => Value::Object(map),
            other => {
                return Err(ToolError::InvalidArguments {
                    tool: tool.to_owned(),
                    argument: None,
                    reason: format!("the arguments must be a JSON object, not `{other}`"),
                }
                .into())
            }
        };
        // The way back: a `null` OpenAI strict sends for an optional property the tool's own
        // schema refuses as `null` is removed, so the tool gets what its schema accepts.
        restore_arguments(&self.definitions[hit.index].parameters, &mut arguments);
        {
            let state = self.shared.read();
            if !state.slots.iter().any(|s| s.id == owner.slot) {
                return Err(DispatchError::ProviderRemoved {
                    tool: tool.to_owned(),
                    provider: provider_name.to_owned(),
                });
            }
            if state.disabled.contains(tool) {
                return Err(DispatchError::Disabled {
                    tool: tool.to_owned(),
                });
            }
            if let Some(slot) = state.slots.iter().find(|s| s.id == owner.slot) {
                if slot.status.is_unreachable() {
                    return Err(ToolError::Unavailable {
                        tool: tool.to_owned(),
                        provider: provider_name.to_owned(),
                        reason: "is unreachable; reload it".to_owned(),
                    }
                    .into());
                }
            }
        }
        if let Some(approve) = &self.shared.approval {
            let request = ApprovalRequest {
                tool,
                provider: provider_name,
                called,
                route: hit.via.into(),
                arguments: &arguments,
            };
            if !approve(&request) {
                return Err(DispatchError::Denied {
                    tool: tool.to_owned(),
                });
            }
        }
        match owner.provider.call(tool, arguments).await {
            Ok(output) => Ok(CallOutcome {
                tool: tool.to_owned(),
                provider: provider_name.to_owned(),
                route: hit.via.into(),
                output,
            }),
            Err(err) => {
                // Only the provider knows whether it is down (a tool may report an error of
                // its own as `Unavailable`): ask it, and record that against this load.
                if owner.provider.is_failed() {
                    self.shared
                        .mark_unreachable(owner.slot, owner.generation, err.to_string());
                }
                Err(err.into())
            }
        }
    }

    /// The runtime's answer to a meta-tool: `tool_search` lists offered tools matching
    /// `query`, `tool_schema` gives one tool's definition by any name, `reset_tools` lists every
    /// offered tool again.
    fn answer_meta(&self, meta: &str, arguments: &Value) -> Result<CallOutcome, DispatchError> {
        let summary = |i: usize| {
            let tool = &self.census.tools()[i];
            json!({"name": tool.form(), "real_name": tool.name(), "description": self.definitions[i].description})
        };
        let offered = || {
            self.census
                .tools()
                .iter()
                .enumerate()
                .filter(|(_, t)| t.is_offered())
                .map(|(i, _)| i)
        };
        let output = match meta {
            "tool_search" => {
                let query = arguments
                    .get("query")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_lowercase();
                let hits: Vec<Value> = offered()
                    .filter(|&i| {
                        let t = &self.census.tools()[i];
                        query.is_empty()
                            || t.name().to_lowercase().contains(&query)
                            || t.form().to_lowercase().contains(&query)
                            || self.definitions[i]
                                .description
                                .to_lowercase()
                                .contains(&query)
                    })
                    .map(summary)
                    .collect();
                json!({ "tools": hits })
            }
            "tool_schema" => {
                let Some(name) = arguments.get("name").and_then(Value::as_str) else {
                    return Err(ToolError::InvalidArguments {
                        tool: meta.to_owned(),
                        argument: Some("name".to_owned()),
                        reason: "a string `name` is required".to_owned(),
                    }
                    .into());
                };
                match self.census.resolve(name) {
                    Ok(Resolution::Tool(hit)) => {
                        let tool = &self.census.tools()[hit.index];
                        let mut out = summary(hit.index);
                        out["parameters"] = self.definitions[hit.index].parameters_schema();
                        if let Some(reason) = tool.left_out_reason() {
                            // Its form may answer to another tool, or to nothing: never hand
                            // it out for a tool this request does not carry.
                            out["name"] = Value::Null;
                            out["left_out"] = Value::String(reason.to_string());
                        }
                        out
                    }
                    _ => {
                        return Err(ToolError::InvalidArguments {
                            tool: meta.to_owned(),
                            argument: Some("name".to_owned()),
                            reason: format!("no tool answers to `{name}`"),
                        }
                        .into())
                    }
                }
            }
            "reset_tools" => json!({ "tools": offered().map(summary).collect::<Vec<_>>() }),
            other => {
                return Err(DispatchError::MetaToolUnhandled {
                    name: other.to_owned(),
                })
            }
        };
        Ok(CallOutcome {
            tool: meta.to_owned(),
            provider: "runtime".to_owned(),
            route: Route::Meta,
            output,
        })
    }
}
