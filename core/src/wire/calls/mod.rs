//! Hop 4 of the spec: the client tool calls of a model's turn, from the response body as the
//! provider returned it or from its stream as it arrives, in each of the five
//! [`CallFormat`]s. Each call keeps its id and the called name verbatim (answers name them, and
//! hop 5, [`Census::resolve`](crate::Census::resolve), maps the name to a tool) and its
//! [`pointer`](ToolCall::pointer) into the body, which the caller keeps: provider-executed
//! blocks (server tools, thinking, reasoning) are not calls and stay there, for the replay.
//!
//! - Bodies: [`CallParser`] (with the arguments limit), or [`parse_calls`].
//! - Streams: [`CallStream`] over parsed events; [`SseCallStream`] over raw server-sent-event
//!   text, [`JsonLinesCallStream`] over one event per line; [`SseDecoder`] alone for an app
//!   that also reads the events itself.
//! - Errors: a body or stream that is not the format's shape, a call without a name or two
//!   calls with one id is a [`BodyError`] / [`StreamError`] naming the format and where; one
//!   call's unusable arguments are that call's [`ArgumentsError`], and the others still parse.
//!
//! Each provider's facts live in its folder beside its tool list (`wire/openai/`:
//! `chat_calls.rs`, `chat_stream/`, `responses_calls.rs`, `responses_stream.rs`;
//! `wire/anthropic/`, `wire/converse/`, `wire/gemini/`: `calls.rs`, `stream.rs`); this module is
//! the generic layer over them, which reaches each through its API's trait (`wire/api.rs`,
//! the table `wire/apis.rs`). Pure functions: no I/O.
//!
//! ```
//! use serde_json::json;
//! use toolwire_core::wire::calls::{CallFormat, CallParser};
//! use toolwire_core::{Census, census::{Resolution, Via}};
//!
//! let body = json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
//!     "role": "assistant", "content": null, "tool_calls": [{
//!         "id": "call_1", "type": "function",
//!         "function": {"name": "mcp_github_create_issue", "arguments": "{\"title\":\"Bug\"}"},
//!     }],
//! }}]});
//! let calls = CallParser::new(CallFormat::OpenAiChat).parse(&body).unwrap();
//! assert_eq!(calls[0].id.as_deref(), Some("call_1"));
//! assert_eq!(calls[0].pointer, "/choices/0/message/tool_calls/0");
//!
//! // Hop 5 maps the called name to the tool.
//! let census = Census::build(["mcp/github/create_issue"], &[]);
//! let Ok(Resolution::Tool(hit)) = census.resolve(&calls[0].name) else { panic!() };
//! assert_eq!((hit.name, hit.via), ("mcp/github/create_issue", Via::Form));
//! ```

mod arguments;
mod call_format;
pub(crate) mod direct;
mod error;
mod json_scan;
mod lines;
pub(crate) mod machine;
pub(crate) mod pruned;
pub(crate) mod shape;
pub(crate) mod sink;
mod sse;
pub(crate) mod stream;
mod tool_call;

use serde_json::Value;

pub use arguments::DEFAULT_MAX_ARGUMENT_BYTES;
#[cfg(test)]
pub(crate) use arguments::OVER_LIMIT;
pub(crate) use arguments::{
    from_text as arguments_from_text, from_value_within as arguments_within, json_kind,
    ArgumentsText, NO_ARGUMENTS,
};
pub use call_format::CallFormat;
pub(crate) use error::Fault;
pub use error::{BodyError, StreamError};
pub use lines::DEFAULT_MAX_EVENT_BYTES;
pub use sse::{EventTooLong, SseDecoder, SseEvent};
pub use stream::{CallStream, JsonLinesCallStream, SseCallStream};
pub use tool_call::{Arguments, ArgumentsError, ToolCall, UnfinishedCall};

use crate::wire::apis::api;
use crate::wire::replay::repair::{at, at_mut};
use direct::BodyText;
use sink::CallSink;

