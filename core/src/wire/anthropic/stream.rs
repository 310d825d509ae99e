//! The Messages API's stream machine (`wire::calls::machine`): it reads each event once,
//! builds the message the events make, and yields each `tool_use` call as it ends, as a
//! pointer into that message (hop 4, streamed).
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//! Sources, read 2026-12 (anthropic-sdk-python 2.15 `types/raw_message_stream_event.py` and
//! its members; the streaming guide,
//! platform.claude.com/docs/en/build-with-claude/streaming):
//! - `message_start` carries the message with empty `content`; `message_delta` sets
//!   `stop_reason` and `stop_sequence` (`raw_message_delta_event.py`);
//! - `content_block_start` opens the block at `index` (`raw_content_block_start_event.py`): a
//!   `tool_use` with `id`, `name` and `input: {}`, a placeholder: the SDK's own accumulator
//!   (`lib/streaming/_messages.py`) starts each tool_use's JSON from the empty string, and
//!   seeding it with `{}` gives `{}{…}` (ogx PR #5462); a `thinking` block with empty
//!   `thinking` and `signature`; a server tool's result whole;
//! - `content_block_delta` appends `text_delta.text`, `thinking_delta.thinking`,
//!   `signature_delta.signature`, `citations_delta.citation` and `input_json_delta.partial_json`
//!   (`raw_content_block_delta_event.py`); the streaming guide's tool use example opens with
//!   `"partial_json": ""`, an empty fragment; `server_tool_use` blocks stream their input too,
//!   and are not client calls;
//! - the end signal is `content_block_stop` for the block's `index`
//!   (`raw_content_block_stop_event.py`); `message_delta` and `message_stop` follow;
//! - `ping` events may come at any point, and an `error` event (`overloaded_error`) carries
//!   `error.message` (the streaming guide, "Event types", "Ping events", "Error events"): the
//!   stream failed, as a Responses `error` event or a Converse exception is a stream error.
//!
//! Our own rules: a `tool_use` that streams no fragment (or only empty ones) takes the start
//! event's `input` (the SDK accumulator keeps the start block's `input` when no
//! `input_json_delta` came); blocks are kept in the order they start, each as it came (a block
//! type or delta type we do not know stays as it started), so a pointer yielded never moves;
//! a block's `index` is only its name in later events.
//!
//! Limits: a `tool_use` whose `partial_json` fragments pass the arguments limit ends as
//! `ArgumentsError::TooLong` (answered as an error, never run), and its text is not kept: the
//! message records as its `input` the string `(arguments over the limit: not kept)`, not a
//! blank and not `{}`, which the body's parse reads as unusable too and the replay carries as
//! `{}` (returned in `Replay::repaired`). A `tool_use` with no fragments whose start `input`
//! object passes the limit is `TooLong` too, and the message keeps that object as it came
//! (the body's parse, under the same limit, refuses it alike). One event past the event
//! limit fails the stream (`StreamError::EventTooLong`, from the line reader before this
//! machine); text, thinking and signature deltas are appended whole, bounded by that
//! per-event limit only.

use serde_json::{Map, Value};

use crate::wire::calls::machine::StreamMachine;
use crate::wire::calls::machine::{append, input_of, MAX_BLOCKS};
use crate::wire::calls::shape::{self, member};
use crate::wire::calls::sink::CallSink;
use crate::wire::calls::{arguments_within, ArgumentsText, Fault, ToolCall, UnfinishedCall};

/// One content block as the events built it.
#[derive(Debug)]
struct Block {
    /// The stream's `index` for it.
    index: u64,
    /// The block as it started, with its text, thinking and signature deltas applied.
    value: Value,
    /// Its `input_json_delta` fragments (a `tool_use` or `server_tool_use`), if any came.
    input: Option<ArgumentsText>,
    /// A `tool_use` started and not stopped: its call.
    call: Option<OpenCall>,
    /// Whether it is a server's call (a block other than `tool_use` that carries `input`:
    /// `server_tool_use`, `server_tool_use_block.py`): not the app's to answer, but cut if it
    /// never stops, input deltas or none.
    server_call: bool,
    /// Whether its `content_block_stop` came.
    stopped: bool,
}

/// A client call begun and not ended.
#[derive(Debug)]
struct OpenCall {
    id: Option<String>,
    name: String,
    /// The start event's `input`, which stands when no fragment comes.
    start_input: Option<Value>,
}

