//! Dispatch (hop 5): a called name resolved against the request's census and run by exactly its
//! tool, or refused with a typed error.
//!
//! Policy: exact match first, then the one tool whose form it is, never a guess. The real name
//! is the identity the switches and the approval hook see, whatever form the model used. No lock
//! is held across the tool's await; a failure marks its provider down only when the provider
//! says it is.

use std::sync::Arc;

use serde::Serialize;
use serde_json::{json, Value};

use super::approval::{Approval, ApprovalRequest};
use super::conversation::Loading;
use super::errors::DispatchError;
use super::meta_tool::MetaCall;
use super::request::Request;
use super::route::Route;
use crate::census::{Resolution, ResolvedTool, UnknownTool};
use crate::provider::arguments_as_object;
use crate::schema::restore_arguments;
use crate::tools::{ToolError, ToolOutput};
use crate::wire::unsupported_reason;

/// A call that ran: which tool answered, how it was reached, and its output.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::{ToolRuntime, runtime::{CallOutcome, Route}};
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let out = ToolRuntime::new().request().dispatch("reset_tools", json!({})).await.unwrap();
/// let expected = CallOutcome {
///     tool: "reset_tools".into(),
///     provider: "runtime".into(),
///     route: Route::Meta,
///     output: json!({"unloaded": []}).into(),
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
    /// The tool's output, as the tool gave it: a JSON value, or content blocks (an MCP tool's
    /// text, images, audio, resources and structured result, distinct).
    pub output: ToolOutput,
}

impl Request {
    /// The runtime's answer to its own tool `meta`: its handler runs, given this request, its
    /// conversation and the arguments (an object).
    async fn answer_meta(
        &self,
        meta: &str,
        arguments: Value,
    ) -> Result<CallOutcome, DispatchError> {
        let Some(meta_tool) = self.shared.meta_tool(meta) else {
            // The census's taken names are the meta-tools' names: this cannot be reached, and
            // is an unknown tool if it ever is.
            return Err(self.unknown(None, meta));
        };
        let arguments = Value::Object(arguments_as_object(meta, arguments)?);
        let call = MetaCall {
            request: self.clone(),
            conversation: self.conversation().cloned(),
            arguments,
        };
        let output = meta_tool.answer(call).await?;
        Ok(CallOutcome {
            tool: meta.to_owned(),
            provider: "runtime".to_owned(),
            route: Route::Meta,
            output: output.into(),
        })
    }

    /// Dispatches a call whose arguments came as a JSON text (as OpenAI sends them).
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
                    let tool = match self.resolve_called(None, called) {
                        Ok(Resolution::Tool(hit)) => hit.name.to_owned(),
                        Ok(Resolution::Meta(meta)) => meta.to_owned(),
                        Err(_) => return Err(self.unknown(None, called)),
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

    /// The error for a name no tool answers to (called in `namespace`, for a Responses API
    /// call made in one): a name this conversation's history carries for a tool that is gone
    /// says so ([`DispatchError::ToolGone`]); else the tools that share it when it is a shared
    /// form (the model meant one of them); else the closest offered forms. A suggestion always
    /// reaches the tool it is the form of ([`closest_reaching`](Self::closest_reaching)).
    pub(super) fn unknown(&self, namespace: Option<&str>, called: &str) -> DispatchError {
        let recorded = self
            .conversation()
            .and_then(|c| c.recorded_tool(namespace, called));
        if let Some(tool) = recorded {
            return DispatchError::ToolGone {
                called: called.to_owned(),
                closest: self.closest_reaching(called, 3),
                tool,
            };
        }
        let sharing = self.census().sharing(called);
        if !sharing.is_empty() {
            return DispatchError::SharedForm {
                called: called.to_owned(),
                tools: sharing.into_iter().map(str::to_owned).collect(),
            };
        }
        DispatchError::UnknownTool {
            called: called.to_owned(),
            closest: self.closest_reaching(called, 3),
        }
    }

    /// The census's closest offered forms to `called`, at most `limit`, but each only when a
    /// call by it reaches, in this conversation, the tool it is the form of: a form its
    /// history recorded for another tool is never suggested (the model would call it and
    /// reach that other tool, or none). `called` itself is never suggested.
    pub(super) fn closest_reaching(&self, called: &str, limit: usize) -> Vec<String> {
        let census = self.census();
        let reaches_own = |form: &str| match (census.resolve(form), self.resolve_called(None, form))
        {
            (Ok(Resolution::Tool(own)), Ok(Resolution::Tool(now))) => own.index == now.index,
            _ => false,
        };
        // The census ranks more than `limit` so the filter can drop some and still fill it.
        let ranked = census.closest_offered(called, limit.saturating_mul(2).max(limit + 2));
        ranked
            .into_iter()
            .filter(|form| *form != called && reaches_own(form))
            .take(limit)
            .map(str::to_owned)
            .collect()
    }

    /// How a call of `called` (in `namespace`) reached `hit`: [`Route::History`] when this
    /// conversation's history recorded the name (and it is not the tool's real name, which
    /// reaches it exactly anyway), else the census's way.
    fn route_of(&self, namespace: Option<&str>, called: &str, hit: &ResolvedTool<'_>) -> Route {
        let recorded = called != hit.name
            && (self.conversation()).is_some_and(|c| c.recorded_tool(namespace, called).is_some());
        if recorded {
            Route::History
        } else {
            hit.via.into()
        }
    }

    /// Resolves `called` (hop 5) against this request's census and runs the tool it names.
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
    /// let out = request.dispatch("mcp/server/echo", json!({"x": 1})).await.unwrap();
    /// assert_eq!((out.provider.as_str(), out.route), ("echo", Route::Exact));
    /// let err = request.dispatch("echo", json!({})).await.unwrap_err();
    /// let closest = vec!["mcp_server_echo".to_string()];
    /// assert_eq!(err, DispatchError::UnknownTool { called: "echo".into(), closest });
    /// # });
    /// ```
    ///
    /// The call runs in an `execute_tool` tracing span (OpenTelemetry's GenAI conventions;
    /// [`answer_calls`](Request::answer_calls) adds the call's id).
    pub async fn dispatch(
        &self,
        called: &str,
        arguments: Value,
    ) -> Result<CallOutcome, DispatchError> {
        let resolution = self.resolve_called(None, called).ok();
        self.in_call_span(
            called,
            resolution,
            None,
            self.run_call(None, called, resolution, arguments),
        )
        .await
    }

    /// Hop 5 for a call as it came (its Responses `namespace` when it had one): a meta-tool's
    /// name is the runtime's, always (meta-tool names are reserved in every census); then a
    /// name this request's conversation recorded in replayed history ([`Request::replay_turn`])
    /// reaches the tool it reached then, or none if that tool is gone; any other name resolves
    /// in the census ([`Census::resolve_call`](crate::census::Census::resolve_call)). The
    /// record comes before the census's exact match: it means that tool wherever the history
    /// travels, even if a later tool takes its name (the conversation rule of hop 5 in
    /// `docs/spec/tool-name-wire.md`).
    pub(crate) fn resolve_called(
        &self,
        namespace: Option<&str>,
        called: &str,
    ) -> Result<Resolution<'_>, UnknownTool> {
        let in_census = self.census().resolve_call(namespace, called);
        if let Ok(Resolution::Meta(_)) = in_census {
            return in_census;
        }
        if let Some(recorded) = self.resolve_recorded(namespace, called) {
            return recorded;
        }
        in_census
    }

