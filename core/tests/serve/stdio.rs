//! A session over a stdio-like byte stream: names, hop 5, paging, failures, `list_changed`.

use rmcp::model::{ErrorCode, PaginatedRequestParams};
use serde_json::json;
use toolwire_core::census::{LeftOutReason, NameBudget};
use toolwire_core::mcp::serve::{is_mcp_tool_name, ServeOptions};
use toolwire_core::wire::{check_definition_name, LlmProvider, WhyLeftOut};

use crate::{answer, call, clashing_runtime, server_with, stdio_client, tools_of, HANG_BOUND};

#[tokio::test]
async fn every_served_name_is_valid_everywhere_and_reaches_exactly_its_tool() {
    let budget = NameBudget::new(40).unwrap();
    let options = ServeOptions::default().budget(budget).page_size(2);
    let server = server_with(clashing_runtime().await, options);
    let (client, _) = stdio_client(&server).await;
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| &*t.name).collect();
    assert_eq!(
        names,
        [
            "github_list_pull_request_review_comments",
            "fail",
            "github_list_pull_request_reviews"
        ]
    );
    for tool in &tools {
        assert!(is_mcp_tool_name(&tool.name), "{}", tool.name);
        assert!(tool.name.len() <= 40);
        for provider in LlmProvider::ALL {
            assert_eq!(check_definition_name(provider, &tool.name), Ok(()));
        }
        assert_eq!(tool.input_schema["properties"]["x"]["type"], "integer");
        assert!(tool
            .description
            .as_deref()
            .unwrap()
            .starts_with("The tool "));
    }
    // By served name and by real name, each call reaches exactly its tool.
    for (called, real) in [
        (
            "github_list_pull_request_review_comments",
            "github/list_pull_request_review_comments",
        ),
        (
            "github/list_pull_request_reviews",
            "github/list_pull_request_reviews",
        ),
        ("files/read", "files/read"),
        ("files.read", "files.read"),
    ] {
        let result = call(&client, called, json!({"x": 1})).await;
        assert_eq!(answer(&result)["tool"], real, "{called}");
        assert_eq!(answer(&result)["arguments"], json!({"x": 1}));
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn tools_list_is_paged_with_next_cursor_and_a_bad_cursor_is_invalid_params() {
    let server = server_with(
        clashing_runtime().await,
        ServeOptions::default().page_size(2),
    );
    let (client, _) = stdio_client(&server).await;
    let first = client.list_tools(None).await.unwrap();
    assert_eq!(first.tools.len(), 2);
    let cursor = first.next_cursor.clone().expect("a second page");
    let second = client
        .list_tools(Some(
            PaginatedRequestParams::default().with_cursor(Some(cursor)),
        ))
        .await
        .unwrap();
    assert!(second.next_cursor.is_none());
    assert_eq!(first.tools.len() + second.tools.len(), 3);
    let bad = client
        .list_tools(Some(
            PaginatedRequestParams::default().with_cursor(Some("nine".into())),
        ))
        .await
        .unwrap_err();
    let rmcp::service::ServiceError::McpError(bad) = bad else {
        panic!("{bad:?}")
    };
    assert_eq!(bad.code, ErrorCode::INVALID_PARAMS);
    client.cancel().await.unwrap();
}

#[test]
fn the_listing_says_what_is_left_out_and_why_with_the_budget_named() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let listing = runtime.block_on(async {
        let options = ServeOptions::default().budget(NameBudget::new(30).unwrap());
        server_with(clashing_runtime().await, options).listing()
    });
    let reasons: Vec<(&str, &str)> = listing
        .left_out
        .iter()
        .map(|t| (t.name.as_str(), t.reason.key()))
        .collect();
    assert_eq!(
        reasons,
        [
            ("files/read", "shares_form"),
            ("github/list_pull_request_review_comments", "budget_clash"),
            ("files.read", "shares_form"),
            ("github/list_pull_request_reviews", "budget_clash"),
            ("3d/render", "form_refused"),
        ]
    );
    let WhyLeftOut::Census(LeftOutReason::BudgetClash { budget, .. }) = &listing.left_out[1].reason
    else {
        panic!()
    };
    assert_eq!(*budget, 30);
    assert!(listing.left_out[4].to_string().contains("Gemini"));
    let served: Vec<&str> = listing.tools.iter().map(|t| &*t.name).collect();
    assert_eq!(served, ["fail"]);
}

#[tokio::test]
async fn a_failing_tool_is_is_error_with_its_message_and_an_unknown_tool_is_invalid_params() {
    let server = server_with(clashing_runtime().await, ServeOptions::default());
    let (client, _) = stdio_client(&server).await;
    let failed = call(&client, "fail", json!({})).await;
    assert_eq!(failed.is_error, Some(true));
    let text = failed.content[0].as_text().unwrap().text.clone();
    assert!(text.contains("the fixture tool always fails"), "{text}");
    // The shared form is unknown: a guess could run the wrong tool.
    for unknown in ["files_read", "nope"] {
        let params = rmcp::model::CallToolRequestParams::new(unknown.to_owned());
        let err = client.call_tool(params).await.unwrap_err();
        let rmcp::service::ServiceError::McpError(err) = err else {
            panic!("{err:?}")
        };
        assert_eq!(err.code, ErrorCode::INVALID_PARAMS, "{unknown}");
        assert_eq!(err.message, format!("Unknown tool: {unknown}"));
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_change_of_the_tool_set_sends_list_changed_and_the_next_list_shows_it() {
    let runtime = clashing_runtime().await;
    let server = server_with(runtime.clone(), ServeOptions::default());
    let (client, mut changes) = stdio_client(&server).await;
    assert_eq!(client.list_all_tools().await.unwrap().len(), 3);
    // A call changes no list when the catalog is not deferred: no list_changed (one would be
    // sent before the call's answer).
    call(&client, "fail", json!({})).await;
    assert!(changes.try_recv().is_err());
    runtime
        .add_provider(tools_of("later", &["added/later"]))
        .await
        .unwrap()
        .check()
        .unwrap();
    tokio::time::timeout(HANG_BOUND, changes.recv())
        .await
        .expect("list_changed arrives")
        .unwrap();
    let names: Vec<String> = client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.into_owned())
        .collect();
    assert!(names.contains(&"added_later".to_owned()), "{names:?}");
    client.cancel().await.unwrap();
}
