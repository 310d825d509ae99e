//! Bedrock Converse: the client tool calls of a response body (hop 4).
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//! Sources, read 2026-12 (botocore 1.43 `bedrock-runtime` service model, API 2023-09-30; the
//! tool use guide, docs.aws.amazon.com/bedrock/latest/userguide/tool-use.html):
//! - `ConverseResponse.output` is a `ConverseOutput` whose `message.content` is a list of
//!   `ContentBlock`s, each with one member set; a call is `toolUse`, a `ToolUseBlock`
//!   `{toolUseId, name, input, type?}`;
//! - `input` is a `Document`: any JSON value, so a string input is shape-legal and only an
//!   object is arguments (an error of that call otherwise);
//! - a `toolUse` whose `type` is `server_tool_use` is a system tool Bedrock runs itself (Nova's
//!   `nova_code_interpreter`), answered by the `toolResult` block beside it in the assistant
//!   message; `reasoningContent` (its signature replayed unmodified, `ReasoningTextBlock`) and
//!   `text` are the model's. None is a client call; all stay in the body for the replay.

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use crate::wire::calls::direct::{
    self, IsStr, ObjectArguments, OptString, Seen, SkipValue, Unplaced,
};
use crate::wire::calls::pruned::Keep;
use crate::wire::calls::shape::{self, member};
use crate::wire::calls::sink::CallSink;
use crate::wire::calls::{Arguments, Fault, ToolCall};

/// The value of `ToolUseBlock.type` (and `ToolUseBlockStart.type`) of a system tool.
pub(super) const SERVER_TOOL_USE: &str = "server_tool_use";

/// What [`parse`] reads of a body: of each block of `output.message.content`, `toolUse`'s
/// `type`, `toolUseId`, `name` and `input`.
pub(crate) const READ: Keep = Keep::Members(&[(
    "output",
    Keep::Members(&[(
        "message",
        Keep::Members(&[(
            "content",
            Keep::Items(&Keep::Members(&[(
                "toolUse",
                Keep::Members(&[
                    ("type", Keep::All),
                    ("toolUseId", Keep::All),
                    ("name", Keep::All),
                    ("input", Keep::All),
                ]),
            )])),
        )]),
    )]),
)]);

/// The calls of `body`, added to `sink` in order.
pub(crate) fn parse(body: &Value, sink: &mut CallSink) -> Result<(), Fault> {
    let body = shape::object(body, "", "a ConverseResponse object")?;
    let output = shape::opt_object(body, "output", "")?
        .ok_or_else(|| Fault::shape("/output", "a ConverseOutput object"))?;
    let message = shape::opt_object(output, "message", "/output")?
        .ok_or_else(|| Fault::shape("/output/message", "a Message object"))?;
    let content = shape::array(message, "content", "/output/message")?;
    for (position, block) in content.iter().enumerate() {
        let pointer = format!("/output/message/content/{position}");
        let block = shape::object(block, &pointer, "a ContentBlock object")?;
        let Some(tool_use) = shape::opt_object(block, "toolUse", &pointer)? else {
            continue;
        };
        let tool_use_pointer = || shape::Under(&pointer, "toolUse");
        if is_server_tool(tool_use, tool_use_pointer())? {
            continue;
        }
        let id = shape::opt_id(tool_use, "toolUseId", tool_use_pointer())?;
        let name = shape::opt_str(tool_use, "name", tool_use_pointer())?.unwrap_or_default();
        // The limit applies to an `input` that arrives as an object too.
        let arguments = sink.object_arguments(member(tool_use, "input"));
        sink.add_with_id(ToolCall::new(id, name, arguments, pointer))?;
    }
    Ok(())
}

/// Whether a `toolUse` (or its stream start) is a system tool's.
pub(super) fn is_server_tool(
    tool_use: &Map<String, Value>,
    pointer: impl std::fmt::Display,
) -> Result<bool, Fault> {
    Ok(shape::opt_str(tool_use, "type", pointer)? == Some(SERVER_TOOL_USE))
}

/// The direct read of a body (`calls::direct`): the calls [`parse`] gives of the pruned body,
/// or an error where it gives up. `output`, its `message` and its `content` are each one
/// member the parser requires: [`Required`] reads them.
pub(crate) struct Direct {
    pub(crate) limit: usize,
}

impl<'de> DeserializeSeed<'de> for Direct {
    type Value = Vec<ToolCall>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        Required(
            "output",
            Required("message", Required("content", Content(self.limit))),
        )
        .deserialize(deserializer)
    }
}

