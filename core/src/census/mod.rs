//! The name census of one request (hop 1 of the spec) and dispatch resolution (hop 5).
//!
//! Policy: never guess. A form maps back to a real name only when exactly one tool of the
//! census travels as it; of the tools that share a form, only the one whose real name IS the
//! form is offered; the taken (meta-tool) names beat every tool. Building is linear in the
//! number of tools; resolving is one hash lookup and allocates only for an unknown name.
//!
//! Read in this order:
//! - `build.rs`: the [`Census`], built from real names (and ranks) beside the taken names, and
//!   what it answers once built;
//! - `rules.rs`: one function per rule of the spec, each quoting the sentence it implements;
//! - `budget.rs`: the [`NameBudget`] a census may cut forms to, and the rule that names it
//!   when it makes two forms one;
//! - `reasons.rs`: why a tool is left out ([`LeftOutReason`]), and its [`ToolStatus`];
//! - `tool.rs`: one tool of a census ([`CensusTool`]);
//! - `resolve.rs`: a called name back to its tool ([`Resolution`], [`Via`], [`UnknownTool`]);
//! - `namespaces.rs`: a call named inside a Responses API namespace back to its tool
//!   ([`Census::resolve_in_namespace`], [`namespace_parts`]);
//! - `suggestions.rs`: the offered forms closest to a name no tool answers to;
//! - `sanitized_index.rs`: the spec's `build_sanitized_index` as a value;
//! - `name_table.rs`: the one hash table every name and form is entered in, once.
//!
//! ```
//! use toolwire_core::census::{LeftOutReason, Resolution, Via};
//! use toolwire_core::names::DEFAULT_META_TOOLS;
//! use toolwire_core::Census;
//!
//! // `mcp/a/b` and `mcp/a_b` would both travel as `mcp_a_b`: neither is offered.
//! let census = Census::build(["mcp/fs/read", "mcp/a/b", "mcp/a_b"], &DEFAULT_META_TOOLS);
//! let offered: Vec<&str> = census.offered().map(|t| t.form()).collect();
//! assert_eq!(offered, ["mcp_fs_read"]);
//! assert!(matches!(census.tools()[1].left_out_reason(), Some(LeftOutReason::SharesForm { .. })));
//!
//! // Hop 5: the real name or the unique form reaches the tool; a shared form reaches none.
//! let Ok(Resolution::Tool(hit)) = census.resolve("mcp_fs_read") else { panic!() };
//! assert_eq!((hit.name, hit.via), ("mcp/fs/read", Via::Form));
//! assert!(census.resolve("mcp_a_b").is_err());
//! ```

mod budget;
mod build;
mod name_table;
mod namespaces;
mod reasons;
mod resolve;
mod rules;
mod sanitized_index;
mod suggestions;
mod tool;

pub use budget::{budgeted_form, BudgetError, NameBudget};
pub use build::Census;
pub use namespaces::namespace_parts;
#[cfg(feature = "runtime")]
pub(crate) use namespaces::NamespacePlacement;
pub use reasons::{LeftOutReason, ToolStatus};
#[cfg(feature = "runtime")]
pub(crate) use resolve::{closest_clause, unknown_tool_words};
pub use resolve::{Resolution, ResolvedTool, UnknownTool, Via};
pub use sanitized_index::{build_sanitized_index, SanitizedIndex};
pub use tool::CensusTool;
