//! An app's `#[tool]`s served as an MCP server over stdio: every client (Claude Code, Cursor,
//! VS Code, Copilot) gets the same tools under names each of them accepts, and a call by a
//! served name or a real name reaches exactly its tool.
//!
//! Run it as an MCP server: `cargo run --example serve` (a client speaks JSON-RPC on its stdin
//! and stdout). `#[tool]` checks every name at compile time: a name no model could call, or
//! two tools of this crate that would travel as one form, is a compile error.

use std::sync::Arc;

use toolwire::mcp::serve::{ServeOptions, ToolServer};
use toolwire::{census::NameBudget, provider::RegisteredTools, tool, AppState, ToolRuntime};

/// Gets the weather for a city.
#[tool]
fn get_weather(
    /// The city, e.g. "Paris".
    city: String,
) -> String {
    format!("sunny in {city}")
}

/// Reads a file of the shared drive. `/` is no MCP tool name's: it is served as `files_read`.
#[tool(name = "files/read")]
async fn read_file(path: String) -> Result<String, std::io::Error> {
    Ok(format!("contents of {path}"))
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let runtime = ToolRuntime::new();
    runtime
        .add_provider(Arc::new(RegisteredTools::new(AppState::new())))
        .await?
        .check()?;
    // Claude Code sends `mcp__<server>__<tool>` within 64 characters: leave it the room.
    let options = ServeOptions::default().budget(NameBudget::claude_code("weather")?);
    ToolServer::new(runtime, options).serve_stdio().await?;
    Ok(())
}
