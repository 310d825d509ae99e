//! A gateway over a real MCP backend (the fixture server): what its tools list (an
//! `outputSchema`) and answer (every kind of content block, `structuredContent`, an `isError`
//! result with an image) reaches the gateway's client unchanged; a crash alone changes the
//! served list, and its clients hear `list_changed`.

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{CallToolResult, Tool};
use serde_json::{json, Value};
use toolwire_core::mcp::serve::ServeOptions;
use toolwire_core::mcp::{McpCommand, McpProvider};
use toolwire_core::ToolRuntime;
use toolwire_test_support::fixture_server::fixture_server;

use crate::{call, server_with, stdio_client, HANG_BOUND};

/// The fixture server with `args`, as the gateway starts a backend (error results kept).
async fn backend_runtime(args: &[&str]) -> ToolRuntime {
    let command = args.iter().fold(
        McpCommand::new(fixture_server().to_string_lossy()),
        |command, arg| command.arg(*arg),
    );
    let provider = McpProvider::spawn("wx", command)
        .await
        .unwrap()
        .with_call_timeout(Duration::from_secs(60))
        .with_error_results_kept();
    let runtime = ToolRuntime::new();
    // The fixture server lists two tools that share a form (its load says so); the rest serve.
    let _ = runtime.add_provider(Arc::new(provider)).await.unwrap();
    runtime
}

/// What the fixture server itself answers, through rmcp's client with nothing between.
async fn direct(name: &str) -> (Vec<Tool>, CallToolResult) {
    use rmcp::ServiceExt;
    let mut command = tokio::process::Command::new(fixture_server());
    command.arg("--content");
    let transport = rmcp::transport::TokioChildProcess::new(command).unwrap();
    let client = ().serve(transport).await.unwrap();
    let tools = client.list_all_tools().await.unwrap();
    let params = rmcp::model::CallToolRequestParams::new(name.to_owned());
    let result = client.call_tool(params).await.unwrap();
    client.cancel().await.unwrap();
    (tools, result)
}

fn as_json<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap()
}

#[tokio::test]
async fn a_backend_tools_output_schema_content_and_structured_content_pass_through_unchanged() {
    let server = server_with(
        backend_runtime(&["--content"]).await,
        ServeOptions::default(),
    );
    let (client, _changes) = stdio_client(&server).await;
    let (direct_tools, direct_radar) = direct("radar").await;

    let served = client.list_all_tools().await.unwrap();
    let radar = served.iter().find(|t| t.name == "mcp_wx_radar").unwrap();
    let backend_radar = direct_tools.iter().find(|t| t.name == "radar").unwrap();
    let schema = radar
        .output_schema
        .clone()
        .expect("the output schema is served");
    assert_eq!(Some(schema.clone()), backend_radar.output_schema);
    assert_eq!(schema["required"], json!(["city", "rain"]));

    let result = call(&client, "mcp_wx_radar", json!({})).await;
    // Every block (text, image, audio, resource link, embedded resource) and the structured
    // result, exactly as the backend sent them.
    // (`isError: false` and no `isError` say the same: the schema's default is false.)
    assert_eq!(as_json(&result.content), as_json(&direct_radar.content));
    assert_eq!(result.structured_content, direct_radar.structured_content);
    assert_ne!(result.is_error, Some(true));
    assert_eq!(result.content.len(), 5);
    // MCP 2025-06-18: a tool with an outputSchema MUST return conforming structured results;
    // passed through as is, it still conforms.
    let structured = result.structured_content.expect("structured content");
    let validator = jsonschema::validator_for(&Value::Object((*schema).clone())).unwrap();
    assert!(validator.is_valid(&structured), "{structured}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_backend_error_result_reaches_the_client_with_every_block() {
    let server = server_with(
        backend_runtime(&["--content"]).await,
        ServeOptions::default(),
    );
    let (client, _changes) = stdio_client(&server).await;
    let (_, direct_failed) = direct("radar_failed").await;

    let result = call(&client, "mcp_wx_radar_failed", json!({})).await;
    assert_eq!(result.is_error, Some(true));
    // The text and the image beside it: before, the image was lost in a typed error's text.
    let kinds: Vec<Value> = result
        .content
        .iter()
        .map(|b| as_json(b)["type"].clone())
        .collect();
    assert_eq!(kinds, [json!("text"), json!("image")]);
    assert_eq!(as_json(&result.content), as_json(&direct_failed.content));
    assert_eq!(result.structured_content, direct_failed.structured_content);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_crash_alone_withholds_the_backends_tools_and_sends_list_changed() {
    let server = server_with(backend_runtime(&[]).await, ServeOptions::default());
    let (client, mut changes) = stdio_client(&server).await;
    let before: Vec<String> = served_names(&client).await;
    assert!(before.contains(&"mcp_wx_echo".to_owned()), "{before:?}");

    let crashed = call(&client, "mcp_wx_crash", json!({})).await;
    assert_eq!(crashed.is_error, Some(true));
    // The crash marked the backend unreachable: its tools are withheld from the served list,
    // so the client is told, and the next list shows it.
    tokio::time::timeout(HANG_BOUND, changes.recv())
        .await
        .expect("the client hears list_changed after the crash")
        .unwrap();
    assert!(served_names(&client).await.is_empty());
    assert!(server
        .listing()
        .left_out
        .iter()
        .any(|t| t.form == "mcp_wx_echo"));

    // Its next call restarts it: the tools come back, and the client hears that too.
    let echoed = call(&client, "mcp_wx_echo", json!({"text": "back"})).await;
    assert_ne!(echoed.is_error, Some(true), "{echoed:?}");
    tokio::time::timeout(HANG_BOUND, changes.recv())
        .await
        .expect("the client hears list_changed after the restart")
        .unwrap();
    assert_eq!(served_names(&client).await, before);
    client.cancel().await.unwrap();
}

async fn served_names(client: &crate::Client) -> Vec<String> {
    client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.into_owned())
        .collect()
}
