//! The calls of a stream, as its events arrive: one assembler per format (in the provider's
//! folder), behind one [`CallStream`]; and the same over the raw text, [`SseCallStream`] for
//! server-sent events and [`JsonLinesCallStream`] for one event per line.
//!
//! Policy: a call is yielded when, and only when, its end comes; a stream that ends before
//! then is an error naming the call ([`StreamError::Unfinished`]), never a call, however whole
//! its partial arguments look. Each format's end of a call: Chat Completions, a non-empty
//! `finish_reason`, `data: [DONE]`, or the end of the stream at an event boundary (many
//! OpenAI-compatible servers end a stream by closing it; `openai/chat_stream/` says why that
//! end is safe), so [`CallStream::finish`] returns the calls it ends; the other formats keep
//! their explicit end events, and a call open at the stream's end stays unfinished: the
//! Messages API's `content_block_stop`, the Responses API's `response.output_item.done`,
//! Converse's `contentBlockStop`; Gemini's calls are whole in one chunk. A stream that ends
//! inside an event (cut) ends no call. Events of a type the assembler does not know are
//! ignored, but input none of whose events is the format's is not its stream
//! ([`StreamError::NotTheFormat`]): an HTML error page, a JSON body, nothing at all. Never
//! `Ok` with no calls, which an agent loop reads as "the model is done". Before the first
//! event of the format, an event that is not JSON is that too. A fault ends the stream: the
//! calls ended before it in the same push are still returned, and the fault comes with the
//! next push or `finish`. One line or event is at most a limit long
//! ([`DEFAULT_MAX_EVENT_BYTES`](super::DEFAULT_MAX_EVENT_BYTES)), past which the stream is
//! [`StreamError::EventTooLong`].

use bytes::BytesMut;
use serde_json::Value;
use tokio_util::codec::{Decoder, LinesCodec, LinesCodecError};

use super::arguments::DEFAULT_MAX_ARGUMENT_BYTES;
use super::call_format::CallFormat;
use super::error::{Fault, StreamError};
use super::lines::DEFAULT_MAX_EVENT_BYTES;
use super::sink::CallSink;
use super::sse::SseDecoder;
use super::tool_call::{ToolCall, UnfinishedCall};
use crate::wire::apis::api;
use crate::wire::replay::StreamedTurn;

mod json_lines;
mod sse;
#[cfg(test)]
mod tests;

pub use json_lines::JsonLinesCallStream;
pub(crate) use sse::is_end_marker;
pub use sse::SseCallStream;

/// Assembles a stream's client tool calls from its events, parsed: Chat Completions chunks,
/// Responses and Messages API events, decoded Converse stream events (`{"contentBlockStart":
/// …}` as the AWS SDKs yield them), Gemini `GenerateContentResponse` chunks.
///
/// Each format's end signal: Chat Completions, the choice's `finish_reason` (it ends every open
/// call), `[DONE]`, or the end of the stream ([`finish`](Self::finish)); Responses,
/// `response.output_item.done`; the Messages API, `content_block_stop`; Converse,
/// `contentBlockStop`; Gemini, each whole `functionCall` part.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::wire::calls::{CallFormat, CallStream};
///
/// let mut stream = CallStream::new(CallFormat::OpenAiChat);
/// let delta = |tool_call, finish| json!({"choices": [{"index": 0,
///     "delta": {"tool_calls": tool_call}, "finish_reason": finish}]});
/// let header = json!([{"index": 0, "id": "call_1", "type": "function",
///     "function": {"name": "get_weather", "arguments": ""}}]);
/// assert!(stream.push(&delta(header, json!(null))).unwrap().is_empty());
/// let fragment = json!([{"index": 0, "function": {"arguments": "{\"city\":\"Paris\"}"}}]);
/// // Whole JSON is not an end signal: the finish reason is.
/// assert!(stream.push(&delta(fragment, json!(null))).unwrap().is_empty());
/// let calls = stream.push(&delta(json!(null), json!("tool_calls"))).unwrap();
/// assert_eq!(calls[0].name, "get_weather");
/// assert_eq!(calls[0].arguments.as_ref().unwrap()["city"], "Paris");
/// assert!(stream.finish().unwrap().is_empty());
/// ```
#[derive(Debug)]
pub struct CallStream {
    format: CallFormat,
    /// The format's machine, inside the turn it builds: the calls point into that turn.
    recorded: StreamedTurn,
    /// Whether [`turn`](Self::turn) shows the turn ([`CallStream::recording_turn`]).
    recording: bool,
    sink: CallSink,
    /// The limit of one raw line or event, for the text readers over this stream.
    max_event_bytes: usize,
    events: usize,
    known_events: usize,
    /// The start of the first event, while none is of the format: what the input was instead.
    begins: String,
    failed: Option<StreamError>,
    /// Whether [`finish`](Self::finish) ended the stream cleanly: nothing more is taken.
    finished: bool,
    /// Whether that end was inferred from the close ([`ended_by_close`](Self::ended_by_close)).
    closed: bool,
}

