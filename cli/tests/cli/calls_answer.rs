//! `calls --answer`: a response's calls run against the fixture MCP server and printed as what
//! the next request appends, in each of the five formats, from a body and from a stream. The
//! printed answers are compared with `write_answers` of the same calls over answers built
//! here (each tool's output read by a real rmcp client of the same server), and the replay
//! with `replay_turn`; a truncated stream, the `--tools` refusal, a renamed replay and every
//! content kind too.

use serde_json::{json, Value};
use toolwire_core::mcp::{McpCommand, McpProvider};
use toolwire_core::provider::ToolProvider;
use toolwire_core::runtime::{CallOutcome, DispatchError, Route, ToolAnswer};
use toolwire_core::tools::{ToolError, ToolOutput};
use toolwire_core::wire::answers::write_answers;
use toolwire_core::wire::calls::{parse_calls, CallFormat};
use toolwire_core::wire::replay::replay_turn;
use toolwire_test_support::fixture_server::fixture_server;

use crate::{file, fixture_command, path, status, stderr, stdout, toolwire};

/// The five formats: the `--format` key, the core's format, and a body whose calls are, in
/// order, `echo` with `{"text": "hi"}` (a tool of the fixture server, which answers with its
/// name and arguments), `ehco` (no tool: an unknown name) and `fail` (a tool error).
fn bodies() -> Vec<(&'static str, CallFormat, Value)> {
    vec![
        (
            "openai",
            CallFormat::OpenAiChat,
            json!({"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4o",
                "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                    "role": "assistant", "content": null, "refusal": null, "annotations": [],
                    "tool_calls": [
                        {"id": "call_1", "type": "function", "function": {"name": "echo", "arguments": "{\"text\":\"hi\"}"}},
                        {"id": "call_2", "type": "function", "function": {"name": "ehco", "arguments": "{}"}},
                        {"id": "call_3", "type": "function", "function": {"name": "fail", "arguments": ""}}]}}]}),
        ),
        (
            "openai-responses",
            CallFormat::OpenAiResponses,
            json!({"id": "resp_1", "object": "response", "status": "completed", "model": "gpt-5",
                "output": [
                    {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAA"},
                    {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "echo", "arguments": "{\"text\":\"hi\"}", "status": "completed"},
                    {"type": "function_call", "id": "fc_2", "call_id": "call_2", "name": "ehco", "arguments": "{}", "status": "completed"},
                    {"type": "function_call", "id": "fc_3", "call_id": "call_3", "name": "fail", "arguments": "{}", "status": "completed"}]}),
        ),
        (
            "anthropic",
            CallFormat::Anthropic,
            json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                "stop_reason": "tool_use", "content": [
                    {"type": "thinking", "thinking": "Echo it.", "signature": "sig"},
                    {"type": "tool_use", "id": "toolu_1", "name": "echo", "input": {"text": "hi"}},
                    {"type": "tool_use", "id": "toolu_2", "name": "ehco", "input": {}},
                    {"type": "tool_use", "id": "toolu_3", "name": "fail", "input": {}}]}),
        ),
        (
            "converse",
            CallFormat::Converse,
            json!({"stopReason": "tool_use", "output": {"message": {"role": "assistant", "content": [
                {"text": "Calling."},
                {"toolUse": {"toolUseId": "tooluse_1", "name": "echo", "input": {"text": "hi"}}},
                {"toolUse": {"toolUseId": "tooluse_2", "name": "ehco", "input": {}}},
                {"toolUse": {"toolUseId": "tooluse_3", "name": "fail", "input": {}}}]}}}),
        ),
        (
            "gemini",
            CallFormat::Gemini,
            // Gemini's calls have no ids: the answers pair by name and order.
            json!({"candidates": [{"index": 0, "finishReason": "STOP", "content": {"role": "model", "parts": [
                {"functionCall": {"name": "echo", "args": {"text": "hi"}}, "thoughtSignature": "c2ln"},
                {"functionCall": {"name": "ehco", "args": {}}},
                {"functionCall": {"name": "fail", "args": {}}}]}}]}),
        ),
    ]
}

