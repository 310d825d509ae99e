//! Tool providers: where a runtime's tools come from. A provider lists [`ToolDefinition`]s and
//! runs calls of them: the `#[tool]` functions of the binary ([`RegisteredTools`]), closures
//! ([`provider_fn`]), an MCP server (`mcp::McpProvider`), or an app's own [`ToolProvider`].
//!
//! "Provider" in toolwire always means a source of tools; the LLM APIs a request goes to are
//! [`LlmProvider`](crate::wire::LlmProvider)s and [`WireFormat`](crate::WireFormat)s.
//!
//! ```
//! use serde_json::json;
//! use toolwire_core::provider::{provider_fn, ToolProvider};
//! use toolwire_core::ToolDefinition;
//!
//! let echo = ToolDefinition::new("echo", "Echoes its text.", json!({"type": "object"}));
//! let provider = provider_fn("demo", vec![echo], |_tool, args| async move { Ok(args) });
//! assert_eq!(provider.name(), "demo");
//! ```
//!
//! [`ToolDefinition`]: crate::ToolDefinition

mod provider_fn;
mod registered_tools;
mod tool_provider;

pub use provider_fn::{provider_fn, ProviderFn};
pub use registered_tools::RegisteredTools;
pub use tool_provider::{
    arguments_as_object, caught_panic, ProviderError, ProviderKind, ToolProvider,
};
