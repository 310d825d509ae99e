//! The runtime: providers added and removed while calls run, one census per change of the tool
//! set, and every call resolved (hop 5) and dispatched to exactly its tool, or failed with a
//! typed error.
//!
//! Policy: no lock is held across an await; a provider that fails only fails its own tools;
//! the real name is the identity the approval hook and the switches see; a turn costs what
//! changed (the census, the definitions and each wire list are built once per change and
//! shared, so the census's one warning per shared form fires once per change, not per turn).
//!
//! One file per job:
//!
//! | file | job |
//! |---|---|
//! | `builder.rs` | [`ToolRuntimeBuilder`]: the meta-tools, the catalog policy, the approval hook |
//! | `tool_runtime.rs` | [`ToolRuntime`]: the handle, the user's switches, [`ToolRuntime::request`] |
//! | `meta_tool.rs` | [`MetaTool`], [`MetaCall`]: the runtime's own tools as values |
//! | `catalog_tools.rs` | the built-in meta-tools: `tool_search`, `tool_schema`, `reset_tools` |
//! | `catalog.rs` | [`CatalogPolicy`]: which offered tools a request carries |
//! | `conversation.rs` | [`Conversation`], [`ConversationState`]: what one conversation loaded |
//! | `approval.rs` | [`approval::ApprovalRequest`], [`approval::Approval`]: the approval hook's question and answer |
//! | `shared.rs` | the state behind the one lock, and the versions that say what changed |
//! | `loading.rs` | adding, reloading and removing providers, live tool lists; [`LoadStatus`], [`LoadProblem`] |
//! | `tool_set.rs` | what a turn reads, built once per change: the census, the definitions, the lists, the search index |
//! | `tool_list.rs` | [`ToolList`]: one wire list, shared |
//! | `request.rs` | [`Request`]: one turn's census, definitions, tool lists and search |
//! | `dispatch.rs` | [`Request::dispatch`]: hop 5, the switches, approval, the call; [`Route`], [`CallOutcome`] |
//! | `report.rs` | [`ToolRuntime::report`]: what a Tools page shows |
//! | `errors.rs` | [`DispatchError`], [`RuntimeError`] |

pub mod approval;
mod builder;
mod catalog;
mod catalog_tools;
mod conversation;
mod dispatch;
mod errors;
mod loading;
mod meta_tool;
pub mod report;
mod request;
mod shared;
mod tool_list;
mod tool_runtime;
mod tool_set;

pub use builder::ToolRuntimeBuilder;
pub use catalog::CatalogPolicy;
pub use conversation::{Conversation, ConversationState};
pub use dispatch::{CallOutcome, Route};
pub use errors::{DispatchError, RuntimeError};
pub use loading::{LoadProblem, LoadStatus};
pub use meta_tool::{MetaCall, MetaTool};
pub use request::{CatalogHit, Request};
pub use tool_list::ToolList;
pub use tool_runtime::ToolRuntime;