/// Reads the client tool calls of one format, with a limit on one call's arguments text and,
/// for streams, on one line or event.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::wire::calls::{ArgumentsError, CallFormat, CallParser};
///
/// let body = json!({"output": [{"type": "function_call", "id": "fc_1", "call_id": "call_1",
///     "name": "search", "arguments": "{\"q\":\"a long query\"}"}]});
/// let parser = CallParser::new(CallFormat::OpenAiResponses).max_argument_bytes(8);
/// let calls = parser.parse(&body).unwrap();
/// assert!(matches!(calls[0].arguments, Err(ArgumentsError::TooLong { limit: 8, .. })));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallParser {
    format: CallFormat,
    max_argument_bytes: usize,
    max_event_bytes: usize,
}

impl CallParser {
    /// A parser of `format`, with [`DEFAULT_MAX_ARGUMENT_BYTES`] and [`DEFAULT_MAX_EVENT_BYTES`].
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, CallParser};
    /// assert_eq!(CallParser::new(CallFormat::Gemini).format(), CallFormat::Gemini);
    /// ```
    pub const fn new(format: CallFormat) -> CallParser {
        CallParser {
            format,
            max_argument_bytes: DEFAULT_MAX_ARGUMENT_BYTES,
            max_event_bytes: DEFAULT_MAX_EVENT_BYTES,
        }
    }

    /// The same parser with another limit of one call's arguments text, in bytes: a text over
    /// it is that call's [`ArgumentsError::TooLong`], and a stream keeps no more of it.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, CallParser};
    /// let parser = CallParser::new(CallFormat::OpenAiChat).max_argument_bytes(4096);
    /// assert_eq!(parser.argument_limit(), 4096);
    /// ```
    pub const fn max_argument_bytes(mut self, bytes: usize) -> CallParser {
        self.max_argument_bytes = bytes;
        self
    }

    /// The same parser with another limit of one line or event of a raw stream
    /// ([`sse`](Self::sse), [`json_lines`](Self::json_lines)), in bytes: past it the stream is
    /// [`StreamError::EventTooLong`] and no more of it is held. An event can hold a call's
    /// whole arguments (Gemini, Responses' done events), so keep it above the arguments limit.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, CallParser, StreamError};
    /// let mut stream = CallParser::new(CallFormat::OpenAiChat).max_event_bytes(64).sse();
    /// let err = stream.push(&[b'x'; 100]).unwrap_err();
    /// assert!(matches!(err, StreamError::EventTooLong { limit: 64, event: 0, .. }));
    /// ```
    pub const fn max_event_bytes(mut self, bytes: usize) -> CallParser {
        self.max_event_bytes = bytes;
        self
    }

    /// The parser's format.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, CallParser};
    /// assert_eq!(CallParser::new(CallFormat::Converse).format(), CallFormat::Converse);
    /// ```
    pub const fn format(&self) -> CallFormat {
        self.format
    }

    /// The limit of one call's arguments text, in bytes.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, CallParser, DEFAULT_MAX_ARGUMENT_BYTES};
    /// assert_eq!(CallParser::new(CallFormat::Anthropic).argument_limit(), DEFAULT_MAX_ARGUMENT_BYTES);
    /// ```
    pub const fn argument_limit(&self) -> usize {
        self.max_argument_bytes
    }

    /// The client tool calls of a response body, in order.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::wire::calls::{CallFormat, CallParser};
    /// let body = json!({"content": [
    ///     {"type": "thinking", "thinking": "…", "signature": "sig"},
    ///     {"type": "tool_use", "id": "toolu_1", "name": "get_time", "input": {}},
    /// ]});
    /// let calls = CallParser::new(CallFormat::Anthropic).parse(&body).unwrap();
    /// assert_eq!(calls.len(), 1);
    /// assert_eq!(calls[0].pointer, "/content/1");
    /// ```
    pub fn parse(&self, body: &Value) -> Result<Vec<ToolCall>, BodyError> {
        let mut sink = CallSink::new(self.max_argument_bytes);
        let found = api(self.format).parse_calls(body, &mut sink);
        found.map_err(|fault| fault.in_body(self.format))?;
        Ok(sink.take())
    }

    /// The client tool calls of a body given as JSON bytes.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{BodyError, CallFormat, CallParser};
    /// let err = CallParser::new(CallFormat::OpenAiChat).parse_slice(b"{\"choices\":").unwrap_err();
    /// assert!(matches!(err, BodyError::NotJson { .. }));
    /// ```
    pub fn parse_slice(&self, body: &[u8]) -> Result<Vec<ToolCall>, BodyError> {
        self.parse_text(BodyText::Slice(body))
    }

    /// The client tool calls of a body given as JSON text: the same as
    /// [`parse_slice`](Self::parse_slice) of its bytes.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, CallParser};
    /// let parser = CallParser::new(CallFormat::Converse);
    /// let body = r#"{"output": {"message": {"role": "assistant", "content": [
    ///     {"toolUse": {"toolUseId": "tooluse_1", "name": "get_time", "input": {}}}]}}}"#;
    /// let calls = parser.parse_str(body).unwrap();
    /// assert_eq!(calls[0].pointer, "/output/message/content/0");
    /// assert_eq!(parser.parse_slice(body.as_bytes()).unwrap(), calls);
    /// let cut = &body[..40];
    /// assert_eq!(parser.parse_str(cut), parser.parse_slice(cut.as_bytes()));
    /// ```
    pub fn parse_str(&self, body: &str) -> Result<Vec<ToolCall>, BodyError> {
        // `from_str`, not `from_slice`: a `&str` is UTF-8 already, and `from_slice` checks
        // every string of the body again (measured: `core/benches/calls.rs`).
        self.parse_text(BodyText::Str(body))
    }

    /// The calls of a body's text: read straight into its calls (`direct`), or, where that
    /// read gives up (anything it does not mirror exactly, and every body in error), by
    /// [`parse_pruned`](Self::parse_pruned), which decides.
    fn parse_text(&self, body: BodyText<'_>) -> Result<Vec<ToolCall>, BodyError> {
        match api(self.format).read_calls(body, self.max_argument_bytes) {
            Some(calls) => Ok(calls),
            None => self.parse_pruned(body),
        }
    }

    /// The calls of a body's text read as `from_str::<Value>` (or `from_slice`) reads it,
    /// keeping only what the parse reads (`pruned`), then parsed.
    fn parse_pruned(&self, body: BodyText<'_>) -> Result<Vec<ToolCall>, BodyError> {
        let keep = api(self.format).calls_read();
        let read = match body {
            BodyText::Str(text) => pruned::from_str(text, keep),
            BodyText::Slice(bytes) => pruned::from_slice(bytes, keep),
        };
        let value = read.map_err(|error| BodyError::NotJson {
            format: self.format,
            message: error.to_string(),
        })?;
        self.parse_owned(value)
    }

    /// [`parse`](Self::parse) of a body read here: objects of arguments are moved out of it
    /// into their calls, not copied (the body is dropped after).
    fn parse_owned(&self, mut body: Value) -> Result<Vec<ToolCall>, BodyError> {
        let api = api(self.format);
        let mut sink = CallSink::leaving_objects(self.max_argument_bytes);
        let found = api.parse_calls(&body, &mut sink);
        found.map_err(|fault| fault.in_body(self.format))?;
        let (mut calls, left) = sink.take_leaving();
        let place = api.arguments_place();
        // Every call's arguments are where its parser read them; checked before any is moved,
        // so that a miss (never) falls back to copying them, from the body as it was.
        let all_there = left.iter().all(|&position| {
            at(&body, &calls[position].pointer).is_some_and(|block| place.holds(block))
        });
        if !all_there {
            return self.parse(&body);
        }
        for position in left {
            let call = &mut calls[position];
            let arguments = at_mut(&mut body, &call.pointer)
                .and_then(|block| place.in_block(block))
                .map(Value::take);
            if let Some(Value::Object(object)) = arguments {
                call.arguments = Ok(object);
            }
        }
        Ok(calls)
    }

    /// A stream assembler of this format and limit, over parsed events.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, CallParser};
    /// let stream = CallParser::new(CallFormat::Anthropic).max_argument_bytes(64).stream();
    /// assert_eq!(stream.format(), CallFormat::Anthropic);
    /// ```
    pub fn stream(&self) -> CallStream {
        CallStream::with_limits(self.format, self.max_argument_bytes, self.max_event_bytes)
    }

    /// A stream assembler of this format and limit, over raw server-sent-event text.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, CallParser};
    /// use toolwire_core::wire::calls::StreamError;
    /// let mut stream = CallParser::new(CallFormat::Gemini).sse();
    /// // Nothing at all is no stream of the format: never a turn without calls.
    /// assert!(matches!(stream.finish(), Err(StreamError::NotTheFormat { events: 0, .. })));
    /// ```
    pub fn sse(&self) -> SseCallStream {
        SseCallStream::over(self.stream())
    }

    /// A stream assembler of this format and limit, over one JSON event per line.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, CallParser};
    /// let mut stream = CallParser::new(CallFormat::Converse).json_lines();
    /// let _ = stream.push(b"{\"messageStop\":{\"stopReason\":\"end_turn\"}}\n").unwrap();
    /// assert!(stream.finish().unwrap().is_empty());
    /// ```
    pub fn json_lines(&self) -> JsonLinesCallStream {
        JsonLinesCallStream::over(self.stream())
    }
}

