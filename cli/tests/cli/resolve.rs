//! `resolve`: where each called name is dispatched.

use serde_json::{json, Value};

use crate::{file, path, status, stderr, stdout, toolwire};

#[test]
fn resolve_prints_one_line_per_call() {
    let f = file(r#"["mcp/s/echo", "mcp/a/b", "mcp/a_b"]"#);
    let output = toolwire(
        &[
            "resolve",
            "--tools",
            path(&f),
            "tool_search",
            "mcp_s_echo",
            "mcp/s/echo",
            "mcp_a_b",
        ],
        "",
    );
    assert_eq!(status(&output), 1, "an unknown call exits 1");
    let lines: Vec<Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        lines,
        [
            json!({"call": "tool_search", "to": "tool_search", "via": "meta"}),
            json!({"call": "mcp_s_echo", "to": "mcp/s/echo", "via": "form"}),
            json!({"call": "mcp/s/echo", "to": "mcp/s/echo", "via": "exact"}),
            json!({"call": "mcp_a_b", "to": null, "via": "unknown"}),
        ]
    );

    let output = toolwire(
        &[
            "resolve",
            "--tools",
            path(&f),
            "--taken",
            "other",
            "tool_search",
            "mcp/a/b",
        ],
        "",
    );
    assert_eq!(status(&output), 1);
    assert!(stdout(&output).starts_with(r#"{"call":"tool_search","to":null,"via":"unknown"}"#));

    let output = toolwire(&["resolve", "--tools", path(&f), "mcp/a_b"], "");
    assert_eq!(status(&output), 0);
}

#[test]
fn resolve_reads_the_tools_like_census() {
    let output = toolwire(
        &[
            "resolve",
            "--tools",
            "-",
            "--server",
            "fs",
            "mcp_fs_read_file",
        ],
        r#"{"tools": [{"name": "read.file"}]}"#,
    );
    assert_eq!(status(&output), 0);
    assert_eq!(
        stdout(&output),
        "{\"call\":\"mcp_fs_read_file\",\"to\":\"mcp/fs/read.file\",\"via\":\"form\"}\n"
    );
    let bad = file("[1]");
    let output = toolwire(&["resolve", "--tools", path(&bad), "x"], "");
    assert_eq!(status(&output), 2);
    assert!(stderr(&output).contains("[0] is a number"));
}
