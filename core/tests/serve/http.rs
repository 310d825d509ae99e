//! Streamable HTTP (issue 19, points 1 and 6): rmcp's client through a bearer token; what the
//! transport refuses: no or a wrong token (401), a foreign `Origin` or `Host` (403), malformed
//! JSON-RPC, an oversized body (413), one session too many (503).

use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::ServiceExt;
use serde_json::json;
use toolwire_core::mcp::serve::{HttpOptions, ServeOptions, ToolServer};

use crate::{answer, call, clashing_runtime, server_with, watcher, Client};

/// Serves `server` over HTTP on a loopback port; the task ends with the test's runtime.
pub(crate) async fn serve(server: ToolServer, options: HttpOptions) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move { server.serve_http(listener, options).await });
    url
}

async fn http_client(url: &str, token: &str) -> Client {
    let config = StreamableHttpClientTransportConfig::with_uri(url).auth_header(token);
    let (handler, _changes) = watcher();
    handler
        .serve(StreamableHttpClientTransport::from_config(config))
        .await
        .expect("the handshake over HTTP")
}

/// rmcp's HTTP client in the lifecycle `mode`, with a bearer token unless it is empty.
pub(crate) async fn stateless_http_client(
    url: &str,
    token: &str,
    mode: rmcp::ClientLifecycleMode,
) -> Client {
    use rmcp::ClientServiceExt;
    let mut config = StreamableHttpClientTransportConfig::with_uri(url);
    if !token.is_empty() {
        config = config.auth_header(token);
    }
    let (handler, _changes) = watcher();
    handler
        .serve_with_lifecycle(StreamableHttpClientTransport::from_config(config), mode)
        .await
        .expect("the lifecycle's start over HTTP")
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;

fn post(url: &str, body: impl Into<reqwest::Body>) -> reqwest::RequestBuilder {
    reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(body)
}

#[tokio::test]
async fn rmcp_s_client_lists_and_calls_through_a_bearer_token() {
    let server = server_with(clashing_runtime().await, ServeOptions::default());
    let url = serve(server, HttpOptions::default().token("s3cret")).await;
    let client = http_client(&url, "s3cret").await;
    let names: Vec<String> = client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.into_owned())
        .collect();
    assert_eq!(names.len(), 3, "{names:?}");
    for (called, real) in [
        (
            "github_list_pull_request_reviews",
            "github/list_pull_request_reviews",
        ),
        ("files.read", "files.read"),
    ] {
        assert_eq!(
            answer(&call(&client, called, json!({})).await)["tool"],
            real
        );
    }
    assert_eq!(call(&client, "fail", json!({})).await.is_error, Some(true));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn no_token_or_a_wrong_one_is_401_and_a_foreign_origin_or_host_is_403() {
    let server = server_with(clashing_runtime().await, ServeOptions::default());
    let url = serve(server, HttpOptions::default().token("s3cret")).await;
    let none = post(&url, INITIALIZE).send().await.unwrap();
    assert_eq!(none.status(), 401);
    assert_eq!(none.headers()["www-authenticate"], "Bearer");
    let wrong = post(&url, INITIALIZE)
        .bearer_auth("s3cre")
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), 401);
    let foreign = post(&url, INITIALIZE)
        .bearer_auth("s3cret")
        .header("origin", "http://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(foreign.status(), 403);
    let rebound = post(&url, INITIALIZE)
        .bearer_auth("s3cret")
        .header("host", "evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(rebound.status(), 403);
    // A loopback Origin (a local browser page of the user's own) is served.
    let local = post(&url, INITIALIZE)
        .bearer_auth("s3cret")
        .header("origin", "http://127.0.0.1:3000")
        .send()
        .await
        .unwrap();
    assert_eq!(local.status(), 200);
}

#[tokio::test]
async fn malformed_json_rpc_and_an_oversized_body_are_refused_and_serving_goes_on() {
    let server = server_with(clashing_runtime().await, ServeOptions::default());
    let mut options = HttpOptions::default();
    options.max_body_bytes = 4096;
    let url = serve(server, options).await;
    let malformed = post(&url, "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\":")
        .send()
        .await
        .unwrap();
    assert!(
        malformed.status().is_client_error(),
        "{}",
        malformed.status()
    );
    let not_json_rpc = post(&url, r#"{"hello": "world"}"#).send().await.unwrap();
    assert!(
        not_json_rpc.status().is_client_error(),
        "{}",
        not_json_rpc.status()
    );
    let huge = post(&url, format!("{{\"pad\": \"{}\"}}", "x".repeat(8192)))
        .send()
        .await
        .unwrap();
    assert_eq!(huge.status(), 413);
    let client = http_client(&url, "").await;
    assert_eq!(client.list_all_tools().await.unwrap().len(), 3);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn one_session_too_many_is_503() {
    let server = server_with(clashing_runtime().await, ServeOptions::default());
    let mut options = HttpOptions::default();
    options.max_sessions = 1;
    let url = serve(server, options).await;
    let first = http_client(&url, "").await;
    let second = post(&url, INITIALIZE).send().await.unwrap();
    assert_eq!(second.status(), 503);
    // The open session goes on.
    assert_eq!(first.list_all_tools().await.unwrap().len(), 3);
    first.cancel().await.unwrap();
}
