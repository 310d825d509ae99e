//! The replay (issue 18, point 7): the assistant turn of a response as the next request's
//! history carries it, in each [`CallFormat`]. Generic over the providers: where the turn sits
//! in a body, where a call's name sits in its block and which called names a provider refuses
//! in history are each provider folder's (`wire/<provider>/replay.rs`).
//!
//! Policy: the turn is the response's own, byte for byte as JSON (thinking blocks and their
//! signatures, reasoning items and their ids, Gemini `thoughtSignature`s, server tools and
//! their results, text): a provider that signs or encrypts what it sent refuses it changed.
//! The exceptions: a called name the provider refuses in history, whose replayed copy
//! carries its model-safe form ([`model_safe_name`]) at that call's pointer, and
//! [`Replay::renamed`] says so (loud means returned); and a call whose arguments never became a
//! JSON object, replayed with empty arguments (the Messages API and Converse refuse a string
//! `input`: `repair.rs`), which [`Replay::repaired`] says. A turn a stream left cut (a call
//! still open, the stream inside an event) is not replayed: [`ReplayError::Cut`] names the
//! calls. The dispatch is not affected: it used
//! the name the model emitted ([`ToolCall::name`]), and answers pair with the call by its id.
//! Pure functions: no I/O.
//!
//! - A body: [`replay_turn`] with the body's calls gives a [`Replay`] (the turn, and each
//!   [`RenamedCall`]); [`refused_in_history`] is the rule alone. [`replay_turn_in`] names a
//!   renamed call in a request's census (`history_names.rs`): the called tool's own offered
//!   form, or an alias no tool answers to, never another tool's name.
//! - A stream: [`StreamedTurn`] is the format's stream machine (`wire::calls::machine`, each
//!   provider's `stream.rs`), the one the call stream runs: it builds the body the stream
//!   carries, and replays it once it is whole (not cut, not failed).

mod history_names;
pub(crate) mod repair;
mod streamed_turn;

use std::borrow::Cow;
use std::fmt;

use serde_json::Value;

pub(crate) use repair::ArgumentsPlace;
pub use streamed_turn::StreamedTurn;

use super::apis::api;
use super::calls::{ArgumentsError, BodyError, CallFormat, Fault, ToolCall, UnfinishedCall};
use super::json_pointer;
use crate::census::Census;
use crate::names::model_safe_name;
pub(crate) use history_names::{history_name, resolve_in_history, HistoryName};

