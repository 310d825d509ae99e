//! The catalog without sessions (issue 25, section 3) and list changes for 2026-07-28
//! clients (section 2): a modern client's `tools/list` is the meta-tools and the pinned tools,
//! and no request changes it; `tool_search`, `tool_schema` and `tool_call` reach every tool,
//! across two replicas too; `subscriptions/listen` tells of the tool set's changes; rmcp's
//! HTTP header checks run against the served tools.

use std::sync::Arc;

use rmcp::model::{CallToolResult, GetMeta, ServerNotification, SubscriptionFilter};
use rmcp::ClientCacheConfig;
use serde_json::{json, Value};
use toolwire_core::mcp::serve::{ServeOptions, ToolServer};
use toolwire_core::provider::provider_fn;
use toolwire_core::runtime::CatalogPolicy;
use toolwire_core::{ToolDefinition, ToolRuntime};

use crate::http::{serve, stateless_http_client};
use crate::{answer, call, discover, server_with, stdio_client_in, tools_of, Client, HANG_BOUND};

const CATALOG: [&str; 3] = ["alpha/one", "beta/two", "gamma/three"];

/// A runtime whose catalog is always deferred, with `alpha/one` pinned.
async fn deferred_runtime() -> ToolRuntime {
    let policy = CatalogPolicy::deferred(["alpha/one"]).with_threshold(0);
    let runtime = ToolRuntime::builder().catalog(policy).build().unwrap();
    runtime
        .add_provider(tools_of("cat", &CATALOG))
        .await
        .unwrap()
        .check()
        .unwrap();
    runtime
}

/// The names a fresh `tools/list` gives (the client's cache off: the server is asked).
async fn names(client: &Client) -> Vec<String> {
    client
        .set_response_cache_config(ClientCacheConfig::disabled())
        .await;
    client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.into_owned())
        .collect()
}

const STAND_ALONE: [&str; 4] = ["tool_search", "tool_schema", "tool_call", "alpha_one"];

fn failure(result: &CallToolResult) -> String {
    assert_eq!(result.is_error, Some(true), "{result:?}");
    serde_json::to_string(&result.content).unwrap()
}

