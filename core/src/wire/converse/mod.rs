//! Amazon Bedrock Converse, as toolwire knows it: its name rule, its `converse` schema dialect
//! (and which dialect its strict shape takes), and the shape of one tool in
//! `toolConfig.tools`. Its return leg sits beside this file: the `toolUse` blocks of a body
//! (`calls.rs`) and of `ConverseStream`'s events (`stream.rs`); the `toolResult` blocks sent
//! back join them.
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//!
//! Sources, read 2026-11: the Bedrock API reference (`ToolSpecification`, `ToolInputSchema`)
//! and the Bedrock user guide ("Get validated JSON results from models", strict tool use).

// The return leg: the calls of a body (`calls.rs`) and of a stream, with the turn it builds
// (`stream.rs`).
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
use crate::schema::dialect::{DialectRules, RefSupport, BROAD};
#[cfg(feature = "runtime")]
use crate::schema::Dialect;
#[cfg(feature = "runtime")]
use crate::tools::ToolDefinition;

// Names.

/// `ToolSpecification.name` matches `^[a-zA-Z0-9_-]+$`, 1 to 64 characters (Bedrock API
/// reference).
pub(crate) const NAME_RULE: NameRule = NameRule {
    first: None,
    rest: CharClass::FormChars,
    max_chars: 64,
};

// Schemas.

/// `toolSpec.inputSchema.json`: a JSON Schema document whose root type is object
/// (`ToolInputSchema`), so the broad dialect, except that `ToolSpecification.description` has
/// "Length Constraints: Minimum length of 1".
#[cfg(feature = "runtime")]
pub(crate) const DIALECT: DialectRules = DialectRules {
    min_description_chars: 1,
    // Recursion (read 2026-12): `ToolInputSchema.json` is "the JSON schema for the tool" (Bedrock
    // API reference), with no word on `$ref`; no public report of a refusal was found. The only
    // refusal of recursion on Bedrock is its strict tool use (the user guide's structured
    // outputs, as reported in langchain4j/langchain4j#5097: "recursive schemas are not"
    // supported), which the strict shape below follows. So a recursive local `$ref` travels.
    refs: RefSupport::LocalAndRecursive,
    ..BROAD
};

/// The dialect of the strict shape. Strict tool use on Bedrock is "the `strict: true` flag" on a
/// tool definition (user guide, "Get validated JSON results from models"); that its schemas
/// follow the Messages API's strict rules and limits, as the Claude models that take it there
/// do, is our own caution (no Bedrock page lists them); its refusal of recursion is also
/// Bedrock's own word as reported (langchain4j/langchain4j#5097, citing the user guide).
#[cfg(feature = "runtime")]
pub(crate) const STRICT_DIALECT: Dialect = Dialect::AnthropicStrict;

// The request.

/// One tool in `toolConfig.tools`: `{"toolSpec":{name, description, "inputSchema":{"json":…}}}`
/// (`Tool`, `ToolSpecification`), with `toolSpec.strict: true` in the strict shape
/// (`ToolSpecification.strict`: "Flag to enable structured output enforcement on a tool usage
/// response").
///
/// Converse refuses an empty description (`ToolSpecification.description`: "Minimum length of
/// 1"), and one bad tool fails the whole request: an undescribed tool travels described by its
/// real name.
#[cfg(feature = "runtime")]
pub(crate) fn tool(form: &str, def: &ToolDefinition, schema: &Value, strict: bool) -> Value {
    let mut tool = json!({
        "toolSpec": {
            "name": form,
            "description": if def.description.is_empty() { &def.name } else { &def.description },
            "inputSchema": {"json": schema},
        },
    });
    if strict {
        tool["toolSpec"]["strict"] = Value::Bool(true);
    }
    tool
}
