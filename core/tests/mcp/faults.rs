//! A server that crashes, hangs, is reloaded under a call in flight, or is removed.

use std::time::Duration;

use serde_json::json;
use toolwire_core::provider::ToolProvider;
use toolwire_core::{
    runtime::report::ReportStatus,
    runtime::{DispatchError, LoadProblem, LoadStatus},
    ToolError, ToolRuntime,
};

use crate::{
    assert_search_clash, fixture, fixture_with_timeout, runtime_with, status_of, HANG_BOUND,
};

/// A `sleep` that never ends within a test: the fixture's stand-in for a server that hangs.
const FOREVER_MS: u64 = 24 * 60 * 60 * 1000;

#[tokio::test]
async fn a_crashed_server_fails_only_its_tools_and_can_be_reloaded() {
    let runtime = runtime_with(&["crashy", "steady"]).await;
    let request = runtime.request();
    let err = request
        .dispatch("mcp_crashy_crash", json!({}))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, DispatchError::Tool(ToolError::Unavailable { tool, provider, .. }) if tool == "mcp/crashy/crash" && provider == "mcp/crashy"),
        "{err:?}"
    );
    assert!(matches!(
        runtime.provider_status("mcp/crashy"),
        Some(LoadStatus::Failed { .. })
    ));
    // The other provider keeps working, on this request and the next.
    assert!(request.dispatch("mcp_steady_echo", json!({})).await.is_ok());
    let next = runtime.request();
    assert!(next
        .census()
        .offered()
        .all(|t| !t.name().starts_with("mcp/crashy/")));
    assert!(next.dispatch("mcp_steady_echo", json!({})).await.is_ok());
    // A call from history to the down server's tool names it, by either name.
    for called in ["mcp_crashy_echo", "mcp/crashy/echo"] {
        let err = next.dispatch(called, json!({})).await.unwrap_err();
        assert!(
            matches!(&err, DispatchError::Tool(ToolError::Unavailable { tool, .. }) if tool == "mcp/crashy/echo"),
            "{err:?}"
        );
    }
    assert_eq!(
        status_of(&runtime.report(), "mcp/crashy/echo").status,
        ReportStatus::Unavailable
    );
    // Reloaded, it answers again.
    assert_eq!(
        runtime.reload_provider("mcp/crashy").await.unwrap(),
        runtime.provider_status("mcp/crashy").unwrap()
    );
    let out = runtime
        .request()
        .dispatch("mcp_crashy_echo", json!({"n": 1}))
        .await
        .unwrap();
    assert_eq!(out.output.to_value()["arguments"]["n"], 1);
}

#[tokio::test]
async fn a_call_that_never_ends_times_out_and_its_server_answers_on() {
    // The one short timeout: this test needs it to fire, on a call that never ends. The calls
    // after it answer at once, so for them it is still a generous bound on a hang. (A server
    // that stops answering altogether is `cancel.rs`'s.)
    let timeout = Duration::from_secs(5);
    let runtime = ToolRuntime::new();
    let status = runtime
        .add_provider(fixture_with_timeout("slow", &[], timeout).await)
        .await
        .unwrap();
    assert_search_clash(&status, "slow");
    let status = runtime
        .add_provider(fixture("quick", &[]).await)
        .await
        .unwrap();
    assert_search_clash(&status, "quick");
    let request = runtime.request();
    let err = request
        .dispatch("mcp_slow_sleep", json!({"ms": FOREVER_MS}))
        .await
        .unwrap_err();
    let DispatchError::Tool(ToolError::TimedOut {
        tool,
        provider,
        millis,
        detail,
    }) = &err
    else {
        panic!("not a timeout: {err:?}");
    };
    assert_eq!(
        (tool.as_str(), provider.as_str(), *millis),
        ("mcp/slow/sleep", "mcp/slow", 5000)
    );
    // The server's words on stderr so far come with the error.
    assert!(
        detail.contains(&format!("fixture: sleeping {FOREVER_MS} ms")),
        "{err}"
    );
    assert!(request
        .dispatch("mcp_quick_sleep", json!({"ms": 1}))
        .await
        .is_ok());
    // The call was cancelled, not its server: it answers the next call without a reload.
    assert_search_clash(&runtime.provider_status("mcp/slow").unwrap(), "slow");
    assert!(runtime
        .request()
        .dispatch("mcp_slow_sleep", json!({"ms": 1}))
        .await
        .is_ok());
}

#[tokio::test]
async fn a_call_that_fails_after_a_reload_does_not_fail_the_reloaded_server() {
    // The order is made by events, not by a clock: `hold` connects to this listener once the
    // old server has the call, and that server exits mid-call only when the test closes the
    // connection, after the reload.
    let runtime = ToolRuntime::new();
    let status = runtime
        .add_provider(fixture("reloading", &["--hold"]).await)
        .await
        .unwrap();
    assert_search_clash(&status, "reloading");
    let listener = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
    let port = listener.local_addr().unwrap().port();
    let request = runtime.request();
    let stale = request.dispatch("mcp_reloading_hold", json!({"port": port}));
    // A plain thread, not `spawn_blocking`: if the test fails, nothing waits for it to end.
    let (accepted, connected) = tokio::sync::oneshot::channel();
    std::thread::spawn(move || accepted.send(listener.accept()));
    let reload = async {
        let (connection, _) = connected
            .await
            .unwrap()
            .expect("the old server connects once it has the call");
        let reloaded = runtime.reload_provider("mcp/reloading").await.unwrap();
        drop(connection); // The old server exits: the call in flight on it fails now.
        reloaded
    };
    let (stale, reloaded) = tokio::time::timeout(HANG_BOUND, async { tokio::join!(stale, reload) })
        .await
        .expect("the stale call ends once its server exits");
    assert!(
        matches!(
            &stale,
            Err(DispatchError::Tool(ToolError::Unavailable { tool, .. }))
                if tool == "mcp/reloading/hold"
        ),
        "{stale:?}"
    );
    assert_eq!(
        reloaded,
        LoadStatus::Failed {
            problems: vec![LoadProblem::SharedForm {
                form: "mcp_reloading_search_web".into(),
                tools: vec![
                    "mcp/reloading/search.web".into(),
                    "mcp/reloading/search_web".into()
                ],
            }]
        }
    );
    // The stale failure neither killed the new server nor marked the provider down.
    let status = runtime.provider_status("mcp/reloading").unwrap();
    assert_eq!(status, reloaded, "{status:?}");
    let out = runtime
        .request()
        .dispatch("mcp_reloading_echo", json!({"n": 2}))
        .await
        .unwrap();
    assert_eq!(out.output.to_value()["arguments"]["n"], 2);
}

#[tokio::test]
async fn a_removed_mcp_provider_stops_its_server_even_while_an_old_request_holds_it() {
    let provider = fixture("gone", &[]).await;
    let runtime = ToolRuntime::new();
    let status = runtime.add_provider(provider.clone()).await.unwrap();
    assert_search_clash(&status, "gone");
    let old = runtime.request();
    assert!(runtime.remove_provider("mcp/gone"));
    assert!(provider.is_failed(), "shut down on removal");
    let err = old.dispatch("mcp_gone_echo", json!({})).await.unwrap_err();
    assert_eq!(
        err,
        DispatchError::ProviderRemoved {
            tool: "mcp/gone/echo".into(),
            provider: "mcp/gone".into()
        }
    );
    // Its server no longer answers: a direct call says the provider is down.
    let err = provider.call("mcp/gone/echo", json!({})).await.unwrap_err();
    assert!(matches!(err, ToolError::Unavailable { .. }), "{err:?}");
}
