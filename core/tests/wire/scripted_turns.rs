//! Multi-turn conversations with a scripted model, in every format (issue 18, point 7): each
//! turn the model's response (written per format, with its provider blocks: thinking and
//! signatures, reasoning items, thoughtSignatures) is parsed, the turn's calls run and answered
//! by `Request::answer_calls` (hop 5 on the name the model emitted), and the replay then the
//! answers' messages (`write_answers`) appended to history, exactly as the next request carries
//! them. At the start of every later turn the scripted model reads that history: each of its
//! calls answered once, in order, paired by id (Gemini: by the called name, in order), saying
//! what the call reached. Between turns the provider is reloaded; at the end every call in
//! history is resolved again.
//!
//! The only double is the model. Everything else is the real runtime: a provider made of
//! closures, its census, its turn, the answers' writers.

use std::sync::Arc;

use serde_json::{json, Value};
use toolwire_core::census::Resolution;
use toolwire_core::provider::{provider_fn, ProviderFn};
use toolwire_core::runtime::{CallOutcome, DispatchError, Route};
use toolwire_core::wire::answers::write_answers;
use toolwire_core::wire::calls::{CallFormat, CallParser, ToolCall};
use toolwire_core::wire::replay::RenamedCall;
use toolwire_core::{ToolRuntime, WireFormat};
use toolwire_test_support::providers::{live_names, tool, LiveNames};
use toolwire_test_support::wire_lists::wire_names;

/// One call the scripted model makes: the name it emits, its arguments, and what it expects to
/// read in the answer next turn (words of the output, or of the error).
struct Scripted {
    name: &'static str,
    arguments: Value,
    expects: Expects,
}

