//! The error a tool call ends in: typed, naming the tool and what was at fault.

use serde::Serialize;

/// Why a call to a tool failed. Every variant names the tool (by its real name).
///
/// ```
/// use toolwire_core::ToolError;
/// let err = ToolError::InvalidArguments {
///     tool: "get_weather".into(),
///     argument: Some("city".into()),
///     reason: "missing field `city`".into(),
/// };
/// assert_eq!(err.tool(), "get_weather");
/// assert!(err.to_string().contains("`city`"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ToolError {
    /// The arguments are not valid JSON, not an object, or do not match the tool's parameters.
    #[error("bad arguments for tool `{tool}`{}: {reason}", argument.as_deref().map(|a| format!(", argument `{a}`")).unwrap_or_default())]
    InvalidArguments {
        /// The tool.
        tool: String,
        /// The argument at fault, when one is.
        argument: Option<String>,
        /// What is wrong.
        reason: String,
    },
    /// The tool ran and returned an error.
    #[error("tool `{tool}` failed: {message}")]
    Failed {
        /// The tool.
        tool: String,
        /// The tool's own error message.
        message: String,
    },
    /// The tool needs app state of a type the runtime was not given.
    #[error("tool `{tool}` needs app state of type `{type_name}`, which was not provided: add it with AppState::insert")]
    MissingState {
        /// The tool.
        tool: String,
        /// The missing state's type.
        type_name: String,
    },
    /// The tool's result could not be turned into JSON.
    #[error("tool `{tool}` returned a value that is not JSON: {reason}")]
    BadOutput {
        /// The tool.
        tool: String,
        /// Why.
        reason: String,
    },
    /// The tool's own parameter schema does not compile as a validator (a `#[tool]` argument
    /// whose `#[schemars(regex(pattern = ...))]` is not a valid pattern, say), so no call can
    /// be checked against it. Every call of that tool fails with this; other tools are
    /// unaffected.
    #[error(
        "tool `{tool}` cannot check its arguments: its own parameter schema is not valid: {reason}"
    )]
    BadSchema {
        /// The tool.
        tool: String,
        /// What the validator said about the schema.
        reason: String,
    },
    /// The tool's provider could not run it (an MCP server that exited, crashed or was never
    /// reached). The provider is marked failed; other providers are unaffected.
    #[error("tool `{tool}` is unavailable: provider `{provider}` {reason}{detail}")]
    Unavailable {
        /// The tool.
        tool: String,
        /// Its provider.
        provider: String,
        /// What happened to the provider.
        reason: String,
        /// What the provider left (an MCP server's last stderr lines), kept apart from the
        /// reason so that a server serving this call to a remote client can leave it out;
        /// ready to append: empty, or starting with a separator.
        #[serde(skip_serializing_if = "String::is_empty", default)]
        detail: String,
    },
    /// The tool did not answer in time. An MCP provider cancels the request and marks itself
    /// failed only when its server does not answer `ping` (`server/discover` in 2026-07-28)
    /// either (`detail` says which).
    #[error("tool `{tool}` of provider `{provider}` did not answer within {millis} ms{detail}")]
    TimedOut {
        /// The tool.
        tool: String,
        /// Its provider.
        provider: String,
        /// The timeout, in milliseconds.
        millis: u64,
        /// What the provider said meanwhile, if anything (an MCP server's last stderr lines),
        /// ready to append: empty, or starting with a separator.
        detail: String,
    },
    /// The tool panicked; the panic was caught and the runtime goes on.
    #[error("tool `{tool}` panicked: {message}")]
    Panicked {
        /// The tool.
        tool: String,
        /// The panic's message.
        message: String,
    },
    /// The tool answered that it needs input the runtime cannot give: an MCP 2026-07-28
    /// `tools/call` result with `resultType: "input_required"` (multi round-trip requests),
    /// asking the user (elicitation) or the client's LLM (sampling).
    ///
    /// ```
    /// let err = toolwire_core::ToolError::InputRequired {
    ///     tool: "mcp/wx/forecast".into(),
    ///     provider: "mcp/wx".into(),
    ///     asked: "`city`: a form from the user (elicitation: \"Which city?\")".into(),
    /// };
    /// assert!(err.to_string().contains("needs input that toolwire cannot give"));
    /// ```
    #[error("tool `{tool}` of provider `{provider}` needs input that toolwire cannot give: it asked for {asked}")]
    InputRequired {
        /// The tool.
        tool: String,
        /// The provider.
        provider: String,
        /// What it asked for, each input request by its key and kind.
        asked: String,
    },
}

/// Every variant's `tool` field, borrowed as `$error` is (shared or mutable): one list of the
/// variants for [`ToolError::tool`] and the renaming in [`ToolError::for_model`].
macro_rules! tool_field {
    ($error:expr) => {
        match $error {
            ToolError::InvalidArguments { tool, .. }
            | ToolError::Failed { tool, .. }
            | ToolError::MissingState { tool, .. }
            | ToolError::BadOutput { tool, .. }
            | ToolError::BadSchema { tool, .. }
            | ToolError::Unavailable { tool, .. }
            | ToolError::TimedOut { tool, .. }
            | ToolError::Panicked { tool, .. }
            | ToolError::InputRequired { tool, .. } => tool,
        }
    };
}

impl ToolError {
    /// The real name of the tool at fault.
    ///
    /// ```
    /// let err = toolwire_core::ToolError::Failed { tool: "t".into(), message: "m".into() };
    /// assert_eq!(err.tool(), "t");
    /// ```
    pub fn tool(&self) -> &str {
        tool_field!(self)
    }

    /// The message for the model: this error's words, with the tool named as the model called
    /// it (`called`, say the form `files_read`) rather than by its real name (`files/read`), a
    /// name the model was never shown. [`Display`](std::fmt::Display) keeps the real name, for
    /// logs and the app.
    ///
    /// ```
    /// let err = toolwire_core::ToolError::Failed { tool: "files/read".into(), message: "no such file".into() };
    /// assert_eq!(err.for_model("files_read"), "tool `files_read` failed: no such file");
    /// assert_eq!(err.to_string(), "tool `files/read` failed: no such file");
    /// ```
    pub fn for_model(&self, called: &str) -> String {
        let mut renamed = self.clone();
        *renamed.tool_mut() = called.to_owned();
        renamed.to_string()
    }

    fn tool_mut(&mut self) -> &mut String {
        tool_field!(self)
    }
}
