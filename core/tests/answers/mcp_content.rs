//! An MCP tool's output keeps its kind through a real rmcp server (the fixture server's
//! `radar`): every block, its structured result, to each format as the format can carry it.

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use toolwire_core::mcp::{call_tool_result, tool_output, McpCommand, McpProvider};
use toolwire_core::runtime::DispatchError;
use toolwire_core::tools::{ContentBlock, ToolOutput};
use toolwire_core::wire::answers::write_answers;
use toolwire_core::wire::calls::CallFormat;
use toolwire_core::{ToolError, ToolRuntime};
use toolwire_test_support::fixture_server::fixture_server;

use super::call;

const PNG: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4//8/AAX+Av6n1qQsAAAAAElFTkSuQmCC";

async fn radar_runtime() -> ToolRuntime {
    let command = McpCommand::new(fixture_server().to_string_lossy()).arg("--content");
    let provider = McpProvider::spawn("wx", command)
        .await
        .unwrap()
        .with_call_timeout(Duration::from_secs(60));
    let runtime = ToolRuntime::new();
    // The fixture server lists two tools that share a form (its load says so); the rest serve.
    let _ = runtime.add_provider(Arc::new(provider)).await.unwrap();
    runtime
}

#[tokio::test]
async fn an_mcp_tools_blocks_and_structured_content_stay_distinct() {
    let runtime = radar_runtime().await;
    let calls = [call(Some("toolu_1"), "mcp_wx_radar", json!({}))];
    let answers = runtime.request().answer_calls(&calls).await;
    let ToolOutput::Content(content) = answers[0].output().unwrap() else {
        panic!("{:?}", answers[0]);
    };
    let kinds: Vec<&str> = content.content.iter().map(ContentBlock::kind).collect();
    assert_eq!(
        kinds,
        ["text", "image", "audio", "resource_link", "resource"]
    );
    assert_eq!(content.content[1], ContentBlock::image(PNG, "image/png"));
    assert_eq!(
        content.structured,
        Some(json!({"city": "Paris", "rain": true}))
    );
    assert!(!content.is_error);

    // Back to MCP without loss (what a server serving it gives its client).
    let again = tool_output(&call_tool_result(answers[0].output().unwrap()));
    assert_eq!(&again, answers[0].output().unwrap());

    // The image travels as an image where the format takes one, as words where not.
    let anthropic = write_answers(CallFormat::Anthropic, &answers).messages;
    let blocks = &anthropic[0]["content"][0]["content"];
    assert_eq!(
        blocks[1],
        json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}})
    );
    let chat = write_answers(CallFormat::OpenAiChat, &answers);
    let text = chat.messages[0].to_string();
    assert!(
        !text.contains(PNG) && text.contains("an image (image/png, 69 bytes)"),
        "{text}"
    );
}

#[tokio::test]
async fn an_mcp_error_result_is_an_error_answer() {
    let runtime = radar_runtime().await;
    let calls = [call(Some("toolu_1"), "mcp_wx_radar_failed", json!({}))];
    let answers = runtime.request().answer_calls(&calls).await;
    // An isError result stays a typed tool error of the call (as before outputs kept their
    // kind): its text is what the model reads.
    assert_eq!(
        answers[0].result,
        Err(DispatchError::Tool(ToolError::Failed {
            tool: "mcp/wx/radar_failed".into(),
            message: "the radar is down".into()
        }))
    );
    let converse = write_answers(CallFormat::Converse, &answers).messages;
    let result = &converse[0]["content"][0]["toolResult"];
    assert_eq!(result["status"], "error");
    assert_eq!(
        result["content"],
        json!([{"text": "tool `mcp_wx_radar_failed` failed: the radar is down"}])
    );
}
