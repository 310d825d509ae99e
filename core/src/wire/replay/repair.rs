//! The repair of a call whose arguments never became a JSON object (issue 26, point 3): such a
//! call is answered as an error, and replayed with empty arguments, because history with a
//! string `input` is refused: the Messages API's `tool_use.input` is an object
//! (`ToolUseBlockParam.input: Dict[str, object]`, anthropic-sdk-python 2.15
//! `types/tool_use_block_param.py`), Converse's `toolUse.input` a JSON document
//! (`ToolUseBlock.input`, Bedrock Runtime API reference), Gemini's `functionCall.args` an object
//! (`FunctionCall.args: Optional[dict[str, Any]]`, google-genai `types.py`). Chat Completions and
//! the Responses API carry arguments as a string; a text that is not a JSON object is replayed
//! as `"{}"` there too (our caution: the answer already says the call failed, and the same rule
//! in every format keeps history one shape).
//!
//! Policy: the replayed copy carries the empty arguments at the call's arguments member, and
//! [`Replay::repaired`](super::Replay::repaired) says so, as renames are reported.

use serde_json::{Map, Value};

use crate::wire::calls::CallFormat;

/// Where a call's arguments sit in its block (the block's object member, as a pointer from the
/// block, and the member's key), and the empty arguments in the format's own type.
pub(super) struct ArgumentsPlace {
    pub(super) parent: &'static str,
    pub(super) key: &'static str,
    pub(super) empty: fn() -> Value,
}

fn empty_object() -> Value {
    Value::Object(Map::new())
}

fn empty_text() -> Value {
    Value::String("{}".to_owned())
}

/// Each format's place (the members its body parser reads: `wire/<provider>/calls.rs`).
pub(super) fn arguments_place(format: CallFormat) -> ArgumentsPlace {
    let (parent, key, empty): (_, _, fn() -> Value) = match format {
        CallFormat::OpenAiChat => ("/function", "arguments", empty_text),
        CallFormat::OpenAiResponses => ("", "arguments", empty_text),
        CallFormat::Anthropic => ("", "input", empty_object),
        CallFormat::Converse => ("/toolUse", "input", empty_object),
        CallFormat::Gemini => ("/functionCall", "args", empty_object),
    };
    ArgumentsPlace { parent, key, empty }
}
