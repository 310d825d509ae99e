//! Chat Completions: the client tool calls of a response body (hop 4).
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//! Sources, read 2026-12 (openai-python 3.57 types; the Chat Completions API reference,
//! platform.openai.com/docs/api-reference/chat/create; the function calling guide):
//! - `ChatCompletion.choices: List[Choice]`, `Choice.message: ChatCompletionMessage`,
//!   `ChatCompletionMessage.tool_calls: Optional[List[…]]` (`types/chat/chat_completion.py`,
//!   `chat_completion_message.py`);
//! - a function call is `{id: str, type: "function", function: {name: str, arguments: str}}`
//!   (`chat_completion_message_function_tool_call.py`), `arguments` "in JSON format" as the
//!   model generated it, so possibly not JSON ("the model does not always generate valid
//!   JSON": the `Function.arguments` docstring).
//!
//! Our own rules: only the choice of `index` 0 is the turn (with `n` > 1 the other choices are
//! alternatives the app picks between, not more calls); a tool call of another `type` (a
//! `custom` tool's, `chat_completion_message_custom_tool_call.py`) answers a tool toolwire never
//! sends, so it stays in the body for the app; `arguments` sent as an object (some
//! OpenAI-compatible servers do) is taken as the object it is.

use serde_json::Value;

use crate::wire::calls::pruned::Keep;
use crate::wire::calls::shape::{self, member};
use crate::wire::calls::sink::CallSink;
use crate::wire::calls::{arguments_from_text, Arguments, ArgumentsError, Fault, ToolCall};

/// What [`parse`] reads of a body: `choices[].index`, and of its message the tool calls'
/// `type`, `id` and `function` (`name`, `arguments`).
pub(crate) const READ: Keep = Keep::Members(&[(
    "choices",
    Keep::Items(&Keep::Members(&[
        ("index", Keep::All),
        (
            "message",
            Keep::Members(&[(
                "tool_calls",
                Keep::Items(&Keep::Members(&[
                    ("type", Keep::All),
                    ("id", Keep::All),
                    (
                        "function",
                        Keep::Members(&[("name", Keep::All), ("arguments", Keep::All)]),
                    ),
                ])),
            )]),
        ),
    ])),
)]);

/// The calls of `body`, added to `sink` in order.
pub(crate) fn parse(body: &Value, sink: &mut CallSink) -> Result<(), Fault> {
    let body = shape::object(body, "", "a chat.completion object")?;
    let choices = shape::array(body, "choices", "")?;
    let Some((choice_position, choice)) = first_choice(choices)? else {
        return Ok(());
    };
    let choice_pointer = format!("/choices/{choice_position}");
    let message_pointer = format!("{choice_pointer}/message");
    let message = shape::opt_object(choice, "message", &choice_pointer)?
        .ok_or_else(|| Fault::shape(message_pointer.clone(), "an object"))?;
    let Some(tool_calls) = shape::opt_array(message, "tool_calls", &message_pointer)? else {
        return Ok(());
    };
    for (position, call) in tool_calls.iter().enumerate() {
        let pointer = format!("{message_pointer}/tool_calls/{position}");
        let call = shape::object(call, &pointer, "a tool call object")?;
        if !is_function_call(call, &pointer)? {
            continue;
        }
        let id = shape::opt_id(call, "id", &pointer)?;
        let function = shape::opt_object(call, "function", &pointer)?
            .ok_or_else(|| Fault::shape(format!("{pointer}/function"), "an object"))?;
        let function_pointer = shape::Under(&pointer, "function");
        let name = shape::opt_str(function, "name", function_pointer)?.unwrap_or_default();
        let arguments = arguments_member(member(function, "arguments"), sink.limit());
        sink.add_with_id(ToolCall::new(id, name, arguments, pointer))?;
    }
    Ok(())
}

/// A choice of a body, with its position in `choices`.
type Choice<'v> = (usize, &'v serde_json::Map<String, Value>);

/// The choice of `index` 0 (or the first, if it has no `index`), with its position.
pub(super) fn first_choice(choices: &[Value]) -> Result<Option<Choice<'_>>, Fault> {
    for (position, choice) in choices.iter().enumerate() {
        let pointer = format!("/choices/{position}");
        let choice = shape::object(choice, &pointer, "a choice object")?;
        if shape::opt_index(choice, "index", &pointer)?.unwrap_or(position as u64) == 0 {
            return Ok(Some((position, choice)));
        }
    }
    Ok(None)
}

/// Whether a tool call is a function's: `type: "function"`, or no type (older servers).
pub(super) fn is_function_call(
    call: &serde_json::Map<String, Value>,
    pointer: &str,
) -> Result<bool, Fault> {
    Ok(matches!(
        shape::opt_str(call, "type", pointer)?,
        None | Some("function")
    ))
}

/// A call's `arguments`: a JSON string (what OpenAI sends), absent (`{}`), or an object as some
/// compatible servers send it.
pub(super) fn arguments_member(
    value: Option<&Value>,
    limit: usize,
) -> Result<Arguments, ArgumentsError> {
    match value {
        None => Ok(Arguments::new()),
        Some(Value::String(text)) => arguments_from_text(text, limit),
        Some(Value::Object(object)) => Ok(object.clone()),
        Some(other) => Err(ArgumentsError::NotObject {
            found: crate::wire::calls::json_kind(other),
        }),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn calls(body: Value) -> Result<Vec<ToolCall>, Fault> {
        let mut sink = CallSink::new(1024);
        parse(&body, &mut sink)?;
        Ok(sink.take())
    }

    fn body(tool_calls: Value) -> Value {
        json!({"choices": [{"index": 0, "message": {"role": "assistant", "tool_calls": tool_calls}}]})
    }

    #[test]
    fn a_custom_tool_call_is_not_a_function_call() {
        let found = calls(body(json!([
            {"id": "call_1", "type": "custom", "custom": {"name": "grammar", "input": "x"}},
            {"id": "call_2", "type": "function", "function": {"name": "f", "arguments": "{}"}},
        ])))
        .unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].pointer, "/choices/0/message/tool_calls/1");
    }

    #[test]
    fn a_message_without_tool_calls_has_none() {
        assert_eq!(calls(body(Value::Null)).unwrap(), []);
        assert_eq!(calls(json!({"choices": []})).unwrap(), []);
    }

    #[test]
    fn a_call_without_an_id_is_refused() {
        let fault = calls(body(
            json!([{"type": "function", "function": {"name": "f"}}]),
        ));
        assert!(matches!(fault, Err(Fault::MissingId { .. })), "{fault:?}");
    }

    #[test]
    fn object_arguments_from_a_compatible_server_are_taken() {
        let found = calls(body(json!([
            {"id": "c", "type": "function", "function": {"name": "f", "arguments": {"a": 1}}},
        ])))
        .unwrap();
        assert_eq!(found[0].arguments.as_ref().unwrap()["a"], 1);
    }
}