/// The assistant turn to append to history, and the calls whose name it had to change.
///
/// `turn` is, per format: Chat Completions the assistant message (`choices[0].message`); the
/// Responses API an array of the output items to append to `input` (`output`, every item);
/// the Messages API `{"role": "assistant", "content": [...]}` (the response's `content`);
/// Converse `output.message`; Gemini the candidate's content (`candidates[0].content`).
///
/// The turn borrows the body it was replayed from wherever it is the body's own (no name
/// replaced, no arguments repaired: [`Replay::is_verbatim`]), so an app that serializes it
/// into its next request's text copies nothing; the Messages API's turn, a message built
/// around the body's `content`, and any turn with a change, are owned. A history of `Value`s
/// owns its messages, so [`Replay::append_to`] copies a borrowed turn (once, as every replay
/// did before). A stream's replay ([`StreamedTurn::replay`]) is owned, its turn taken out of
/// the body built for it.
///
/// Keeping one: the replay borrows the body, so the body must outlive it (replay a body held
/// in a variable, not a temporary such as `&turn.body()`), and a function that returns what it
/// borrows from a `&Replay` names the lifetimes (`fn f<'r>(replay: &'r Replay<'_>) -> &'r
/// str`); [`Replay::into_owned`] gives a `Replay<'static>`.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::wire::calls::{parse_calls, CallFormat};
/// use toolwire_core::wire::replay::replay_turn;
///
/// let body = json!({"output": {"message": {"role": "assistant", "content": [
///     {"reasoningContent": {"reasoningText": {"text": "…", "signature": "sig"}}},
///     {"toolUse": {"toolUseId": "tooluse_1", "name": "$READFILE", "input": {"path": "a"}}},
/// ]}}, "stopReason": "tool_use"});
/// let calls = parse_calls(CallFormat::Converse, &body).unwrap();
/// let replay = replay_turn(CallFormat::Converse, &body, &calls).unwrap();
/// // Bedrock refuses `$` in a replayed toolUse name: the copy carries the model-safe form.
/// assert_eq!(replay.turn["content"][1]["toolUse"]["name"], "_READFILE");
/// assert_eq!(replay.turn["content"][0], body["output"]["message"]["content"][0]);
/// assert_eq!(replay.renamed[0].called, "$READFILE");
/// assert_eq!(replay.renamed[0].replayed, "_READFILE");
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Replay<'a> {
    /// The turn as the next request carries it: borrowed from the body where it is the body's
    /// own, owned where it was built or changed.
    pub turn: Cow<'a, Value>,
    /// Each call whose name the provider refuses in history, in call order: the replayed copy
    /// carries the model-safe form instead. Empty when no name was replaced.
    pub renamed: Vec<RenamedCall>,
    /// Each call whose arguments never became a JSON object, in call order: the replayed copy
    /// carries empty arguments instead. Empty when every call's arguments are its own.
    pub repaired: Vec<RepairedCall>,
    /// Each call [`Request::replay_turn`](crate::runtime::Request::replay_turn) recorded a
    /// tool for from the replaying request's census, in call order, because its conversation
    /// keeps no dispatch of it (not answered by
    /// [`answer_calls`](crate::runtime::Request::answer_calls) in this conversation, or let go
    /// past the bound of
    /// [`ConversationState::dispatched`](crate::runtime::ConversationState::dispatched)): the
    /// tool recorded is what the name reaches now, which may not be the tool the call ran.
    /// Empty when every recorded tool is the one its call ran, and always for the bare
    /// [`replay_turn`] and [`replay_turn_in`], which record nothing.
    pub unverified: Vec<UnverifiedCall>,
}

impl Replay<'_> {
    /// Whether the turn is exactly the response's own (no name was replaced, no arguments
    /// repaired).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::wire::calls::CallFormat;
    /// use toolwire_core::wire::replay::replay_turn;
    /// let body = json!({"content": [{"type": "text", "text": "Hi."}]});
    /// assert!(replay_turn(CallFormat::Anthropic, &body, &[]).unwrap().is_verbatim());
    /// ```
    pub fn is_verbatim(&self) -> bool {
        self.renamed.is_empty() && self.repaired.is_empty()
    }

    /// Appends the turn to a conversation's history as its format takes it: the Responses API's
    /// turn is the response's `output` items, each its own entry of the next request's `input`
    /// (so they extend the history); every other format's turn is one message (pushed). A
    /// borrowed turn is copied (the history owns its messages); an owned one is moved.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::wire::calls::CallFormat;
    /// use toolwire_core::wire::replay::replay_turn;
    /// let mut history = vec![CallFormat::OpenAiResponses.user_message("Hi?")];
    /// let body = json!({"output": [
    ///     {"type": "reasoning", "id": "rs_1", "summary": []},
    ///     {"type": "message", "id": "msg_1", "role": "assistant", "content": []},
    /// ]});
    /// replay_turn(CallFormat::OpenAiResponses, &body, &[]).unwrap().append_to(&mut history);
    /// assert_eq!(history.len(), 3); // the user's message, then each output item
    ///
    /// let mut history = vec![CallFormat::Anthropic.user_message("Hi?")];
    /// let body = json!({"role": "assistant", "content": [{"type": "text", "text": "Hello."}]});
    /// replay_turn(CallFormat::Anthropic, &body, &[]).unwrap().append_to(&mut history);
    /// assert_eq!(history[1], json!({"role": "assistant", "content": [{"type": "text", "text": "Hello."}]}));
    /// ```
    pub fn append_to(self, history: &mut Vec<Value>) {
        match self.turn.into_owned() {
            // Only the Responses API's turn is an array (`responses_replay.rs`): its items.
            Value::Array(items) => history.extend(items),
            message => history.push(message),
        }
    }

    /// The replay with its turn owned, to keep past the body it borrows.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::wire::calls::CallFormat;
    /// use toolwire_core::wire::replay::{replay_turn, Replay};
    /// fn replayed() -> Replay<'static> {
    ///     let body = json!({"output": {"message": {"role": "assistant", "content": [{"text": "Hi."}]}}});
    ///     replay_turn(CallFormat::Converse, &body, &[]).unwrap().into_owned()
    /// }
    /// assert_eq!(replayed().turn["content"][0]["text"], "Hi.");
    /// ```
    pub fn into_owned(self) -> Replay<'static> {
        Replay {
            turn: Cow::Owned(self.turn.into_owned()),
            renamed: self.renamed,
            repaired: self.repaired,
            unverified: self.unverified,
        }
    }
}

