//! The `mcpServers` config desktop clients use: parsed with errors that name the server and
//! field, and added to a runtime server by server.

use serde_json::json;
use toolwire_core::{
    mcp::config::{add_mcp_servers, McpConfig, McpConfigError},
    mcp::{McpCommand, McpHttp, McpOptions, McpServer},
    ToolRuntime,
};

use crate::{fixture_server, HttpFixture};

#[test]
fn a_config_parses_into_servers_sorted_by_name() {
    let config = McpConfig::from_json(
        r#"{"mcpServers": {
            "zeta": {"command": "z-server", "args": ["--a", "b"], "env": {"K": "v"}, "cwd": "/srv"},
            "alpha": {"type": "http", "url": "http://127.0.0.1:1/mcp", "headers": {"Authorization": "Bearer t"}},
            "mid": {"command": "m", "disabled": false, "autoApprove": []}
        }, "otherClientSetting": 1}"#,
    )
    .unwrap();
    assert_eq!(
        config.servers,
        [
            (
                "alpha".to_owned(),
                McpServer::Http(
                    McpHttp::new("http://127.0.0.1:1/mcp").header("Authorization", "Bearer t")
                )
            ),
            ("mid".to_owned(), McpServer::Stdio(McpCommand::new("m"))),
            (
                "zeta".to_owned(),
                McpServer::Stdio(
                    McpCommand::new("z-server")
                        .arg("--a")
                        .arg("b")
                        .env("K", "v")
                        .cwd("/srv")
                )
            ),
        ]
    );
}

#[test]
fn a_bad_config_names_the_server_and_field_at_fault() {
    let err = |text: &str| McpConfig::from_json(text).unwrap_err();
    let field = |server: &str, field: &str, reason: &str| McpConfigError::Field {
        server: server.into(),
        field: field.into(),
        reason: reason.into(),
    };
    assert!(matches!(err("{nope"), McpConfigError::Shape { .. }));
    assert!(matches!(
        err(r#"{"servers": {}}"#),
        McpConfigError::Shape { .. }
    ));
    assert!(matches!(
        err(r#"{"mcpServers": []}"#),
        McpConfigError::Shape { .. }
    ));
    assert_eq!(
        err(r#"{"mcpServers": {"a": {"command": 1}}}"#),
        field("a", "command", "must be a string")
    );
    assert_eq!(
        err(r#"{"mcpServers": {"a": {"command": "x", "args": [1]}}}"#),
        field("a", "args", "must be an array of strings")
    );
    assert_eq!(
        err(r#"{"mcpServers": {"a": {"command": "x", "env": {"K": 1}}}}"#),
        field("a", "env", "must be an object of strings")
    );
    assert_eq!(
        err(r#"{"mcpServers": {"a": {"url": "http://h/mcp", "headers": ["x"]}}}"#),
        field("a", "headers", "must be an object of strings")
    );
    for (text, says) in [
        (r#"{"mcpServers": {"a": {}}}"#, "neither"),
        (
            r#"{"mcpServers": {"a": {"command": "x", "url": "http://h"}}}"#,
            "both",
        ),
        (
            r#"{"mcpServers": {"a": {"type": "sse", "url": "http://h/sse"}}}"#,
            "SSE",
        ),
        (r#"{"mcpServers": {"a": 3}}"#, "object"),
        (r#"{"mcpServers": {"a/b": {"command": "x"}}}"#, "`/`"),
        (r#"{"mcpServers": {"": {"command": "x"}}}"#, "empty"),
    ] {
        let e = err(text);
        assert!(matches!(e, McpConfigError::Server { .. }), "{text}: {e:?}");
        assert!(e.to_string().contains(says), "{text}: {e}");
    }
    let e = err(r#"{"mcpServers": {"a": {"type": "http", "command": "x"}}}"#);
    assert!(
        matches!(e, McpConfigError::Field { ref field, .. } if field == "type"),
        "{e:?}"
    );
}

#[test]
fn a_config_file_is_read() {
    let path =
        std::env::temp_dir().join(format!("toolwire-mcp-config-{}.json", std::process::id()));
    std::fs::write(&path, r#"{"mcpServers": {"one": {"command": "x"}}}"#).unwrap();
    let config = McpConfig::read(&path);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(config.unwrap().servers.len(), 1);
}

#[tokio::test]
async fn every_server_of_a_config_is_added_and_one_that_fails_stops_no_other() {
    let http = HttpFixture::start(&["--require-token", "t0k"]);
    let text = json!({"mcpServers": {
        "local": {"command": fixture_server(), "args": ["--extras"]},
        "remote": {"url": http.url, "headers": {"Authorization": "Bearer t0k"}},
        "broken": {"command": "/nonexistent/mcp-server"},
    }})
    .to_string();
    let config = McpConfig::from_json(&text).unwrap();
    let runtime = ToolRuntime::new();
    let added = add_mcp_servers(&runtime, &config, &McpOptions::default()).await;
    let names: Vec<&str> = added.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["broken", "local", "remote"]);
    let err = added[0].1.as_ref().unwrap_err();
    assert_eq!(err.provider, "mcp/broken");
    assert!(err.reason.contains("/nonexistent/mcp-server"), "{err}");
    for (name, result) in &added[1..] {
        assert!(result.is_ok(), "{name}: {result:?}");
    }
    let request = runtime.request();
    for called in ["mcp_local_whereami", "mcp_remote_echo"] {
        assert!(
            request.dispatch(called, json!({})).await.is_ok(),
            "{called}"
        );
    }
    // Added again, the same names are taken: typed, per server.
    let again = add_mcp_servers(&runtime, &config, &McpOptions::default()).await;
    let err = again[1].1.as_ref().unwrap_err();
    assert!(err.reason.contains("already loaded"), "{err}");
}
