//! `search`: the offered tools that best match a query, one JSON line each, best first.

use serde_json::Value;

use crate::{file, path, status, stderr, stdout, toolwire};

/// A small described tool set: two tools share the form `mcp_a_b` (so both are left out), and
/// a name is taken by a meta-tool.
const TOOLS: &str = r#"[
  {"name": "mcp/fs/read_file", "description": "Read the complete contents of a file as text."},
  {"name": "mcp/fs/write_file", "description": "Create a new file or overwrite an existing file."},
  {"name": "mcp/time/get_current_time", "description": "Get current time in a specific timezone."},
  {"name": "mcp/a/b", "description": "Read a file, but left out of every request."},
  {"name": "mcp/a_b", "description": "Read a file, but left out of every request."}
]"#;

/// The JSON lines of a run's stdout.
fn lines(output: &std::process::Output) -> Vec<Value> {
    stdout(output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

#[test]
fn prints_offered_hits_best_first_and_exits_0() {
    let f = file(TOOLS);
    let output = toolwire(&["search", "--tools", path(&f), "read", "a", "file"], "");
    assert_eq!(status(&output), 0, "{}", stderr(&output));
    let hits = lines(&output);
    let names: Vec<&str> = hits.iter().map(|h| h["name"].as_str().unwrap()).collect();
    // Best first; the left-out tools are never found, though their descriptions match.
    assert_eq!(names, ["mcp/fs/read_file", "mcp/fs/write_file"]);
    for hit in &hits {
        let keys: Vec<&String> = hit.as_object().unwrap().keys().collect();
        assert_eq!(keys.len(), 3, "exactly name, form, score: {hit}");
        assert!(hit["score"].as_f64().unwrap() > 0.0);
    }
    assert_eq!(hits[0]["form"], "mcp_fs_read_file");
    assert!(hits[0]["score"].as_f64() > hits[1]["score"].as_f64());
    // Key order as documented.
    assert!(stdout(&output)
        .starts_with(r#"{"name":"mcp/fs/read_file","form":"mcp_fs_read_file","score":"#));
}

#[test]
fn limit_and_server_and_stdin() {
    let output = toolwire(
        &[
            "search", "--tools", "-", "--server", "fs", "--limit", "1", "file",
        ],
        r#"{"tools": [{"name": "read_file", "description": "Read a file."},
                      {"name": "write_file", "description": "Write a file."}]}"#,
    );
    assert_eq!(status(&output), 0, "{}", stderr(&output));
    let hits = lines(&output);
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0]["name"], "mcp/fs/read_file");
    assert_eq!(hits[0]["form"], "mcp_fs_read_file");

    let f = file(TOOLS);
    let output = toolwire(&["search", "--tools", path(&f), "--limit", "0", "file"], "");
    assert_eq!(status(&output), 2, "a limit of 0 is refused");
}

#[test]
fn no_hit_exits_1() {
    let f = file(TOOLS);
    for query in ["spreadsheet", "the of a"] {
        let output = toolwire(&["search", "--tools", path(&f), query], "");
        assert_eq!(status(&output), 1, "{query}");
        assert_eq!(stdout(&output), "", "{query}");
    }
}

#[test]
fn unusable_input_exits_2() {
    let bad = file("[1]");
    let output = toolwire(&["search", "--tools", path(&bad), "file"], "");
    assert_eq!(status(&output), 2);
    assert!(
        stderr(&output).contains("[0] is a number"),
        "{}",
        stderr(&output)
    );

    let output = toolwire(&["search", "--tools", "/no/such/file.json", "file"], "");
    assert_eq!(status(&output), 2);
    assert!(
        stderr(&output).contains("cannot read"),
        "{}",
        stderr(&output)
    );

    let f = file(TOOLS);
    for query in ["", "?!/._-"] {
        let output = toolwire(&["search", "--tools", path(&f), query], "");
        assert_eq!(status(&output), 2, "{query:?}");
        assert!(stderr(&output).contains("no words"), "{}", stderr(&output));
    }
    let output = toolwire(&["search", "--tools", path(&f)], "");
    assert_eq!(status(&output), 2, "a query is required");
}

#[test]
fn help_says_the_default_limit() {
    let output = toolwire(&["search", "--help"], "");
    assert_eq!(status(&output), 0);
    assert!(
        stdout(&output).contains("[default: 5]"),
        "{}",
        stdout(&output)
    );
}
