//! Bedrock Converse: the stream machine of `ConverseStream` (hop 4, streamed):
//! from the decoded events as the AWS SDKs yield them (`{"contentBlockStart": {…}}`, one member
//! each) it builds the `ConverseResponse` body the stream carries and yields each client call,
//! when its block stops, as a pointer into that body. Calls and the recorded turn are one
//! reader's, so they agree by construction.
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//! Sources, read 2026-12 (botocore 1.43 `bedrock-runtime` service model, `ConverseStreamOutput`;
//! the ConverseStream reference,
//! docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html):
//! - `contentBlockStart` (`ContentBlockStartEvent`: `start`, `contentBlockIndex`) opens a
//!   block; `start.toolUse` is a `ToolUseBlockStart` `{toolUseId, name, type?}` (a `type` of
//!   `server_tool_use` is a system tool Bedrock runs); text blocks have no start event;
//! - `contentBlockDelta` (`delta`, `contentBlockIndex`): `delta.toolUse.input` is a string
//!   fragment (`ToolUseBlockDelta`);
//! - the end signal is `contentBlockStop` (`contentBlockIndex`); `messageStop` and `metadata`
//!   follow;
//! - `internalServerException`, `modelStreamErrorException`, `validationException`,
//!   `throttlingException` and `serviceUnavailableException` are members of the stream too:
//!   the service's errors, each with a `message`;
//! - `ContentBlockDelta` is a union of `text`, `toolUse`, `toolResult` (a list of
//!   `ToolResultBlockDelta`), `reasoningContent` (`text`, `signature`, `redactedContent`),
//!   `citation` (`CitationsDelta`: `title`, `source`, `sourceContent`, `location`) and `image`
//!   (the ContentBlockDelta reference,
//!   docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ContentBlockDelta.html);
//!   `messageStart.role`, `messageStop.stopReason`.
//!
//! Our own rules: the blocks are kept in the order their first event came, and a block is never
//! moved or dropped once it has a place, so a call's pointer (its block's position) stays true;
//! a delta only ever continues a call whose `toolUse` start began it (a delta of another kind,
//! or at another index, is never part of a call); a kind this machine does not merge is kept as
//! it came (its later deltas merged member by member: strings appended, lists extended). A
//! `citation` delta makes its block a `citationsContent` (`CitationsContentBlock`: `content`,
//! the text so far, and `citations`, each delta), our reading of how the body carries them.

use std::collections::HashMap;

use serde_json::{json, Map, Value};

use super::calls::is_server_tool;
use crate::wire::calls::machine::StreamMachine;
use crate::wire::calls::machine::{input_of, MAX_BLOCKS};
use crate::wire::calls::shape;
use crate::wire::calls::sink::CallSink;
use crate::wire::calls::{ArgumentsText, Fault, ToolCall, UnfinishedCall};

/// The error members of `ConverseStreamOutput`.
const EXCEPTIONS: [&str; 5] = [
    "internalServerException",
    "modelStreamErrorException",
    "validationException",
    "throttlingException",
    "serviceUnavailableException",
];

/// One content block of the message being built.
#[derive(Debug)]
struct Block {
    /// The block as the body carries it; a `toolUse`'s `input` is added from `input`.
    value: Value,
    /// A `toolUse` block's input text so far.
    input: Option<ArgumentsText>,
    /// The client call a `toolUse` start began, until its block stops.
    call: Option<OpenCall>,
    /// Whether its `contentBlockStop` came.
    stopped: bool,
}

/// A client call begun and not yet ended.
#[derive(Debug)]
struct OpenCall {
    id: Option<String>,
    name: String,
}

/// The format's stream machine (`wire::calls::machine`): the message so far.
#[derive(Debug, Default)]
pub(crate) struct ConverseMachine {
    role: Option<String>,
    blocks: Vec<Block>,
    /// Each `contentBlockIndex`'s block, as its position in `blocks`.
    positions: HashMap<u64, usize>,
    stop_reason: Option<Value>,
}

impl ConverseMachine {
    /// Gives `index` a new block at the end (a start at an index already begun begins another).
    fn open_block(&mut self, index: u64, block: Block, at: &str) -> Result<usize, Fault> {
        if self.blocks.len() >= MAX_BLOCKS {
            return Err(Fault::Unsupported {
                pointer: at.to_owned(),
                what: "more than 4096 content blocks in one message",
            });
        }
        self.blocks.push(block);
        let position = self.blocks.len() - 1;
        self.positions.insert(index, position);
        Ok(position)
    }

