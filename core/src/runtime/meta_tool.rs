//! The runtime's own tools as values: a [`MetaTool`] is a name, a description, a parameter
//! schema and a handler, registered on the builder. The four built-ins (`tool_search`,
//! `tool_schema`, `reset_tools`, `tool_call`) are ordinary meta-tools, made in `catalog_tools.rs` beside
//! `MetaTool::built_ins`, the list of them.
//!
//! Policy: the census's taken names are exactly the registered meta-tools' names, so there is
//! no second list to keep in step; a meta-tool's name is sent as it is, so it must already be
//! model-safe; a request carries the meta-tools first, their schemas prepared like any tool's:
//! the app's own always, the catalog's own (`client_catalog`) only when the request defers part
//! of the catalog, for only then is there something to search. Their names are taken either
//! way, so no form moves when the catalog starts deferring.

use std::fmt;
use std::future::Future;
use std::sync::Arc;

use futures::future::BoxFuture;
use futures::FutureExt;
use serde_json::Value;

use super::conversation::Conversation;
use super::request::Request;
use crate::tools::ToolDefinition;
use crate::tools::ToolError;

type MetaHandler = dyn Fn(MetaCall) -> BoxFuture<'static, Result<Value, ToolError>> + Send + Sync;

/// A call to a meta-tool, as its handler receives it: the request it answers (its census, its
/// definitions, its search), the conversation it belongs to (none for a request made by
/// [`ToolRuntime::request`](crate::runtime::ToolRuntime::request)) and the arguments.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::{ToolRuntime, runtime::MetaTool};
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let count = MetaTool::new("count_tools", "How many tools there are.", json!({}), |call| async move {
///     Ok(json!({"tools": call.request.census().offered().count(), "in_conversation": call.conversation.is_some()}))
/// });
/// let runtime = ToolRuntime::builder().meta_tool(count).build().unwrap();
/// let out = runtime.conversation().request().dispatch("count_tools", json!({})).await.unwrap();
/// assert_eq!(out.output, json!({"tools": 0, "in_conversation": true}));
/// # });
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub struct MetaCall {
    /// The request the call answers.
    pub request: Request,
    /// The conversation, when the request was made by one.
    pub conversation: Option<Conversation>,
    /// The call's arguments (a JSON object).
    pub arguments: Value,
}

/// One of the runtime's own tools: answered by its handler, never by a provider. Its name is
/// taken in every census (a provider's tool cannot travel under it) and it is first in every
/// request's tool list (the catalog's own, [`MetaTool::built_ins`], only in a request that
/// defers part of the catalog).
///
/// ```
/// use serde_json::json;
/// use toolwire_core::{ToolRuntime, WireFormat, runtime::MetaTool};
/// let help = MetaTool::new(
///     "help",
///     "How to use this app's tools.",
///     json!({"type": "object", "properties": {}}),
///     |_call| async { Ok(json!({"text": "Search first, then call."})) },
/// );
/// let runtime = ToolRuntime::builder().meta_tool(help).build().unwrap();
/// let tools = runtime.request().tools(WireFormat::Anthropic).unwrap();
/// let names: Vec<&str> = tools.as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
/// assert_eq!(names, ["help"]); // no tool to defer: the catalog's own tools stay home
/// assert!(runtime.request().census().taken().any(|t| t == "tool_search")); // still taken
/// ```
#[derive(Clone)]
pub struct MetaTool {
    definition: ToolDefinition,
    handler: Arc<MetaHandler>,
    /// One of the client-side catalog's own tools (search, schema, reset, call): a request
    /// whose catalog the provider searches itself (native deferral) leaves it out.
    pub(super) client_catalog: bool,
    /// Which lists carry it: a conversation's, a request that stands alone (a served
    /// 2026-07-28 request), or both.
    pub(super) surface: Surface,
    /// Its definition on the stand-alone surface, when it says something else there (no
    /// conversation: nothing is loaded).
    stand_alone: Option<ToolDefinition>,
}

/// Which tool lists carry a meta-tool. Its name is taken in every census either way, and a call
/// to it is answered in every request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Surface {
    /// Every list.
    Both,
    /// A conversation's lists (and the runtime's own requests): `reset_tools`, which unloads
    /// what a conversation loaded.
    Conversation,
    /// Only a list that stands alone, with no conversation to load into (a served 2026-07-28
    /// request): `tool_call`, which runs a tool found by name.
    StandAlone,
}

impl fmt::Debug for MetaTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MetaTool")
            .field("name", &self.definition.name)
            .finish_non_exhaustive()
    }
}