    /// The switches, the approval hook and the call, for [`Request::dispatch`] and
    /// [`Request::answer_calls`], inside the span the caller made: `called` runs by `resolution`,
    /// the caller's hop 5 (`None`: no tool answers to it), never looked up again.
    pub(super) async fn run_call(
        &self,
        namespace: Option<&str>,
        called: &str,
        resolution: Option<Resolution<'_>>,
        arguments: Value,
    ) -> Result<CallOutcome, DispatchError> {
        let hit = match resolution {
            None => return Err(self.unknown(namespace, called)),
            Some(Resolution::Meta(meta)) => return self.answer_meta(meta, arguments).await,
            Some(Resolution::Tool(hit)) => hit,
        };
        let definition = &self.definitions()[hit.index];
        let tool = hit.name;
        let owner = self.owner(hit.index);
        let provider_name = owner.provider.name();
        let route = self.route_of(namespace, called, &hit);
        let mut arguments = Value::Object(arguments_as_object(tool, arguments)?);
        // The way back: a `null` OpenAI strict sends for an optional property the tool's own
        // schema refuses as `null` is removed, so the tool gets what its schema accepts.
        restore_arguments(&definition.parameters, &mut arguments);
        if let Some(reason) = unsupported_reason(definition) {
            return Err(ToolError::Unavailable {
                tool: tool.to_owned(),
                provider: provider_name.to_owned(),
                reason: format!("cannot run it: {reason}"),
                detail: String::new(),
            }
            .into());
        }
        {
            let state = self.shared.read();
            let Some(slot) = state.slot(owner.slot) else {
                return Err(DispatchError::ProviderRemoved {
                    tool: tool.to_owned(),
                    provider: provider_name.to_owned(),
                });
            };
            if state.is_disabled(tool) {
                return Err(DispatchError::Disabled {
                    tool: tool.to_owned(),
                });
            }
            if slot.status.is_unreachable() {
                return Err(ToolError::Unavailable {
                    tool: tool.to_owned(),
                    provider: provider_name.to_owned(),
                    reason: "is unreachable; reload it".to_owned(),
                    detail: String::new(),
                }
                .into());
            }
        }
        if let Some(approve) = &self.shared.approval {
            // The hook shares the arguments instead of getting its own copy (issue 27 §2: a
            // second copy of every call's arguments).
            let shared = Arc::new(arguments);
            let request = ApprovalRequest {
                tool: tool.to_owned(),
                provider: provider_name.to_owned(),
                called: called.to_owned(),
                route,
                arguments: Arc::clone(&shared),
                title: definition.title.clone(),
                annotations: definition.annotations.clone(),
            };
            // Awaited to the end, the hook's future is dropped here, and its request with it.
            let approval = approve(request).await;
            if let Approval::Refuse { reason } = approval {
                return Err(DispatchError::Denied {
                    tool: tool.to_owned(),
                    reason,
                });
            }
            // Usually the last handle, so the tool gets the value itself; copied only when the
            // hook kept its request (or the arguments) to read later.
            arguments = Arc::unwrap_or_clone(shared);
        }
        // A catalog tool called by name (the model read it in a search result or in history)
        // is loaded, so the next request carries it.
        if let Some(Loading::Full { loaded }) = self.load(tool) {
            tracing::warn!(
                tool,
                loaded,
                "called but not loaded: the conversation has loaded as many tools as one request can carry"
            );
        }
        match owner.provider.call(tool, arguments).await {
            Ok(output) => Ok(CallOutcome {
                tool: tool.to_owned(),
                provider: provider_name.to_owned(),
                route,
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
}
