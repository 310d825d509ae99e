//! A request: what one round with the model reads (its census, its definitions, its tool lists),
//! fixed when the request is made. Dispatch of the calls the model makes in answer is in
//! `dispatch.rs`.

use std::collections::BTreeSet;
use std::fmt;
use std::sync::{Arc, OnceLock};

use serde::Serialize;
use serde_json::Value;

use super::conversation::{Conversation, Loading};
use super::meta_tool::Surface;
use super::shared::Shared;
use super::tool_set::{Owner, Snapshot};
use crate::census::{Census, NamespacePlacement, Resolution};
use crate::tools::ToolDefinition;
use crate::wire::apis::api;
use crate::wire::namespaces::namespaced_list;
use crate::wire::{LeftOutTool, RequestLimit, ToolList, WhyLeftOut, WireError, WireFormat};

/// One request: its census, its tool list in any wire format, and dispatch of the calls the
/// model makes in answer to it. Cheap: it shares what the runtime built for the current tool
/// set with every other request of that tool set.
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
/// // One tool: nothing to defer, so the catalog's own tools (tool_search…) do not travel.
/// assert_eq!(request.tools(WireFormat::Anthropic).unwrap()[0]["name"], "mcp_server_echo");
/// let out = request.dispatch("mcp_server_echo", json!({"text": "hi"})).await.unwrap();
/// assert_eq!(out.output, json!({"text": "hi"}));
/// # });
/// ```
#[derive(Clone)]
pub struct Request {
    pub(super) shared: Arc<Shared>,
    snapshot: Arc<Snapshot>,
    /// The conversation that made this request, and what it had loaded then.
    conversation: Option<(Conversation, Arc<BTreeSet<String>>)>,
    /// This request's own lists, when the catalog is deferred (they depend on what is loaded);
    /// `None` otherwise, so a request with nothing deferred allocates nothing for them.
    own_lists: Option<Arc<OwnLists>>,
}

/// A deferred request's lists, one per wire format, each built on first use.
type OwnLists = [OnceLock<Result<ToolList, WireError>>; WireFormat::ALL.len()];

/// One hit of a catalog search ([`Request::search`]): the tool's real name, the form it travels
/// as, its description, and how well it matched (higher is better).
///
/// ```
/// # use std::sync::Arc;
/// # use serde_json::json;
/// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let clock = provider_fn("clock", vec![ToolDefinition::new("mcp/time/get_current_time", "The time now in a timezone.", json!({}))], |_, a| async move { Ok(a) });
/// let runtime = ToolRuntime::new();
/// runtime.add_provider(Arc::new(clock)).await.unwrap().check().unwrap();
/// let hits = runtime.request().search("what time is it", 5);
/// assert_eq!((hits[0].name.as_str(), hits[0].form.as_str()), ("mcp/time/get_current_time", "mcp_time_get_current_time"));
/// assert!(hits[0].score > 0.0);
/// # });
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct CatalogHit {
    /// The real name.
    pub name: String,
    /// The name to call it by: the form it travels as (a call by it or by the real name
    /// reaches it), or, in a conversation whose history recorded the form for another tool,
    /// its real name.
    pub form: String,
    /// What it does.
    pub description: String,
    /// The relevance score.
    pub score: f64,
}

impl fmt::Debug for Request {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Request")
            .field("census", self.census())
            .finish_non_exhaustive()
    }
}

impl Request {
    /// A request over the tools as they are now, made by a conversation (with what it loaded)
    /// or not.
    pub(super) fn new(
        shared: Arc<Shared>,
        conversation: Option<(Conversation, BTreeSet<String>)>,
    ) -> Request {
        let snapshot = shared.snapshot(&shared.read());
        Request {
            own_lists: snapshot.deferred.then(|| Arc::new(OwnLists::default())),
            shared,
            snapshot,
            conversation: conversation.map(|(c, loaded)| (c, Arc::new(loaded))),
        }
    }

    /// The conversation that made this request, if one did.
    ///
    /// ```
    /// let runtime = toolwire_core::ToolRuntime::new();
    /// assert!(runtime.request().conversation().is_none());
    /// assert!(runtime.conversation().request().conversation().is_some());
    /// ```
    pub fn conversation(&self) -> Option<&Conversation> {
        self.conversation.as_ref().map(|(c, _)| c)
    }

