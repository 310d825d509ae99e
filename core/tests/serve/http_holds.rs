//! HTTP that holds against whoever connects (issue 25, point 5): sessions bounded exactly under
//! concurrent `initialize`s and freed when idle, connections capped, silent connections closed,
//! a body that is not JSON answered in JSON-RPC, a session's `DELETE` answered as clients
//! expect, and a result over 1 MiB answered as one JSON response.
//!
//! No test sleeps: a server's state is read from the `tracing` event it logs (sent to a
//! channel), a closed connection from its end of stream.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::{mpsc, Barrier};
use toolwire_core::mcp::serve::{HttpOptions, ServeOptions, ToolServer};
use tracing_subscriber::layer::{Context, Layer, SubscriberExt};

use crate::{clashing_runtime, server_with, HANG_BOUND};

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

/// Serves `server` over HTTP on a loopback port: its URL and its address.
async fn serve(server: ToolServer, options: HttpOptions) -> (String, String) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    tokio::spawn(async move { server.serve_http(listener, options).await });
    (format!("http://{addr}/mcp"), addr)
}

fn post(url: &str, body: impl Into<reqwest::Body>) -> reqwest::RequestBuilder {
    reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(body)
}

/// Each `tracing` message logged on this thread, sent to a channel as it happens.
struct Messages(mpsc::UnboundedSender<String>);

impl<S: tracing::Subscriber> Layer<S> for Messages {
    fn on_event(&self, event: &tracing::Event<'_>, _: Context<'_, S>) {
        struct Message(String);
        impl tracing::field::Visit for Message {
            fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
                if field.name() == "message" {
                    self.0 = format!("{value:?}");
                }
            }
        }
        let mut message = Message(String::new());
        event.record(&mut message);
        let _ = self.0.send(message.0);
    }
}

fn messages() -> (
    mpsc::UnboundedReceiver<String>,
    tracing::subscriber::DefaultGuard,
) {
    let (send, receive) = mpsc::unbounded_channel();
    let subscriber = tracing_subscriber::registry().with(Messages(send));
    (receive, tracing::subscriber::set_default(subscriber))
}

