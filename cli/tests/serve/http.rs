//! The gateway over streamable HTTP: its URL on stderr, rmcp's client through `--token`, a bad
//! token (401), a foreign `Origin` (403), malformed JSON-RPC, and SIGTERM ending every backend.

use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::ServiceExt;
use serde_json::json;
use tokio::io::{AsyncBufReadExt, BufReader};
use toolwire_test_support::grandchild::{exits_within, grandchild_listener};

use crate::{backends, call, census, gateway, line, reached, HANG_BOUND};

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;

fn post(url: &str, body: &'static str) -> reqwest::RequestBuilder {
    reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(body)
}

#[tokio::test]
async fn over_http_with_a_token_calls_reach_their_tools_and_refusals_are_loud() {
    let (port, pid) = grandchild_listener();
    let mut args = backends(&format!("--spawn-child {port}"));
    args.extend([
        "--http".into(),
        "127.0.0.1:0".into(),
        "--token".into(),
        "s3cret".into(),
    ]);
    let mut child = gateway(&args);
    let mut err = BufReader::new(child.stderr.take().unwrap()).lines();
    census(&mut err).await;
    let listening = line(&mut err).await;
    let url = listening
        .strip_prefix("toolwire serve: listening on ")
        .unwrap_or_else(|| panic!("{listening}"))
        .to_owned();
    assert!(
        url.starts_with("http://127.0.0.1:") && url.ends_with("/mcp"),
        "{url}"
    );

    let config = StreamableHttpClientTransportConfig::with_uri(url.as_str()).auth_header("s3cret");
    let client = ().serve(StreamableHttpClientTransport::from_config(config)).await.unwrap();
    assert_eq!(
        reached(&call(&client, "mcp_fx_files_stat", json!({})).await),
        "stat"
    );
    assert_eq!(
        reached(&call(&client, "mcp/fx_files/read", json!({})).await),
        "read"
    );

    assert_eq!(post(&url, INITIALIZE).send().await.unwrap().status(), 401);
    let wrong = post(&url, INITIALIZE)
        .bearer_auth("guess")
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
    let malformed = post(&url, "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\":")
        .bearer_auth("s3cret")
        .send()
        .await
        .unwrap();
    assert!(
        malformed.status().is_client_error(),
        "{}",
        malformed.status()
    );
    // The session goes on after all of that.
    assert_eq!(
        reached(&call(&client, "mcp_fx_echo", json!({})).await),
        "echo"
    );
    drop(client);

    let grandchild = pid.recv_timeout(HANG_BOUND).expect("the grandchild's pid");
    // SAFETY: a signal to the child this test started.
    unsafe { libc::kill(child.id().unwrap() as i32, libc::SIGTERM) };
    let status = tokio::time::timeout(HANG_BOUND, child.wait())
        .await
        .unwrap()
        .unwrap();
    assert!(status.success(), "{status}");
    assert!(
        exits_within(grandchild, HANG_BOUND),
        "the grandchild outlived SIGTERM"
    );
}
