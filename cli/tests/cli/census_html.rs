//! `census --html FILE` (issue 29, §2): the gateway's Tools page, written for a tool set read
//! from a file or from MCP servers, clashes first, every description escaped, whatever the
//! exit status.

use serde_json::json;

use crate::{file, fixture_server, path, status, stderr, toolwire};

/// Where `needle` is in `page`, failing with the page when it is not there.
fn at(page: &str, needle: &str) -> usize {
    page.find(needle)
        .unwrap_or_else(|| panic!("{needle} is not in the page:\n{page}"))
}

#[test]
fn a_file_with_a_clash_is_written_as_a_page_with_the_clash_first_and_its_text_escaped() {
    let tools = file(
        &json!({"tools": [
            {"name": "files/read", "description": "Reads. <script>alert(1)</script>", "inputSchema": {"type": "object"}},
            {"name": "files.read", "description": "Reads too.", "inputSchema": {"type": "object"}},
            {"name": "echo", "description": "Echoes.", "inputSchema": {"type": "object"}}
        ]})
        .to_string(),
    );
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("tools.html");
    let output = toolwire(
        &["census", path(&tools), "--html", html.to_str().unwrap()],
        "",
    );
    // The clash fails the census, and the page is there all the same.
    assert_eq!(status(&output), 1, "{}", stderr(&output));
    let page = std::fs::read_to_string(&html).expect("the page is written");
    assert!(at(&page, r#"<section id="clashes""#) < at(&page, r#"<section id="backends""#));
    assert!(at(&page, r#"<section id="backends""#) < at(&page, r#"<section id="tools""#));
    let clash = at(&page, r#"data-form="files_read""#);
    assert!(clash < at(&page, r#"<section id="backends""#));
    assert!(at(&page, r#"data-clash-tool="files/read""#) > clash);
    assert!(at(&page, r#"data-clash-tool="files.read""#) > clash);
    at(&page, r#"data-tool="echo" data-status="offered""#);
    // A server's text is text: escaped, and no script of any kind in a file.
    at(&page, "Reads. &lt;script&gt;alert(1)&lt;/script&gt;");
    assert!(!page.contains("<script"), "{page}");
}

#[test]
fn a_config_of_two_servers_is_one_page_naming_each_server_and_their_clash() {
    let fixture = fixture_server();
    let config = file(
        &json!({"mcpServers": {
            "fx": {"command": fixture, "args": ["--extras"]},
            "fx_files": {"command": fixture, "args": ["--second-set"]}
        }})
        .to_string(),
    );
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("tools.html");
    let output = toolwire(
        &[
            "census",
            "--mcp-config",
            path(&config),
            "--html",
            html.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(status(&output), 1, "{}", stderr(&output));
    let page = std::fs::read_to_string(&html).expect("the page is written");
    at(&page, r#"data-backend="fx""#);
    at(&page, r#"data-backend="fx_files""#);
    // `fx`'s `files/read` and `fx_files`'s `read` travel as one form: named together, first.
    let clash = at(&page, r#"data-form="mcp_fx_files_read""#);
    assert!(clash < at(&page, r#"<section id="backends""#));
    at(&page, r#"data-clash-tool="mcp/fx/files/read""#);
    at(&page, r#"data-clash-tool="mcp/fx_files/read""#);
    // What the server says of a tool, and what the runtime cannot run, withheld with why.
    let titled = at(&page, r#"data-tool="mcp/fx/titled" data-status="offered""#);
    let row = &page[titled..titled + page[titled..].find("</tr>").unwrap()];
    assert!(
        row.contains("A Titled Tool") && row.contains("read-only"),
        "{row}"
    );
    assert!(row.contains("not destructive"), "{row}");
    at(
        &page,
        r#"data-tool="mcp/fx/needs_tasks" data-status="unsupported""#,
    );
}

#[test]
fn a_taken_name_is_left_out_on_the_page_saying_so() {
    let tools = file(&json!(["deploy", "echo"]).to_string());
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("tools.html");
    let output = toolwire(
        &[
            "census",
            path(&tools),
            "--taken",
            "deploy",
            "--html",
            html.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(status(&output), 1, "{}", stderr(&output));
    let page = std::fs::read_to_string(&html).expect("the page is written");
    let row = at(&page, r#"data-tool="deploy" data-status="left_out""#);
    let row = &page[row..row + page[row..].find("</tr>").unwrap()];
    assert!(
        row.contains("it is, or travels as, the meta-tool `deploy`"),
        "{row}"
    );
    at(
        &page,
        r#"data-clash="taken_name">Taken name: <code data-clash-tool="deploy">"#,
    );
    at(&page, r#"data-tool="echo" data-status="offered""#);
}

#[test]
fn a_server_that_cannot_be_listed_is_on_the_page_failed_with_why() {
    let fixture = fixture_server();
    let config = file(
        &json!({"mcpServers": {
            "fx": {"command": fixture, "args": []},
            "gone": {"command": "/nonexistent/toolwire-no-such-server", "args": []}
        }})
        .to_string(),
    );
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("tools.html");
    let output = toolwire(
        &[
            "census",
            "--mcp-config",
            path(&config),
            "--html",
            html.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(status(&output), 2, "{}", stderr(&output));
    let page = std::fs::read_to_string(&html).expect("the page is written");
    at(&page, r#"data-backend="fx" data-health="running""#);
    let gone = at(&page, r#"data-backend="gone" data-health="failed""#);
    let row = &page[gone..gone + page[gone..].find("</tr>").unwrap()];
    assert!(
        row.contains("toolwire-no-such-server"),
        "the error is shown: {row}"
    );
}
