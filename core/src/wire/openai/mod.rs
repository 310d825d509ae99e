//! OpenAI function calling (Chat Completions and Responses), as toolwire knows it: its name
//! rule, its `openai` and `openai-strict` schema dialects (both APIs take the same
//! `parameters`), the shape of one tool in each API's `tools` and its request limit. Its return leg sits beside this file: the calls of a Chat Completions body
//! (`chat_calls.rs`) and stream (`chat_stream/`), and of a Responses API body
//! (`responses_calls.rs`) and stream (`responses_stream.rs`); the answers sent back join them.
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//!
//! Sources, read 2026-11: the Chat Completions API reference, the function calling guide and the
//! structured outputs guide ("Supported schemas"), and the refusals quoted in
//! `tool-schema-wire.md` ("Real refusals"). Facts a source marks as unconfirmed are not rules
//! (the 1,024-character description limit OpenAI once reported is not here).

// The return leg: the calls of a body and a stream, for Chat Completions and the Responses API.
#[cfg(feature = "runtime")]
pub(crate) mod chat_answers;
#[cfg(feature = "runtime")]
pub(crate) mod chat_api;
#[cfg(feature = "runtime")]
pub(crate) mod chat_calls;
#[cfg(feature = "runtime")]
pub(crate) mod chat_replay;
#[cfg(feature = "runtime")]
pub(crate) mod chat_stream;
#[cfg(feature = "runtime")]
pub(crate) mod responses_answers;
#[cfg(feature = "runtime")]
pub(crate) mod responses_api;
#[cfg(feature = "runtime")]
pub(crate) mod responses_calls;
#[cfg(feature = "runtime")]
pub(crate) mod responses_replay;
#[cfg(feature = "runtime")]
pub(crate) mod responses_stream;

#[cfg(feature = "runtime")]
use serde_json::{json, Value};

use super::name_rules::{CharClass, NameRule};
#[cfg(feature = "runtime")]
use crate::schema::dialect::{DialectRules, EnumValues, Keywords, RefSupport, SizeLimits, BROAD};
#[cfg(feature = "runtime")]
use crate::tools::ToolDefinition;

// Names.

/// `function.name` "must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum
/// length of 64" (Chat Completions API reference).
pub(crate) const NAME_RULE: NameRule = NameRule {
    first: None,
    rest: CharClass::FormChars,
    max_chars: 64,
};

// Schemas.

/// `function.parameters`: "otherwise broad JSON Schema" (function calling guide): the broad
/// dialect as it is.
#[cfg(feature = "runtime")]
pub(crate) const DIALECT: DialectRules = DialectRules {
    // Recursion (read 2026-12): the official SDK's `FunctionDefinition.parameters` (openai
    // 3.57, `openai/types/shared_params/function_definition.py`) is "described as a JSON Schema
    // object", and "only a subset of JSON Schema is supported when `strict` is `true`"; neither
    // it nor the function calling guide forbids a recursive local `$ref`, and structured outputs
    // document recursion ("recursion via #") for the same field in strict mode. The one public
    // report of a refusal found (luxus/pi-hindsight#365: `Error resolving schema reference
    // 'HindsightTagGroup': RecursionError`) is a `$ref` by bare name against an `$id`, not a
    // local `#/...` one, which is refused here anyway (external). So a recursive local `$ref`
    // travels.
    refs: RefSupport::LocalAndRecursive,
    ..BROAD
};

/// OpenAI structured outputs, "Supported schemas": string, number, boolean, integer, object,
/// array, enum, anyOf; `pattern`, `format`; `multipleOf`, `minimum`/`maximum` and the exclusive
/// forms; `minItems`/`maxItems`; `$defs`/`$ref`. `description` is how every example documents a
/// field. Refused: `allOf`, `not`, `oneOf` (`'oneOf' is not permitted`), `dependentRequired`,
/// `dependentSchemas`, `if`/`then`/`else`.
#[cfg(feature = "runtime")]
const STRICT_KEYWORDS: &[&str] = &[
    "type",
    "description",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "anyOf",
    "pattern",
    "format",
    "multipleOf",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
    "$defs",
    "$ref",
];

/// OpenAI strict formats: "date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid"
/// (`'uri' is not a valid format`).
#[cfg(feature = "runtime")]
const STRICT_FORMATS: &[(&str, &str)] = &[
    ("string", "date-time"),
    ("string", "time"),
    ("string", "date"),
    ("string", "duration"),
    ("string", "email"),
    ("string", "hostname"),
    ("string", "ipv4"),
    ("string", "ipv6"),
    ("string", "uuid"),
];