/// The message a Messages API stream builds, and its open calls.
#[derive(Debug, Default)]
pub(crate) struct AnthropicMachine {
    /// `message_start`'s message with `message_delta` applied; `content` is `blocks`.
    message: Map<String, Value>,
    blocks: Vec<Block>,
}

impl AnthropicMachine {
    /// The position of the block the stream calls `index` (the latest is the likeliest).
    fn position(&self, index: u64) -> Option<usize> {
        self.blocks.iter().rposition(|block| block.index == index)
    }

    fn start(&mut self, event: &Map<String, Value>) -> Result<(), Fault> {
        let index = shape::index(event, "index", "")?;
        let block = shape::opt_object(event, "content_block", "")?
            .ok_or_else(|| Fault::shape("/content_block", "a content block object"))?;
        let client = shape::opt_str(block, "type", "/content_block")? == Some("tool_use");
        let call = if client {
            Some(OpenCall {
                id: shape::opt_id(block, "id", "/content_block")?,
                name: shape::opt_str(block, "name", "/content_block")?
                    .unwrap_or_default()
                    .to_owned(),
                start_input: member(block, "input").cloned(),
            })
        } else {
            None
        };
        let started = Block {
            index,
            value: Value::Object(block.clone()),
            input: None,
            call,
            server_call: !client && block.contains_key("input"),
            stopped: false,
        };
        // A second start for one index begins another block after the others (our caution: no
        // source shows one): replacing the first in place would move a call it already yielded
        // to another block. Later events name the latest block of that index.
        if self.blocks.len() >= MAX_BLOCKS {
            return Err(Fault::shape(
                "/index",
                "a block within the first 4096 of the message (our caution)",
            ));
        }
        self.blocks.push(started);
        Ok(())
    }

    fn delta(&mut self, event: &Map<String, Value>, limit: usize) -> Result<(), Fault> {
        let index = shape::index(event, "index", "")?;
        let delta = shape::opt_object(event, "delta", "")?
            .ok_or_else(|| Fault::shape("/delta", "a delta object"))?;
        let kind = shape::opt_str(delta, "type", "/delta")?;
        let text = |key| shape::opt_str(delta, key, "/delta").map(Option::unwrap_or_default);
        // A delta for a block that never started, or that stopped, has nowhere to go (our
        // caution: dropped): a stopped `tool_use` was yielded as it stood, and its block must
        // stay the call it was.
        let Some(position) = self.position(index) else {
            return Ok(());
        };
        let block = &mut self.blocks[position];
        if block.stopped {
            return Ok(());
        }
        match kind {
            Some("text_delta") => append(&mut block.value, "text", text("text")?),
            Some("thinking_delta") => append(&mut block.value, "thinking", text("thinking")?),
            Some("signature_delta") => append(&mut block.value, "signature", text("signature")?),
            Some("citations_delta") => {
                if let (Some(map), Some(citation)) =
                    (block.value.as_object_mut(), member(delta, "citation"))
                {
                    let citations = map.entry("citations").or_insert(Value::Array(Vec::new()));
                    if let Value::Array(list) = citations {
                        list.push(citation.clone());
                    }
                }
            }
            Some("input_json_delta") => {
                let fragment = text("partial_json")?;
                block
                    .input
                    .get_or_insert_with(ArgumentsText::default)
                    .push(fragment, limit);
            }
            _ => {}
        }
        Ok(())
    }

    fn stop(&mut self, event: &Map<String, Value>, sink: &mut CallSink) -> Result<(), Fault> {
        let index = shape::index(event, "index", "")?;
        let Some(position) = self.position(index) else {
            return Ok(());
        };
        let block = &mut self.blocks[position];
        block.stopped = true;
        let Some(call) = block.call.take() else {
            return Ok(());
        };
        let arguments = match &block.input {
            Some(text) if !text.is_blank() => text.finish(sink.limit()),
            _ => arguments_within(call.start_input.as_ref(), sink.limit()),
        };
        // The block's `input` becomes what the call's arguments are, so the message parses to
        // this very call; a text that is not an object stays as it came.
        let input = match &arguments {
            Ok(object) => Value::Object(object.clone()),
            Err(_) => block_input(block),
        };
        if let Some(map) = block.value.as_object_mut() {
            map.insert("input".into(), input);
        }
        block.input = None;
        let pointer = format!("/content/{position}");
        sink.add_with_id(ToolCall::new(call.id, call.name, arguments, pointer))
    }
}

