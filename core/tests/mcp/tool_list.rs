//! What a server says about its tools (title, annotations), a list that changes while the
//! server runs, and the limits on what a list may cost.

use std::sync::Arc;

use serde_json::json;
use toolwire_core::provider::ToolProvider;
use toolwire_core::{
    mcp::{list_tools_of, McpError, McpLimits, McpOptions, McpProvider},
    runtime::{DispatchError, LoadProblem, LoadStatus},
    tools::ToolAnnotations,
    ToolDefinition, ToolError, ToolRuntime,
};

use crate::{assert_search_clash, fixture, fixture_command, HANG_BOUND};

#[tokio::test]
async fn titles_and_annotations_arrive_with_the_definitions() {
    let provider = fixture("said", &["--extras"]).await;
    let tools = provider.list_tools().await.unwrap();
    let titled = tools.iter().find(|t| t.name == "mcp/said/titled").unwrap();
    assert_eq!(titled.title.as_deref(), Some("A Titled Tool"));
    assert_eq!(
        titled.annotations,
        ToolAnnotations {
            read_only_hint: Some(true),
            destructive_hint: Some(false),
            idempotent_hint: Some(true),
            open_world_hint: Some(false),
        }
    );
    assert!(titled.unsupported.is_none());
    let needs_tasks = tools
        .iter()
        .find(|t| t.name == "mcp/said/needs_tasks")
        .expect("still listed");
    assert_eq!(
        needs_tasks.unsupported.as_deref(),
        Some(
            "it requires MCP tasks (execution.taskSupport: required), which toolwire does not run"
        )
    );
    let echo = tools.iter().find(|t| t.name == "mcp/said/echo").unwrap();
    assert!(echo.unsupported.is_none());
    assert_eq!(echo.title, None);
    assert!(echo.annotations.is_empty(), "the server said nothing");
}

#[tokio::test]
async fn a_list_changed_notification_bumps_tools_changed_and_the_new_list_shows() {
    let provider = fixture("live", &["--extras"]).await;
    let mut changed = provider
        .tools_changed()
        .expect("an MCP provider has the signal");
    let before = *changed.borrow_and_update();
    let names =
        |tools: Vec<ToolDefinition>| -> Vec<String> { tools.into_iter().map(|t| t.name).collect() };
    assert!(!names(provider.list_tools().await.unwrap()).contains(&"mcp/live/added_later".into()));
    provider
        .call("mcp/live/change_tools", json!({}))
        .await
        .unwrap();
    tokio::time::timeout(HANG_BOUND, changed.changed())
        .await
        .expect("the notification arrives")
        .unwrap();
    assert_ne!(*changed.borrow_and_update(), before);
    assert!(names(provider.list_tools().await.unwrap()).contains(&"mcp/live/added_later".into()));

    // After a reload (a fresh server, back to its first list) the same receiver still works.
    provider.reload().await.unwrap();
    assert!(!names(provider.list_tools().await.unwrap()).contains(&"mcp/live/added_later".into()));
    provider
        .call("mcp/live/change_tools", json!({}))
        .await
        .unwrap();
    tokio::time::timeout(HANG_BOUND, changed.changed())
        .await
        .expect("the notification arrives after a reload")
        .unwrap();
    assert!(names(provider.list_tools().await.unwrap()).contains(&"mcp/live/added_later".into()));
}

#[tokio::test]
async fn a_list_over_a_limit_fails_only_its_own_load_naming_server_tool_and_limit() {
    let runtime = ToolRuntime::new();
    let status = runtime
        .add_provider(fixture("fine", &[]).await)
        .await
        .unwrap();
    assert_search_clash(&status, "fine");
    let options = |limits: McpLimits| McpOptions {
        limits,
        ..McpOptions::default()
    };
    // Too many tools.
    let many = McpProvider::connect_with(
        "many",
        fixture_command(&["--many-tools", "50"]),
        options(McpLimits {
            max_tools: 20,
            ..McpLimits::default()
        }),
    )
    .await
    .unwrap();
    let status = runtime.add_provider(Arc::new(many)).await.unwrap();
    let LoadStatus::Failed { problems } = &status else {
        panic!("{status:?}")
    };
    let [LoadProblem::Unreachable { reason }] = &problems[..] else {
        panic!("{problems:?}")
    };
    assert!(reason.contains("max_tools (20)"), "{reason}");
    assert!(reason.contains("its tool list"), "{reason}");
    // A description over the default limit (64 KiB), named by tool.
    let huge = McpProvider::spawn("huge", fixture_command(&["--huge-description", "70000"]))
        .await
        .unwrap();
    let status = runtime.add_provider(Arc::new(huge)).await.unwrap();
    let LoadStatus::Failed { problems } = &status else {
        panic!("{status:?}")
    };
    let [LoadProblem::Unreachable { reason }] = &problems[..] else {
        panic!("{problems:?}")
    };
    assert!(reason.contains("tool `huge`"), "{reason}");
    assert!(reason.contains("max_description_bytes (65536)"), "{reason}");
    assert!(reason.contains("(70000)"), "{reason}");
    // A schema over a (lowered) limit, from the one-shot listing.
    let err = list_tools_of(
        &fixture_command(&[]).into(),
        &options(McpLimits {
            max_schema_bytes: 10,
            ..McpLimits::default()
        }),
    )
    .await
    .unwrap_err();
    assert!(
        matches!(&err, McpError::TooLarge { limit, .. } if limit == "max_schema_bytes"),
        "{err:?}"
    );
    // The other provider of the runtime is unaffected.
    assert_eq!(
        runtime.provider_status("mcp/fine"),
        Some(LoadStatus::Failed {
            problems: vec![LoadProblem::SharedForm {
                form: "mcp_fine_search_web".into(),
                tools: vec!["mcp/fine/search.web".into(), "mcp/fine/search_web".into()],
            }]
        })
    );
    let out = runtime
        .request()
        .dispatch("mcp_fine_echo", json!({"n": 1}))
        .await
        .unwrap();
    assert_eq!(out.output.to_value()["arguments"]["n"], 1);
    // Within the limits, the same servers load.
    let many = McpProvider::spawn("many_ok", fixture_command(&["--many-tools", "50"]))
        .await
        .unwrap();
    assert!(many.list_tools().await.unwrap().len() > 50);
}

