//! Tools loaded at run time from a real MCP server, over stdio or streamable HTTP: the census of
//! its tools as the runtime names them (`mcp/<NAME>/<tool>`) and, with `--call`, one call
//! dispatched through a `ToolRuntime` by the tool's real name, its bare name or its form.
//!
//! ```text
//! cargo run --example mcp                                  # the workspace's fixture server
//! cargo run --example mcp -- NAME PROGRAM ARGS... [--call TOOL JSON]
//! cargo run --example mcp -- NAME --http URL [--header 'K: V']... [--call TOOL JSON]
//! cargo run --example mcp -- everything npx -y @modelcontextprotocol/server-everything --call echo '{"message": "hi"}'
//! ```
//!
//! Without arguments it starts the fixture server (whose tools have hard names: `search.web`
//! beside `search_web`, `files/read`, `tool_search`, a 70-character name), calls its `echo` by
//! real name and by form, and calls a shared form, which fails rather than guess.

use std::sync::Arc;

use serde_json::{json, Value};
use toolwire::{
    mcp::{McpCommand, McpHttp, McpProvider, McpServer},
    runtime::report::{ReportStatus, ToolsReport},
    Request, ToolRuntime,
};
// The fixture server, built by cargo (a no-op when fresh): the finder the tests use.
use toolwire_test_support::fixture_server::fixture_server;

/// What the command line asks for: a server, its name, and maybe one call.
struct Wanted {
    name: String,
    server: McpServer,
    call: Option<(String, Value)>,
    /// Whether the server is the fixture (no server was named).
    fixture: bool,
}

const USAGE: &str = "usage: mcp [NAME PROGRAM ARGS... | NAME --http URL [--header 'K: V']...] \
                     [--call TOOL JSON]";

fn parse(mut args: Vec<String>) -> Result<Wanted, Box<dyn std::error::Error>> {
    let call = match args.len().checked_sub(3) {
        Some(at) if args[at] == "--call" => {
            let tail = args.split_off(at);
            let arguments = serde_json::from_str(&tail[2])
                .map_err(|e| format!("--call {}: the arguments are not JSON: {e}", tail[1]))?;
            Some((tail[1].clone(), arguments))
        }
        _ => None,
    };
    let Some((name, rest)) = args.split_first() else {
        let fixture = fixture_server();
        let command = McpCommand::new(fixture.to_string_lossy());
        return Ok(Wanted {
            name: "fixture".to_owned(),
            server: command.into(),
            call,
            fixture: true,
        });
    };
    let server = match rest {
        [flag, url, headers @ ..] if flag == "--http" => {
            let mut http = McpHttp::new(url);
            for pair in headers.chunks(2) {
                let [flag, header] = pair else {
                    return Err(USAGE.into());
                };
                let (key, value) = header
                    .split_once(':')
                    .filter(|_| flag == "--header")
                    .ok_or(USAGE)?;
                http = http.header(key.trim(), value.trim());
            }
            McpServer::Http(http)
        }
        [program, args @ ..] => {
            let mut command = McpCommand::new(program);
            command.args = args.to_vec();
            McpServer::Stdio(command)
        }
        [] => return Err(USAGE.into()),
    };
    Ok(Wanted {
        name: name.clone(),
        server,
        call,
        fixture: false,
    })
}

/// Prints each tool as the Tools page shows it: offered under its form, or not and why (left
/// out by the census, switched off, unavailable, or a tool this runtime cannot call).
fn print_census(report: &ToolsReport) {
    println!("== census");
    for tool in &report.tools {
        match (&tool.status, &tool.reason) {
            (ReportStatus::Offered, _) => println!("offered   {}  as {}", tool.name, tool.form),
            (status, reason) => println!(
                "{:<9} {}: {}",
                // `left_out` → `LEFT OUT`, as the command's table says it.
                serde_json::to_value(status)
                    .ok()
                    .and_then(|v| v.as_str().map(|s| s.replace('_', " ").to_uppercase()))
                    .unwrap_or_default(),
                tool.name,
                reason.as_deref().unwrap_or("")
            ),
        }
    }
    println!();
}

/// Dispatches `called` with `arguments` and prints the answer, or the typed error.
async fn call(request: &Request, called: &str, arguments: Value) {
    match request.dispatch(called, arguments).await {
        Ok(out) => println!(
            "call `{called}` → {} via {:?}: {}",
            out.tool,
            out.route,
            out.output.to_value()
        ),
        Err(err) => println!("call `{called}` → error: {err}\n    {err:?}"),
    }
}

#[tokio::main]
async fn main() {
    // Said in words (`Display`), not as a `Debug` dump.
    if let Err(err) = run().await {
        eprintln!("error: {err}");
        std::process::exit(1);
    }
}

async fn run() -> Result<(), Box<dyn std::error::Error>> {
    let wanted = parse(std::env::args().skip(1).collect())?;
    let (name, fixture) = (wanted.name, wanted.fixture);
    let runtime = ToolRuntime::new();
    let provider = McpProvider::connect(&name, wanted.server).await?;
    let status = runtime.add_provider(Arc::new(provider)).await?;
    println!("provider mcp/{name}: {status:?}\n");
    let request = runtime.request();
    print_census(&runtime.report());

    match wanted.call {
        Some((tool, arguments)) => {
            // A server's own (bare) name for a tool is taken as that tool's.
            let real = format!("mcp/{name}/{tool}");
            let known = request.census().tools().iter().any(|t| t.name() == real);
            call(&request, if known { &real } else { &tool }, arguments).await;
        }
        None if fixture => {
            // The fixture's `echo`, as two turns of a model would call it (by real name, then
            // by form); then each shared form, which must fail rather than guess.
            call(&request, "mcp/fixture/echo", json!({"message": "hi"})).await;
            call(&request, "mcp_fixture_echo", json!({"message": "hi"})).await;
            for form in request.census().collisions().keys() {
                call(&request, form, json!({})).await;
            }
        }
        None => println!("(add --call TOOL JSON to call a tool)"),
    }
    Ok(())
}