/// A block's `input` from its fragments: the JSON they make, or the text itself (a string),
/// or, once they passed the limit and were dropped, `OVER_LIMIT`, the marker every format's
/// built body holds there (not JSON, so the body's parse reads the call's arguments as
/// unusable, as the stream did, and the replay repairs them); the start input when none came.
fn block_input(block: &Block) -> Value {
    match &block.input {
        Some(text) if !text.is_blank() => input_of(text.recorded()),
        _ => member_of(&block.value, "input").unwrap_or_else(|| Value::Object(Map::new())),
    }
}

fn member_of(value: &Value, key: &str) -> Option<Value> {
    value.get(key).filter(|member| !member.is_null()).cloned()
}

/// The text of an `error` event: its `error.message`, else the whole event.
fn error_message(event: &Map<String, Value>) -> String {
    event
        .get("error")
        .and_then(|error| error.get("message"))
        .and_then(Value::as_str)
        .map_or_else(|| Value::Object(event.clone()).to_string(), str::to_owned)
}

impl StreamMachine for AnthropicMachine {
    fn push(&mut self, event: &Value, sink: &mut CallSink) -> Result<(), Fault> {
        let event = shape::object(event, "", "a message stream event object")?;
        let kind = shape::opt_str(event, "type", "")?
            .ok_or_else(|| Fault::shape("/type", "the event's type, a string"))?;
        match kind {
            "message_start" => {
                if let Some(message) = shape::opt_object(event, "message", "")? {
                    self.message = message.clone();
                }
            }
            "message_delta" => {
                if let Some(delta) = shape::opt_object(event, "delta", "")? {
                    for (key, value) in delta {
                        self.message.insert(key.clone(), value.clone());
                    }
                }
            }
            "content_block_start" => self.start(event)?,
            "content_block_delta" => self.delta(event, sink.limit())?,
            "content_block_stop" => self.stop(event, sink)?,
            "error" => {
                return Err(Fault::Provider {
                    message: error_message(event),
                })
            }
            // `ping`, `message_stop`, and events of kinds we do not know.
            _ => {}
        }
        Ok(())
    }

