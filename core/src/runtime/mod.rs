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
//! | `builder.rs` | [`ToolRuntimeBuilder`]: the runtime's own tool names and the approval hook |
//! | `tool_runtime.rs` | [`ToolRuntime`]: the handle, the user's switches, [`ToolRuntime::request`] |
//! | `shared.rs` | the state behind the one lock, and the versions that say what changed |
//! | `loading.rs` | adding, reloading and removing providers; [`LoadStatus`], [`LoadProblem`] |
//! | `tool_set.rs` | what a turn reads, built once per change: the census, the definitions, the lists |
//! | `tool_list.rs` | [`ToolList`]: one wire list, shared |
//! | `request.rs` | [`Request`]: one turn's census, definitions and tool lists |
//! | `dispatch.rs` | [`Request::dispatch`]: hop 5, the switches, approval, the call; [`Route`], [`CallOutcome`] |
//! | `meta_answers.rs` | the runtime's answers to `tool_search`, `tool_schema` and `reset_tools` |
//! | `report.rs` | [`ToolRuntime::report`]: what a Tools page shows |
//! | `errors.rs` | [`DispatchError`], [`RuntimeError`] |

mod builder;
mod dispatch;
mod errors;
mod loading;
mod meta_answers;
mod report;
mod request;
mod shared;
mod tool_list;
mod tool_runtime;
mod tool_set;

pub use builder::ToolRuntimeBuilder;
pub use dispatch::{ApprovalRequest, CallOutcome, Route};
pub use errors::{DispatchError, RuntimeError};
pub use loading::{LoadProblem, LoadStatus};
pub use report::{ProviderReport, ReportStatus, ToolReport, ToolsReport};
pub use request::Request;
pub use tool_list::ToolList;
pub use tool_runtime::ToolRuntime;
