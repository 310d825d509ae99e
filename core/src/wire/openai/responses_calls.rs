//! The Responses API: the client tool calls of a response body (hop 4).
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//! Sources, read 2026-12 (openai-python 3.57 types; the function calling guide,
//! developers.openai.com/api/docs/guides/function-calling; the tool search guide for
//! namespaces):
//! - `Response.output` is a list of items (`types/responses/response.py`); a client function
//!   call is the item `{type: "function_call", id, call_id, name, arguments: str, namespace?}`
//!   (`response_function_tool_call.py`): `call_id` is what the answer's
//!   `function_call_output.call_id` names, `id` the item's own (`fc_…`), `namespace` "the
//!   namespace of the function to run" for a tool sent inside a `namespace` tool;
//! - `reasoning`, `message`, `web_search_call` and the other built-in tool items of the output
//!   union are the provider's (`response_reasoning_item.py`, `response_output_message.py`,
//!   `response_function_web_search.py`): not calls, kept in the body for the replay.
//!
//! Our own rule: other client-executed items (`custom_tool_call`, `computer_call`,
//! `local_shell_call`, …) answer tools toolwire never sends, so they stay in the body for the
//! app.

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::chat_calls::{arguments_member, TextArguments};
use crate::wire::calls::direct::{self, IsStr, OptString, Seen, SkipValue};
use crate::wire::calls::pruned::Keep;
use crate::wire::calls::shape::{self, member};
use crate::wire::calls::sink::CallSink;
use crate::wire::calls::{Arguments, Fault, ToolCall};

/// What [`parse`] reads of a body: of each output item, `type`, `call_id`, `name`,
/// `namespace` and `arguments`.
pub(crate) const READ: Keep = Keep::Members(&[(
    "output",
    Keep::Items(&Keep::Members(&[
        ("type", Keep::All),
        ("call_id", Keep::All),
        ("name", Keep::All),
        ("namespace", Keep::All),
        ("arguments", Keep::All),
    ])),
)]);

/// The calls of `body`, added to `sink` in order.
pub(crate) fn parse(body: &Value, sink: &mut CallSink) -> Result<(), Fault> {
    let body = shape::object(body, "", "a response object")?;
    let output = shape::array(body, "output", "")?;
    for (position, item) in output.iter().enumerate() {
        let pointer = format!("/output/{position}");
        let item = shape::object(item, &pointer, "an output item object")?;
        if shape::opt_str(item, "type", &pointer)? != Some("function_call") {
            continue;
        }
        sink.add_with_id(function_call(item, pointer, sink.limit())?)?;
    }
    Ok(())
}

/// One `function_call` item as a call (a body's item, or a stream's done item).
pub(super) fn function_call(
    item: &serde_json::Map<String, Value>,
    pointer: String,
    limit: usize,
) -> Result<ToolCall, Fault> {
    let id = shape::opt_id(item, "call_id", &pointer)?;
    let name = shape::opt_str(item, "name", &pointer)?.unwrap_or_default();
    let namespace = shape::opt_str(item, "namespace", &pointer)?;
    let arguments = arguments_member(member(item, "arguments"), limit);
    let call = ToolCall::new(id, name, arguments, pointer);
    Ok(match namespace {
        Some(namespace) => call.in_namespace(namespace),
        None => call,
    })
}

/// The direct read of a body (`calls::direct`): the calls [`parse`] gives of the pruned body,
/// or an error where it gives up.
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
        formatter.write_str("a response object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<Self::Value, A::Error> {
        let mut calls = None;
        while let Some(key) = direct::next_key(&mut members)? {
            if key != "output" {
                members.next_value_seed(SkipValue)?;
            } else if calls.is_some() {
                return Err(direct::give_up());
            } else {
                calls = Some(members.next_value_seed(Output(self.limit))?);
            }
        }
        // No `output` is the parser's fault.
        calls.ok_or_else(direct::give_up)
    }
}

/// `output`: its function calls, through the turn's sink, which gives up where it would refuse
/// one.
struct Output(usize);

impl<'de> DeserializeSeed<'de> for Output {
    type Value = Vec<ToolCall>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Output {
    type Value = Vec<ToolCall>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("an array of output items")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Self::Value, A::Error> {
        let mut sink = CallSink::new(self.0);
        let mut position = 0;
        while let Some(item) = items.next_element_seed(Item {
            limit: self.0,
            position,
        })? {
            if let Some(call) = item {
                sink.add_with_id(call).map_err(|_| direct::give_up())?;
            }
            position += 1;
        }
        Ok(sink.take())
    }
}

/// One output item: a call if it is a `function_call`.
struct Item {
    limit: usize,
    position: usize,
}

impl<'de> DeserializeSeed<'de> for Item {
    type Value = Option<ToolCall>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Item {
    type Value = Option<ToolCall>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("an output item object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<Self::Value, A::Error> {
        let mut seen = Seen::default();
        // `None` until `type` is met; a call only if it is `function_call`.
        let mut is_call = None;
        let mut id = None;
        let mut name = None;
        let mut namespace = None;
        let mut arguments = Ok(Arguments::new());
        while let Some(key) = direct::next_key(&mut members)? {
            match &*key {
                "type" => {
                    seen.first(0)?;
                    is_call = Some(members.next_value_seed(IsStr("function_call"))? == Some(true));
                }
                // The parser reads nothing else of another item.
                _ if is_call == Some(false) => members.next_value_seed(SkipValue)?,
                "call_id" => {
                    seen.first(1)?;
                    id = members.next_value_seed(OptString)?;
                }
                "name" => {
                    seen.first(2)?;
                    name = members.next_value_seed(OptString)?;
                }
                "namespace" => {
                    seen.first(3)?;
                    namespace = members.next_value_seed(OptString)?;
                }
                "arguments" => {
                    seen.first(4)?;
                    arguments = members.next_value_seed(TextArguments(self.limit))?;
                }
                _ => members.next_value_seed(SkipValue)?,
            }
        }
        if is_call != Some(true) {
            return Ok(None);
        }
        let pointer = direct::pointer("/output/", self.position);
        let call = ToolCall::new(
            id.filter(|id| !id.is_empty()),
            name.unwrap_or_default(),
            arguments,
            pointer,
        );
        Ok(Some(match namespace {
            Some(namespace) => call.in_namespace(namespace),
            None => call,
        }))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn provider_items_are_not_calls_and_keep_their_place() {
        let body = json!({"output": [
            {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "x"},
            {"type": "web_search_call", "id": "ws_1", "status": "completed"},
            {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f",
             "arguments": "{}", "namespace": "mcp_github"},
        ]});
        let mut sink = CallSink::new(1024);
        parse(&body, &mut sink).unwrap();
        let calls = sink.take();
        assert_eq!(calls.len(), 1);
        assert_eq!(calls[0].pointer, "/output/2");
        assert_eq!(calls[0].id.as_deref(), Some("call_1"));
        assert_eq!(calls[0].namespace.as_deref(), Some("mcp_github"));
    }
}
