//! What stops a body or a stream from giving its calls. Policy: every error names the format
//! and where the fault is (a JSON pointer, the event's number, the call); one call's bad
//! arguments are not here but in that call ([`ArgumentsError`](super::ArgumentsError)).

use super::call_format::CallFormat;
use super::tool_call::UnfinishedCall;

/// A fault the providers' parsers find, before the generic layer says in which format and
/// which event: the one error vocabulary of every provider file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    /// The value at `pointer` is not what the format puts there.
    Shape {
        pointer: String,
        expected: &'static str,
    },
    /// The call at `pointer` has no name (or an empty one).
    MissingName { pointer: String, id: Option<String> },
    /// The call at `pointer` has no id, which its format requires (the answer names it).
    MissingId {
        pointer: String,
        name: Option<String>,
    },
    /// A second call with an id the turn already had.
    DuplicateId { pointer: String, id: String },
    /// The stream carries something this parser does not assemble.
    Unsupported { pointer: String, what: &'static str },
    /// The provider reported an error inside the stream.
    Provider { message: String },
    /// An event names, at `pointer`, an item by an `id` that cannot be that item.
    UnmatchedItem {
        pointer: String,
        id: String,
        expected: &'static str,
    },
}

impl Fault {
    pub(crate) fn shape(pointer: impl Into<String>, expected: &'static str) -> Fault {
        Fault::Shape {
            pointer: pointer.into(),
            expected,
        }
    }

    pub(crate) fn in_body(self, format: CallFormat) -> BodyError {
        match self {
            Fault::Shape { pointer, expected } => BodyError::Shape {
                format,
                pointer,
                expected,
            },
            Fault::MissingName { pointer, id } => BodyError::MissingName {
                format,
                pointer,
                id,
            },
            Fault::MissingId { pointer, name } => BodyError::MissingId {
                format,
                pointer,
                name,
            },
            Fault::DuplicateId { pointer, id } => BodyError::DuplicateId {
                format,
                pointer,
                id,
            },
            // Bodies have neither: kept total so a provider file cannot lose one.
            Fault::Unsupported { pointer, what } => BodyError::Shape {
                format,
                pointer,
                expected: what,
            },
            Fault::Provider { .. } => BodyError::Shape {
                format,
                pointer: String::new(),
                expected: "a response, not the provider's error",
            },
            Fault::UnmatchedItem {
                pointer, expected, ..
            } => BodyError::Shape {
                format,
                pointer,
                expected,
            },
        }
    }

    pub(crate) fn in_stream(self, format: CallFormat, event: usize) -> StreamError {
        match self {
            Fault::Shape { pointer, expected } => StreamError::Shape {
                format,
                event,
                pointer,
                expected,
            },
            Fault::MissingName { pointer, id } => StreamError::MissingName {
                format,
                event,
                pointer,
                id,
            },
            Fault::MissingId { pointer, name } => StreamError::MissingId {
                format,
                event,
                pointer,
                name,
            },
            Fault::DuplicateId { pointer, id } => StreamError::DuplicateId {
                format,
                event,
                pointer,
                id,
            },
            Fault::Unsupported { pointer, what } => StreamError::Unsupported {
                format,
                event,
                pointer,
                what,
            },
            Fault::Provider { message } => StreamError::Provider {
                format,
                event,
                message,
            },
            Fault::UnmatchedItem {
                pointer,
                id,
                expected,
            } => StreamError::UnmatchedItem {
                format,
                event,
                pointer,
                id,
                expected,
            },
        }
    }
}

