//! The MCP Python SDK 2.x client (`mcp.client.client.Client`, mcp 2.3.0 pinned in
//! scripts/requirements.txt) against `toolwire serve`, over stdio and streamable HTTP, in each
//! of its three modes: `legacy` (the `initialize` handshake), `auto` (`server/discover`, falling
//! back to `initialize` only for a server that does not know it) and `2026-07-28` (adopted with
//! no probe). Source: mcp/client/client.py, `Client.mode` and `Client.__aenter__`.
//!
//! Each test lists the tools, calls one and reads its answer, calls a tool that does not exist
//! and gets the error, and, against a deferred catalog, searches a tool. The client is
//! clients/python_client.py, which only calls and reports (one JSON object); every check is here.

use serde_json::{json, Value};
use tokio::process::Command;
use toolwire_test_support::clients::test_python;

use super::{http_gateway, run_client, serve_args, stderr};

/// Where the client finds the gateway.
enum Transport {
    /// It starts `toolwire serve` itself, as its stdio server.
    Stdio,
    /// It connects to a gateway serving streamable HTTP.
    Http,
}

/// The protocol revision a 2026-07-28 client must end up speaking, in `auto` as in a pinned
/// mode: toolwire serves it (issue 25, point 2), so `auto`'s probe must not fall back.
const MODERN: &str = "2026-07-28";

/// The revision a `legacy` client negotiates with `initialize`: the newest handshake-era one
/// (https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#version-negotiation:
/// the server answers with the client's version when it supports it).
const HANDSHAKE: &str = "2025-11-25";

/// Runs clients/python_client.py in `mode` against a gateway started with `extra` flags, doing
/// `steps`; its report.
async fn python_client(mode: &str, transport: Transport, extra: &[&str], steps: &[Value]) -> Value {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/serve/clients/python_client.py"
    );
    let steps = steps.iter().map(Value::to_string);
    let mut command = Command::new(test_python());
    command.arg(script).arg(mode);
    // The HTTP gateway lives until the client is done; the stdio one is the client's child.
    let _gateway = match transport {
        Transport::Stdio => {
            command
                .args(["--stdio", env!("CARGO_BIN_EXE_toolwire"), "serve"])
                .args(serve_args(extra))
                .arg("--")
                .args(steps);
            None
        }
        Transport::Http => {
            let (child, err, url) = http_gateway(serve_args(extra)).await;
            command.args(["--http", &url]).args(steps);
            Some((child, err))
        }
    };
    let output = run_client(&mut command).await;
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "python_client.py's report is JSON ({e}): stdout {:?}, stderr {}",
            String::from_utf8_lossy(&output.stdout),
            stderr(&output)
        )
    });
    assert!(
        output.status.success(),
        "the Python SDK client in mode {mode} failed: {report}\nits stderr:\n{}",
        stderr(&output)
    );
    report
}

