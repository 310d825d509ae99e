//! The answers to a response's calls: every client call the model made in one response (its
//! assistant turn), run concurrently and answered, one answer per call, in call order (issue 18,
//! point 4).
//!
//! Policy: every call is answered. An unknown name, unusable arguments, a denial, a tool's
//! error, a panic or the time limit is that call's error answer, which the model reads; a
//! call is never dropped and the answers never fail as a whole (the providers refuse the next
//! request when a call goes unanswered: every `tool_use` needs its `tool_result`, every
//! `tool_call_id` its `tool` message, every `functionCall` part its `functionResponse` part;
//! `fixtures/provider-wire/README.md`, "What an answer may carry"). The id and the called name
//! are the call's own bytes, so each answer pairs with its call on the wire.

use std::panic::AssertUnwindSafe;
use std::time::Duration;

use futures::{FutureExt, StreamExt};
use serde_json::Value;

use super::dispatch::CallOutcome;
use super::errors::DispatchError;
use super::request::Request;
use crate::census::Resolution;
use crate::provider::caught_panic;
use crate::tools::{ToolError, ToolOutput};
use crate::wire::calls::ToolCall;

/// How many calls of a response run at once by default: our caution (a response of many calls to
/// one MCP server should not open that many requests at once), not any provider's rule.
pub const DEFAULT_CONCURRENCY: usize = 8;

/// How long one call of a response may run by default before it is abandoned and answered with
/// [`DispatchError::TimedOut`]: our caution, above an MCP call's own default of 60 s
/// (`mcp::McpTimeouts::call`) so a hung server is reported by its provider
/// first, with its stderr.
pub const DEFAULT_CALL_TIME_LIMIT: Duration = Duration::from_secs(120);

/// How a response's calls run: at most `concurrency` at once (results stay in call order), each
/// within `time_limit`.
///
/// ```
/// use std::time::Duration;
/// use toolwire_core::runtime::CallOptions;
/// let options = CallOptions::default().with_concurrency(2).with_time_limit(Duration::from_secs(5));
/// assert_eq!((options.concurrency, options.time_limit), (2, Duration::from_secs(5)));
/// assert_eq!(CallOptions::default().concurrency, 8);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CallOptions {
    /// How many calls run at once (at least 1). Default [`DEFAULT_CONCURRENCY`].
    pub concurrency: usize,
    /// How long one call may run. Default [`DEFAULT_CALL_TIME_LIMIT`].
    pub time_limit: Duration,
}

/// The former name of [`CallOptions`]: "turn" names the assistant message as history.
///
/// ```
/// #![allow(deprecated)]
/// use toolwire_core::runtime::{CallOptions, TurnOptions};
/// let options: TurnOptions = CallOptions::default();
/// assert_eq!(options.concurrency, 8);
/// ```
#[deprecated(note = "renamed CallOptions")]
pub type TurnOptions = CallOptions;

impl Default for CallOptions {
    fn default() -> CallOptions {
        CallOptions {
            concurrency: DEFAULT_CONCURRENCY,
            time_limit: DEFAULT_CALL_TIME_LIMIT,
        }
    }
}

impl CallOptions {
    /// These options with another bound on the calls that run at once (0 counts as 1).
    ///
    /// ```
    /// assert_eq!(toolwire_core::runtime::CallOptions::default().with_concurrency(0).concurrency, 1);
    /// ```
    pub fn with_concurrency(mut self, concurrency: usize) -> CallOptions {
        self.concurrency = concurrency.max(1);
        self
    }

    /// These options with another time limit per call.
    ///
    /// ```
    /// use std::time::Duration;
    /// let options = toolwire_core::runtime::CallOptions::default().with_time_limit(Duration::from_millis(10));
    /// assert_eq!(options.time_limit, Duration::from_millis(10));
    /// ```
    pub fn with_time_limit(mut self, time_limit: Duration) -> CallOptions {
        self.time_limit = time_limit;
        self
    }
}

/// One call's answer: the call's id and called name exactly as the model sent them (and its
/// Responses `namespace`, by whose pair it was resolved), and what came of it.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::{runtime::{CallOutcome, Route, ToolAnswer}, tools::ToolOutput};
/// let answer = ToolAnswer {
///     id: Some("call_1".into()),
///     called: "files_read".into(),
///     namespace: None,
///     result: Ok(CallOutcome { tool: "files/read".into(), provider: "files".into(), route: Route::Form, output: json!("hi").into() }),
/// };
/// assert!(!answer.is_error());
/// assert_eq!(answer.output().unwrap(), &ToolOutput::from(json!("hi")));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ToolAnswer {
    /// The call's id, as the provider sent it (`None` only for a Gemini call without one).
    pub id: Option<String>,
    /// The name the model called, verbatim (an answer names the call by it: Gemini's
    /// `functionResponse.name` must be the called name).
    pub called: String,
    /// The call's Responses API `namespace`, when it had one.
    pub namespace: Option<String>,
    /// The call's outcome, or why it did not run or complete.
    pub result: Result<CallOutcome, DispatchError>,
}

