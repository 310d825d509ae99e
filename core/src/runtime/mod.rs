//! The runtime: tool providers added and removed while calls run, one census per change of the
//! tool set, and every call resolved (hop 5) and dispatched to exactly its tool, or failed with a
//! typed error.
//!
//! A [`ToolRuntime`] holds the providers; each round with the model starts from a [`Request`]
//! (alone, or from a [`Conversation`] that remembers the catalog tools it loaded), whose tool list
//! goes to the LLM provider and whose [`Request::dispatch`] runs the calls the model makes in
//! answer:
//!
//! ```
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! use std::sync::Arc;
//! use serde_json::json;
//! use toolwire_core::{provider::provider_fn, runtime::{LoadStatus, Route}};
//! use toolwire_core::{ToolDefinition, ToolRuntime, WireFormat};
//!
//! let files = provider_fn(
//!     "files",
//!     vec![ToolDefinition::new("mcp/files/read", "Reads a file.", json!({}))],
//!     |_tool, arguments| async move { Ok(arguments) },
//! );
//! let runtime = ToolRuntime::new();
//! assert_eq!(runtime.add_provider(Arc::new(files)).await, Ok(LoadStatus::Loaded));
//!
//! let request = runtime.request();
//! // Each tool under its model-safe form (with one tool there is no catalog to search, so the
//! // catalog's own tools, tool_search and the others, do not travel).
//! let tools = request.tools(WireFormat::Anthropic).unwrap();
//! assert_eq!(tools[0]["name"], "mcp_files_read");
//! assert!(tools.left_out().is_empty()); // what did not travel, and why: nothing
//! // The model calls the form; exactly that tool answers, under its real name.
//! let out = request.dispatch("mcp_files_read", json!({"path": "a.txt"})).await.unwrap();
//! assert_eq!((out.tool.as_str(), out.route), ("mcp/files/read", Route::Form));
//! // What a Tools page shows, read from the census the request carried.
//! assert_eq!(runtime.report().tools[0].form, "mcp_files_read");
//! # });
//! ```
//!
//! Policy: no lock is held across an await; a provider that fails only fails its own tools;
//! the real name is the identity the approval hook and the switches see; a request costs what
//! changed (the census, the definitions and each wire list are built once per change and
//! shared, so the census's one warning per shared form fires once per change, not per request).
//!
//! # Layers
//!
//! One file per job, in four layers; read from the top: a file uses only its own layer and the
//! layers above it in this table (the two exceptions are below).
//!
//! | layer | file | job |
//! |---|---|---|
//! | **types**: values, no runtime behind them | `errors.rs` | [`DispatchError`], [`RuntimeError`] |
//! | | `route.rs` | [`Route`]: how a call reached what answered it |
//! | | `load_status.rs` | [`LoadStatus`], [`LoadProblem`], [`LoadFailed`]: what a provider's tool list showed |
//! | | `approval.rs` | [`approval`]: the approval hook's question and answer |
//! | | `catalog_policy.rs` | [`CatalogPolicy`]: which offered tools a request carries |
//! | | `report.rs` | [`report`]: what a Tools page shows |
//! | **state**: behind the one lock, and built from it | `runtime_state.rs` | the providers as loaded and the user's switches, with the versions that say what changed |
//! | | `tool_set.rs` | what a request reads, built once per change: the census, the definitions, the lists, the search index; why a tool is not offered |
//! | | `shared.rs` | the lock, the cache of what a request reads, the meta-tools, the catalog policy, the approval hook |
//! | | `loading.rs` | a provider's tool list listed and judged, and followed while it changes |
//! | **views**: what a request holds and does | `request.rs` | [`Request`]: one request's census, definitions, tool lists and search; [`CatalogHit`] |
//! | | `conversation.rs` | [`Conversation`], [`ConversationState`], [`RecordedName`]: what one conversation loaded, and the tool each name its history carries reached |
//! | | `meta_tool.rs` | [`MetaTool`], [`MetaCall`]: the runtime's own tools as values |
//! | | `dispatch.rs` | [`Request::dispatch`]: hop 5, the switches, approval, the call; [`CallOutcome`] |
//! | | `call_answers.rs` | [`Request::answer_calls`]: every call of a response's assistant turn run concurrently and answered, in order; [`ToolAnswer`], [`CallOptions`] |
//! | | `call_span.rs` | the `execute_tool` span each call runs in (OpenTelemetry GenAI conventions) |
//! | | `history.rs` | [`Request::replay_turn`]: the assistant turn for history, its renamed calls named in this request's census |
//! | | `catalog_tools.rs` | the built-in meta-tools: `tool_search`, `tool_schema`, `reset_tools`, `tool_call` |
//! | **handle**: what the app holds | `tool_runtime.rs` | [`ToolRuntime`] and every one of its methods |
//! | | `builder.rs` | [`ToolRuntimeBuilder`]: the meta-tools, the catalog policy, the approval hook |
//!
//! What is left of the import cycle, and why it stays:
//! - `shared.rs`, `meta_tool.rs`, `request.rs`, `conversation.rs` name each other. The runtime
//!   holds its meta-tools (`shared.rs`); a meta-tool is answered with a [`MetaCall`] carrying the
//!   [`Request`] it answers and that request's [`Conversation`]; a request holds the shared
//!   state (dispatch reads the switches and the providers' reachability at call time) and the
//!   conversation it loads tools into; a conversation makes requests. Cutting it would take type
//!   erasure, or a second list of the meta-tools' names beside the meta-tools (the census's
//!   taken names are theirs, read where the census is built). So `shared.rs`, in the state
//!   layer, names one type of the views layer: [`MetaTool`].
//! - `tool_runtime.rs` and `builder.rs` name each other: [`ToolRuntime::builder`] returns the
//!   builder, [`ToolRuntimeBuilder::build`] the runtime.
//!
//! `impl Request` is in five files: `request.rs` (what a request reads), `dispatch.rs` (what a call
//! does), `call_answers.rs` (a response's calls answered), `call_span.rs` (the span of a call) and
//! `history.rs` (the assistant turn replayed); `impl MetaTool` too: `meta_tool.rs` (the type) and
//! `catalog_tools.rs` (the built-ins).

// types
pub mod approval;
mod catalog_policy;
mod errors;
mod load_status;
pub mod report;
mod route;

// state
mod loading;
mod runtime_state;
mod shared;
mod tool_set;

// views
mod call_answers;
mod call_span;
mod catalog_tools;
mod conversation;
mod dispatch;
mod history;
mod meta_tool;
mod request;

// handle
mod builder;
mod tool_runtime;

pub use crate::wire::{LeftOutTool, ToolList, WhyLeftOut};
pub use builder::ToolRuntimeBuilder;
#[allow(deprecated)]
pub use call_answers::TurnOptions;
pub use call_answers::{CallOptions, ToolAnswer, DEFAULT_CALL_TIME_LIMIT, DEFAULT_CONCURRENCY};
pub use catalog_policy::CatalogPolicy;
#[cfg(feature = "mcp")]
pub(crate) use catalog_tools::{meta_through_tool_call, tool_call_target};
pub use conversation::{Conversation, ConversationState, DispatchedCall, RecordedName};
pub use dispatch::CallOutcome;
pub use errors::{DispatchError, RuntimeError};
pub use load_status::{LoadFailed, LoadProblem, LoadStatus, ProviderHealth};
pub use meta_tool::{MetaCall, MetaTool};
pub use request::{CatalogHit, Request};
pub use route::Route;
pub use tool_runtime::ToolRuntime;
