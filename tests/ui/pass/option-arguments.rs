/// Searches.
#[toolwire::tool]
fn search(
    /// What to look for.
    query: String,
    /// At most this many results.
    limit: Option<u32>,
) -> String {
    format!("{query}:{}", limit.unwrap_or(10))
}

fn main() {
    let tool = toolwire::registered_tools()[0];
    let schema = (tool.schema)();
    assert_eq!(schema["required"], serde_json::json!(["query"]));
    assert_eq!(schema["properties"]["limit"]["description"], "At most this many results.");
    let out = futures::executor::block_on(tool.call(serde_json::json!({"query": "rust"}), Default::default()));
    assert_eq!(out, Ok(serde_json::json!("rust:10")));
}
