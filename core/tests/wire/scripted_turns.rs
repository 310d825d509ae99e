//! Multi-turn conversations with a scripted model, in every format (issue 18, point 7): each
//! turn the model's response (written per format, with its provider blocks: thinking and
//! signatures, reasoning items, thoughtSignatures) is parsed, every call dispatched through
//! `Request::dispatch` by the name the model emitted, and the replay appended to history;
//! between turns the provider is reloaded; at the end every call in history is resolved again.
//!
//! The answers on the wire (point 5) are another part's: `answers` below is where they plug in
//! (today it appends none, so the history holds the assistant turns only). Everything else is
//! the real runtime: a provider made of closures, its census, its dispatch.

use std::sync::Arc;

use serde_json::{json, Value};
use toolwire_core::census::Resolution;
use toolwire_core::runtime::{CallOutcome, DispatchError, Route};
use toolwire_core::wire::calls::{CallFormat, CallParser, ToolCall};
use toolwire_core::wire::replay::{replay_turn, RenamedCall};
use toolwire_core::{ToolRuntime, WireFormat};
use toolwire_test_support::providers::{listing, live_names, tool};
use toolwire_test_support::wire_lists::wire_names;

/// One call the scripted model makes: the name it emits and its arguments.
struct Scripted {
    name: &'static str,
    arguments: Value,
}

fn scripted(name: &'static str, arguments: Value) -> Scripted {
    Scripted { name, arguments }
}

/// The tool-list format whose responses come back in `format`.
fn wire_format(format: CallFormat) -> WireFormat {
    match format {
        CallFormat::OpenAiChat => WireFormat::OpenAi,
        CallFormat::OpenAiResponses => WireFormat::OpenAiResponses,
        CallFormat::Anthropic => WireFormat::Anthropic,
        CallFormat::Converse => WireFormat::Converse,
        _ => WireFormat::Gemini,
    }
}

/// The scripted model's response of turn `turn` in `format`: a provider block the replay must
/// keep (its signature or encrypted content names the turn), then the calls. Gemini calls have
/// no ids (2.5 style: two parallel calls of one function are told apart by order alone).
fn response(format: CallFormat, turn: usize, calls: &[Scripted]) -> Value {
    let id = |i: usize, prefix: &str| format!("{prefix}{turn}x{i}");
    let text = |c: &Scripted| c.arguments.to_string();
    match format {
        CallFormat::OpenAiChat => json!({"choices": [{"index": 0, "finish_reason": "tool_calls",
            "message": {"role": "assistant", "content": format!("Turn {turn}."), "refusal": null,
                "tool_calls": calls.iter().enumerate().map(|(i, c)| json!({"id": id(i, "call_"),
                    "type": "function", "function": {"name": c.name, "arguments": text(c)}}))
                    .collect::<Vec<_>>()}}]}),
        CallFormat::OpenAiResponses => {
            let mut output = vec![json!({"type": "reasoning", "id": format!("rs_{turn}"),
                "summary": [], "encrypted_content": format!("enc-{turn}")})];
            output.extend(calls.iter().enumerate().map(|(i, c)| {
                json!({"type": "function_call",
                "id": id(i, "fc_"), "call_id": id(i, "call_"), "status": "completed",
                "name": c.name, "arguments": text(c)})
            }));
            json!({"object": "response", "status": "completed", "output": output})
        }
        CallFormat::Anthropic => {
            let mut content = vec![json!({"type": "thinking", "thinking": "Plan.",
                "signature": format!("sig-{turn}")})];
            content.extend(calls.iter().enumerate().map(|(i, c)| {
                json!({"type": "tool_use",
                "id": id(i, "toolu_"), "name": c.name, "input": c.arguments})
            }));
            json!({"type": "message", "role": "assistant", "content": content,
                "stop_reason": "tool_use"})
        }
        CallFormat::Converse => {
            let mut content = vec![json!({"reasoningContent": {"reasoningText":
                {"text": "Plan.", "signature": format!("sig-{turn}")}}})];
            content.extend(calls.iter().enumerate().map(|(i, c)| {
                json!({"toolUse": {
                "toolUseId": id(i, "tooluse_"), "name": c.name, "input": c.arguments}})
            }));
            json!({"output": {"message": {"role": "assistant", "content": content}},
                "stopReason": "tool_use"})
        }
        _ => {
            let mut parts = vec![json!({"text": "Plan.", "thought": true})];
            parts.extend(calls.iter().enumerate().map(|(i, c)| {
                let mut part = json!({"functionCall": {"name": c.name, "args": c.arguments}});
                if i == 0 {
                    part["thoughtSignature"] = json!(format!("sig-{turn}"));
                }
                part
            }));
            json!({"candidates": [{"index": 0, "finishReason": "STOP",
                "content": {"role": "model", "parts": parts}}]})
        }
    }
}