/// `echo`'s output for `{"text": "hi"}`, as a real rmcp client of the fixture server reads it.
fn echo_output() -> ToolOutput {
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        let server = McpProvider::spawn("fx", McpCommand::new(fixture_server().to_str().unwrap()))
            .await
            .unwrap();
        let output = server
            .call("mcp/fx/echo", json!({"text": "hi"}))
            .await
            .unwrap();
        server.shutdown();
        output
    })
}

/// The answers the runtime must give the body's three calls, built by hand.
fn expected_answers(format: CallFormat, body: &Value, echo: &ToolOutput) -> Vec<ToolAnswer> {
    let calls = parse_calls(format, body).unwrap();
    let results = [
        Ok(CallOutcome {
            tool: "echo".into(),
            provider: "mcp/server".into(),
            route: Route::Exact,
            output: echo.clone(),
        }),
        // The closest offered names, as the fixture server's tools rank.
        Err(DispatchError::UnknownTool {
            called: "ehco".into(),
            closest: vec!["echo".into(), "fail".into(), "crash".into()],
        }),
        Err(DispatchError::Tool(ToolError::Failed {
            tool: "fail".into(),
            message: "this tool always fails".into(),
        })),
    ];
    calls
        .iter()
        .zip(results)
        .map(|(call, result)| ToolAnswer::new(call, result))
        .collect()
}

/// Runs `calls --answer` over the fixture server on `response` and returns the status, the
/// printed object and stderr.
fn answer(format: &str, extra: &[&str], response: &str) -> (i32, Value, String) {
    let command = fixture_command("--content");
    let mut args = vec![
        "calls",
        "--answer",
        "--format",
        format,
        "--mcp-stdio",
        &command,
    ];
    args.extend_from_slice(extra);
    args.push(response);
    let output = toolwire(&args, "");
    let out = stdout(&output);
    assert_eq!(
        out.lines().count(),
        1,
        "one JSON line: {out}\n{}",
        stderr(&output)
    );
    let printed = serde_json::from_str(&out).unwrap();
    (status(&output), printed, stderr(&output))
}

#[test]
fn every_format_answers_every_call_as_write_answers_writes_them() {
    let echo = echo_output();
    for (key, format, body) in bodies() {
        let f = file(&body.to_string());
        let (code, printed, err) = answer(key, &[], path(&f));
        // An unknown name and a tool error are answered, and make the status 1.
        assert_eq!(code, 1, "{key}: {err}");
        let expected = write_answers(format, &expected_answers(format, &body, &echo));
        assert_eq!(printed["answers"], json!(expected.messages), "{key}");
        let calls = parse_calls(format, &body).unwrap();
        let replay = replay_turn(format, &body, &calls).unwrap();
        assert!(
            replay.is_verbatim(),
            "{key}: no name here is refused in history"
        );
        assert_eq!(printed["replay"], *replay.turn, "{key}");
        assert_eq!(
            (&printed["renamed"], &printed["notes"]),
            (&json!([]), &json!([])),
            "{key}"
        );
    }
}

