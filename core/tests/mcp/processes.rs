//! What a stdio server leaves behind: its stderr explains its failures, and its whole process
//! group (grandchildren too) ends with it on every path.

use std::time::Duration;

use serde_json::json;
use toolwire_core::provider::ToolProvider;
use toolwire_core::{
    mcp::{
        check_server_name, list_tools_of, McpError, McpHttp, McpOptions, McpProvider, McpServer,
        McpTimeouts,
    },
    runtime::{DispatchError, LoadProblem, LoadStatus},
    ToolError, ToolRuntime,
};
use toolwire_test_support::grandchild::{exits_within, grandchild_listener};

use crate::{assert_search_clash, fixture, fixture_command, HANG_BOUND};

async fn grandchild(pid: std::sync::mpsc::Receiver<i32>) -> i32 {
    let pid = tokio::task::spawn_blocking(move || pid.recv_timeout(HANG_BOUND))
        .await
        .unwrap()
        .expect("the fixture sends its grandchild's pid");
    assert!(
        std::path::Path::new(&format!("/proc/{pid}")).exists(),
        "the grandchild runs"
    );
    pid
}

#[tokio::test]
async fn a_start_timeout_kills_the_whole_process_group_and_says_what_to_raise() {
    let (port, pid) = grandchild_listener();
    let command = fixture_command(&["--spawn-child", &port.to_string(), "--hang-start"]);
    let options = McpOptions {
        // The one short timeout here: the test needs it to fire on a server that never answers.
        timeouts: McpTimeouts {
            start: Duration::from_secs(5),
            ..McpTimeouts::default()
        },
        ..McpOptions::default()
    };
    let starting = McpProvider::connect_with("hung", command, options);
    let (err, pid) = tokio::join!(starting, grandchild(pid));
    let err = err.unwrap_err();
    assert_eq!(err.provider, "mcp/hung");
    assert!(err.reason.contains("within 5000 ms"), "{err}");
    assert!(err.reason.contains("McpTimeouts::start"), "{err}");
    assert!(
        exits_within(pid, HANG_BOUND),
        "the grandchild {pid} outlived a start timeout"
    );
}

#[tokio::test]
async fn shutdown_and_drop_kill_the_whole_process_group() {
    let (port, pid) = grandchild_listener();
    let command = fixture_command(&["--spawn-child", &port.to_string()]);
    let (provider, pid) = tokio::join!(McpProvider::spawn("shut", command), grandchild(pid));
    let provider = provider.unwrap();
    provider.shutdown();
    assert!(
        exits_within(pid, HANG_BOUND),
        "the grandchild {pid} outlived shutdown"
    );

    let (port, pid) = grandchild_listener();
    let command = fixture_command(&["--spawn-child", &port.to_string()]);
    let (provider, pid) = tokio::join!(McpProvider::spawn("dropped", command), grandchild(pid));
    drop(provider.unwrap());
    assert!(
        exits_within(pid, HANG_BOUND),
        "the grandchild {pid} outlived its dropped provider"
    );
}

#[tokio::test]
async fn a_server_that_exits_at_start_is_explained_by_its_stderr() {
    let err = McpProvider::spawn("dying", fixture_command(&["--exit-at-start"]))
        .await
        .unwrap_err();
    assert_eq!(err.provider, "mcp/dying");
    assert!(err.reason.contains("closed its connection"), "{err}");
    assert!(
        err.reason.contains("fixture: cannot open the database")
            && err
                .reason
                .contains("fixture: giving up before the handshake"),
        "the stderr tail is shown: {err}"
    );
    assert!(!err.reason.contains("rmcp"), "no rmcp type names: {err}");
    // The same from the one-shot listing the CLI uses.
    let server = McpServer::from(fixture_command(&["--exit-at-start"]));
    let err = list_tools_of(&server, &McpOptions::default())
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains("cannot open the database"),
        "{err}"
    );
}

#[tokio::test]
async fn a_crash_mid_call_is_explained_by_its_stderr_without_rmcp_type_names() {
    let runtime = ToolRuntime::new();
    let status = runtime
        .add_provider(fixture("crashing", &[]).await)
        .await
        .unwrap();
    assert_search_clash(&status, "crashing");
    let err = runtime
        .request()
        .dispatch("mcp_crashing_crash", json!({}))
        .await
        .unwrap_err();
    let DispatchError::Tool(ToolError::Unavailable {
        tool,
        provider,
        reason,
        detail,
    }) = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!(
        (tool.as_str(), provider.as_str()),
        ("mcp/crashing/crash", "mcp/crashing")
    );
    assert!(reason.contains("closed its connection"), "{err}");
    // The server's stderr is kept apart from the reason (a gateway leaves it out), and the
    // app's own message has both.
    assert!(
        detail.contains("fixture: crash requested, exiting with status 3"),
        "{err}"
    );
    assert!(err
        .to_string()
        .contains("fixture: crash requested, exiting with status 3"));
    assert!(!reason.contains("rmcp"), "{err}");
    // The runtime's load status says it too.
    let Some(LoadStatus::Failed { problems }) = runtime.provider_status("mcp/crashing") else {
        panic!()
    };
    assert!(
        matches!(&problems[..], [LoadProblem::Unreachable { reason }] if !reason.contains("rmcp")),
        "{problems:?}"
    );
}

#[tokio::test]
async fn a_server_name_that_cannot_be_part_of_a_tool_name_is_refused() {
    for bad in ["", "a/b", "a b", "tab\there", "nl\n"] {
        let err = McpProvider::spawn(bad, fixture_command(&[]))
            .await
            .unwrap_err();
        assert_eq!(err.provider, format!("mcp/{bad}"));
        assert!(err.reason.contains("bad MCP server name"), "{bad:?}: {err}");
        let err = McpProvider::connect(bad, McpHttp::new("http://127.0.0.1:1/mcp"))
            .await
            .unwrap_err();
        assert!(err.reason.contains("bad MCP server name"), "{bad:?}: {err}");
        assert!(matches!(
            check_server_name(bad),
            Err(McpError::BadServerName { .. })
        ));
    }
}

#[tokio::test]
async fn command_env_and_cwd_reach_the_server() {
    let dir = std::env::temp_dir().canonicalize().unwrap();
    let command = fixture_command(&["--extras"])
        .env("TOOLWIRE_FIXTURE_PROBE", "probed")
        .cwd(&dir);
    let provider = McpProvider::spawn("placed", command).await.unwrap();
    let out = provider
        .call("mcp/placed/whereami", json!({}))
        .await
        .unwrap()
        .to_value();
    assert_eq!(out["cwd"], dir.display().to_string());
    assert_eq!(out["probe"], "probed");
    let err = McpProvider::spawn(
        "nowhere",
        fixture_command(&[]).cwd("/nonexistent/directory"),
    )
    .await
    .unwrap_err();
    assert!(err.reason.contains("/nonexistent/directory"), "{err}");
}
