//! The schema half of the wire (`tool-schema-wire.md`): what each dialect refuses in a tool's
//! parameter schema ([`check_schema`]), the schema made ready for it ([`prepare_schema`]; a
//! tool's, cached, in [`prepare_definition_cached`]), and the way back for the arguments
//! ([`restore_arguments`]).
//!
//! The dialects themselves are data ([`dialect`]): one [`Dialect`] per request field that
//! carries a schema.
//!
//! ```
//! use serde_json::json;
//! use toolwire_core::schema::{check_schema, prepare_schema, Dialect};
//!
//! // Gemini takes no `additionalProperties`: checking says so, preparing rewrites it away and
//! // records the loss.
//! let schema = json!({"type": "object", "additionalProperties": {"type": "string"}});
//! assert!(!check_schema(Dialect::Gemini, &schema).is_empty());
//! let prepared = prepare_schema(Dialect::Gemini, &schema).unwrap();
//! assert!(check_schema(Dialect::Gemini, &prepared.schema).is_empty());
//! ```
//!
//! - `report.rs`: what checking and preparing say (problems, losses, refusals, statuses);
//! - `keywords.rs`: which keywords hold subschemas, which only annotate, and their notes;
//! - `refs.rs`: resolving, checking and inlining `$ref`;
//! - `merge.rs`: the exact conjunction of two schemas (`allOf`, a `$ref`'s siblings);
//! - `shape.rs`: what a node says, read without changing it (its types, whether it takes
//!   `null`, whether its branches exclude each other), asked alike by checking and rewriting;
//! - `rewrite/`: the rewrites of one node for one dialect, in their order, a file per kind of
//!   rewrite (unions, the root, types and nulls, values, dropped constraints, strict);
//! - `validator.rs`: the validator a `#[tool]` checks its arguments with, and which formats it
//!   checks;
//! - `check.rs`, `prepare.rs`, `cache.rs`, `restore.rs`: the public functions.

mod cache;
mod check;
pub mod dialect;
mod keywords;
mod merge;
mod prepare;
mod refs;
pub(crate) mod report;
mod restore;
mod rewrite;
mod shape;
mod validator;

pub use cache::{prepare_definition_cached, prepare_schema_cached, Preparation};
pub use check::check_schema;
pub use dialect::Dialect;
pub use prepare::{prepare_schema, prepare_schema_with, PrepareOptions, Prepared};
pub use report::{
    Loss, RefusalReason, SchemaProblem, SchemaRefusal, SchemaReport, SchemaStatus, Standing,
};
pub use restore::restore_arguments;
#[doc(hidden)]
pub use validator::arguments_validator_options;
