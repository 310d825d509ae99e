//! Rails: checks for a test suite that fail before a request would.
//!
//! - [`check_tool_census`]: every `#[tool]` linked into the test binary, from every crate,
//!   travels under a form of its own, and none as a meta-tool's name (the spec's census rail);
//! - [`check_tool_schemas`]: every `#[tool]`'s schema travels to the dialects the app names,
//!   neither refused nor losing what nothing guards (a rule a dialect cannot say is guarded
//!   by the tool's own validation: listed, not failed; [`check_tool_schemas_exact`] fails on it
//!   too);
//! - [`check_forms`] and [`check_schemas`]: the same checks over a list the app builds itself
//!   (an MCP tool's losses are unguarded).
//!
//! ```
//! /// Echoes its input.
//! #[toolwire::tool]
//! fn echo(text: String) -> String { text }
//!
//! // In `tests/tool_census.rs`, as `#[test] fn tool_census() -> Result<(), SharedForms>`:
//! toolwire::rail::check_tool_census().unwrap();
//! ```

mod census;
mod schemas;

/// What a rail over the registered tools says when it saw none: a check that saw nothing
/// fails, because the usual cause is that the tools were never linked into the test.
const NO_REGISTERED_TOOLS: &str = "no registered tools: this test binary links no `#[tool]`, so the rail checked nothing. \
A tools-only library crate is linked only when the test names it: add `use my_tools as _;` to this test file. \
Tools written in a binary (`src/main.rs`) are invisible to `tests/`: move them into the package's library (`src/lib.rs`) or a tools crate.";

pub use census::{check_forms, check_tool_census, FormHolder, SharedForms};
pub use schemas::{
    check_schemas, check_schemas_exact, check_tool_schemas, check_tool_schemas_exact,
    schema_findings, tool_schema_findings, RailTool, SchemaFinding, SchemaFindings,
};
