//! A `-32602` "Unknown tool" from a server whose list changed without telling anyone
//! (`--quiet-change`: no `notifications/tools/list_changed`) marks the provider's list stale
//! (`McpProvider`'s change signal, `core/src/mcp/provider.rs` `no_such_tool`), and the runtime
//! lists the server's tools again: the tool is gone from the next request's tools, and the
//! tools the server lists now are in it. MCP 2025-11-25 answers an unknown tool with `-32602`
//! ("Tools" -> "Error Handling":
//! <https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling>).
//! The provider's own side (the `-32602` read as "no such tool", the signal fired by the time
//! the call returns) is `server.rs`'s
//! `a_32602_for_a_tool_the_server_does_not_know_is_not_bad_arguments_and_marks_its_list_stale`;
//! this is the runtime's: its tool set changes once the new listing is in.
//! A server that answers it with an `isError` result instead (the Python SDK's), through a
//! provider that keeps error results (a gateway's), has its result kept as it came and its list
//! marked stale all the same (issue 28, point 4).

use std::sync::Arc;

use serde_json::json;
use toolwire_core::mcp::McpProvider;
use toolwire_core::runtime::DispatchError;
use toolwire_core::tools::ToolOutput;
use toolwire_core::{ToolError, ToolRuntime, WireFormat};

use crate::{assert_search_clash, fixture, fixture_command, HANG_BOUND};

/// The function names of the next Chat Completions list.
fn listed(runtime: &ToolRuntime) -> Vec<String> {
    let list = runtime.request().tools(WireFormat::OpenAi).unwrap();
    let names = list.as_array().unwrap().iter();
    names
        .map(|tool| tool["function"]["name"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn an_unknown_tool_answer_makes_the_runtime_list_again_without_the_tool() {
    let runtime = ToolRuntime::new();
    let status = runtime
        .add_provider(fixture("quiet", &["--extras", "--quiet-change"]).await)
        .await
        .unwrap();
    assert_search_clash(&status, "quiet");
    let mut changes = runtime.tool_set_changes();
    changes.mark_unchanged();
    // The server's list changes, and it says nothing: the runtime still offers `whereami`.
    let request = runtime.request();
    request
        .dispatch("mcp_quiet_change_tools", json!({}))
        .await
        .unwrap();
    let before = listed(&runtime);
    assert!(
        before.contains(&"mcp_quiet_whereami".to_owned()),
        "{before:?}"
    );
    assert!(
        !before.contains(&"mcp_quiet_added_later".to_owned()),
        "{before:?}"
    );
    assert!(!changes.has_changed().unwrap(), "no change announced");
    // The model calls it: the server answers -32602 Unknown tool.
    let err = request
        .dispatch("mcp_quiet_whereami", json!({}))
        .await
        .unwrap_err();
    let DispatchError::Tool(ToolError::Unavailable { tool, reason, .. }) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(tool, "mcp/quiet/whereami");
    assert!(reason.contains("Unknown tool: whereami"), "{reason}");
    // The runtime lists the server's tools again, on the provider's change signal.
    tokio::time::timeout(HANG_BOUND, changes.changed())
        .await
        .expect("the runtime lists the stale provider again")
        .unwrap();
    let after = listed(&runtime);
    assert!(
        !after.contains(&"mcp_quiet_whereami".to_owned()),
        "{after:?}"
    );
    assert!(
        after.contains(&"mcp_quiet_added_later".to_owned()),
        "{after:?}"
    );
    // And a call by the old name is unknown now, before any server is asked.
    let err = runtime
        .request()
        .dispatch("mcp_quiet_whereami", json!({}))
        .await
        .unwrap_err();
    assert!(matches!(err, DispatchError::UnknownTool { .. }), "{err:?}");
}

#[tokio::test]
async fn an_unknown_tool_error_result_kept_for_the_client_still_marks_the_list_stale() {
    let provider = McpProvider::spawn(
        "quiet",
        fixture_command(&["--extras", "--quiet-change", "--unknown-as-error"]),
    )
    .await
    .expect("the fixture server starts")
    .with_call_timeout(HANG_BOUND)
    .with_error_results_kept();
    let runtime = ToolRuntime::new();
    let status = runtime.add_provider(Arc::new(provider)).await.unwrap();
    assert_search_clash(&status, "quiet");
    let mut changes = runtime.tool_set_changes();
    changes.mark_unchanged();
    let request = runtime.request();
    request
        .dispatch("mcp_quiet_change_tools", json!({}))
        .await
        .unwrap();
    assert!(listed(&runtime).contains(&"mcp_quiet_whereami".to_owned()));
    assert!(!changes.has_changed().unwrap(), "no change announced");
    // The server answers with an isError result: kept as it came, not turned into an error.
    let outcome = request
        .dispatch("mcp_quiet_whereami", json!({}))
        .await
        .expect("the error result is kept");
    let ToolOutput::Content(content) = &outcome.output else {
        panic!("{:?}", outcome.output)
    };
    assert!(content.is_error, "{content:?}");
    assert_eq!(
        serde_json::to_value(&content.content).unwrap(),
        json!([{"type": "text", "text": "Unknown tool: whereami"}])
    );
    // And its words still say the list is stale: the runtime lists the server again.
    tokio::time::timeout(HANG_BOUND, changes.changed())
        .await
        .expect("the runtime lists the stale provider again")
        .unwrap();
    let after = listed(&runtime);
    assert!(
        !after.contains(&"mcp_quiet_whereami".to_owned()),
        "{after:?}"
    );
    assert!(
        after.contains(&"mcp_quiet_added_later".to_owned()),
        "{after:?}"
    );
}