/// `replay_of(&body)` for a body built for it (a stream's, which nothing else holds), owned: a
/// turn the replay borrows is taken out of `body`, not copied.
pub(crate) fn owned_from_built(
    format: CallFormat,
    mut body: Value,
    replay_of: impl FnOnce(&Value) -> Result<Replay<'_>, ReplayError>,
) -> Result<Replay<'static>, ReplayError> {
    let (turn, renamed, repaired, unverified) = {
        let replay = replay_of(&body)?;
        // Owned already (changed, or built): kept; borrowed: taken below, once the borrow ends.
        let turn = match replay.turn {
            Cow::Owned(turn) => Some(turn),
            Cow::Borrowed(_) => None,
        };
        (turn, replay.renamed, replay.repaired, replay.unverified)
    };
    let turn = match turn {
        Some(turn) => turn,
        None => {
            // The same turn the replay borrowed, found where the format keeps it (asked again:
            // a `Replay` does not say where its turn was, and this is a few shape checks).
            let (turn_at, _) = (rules(format).turn)(&body)
                .map_err(|fault| ReplayError::Body(fault.in_body(format)))?;
            match body.pointer_mut(&turn_at) {
                Some(turn) => turn.take(),
                // Not reached: the replay found the turn there.
                None => {
                    return Err(ReplayError::Body(
                        Fault::shape(turn_at, "the turn").in_body(format),
                    ))
                }
            }
        }
    };
    Ok(Replay {
        turn: Cow::Owned(turn),
        renamed,
        repaired,
        unverified,
    })
}

/// A call whose name the provider refuses in replayed history, and the name the replay gave it.
///
/// ```
/// let renamed = toolwire_core::wire::replay::RenamedCall::new(
///     Some("call_1".into()), "github:create_issue", "github_create_issue", "/1/name");
/// assert_eq!(renamed.to_string(), "`github:create_issue` (id `call_1`) is replayed as `github_create_issue`");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RenamedCall {
    /// The call's id ([`ToolCall::id`]).
    pub id: Option<String>,
    /// The name the model emitted, which the dispatch used.
    pub called: String,
    /// The name the replayed copy carries: the called name's model-safe form.
    pub replayed: String,
    /// Where the replayed name sits, as an RFC 6901 pointer into [`Replay::turn`].
    pub pointer: String,
    /// Whether `replayed` is an alias that no tool of the census answers to, not the called
    /// tool's own form: the form was another tool's or shared, or no tool answered the call
    /// ([`replay_turn_in`]). [`Request::replay_turn`](crate::runtime::Request::replay_turn)
    /// records it in the conversation, so a later call by it resolves as this call did.
    pub alias: bool,
}

impl RenamedCall {
    /// A renamed call, as a test would make it.
    ///
    /// ```
    /// use toolwire_core::wire::replay::RenamedCall;
    /// let renamed = RenamedCall::new(None, "$READFILE", "_READFILE", "/content/0/toolUse/name");
    /// assert_eq!((renamed.called.as_str(), renamed.replayed.as_str()), ("$READFILE", "_READFILE"));
    /// ```
    pub fn new(
        id: Option<String>,
        called: impl Into<String>,
        replayed: impl Into<String>,
        pointer: impl Into<String>,
    ) -> RenamedCall {
        RenamedCall {
            id,
            called: called.into(),
            replayed: replayed.into(),
            pointer: pointer.into(),
            alias: false,
        }
    }
}

