//! Runtime rules that need no server, on a provider of plain in-process tools.

use serde_json::json;
use toolwire_core::{
    census::LeftOutReason,
    runtime::{DispatchError, LoadProblem, LoadStatus},
    ToolError, ToolRuntime,
};
// Each call answers with its provider and tool, except that a tool named `...down` reports its
// own downstream outage.
use toolwire_test_support::providers::echo;

#[tokio::test]
async fn a_switched_off_tool_keeps_its_names_so_no_call_heals_to_another_tool() {
    let runtime = ToolRuntime::new();
    runtime
        .add_provider(echo("a", &["x.y"]))
        .await
        .unwrap()
        .check()
        .unwrap();
    runtime
        .add_provider(echo("b", &["x_y"]))
        .await
        .unwrap()
        .check()
        .unwrap();
    let out = runtime.request().dispatch("x_y", json!({})).await.unwrap();
    assert_eq!(out.output.to_value()["provider"], "b");
    runtime.set_enabled("x_y", false);
    // Turn 2 replays `x_y`: it must not run a's `x.y` through the healing map.
    let err = runtime
        .request()
        .dispatch("x_y", json!({}))
        .await
        .unwrap_err();
    assert_eq!(err, DispatchError::Disabled { tool: "x_y".into() });
    let request = runtime.request();
    assert!(request.census().offered().all(|t| t.name() != "x_y"));
    assert_eq!(
        request
            .census()
            .tools()
            .iter()
            .find(|t| t.name() == "x_y")
            .unwrap()
            .left_out_reason(),
        Some(&LeftOutReason::Withheld)
    );
}

#[tokio::test]
async fn a_tool_error_of_its_own_does_not_take_its_provider_down() {
    let runtime = ToolRuntime::new();
    runtime
        .add_provider(echo("app", &["api_down", "fine"]))
        .await
        .unwrap()
        .check()
        .unwrap();
    let request = runtime.request();
    let err = request.dispatch("api_down", json!({})).await.unwrap_err();
    assert!(
        matches!(err, DispatchError::Tool(ToolError::Unavailable { .. })),
        "{err:?}"
    );
    assert_eq!(runtime.provider_status("app"), Some(LoadStatus::Loaded));
    assert!(runtime.request().dispatch("fine", json!({})).await.is_ok());
}

#[tokio::test]
async fn tool_schema_never_hands_out_the_form_of_a_tool_the_request_does_not_carry() {
    let runtime = ToolRuntime::new();
    let status = runtime
        .add_provider(echo("p", &["mcp/x", "mcp_x", "tool/search"]))
        .await
        .unwrap();
    // Its own two tools share `mcp_x` (`mcp_x` keeps it): a failed load, and said so.
    let problems = status.check().unwrap_err().problems;
    assert_eq!(
        problems,
        [LoadProblem::SharedForm {
            form: "mcp_x".into(),
            tools: vec!["mcp/x".into(), "mcp_x".into()],
        }]
    );
    let request = runtime.request();
    for name in ["mcp/x", "tool/search"] {
        // Left out: no form is handed out for it (its form reaches another tool, or a
        // meta-tool); the model is told why it cannot call it.
        let err = request
            .dispatch("tool_schema", json!({"name": name}))
            .await
            .unwrap_err();
        assert!(
            matches!(&err, DispatchError::Tool(ToolError::InvalidArguments { tool, .. }) if tool == "tool_schema"),
            "{err:?}"
        );
        assert!(
            err.to_string()
                .contains(&format!("tool `{name}` cannot be called")),
            "{err}"
        );
    }
    let out = request
        .dispatch("tool_schema", json!({"name": "mcp_x"}))
        .await
        .unwrap();
    assert_eq!(
        (
            &out.output.to_value()["name"],
            &out.output.to_value()["form"]
        ),
        (&json!("mcp_x"), &json!("mcp_x"))
    );
}