impl CallStream {
    /// A stream of `format`, with the default limit of one call's arguments
    /// ([`DEFAULT_MAX_ARGUMENT_BYTES`]; [`CallParser::stream`](super::CallParser::stream) sets
    /// another).
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, CallStream};
    /// assert_eq!(CallStream::new(CallFormat::Gemini).format(), CallFormat::Gemini);
    /// ```
    pub fn new(format: CallFormat) -> CallStream {
        CallStream::with_limits(format, DEFAULT_MAX_ARGUMENT_BYTES, DEFAULT_MAX_EVENT_BYTES)
    }

    pub(crate) fn with_limits(
        format: CallFormat,
        max_argument_bytes: usize,
        max_event_bytes: usize,
    ) -> CallStream {
        CallStream {
            format,
            recorded: StreamedTurn::new(format),
            recording: false,
            sink: CallSink::new(max_argument_bytes),
            max_event_bytes,
            events: 0,
            known_events: 0,
            begins: String::new(),
            failed: None,
            finished: false,
            closed: false,
        }
    }

    /// The same stream, also recording the assistant turn its events carry (text, thinking and
    /// signatures, reasoning items, server tools) as a [`StreamedTurn`], for the replay of a
    /// streamed turn ([`turn`](Self::turn)).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::wire::calls::{CallFormat, CallStream};
    /// let mut stream = CallStream::new(CallFormat::Gemini).recording_turn();
    /// let chunk = json!({"candidates": [{"content": {"role": "model", "parts": [
    ///     {"functionCall": {"name": "get_time"}, "thoughtSignature": "sig"}]}}]});
    /// let calls = stream.push(&chunk).unwrap();
    /// let replay = stream.turn().unwrap().replay(&calls).unwrap();
    /// assert_eq!(replay.turn["parts"][0]["thoughtSignature"], "sig");
    /// ```
    pub fn recording_turn(mut self) -> CallStream {
        self.recording = true;
        self
    }

    /// The assistant turn recorded so far, if the stream records one
    /// ([`recording_turn`](Self::recording_turn)).
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, CallStream};
    /// assert!(CallStream::new(CallFormat::Anthropic).turn().is_none());
    /// ```
    pub fn turn(&self) -> Option<&StreamedTurn> {
        self.recording.then_some(&self.recorded)
    }

    /// The stream's format.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, CallStream};
    /// assert_eq!(CallStream::new(CallFormat::Anthropic).format(), CallFormat::Anthropic);
    /// ```
    pub fn format(&self) -> CallFormat {
        self.format
    }

    /// Feeds the next event; returns the calls it ended, in order.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::wire::calls::{CallFormat, CallStream};
    /// let mut stream = CallStream::new(CallFormat::Gemini);
    /// let chunk = json!({"candidates": [{"content": {"role": "model", "parts": [
    ///     {"functionCall": {"name": "get_time"}}]}}]});
    /// let calls = stream.push(&chunk).unwrap();
    /// assert_eq!((calls[0].id.as_ref(), calls[0].name.as_str()), (None, "get_time"));
    /// ```
    #[must_use = "the calls an event ends are returned only once"]
    pub fn push(&mut self, event: &Value) -> Result<Vec<ToolCall>, StreamError> {
        if let Some(refused) = self.refused() {
            return Err(refused);
        }
        let number = self.events;
        self.events += 1;
        let machine = self.recorded.machine_mut();
        if machine.knows(event) {
            self.known_events += 1;
        } else if self.known_events == 0 && self.begins.is_empty() {
            self.begins = beginning(event.to_string().as_bytes());
        }
        let pushed = machine.push(event, &mut self.sink);
        let calls = self.sink.take();
        match pushed {
            Ok(()) => Ok(calls),
            Err(fault) => {
                let error = match fault {
                    // Before any event of the format, one the machine neither knows nor can
                    // read (`{"detail": "Not Found"}` as a Chat chunk) says the input is not
                    // the format's stream, quoting it; the provider's own error stays itself.
                    Fault::Shape { .. } if self.known_events == 0 => StreamError::NotTheFormat {
                        format: self.format,
                        events: self.events,
                        begins: self.begins.clone(),
                    },
                    fault => fault.in_stream(self.format, number),
                };
                self.recorded.record_failure(error.to_string());
                self.failed = Some(error.clone());
                if calls.is_empty() {
                    Err(error)
                } else {
                    Ok(calls)
                }
            }
        }
    }

    /// The stream's end marker came (`data: [DONE]`): the calls it ends (Chat Completions:
    /// every call still open).
    fn push_done(&mut self) -> Result<Vec<ToolCall>, StreamError> {
        if let Some(refused) = self.refused() {
            return Err(refused);
        }
        let pushed = self.recorded.machine_mut().done(&mut self.sink);
        let calls = self.sink.take();
        match pushed {
            Ok(()) => Ok(calls),
            Err(fault) => {
                let error = fault.in_stream(self.format, self.events);
                self.recorded.record_failure(error.to_string());
                self.failed = Some(error.clone());
                if calls.is_empty() {
                    Err(error)
                } else {
                    Ok(calls)
                }
            }
        }
    }

    /// Feeds the next event as JSON text, or OpenAI's end marker `[DONE]` (a server-sent
    /// event's `data`: it ends every Chat Completions call still open).
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, CallStream, StreamError};
    /// let mut stream = CallStream::new(CallFormat::Converse);
    /// let calls = stream.push_slice(br#"{"contentBlockStart": {"contentBlockIndex": 0,
    ///     "start": {"toolUse": {"toolUseId": "tooluse_1", "name": "get_time"}}}}"#).unwrap();
    /// assert!(calls.is_empty());
    /// let calls = stream.push_slice(br#"{"contentBlockStop": {"contentBlockIndex": 0}}"#).unwrap();
    /// assert_eq!(calls[0].name, "get_time");
    /// assert!(matches!(stream.push_slice(b"{"), Err(StreamError::EventNotJson { event: 2, .. })));
    /// ```
    #[must_use = "the calls an event ends are returned only once"]
    pub fn push_slice(&mut self, event: &[u8]) -> Result<Vec<ToolCall>, StreamError> {
        if let Some(refused) = self.refused() {
            return Err(refused);
        }
        if is_end_marker(self.format, event) {
            return self.push_done();
        }
        match serde_json::from_slice::<Value>(event) {
            Ok(value) => self.push(&value),
            Err(error) => Err(self.not_json(event, error.to_string())),
        }
    }

    /// Fails the stream at an event (`text`) that is not JSON: before any event of the format,
    /// the input is not the format's stream at all (an HTML page, plain text).
    fn not_json(&mut self, text: &[u8], message: String) -> StreamError {
        // A fault kept (after calls its event ended) stays the stream's: the lines after it
        // are not read, however the bytes were chunked.
        if let Some(failed) = &self.failed {
            return failed.clone();
        }
        self.events += 1;
        let error = if self.known_events == 0 {
            StreamError::NotTheFormat {
                format: self.format,
                events: self.events,
                begins: beginning(text),
            }
        } else {
            StreamError::EventNotJson {
                format: self.format,
                event: self.events - 1,
                message,
            }
        };
        self.recorded.record_failure(error.to_string());
        self.failed = Some(error.clone());
        error
    }

    /// Fails the stream at the event being read, which passed the limit of one event.
    fn too_long(&mut self) -> StreamError {
        if let Some(failed) = &self.failed {
            return failed.clone();
        }
        let error = StreamError::EventTooLong {
            format: self.format,
            event: self.events,
            limit: self.max_event_bytes,
        };
        self.recorded.record_failure(error.to_string());
        self.failed = Some(error.clone());
        error
    }

    /// The calls begun and not yet ended, in order.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::wire::calls::{CallFormat, CallStream};
    /// let mut stream = CallStream::new(CallFormat::OpenAiResponses);
    /// let added = json!({"type": "response.output_item.added", "output_index": 0, "item":
    ///     {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f", "arguments": ""}});
    /// let _ = stream.push(&added).unwrap();
    /// assert_eq!(stream.open_calls()[0].id.as_deref(), Some("call_1"));
    /// ```
    pub fn open_calls(&self) -> Vec<UnfinishedCall> {
        self.recorded.machine().open()
    }

    /// Ends the stream, which ended at an event boundary: the calls that end ends (Chat
    /// Completions: every call still open, as `[DONE]` would; no other format ends a call
    /// there), or an error if a call is still open (each named), if an earlier event was a
    /// fault, or if no event was of the format's kinds (no event at all, or another format's:
    /// [`StreamError::NotTheFormat`]). As with [`push`](Self::push), calls the end ended
    /// before a fault come first (`Ok`), the error with the next `finish` or push; a second
    /// `finish` after `Ok` is needed to see it, and an error means the turn is not whole.
    /// [`ended_by_close`](Self::ended_by_close) says whether the end was only the close's.
    ///
    /// The caller must know the stream ended between events: this stream is fed parsed
    /// events and cannot see a cut one, so call it only when the last event came whole (the
    /// text readers [`SseCallStream`] and [`JsonLinesCallStream`] know, and refuse a cut end);
    /// for a Chat Completions stream, calling it after a cut ends the open calls as if closed.
    ///
    /// Afterwards the stream takes nothing more ([`StreamError::Finished`], or the error
    /// again), and [`turn`](Self::turn) shows the turn as the end left it. A second `finish`
    /// returns no call (each call is returned once) or the error again.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::wire::calls::{CallFormat, CallStream, StreamError};
    /// let mut stream = CallStream::new(CallFormat::Anthropic);
    /// let _ = stream.push(&json!({"type": "message_stop"})).unwrap();
    /// assert!(stream.finish().unwrap().is_empty());
    /// // No event at all is no turn: never a quiet end without calls.
    /// let err = CallStream::new(CallFormat::Anthropic).finish().unwrap_err();
    /// assert!(matches!(err, StreamError::NotTheFormat { events: 0, .. }));
    ///
    /// // A Chat Completions server that closes the stream with neither a finish_reason nor
    /// // `[DONE]`: the end ends the call.
    /// let mut stream = CallStream::new(CallFormat::OpenAiChat).recording_turn();
    /// let chunk = json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
    ///     "id": "call_1", "function": {"name": "get_time", "arguments": "{\"tz\":\"UTC\"}"}}]}}]});
    /// assert!(stream.push(&chunk).unwrap().is_empty());
    /// let calls = stream.finish().unwrap();
    /// assert_eq!(calls[0].arguments.as_ref().unwrap()["tz"], "UTC");
    /// stream.turn().unwrap().whole().unwrap();
    /// assert!(matches!(stream.push(&chunk), Err(StreamError::Finished { .. })));
    /// ```
    #[must_use = "the calls the end ends are returned only once"]
    pub fn finish(&mut self) -> Result<Vec<ToolCall>, StreamError> {
        self.finish_cut(None, None)
    }

    /// Ends the stream, which ended inside an event whose text was `cut` (if any); `head` is
    /// the raw input's start, which a text reader's [`StreamError::NotTheFormat`] quotes when
    /// no event came (else it quotes the first event, as [`CallStream::push`] would).
    fn finish_cut(
        &mut self,
        cut: Option<&str>,
        head: Option<&[u8]>,
    ) -> Result<Vec<ToolCall>, StreamError> {
        if let Some(failed) = &self.failed {
            return Err(failed.clone());
        }
        if self.finished {
            return Ok(Vec::new());
        }
        self.recorded.mark_ended();
        match self.end(cut, head) {
            Ok(calls) => {
                self.finished = true;
                Ok(calls)
            }
            // Push's rule: the calls the end ended before its fault now, the fault next.
            Err((calls, error)) => {
                self.failed = Some(error.clone());
                if calls.is_empty() {
                    Err(error)
                } else {
                    Ok(calls)
                }
            }
        }
    }

    /// The end: the calls it ended, or a fault with the calls it ended before it.
    fn end(
        &mut self,
        cut: Option<&str>,
        head: Option<&[u8]>,
    ) -> Result<Vec<ToolCall>, (Vec<ToolCall>, StreamError)> {
        let cut_calls = cut.map(|text| self.recorded.machine().cut(text));
        // A cut event that names a call is the format's: that call is what the caller must
        // hear of. Anything else with no event of the format is not its stream.
        if self.known_events == 0 && cut_calls.as_ref().is_none_or(Vec::is_empty) {
            let error = StreamError::NotTheFormat {
                format: self.format,
                events: self.events,
                begins: match head {
                    Some(head) if self.events == 0 => beginning(head),
                    _ => self.begins.clone(),
                },
            };
            return Err((Vec::new(), error));
        }
        let Some(cut_calls) = cut_calls else {
            let inferred = self.recorded.machine().end_inferred();
            if let Err(fault) = self.recorded.machine_mut().end(&mut self.sink) {
                let error = fault.in_stream(self.format, self.events);
                self.recorded.record_failure(error.to_string());
                return Err((self.sink.take(), error));
            }
            let calls = self.sink.take();
            let open = self.recorded.machine().open();
            if open.is_empty() {
                self.closed = inferred;
                return Ok(calls);
            }
            let error = StreamError::Unfinished {
                format: self.format,
                calls: open,
                cut_event: false,
            };
            return Err((calls, error));
        };
        // The recorded turn names the calls the cut event held, as this error does.
        self.recorded.set_cut_calls(cut_calls.clone());
        let mut calls = self.recorded.machine().open();
        calls.extend(cut_calls);
        let error = StreamError::Unfinished {
            format: self.format,
            calls,
            cut_event: true,
        };
        Err((Vec::new(), error))
    }

    /// Whether [`finish`](Self::finish) ended the stream by inference: a Chat Completions
    /// stream that ended between events with neither a non-empty `finish_reason` nor
    /// `[DONE]`, whose open calls the close ended (a close is often a truncation: such a call
    /// whose arguments were blank or `{}` is bad arguments, never run). `false` before
    /// `finish`, after a failed one, after a real end, and for every other format, whose
    /// calls end only at their own end events. For a caller that must tell a closed stream
    /// from a finished one (to retry, or to distrust the turn).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::wire::calls::{CallFormat, CallStream};
    /// let chunk = |finish| json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
    ///     "id": "call_1", "function": {"name": "get_time", "arguments": "{\"tz\":\"UTC\"}"}}]},
    ///     "finish_reason": finish}]});
    /// let mut closed = CallStream::new(CallFormat::OpenAiChat);
    /// let _ = closed.push(&chunk(json!(null))).unwrap();
    /// assert_eq!(closed.finish().unwrap().len(), 1);
    /// assert!(closed.ended_by_close());
    ///
    /// let mut finished = CallStream::new(CallFormat::OpenAiChat);
    /// assert_eq!(finished.push(&chunk(json!("tool_calls"))).unwrap().len(), 1);
    /// assert!(finished.finish().unwrap().is_empty());
    /// assert!(!finished.ended_by_close());
    /// ```
    pub fn ended_by_close(&self) -> bool {
        self.closed
    }

    /// Why the stream takes no more: an earlier fault, or its clean end.
    fn refused(&self) -> Option<StreamError> {
        if let Some(failed) = &self.failed {
            return Some(failed.clone());
        }
        self.finished.then_some(StreamError::Finished {
            format: self.format,
        })
    }
}

