//! Bedrock Converse: the assistant turn replayed in history (issue 18, point 7).
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//! Sources, read 2026-12 (botocore 1.43 `bedrock-runtime` service model, API 2023-09-30; the
//! tool use guide, docs.aws.amazon.com/bedrock/latest/userguide/tool-use.html):
//! - the turn is `output.message` as it came, appended to `messages` (the guide's example
//!   appends `response['output']['message']`); `reasoningContent` comes back with its text and
//!   signature unmodified (`ReasoningTextBlock`);
//! - `ToolUseBlock.name` is a `ToolName`: pattern `[a-zA-Z0-9_-]+`, length 1 to 64, checked in
//!   history too: "Value at 'messages.N.member.content.M.member.toolUse.name' failed to satisfy
//!   constraint" for a hallucinated `$READFILE` (vercel/ai #10202, fixed by PR #17769; opencode
//!   PR #48750 for `browser.tabs.open`). Such a name is replayed as its model-safe form.

use std::borrow::Cow;

use serde_json::Value;

use crate::names::is_model_safe;
use crate::wire::calls::shape;
use crate::wire::calls::Fault;
use crate::wire::replay::ReplayRules;

/// Converse's replay.
pub(crate) const RULES: ReplayRules = ReplayRules {
    name_in_call: "/toolUse/name",
    turn,
    refuses_in_history,
};

/// `output.message` of `body`, and its pointer.
fn turn(body: &Value) -> Result<(String, Cow<'_, Value>), Fault> {
    let object = shape::object(body, "", "a ConverseResponse object")?;
    let output = shape::opt_object(object, "output", "")?
        .ok_or_else(|| Fault::shape("/output", "a ConverseOutput object"))?;
    let missing = || Fault::shape("/output/message", "a Message object");
    shape::opt_object(output, "message", "/output")?.ok_or_else(missing)?;
    let message = output.get("message").ok_or_else(missing)?;
    Ok(("/output/message".to_owned(), Cow::Borrowed(message)))
}

/// Outside `ToolName`: `[a-zA-Z0-9_-]{1,64}`, the model-safe forms exactly.
fn refuses_in_history(name: &str) -> bool {
    !is_model_safe(name)
}