    /// Whether the catalog is deferred for this request: more offered tools than the catalog
    /// policy's threshold, so the request carries only the meta-tools, the pinned tools and
    /// what its conversation loaded.
    ///
    /// ```
    /// use toolwire_core::{ToolRuntime, runtime::CatalogPolicy};
    /// assert!(!ToolRuntime::new().request().is_deferred());
    /// let always = CatalogPolicy::deferred(Vec::<String>::new()).with_threshold(0);
    /// let runtime = ToolRuntime::builder().catalog(always).build().unwrap();
    /// assert!(!runtime.request().is_deferred()); // no tools: nothing to defer
    /// ```
    pub fn is_deferred(&self) -> bool {
        self.snapshot.deferred
    }

    /// Loads `tool` (a real name) into the request's conversation, if it has one: a deferred
    /// request carries the meta-tools, the pinned tools and every loaded tool, and all of them
    /// must fit one OpenAI request (128 tools). Past that nothing more is loaded
    /// ([`Loading::Full`]): the caller tells the model to reset first, and no list that would
    /// fail whole is ever built.
    pub(super) fn load(&self, tool: &str) -> Option<Loading> {
        let carried_anyway =
            self.shared.conversation_meta_tools() + self.shared.catalog.pinned().len();
        let most = crate::wire::OPENAI_MAX_TOOLS.saturating_sub(carried_anyway);
        self.conversation()
            .map(|conversation| conversation.load_within(tool, most))
    }

    /// The census positions of the offered tools this request carries, in census order: every
    /// offered tool, or, when the catalog is deferred, the pinned and loaded ones, each found by
    /// its real name (a few lookups, not a pass over the whole catalog).
    fn carried(&self) -> Vec<usize> {
        if !self.snapshot.deferred {
            return self.snapshot.offered_positions().collect();
        }
        let census = self.census();
        let loaded = self.conversation.as_ref().map(|(_, loaded)| &**loaded);
        let mut carried: Vec<usize> = self
            .shared
            .catalog
            .pinned()
            .iter()
            .chain(loaded.into_iter().flatten())
            .filter_map(|name| match census.resolve(name) {
                Ok(Resolution::Tool(hit)) if hit.name == name => Some(hit.index),
                _ => None,
            })
            .filter(|&i| census.tools()[i].is_offered())
            .collect();
        carried.sort_unstable();
        carried.dedup();
        carried
    }

    /// What [`Request::tools`] carries, as definitions: the meta-tools it lists first (the
    /// catalog's own only when deferred), then the census positions of the offered tools it
    /// carries. For a server that lists them in its own shape (`mcp/serve`), and the
    /// namespaced list.
    pub(crate) fn carried_definitions(&self) -> (Vec<&ToolDefinition>, Vec<usize>) {
        let deferred = self.snapshot.deferred;
        let meta_tools = self
            .shared
            .meta_tools
            .iter()
            .filter(|m| m.surface != Surface::StandAlone)
            .filter(|m| deferred || !m.client_catalog)
            .map(|m| m.definition())
            .collect();
        (meta_tools, self.carried())
    }

    /// [`Request::carried_definitions`] for a list that stands alone, with no conversation to
    /// load into (a served 2026-07-28 request): the meta-tools of that surface (`tool_call`
    /// in place of `reset_tools`), then the carried offered tools (the pinned ones, when
    /// deferred: nothing is ever loaded).
    #[cfg(feature = "mcp")]
    pub(crate) fn stand_alone_definitions(&self) -> (Vec<&ToolDefinition>, Vec<usize>) {
        let deferred = self.snapshot.deferred;
        let meta_tools = self
            .shared
            .meta_tools
            .iter()
            .filter(|m| m.surface != Surface::Conversation)
            .filter(|m| deferred || !m.client_catalog)
            .map(|m| m.stand_alone_definition())
            .collect();
        (meta_tools, self.carried())
    }

