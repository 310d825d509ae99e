//! The Messages API: the assembler of a stream's tool calls (hop 4, streamed).
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//! Sources, read 2026-12 (anthropic-sdk-python 2.15 types; the streaming guide,
//! platform.claude.com/docs/en/build-with-claude/streaming):
//! - `content_block_start` opens the block at `index` (`raw_content_block_start_event.py`): a
//!   `tool_use` with `id`, `name` and `input: {}`, a placeholder: the SDK's own accumulator
//!   (`lib/streaming/_messages.py`) starts each tool_use's JSON from the empty string, and
//!   seeding it with `{}` gives `{}{…}` (ogx PR #5462);
//! - `content_block_delta` with `delta.type: "input_json_delta"` carries a `partial_json`
//!   fragment (`input_json_delta.py`); `server_tool_use` blocks stream them too, and are not
//!   client calls;
//! - the end signal is `content_block_stop` for the block's `index`
//!   (`raw_content_block_stop_event.py`); `message_delta` and `message_stop` follow;
//! - an `error` event carries `error.message` (the streaming guide, "Error events":
//!   `overloaded_error`).
//!
//! Our own rule: a block that streams no fragment takes the start event's `input` if that is
//! a non-empty object (no source shows one; it costs nothing to keep).

use serde_json::Value;

use crate::wire::calls::shape::{self, member};
use crate::wire::calls::turn::Turn;
use crate::wire::calls::{Arguments, ArgumentsText, Fault, ToolCall, UnfinishedCall};

/// A `tool_use` block started and not stopped.
#[derive(Debug)]
struct OpenBlock {
    index: u64,
    id: Option<String>,
    name: String,
    start_input: Option<Arguments>,
    arguments: ArgumentsText,
}

/// The `tool_use` blocks in progress.
#[derive(Debug, Default)]
pub(crate) struct AnthropicStream {
    open: Vec<OpenBlock>,
}

impl AnthropicStream {
    /// Reads one event.
    pub(crate) fn push(&mut self, event: &Value, turn: &mut Turn) -> Result<(), Fault> {
        let event = shape::object(event, "", "a message stream event object")?;
        let kind = shape::opt_str(event, "type", "")?
            .ok_or_else(|| Fault::shape("/type", "the event's type, a string"))?;
        match kind {
            "content_block_start" => {
                let index = shape::index(event, "index", "")?;
                let block = shape::opt_object(event, "content_block", "")?
                    .ok_or_else(|| Fault::shape("/content_block", "a content block object"))?;
                if shape::opt_str(block, "type", "/content_block")? == Some("tool_use") {
                    let start_input = match member(block, "input") {
                        Some(Value::Object(input)) if !input.is_empty() => Some(input.clone()),
                        _ => None,
                    };
                    self.open.push(OpenBlock {
                        index,
                        id: shape::opt_id(block, "id", "/content_block")?,
                        name: shape::opt_str(block, "name", "/content_block")?
                            .unwrap_or_default()
                            .to_owned(),
                        start_input,
                        arguments: ArgumentsText::default(),
                    });
                }
            }
            "content_block_delta" => {
                let index = shape::index(event, "index", "")?;
                let delta = shape::opt_object(event, "delta", "")?
                    .ok_or_else(|| Fault::shape("/delta", "a delta object"))?;
                if shape::opt_str(delta, "type", "/delta")? == Some("input_json_delta") {
                    if let Some(block) = self.open.iter_mut().find(|block| block.index == index) {
                        let fragment = shape::opt_str(delta, "partial_json", "/delta")?;
                        block
                            .arguments
                            .push(fragment.unwrap_or_default(), turn.limit());
                    }
                }
            }
            "content_block_stop" => {
                let index = shape::index(event, "index", "")?;
                if let Some(slot) = self.open.iter().position(|block| block.index == index) {
                    let block = self.open.remove(slot);
                    let arguments = match block.start_input {
                        Some(input) if block.arguments.is_blank() => Ok(input),
                        _ => block.arguments.finish(turn.limit()),
                    };
                    let pointer = format!("/content/{index}");
                    turn.add_with_id(ToolCall::new(block.id, block.name, arguments, pointer))?;
                }
            }
            "error" => {
                let message = event
                    .get("error")
                    .and_then(|error| error.get("message"))
                    .and_then(Value::as_str)
                    .map_or_else(|| Value::Object(event.clone()).to_string(), str::to_owned);
                return Err(Fault::Provider { message });
            }
            _ => {}
        }
        Ok(())
    }

