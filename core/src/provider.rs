//! Where tools come from at run time: the provider abstraction.
//!
//! Policy: a provider names its tools by real name and is called by real name; the census and
//! every form live in the runtime, never in a provider.

use futures::future::BoxFuture;
use serde_json::Value;

use crate::tool_error::ToolError;
use crate::wire::ToolDefinition;

/// Whether a provider's tools are written into the app (`#[tool]`) or loaded at run time.
/// A static tool always outranks a loaded one for a shared form.
///
/// ```
/// use toolwire_core::ProviderKind;
/// assert!(ProviderKind::Static.rank() < ProviderKind::Loaded.rank());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProviderKind {
    /// Tools compiled into the app.
    Static,
    /// Tools loaded at run time (an MCP server, a plugin).
    Loaded,
}

impl ProviderKind {
    /// The census rank: lower wins a shared form.
    ///
    /// ```
    /// use toolwire_core::ProviderKind;
    /// assert_eq!(ProviderKind::Static.rank(), 0);
    /// assert_eq!(ProviderKind::Loaded.rank(), 1);
    /// ```
    pub fn rank(self) -> u32 {
        match self {
            ProviderKind::Static => 0,
            ProviderKind::Loaded => 1,
        }
    }
}

/// A provider could not load (list) its tools.
///
/// ```
/// let err = toolwire_core::ProviderError::new("mcp-files", "the server exited with status 1");
/// assert_eq!(err.to_string(), "provider `mcp-files` failed to load: the server exited with status 1");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("provider `{provider}` failed to load: {reason}")]
pub struct ProviderError {
    /// The provider.
    pub provider: String,
    /// What went wrong.
    pub reason: String,
}

impl ProviderError {
    /// An error for `provider`.
    ///
    /// ```
    /// use toolwire_core::ProviderError;
    /// let err = ProviderError::new("mcp/files", "the server is not running");
    /// assert_eq!(err.provider, "mcp/files");
    /// assert_eq!(err.reason, "the server is not running");
    /// ```
    pub fn new(provider: impl Into<String>, reason: impl Into<String>) -> ProviderError {
        ProviderError {
            provider: provider.into(),
            reason: reason.into(),
        }
    }
}

/// A source of tools: lists them by real name and runs one by real name.
///
/// Methods return boxed futures so providers can be held as `Arc<dyn ToolProvider>`.
///
/// ```
/// use futures::future::BoxFuture;
/// use serde_json::{json, Value};
/// use toolwire_core::{ProviderError, ToolDefinition, ToolError, ToolProvider};
///
/// struct Clock;
/// impl ToolProvider for Clock {
///     fn name(&self) -> &str { "clock" }
///     fn list_tools(&self) -> BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>> {
///         Box::pin(async { Ok(vec![ToolDefinition::new("clock/now", "The time.", json!({}))]) })
///     }
///     fn call<'a>(&'a self, tool: &'a str, _args: Value) -> BoxFuture<'a, Result<Value, ToolError>> {
///         Box::pin(async move { Ok(json!({"tool": tool, "now": "12:00"})) })
///     }
/// }
/// ```
pub trait ToolProvider: Send + Sync + 'static {
    /// The provider's name, unique within a runtime.
    ///
    /// ```
    /// use toolwire_core::{AppState, RegisteredTools, ToolProvider};
    /// let provider = RegisteredTools::new(AppState::new());
    /// assert_eq!(provider.name(), "app");
    /// ```
    fn name(&self) -> &str;

    /// Static or loaded: decides who keeps a shared form.
    ///
    /// ```
    /// use toolwire_core::{AppState, ProviderKind, RegisteredTools, ToolProvider};
    /// let provider = RegisteredTools::new(AppState::new());
    /// assert_eq!(provider.kind(), ProviderKind::Static);
    /// ```
    fn kind(&self) -> ProviderKind {
        ProviderKind::Loaded
    }

    /// The provider's tools, with their real names.
    ///
    /// ```
    /// # use serde_json::json;
    /// # use toolwire_core::*;
    /// # static ECHO: ToolRegistration = ToolRegistration {
    /// #     name: "echo", form: "echo", description: "Echoes.", schema: || json!({}),
    /// #     handler: |input| Box::pin(async move { Ok(input.arguments) }),
    /// #     module_path: "demo", file: "demo.rs", line: 1,
    /// # };
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let provider = RegisteredTools::from_registrations(vec![&ECHO], AppState::new());
    /// let tools = provider.list_tools().await.unwrap();
    /// assert_eq!(tools, [ToolDefinition::new("echo", "Echoes.", json!({}))]);
    /// # });
    /// ```
    fn list_tools(&self) -> BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>>;

    /// Runs the tool named `tool` (its real name) with JSON `arguments`.
    ///
    /// ```
    /// # use serde_json::json;
    /// # use toolwire_core::*;
    /// # static ECHO: ToolRegistration = ToolRegistration {
    /// #     name: "echo", form: "echo", description: "Echoes.", schema: || json!({}),
    /// #     handler: |input| Box::pin(async move { Ok(input.arguments) }),
    /// #     module_path: "demo", file: "demo.rs", line: 1,
    /// # };
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let provider = RegisteredTools::from_registrations(vec![&ECHO], AppState::new());
    /// let out = provider.call("echo", json!({"text": "hi"})).await.unwrap();
    /// assert_eq!(out, json!({"text": "hi"}));
    /// let err = provider.call("nope", json!({})).await.unwrap_err();
    /// assert!(matches!(err, ToolError::Unavailable { .. }));
    /// # });
    /// ```
    fn call<'a>(
        &'a self,
        tool: &'a str,
        arguments: Value,
    ) -> BoxFuture<'a, Result<Value, ToolError>>;

    /// Whether the provider itself is down (its server exited, crashed or hung), as opposed to
    /// one tool returning an error. After a failed call the runtime asks this, and if it is
    /// `true` keeps the provider's tools out of requests until it is reloaded. The default is
    /// `false`.
    ///
    /// ```
    /// use toolwire_core::{AppState, RegisteredTools, ToolProvider};
    /// assert!(!RegisteredTools::new(AppState::new()).is_failed());
    /// ```
    fn is_failed(&self) -> bool {
        false
    }

    /// Stops the provider for good (the runtime calls it when the provider is removed): an
    /// MCP provider ends its server's process. Calls already running may fail. The default
    /// does nothing.
    ///
    /// ```
    /// use toolwire_core::{AppState, RegisteredTools, ToolProvider};
    /// RegisteredTools::new(AppState::new()).shutdown(); // nothing to stop
    /// ```
    fn shutdown(&self) {}

    /// Starts the provider afresh (an MCP server is spawned again). The default does nothing.
    ///
    /// ```
    /// use toolwire_core::{AppState, RegisteredTools, ToolProvider};
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let provider = RegisteredTools::new(AppState::new());
    /// assert_eq!(provider.reload().await, Ok(()));
    /// # });
    /// ```
    fn reload(&self) -> BoxFuture<'_, Result<(), ProviderError>> {
        Box::pin(async { Ok(()) })
    }
}