/// The client tool calls of a response body of `format`, in order, with the default limits:
/// `CallParser::new(format).parse(body)`.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::wire::calls::{parse_calls, BodyError, CallFormat};
/// let body = json!({"content": [{"type": "tool_use", "id": "toolu_1", "input": {}}]});
/// let err = parse_calls(CallFormat::Anthropic, &body).unwrap_err();
/// assert!(matches!(err, BodyError::MissingName { ref pointer, .. } if pointer == "/content/0"));
/// ```
pub fn parse_calls(format: CallFormat, body: &Value) -> Result<Vec<ToolCall>, BodyError> {
    CallParser::new(format).parse(body)
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::{CallFormat, CallParser};

    /// A body read from its text (pruned, its objects of arguments moved into the calls) gives
    /// the calls the whole body gives, whatever the arguments are.
    #[test]
    fn a_body_read_from_text_gives_the_calls_of_the_whole_body() {
        let inputs = [
            json!({"city": "Paris", "days": [1, 2.5], "deep": {"a": null}}),
            json!({}),
            json!("not an object"),
            json!({"long": "x".repeat(100)}),
            Value::Null,
        ];
        let bodies = [
            (
                CallFormat::Anthropic,
                json!({"id": "msg_1", "content": inputs.iter().enumerate().map(|(i, input)| json!(
                    {"type": "tool_use", "id": format!("toolu_{i}"), "name": "f", "input": input,
                     "cache": {"skipped": true}})).chain([json!({"type": "text", "text": "t"})])
                    .collect::<Vec<_>>()}),
            ),
            (
                CallFormat::Converse,
                json!({"output": {"message": {"content": inputs.iter().enumerate().map(|(i, input)|
                    json!({"toolUse": {"toolUseId": format!("t{i}"), "name": "f", "input": input}}))
                    .collect::<Vec<_>>()}}, "usage": {"inputTokens": 1}}),
            ),
            (
                CallFormat::Gemini,
                json!({"candidates": [{"content": {"parts": inputs.iter().map(|input|
                    json!({"functionCall": {"name": "f", "args": input}, "thoughtSignature": "s"}))
                    .collect::<Vec<_>>()}}]}),
            ),
        ];
        for (format, body) in bodies {
            let parser = CallParser::new(format).max_argument_bytes(64);
            let text = body.to_string();
            let whole = parser.parse(&body).unwrap();
            assert_eq!(whole.len(), inputs.len(), "{format}");
            assert_eq!(parser.parse_str(&text).unwrap(), whole, "{format}");
            assert_eq!(
                parser.parse_slice(text.as_bytes()).unwrap(),
                whole,
                "{format}"
            );
        }
    }
}