/// An assistant turn of history as a body of `format` again, to read its calls back.
fn as_body(format: CallFormat, turn: &Value) -> Value {
    match format {
        CallFormat::OpenAiChat => json!({"choices": [{"index": 0, "message": turn}]}),
        CallFormat::OpenAiResponses => json!({"output": turn}),
        CallFormat::Anthropic => turn.clone(),
        CallFormat::Converse => json!({"output": {"message": turn}}),
        _ => json!({"candidates": [{"index": 0, "content": turn}]}),
    }
}

/// What the app appends after the assistant turn: one answer per call in the format's shape.
/// Point 5 (another part) plugs in here; until then nothing is appended.
fn answers(
    _format: CallFormat,
    _calls: &[ToolCall],
    _outcomes: &[Result<CallOutcome, DispatchError>],
) -> Vec<Value> {
    Vec::new()
}

/// One turn's record: the calls, what each reached, the names the replay replaced.
struct Turn {
    calls: Vec<ToolCall>,
    outcomes: Vec<Result<CallOutcome, DispatchError>>,
    renamed: Vec<RenamedCall>,
}

/// The conversation so far: its history, as the next request carries it.
struct Conversation {
    format: CallFormat,
    history: Vec<Value>,
    turns: Vec<Turn>,
}

impl Conversation {
    fn new(format: CallFormat) -> Conversation {
        Conversation {
            format,
            history: vec![json!({"role": "user", "content": "Go."})],
            turns: Vec::new(),
        }
    }

    /// One turn: the request's tools, the scripted response, every call dispatched by the
    /// name the model emitted, the replay and the answers appended.
    async fn turn(&mut self, runtime: &ToolRuntime, script: &[Scripted]) -> &Turn {
        let request = runtime.request();
        let tools = request.tools(wire_format(self.format)).unwrap();
        // The model is offered the forms (the Responses API's flat tools included).
        let offered = wire_names(&tools, wire_format(self.format));
        assert!(
            offered.iter().any(|n| n == "mcp_fx_echo"),
            "{}: {offered:?}",
            self.format
        );
        let body = response(self.format, self.turns.len(), script);
        let calls = CallParser::new(self.format).parse(&body).unwrap();
        assert_eq!(calls.len(), script.len(), "{}", self.format);
        let mut outcomes = Vec::new();
        for call in &calls {
            let arguments = Value::Object(call.arguments.clone().unwrap());
            outcomes.push(request.dispatch(&call.name, arguments).await);
        }
        let replay = replay_turn(self.format, &body, &calls).unwrap();
        match replay.turn {
            // Responses: the turn is the output items, appended one by one.
            Value::Array(items) => self.history.extend(items),
            turn => self.history.push(turn),
        }
        self.history.extend(answers(self.format, &calls, &outcomes));
        self.turns.push(Turn {
            calls,
            outcomes,
            renamed: replay.renamed,
        });
        self.turns.last().unwrap()
    }

    /// Every call of history, read back from the replayed turns, in order.
    fn calls_in_history(&self) -> Vec<ToolCall> {
        let parser = CallParser::new(self.format);
        if self.format == CallFormat::OpenAiResponses {
            let items: Vec<Value> = self.history.iter().skip(1).cloned().collect();
            return parser.parse(&json!({"output": items})).unwrap();
        }
        self.history
            .iter()
            .skip(1)
            .filter(|turn| turn.get("role").is_some_and(|r| r != "user"))
            .flat_map(|turn| parser.parse(&as_body(self.format, turn)).unwrap())
            .collect()
    }
}

/// What a dispatch reached, as a comparable word: the tool, or the error's kind.
fn reached(outcome: &Result<CallOutcome, DispatchError>) -> String {
    match outcome {
        Ok(out) => out.tool.clone(),
        Err(DispatchError::UnknownTool { .. }) => "unknown".into(),
        Err(DispatchError::SharedForm { .. }) => "shared".into(),
        Err(other) => format!("error: {other}"),
    }
}

