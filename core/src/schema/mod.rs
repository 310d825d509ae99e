//! The schema half of the wire (`tool-schema-wire.md`): what each dialect refuses in a tool's
//! parameter schema ([`check_schema`]), the schema made ready for it ([`prepare_schema`], cached
//! in [`prepare_schema_cached`]), and the way back for the arguments ([`restore_arguments`]).
//!
//! The dialects themselves are data, beside the name rules: `dialect_rules.rs`.
//!
//! - `report.rs`: what checking and preparing say (problems, losses, refusals, statuses);
//! - `keywords.rs`: which keywords hold subschemas, which only annotate, and their notes;
//! - `refs.rs`: resolving, checking and inlining `$ref`;
//! - `merge.rs`: the exact conjunction of two schemas (`allOf`, a `$ref`'s siblings);
//! - `rewrite.rs`: the rewrites of one node for one dialect;
//! - `check.rs`, `prepare.rs`, `cache.rs`, `restore.rs`: the public functions.

mod cache;
mod check;
mod keywords;
mod merge;
mod prepare;
mod refs;
pub(crate) mod report;
mod restore;
mod rewrite;

pub use cache::{prepare_schema_cached, Preparation};
pub use check::check_schema;
pub use prepare::{prepare_schema, prepare_schema_with, PrepareOptions, Prepared};
pub use report::{Loss, RefusalReason, SchemaProblem, SchemaRefusal, SchemaReport, SchemaStatus};
pub use restore::restore_arguments;
