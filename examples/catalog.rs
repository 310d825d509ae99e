//! The tool catalog end to end: 64 tools of 7 real MCP servers (their `tools/list` answers, in
//! `fixtures/corpus/mcp-schemas.json`) behind a runtime whose catalog is deferred, and a scripted
//! model that searches, loads and calls over four turns. Each turn prints what the request
//! carries.
//!
//! Run it with `cargo run --example catalog`.

use std::sync::Arc;

use serde_json::{json, Value};
use toolwire::{
    provider::provider_fn, runtime::CatalogPolicy, Request, ToolDefinition, ToolRuntime, WireFormat,
};

/// The corpus: each server's tools, as the server listed them.
const CORPUS: &str = include_str!("../fixtures/corpus/mcp-schemas.json");

/// The names a request carries, in the order it carries them.
fn carried(request: &Request) -> Vec<String> {
    let list = request.tools(WireFormat::Anthropic).expect("the list fits");
    list.as_array()
        .into_iter()
        .flatten()
        .map(|t| t["name"].as_str().unwrap_or_default().to_owned())
        .collect()
}

fn show_turn(turn: u32, request: &Request) {
    let names = carried(request);
    println!(
        "turn {turn}: the request carries {} of {} tools: {}",
        names.len(),
        request.census().offered().count() + request.census().taken().count(),
        names.join(", ")
    );
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Deferred from the first tool (the default defers past 125 tools; 64 would all travel).
    let runtime = ToolRuntime::builder()
        .catalog(CatalogPolicy::deferred(["mcp/time/get_current_time"]).with_threshold(0))
        .build()?;
    let corpus: Value = serde_json::from_str(CORPUS)?;
    for server in corpus["servers"].as_array().into_iter().flatten() {
        let name = server["server"].as_str().unwrap_or_default().to_owned();
        let tools: Vec<ToolDefinition> = server["tools"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|t| {
                ToolDefinition::new(
                    format!("mcp/{name}/{}", t["name"].as_str().unwrap_or_default()),
                    t["description"].as_str().unwrap_or_default(),
                    t["inputSchema"].clone(),
                )
            })
            .collect();
        // Each tool answers with its own real name and the arguments it got: the script can
        // see exactly which tool a call reached.
        let provider = provider_fn(name, tools, |tool, arguments| async move {
            Ok(json!({"tool": tool, "arguments": arguments}))
        });
        runtime.add_provider(Arc::new(provider)).await?.check()?;
    }
    let conversation = runtime.conversation();

    // Turn 1: the model is asked what a directory holds; it has no such tool yet, so it searches.
    let request = conversation.request();
    show_turn(1, &request);
    let query = json!({"query": "list the files in a directory", "limit": 3});
    let found = request.dispatch("tool_search", query.clone()).await?;
    println!("  model: tool_search {query}");
    for hit in found.output.to_value()["tools"]
        .as_array()
        .into_iter()
        .flatten()
    {
        println!("    -> {} (call it as {})", hit["name"], hit["form"]);
    }
    let form = found.output.to_value()["tools"][0]["form"]
        .as_str()
        .ok_or("no hit")?
        .to_owned();

    // Turn 2: it reads the tool's schema, which loads it into the conversation.
    let request = conversation.request();
    show_turn(2, &request);
    let schema = request
        .dispatch("tool_schema", json!({"name": form}))
        .await?;
    println!(
        "  model: tool_schema {{\"name\": \"{form}\"}} -> {} (required: {}), loaded: {}",
        schema.output.to_value()["name"],
        schema.output.to_value()["parameters"]["required"],
        schema.output.to_value()["loaded"]
    );

    // Turn 3: the tool travels now; the model calls it by the form it was given.
    let request = conversation.request();
    show_turn(3, &request);
    let out = request.dispatch(&form, json!({"path": "/srv"})).await?;
    println!(
        "  model: {form} {{\"path\": \"/srv\"}} -> reached {} ({:?})",
        out.output.to_value()["tool"],
        out.route
    );

    // Then it needs a web page: it searches, and calls the first hit by the real name it read
    // there, without loading it first: exactly that tool answers, and it is loaded too.
    let query = json!({"query": "fetch the contents of a URL", "limit": 1});
    let found = request.dispatch("tool_search", query.clone()).await?;
    let name = found.output.to_value()["tools"][0]["name"]
        .as_str()
        .ok_or("no hit")?
        .to_owned();
    println!("  model: tool_search {query} -> {name}");
    let out = request
        .dispatch(&name, json!({"url": "https://example.com"}))
        .await?;
    println!(
        "  model: {name} {{\"url\": …}} -> reached {} ({:?})",
        out.output.to_value()["tool"],
        out.route
    );

    // Turn 4: done with them; reset_tools unloads both, the pinned tool stays.
    let request = conversation.request();
    show_turn(4, &request);
    let reset = request.dispatch("reset_tools", json!({})).await?;
    println!(
        "  model: reset_tools -> unloaded {}",
        reset.output.to_value()["unloaded"]
    );
    show_turn(5, &conversation.request());
    println!(
        "saved conversation: {}",
        serde_json::to_string(&conversation)?
    );
    Ok(())
}