#[tokio::test]
async fn a_modern_list_is_the_meta_tools_and_the_pinned_and_no_call_changes_it() {
    let server = server_with(deferred_runtime().await, ServeOptions::default());
    let (client, mut changes) = stdio_client_in(&server, discover()).await;
    assert_eq!(names(&client).await, STAND_ALONE);

    let found = call(&client, "tool_search", json!({"query": "beta two"})).await;
    let hit = &answer(&found)["tools"][0];
    assert_eq!(
        (&hit["name"], &hit["form"]),
        (&json!("beta/two"), &json!("beta_two"))
    );
    let schema = call(&client, "tool_schema", json!({"name": "beta_two"})).await;
    assert_eq!(
        answer(&schema)["parameters"]["properties"]["x"]["type"],
        "integer"
    );
    assert_eq!(answer(&schema)["loaded"], false);
    let ran = call(
        &client,
        "tool_call",
        json!({"name": "beta_two", "arguments": {"x": 7}}),
    )
    .await;
    // The tool's own answer, not one wrapped by tool_call.
    assert_eq!(
        answer(&ran),
        &json!({"provider": "cat", "tool": "beta/two", "arguments": {"x": 7}})
    );
    // A tool called by name directly runs too, and loads nothing.
    let direct = call(&client, "gamma_three", json!({})).await;
    assert_eq!(answer(&direct)["tool"], "gamma/three");

    assert_eq!(names(&client).await, STAND_ALONE);
    // No list_changed either (one would have come before the answers above).
    assert!(changes.try_recv().is_err());
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn tool_call_says_in_its_result_when_its_name_is_a_meta_tool_or_reaches_no_tool() {
    let server = server_with(deferred_runtime().await, ServeOptions::default());
    let (client, _) = stdio_client_in(&server, discover()).await;
    let nested = call(&client, "tool_call", json!({"name": "tool_search"})).await;
    assert!(failure(&nested).contains("call it directly"), "{nested:?}");
    let unknown = call(&client, "tool_call", json!({"name": "beta_tw"})).await;
    let said = failure(&unknown);
    // The words every answer gives an unknown tool (the protocol error keeps MCP's own).
    assert!(
        said.contains(
            "tool_call: unknown tool `beta_tw`; the closest offered tools are `beta_two`"
        ),
        "{said}"
    );
    assert!(said.contains("; search with tool_search"), "{said}");
    let no_name = call(&client, "tool_call", json!({"arguments": {}})).await;
    assert!(failure(&no_name).contains("`name`"), "{no_name:?}");
    let bad_arguments = call(
        &client,
        "tool_call",
        json!({"name": "beta_two", "arguments": 3}),
    )
    .await;
    assert!(
        failure(&bad_arguments).contains("`arguments`"),
        "{bad_arguments:?}"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_legacy_session_keeps_loading_into_its_own_list() {
    let server = server_with(deferred_runtime().await, ServeOptions::default());
    let (client, mut changes) = crate::stdio_client(&server).await;
    let meta = ["tool_search", "tool_schema", "reset_tools", "alpha_one"];
    assert_eq!(names(&client).await, meta);
    let schema = call(&client, "tool_schema", json!({"name": "beta_two"})).await;
    assert_eq!(answer(&schema)["loaded"], true);
    tokio::time::timeout(HANG_BOUND, changes.recv())
        .await
        .expect("the session hears list_changed")
        .unwrap();
    assert_eq!(names(&client).await, [&meta[..], &["beta_two"]].concat());
    client.cancel().await.unwrap();
}

/// Two replicas as a load balancer sees them: each its own runtime and server over the same
/// backend tools, each on its own port; a modern client's consecutive requests on either.
#[tokio::test]
async fn the_catalog_flow_runs_across_two_replicas() {
    let mut urls = Vec::new();
    for _ in 0..2 {
        let server = ToolServer::new(deferred_runtime().await, ServeOptions::default());
        urls.push(serve(server, Default::default()).await);
    }
    let one = stateless_http_client(&urls[0], "", discover()).await;
    let two = stateless_http_client(&urls[1], "", discover()).await;
    assert_eq!(names(&one).await, names(&two).await);
    let found = call(&one, "tool_search", json!({"query": "gamma three"})).await;
    let form = answer(&found)["tools"][0]["form"]
        .as_str()
        .unwrap()
        .to_owned();
    let schema = call(&two, "tool_schema", json!({"name": form})).await;
    assert_eq!(answer(&schema)["name"], "gamma/three");
    let ran = call(
        &two,
        "tool_call",
        json!({"name": form, "arguments": {"x": 1}}),
    )
    .await;
    assert_eq!(answer(&ran)["tool"], "gamma/three");
    let again = call(
        &one,
        "tool_call",
        json!({"name": form, "arguments": {"x": 2}}),
    )
    .await;
    assert_eq!(answer(&again)["arguments"], json!({"x": 2}));
    assert_eq!(names(&one).await, STAND_ALONE);
    one.cancel().await.unwrap();
    two.cancel().await.unwrap();
}

/// Listens for tool-list changes, adds a provider, and reads the one notification it hears.
async fn hears_a_change_through_listen(server: &ToolServer, client: &Client) {
    let filter = SubscriptionFilter::builder().tools_list_changed().build();
    let mut subscription = tokio::time::timeout(HANG_BOUND, client.listen(filter))
        .await
        .expect("no hang")
        .expect("acknowledged");
    assert_eq!(subscription.acknowledged().tools_list_changed, Some(true));
    server
        .runtime()
        .add_provider(tools_of("late", &["delta/four"]))
        .await
        .unwrap()
        .check()
        .unwrap();
    let heard = tokio::time::timeout(HANG_BOUND, subscription.next())
        .await
        .expect("a notification")
        .unwrap()
        .expect("the subscription is open");
    assert!(
        matches!(heard, ServerNotification::ToolListChangedNotification(_)),
        "{heard:?}"
    );
    assert_eq!(
        heard.get_meta().subscription_id().as_ref(),
        Some(subscription.id())
    );
    subscription.cancel().await.unwrap();
    let listed = names(client).await;
    assert!(listed.contains(&"delta_four".to_owned()), "{listed:?}");
}

#[tokio::test]
async fn subscriptions_listen_tells_of_a_tool_set_change_over_stdio() {
    let server = server_with(crate::clashing_runtime().await, ServeOptions::default());
    let (client, _) = stdio_client_in(&server, discover()).await;
    hears_a_change_through_listen(&server, &client).await;
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn subscriptions_listen_tells_of_a_tool_set_change_over_http() {
    let server = server_with(crate::clashing_runtime().await, ServeOptions::default());
    let url = serve(server.clone(), Default::default()).await;
    let client = stateless_http_client(&url, "", discover()).await;
    hears_a_change_through_listen(&server, &client).await;
    client.cancel().await.unwrap();
}

/// A raw 2026-07-28 `tools/call` of `region {region: "us"}` with these headers.
async fn region_call(url: &str, name: &str, region_header: &str) -> (u16, Value) {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
    "name": "region", "arguments": {"region": "us"},
    "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {}
    }}});
    let response = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", name)
        .header("mcp-param-region", region_header)
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    // A JSON body, or one SSE event whose data is the answer.
    let json = text
        .lines()
        .find_map(|l| l.strip_prefix("data:"))
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .unwrap_or(&text);
    (
        status,
        serde_json::from_str(json).unwrap_or(Value::String(text.clone())),
    )
}

#[tokio::test]
async fn a_header_that_contradicts_the_body_is_refused() {
    // `region` is annotated for SEP-2243: a client sends it as `Mcp-Param-Region`.
    let schema = json!({"type": "object", "properties": {
        "region": {"type": "string", "x-mcp-header": "Region"}}});
    let region = provider_fn(
        "geo",
        vec![ToolDefinition::new("region", "Where.", schema)],
        |_, arguments| async move { Ok(arguments) },
    );
    let runtime = ToolRuntime::new();
    runtime
        .add_provider(Arc::new(region))
        .await
        .unwrap()
        .check()
        .unwrap();
    let url = serve(
        server_with(runtime, ServeOptions::default()),
        Default::default(),
    )
    .await;

    let (status, answer) = region_call(&url, "region", "us").await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(
        answer["result"]["structuredContent"],
        json!({"region": "us"})
    );
    // The parameter header says another region than the body: refused (rmcp asks the
    // served tool's schema through `get_tool`; without it the header would go unchecked).
    let (status, answer) = region_call(&url, "region", "eu").await;
    assert_eq!(status, 400, "{answer}");
    assert!(answer.to_string().contains("Mcp-Param-Region"), "{answer}");
    // The name header says another tool than the body: refused.
    let (status, answer) = region_call(&url, "elsewhere", "us").await;
    assert_eq!(status, 400, "{answer}");
    assert!(answer.to_string().contains("Mcp-Name"), "{answer}");
}