    fn start(&mut self, start: &Map<String, Value>) -> Result<(), Fault> {
        let parent = "/contentBlockStart";
        let index = shape::index(start, "contentBlockIndex", parent)?;
        let Some(begun) = shape::opt_object(start, "start", parent)? else {
            return Ok(());
        };
        let block = if let Some(tool_use) =
            shape::opt_object(begun, "toolUse", "/contentBlockStart/start")?
        {
            let pointer = "/contentBlockStart/start/toolUse";
            let call = if is_server_tool(tool_use, pointer)? {
                None
            } else {
                Some(OpenCall {
                    id: shape::opt_id(tool_use, "toolUseId", pointer)?,
                    name: shape::opt_str(tool_use, "name", pointer)?
                        .unwrap_or_default()
                        .to_owned(),
                })
            };
            Block {
                value: json!({"toolUse": tool_use}),
                input: Some(ArgumentsText::default()),
                call,
                stopped: false,
            }
        } else if let Some(result) =
            shape::opt_object(begun, "toolResult", "/contentBlockStart/start")?
        {
            let mut result = result.clone();
            result.insert("content".into(), Value::Array(Vec::new()));
            Block {
                value: json!({"toolResult": result}),
                input: None,
                call: None,
                stopped: false,
            }
        } else {
            // A start of a kind not known here: kept as it came.
            Block {
                value: Value::Object(begun.clone()),
                input: None,
                call: None,
                stopped: false,
            }
        };
        self.open_block(index, block, parent)?;
        Ok(())
    }

    fn delta(&mut self, event: &Map<String, Value>, limit: usize) -> Result<(), Fault> {
        let parent = "/contentBlockDelta";
        let index = shape::index(event, "contentBlockIndex", parent)?;
        let Some(delta) = shape::opt_object(event, "delta", parent)? else {
            return Ok(());
        };
        if let Some(tool_use) = shape::opt_object(delta, "toolUse", "/contentBlockDelta/delta")? {
            let fragment = shape::opt_str(tool_use, "input", "/contentBlockDelta/delta/toolUse")?;
            // Only a block a `toolUse` start began takes input, and only until it stops (our
            // caution: a stopped call was yielded as it stood, and its block must stay so).
            if let Some(input) = self
                .positions
                .get(&index)
                .map(|&position| &mut self.blocks[position])
                .filter(|block| !block.stopped)
                .and_then(|block| block.input.as_mut())
            {
                input.push(fragment.unwrap_or_default(), limit);
            }
            return Ok(());
        }
        // Text, reasoning and citations have no start event: their first delta begins them.
        let (position, fresh) = match self.positions.get(&index) {
            // A stopped block takes no more (our caution, as for `toolUse` input above).
            Some(&position) if self.blocks[position].stopped => return Ok(()),
            Some(&position) => (position, false),
            None => {
                let block = Block {
                    value: Value::Null,
                    input: None,
                    call: None,
                    stopped: false,
                };
                (self.open_block(index, block, parent)?, true)
            }
        };
        merge_delta(&mut self.blocks[position].value, delta);
        if fresh && self.blocks[position].value.is_null() {
            // A delta that begins nothing (a `toolResult` delta without its start): no block.
            self.blocks.pop();
            self.positions.remove(&index);
        }
        Ok(())
    }

    fn stop(&mut self, stop: &Map<String, Value>, calls: &mut CallSink) -> Result<(), Fault> {
        let index = shape::index(stop, "contentBlockIndex", "/contentBlockStop")?;
        let Some(&position) = self.positions.get(&index) else {
            return Ok(());
        };
        let block = &mut self.blocks[position];
        block.stopped = true;
        if let Some(call) = block.call.take() {
            let arguments = match &block.input {
                Some(input) => input.finish(calls.limit()),
                None => Ok(Default::default()),
            };
            let pointer = format!("/output/message/content/{position}");
            calls.add_with_id(ToolCall::new(call.id, call.name, arguments, pointer))?;
        }
        Ok(())
    }
}