impl fmt::Display for RenamedCall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`", self.called)?;
        if let Some(id) = &self.id {
            write!(f, " (id `{id}`)")?;
        }
        write!(f, " is replayed as `{}`", self.replayed)
    }
}

/// A call whose arguments never became a JSON object, replayed with empty arguments (the
/// Messages API and Converse refuse a string `input`). The call itself is answered with its
/// error ([`ToolCall::arguments`]): only its history copy is repaired.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::wire::calls::{parse_calls, CallFormat};
/// use toolwire_core::wire::replay::replay_turn;
///
/// let body = json!({"content": [{"type": "tool_use", "id": "toolu_1", "name": "f", "input": "{\"a\": "}]});
/// let calls = parse_calls(CallFormat::Anthropic, &body).unwrap();
/// let replay = replay_turn(CallFormat::Anthropic, &body, &calls).unwrap();
/// assert_eq!(replay.turn["content"][0]["input"], json!({}));
/// assert_eq!(replay.repaired[0].pointer, "/content/0/input");
/// assert_eq!(replay.repaired[0].to_string(), "`f` (id `toolu_1`) is replayed with empty arguments: the arguments are a string, not a JSON object");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RepairedCall {
    /// The call's id ([`ToolCall::id`]).
    pub id: Option<String>,
    /// The called name.
    pub called: String,
    /// Why the call's arguments were not an object (its [`ToolCall::arguments`] error).
    pub error: ArgumentsError,
    /// What the replayed copy's arguments member held before: the body's own value (absent
    /// when the body had none).
    pub was: Option<Value>,
    /// Where the replayed arguments sit, as an RFC 6901 pointer into [`Replay::turn`].
    pub pointer: String,
}

impl fmt::Display for RepairedCall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`", self.called)?;
        if let Some(id) = &self.id {
            write!(f, " (id `{id}`)")?;
        }
        write!(f, " is replayed with empty arguments: {}", self.error)
    }
}

/// A call whose replay recorded, for the names its history carries, the tool its name reaches
/// in the replaying request's census, not the tool it ran: its conversation keeps no dispatch
/// of it ([`Replay::unverified`]).
///
/// ```
/// # use std::sync::Arc;
/// # use serde_json::json;
/// use toolwire_core::{ToolDefinition, ToolRuntime, provider::provider_fn};
/// use toolwire_core::wire::calls::{parse_calls, CallFormat};
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let tools = vec![ToolDefinition::new("get_time", "The time.", json!({}))];
/// let time = provider_fn("t", tools, |_, _| async move { Ok(json!("noon")) });
/// let runtime = ToolRuntime::new();
/// runtime.add_provider(Arc::new(time)).await.unwrap().check().unwrap();
/// let body = json!({"content": [{"type": "tool_use", "id": "toolu_1", "name": "get_time", "input": {}}]});
/// let calls = parse_calls(CallFormat::Anthropic, &body).unwrap();
/// // Replayed without `answer_calls` in this conversation: what ran is not known here.
/// let replay = runtime.conversation().request().replay_turn(CallFormat::Anthropic, &body, &calls).unwrap();
/// assert_eq!(replay.unverified[0].tool, "get_time");
/// assert_eq!(replay.unverified[0].to_string(),
///     "`get_time` (id `toolu_1`) is recorded for `get_time`, what it reaches now: this conversation did not keep the tool it ran");
/// # });
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct UnverifiedCall {
    /// The call's id ([`ToolCall::id`]).
    pub id: Option<String>,
    /// The call's Responses API namespace, when it had one.
    pub namespace: Option<String>,
    /// The called name.
    pub called: String,
    /// The real name of the tool recorded for it: the one its name reaches in the replaying
    /// request's census.
    pub tool: String,
}

