//! Where tools come from at run time: the provider abstraction.
//!
//! Policy: a provider names its tools by real name and is called by real name; the census and
//! every form live in the runtime, never in a provider. What every provider does with a call is
//! here once: [`arguments_as_object`] (the one "arguments must be an object" rule and message)
//! and [`caught_panic`] (a panicking tool is a [`ToolError::Panicked`], never a crash).

use std::any::Any;

use futures::future::BoxFuture;
use serde_json::{Map, Value};

use crate::tools::ToolDefinition;
use crate::tools::ToolError;
use crate::tools::ToolOutput;

/// Whether a provider's tools are written into the app (`#[tool]`) or loaded at run time.
/// A static tool always outranks a loaded one for a shared form.
///
/// ```
/// use toolwire_core::provider::ProviderKind;
/// assert!(ProviderKind::Static.rank() < ProviderKind::Loaded.rank());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
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
    /// use toolwire_core::provider::ProviderKind;
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
/// let err = toolwire_core::provider::ProviderError::new("mcp-files", "the server exited with status 1");
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
    /// use toolwire_core::provider::ProviderError;
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
/// use toolwire_core::{ToolDefinition, ToolError, provider::{ProviderError, ToolProvider}, tools::ToolOutput};
///
/// struct Clock;
/// impl ToolProvider for Clock {
///     fn name(&self) -> &str { "clock" }
///     fn list_tools(&self) -> BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>> {
///         Box::pin(async { Ok(vec![ToolDefinition::new("clock/now", "The time.", json!({}))]) })
///     }
///     fn call<'a>(&'a self, tool: &'a str, _args: Value) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
///         Box::pin(async move { Ok(json!({"tool": tool, "now": "12:00"}).into()) })
///     }
/// }
/// ```
pub trait ToolProvider: Send + Sync + 'static {
    /// The provider's name, unique within a runtime.
    ///
    /// ```
    /// use toolwire_core::{AppState, provider::{RegisteredTools, ToolProvider}};
    /// let provider = RegisteredTools::new(AppState::new());
    /// assert_eq!(provider.name(), "app");
    /// ```
    fn name(&self) -> &str;

    /// Static or loaded: decides who keeps a shared form.
    ///
    /// ```
    /// use toolwire_core::{AppState, provider::{ProviderKind, RegisteredTools, ToolProvider}};
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
    /// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
    /// # static ECHO: ToolRegistration = ToolRegistration {
    /// #     name: "echo", form: "echo", description: "Echoes.", schema: || json!({}),
    /// #     handler: |input| Box::pin(async move { Ok(input.arguments) }),
    /// #     module_path: "demo", file: "demo.rs", line: 1, validates_arguments: false,
    /// # };
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let provider = RegisteredTools::from_registrations(vec![&ECHO], AppState::new());
    /// let tools = provider.list_tools().await.unwrap();
    /// let expected = ToolDefinition::new("echo", "Echoes.", json!({})).with_null_is_absent(true);
    /// assert_eq!(tools, [expected]);
    /// # });
    /// ```
    fn list_tools(&self) -> BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>>;

    /// Whether [`call`](ToolProvider::call) runs a tool only after checking its arguments
    /// against the schema its definition carries, for the tools whose definitions say so
    /// ([`ToolDefinition::validates_arguments`]). The runtime counts a loss as *guarded* only
    /// when both hold (`tool-schema-wire.md`, "What the rail fails on, revised 2026-12"), so a
    /// provider that hands a call to code it does not check (an MCP server, a closure given a
    /// `#[tool]`'s definition) keeps the default, `false`. [`RegisteredTools`](crate::provider::RegisteredTools)
    /// says `true`: it runs each registration's own handler.
    ///
    /// ```
    /// use toolwire_core::{AppState, provider::{RegisteredTools, ToolProvider}};
    /// assert!(RegisteredTools::new(AppState::new()).validates_arguments());
    /// ```
    fn validates_arguments(&self) -> bool {
        false
    }

    /// Runs the tool named `tool` (its real name) with JSON `arguments`; its output as the tool
    /// gave it (a JSON value, or content blocks: [`ToolOutput`]).
    ///
    /// ```
    /// # use serde_json::json;
    /// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
    /// # static ECHO: ToolRegistration = ToolRegistration {
    /// #     name: "echo", form: "echo", description: "Echoes.", schema: || json!({}),
    /// #     handler: |input| Box::pin(async move { Ok(input.arguments) }),
    /// #     module_path: "demo", file: "demo.rs", line: 1, validates_arguments: false,
    /// # };
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let provider = RegisteredTools::from_registrations(vec![&ECHO], AppState::new());
    /// let out = provider.call("echo", json!({"text": "hi"})).await.unwrap();
    /// assert_eq!(out, json!({"text": "hi"})); // a JSON output
    /// assert_eq!(out, ToolOutput::Json(json!({"text": "hi"})));
    /// let err = provider.call("nope", json!({})).await.unwrap_err();
    /// assert!(matches!(err, ToolError::Unavailable { .. }));
    /// # });
    /// ```
    fn call<'a>(
        &'a self,
        tool: &'a str,
        arguments: Value,
    ) -> BoxFuture<'a, Result<ToolOutput, ToolError>>;

    /// Whether the provider itself is down (its server exited, crashed or hung), as opposed to
    /// one tool returning an error. After a failed call the runtime asks this, and if it is
    /// `true` keeps the provider's tools out of requests until it is reloaded. The default is
    /// `false`.
    ///
    /// ```
    /// use toolwire_core::{AppState, provider::{RegisteredTools, ToolProvider}};
    /// assert!(!RegisteredTools::new(AppState::new()).is_failed());
    /// ```
    fn is_failed(&self) -> bool {
        false
    }

    /// A signal that the provider's tool list changed (an MCP server's
    /// `notifications/tools/list_changed`): the runtime lists the tools again (without
    /// restarting the provider) each time the value changes, and the next request's census
    /// reflects the new list. The default is `None`: the list changes only on a reload.
    ///
    /// ```
    /// use toolwire_core::{AppState, provider::{RegisteredTools, ToolProvider}};
    /// assert!(RegisteredTools::new(AppState::new()).tools_changed().is_none());
    /// ```
    fn tools_changed(&self) -> Option<tokio::sync::watch::Receiver<u64>> {
        None
    }

    /// The protocol version the provider speaks to what is behind it, when that has one: an
    /// MCP provider's negotiated MCP revision (`"2026-07-28"`, `"2025-11-25"`, ...) while its
    /// server runs. The runtime's report shows it
    /// ([`ProviderReport::protocol_version`](crate::runtime::report::ProviderReport::protocol_version)).
    /// The default is `None`.
    ///
    /// ```
    /// use toolwire_core::{AppState, provider::{RegisteredTools, ToolProvider}};
    /// assert_eq!(RegisteredTools::new(AppState::new()).protocol_version(), None);
    /// ```
    fn protocol_version(&self) -> Option<String> {
        None
    }

    /// What the provider's last [`list_tools`](ToolProvider::list_tools) found wrong with its
    /// tools that the definitions alone do not say: an MCP tool that is not valid MCP
    /// ([`LoadProblem::InvalidTool`](crate::runtime::LoadProblem::InvalidTool)) or was read
    /// leniently. The runtime adds them to the provider's load status after each listing. The
    /// default is none.
    ///
    /// ```
    /// use toolwire_core::{AppState, provider::{RegisteredTools, ToolProvider}};
    /// assert!(RegisteredTools::new(AppState::new()).listing_problems().is_empty());
    /// ```
    fn listing_problems(&self) -> Vec<crate::runtime::LoadProblem> {
        Vec::new()
    }

    /// Stops the provider for good (the runtime calls it when the provider is removed): an
    /// MCP provider ends its server's process. Calls already running may fail. The default
    /// does nothing.
    ///
    /// ```
    /// use toolwire_core::{AppState, provider::{RegisteredTools, ToolProvider}};
    /// RegisteredTools::new(AppState::new()).shutdown(); // nothing to stop
    /// ```
    fn shutdown(&self) {}

    /// Starts the provider afresh (an MCP server is spawned again). The default does nothing.
    ///
    /// ```
    /// use toolwire_core::{AppState, provider::{RegisteredTools, ToolProvider}};
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let provider = RegisteredTools::new(AppState::new());
    /// assert_eq!(provider.reload().await, Ok(()));
    /// # });
    /// ```
    fn reload(&self) -> BoxFuture<'_, Result<(), ProviderError>> {
        Box::pin(async { Ok(()) })
    }
}

