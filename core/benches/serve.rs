//! What serving costs (issue 19, point 8), each beside its baseline in the same run:
//!
//! - `gateway_call`: one `tools/call` of the fixture server's `echo` by rmcp's client, made
//!   directly to the fixture (over its stdio) and through a `ToolServer` whose runtime reaches
//!   the same fixture (`McpProvider`, over stdio); the client reaches the `ToolServer` over an
//!   in-process byte stream, newline-delimited JSON-RPC as over stdio. The ratio of medians is
//!   the gateway's cost.
//! - `tools_list_2486`: `tools/list` of the 2,486 corpus tools through a `ToolServer` (one page),
//!   beside `serde_json::to_vec` of that same list, and beside writing it and reading it back
//!   (the floor of any exchange of it).

use std::hint::black_box;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion};
use rmcp::model::{CallToolRequestParams, ListToolsResult, PaginatedRequestParams};
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};
use serde_json::json;
use toolwire_core::mcp::serve::{ServeOptions, ToolServer};
use toolwire_core::mcp::{McpCommand, McpProvider};
use toolwire_core::provider::provider_fn;
use toolwire_core::runtime::CatalogPolicy;
use toolwire_core::{ToolDefinition, ToolRuntime};
use toolwire_test_support::corpus::corpus;
use toolwire_test_support::fixture_server::fixture_server;

type Client = RunningService<RoleClient, ()>;

/// rmcp's client over an in-process byte stream to one session of `server`.
async fn client_of(server: ToolServer) -> Client {
    let (client_end, server_end) = tokio::io::duplex(1 << 22);
    let (read, write) = tokio::io::split(server_end);
    tokio::spawn(async move { server.serve_io(read, write).await });
    ().serve(client_end).await.expect("the handshake")
}

async fn call(client: &Client, name: &str) {
    let params = CallToolRequestParams::new(name.to_owned())
        .with_arguments(json!({"x": 1}).as_object().unwrap().clone());
    let result = client.call_tool(params).await.expect("the call");
    assert_ne!(result.is_error, Some(true));
    black_box(result);
}

fn bench_call(c: &mut Criterion) {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (direct, gateway) = rt.block_on(async {
        let fixture = fixture_server();
        let direct: Client =
            ().serve(TokioChildProcess::new(tokio::process::Command::new(&fixture)).unwrap())
                .await
                .expect("the fixture starts");
        let runtime = ToolRuntime::new();
        let provider = McpProvider::spawn("fx", McpCommand::new(fixture.to_string_lossy()))
            .await
            .expect("the fixture starts");
        let _ = runtime.add_provider(Arc::new(provider)).await.unwrap();
        let gateway = client_of(ToolServer::new(runtime, ServeOptions::default())).await;
        (direct, gateway)
    });
    let mut group = c.benchmark_group("gateway_call");
    group.bench_function("direct_to_the_backend", |b| {
        b.iter(|| rt.block_on(call(&direct, "echo")))
    });
    group.bench_function("through_the_gateway", |b| {
        b.iter(|| rt.block_on(call(&gateway, "mcp_fx_echo")))
    });
    group.finish();
    rt.block_on(async {
        let _ = direct.cancel().await;
        let _ = gateway.cancel().await;
    });
}

/// The corpus's 2,486 tools, one provider per server, as `core/benches/runtime.rs` loads them.
async fn corpus_runtime() -> ToolRuntime {
    let runtime = ToolRuntime::builder()
        .catalog(CatalogPolicy::All)
        .build()
        .unwrap();
    for server in corpus("mcp-servers.json")["servers"].as_array().unwrap() {
        let name = server["server"].as_str().unwrap().to_owned();
        let definitions = server["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                let tool = t.as_str().unwrap();
                ToolDefinition::new(
                    format!("mcp/{name}/{tool}"),
                    format!("The {tool} tool of the {name} server."),
                    json!({
                        "type": "object",
                        "properties": {"query": {"type": "string", "description": "What to look for."}},
                        "required": ["query"],
                    }),
                )
            })
            .collect();
        let provider = provider_fn(
            format!("mcp/{name}"),
            definitions,
            |_, a| async move { Ok(a) },
        );
        let _ = runtime.add_provider(Arc::new(provider)).await.unwrap();
    }
    runtime
}

fn bench_list(c: &mut Criterion) {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (client, listed) = rt.block_on(async {
        let server = ToolServer::new(
            corpus_runtime().await,
            ServeOptions::default().page_size(5_000),
        );
        let listed = server.listing().tools;
        (client_of(server).await, listed)
    });
    assert!(listed.len() > 2_400, "{} tools served", listed.len());
    let page = ListToolsResult::with_all_items(listed);
    let mut group = c.benchmark_group("tools_list_2486");
    group.sample_size(30);
    group.bench_function("serialising_the_list", |b| {
        b.iter(|| serde_json::to_vec(&page).unwrap())
    });
    // The floor of any MCP exchange of this page: writing it and rmcp's `ListToolsResult`
    // read back from those bytes, as a client must.
    group.bench_function("serialising_and_parsing_back", |b| {
        b.iter(|| {
            let bytes = serde_json::to_vec(&page).unwrap();
            black_box(serde_json::from_slice::<ListToolsResult>(&bytes).unwrap())
        })
    });
    group.bench_function("through_the_gateway", |b| {
        b.iter(|| {
            rt.block_on(async {
                let page = client
                    .list_tools(Some(PaginatedRequestParams::default()))
                    .await
                    .unwrap();
                assert!(page.next_cursor.is_none());
                black_box(page)
            })
        })
    });
    group.finish();
    rt.block_on(async {
        let _ = client.cancel().await;
    });
}

criterion_group!(benches, bench_call, bench_list);
criterion_main!(benches);
