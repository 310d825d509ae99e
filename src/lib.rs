//! toolwire: make LLM tool names survive the wire.
//!
//! The runtime items (the model-safe form, the census, dispatch, the wire shapes) come from
//! `toolwire-core` and are re-exported here. This crate adds the user's side: [`tool`], which
//! registers a function as a tool and refuses at compile time a name no model could call, and
//! the census rail [`check_tool_census`] for a test suite.
//!
//! ```
//! use toolwire::{State, tool};
//!
//! /// Gets the weather for a city.
//! #[tool]
//! fn get_weather(
//!     /// The city, e.g. "Paris".
//!     city: String,
//!     /// How many days ahead (default 0).
//!     days: Option<u8>,
//! ) -> String {
//!     format!("sunny in {city} for {} days", days.unwrap_or(0))
//! }
//!
//! /// Reads a file the app may share.
//! #[tool(name = "files/read")]
//! async fn read_file(root: State<std::path::PathBuf>, path: String) -> Result<String, std::io::Error> {
//!     std::fs::read_to_string(root.join(path))
//! }
//!
//! let tools = toolwire::registered_tools();
//! let read = tools.iter().find(|t| t.name == "files/read").unwrap();
//! assert_eq!(read.form, "files_read");
//! assert_eq!(read.description, "Reads a file the app may share.");
//! // `root` is app state, not part of the schema.
//! assert_eq!(
//!     (read.schema)(),
//!     serde_json::json!({
//!         "type": "object",
//!         "properties": {"path": {"type": "string"}},
//!         "required": ["path"],
//!     })
//! );
//! ```
//!
//! Tools live in the binary's `inventory`: a crate that nothing references is not linked, so
//! its tools are absent. A binary (or test) that uses a tools-only crate writes
//! `use my_tools as _;`.
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "mcp")]
#[doc(inline)]
pub use toolwire_core::mcp;
#[doc(inline)]
pub use toolwire_core::{census, names, provider, runtime, schema, search, tools, wire};

pub mod rail;

pub use rail::check_tool_census;
pub use toolwire_core::{
    model_safe_name, registered_tools, AppState, Census, Request, State, ToolDefinition, ToolError,
    ToolRuntime, WireFormat,
};

/// Registers a function as a tool: `#[toolwire::tool]` or
/// `#[toolwire::tool(name = "...", description = "...")]`.
///
/// - **Name**: the function's (`r#type` gives `type`), or `name = "..."`. The tool travels
///   under its model-safe form ([`model_safe_name`]), computed at compile time by the same code
///   the runtime uses.
/// - **Description**: the doc comment, or `description = "..."`. One is required (Bedrock
///   Converse refuses a tool without one). The doc comment's wrapped lines are joined with a
///   space; blank lines, list items, headings and fenced code keep their own lines.
/// - **Arguments**: each is a property of the tool's object schema; its type implements
///   `serde::Deserialize` and `schemars::JsonSchema`, its doc comment is the property's
///   description, and it is required unless `null` is one of its values (an `Option<T>`). The
///   handler refuses unknown argument names and names the argument at fault.
/// - **App state**: an argument whose type is written `State<T>` (any path whose last segment is
///   `State`, such as `toolwire::State<Db>`) is filled from the call's [`AppState`] and is not in
///   the schema. The check is by the written type, so a type alias of `State<T>` is a JSON
///   argument; write `State<...>` itself.
/// - **Result**: any `T: Serialize`, or a type written `Result<T, E>` (any path ending in
///   `Result`, such as `anyhow::Result<T>`) with `T: Serialize` and `E: Display`, whose error
///   reaches the caller as [`ToolError::Failed`]. A panic is caught as [`ToolError::Panicked`].
///   `async fn` tools are awaited; a sync tool runs when its handler is called (keep it quick, or
///   make it `async`).
/// - **Other keys**: `allow_gemini_refusal` accepts a form Gemini refuses (one starting with a
///   digit or `-`) for a tool never sent to Gemini; `crate = path` names this crate when it is
///   renamed.
///
/// Compile errors, each on the user's tokens: an empty name; a form that is a meta-tool's
/// ([`DEFAULT_META_TOOLS`](names::DEFAULT_META_TOOLS)); two `#[tool]`s of one crate with one form (anywhere in the crate: rustc
/// reports `tool_form_<form>__is_the_form_of_another_tool__rename_one` defined twice, at both
/// tools); no description; a form a provider refuses; and anything the attribute cannot
/// honour (an unknown key, a non-string value, generics, `self`, `impl Trait` or reference
/// arguments). Forms shared across crates are caught by [`check_tool_census`].
///
/// ```
/// /// Adds two numbers.
/// #[toolwire::tool]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// let add = toolwire::registered_tools().into_iter().find(|t| t.name == "add").unwrap();
/// let sum = futures::executor::block_on(add.call(serde_json::json!({"a": 2, "b": 3}), Default::default()));
/// assert_eq!(sum, Ok(serde_json::json!(5)));
/// ```
///
/// App state (a database pool, a client) reaches a tool through a `State<T>` argument, filled
/// from the [`AppState`] the call is given; the call's JSON never sees it:
///
/// ```
/// use std::sync::atomic::{AtomicU32, Ordering};
/// use toolwire::{AppState, State};
///
/// struct Db { visits: AtomicU32 }
///
/// /// Records a visit.
/// #[toolwire::tool]
/// fn visit(db: State<Db>, who: String) -> String {
///     let n = db.visits.fetch_add(1, Ordering::SeqCst) + 1;
///     format!("{who} is visitor {n}")
/// }
///
/// let state = AppState::new().with(Db { visits: AtomicU32::new(0) });
/// let tool = toolwire::registered_tools().into_iter().find(|t| t.name == "visit").unwrap();
/// assert_eq!((tool.schema)()["required"], serde_json::json!(["who"]));
/// let out = futures::executor::block_on(tool.call(serde_json::json!({"who": "ana"}), state));
/// assert_eq!(out, Ok(serde_json::json!("ana is visitor 1")));
/// ```
///
/// A meta-tool's name does not compile:
///
/// ```compile_fail
/// /// Searches.
/// #[toolwire::tool(name = "tool/search")]
/// fn search() {}
/// ```
pub use toolwire_macros::tool;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

/// The Rust snippets of the README and of the pages in `docs/` and `cli/README.md`, compiled
/// and run as doctests (`cargo test -p toolwire --doc`) so they cannot drift from the API. A
/// page without a Rust snippet is here too, so a snippet added to it is compiled from the start.
#[cfg(doctest)]
mod doc_pages {
    #[doc = include_str!("../README.md")]
    pub struct Readme;
    #[doc = include_str!("../docs/tools.md")]
    pub struct Tools;
    #[doc = include_str!("../docs/census.md")]
    pub struct Census;
    #[doc = include_str!("../docs/schemas.md")]
    pub struct Schemas;
    #[doc = include_str!("../docs/runtime.md")]
    pub struct Runtime;
    #[cfg(feature = "mcp")]
    #[doc = include_str!("../docs/mcp.md")]
    pub struct Mcp;
    #[doc = include_str!("../docs/catalog.md")]
    pub struct Catalog;
    #[doc = include_str!("../docs/testing.md")]
    pub struct Testing;
    #[doc = include_str!("../docs/performance.md")]
    pub struct Performance;
    #[doc = include_str!("../cli/README.md")]
    pub struct Cli;
}