/// Waits for a logged message containing `text`.
async fn logged(messages: &mut mpsc::UnboundedReceiver<String>, text: &str) {
    tokio::time::timeout(HANG_BOUND, async {
        while let Some(message) = messages.recv().await {
            if message.contains(text) {
                return;
            }
        }
        panic!("the log ended before {text:?}");
    })
    .await
    .unwrap_or_else(|_| panic!("no {text:?} logged"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_initializes_open_exactly_the_session_limit() {
    const LIMIT: usize = 4;
    const CLIENTS: usize = 40;
    let server = server_with(clashing_runtime().await, ServeOptions::default());
    let mut options = HttpOptions::default();
    options.max_sessions = LIMIT;
    let (url, _) = serve(server, options).await;
    let start = Arc::new(Barrier::new(CLIENTS));
    let tries: Vec<_> = (0..CLIENTS)
        .map(|_| {
            let (url, start) = (url.clone(), start.clone());
            tokio::spawn(async move {
                let request = post(&url, INITIALIZE);
                start.wait().await;
                request.send().await.unwrap().status().as_u16()
            })
        })
        .collect();
    let mut statuses = Vec::new();
    for tried in tries {
        let status = tokio::time::timeout(HANG_BOUND, tried)
            .await
            .expect("no hang");
        statuses.push(status.unwrap());
    }
    let opened = statuses.iter().filter(|&&s| s == 200).count();
    let refused = statuses.iter().filter(|&&s| s == 503).count();
    assert_eq!((opened, refused), (LIMIT, CLIENTS - LIMIT), "{statuses:?}");
}

#[tokio::test]
async fn an_idle_session_is_closed_and_its_place_is_free_again() {
    let (mut messages, _capturing) = messages();
    let server = server_with(clashing_runtime().await, ServeOptions::default());
    let mut options = HttpOptions::default();
    options.max_sessions = 1;
    options.session_idle_timeout = Duration::from_millis(200);
    let (url, _) = serve(server, options).await;
    let first = post(&url, INITIALIZE).send().await.unwrap();
    assert_eq!(first.status(), 200);
    // The holder says nothing more: its session is closed when idle, and a new client gets in.
    logged(&mut messages, "an MCP session closed").await;
    let second = post(&url, INITIALIZE).send().await.unwrap();
    assert_eq!(second.status(), 200);
}

#[tokio::test]
async fn past_the_connection_cap_a_connection_waits_until_one_closes() {
    let (mut messages, _capturing) = messages();
    let server = server_with(clashing_runtime().await, ServeOptions::default());
    let mut options = HttpOptions::default();
    options.max_connections = 1;
    let (url, addr) = serve(server, options).await;
    let holder = tokio::net::TcpStream::connect(&addr).await.unwrap();
    // The second connection is in the kernel's backlog: the server holds the first.
    let waiting =
        tokio::spawn(async move { post(&url, INITIALIZE).send().await.unwrap().status() });
    logged(&mut messages, "at the cap of 1 open HTTP connections").await;
    assert!(!waiting.is_finished());
    drop(holder);
    let status = tokio::time::timeout(HANG_BOUND, waiting)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(status, 200);
}

#[tokio::test]
async fn a_connection_that_sends_no_headers_is_closed() {
    let server = server_with(clashing_runtime().await, ServeOptions::default());
    let mut options = HttpOptions::default();
    options.header_read_timeout = Duration::from_millis(200);
    let (_, addr) = serve(server, options).await;
    let mut silent = tokio::net::TcpStream::connect(&addr).await.unwrap();
    silent.write_all(b"POST /mcp HTTP/1.1\r\n").await.unwrap();
    let mut rest = Vec::new();
    // The server ends the connection (hyper answers 408 first, or just closes).
    tokio::time::timeout(HANG_BOUND, silent.read_to_end(&mut rest))
        .await
        .expect("the server closed the connection")
        .ok();
}

#[tokio::test]
async fn a_body_that_is_not_json_is_a_parse_error_and_not_json_rpc_an_invalid_request() {
    let server = server_with(clashing_runtime().await, ServeOptions::default());
    let (url, _) = serve(server, HttpOptions::default()).await;
    for (body, code) in [
        ("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\":", -32700),
        ("not json", -32700),
        (r#"{"hello": "world"}"#, -32600),
    ] {
        let answer = post(&url, body).send().await.unwrap();
        assert_eq!(answer.status(), 400, "{body}");
        assert_eq!(answer.headers()["content-type"], "application/json");
        let error: Value = answer.json().await.unwrap();
        assert_eq!(error["error"]["code"], code, "{body}: {error}");
        assert_eq!(error["id"], Value::Null);
    }
}

/// Opens a legacy session over raw HTTP: its id.
async fn open_session(url: &str) -> String {
    let opened = post(url, INITIALIZE).send().await.unwrap();
    assert_eq!(opened.status(), 200);
    let session = opened.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let ready = post(url, INITIALIZED)
        .header("mcp-session-id", &session)
        .header("mcp-protocol-version", "2025-11-25")
        .send()
        .await
        .unwrap();
    assert_eq!(ready.status(), 202);
    session
}

#[tokio::test]
async fn a_session_s_delete_is_200_and_an_unknown_session_s_404() {
    let server = server_with(clashing_runtime().await, ServeOptions::default());
    let (url, _) = serve(server, HttpOptions::default()).await;
    let session = open_session(&url).await;
    let delete = || {
        reqwest::Client::new()
            .delete(&url)
            .header("mcp-session-id", &session)
            .header("mcp-protocol-version", "2025-11-25")
            .send()
    };
    assert_eq!(delete().await.unwrap().status(), 200);
    assert_eq!(delete().await.unwrap().status(), 404);
}

#[tokio::test]
async fn a_result_over_one_mib_is_one_json_response() {
    let server = server_with(clashing_runtime().await, ServeOptions::default());
    let (url, _) = serve(server, HttpOptions::default()).await;
    let session = open_session(&url).await;
    let big = "x".repeat(3 << 19); // 1.5 MiB, echoed back in the answer
    let call = json!({
        "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "files.read", "arguments": {"x": big}},
    });
    let answer = post(&url, call.to_string())
        .header("mcp-session-id", &session)
        .header("mcp-protocol-version", "2025-11-25")
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 200);
    assert_eq!(answer.headers()["content-type"], "application/json");
    let answer: Value = answer.json().await.unwrap();
    assert_eq!(answer["id"], 2);
    assert_eq!(
        answer["result"]["structuredContent"]["arguments"]["x"],
        big.as_str()
    );
}

#[tokio::test]
async fn a_stateless_result_over_one_mib_is_one_json_response() {
    let server = server_with(clashing_runtime().await, ServeOptions::default());
    let (url, _) = serve(server, HttpOptions::default()).await;
    let big = "x".repeat(3 << 19);
    let call = json!({
        "jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "files.read", "arguments": {"x": big}, "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"},
            "io.modelcontextprotocol/clientCapabilities": {}
        }},
    });
    let answer = post(&url, call.to_string())
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "files.read")
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 200);
    assert_eq!(answer.headers()["content-type"], "application/json");
    let answer: Value = answer.json().await.unwrap();
    assert_eq!(answer["id"], 7);
    assert_eq!(
        answer["result"]["structuredContent"]["arguments"]["x"],
        big.as_str()
    );
}
