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

impl ArgumentsPlace {
    /// The arguments in a call's block, to move out of a body the caller owns.
    pub(crate) fn in_block<'v>(&self, block: &'v mut Value) -> Option<&'v mut Value> {
        at_mut(block, self.parent)?.get_mut(self.key)
    }

    /// Whether a call's block holds an object of arguments where
    /// [`in_block`](Self::in_block) looks.
    pub(crate) fn holds(&self, block: &Value) -> bool {
        at(block, self.parent)
            .and_then(|parent| parent.get(self.key))
            .is_some_and(Value::is_object)
    }
}

/// `Value::pointer` for a pointer this crate wrote (its tokens canonical), walked without the
/// two copies `Value::pointer` makes of each token to unescape it (measured:
/// `core/benches/calls.rs`); one with an escape goes the ordinary way.
pub(crate) fn at<'v>(value: &'v Value, pointer: &str) -> Option<&'v Value> {
    if pointer.contains('~') {
        return value.pointer(pointer);
    }
    let mut tokens = pointer.split('/');
    if tokens.next() != Some("") {
        return None;
    }
    tokens.try_fold(value, |value, token| match value {
        Value::Object(map) => map.get(token),
        Value::Array(items) => items.get(index(token)?),
        _ => None,
    })
}

/// [`at`], mutably.
pub(crate) fn at_mut<'v>(value: &'v mut Value, pointer: &str) -> Option<&'v mut Value> {
    if pointer.contains('~') {
        return value.pointer_mut(pointer);
    }
    let mut tokens = pointer.split('/');
    if tokens.next() != Some("") {
        return None;
    }
    tokens.try_fold(value, |value, token| match value {
        Value::Object(map) => map.get_mut(token),
        Value::Array(items) => items.get_mut(index(token)?),
        _ => None,
    })
}

/// An array index token as `Value::pointer` reads one: digits, no sign, no leading zero.
fn index(token: &str) -> Option<usize> {
    if token.starts_with('+') || (token.starts_with('0') && token.len() != 1) {
        return None;
    }
    token.parse().ok()
}

fn empty_object() -> Value {
    Value::Object(Map::new())
}

fn empty_text() -> Value {
    Value::String("{}".to_owned())
}