#[test]
fn the_replay_is_the_body_s_own_turn_and_the_answers_name_each_call() {
    let [chat, responses, anthropic, converse, gemini] = bodies().try_into().unwrap();
    let run = |(key, _, body): &(&str, CallFormat, Value)| {
        let f = file(&body.to_string());
        answer(key, &[], path(&f)).1
    };
    let printed = run(&chat);
    assert_eq!(printed["replay"], chat.2["choices"][0]["message"]);
    let ids: Vec<&Value> = printed["answers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| &m["tool_call_id"])
        .collect();
    assert_eq!(ids, [&json!("call_1"), &json!("call_2"), &json!("call_3")]);
    assert!(printed["answers"][0]["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("\"hi\""));
    let printed = run(&responses);
    assert_eq!(printed["replay"], responses.2["output"]);
    assert_eq!(printed["answers"][2]["call_id"], "call_3");
    assert_eq!(printed["answers"][2]["type"], "function_call_output");
    let printed = run(&anthropic);
    assert_eq!(
        printed["replay"],
        json!({"role": "assistant", "content": anthropic.2["content"]})
    );
    let results = printed["answers"][0]["content"].as_array().unwrap();
    assert_eq!(
        printed["answers"].as_array().unwrap().len(),
        1,
        "one user message"
    );
    assert_eq!(results[1]["is_error"], true);
    assert!(results[1]["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("`echo`"));
    assert_eq!(results[2]["is_error"], true);
    let printed = run(&converse);
    assert_eq!(printed["replay"], converse.2["output"]["message"]);
    assert_eq!(
        printed["answers"][0]["content"][2]["toolResult"]["status"],
        "error"
    );
    let printed = run(&gemini);
    assert_eq!(printed["replay"], gemini.2["candidates"][0]["content"]);
    let parts = printed["answers"][0]["parts"].as_array().unwrap();
    let names: Vec<&Value> = parts
        .iter()
        .map(|p| &p["functionResponse"]["name"])
        .collect();
    assert_eq!(names, [&json!("echo"), &json!("ehco"), &json!("fail")]);
    assert!(
        parts
            .iter()
            .all(|p| p["functionResponse"].get("id").is_none()),
        "no id invented"
    );
    assert!(parts[1]["functionResponse"]["response"]["error"].is_string());
}

fn provider_wire(file: &str) -> String {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/provider-wire")
        .join(file);
    path.to_str().unwrap().to_owned()
}

#[test]
fn a_stream_answers_as_its_sibling_body_with_the_turn_it_recorded() {
    // Each recorded stream and the response it streams (`same_calls_as` in index.json).
    let pairs = [
        (
            "openai",
            "openai-chat/stream-parallel.sse",
            "openai-chat/response-parallel.json",
        ),
        (
            "openai-responses",
            "openai-responses/stream-mixed.sse",
            "openai-responses/response-mixed.json",
        ),
        (
            "anthropic",
            "anthropic/stream-mixed.sse",
            "anthropic/response-mixed.json",
        ),
        (
            "converse",
            "converse/stream-mixed.jsonl",
            "converse/response-mixed.json",
        ),
        (
            "gemini",
            "gemini/stream-parallel-ids.sse",
            "gemini/response-parallel-ids.json",
        ),
    ];
    for (key, stream, body) in pairs {
        let (streamed_code, streamed, err) = answer(key, &["--stream"], &provider_wire(stream));
        let (code, answered, _) = answer(key, &[], &provider_wire(body));
        assert_eq!(streamed["answers"], answered["answers"], "{key}: {err}");
        assert!(!streamed["answers"].as_array().unwrap().is_empty(), "{key}");
        // The turn the stream built is the body's but for what no event carries (Chat
        // Completions' `annotations`, a response member only).
        let mut replay = answered["replay"].clone();
        if key == "openai" {
            replay.as_object_mut().unwrap().remove("annotations");
        }
        assert_eq!(streamed["replay"], replay, "{key}");
        // The fixtures call `get_weather`, which the fixture server has not: answered errors.
        assert_eq!((streamed_code, code), (1, 1), "{key}");
    }
}

#[test]
fn a_stream_cut_before_a_call_s_end_prints_nothing_and_names_the_call() {
    let command = fixture_command("");
    let stream = provider_wire("anthropic/stream-truncated.sse");
    let output = toolwire(
        &[
            "calls",
            "--answer",
            "--stream",
            "--format",
            "anthropic",
            "--mcp-stdio",
            &command,
            &stream,
        ],
        "",
    );
    assert_eq!(status(&output), 1, "{}", stderr(&output));
    assert_eq!(stdout(&output), "");
    assert!(
        stderr(&output).contains("`toolu_01BcDeFgHiJkLmNoPqRsTuV2` (`get_weather`)"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn answer_with_only_a_tool_file_is_refused_saying_why() {
    let tools = file(r#"["echo"]"#);
    let body = file(&bodies()[2].2.to_string());
    let output = toolwire(
        &[
            "calls",
            "--answer",
            "--format",
            "anthropic",
            "--tools",
            path(&tools),
            path(&body),
        ],
        "",
    );
    assert_eq!(status(&output), 2);
    assert_eq!(stdout(&output), "");
    assert!(
        stderr(&output).contains("needs a tool source that can run tools"),
        "{}",
        stderr(&output)
    );
    assert!(
        stderr(&output).contains("--mcp-stdio"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn every_call_reaching_a_tool_is_status_0_and_a_refused_name_is_renamed_in_the_replay() {
    // `files/read` is a real name Converse refuses in history: the call reaches the tool by
    // it, and the replay carries its form `files_read`, by which it reaches it again.
    let body = json!({"stopReason": "tool_use", "output": {"message": {"role": "assistant", "content": [
        {"toolUse": {"toolUseId": "tooluse_1", "name": "files/read", "input": {"path": "a"}}}]}}});
    let f = file(&body.to_string());
    let (code, printed, err) = answer("converse", &[], path(&f));
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        printed["replay"]["content"][0]["toolUse"]["name"],
        "files_read"
    );
    assert_eq!(
        printed["renamed"],
        json!([{"id": "tooluse_1", "called": "files/read", "replayed": "files_read", "pointer": "/content/0/toolUse/name"}])
    );
    let result = &printed["answers"][0]["content"][0]["toolResult"];
    assert_eq!(
        (&result["toolUseId"], &result["status"]),
        (&json!("tooluse_1"), &json!("success"))
    );
    // The answer is `files/read`'s own (the fixture answers with the tool's name).
    assert!(result.to_string().contains("files/read"), "{result}");
}

#[test]
fn every_content_kind_is_carried_or_said_and_its_notes_are_printed() {
    let body = json!({"id": "msg_1", "type": "message", "role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_1", "name": "radar", "input": {}}]});
    let f = file(&body.to_string());
    let (code, printed, err) = answer("anthropic", &[], path(&f));
    assert_eq!(code, 0, "{err}");
    let blocks = printed["answers"][0]["content"][0]["content"]
        .as_array()
        .unwrap();
    let kinds: Vec<&str> = blocks.iter().map(|b| b["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["text", "image", "text", "text", "text"]);
    assert_eq!(blocks[1]["source"]["media_type"], "image/png");
    assert_eq!(
        printed["notes"],
        json!([{"call": 0, "note": "[the tool returned an audio (audio/wav, 12 bytes), which this answer cannot carry]"}])
    );
}

#[test]
fn a_call_whose_arguments_are_not_an_object_is_replayed_empty_and_listed_as_repaired() {
    // The first tool_use's partial_json never becomes JSON: answered as an error, replayed
    // with `input: {}` (the Messages API refuses a string `input`), and listed.
    let stream = provider_wire("anthropic/stream-bad-arguments.sse");
    let (code, printed, err) = answer("anthropic", &["--stream"], &stream);
    assert_eq!(code, 1, "{err}");
    assert_eq!(printed["replay"]["content"][0]["input"], json!({}));
    assert!(printed["replay"]["content"][1]["input"].is_object());
    let repaired = printed["repaired"].as_array().unwrap();
    assert_eq!(repaired.len(), 1, "{printed}");
    assert_eq!(repaired[0]["pointer"], "/content/0/input");
    assert_eq!(repaired[0]["id"], "toolu_01FgHiJkLmNoPqRsTuVwXyZ1");
    assert!(repaired[0]["error"].as_str().unwrap().contains("not JSON"));
}
