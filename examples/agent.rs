//! The whole loop of an agent, in each of the five wire formats (OpenAI Chat Completions, the
//! OpenAI Responses API, the Messages API, Bedrock Converse, Gemini): the request's tools, the
//! model's response, its calls parsed (hop 4), run and answered (hop 5, `answer_calls`), and the
//! next request's history: the response's own turn (the replay) then the answers, in the
//! format's own shape.
//!
//! The tools are two `#[tool]`s (one named `files/read`, which travels as `files_read`) and the
//! workspace's fixture MCP server (its `echo`, and `radar`, which answers with an image, audio
//! and a resource). The model is scripted, in process: the only stand-in. Over two turns it
//! calls every kind of tool, a name it misspelt, and then answers in words.
//!
//! Run it with `cargo run --example agent`.

use std::io::Write;
use std::sync::Arc;

use serde_json::{json, Value};
use toolwire::{
    mcp::{McpCommand, McpProvider},
    provider::RegisteredTools,
    runtime::{LoadFailed, ToolAnswer},
    tool,
    wire::{
        answers::write_answers,
        calls::{parse_calls, CallFormat, ToolCall},
    },
    AppState, ToolRuntime, WireFormat,
};
// The fixture server, built by cargo (a no-op when fresh): the finder the tests use.
use toolwire_test_support::fixture_server::fixture_server;

/// Gets the weather for a city.
#[tool]
fn get_weather(
    /// The city, e.g. "Paris".
    city: String,
) -> String {
    format!("sunny in {city}")
}

/// Reads a file of the shared drive.
#[tool(name = "files/read")]
async fn read_file(path: String) -> Result<String, std::io::Error> {
    Ok(format!("contents of {path}"))
}

/// The five formats, each by the tool list it sends (its calls come back in `call_format()`).
pub const FORMATS: [WireFormat; 5] = [
    WireFormat::OpenAi,
    WireFormat::OpenAiResponses,
    WireFormat::Anthropic,
    WireFormat::Converse,
    WireFormat::Gemini,
];

/// One turn of the loop, as printed.
pub struct TurnLog {
    /// The names the request offered the model, as they travel.
    pub tools: Vec<String>,
    /// The client calls of the model's response, in order.
    pub calls: Vec<ToolCall>,
    /// One answer per call, in call order.
    pub answers: Vec<ToolAnswer>,
    /// The messages (Responses: the items) the answers add to the next request.
    pub messages: Vec<Value>,
}

/// What a conversation left: its turns, the model's final words, the history it ended with.
pub struct Conversation {
    /// Every turn that had calls.
    pub turns: Vec<TurnLog>,
    /// The model's last response's text.
    pub reply: String,
    /// The history the conversation ended with: the last request's messages (Responses: its
    /// items), then the model's last turn.
    pub history: Vec<Value>,
}

/// A runtime over this binary's `#[tool]`s and the fixture MCP server (with `--content`: its
/// `radar` answers with every kind of content block), and what of the server's tools did not
/// load.
pub async fn runtime() -> Result<(ToolRuntime, Option<LoadFailed>), Box<dyn std::error::Error>> {
    let runtime = ToolRuntime::new();
    let tools = RegisteredTools::new(AppState::new());
    runtime.add_provider(Arc::new(tools)).await?.check()?;
    let mut fixture = McpCommand::new(fixture_server().to_string_lossy());
    fixture.args = vec!["--content".to_owned()];
    let server = McpProvider::connect("fixture", fixture).await?;
    // The fixture has hard names on purpose (`search.web` beside `search_web`, which share a
    // form and are left out): the load reports them and the other tools travel.
    let status = runtime.add_provider(Arc::new(server)).await?;
    Ok((runtime, status.check().err()))
}