/// Lists, calls `mcp_fx_echo`, calls a tool that does not exist; then, against a deferred
/// catalog, lists and searches; `version` is the revision the client must have negotiated.
async fn lists_calls_refuses_and_searches(mode: &str, transport: fn() -> Transport, version: &str) {
    let report = python_client(
        mode,
        transport(),
        &[],
        &[
            json!({"list": true}),
            json!({"call": "mcp_fx_echo", "arguments": {"text": "hé 🌍"}}),
            json!({"call": "no_such_tool", "arguments": {}}),
        ],
    )
    .await;
    assert_eq!(report["protocol_version"], version, "{report}");
    let steps = report["steps"].as_array().unwrap();
    let listed: Vec<&str> = steps[0]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("a tool list: {report}"))
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    // The forms the rmcp client tests see (stdio.rs): both servers' tools, clashing names
    // left out.
    for form in ["mcp_fx_echo", "mcp_fx_files_stat", "mcp_fx_tool_search"] {
        assert!(listed.contains(&form), "{form} is not listed: {listed:?}");
    }
    assert!(!listed.contains(&"mcp_fx_files_read"), "{listed:?}");

    assert_eq!(steps[1]["is_error"], false, "{report}");
    let answer: Value = serde_json::from_str(steps[1]["text"].as_str().unwrap()).unwrap();
    assert_eq!(
        answer,
        json!({"tool": "echo", "arguments": {"text": "hé 🌍"}}),
        "{report}"
    );

    // An unknown tool is a protocol error, -32602 (Invalid params):
    // https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling
    // ("Unknown tools" under "Protocol Errors").
    assert_eq!(steps[2]["error"]["code"], -32602, "{report}");
    let message = steps[2]["error"]["message"].as_str().unwrap();
    assert!(message.contains("no_such_tool"), "{report}");

    let mut steps = vec![
        json!({"list": true}),
        json!({"call": "tool_search", "arguments": {"query": "echoes its arguments", "limit": 1}}),
    ];
    if version == MODERN {
        // A 2026-07-28 client calls only what its list has: the tool found runs through the
        // listed `tool_call`, and the list stays as it was (issue 25, point 3).
        steps.extend([
            json!({"call": "tool_call", "arguments": {"name": "mcp_fx_echo", "arguments": {"n": 1}}}),
            json!({"list": true}),
        ]);
    }
    let report = python_client(mode, transport(), &["--catalog", "deferred"], &steps).await;
    assert_eq!(report["protocol_version"], version, "{report}");
    let steps = report["steps"].as_array().unwrap();
    let listed = &steps[0]["tools"];
    for meta in ["tool_search", "tool_schema"] {
        assert!(
            listed.as_array().unwrap().contains(&json!(meta)),
            "{meta}: {report}"
        );
    }
    assert!(
        !listed.as_array().unwrap().contains(&json!("mcp_fx_echo")),
        "a deferred catalog lists no backend tool before a search: {report}"
    );
    assert_eq!(steps[1]["is_error"], false, "{report}");
    let found: Value = serde_json::from_str(steps[1]["text"].as_str().unwrap()).unwrap();
    assert_eq!(
        found["tools"],
        json!([{"name": "mcp/fx/echo", "form": "mcp_fx_echo", "description": "Echoes its arguments."}]),
        "{report}"
    );
    if version == MODERN {
        assert_eq!(steps[2]["is_error"], false, "{report}");
        let answer: Value = serde_json::from_str(steps[2]["text"].as_str().unwrap()).unwrap();
        assert_eq!(
            answer,
            json!({"tool": "echo", "arguments": {"n": 1}}),
            "{report}"
        );
        assert!(
            listed.as_array().unwrap().contains(&json!("tool_call")),
            "{report}"
        );
        assert_eq!(steps[3]["tools"], *listed, "the list changed: {report}");
    }
}

#[tokio::test]
async fn python_sdk_in_legacy_mode_over_stdio_lists_calls_refuses_and_searches() {
    lists_calls_refuses_and_searches("legacy", || Transport::Stdio, HANDSHAKE).await;
}

#[tokio::test]
async fn python_sdk_in_legacy_mode_over_http_lists_calls_refuses_and_searches() {
    lists_calls_refuses_and_searches("legacy", || Transport::Http, HANDSHAKE).await;
}

#[tokio::test]
async fn python_sdk_in_auto_mode_over_stdio_speaks_2026_07_28_and_lists_calls_refuses_and_searches()
{
    lists_calls_refuses_and_searches("auto", || Transport::Stdio, MODERN).await;
}

#[tokio::test]
async fn python_sdk_in_auto_mode_over_http_speaks_2026_07_28_and_lists_calls_refuses_and_searches()
{
    lists_calls_refuses_and_searches("auto", || Transport::Http, MODERN).await;
}

#[tokio::test]
async fn python_sdk_pinned_to_2026_07_28_over_stdio_lists_calls_refuses_and_searches() {
    lists_calls_refuses_and_searches(MODERN, || Transport::Stdio, MODERN).await;
}

#[tokio::test]
async fn python_sdk_pinned_to_2026_07_28_over_http_lists_calls_refuses_and_searches() {
    lists_calls_refuses_and_searches(MODERN, || Transport::Http, MODERN).await;
}
