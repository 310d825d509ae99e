//! The response body a stream builds, for the replay of a streamed turn: the assemblers of
//! `wire::calls` yield calls only, this records the rest (text, thinking and its signatures,
//! reasoning items, server tools, Gemini `thoughtSignature`s) from the same events, in the
//! format's body shape, so [`replay_turn`](super::replay_turn) reads it with the stream's calls
//! and their pointers. Generic over the providers; each provider folder's `streamed_turn.rs`
//! (Chat Completions: `openai/chat_streamed_turn.rs`, Responses:
//! `openai/responses_streamed_turn.rs`) knows its events.
//!
//! Policy: record, never judge: the call stream fed the same events says what is wrong with
//! them ([`StreamError`](crate::wire::calls::StreamError)); an event or member this does not
//! know is ignored, and nothing here panics or fails on any input.

use serde_json::Value;

use super::{replay_turn, Replay, ReplayError};
use crate::wire::calls::{CallFormat, ToolCall};
use crate::wire::{anthropic, converse, gemini, openai};

/// Each format's recorder.
#[derive(Debug)]
enum Recorder {
    Chat(openai::chat_streamed_turn::ChatTurn),
    Responses(openai::responses_streamed_turn::ResponsesTurn),
    Anthropic(anthropic::streamed_turn::AnthropicTurn),
    Converse(converse::streamed_turn::ConverseTurn),
    Gemini(gemini::streamed_turn::GeminiTurn),
}

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
    recorder: Recorder,
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
        let recorder = match format {
            CallFormat::OpenAiChat => Recorder::Chat(Default::default()),
            CallFormat::OpenAiResponses => Recorder::Responses(Default::default()),
            CallFormat::Anthropic => Recorder::Anthropic(Default::default()),
            CallFormat::Converse => Recorder::Converse(Default::default()),
            CallFormat::Gemini => Recorder::Gemini(Default::default()),
        };
        StreamedTurn { format, recorder }
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
        match &mut self.recorder {
            Recorder::Chat(turn) => turn.push(event),
            Recorder::Responses(turn) => turn.push(event),
            Recorder::Anthropic(turn) => turn.push(event),
            Recorder::Converse(turn) => turn.push(event),
            Recorder::Gemini(turn) => turn.push(event),
        }
    }

    /// Records one event given as JSON bytes (a server-sent event's `data`, a JSON line); text
    /// that is not JSON (Chat Completions' `[DONE]`) is ignored.
    ///
    /// ```
    /// use toolwire_core::wire::{calls::CallFormat, replay::StreamedTurn};
    /// let mut turn = StreamedTurn::new(CallFormat::OpenAiChat);
    /// turn.push_slice(br#"{"choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hi"}}]}"#);
    /// turn.push_slice(b"[DONE]");
    /// assert_eq!(turn.body()["choices"][0]["message"]["content"], "Hi");
    /// ```
    pub fn push_slice(&mut self, event: &[u8]) {
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
        match &self.recorder {
            Recorder::Chat(turn) => turn.body(),
            Recorder::Responses(turn) => turn.body(),
            Recorder::Anthropic(turn) => turn.body(),
            Recorder::Converse(turn) => turn.body(),
            Recorder::Gemini(turn) => turn.body(),
        }
    }

    /// The turn to append to history, given the calls the stream yielded:
    /// [`replay_turn`] of [`body`](Self::body).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::wire::{calls::CallFormat, replay::StreamedTurn};
    /// let turn = StreamedTurn::new(CallFormat::Gemini);
    /// assert!(turn.replay(&[]).unwrap().is_verbatim());
    /// ```
    pub fn replay(&self, calls: &[ToolCall]) -> Result<Replay, ReplayError> {
        replay_turn(self.format, &self.body(), calls)
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
