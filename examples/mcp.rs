//! Tools loaded at run time from a real MCP server over stdio.
//!
//! Spawns the workspace's fixture MCP server (whose tools have hard names: `search.web` beside
//! `search_web`, `files/read`, `tool_search`, a 70-character name), or any server given on the
//! command line, then prints the tools report and the Converse tool list, and dispatches calls
//! by real name and by model-safe form.
//!
//! ```text
//! cargo run --example mcp
//! cargo run --example mcp -- my-server npx -y @modelcontextprotocol/server-everything
//! ```

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::json;
use toolwire::{McpCommand, McpProvider, ToolRuntime, WireFormat};

/// The fixture server built next to this example (built first if it is not there yet).
fn fixture_server() -> Result<PathBuf, Box<dyn std::error::Error>> {
    let exe = std::env::current_exe()?;
    let dir = exe
        .parent()
        .and_then(|d| d.parent())
        .ok_or("no target directory")?;
    let bin = dir.join(format!(
        "toolwire-fixture-mcp-server{}",
        std::env::consts::EXE_SUFFIX
    ));
    if !bin.exists() {
        let status = std::process::Command::new(std::env::var("CARGO").unwrap_or("cargo".into()))
            .args(["build", "-p", "toolwire-fixture-mcp-server"])
            .status()?;
        if !status.success() {
            return Err("could not build the fixture MCP server".into());
        }
    }
    Ok(bin)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (server, command) = match args.as_slice() {
        [server, program, rest @ ..] => (
            server.clone(),
            McpCommand {
                args: rest.to_vec(),
                ..McpCommand::new(program.clone())
            },
        ),
        _ => (
            "fixture".to_owned(),
            McpCommand::new(fixture_server()?.to_string_lossy()),
        ),
    };

    let runtime = ToolRuntime::new();
    let provider = McpProvider::spawn(&server, command).await?;
    let status = runtime.add_provider(Arc::new(provider)).await?;
    println!("provider mcp/{server}: {status:?}\n");

    println!("== tools report");
    println!("{}\n", serde_json::to_string_pretty(&runtime.report())?);

    let request = runtime.request();
    println!("== Converse tool list (offered tools only, each under its model-safe form)");
    println!(
        "{}\n",
        serde_json::to_string_pretty(&request.tools(WireFormat::Converse)?)?
    );

    // Dispatch the first offered tool by its real name, then by its form, as two turns of a
    // model would; then a shared form, which must fail rather than guess.
    if let Some(tool) = request.census().offered().next() {
        let (real, form) = (tool.name().to_owned(), tool.form().to_owned());
        for called in [real.as_str(), form.as_str()] {
            match request
                .dispatch(called, json!({"query": "rust", "path": "/tmp"}))
                .await
            {
                Ok(out) => println!(
                    "call `{called}` → {} via {:?}: {}",
                    out.tool, out.route, out.output
                ),
                Err(err) => println!("call `{called}` → error: {err}"),
            }
        }
    }
    for form in request.census().collisions().keys() {
        match request.dispatch(form, json!({})).await {
            Ok(out) => println!("call `{form}` → {} (unexpected)", out.tool),
            Err(err) => println!("call `{form}` → error: {err}"),
        }
    }
    Ok(())
}
