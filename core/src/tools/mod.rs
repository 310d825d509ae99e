//! Tools: what a tool is ([`ToolDefinition`]), what a call of one returns ([`ToolOutput`]: a JSON
//! value, or [`ContentBlock`]s kept as the tool sent them), what it can fail with ([`ToolError`]),
//! the app state a call is given ([`AppState`], [`State`]), and the tools `#[tool]` registered
//! across every crate linked into the binary ([`registered_tools`]).
//!
//! A definition carries the tool's *real name*: the name it is dispatched by. The name it
//! travels under (its form) is the census's business, not the definition's.
//!
//! ```
//! use serde_json::json;
//! use toolwire_core::tools::{ToolDefinition, ToolError};
//!
//! let def = ToolDefinition::new("files/read", "Reads a file.", json!({"type": "object"}));
//! assert_eq!(def.name, "files/read");
//! let err = ToolError::Failed { tool: def.name.clone(), message: "no such file".into() };
//! assert!(err.to_string().contains("files/read"));
//! ```

mod app_state;
mod content;
mod definition;
mod output;
mod registry;
mod tool_error;

pub use app_state::{AppState, State};
pub use content::{
    ContentBlock, EmbeddedResource, MediaBlock, ResourceContents, ResourceLink, TextBlock,
};
pub use definition::{ToolAnnotations, ToolDefinition};
pub(crate) use output::json_text;
pub use output::{ToolContent, ToolOutput};
pub use registry::{registered_tools, ToolFuture, ToolInput, ToolRegistration};
pub use tool_error::ToolError;