/// An object of which only the member `.0` is read, which must be there and is read by `.1`.
struct Required<S>(&'static str, S);

impl<'de, S: DeserializeSeed<'de, Value = Vec<ToolCall>>> DeserializeSeed<'de> for Required<S> {
    type Value = Vec<ToolCall>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de, S: DeserializeSeed<'de, Value = Vec<ToolCall>>> Visitor<'de> for Required<S> {
    type Value = Vec<ToolCall>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        write!(formatter, "an object with `{}`", self.0)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<Self::Value, A::Error> {
        let Required(wanted, inner) = self;
        let mut inner = Some(inner);
        let mut calls = None;
        while let Some(key) = direct::next_key(&mut members)? {
            if key != wanted {
                members.next_value_seed(SkipValue)?;
                continue;
            }
            // Read once: a second is given up on, before `inner` would be needed again.
            let Some(seed) = inner.take() else {
                return Err(direct::give_up());
            };
            calls = Some(members.next_value_seed(seed)?);
        }
        // Absent is the parser's fault.
        calls.ok_or_else(direct::give_up)
    }
}

/// `content`: its client `toolUse` blocks, through the turn's sink, which gives up where it
/// would refuse one.
struct Content(usize);

impl<'de> DeserializeSeed<'de> for Content {
    type Value = Vec<ToolCall>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Content {
    type Value = Vec<ToolCall>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("an array of ContentBlocks")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Self::Value, A::Error> {
        let mut sink = CallSink::new(self.0);
        let mut position = 0;
        while let Some(block) = items.next_element_seed(Block(self.0))? {
            if let Some(call) = block {
                let pointer = direct::pointer("/output/message/content/", position);
                sink.add_with_id(call.at(pointer))
                    .map_err(|_| direct::give_up())?;
            }
            position += 1;
        }
        Ok(sink.take())
    }
}

/// One ContentBlock: a call if its `toolUse` is a client's.
struct Block(usize);

impl<'de> DeserializeSeed<'de> for Block {
    type Value = Option<Unplaced>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Block {
    type Value = Option<Unplaced>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a ContentBlock object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<Self::Value, A::Error> {
        let mut call = None;
        let mut seen = false;
        while let Some(key) = direct::next_key(&mut members)? {
            if key != "toolUse" {
                members.next_value_seed(SkipValue)?;
            } else if std::mem::replace(&mut seen, true) {
                return Err(direct::give_up());
            } else {
                call = members.next_value_seed(ToolUse(self.0))?;
            }
        }
        Ok(call)
    }
}

/// A `toolUse`: the call, unless it is `null` or a system tool's.
struct ToolUse(usize);

impl<'de> DeserializeSeed<'de> for ToolUse {
    type Value = Option<Unplaced>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ToolUse {
    type Value = Option<Unplaced>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a ToolUseBlock object")
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<Self::Value, A::Error> {
        let mut seen = Seen::default();
        let mut server_tool = false;
        let mut id = None;
        let mut name = None;
        let mut arguments = Ok(Arguments::new());
        while let Some(key) = direct::next_key(&mut members)? {
            match &*key {
                "type" => {
                    seen.first(0)?;
                    server_tool = members.next_value_seed(IsStr(SERVER_TOOL_USE))? == Some(true);
                }
                // The parser reads nothing else of a system tool's.
                _ if server_tool => members.next_value_seed(SkipValue)?,
                "toolUseId" => {
                    seen.first(1)?;
                    id = members.next_value_seed(OptString)?;
                }
                "name" => {
                    seen.first(2)?;
                    name = members.next_value_seed(OptString)?;
                }
                "input" => {
                    seen.first(3)?;
                    arguments = members.next_value_seed(ObjectArguments(self.0))?;
                }
                _ => members.next_value_seed(SkipValue)?,
            }
        }
        if server_tool {
            return Ok(None);
        }
        Ok(Some(Unplaced {
            id: id.filter(|id| !id.is_empty()),
            name: name.unwrap_or_default(),
            arguments,
        }))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::wire::calls::ArgumentsError;

    #[test]
    fn a_document_input_that_is_not_an_object_is_that_calls_error() {
        let body = json!({"output": {"message": {"role": "assistant", "content": [
            {"toolUse": {"toolUseId": "t1", "name": "f", "input": "Paris"}},
            {"toolUse": {"toolUseId": "t2", "name": "g", "input": {}}},
        ]}}});
        let mut sink = CallSink::new(64);
        parse(&body, &mut sink).unwrap();
        let calls = sink.take();
        assert_eq!(
            calls[0].arguments,
            Err(ArgumentsError::NotObject { found: "a string" })
        );
        assert!(calls[1].arguments.is_ok());
    }
}
