//! One call's time limit is its own (issue 26, §5): a call past its limit is cancelled on the
//! server (`notifications/cancelled`; over 2026-07-28 HTTP, its stream closed), the calls
//! beside it on the same server go on, and only a server that stops answering altogether (no
//! answer to a `ping`) is ended and marks its provider failed. Over stdio in both eras and
//! over streamable HTTP.
//!
//! Time is the behaviour under test here, so the numbers leave margins a loaded 2-core machine
//! cannot miss: a limit of [`LIMIT`] (300 ms) against a call of [`LONG_MS`] (3 s), ten times
//! longer, so it cannot answer in time; and calls that must answer within the limit take
//! [`SHORT_MS`] (50 ms) or no time at all, leaving 250 ms for a local round trip that takes
//! well under one. Every other wait is on an event (the fixture's `cancelled_sleeps` answers
//! once the cancel has arrived), bounded only by [`HANG_BOUND`].

use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use toolwire_core::{
    mcp::{McpOptions, McpProvider, McpServer, McpTimeouts},
    provider::ToolProvider,
    runtime::{DispatchError, TurnOptions},
    wire::calls::ToolCall,
    ToolError, ToolRuntime,
};

use crate::{assert_search_clash, fixture_command, HttpFixture, HANG_BOUND};

/// The time limit of the call that runs past it.
const LIMIT: Duration = Duration::from_millis(300);
/// The call that runs past [`LIMIT`]: ten times longer.
const LONG_MS: u64 = 3000;
/// A call that answers well within [`LIMIT`].
const SHORT_MS: u64 = 50;

/// How a test reaches the fixture server.
#[derive(Clone, Copy, Debug)]
enum Transport {
    /// Over stdio, in the era rmcp's `Auto` finds (2026-07-28: the fixture speaks both).
    Stdio,
    /// Over stdio with a legacy server (`initialize`, a real `ping`).
    StdioLegacy,
    /// Over streamable HTTP (2026-07-28: a cancel is the request's stream closed).
    Http,
    /// Over streamable HTTP with a legacy server (a session; a cancel is a POSTed
    /// `notifications/cancelled`).
    HttpLegacy,
}

const TRANSPORTS: [Transport; 4] = [
    Transport::Stdio,
    Transport::StdioLegacy,
    Transport::Http,
    Transport::HttpLegacy,
];

/// A provider named `server` over the `--cancels` fixture with `timeouts`, and the
/// HTTP fixture to keep alive beside it.
async fn provider(
    server: &str,
    transport: Transport,
    timeouts: McpTimeouts,
) -> (Arc<McpProvider>, Option<HttpFixture>) {
    let (target, http): (McpServer, _) = match transport {
        Transport::Stdio => (fixture_command(&["--cancels"]).into(), None),
        Transport::StdioLegacy => (
            fixture_command(&["--cancels", "--era", "legacy"]).into(),
            None,
        ),
        Transport::Http | Transport::HttpLegacy => {
            let http = match transport {
                Transport::Http => HttpFixture::start(&["--cancels"]),
                _ => HttpFixture::start(&["--cancels", "--era", "legacy"]),
            };
            (
                toolwire_core::mcp::McpHttp::new(&http.url).into(),
                Some(http),
            )
        }
    };
    let options = McpOptions {
        timeouts,
        ..McpOptions::default()
    };
    let provider = McpProvider::connect_with(server, target, options)
        .await
        .unwrap_or_else(|e| panic!("{transport:?}: the fixture server starts: {e}"));
    (Arc::new(provider), http)
}

fn call_limit(call: Duration) -> McpTimeouts {
    McpTimeouts {
        call,
        ..McpTimeouts::default()
    }
}

/// The JSON a fixture tool answered with.
fn answered(output: &toolwire_core::tools::ToolOutput) -> Value {
    output.to_value()
}

#[tokio::test]
async fn a_call_past_its_limit_is_cancelled_and_its_server_answers_the_calls_beside_it() {
    for transport in TRANSPORTS {
        let (provider, _http) = provider("slow", transport, call_limit(LIMIT)).await;
        // The long call and a short one started beside it on the same server: the first runs
        // past the limit, the second answers within it.
        let long = provider.call("mcp/slow/sleep", json!({"ms": LONG_MS}));
        let short = provider.call("mcp/slow/sleep", json!({"ms": SHORT_MS}));
        let (long, short) = tokio::time::timeout(HANG_BOUND, async { tokio::join!(long, short) })
            .await
            .expect("both calls end");
        let Err(ToolError::TimedOut {
            tool,
            millis,
            detail,
            ..
        }) = &long
        else {
            panic!("{transport:?}: not a timeout: {long:?}");
        };
        assert_eq!((tool.as_str(), *millis), ("mcp/slow/sleep", 300));
        assert!(
            detail.contains("the request was cancelled, and the server still answers"),
            "{transport:?}: {detail}"
        );
        let short = short.unwrap_or_else(|e| panic!("{transport:?}: {e}"));
        assert_eq!(answered(&short)["slept_ms"], SHORT_MS, "{transport:?}");
        // The server was not ended: the provider is not failed, and the same process (which
        // remembers the sleeps it saw cancelled) answers that the long one was.
        assert!(!provider.is_failed(), "{transport:?}");
        let seen = provider
            .call("mcp/slow/cancelled_sleeps", json!({"at_least": 1}))
            .await
            .unwrap_or_else(|e| panic!("{transport:?}: the cancel arrived: {e}"));
        assert_eq!(
            answered(&seen)["cancelled_ms"],
            json!([LONG_MS]),
            "{transport:?}"
        );
        let next = provider
            .call("mcp/slow/sleep", json!({"ms": SHORT_MS}))
            .await
            .unwrap_or_else(|e| panic!("{transport:?}: {e}"));
        assert_eq!(answered(&next)["slept_ms"], SHORT_MS, "{transport:?}");
    }
}

