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

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use crate::wire::calls::direct::{self, IsStr, OptIndex, OptString, Seen, SkipValue, Unplaced};
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

/// The direct read of a body (`calls::direct`): the calls [`parse`] gives of the pruned body,
/// or an error where it gives up. The choice of `index` 0 is known only at its end (`index` may
/// come after `message`), so each choice's calls are read until then; a choice whose `index`
/// came first and is not 0 is only checked, and once the turn's choice has ended the rest are.
pub(crate) struct Direct {
    pub(crate) limit: usize,
}

impl<'de> DeserializeSeed<'de> for Direct {
    type Value = Vec<ToolCall>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Direct {
    type Value = Vec<ToolCall>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a chat.completion object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<Self::Value, A::Error> {
        let mut calls = None;
        while let Some(key) = direct::next_key(&mut members)? {
            if key != "choices" {
                members.next_value_seed(SkipValue)?;
            } else if calls.is_some() {
                return Err(direct::give_up());
            } else {
                calls = Some(members.next_value_seed(Choices(self.limit))?);
            }
        }
        // No `choices` is the parser's fault.
        calls.ok_or_else(direct::give_up)
    }
}

/// `choices`: the calls of the first of `index` 0 (none if no choice is).
struct Choices(usize);

impl<'de> DeserializeSeed<'de> for Choices {
    type Value = Vec<ToolCall>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Choices {
    type Value = Vec<ToolCall>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("an array of choices")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Self::Value, A::Error> {
        let mut position = 0;
        let turn = loop {
            let choice = DirectChoice {
                limit: self.0,
                position,
            };
            match items.next_element_seed(choice)? {
                None => break Vec::new(),
                Some(Some(calls)) => break calls,
                Some(None) => position += 1,
            }
        };
        // The parser reads no choice after the turn's.
        while items.next_element_seed(SkipValue)?.is_some() {}
        Ok(turn)
    }
}

/// One choice: its calls if it is the turn's (`index` 0, or absent at position 0).
struct DirectChoice {
    limit: usize,
    position: usize,
}

impl<'de> DeserializeSeed<'de> for DirectChoice {
    type Value = Option<Vec<ToolCall>>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for DirectChoice {
    type Value = Option<Vec<ToolCall>>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a choice object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<Self::Value, A::Error> {
        let mut seen = Seen::default();
        let mut index = None;
        let mut message = None;
        while let Some(key) = direct::next_key(&mut members)? {
            match &*key {
                "index" => {
                    seen.first(0)?;
                    index = members.next_value_seed(OptIndex)?;
                }
                "message" => {
                    seen.first(1)?;
                    if index.is_some_and(|index| index != 0) {
                        members.next_value_seed(SkipValue)?;
                    } else {
                        let prefix = format!("/choices/{}/message/tool_calls/", self.position);
                        message = members.next_value_seed(Message {
                            limit: self.limit,
                            prefix: &prefix,
                        })?;
                    }
                }
                _ => members.next_value_seed(SkipValue)?,
            }
        }
        if index.unwrap_or(self.position as u64) != 0 {
            return Ok(None);
        }
        // The turn's choice without a message is the parser's fault.
        message.map(Some).ok_or_else(direct::give_up)
    }
}

/// A choice's `message`: its function calls (`None` for `null`).
struct Message<'p> {
    limit: usize,
    prefix: &'p str,
}

impl<'de> DeserializeSeed<'de> for Message<'_> {
    type Value = Option<Vec<ToolCall>>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Message<'_> {
    type Value = Option<Vec<ToolCall>>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a message object")
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<Self::Value, A::Error> {
        let mut calls = None;
        while let Some(key) = direct::next_key(&mut members)? {
            if key != "tool_calls" {
                members.next_value_seed(SkipValue)?;
            } else if calls.is_some() {
                return Err(direct::give_up());
            } else {
                calls = Some(members.next_value_seed(ToolCalls {
                    limit: self.limit,
                    prefix: self.prefix,
                })?);
            }
        }
        Ok(Some(calls.flatten().unwrap_or_default()))
    }
}

/// `tool_calls`: its function calls, through a sink of their own (the turn's calls are one
/// choice's), which gives up where it would refuse one (`None` for `null`).
struct ToolCalls<'p> {
    limit: usize,
    prefix: &'p str,
}

