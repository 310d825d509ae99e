//! The TypeScript SDK's client through the MCP Inspector's CLI
//! (`@modelcontextprotocol/inspector` 0.15.0, pinned in scripts/inspector/package-lock.json with
//! the SDK it runs), against `toolwire serve` over stdio and streamable HTTP: `mcp-inspector
//! --cli TARGET --method tools/list`, and `--method tools/call --tool-name NAME --tool-arg k=v`.
//!
//! The Inspector turns each `k=v` into the type the tool's listed `inputSchema` gives `k`
//! (inspector-cli/build/client/tools.js, `convertParameters`): so `count=3` reaches the
//! fixture's `validated` tool as the integer 3 only if the schema crossed the gateway intact
//! (the fixture refuses anything else, as the SDKs do).

use serde_json::{json, Value};
use tokio::process::Command;
use toolwire_test_support::clients::inspector_cli;

use super::{http_gateway, run_client, stderr};
use crate::backends;

/// The fixture servers behind the gateway: `fx` with its `validated` tool.
fn serve_args() -> Vec<String> {
    backends("--sdk-validation")
}

/// The Inspector CLI aimed at `target` (a URL, or a command and its arguments), then `method`'s
/// arguments.
fn inspector(target: &[String], method: &[&str]) -> Command {
    let mut command = Command::new(inspector_cli());
    command.arg("--cli").args(target).args(method);
    command
}

/// `tools/list`, a typed call and a call to a tool that does not exist, through `target`.
async fn lists_and_calls(target: &[String]) {
    let listed = run_client(&mut inspector(target, &["--method", "tools/list"])).await;
    assert!(listed.status.success(), "tools/list: {}", stderr(&listed));
    let listed: Value = serde_json::from_slice(&listed.stdout).expect("the listing is JSON");
    let tools = listed["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    for form in ["mcp_fx_echo", "mcp_fx_validated", "mcp_fx_files_stat"] {
        assert!(names.contains(&form), "{form} is not listed: {names:?}");
    }
    let validated = tools
        .iter()
        .find(|t| t["name"] == "mcp_fx_validated")
        .unwrap();
    assert_eq!(
        validated["inputSchema"]["properties"]["count"],
        json!({"type": "integer"})
    );

    let called = run_client(&mut inspector(
        target,
        &[
            "--method",
            "tools/call",
            "--tool-name",
            "mcp_fx_validated",
            "--tool-arg",
            "count=3",
        ],
    ))
    .await;
    assert!(called.status.success(), "tools/call: {}", stderr(&called));
    let called: Value = serde_json::from_slice(&called.stdout).expect("the call's result is JSON");
    assert_ne!(called["isError"], true, "{called}");
    let answer: Value = serde_json::from_str(called["content"][0]["text"].as_str().unwrap())
        .unwrap_or_else(|e| panic!("the fixture's JSON answer ({e}): {called}"));
    assert_eq!(
        answer,
        json!({"tool": "validated", "arguments": {"count": 3}})
    );

    // An unknown tool is -32602 (https://modelcontextprotocol.io/specification/2025-11-25/
    // server/tools#error-handling); the Inspector prints it and exits 1.
    let unknown = run_client(&mut inspector(
        target,
        &["--method", "tools/call", "--tool-name", "no_such_tool"],
    ))
    .await;
    assert!(!unknown.status.success(), "{unknown:?}");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&unknown.stdout),
        stderr(&unknown)
    );
    assert!(
        said.contains("-32602") && said.contains("no_such_tool"),
        "{said}"
    );
}

#[tokio::test]
async fn inspector_cli_lists_and_calls_through_the_gateway_over_stdio() {
    let mut target = vec![env!("CARGO_BIN_EXE_toolwire").to_owned(), "serve".into()];
    target.extend(serve_args());
    lists_and_calls(&target).await;
}

#[tokio::test]
async fn inspector_cli_lists_and_calls_through_the_gateway_over_http() {
    let (_gateway, _stderr, url) = http_gateway(serve_args()).await;
    // The Inspector picks streamable HTTP for a URL ending in /mcp; said here all the same.
    lists_and_calls(&[url, "--transport".into(), "http".into()]).await;
}
