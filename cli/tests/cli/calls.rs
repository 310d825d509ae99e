//! `calls`: the client tool calls of the recorded provider bodies and streams of
//! `fixtures/provider-wire/` (its `index.json` says which calls each holds), each resolved over
//! a tool set's census; every exit status, stdin, a truncated stream, an unknown name, and a
//! form two tools of the fixture MCP server share.

use std::path::PathBuf;

use serde_json::{json, Value};

use crate::{file, fixture_command, path, status, stderr, stdout, toolwire};

/// The real names the fixtures' calls reach: `mcp_github_create_issue` is the form of the
/// third, `github:create_issue` and `$READFILE` (names a provider refuses) reach nothing.
const TOOLS: &str = r#"["get_weather", "get_time", "mcp/github/create_issue"]"#;

fn fixture(file: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/provider-wire")
        .join(file);
    path.to_str().unwrap().to_owned()
}

fn index() -> Vec<(String, Value)> {
    let text = std::fs::read_to_string(fixture("index.json")).unwrap();
    let index: Value = serde_json::from_str(&text).unwrap();
    let files = index["files"].as_object().unwrap();
    files
        .iter()
        .map(|(f, info)| (f.clone(), info.clone()))
        .collect()
}

/// The `--format` key of a fixture folder's format.
fn format_key(fixture_format: &str) -> &str {
    match fixture_format {
        "openai-chat" => "openai",
        other => other,
    }
}