#[tokio::test]
async fn a_turns_time_limit_cancels_its_call_while_the_call_beside_it_runs_on() {
    for transport in TRANSPORTS {
        // The provider's own limit is only a bound on a hang: the turn's limit is under test.
        let (provider, _http) = provider("turn", transport, call_limit(HANG_BOUND)).await;
        let runtime = ToolRuntime::new();
        let status = runtime.add_provider(provider.clone()).await.unwrap();
        assert_search_clash(&status, "turn");
        let request = runtime.request();
        // Beside the turn, on the same server: a call that answers only once the server has
        // seen a sleep cancelled, so it is running when the turn's call times out, and it
        // answers only if the turn's drop sent the cancel.
        let beside = request.dispatch("mcp_turn_cancelled_sleeps", json!({"at_least": 1}));
        let arguments = json!({"ms": LONG_MS}).as_object().unwrap().clone();
        let calls = [ToolCall::new(
            Some("c1".into()),
            "mcp_turn_sleep",
            Ok(arguments),
            "/output/0",
        )];
        let turn = request.answer_calls_with(&calls, TurnOptions::default().with_time_limit(LIMIT));
        let (beside, answers) =
            tokio::time::timeout(HANG_BOUND, async { tokio::join!(beside, turn) })
                .await
                .unwrap_or_else(|_| {
                    panic!("{transport:?}: the server never saw the turn's call cancelled")
                });
        assert_eq!(
            answers[0].result,
            Err(DispatchError::TimedOut {
                tool: "mcp/turn/sleep".into(),
                millis: 300
            }),
            "{transport:?}"
        );
        let beside = beside.unwrap_or_else(|e| panic!("{transport:?}: {e}"));
        assert_eq!(
            answered(&beside.output)["cancelled_ms"],
            json!([LONG_MS]),
            "{transport:?}"
        );
        assert!(!provider.is_failed(), "{transport:?}");
        // Not marked unreachable: still loaded as it was.
        assert_eq!(
            runtime.provider_status("mcp/turn"),
            Some(status),
            "{transport:?}"
        );
    }
}

#[tokio::test]
async fn a_server_that_stops_answering_altogether_is_ended_and_marks_its_provider_failed() {
    for transport in TRANSPORTS {
        // A start timeout of 6 s (far above the fixture's start) makes the ping wait 2 s.
        let timeouts = McpTimeouts {
            start: Duration::from_secs(6),
            call: LIMIT,
            ..McpTimeouts::default()
        };
        let (provider, _http) = provider("frozen", transport, timeouts).await;
        // The server stops answering anything: the call, and then the ping, get no answer.
        let err = tokio::time::timeout(HANG_BOUND, provider.call("mcp/frozen/freeze", json!({})))
            .await
            .expect("the call ends")
            .unwrap_err();
        let ToolError::TimedOut { millis, detail, .. } = &err else {
            panic!("{transport:?}: not a timeout: {err:?}");
        };
        assert_eq!(*millis, 300);
        assert!(
            detail.contains(
                "the server did not answer a ping within 2000 ms either, so it was ended"
            ),
            "{transport:?}: {detail}"
        );
        if !matches!(transport, Transport::Http | Transport::HttpLegacy) {
            // Its last words on stderr, read once the killed process's stderr ended.
            assert!(
                detail.contains("fixture: freezing"),
                "{transport:?}: {detail}"
            );
        }
        assert!(provider.is_failed(), "{transport:?}");
        let err = provider
            .call("mcp/frozen/echo", json!({}))
            .await
            .unwrap_err();
        assert!(
            matches!(err, ToolError::Unavailable { .. }),
            "{transport:?}: {err:?}"
        );
        if !matches!(transport, Transport::Http | Transport::HttpLegacy) {
            // A stdio server is started afresh by a reload (an HTTP one stays stopped: it is
            // not ours to start).
            provider.reload().await.unwrap();
            assert!(provider.call("mcp/frozen/echo", json!({})).await.is_ok());
        }
    }
}
