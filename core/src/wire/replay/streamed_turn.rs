//! The response body a stream builds, for the replay of a streamed turn. It is the format's
//! stream machine (`wire::calls::machine`), the one a
//! [`CallStream`](crate::wire::calls::CallStream) runs: fed the same events, it builds the body
//! (text, thinking and its signatures, reasoning items, server tools, Gemini
//! `thoughtSignature`s) in the format's body shape, so [`replay_turn`](super::replay_turn)
//! reads it with the stream's calls and their pointers.
//!
//! Policy: record, never judge: the call stream fed the same events says what is wrong with
//! them ([`StreamError`](crate::wire::calls::StreamError)); nothing here panics or fails on
//! any input.

use serde_json::Value;

use super::{replay_turn, Replay, ReplayError};
use crate::wire::calls::machine::Machine;
use crate::wire::calls::stream::is_openai;
use crate::wire::calls::turn::Turn;
use crate::wire::calls::{CallFormat, ToolCall, DEFAULT_MAX_ARGUMENT_BYTES};

/// The assistant turn a stream carries, recorded event by event beside the
/// [`CallStream`](crate::wire::calls::CallStream) that yields its calls: [`body`](Self::body)
/// is the response body the events build, in the format's body shape (the members the replay
/// reads), and [`replay`](Self::replay) the turn to append to history, as for a body.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::wire::calls::{CallFormat, CallStream};
/// use toolwire_core::wire::replay::StreamedTurn;
///
/// let events = [
///     json!({"type": "message_start", "message": {"id": "msg_1", "type": "message",
///         "role": "assistant", "content": [], "model": "claude"}}),
///     json!({"type": "content_block_start", "index": 0,
///         "content_block": {"type": "thinking", "thinking": "", "signature": ""}}),
///     json!({"type": "content_block_delta", "index": 0,
///         "delta": {"type": "thinking_delta", "thinking": "Look it up."}}),
///     json!({"type": "content_block_delta", "index": 0,
///         "delta": {"type": "signature_delta", "signature": "sig"}}),
///     json!({"type": "content_block_stop", "index": 0}),
///     json!({"type": "content_block_start", "index": 1, "content_block":
///         {"type": "tool_use", "id": "toolu_1", "name": "get_time", "input": {}}}),
///     json!({"type": "content_block_delta", "index": 1,
///         "delta": {"type": "input_json_delta", "partial_json": "{\"tz\":\"UTC\"}"}}),
///     json!({"type": "content_block_stop", "index": 1}),
/// ];
/// let (mut calls, mut turn) = (CallStream::new(CallFormat::Anthropic), StreamedTurn::new(CallFormat::Anthropic));
/// let mut called = Vec::new();
/// for event in &events {
///     called.extend(calls.push(event).unwrap());
///     turn.push(event);
/// }
/// calls.finish().unwrap();
/// let replay = turn.replay(&called).unwrap();
/// assert_eq!(replay.turn["content"][0]["signature"], "sig");
/// assert_eq!(replay.turn["content"][1]["input"], json!({"tz": "UTC"}));
/// ```
#[derive(Debug)]
pub struct StreamedTurn {
    format: CallFormat,
    /// The format's machine (`wire::calls::machine`): the one a [`CallStream`] runs.
    ///
    /// [`CallStream`]: crate::wire::calls::CallStream
    machine: Machine,
    /// The calls the machine ends when this turn is fed on its own; the turn keeps none.
    calls: Turn,
    /// Whether the byte stream that feeds it is inside an event (set by
    /// [`SseCallStream`](crate::wire::calls::SseCallStream)): the turn is cut there.
    inside_event: bool,
}

impl StreamedTurn {
    /// An empty turn of `format`.
    ///
    /// ```
    /// use toolwire_core::wire::{calls::CallFormat, replay::StreamedTurn};
    /// let turn = StreamedTurn::new(CallFormat::Gemini);
    /// assert_eq!(turn.body()["candidates"][0]["content"]["parts"], serde_json::json!([]));
    /// ```
    pub fn new(format: CallFormat) -> StreamedTurn {
        StreamedTurn {
            format,
            machine: Machine::new(format),
            calls: Turn::new(DEFAULT_MAX_ARGUMENT_BYTES),
            inside_event: false,
        }
    }

    /// The turn's format.
    ///
    /// ```
    /// use toolwire_core::wire::{calls::CallFormat, replay::StreamedTurn};
    /// assert_eq!(StreamedTurn::new(CallFormat::Converse).format(), CallFormat::Converse);
    /// ```
    pub fn format(&self) -> CallFormat {
        self.format
    }

    /// Records one parsed stream event (as [`CallStream::push`](crate::wire::calls::CallStream::push)
    /// takes it). An event it does not know is ignored.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::wire::{calls::CallFormat, replay::StreamedTurn};
    /// let mut turn = StreamedTurn::new(CallFormat::Converse);
    /// turn.push(&json!({"messageStart": {"role": "assistant"}}));
    /// turn.push(&json!({"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "Hi"}}}));
    /// turn.push(&json!("not an event"));
    /// assert_eq!(turn.body()["output"]["message"]["content"], json!([{"text": "Hi"}]));
    /// ```
    pub fn push(&mut self, event: &Value) {
        // Record, never judge: the call stream fed the same events reports their faults.
        let _ = self.machine.push(event, &mut self.calls);
        self.calls.take();
    }

