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
use crate::wire::apis::api;
use crate::wire::calls::machine::Machine;
use crate::wire::calls::sink::CallSink;
use crate::wire::calls::stream::is_end_marker;
use crate::wire::calls::{CallFormat, ToolCall, UnfinishedCall, DEFAULT_MAX_ARGUMENT_BYTES};

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
/// called.extend(calls.finish().unwrap());
/// turn.end();
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
    calls: CallSink,
    /// Whether the byte stream that feeds it is inside an event (set by
    /// [`SseCallStream`](crate::wire::calls::SseCallStream) and
    /// [`JsonLinesCallStream`](crate::wire::calls::JsonLinesCallStream)): the turn is cut there.
    inside_event: bool,
    /// The calls the text of the event the stream ended inside of began (a Gemini call),
    /// named from that text when the text reader finished.
    cut_calls: Vec<UnfinishedCall>,
    /// The first fault an event was (the provider's error event, a malformed event): the
    /// turn is not whole after it.
    failed: Option<String>,
    /// The events fed on their own so far (a fault names its event).
    events: usize,
    /// Whether [`end`](Self::end) (or the call stream's `finish`) ended it: an event after
    /// that is a failure, never recorded, so the turn and its call stream cannot diverge.
    ended: bool,
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
            machine: api(format).stream_machine(),
            calls: CallSink::new(DEFAULT_MAX_ARGUMENT_BYTES),
            inside_event: false,
            cut_calls: Vec::new(),
            failed: None,
            events: 0,
            ended: false,
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
        if self.refuse_after_end() {
            return;
        }
        // Record, never judge: the call stream fed the same events reports their faults; the
        // turn only keeps that it is not whole.
        if let Err(fault) = self.machine.push(event, &mut self.calls) {
            self.record_failure(fault.in_stream(self.format, self.events).to_string());
        }
        self.events += 1;
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
        if self.refuse_after_end() {
            return;
        }
        if is_end_marker(self.format, event) {
            if let Err(fault) = self.machine.done(&mut self.calls) {
                self.record_failure(fault.in_stream(self.format, self.events).to_string());
            }
            self.events += 1;
            self.calls.take();
            return;
        }
        if let Ok(event) = serde_json::from_slice::<Value>(event) {
            self.push(&event);
        }
    }

    /// The stream ended at an event boundary, as its last event came whole: the calls that
    /// end ends are ended here too (Chat Completions: every call still open, as a
    /// [`CallStream::finish`](crate::wire::calls::CallStream::finish) fed the same events
    /// ends them; no other format ends a call there). For a turn fed on its own; the call
    /// streams' `finish` does it for the turn they record. Not for a stream cut inside an
    /// event, whose calls stay cut. A second `end` does nothing; an event pushed after it is
    /// not recorded, and the turn is then not whole ([`ReplayError::Failed`]), as the call
    /// stream fed it refuses it ([`StreamError::Finished`]).
    ///
    /// [`ReplayError::Failed`]: super::ReplayError::Failed
    /// [`StreamError::Finished`]: crate::wire::calls::StreamError::Finished
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::wire::{calls::CallFormat, replay::{ReplayError, StreamedTurn}};
    /// let mut turn = StreamedTurn::new(CallFormat::OpenAiChat);
    /// turn.push(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
    ///     "id": "call_1", "function": {"name": "get_time", "arguments": "{}"}}]}}]}));
    /// assert!(matches!(turn.whole(), Err(ReplayError::Cut { .. })));
    /// turn.end();
    /// turn.whole().unwrap();
    /// turn.push(&json!({"choices": []}));
    /// assert!(matches!(turn.whole(), Err(ReplayError::Failed { .. })));
    /// ```
    pub fn end(&mut self) {
        if self.ended {
            return;
        }
        self.ended = true;
        if let Err(fault) = self.machine.end(&mut self.calls) {
            self.record_failure(fault.in_stream(self.format, self.events).to_string());
        }
        self.calls.take();
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
    pub fn replay(&self, calls: &[ToolCall]) -> Result<Replay<'static>, ReplayError> {
        self.whole()?;
        // The body is built for this replay: its turn is taken out of it, not copied.
        super::owned_from_built(self.format, self.body(), |body| {
            replay_turn(self.format, body, calls)
        })
    }

    /// Whether the turn is whole, so history may carry it: [`ReplayError::Cut`] when calls it
    /// began never ended or the bytes stopped inside an event, [`ReplayError::Failed`] when an
    /// event was a fault (the provider's error event). [`replay`](Self::replay) and
    /// [`Request::replay_streamed`](crate::runtime::Request::replay_streamed) check it first.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::wire::{calls::CallFormat, replay::{ReplayError, StreamedTurn}};
    /// let mut turn = StreamedTurn::new(CallFormat::Gemini);
    /// turn.push(&json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "Hi"}]}}]}));
    /// turn.whole().unwrap();
    /// turn.push(&json!({"error": {"code": 503, "message": "overloaded", "status": "UNAVAILABLE"}}));
    /// assert!(matches!(turn.whole(), Err(ReplayError::Failed { .. })));
    /// ```
    pub fn whole(&self) -> Result<(), ReplayError> {
        let mut open = self.machine.open();
        open.extend(self.machine.open_server_calls());
        open.extend(self.cut_calls.iter().cloned());
        if !open.is_empty() || self.inside_event {
            return Err(ReplayError::Cut {
                format: self.format,
                calls: open,
                cut_event: self.inside_event,
            });
        }
        match &self.failed {
            Some(message) => Err(ReplayError::Failed {
                format: self.format,
                message: message.clone(),
            }),
            None => Ok(()),
        }
    }

    /// Keeps the first fault an event was, in the call stream's words (the
    /// [`CallStream`](crate::wire::calls::CallStream) that runs this machine calls it too).
    pub(crate) fn record_failure(&mut self, message: String) {
        if self.failed.is_none() {
            self.failed = Some(message);
        }
    }

    /// An event came after the end: recorded as the turn's failure, and refused.
    fn refuse_after_end(&mut self) -> bool {
        if self.ended {
            self.record_failure(format!(
                "the {} stream was already ended: event {} came after its end",
                self.format, self.events
            ));
            self.events += 1;
        }
        self.ended
    }

    /// The call stream that runs this machine ended it (its `finish`).
    pub(crate) fn mark_ended(&mut self) {
        self.ended = true;
    }

    /// Says whether the byte stream feeding this turn is inside an event.
    pub(crate) fn set_inside_event(&mut self, inside: bool) {
        self.inside_event = inside;
    }

    /// The byte stream ended inside an event whose text began `calls`.
    pub(crate) fn set_cut_calls(&mut self, calls: Vec<UnfinishedCall>) {
        self.inside_event = true;
        self.cut_calls = calls;
    }

    /// The machine, for the [`CallStream`](crate::wire::calls::CallStream) that runs it.
    pub(crate) fn machine(&self) -> &Machine {
        &self.machine
    }

    pub(crate) fn machine_mut(&mut self) -> &mut Machine {
        &mut self.machine
    }
}
