//! Calls per second through `toolwire serve` replicas behind nginx (issue 25, section 4): a batch
//! of [`BATCH`] concurrent `tools/call`s of the fixture's `echo`, made by [`CLIENTS`] rmcp
//! clients in the 2026-07-28 lifecycle (no session: nginx sends each request to the next
//! replica), per iteration. Rows, all in one run:
//!
//! - `direct/1`: one replica, no nginx (the baseline: what nginx's hop costs);
//! - `nginx/1`: one replica behind nginx;
//! - `nginx/3`: three replicas behind nginx, round robin, each with its own backend.
//!
//! criterion reports each as elements (calls) per second. On a 2-core machine the three
//! replicas, their backends, nginx and the clients share two cores, so `nginx/3` shows what the
//! proxying costs more than what scaling out gains: docs/performance.md says how to read it.

use std::path::Path;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rmcp::model::{CallToolRequestParams, ProtocolVersion};
use rmcp::service::RunningService;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientLifecycleMode, ClientServiceExt, RoleClient};
use serde_json::json;
use toolwire_test_support::fixture_server::fixture_server;
use toolwire_test_support::load_balancer::{Nginx, Replica};

/// Calls in flight at once in one iteration.
const BATCH: usize = 48;
/// Clients the batch is spread over (each a connection pool of its own).
const CLIENTS: usize = 6;

type Client = RunningService<RoleClient, ()>;

async fn modern_client(url: &str) -> Client {
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(url),
    );
    let lifecycle = ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    };
    ().serve_with_lifecycle(transport, lifecycle)
        .await
        .expect("a 2026-07-28 client")
}

/// One batch: every call answered, none an error.
async fn batch(clients: &[Client]) {
    let calls = (0..BATCH).map(|i| {
        let client = &clients[i % clients.len()];
        let params = CallToolRequestParams::new("mcp_fx_echo")
            .with_arguments(json!({"i": i}).as_object().unwrap().clone());
        client.call_tool(params)
    });
    for result in futures::future::join_all(calls).await {
        let result = result.expect("the call");
        assert_ne!(result.is_error, Some(true), "{result:?}");
    }
}

fn replicas(n: usize) -> Vec<Replica> {
    let toolwire = Path::new(env!("CARGO_BIN_EXE_toolwire"));
    let args = [
        "--mcp-stdio".to_owned(),
        format!("fx={}", fixture_server().display()),
    ];
    (1..=n)
        .map(|i| Replica::start(toolwire, &args, &format!("replica-{i}")))
        .collect()
}

fn bench_scale(c: &mut Criterion) {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let mut group = c.benchmark_group("scale_out_calls");
    group
        .throughput(Throughput::Elements(BATCH as u64))
        .sample_size(20)
        .warm_up_time(Duration::from_secs(2))
        .measurement_time(Duration::from_secs(8));

    let one = replicas(1);
    let three = replicas(3);
    let nginx_one = Nginx::start(&one);
    let nginx_three = Nginx::start(&three);
    for (row, replicas, url) in [
        ("direct", 1, one[0].url.as_str()),
        ("nginx", 1, nginx_one.url.as_str()),
        ("nginx", 3, nginx_three.url.as_str()),
    ] {
        let clients: Vec<Client> = rt.block_on(futures::future::join_all(
            (0..CLIENTS).map(|_| modern_client(url)),
        ));
        group.bench_function(BenchmarkId::new(row, replicas), |b| {
            b.iter(|| rt.block_on(batch(&clients)))
        });
        rt.block_on(async {
            for client in clients {
                let _ = client.cancel().await;
            }
        });
    }
    group.finish();
}

criterion_group!(benches, bench_scale);
criterion_main!(benches);