    /// The `RawMessageStreamEvent` union (`raw_message_stream_event.py`: `message_start`,
    /// `message_delta`, `message_stop`, `content_block_start`, `content_block_delta`,
    /// `content_block_stop`), and the streaming guide's `ping` and `error` events.
    fn knows(&self, event: &Value) -> bool {
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

    fn open(&self) -> Vec<UnfinishedCall> {
        self.blocks
            .iter()
            .filter_map(|block| block.call.as_ref())
            .map(|call| UnfinishedCall::of_open(&call.id, &call.name))
            .collect()
    }

    fn open_server_calls(&self) -> Vec<UnfinishedCall> {
        let text = |block: &Block, key: &str| block.value.get(key)?.as_str().map(str::to_owned);
        self.blocks
            .iter()
            .filter(|block| !block.stopped && block.server_call)
            .map(|block| UnfinishedCall::new(text(block, "id"), text(block, "name")))
            .collect()
    }

    fn body(&self) -> Value {
        let mut message = self.message.clone();
        message.entry("role").or_insert_with(|| "assistant".into());
        let content = self
            .blocks
            .iter()
            .map(|block| {
                let mut value = block.value.clone();
                if block.input.is_some() {
                    if let Some(map) = value.as_object_mut() {
                        map.insert("input".into(), block_input(block));
                    }
                }
                value
            })
            .collect();
        message.insert("content".into(), Value::Array(content));
        Value::Object(message)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::wire::calls::{ArgumentsError, OVER_LIMIT};

    fn run(events: &[Value]) -> (Vec<ToolCall>, AnthropicMachine) {
        let mut machine = AnthropicMachine::default();
        let mut sink = CallSink::new(1024);
        for event in events {
            machine.push(event, &mut sink).unwrap();
        }
        (sink.take(), machine)
    }

    fn start(index: u64, input: Value) -> Value {
        json!({"type": "content_block_start", "index": index, "content_block":
            {"type": "tool_use", "id": format!("toolu_{index}"), "name": "f", "input": input}})
    }

    fn delta(index: u64, fragment: &str) -> Value {
        json!({"type": "content_block_delta", "index": index,
            "delta": {"type": "input_json_delta", "partial_json": fragment}})
    }

    fn stop(index: u64) -> Value {
        json!({"type": "content_block_stop", "index": index})
    }

    #[test]
    fn the_start_input_is_a_placeholder_not_a_prefix() {
        let (calls, machine) = run(&[
            start(0, json!({})),
            delta(0, ""),
            delta(0, "{\"a\":"),
            delta(0, "1}"),
            stop(0),
        ]);
        assert_eq!(
            calls[0].arguments.as_ref().unwrap(),
            json!({"a": 1}).as_object().unwrap()
        );
        assert_eq!(machine.body()["content"][0]["input"], json!({"a": 1}));
    }

    #[test]
    fn a_block_without_fragments_takes_its_start_input() {
        // Only an empty fragment: the start event's input stands, in the call and the body.
        let (calls, machine) = run(&[start(0, json!({"a": 1})), delta(0, ""), stop(0)]);
        assert_eq!(calls[0].arguments.as_ref().unwrap()["a"], 1);
        assert_eq!(machine.body()["content"][0]["input"], json!({"a": 1}));
    }

    #[test]
    fn a_start_input_over_the_limit_is_too_long() {
        let mut machine = AnthropicMachine::default();
        let mut sink = CallSink::new(8);
        for event in [start(0, json!({"a": "xxxxxxxx"})), stop(0)] {
            machine.push(&event, &mut sink).unwrap();
        }
        assert!(matches!(
            sink.take()[0].arguments,
            Err(ArgumentsError::TooLong { limit: 8, .. })
        ));
    }

    #[test]
    fn server_tool_use_deltas_are_not_a_call_but_are_its_input() {
        let server = json!({"type": "content_block_start", "index": 0, "content_block":
            {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}});
        let (calls, machine) = run(&[server, delta(0, "{\"query\":\"q\"}"), stop(0)]);
        assert!(calls.is_empty());
        assert_eq!(machine.body()["content"][0]["input"], json!({"query": "q"}));
    }

    #[test]
    fn blocks_it_does_not_know_keep_their_place() {
        // Pointers are positions in the message built, never moved by a block of a kind it
        // does not know, nor by an index the stream skipped.
        let odd = json!({"type": "content_block_start", "index": 0,
            "content_block": {"type": "mystery_block", "data": [1, 2]}});
        let odd_delta = json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "mystery_delta", "x": 1}});
        let (calls, machine) = run(&[
            odd.clone(),
            odd_delta,
            stop(0),
            start(5, json!({})),
            stop(5),
        ]);
        assert_eq!(calls[0].pointer, "/content/1");
        let body = machine.body();
        assert_eq!(body["content"][0], odd["content_block"]);
        assert_eq!(body["content"][1]["id"], "toolu_5");
    }

    #[test]
    fn an_input_over_the_limit_is_recorded_as_the_marker_the_body_parse_refuses() {
        let mut machine = AnthropicMachine::default();
        let mut sink = CallSink::new(8);
        for event in [start(0, json!({})), delta(0, "{\"a\":\"long\"}"), stop(0)] {
            machine.push(&event, &mut sink).unwrap();
        }
        let calls = sink.take();
        assert!(matches!(
            calls[0].arguments,
            Err(ArgumentsError::TooLong {
                bytes: 12,
                limit: 8
            })
        ));
        let body = machine.body();
        assert_eq!(body["content"][0]["input"], OVER_LIMIT, "{body}");
        // The body's parse reads the call as unusable too, and the replay repairs it.
        let parsed =
            crate::wire::calls::parse_calls(crate::wire::calls::CallFormat::Anthropic, &body)
                .unwrap();
        assert!(parsed[0].arguments.is_err(), "{parsed:?}");
        let replay = crate::wire::replay::replay_turn(
            crate::wire::calls::CallFormat::Anthropic,
            &body,
            &calls,
        )
        .unwrap();
        assert_eq!(replay.turn["content"][0]["input"], json!({}));
        assert_eq!(replay.repaired[0].pointer, "/content/0/input");
    }

    #[test]
    fn a_server_tool_use_cut_before_any_input_delta_is_open() {
        let server = json!({"type": "content_block_start", "index": 0, "content_block":
            {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}});
        let (calls, machine) = run(&[server]);
        assert!(calls.is_empty());
        assert_eq!(
            machine.open_server_calls(),
            [UnfinishedCall::new(
                Some("srvtoolu_1".into()),
                Some("web_search".into())
            )]
        );
        // A text block left open is no call.
        let text = json!({"type": "content_block_start", "index": 0,
            "content_block": {"type": "text", "text": ""}});
        assert!(run(&[text]).1.open_server_calls().is_empty());
    }

    #[test]
    fn an_error_event_is_the_providers_error() {
        let mut machine = AnthropicMachine::default();
        let fault = machine.push(
            &json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
            &mut CallSink::new(8),
        );
        assert_eq!(
            fault,
            Err(Fault::Provider {
                message: "Overloaded".into()
            })
        );
    }
}
