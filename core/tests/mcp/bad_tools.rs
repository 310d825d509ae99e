//! A server whose tool list has one bad tool, or whose answer cannot be read (the fixture's
//! `--faulty` modes), over stdio and streamable HTTP: a bad tool is its own load problem and
//! its siblings dispatch; an unreadable answer fails its request at once, saying why.

use std::sync::Arc;

use serde_json::json;
use toolwire_core::provider::ToolProvider;
use toolwire_core::{
    mcp::{list_tools_of, McpHttp, McpOptions, McpProvider, McpServer, McpTimeouts},
    runtime::report::ReportStatus,
    runtime::{LoadProblem, LoadStatus},
    ToolRuntime,
};

use crate::{fixture_command, status_of, HttpFixture, HANG_BOUND};

/// Where a `--faulty` server is: over stdio, or over HTTP (the fixture kept alive beside it).
enum Transport {
    Stdio,
    Http,
}

const BOTH: [Transport; 2] = [Transport::Stdio, Transport::Http];

/// A provider named `server` over the `--faulty mode` fixture, and the HTTP fixture to keep.
async fn faulty(
    server: &str,
    mode: &str,
    transport: &Transport,
) -> (Arc<McpProvider>, Option<HttpFixture>) {
    let (target, http): (McpServer, _) = match transport {
        Transport::Stdio => (fixture_command(&["--faulty", mode]).into(), None),
        Transport::Http => {
            let http = HttpFixture::start(&["--faulty", mode]);
            (McpHttp::new(&http.url).into(), Some(http))
        }
    };
    let provider = McpProvider::connect(server, target)
        .await
        .expect("the handshake of a faulty server is fine")
        .with_call_timeout(HANG_BOUND);
    (Arc::new(provider), http)
}

/// The load status of a one-provider runtime over `provider`.
async fn loaded(provider: Arc<McpProvider>) -> (ToolRuntime, LoadStatus) {
    let runtime = ToolRuntime::new();
    let status = runtime.add_provider(provider).await.unwrap();
    (runtime, status)
}

/// `echo` and `ping`, the good siblings, dispatch by form.
async fn siblings_dispatch(runtime: &ToolRuntime, server: &str) {
    let request = runtime.request();
    let out = request
        .dispatch(&format!("mcp_{server}_echo"), json!({"n": 1}))
        .await
        .unwrap();
    assert_eq!(out.output.to_value(), json!({"n": 1}));
    let out = request
        .dispatch(&format!("mcp_{server}_ping"), json!({}))
        .await
        .unwrap();
    assert_eq!(out.output.to_value(), json!("pong"));
}

#[tokio::test]
async fn a_tool_that_is_not_mcp_is_its_own_load_problem_and_its_siblings_dispatch() {
    let cases = [
        (
            "string-schema",
            "stringly",
            "its inputSchema is a string (\"object\"), not an object (the JSON schema of its arguments)",
        ),
        ("number-name", "tools[2]", "its name is a number (7), not a string"),
    ];
    for transport in &BOTH {
        for (mode, bad, reason) in cases {
            let (provider, _http) = faulty("odd", mode, transport).await;
            let (runtime, status) = loaded(provider).await;
            let tool = format!("mcp/odd/{bad}");
            assert_eq!(
                status,
                LoadStatus::Failed {
                    problems: vec![LoadProblem::InvalidTool {
                        tool: tool.clone(),
                        reason: reason.into()
                    }]
                },
                "{mode}"
            );
            assert!(status.check().unwrap_err().to_string().contains(&format!(
                "the tool `{tool}` is not valid MCP and is left out: {reason}"
            )));
            siblings_dispatch(&runtime, "odd").await;
            // Refused loudly: withheld from every request, named in the report with why, and a
            // call to it says why instead of reaching the server.
            let report = runtime.report();
            let entry = status_of(&report, &tool);
            assert_eq!(entry.status, ReportStatus::Unsupported, "{mode}");
            assert!(
                entry.reason.as_deref().unwrap().contains(reason),
                "{entry:?}"
            );
            let request = runtime.request();
            assert!(request.census().offered().all(|t| t.name() != tool));
            let err = request.dispatch(&tool, json!({})).await.unwrap_err();
            assert!(err.to_string().contains(reason), "{err}");
        }
    }
}