impl MetaTool {
    /// A meta-tool named `name` (sent as it is: it must be model-safe, which the builder checks)
    /// whose calls `handler` answers. A panic in the handler is a [`ToolError::Panicked`].
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::{ToolError, ToolRuntime, runtime::{DispatchError, MetaTool}};
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let clock = MetaTool::new("now", "The time.", json!({}), |_| async { Ok(json!("12:00")) });
    /// assert_eq!(clock.name(), "now");
    /// let broken = MetaTool::new("broken", "Panics.", json!({}), |_| async { panic!("boom") });
    /// let runtime = ToolRuntime::builder().meta_tool(clock).meta_tool(broken).build().unwrap();
    /// let request = runtime.request();
    /// assert_eq!(request.dispatch("now", json!({})).await.unwrap().output, json!("12:00"));
    /// let err = request.dispatch("broken", json!({})).await.unwrap_err();
    /// assert_eq!(err, DispatchError::Tool(ToolError::Panicked { tool: "broken".into(), message: "boom".into() }));
    /// # });
    /// ```
    pub fn new<H, F>(
        name: impl Into<String>,
        description: impl Into<String>,
        parameters: Value,
        handler: H,
    ) -> MetaTool
    where
        H: Fn(MetaCall) -> F + Send + Sync + 'static,
        F: Future<Output = Result<Value, ToolError>> + Send + 'static,
    {
        let definition = ToolDefinition::new(name, description, parameters);
        let name = definition.name.clone();
        let handler = move |call: MetaCall| -> BoxFuture<'static, Result<Value, ToolError>> {
            let name = name.clone();
            // A panic while the handler makes its future, or while the future runs.
            match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handler(call))) {
                Ok(future) => std::panic::AssertUnwindSafe(future)
                    .catch_unwind()
                    .map(move |out| {
                        out.unwrap_or_else(|p| Err(crate::provider::caught_panic(&name, &*p)))
                    })
                    .boxed(),
                Err(p) => {
                    let err = crate::provider::caught_panic(&name, &*p);
                    async move { Err(err) }.boxed()
                }
            }
        };
        MetaTool {
            definition,
            handler: Arc::new(handler),
            client_catalog: false,
            surface: Surface::Both,
            stand_alone: None,
        }
    }

    /// Its name: sent as it is, and taken in every census.
    ///
    /// ```
    /// assert_eq!(toolwire_core::runtime::MetaTool::tool_search().name(), "tool_search");
    /// ```
    pub fn name(&self) -> &str {
        &self.definition.name
    }

    /// Its definition, as a request carries it.
    ///
    /// ```
    /// let schema = toolwire_core::runtime::MetaTool::tool_schema();
    /// assert_eq!(schema.definition().parameters["required"], serde_json::json!(["name"]));
    /// ```
    pub fn definition(&self) -> &ToolDefinition {
        &self.definition
    }

    /// Marks this meta-tool as part of the client-side catalog (left out when the provider
    /// searches the catalog itself).
    pub(super) fn in_client_catalog(mut self) -> MetaTool {
        self.client_catalog = true;
        self
    }

    /// This meta-tool carried only on `surface`.
    pub(super) fn on_surface(mut self, surface: Surface) -> MetaTool {
        self.surface = surface;
        self
    }

    /// This meta-tool described by `description` where there is no conversation.
    pub(super) fn described_stand_alone(mut self, description: &str) -> MetaTool {
        let mut definition = self.definition.clone();
        definition.description = description.to_owned();
        self.stand_alone = Some(definition);
        self
    }

    /// Its definition on the stand-alone surface (read by a served list: `mcp/serve`).
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))]
    pub(crate) fn stand_alone_definition(&self) -> &ToolDefinition {
        self.stand_alone.as_ref().unwrap_or(&self.definition)
    }

    /// Runs the handler.
    pub(super) fn answer(&self, call: MetaCall) -> BoxFuture<'static, Result<Value, ToolError>> {
        (self.handler)(call)
    }
}
