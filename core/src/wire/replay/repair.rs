//! The repair of a call whose arguments never became a JSON object: such a
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

/// Where a call's arguments sit in its block (the block's object member, as a pointer from the
/// block, and the member's key), and the empty arguments in the format's own type. Each API
/// gives its own ([`LlmApi::arguments_place`](crate::wire::api::LlmApi::arguments_place)): the
/// members its body parser reads.
pub(crate) struct ArgumentsPlace {
    pub(super) parent: &'static str,
    pub(super) key: &'static str,
    pub(super) empty: fn() -> Value,
}

impl ArgumentsPlace {
    /// Arguments carried as a JSON object, at `key` of the block's member `parent`.
    pub(crate) const fn object(parent: &'static str, key: &'static str) -> ArgumentsPlace {
        ArgumentsPlace {
            parent,
            key,
            empty: empty_object,
        }
    }

    /// Arguments carried as JSON text, at `key` of the block's member `parent`: empty is `"{}"`.
    pub(crate) const fn text(parent: &'static str, key: &'static str) -> ArgumentsPlace {
        ArgumentsPlace {
            parent,
            key,
            empty: empty_text,
        }
    }
}

fn empty_object() -> Value {
    Value::Object(Map::new())
}

fn empty_text() -> Value {
    Value::String("{}".to_owned())
}
