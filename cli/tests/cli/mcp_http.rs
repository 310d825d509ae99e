//! `--mcp-http` (with `--header`) against the fixture serving streamable HTTP on 127.0.0.1.

use serde_json::Value;

use crate::wire::wire;
use crate::{status, stderr, stdout, tool, toolwire, HttpFixture};

#[test]
fn census_and_wire_list_a_server_over_http() {
    let fixture = HttpFixture::start(&[]);
    let output = toolwire(&["census", "--json", "--mcp-http", &fixture.url], "");
    assert_eq!(status(&output), 1, "{}", stderr(&output));
    let object: Value = serde_json::from_slice(&output.stdout).unwrap();
    // The same tools, judged the same way, as over stdio.
    assert_eq!(
        tool(&object, "search.web")["reason_key"],
        "form_is_another_tool"
    );
    assert_eq!(tool(&object, "search_web")["status"], "offered");
    assert_eq!(object["healing"]["files_read"], "files/read");
    // One server: no `server` key.
    assert!(tool(&object, "echo").get("server").is_none());

    let output = toolwire(
        &["census", "--server", "web", "--mcp-http", &fixture.url],
        "",
    );
    assert_eq!(status(&output), 1, "{}", stderr(&output));
    assert!(
        stdout(&output)
            .lines()
            .any(|l| l.starts_with("mcp/web/files/read ") && l.contains(" mcp_web_files_read ")),
        "{}",
        stdout(&output)
    );

    let (code, list, err) = wire("openai", &["--mcp-http", &fixture.url], "");
    assert_eq!(code, 1, "search.web and tool_search are left out: {err}");
    assert!(list
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t["function"]["name"] == "files_read"));
}

#[test]
fn a_token_header_is_sent_and_its_absence_explained() {
    let fixture = HttpFixture::start(&["--require-token", "s3cret"]);
    let output = toolwire(&["census", "--mcp-http", &fixture.url], "");
    assert_eq!(status(&output), 2);
    assert!(output.stdout.is_empty(), "nothing on stdout");
    let err = stderr(&output);
    assert!(err.contains(&fixture.url), "names the URL: {err}");
    assert!(err.contains("authorization"), "{err}");
    assert!(
        err.contains("--header 'Authorization: Bearer TOKEN'"),
        "says the flag: {err}"
    );
    assert!(!err.contains("McpHttp") && !err.contains("rmcp"), "{err}");

    let wrong = toolwire(
        &[
            "census",
            "--mcp-http",
            &fixture.url,
            "--header",
            "Authorization: Bearer wrong",
        ],
        "",
    );
    assert_eq!(status(&wrong), 2, "{}", stderr(&wrong));

    let output = toolwire(
        &[
            "census",
            "--json",
            "--mcp-http",
            &fixture.url,
            "--header",
            "X-Team: blue",
            "--header",
            "Authorization: Bearer s3cret",
        ],
        "",
    );
    assert_eq!(status(&output), 1, "{}", stderr(&output));
    let object: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(tool(&object, "search_web")["status"], "offered");
}

#[test]
fn the_mcp_options_are_refused_where_they_cannot_apply() {
    let cases: [(&[&str], &str); 7] = [
        (
            &[
                "census",
                "--mcp-http",
                "http://127.0.0.1:9/mcp",
                "--header",
                "no colon",
            ],
            "expected 'NAME: VALUE'",
        ),
        (
            &["census", "--header", "A: b", "x.json"],
            "cannot be used with",
        ),
        (
            &[
                "census",
                "--mcp-http",
                "http://127.0.0.1:9/mcp",
                "--mcp-stdio",
                "srv",
            ],
            "cannot be used with",
        ),
        (
            &["census", "--mcp-http", "http://127.0.0.1:9/mcp", "x.json"],
            "cannot be used with",
        ),
        (
            &["census", "--header", "A: b", "--mcp-stdio", "srv"],
            "cannot be used with",
        ),
        (&["census", "--header", "A: b"], "--mcp-http <URL>"),
        (
            &["census", "--timeout", "0", "--mcp-stdio", "srv"],
            "above 0",
        ),
    ];
    for (args, said) in cases {
        let output = toolwire(args, "");
        assert_eq!(status(&output), 2, "{args:?}");
        assert!(
            stderr(&output).contains(said),
            "{args:?}: {}",
            stderr(&output)
        );
    }
    // --timeout needs a server to wait for.
    let output = toolwire(&["census", "--timeout", "5", "x.json"], "");
    assert_eq!(status(&output), 2);
}

#[test]
fn an_unreachable_url_is_unusable_input_naming_it() {
    // A port from a listener just closed: nothing listens there.
    let port = toolwire_test_support::fixture_server::closed_port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let output = toolwire(&["census", "--timeout", "30", "--mcp-http", &url], "");
    assert_eq!(status(&output), 2);
    let err = stderr(&output);
    assert!(err.contains(&url), "{err}");
    assert!(!err.contains("rmcp"), "{err}");
}
