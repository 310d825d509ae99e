//! One client tool call as the model emitted it (hop 4 of the spec), and why its arguments
//! may not be usable. Policy: nothing here is rewritten: the id and the called name are the
//! provider's bytes, and the call keeps where it sits in the response, so the assistant turn
//! can be replayed from the body itself.

use serde_json::{Map, Value};

/// A tool's arguments: always a JSON object.
///
/// ```
/// let args: toolwire_core::wire::calls::Arguments = serde_json::Map::new();
/// assert!(args.is_empty());
/// ```
pub type Arguments = Map<String, Value>;

/// One client tool call of a model's turn, in the order the provider emitted it.
///
/// The fields are the provider's verbatim: `name` is the called name as emitted (a form, a real
/// name or anything the model made up: hop 5, [`Census::resolve`](crate::Census::resolve),
/// decides which tool it reaches), `id` the provider's call id (`None` only where the format
/// allows it: Gemini calls without one; never invented, since an answer names the call the
/// way the model did). Built by [`CallParser`](super::CallParser) and the streams; its fields
/// are public to read and match, and [`ToolCall::new`] makes one for a test.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::wire::calls::{parse_calls, CallFormat};
///
/// let body = json!({"candidates": [{"content": {"role": "model", "parts": [
///     {"text": "Checking."},
///     {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}},
/// ]}}]});
/// let calls = parse_calls(CallFormat::Gemini, &body).unwrap();
/// assert_eq!(calls[0].id, None);
/// assert_eq!(calls[0].name, "get_weather");
/// assert_eq!(calls[0].arguments.as_ref().unwrap()["city"], "Paris");
/// assert_eq!(calls[0].pointer, "/candidates/0/content/parts/1");
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ToolCall {
    /// The provider's call id (`tool_calls[].id`, `call_id`, `tool_use.id`, `toolUseId`,
    /// `functionCall.id`), or `None` for a Gemini call without one.
    pub id: Option<String>,
    /// The called name exactly as emitted.
    pub name: String,
    /// The namespace the Responses API names beside `name` for a tool sent inside a
    /// `namespace` tool (`function_call.namespace`); `None` everywhere else.
    pub namespace: Option<String>,
    /// The arguments as an object, or why this call's arguments are unusable (the other calls
    /// of the turn are not affected).
    pub arguments: Result<Arguments, ArgumentsError>,
    /// Where the call's block sits, as an RFC 6901 JSON pointer: in a body, into that body; from
    /// a stream, into the body its events build (the block's index, Chat Completions the call's
    /// position in `tool_calls`, Gemini the part's position among every part the stream carried).
    pub pointer: String,
}

impl ToolCall {
    /// A call, as a scripted model or a test would make it.
    ///
    /// ```
    /// use toolwire_core::wire::calls::ToolCall;
    /// let call = ToolCall::new(Some("call_1".into()), "get_time", Ok(Default::default()), "/output/0");
    /// assert_eq!((call.id.as_deref(), call.name.as_str()), (Some("call_1"), "get_time"));
    /// assert_eq!(call.namespace, None);
    /// ```
    pub fn new(
        id: Option<String>,
        name: impl Into<String>,
        arguments: Result<Arguments, ArgumentsError>,
        pointer: impl Into<String>,
    ) -> ToolCall {
        ToolCall {
            id,
            name: name.into(),
            namespace: None,
            arguments,
            pointer: pointer.into(),
        }
    }

    /// The same call, named inside a Responses API `namespace`.
    ///
    /// ```
    /// use toolwire_core::wire::calls::ToolCall;
    /// let call = ToolCall::new(None, "create_issue", Ok(Default::default()), "/output/0")
    ///     .in_namespace("mcp_github");
    /// assert_eq!(call.namespace.as_deref(), Some("mcp_github"));
    /// ```
    pub fn in_namespace(mut self, namespace: impl Into<String>) -> ToolCall {
        self.namespace = Some(namespace.into());
        self
    }
}

/// Why one call's arguments are not an object. An error of that call only: the turn's other
/// calls still parse, and the call is still answered (with this error), never dropped.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::wire::calls::{parse_calls, ArgumentsError, CallFormat};
///
/// let body = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
///     {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "[1]"}},
/// ]}}]});
/// let calls = parse_calls(CallFormat::OpenAiChat, &body).unwrap();
/// assert_eq!(calls[0].arguments, Err(ArgumentsError::NotObject { found: "an array" }));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ArgumentsError {
    /// The arguments text does not parse as JSON.
    #[error("the arguments are not JSON: {message}")]
    NotJson {
        /// The JSON parser's message, with its line and column.
        message: String,
    },
    /// The arguments are JSON, but not an object.
    #[error("the arguments are {found}, not a JSON object")]
    NotObject {
        /// What they are instead: `null`, `a boolean`, `a number`, `a string`, `an array`.
        found: &'static str,
    },
    /// The arguments text is longer than the parser's limit
    /// ([`CallParser::max_argument_bytes`](super::CallParser::max_argument_bytes)); a stream
    /// stops buffering it there.
    #[error("the arguments text has {bytes} bytes, over the limit of {limit}")]
    TooLong {
        /// The text's length in bytes.
        bytes: usize,
        /// The limit.
        limit: usize,
    },
}

/// A call a stream began and never ended: no end signal came before the stream did. Reported
/// in [`StreamError::Unfinished`](super::StreamError::Unfinished), never as a call: its
/// arguments may be cut.
///
/// ```
/// use toolwire_core::wire::calls::{CallFormat, CallStream, StreamError};
/// let mut stream = CallStream::new(CallFormat::Anthropic);
/// let start = serde_json::json!({"type": "content_block_start", "index": 0,
///     "content_block": {"type": "tool_use", "id": "toolu_1", "name": "get_time", "input": {}}});
/// assert!(stream.push(&start).unwrap().is_empty());
/// let Err(StreamError::Unfinished { calls, .. }) = stream.finish() else { panic!() };
/// assert_eq!((calls[0].id.as_deref(), calls[0].name.as_deref()), (Some("toolu_1"), Some("get_time")));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct UnfinishedCall {
    /// The call's id, if the stream carried it.
    pub id: Option<String>,
    /// The called name, if the stream carried it before it ended.
    pub name: Option<String>,
}

impl UnfinishedCall {
    /// An unfinished call.
    ///
    /// ```
    /// let call = toolwire_core::wire::calls::UnfinishedCall::new(None, Some("get_weather".into()));
    /// assert_eq!(call.to_string(), "`get_weather` (no id)");
    /// ```
    pub fn new(id: Option<String>, name: Option<String>) -> UnfinishedCall {
        UnfinishedCall { id, name }
    }

    /// The call an assembler holds open, whose name is empty until its start event gave one.
    pub(crate) fn of_open(id: &Option<String>, name: &str) -> UnfinishedCall {
        UnfinishedCall::new(id.clone(), (!name.is_empty()).then(|| name.to_owned()))
    }
}

impl std::fmt::Display for UnfinishedCall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.name {
            Some(name) => write!(f, "`{name}`")?,
            None => f.write_str("a call whose name never came")?,
        }
        match &self.id {
            Some(id) => write!(f, " (id `{id}`)"),
            None => f.write_str(" (no id)"),
        }
    }
}
