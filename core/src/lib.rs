//! toolwire-core: the model-safe form of a tool name, the name census of a request, and
//! dispatch that maps a called name back to exactly one tool or fails cleanly.
//!
//! Read the spec (`tool-name-wire.md`) for the why; in short:
//!
//! ```
//! use toolwire_core::{model_safe_name, Census, Resolution, Via, META_TOOLS};
//!
//! // Hop 2: every request names a tool by its model-safe form.
//! assert_eq!(model_safe_name("mcp/server/echo"), "mcp_server_echo");
//!
//! // Hop 1: the census leaves out tools that share a form.
//! let census = Census::build(["mcp/server/echo", "mcp/a/b", "mcp/a_b"], &META_TOOLS);
//! assert_eq!(census.offered().count(), 1);
//!
//! // Hop 5: exact first, then the unique form, never a guess.
//! let Ok(Resolution::Tool(hit)) = census.resolve("mcp_server_echo") else { panic!() };
//! assert_eq!((hit.name, hit.via), ("mcp/server/echo", Via::Form));
//! assert!(census.resolve("mcp_a_b").is_err());
//! ```
//!
//! # Features
//! - none (`default-features = false`): the naming rules, provider rules, meta-tool names and
//!   the census (what `toolwire-macros` uses at compile time). Its only dependencies are three
//!   small crates with none of their own: `foldhash` and `hashbrown` for the census's table,
//!   `strsim` for its suggestions;
//! - `runtime` (default): [`ToolDefinition`], the wire shapes, `tracing` warnings from the census,
//!   the runtime with its tool catalog and the tool search index ([`SearchIndex`]);
//! - `mcp` (default): the MCP provider over stdio and streamable HTTP (`rmcp`), and the
//!   `mcpServers` config desktop clients use;
//! - `mcp-tls`: `https://` MCP servers (rustls).
#![deny(missing_docs)]

#[cfg(feature = "runtime")]
mod app_state;
mod census;
#[cfg(feature = "runtime")]
mod definition;
mod dialect_rules;
#[cfg(feature = "mcp")]
mod mcp;
#[cfg(feature = "mcp")]
mod mcp_config;
mod meta_tools;
mod naming;
#[cfg(feature = "runtime")]
mod provider;
#[cfg(feature = "runtime")]
mod provider_fn;
mod provider_rules;
#[cfg(feature = "runtime")]
mod registered_provider;
#[cfg(feature = "runtime")]
mod registry;
#[cfg(feature = "runtime")]
mod runtime;
#[cfg(feature = "runtime")]
mod schema;
#[cfg(feature = "runtime")]
mod search;
#[cfg(feature = "runtime")]
mod tool_error;
#[cfg(feature = "runtime")]
mod wire;

#[cfg(feature = "runtime")]
pub use app_state::{AppState, State};
pub use census::{
    build_sanitized_index, Census, CensusTool, LeftOutReason, Resolution, ResolvedTool,
    SanitizedIndex, ToolStatus, UnknownTool, Via,
};
#[cfg(feature = "runtime")]
pub use definition::{ToolAnnotations, ToolDefinition};
pub use dialect_rules::{
    Dialect, DialectRules, EnumValues, Keywords, RefSupport, SizeLimits, StrictRequestLimits,
    OPENAI_MAX_TOOLS,
};
#[cfg(feature = "mcp")]
pub use mcp::{
    check_server_name, list_server_tools, list_tools_of, mcp_tool_name, McpCommand, McpError,
    McpHttp, McpLimits, McpOptions, McpProvider, McpServer, McpTimeouts,
};
#[cfg(feature = "mcp")]
pub use mcp_config::{add_mcp_servers, McpConfig, McpConfigError};
pub use meta_tools::{meta_tool_named, META_TOOLS};
pub use naming::{is_form_char, is_model_safe, model_safe_name, MAX_FORM_CHARS};
#[cfg(feature = "runtime")]
pub use provider::{arguments_as_object, caught_panic, ProviderError, ProviderKind, ToolProvider};
#[cfg(feature = "runtime")]
pub use provider_fn::{provider_fn, ProviderFn};
pub use provider_rules::{check_definition_name, CharClass, NameRejection, NameRule, Provider};
#[cfg(feature = "runtime")]
pub use registered_provider::RegisteredTools;
#[cfg(feature = "runtime")]
pub use registry::{registered_tools, ToolFuture, ToolInput, ToolRegistration};
#[cfg(feature = "runtime")]
pub use runtime::{
    Approval, ApprovalRequest, CallOutcome, CatalogHit, CatalogPolicy, Conversation,
    ConversationState, DispatchError, LoadProblem, LoadStatus, MetaCall, MetaTool, ProviderReport,
    ReportStatus, Request, Route, RuntimeError, ToolList, ToolReport, ToolRuntime,
    ToolRuntimeBuilder, ToolsReport,
};
#[cfg(feature = "runtime")]
pub use schema::{
    check_schema, prepare_schema, prepare_schema_cached, prepare_schema_with, restore_arguments,
    Loss, Preparation, PrepareOptions, Prepared, RefusalReason, SchemaProblem, SchemaRefusal,
    SchemaReport, SchemaStatus,
};
#[cfg(feature = "runtime")]
pub use search::{search_terms, SearchHit, SearchIndex};
#[cfg(feature = "runtime")]
pub use tool_error::ToolError;
#[cfg(feature = "runtime")]
pub use wire::{wire_tools, RequestLimit, WireError, WireFormat};
