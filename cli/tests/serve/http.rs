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

/// A client that forwards each `notifications/tools/list_changed` to a channel.
#[derive(Clone)]
struct Watcher(tokio::sync::mpsc::UnboundedSender<()>);

impl rmcp::ClientHandler for Watcher {
    async fn on_tool_list_changed(
        &self,
        _context: rmcp::service::NotificationContext<rmcp::RoleClient>,
    ) {
        let _ = self.0.send(());
    }
}

#[tokio::test]
async fn with_a_deferred_catalog_two_http_sessions_load_their_own_tools() {
    let mut args = backends("");
    args.extend([
        "--http".into(),
        "127.0.0.1:0".into(),
        "--catalog".into(),
        "deferred".into(),
    ]);
    let mut child = gateway(&args);
    let mut err = BufReader::new(child.stderr.take().unwrap()).lines();
    census(&mut err).await;
    let listening = line(&mut err).await;
    let url = listening
        .trim_start_matches("toolwire serve: listening on ")
        .to_owned();
    let connect = || async {
        let (send, changes) = tokio::sync::mpsc::unbounded_channel();
        let transport = StreamableHttpClientTransport::from_config(
            StreamableHttpClientTransportConfig::with_uri(url.as_str()),
        );
        (Watcher(send).serve(transport).await.unwrap(), changes)
    };
    let ((a, mut a_changes), (b, _)) = (connect().await, connect().await);
    let meta = ["tool_search", "tool_schema", "reset_tools"];
    assert_eq!(served_names(&a).await, meta);
    let params = rmcp::model::CallToolRequestParams::new("tool_schema").with_arguments(
        json!({"name": "mcp/fx_files/stat"})
            .as_object()
            .unwrap()
            .clone(),
    );
    let loaded = a.call_tool(params).await.unwrap();
    assert_ne!(loaded.is_error, Some(true), "{loaded:?}");
    tokio::time::timeout(HANG_BOUND, a_changes.recv())
        .await
        .expect("session a hears list_changed")
        .unwrap();
    assert_eq!(
        served_names(&a).await,
        [&meta[..], &["mcp_fx_files_stat"]].concat()
    );
    assert_eq!(served_names(&b).await, meta);
    drop((a, b));
    // SAFETY: a signal to the child this test started.
    unsafe { libc::kill(child.id().unwrap() as i32, libc::SIGINT) };
    let status = tokio::time::timeout(HANG_BOUND, child.wait())
        .await
        .unwrap()
        .unwrap();
    assert!(status.success(), "{status}");
}

async fn served_names(
    client: &rmcp::service::RunningService<rmcp::RoleClient, Watcher>,
) -> Vec<String> {
    client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.into_owned())
        .collect()
}
