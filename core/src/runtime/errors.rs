//! The runtime's errors: why a call was not run, and what the runtime cannot do.
//!
//! Policy: every error names the tool by its real name (or the name the call used, when no tool
//! answers to it) and says what the caller can do; its `for_model` message names the tool as
//! the model called it. Both enums grow, so neither is matched exhaustively outside this crate.

use crate::census::{closest_clause, unknown_tool_words};
use crate::tools::ToolError;

/// Why a call was not run or did not complete.
///
/// ```
/// let err = toolwire_core::runtime::DispatchError::UnknownTool { called: "serch".into(), closest: vec!["search".into()] };
/// assert!(err.to_string().contains("`search`"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DispatchError {
    /// No tool answers to the called name (never a guess).
    #[error("{}", unknown_tool_words(called, closest))]
    UnknownTool {
        /// The name the call used.
        called: String,
        /// The offered forms closest to it.
        closest: Vec<String>,
    },
    /// The called name is the model-safe form of several tools, so no tool answers to it (never
    /// a guess): the model retries with one of their real names, each of which reaches its tool
    /// exactly (hop 5). Before, such a call was [`DispatchError::UnknownTool`], with suggestions
    /// unrelated to the tools that share the form.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use serde_json::json;
    /// use toolwire_core::{ToolRuntime, provider::provider_fn, runtime::DispatchError, tools::ToolDefinition};
    /// let tools = ["mcp/a/b", "mcp/a.b"].map(|n| ToolDefinition::new(n, "A tool.", json!({})));
    /// let both = provider_fn("both", tools.to_vec(), |_, args| async move { Ok(args) });
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let runtime = ToolRuntime::new();
    /// let status = runtime.add_provider(Arc::new(both)).await.unwrap();
    /// assert!(status.check().is_err()); // its two tools share a form: a failed load, returned
    /// let err = runtime.request().dispatch("mcp_a_b", json!({})).await.unwrap_err();
    /// let tools = vec!["mcp/a.b".to_string(), "mcp/a/b".to_string()];
    /// assert_eq!(err, DispatchError::SharedForm { called: "mcp_a_b".into(), tools });
    /// assert!(err.to_string().contains("call one of them by its real name: `mcp/a.b`, `mcp/a/b`"));
    /// # });
    /// ```
    #[error("no one tool answers to `{called}`: {} tools share it, so none is offered under it; call one of them by its real name: {}", tools.len(), tools_list(tools))]
    SharedForm {
        /// The name the call used.
        called: String,
        /// The real names of the tools that share it, sorted.
        tools: Vec<String>,
    },
    /// The called name is one this conversation's replayed history carries for a tool that is
    /// gone from the tool set (its provider removed, or no longer listing it): a call by it
    /// reaches that tool or no tool, never the one that may have the name now
    /// ([`ConversationState::history_names`](super::ConversationState::history_names)).
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use serde_json::json;
    /// use toolwire_core::{ToolRuntime, runtime::{ConversationState, DispatchError}};
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let state: ConversationState = serde_json::from_value(json!({
    ///     "history_names": [{"name": "mcp_y_fetch", "tool": "mcp/y/fetch"}]})).unwrap();
    /// let conversation = ToolRuntime::new().resume(state);
    /// let err = conversation.request().dispatch("mcp_y_fetch", json!({})).await.unwrap_err();
    /// let gone = DispatchError::ToolGone { called: "mcp_y_fetch".into(), tool: "mcp/y/fetch".into(), closest: vec![] };
    /// assert_eq!(err, gone);
    /// assert!(err.to_string().contains("is gone"));
    /// # });
    /// ```
    #[error("`{called}` names tool `{tool}` in this conversation's history, and that tool is gone: no tool answers to `{called}` now{}", closest_clause(closest))]
    ToolGone {
        /// The name the call used.
        called: String,
        /// The real name of the tool the history's call by it reached.
        tool: String,
        /// The offered names closest to it, each reaching the tool it names.
        closest: Vec<String>,
    },
    /// The user switched the tool off.
    #[error("tool `{tool}` is switched off")]
    Disabled {
        /// The tool's real name.
        tool: String,
    },
    /// The approval hook refused the call.
    #[error("the call to tool `{tool}` was not approved{}", reason.as_ref().map(|r| format!(": {r}")).unwrap_or_default())]
    Denied {
        /// The tool's real name.
        tool: String,
        /// Why, when the hook said.
        reason: Option<String>,
    },
    /// The tool's provider was removed after this request was built.
    #[error("tool `{tool}` is gone: its provider `{provider}` was removed")]
    ProviderRemoved {
        /// The tool's real name.
        tool: String,
        /// The provider.
        provider: String,
    },
    /// The call did not end within the time limit per call
    /// ([`CallOptions::time_limit`](super::CallOptions::time_limit)) and was abandoned: its
    /// future dropped, which an MCP provider answers by cancelling the request on its server
    /// (`notifications/cancelled`), so the server stops running a call nobody waits for. The
    /// response's other calls were answered.
    #[error("the call to tool `{tool}` did not end within {millis} ms and was abandoned")]
    TimedOut {
        /// The tool's real name (the called name when no tool answers to it).
        tool: String,
        /// The time limit, in milliseconds.
        millis: u64,
    },
    /// The tool ran and failed, or could not run.
    #[error(transparent)]
    Tool(#[from] ToolError),
}

impl DispatchError {
    /// The message for the model: this error's words, with the tool named as the model called
    /// it (`called`, the name it sent, say the form `files_read`) rather than by its real name
    /// (`files/read`), a name it was never shown (issue 17, point 7). An unknown or shared name
    /// is already the called one, and a shared form's real names are what the model retries
    /// with, so those words are kept. [`Display`](std::fmt::Display) keeps the real name, for
    /// logs and the app.
    ///
    /// ```
    /// use toolwire_core::runtime::DispatchError;
    /// let err = DispatchError::Disabled { tool: "files/read".into() };
    /// assert_eq!(err.for_model("files_read"), "tool `files_read` is switched off");
    /// assert_eq!(err.to_string(), "tool `files/read` is switched off");
    /// ```
    pub fn for_model(&self, called: &str) -> String {
        let mut renamed = self.clone();
        match &mut renamed {
            DispatchError::Tool(err) => return err.for_model(called),
            // The gone tool's real name is what history meant: kept, beside the called name.
            DispatchError::UnknownTool { .. }
            | DispatchError::SharedForm { .. }
            | DispatchError::ToolGone { .. } => {}
            DispatchError::Disabled { tool }
            | DispatchError::Denied { tool, .. }
            | DispatchError::ProviderRemoved { tool, .. }
            | DispatchError::TimedOut { tool, .. } => *tool = called.to_owned(),
        }
        renamed.to_string()
    }
}

impl DispatchError {
    /// A short, stable name of the error's class: the OpenTelemetry `error.type` of the call's
    /// span (`unknown_tool`, `shared_form`, `tool_gone`, `disabled`, `denied`, `provider_removed`,
    /// `timed_out`; a tool's error by its kind: `invalid_arguments`, `failed`, `missing_state`,
    /// `bad_output`, `bad_schema`, `unavailable`, `tool_timed_out`, `panicked`).
    ///
    /// ```
    /// use toolwire_core::{ToolError, runtime::DispatchError};
    /// let err = DispatchError::Tool(ToolError::Panicked { tool: "t".into(), message: "boom".into() });
    /// assert_eq!(err.kind(), "panicked");
    /// assert_eq!(DispatchError::Disabled { tool: "t".into() }.kind(), "disabled");
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            DispatchError::UnknownTool { .. } => "unknown_tool",
            DispatchError::SharedForm { .. } => "shared_form",
            DispatchError::ToolGone { .. } => "tool_gone",
            DispatchError::Disabled { .. } => "disabled",
            DispatchError::Denied { .. } => "denied",
            DispatchError::ProviderRemoved { .. } => "provider_removed",
            DispatchError::TimedOut { .. } => "timed_out",
            DispatchError::Tool(err) => match err {
                ToolError::InvalidArguments { .. } => "invalid_arguments",
                ToolError::Failed { .. } => "failed",
                ToolError::MissingState { .. } => "missing_state",
                ToolError::BadOutput { .. } => "bad_output",
                ToolError::BadSchema { .. } => "bad_schema",
                ToolError::Unavailable { .. } => "unavailable",
                ToolError::TimedOut { .. } => "tool_timed_out",
                ToolError::Panicked { .. } => "panicked",
                ToolError::InputRequired { .. } => "input_required",
            },
        }
    }
}

/// `` `a`, `b` ``: names as the runtime's messages quote them (also `tool_schema`'s).
pub(super) fn tools_list<S: AsRef<str>>(tools: &[S]) -> String {
    let names: Vec<String> = tools.iter().map(|t| format!("`{}`", t.as_ref())).collect();
    names.join(", ")
}

/// The runtime was asked something it cannot do.
///
/// ```
/// use toolwire_core::{ToolRuntime, runtime::RuntimeError};
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let err = ToolRuntime::new().reload_provider("mcp/files").await.unwrap_err();
/// assert_eq!(err, RuntimeError::NoSuchProvider("mcp/files".into()));
/// assert_eq!(err.to_string(), "no provider named `mcp/files`");
/// # });
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RuntimeError {
    /// A provider of that name is already in the runtime.
    #[error("a provider named `{0}` is already loaded; remove it first or give it another name")]
    DuplicateProvider(String),
    /// No provider of that name.
    #[error("no provider named `{0}`")]
    NoSuchProvider(String),
    /// Two meta-tools of one name: a request would name a tool twice.
    #[error("two meta-tools are named `{name}`; remove one or rename it")]
    DuplicateMetaTool {
        /// The name.
        name: String,
    },
    /// A meta-tool name that is not model-safe: it travels as it is, so it must be one.
    #[error("meta-tool name `{name}` is not model-safe (its form would be `{form}`); rename it")]
    BadMetaToolName {
        /// The name.
        name: String,
        /// Its model-safe form.
        form: String,
    },
    /// A meta-tool name that a tool of the app (`#[tool]`) travels as: a request would name
    /// a tool twice.
    #[error("meta-tool `{name}` has the name tool `{tool}` travels as; rename one of them")]
    MetaToolClash {
        /// The meta-tool's name.
        name: String,
        /// The tool's real name.
        tool: String,
    },
}
