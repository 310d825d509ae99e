//! Serving every era (issue 25, section 2): rmcp's client in each lifecycle
//! (`ClientLifecycleMode::Discover`, `Auto`, `Initialize`) over a stdio-like byte stream and
//! over streamable HTTP lands on the revision it asks for; lists carry `ttlMs` and
//! `cacheScope`; a revision the server does not know is -32022 with the supported list.

use rmcp::model::{CacheScope, ErrorCode, ProtocolVersion};
use rmcp::ClientLifecycleMode;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use toolwire_core::mcp::serve::ServeOptions;

use crate::http::{serve, stateless_http_client};
use crate::{
    answer, auto, call, clashing_runtime, discover, server_with, stdio_client_in, HANG_BOUND,
};

/// The revisions the server advertises, as strings.
fn advertised() -> Vec<&'static str> {
    vec![
        "2024-11-05",
        "2025-03-26",
        "2025-06-18",
        "2025-11-25",
        "2026-07-28",
    ]
}

#[tokio::test]
async fn each_lifecycle_over_stdio_lands_on_its_revision_and_lists_and_calls() {
    let server = server_with(clashing_runtime().await, ServeOptions::default());
    for (mode, revision) in [
        (discover(), ProtocolVersion::V_2026_07_28),
        (auto(), ProtocolVersion::V_2026_07_28),
        (
            ClientLifecycleMode::Initialize,
            ProtocolVersion::V_2025_11_25,
        ),
    ] {
        let (client, _) = stdio_client_in(&server, mode.clone()).await;
        let info = client.peer_info().expect("the server's info");
        assert_eq!(info.protocol_version, revision, "{mode:?}");
        assert_eq!(client.list_all_tools().await.unwrap().len(), 3, "{mode:?}");
        let ran = call(&client, "github_list_pull_request_reviews", json!({"x": 2})).await;
        assert_eq!(answer(&ran)["tool"], "github/list_pull_request_reviews");
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn server_discover_advertises_every_revision_up_to_2026_07_28() {
    let server = server_with(clashing_runtime().await, ServeOptions::default());
    let (client, _) = stdio_client_in(&server, discover()).await;
    let meta = rmcp::model::RequestMetaObject::with_client_context(
        ProtocolVersion::V_2026_07_28,
        rmcp::model::Implementation::new("eras", "0"),
        Default::default(),
    );
    let found = client.discover(meta).await.unwrap();
    let versions: Vec<&str> = found
        .supported_versions
        .iter()
        .map(|v| v.as_str())
        .collect();
    assert_eq!(versions, advertised());
    assert!(found.capabilities.tools.is_some());
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_list_carries_its_cache_hints_public_without_credentials_private_with_them() {
    let server = server_with(clashing_runtime().await, ServeOptions::default());
    let (client, _) = stdio_client_in(&server, discover()).await;
    let list = client.list_tools(None).await.unwrap();
    assert_eq!(list.ttl_ms, Some(60_000));
    assert_eq!(list.cache_scope, Some(CacheScope::Public));
    client.cancel().await.unwrap();

    let url = serve(
        server,
        toolwire_core::mcp::serve::HttpOptions::default().token("t"),
    )
    .await;
    let client = stateless_http_client(&url, "t", discover()).await;
    let list = client.list_tools(None).await.unwrap();
    assert_eq!(list.ttl_ms, Some(60_000));
    // The request carried `Authorization`: no shared cache may hand the list to another.
    assert_eq!(list.cache_scope, Some(CacheScope::Private));
    assert_eq!(list.tools.len(), 3);
    client.cancel().await.unwrap();
}

/// One JSON-RPC line in, the answer's line out, over a session served on a byte stream.
async fn exchange(line: &Value) -> Value {
    let server = server_with(clashing_runtime().await, ServeOptions::default());
    let (client_end, server_end) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server_end);
    tokio::spawn(async move { server.serve_io(read, write).await });
    let (client_read, mut client_write) = tokio::io::split(client_end);
    client_write
        .write_all(format!("{line}\n").as_bytes())
        .await
        .unwrap();
    let mut answer = String::new();
    let mut lines = BufReader::new(client_read);
    tokio::time::timeout(HANG_BOUND, lines.read_line(&mut answer))
        .await
        .expect("an answer")
        .unwrap();
    serde_json::from_str(&answer).unwrap()
}

#[tokio::test]
async fn an_unknown_revision_is_32022_naming_the_supported_ones() {
    let discover = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {
    "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2099-01-01",
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {}
    }}});
    let answer = exchange(&discover).await;
    assert_eq!(
        answer["error"]["code"],
        ErrorCode::UNSUPPORTED_PROTOCOL_VERSION.0,
        "{answer}"
    );
    assert_eq!(answer["error"]["code"], -32022);
    assert_eq!(answer["error"]["data"]["requested"], "2099-01-01");
    assert_eq!(answer["error"]["data"]["supported"], json!(advertised()));
}

#[tokio::test]
async fn each_lifecycle_over_http_lands_on_its_revision_and_lists_and_calls() {
    let server = server_with(clashing_runtime().await, ServeOptions::default());
    let url = serve(server, Default::default()).await;
    for (mode, revision) in [
        (discover(), ProtocolVersion::V_2026_07_28),
        (auto(), ProtocolVersion::V_2026_07_28),
        (
            ClientLifecycleMode::Initialize,
            ProtocolVersion::V_2025_11_25,
        ),
    ] {
        let client = stateless_http_client(&url, "", mode.clone()).await;
        let info = client.peer_info().expect("the server's info");
        assert_eq!(info.protocol_version, revision, "{mode:?}");
        assert_eq!(client.list_all_tools().await.unwrap().len(), 3, "{mode:?}");
        let ran = call(&client, "files.read", json!({})).await;
        assert_eq!(answer(&ran)["tool"], "files.read");
        client.cancel().await.unwrap();
    }
}