impl fmt::Display for UnverifiedCall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`", self.called)?;
        if let Some(namespace) = &self.namespace {
            write!(f, " (namespace `{namespace}`)")?;
        }
        if let Some(id) = &self.id {
            write!(f, " (id `{id}`)")?;
        }
        write!(
            f,
            " is recorded for `{}`, what it reaches now: this conversation did not keep the tool it ran",
            self.tool
        )
    }
}

/// Why a body gives no turn to replay.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::wire::calls::{BodyError, CallFormat, ToolCall};
/// use toolwire_core::wire::replay::{replay_turn, ReplayError};
/// let err = replay_turn(CallFormat::Gemini, &json!({"candidates": []}), &[]).unwrap_err();
/// assert!(matches!(err, ReplayError::Body(BodyError::Shape { ref pointer, .. }) if pointer == "/candidates/0/content"));
/// let call = ToolCall::new(None, "f", Ok(Default::default()), "/content/0");
/// let err = replay_turn(CallFormat::Anthropic, &json!({"content": []}), &[call]).unwrap_err();
/// assert!(matches!(err, ReplayError::CallNotInBody { .. }));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReplayError {
    /// The body is not the format's shape where its turn sits
    /// ([`BodyError::Shape`], with the pointer and what the format puts there).
    #[error("no assistant turn to replay: {0}")]
    Body(BodyError),
    /// A call's [`pointer`](ToolCall::pointer) does not name a call of its name in the body:
    /// the calls are another body's (or another format's).
    #[error("the {format} body has no call named `{called}` at `{pointer}`: the calls are not this body's")]
    CallNotInBody {
        /// The format it was read as.
        format: CallFormat,
        /// The call's pointer.
        pointer: String,
        /// The call's name.
        called: String,
    },
    /// The stream was cut: calls it began never ended, or it ended inside an event. Its turn
    /// is not history: a replayed cut call would carry arguments the model never finished.
    #[error("the {format} stream was cut, so its turn is not replayed: {}", cut_calls(calls, *cut_event))]
    Cut {
        /// The format it was read as.
        format: CallFormat,
        /// The calls begun and not ended, in order.
        calls: Vec<UnfinishedCall>,
        /// Whether the stream ended inside an event (which may have held a call no earlier
        /// event began).
        cut_event: bool,
    },
    /// The stream failed before it ended (the provider's error event, or a fault the call
    /// stream reported): its turn is not a whole answer, so it is not history either.
    #[error("the {format} stream failed, so its turn is not replayed: {message}")]
    Failed {
        /// The format it was read as.
        format: CallFormat,
        /// What failed, in the call stream's words.
        message: String,
    },
}

/// The cut calls, in words.
fn cut_calls(calls: &[UnfinishedCall], cut_event: bool) -> String {
    let mut words: Vec<String> = calls
        .iter()
        .map(|call| format!("{call} never ended"))
        .collect();
    if cut_event {
        words.push("the stream ended inside an event".to_owned());
    }
    words.join("; ")
}

/// Where one format keeps its turn and its called names, and which names it refuses in
/// history: the facts each provider folder's `replay.rs` gives.
pub(crate) struct ReplayRules {
    /// The pointer of a call's name, from its block.
    pub(crate) name_in_call: &'static str,
    /// The turn of a body and the pointer its calls' pointers start with, which the turn
    /// stands for (`""` when the turn keeps the body's members at their places).
    pub(crate) turn: fn(&Value) -> Result<TurnAt<'_>, Fault>,
    /// Whether the provider refuses this called name in replayed history.
    pub(crate) refuses_in_history: fn(&str) -> bool,
}

/// The pointer a body's turn stands at, and the turn: borrowed from the body where it is the
/// body's own value, owned where the format builds it.
pub(crate) type TurnAt<'b> = (String, Cow<'b, Value>);

fn rules(format: CallFormat) -> ReplayRules {
    api(format).replay_rules()
}

/// Whether `format`'s provider refuses `called` as a called name in replayed history (then
/// [`replay_turn`] replays its model-safe form). Chat Completions and the Responses API: a
/// name outside `^[a-zA-Z0-9_-]+$`; Converse: outside `[a-zA-Z0-9_-]{1,64}`; the Messages API:
/// over 200 characters; Gemini: none (its answers pair by the called name).
///
/// ```
/// use toolwire_core::wire::calls::CallFormat;
/// use toolwire_core::wire::replay::refused_in_history;
/// assert!(refused_in_history(CallFormat::Converse, "$READFILE"));
/// assert!(refused_in_history(CallFormat::OpenAiResponses, "github:create_issue"));
/// assert!(!refused_in_history(CallFormat::Anthropic, "github:create_issue"));
/// assert!(!refused_in_history(CallFormat::Gemini, "$READFILE"));
/// ```
pub fn refused_in_history(format: CallFormat, called: &str) -> bool {
    (rules(format).refuses_in_history)(called)
}