impl<'de> DeserializeSeed<'de> for ToolCalls<'_> {
    type Value = Option<Vec<ToolCall>>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ToolCalls<'_> {
    type Value = Option<Vec<ToolCall>>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("an array of tool calls")
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Self::Value, A::Error> {
        let mut sink = CallSink::new(self.limit);
        let mut position = 0;
        while let Some(call) = items.next_element_seed(DirectCall(self.limit))? {
            if let Some(call) = call {
                let call = call.at(direct::pointer(self.prefix, position));
                sink.add_with_id(call).map_err(|_| direct::give_up())?;
            }
            position += 1;
        }
        Ok(Some(sink.take()))
    }
}

/// One tool call: a function call's id, name and arguments (`None` for another type).
struct DirectCall(usize);

impl<'de> DeserializeSeed<'de> for DirectCall {
    type Value = Option<Unplaced>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for DirectCall {
    type Value = Option<Unplaced>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a tool call object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<Self::Value, A::Error> {
        let mut seen = Seen::default();
        // `type` absent or `null` is a function call (`is_function_call`).
        let mut function_type = true;
        let mut id = None;
        let mut function = None;
        while let Some(key) = direct::next_key(&mut members)? {
            match &*key {
                "type" => {
                    seen.first(0)?;
                    function_type = members.next_value_seed(IsStr("function"))? != Some(false);
                }
                // The parser reads nothing else of a call of another type.
                _ if !function_type => members.next_value_seed(SkipValue)?,
                "id" => {
                    seen.first(1)?;
                    id = members.next_value_seed(OptString)?;
                }
                "function" => {
                    seen.first(2)?;
                    function = members.next_value_seed(Function(self.0))?;
                }
                _ => members.next_value_seed(SkipValue)?,
            }
        }
        if !function_type {
            return Ok(None);
        }
        // A function call without `function` is the parser's fault.
        let (name, arguments) = function.ok_or_else(direct::give_up)?;
        Ok(Some(Unplaced {
            id: id.filter(|id| !id.is_empty()),
            name: name.unwrap_or_default(),
            arguments,
        }))
    }
}

/// A call's `function`: its name and arguments (`None` for `null`).
struct Function(usize);

impl<'de> DeserializeSeed<'de> for Function {
    type Value = Option<(Option<String>, Result<Arguments, ArgumentsError>)>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Function {
    type Value = Option<(Option<String>, Result<Arguments, ArgumentsError>)>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a function object")
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<Self::Value, A::Error> {
        let mut seen = Seen::default();
        let mut name = None;
        let mut arguments = Ok(Arguments::new());
        while let Some(key) = direct::next_key(&mut members)? {
            match &*key {
                "name" => {
                    seen.first(0)?;
                    name = members.next_value_seed(OptString)?;
                }
                "arguments" => {
                    seen.first(1)?;
                    arguments = members.next_value_seed(TextArguments(self.0))?;
                }
                _ => members.next_value_seed(SkipValue)?,
            }
        }
        Ok(Some((name, arguments)))
    }
}

/// A call's `arguments` read directly, as [`arguments_member`] takes the member: a string
/// parsed from the text as read (borrowed, or unescaped once), any other value as `Value`
/// reads it (`null` is absent).
pub(super) struct TextArguments(pub(super) usize);

impl<'de> DeserializeSeed<'de> for TextArguments {
    type Value = Result<Arguments, ArgumentsError>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl TextArguments {
    fn of<E>(self, value: Value) -> Result<Result<Arguments, ArgumentsError>, E> {
        Ok(arguments_member(
            Some(&value).filter(|v| !v.is_null()),
            self.0,
        ))
    }
}

impl<'de> Visitor<'de> for TextArguments {
    type Value = Result<Arguments, ArgumentsError>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any valid JSON value")
    }

    fn visit_str<E>(self, text: &str) -> Result<Self::Value, E> {
        Ok(arguments_from_text(text, self.0))
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        self.of(Value::Null)
    }

    fn visit_bool<E>(self, value: bool) -> Result<Self::Value, E> {
        self.of(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Self::Value, E> {
        self.of(Value::from(value))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Self::Value, E> {
        self.of(Value::from(value))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Self::Value, E> {
        self.of(direct::value_of_f64(value))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, items: A) -> Result<Self::Value, A::Error> {
        self.of(direct::value_of_seq(items)?)
    }

    fn visit_map<A: MapAccess<'de>>(self, members: A) -> Result<Self::Value, A::Error> {
        self.of(direct::value_of_map(members)?)
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
