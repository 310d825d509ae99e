//! The calls of a stream, as its events arrive: one assembler per format (in the provider's
//! folder), behind one [`CallStream`]; and the same over the raw text, [`SseCallStream`] for
//! server-sent events and [`JsonLinesCallStream`] for one event per line.
//!
//! Policy: a call is yielded when, and only when, its end comes; a stream that ends before
//! then is an error naming the call ([`StreamError::Unfinished`]), never a call, however whole
//! its partial arguments look. Each format's end of a call: Chat Completions, a non-empty
//! `finish_reason`, `data: [DONE]`, or the end of the stream at an event boundary (many
//! OpenAI-compatible servers end a stream by closing it; `openai/chat_stream.rs` says why that
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

/// A stream's calls from its raw server-sent-event text, in any chunking: the bytes as they
/// come off the connection (Chat Completions, Responses, the Messages API, Gemini with
/// `alt=sse`). Each event's `data` is one JSON event for [`CallStream`]; OpenAI's
/// `data: [DONE]` ends the stream (openai-python `_streaming.py`: `if
/// sse.data.startswith("[DONE]"): break`).
///
/// ```
/// use toolwire_core::wire::calls::{CallFormat, SseCallStream};
///
/// let text = concat!(
///     "event: content_block_start\r\n",
///     r#"data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{}}}"#, "\r\n\r\n",
///     "event: content_block_delta\r\n",
///     r#"data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"city\": \"Paris\"}"}}"#, "\r\n\r\n",
///     "event: content_block_stop\r\n",
///     r#"data: {"type":"content_block_stop","index":0}"#, "\r\n\r\n",
/// );
/// let mut stream = SseCallStream::new(CallFormat::Anthropic);
/// let mut calls = Vec::new();
/// for chunk in text.as_bytes().chunks(5) {
///     calls.extend(stream.push(chunk).unwrap());
/// }
/// assert!(stream.finish().unwrap().is_empty());
/// assert_eq!(calls[0].arguments.as_ref().unwrap()["city"], "Paris");
/// ```
#[derive(Debug)]
pub struct SseCallStream {
    decoder: SseDecoder,
    calls: CallStream,
    done: bool,
    head: Head,
}

impl SseCallStream {
    /// A stream of `format` with the default limits.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, SseCallStream};
    /// assert_eq!(SseCallStream::new(CallFormat::Gemini).format(), CallFormat::Gemini);
    /// ```
    pub fn new(format: CallFormat) -> SseCallStream {
        SseCallStream::over(CallStream::new(format))
    }

    pub(crate) fn over(calls: CallStream) -> SseCallStream {
        SseCallStream {
            decoder: SseDecoder::with_max_event_bytes(calls.max_event_bytes),
            calls,
            done: false,
            head: Head::default(),
        }
    }