/// What the scripted model expects its answer to say.
#[derive(Clone, Copy, Debug)]
enum Expects {
    /// An output holding these words.
    Output(&'static str),
    /// An error answer holding these words.
    Error(&'static str),
}

/// A call whose answer is an output holding `says`.
fn answered(name: &'static str, arguments: Value, says: &'static str) -> Scripted {
    let expects = Expects::Output(says);
    Scripted {
        name,
        arguments,
        expects,
    }
}

/// A call whose answer is an error holding `says`.
fn refused(name: &'static str, arguments: Value, says: &'static str) -> Scripted {
    let expects = Expects::Error(says);
    Scripted {
        name,
        arguments,
        expects,
    }
}

/// A provider named `provider` of the tools `names` holds at each load, whose every tool
/// answers with its real name and the arguments it received (so an answer shows which call it
/// answers: two parallel calls of one function differ by their arguments alone).
fn echoing(provider: &str, names: LiveNames) -> ProviderFn {
    provider_fn(provider, Vec::new(), |tool, arguments| async move {
        Ok(json!({"tool": tool, "arguments": arguments}))
    })
    .with_list(move || Ok(names.lock().unwrap().iter().map(|n| tool(n)).collect()))
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

/// One answer as the model reads it in history: what it pairs with (the call's id; Gemini: the
/// called name), its words, and whether it says the call failed.
#[derive(Debug)]
struct ReadAnswer {
    pairs_with: String,
    words: String,
    is_error: bool,
}

/// One turn as the model reads it in history: its calls, then the answers after them.
#[derive(Debug)]
struct Exchange {
    calls: Vec<ToolCall>,
    answers: Vec<ReadAnswer>,
}

/// Every string of `value` in order, one a line: what the model reads of an answer.
fn words(value: &Value) -> String {
    fn collect(value: &Value, out: &mut Vec<String>) {
        match value {
            Value::String(s) => out.push(s.clone()),
            Value::Array(items) => items.iter().for_each(|v| collect(v, out)),
            Value::Object(members) => members.values().for_each(|v| collect(v, out)),
            other => out.push(other.to_string()),
        }
    }
    let mut out = Vec::new();
    collect(value, &mut out);
    out.join("\n")
}

/// The answers one message (Responses: one item) of history carries, in the format's shape,
/// or `None` when it is no answer. A message that holds answers holds nothing else.
fn answers_in(format: CallFormat, message: &Value) -> Option<Vec<ReadAnswer>> {
    let text_answer = |pairs_with: &Value, said: &Value| {
        let words = words(said);
        ReadAnswer {
            pairs_with: pairs_with.as_str().unwrap().to_owned(),
            is_error: words.starts_with("Error:"),
            words,
        }
    };
    let blocks = |key: &str| -> Vec<Value> {
        let content = message[key].as_array().unwrap();
        content.clone()
    };
    match format {
        CallFormat::OpenAiChat => (message["role"] == "tool")
            .then(|| vec![text_answer(&message["tool_call_id"], &message["content"])]),
        CallFormat::OpenAiResponses => (message["type"] == "function_call_output")
            .then(|| vec![text_answer(&message["call_id"], &message["output"])]),
        CallFormat::Anthropic if message["role"] == "user" => Some(
            blocks("content")
                .iter()
                .map(|block| {
                    assert_eq!(block["type"], "tool_result", "only answers: {message}");
                    ReadAnswer {
                        pairs_with: block["tool_use_id"].as_str().unwrap().to_owned(),
                        words: words(&block["content"]),
                        is_error: block["is_error"] == true,
                    }
                })
                .collect(),
        ),
        CallFormat::Converse if message["role"] == "user" => Some(
            blocks("content")
                .iter()
                .map(|block| {
                    let result = &block["toolResult"];
                    ReadAnswer {
                        pairs_with: result["toolUseId"].as_str().unwrap().to_owned(),
                        words: words(&result["content"]),
                        is_error: result["status"] == "error",
                    }
                })
                .collect(),
        ),
        CallFormat::Gemini if message["role"] == "user" => Some(
            blocks("parts")
                .iter()
                .map(|part| {
                    let response = &part["functionResponse"];
                    assert!(response["id"].is_null(), "no id was called: {part}");
                    ReadAnswer {
                        pairs_with: response["name"].as_str().unwrap().to_owned(),
                        words: words(&response["response"]),
                        is_error: response["response"].get("error").is_some(),
                    }
                })
                .collect(),
        ),
        _ => None,
    }
}

/// The history as the model reads it: each assistant turn's calls and the answers after them.
/// A Responses turn is its run of items before the answers' items.
fn read_history(format: CallFormat, history: &[Value]) -> Vec<Exchange> {
    let parser = CallParser::new(format);
    let mut exchanges: Vec<Exchange> = Vec::new();
    let mut items: Vec<Value> = Vec::new();
    for message in &history[1..] {
        if let Some(answers) = answers_in(format, message) {
            if !items.is_empty() {
                let body = as_body(format, &Value::Array(std::mem::take(&mut items)));
                let calls = parser.parse(&body).unwrap();
                exchanges.push(Exchange {
                    calls,
                    answers: Vec::new(),
                });
            }
            exchanges
                .last_mut()
                .expect("answers after a turn")
                .answers
                .extend(answers);
        } else if format == CallFormat::OpenAiResponses {
            items.push(message.clone());
        } else {
            let calls = parser.parse(&as_body(format, message)).unwrap();
            exchanges.push(Exchange {
                calls,
                answers: Vec::new(),
            });
        }
    }
    exchanges
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
    /// What the model expects of each answer, turn by turn (its own earlier responses).
    expected: Vec<Vec<Expects>>,
}

impl Conversation {
    fn new(format: CallFormat) -> Conversation {
        Conversation {
            format,
            history: vec![json!({"role": "user", "content": "Go."})],
            turns: Vec::new(),
            expected: Vec::new(),
        }
    }

    /// The scripted model reads the history the request carries: every call it made is
    /// answered once, in order, paired by id (Gemini: by the called name, in order, no id),
    /// and each answer says what it expected (an output's words, or an error's).
    fn model_reads_history(&self) {
        let format = self.format;
        let exchanges = read_history(format, &self.history);
        assert_eq!(
            exchanges.len(),
            self.expected.len(),
            "{format}: {exchanges:?}"
        );
        for (exchange, expected) in exchanges.iter().zip(&self.expected) {
            let calls: Vec<&str> = exchange
                .calls
                .iter()
                .map(|call| match format {
                    CallFormat::Gemini => call.name.as_str(),
                    _ => call.id.as_deref().unwrap(),
                })
                .collect();
            let pairs: Vec<&str> = exchange
                .answers
                .iter()
                .map(|a| a.pairs_with.as_str())
                .collect();
            assert_eq!(pairs, calls, "{format}: every call answered, in order");
            for (answer, expects) in exchange.answers.iter().zip(expected) {
                let (says, error) = match *expects {
                    Expects::Output(says) => (says, false),
                    Expects::Error(says) => (says, true),
                };
                assert!(
                    answer.words.contains(says),
                    "{format}: {says:?} in {answer:?}"
                );
                assert_eq!(answer.is_error, error, "{format}: {answer:?}");
            }
        }
    }

    /// One turn: the model reads the history, the request's tools, the scripted response,
    /// the turn's calls answered (`answer_calls`), the replay and the answers appended.
    async fn turn(&mut self, runtime: &ToolRuntime, script: &[Scripted]) -> &Turn {
        self.model_reads_history();
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
        let answers = request.answer_calls(&calls).await;
        let replay = request.replay_turn(self.format, &body, &calls).unwrap();
        match replay.turn.into_owned() {
            // Responses: the turn is the output items, appended one by one.
            Value::Array(items) => self.history.extend(items),
            turn => self.history.push(turn),
        }
        let wire = write_answers(self.format, &answers);
        assert!(wire.notes.is_empty(), "{}: {:?}", self.format, wire.notes);
        self.history.extend(wire.messages);
        self.expected
            .push(script.iter().map(|s| s.expects).collect());
        self.turns.push(Turn {
            calls,
            outcomes: answers.into_iter().map(|a| a.result).collect(),
            renamed: replay.renamed,
        });
        self.turns.last().unwrap()
    }

    /// Every call of history, read back from the replayed turns, in order.
    fn calls_in_history(&self) -> Vec<ToolCall> {
        read_history(self.format, &self.history)
            .into_iter()
            .flat_map(|exchange| exchange.calls)
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
async fn every_format_answers_by_the_emitted_name_replays_and_resolves_history_again() {
    for format in CallFormat::ALL {
        let names = live_names(&["mcp/fx/echo", "mcp/a/b", "get_weather"]);
        let runtime = ToolRuntime::new();
        runtime
            .add_provider(Arc::new(echoing("fx", names.clone())))
            .await
            .unwrap()
            .check()
            .unwrap();
        // A second provider's tool that shares the form `mcp_a_b`: neither is offered.
        let other = echoing("other", live_names(&["mcp/a.b"]));
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
                    answered("mcp_fx_echo", json!({"n": 1}), "mcp/fx/echo"),
                    answered("mcp/fx/echo", json!({"n": 2}), "mcp/fx/echo"),
                    refused("nope", json!({}), "unknown tool `nope`"),
                    refused("mcp_a_b", json!({}), "no one tool answers to `mcp_a_b`"),
                    answered("get_weather", json!({"city": "Paris"}), "Paris"),
                    answered("get_weather", json!({"city": "Zürich"}), "Zürich"),
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
                    answered("mcp_fx_new", json!({}), "mcp/fx/new"),
                    answered("mcp_fx_echo", json!({"n": 3}), "mcp/fx/echo"),
                ],
            )
            .await;
        let got: Vec<String> = turn.outcomes.iter().map(reached).collect();
        assert_eq!(got, ["mcp/fx/new", "mcp/fx/echo"], "{format}");

        // The model reads the last turn's answers too (as the request after it carries them).
        conversation.model_reads_history();

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
