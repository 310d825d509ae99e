//! Servers of every MCP era, over stdio and streamable HTTP: a 2026-07-28 server (discover
//! only), a legacy one (initialize only, discover refused), a dual one, a legacy server that
//! exits on discover and one that never answers it. Each lists, calls, follows its list
//! changes and survives a restart; the era found is the provider's protocol version.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use toolwire_core::provider::ToolProvider;
use toolwire_core::{
    mcp::{McpHttp, McpOptions, McpProvider, McpServer, McpTimeouts},
    ToolError, ToolRuntime,
};

use crate::{fixture_command, HttpFixture, HANG_BOUND};

const MODERN: &str = "2026-07-28";
const LEGACY: &str = "2025-11-25";

/// A start timeout under rmcp's fixed 10 s wait for an unanswered `server/discover`: a silent
/// legacy server still connects within it only if the probe is bounded (to a third of it, 3 s,
/// which leaves 6 s for `initialize` on a loaded machine). Servers that answer discover get
/// `HANG_BOUND`: their start is not what such a test is about, and a shared machine is slow.
const SHORT_START: Duration = Duration::from_secs(9);

/// Where a fixture in one era runs: a stdio command, or an HTTP fixture kept alive beside its
/// URL.
enum Transport {
    Stdio,
    Http,
}

struct Served {
    target: McpServer,
    _http: Option<HttpFixture>,
}

fn serve(transport: &Transport, args: &[&str]) -> Served {
    match transport {
        Transport::Stdio => Served {
            target: fixture_command(args).into(),
            _http: None,
        },
        Transport::Http => {
            let http = HttpFixture::start(args);
            Served {
                target: McpHttp::new(&http.url).into(),
                _http: Some(http),
            }
        }
    }
}

fn options(start: Duration) -> McpOptions {
    McpOptions {
        timeouts: McpTimeouts {
            start,
            call: HANG_BOUND,
            ..McpTimeouts::default()
        },
        ..McpOptions::default()
    }
}

async fn connect(name: &str, served: &Served, start: Duration) -> McpProvider {
    McpProvider::connect_with(name, served.target.clone(), options(start))
        .await
        .unwrap_or_else(|e| panic!("{name} connects: {e}"))
}

/// `discover_count`'s count, as the fixture answered it.
async fn discovers_seen(provider: &McpProvider, name: &str) -> Value {
    let out = provider
        .call(&format!("mcp/{name}/discover_count"), json!({}))
        .await
        .unwrap();
    out.to_value()["discovers"].clone()
}

/// Lists, calls `echo`, and checks the era, for `provider`.
async fn lists_and_calls(provider: &McpProvider, name: &str, version: &str) {
    assert_eq!(
        provider.protocol_version().as_deref(),
        Some(version),
        "{name}"
    );
    let tools = provider.list_tools().await.unwrap();
    assert!(
        tools.iter().any(|t| t.name == format!("mcp/{name}/echo")),
        "{name}: {tools:?}"
    );
    let out = provider
        .call(&format!("mcp/{name}/echo"), json!({"n": 1}))
        .await
        .unwrap();
    assert_eq!(out.to_value()["tool"], "echo", "{name}");
    assert_eq!(out.to_value()["arguments"]["n"], 1, "{name}");
}

#[tokio::test]
async fn every_era_lists_and_calls_over_stdio_and_http_and_says_its_version() {
    let eras = [
        ("dual", MODERN),
        ("modern", MODERN),
        ("legacy", LEGACY),
        ("legacy-silent", LEGACY),
    ];
    for (transport, how) in [(Transport::Stdio, "stdio"), (Transport::Http, "http")] {
        for (era, version) in eras {
            let served = serve(&transport, &["--era", era]);
            let name = format!("{}_{how}", era.replace('-', "_"));
            // Only the silent server is what a short start is about; the others answer discover
            // and get the generous bound (a loaded machine can be slow to start a process).
            let start = if era == "legacy-silent" {
                SHORT_START
            } else {
                HANG_BOUND
            };
            let provider = connect(&name, &served, start).await;
            lists_and_calls(&provider, &name, version).await;
            // The runtime's report shows the era beside the provider.
            let runtime = ToolRuntime::new();
            let _ = runtime.add_provider(Arc::new(provider)).await.unwrap();
            let report = runtime.report();
            assert_eq!(
                report.providers[0].protocol_version.as_deref(),
                Some(version),
                "{name}"
            );
        }
    }
}

#[tokio::test]
async fn a_stdio_server_that_exits_on_discover_is_started_again_with_initialize() {
    let served = serve(&Transport::Stdio, &["--era", "legacy-exits"]);
    let provider = connect("exits", &served, HANG_BOUND).await;
    lists_and_calls(&provider, "exits", LEGACY).await;
    // Crashed and reloaded: its era is remembered, so it is not probed (and killed) again.
    let err = provider
        .call("mcp/exits/crash", json!({}))
        .await
        .unwrap_err();
    assert!(matches!(err, ToolError::Unavailable { .. }), "{err:?}");
    assert!(provider.is_failed());
    provider.reload().await.unwrap();
    lists_and_calls(&provider, "exits", LEGACY).await;
}

