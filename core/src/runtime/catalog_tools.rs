//! The built-in meta-tools, the tool catalog's own: `tool_search` (find tools), `tool_schema`
//! (read one and load it into the conversation), `reset_tools` (unload everything) and
//! `tool_call` (run a tool found by name, for a list that stands alone: nothing is loaded
//! there, so a client that calls only the tools its list shows still reaches every tool). Each is
//! an ordinary [`MetaTool`]; besides the public API ([`Request::search`], the census,
//! [`Conversation`]) they use two of the runtime's own: why a tool cannot be called, and loading
//! within what one request can carry.
//!
//! Policy: a hit names the tool by its real name and by its form, and either one reaches exactly
//! that tool; a tool the request cannot carry (left out, switched off, unreachable) is never
//! handed out under a form. They travel only in a request that defers part of the catalog, but
//! they are answered in every request: a model that saw `tool_search` in an earlier request, when
//! the catalog deferred, reads hits (tools already in its list), not an unknown tool.

use serde_json::{json, Value};

use super::conversation::Loading;
use super::meta_tool::{MetaCall, MetaTool, Surface};
use super::DispatchError;
use crate::census::{unknown_tool_words, Resolution};
use crate::tools::ToolError;

/// `tool_search`'s default number of hits, and the most it gives.
const DEFAULT_HITS: usize = 5;
const MOST_HITS: usize = 50;

/// A bad argument of the meta-tool `tool`, naming the argument.
fn invalid(tool: &str, argument: &str, reason: String) -> ToolError {
    ToolError::InvalidArguments {
        tool: tool.to_owned(),
        argument: Some(argument.to_owned()),
        reason,
    }
}

impl MetaTool {
    /// The runtime's default meta-tools: [`tool_search`](MetaTool::tool_search),
    /// [`tool_schema`](MetaTool::tool_schema) and [`reset_tools`](MetaTool::reset_tools), whose
    /// names are [`DEFAULT_META_TOOLS`](crate::names::DEFAULT_META_TOOLS).
    ///
    /// ```
    /// use toolwire_core::{names::DEFAULT_META_TOOLS, runtime::MetaTool};
    /// let names: Vec<String> = MetaTool::built_ins().iter().map(|m| m.name().to_owned()).collect();
    /// assert_eq!(names, DEFAULT_META_TOOLS);
    /// ```
    pub fn built_ins() -> Vec<MetaTool> {
        vec![
            MetaTool::tool_search(),
            MetaTool::tool_schema(),
            MetaTool::reset_tools(),
            MetaTool::tool_call(),
        ]
    }