    /// The name of the provider of the tool at census position `index`, and whether it has
    /// failed (a crashed MCP server, not yet reloaded): for a server that restarts it before
    /// the tool's next call (`mcp/serve`).
    #[cfg(feature = "mcp")]
    pub(crate) fn provider_of(&self, index: usize) -> (&str, bool) {
        let provider = &self.owner(index).provider;
        (provider.name(), provider.is_failed())
    }

    /// Why the tool at census position `index` cannot be called, if it cannot.
    pub(super) fn unavailable_reason(&self, index: usize) -> Option<String> {
        self.snapshot.tool_status(&self.shared.read(), index).1
    }

    /// The offered tools most relevant to `query`, best first, at most `limit`: the search
    /// `tool_search` runs (BM25 over the real name's words, the form and the description; the
    /// index is built once per tool set).
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use serde_json::json;
    /// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let files = provider_fn("files", vec![
    ///     ToolDefinition::new("mcp/files/read_file", "Read a file.", json!({})),
    ///     ToolDefinition::new("mcp/web/fetch", "Fetch a web page.", json!({})),
    /// ], |_, a| async move { Ok(a) });
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(files)).await.unwrap().check().unwrap();
    /// runtime.set_enabled("mcp/web/fetch", false);
    /// let hits = runtime.request().search("fetch a web page", 5);
    /// assert!(hits.iter().all(|h| h.name != "mcp/web/fetch")); // switched off: not offered
    /// assert_eq!(runtime.request().search("read", 5)[0].name, "mcp/files/read_file");
    /// # });
    /// ```
    ///
    /// In a conversation, a hit's `form` is a name a call by which reaches it: a form the
    /// conversation's history recorded for another tool is never handed out (the model would
    /// call it and reach that tool); the hit then carries its real name, or, when that is
    /// recorded for another tool too, is not a hit ([`Request::tools`] names it as left out,
    /// [`WhyLeftOut::HistoryName`](crate::wire::WhyLeftOut::HistoryName)).
    pub fn search(&self, query: &str, limit: usize) -> Vec<CatalogHit> {
        self.search_reaching(query, limit).0
    }

    /// [`search`](Self::search), and the hits it left out because no name of theirs reaches
    /// them in this conversation, each with why (what `tool_search` returns beside its hits).
    pub(super) fn search_reaching(
        &self,
        query: &str,
        limit: usize,
    ) -> (Vec<CatalogHit>, Vec<LeftOutTool>) {
        let tools = self.census().tools();
        let reaches = |name: &str, index: usize| matches!(self.resolve_called(None, name), Ok(Resolution::Tool(hit)) if hit.index == index);
        let mut left_out = Vec::new();
        let hits = (self.snapshot.tool_set.search_index())
            .search_offered(self.census(), query, limit)
            .into_iter()
            .filter_map(|hit| {
                let tool = &tools[hit.index];
                let call_by = [tool.form(), tool.name()]
                    .into_iter()
                    .find(|name| reaches(name, hit.index));
                let Some(call_by) = call_by else {
                    let owner = (self.conversation())
                        .and_then(|c| c.recorded_tool(None, tool.form()))
                        .unwrap_or_default();
                    let why = WhyLeftOut::HistoryName {
                        name: tool.form().to_owned(),
                        tool: owner,
                    };
                    left_out.push(LeftOutTool::new(tool.name(), tool.form(), why));
                    return None;
                };
                Some(CatalogHit {
                    name: tool.name().to_owned(),
                    form: call_by.to_owned(),
                    description: self.definitions()[hit.index].description.clone(),
                    score: hit.score,
                })
            })
            .collect();
        (hits, left_out)
    }

    /// Who runs the tool at census position `index`.
    pub(super) fn owner(&self, index: usize) -> &Owner {
        &self.snapshot.tool_set.owners[index]
    }

    /// The request's census.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use serde_json::json;
    /// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
    /// # let echo = provider_fn("echo", vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))], |_, args| async move { Ok(args) });
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(echo)).await.unwrap().check().unwrap();
    /// let census = runtime.request().census().clone();
    /// assert_eq!(census.healing()["mcp_server_echo"], "mcp/server/echo");
    /// # });
    /// ```
    pub fn census(&self) -> &Census {
        &self.snapshot.census
    }

    /// The definitions in the census, in census order.
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
    /// assert_eq!(request.definitions()[0].name, "mcp/server/echo");
    /// assert_eq!(request.definitions()[0].description, "Echoes.");
    /// # });
    /// ```
    pub fn definitions(&self) -> &[ToolDefinition] {
        &self.snapshot.tool_set.definitions
    }

    /// The request's tool list in `format`, and what it leaves out ([`ToolList::left_out`]):
    /// the meta-tools first, then the offered tools it carries, each under its form, each schema
    /// prepared for the format's dialect. The catalog's own meta-tools (`tool_search`,
    /// `tool_schema`, `reset_tools`) travel only when the request defers part of the catalog
    /// ([`is_deferred`](Self::is_deferred)); the app's own meta-tools always do. A tool the
    /// request cannot carry (left out by the census, switched off, unreachable, unsupported, or
    /// its form or schema refused by the provider) is named in `left_out` with why, and still
    /// answers to its names. An error when the list is over the provider's per-request limits
    /// ([`WireError::OverLimit`]): such a request would fail whole. The list is built by the
    /// first request of a tool set that asks for `format` and shared by the next ones
    /// ([`ToolList`]).
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
    /// let off = runtime.request().tools(WireFormat::Gemini).unwrap();
    /// assert_eq!(off.left_out()[0].reason, WhyLeftOut::SwitchedOff);
    /// runtime.set_enabled("mcp/server/echo", true);
    /// let tools = runtime.request().tools(WireFormat::Gemini).unwrap();
    /// // One tool, nothing to defer: no catalog, so none of its meta-tools.
    /// assert_eq!(tools[0]["functionDeclarations"], json!([{
    ///     "name": "mcp_server_echo", "description": "Echoes.",
    ///     "parameters": {"type": "OBJECT", "properties": {}},
    /// }]));
    /// assert!(tools.left_out().is_empty());
    /// # });
    /// ```
    pub fn tools(&self, format: WireFormat) -> Result<ToolList, WireError> {
        // The catalog's own tools travel only when there is a catalog to search: a request
        // that defers part of it. Their names stay taken in the census either way, so no
        // form moves when the catalog starts deferring; the app's own meta-tools always travel.
        let deferred = self.snapshot.deferred;
        let meta_tools = self
            .shared
            .meta_tools
            .iter()
            .filter(|m| m.surface != Surface::StandAlone)
            .filter(move |m| deferred || !m.client_catalog)
            .map(|m| m.definition());
        // Not deferred: every request of this tool set shares one list per format, unless the
        // conversation's history holds the form of one of its tools for another tool.
        let Some(own_lists) = &self.own_lists else {
            let tools = self.census().tools();
            let taken = self.taken_in_flat_list(|i| tools[i].is_offered());
            if taken.is_empty() {
                return self.snapshot.full_list(format, meta_tools);
            }
            let offered = self.snapshot.offered_positions().collect();
            return self.list_without(format, meta_tools, offered, taken);
        };
        own_lists[super::tool_set::list_slot(format)]
            .get_or_init(|| {
                let carried = self.carried();
                let taken = self.taken_in_flat_list(|i| carried.binary_search(&i).is_ok());
                self.list_without(format, meta_tools, carried, taken)
            })
            .clone()
    }

    /// The list of `metas` and the tools at census `positions` but those `taken` by the
    /// conversation's history, which it names as left out after the census's own.
    fn list_without<'a>(
        &'a self,
        format: WireFormat,
        metas: impl Iterator<Item = &'a ToolDefinition>,
        positions: Vec<usize>,
        taken: Vec<(usize, LeftOutTool)>,
    ) -> Result<ToolList, WireError> {
        let mut left_out = self.snapshot.census_left_out();
        let travels = positions
            .into_iter()
            .filter(|i| taken.binary_search_by_key(i, |(at, _)| *at).is_err());
        let travels: Vec<usize> = travels.collect();
        left_out.extend(taken.into_iter().map(|(_, tool)| tool));
        self.snapshot
            .list_of(format, metas, travels.into_iter(), left_out)
    }

    /// The request's tool list for the Responses API with each MCP server's tools inside one
    /// `namespace` tool, each part of a name with its own 64 characters (as
    /// [`wire::namespaced_tools`](crate::wire::namespaced_tools) builds it): the meta-tools and
    /// the tools that are no MCP server's flat first, then one namespace per server. It
    /// carries what [`tools`](Self::tools) carries (a deferred request: its pinned and loaded
    /// tools); a tool whose flat form is shared but whose pair is its own travels here, and
    /// `left_out` says why each other tool does not. A call back names its namespace
    /// ([`ToolCall::namespace`](crate::wire::calls::ToolCall::namespace)), and
    /// [`answer_calls`](Self::answer_calls) resolves it by the pair. Any other format is
    /// [`WireError::NoNamespaces`]. Built at each call (the flat lists are shared).
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use serde_json::json;
    /// use toolwire_core::{ToolDefinition, ToolRuntime, WireFormat, provider::provider_fn};
    /// use toolwire_core::wire::calls::{parse_calls, CallFormat};
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let github = provider_fn("github", vec![
    ///     ToolDefinition::new("mcp/github/create_issue", "Creates an issue.", json!({})),
    /// ], |tool, _| async move { Ok(json!(tool)) });
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(github)).await.unwrap().check().unwrap();
    /// let request = runtime.request();
    /// let tools = request.tools_in_namespaces(WireFormat::OpenAiResponses).unwrap();
    /// assert_eq!((&tools[0]["type"], &tools[0]["name"]), (&json!("namespace"), &json!("mcp_github")));
    /// assert_eq!(tools[0]["tools"][0]["name"], "create_issue");
    /// let response = json!({"output": [{"type": "function_call", "call_id": "call_1",
    ///     "namespace": "mcp_github", "name": "create_issue", "arguments": "{}"}]});
    /// let calls = parse_calls(CallFormat::OpenAiResponses, &response).unwrap();
    /// let answers = request.answer_calls(&calls).await;
    /// assert_eq!(answers[0].output().unwrap(), &json!("mcp/github/create_issue"));
    /// assert!(request.tools_in_namespaces(WireFormat::Anthropic).is_err());
    /// # });
    /// ```
    pub fn tools_in_namespaces(&self, format: WireFormat) -> Result<ToolList, WireError> {
        let (metas, carried) = self.carried_definitions();
        let carried = self.snapshot.deferred.then_some(carried);
        // Placed once: the history check and the list read the same placements. A tool not
        // offered flat may still travel here, lifted by a pair of its own
        // (`Census::namespace_placements`): it is checked as every tool that travels.
        let placements = self.census().namespace_placements();
        let travels_as = |index: usize| match &placements[index] {
            NamespacePlacement::Flat => Some((None, self.census().tools()[index].form())),
            NamespacePlacement::InNamespace { namespace, name } => {
                Some((Some(namespace.as_ref()), name.as_ref()))
            }
            NamespacePlacement::LeftOut(_) => None,
        };
        let travelling: Vec<usize> = match &carried {
            Some(carried) => carried.clone(),
            None => (0..placements.len())
                .filter(|&i| !matches!(placements[i], NamespacePlacement::LeftOut(_)))
                .collect(),
        };
        let taken = self.taken_by_history(|i| travelling.binary_search(&i).is_ok(), travels_as);
        let is_taken = |i: &usize| taken.binary_search_by_key(i, |(at, _)| *at).is_ok();
        // A tool the history holds the name of travels in no namespace either; every other
        // tool that travels still does.
        let carried = match carried {
            _ if taken.is_empty() => carried,
            _ => Some(travelling.into_iter().filter(|i| !is_taken(i)).collect()),
        };
        let list = namespaced_list(
            self.census(),
            self.definitions(),
            format,
            metas,
            placements,
            carried.as_deref(),
            &self.snapshot.census_left_out(),
        )?;
        if taken.is_empty() {
            return Ok(list);
        }
        let mut left_out = list.left_out().to_vec();
        left_out.extend(taken.into_iter().map(|(_, tool)| tool));
        Ok(ToolList::new(list.into_value(), left_out))
    }

    /// The request's tool list with the provider's own tool search (native deferral): the
    /// provider's search tool first, then the app's own meta-tools (not the client-side catalog's
    /// `tool_search`, `tool_schema`, `reset_tools`: the provider searches), the tools
    /// [`tools`](Self::tools) carries, then every other offered tool with `defer_loading: true`.
    /// Same forms, same dispatch: the model calls a tool it found by its form. Its
    /// [`ToolList::left_out`] is what the census left out and what the provider refuses of
    /// either part.
    ///
    /// Only the Messages API ([`WireFormat::Anthropic`]) has it in a shape confirmed from its
    /// documentation: `{"type": "tool_search_tool_bm25_20251119", "name":
    /// "tool_search_tool_bm25"}`, at most 10,000 deferred tools. Any other format is
    /// [`WireError::NoNativeDeferral`]; a tool whose form is the search tool's name is
    /// [`WireError::NameTaken`].
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use serde_json::json;
    /// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
    /// # let echo = provider_fn("echo", vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))], |_, args| async move { Ok(args) });
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::builder()
    ///     .catalog(CatalogPolicy::deferred(Vec::<String>::new()).with_threshold(0))
    ///     .build()
    ///     .unwrap();
    /// runtime.add_provider(Arc::new(echo)).await.unwrap().check().unwrap();
    /// let tools = runtime.request().tools_with_native_search(WireFormat::Anthropic).unwrap();
    /// assert_eq!(tools[0], json!({"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"}));
    /// assert_eq!((&tools[1]["name"], &tools[1]["defer_loading"]), (&json!("mcp_server_echo"), &json!(true)));
    /// let err = runtime.request().tools_with_native_search(WireFormat::OpenAi).unwrap_err();
    /// assert!(matches!(err, WireError::NoNativeDeferral { .. }));
    /// # });
    /// ```
    pub fn tools_with_native_search(&self, format: WireFormat) -> Result<ToolList, WireError> {
        let api = api(format.call_format());
        let strict = format.is_strict();
        let Some(search) = api.native_search(strict) else {
            return Err(WireError::NoNativeDeferral { format });
        };
        let tools = self.census().tools();
        if let Some(tool) = tools
            .iter()
            .find(|t| t.is_offered() && t.form() == search.name)
        {
            return Err(WireError::NameTaken {
                name: search.name.to_owned(),
                tool: tool.name().to_owned(),
            });
        }
        let metas = self
            .shared
            .meta_tools
            .iter()
            .filter(|m| !m.client_catalog)
            .map(|m| m.definition());
        let carried = self.carried();
        let offered: Vec<usize> = self.snapshot.offered_positions().collect();
        let taken = self.taken_in_flat_list(|i| offered.binary_search(&i).is_ok());
        let is_taken = |i: &usize| taken.binary_search_by_key(i, |(at, _)| *at).is_ok();
        let carried: Vec<usize> = carried.into_iter().filter(|i| !is_taken(i)).collect();
        let deferred: Vec<usize> = offered
            .into_iter()
            .filter(|i| carried.binary_search(i).is_err() && !is_taken(i))
            .collect();
        let most = api.request_limit(RequestLimit::AnthropicDeferredTools, strict);
        if most.is_some_and(|most| deferred.len() > most) {
            return Err(WireError::OverLimit {
                format,
                limit: RequestLimit::AnthropicDeferredTools,
                found: deferred.len(),
            });
        }
        let sent_now = self.snapshot.list_of(
            format,
            metas,
            carried.into_iter(),
            self.snapshot.census_left_out(),
        )?;
        let later =
            self.snapshot
                .list_of(format, std::iter::empty(), deferred.into_iter(), Vec::new())?;
        let mut list = vec![(search.tool)()];
        list.extend(sent_now.as_array().into_iter().flatten().cloned());
        list.extend(
            later
                .as_array()
                .into_iter()
                .flatten()
                .cloned()
                .map(|mut tool| {
                    (search.defer)(&mut tool);
                    tool
                }),
        );
        let mut left_out = sent_now.left_out().to_vec();
        left_out.extend_from_slice(later.left_out());
        left_out.extend(taken.into_iter().map(|(_, tool)| tool));
        Ok(ToolList::new(Value::Array(list), left_out))
    }
}
