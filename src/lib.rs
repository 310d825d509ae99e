//! toolwire: make LLM tool names survive the wire.
//!
//! A tool's real name (`mcp/files/read`, `search.web`) need not be one every LLM provider
//! accepts, and one bad name fails a whole request. toolwire sends each tool under its
//! model-safe form, leaves out the tools a call could not tell apart, and maps every call back
//! to exactly its tool, or fails: never a guess. This crate is the one an app adds: [`tool`]
//! registers a function as a tool (and refuses at compile time a name no model could call),
//! the runtime ([`ToolRuntime`]) carries tools from every source to every provider, and the
//! rails ([`rail`]) check a tool set in a test suite. The engine is `toolwire-core`, whose
//! modules are re-exported here by name.
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
//!         "additionalProperties": false,
//!     })
//! );
//! ```
//!
//! Tools live in the binary's `inventory`: a crate that nothing references is not linked, so
//! its tools are absent. A binary (or test) that uses a tools-only crate writes
//! `use my_tools as _;`.
//!
//! # The words
//!
//! They are the spec's ([`spec`]), and every page and message of toolwire uses them so:
//!
//! - **Real name**: what a tool's source calls it (`mcp/files/read`, `search.web`, a `#[tool]`'s
//!   function name). It is the tool's identity everywhere but on the wire: dispatch, the
//!   approval hook, the user's switches, the Tools page, the catalog the model reads.
//! - **Model-safe form** (the **form**): the real name with each character outside
//!   `[A-Za-z0-9_-]` made `_`, cut to 64 characters ([`model_safe_name`]). It is the name a
//!   request carries, one every provider accepts; a name already in that form is its own.
//! - **Census**: the decision, for one request, of which tools travel and under which form, and
//!   the map from any name a model calls back to one tool ([`Census`]).
//! - **Offered** / **left out**: an offered tool travels in the request under its form; a
//!   left-out tool does not, because a call by its form could not be told apart from another
//!   tool's (or its name is empty, given twice, or taken), and says why
//!   ([`census::LeftOutReason`]).
//! - **Meta-tool**: a tool of the runtime's own, answered by the runtime itself: `tool_search`,
//!   `tool_schema`, `reset_tools` and `tool_call` by default ([`names::DEFAULT_META_TOOLS`],
//!   [`runtime::MetaTool`]). Every request carries them first (`tool_call` only a served
//!   list that stands alone, for a client with no session).
//! - **Taken name**: a name no tool may travel under, because the runtime answers it: the
//!   meta-tools' names, entered in the census beside the tools.
//! - **Provider** means a source of tools ([`provider`]: `#[tool]`s, closures, an MCP server);
//!   the LLM APIs a request goes to are [`wire::LlmProvider`]s, each with its [`WireFormat`]s.
//! - **Dialect**: what one provider's request field accepts as a parameter schema
//!   ([`schema::Dialect`]).
//!
//! **The hops** are the spec's five steps of a name between its definition and the dispatch of
//! a call:
//!
//! 1. the census of the request: a tool whose form another tool (or a meta-tool) already has is
//!    left out, with one log line naming them;
//! 2. the definition's name becomes its form in the tool list;
//! 3. the list goes into the provider's request shape ([`WireFormat`]) verbatim: the shape
//!    changes, the name string does not;
//! 4. the model calls a tool, by the form it was given or by a real name it read (in the
//!    catalog, or in an earlier turn's history);
//! 5. the call is dispatched: exact name first, always; only a name that is neither a tool's
//!    real name nor a meta-tool's consults the form → real name map, and only where exactly one
//!    tool travels as that form ([`Census::resolve`]).
//!
//! # Modules
//!
//! The everyday items are at the root; the rest live in modules named after their concept:
//!
//! - [`tools`]: what a tool is ([`ToolDefinition`]), its errors, app state, the registered
//!   `#[tool]`s;
//! - [`names`]: the model-safe form and the meta-tools' names;
//! - [`census`]: the census of one request (hop 1) and resolving a called name (hop 5);
//! - [`provider`]: sources of tools: `#[tool]`s, closures, or an app's own;
//! - [`wire`]: each LLM provider's name rules, the tool list in each [`WireFormat`], and the
//!   limits of one request (hops 2 and 3);
//! - [`schema`]: each dialect's parameter schema: checked, prepared, and the arguments restored
//!   on the way back;
//! - [`runtime`]: providers added and removed while calls run, each turn's [`Request`], dispatch,
//!   approval, the catalog, the Tools page;
//! - [`search`]: the index behind the runtime's `tool_search`;
//! - [`mcp`] (feature `mcp`): MCP servers as providers, and the `mcpServers` config file;
//! - [`rail`]: checks for a test suite, such as [`check_tool_census`];
//! - [`spec`]: the spec itself, the name and the schema on the wire.
//!
//! # Features
//!
//! - `mcp` (default): the [`mcp`] module, MCP servers over stdio and `http://` (the `rmcp`
//!   client);
//! - `mcp-tls`: `https://` MCP servers (rustls).
//!
//! The guides (one page per concept, with the command's page) are in the repository's `docs/`
//! and `cli/README.md`; their Rust snippets are doctests of this crate.
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "mcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
#[doc(inline)]
pub use toolwire_core::mcp;
#[doc(inline)]
pub use toolwire_core::{census, names, provider, runtime, schema, search, tools, wire};