/// The loop: until the model answers without calling a tool, send the request, read the calls,
/// run and answer them, append the replay and the answers to history.
pub async fn converse(
    runtime: &ToolRuntime,
    format: WireFormat,
) -> Result<Conversation, Box<dyn std::error::Error>> {
    let calls_in = format.call_format();
    let question = "What is the weather in Paris, and what do notes.txt and the radar say?";
    // Converse takes content blocks, Gemini `parts`, the others a string.
    let mut history = vec![calls_in.user_message(question)];
    let mut turns = Vec::new();
    // One conversation for the loop: each name its history carries is recorded there with the
    // tool its call reached, so a later call by it reaches that tool (or none), never another.
    let session = runtime.conversation();
    loop {
        let request = session.request();
        let tools = request.tools(format)?;
        let offered = offered_names(&tools, format);
        let body = scripted_model(calls_in, turns.len(), &history, &offered);
        let calls = parse_calls(calls_in, &body)?;
        // Answered first (no calls: no answers), then replayed: either order reaches the same
        // tools, and answered first each outcome's route is the one its call took this turn.
        let answers = request.answer_calls(&calls).await;
        // The model's turn, as the format's history takes it (the Responses API's items each
        // their own entry), its last turn too. The request's own census names a renamed call
        // in history: its tool's form, or an alias no tool answers to, never another tool's.
        request
            .replay_turn(calls_in, &body, &calls)?
            .append_to(&mut history);
        if calls.is_empty() {
            let reply = text_of(&body).unwrap_or_default();
            return Ok(Conversation {
                turns,
                reply,
                history,
            });
        }
        let messages = write_answers(calls_in, &answers).messages;
        history.extend(messages.iter().cloned());
        turns.push(TurnLog {
            tools: offered,
            calls,
            answers,
            messages,
        });
    }
}

/// The first text of a body (a `text` member, or Chat Completions' string `content`),
/// wherever the format puts it.
fn text_of(body: &Value) -> Option<String> {
    match body {
        Value::Object(members) => match members.get("text").or(members.get("content")) {
            Some(Value::String(text)) => Some(text.clone()),
            _ => members.values().find_map(text_of),
        },
        Value::Array(items) => items.iter().find_map(text_of),
        _ => None,
    }
}

/// The names a tool list offers, in order.
fn offered_names(tools: &Value, format: WireFormat) -> Vec<String> {
    let list = match format {
        WireFormat::Gemini => &tools[0]["functionDeclarations"],
        _ => tools,
    };
    let name = |tool: &Value| match format {
        WireFormat::OpenAi => tool["function"]["name"].clone(),
        WireFormat::Converse => tool["toolSpec"]["name"].clone(),
        _ => tool["name"].clone(),
    };
    let names = list.as_array().into_iter().flatten().map(name);
    names
        .filter_map(|n| n.as_str().map(str::to_owned))
        .collect()
}

/// The scripted model (the only stand-in): on turn 0 it calls the weather, the file (by the
/// form it was offered) and the MCP server's `echo`, in parallel; on turn 1 the radar and a
/// misspelt tool; then it answers in words, from what the answers in the history it was sent
/// said (it calls only names it was offered, but for the misspelling).
fn scripted_model(format: CallFormat, turn: usize, history: &[Value], offered: &[String]) -> Value {
    let calls: Vec<(&str, Value)> = match turn {
        0 => vec![
            ("get_weather", json!({"city": "Paris"})),
            ("files_read", json!({"path": "notes.txt"})),
            ("mcp_fixture_echo", json!({"message": "hi"})),
        ],
        1 => vec![
            ("mcp_fixture_radar", json!({})),
            ("get_wether", json!({"city": "Paris"})),
        ],
        _ => Vec::new(),
    };
    let calls: Vec<_> = calls
        .into_iter()
        .filter(|(name, _)| offered.iter().any(|o| o == name) || *name == "get_wether")
        .collect();
    let read = Value::Array(history.to_vec()).to_string();
    let heard = ["sunny in Paris", "contents of notes.txt", "blue: rain"];
    let reply = if heard.iter().all(|said| read.contains(said)) {
        "Sunny in Paris; the radar shows rain."
    } else {
        "I did not hear back from every tool."
    };
    response(format, turn, &calls, reply)
}