/// The assistant turn of `body` (a `format` response as the provider returned it) to append to
/// history, given its `calls` ([`CallParser::parse`](super::calls::CallParser::parse) of the
/// same body): the response's own, except that a called name the provider refuses in history
/// carries its model-safe form, each listed in [`Replay::renamed`].
///
/// A body without the format's turn is [`ReplayError::Body`]; a call whose pointer does not
/// name a call of its name in this body is [`ReplayError::CallNotInBody`]. A call whose
/// arguments are an error is replayed with empty arguments, each listed in
/// [`Replay::repaired`].
///
/// Without a census the replayed name is the called name's model-safe form, which may be
/// another tool's name (`mcp/x/search.web` as `mcp_x_search_web`, an app's tool of that real
/// name): an agent loop replays with [`replay_turn_in`], or
/// [`Request::replay_turn`](crate::runtime::Request::replay_turn), so that history never
/// misroutes.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::wire::calls::{parse_calls, CallFormat};
/// use toolwire_core::wire::replay::replay_turn;
///
/// let body = json!({"output": [
///     {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAA"},
///     {"type": "function_call", "id": "fc_1", "call_id": "call_1",
///      "name": "github:create_issue", "arguments": "{}"},
/// ]});
/// let calls = parse_calls(CallFormat::OpenAiResponses, &body).unwrap();
/// let replay = replay_turn(CallFormat::OpenAiResponses, &body, &calls).unwrap();
/// assert_eq!(replay.turn[0], body["output"][0]);
/// assert_eq!(replay.turn[1]["name"], "github_create_issue");
/// assert_eq!((replay.turn[1]["id"].as_str(), replay.renamed[0].pointer.as_str()), (Some("fc_1"), "/1/name"));
/// ```
pub fn replay_turn<'a>(
    format: CallFormat,
    body: &'a Value,
    calls: &[ToolCall],
) -> Result<Replay<'a>, ReplayError> {
    replay_named(format, body, calls, &mut |call| HistoryName {
        name: model_safe_name(&call.name).into_owned(),
        alias: false,
    })
}