/// The `openai-strict` dialect: `function.strict: true` (structured outputs, "Supported
/// schemas").
#[cfg(feature = "runtime")]
pub(crate) const STRICT_DIALECT: DialectRules = DialectRules {
    keywords: Keywords::Only(STRICT_KEYWORDS),
    formats: Some(STRICT_FORMATS),
    // "recursion via #" and `$defs` are supported.
    refs: RefSupport::LocalAndRecursive,
    // `'additionalProperties' is required to be supplied and to be false`.
    closed_objects: true,
    // `'required' is required to be supplied and to be an array including every key in
    // properties`; optional fields are a union with `null`.
    all_required: true,
    // `array schema missing items`.
    typed_nodes: true,
    enum_values: EnumValues::Primitives,
    // "up to 5000 object properties total, with up to 10 levels of nesting"; "120,000
    // characters" of names and values; "1000 enum values across all enum properties".
    limits: Some(SizeLimits {
        properties: 5_000,
        nesting: 10,
        name_chars: 120_000,
        enum_values: 1_000,
    }),
    ..BROAD
};

// The request.

/// Per request, OpenAI accepts at most this many tools ("A max of 128 functions are
/// supported", Chat Completions API reference, `tools`; over it the request fails: `array too
/// long`).
///
/// ```
/// assert_eq!(toolwire_core::wire::OPENAI_MAX_TOOLS, 128);
/// ```
#[cfg(feature = "runtime")]
pub const OPENAI_MAX_TOOLS: usize = 128;

/// The `data` of the server-sent event that ends an OpenAI stream, `data: [DONE]`
/// (openai-python `_streaming.py`; Chat Completions' stream, `chat_stream/`). It is not JSON.
#[cfg(feature = "runtime")]
pub(crate) const END_MARKER: &str = "[DONE]";

/// One tool in `tools`: `{"type":"function","function":{name, description, parameters}}`
/// (Chat Completions API reference), with `function.strict: true` in the strict shape
/// (structured outputs).
#[cfg(feature = "runtime")]
pub(crate) fn tool(form: &str, def: &ToolDefinition, schema: &Value, strict: bool) -> Value {
    let mut tool = json!({
        "type": "function",
        "function": {"name": form, "description": def.description, "parameters": schema},
    });
    if strict {
        tool["function"]["strict"] = Value::Bool(true);
    }
    tool
}

/// One tool in a Responses API request's `tools`: a flat function tool
/// `{"type":"function", name, description, parameters, strict}` (openai-python 3.57,
/// `types/responses/function_tool_param.py`, `FunctionToolParam`: `name`, `parameters`,
/// `strict` and `type` are `Required`, `description` optional; the function calling guide,
/// developers.openai.com/api/docs/guides/function-calling, "Defining functions"). `strict` is
/// always sent, `false` in the plain shape: the type requires the key, and a tool that omits
/// it is validated strictly when its schema allows (`NamespaceToolParam`'s `ToolFunction.strict`
/// docstring: "If omitted, Responses attempts to use strict validation when the schema is
/// compatible"), which the plain `openai` dialect never prepared it for.
#[cfg(feature = "runtime")]
pub(crate) fn responses_tool(
    form: &str,
    def: &ToolDefinition,
    schema: &Value,
    strict: bool,
) -> Value {
    json!({
        "type": "function",
        "name": form,
        "description": def.description,
        "parameters": schema,
        "strict": strict,
    })
}

/// One `namespace` tool of a Responses API request: `{"type":"namespace", name, description,
/// tools}`, the function tools inside it in [`responses_tool`]'s shape (openai-python 3.57,
/// `types/responses/namespace_tool_param.py`, `NamespaceToolParam`: "Groups function/custom
/// tools under a shared namespace"; `name` "The namespace name used in tool calls", all four
/// keys `Required`; its `ToolFunction` takes `name`, `type`, `description`, `parameters`,
/// `strict`). A call to a tool inside comes back with `function_call.namespace` set
/// (`response_function_tool_call.py`). No name rule of a namespace was found (none in the
/// type; a client generated from the OpenAPI spec has only `minLength: 1`: hexdocs ex_openai
/// `NamespaceToolParam`): toolwire sends model-safe forms there too (our caution).
#[cfg(feature = "runtime")]
pub(crate) fn namespace_tool(name: &str, description: String, tools: Value) -> Value {
    json!({"type": "namespace", "name": name, "description": description, "tools": tools})
}
