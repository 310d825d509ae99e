//! The same runtime over streamable HTTP: a server reached by URL, with headers.

use std::sync::Arc;

use serde_json::json;
use toolwire_core::{
    mcp::{list_tools_of, McpError, McpHttp, McpOptions, McpProvider},
    runtime::DispatchError,
    ToolError, ToolRuntime,
};

use crate::{assert_search_clash, HttpFixture};

#[tokio::test]
async fn a_server_over_http_with_a_bearer_token_serves_the_runtime() {
    let server = HttpFixture::start(&["--require-token", "s3cret", "--extras"]);
    let web = McpProvider::connect(
        "web",
        McpHttp::new(&server.url).header("Authorization", "Bearer s3cret"),
    )
    .await
    .expect("the token is accepted");
    let runtime = ToolRuntime::new();
    let status = runtime.add_provider(Arc::new(web)).await.unwrap();
    assert_search_clash(&status, "web");
    let request = runtime.request();
    let out = request
        .dispatch("mcp_web_files_read", json!({"path": "/etc/hosts"}))
        .await
        .unwrap();
    assert_eq!(out.tool, "mcp/web/files/read");
    assert_eq!(
        out.output.to_value()["tool"],
        "files/read",
        "the server saw its bare name"
    );
    assert_eq!(out.output.to_value()["arguments"]["path"], "/etc/hosts");
    // A server's "invalid params" is a typed InvalidArguments over HTTP too.
    let err = request
        .dispatch("mcp_web_files_read", json!({}))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, DispatchError::Tool(ToolError::InvalidArguments { tool, reason, .. })
            if tool == "mcp/web/files/read" && reason.contains("`path`")),
        "{err:?}"
    );
    // What the server says about a tool arrives over HTTP as over stdio.
    let options = McpOptions::default();
    let listed = list_tools_of(
        &McpHttp::new(&server.url)
            .header("Authorization", "Bearer s3cret")
            .into(),
        &options,
    )
    .await
    .unwrap();
    let titled = listed.iter().find(|t| t.name == "titled").unwrap();
    assert_eq!(titled.title.as_deref(), Some("A Titled Tool"));
}

#[tokio::test]
async fn a_server_over_http_refuses_a_missing_or_wrong_token_with_an_error_that_says_so() {
    let server = HttpFixture::start(&["--require-token", "s3cret"]);
    for given in [None, Some("Bearer wrong")] {
        let mut target = McpHttp::new(&server.url);
        if let Some(value) = given {
            target = target.header("Authorization", value);
        }
        let err = McpProvider::connect("web", target).await.unwrap_err();
        assert_eq!(err.provider, "mcp/web");
        assert!(err.reason.contains(&server.url), "{err}");
        assert!(
            err.reason.to_lowercase().contains("authoriz"),
            "says what is missing: {err}"
        );
        assert!(!err.reason.contains("rmcp"), "no rmcp type names: {err}");
    }
}

#[tokio::test]
async fn an_unreachable_url_and_a_bad_header_are_typed_errors() {
    // A port nothing listens on: bound, then closed.
    let port = toolwire_test_support::fixture_server::closed_port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let err = McpProvider::connect("gone", McpHttp::new(&url))
        .await
        .unwrap_err();
    assert!(err.reason.contains(&url), "{err}");
    assert!(err.reason.contains("could not reach it"), "{err}");
    assert!(
        err.reason.contains("Connection refused"),
        "the cause: {err}"
    );
    assert!(!err.reason.contains("rmcp"), "{err}");
    let err = list_tools_of(
        &McpHttp::new(&url).header("Bad Header", "x").into(),
        &McpOptions::default(),
    )
    .await
    .unwrap_err();
    assert!(
        matches!(&err, McpError::BadServer { reason, .. } if reason.contains("`Bad Header`")),
        "{err:?}"
    );
}

#[tokio::test]
async fn a_list_change_over_http_reaches_the_runtime() {
    let server = HttpFixture::start(&["--extras"]);
    let web = McpProvider::connect("web", McpHttp::new(&server.url))
        .await
        .expect("the server answers");
    let runtime = ToolRuntime::new();
    let status = runtime.add_provider(Arc::new(web)).await.unwrap();
    assert_search_clash(&status, "web");
    let mut changes = runtime.tool_set_changes();
    changes.mark_unchanged();
    runtime
        .request()
        .dispatch("mcp_web_change_tools", json!({}))
        .await
        .unwrap();
    tokio::time::timeout(crate::HANG_BOUND, changes.changed())
        .await
        .expect("the server's list change arrives over HTTP")
        .unwrap();
    let offered: Vec<String> = runtime
        .request()
        .census()
        .offered()
        .map(|t| t.name().to_owned())
        .collect();
    assert!(
        offered.contains(&"mcp/web/added_later".to_owned()),
        "{offered:?}"
    );
}