/// Why a response body gives no calls: it is not JSON, not the format's shape, or its calls
/// break a rule every format has (a name, one id per call).
///
/// A `match` on it needs a `_` arm: a new kind of fault may come.
///
/// ```
/// use toolwire_core::wire::calls::{CallFormat, CallParser, BodyError};
/// let err = CallParser::new(CallFormat::Anthropic).parse_str(r#"{"choices": []}"#).unwrap_err();
/// assert_eq!(err.format(), CallFormat::Anthropic);
/// assert!(matches!(&err, BodyError::Shape { pointer, .. } if pointer == "/content"));
/// assert!(err.to_string().contains("`/content`"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BodyError {
    /// The body does not parse as JSON.
    #[error("the {format} body is not JSON: {message}")]
    NotJson {
        /// The format it was read as.
        format: CallFormat,
        /// The JSON parser's message.
        message: String,
    },
    /// The value at `pointer` is not what the format puts there.
    #[error("the {format} body is not {} response: at `{pointer}` it needs {expected}", format.api_name_with_article())]
    Shape {
        /// The format it was read as.
        format: CallFormat,
        /// The RFC 6901 pointer of the value at fault (`""` is the body itself).
        pointer: String,
        /// What the format has there.
        expected: &'static str,
    },
    /// A call has no name (or an empty one): it can reach no tool and, on Gemini, be
    /// answered by none.
    #[error("the {format} call at `{pointer}`{} has no name", id.as_ref().map(|id| format!(" (id `{id}`)")).unwrap_or_default())]
    MissingName {
        /// The format it was read as.
        format: CallFormat,
        /// The pointer of the call.
        pointer: String,
        /// Its id, if it has one.
        id: Option<String>,
    },
    /// A call has no id, which its format requires: its answer could name no call.
    #[error("the {format} call at `{pointer}`{} has no id", name.as_ref().map(|name| format!(" (`{name}`)")).unwrap_or_default())]
    MissingId {
        /// The format it was read as.
        format: CallFormat,
        /// The pointer of the call.
        pointer: String,
        /// Its name, if it has one.
        name: Option<String>,
    },
    /// Two calls of the turn have one id: their answers could not be told apart.
    #[error("the {format} call at `{pointer}` has the id `{id}` of an earlier call of the turn")]
    DuplicateId {
        /// The format it was read as.
        format: CallFormat,
        /// The pointer of the second call.
        pointer: String,
        /// The id both have.
        id: String,
    },
}

impl BodyError {
    /// The format the body was read as.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, CallParser};
    /// let err = CallParser::new(CallFormat::Gemini).parse_str("not json").unwrap_err();
    /// assert_eq!(err.format(), CallFormat::Gemini);
    /// ```
    pub fn format(&self) -> CallFormat {
        match self {
            BodyError::NotJson { format, .. }
            | BodyError::Shape { format, .. }
            | BodyError::MissingName { format, .. }
            | BodyError::MissingId { format, .. }
            | BodyError::DuplicateId { format, .. } => *format,
        }
    }
}

