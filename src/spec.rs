//! The spec toolwire implements, rendered from the repository's `docs/spec/`: what happens to a
//! tool's name ([`tool_name_wire`]) and to its parameter schema and description
//! ([`tool_schema_wire`]) between its definition and the dispatch of a call. The rules of the
//! code are the spec's sentences; where the code quotes one, it is from these pages.
//!
//! The pages name the functions and files of the Python runtime they were first written
//! against (`agents/native/tool_names.py`, `_resolve_name`); the crate docs ("The words") map
//! their words and hops 1-5 to this crate's API.

/// The name on the wire: the model-safe form, the census (hop 1) and dispatch (hop 5).
///
#[doc = include_str!("../docs/spec/tool-name-wire.md")]
pub mod tool_name_wire {}

/// The schema on the wire: each dialect's schema, exact and lossy rewrites, refusals, the way
/// back.
///
#[doc = include_str!("../docs/spec/tool-schema-wire.md")]
pub mod tool_schema_wire {}