/// Records one `ContentBlockDelta` (not `toolUse`) in its block.
fn merge_delta(block: &mut Value, delta: &Map<String, Value>) {
    if let Some(text) = delta.get("text").and_then(Value::as_str) {
        match block {
            Value::Null => *block = json!({"text": text}),
            Value::Object(map) => {
                if let Some(Value::String(so_far)) = map.get_mut("text") {
                    so_far.push_str(text);
                } else if let Some(Value::Array(content)) = map
                    .get_mut("citationsContent")
                    .and_then(|c| c.get_mut("content"))
                {
                    match content.last_mut().and_then(|last| last.get_mut("text")) {
                        Some(Value::String(last)) => last.push_str(text),
                        _ => content.push(json!({"text": text})),
                    }
                }
            }
            _ => {}
        }
    } else if let Some(Value::Object(citation)) = delta.get("citation") {
        let citation = Value::Object(citation.clone());
        if block.is_null() {
            *block = json!({"citationsContent": {"content": [], "citations": [citation]}});
        } else if let Some(text) = block.get("text").and_then(Value::as_str) {
            let content = if text.is_empty() {
                json!([])
            } else {
                json!([{ "text": text }])
            };
            *block = json!({"citationsContent": {"content": content, "citations": [citation]}});
        } else if let Some(Value::Array(citations)) = block
            .get_mut("citationsContent")
            .and_then(|c| c.get_mut("citations"))
        {
            citations.push(citation);
        }
    } else if let Some(Value::Object(reasoning)) = delta.get("reasoningContent") {
        merge_reasoning(block, reasoning);
    } else if let Some(Value::Array(parts)) = delta.get("toolResult") {
        let Some(Value::Array(content)) = block
            .get_mut("toolResult")
            .and_then(|r| r.get_mut("content"))
        else {
            return;
        };
        for part in parts {
            match (content.last_mut(), part.get("text").and_then(Value::as_str)) {
                (Some(Value::Object(last)), Some(text)) if last.contains_key("text") => {
                    if let Some(Value::String(so_far)) = last.get_mut("text") {
                        so_far.push_str(text);
                    }
                }
                _ => content.push(part.clone()),
            }
        }
    } else {
        // A kind not merged here (`image`, a member added later): kept as it came.
        for (kind, value) in delta {
            match block {
                Value::Null => *block = json!({ kind: value }),
                Value::Object(map) => {
                    if let Some(so_far) = map.get_mut(kind) {
                        merge_members(so_far, value);
                    }
                }
                _ => {}
            }
        }
    }
}

/// A `reasoningContent` delta: its `text` and `signature` build `reasoningText`, its
/// `redactedContent` the redacted block.
fn merge_reasoning(block: &mut Value, reasoning: &Map<String, Value>) {
    let str_of = |key: &str| reasoning.get(key).and_then(Value::as_str);
    if let Some(redacted) = str_of("redactedContent") {
        if block.is_null() {
            *block = json!({"reasoningContent": {"redactedContent": ""}});
        }
        if let Some(Value::String(so_far)) = block
            .get_mut("reasoningContent")
            .and_then(|r| r.get_mut("redactedContent"))
        {
            so_far.push_str(redacted);
        }
        return;
    }
    if block.is_null() {
        *block = json!({"reasoningContent": {"reasoningText": {"text": ""}}});
    }
    let Some(Value::Object(text)) = block
        .get_mut("reasoningContent")
        .and_then(|r| r.get_mut("reasoningText"))
    else {
        return;
    };
    for key in ["text", "signature"] {
        if let Some(fragment) = str_of(key) {
            match text.get_mut(key) {
                Some(Value::String(so_far)) => so_far.push_str(fragment),
                _ => {
                    text.insert(key.to_owned(), Value::String(fragment.to_owned()));
                }
            }
        }
    }
}

/// Merges a later delta of a kind not known here into what came before: strings appended,
/// lists extended, objects member by member, anything else replaced (our own rule).
fn merge_members(so_far: &mut Value, delta: &Value) {
    match (so_far, delta) {
        (Value::String(so_far), Value::String(more)) => so_far.push_str(more),
        (Value::Array(so_far), Value::Array(more)) => so_far.extend(more.iter().cloned()),
        (Value::Object(so_far), Value::Object(more)) => {
            for (key, value) in more {
                match so_far.get_mut(key) {
                    Some(existing) => merge_members(existing, value),
                    None => {
                        so_far.insert(key.clone(), value.clone());
                    }
                }
            }
        }
        (so_far, more) => *so_far = more.clone(),
    }
}