/// The printed lines, parsed.
fn lines(output: &std::process::Output) -> Vec<Value> {
    stdout(output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// Where `called` lands among [`TOOLS`]: (to, via).
fn landing(called: &str) -> (Value, &'static str) {
    match called {
        "get_weather" | "get_time" => (json!(called), "exact"),
        "mcp_github_create_issue" => (json!("mcp/github/create_issue"), "form"),
        _ => (Value::Null, "unknown"),
    }
}

/// The line an index entry's call must print.
fn expected_line(call: &Value) -> Value {
    let called = call["name"].as_str().unwrap();
    // A namespaced call lands by its pair: (`mcp_github`, `create_issue`) is the form pair of
    // `mcp/github/create_issue`, and never the bare name alone.
    let (to, via) = match call.get("namespace").and_then(Value::as_str) {
        Some("mcp_github") if called == "create_issue" => {
            (json!("mcp/github/create_issue"), "form")
        }
        // A namespace that is the call's own name, and no namespace of the tools: the
        // top-level function (issue 26, point 1).
        Some(namespace) if namespace == called => landing(called),
        Some(_) => (Value::Null, "unknown"),
        None => landing(called),
    };
    let mut line = json!({
        "id": call["id"],
        "called": called,
        "to": to,
        "via": via,
        "arguments": call.get("arguments").cloned().unwrap_or(Value::Null),
    });
    if let Some(namespace) = call.get("namespace") {
        line["namespace"] = namespace.clone();
    }
    line
}

/// Checks `got` against the index's `calls`: the same calls in order, each with its landing;
/// an error exactly where a call reaches no tool or has no object arguments. Returns whether
/// every call is runnable.
fn assert_lines(file: &str, got: &[Value], calls: &[Value]) -> bool {
    assert_eq!(got.len(), calls.len(), "{file}: {got:#?}");
    let mut all_runnable = true;
    for (line, call) in got.iter().zip(calls) {
        let mut without_error = line.clone();
        let error = without_error
            .as_object_mut()
            .unwrap()
            .remove("error")
            .unwrap();
        assert_eq!(without_error, expected_line(call), "{file}");
        let runnable = !line["to"].is_null() && line["arguments"].is_object();
        assert_eq!(error.is_null(), runnable, "{file}: {line}");
        if let Some(kind) = call["error"].as_str() {
            let words = match kind {
                "not_json" => "not JSON",
                "not_object" => "not a JSON object",
                other => panic!("{file}: an error kind this test does not know: {other}"),
            };
            assert!(error.as_str().unwrap().contains(words), "{file}: {error}");
        }
        all_runnable &= runnable;
    }
    all_runnable
}

#[test]
fn every_recorded_response_prints_its_calls_resolved() {
    let tools = file(TOOLS);
    let mut seen = 0;
    for (name, info) in index().iter().filter(|(_, i)| i["kind"] == "response") {
        let format = format_key(info["format"].as_str().unwrap());
        let output = toolwire(
            &[
                "calls",
                "--format",
                format,
                "--tools",
                path(&tools),
                &fixture(name),
            ],
            "",
        );
        let calls = info["calls"].as_array().unwrap();
        let all_runnable = assert_lines(name, &lines(&output), calls);
        let expected = if all_runnable { 0 } else { 1 };
        assert_eq!(status(&output), expected, "{name}: {}", stderr(&output));
        assert_eq!(stderr(&output), "", "{name}");
        seen += 1;
    }
    assert!(seen >= 30, "only {seen} responses in the index");
}

#[test]
fn every_recorded_stream_prints_its_calls_and_a_truncated_one_its_unfinished_calls() {
    let tools = file(TOOLS);
    let mut truncated = 0;
    for (name, info) in index().iter().filter(|(_, i)| i["kind"] == "stream") {
        let format = format_key(info["format"].as_str().unwrap());
        let output = toolwire(
            &[
                "calls",
                "--stream",
                "--format",
                format,
                "--tools",
                path(&tools),
                &fixture(name),
            ],
            "",
        );
        let got = lines(&output);
        let calls = info["calls"].as_array().unwrap();
        if let Some(message) = info["stream_error"].as_str() {
            // The provider's error event: the calls before it print, then the stream fails.
            assert_lines(name, &got, calls);
            assert_eq!(status(&output), 2, "{name}: {}", stderr(&output));
            assert!(
                stderr(&output).contains(message),
                "{name}: {}",
                stderr(&output)
            );
            continue;
        }
        let unfinished = info["unfinished"].as_array().unwrap();
        let finished_runnable = assert_lines(name, &got[..calls.len().min(got.len())], calls);
        // Then one line per call the stream began and never ended, in order.
        let rest = &got[calls.len()..];
        assert_eq!(rest.len(), unfinished.len(), "{name}: {got:#?}");
        for (line, call) in rest.iter().zip(unfinished) {
            let (to, via) = landing(call["name"].as_str().unwrap());
            assert_eq!(
                (
                    &line["id"],
                    &line["called"],
                    &line["to"],
                    line["via"].as_str()
                ),
                (&call["id"], &call["name"], &to, Some(via)),
                "{name}"
            );
            assert_eq!(line["arguments"], Value::Null, "{name}");
            assert!(
                line["error"]
                    .as_str()
                    .unwrap()
                    .contains("ended before this call's end"),
                "{name}: {line}"
            );
        }
        let expected = if finished_runnable && unfinished.is_empty() {
            0
        } else {
            1
        };
        assert_eq!(status(&output), expected, "{name}: {}", stderr(&output));
        truncated += usize::from(info["truncated"] == true);
    }
    assert_eq!(truncated, 5, "one truncated stream per format");
}

#[test]
fn a_truncated_stream_is_exit_1_with_each_unfinished_call_named() {
    let tools = file(TOOLS);
    let output = toolwire(
        &[
            "calls",
            "--stream",
            "--format",
            "openai",
            "--tools",
            path(&tools),
            &fixture("openai-chat/stream-truncated.sse"),
        ],
        "",
    );
    assert_eq!(status(&output), 1, "{}", stderr(&output));
    let got = lines(&output);
    let ids: Vec<&str> = got.iter().map(|l| l["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "call_A1b2C3d4E5f6G7h8I9j0K1l2",
            "call_M3n4O5p6Q7r8S9t0U1v2W3x4"
        ]
    );
    assert!(got
        .iter()
        .all(|l| l["arguments"].is_null() && l["to"] == "get_weather"));

    // Cut inside an event that holds no call (the text block's first delta): no line, but the
    // stream did not end: exit 1.
    let whole = std::fs::read_to_string(fixture("anthropic/stream-one-call.sse")).unwrap();
    let cut = &whole[..whole.find("event: content_block_delta").unwrap() + 40];
    let output = toolwire(
        &[
            "calls",
            "--stream",
            "--format",
            "anthropic",
            "--tools",
            path(&tools),
        ],
        cut,
    );
    assert_eq!(stdout(&output), "");
    assert_eq!(status(&output), 1);
    assert!(
        stderr(&output).contains("ended inside an event"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn the_response_is_read_from_stdin_by_dash_or_by_default() {
    let tools = file(TOOLS);
    let body = std::fs::read_to_string(fixture("gemini/response-parallel-no-ids.json")).unwrap();
    let stream = std::fs::read_to_string(fixture("gemini/stream-parallel-no-ids.sse")).unwrap();
    let by_dash = toolwire(
        &["calls", "--format", "gemini", "--tools", path(&tools), "-"],
        &body,
    );
    let by_default = toolwire(
        &["calls", "--format", "gemini", "--tools", path(&tools)],
        &body,
    );
    let streamed = toolwire(
        &[
            "calls",
            "--format",
            "gemini",
            "--stream",
            "--tools",
            path(&tools),
            "-",
        ],
        &stream,
    );
    for output in [&by_dash, &by_default, &streamed] {
        assert_eq!(status(output), 0, "{}", stderr(output));
    }
    assert_eq!(stdout(&by_dash), stdout(&by_default));
    assert_eq!(stdout(&by_dash), stdout(&streamed));
    // Two parallel calls of one function, without ids: two lines, never an invented id.
    let got = lines(&by_dash);
    assert_eq!(got.len(), 2);
    assert!(got
        .iter()
        .all(|l| l["id"].is_null() && l["called"] == "get_weather"));

    // The tool set may come from stdin too, but not both at once.
    let output = toolwire(&["calls", "--format", "gemini", "--tools", "-"], &body);
    assert_eq!(status(&output), 2);
    assert!(stderr(&output).contains("standard input cannot be both"));
    let response = file(&body);
    let output = toolwire(
        &[
            "calls",
            "--format",
            "gemini",
            "--tools",
            "-",
            path(&response),
        ],
        TOOLS,
    );
    assert_eq!(status(&output), 0, "{}", stderr(&output));
}

#[test]
fn an_unknown_name_is_exit_1_with_the_closest_forms() {
    let tools = file(TOOLS);
    let output = toolwire(
        &[
            "calls",
            "--format",
            "converse",
            "--tools",
            path(&tools),
            &fixture("converse/response-name-refused.json"),
        ],
        "",
    );
    assert_eq!(status(&output), 1);
    let got = lines(&output);
    assert_eq!(got.len(), 1);
    assert_eq!(
        (&got[0]["called"], &got[0]["to"], &got[0]["via"]),
        (&json!("$READFILE"), &Value::Null, &json!("unknown"))
    );
    let error = got[0]["error"].as_str().unwrap();
    // The wording the runtime's answers give the model: one, in one place.
    assert!(
        error.starts_with("unknown tool `$READFILE`; the closest offered tools are "),
        "{error}"
    );
    assert!(error.contains("`get_weather`"), "{error}");
    // Its arguments are still an object: the call is printed whole.
    assert_eq!(got[0]["arguments"], json!({"path": "README.md"}));
}

/// A Chat Completions response calling `names`, in order, without arguments.
fn chat_response(names: &[&str]) -> String {
    let calls: Vec<Value> = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            json!({"id": format!("call_{i}"), "type": "function",
                "function": {"name": name, "arguments": ""}})
        })
        .collect();
    json!({"object": "chat.completion", "choices": [{"index": 0, "finish_reason": "tool_calls",
        "message": {"role": "assistant", "content": null, "tool_calls": calls}}]})
    .to_string()
}

#[test]
fn calls_resolve_over_a_live_mcp_servers_census_and_a_shared_form_reaches_no_tool() {
    let command = fixture_command("");
    // Bare: `search_web` is a real name, `files_read` the form of `files/read` only.
    let response = file(&chat_response(&["search_web", "files_read", "tool_search"]));
    let output = toolwire(
        &[
            "calls",
            "--format",
            "openai",
            "--mcp-stdio",
            &command,
            path(&response),
        ],
        "",
    );
    assert_eq!(status(&output), 0, "{}", stderr(&output));
    let landed: Vec<(Value, Value)> = lines(&output)
        .into_iter()
        .map(|l| (l["to"].clone(), l["via"].clone()))
        .collect();
    assert_eq!(
        landed,
        [
            (json!("search_web"), json!("exact")),
            (json!("files/read"), json!("form")),
            (json!("tool_search"), json!("meta")),
        ]
    );

    // Under `--server fx`, `search.web` and `search_web` share the form `mcp_fx_search_web`:
    // a call by it reaches neither (never a guess), and each is reached by its real name.
    let response = file(&chat_response(&["mcp_fx_search_web", "mcp/fx/search.web"]));
    let output = toolwire(
        &[
            "calls",
            "--format",
            "openai",
            "--server",
            "fx",
            "--mcp-stdio",
            &command,
            path(&response),
        ],
        "",
    );
    assert_eq!(status(&output), 1, "{}", stderr(&output));
    let got = lines(&output);
    assert_eq!(
        (&got[0]["to"], &got[0]["via"]),
        (&Value::Null, &json!("unknown"))
    );
    let error = got[0]["error"].as_str().unwrap();
    // The runtime's own wording of a shared form, as its answers give it the model.
    assert_eq!(
        error,
        "no one tool answers to `mcp_fx_search_web`: 2 tools share it, so none is offered \
         under it; call one of them by its real name: `mcp/fx/search.web`, `mcp/fx/search_web`"
    );
    assert_eq!(
        (&got[1]["to"], &got[1]["via"], &got[1]["error"]),
        (&json!("mcp/fx/search.web"), &json!("exact"), &Value::Null)
    );
    assert_eq!(got[1]["arguments"], json!({}));
}

#[test]
fn a_response_that_is_not_the_format_is_exit_2() {
    let tools = file(TOOLS);
    let run = |args: &[&str], stdin: &str| {
        let mut all = vec!["calls", "--tools", path(&tools)];
        all.extend_from_slice(args);
        toolwire(&all, stdin)
    };
    let cases: [(&[&str], String, &str); 7] = [
        // Another format's body: the message names the format and the pointer.
        (
            &[
                "--format",
                "anthropic",
                &fixture("gemini/response-one-call.json"),
            ],
            String::new(),
            "at `/content`",
        ),
        (
            &["--format", "openai"],
            "{\"choices\": ".to_owned(),
            "not JSON",
        ),
        // Two calls with one id: no answer could tell them apart.
        (
            &["--format", "openai"],
            chat_response(&["get_time", "get_time"]).replace("call_1", "call_0"),
            "`call_0` of an earlier call",
        ),
        // Another format's stream: none of its events is the format's.
        (
            &[
                "--format",
                "openai-responses",
                "--stream",
                &fixture("anthropic/stream-one-call.sse"),
            ],
            String::new(),
            "is not an OpenAI Responses stream: none of its",
        ),
        (
            &["--format", "converse", "--stream"],
            "{\"contentBlockStop\": {\"contentBlockIndex\": 0}}\nnot json\n".to_owned(),
            "event 1 is not JSON",
        ),
        // A body read as a stream, or nothing: no event at all is no stream of the format.
        (
            &[
                "--format",
                "gemini",
                "--stream",
                &fixture("gemini/response-one-call.json"),
            ],
            String::new(),
            "is not a Gemini generateContent stream: it has no events; it begins `{",
        ),
        (
            &["--format", "converse", "--stream"],
            "\n\n".to_owned(),
            "is not a Bedrock Converse stream: it has no events (a stream is one JSON event per line",
        ),
    ];
    for (args, stdin, says) in cases {
        let output = run(args, &stdin);
        assert_eq!(status(&output), 2, "{args:?}: {}", stderr(&output));
        assert_eq!(stdout(&output), "", "{args:?}");
        assert!(
            stderr(&output).contains(says),
            "{args:?}: {}",
            stderr(&output)
        );
    }

    // An unknown format is clap's refusal, listing the five.
    let output = run(&["--format", "openai-chat"], "{}");
    assert_eq!(status(&output), 2);
    assert!(stderr(&output).contains("openai-responses"));
    // No tool source at all.
    let output = toolwire(&["calls", "--format", "openai"], "{}");
    assert_eq!(status(&output), 2);
    assert!(stderr(&output).contains("--tools"));
}

#[test]
fn a_stream_fault_keeps_the_lines_before_it() {
    let tools = file(TOOLS);
    let whole = std::fs::read_to_string(fixture("converse/stream-parallel.jsonl")).unwrap();
    // The first call's stop, then an event that is not JSON.
    let first_stop = whole.find("contentBlockStop").unwrap();
    let line_end = first_stop + whole[first_stop..].find('\n').unwrap() + 1;
    let text = format!("{}{{not json\n", &whole[..line_end]);
    let output = toolwire(
        &[
            "calls",
            "--format",
            "converse",
            "--stream",
            "--tools",
            path(&tools),
        ],
        &text,
    );
    assert_eq!(status(&output), 2, "{}", stderr(&output));
    let got = lines(&output);
    assert_eq!(got.len(), 1, "{got:#?}");
    assert_eq!(got[0]["called"], "get_weather");
    assert!(stderr(&output).contains("is not JSON"));
}

#[test]
fn a_config_server_that_cannot_be_listed_is_exit_2_and_the_others_still_resolve() {
    let config = file(
        &json!({"mcpServers": {
            "fx": {"command": crate::fixture_server()},
            "gone": {"command": "/nonexistent/toolwire-no-such-server"},
        }})
        .to_string(),
    );
    let response = file(&chat_response(&["mcp_fx_files_read"]));
    let output = toolwire(
        &[
            "calls",
            "--format",
            "openai",
            "--mcp-config",
            path(&config),
            path(&response),
        ],
        "",
    );
    assert_eq!(status(&output), 2, "{}", stderr(&output));
    let got = lines(&output);
    assert_eq!(
        (&got[0]["to"], &got[0]["via"]),
        (&json!("mcp/fx/files/read"), &json!("form"))
    );
    assert!(stderr(&output).contains("gone"), "{}", stderr(&output));
}

#[test]
fn a_chat_stream_closed_between_events_prints_its_calls_and_a_cut_call_is_exit_1() {
    let tools = file(TOOLS);
    let run = |input: &str, text: &str| {
        let args = [
            "calls",
            "--stream",
            "--format",
            "openai",
            "--tools",
            path(&tools),
            input,
        ];
        toolwire(&args, text)
    };
    // stream-closed.sse: the first call's arguments are whole, the second's cut mid-object:
    // both end at the close; the cut one cannot be run, so exit 1.
    let output = run(&fixture("openai-chat/stream-closed.sse"), "");
    assert_eq!(status(&output), 1, "{}", stderr(&output));
    let got = lines(&output);
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(got[0]["id"], "call_A1b2C3d4E5f6G7h8I9j0K1l2");
    assert_eq!(
        got[0]["arguments"],
        json!({"city": "Paris", "unit": "celsius"})
    );
    assert_eq!(got[0]["error"], Value::Null);
    assert_eq!(got[1]["id"], "call_M3n4O5p6Q7r8S9t0U1v2W3x4");
    assert!(got[1]["arguments"].is_null());
    assert!(
        got[1]["error"].as_str().unwrap().contains("not JSON"),
        "{got:?}"
    );

    // A whole closed stream (every call whole, no finish_reason, no [DONE]): exit 0.
    let whole = std::fs::read_to_string(fixture("openai-chat/stream-closed.sse")).unwrap();
    let first_call_only: String = whole
        .split("\n\n")
        .filter(|event| !event.is_empty() && !event.contains("\"index\":1"))
        .map(|event| format!("{event}\n\n"))
        .collect();
    let output = run("-", &first_call_only);
    assert_eq!(status(&output), 0, "{}", stderr(&output));
    let got = lines(&output);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(
        got[0]["arguments"],
        json!({"city": "Paris", "unit": "celsius"})
    );

    // The `{}` placeholder closed after its header: bad arguments, never run; exit 1.
    let output = run(&fixture("openai-chat/stream-closed-placeholder.sse"), "");
    assert_eq!(status(&output), 1, "{}", stderr(&output));
    let got = lines(&output);
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(got[0]["arguments"].is_null());
    assert!(
        got[0]["error"].as_str().unwrap().contains("placeholder"),
        "{got:?}"
    );
}

#[test]
fn a_converse_last_line_that_ends_a_call_prints_it_before_the_open_one() {
    let tools = file(TOOLS);
    let start = |index: u32, id: &str| {
        format!(
            r#"{{"contentBlockStart":{{"contentBlockIndex":{index},"start":{{"toolUse":{{"toolUseId":"{id}","name":"get_time"}}}}}}}}"#
        )
    };
    // The last line, without its newline, ends tooluse_1 while tooluse_2 stays open.
    let text = format!(
        "{}\n{}\n{}",
        start(0, "tooluse_1"),
        start(1, "tooluse_2"),
        r#"{"contentBlockStop":{"contentBlockIndex":0}}"#
    );
    let args = [
        "calls",
        "--stream",
        "--format",
        "converse",
        "--tools",
        path(&tools),
    ];
    let output = toolwire(&args, &text);
    assert_eq!(status(&output), 1, "{}", stderr(&output));
    let got = lines(&output);
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(got[0]["id"], "tooluse_1");
    assert_eq!(got[0]["arguments"], json!({}));
    assert_eq!(got[1]["id"], "tooluse_2");
    assert!(got[1]["arguments"].is_null());
}

/// Issue 28, point 5: a saved `tools/list` with a tool that requires MCP tasks is judged as a
/// live listing is (the same reader as `census` and `wire`): a call to it resolves, and is
/// refused, exit 1.
#[test]
fn a_call_to_a_tool_a_saved_listing_withholds_is_refused() {
    let saved = file(
        r#"{"tools": [
        {"name": "echo", "inputSchema": {"type": "object"}},
        {"name": "research", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "required"}}
    ]}"#,
    );
    let body = |name: &str| {
        json!({"choices": [{"message": {"role": "assistant", "tool_calls": [{"id": "c1",
            "type": "function", "function": {"name": name, "arguments": "{}"}}]}}]})
        .to_string()
    };
    let run = |name: &str| {
        toolwire(
            &["calls", "--format", "openai", "--tools", path(&saved)],
            &body(name),
        )
    };
    let output = run("research");
    assert_eq!(status(&output), 1, "{}", stderr(&output));
    let line = &lines(&output)[0];
    assert_eq!(line["to"], "research", "{line}");
    assert_eq!(
        line["error"],
        "toolwire cannot run `research`: it requires MCP tasks (execution.taskSupport: \
         required), which toolwire does not run",
        "{line}"
    );
    let output = run("echo");
    assert_eq!(status(&output), 0, "{}", stderr(&output));
}
