//! Scale out (issue 25, section 4): three `toolwire serve --http` replicas, each with its own
//! backends (the two clashing fixture servers), behind a real load balancer from Debian's
//! packages on loopback. nginx runs `deploy/nginx/toolwire-proxy.conf` (round robin, no
//! stickiness) for 2026-07-28 clients; HAProxy runs `deploy/haproxy/toolwire-gateway.cfg`, which
//! keeps a legacy session on the replica that opened it.
//!
//! Which replica ran a call is in its answer: each replica's backends inherit a probe
//! (`TOOLWIRE_FIXTURE_PROBE`, `replica-N`) that the fixture's `whereami` tool answers with. A
//! raw request reads nginx's `X-Upstream` header. A missing nginx or HAProxy fails the test,
//! naming `scripts/setup/30-nginx.sh` / `31-haproxy.sh`.

use std::collections::BTreeSet;

use rmcp::model::ProtocolVersion;
use rmcp::service::RunningService;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientLifecycleMode, ClientServiceExt, RoleClient, ServiceExt};
use serde_json::{json, Value};
use toolwire_test_support::load_balancer::{Haproxy, Nginx, Replica};

use crate::{backends, call, reached, text, HANG_BOUND};

/// The meta-tool that runs a tool found through `tool_search` by its name, for a 2026-07-28
/// client whose list never changes (issue 25, section 3; built by `ToolServer`).
const RUN_BY_NAME: &str = "tool_call";

/// Three replicas over the fixture servers (`fx` with `--extras`, for `whereami`), each
/// started with `extra` flags and its own probe, `replica-1` to `replica-3`.
fn replicas(extra: &[&str]) -> [Replica; 3] {
    let mut args = backends("--extras");
    args.extend(extra.iter().map(|s| s.to_string()));
    let toolwire = std::path::Path::new(env!("CARGO_BIN_EXE_toolwire"));
    [1, 2, 3].map(|i| Replica::start(toolwire, &args, &format!("replica-{i}")))
}

type Client = RunningService<RoleClient, ()>;

/// An rmcp client of `url` in the 2026-07-28 lifecycle (`server/discover`, no session).
async fn modern_client(url: &str) -> Client {
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(url),
    );
    let lifecycle = ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    };
    tokio::time::timeout(HANG_BOUND, ().serve_with_lifecycle(transport, lifecycle))
        .await
        .expect("no hang")
        .unwrap_or_else(|err| panic!("a 2026-07-28 client of {url}: {err}"))
}

/// An rmcp client of `url` in the legacy lifecycle (`initialize`, an `Mcp-Session-Id`).
async fn legacy_client(url: &str) -> Client {
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(url),
    );
    tokio::time::timeout(HANG_BOUND, ().serve(transport))
        .await
        .expect("no hang")
        .unwrap_or_else(|err| panic!("a legacy client of {url}: {err}"))
}

/// The probe of the replica whose backend answered `result` (the fixture's `whereami`).
fn probe(result: &rmcp::model::CallToolResult) -> String {
    assert_ne!(result.is_error, Some(true), "{result:?}");
    let answer: Value = serde_json::from_str(&text(result)).expect("whereami's JSON answer");
    answer["probe"]
        .as_str()
        .unwrap_or_else(|| panic!("no probe in {answer}"))
        .to_owned()
}

/// Asserts that `probes`, in the order the calls were made, are three replicas, each call on a
/// replica other than the call before it's.
fn assert_spread(probes: &[String]) {
    for pair in probes.windows(2) {
        assert_ne!(
            pair[0], pair[1],
            "two consecutive calls on one replica: {probes:?}"
        );
    }
    let distinct: BTreeSet<&String> = probes.iter().collect();
    assert_eq!(distinct.len(), 3, "{probes:?}");
}

#[tokio::test]
async fn nginx_sends_each_request_to_the_next_replica() {
    let replicas = replicas(&[]);
    let nginx = Nginx::start(&replicas);
    let http = reqwest::Client::new();
    let mut upstreams = Vec::new();
    for id in 0..6 {
        // A 2026-07-28 `server/discover`, standing alone (its `_meta` and headers): the
        // replica that answers it is in nginx's header.
        let discover = json!({"jsonrpc": "2.0", "id": id, "method": "server/discover",
        "params": {"_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"},
            "io.modelcontextprotocol/clientCapabilities": {}
        }}});
        let answer = http
            .post(&nginx.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", "server/discover")
            .body(discover.to_string())
            .send()
            .await
            .expect("nginx answers");
        // A replica answered it (a refusal would name an upstream too).
        assert_eq!(answer.status(), 200, "{:?}", answer.headers());
        let upstream = answer
            .headers()
            .get("x-upstream")
            .unwrap_or_else(|| panic!("no X-Upstream in {:?}", answer.headers()))
            .to_str()
            .unwrap()
            .to_owned();
        upstreams.push(upstream);
    }
    let addrs: BTreeSet<String> = replicas.iter().map(|r| r.addr.to_string()).collect();
    for upstream in &upstreams {
        assert!(
            addrs.contains(upstream),
            "{upstream} is not a replica: {addrs:?}"
        );
    }
    // Round robin: the cycle of three, twice.
    assert_eq!(upstreams[..3], upstreams[3..], "{upstreams:?}");
    assert_eq!(
        upstreams[..3].iter().collect::<BTreeSet<_>>().len(),
        3,
        "{upstreams:?}"
    );
}

