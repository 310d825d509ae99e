//! `--mcp-config`: every server of an `mcpServers` file (stdio and HTTP), named as the runtime
//! names them, checked as one set; a server that fails is named, and the rest still checked.

use serde_json::{json, Value};

use crate::wire::wire;
use crate::{file, fixture_server, path, status, stderr, stdout, tool, toolwire, HttpFixture};
use toolwire_test_support::wire_lists::wire_names;

/// The fixture over stdio twice (under `a`, with `--extras`, found only through the `PATH` its
/// `env` gives it and run in its `cwd`; under `b`, plain) and once over HTTP (`web`), plus the
/// given `extra` servers.
fn config(url: &str, cwd: &std::path::Path, extra: Value) -> tempfile::NamedTempFile {
    let fixture = fixture_server();
    let mut servers = json!({
        "a": {
            "command": fixture.file_name().unwrap().to_str().unwrap(),
            "args": ["--extras"],
            "env": {
                "PATH": fixture.parent().unwrap(),
                "TOOLWIRE_FIXTURE_PROBE": "from the config"
            },
            "cwd": cwd,
            "disabled": false
        },
        "b": {"command": fixture, "type": "stdio"},
        "web": {"url": url, "type": "http"}
    });
    servers
        .as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    file(&json!({"mcpServers": servers}).to_string())
}

#[test]
fn every_server_of_a_config_is_one_census_that_says_each_tools_server() {
    let web = HttpFixture::start(&[]);
    let cwd = tempfile::tempdir().unwrap();
    let config = config(&web.url, cwd.path(), json!({}));
    let output = toolwire(&["census", "--json", "--mcp-config", path(&config)], "");
    assert_eq!(status(&output), 1, "{}", stderr(&output));
    assert!(stderr(&output).is_empty(), "{}", stderr(&output));
    let object: Value = serde_json::from_slice(&output.stdout).unwrap();
    // Named as the runtime names them, each with its server.
    let whereami = tool(&object, "mcp/a/whereami");
    assert_eq!(whereami["server"], "a", "only `a` runs with --extras");
    assert!(object["tools"]
        .as_array()
        .unwrap()
        .iter()
        .all(|t| t["name"] != "mcp/b/whereami"));
    assert_eq!(tool(&object, "mcp/web/echo")["server"], "web");
    // One census: each server's two search tools share a form, and say whose they are.
    for server in ["a", "b", "web"] {
        let left_out = tool(&object, &format!("mcp/{server}/search.web"));
        assert_eq!(left_out["status"], "left_out");
        assert_eq!(left_out["server"], server);
    }
    assert_eq!(
        object["collisions"]["mcp_b_search_web"],
        json!(["mcp/b/search.web", "mcp/b/search_web"])
    );
    assert_eq!(
        object["healing"]["mcp_web_files_read"],
        "mcp/web/files/read"
    );

    // The table: a SERVER column first.
    let output = toolwire(
        &["census", "--only-problems", "--mcp-config", path(&config)],
        "",
    );
    assert_eq!(status(&output), 1, "{}", stderr(&output));
    let table = stdout(&output);
    let lines: Vec<&str> = table.lines().collect();
    assert!(lines[0].starts_with("SERVER  NAME"), "{table}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("web     mcp/web/search.web ") && l.contains("LEFT OUT")),
        "{table}"
    );
}

#[test]
fn a_server_that_fails_is_named_with_why_and_the_others_are_still_checked() {
    let web = HttpFixture::start(&[]);
    let cwd = tempfile::tempdir().unwrap();
    let fixture = fixture_server();
    let config = config(
        &web.url,
        cwd.path(),
        json!({
            "broken": {"command": fixture, "args": ["--exit-at-start"]},
            "lost": {"command": fixture, "cwd": "/no/such/dir"}
        }),
    );
    let output = toolwire(&["census", "--json", "--mcp-config", path(&config)], "");
    assert_eq!(status(&output), 2, "a server failed");
    let err = stderr(&output);
    let config_path = path(&config);
    assert!(
        err.contains(&format!(
            "toolwire: --mcp-config {config_path}, server \"broken\": "
        )),
        "{err}"
    );
    assert!(
        err.contains("fixture: cannot open the database")
            && err.contains("fixture: giving up before the handshake"),
        "its stderr tail: {err}"
    );
    assert!(
        err.contains(&format!(
            "toolwire: --mcp-config {config_path}, server \"lost\": "
        )) && err.contains("/no/such/dir"),
        "the directory it could not run in: {err}"
    );
    // The other servers' census is printed all the same.
    let object: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(tool(&object, "mcp/a/whereami")["server"], "a");
    assert_eq!(tool(&object, "mcp/web/echo")["server"], "web");
    assert!(!stdout(&output).contains("mcp/broken/"));

    // `wire` the same: the others' tool list, the failures on stderr, status 2.
    let (code, list, err) = wire("openai", &["--mcp-config", path(&config)], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("server \"broken\": "), "{err}");
    let names = wire_names(&list, toolwire_core::WireFormat::OpenAi);
    assert!(names.contains(&"mcp_a_whereami".to_owned()), "{names:?}");
    assert!(names.contains(&"mcp_web_echo".to_owned()), "{names:?}");
}

#[test]
fn a_config_that_cannot_be_used_says_where() {
    let broken = file(r#"{"mcpServers": {"git": {"command": "git-mcp", "args": "x"}}}"#);
    let output = toolwire(&["census", "--mcp-config", path(&broken)], "");
    assert_eq!(status(&output), 2);
    let err = stderr(&output);
    assert!(err.contains(path(&broken)), "{err}");
    assert!(
        err.contains("\"git\"") && err.contains("\"args\" must be an array of strings"),
        "{err}"
    );

    let output = toolwire(&["census", "--mcp-config", "/no/such/config.json"], "");
    assert_eq!(status(&output), 2);
    assert!(stderr(&output).contains("/no/such/config.json"));

    // Every server failing leaves nothing to check: nothing on stdout.
    let fixture = fixture_server();
    let dead = file(
        &json!({"mcpServers": {"dead": {"command": fixture, "args": ["--exit-at-start"]}}})
            .to_string(),
    );
    let output = toolwire(&["census", "--mcp-config", path(&dead)], "");
    assert_eq!(status(&output), 2);
    assert!(output.stdout.is_empty());
    assert!(stderr(&output).contains("server \"dead\": "));

    // Keys name the servers: --server has nothing to name.
    let output = toolwire(
        &["census", "--server", "x", "--mcp-config", path(&dead)],
        "",
    );
    assert_eq!(status(&output), 2);
    assert!(stderr(&output).contains("cannot be used with"));
}

#[test]
fn an_https_server_without_tls_is_told_the_build_flag_not_the_rust_feature() {
    let config = file(r#"{"mcpServers": {"secure": {"url": "https://127.0.0.1:1/mcp"}}}"#);
    let output = toolwire(&["census", "--mcp-config", path(&config)], "");
    assert_eq!(status(&output), 2);
    let err = stderr(&output);
    assert!(err.contains("server \"secure\": "), "{err}");
    if cfg!(feature = "mcp-tls") {
        // With TLS, the URL is tried: nothing listens on port 1.
        assert!(err.contains("could not reach it"), "{err}");
    } else {
        assert!(
            err.contains(
                "this build speaks http:// only; build toolwire with `--features mcp-tls`"
            ),
            "{err}"
        );
        assert!(!err.contains("toolwire-core's"), "{err}");
    }
}
