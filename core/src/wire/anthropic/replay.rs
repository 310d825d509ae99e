//! The Messages API: the assistant turn replayed in history (issue 18, point 7).
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//! Sources, read 2026-12:
//! - the turn is `{"role": "assistant", "content": <the response's content>}`: the tool use
//!   guide appends the response's content as the assistant message before the `tool_result`s
//!   (platform.claude.com/docs/en/agents-and-tools/tool-use/overview); thinking blocks come back
//!   unchanged with their `signature` (`ThinkingBlock.signature`, anthropic-sdk-python 2.15;
//!   the extended thinking guide: the blocks of the last assistant turn must be passed back
//!   as they were);
//! - no character rule for a replayed `tool_use.name` was found; the one limit found is its
//!   length: at most 200 characters (openclaw/openclaw #13134). A longer name is replayed as
//!   its model-safe form.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::wire::calls::shape;
use crate::wire::calls::Fault;
use crate::wire::replay::ReplayRules;

/// The Messages API's replay.
pub(crate) const RULES: ReplayRules = ReplayRules {
    name_in_call: "/name",
    turn,
    refuses_in_history,
};

/// The assistant message of `body`: its `content`, at the same pointers.
fn turn(body: &Value) -> Result<(String, Cow<'_, Value>), Fault> {
    let object = shape::object(body, "", "a message object")?;
    let content = shape::array(object, "content", "")?;
    // A message of the body's `content` alone (the response also carries `id`, `model`,
    // `usage`...), so it is built, never borrowed: the `content` cloned (a `json!` of it would
    // serialize it into a new tree, slower than the clone).
    let mut message = Map::new();
    message.insert("role".to_owned(), Value::from("assistant"));
    message.insert("content".to_owned(), Value::Array(content.to_vec()));
    Ok((String::new(), Cow::Owned(Value::Object(message))))
}

fn refuses_in_history(name: &str) -> bool {
    name.chars().count() > super::HISTORY_NAME_MAX_CHARS
}