    /// `tool_search {query, limit}`: the offered tools most relevant to `query` (BM25 over the
    /// real name's words, the form and the description), best first, each with its real name,
    /// form and description. `limit` defaults to 5, at most 50.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use serde_json::json;
    /// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let files = provider_fn("files", vec![
    ///     ToolDefinition::new("mcp/files/read_file", "Read a file's text.", json!({})),
    ///     ToolDefinition::new("mcp/files/move", "Rename or move a file.", json!({})),
    /// ], |_, args| async move { Ok(args) });
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(files)).await.unwrap().check().unwrap();
    /// let out = runtime.request().dispatch("tool_search", json!({"query": "rename a file"})).await.unwrap();
    /// assert_eq!(out.output.to_value()["tools"][0]["name"], "mcp/files/move");
    /// assert_eq!(out.output.to_value()["tools"][0]["form"], "mcp_files_move");
    /// let err = runtime.request().dispatch("tool_search", json!({})).await.unwrap_err();
    /// assert!(err.to_string().contains("`query`"));
    /// # });
    /// ```
    pub fn tool_search() -> MetaTool {
        MetaTool::new(
            "tool_search",
            "Search the tool catalog: the tools most relevant to a query, best first, each with \
             its real name, the name to call it by (form) and its description. Then call \
             tool_schema with a name to load that tool, or call the tool directly.",
            json!({
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "What the tool should do, in words."},
                    "limit": {"type": "integer", "minimum": 1, "maximum": MOST_HITS,
                              "description": "How many tools to return (default 5)."}
                },
                "required": ["query"]
            }),
            |call: MetaCall| async move {
                let query = match call.arguments.get("query") {
                    Some(Value::String(q)) if !q.trim().is_empty() => q.clone(),
                    Some(Value::String(_)) => {
                        return Err(invalid("tool_search", "query", "`query` is empty: say what the tool should do".into()))
                    }
                    _ => {
                        return Err(invalid("tool_search", "query", "a string `query` is required".into()))
                    }
                };
                let limit = match call.arguments.get("limit") {
                    None | Some(Value::Null) => DEFAULT_HITS,
                    Some(v) => match v.as_u64() {
                        Some(n) if n >= 1 => (n as usize).min(MOST_HITS),
                        _ => {
                            return Err(invalid(
                                "tool_search",
                                "limit",
                                format!("`limit` must be a whole number from 1 to {MOST_HITS}, not {v}"),
                            ))
                        }
                    },
                };
                let (hits, left_out) = call.request.search_reaching(&query, limit);
                let hits: Vec<Value> = hits
                    .into_iter()
                    .map(|hit| json!({"name": hit.name, "form": hit.form, "description": hit.description}))
                    .collect();
                // A match no name of which reaches it in this conversation is said, not hidden.
                if !left_out.is_empty() {
                    let left_out: Vec<Value> = left_out
                        .iter()
                        .map(|t| json!({"name": t.name, "reason": t.reason.to_string()}))
                        .collect();
                    return Ok(json!({ "tools": hits, "left_out": left_out }));
                }
                Ok(json!({ "tools": hits }))
            },
        )
        .in_client_catalog()
        .described_stand_alone(
            "Search the tool catalog: the tools most relevant to a query, best first, each with \
             its real name, the name to call it by (form) and its description. Then call \
             tool_schema with a name for the tool's parameters, and run it with tool_call.",
        )
    }

    /// `tool_schema {name}`: the definition of the tool `name` answers to (its real name or
    /// its form, as hop 5 resolves a call), which it loads into the conversation: the next
    /// request carries it.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use serde_json::json;
    /// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
    /// # let echo = provider_fn("echo", vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))], |_, args| async move { Ok(args) });
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(echo)).await.unwrap().check().unwrap();
    /// let conversation = runtime.conversation();
    /// let out = conversation.request().dispatch("tool_schema", json!({"name": "mcp_server_echo"})).await.unwrap();
    /// assert_eq!(out.output.to_value()["name"], "mcp/server/echo");
    /// assert_eq!(out.output.to_value()["parameters"], json!({"type": "object", "properties": {}}));
    /// assert_eq!(conversation.loaded(), ["mcp/server/echo"]);
    /// let err = conversation.request().dispatch("tool_schema", json!({"name": "nope"})).await.unwrap_err();
    /// assert!(err.to_string().contains("unknown tool `nope`"), "{err}");
    /// # });
    /// ```
    pub fn tool_schema() -> MetaTool {
        MetaTool::new(
            "tool_schema",
            "The full definition (parameters) of one tool, by its real name or the name to call \
             it by. The tool is loaded: from the next turn on it is in your tool list.",
            json!({
                "type": "object",
                "properties": {
                    "name": {"type": "string", "description": "The tool's real name or its form, as tool_search gave it."}
                },
                "required": ["name"]
            }),
            |call: MetaCall| async move {
                let Some(name) = call.arguments.get("name").and_then(Value::as_str) else {
                    return Err(invalid("tool_schema", "name", "a string `name` is required".into()));
                };
                let request = &call.request;
                // Hop 5 as a call by the name resolves in this conversation: a name its
                // history recorded for a tool describes that tool, never the one whose form
                // it is now (the model would call it and reach the recorded one).
                let index = match request.resolve_called(None, name) {
                    Ok(Resolution::Tool(hit)) => hit.index,
                    Ok(Resolution::Meta(meta)) => {
                        return Err(invalid("tool_schema", "name", format!("`{meta}` is one of the runtime's own tools, already in your tool list")))
                    }
                    Err(_) => {
                        // A shared form: the model meant one of the tools sharing it, each
                        // reached exactly by its real name (hop 5).
                        if let gone @ DispatchError::ToolGone { .. } = request.unknown(None, name) {
                            return Err(invalid("tool_schema", "name", gone.to_string()));
                        }
                        let sharing = request.census().sharing(name);
                        if !sharing.is_empty() {
                            return Err(invalid("tool_schema", "name", DispatchError::SharedForm { called: name.to_owned(), tools: sharing.iter().map(|s| (*s).to_owned()).collect() }.to_string()));
                        }
                        let closest = request.closest_reaching(name, 3);
                        let hint = if closest.is_empty() { "; search with tool_search" } else { "" };
                        return Err(invalid("tool_schema", "name", format!("{}{hint}", unknown_tool_words(name, &closest))));
                    }
                };
                let tool = &request.census().tools()[index];
                let definition = &request.definitions()[index];
                if let Some(reason) = request.unavailable_reason(index) {
                    return Err(invalid("tool_schema", "name", format!("tool `{}` cannot be called: {reason}", tool.name())));
                }
                let loaded = match request.load(tool.name()) {
                    Some(Loading::Full { loaded }) => {
                        return Err(invalid(
                            "tool_schema",
                            "name",
                            format!(
                                "no room to load `{}`: {loaded} tools are loaded, as many as one request can carry; call reset_tools first",
                                tool.name(),
                            ),
                        ));
                    }
                    Some(Loading::Already | Loading::Loaded) => true,
                    None => false,
                };
                let mut out = json!({
                    "name": tool.name(),
                    "form": tool.form(),
                    "description": definition.description,
                    "parameters": definition.parameters_schema(),
                    "loaded": loaded,
                });
                if let Some(title) = &definition.title {
                    out["title"] = Value::String(title.clone());
                }
                Ok(out)
            },
        )
        .in_client_catalog()
        .described_stand_alone(
            "The full definition (parameters) of one tool, by its real name or the name to call \
             it by, as tool_search gave it. Run the tool with tool_call.",
        )
    }

    /// `reset_tools`: unloads every tool this conversation loaded; the pinned tools stay.
    ///
    /// ```
    /// # use serde_json::json;
    /// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let conversation = ToolRuntime::new().conversation();
    /// conversation.load("mcp/files/read");
    /// let out = conversation.request().dispatch("reset_tools", json!({})).await.unwrap();
    /// assert_eq!(out.output, json!({"unloaded": ["mcp/files/read"]}));
    /// assert!(conversation.loaded().is_empty());
    /// # });
    /// ```
    pub fn reset_tools() -> MetaTool {
        MetaTool::new(
            "reset_tools",
            "Unload every tool loaded in this conversation (tools found with tool_search), \
             keeping the tool list short. Nothing else changes.",
            json!({"type": "object", "properties": {}}),
            |call: MetaCall| async move {
                let unloaded = match &call.conversation {
                    Some(conversation) => {
                        let before = conversation.loaded();
                        conversation.reset();
                        before
                    }
                    None => Vec::new(),
                };
                Ok(json!({ "unloaded": unloaded }))
            },
        )
        .in_client_catalog()
        .on_surface(Surface::Conversation)
    }

    /// `tool_call {name, arguments}`: runs the tool `name` answers to (its real name or its
    /// form, as `tool_search` gave it) with `arguments`; its answer is the tool's own. Carried
    /// only by a list that stands alone (a served 2026-07-28 request), where nothing is loaded
    /// into the list, so a client that calls only listed tools reaches every one through it;
    /// answered in every request. A meta-tool is not run through it (call that one directly).
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use serde_json::json;
    /// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
    /// # let echo = provider_fn("echo", vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))], |_, args| async move { Ok(args) });
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(echo)).await.unwrap().check().unwrap();
    /// let call = json!({"name": "mcp_server_echo", "arguments": {"text": "hi"}});
    /// let out = runtime.request().dispatch("tool_call", call).await.unwrap();
    /// assert_eq!(out.output.to_value(), json!({"text": "hi"}));
    /// let nested = json!({"name": "tool_search", "arguments": {"query": "echo"}});
    /// let err = runtime.request().dispatch("tool_call", nested).await.unwrap_err();
    /// assert!(err.to_string().contains("call it directly"));
    /// # });
    /// ```
    pub fn tool_call() -> MetaTool {
        MetaTool::new(
            "tool_call",
            "Run one tool of the catalog by its name, as tool_search gave it, with its \
             arguments, as tool_schema describes them. The answer is the tool's own.",
            json!({
                "type": "object",
                "properties": {
                    "name": {"type": "string", "description": "The tool's name to call it by (form) or its real name, as tool_search gave it."},
                    "arguments": {"type": "object", "description": "The tool's arguments, as its parameters in tool_schema say."}
                },
                "required": ["name"]
            }),
            |call: MetaCall| async move {
                let (name, arguments) = tool_call_target(&call.arguments)?;
                if let Ok(Resolution::Meta(meta)) = call.request.census().resolve(&name) {
                    return Err(meta_through_tool_call(meta));
                }
                match call.request.dispatch(&name, arguments).await {
                    Ok(outcome) => Ok(outcome.output.to_value()),
                    Err(DispatchError::Tool(err)) => Err(err),
                    Err(err @ (DispatchError::UnknownTool { .. } | DispatchError::SharedForm { .. })) => {
                        Err(invalid("tool_call", "name", err.for_model(&name)))
                    }
                    Err(err) => Err(ToolError::Failed { tool: name.clone(), message: err.for_model(&name) }),
                }
            },
        )
        .in_client_catalog()
        .on_surface(Surface::StandAlone)
    }
}

/// `tool_call`'s arguments: the name of the tool to run and its arguments (an object; absent
/// or `null` is no arguments), or the argument at fault.
pub(crate) fn tool_call_target(arguments: &Value) -> Result<(String, Value), ToolError> {
    let Some(name) = arguments.get("name").and_then(Value::as_str) else {
        return Err(invalid(
            "tool_call",
            "name",
            "a string `name` is required: the tool to run, as tool_search gave it".into(),
        ));
    };
    let arguments = match arguments.get("arguments") {
        None | Some(Value::Null) => json!({}),
        Some(object @ Value::Object(_)) => object.clone(),
        Some(other) => {
            return Err(invalid(
                "tool_call",
                "arguments",
                format!("`arguments` must be an object of the tool's arguments, not {other}"),
            ))
        }
    };
    Ok((name.to_owned(), arguments))
}

/// The refusal of a meta-tool run through `tool_call`.
pub(crate) fn meta_through_tool_call(meta: &str) -> ToolError {
    invalid(
        "tool_call",
        "name",
        format!("`{meta}` is one of the runtime's own tools, in your tool list: call it directly"),
    )
}