#[tokio::test]
async fn a_tool_without_a_schema_is_a_tool_without_arguments_and_the_load_says_so() {
    let cases = [
        ("no-schema", "bare", "it has no inputSchema"),
        ("null-schema", "nulled", "its inputSchema is null"),
    ];
    for transport in &BOTH {
        for (mode, lenient, said) in cases {
            let (provider, _http) = faulty("lax", mode, transport).await;
            let (runtime, status) = loaded(provider).await;
            // Nothing is lost: the load passes `check()`, and says how the tool was read.
            assert!(status.check().is_ok() && status.is_loaded(), "{status:?}");
            let LoadStatus::LoadedWithNotes { notes: problems } = &status else {
                panic!("{status:?}")
            };
            let [LoadProblem::ReadLeniently { tool, reading }] = &problems[..] else {
                panic!("{problems:?}")
            };
            assert_eq!(tool, &format!("mcp/lax/{lenient}"));
            assert_eq!(
                reading,
                &format!("{said}, so it is read as a tool without arguments")
            );
            siblings_dispatch(&runtime, "lax").await;
            let request = runtime.request();
            let out = request
                .dispatch(&format!("mcp_lax_{lenient}"), json!({}))
                .await
                .unwrap();
            assert_eq!(
                out.output.to_value(),
                json!({}),
                "{mode}: it is offered and called"
            );
        }
    }
}

#[tokio::test]
async fn an_answer_that_cannot_be_read_fails_its_listing_at_once_saying_why() {
    let cases = [
        (
            "deep-schema",
            "nests arrays and objects",
            "deeper than the 127 levels toolwire reads",
        ),
        (
            "not-utf8",
            "its answer could not be read",
            "it is not UTF-8",
        ),
        (
            "not-jsonrpc",
            "its answer could not be read",
            "not a JSON-RPC",
        ),
    ];
    for transport in &BOTH {
        for (mode, first, second) in cases {
            let (provider, _http) = faulty("unread", mode, transport).await;
            // The listing's timeout is the default 30 s: an answer dropped unread would fail
            // by it ("did not answer within"); this one fails by its reason.
            let (_runtime, status) = loaded(provider).await;
            let LoadStatus::Failed { problems } = &status else {
                panic!("{status:?}")
            };
            let [LoadProblem::Unreachable { reason }] = &problems[..] else {
                panic!("{problems:?}")
            };
            assert!(
                reason.contains("listing its tools failed"),
                "{mode}: {reason}"
            );
            assert!(
                reason.contains(first) && reason.contains(second),
                "{mode}: {reason}"
            );
            assert!(!reason.contains("did not answer"), "{mode}: {reason}");
        }
    }
}

#[tokio::test]
async fn the_one_shot_listing_keeps_a_bad_tool_marked_and_its_siblings() {
    for transport in &BOTH {
        let http = matches!(transport, Transport::Http)
            .then(|| HttpFixture::start(&["--faulty", "number-name"]));
        let server: McpServer = match &http {
            Some(http) => McpHttp::new(&http.url).into(),
            None => fixture_command(&["--faulty", "number-name"]).into(),
        };
        let tools = list_tools_of(&server, &McpOptions::default())
            .await
            .unwrap();
        let named: Vec<(&str, Option<&str>)> = tools
            .iter()
            .map(|t| (t.name.as_str(), t.unsupported.as_deref()))
            .collect();
        assert_eq!(
            named,
            [
                ("echo", None),
                ("ping", None),
                (
                    "tools[2]",
                    Some("it is not valid MCP: its name is a number (7), not a string")
                ),
            ]
        );
    }
}