#[tokio::test]
async fn a_2026_07_28_client_through_nginx_reaches_every_tool_whichever_replica_answers() {
    let replicas = replicas(&[]);
    let nginx = Nginx::start(&replicas);
    let client = modern_client(&nginx.url).await;

    let mut probes = Vec::new();
    for _ in 0..6 {
        probes.push(probe(&call(&client, "mcp_fx_whereami", json!({})).await));
    }
    assert_spread(&probes);

    // Every replica lists the same tools, whichever answers.
    let first = served_names(&client).await;
    for _ in 0..2 {
        assert_eq!(served_names(&client).await, first);
    }
    // Each call, on whichever replica, reaches exactly its tool on that replica's backends.
    for (called, bare, arguments) in [
        ("mcp_fx_files_stat", "stat", json!({})),
        ("mcp/fx_files/read", "read", json!({})),
        ("mcp/fx/files/read", "files/read", json!({"path": "a"})),
        ("mcp_fx_echo", "echo", json!({})),
        ("mcp/fx/search.web", "search.web", json!({"query": "q"})),
        ("mcp/fx/search_web", "search_web", json!({"query": "q"})),
        ("mcp_fx_tool_search", "tool_search", json!({})),
        ("mcp_fx_titled", "titled", json!({})),
        (
            "mcp_fx_a_tool_name_that_is_seventy_characters_long_so_the_form_m",
            "a_tool_name_that_is_seventy_characters_long_so_the_form_must_cut_it_xy",
            json!({}),
        ),
        ("mcp_fx_files_report_daily", "report_daily", json!({})),
        ("mcp_fx_files_report_weekly", "report_weekly", json!({})),
        ("mcp_fx_undescribed", "undescribed", json!({})),
    ] {
        // A form is listed; a real name (with a `/`) is not, and reaches its tool by hop 5.
        assert_eq!(
            first.iter().any(|n| n == called),
            !called.contains('/'),
            "{called} in {first:?}"
        );
        for _ in 0..3 {
            assert_eq!(
                reached(&call(&client, called, arguments.clone()).await),
                bare,
                "{called}"
            );
        }
    }
}

#[tokio::test]
async fn the_deferred_catalog_flow_crosses_replicas() {
    let replicas = replicas(&["--catalog", "deferred"]);
    let nginx = Nginx::start(&replicas);
    let client = modern_client(&nginx.url).await;

    // The list is the meta-tools, the same on every replica, and stays so.
    let listed = served_names(&client).await;
    assert!(listed.iter().any(|n| n == "tool_search"), "{listed:?}");
    assert!(listed.iter().any(|n| n == RUN_BY_NAME), "{listed:?}");
    assert!(!listed.iter().any(|n| n == "mcp_fx_whereami"), "{listed:?}");

    // Found on one replica...
    let found = call(
        &client,
        "tool_search",
        json!({"query": "working directory"}),
    )
    .await;
    assert_ne!(found.is_error, Some(true), "{found:?}");
    assert!(text(&found).contains("mcp_fx_whereami"), "{}", text(&found));
    // ...its schema read on another (the next request is the next replica's)...
    let schema = call(&client, "tool_schema", json!({"name": "mcp_fx_whereami"})).await;
    assert_ne!(schema.is_error, Some(true), "{schema:?}");
    assert!(
        text(&schema).contains("mcp_fx_whereami"),
        "{}",
        text(&schema)
    );
    // ...run by its name three times in a row: round robin puts the runs on three replicas,
    // so at least two ran where the search did not.
    let mut probes = Vec::new();
    for _ in 0..3 {
        let ran = call(
            &client,
            RUN_BY_NAME,
            json!({"name": "mcp_fx_whereami", "arguments": {}}),
        )
        .await;
        probes.push(probe(&ran));
    }
    assert_spread(&probes);
    // Nothing any of that did changed the list.
    for _ in 0..3 {
        assert_eq!(served_names(&client).await, listed);
    }
}

#[tokio::test]
async fn through_haproxy_a_legacy_session_stays_on_its_replica_and_sessions_spread() {
    let replicas = replicas(&[]);
    let haproxy = Haproxy::start(&replicas);
    let mut homes = Vec::new();
    for _ in 0..3 {
        let client = legacy_client(&haproxy.url).await;
        let mut probes = Vec::new();
        for _ in 0..4 {
            probes.push(probe(&call(&client, "mcp_fx_whereami", json!({})).await));
        }
        assert!(
            probes.iter().all(|p| *p == probes[0]),
            "a session moved: {probes:?}"
        );
        assert_eq!(
            reached(&call(&client, "mcp_fx_files_stat", json!({})).await),
            "stat"
        );
        homes.push(probes[0].clone());
    }
    // Each new session went round robin: three sessions, three replicas.
    assert_eq!(homes.iter().collect::<BTreeSet<_>>().len(), 3, "{homes:?}");
    // A 2026-07-28 client through the same config still goes round robin.
    let modern = modern_client(&haproxy.url).await;
    let mut probes = Vec::new();
    for _ in 0..3 {
        probes.push(probe(&call(&modern, "mcp_fx_whereami", json!({})).await));
    }
    assert_spread(&probes);
}

async fn served_names(client: &Client) -> Vec<String> {
    let tools = tokio::time::timeout(HANG_BOUND, client.list_all_tools())
        .await
        .expect("no hang")
        .expect("tools/list answers");
    tools.into_iter().map(|t| t.name.into_owned()).collect()
}