/// The arguments of a call to `tool` as a JSON object, `null` counting as `{}`: a tool's
/// arguments are the properties of its object schema, so any other JSON value is refused,
/// naming the tool. The runtime, the MCP provider and every `#[tool]` handler apply this one
/// rule, with this one message.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::{ToolError, provider::arguments_as_object};
/// assert!(arguments_as_object("t", json!(null)).unwrap().is_empty());
/// assert_eq!(arguments_as_object("t", json!({"a": 1})).unwrap()["a"], 1);
/// let err = arguments_as_object("t", json!([1])).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "bad arguments for tool `t`: the arguments must be a JSON object, not an array"
/// );
/// ```
pub fn arguments_as_object(tool: &str, arguments: Value) -> Result<Map<String, Value>, ToolError> {
    let kind = match arguments {
        Value::Object(map) => return Ok(map),
        Value::Null => return Ok(Map::new()),
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
    };
    Err(ToolError::InvalidArguments {
        tool: tool.to_owned(),
        argument: None,
        reason: format!("the arguments must be a JSON object, not {kind}"),
    })
}

/// The error for a panic caught while `tool` ran: [`ToolError::Panicked`] with the panic's
/// message (a `&str` or `String` payload, as `panic!` makes), so the runtime goes on.
///
/// ```
/// use toolwire_core::{ToolError, provider::caught_panic};
/// let payload = std::panic::catch_unwind(|| panic!("boom {}", 1)).unwrap_err();
/// let err = caught_panic("t", &*payload);
/// assert_eq!(err, ToolError::Panicked { tool: "t".into(), message: "boom 1".into() });
/// let odd = std::panic::catch_unwind(|| std::panic::panic_any(7)).unwrap_err();
/// assert_eq!(caught_panic("t", &*odd).to_string(), "tool `t` panicked: a panic without a message");
/// ```
pub fn caught_panic(tool: &str, payload: &(dyn Any + Send)) -> ToolError {
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_owned());
    ToolError::Panicked {
        tool: tool.to_owned(),
        message,
    }
}