    /// Records one event given as JSON bytes (a server-sent event's `data`, a JSON line).
    /// OpenAI's end marker `[DONE]` ends the calls still open, as it does for the
    /// [`CallStream`](crate::wire::calls::CallStream) fed the same text; other text that is
    /// not JSON is ignored.
    ///
    /// ```
    /// use toolwire_core::wire::{calls::CallFormat, replay::StreamedTurn};
    /// let mut turn = StreamedTurn::new(CallFormat::OpenAiChat);
    /// turn.push_slice(br#"{"choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hi"}}]}"#);
    /// turn.push_slice(b"[DONE]");
    /// assert_eq!(turn.body()["choices"][0]["message"]["content"], "Hi");
    /// ```
    pub fn push_slice(&mut self, event: &[u8]) {
        if is_openai(self.format) && event.starts_with(b"[DONE]") {
            let _ = self.machine.done(&mut self.calls);
            self.calls.take();
            return;
        }
        if let Ok(event) = serde_json::from_slice::<Value>(event) {
            self.push(&event);
        }
    }

    /// The response body the events so far build, in the format's body shape: the stream's
    /// calls point into it as into their sibling response (Chat Completions
    /// `choices[0].message`, Responses `output`, the Messages API's message, Converse
    /// `output.message`, Gemini `candidates[0].content`). Response-only members no event
    /// carries (Chat Completions' `annotations: []`) are not invented.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::wire::{calls::CallFormat, replay::StreamedTurn};
    /// let mut turn = StreamedTurn::new(CallFormat::OpenAiResponses);
    /// turn.push(&json!({"type": "response.output_item.done", "output_index": 0,
    ///     "item": {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAA"}}));
    /// assert_eq!(turn.body()["output"][0]["encrypted_content"], "gAAA");
    /// ```
    pub fn body(&self) -> Value {
        self.machine.body()
    }

    /// The turn to append to history, given the calls the stream yielded:
    /// [`replay_turn`] of [`body`](Self::body). A cut turn is [`ReplayError::Cut`], naming the
    /// calls begun and not ended: a call still open, or a byte stream
    /// ([`SseCallStream::turn`](crate::wire::calls::SseCallStream::turn)) that stopped inside
    /// an event.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::wire::{calls::CallFormat, replay::{ReplayError, StreamedTurn}};
    /// let turn = StreamedTurn::new(CallFormat::Gemini);
    /// assert!(turn.replay(&[]).unwrap().is_verbatim());
    ///
    /// let mut cut = StreamedTurn::new(CallFormat::Anthropic);
    /// cut.push(&json!({"type": "content_block_start", "index": 0, "content_block":
    ///     {"type": "tool_use", "id": "toolu_1", "name": "get_time", "input": {}}}));
    /// let Err(ReplayError::Cut { calls, .. }) = cut.replay(&[]) else { panic!() };
    /// assert_eq!(calls[0].name.as_deref(), Some("get_time"));
    /// ```
    pub fn replay(&self, calls: &[ToolCall]) -> Result<Replay, ReplayError> {
        let open = self.machine.open();
        if !open.is_empty() || self.inside_event {
            return Err(ReplayError::Cut {
                format: self.format,
                calls: open,
                cut_event: self.inside_event,
            });
        }
        replay_turn(self.format, &self.body(), calls)
    }

    /// Says whether the byte stream feeding this turn is inside an event.
    pub(crate) fn set_inside_event(&mut self, inside: bool) {
        self.inside_event = inside;
    }

    /// The machine, for the [`CallStream`](crate::wire::calls::CallStream) that runs it.
    pub(crate) fn machine(&self) -> &Machine {
        &self.machine
    }

    pub(crate) fn machine_mut(&mut self) -> &mut Machine {
        &mut self.machine
    }
}

/// A string member of `value`.
pub(crate) fn str_of<'v>(value: &'v Value, key: &str) -> Option<&'v str> {
    value.get(key).and_then(Value::as_str)
}

/// An index member of `value` as a position.
pub(crate) fn index_of(value: &Value, key: &str) -> Option<usize> {
    value
        .get(key)
        .and_then(Value::as_u64)
        .and_then(|index| usize::try_from(index).ok())
}

/// Appends `text` to the string member `key` of `object` (made a string if it is not one).
pub(crate) fn append(object: &mut Value, key: &str, text: &str) {
    let Some(map) = object.as_object_mut() else {
        return;
    };
    match map.get_mut(key) {
        Some(Value::String(existing)) => existing.push_str(text),
        _ => {
            map.insert(key.to_owned(), Value::String(text.to_owned()));
        }
    }
}

/// A slot of `items` at `index`, growing the list with `null`s up to it. An index past
/// `MAX_BLOCKS` is refused: no provider streams that many blocks, and a hostile index must not
/// allocate without bound (our caution).
pub(crate) fn slot(items: &mut Vec<Value>, index: usize) -> Option<&mut Value> {
    if index >= MAX_BLOCKS {
        return None;
    }
    if items.len() <= index {
        items.resize(index + 1, Value::Null);
    }
    items.get_mut(index)
}

/// The most blocks (or items, or calls) one recorded turn holds.
pub(crate) const MAX_BLOCKS: usize = 4096;

/// A streamed arguments text as the body would carry it: the JSON it is; `{}` for empty or
/// blank text (`wire::calls`' rule); a text that is not JSON as a string (the call stream
/// reports it as that call's error).
pub(crate) fn input_of(text: &str) -> Value {
    if text.trim().is_empty() {
        return Value::Object(Default::default());
    }
    serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned()))
}