#[tokio::test]
async fn a_stdio_message_over_16_mib_ends_the_connection_at_once_and_says_why() {
    // The listing answer carries a 17 MB description: over the bound of one message, so the
    // listing fails now (not by its timeout), saying why.
    let provider = fixture("flood", &["--huge-description", "17000000"]).await;
    let err = tokio::time::timeout(HANG_BOUND, provider.list_tools())
        .await
        .expect("fails at once")
        .unwrap_err();
    assert!(err.reason.contains("over 16777216 bytes"), "{err}");
    assert!(provider.is_failed());
}

#[tokio::test]
async fn a_server_invalid_params_error_is_invalid_arguments_with_its_message() {
    let provider = fixture("params", &[]).await;
    let err = provider
        .call("mcp/params/files/read", json!({}))
        .await
        .unwrap_err();
    assert_eq!(
        err,
        ToolError::InvalidArguments {
            tool: "mcp/params/files/read".into(),
            argument: None,
            reason: "files/read needs a string argument `path`".into(),
        }
    );
    assert!(!provider.is_failed(), "the server is fine");
}

#[tokio::test]
async fn a_server_whose_tools_change_mid_conversation_never_gets_a_call_meant_for_another() {
    let runtime = ToolRuntime::new();
    let status = runtime
        .add_provider(fixture("live", &["--extras"]).await)
        .await
        .unwrap();
    assert_search_clash(&status, "live");
    let conversation = runtime.conversation();
    let mut changes = runtime.tool_set_changes();
    changes.mark_unchanged();

    // Turn 1: the model calls two tools by form; one of them changes the server's list.
    let first = conversation.request();
    let out = first
        .dispatch("mcp_live_whereami", json!({}))
        .await
        .unwrap();
    assert_eq!(out.tool, "mcp/live/whereami");
    let out = first
        .dispatch("mcp_live_change_tools", json!({}))
        .await
        .unwrap();
    assert_eq!(out.output.to_value()["tool"], "change_tools");
    // The server's notifications/tools/list_changed makes the runtime list again.
    tokio::time::timeout(HANG_BOUND, changes.changed())
        .await
        .expect("the runtime follows the server's list change")
        .unwrap();

    // Turn 2: the census is the new list.
    let second = conversation.request();
    let offered: Vec<&str> = second.census().offered().map(|t| t.name()).collect();
    assert!(offered.contains(&"mcp/live/added_later"), "{offered:?}");
    assert!(!offered.contains(&"mcp/live/whereami"), "{offered:?}");
    // A tool gone from the server: every old name of it fails as unknown.
    for old in ["mcp_live_whereami", "mcp/live/whereami"] {
        let err = second.dispatch(old, json!({})).await.unwrap_err();
        assert!(
            matches!(&err, DispatchError::UnknownTool { called, .. } if called == old),
            "{old}: {err:?}"
        );
    }
    // A form a newcomer now shares (`change/tools`): it answers to no tool, never a guess;
    // by real name each reaches exactly itself.
    let err = second
        .dispatch("mcp_live_change_tools", json!({}))
        .await
        .unwrap_err();
    assert!(matches!(err, DispatchError::SharedForm { .. }), "{err:?}");
    for (called, bare) in [
        ("mcp/live/change/tools", "change/tools"),
        ("mcp/live/added_later", "added_later"),
        ("mcp_live_echo", "echo"),
    ] {
        let out = second.dispatch(called, json!({})).await.unwrap();
        assert_eq!(out.output.to_value()["tool"], bare, "{called}");
    }
}