#[tokio::test]
async fn a_list_change_that_brings_a_bad_tool_leaves_the_others_dispatching() {
    let (provider, _http) = faulty("live", "late", &Transport::Stdio).await;
    let (runtime, status) = loaded(provider).await;
    assert_eq!(status, LoadStatus::Loaded);
    let mut changes = runtime.tool_set_changes();
    changes.mark_unchanged();
    let out = runtime
        .request()
        .dispatch("mcp_live_break_list", json!({}))
        .await
        .unwrap();
    assert_eq!(out.output.to_value(), json!("broken"));
    // The server's notifications/tools/list_changed makes the runtime list again.
    tokio::time::timeout(HANG_BOUND, changes.changed())
        .await
        .expect("the runtime follows the server's list change")
        .unwrap();
    assert_eq!(
        runtime.provider_status("mcp/live"),
        Some(LoadStatus::Failed {
            problems: vec![LoadProblem::InvalidTool {
                tool: "mcp/live/stringly".into(),
                reason: "its inputSchema is a string (\"object\"), not an object (the JSON \
                         schema of its arguments)"
                    .into(),
            }]
        })
    );
    siblings_dispatch(&runtime, "live").await;
    let offered: Vec<String> = (runtime.request().census().offered())
        .map(|t| t.name().to_owned())
        .collect();
    assert_eq!(
        offered,
        ["mcp/live/echo", "mcp/live/ping", "mcp/live/break_list"]
    );
}

/// Options whose start and listing wait `seconds`: for the faults that only a timeout ends (the
/// one thing these tests need to fire).
fn waiting(seconds: u64) -> McpOptions {
    let wait = std::time::Duration::from_secs(seconds);
    McpOptions {
        timeouts: McpTimeouts {
            start: wait,
            list: wait,
            call: HANG_BOUND,
        },
        ..McpOptions::default()
    }
}

#[tokio::test]
async fn the_faults_that_already_failed_cleanly_still_do() {
    // Lines that are not JSON beside good answers (a server that logs to stdout): all works.
    let (provider, _) = faulty("noisy", "garbage", &Transport::Stdio).await;
    let (runtime, status) = loaded(provider).await;
    assert_eq!(status, LoadStatus::Loaded);
    siblings_dispatch(&runtime, "noisy").await;

    // A 64 MiB answer: ended at once, over the bound of one message.
    let (provider, _) = faulty("flood", "huge-list", &Transport::Stdio).await;
    let err = provider.list_tools().await.unwrap_err();
    assert!(err.reason.contains("over 16777216 bytes"), "{err}");
    assert!(provider.is_failed());

    // The handshake answered under another id: failed at once, named.
    let command = fixture_command(&["--faulty", "wrong-id"]);
    let err = McpProvider::connect_with("wrong", command, waiting(2))
        .await
        .unwrap_err();
    assert!(
        err.reason
            .contains("failed: the server's answer to the MCP handshake is not valid MCP"),
        "{err}"
    );

    // No answer to tools/list, or only a line that is not JSON: the listing's timeout, and
    // for the second the line the server wrote instead.
    for (mode, said) in [
        ("no-list", None),
        ("garbage-list", Some("it wrote a line on stdout that is not JSON: `fixture: listening on stdio (not JSON)`")),
    ] {
        let provider = McpProvider::connect_with("mute", fixture_command(&["--faulty", mode]), waiting(2))
            .await
            .unwrap();
        let err = provider.list_tools().await.unwrap_err();
        assert!(err.reason.contains("did not answer within 2000 ms: listing its tools (tools/list) did not finish"), "{mode}: {err}");
        if let Some(said) = said {
            assert!(err.reason.contains(said), "{mode}: {err}");
        }
        assert!(provider.is_failed(), "{mode}");
    }
}

#[tokio::test]
async fn a_call_answer_that_cannot_be_read_fails_that_call_at_once_saying_why() {
    for transport in &BOTH {
        let (provider, _http) = faulty("calls", "deep-answer", transport).await;
        let (runtime, status) = loaded(provider.clone()).await;
        assert_eq!(status, LoadStatus::Loaded);
        let request = runtime.request();
        // The call timeout is HANG_BOUND (a minute): the call fails by its reason, not by it.
        let err = request
            .dispatch("mcp_calls_echo", json!({}))
            .await
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("its answer could not be read: it nests arrays and objects"),
            "{err}"
        );
        assert!(!err.contains("did not answer"), "{err}");
        if matches!(transport, Transport::Stdio) {
            // Over stdio the message is matched to its request: the server itself is fine.
            assert!(!provider.is_failed());
            let out = request.dispatch("mcp_calls_ping", json!({})).await.unwrap();
            assert_eq!(out.output.to_value(), json!("pong"));
        }
    }
}
