//! toolwire-core: the model-safe form of a tool name, the name census of a request, and
//! dispatch that maps a called name back to exactly one tool or fails cleanly.
//!
//! Read the spec (`tool-name-wire.md`) for the why; in short:
//!
//! ```
//! use toolwire_core::census::{Resolution, Via};
//! use toolwire_core::names::DEFAULT_META_TOOLS;
//! use toolwire_core::{Census, model_safe_name};
//!
//! // Hop 2: every request names a tool by its model-safe form.
//! assert_eq!(model_safe_name("mcp/server/echo"), "mcp_server_echo");
//!
//! // Hop 1: the census leaves out tools that share a form.
//! let census = Census::build(["mcp/server/echo", "mcp/a/b", "mcp/a_b"], &DEFAULT_META_TOOLS);
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
//!   the runtime with its tool catalog and the tool search index ([`search::SearchIndex`]);
//! - `mcp` (default): the MCP provider over stdio and streamable HTTP (`rmcp`), and the
//!   `mcpServers` config desktop clients use;
//! - `mcp-tls`: `https://` MCP servers (rustls).
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod census;
#[cfg(feature = "mcp")]
pub mod mcp;
pub mod names;
#[cfg(feature = "runtime")]
pub mod provider;
#[cfg(feature = "runtime")]
pub mod runtime;
#[cfg(feature = "runtime")]
pub mod schema;
#[cfg(feature = "runtime")]
pub mod search;
#[cfg(feature = "runtime")]
pub mod tools;
pub mod wire;

pub use census::Census;
pub use names::model_safe_name;
#[cfg(feature = "runtime")]
pub use runtime::{Request, ToolRuntime};
#[cfg(feature = "runtime")]
pub use tools::{registered_tools, AppState, State, ToolDefinition, ToolError};
#[cfg(feature = "runtime")]
pub use wire::WireFormat;
