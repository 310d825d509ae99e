//! A real server's tools: the census of its hard names, dispatch by either name, typed errors,
//! bad listings.

use serde_json::json;
use toolwire_core::{
    census::LeftOutReason,
    mcp::{list_server_tools, McpCommand, McpError, McpProvider},
    model_safe_name,
    names::DEFAULT_META_TOOLS,
    runtime::report::ReportStatus,
    runtime::{DispatchError, LoadProblem, LoadStatus, Route},
    wire::{check_definition_name, LlmProvider},
    ToolError, ToolRuntime, WireFormat,
};

use crate::{assert_search_clash, fixture, fixture_server, runtime_with, status_of, LONG};

#[tokio::test]
async fn census_of_a_real_server_with_hard_names() {
    let runtime = ToolRuntime::new();
    let status = runtime
        .add_provider(fixture("hard", &[]).await)
        .await
        .unwrap();
    // `search.web` and `search_web` travel as one form: the provider's load is failed, naming both.
    let LoadStatus::Failed { problems } = &status else {
        panic!("{status:?}")
    };
    assert_eq!(
        problems,
        &[LoadProblem::SharedForm {
            form: "mcp_hard_search_web".into(),
            tools: vec!["mcp/hard/search.web".into(), "mcp/hard/search_web".into()],
        }]
    );
    let request = runtime.request();
    let offered: Vec<&str> = request.census().offered().map(|t| t.form()).collect();
    assert!(offered.contains(&"mcp_hard_files_read"));
    assert!(
        offered.contains(&"mcp_hard_tool_search"),
        "prefixed, it is no meta-tool"
    );
    assert!(!offered.contains(&"mcp_hard_search_web"));
    assert_eq!(LONG.chars().count(), 70);
    let long_form = model_safe_name(&format!("mcp/hard/{LONG}")).into_owned();
    assert_eq!(long_form.len(), 64);
    assert!(offered.contains(&long_form.as_str()));

    // Converse refuses an empty description: the undescribed tool still travels, verbatim.
    let converse = request.tools(WireFormat::Converse).unwrap();
    let names: Vec<&str> = converse
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["toolSpec"]["name"].as_str().unwrap())
        .collect();
    // Every offered tool, and none of the catalog's own: nothing is deferred.
    assert!(
        names.iter().all(|n| !DEFAULT_META_TOOLS.contains(n)),
        "{names:?}"
    );
    assert_eq!(names.len(), offered.len());
    // Beside the JSON, what the list left out and why: the two tools sharing a form.
    let left_out: Vec<(&str, &str)> = (converse.left_out().iter())
        .map(|t| (t.name.as_str(), t.reason.key()))
        .collect();
    assert_eq!(
        left_out,
        [
            ("mcp/hard/search.web", "shares_form"),
            ("mcp/hard/search_web", "shares_form")
        ]
    );
    for name in names {
        assert_eq!(check_definition_name(LlmProvider::Converse, name), Ok(()));
    }

    let report = runtime.report();
    assert_eq!(
        status_of(&report, "mcp/hard/search.web").status,
        ReportStatus::LeftOut
    );
    assert_eq!(
        status_of(&report, "mcp/hard/files/read").status,
        ReportStatus::Offered
    );
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["providers"][0]["status"]["state"], "failed");
    assert_eq!(
        json["providers"][0]["status"]["problems"][0]["kind"],
        "shared_form"
    );
}

#[tokio::test]
async fn a_call_by_real_name_and_by_form_reach_the_same_server_tool() {
    let runtime = runtime_with(&["hard"]).await;
    let request = runtime.request();
    for (called, route) in [
        ("mcp/hard/files/read", Route::Exact),
        ("mcp_hard_files_read", Route::Form),
    ] {
        let out = request
            .dispatch(called, json!({"path": "/etc/hosts"}))
            .await
            .unwrap();
        assert_eq!(out.tool, "mcp/hard/files/read");
        assert_eq!(out.route, route);
        assert_eq!(out.provider, "mcp/hard");
        assert_eq!(
            out.output.to_value()["tool"],
            "files/read",
            "the server saw its own bare name"
        );
        assert_eq!(out.output.to_value()["arguments"]["path"], "/etc/hosts");
    }
    // The 70-character tool by its 64-character form.
    let long_form = model_safe_name(&format!("mcp/hard/{LONG}")).into_owned();
    let out = request.dispatch(&long_form, json!({})).await.unwrap();
    assert_eq!(out.output.to_value()["tool"], LONG);
    // The two tools that share a form: each by its exact name, never by the form.
    let out = request
        .dispatch("mcp/hard/search_web", json!({"query": "q"}))
        .await
        .unwrap();
    assert_eq!(out.output.to_value()["tool"], "search_web");
    let out = request
        .dispatch("mcp/hard/search.web", json!({"query": "q"}))
        .await
        .unwrap();
    assert_eq!(out.output.to_value()["tool"], "search.web");
    let err = request
        .dispatch("mcp_hard_search_web", json!({}))
        .await
        .unwrap_err();
    // Issue 17, point 7: the error names the tools that share the form and says to call one by
    // its real name (which reaches it exactly, above), not "unknown" with unrelated suggestions.
    assert_eq!(
        err,
        DispatchError::SharedForm {
            called: "mcp_hard_search_web".into(),
            tools: vec!["mcp/hard/search.web".into(), "mcp/hard/search_web".into()],
        }
    );
    let message = err.to_string();
    assert!(
        message.contains("`mcp/hard/search.web`, `mcp/hard/search_web`"),
        "{message}"
    );
    assert!(message.contains("by its real name"), "{message}");
}

