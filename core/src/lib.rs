//! toolwire-core: the model-safe form of a tool name, the name census of a request, and
//! dispatch that maps a called name back to exactly one tool or fails cleanly; with the
//! `runtime` feature, the wire shapes, schemas, the runtime and search, and with `mcp`, MCP
//! servers as tool providers. Apps use it through `toolwire`, which re-exports these modules
//! and adds `#[tool]` and the rails.
//!
//! The contract is the spec, in the repository's `docs/spec/` (`tool-name-wire.md`,
//! `tool-schema-wire.md`; rendered as `toolwire::spec`). In short:
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
//! # Words
//!
//! - A tool's **real name** is what its source calls it; it identifies the tool everywhere but
//!   in a request. Its **form** (model-safe form) is what a request carries:
//!   [`model_safe_name`] of the real name, `[A-Za-z0-9_-]` only, at most
//!   [`MAX_FORM_CHARS`](names::MAX_FORM_CHARS) characters.
//! - The **census** of a request ([`Census`]) settles which tools are **offered** (they travel
//!   under their forms) and which are **left out**, each with its
//!   [`LeftOutReason`](census::LeftOutReason), and resolves a called name to one tool.
//! - **Taken names** are entered in the census beside the tools and beat every tool: the names
//!   of the runtime's **meta-tools**, the tools it answers itself
//!   ([`DEFAULT_META_TOOLS`](names::DEFAULT_META_TOOLS)).
//! - The spec's **hops**: (1) the census; (2) each offered definition named by its form;
//!   (3) the list put into a provider's request shape, the name verbatim; (4) the model calls a
//!   form or a real name; (5) dispatch: the exact name first, then a form only one tool has.
//! - A tool **provider** is a source of tools; an LLM API is an
//!   [`LlmProvider`](wire::LlmProvider).
//!
//! # Modules
//!
//! - [`names`]: the model-safe form, the meta-tools' names;
//! - [`census`]: the census (hop 1) and resolving (hop 5);
//! - [`wire`]: each LLM API's name rules; with `runtime`, the tool list per [`WireFormat`] and
//!   a request's limits;
//! - [`tools`] (`runtime`): [`ToolDefinition`], [`ToolError`], app state, registered tools;
//! - [`provider`] (`runtime`): where a runtime's tools come from;
//! - [`schema`] (`runtime`): parameter schemas per dialect;
//! - [`runtime`] (`runtime`): [`ToolRuntime`] and the [`Request`] each round with the model
//!   starts from;
//! - [`search`] (`runtime`): the tool search index;
//! - [`mcp`] (`mcp`): MCP servers as providers.
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
#[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
pub mod mcp;
pub mod names;
#[cfg(feature = "runtime")]
#[cfg_attr(docsrs, doc(cfg(feature = "runtime")))]
pub mod provider;
#[cfg(feature = "runtime")]
#[cfg_attr(docsrs, doc(cfg(feature = "runtime")))]
pub mod runtime;
#[cfg(feature = "runtime")]
#[cfg_attr(docsrs, doc(cfg(feature = "runtime")))]
pub mod schema;
#[cfg(feature = "runtime")]
#[cfg_attr(docsrs, doc(cfg(feature = "runtime")))]
pub mod search;
#[cfg(feature = "runtime")]
#[cfg_attr(docsrs, doc(cfg(feature = "runtime")))]
pub mod tools;
pub mod wire;

pub use census::Census;
pub use names::model_safe_name;
#[cfg(feature = "runtime")]
#[cfg_attr(docsrs, doc(cfg(feature = "runtime")))]
pub use runtime::{Request, ToolRuntime};
#[cfg(feature = "runtime")]
#[cfg_attr(docsrs, doc(cfg(feature = "runtime")))]
pub use tools::{registered_tools, AppState, State, ToolDefinition, ToolError};
#[cfg(feature = "runtime")]
#[cfg_attr(docsrs, doc(cfg(feature = "runtime")))]
pub use wire::WireFormat;