    /// The same stream, also recording the assistant turn its events carry
    /// ([`CallStream::recording_turn`]).
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, SseCallStream};
    /// let mut stream = SseCallStream::new(CallFormat::OpenAiChat).recording_turn();
    /// let _ = stream.push(b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n");
    /// assert_eq!(stream.turn().unwrap().body()["choices"][0]["message"]["content"], "Hi");
    /// ```
    pub fn recording_turn(self) -> SseCallStream {
        SseCallStream {
            calls: self.calls.recording_turn(),
            ..self
        }
    }

    /// The assistant turn recorded so far, if the stream records one.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, SseCallStream};
    /// assert!(SseCallStream::new(CallFormat::Gemini).turn().is_none());
    /// ```
    pub fn turn(&self) -> Option<&StreamedTurn> {
        self.calls.turn()
    }

    /// The stream's format.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, SseCallStream};
    /// assert_eq!(SseCallStream::new(CallFormat::OpenAiChat).format(), CallFormat::OpenAiChat);
    /// ```
    pub fn format(&self) -> CallFormat {
        self.calls.format()
    }

    /// Whether [`finish`](Self::finish) ended the stream by inference from its close, with
    /// neither a `finish_reason` nor `[DONE]` ([`CallStream::ended_by_close`]).
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, SseCallStream};
    /// let mut stream = SseCallStream::new(CallFormat::OpenAiChat);
    /// let _ = stream.push(b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n");
    /// assert!(stream.finish().unwrap().is_empty());
    /// assert!(stream.ended_by_close());
    /// ```
    pub fn ended_by_close(&self) -> bool {
        self.calls.ended_by_close()
    }

    /// Feeds the next bytes; returns the calls the events they complete ended.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, SseCallStream};
    /// let mut stream = SseCallStream::new(CallFormat::OpenAiChat);
    /// let chunk = b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n";
    /// assert!(stream.push(chunk).unwrap().is_empty());
    /// assert!(stream.push(b"data: [DONE]\n\n").unwrap().is_empty());
    /// assert!(stream.finish().unwrap().is_empty());
    /// ```
    #[must_use = "the calls an event ends are returned only once"]
    pub fn push(&mut self, chunk: &[u8]) -> Result<Vec<ToolCall>, StreamError> {
        if let Some(refused) = self.calls.refused() {
            return Err(refused);
        }
        self.head.keep(chunk);
        let Ok(events) = self.decoder.push(chunk) else {
            return Err(self.calls.too_long());
        };
        let mut calls = Vec::new();
        for event in events {
            if self.done {
                continue;
            }
            if is_end_marker(self.calls.format(), event.data.as_bytes()) {
                // Not an event of the format by itself: a stream of nothing but `[DONE]` (a
                // proxy that failed) has no turn in it.
                self.done = true;
            }
            match self.calls.push_slice(event.data.as_bytes()) {
                Ok(ended) => calls.extend(ended),
                Err(error) => {
                    // The turn ends at the fault, whatever bytes follow it: it is no more cut
                    // than the same stream fed whole. The calls ended before the fault are
                    // returned; the fault comes next.
                    self.calls.recorded.set_inside_event(false);
                    return if calls.is_empty() {
                        Err(error)
                    } else {
                        Ok(calls)
                    };
                }
            }
        }
        // The recorded turn is cut while the bytes stop inside an event.
        let inside = !self.done && self.decoder.inside_event();
        self.calls.recorded.set_inside_event(inside);
        Ok(calls)
    }

    /// Ends the stream: as [`CallStream::finish`], the calls its end ends (Chat Completions:
    /// every call still open, when the text ended between events; calls first, a fault after
    /// them with the next `finish`), or an error if a call is still open, if the text ended
    /// inside an event (the last event without its blank line is cut: WHATWG HTML, "Interpreting an
    /// event stream": an event is dispatched only at a blank line, and "if the file ends in
    /// the middle of an event, before the final empty line, the incomplete event is not
    /// dispatched"; a JSON-lines last line without its newline, by contrast, is
    /// read as an event, [`JsonLinesCallStream::finish`]) (a Gemini call that event held is named
    /// from its text, in the error and in the recorded turn's [`ReplayError::Cut`]), or if no
    /// event was the format's (an HTML error page, a JSON body, nothing:
    /// [`StreamError::NotTheFormat`] quotes how it begins).
    ///
    /// [`ReplayError::Cut`]: crate::wire::replay::ReplayError::Cut
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, SseCallStream, StreamError};
    /// let mut stream = SseCallStream::new(CallFormat::Gemini);
    /// let _ = stream.push(br#"data: {"candidates":[{"content":{"parts":[{"functionCall":{"name":"get_weather","args":{"ci"#);
    /// let Err(StreamError::Unfinished { calls, cut_event: true, .. }) = stream.finish() else { panic!() };
    /// assert_eq!(calls[0].name.as_deref(), Some("get_weather"));
    ///
    /// let mut stream = SseCallStream::new(CallFormat::OpenAiChat);
    /// let _ = stream.push(b"<html><head><title>502 Bad Gateway</title></head></html>\r\n");
    /// let Err(StreamError::NotTheFormat { events: 0, begins, .. }) = stream.finish() else { panic!() };
    /// assert!(begins.starts_with("<html><head><title>502 Bad Gateway"));
    ///
    /// // A Chat Completions stream closed between events, with no finish_reason and no [DONE].
    /// let mut stream = SseCallStream::new(CallFormat::OpenAiChat);
    /// let _ = stream.push(br#"data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"get_time","arguments":"{}"}}]}}]}"#);
    /// let _ = stream.push(b"\n\n");
    /// assert_eq!(stream.finish().unwrap()[0].name, "get_time");
    /// ```
    #[must_use = "the calls the end ends are returned only once"]
    pub fn finish(&mut self) -> Result<Vec<ToolCall>, StreamError> {
        let limit = self.calls.max_event_bytes;
        let decoder = std::mem::replace(&mut self.decoder, SseDecoder::with_max_event_bytes(limit));
        let cut = decoder.finish().filter(|_| !self.done);
        let head = std::mem::take(&mut self.head.0);
        self.calls.finish_cut(cut.as_deref(), Some(&head))
    }
}

