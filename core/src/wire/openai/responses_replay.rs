//! The Responses API: the output items replayed in history (issue 18, point 7).
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//! Sources, read 2026-12:
//! - a caller who manages history appends every output item of the response to `input`, as
//!   returned: the function calling guide's loop does `input_list += response.output`
//!   (developers.openai.com/api/docs/guides/function-calling), and the reasoning guide asks
//!   for the reasoning items (with `encrypted_content` when not stored) to be passed back;
//!   the input item union takes each output item type (`ResponseInputItemParam`: messages,
//!   `ResponseFunctionToolCallParam`, `ResponseReasoningItemParam`, the built-in tool calls;
//!   openai-python 3.57 `types/responses/response_input_item_param.py`);
//! - a function call's item `id` must stay the provider's: "Invalid 'input[N].id': 'call_...'.
//!   Expected an ID that begins with 'fc'" (nodetool-ai/nodetool PR #4252);
//! - a replayed `function_call.name` with `:` is refused (earendil-works/pi #9852, as issue 18
//!   cites it; not found in the search corpus here). The pattern applied is Chat Completions'
//!   `^[a-zA-Z0-9_-]+$` (`chat_replay.rs`): our caution, of which `:` is the reported case.
//!   `namespace` is kept as it came: no rule for it was found.
//!
//! Replaying items alongside `previous_response_id` names them twice ("Duplicate item",
//! MacPaw/OpenAI #432): the replay is for history the app keeps itself.

use std::borrow::Cow;

use serde_json::Value;

use crate::wire::calls::shape;
use crate::wire::calls::Fault;
use crate::wire::replay::{outside_form_chars, ReplayRules};

/// The Responses API's replay.
pub(crate) const RULES: ReplayRules = ReplayRules {
    name_in_call: "/name",
    turn,
    refuses_in_history: outside_form_chars,
};

/// Every output item of `body`, as an array, and its pointer.
fn turn(body: &Value) -> Result<(String, Cow<'_, Value>), Fault> {
    let object = shape::object(body, "", "a response object")?;
    shape::array(object, "output", "")?;
    let output = object
        .get("output")
        .ok_or_else(|| Fault::shape("/output", "an array"))?;
    Ok(("/output".to_owned(), Cow::Borrowed(output)))
}
