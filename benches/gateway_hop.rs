//! What one hop through the gateway costs (issue 25, section 6), beside its honest floor, in
//! the same run. rmcp's client calls the fixture server's `echo` over stdio three ways:
//!
//! - `direct`: the fixture is the client's child process;
//! - `through_a_byte_relay`: the client's child is `toolwire-byte-relay`
//!   (`fixtures/test-support/src/bin/byte_relay.rs`), which starts the fixture and only copies
//!   bytes both ways: one more process, its pipes and its wakeups, and no work of its own;
//! - `through_toolwire_serve`: the client's child is `toolwire serve --mcp-stdio` over the
//!   fixture, the gateway as a user runs it.
//!
//! A gateway must add a hop, so the relay is its floor; the ratio of medians
//! `through_toolwire_serve / through_a_byte_relay` is what the gateway adds beyond the hop
//! (the aim: at most 1.25x), and `/ direct` what a user pays.

use std::hint::black_box;
use std::path::Path;
use std::process::Stdio;

use criterion::{criterion_group, criterion_main, Criterion};
use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};
use serde_json::json;
use toolwire_test_support::fixture_server::{byte_relay, fixture_server};
use toolwire_test_support::workspace_binary::workspace_binary;

type Client = RunningService<RoleClient, ()>;

/// rmcp's client over the stdio of `program args`, handshake done (its stderr discarded: the
/// gateway prints its census there).
async fn client_of(program: &Path, args: &[&str]) -> Client {
    let mut command = tokio::process::Command::new(program);
    command.args(args);
    let (transport, _) = TokioChildProcess::builder(command)
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.display()));
    ().serve(transport).await.expect("the handshake")
}

async fn call(client: &Client, name: &str) {
    let params = CallToolRequestParams::new(name.to_owned())
        .with_arguments(json!({"x": 1}).as_object().unwrap().clone());
    let result = client.call_tool(params).await.expect("the call");
    assert_ne!(result.is_error, Some(true), "{result:?}");
    black_box(result);
}

fn bench_hop(c: &mut Criterion) {
    let fixture = fixture_server();
    let relay = byte_relay();
    let toolwire = workspace_binary("toolwire-cli", "toolwire");
    let fixture_arg = fixture.to_str().expect("a UTF-8 path");
    let backend = format!("fx={fixture_arg}");
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (direct, relayed, gateway) = rt.block_on(async {
        (
            client_of(&fixture, &[]).await,
            client_of(&relay, &[fixture_arg]).await,
            client_of(&toolwire, &["serve", "--mcp-stdio", &backend]).await,
        )
    });
    let mut group = c.benchmark_group("gateway_hop");
    group.bench_function("direct", |b| b.iter(|| rt.block_on(call(&direct, "echo"))));
    group.bench_function("through_a_byte_relay", |b| {
        b.iter(|| rt.block_on(call(&relayed, "echo")))
    });
    group.bench_function("through_toolwire_serve", |b| {
        b.iter(|| rt.block_on(call(&gateway, "mcp_fx_echo")))
    });
    group.finish();
    rt.block_on(async {
        for client in [direct, relayed, gateway] {
            let _ = client.cancel().await;
        }
    });
}

criterion_group!(benches, bench_hop);
criterion_main!(benches);