/// Whether `event` is the end marker of `format`'s streams (OpenAI's `[DONE]`), which is not
/// JSON.
pub(crate) fn is_end_marker(format: CallFormat, event: &[u8]) -> bool {
    api(format)
        .end_marker()
        .is_some_and(|marker| event.starts_with(marker.as_bytes()))
}

/// A stream's calls from JSON lines in any chunking: one event per line, as a tool that
/// decodes Converse's binary event stream writes them (`{"contentBlockDelta": …}` per line).
/// Blank lines are skipped; a last line without its newline counts if it is whole JSON
/// (JSON Lines, jsonlines.org: "The last character in the file may be a line separator").
/// Lines end at `\n` (with a `\r` before it dropped), jsonlines.org's "Line Separator is
/// '\n'", and are read by tokio-util's `LinesCodec::new_with_max_length`, which bounds them.
///
/// ```
/// use toolwire_core::wire::calls::{CallFormat, JsonLinesCallStream};
/// let text = concat!(
///     r#"{"contentBlockStart":{"start":{"toolUse":{"toolUseId":"tooluse_1","name":"get_time"}},"contentBlockIndex":0}}"#, "\n",
///     r#"{"contentBlockStop":{"contentBlockIndex":0}}"#,
/// );
/// let mut stream = JsonLinesCallStream::new(CallFormat::Converse);
/// assert!(stream.push(text.as_bytes()).unwrap().is_empty());
/// let calls = stream.finish().unwrap();
/// assert_eq!(calls[0].id.as_deref(), Some("tooluse_1"));
/// ```
#[derive(Debug)]
pub struct JsonLinesCallStream {
    codec: LinesCodec,
    /// The bytes of the line being read (`LinesCodec` takes each line out of it).
    buffer: BytesMut,
    calls: CallStream,
    head: Head,
}

impl JsonLinesCallStream {
    /// A stream of `format` with the default limits.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, JsonLinesCallStream};
    /// assert_eq!(JsonLinesCallStream::new(CallFormat::Converse).format(), CallFormat::Converse);
    /// ```
    pub fn new(format: CallFormat) -> JsonLinesCallStream {
        JsonLinesCallStream::over(CallStream::new(format))
    }

    pub(crate) fn over(calls: CallStream) -> JsonLinesCallStream {
        JsonLinesCallStream {
            codec: LinesCodec::new_with_max_length(calls.max_event_bytes),
            buffer: BytesMut::new(),
            calls,
            head: Head::default(),
        }
    }

