//! Issue 18, points 4, 5, 6 and 8: a response's calls run and answered (`call_answers.rs`), each in
//! its `execute_tool` span (`spans.rs`), written in each format's shape and checked against the
//! recorded, SDK-validated answers of `fixtures/provider-wire/` (`wire.rs`), with MCP outputs that
//! keep their kind through a real rmcp server (`mcp_content.rs`).

mod call_answers;
mod converse_gemini;
mod mcp_content;
mod spans;
mod wire;
mod written;

use serde_json::{Map, Value};
use toolwire_core::wire::calls::ToolCall;

/// A call as a parser yields it: `id`, the called name, object arguments.
pub fn call(id: Option<&str>, name: &str, arguments: Value) -> ToolCall {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object")
    };
    ToolCall::new(id.map(str::to_owned), name, Ok(arguments), "/test")
}

/// An empty arguments object.
pub fn no_arguments() -> Map<String, Value> {
    Map::new()
}