impl StreamMachine for ConverseMachine {
    fn push(&mut self, event: &Value, calls: &mut CallSink) -> Result<(), Fault> {
        let event = shape::object(event, "", "a ConverseStreamOutput event object")?;
        if let Some(start) = shape::opt_object(event, "messageStart", "")? {
            if let Some(role) = shape::opt_str(start, "role", "/messageStart")? {
                self.role = Some(role.to_owned());
            }
        } else if let Some(start) = shape::opt_object(event, "contentBlockStart", "")? {
            self.start(start)?;
        } else if let Some(delta) = shape::opt_object(event, "contentBlockDelta", "")? {
            self.delta(delta, calls.limit())?;
        } else if let Some(stop) = shape::opt_object(event, "contentBlockStop", "")? {
            self.stop(stop, calls)?;
        } else if let Some(stop) = shape::opt_object(event, "messageStop", "")? {
            self.stop_reason = stop.get("stopReason").cloned();
        } else if let Some((name, exception)) = EXCEPTIONS
            .iter()
            .find_map(|name| event.get(*name).map(|exception| (*name, exception)))
        {
            let message = exception
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or(name);
            return Err(Fault::Provider {
                message: format!("{name}: {message}"),
            });
        }
        Ok(())
    }

    fn knows(&self, event: &Value) -> bool {
        is_known_event(event)
    }

    fn open(&self) -> Vec<UnfinishedCall> {
        self.blocks
            .iter()
            .filter_map(|block| block.call.as_ref())
            .map(|call| UnfinishedCall::of_open(&call.id, &call.name))
            .collect()
    }

    fn open_server_calls(&self) -> Vec<UnfinishedCall> {
        let text = |block: &Block, key: &str| block.value.pointer(key)?.as_str().map(str::to_owned);
        self.blocks
            .iter()
            .filter(|block| !block.stopped && block.call.is_none() && block.input.is_some())
            .map(|block| {
                UnfinishedCall::new(
                    text(block, "/toolUse/toolUseId"),
                    text(block, "/toolUse/name"),
                )
            })
            .collect()
    }

    fn body(&self) -> Value {
        let content: Vec<Value> = self
            .blocks
            .iter()
            .map(|block| {
                let mut value = block.value.clone();
                if let (Some(input), Some(Value::Object(tool_use))) =
                    (&block.input, value.get_mut("toolUse"))
                {
                    tool_use.insert("input".into(), input_of(input.recorded()));
                }
                value
            })
            .collect();
        let mut body = json!({"output": {"message": {
            "role": self.role.as_deref().unwrap_or("assistant"),
            "content": content,
        }}});
        if let Some(reason) = &self.stop_reason {
            body["stopReason"] = reason.clone();
        }
        body
    }
}

/// Whether `event` is one of this format's: a member of `ConverseStreamOutput`.
pub(crate) fn is_known_event(event: &Value) -> bool {
    const EVENTS: [&str; 6] = [
        "messageStart",
        "contentBlockStart",
        "contentBlockDelta",
        "contentBlockStop",
        "messageStop",
        "metadata",
    ];
    event.as_object().is_some_and(|members| {
        EVENTS
            .iter()
            .chain(EXCEPTIONS.iter())
            .any(|name| members.contains_key(*name))
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::wire::calls::machine::StreamMachine;

    #[test]
    fn an_exception_member_is_the_providers_error() {
        let mut stream = ConverseMachine::default();
        let event = json!({"throttlingException": {"message": "Too many requests"}});
        assert_eq!(
            stream.push(&event, &mut CallSink::new(8)),
            Err(Fault::Provider {
                message: "throttlingException: Too many requests".into()
            })
        );
    }

    #[test]
    fn a_system_tool_is_not_a_client_call() {
        let mut stream = ConverseMachine::default();
        let mut sink = CallSink::new(1024);
        for event in [
            json!({"contentBlockStart": {"contentBlockIndex": 0, "start": {"toolUse":
                {"toolUseId": "t_srv", "name": "nova_code_interpreter", "type": "server_tool_use"}}}}),
            json!({"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"toolUse": {"input": "{}"}}}}),
            json!({"contentBlockStop": {"contentBlockIndex": 0}}),
        ] {
            stream.push(&event, &mut sink).unwrap();
        }
        assert!(sink.take().is_empty());
    }
}
