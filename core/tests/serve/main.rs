//! A runtime served as an MCP server (issue 19, points 1 to 3 and 6), driven by rmcp's own
//! client over a stdio-like byte stream and over streamable HTTP: served names, hop 5 from a
//! served or a real name, failing and unknown tools, `list_changed`, the catalog per session,
//! and what the HTTP transport refuses.
//!
//! One test binary with a module per transport or concern; this file holds what they share.

mod backend;
mod catalog;
mod eras;
mod http;
mod http_holds;
mod stand_alone;
mod stdio;
mod tools_page;

use std::sync::Arc;

use rmcp::model::{CallToolRequestParams, CallToolResult, ProtocolVersion};
use rmcp::service::{NotificationContext, RunningService};
use rmcp::{ClientHandler, ClientLifecycleMode, RoleClient};
use serde_json::{json, Value};
use tokio::sync::mpsc;
use toolwire_core::mcp::serve::{ServeOptions, ToolServer};
use toolwire_core::provider::provider_fn;
use toolwire_core::{ToolDefinition, ToolError, ToolRuntime};

/// A bound on a hang, never a duration a test measures.
const HANG_BOUND: std::time::Duration = std::time::Duration::from_secs(60);

/// Two providers whose tools clash: `files/read` and `files.read` share a form at any budget,
/// the two GitHub tools are apart under 64 and one form under 30, `3d/render` starts with a
/// digit (Gemini refuses its form), `fail` always fails. Each tool answers with its provider,
/// its real name and its arguments.
fn tools_of(provider: &'static str, names: &[&str]) -> Arc<toolwire_core::provider::ProviderFn> {
    let definitions = names
        .iter()
        .map(|n| {
            ToolDefinition::new(
                *n,
                format!("The tool {n}."),
                json!({"type": "object", "properties": {"x": {"type": "integer"}}}),
            )
        })
        .collect();
    Arc::new(provider_fn(
        provider,
        definitions,
        move |tool, arguments| async move {
            if tool.ends_with("fail") {
                return Err(ToolError::Failed {
                    tool,
                    message: "the fixture tool always fails".into(),
                });
            }
            Ok(json!({"provider": provider, "tool": tool, "arguments": arguments}))
        },
    ))
}

const LEFT: [&str; 3] = [
    "files/read",
    "github/list_pull_request_review_comments",
    "fail",
];
const RIGHT: [&str; 3] = [
    "files.read",
    "github/list_pull_request_reviews",
    "3d/render",
];

async fn clashing_runtime() -> ToolRuntime {
    let runtime = ToolRuntime::new();
    for provider in [tools_of("left", &LEFT), tools_of("right", &RIGHT)] {
        // The `files` clash makes the loads fail; the other tools are offered.
        let _ = runtime.add_provider(provider).await.unwrap();
    }
    runtime
}

/// A client that forwards each `notifications/tools/list_changed` to a channel.
#[derive(Clone)]
struct Watcher(mpsc::UnboundedSender<()>);

impl ClientHandler for Watcher {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.0.send(());
    }
}

fn watcher() -> (Watcher, mpsc::UnboundedReceiver<()>) {
    let (send, receive) = mpsc::unbounded_channel();
    (Watcher(send), receive)
}

type Client = RunningService<RoleClient, Watcher>;

/// Serves one session of `server` over an in-memory byte stream (newline-delimited JSON-RPC,
/// as over stdio) and connects rmcp's client to it.
async fn stdio_client(server: &ToolServer) -> (Client, mpsc::UnboundedReceiver<()>) {
    use rmcp::ServiceExt;
    let (client_end, server_end) = tokio::io::duplex(1 << 20);
    let (read, write) = tokio::io::split(server_end);
    let server = server.clone();
    tokio::spawn(async move { server.serve_io(read, write).await });
    let (handler, changes) = watcher();
    let client = handler.serve(client_end).await.expect("the handshake");
    (client, changes)
}

/// rmcp's client in the 2026-07-28 lifecycle only: `server/discover`, then every request
/// self-contained (no `initialize`).
fn discover() -> ClientLifecycleMode {
    ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    }
}

/// rmcp's client probing with `server/discover` and falling back to `initialize`, as the
/// Python SDK's `mode="auto"` does.
fn auto() -> ClientLifecycleMode {
    ClientLifecycleMode::Auto {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        legacy_version: None,
    }
}

/// [`stdio_client`] in the lifecycle `mode`.
async fn stdio_client_in(
    server: &ToolServer,
    mode: ClientLifecycleMode,
) -> (Client, mpsc::UnboundedReceiver<()>) {
    use rmcp::ClientServiceExt;
    let (client_end, server_end) = tokio::io::duplex(1 << 20);
    let (read, write) = tokio::io::split(server_end);
    let server = server.clone();
    tokio::spawn(async move { server.serve_io(read, write).await });
    let (handler, changes) = watcher();
    let client = handler
        .serve_with_lifecycle(client_end, mode)
        .await
        .expect("the lifecycle's start");
    (client, changes)
}

async fn call(client: &Client, name: &str, arguments: Value) -> CallToolResult {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object")
    };
    let params = CallToolRequestParams::new(name.to_owned()).with_arguments(arguments);
    tokio::time::timeout(HANG_BOUND, client.call_tool(params))
        .await
        .expect("no hang")
        .unwrap_or_else(|e| panic!("calling {name}: {e}"))
}

/// The structured answer of a successful call.
fn answer(result: &CallToolResult) -> &Value {
    assert_ne!(result.is_error, Some(true), "{result:?}");
    result
        .structured_content
        .as_ref()
        .expect("structured content")
}

fn server_with(runtime: ToolRuntime, options: ServeOptions) -> ToolServer {
    ToolServer::new(runtime, options)
}