/// A response of `format` with `calls`, or with none: the text `reply`, as the provider
/// returns it.
fn response(format: CallFormat, turn: usize, calls: &[(&str, Value)], reply: &str) -> Value {
    let id = |i: usize, prefix: &str| format!("{prefix}{turn}_{i}");
    let text = if calls.is_empty() { reply } else { "" };
    match format {
        CallFormat::OpenAiChat => {
            let tool_calls: Vec<Value> = calls
                .iter()
                .enumerate()
                .map(|(i, (name, args))| {
                    json!({
                "id": id(i, "call_"), "type": "function",
                "function": {"name": name, "arguments": args.to_string()}})
                })
                .collect();
            let mut message = json!({"role": "assistant", "content": text});
            if !calls.is_empty() {
                message["tool_calls"] = json!(tool_calls);
            }
            json!({"object": "chat.completion", "choices": [{"index": 0, "message": message,
                "finish_reason": if calls.is_empty() { "stop" } else { "tool_calls" }}]})
        }
        CallFormat::OpenAiResponses => {
            let mut output: Vec<Value> = calls
                .iter()
                .enumerate()
                .map(|(i, (name, args))| {
                    json!({
                "type": "function_call", "id": id(i, "fc_"), "call_id": id(i, "call_"),
                "name": name, "arguments": args.to_string(), "status": "completed"})
                })
                .collect();
            if calls.is_empty() {
                output.push(
                    json!({"type": "message", "id": "msg_1", "role": "assistant",
                    "status": "completed",
                    "content": [{"type": "output_text", "text": text, "annotations": []}]}),
                );
            }
            json!({"object": "response", "status": "completed", "output": output})
        }
        CallFormat::Anthropic => {
            let mut content: Vec<Value> = calls
                .iter()
                .enumerate()
                .map(|(i, (name, args))| {
                    json!({
                "type": "tool_use", "id": id(i, "toolu_"), "name": name, "input": args})
                })
                .collect();
            if calls.is_empty() {
                content.push(json!({"type": "text", "text": text}));
            }
            json!({"type": "message", "role": "assistant", "content": content,
                "stop_reason": if calls.is_empty() { "end_turn" } else { "tool_use" }})
        }
        CallFormat::Converse => {
            let mut content: Vec<Value> = calls
                .iter()
                .enumerate()
                .map(|(i, (name, args))| {
                    json!({
                "toolUse": {"toolUseId": id(i, "tooluse_"), "name": name, "input": args}})
                })
                .collect();
            if calls.is_empty() {
                content.push(json!({"text": text}));
            }
            json!({"output": {"message": {"role": "assistant", "content": content}},
                "stopReason": if calls.is_empty() { "end_turn" } else { "tool_use" }})
        }
        // Gemini: calls without ids, as 2.5 models send them.
        _ => {
            let mut parts: Vec<Value> = calls
                .iter()
                .map(|(name, args)| {
                    json!({
                "functionCall": {"name": name, "args": args}})
                })
                .collect();
            if calls.is_empty() {
                parts.push(json!({"text": text}));
            }
            json!({"candidates": [{"index": 0, "finishReason": "STOP",
                "content": {"role": "model", "parts": parts}}]})
        }
    }
}

#[tokio::main]
async fn main() {
    if let Err(err) = run(&mut std::io::stdout()).await {
        eprintln!("error: {err}");
        std::process::exit(1);
    }
}

/// The loop in every format, each turn's tools, calls and answers written to `out`.
pub async fn run(out: &mut impl Write) -> Result<(), Box<dyn std::error::Error>> {
    let (runtime, left_out) = runtime().await?;
    if let Some(left_out) = left_out {
        writeln!(out, "fixture server: {left_out}\n")?;
    }
    for format in FORMATS {
        writeln!(out, "== {}", format.key())?;
        let conversation = converse(&runtime, format).await?;
        for (number, turn) in conversation.turns.iter().enumerate() {
            writeln!(out, "turn {number}: tools {}", turn.tools.join(", "))?;
            for (call, answer) in turn.calls.iter().zip(&turn.answers) {
                let reached = match &answer.result {
                    Ok(outcome) => format!("`{}` via {:?}", outcome.tool, outcome.route),
                    Err(err) => format!("error: {err}"),
                };
                let id = call.id.as_deref().unwrap_or("(no id)");
                writeln!(out, "  call {id} `{}` -> {reached}", call.name)?;
            }
            for message in &turn.messages {
                writeln!(out, "  answers: {message}")?;
            }
        }
        writeln!(out, "reply: {}\n", conversation.reply)?;
    }
    Ok(())
}
