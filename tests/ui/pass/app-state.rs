use std::sync::atomic::{AtomicU32, Ordering};

use toolwire::{AppState, State};

struct Visits(AtomicU32);

/// Counts visits; the counter is app state, not an argument.
#[toolwire::tool]
fn visit(visits: State<Visits>, who: String) -> String {
    let n = visits.0.0.fetch_add(1, Ordering::SeqCst) + 1;
    format!("{who} is visitor {n}")
}

fn main() {
    let tool = toolwire::registered_tools()[0];
    assert_eq!((tool.schema)()["properties"], serde_json::json!({"who": {"type": "string"}}));
    let state = AppState::new().with(Visits(AtomicU32::new(0)));
    let out = futures::executor::block_on(tool.call(serde_json::json!({"who": "ana"}), state));
    assert_eq!(out, Ok(serde_json::json!("ana is visitor 1")));
    let missing = futures::executor::block_on(tool.call(serde_json::json!({"who": "bo"}), AppState::new()));
    assert!(matches!(missing, Err(toolwire::ToolError::MissingState { .. })));
}