impl ToolAnswer {
    /// An answer to `call` with `result`.
    ///
    /// ```
    /// use toolwire_core::{runtime::{DispatchError, ToolAnswer}, wire::calls::ToolCall};
    /// let call = ToolCall::new(Some("toolu_1".into()), "nope", Ok(Default::default()), "/content/0");
    /// let err = DispatchError::UnknownTool { called: "nope".into(), closest: Vec::new() };
    /// let answer = ToolAnswer::new(&call, Err(err));
    /// assert_eq!((answer.id.as_deref(), answer.called.as_str()), (Some("toolu_1"), "nope"));
    /// assert!(answer.is_error());
    /// ```
    pub fn new(call: &ToolCall, result: Result<CallOutcome, DispatchError>) -> ToolAnswer {
        ToolAnswer {
            id: call.id.clone(),
            called: call.name.clone(),
            namespace: call.namespace.clone(),
            result,
        }
    }

    /// Whether the model is told the call failed: it did not run or complete, or its tool
    /// said its result is an error (an MCP `isError` result).
    ///
    /// ```
    /// # use toolwire_core::{runtime::{DispatchError, ToolAnswer}, wire::calls::ToolCall};
    /// let call = ToolCall::new(None, "t", Ok(Default::default()), "/parts/0");
    /// let denied = DispatchError::Denied { tool: "t".into(), reason: Some("not today".into()) };
    /// assert!(ToolAnswer::new(&call, Err(denied)).is_error());
    /// ```
    pub fn is_error(&self) -> bool {
        match &self.result {
            Ok(outcome) => outcome.output.is_error(),
            Err(_) => true,
        }
    }

    /// The tool's output, when the call ran.
    ///
    /// ```
    /// # use toolwire_core::{runtime::{DispatchError, ToolAnswer}, wire::calls::ToolCall};
    /// let call = ToolCall::new(None, "t", Ok(Default::default()), "/parts/0");
    /// let off = DispatchError::Disabled { tool: "t".into() };
    /// assert!(ToolAnswer::new(&call, Err(off)).output().is_none());
    /// ```
    pub fn output(&self) -> Option<&ToolOutput> {
        self.result.as_ref().ok().map(|outcome| &outcome.output)
    }

    /// What the model reads for a call that did not run or complete: the error's words, the
    /// tool named as the model called it ([`DispatchError::for_model`]).
    ///
    /// ```
    /// # use toolwire_core::{runtime::{DispatchError, ToolAnswer}, wire::calls::ToolCall};
    /// let call = ToolCall::new(None, "files_read", Ok(Default::default()), "/parts/0");
    /// let denied = DispatchError::Denied { tool: "files/read".into(), reason: Some("not today".into()) };
    /// let answer = ToolAnswer::new(&call, Err(denied));
    /// assert_eq!(answer.error_for_model().unwrap(), "the call to tool `files_read` was not approved: not today");
    /// ```
    pub fn error_for_model(&self) -> Option<String> {
        self.result
            .as_ref()
            .err()
            .map(|err| err.for_model(&self.called))
    }
}

impl Request {
    /// Runs every call of a response (the client calls parsed from its assistant turn, in order)
    /// with the default [`CallOptions`], and answers each: one [`ToolAnswer`] per call, in call
    /// order, never fewer.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use serde_json::json;
    /// use toolwire_core::{ToolDefinition, ToolRuntime, provider::provider_fn};
    /// use toolwire_core::wire::calls::{parse_calls, CallFormat};
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let files = provider_fn(
    ///     "files",
    ///     vec![ToolDefinition::new("files/read", "Reads a file.", json!({}))],
    ///     |_tool, arguments| async move { Ok(arguments) },
    /// );
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(files)).await.unwrap().check().unwrap();
    /// let response = json!({"content": [
    ///     {"type": "tool_use", "id": "toolu_1", "name": "files_read", "input": {"path": "a"}},
    ///     {"type": "tool_use", "id": "toolu_2", "name": "files_raed", "input": {}},
    /// ]});
    /// let calls = parse_calls(CallFormat::Anthropic, &response).unwrap();
    /// let answers = runtime.request().answer_calls(&calls).await;
    /// assert_eq!(answers.len(), 2); // every call answered, in order
    /// assert_eq!(answers[0].output().unwrap(), &json!({"path": "a"}));
    /// let unknown = answers[1].error_for_model().unwrap();
    /// assert!(unknown.contains("unknown tool `files_raed`") && unknown.contains("`files_read`"), "{unknown}");
    /// # });
    /// ```
    pub async fn answer_calls(&self, calls: &[ToolCall]) -> Vec<ToolAnswer> {
        self.answer_calls_with(calls, CallOptions::default()).await
    }