#[tokio::test]
async fn a_silent_legacy_server_connects_within_a_start_timeout_under_ten_seconds() {
    for transport in [Transport::Stdio, Transport::Http] {
        let served = serve(&transport, &["--era", "legacy-silent"]);
        // Without the probe budget, rmcp's Auto waits 10 s and this start times out.
        let provider = connect("silent", &served, SHORT_START).await;
        lists_and_calls(&provider, "silent", LEGACY).await;
        assert_eq!(
            discovers_seen(&provider, "silent").await,
            1,
            "one probe was sent"
        );
    }
}

#[tokio::test]
async fn a_second_connection_to_an_http_origin_skips_the_probe() {
    for era in ["legacy-silent", "legacy", "modern"] {
        let served = serve(&Transport::Http, &["--era", era]);
        let start = if era == "legacy-silent" {
            SHORT_START
        } else {
            HANG_BOUND
        };
        let first = connect("first", &served, start).await;
        let second = connect("second", &served, start).await;
        assert_eq!(first.protocol_version(), second.protocol_version(), "{era}");
        let seen = discovers_seen(&second, "second").await;
        // A legacy origin is not probed again; a modern one is spoken to with server/discover
        // once per connection (its handshake), not probed and then spoken to.
        assert_eq!(seen, if era == "modern" { 2 } else { 1 }, "{era}");
    }
}

/// Calls `change_tools` and waits for the provider's change signal.
async fn change_is_announced(provider: &McpProvider, name: &str) {
    let mut changed = provider.tools_changed().unwrap();
    changed.borrow_and_update();
    provider
        .call(&format!("mcp/{name}/change_tools"), json!({}))
        .await
        .unwrap();
    tokio::time::timeout(HANG_BOUND, changed.changed())
        .await
        .unwrap_or_else(|_| panic!("{name}: the change is announced"))
        .unwrap();
    let tools = provider.list_tools().await.unwrap();
    assert!(
        tools
            .iter()
            .any(|t| t.name == format!("mcp/{name}/added_later")),
        "{name}"
    );
}

#[tokio::test]
async fn list_changes_arrive_in_every_era_and_again_after_a_restart() {
    for (transport, how) in [(Transport::Stdio, "stdio"), (Transport::Http, "http")] {
        for era in ["dual", "modern", "legacy"] {
            let served = serve(&transport, &["--era", era, "--extras"]);
            let name = format!("{era}_{how}");
            let provider = connect(&name, &served, HANG_BOUND).await;
            change_is_announced(&provider, &name).await;
            match transport {
                // A crashed server, reloaded: a fresh process, subscribed again.
                Transport::Stdio => {
                    let crash = provider.call(&format!("mcp/{name}/crash"), json!({})).await;
                    assert!(crash.is_err(), "{name}");
                    assert!(provider.is_failed(), "{name}");
                }
                // The same server, a new connection: subscribed again.
                Transport::Http => {}
            }
            provider.reload().await.unwrap();
            change_is_announced(&provider, &name).await;
        }
    }
}

#[tokio::test]
async fn a_list_whose_ttl_ran_out_is_read_again_on_the_next_call() {
    for transport in [Transport::Stdio, Transport::Http] {
        let served = serve(&transport, &["--era", "modern", "--ttl-ms", "1"]);
        let provider = connect("ttl", &served, HANG_BOUND).await;
        let mut changed = provider.tools_changed().unwrap();
        provider.list_tools().await.unwrap();
        changed.borrow_and_update();
        // Each call checks the list's freshness; the first after the 1 ms asks for a re-list.
        let asked = async {
            loop {
                provider.call("mcp/ttl/echo", json!({})).await.unwrap();
                if changed.has_changed().unwrap() {
                    return;
                }
            }
        };
        tokio::time::timeout(HANG_BOUND, asked)
            .await
            .expect("an expired list is read again");
    }
}

#[tokio::test]
async fn a_list_without_a_positive_ttl_is_not_read_again_by_calls() {
    for ttl in [None, Some("0")] {
        let mut args = vec!["--era", "modern"];
        if let Some(ttl) = ttl {
            args.extend(["--ttl-ms", ttl]);
        }
        let served = serve(&Transport::Stdio, &args);
        let provider = connect("fresh", &served, HANG_BOUND).await;
        let mut changed = provider.tools_changed().unwrap();
        provider.list_tools().await.unwrap();
        changed.borrow_and_update();
        for _ in 0..3 {
            provider.call("mcp/fresh/echo", json!({})).await.unwrap();
        }
        assert!(!changed.has_changed().unwrap(), "ttl {ttl:?}");
    }
}

#[tokio::test]
async fn a_tool_that_asks_for_input_is_a_typed_error_naming_it_and_what_it_asked() {
    for transport in [Transport::Stdio, Transport::Http] {
        let served = serve(&transport, &["--era", "modern", "--input-required"]);
        let provider = connect("wx", &served, HANG_BOUND).await;
        let err = provider
            .call("mcp/wx/asks_city", json!({}))
            .await
            .unwrap_err();
        match &err {
            ToolError::InputRequired {
                tool,
                provider,
                asked,
            } => {
                assert_eq!(tool, "mcp/wx/asks_city");
                assert_eq!(provider, "mcp/wx");
                assert!(
                    asked.contains("`city`") && asked.contains("Which city?"),
                    "{asked}"
                );
            }
            other => panic!("not InputRequired: {other:?}"),
        }
        assert!(!provider.is_failed(), "the server is fine");
        lists_and_calls(&provider, "wx", MODERN).await;
    }
}