/// [`replay_turn`] in the census of the request the history travels with (hop 5 of
/// `docs/spec/tool-name-wire.md`): a renamed call carries a name that resolves
/// ([`Census::resolve_call`]) to the tool that was called, or to no tool at all, never to
/// another. That is the called tool's offered form where one tool travels as it; otherwise an
/// alias no tool answers to ([`RenamedCall::alias`]), for the app to record so that a later
/// call by it resolves as this call did:
/// [`Request::replay_turn`](crate::runtime::Request::replay_turn) does both with the
/// request's census and conversation. A stream's turn: this over [`StreamedTurn::body`] once
/// [`StreamedTurn::whole`] says it is whole, as
/// [`Request::replay_streamed`](crate::runtime::Request::replay_streamed) does.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::Census;
/// use toolwire_core::wire::calls::{parse_calls, CallFormat};
/// use toolwire_core::wire::replay::replay_turn_in;
///
/// // `mcp/x/search.web` travels as `mcp_x_search_web`, which is another tool's real name.
/// let census = Census::build(["mcp/x/search.web", "mcp_x_search_web"], &[]);
/// let body = json!({"output": {"message": {"role": "assistant", "content": [
///     {"toolUse": {"toolUseId": "t1", "name": "mcp/x/search.web", "input": {}}}]}}});
/// let calls = parse_calls(CallFormat::Converse, &body).unwrap();
/// let replay = replay_turn_in(CallFormat::Converse, &body, &calls, &census).unwrap();
/// let replayed = &replay.renamed[0].replayed;
/// assert!(replay.renamed[0].alias && replayed != "mcp_x_search_web");
/// assert!(census.resolve(replayed).is_err()); // no tool, never the other one
/// ```
pub fn replay_turn_in<'a>(
    format: CallFormat,
    body: &'a Value,
    calls: &[ToolCall],
    census: &Census,
) -> Result<Replay<'a>, ReplayError> {
    let refuses = rules(format).refuses_in_history;
    replay_named(format, body, calls, &mut |call| {
        history_name(
            census,
            call.namespace.as_deref(),
            &call.name,
            &refuses,
            &|_, _| None,
        )
    })
}

/// [`replay_turn`] with the name each renamed call carries given by `name_of`.
pub(crate) fn replay_named<'a>(
    format: CallFormat,
    body: &'a Value,
    calls: &[ToolCall],
    name_of: &mut dyn FnMut(&ToolCall) -> HistoryName,
) -> Result<Replay<'a>, ReplayError> {
    let rules = rules(format);
    let (turn_at, mut turn) =
        (rules.turn)(body).map_err(|fault| ReplayError::Body(fault.in_body(format)))?;
    let mut renamed = Vec::new();
    let mut repaired = Vec::new();
    let place = api(format).arguments_place();
    for call in calls {
        let not_in_body = || ReplayError::CallNotInBody {
            format,
            pointer: call.pointer.clone(),
            called: call.name.clone(),
        };
        let inner = call
            .pointer
            .strip_prefix(turn_at.as_str())
            .filter(|inner| inner.starts_with('/'))
            .ok_or_else(not_in_body)?;
        // Joined, not `format!`ed: the formatting machinery cost as much as the walk.
        let mut name_pointer = String::with_capacity(inner.len() + rules.name_in_call.len());
        name_pointer.push_str(inner);
        name_pointer.push_str(rules.name_in_call);
        let name = json_pointer::get(&turn, &name_pointer).ok_or_else(not_in_body)?;
        if name.as_str() != Some(call.name.as_str()) {
            return Err(not_in_body());
        }
        if (rules.refuses_in_history)(&call.name) {
            let HistoryName {
                name: replayed,
                alias,
                ..
            } = name_of(call);
            // The first change copies a borrowed turn; a turn the body's own stays borrowed.
            let slot = turn
                .to_mut()
                .pointer_mut(&name_pointer)
                .ok_or_else(not_in_body)?;
            *slot = Value::String(replayed.clone());
            renamed.push(RenamedCall {
                id: call.id.clone(),
                called: call.name.clone(),
                replayed,
                pointer: name_pointer,
                alias,
            });
        }
        if let Err(error) = &call.arguments {
            let parent = format!("{inner}{}", place.parent);
            let block = turn
                .to_mut()
                .pointer_mut(&parent)
                .and_then(Value::as_object_mut)
                .ok_or_else(not_in_body)?;
            let was = block.insert(place.key.to_owned(), (place.empty)());
            repaired.push(RepairedCall {
                id: call.id.clone(),
                called: call.name.clone(),
                error: error.clone(),
                was,
                pointer: format!("{parent}/{}", place.key),
            });
        }
    }
    Ok(Replay {
        turn,
        renamed,
        repaired,
        unverified: Vec::new(),
    })
}

/// A name outside `[A-Za-z0-9_-]` (any length): the pattern OpenAI's APIs check a replayed
/// called name against (cited in `openai/chat_replay.rs`).
pub(crate) fn outside_form_chars(name: &str) -> bool {
    !name.chars().all(crate::names::is_form_char)
}