/// How many bytes of the input's start [`StreamError::NotTheFormat`] quotes.
const BEGINS_BYTES: usize = 80;

/// The raw input's first bytes, kept by the text readers for [`StreamError::NotTheFormat`].
#[derive(Debug, Default)]
struct Head(Vec<u8>);

impl Head {
    /// The first line with text in it (up to its end), which is the line a JSON-lines stream
    /// failed at when no event came before: the same quote however the bytes were chunked.
    fn first_line(&self) -> &[u8] {
        let start = self
            .0
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(self.0.len());
        let end = self.0[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(self.0.len(), |at| start + at);
        &self.0[start..end]
    }

    fn keep(&mut self, chunk: &[u8]) {
        // Room for whitespace that `beginning` makes one space.
        let room = (4 * BEGINS_BYTES).saturating_sub(self.0.len());
        self.0.extend_from_slice(&chunk[..room.min(chunk.len())]);
    }
}

/// The start of `text` as one line to quote: whitespace runs made one space, at most
/// [`BEGINS_BYTES`] long (cut at a character, with `…`).
fn beginning(text: &[u8]) -> String {
    let text = String::from_utf8_lossy(&text[..text.len().min(4 * BEGINS_BYTES)]);
    let mut out = String::new();
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
        if out.len() > BEGINS_BYTES {
            break;
        }
    }
    if out.len() > BEGINS_BYTES {
        let mut end = BEGINS_BYTES;
        while !out.is_char_boundary(end) {
            end -= 1;
        }
        out.truncate(end);
        out.push('…');
    }
    out
}