    /// [`answer_calls`](Request::answer_calls) with `options`: at most
    /// `options.concurrency` calls at once, each within `options.time_limit`.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use std::time::Duration;
    /// # use serde_json::json;
    /// use toolwire_core::{ToolDefinition, ToolRuntime, provider::provider_fn, runtime::{DispatchError, CallOptions}};
    /// use toolwire_core::wire::calls::ToolCall;
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let slow = provider_fn("slow", vec![ToolDefinition::new("wait", "Never ends.", json!({}))],
    ///     |_, _| async { std::future::pending::<Result<serde_json::Value, _>>().await });
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(slow)).await.unwrap().check().unwrap();
    /// let calls = [ToolCall::new(Some("c1".into()), "wait", Ok(Default::default()), "/output/0")];
    /// let options = CallOptions::default().with_time_limit(Duration::from_millis(20));
    /// let answers = runtime.request().answer_calls_with(&calls, options).await;
    /// assert_eq!(answers[0].result, Err(DispatchError::TimedOut { tool: "wait".into(), millis: 20 }));
    /// # });
    /// ```
    pub async fn answer_calls_with(
        &self,
        calls: &[ToolCall],
        options: CallOptions,
    ) -> Vec<ToolAnswer> {
        let answers = calls.iter().map(|call| async move {
            // Hop 5, once: the span names the tool the call runs by (a namespaced call's pair,
            // never its bare name), and the call runs by the same resolution.
            let resolution = self
                .resolve_called(call.namespace.as_deref(), &call.name)
                .ok();
            // What the turn's replay records for the call: the tool it runs.
            self.note_dispatched(call, resolution);
            let result = self
                .in_call_span(
                    &call.name,
                    resolution,
                    call.id.as_deref(),
                    self.answer_one(call, resolution, options),
                )
                .await;
            ToolAnswer::new(call, result)
        });
        // `buffered` polls up to `concurrency` calls at once and yields in call order. They
        // run on the caller's task: concurrent, not parallel (a provider's I/O overlaps; a tool
        // that blocks its thread holds up the other calls, as it would any async caller).
        futures::stream::iter(answers)
            .buffered(options.concurrency.max(1))
            .collect()
            .await
    }

    /// One call of a response, by its `resolution` (hop 5, done by the caller: a Responses API call
    /// made inside a `namespace` tool is resolved by its (namespace, name) pair, never by its
    /// bare name, which could be another tool's): its arguments checked, run within the time
    /// limit, a panic caught.
    async fn answer_one(
        &self,
        call: &ToolCall,
        resolution: Option<Resolution<'_>>,
        options: CallOptions,
    ) -> Result<CallOutcome, DispatchError> {
        let called = call.name.as_str();
        let tool = match resolution {
            Some(Resolution::Tool(hit)) => hit.name.to_owned(),
            Some(Resolution::Meta(meta)) => meta.to_owned(),
            // An unknown name is the answer even when the arguments are bad too: the model
            // learns which tools there are first.
            None => return Err(self.unknown(call.namespace.as_deref(), called)),
        };
        let arguments = match &call.arguments {
            Ok(arguments) => Value::Object(arguments.clone()),
            Err(err) => {
                return Err(ToolError::InvalidArguments {
                    tool,
                    argument: None,
                    reason: err.to_string(),
                }
                .into())
            }
        };
        // A custom provider, or the approval hook, may panic outside the providers' own
        // guards: caught here, so one call never takes the others down.
        let run = AssertUnwindSafe(self.run_call(
            call.namespace.as_deref(),
            called,
            resolution,
            arguments,
        ))
        .catch_unwind();
        match tokio::time::timeout(options.time_limit, run).await {
            Ok(Ok(result)) => result,
            Ok(Err(panic)) => Err(caught_panic(&tool, &*panic).into()),
            Err(_) => Err(DispatchError::TimedOut {
                tool,
                millis: options
                    .time_limit
                    .as_millis()
                    .try_into()
                    .unwrap_or(u64::MAX),
            }),
        }
    }
}