#[tokio::test]
async fn every_format_dispatches_by_the_emitted_name_replays_and_resolves_history_again() {
    for format in CallFormat::ALL {
        let names = live_names(&["mcp/fx/echo", "mcp/a/b", "get_weather"]);
        let runtime = ToolRuntime::new();
        runtime
            .add_provider(Arc::new(listing("fx", names.clone(), tool)))
            .await
            .unwrap()
            .check()
            .unwrap();
        // A second provider's tool that shares the form `mcp_a_b`: neither is offered.
        let other = listing("other", live_names(&["mcp/a.b"]), tool);
        runtime
            .add_provider(Arc::new(other))
            .await
            .unwrap()
            .check()
            .unwrap();
        let mut conversation = Conversation::new(format);

        // Turn 0: by form, by real name, unknown, a shared form, two parallel calls of one
        // function (Gemini: without ids).
        let turn = conversation
            .turn(
                &runtime,
                &[
                    scripted("mcp_fx_echo", json!({})),
                    scripted("mcp/fx/echo", json!({})),
                    scripted("nope", json!({})),
                    scripted("mcp_a_b", json!({})),
                    scripted("get_weather", json!({"city": "Paris"})),
                    scripted("get_weather", json!({"city": "Zürich"})),
                ],
            )
            .await;
        let got: Vec<String> = turn.outcomes.iter().map(reached).collect();
        assert_eq!(
            got,
            [
                "mcp/fx/echo",
                "mcp/fx/echo",
                "unknown",
                "shared",
                "get_weather",
                "get_weather"
            ],
            "{format}"
        );
        let routes: Vec<Option<Route>> = turn
            .outcomes
            .iter()
            .map(|o| o.as_ref().ok().map(|out| out.route))
            .collect();
        assert_eq!(
            routes[..2],
            [Some(Route::Form), Some(Route::Exact)],
            "{format}"
        );
        // The parallel calls keep their order and arguments; their ids are the provider's.
        assert_eq!(turn.calls[4].arguments.as_ref().unwrap()["city"], "Paris");
        assert_eq!(turn.calls[5].arguments.as_ref().unwrap()["city"], "Zürich");
        assert_eq!(turn.calls[4].id.is_none(), format == CallFormat::Gemini);
        // The replay renames the real name `mcp/fx/echo` where history refuses it, only there.
        let renamed: Vec<(&str, &str)> = turn
            .renamed
            .iter()
            .map(|r| (r.called.as_str(), r.replayed.as_str()))
            .collect();
        let refuses = matches!(
            format,
            CallFormat::OpenAiChat | CallFormat::OpenAiResponses | CallFormat::Converse
        );
        let expected: &[(&str, &str)] = if refuses {
            &[("mcp/fx/echo", "mcp_fx_echo")]
        } else {
            &[]
        };
        assert_eq!(renamed, expected, "{format}");

        // The provider is reloaded between turns, with a new tool.
        names.lock().unwrap().push("mcp/fx/new".to_owned());
        runtime
            .reload_provider("fx")
            .await
            .unwrap()
            .check()
            .unwrap();
        let turn = conversation
            .turn(
                &runtime,
                &[
                    scripted("mcp_fx_new", json!({})),
                    scripted("mcp_fx_echo", json!({})),
                ],
            )
            .await;
        let got: Vec<String> = turn.outcomes.iter().map(reached).collect();
        assert_eq!(got, ["mcp/fx/new", "mcp/fx/echo"], "{format}");

        // The provider blocks of every turn are in history untouched.
        let history = Value::Array(conversation.history.clone()).to_string();
        for turn in 0..2 {
            let kept = match format {
                CallFormat::OpenAiChat => format!("Turn {turn}."),
                CallFormat::OpenAiResponses => format!("enc-{turn}"),
                _ => format!("sig-{turn}"),
            };
            assert!(history.contains(&kept), "{format}: {kept}");
        }

        // Every later turn resolves again from history: each call, read back from the
        // replayed turns, reaches what its dispatch reached (a renamed real name reaches its
        // tool by the form it now carries).
        let census = runtime.request().census().clone();
        let again: Vec<String> = conversation
            .calls_in_history()
            .iter()
            .map(
                |call| match census.resolve_call(call.namespace.as_deref(), &call.name) {
                    Ok(Resolution::Tool(hit)) => hit.name.to_owned(),
                    Ok(_) => "meta".to_owned(),
                    Err(_) if !census.sharing(&call.name).is_empty() => "shared".to_owned(),
                    Err(_) => "unknown".to_owned(),
                },
            )
            .collect();
        let dispatched: Vec<String> = conversation
            .turns
            .iter()
            .flat_map(|t| t.outcomes.iter().map(reached))
            .collect();
        assert_eq!(again, dispatched, "{format}");
    }
}