    /// The same stream, also recording the assistant turn its events carry
    /// ([`CallStream::recording_turn`]).
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, JsonLinesCallStream};
    /// let mut stream = JsonLinesCallStream::new(CallFormat::Converse).recording_turn();
    /// let _ = stream.push(b"{\"contentBlockDelta\":{\"contentBlockIndex\":0,\"delta\":{\"text\":\"Hi\"}}}\n");
    /// assert_eq!(stream.turn().unwrap().body()["output"]["message"]["content"][0]["text"], "Hi");
    /// ```
    pub fn recording_turn(self) -> JsonLinesCallStream {
        JsonLinesCallStream {
            calls: self.calls.recording_turn(),
            ..self
        }
    }

    /// The assistant turn recorded so far, if the stream records one.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, JsonLinesCallStream};
    /// assert!(JsonLinesCallStream::new(CallFormat::Converse).turn().is_none());
    /// ```
    pub fn turn(&self) -> Option<&StreamedTurn> {
        self.calls.turn()
    }

    /// The stream's format.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, JsonLinesCallStream};
    /// assert_eq!(JsonLinesCallStream::new(CallFormat::Gemini).format(), CallFormat::Gemini);
    /// ```
    pub fn format(&self) -> CallFormat {
        self.calls.format()
    }

    /// Whether [`finish`](Self::finish) ended the stream by inference from its close
    /// ([`CallStream::ended_by_close`]): never for Converse, whose calls end at
    /// `contentBlockStop`.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, JsonLinesCallStream};
    /// let mut stream = JsonLinesCallStream::new(CallFormat::Converse);
    /// let _ = stream.push(b"{\"messageStop\":{\"stopReason\":\"end_turn\"}}\n").unwrap();
    /// assert!(stream.finish().unwrap().is_empty());
    /// assert!(!stream.ended_by_close());
    /// ```
    pub fn ended_by_close(&self) -> bool {
        self.calls.ended_by_close()
    }

    /// Feeds the next bytes; returns the calls the lines they complete ended.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, JsonLinesCallStream};
    /// let mut stream = JsonLinesCallStream::new(CallFormat::Converse);
    /// assert!(stream.push(b"{\"messageStart\":{\"role\":\"assistant\"}}\n\n").unwrap().is_empty());
    /// ```
    #[must_use = "the calls an event ends are returned only once"]
    pub fn push(&mut self, chunk: &[u8]) -> Result<Vec<ToolCall>, StreamError> {
        if let Some(refused) = self.calls.refused() {
            return Err(refused);
        }
        self.head.keep(chunk);
        self.buffer.extend_from_slice(chunk);
        let mut calls = Vec::new();
        let fault = loop {
            let line = match self.codec.decode(&mut self.buffer) {
                Ok(Some(line)) => line,
                Ok(None) => break None,
                Err(LinesCodecError::MaxLineLengthExceeded) => break Some(self.calls.too_long()),
                // `LinesCodec` fails on a line that is not UTF-8, which JSON must be (RFC 8259
                // §8.1); the line is gone from its buffer: the input's start stands for it.
                Err(LinesCodecError::Io(error)) => {
                    break Some(
                        self.calls
                            .not_json(self.head.first_line(), error.to_string()),
                    )
                }
            };
            if line.trim_ascii().is_empty() {
                continue;
            }
            match self.calls.push_slice(line.as_bytes()) {
                Ok(ended) => calls.extend(ended),
                Err(error) => break Some(error),
            }
        };
        // The recorded turn is cut while a line has begun and its newline has not come (as
        // `SseCallStream` does inside an event); it ends at a fault, whatever bytes follow.
        // The scan stops at the first byte that is not whitespace: no quadratic rescan.
        let inside = fault.is_none() && !self.buffer.iter().all(u8::is_ascii_whitespace);
        self.calls.recorded.set_inside_event(inside);
        match fault {
            Some(error) if calls.is_empty() => Err(error),
            _ => Ok(calls),
        }
    }

    /// Ends the stream: the calls a last line without its newline ended, and those the end
    /// ends (as [`CallStream::finish`]), or an error if a call is still open or the last line
    /// is cut JSON (a Gemini call it held is named from its text, in the error and in the
    /// recorded turn). A last line without its newline is read as an event when it is whole
    /// JSON, because JSON lines have no end marker (jsonlines.org: the last line separator is
    /// optional); an SSE event without its blank line is a cut instead
    /// ([`SseCallStream::finish`]: WHATWG SSE dispatches only at a blank line). If that last
    /// line ended calls and the end then fails (another call still open), the calls come now
    /// (`Ok`) and the error is kept: the next `finish` or `push` returns it, so call `finish`
    /// until it returns an error or no call. An error means the turn is not whole.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, JsonLinesCallStream, StreamError};
    /// let mut stream = JsonLinesCallStream::new(CallFormat::Converse).recording_turn();
    /// let _ = stream.push(b"{\"messageStart\":{\"role\":\"assistant\"}}\n{\"contentBlockSt");
    /// // The turn is cut while the last line is, before `finish` as after it.
    /// assert!(stream.turn().unwrap().whole().is_err());
    /// assert!(matches!(stream.finish(), Err(StreamError::Unfinished { cut_event: true, .. })));
    /// ```
    #[must_use = "the calls the end ends are returned only once"]
    pub fn finish(&mut self) -> Result<Vec<ToolCall>, StreamError> {
        let rest = self.buffer.split();
        let head = std::mem::take(&mut self.head.0);
        if rest.iter().all(u8::is_ascii_whitespace) {
            return self.calls.finish_cut(None, Some(&head));
        }
        if self.calls.refused().is_some() || serde_json::from_slice::<Value>(&rest).is_err() {
            let cut = String::from_utf8_lossy(&rest).into_owned();
            return self.calls.finish_cut(Some(&cut), Some(&head));
        }
        // The last line is whole JSON: the turn is no longer inside it.
        self.calls.recorded.set_inside_event(false);
        let mut calls = self.calls.push_slice(&rest)?;
        if self.calls.failed.is_some() {
            // The line ended calls and was a fault after them: the calls now, the fault next.
            return Ok(calls);
        }
        match self.calls.finish_cut(None, Some(&head)) {
            Ok(more) => {
                calls.extend(more);
                Ok(calls)
            }
            Err(error) if calls.is_empty() => Err(error),
            // The end failed (a call still open) after the last line ended calls: the calls
            // now, the error (kept) with the next `finish` or `push`.
            Err(_) => Ok(calls),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::wire::calls::{parse_calls, Arguments, ArgumentsError, NO_ARGUMENTS};
    use crate::wire::replay::{replay_turn, ReplayError};

    /// One Chat Completions chunk of tool call deltas, as a server-sent event.
    fn chat_event(tool_calls: Value) -> String {
        let chunk = json!({"choices": [{"index": 0, "delta": {"tool_calls": tool_calls}}]});
        format!("data: {chunk}\n\n")
    }

    fn chat_stream(events: &[String]) -> (SseCallStream, Vec<ToolCall>) {
        let mut stream = SseCallStream::new(CallFormat::OpenAiChat).recording_turn();
        let mut calls = Vec::new();
        for event in events {
            calls.extend(stream.push(event.as_bytes()).unwrap());
        }
        (stream, calls)
    }

    fn header(id: &str, name: &str, arguments: &str) -> Value {
        json!([{"index": 0, "id": id, "type": "function",
            "function": {"name": name, "arguments": arguments}}])
    }

    fn fragment(arguments: &str) -> Value {
        json!([{"index": 0, "function": {"arguments": arguments}}])
    }

    #[test]
    fn a_chat_stream_closed_between_events_ends_its_open_calls_and_its_turn_is_whole() {
        let (mut stream, calls) = chat_stream(&[
            chat_event(header("call_1", "get_weather", "")),
            chat_event(fragment("{\"city\":")),
            chat_event(fragment("\"Paris\"}")),
            chat_event(json!([{"index": 1, "id": "call_2", "type": "function",
                "function": {"name": "get_time", "arguments": "{\"tz\":\"UTC\"}"}}])),
        ]);
        assert!(calls.is_empty(), "no end signal came yet: {calls:?}");
        assert!(!stream.ended_by_close(), "not ended yet");
        let calls = stream.finish().unwrap();
        assert!(stream.ended_by_close());
        assert_eq!(calls.len(), 2, "{calls:?}");
        assert_eq!(calls[0].arguments.as_ref().unwrap()["city"], "Paris");
        assert_eq!(calls[1].name, "get_time");
        assert_eq!(calls[1].arguments.as_ref().unwrap()["tz"], "UTC");
        let turn = stream.turn().unwrap();
        turn.whole().unwrap();
        let body = turn.body();
        assert_eq!(parse_calls(CallFormat::OpenAiChat, &body).unwrap(), calls);
        assert!(turn.replay(&calls).unwrap().is_verbatim());
        // Each call is returned once; the stream takes nothing more.
        assert!(stream.finish().unwrap().is_empty());
        assert_eq!(
            stream.push(b"data: {\"choices\": []}\n\n"),
            Err(StreamError::Finished {
                format: CallFormat::OpenAiChat
            })
        );
    }

    #[test]
    fn a_chat_call_cut_mid_object_at_the_end_is_bad_arguments_never_part_of_them() {
        let (mut stream, _) = chat_stream(&[
            chat_event(header("call_1", "delete_files", "{\"paths\":[\"a\"")),
            chat_event(fragment(",\"b\"")),
        ]);
        let calls = stream.finish().unwrap();
        assert!(
            matches!(calls[0].arguments, Err(ArgumentsError::NotJson { .. })),
            "{calls:?}"
        );
        let replay = stream.turn().unwrap().replay(&calls).unwrap();
        assert_eq!(
            replay.turn["tool_calls"][0]["function"]["arguments"], "{}",
            "replayed with the repair"
        );
        assert_eq!(replay.repaired.len(), 1);
    }

    #[test]
    fn a_chat_call_whose_arguments_never_came_is_bad_arguments_at_the_end() {
        // Cut right after the header: blank arguments are `{}` only at a real end.
        let (mut stream, _) = chat_stream(&[chat_event(header("call_1", "delete_all", ""))]);
        let calls = stream.finish().unwrap();
        assert!(
            matches!(&calls[0].arguments, Err(ArgumentsError::NotJson { message }) if message.contains("before any argument")),
            "{calls:?}"
        );
        let body = stream.turn().unwrap().body();
        let recorded = &body["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"];
        assert_eq!(recorded, NO_ARGUMENTS);
        assert!(parse_calls(CallFormat::OpenAiChat, &body).unwrap()[0]
            .arguments
            .is_err());
        replay_turn(CallFormat::OpenAiChat, &body, &calls).unwrap();
        // The same stream with its finish_reason: `{}`, the provider's own end.
        let mut stream = CallStream::new(CallFormat::OpenAiChat);
        let chunk = json!({"choices": [{"index": 0, "delta": {"tool_calls": header("call_1", "f", "")},
            "finish_reason": "tool_calls"}]});
        assert_eq!(
            stream.push(&chunk).unwrap()[0].arguments,
            Ok(Arguments::new())
        );
    }

    #[test]
    fn a_chat_placeholder_object_closed_after_its_header_is_bad_arguments_never_run() {
        // Gemini sends `{}` in the header chunk, then the real arguments (microsoft/autogen
        // PR #7549); closed after the header, `{}` parses but is not the model's arguments.
        for placeholder in ["{}", " { } "] {
            let (mut stream, _) =
                chat_stream(&[chat_event(header("call_1", "get_stock", placeholder))]);
            let calls = stream.finish().unwrap();
            assert!(stream.ended_by_close());
            assert!(
                matches!(&calls[0].arguments, Err(ArgumentsError::NotJson { message }) if message.contains("placeholder")),
                "{calls:?}"
            );
            let body = stream.turn().unwrap().body();
            let recorded = &body["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"];
            assert_eq!(recorded, NO_ARGUMENTS);
            assert_eq!(parse_calls(CallFormat::OpenAiChat, &body).unwrap().len(), 1);
            assert!(parse_calls(CallFormat::OpenAiChat, &body).unwrap()[0]
                .arguments
                .is_err());
            let replay = stream.turn().unwrap().replay(&calls).unwrap();
            assert_eq!(replay.turn["tool_calls"][0]["function"]["arguments"], "{}");
        }
        // The placeholder then the real arguments, with a real end: not JSON, never `{}`.
        let (mut stream, calls) = chat_stream(&[
            chat_event(header("call_1", "get_stock", "{}")),
            chat_event(fragment("{\"stock\":\"MSFT\"}")),
            "data: [DONE]\n\n".to_owned(),
        ]);
        assert!(matches!(
            calls[0].arguments,
            Err(ArgumentsError::NotJson { .. })
        ));
        assert!(stream.finish().unwrap().is_empty());
        assert!(!stream.ended_by_close(), "[DONE] is a real end");
        // `{}` with a finish_reason is the provider's own end: a tool with no parameters.
        let mut stream = CallStream::new(CallFormat::OpenAiChat);
        let chunk = json!({"choices": [{"index": 0, "delta": {"tool_calls": header("call_1", "f", "{}")},
            "finish_reason": "tool_calls"}]});
        assert_eq!(
            stream.push(&chunk).unwrap()[0].arguments,
            Ok(Arguments::new())
        );
        assert!(stream.finish().unwrap().is_empty());
        assert!(!stream.ended_by_close());
    }

    #[test]
    fn a_json_lines_last_line_that_ends_a_call_keeps_it_when_the_end_then_fails() {
        let start = |index: u32, id: &str| {
            format!(
                r#"{{"contentBlockStart":{{"contentBlockIndex":{index},"start":{{"toolUse":{{"toolUseId":"{id}","name":"get_time"}}}}}}}}"#
            )
        };
        let text = format!(
            "{}\n{}\n{}",
            start(0, "tooluse_1"),
            start(1, "tooluse_2"),
            r#"{"contentBlockStop":{"contentBlockIndex":0}}"#
        );
        let mut stream = JsonLinesCallStream::new(CallFormat::Converse).recording_turn();
        assert!(stream.push(text.as_bytes()).unwrap().is_empty());
        // The last line (no newline) ended tooluse_1: it comes now, the error next.
        let calls = stream.finish().unwrap();
        assert_eq!(calls.len(), 1, "{calls:?}");
        assert_eq!(calls[0].id.as_deref(), Some("tooluse_1"));
        let Err(StreamError::Unfinished {
            calls: open,
            cut_event: false,
            ..
        }) = stream.finish()
        else {
            panic!("the end's error was lost")
        };
        assert_eq!(open[0].id.as_deref(), Some("tooluse_2"));
        assert!(matches!(
            stream.push(b"{}\n"),
            Err(StreamError::Unfinished { .. })
        ));
        assert!(stream.turn().unwrap().whole().is_err());
    }

    #[test]
    fn a_chat_stream_cut_inside_an_event_stays_unfinished() {
        let (mut stream, _) = chat_stream(&[chat_event(header("call_1", "get_weather", "{}"))]);
        let _ = stream
            .push(br#"data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"argu"#)
            .unwrap();
        let Err(StreamError::Unfinished {
            calls,
            cut_event: true,
            ..
        }) = stream.finish()
        else {
            panic!("a cut event ended the calls")
        };
        assert_eq!(calls[0].name.as_deref(), Some("get_weather"));
        assert!(matches!(
            stream.turn().unwrap().whole(),
            Err(ReplayError::Cut {
                cut_event: true,
                ..
            })
        ));
    }

    #[test]
    fn other_formats_keep_their_end_events() {
        let mut stream = CallStream::new(CallFormat::Anthropic).recording_turn();
        let start = json!({"type": "content_block_start", "index": 0, "content_block":
            {"type": "tool_use", "id": "toolu_1", "name": "get_time", "input": {}}});
        let _ = stream.push(&start).unwrap();
        assert!(matches!(
            stream.finish(),
            Err(StreamError::Unfinished {
                cut_event: false,
                ..
            })
        ));
        assert!(stream.turn().unwrap().whole().is_err());
    }

    #[test]
    fn a_server_tool_use_cut_right_after_its_start_cuts_the_turn() {
        let mut stream = CallStream::new(CallFormat::Anthropic).recording_turn();
        let start = json!({"type": "content_block_start", "index": 0, "content_block":
            {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}});
        assert!(stream.push(&start).unwrap().is_empty());
        let Err(ReplayError::Cut { calls, .. }) = stream.turn().unwrap().whole() else {
            panic!("a cut server call is a whole turn")
        };
        assert_eq!(calls[0].id.as_deref(), Some("srvtoolu_1"));
    }

    #[test]
    fn a_json_lines_last_line_cut_in_a_call_start_cuts_the_turn_before_finish() {
        let mut stream = JsonLinesCallStream::new(CallFormat::Converse).recording_turn();
        let text = concat!(
            r#"{"messageStart":{"role":"assistant"}}"#,
            "\n",
            r#"{"contentBlockStart":{"contentBlockIndex":0,"start":{"toolUse":{"toolUseId":"tooluse_1","na"#
        );
        assert!(stream.push(text.as_bytes()).unwrap().is_empty());
        assert!(
            matches!(
                stream.turn().unwrap().whole(),
                Err(ReplayError::Cut {
                    cut_event: true,
                    ..
                })
            ),
            "the turn is whole while its last line is cut"
        );
        assert!(matches!(
            stream.finish(),
            Err(StreamError::Unfinished {
                cut_event: true,
                ..
            })
        ));
        assert!(stream.turn().unwrap().whole().is_err());
        // A whole last line without its newline counts, and the turn is whole after it.
        let mut stream = JsonLinesCallStream::new(CallFormat::Converse).recording_turn();
        let _ = stream
            .push(br#"{"messageStop":{"stopReason":"end_turn"}}"#)
            .unwrap();
        assert!(stream.turn().unwrap().whole().is_err());
        assert!(stream.finish().unwrap().is_empty());
        stream.turn().unwrap().whole().unwrap();
    }

    #[test]
    fn a_gemini_call_in_a_cut_event_is_named_by_the_turns_cut() {
        let cut = br#"data: {"candidates":[{"content":{"parts":[{"functionCall":{"name":"get_weather","args":{"ci"#;
        let mut sse = SseCallStream::new(CallFormat::Gemini).recording_turn();
        let _ = sse.push(cut).unwrap();
        let mut lines = JsonLinesCallStream::new(CallFormat::Gemini).recording_turn();
        let _ = lines.push(&cut[6..]).unwrap();
        for (end, turn) in [
            (sse.finish(), sse.turn().unwrap()),
            (lines.finish(), lines.turn().unwrap()),
        ] {
            assert!(
                matches!(end, Err(StreamError::Unfinished { .. })),
                "{end:?}"
            );
            let Err(ReplayError::Cut {
                calls,
                cut_event: true,
                ..
            }) = turn.whole()
            else {
                panic!("{:?}", turn.whole())
            };
            assert_eq!(calls[0].name.as_deref(), Some("get_weather"));
        }
    }
}