#[tokio::test]
async fn an_sdk_input_validation_error_result_is_invalid_arguments_in_the_servers_words() {
    // Issue 17, point 8: the TypeScript and Python SDKs answer bad arguments with an isError
    // result, not a JSON-RPC error; both public servers' bad-argument calls came back Failed.
    let runtime = ToolRuntime::new();
    let status = runtime
        .add_provider(fixture("sdk", &["--sdk-validation"]).await)
        .await
        .unwrap();
    assert_search_clash(&status, "sdk");
    let request = runtime.request();
    let err = request
        .dispatch("mcp_sdk_validated", json!({"count": "three"}))
        .await
        .unwrap_err();
    let DispatchError::Tool(ToolError::InvalidArguments {
        tool,
        argument,
        reason,
    }) = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!((tool.as_str(), argument), ("mcp/sdk/validated", &None));
    // The SDK's words that only say "bad arguments" are left out: the error says so once.
    assert!(reason.contains(r#""path": ["count"]"#), "{reason}");
    let said = err.to_string();
    assert!(
        said.starts_with("bad arguments for tool `mcp/sdk/validated`: ")
            && !said.contains("Invalid arguments for tool")
            && !said.contains("-32602"),
        "{said}"
    );
    // Good arguments reach the tool; another isError text is still the tool's failure.
    let out = request
        .dispatch("mcp_sdk_validated", json!({"count": 3}))
        .await
        .unwrap();
    assert_eq!(out.output.to_value()["arguments"]["count"], 3);
    let err = request
        .dispatch("mcp_sdk_fail", json!({}))
        .await
        .unwrap_err();
    assert!(
        matches!(err, DispatchError::Tool(ToolError::Failed { .. })),
        "{err:?}"
    );
}

#[tokio::test]
async fn bad_arguments_and_tool_errors_are_typed_and_name_the_tool() {
    let runtime = runtime_with(&["hard"]).await;
    let request = runtime.request();
    let err = request
        .dispatch_json("mcp_hard_files_read", "{not json")
        .await
        .unwrap_err();
    let DispatchError::Tool(ToolError::InvalidArguments { tool, reason, .. }) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(tool, "mcp/hard/files/read");
    assert!(reason.contains("not valid JSON"));
    // Issue 17, point 9: what the model reads names the tool as it called it, never by the
    // real name it was never shown.
    let for_model = err.for_model("mcp_hard_files_read");
    assert!(
        for_model.contains("tool `mcp_hard_files_read`") && !for_model.contains("files/read"),
        "{for_model}"
    );
    assert!(for_model.contains("not valid JSON"), "{for_model}");

    let err = request
        .dispatch("mcp_hard_files_read", json!([1]))
        .await
        .unwrap_err();
    assert!(matches!(
        err,
        DispatchError::Tool(ToolError::InvalidArguments { .. })
    ));

    // The server refuses a call without `path`: a tool error, and the server keeps working.
    let err = request
        .dispatch("mcp_hard_files_read", json!({}))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("`mcp/hard/files/read`"), "{err}");
    assert!(err.to_string().contains("path"), "{err}");
    let err = request
        .dispatch("mcp/hard/fail", json!({}))
        .await
        .unwrap_err();
    assert_eq!(
        err,
        DispatchError::Tool(ToolError::Failed {
            tool: "mcp/hard/fail".into(),
            message: "this tool always fails".into()
        })
    );
    let err = request
        .dispatch("mcp_hard_files_raed", json!({}))
        .await
        .unwrap_err();
    let DispatchError::UnknownTool { closest, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(closest[0], "mcp_hard_files_read");
    assert!(request.dispatch("mcp/hard/echo", json!({})).await.is_ok());
}

#[tokio::test]
async fn a_server_listing_duplicate_and_empty_names_fails_its_load_but_serves_the_rest() {
    let runtime = ToolRuntime::new();
    let status = runtime
        .add_provider(fixture("bad", &["--bad-names"]).await)
        .await
        .unwrap();
    let LoadStatus::Failed { problems } = status else {
        panic!()
    };
    assert!(problems.contains(&LoadProblem::DuplicateName {
        name: "mcp/bad/echo".into()
    }));
    assert!(problems.contains(&LoadProblem::EmptyName), "{problems:?}");
    let census = runtime.request();
    assert_eq!(
        census
            .census()
            .tools()
            .iter()
            .filter(|t| t.name() == "mcp/bad/echo")
            .count(),
        2
    );
    assert_eq!(
        census
            .census()
            .offered()
            .filter(|t| t.name() == "mcp/bad/echo")
            .count(),
        1
    );
    assert!(census
        .census()
        .tools()
        .iter()
        .any(|t| t.left_out_reason() == Some(&LeftOutReason::EmptyName)));
    // The report shows each listed tool once, in order: the second `echo` as the duplicate.
    let echoes: Vec<ReportStatus> = runtime
        .report()
        .tools
        .iter()
        .filter(|t| t.name == "mcp/bad/echo")
        .map(|t| t.status)
        .collect();
    assert_eq!(echoes, [ReportStatus::Offered, ReportStatus::LeftOut]);
    assert!(runtime
        .request()
        .dispatch("mcp_bad_files_read", json!({"path": "x"}))
        .await
        .is_ok());
}

#[tokio::test]
async fn an_unstartable_server_is_a_typed_error() {
    let err = McpProvider::spawn("nope", McpCommand::new("/nonexistent/mcp-server"))
        .await
        .unwrap_err();
    assert_eq!(err.provider, "mcp/nope");
    assert!(err.to_string().contains("/nonexistent/mcp-server"), "{err}");
    let err = list_server_tools("/nonexistent/mcp-server", &[])
        .await
        .unwrap_err();
    assert!(matches!(err, McpError::Spawn { .. }));
}

#[tokio::test]
async fn list_server_tools_gives_bare_names() {
    let tools = list_server_tools(&fixture_server().to_string_lossy(), &[])
        .await
        .unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    for name in [
        "search.web",
        "search_web",
        "files/read",
        "tool_search",
        LONG,
        "undescribed",
    ] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    let undescribed = tools.iter().find(|t| t.name == "undescribed").unwrap();
    assert_eq!(undescribed.description, "");
}

#[tokio::test]
async fn a_32602_for_a_tool_the_server_does_not_know_is_not_bad_arguments_and_marks_its_list_stale()
{
    // MCP answers an unknown tool with -32602 too (2025-11-25, "Tools" -> "Error Handling"):
    // the fixture says the spec's `Unknown tool: NAME` for a name it does not list.
    use toolwire_core::provider::ToolProvider;
    let provider = fixture("fx", &[]).await;
    let mut changed = provider.tools_changed().unwrap();
    changed.borrow_and_update();
    let err = provider.call("mcp/fx/gone", json!({})).await.unwrap_err();
    let ToolError::Unavailable { tool, reason, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(tool, "mcp/fx/gone");
    assert_eq!(
        err.to_string(),
        format!("tool `mcp/fx/gone` is unavailable: provider `mcp/fx` {reason}")
    );
    assert_eq!(
        reason,
        "has no such tool: its server answered `Unknown tool: gone`; its tool list is marked to be read again"
    );
    // The change signal a runtime re-lists on has fired, by the time the call returned.
    assert!(changed.has_changed().unwrap(), "the list is marked stale");
}

#[tokio::test]
async fn a_32602_for_bad_arguments_is_bad_arguments_and_leaves_the_list_alone() {
    use toolwire_core::provider::ToolProvider;
    let provider = fixture("fx", &[]).await;
    let mut changed = provider.tools_changed().unwrap();
    changed.borrow_and_update();
    let err = provider
        .call("mcp/fx/files/read", json!({}))
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "bad arguments for tool `mcp/fx/files/read`: files/read needs a string argument `path`"
    );
    assert!(!changed.has_changed().unwrap());
}