pub mod rail;
pub mod spec;

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
///   `serde::Deserialize` and `schemars::JsonSchema` (a type that does not is one compile error
///   at that type, naming the derive to add), its doc comment is the property's description,
///   and it is required unless it is an `Option<T>` or has `#[serde(default)]`. Its
///   `#[schemars(...)]` and `#[serde(...)]` attributes apply to it as to a struct's field
///   (`#[schemars(range(min = 1, max = 10))]`, `regex`, `length`, `#[serde(rename = "...")]`).
/// - **The tool enforces its own schema**: a call's arguments are validated against it (the
///   `jsonschema` crate, compiled once per tool) before they are deserialized, however the call
///   arrives (`registered_tools()`, the runtime, the way back of a strict dialect), so every
///   bound schemars writes is checked. The schema is closed (`additionalProperties: false`) at
///   every object a struct generates, the arguments' own object included, so the tool refuses
///   unknown fields at every level; a map or a `#[serde(flatten)]` catch-all keeps admitting
///   other fields. A refusal is [`ToolError::InvalidArguments`] naming the argument, where (the
///   JSON pointer) and the rule; a schema that does not compile as a validator fails that
///   tool's calls with [`ToolError::BadSchema`]. The tool's definition says
///   [`null_is_absent`](ToolDefinition::null_is_absent).
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
/// `#[tool]` takes free functions only: on an associated function inside an `impl` (a proc
/// macro cannot see the `impl`, and the registration cannot name `Self`), the first error is
/// ``cannot find value `tool_takes_a_free_function__move_<fn>_out_of_the_impl` ``, at the function's
/// name. Move the function out of the `impl`.
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
/// An argument's bounds are in the schema and enforced at call time:
///
/// ```
/// use serde_json::json;
/// use toolwire::ToolError;
///
/// /// Orders an item.
/// #[toolwire::tool]
/// fn order(#[schemars(range(min = 1, max = 10))] quantity: u32) -> u32 { quantity }
///
/// let order = toolwire::registered_tools().into_iter().find(|t| t.name == "order").unwrap();
/// assert_eq!((order.schema)()["properties"]["quantity"]["maximum"], 10);
/// let call = |arguments| futures::executor::block_on(order.call(arguments, Default::default()));
/// assert_eq!(call(json!({"quantity": 3})), Ok(json!(3)));
/// let Err(ToolError::InvalidArguments { argument, reason, .. }) = call(json!({"quantity": 0})) else {
///     panic!("a quantity of 0 is refused");
/// };
/// assert_eq!(argument.as_deref(), Some("quantity"));
/// assert!(reason.contains("less than the minimum of 1"));
/// // Unknown arguments are refused too: the schema is closed.
/// assert!(call(json!({"quantity": 3, "colour": "red"})).is_err());
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
pub mod __private;

/// The Rust snippets of the README and of the pages in `docs/` and `cli/README.md`, compiled
/// and run as doctests (`cargo test -p toolwire --doc`) so they cannot drift from the API. A
/// page without a Rust snippet is here too, so a snippet added to it is compiled from the start.
#[cfg(doctest)]
mod doc_pages {
    // The README's serving example uses `toolwire::mcp`.
    #[cfg(feature = "mcp")]
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
    #[doc = include_str!("../docs/return-leg.md")]
    pub struct ReturnLeg;
    #[doc = include_str!("../docs/testing.md")]
    pub struct Testing;
    #[doc = include_str!("../docs/performance.md")]
    pub struct Performance;
    #[doc = include_str!("../cli/README.md")]
    pub struct Cli;
}