    /// The calls begun and not ended.
    pub(crate) fn open(&self) -> Vec<UnfinishedCall> {
        self.open
            .iter()
            .map(|block| UnfinishedCall::of_open(&block.id, &block.name))
            .collect()
    }
}

/// Whether `event` is one of this format's: the `RawMessageStreamEvent` union
/// (`raw_message_stream_event.py`: `message_start`, `message_delta`, `message_stop`,
/// `content_block_start`, `content_block_delta`, `content_block_stop`), and the streaming
/// guide's `ping` and `error` events.
pub(crate) fn is_known_event(event: &Value) -> bool {
    const KNOWN: [&str; 8] = [
        "message_start",
        "message_delta",
        "message_stop",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "ping",
        "error",
    ];
    event
        .get("type")
        .and_then(Value::as_str)
        .is_some_and(|kind| KNOWN.contains(&kind))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn run(events: &[Value]) -> Vec<ToolCall> {
        let mut stream = AnthropicStream::default();
        let mut turn = Turn::new(1024);
        for event in events {
            stream.push(event, &mut turn).unwrap();
        }
        turn.take()
    }

    fn start(input: Value) -> Value {
        json!({"type": "content_block_start", "index": 0, "content_block":
            {"type": "tool_use", "id": "toolu_1", "name": "f", "input": input}})
    }

    fn delta(fragment: &str) -> Value {
        json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": fragment}})
    }

    const STOP: &str = r#"{"type": "content_block_stop", "index": 0}"#;

    #[test]
    fn the_start_input_is_a_placeholder_not_a_prefix() {
        let stop: Value = serde_json::from_str(STOP).unwrap();
        let calls = run(&[
            start(json!({})),
            delta(""),
            delta("{\"a\":"),
            delta("1}"),
            stop,
        ]);
        assert_eq!(
            calls[0].arguments,
            Ok(json!({"a": 1}).as_object().unwrap().clone())
        );
    }

    #[test]
    fn a_block_without_fragments_takes_a_whole_start_input() {
        let stop: Value = serde_json::from_str(STOP).unwrap();
        let calls = run(&[start(json!({"a": 1})), stop]);
        assert_eq!(calls[0].arguments.as_ref().unwrap()["a"], 1);
    }

    #[test]
    fn server_tool_use_deltas_are_not_a_call() {
        let stop: Value = serde_json::from_str(STOP).unwrap();
        let server = json!({"type": "content_block_start", "index": 0, "content_block":
            {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}});
        assert!(run(&[server, delta("{\"query\":\"q\"}"), stop]).is_empty());
    }
}

/// The format's stream machine (`wire::calls::machine`). For now it feeds each event to the
/// call assembler above and to the recorder in `super::streamed_turn::AnthropicTurn`, one after the other.
#[derive(Debug, Default)]
pub(crate) struct AnthropicMachine {
    calls: AnthropicStream,
    turn: super::streamed_turn::AnthropicTurn,
}

impl crate::wire::calls::machine::StreamMachine for AnthropicMachine {
    fn push(&mut self, event: &Value, calls: &mut Turn) -> Result<(), Fault> {
        self.turn.push(event);
        self.calls.push(event, calls)
    }

    fn knows(event: &Value) -> bool {
        is_known_event(event)
    }

    fn open(&self) -> Vec<UnfinishedCall> {
        self.calls.open()
    }

    fn body(&self) -> Value {
        self.turn.body()
    }
}
