//! `census` and `wire` of a server whose tool list has one bad tool, or whose answer cannot be
//! read (the fixture's `--faulty` modes), over `--mcp-stdio` and `--mcp-http`: a bad tool is a
//! left-out line and exit 1, its siblings are listed; an unreadable answer is exit 2 at once,
//! saying why.

use serde_json::Value;

use crate::wire::wire;
use crate::{fixture_server, status, stderr, stdout, tool, toolwire, HttpFixture};

/// The `--mcp-stdio` command of the `--faulty mode` fixture.
fn faulty_command(mode: &str) -> String {
    format!("{} --faulty {mode}", fixture_server().display())
}

/// The source flags of the `--faulty mode` fixture, over stdio or HTTP (kept alive beside).
fn sources(mode: &str) -> Vec<(Vec<String>, Option<HttpFixture>)> {
    let http = HttpFixture::start(&["--faulty", mode]);
    vec![
        (vec!["--mcp-stdio".into(), faulty_command(mode)], None),
        (vec!["--mcp-http".into(), http.url.clone()], Some(http)),
    ]
}

#[test]
fn a_bad_tool_is_a_left_out_line_and_exit_1_and_its_siblings_are_listed() {
    let cases = [
        (
            "string-schema",
            "stringly",
            "its inputSchema is a string (\"object\"), not an object",
        ),
        (
            "number-name",
            "tools[2]",
            "its name is a number (7), not a string",
        ),
    ];
    for (mode, bad, reason) in cases {
        for (source, _http) in sources(mode) {
            let source: Vec<&str> = source.iter().map(String::as_str).collect();
            let mut args = vec!["census", "--json"];
            args.extend(&source);
            let output = toolwire(&args, "");
            assert_eq!(status(&output), 1, "{mode}: {}", stderr(&output));
            let object: Value = serde_json::from_slice(&output.stdout).unwrap();
            assert_eq!(
                object["offered"],
                serde_json::json!(["echo", "ping"]),
                "{mode}"
            );
            let entry = tool(&object, bad);
            assert_eq!(entry["status"], "left_out");
            assert_eq!(entry["reason_key"], "unsupported");
            let said = entry["reason"].as_str().unwrap();
            assert!(
                said.contains(&format!("it is not valid MCP: {reason}")),
                "{said}"
            );

            let mut args = vec!["census"];
            args.extend(&source);
            let table = stdout(&toolwire(&args, ""));
            assert!(
                table
                    .lines()
                    .any(|l| l.starts_with(bad) && l.contains("LEFT OUT") && l.contains(reason)),
                "{table}"
            );
            assert!(table.contains("3 tools: 2 offered, 1 left out"), "{table}");

            let (code, list, err) = wire("openai", &source, "");
            assert_eq!(code, 1, "{mode}: {err}");
            let names: Vec<&str> = (list.as_array().unwrap().iter())
                .map(|t| t["function"]["name"].as_str().unwrap())
                .collect();
            assert_eq!(names, ["echo", "ping"], "{mode}");
            assert!(
                err.lines().any(
                    |l| l.starts_with(&format!("toolwire: left out: tool \"{bad}\""))
                        && l.contains(reason)
                ),
                "{err}"
            );
        }
    }
}

#[test]
fn an_answer_that_cannot_be_read_is_exit_2_saying_why() {
    let cases = [
        ("deep-schema", "deeper than the 127 levels toolwire reads"),
        ("not-utf8", "it is not UTF-8"),
        ("not-jsonrpc", "not a JSON-RPC"),
    ];
    for (mode, why) in cases {
        for (source, _http) in sources(mode) {
            let mut args = vec!["census"];
            args.extend(source.iter().map(String::as_str));
            let output = toolwire(&args, "");
            assert_eq!(status(&output), 2, "{mode}");
            let err = stderr(&output);
            assert!(
                err.contains("listing its tools failed: its answer could not be read: "),
                "{err}"
            );
            assert!(
                err.contains(why) && !err.contains("did not answer"),
                "{mode}: {err}"
            );
        }
    }
}

/// A tool without `inputSchema` (or with a `null` one) loses nothing: it is offered as a tool
/// without arguments, the exit status stays 0, and a note on stderr names it and says how it
/// was read, in `census` and `wire`, over stdio and HTTP.
#[test]
fn a_tool_read_leniently_is_offered_with_a_note_and_exit_0() {
    let cases = [
        ("no-schema", "bare", "it has no inputSchema"),
        ("null-schema", "nulled", "its inputSchema is null"),
    ];
    for (mode, lenient, said) in cases {
        for (source, _http) in sources(mode) {
            let source: Vec<&str> = source.iter().map(String::as_str).collect();
            let note = |err: &str| {
                err.lines().any(|l| {
                    l.starts_with("toolwire: note: ")
                        && l.contains(&format!(
                            "`{lenient}`: {said}, so it is read as a tool without arguments"
                        ))
                })
            };
            let mut args = vec!["census", "--json"];
            args.extend(&source);
            let output = toolwire(&args, "");
            assert_eq!(status(&output), 0, "{mode}: {}", stderr(&output));
            let object: Value = serde_json::from_slice(&output.stdout).unwrap();
            let offered: Vec<&str> = (object["offered"].as_array().unwrap().iter())
                .map(|n| n.as_str().unwrap())
                .collect();
            assert!(offered.contains(&lenient), "{mode}: {offered:?}");
            assert!(note(&stderr(&output)), "{mode}: {}", stderr(&output));

            let (code, list, err) = wire("openai", &source, "");
            assert_eq!(code, 0, "{mode}: {err}");
            assert!(
                (list.as_array().unwrap().iter()).any(|t| t["function"]["name"] == lenient),
                "{mode}: {list}"
            );
            assert!(note(&err), "{mode}: {err}");
        }
    }
}
