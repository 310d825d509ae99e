//! toolwire's main job in one run: three `#[tool]` functions (one whose real name no provider
//! accepts), the census of their names, the tool list on the wire for OpenAI, the Messages API,
//! Bedrock Converse and Gemini (each schema prepared for its dialect), and calls dispatched
//! back: by real name and by form.
//!
//! Run it with `cargo run --example quickstart`.

use std::sync::atomic::{AtomicU32, Ordering};

use serde_json::json;
use toolwire::{
    census::Resolution, names::DEFAULT_META_TOOLS, registered_tools, tool, wire::wire_tools,
    AppState, Census, State, ToolDefinition, WireFormat,
};

/// Gets the weather for a city.
#[tool]
fn get_weather(
    /// The city, e.g. "Paris".
    city: String,
    /// How many days ahead (0 is today).
    days: Option<u8>,
) -> String {
    format!("sunny in {city}, {} day(s) ahead", days.unwrap_or(0))
}

/// Reads a file of the shared drive. Its real name has `/`, which no provider accepts: it
/// travels as `files_read`.
#[tool(name = "files/read")]
async fn read_file(path: String) -> Result<String, std::io::Error> {
    if path.contains("..") {
        return Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            "paths may not leave the drive",
        ));
    }
    Ok(format!("contents of {path}"))
}

/// Counts this app's visitors (the counter is app state, not an argument).
#[tool]
fn count_visit(visits: State<AtomicU32>) -> u32 {
    visits.fetch_add(1, Ordering::SeqCst) + 1
}

#[tokio::main]
async fn main() {
    let tools = registered_tools();
    let definitions: Vec<ToolDefinition> = tools.iter().map(|t| t.definition()).collect();
    let census = Census::build(tools.iter().map(|t| t.name), &DEFAULT_META_TOOLS);

    println!("== census (hop 1): real name -> form, status");
    for tool in census.tools() {
        let status = match tool.left_out_reason() {
            None => "offered".to_owned(),
            Some(reason) => format!("left out: {reason}"),
        };
        println!("  {:<14} -> {:<14} {status}", tool.name(), tool.form());
    }

    // Each schema is prepared for its dialect: as it is where the dialect takes it, rewritten
    // where not (Gemini has no type arrays: `Option<u8>` travels as `nullable`).
    for (title, format) in [
        ("OpenAI", WireFormat::OpenAi),
        ("Messages API", WireFormat::Anthropic),
        ("Bedrock Converse", WireFormat::Converse),
        ("Gemini", WireFormat::Gemini),
    ] {
        let wire =
            wire_tools(&census, &definitions, format).expect("the census is of these definitions");
        println!("\n== {title} tools (hops 2-3)");
        println!("{}", serde_json::to_string_pretty(&wire).expect("JSON"));
        // What the list does not carry, and why (a form or a schema the provider refuses...).
        for left_out in wire.left_out() {
            println!("  {left_out}");
        }
    }

    let state = AppState::new().with(AtomicU32::new(0));
    println!("\n== dispatch (hop 5)");
    for (called, arguments) in [
        ("files/read", json!({"path": "notes.txt"})),
        ("files_read", json!({"path": "notes.txt"})),
        ("get_weather", json!({"city": "Paris"})),
        ("count_visit", json!({})),
        ("files_read", json!({"path": "../etc/passwd"})),
        ("files_read", json!({"file": "notes.txt"})),
    ] {
        let hit = match census.resolve(called) {
            Ok(Resolution::Tool(hit)) => hit,
            Ok(Resolution::Meta(meta)) => {
                println!("  {called}: the runtime's meta-tool `{meta}`");
                continue;
            }
            Err(unknown) => {
                println!("  {called}: {unknown}");
                continue;
            }
            // Resolution is #[non_exhaustive]: an answer this example does not know is no call.
            Ok(_) => continue,
        };
        let outcome = tools[hit.index].call(arguments, state.clone()).await;
        let shown = match outcome {
            Ok(value) => value.to_string(),
            Err(error) => format!("error: {error}"),
        };
        println!(
            "  {called} -> `{}` (via {}): {shown}",
            hit.name,
            hit.via.key()
        );
    }
}
