//! The Anthropic Messages API, as toolwire knows it: its name rule, its `anthropic` and
//! `anthropic-strict` schema dialects, the shape of one tool in `tools`, its request limits and
//! its native tool search. Its return leg sits beside this file: the `tool_use` blocks of a
//! body (`calls.rs`) and of a stream (`stream.rs`); the `tool_result` blocks sent back join
//! them.
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//!
//! Sources, read 2026-11: the Messages API reference, the define-tools page, the structured
//! outputs page ("JSON Schema limitations"), the tool search tool page
//! (platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool), and the spec
//! `tool-name-wire.md`.

// The return leg: the calls of a body (`calls.rs`) and of a stream (`stream.rs`).
#[cfg(feature = "runtime")]
pub(crate) mod answers;
#[cfg(feature = "runtime")]
pub(crate) mod api;
#[cfg(feature = "runtime")]
pub(crate) mod calls;
#[cfg(feature = "runtime")]
pub(crate) mod stream;
// The replay: the assistant turn as history carries it.
#[cfg(feature = "runtime")]
pub(crate) mod replay;

#[cfg(feature = "runtime")]
use serde_json::{json, Value};

use super::name_rules::{CharClass, NameRule};
#[cfg(feature = "runtime")]
use crate::schema::dialect::{
    DialectRules, EnumValues, Keywords, RefSupport, StrictRequestLimits, BROAD,
};
#[cfg(feature = "runtime")]
use crate::tools::ToolDefinition;

// Names.

/// `tools[].name` matches `^[a-zA-Z0-9_-]{1,128}$` (Messages API reference; the spec
/// `tool-name-wire.md` quotes 128).
pub(crate) const NAME_RULE: NameRule = NameRule {
    first: None,
    rest: CharClass::FormChars,
    max_chars: 128,
};

/// A name in a *past tool call* (turn history) may have up to 200 characters of any kind
/// (Messages API reference; the longest called name it takes in replayed history, openclaw
/// #13134: `replay.rs` replays a longer one as its model-safe form).
pub(crate) const HISTORY_NAME_MAX_CHARS: usize = 200;

// Schemas.

/// `input_schema` is JSON Schema 2020-12 (define-tools): the broad dialect as it is.
#[cfg(feature = "runtime")]
pub(crate) const DIALECT: DialectRules = DialectRules {
    // Recursion (read 2026-12): the official SDK's `ToolParam.input_schema` (anthropic 2.15,
    // `anthropic/types/tool_param.py`) is "[JSON schema](https://json-schema.org/draft/2020-12)
    // for this tool's input" (`type: "object"`, any other keyword allowed); neither it, the
    // Messages API reference nor define-tools forbids a recursive local `$ref`, and no public
    // report of a refusal was found. Only the strict row below documents refusing recursion, so
    // a recursive local `$ref` travels here.
    refs: RefSupport::LocalAndRecursive,
    ..BROAD
};

/// Anthropic structured outputs, "JSON Schema limitations": basic types, enums of primitives,
/// `const`, `anyOf`, `allOf` (not with `$ref`), local `$ref`/`$defs`, `default`, `required`,
/// `additionalProperties: false`, string formats, `minItems` of 0 or 1, simple `pattern`.
/// Refused: recursion, external `$ref`, `minimum`/`maximum`/`multipleOf`,
/// `minLength`/`maxLength`, other array bounds.
#[cfg(feature = "runtime")]
const STRICT_KEYWORDS: &[&str] = &[
    "type",
    "description",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "allOf",
    "$ref",
    "$defs",
    "default",
    "format",
    "minItems",
    "pattern",
];

/// Anthropic strict string formats ("string formats": the JSON Schema format vocabulary it
/// lists: date-time, time, date, duration, email, hostname, uri, ipv4, ipv6, uuid).
#[cfg(feature = "runtime")]
const STRICT_FORMATS: &[(&str, &str)] = &[
    ("string", "date-time"),
    ("string", "time"),
    ("string", "date"),
    ("string", "duration"),
    ("string", "email"),
    ("string", "hostname"),
    ("string", "uri"),
    ("string", "ipv4"),
    ("string", "ipv6"),
    ("string", "uuid"),
];

/// "At most 20 strict tools per request, 24 optional parameters and 16 parameters with union
/// types (anyOf or type arrays) across all strict tools" (structured outputs, "JSON Schema
/// limitations").
#[cfg(feature = "runtime")]
pub(crate) const STRICT_REQUEST_LIMITS: StrictRequestLimits = StrictRequestLimits {
    tools: 20,
    optional_parameters: 24,
    union_parameters: 16,
};

/// The `anthropic-strict` dialect: `input_schema` beside `"strict": true` (structured outputs).
/// Bedrock Converse strict takes it too (see `converse/mod.rs`).
#[cfg(feature = "runtime")]
pub(crate) const STRICT_DIALECT: DialectRules = DialectRules {
    keywords: Keywords::Only(STRICT_KEYWORDS),
    formats: Some(STRICT_FORMATS),
    // "recursive schemas are not supported" (structured outputs, "JSON Schema limitations":
    // the provider's own refusal); local `$ref` and `$defs` are.
    refs: RefSupport::Local,
    // `additionalProperties: false` is required on objects.
    closed_objects: true,
    typed_nodes: true,
    enum_values: EnumValues::Primitives,
    // "minItems values of 0 and 1".
    max_min_items: Some(1),
    // "simple `pattern`": no lookaround or backreference.
    simple_patterns: true,
    strict_request: Some(STRICT_REQUEST_LIMITS),
    ..BROAD
};

// The request.

/// One tool in `tools`: `{name, description, input_schema}` (Messages API reference), with
/// `"strict": true` beside `input_schema` in the strict shape (structured outputs).
#[cfg(feature = "runtime")]
pub(crate) fn tool(form: &str, def: &ToolDefinition, schema: &Value, strict: bool) -> Value {
    let mut tool = json!({
        "name": form, "description": def.description, "input_schema": schema,
    });
    if strict {
        tool["strict"] = Value::Bool(true);
    }
    tool
}

// Native tool search (the tool search tool page).

/// The name of the Messages API's own tool search tool (its BM25 variant), which a list with
/// native deferral carries first.
#[cfg(feature = "runtime")]
pub(crate) const NATIVE_SEARCH_NAME: &str = "tool_search_tool_bm25";

/// The type of that tool, in its dated version.
#[cfg(feature = "runtime")]
pub(crate) const NATIVE_SEARCH_TYPE: &str = "tool_search_tool_bm25_20251119";

/// The tool search takes at most 10,000 deferred tools.
#[cfg(feature = "runtime")]
pub(crate) const MAX_DEFERRED_TOOLS: usize = 10_000;

/// The native search tool as it stands in `tools`: `{"type": …, "name": …}`.
#[cfg(feature = "runtime")]
pub(crate) fn native_search_tool() -> Value {
    json!({"type": NATIVE_SEARCH_TYPE, "name": NATIVE_SEARCH_NAME})
}

/// Marks a tool of the list as deferred (`"defer_loading": true`): the model finds it through
/// the search tool.
#[cfg(feature = "runtime")]
pub(crate) fn defer(tool: &mut Value) {
    tool["defer_loading"] = Value::Bool(true);
}
