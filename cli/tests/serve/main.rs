//! `toolwire serve` (issue 19, points 5 to 7): the built gateway over two fixture MCP servers
//! whose tools clash (`fx`, the default set, and `fx_files`, `--second-set`: `fx`'s
//! `files/read` and `fx_files`'s `read` travel as one form), driven by rmcp's own client over
//! stdio and streamable HTTP.
//!
//! No test sleeps: the census is read line by line from the gateway's stderr (its first line
//! says how many follow), the HTTP URL is its stderr line, a grandchild's pid arrives on a
//! socket, an exit is awaited. Each wait is bounded by [`HANG_BOUND`].

mod clients;
mod http;
mod scale;
mod stdio;
mod tools_page;

use std::process::Stdio;

use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::RoleClient;
use serde_json::Value;
use tokio::io::{BufReader, Lines};
use tokio::process::{Child, ChildStderr, Command};
use toolwire_test_support::fixture_server::fixture_server;
use toolwire_test_support::HANG_BOUND;

/// `--mcp-stdio` values for the two clashing fixture servers, with `extra` fixture flags.
fn backends(extra: &str) -> Vec<String> {
    let fixture = fixture_server();
    let fixture = fixture.to_str().unwrap();
    vec![
        "--mcp-stdio".into(),
        format!("fx={fixture} {extra}"),
        "--mcp-stdio".into(),
        format!("fx_files={fixture} --second-set"),
    ]
}

/// The gateway, started with `args`, its stdio piped.
fn gateway(args: &[String]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_toolwire"))
        .arg("serve")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the toolwire binary runs")
}

type StderrLines = Lines<BufReader<ChildStderr>>;

async fn line(lines: &mut StderrLines) -> String {
    tokio::time::timeout(HANG_BOUND, lines.next_line())
        .await
        .expect("no hang")
        .unwrap()
        .expect("a stderr line")
}

/// The census the gateway prints at start: its head line and every line it announces.
async fn census(lines: &mut StderrLines) -> Vec<String> {
    let head = line(lines).await;
    let counts: Vec<usize> = head
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse().ok())
        .collect();
    // "toolwire serve: N tools served (names of at most B characters), M left out"
    let (served, left_out) = (counts[0], counts[2]);
    let mut census = vec![head];
    for _ in 0..served + left_out {
        census.push(line(lines).await);
    }
    census
}

type Client = RunningService<RoleClient, ()>;

async fn call(client: &Client, name: &str, arguments: Value) -> CallToolResult {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object")
    };
    let params = CallToolRequestParams::new(name.to_owned()).with_arguments(arguments);
    tokio::time::timeout(HANG_BOUND, client.call_tool(params))
        .await
        .expect("no hang")
        .unwrap_or_else(|e| panic!("calling {name}: {e}"))
}

/// The text of a call's answer (the fixture answers with JSON text; an error with words).
fn text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The bare name of the backend tool a successful call reached (the fixture answers with it).
fn reached(result: &CallToolResult) -> String {
    assert_ne!(result.is_error, Some(true), "{result:?}");
    let answer: Value = serde_json::from_str(&text(result)).expect("the fixture's JSON answer");
    answer["tool"].as_str().unwrap().to_owned()
}
