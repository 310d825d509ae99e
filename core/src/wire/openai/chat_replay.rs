//! Chat Completions: the assistant turn replayed in history (issue 18, point 7).
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//! Sources, read 2026-12:
//! - the turn is the choice's `message`, appended to `messages` as it came: the function
//!   calling guide (developers.openai.com/api/docs/guides/function-calling) appends
//!   `completion.choices[0].message` itself before the `tool` messages; its `tool_calls` are
//!   what the `tool` messages' `tool_call_id`s answer;
//! - a replayed called name outside `^[a-zA-Z0-9_-]+$` is refused: "Invalid
//!   'messages[9].tool_calls[0].function.name': string does not match pattern. Expected a
//!   string that matches the pattern '^[a-zA-Z0-9_-]+$'" (mcp-use/mcp-use #90;
//!   microsoft/semantic-kernel #7968). No length rule for a replayed name was found, so none is
//!   applied (the tool list's 64 is a definition's).
//!
//! Our own rule: the choice is the one the calls were read from (`index` 0, as `chat_calls.rs`).

use std::borrow::Cow;

use serde_json::Value;

use super::chat_calls::first_choice;
use crate::wire::calls::shape;
use crate::wire::calls::Fault;
use crate::wire::replay::{outside_form_chars, ReplayRules};

/// Chat Completions' replay.
pub(crate) const RULES: ReplayRules = ReplayRules {
    name_in_call: "/function/name",
    turn,
    refuses_in_history: outside_form_chars,
};

/// The assistant message of `body` (borrowed), and its pointer.
fn turn(body: &Value) -> Result<(String, Cow<'_, Value>), Fault> {
    let object = shape::object(body, "", "a chat.completion object")?;
    let choices = shape::array(object, "choices", "")?;
    let (position, choice) =
        first_choice(choices)?.ok_or_else(|| Fault::shape("/choices/0", "a choice object"))?;
    let pointer = format!("/choices/{position}");
    let missing = || Fault::shape(format!("{pointer}/message"), "an object");
    shape::opt_object(choice, "message", &pointer)?.ok_or_else(missing)?;
    let message = choice.get("message").ok_or_else(missing)?;
    Ok((format!("{pointer}/message"), Cow::Borrowed(message)))
}
