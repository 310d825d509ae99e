//! The Messages API: the client tool calls of a response body (hop 4).
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//! Sources, read 2026-12 (anthropic-sdk-python 2.15 types; the tool use overview,
//! platform.claude.com/docs/en/agents-and-tools/tool-use/overview):
//! - `Message.content` is a list of blocks (`types/message.py`); a client call is the block
//!   `{type: "tool_use", id, name, input: Dict[str, object]}` (`tool_use_block.py`);
//! - `thinking` (its `signature` passed back unchanged: `thinking_block.py`),
//!   `redacted_thinking`, `server_tool_use` (`server_tool_use_block.py`), every
//!   `*_tool_result` block (`web_search_tool_result_block.py`, …) and `text` are the provider's
//!   or the model's words: not calls, kept in the body for the replay.

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use crate::wire::calls::direct::{self, IsStr, ObjectArguments, OptString, Seen, SkipValue};
use crate::wire::calls::pruned::Keep;
use crate::wire::calls::shape::{self, member};
use crate::wire::calls::sink::CallSink;
use crate::wire::calls::{Arguments, Fault, ToolCall};

/// What [`parse`] reads of a body: of each content block, `type`, `id`, `name` and `input`.
pub(crate) const READ: Keep = Keep::Members(&[(
    "content",
    Keep::Items(&Keep::Members(&[
        ("type", Keep::All),
        ("id", Keep::All),
        ("name", Keep::All),
        ("input", Keep::All),
    ])),
)]);

/// The calls of `body`, added to `sink` in order.
pub(crate) fn parse(body: &Value, sink: &mut CallSink) -> Result<(), Fault> {
    let body = shape::object(body, "", "a message object")?;
    let content = shape::array(body, "content", "")?;
    for (position, block) in content.iter().enumerate() {
        let pointer = format!("/content/{position}");
        let block = shape::object(block, &pointer, "a content block object")?;
        if shape::opt_str(block, "type", &pointer)? != Some("tool_use") {
            continue;
        }
        let id = shape::opt_id(block, "id", &pointer)?;
        let name = shape::opt_str(block, "name", &pointer)?.unwrap_or_default();
        let arguments = sink.object_arguments(member(block, "input"));
        sink.add_with_id(ToolCall::new(id, name, arguments, pointer))?;
    }
    Ok(())
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
        formatter.write_str("a message object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<Self::Value, A::Error> {
        let mut calls = None;
        while let Some(key) = direct::next_key(&mut members)? {
            if key != "content" {
                members.next_value_seed(SkipValue)?;
            } else if calls.is_some() {
                return Err(direct::give_up());
            } else {
                calls = Some(members.next_value_seed(Content(self.limit))?);
            }
        }
        // No `content` is the parser's fault.
        calls.ok_or_else(direct::give_up)
    }
}

/// `content`: its `tool_use` blocks, through the turn's sink, which gives up where it would
/// refuse one.
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
        formatter.write_str("an array of content blocks")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Self::Value, A::Error> {
        let mut sink = CallSink::new(self.0);
        let mut position = 0;
        while let Some(block) = items.next_element_seed(Block {
            limit: self.0,
            position,
        })? {
            if let Some(call) = block {
                sink.add_with_id(call).map_err(|_| direct::give_up())?;
            }
            position += 1;
        }
        Ok(sink.take())
    }
}

/// One content block: a call if it is a `tool_use`.
struct Block {
    limit: usize,
    position: usize,
}

impl<'de> DeserializeSeed<'de> for Block {
    type Value = Option<ToolCall>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Block {
    type Value = Option<ToolCall>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a content block object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<Self::Value, A::Error> {
        let mut seen = Seen::default();
        // `None` until `type` is met; a call only if it is `tool_use`.
        let mut is_call = None;
        let mut id = None;
        let mut name = None;
        let mut arguments = Ok(Arguments::new());
        while let Some(key) = direct::next_key(&mut members)? {
            match &*key {
                "type" => {
                    seen.first(0)?;
                    is_call = Some(members.next_value_seed(IsStr("tool_use"))? == Some(true));
                }
                // The parser reads nothing else of another block.
                _ if is_call == Some(false) => members.next_value_seed(SkipValue)?,
                "id" => {
                    seen.first(1)?;
                    id = members.next_value_seed(OptString)?;
                }
                "name" => {
                    seen.first(2)?;
                    name = members.next_value_seed(OptString)?;
                }
                "input" => {
                    seen.first(3)?;
                    arguments = members.next_value_seed(ObjectArguments(self.limit))?;
                }
                _ => members.next_value_seed(SkipValue)?,
            }
        }
        if is_call != Some(true) {
            return Ok(None);
        }
        Ok(Some(ToolCall::new(
            id.filter(|id| !id.is_empty()),
            name.unwrap_or_default(),
            arguments,
            direct::pointer("/content/", self.position),
        )))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::wire::calls::ArgumentsError;

    #[test]
    fn server_tool_use_is_not_a_client_call() {
        let body = json!({"content": [
            {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "q"}},
            {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []},
            {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}},
        ]});
        let mut sink = CallSink::new(64);
        parse(&body, &mut sink).unwrap();
        let calls = sink.take();
        assert_eq!(calls.len(), 1);
        assert_eq!(calls[0].pointer, "/content/2");
    }

    #[test]
    fn an_input_object_over_the_limit_is_too_long() {
        let body = json!({"content": [
            {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"a": "xxxxxxxx"}},
        ]});
        let mut sink = CallSink::new(8);
        parse(&body, &mut sink).unwrap();
        assert_eq!(
            sink.take()[0].arguments,
            Err(ArgumentsError::TooLong {
                bytes: 16,
                limit: 8
            })
        );
    }
}
