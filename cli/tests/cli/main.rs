//! The built `toolwire` binary, run as a person or a CI script would: every input format, bad
//! input, both exit paths of `census`, its `schemas` key and `--provider`, `wire` in every
//! format, `resolve`, `search`, `calls` over the recorded provider responses, and the MCP
//! sources (`--mcp-stdio`, `--mcp-http`, `--mcp-config`, and the servers each leaves behind:
//! none) against the workspace's fixture MCP server.
//!
//! No test sleeps to wait for something: a server's URL is its first stdout line, a grandchild's
//! pid arrives on a socket, an exit is a pidfd turning readable. Each such wait is bounded by
//! [`HANG_BOUND`], far above what it takes, so a hang fails the test instead of stalling it.
//!
//! One test binary (one link) with a module per concern; this file holds what they share.

mod calls;
mod calls_answer;
mod census;
mod census_html;
mod input;
mod mcp_config;
mod mcp_faults;
mod mcp_http;
mod mcp_processes;
mod mcp_stdio;
mod resolve;
mod schemas;
mod search;
mod wire;

use std::io::Write;
use std::process::Output;

use serde_json::Value;
use toolwire_core::ToolDefinition;
use toolwire_test_support::fixture_server::{fixture_server, HttpFixture};
use toolwire_test_support::HANG_BOUND;

/// `toolwire ARGS` with `stdin`, and its output.
fn toolwire(args: &[&str], stdin: &str) -> Output {
    assert_cmd::cargo_bin_cmd!("toolwire")
        .args(args)
        .write_stdin(stdin)
        .output()
        .expect("the toolwire binary runs")
}

/// A JSON file holding `text`.
fn file(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::Builder::new().suffix(".json").tempfile().unwrap();
    f.write_all(text.as_bytes()).unwrap();
    f
}

fn path(f: &tempfile::NamedTempFile) -> &str {
    f.path().to_str().unwrap()
}

fn status(output: &Output) -> i32 {
    output.status.code().expect("exited, not killed")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// Runs `census --json` on `text` and returns the exit status and the parsed object, checking
/// the output is exactly one JSON line.
fn census_json(text: &str, extra: &[&str]) -> (i32, Value) {
    let f = file(text);
    let mut args = vec!["census", "--json", path(&f)];
    args.extend_from_slice(extra);
    let output = toolwire(&args, "");
    let out = stdout(&output);
    assert_eq!(
        out.lines().count(),
        1,
        "one JSON line: {out}\n{}",
        stderr(&output)
    );
    (status(&output), serde_json::from_str(&out).unwrap())
}

/// The tool object of `name` in a `--json` object.
fn tool<'a>(object: &'a Value, name: &str) -> &'a Value {
    object["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("no tool {name} in {object}"))
}

/// A small tool set in the Messages API shape: `search.web` has a type array, a local `$ref`
/// and a pattern; `files/tree` is recursive.
const SMALL_SET: &str = r##"[
  {"name": "search.web", "description": "Searches the web.", "input_schema": {
    "type": "object",
    "properties": {
      "q": {"type": "string", "pattern": "^[a-z]+$"},
      "limit": {"type": ["integer", "null"]},
      "near": {"$ref": "#/$defs/Place"}
    },
    "required": ["q"],
    "$defs": {"Place": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}
  }},
  {"name": "files/tree", "description": "Walks a tree.", "input_schema": {
    "type": "object",
    "properties": {"root": {"$ref": "#/$defs/Node"}},
    "$defs": {"Node": {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}}
  }}
]"##;

/// The definitions of a Messages API tool array, read the plain way.
fn messages_definitions(text: &str) -> Vec<ToolDefinition> {
    let tools: Vec<Value> = serde_json::from_str(text).unwrap();
    tools
        .iter()
        .map(|t| {
            ToolDefinition::new(
                t["name"].as_str().unwrap(),
                t["description"].as_str().unwrap_or(""),
                t["input_schema"].clone(),
            )
        })
        .collect()
}

/// A `--mcp-stdio` command line for the fixture, its path quoted for the command's splitter.
fn fixture_command(extra: &str) -> String {
    let path = fixture_server();
    let path = shlex::try_quote(path.to_str().unwrap()).unwrap();
    format!("{path} {extra}")
}