/// Why a stream gives no more calls. After one, the stream is done: a later
/// [`push`](super::CallStream::push) or [`finish`](super::CallStream::finish) returns it again.
/// `event` counts the events pushed, from 0.
///
/// A `match` on it needs a `_` arm: a new kind of fault may come.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::wire::calls::{CallFormat, CallStream, StreamError};
/// let mut stream = CallStream::new(CallFormat::OpenAiChat);
/// let chunk = json!({"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {}}]});
/// assert!(stream.push(&chunk).unwrap().is_empty());
/// let err = stream.push(&json!({"choices": {"index": 0}})).unwrap_err();
/// assert!(matches!(&err, StreamError::Shape { event: 1, pointer, .. } if pointer == "/choices"));
/// assert_eq!(stream.finish().unwrap_err(), err);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StreamError {
    /// An event's data does not parse as JSON.
    #[error("{format} stream event {event} is not JSON: {message}")]
    EventNotJson {
        /// The stream's format.
        format: CallFormat,
        /// The event's number.
        event: usize,
        /// The JSON parser's message.
        message: String,
    },
    /// A value of an event is not what the format puts there.
    #[error("{format} stream event {event} is not {} stream event: at `{pointer}` it needs {expected}", format.api_name_with_article())]
    Shape {
        /// The stream's format.
        format: CallFormat,
        /// The event's number.
        event: usize,
        /// The RFC 6901 pointer into the event.
        pointer: String,
        /// What the format has there.
        expected: &'static str,
    },
    /// A call ended without a name.
    #[error("{format} stream event {event} ends the call at `{pointer}`{} without a name", id.as_ref().map(|id| format!(" (id `{id}`)")).unwrap_or_default())]
    MissingName {
        /// The stream's format.
        format: CallFormat,
        /// The event's number.
        event: usize,
        /// The call's pointer in the body the stream builds.
        pointer: String,
        /// Its id, if it had one.
        id: Option<String>,
    },
    /// A call ended without the id its format requires.
    #[error("{format} stream event {event} ends the call at `{pointer}`{} without an id", name.as_ref().map(|name| format!(" (`{name}`)")).unwrap_or_default())]
    MissingId {
        /// The stream's format.
        format: CallFormat,
        /// The event's number.
        event: usize,
        /// The call's pointer in the body the stream builds.
        pointer: String,
        /// Its name, if it had one.
        name: Option<String>,
    },
    /// A call ended with the id of an earlier call of the stream.
    #[error("{format} stream event {event} ends the call at `{pointer}` with the id `{id}` of an earlier call")]
    DuplicateId {
        /// The stream's format.
        format: CallFormat,
        /// The event's number.
        event: usize,
        /// The call's pointer in the body the stream builds.
        pointer: String,
        /// The id both have.
        id: String,
    },
    /// The event carries something the assembler does not build (Vertex AI's streamed
    /// function call arguments).
    #[error("{format} stream event {event} at `{pointer}` carries {what}, which is not supported")]
    Unsupported {
        /// The stream's format.
        format: CallFormat,
        /// The event's number.
        event: usize,
        /// The RFC 6901 pointer into the event.
        pointer: String,
        /// What it carries.
        what: &'static str,
    },
    /// The provider reported an error in the stream (an `error` event, a Converse exception).
    #[error("{format} stream event {event} is the provider's error: {message}")]
    Provider {
        /// The stream's format.
        format: CallFormat,
        /// The event's number.
        event: usize,
        /// The provider's message, or the event's JSON.
        message: String,
    },
    /// An event names an item by an id that cannot be that item (the Responses API names
    /// each output item by its `id`): no earlier event added an item of that id, or the item
    /// of that id is another kind, or was done already otherwise. The event is never read
    /// into another item.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::wire::calls::{CallFormat, CallStream, StreamError};
    /// let mut stream = CallStream::new(CallFormat::OpenAiResponses);
    /// let delta = json!({"type": "response.function_call_arguments.delta",
    ///     "item_id": "fc_9", "output_index": 0, "delta": "{"});
    /// let err = stream.push(&delta).unwrap_err();
    /// assert!(matches!(&err, StreamError::UnmatchedItem { id, .. } if id == "fc_9"));
    /// assert!(err.to_string().contains("`fc_9`"));
    /// ```
    #[error("{format} stream event {event} names the item `{id}` at `{pointer}`, which needs {expected}")]
    UnmatchedItem {
        /// The stream's format.
        format: CallFormat,
        /// The event's number.
        event: usize,
        /// The RFC 6901 pointer into the event of the id.
        pointer: String,
        /// The item's id.
        id: String,
        /// What that id must name.
        expected: &'static str,
    },
    /// The input is not a stream of the format: none of its events was of the format's kinds
    /// (an HTML error page, a JSON body, another format's stream, nothing at all). Told at the
    /// end (each format ignores event types it does not know), or at an event that is not
    /// JSON before any event of the format. Never `Ok` with no calls, which an agent loop
    /// would read as "the model is done".
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, SseCallStream, StreamError};
    /// let mut stream = SseCallStream::new(CallFormat::Gemini);
    /// let _ = stream.push(br#"{"error": {"code": 429, "status": "RESOURCE_EXHAUSTED"}}"#);
    /// let err = stream.finish().unwrap_err();
    /// assert!(matches!(&err, StreamError::NotTheFormat { events: 0, .. }));
    /// assert!(err.to_string().contains(r#"it has no events; it begins `{"error": {"code": 429"#));
    /// ```
    #[error("the input is not {} stream: {}{}", format.api_name_with_article(), if *events == 0 { "it has no events".to_owned() } else { format!("none of its {events} event(s) is one") }, if begins.is_empty() { String::new() } else { format!("; it begins `{begins}`") })]
    NotTheFormat {
        /// The stream's format.
        format: CallFormat,
        /// How many events it had (0: none at all, as in a page or body that is no stream).
        events: usize,
        /// How the input begins, to tell what it is instead (at most 80 bytes, whitespace
        /// made single spaces; empty for no input).
        begins: String,
    },
    /// A line or an event of the raw text passed the limit of one event
    /// ([`DEFAULT_MAX_EVENT_BYTES`](super::DEFAULT_MAX_EVENT_BYTES), or
    /// [`CallParser::max_event_bytes`](super::CallParser::max_event_bytes)); no more of it is
    /// held.
    #[error("{format} stream event {event} is longer than the limit of {limit} bytes for one line or event")]
    EventTooLong {
        /// The stream's format.
        format: CallFormat,
        /// The number of the event it is in.
        event: usize,
        /// The limit, in bytes.
        limit: usize,
    },
    /// The stream was already finished ([`CallStream::finish`](super::CallStream::finish)):
    /// it takes no more events.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, CallStream, StreamError};
    /// let mut stream = CallStream::new(CallFormat::Converse);
    /// let _ = stream.push_slice(br#"{"messageStop": {"stopReason": "end_turn"}}"#).unwrap();
    /// assert!(stream.finish().unwrap().is_empty());
    /// let err = stream.push_slice(br#"{"messageStop": {}}"#).unwrap_err();
    /// assert_eq!(err, StreamError::Finished { format: CallFormat::Converse });
    /// ```
    #[error("the {format} stream was already finished: it takes no more events")]
    Finished {
        /// The stream's format.
        format: CallFormat,
    },
    /// The stream ended before these calls' end signals (or inside an event): each is an
    /// error, never a call.
    #[error("the {format} stream ended before {}{}", describe(calls), if *cut_event { " (inside an event)" } else { "" })]
    Unfinished {
        /// The stream's format.
        format: CallFormat,
        /// The calls it began and never ended, in order.
        calls: Vec<UnfinishedCall>,
        /// Whether the stream ended inside an event (server-sent events: before the blank
        /// line that ends it; JSON lines: before the newline).
        cut_event: bool,
    },
}

fn describe(calls: &[UnfinishedCall]) -> String {
    if calls.is_empty() {
        return "its last event ended".to_owned();
    }
    let named: Vec<String> = calls.iter().map(ToString::to_string).collect();
    format!("the end of the call(s) {}", named.join(", "))
}

impl StreamError {
    /// The stream's format.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, CallStream};
    /// let mut stream = CallStream::new(CallFormat::Converse);
    /// assert_eq!(stream.push_slice(b"{").unwrap_err().format(), CallFormat::Converse);
    /// ```
    pub fn format(&self) -> CallFormat {
        match self {
            StreamError::EventNotJson { format, .. }
            | StreamError::Shape { format, .. }
            | StreamError::MissingName { format, .. }
            | StreamError::MissingId { format, .. }
            | StreamError::DuplicateId { format, .. }
            | StreamError::Unsupported { format, .. }
            | StreamError::Provider { format, .. }
            | StreamError::UnmatchedItem { format, .. }
            | StreamError::NotTheFormat { format, .. }
            | StreamError::EventTooLong { format, .. }
            | StreamError::Finished { format }
            | StreamError::Unfinished { format, .. } => *format,
        }
    }
}
