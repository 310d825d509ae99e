//! `--mcp-stdio` against the workspace's fixture MCP server.

use serde_json::{json, Value};
use toolwire_core::WireFormat;

use crate::wire::{expected_wire, wire};
use crate::{fixture_command, fixture_server, status, stderr, tool, toolwire};
use toolwire_test_support::wire_lists::wire_names;

#[test]
fn a_live_mcp_server_is_listed_and_checked() {
    let command = fixture_command("");
    let output = toolwire(&["census", "--json", "--mcp-stdio", &command], "");
    assert_eq!(status(&output), 1, "{}", stderr(&output));
    let object: Value = serde_json::from_slice(&output.stdout).unwrap();
    // Bare names, as the server gives them.
    assert_eq!(
        tool(&object, "search.web")["reason_key"],
        "form_is_another_tool"
    );
    assert_eq!(tool(&object, "search_web")["status"], "offered");
    assert_eq!(tool(&object, "tool_search")["reason_key"], "meta_tool");
    assert_eq!(object["healing"]["files_read"], "files/read");
    let long = object["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"].as_str().unwrap().chars().count() > 64)
        .expect("the tool whose name is longer than 64 characters");
    assert_eq!(long["form"].as_str().unwrap().len(), 64);
    assert_eq!(long["status"], "offered");
    assert_eq!(tool(&object, "undescribed")["status"], "offered");
}

#[test]
fn a_live_mcp_server_takes_a_server_prefix_and_shows_its_bad_names() {
    let command = fixture_command("--bad-names");
    let output = toolwire(
        &[
            "census",
            "--json",
            "--server",
            "fx",
            "--mcp-stdio",
            &command,
        ],
        "",
    );
    assert_eq!(status(&output), 1, "{}", stderr(&output));
    let object: Value = serde_json::from_slice(&output.stdout).unwrap();
    // Prefixed, `search_web` is no longer its own form: the two search tools share one.
    assert_eq!(
        object["collisions"],
        json!({"mcp_fx_search_web": ["mcp/fx/search.web", "mcp/fx/search_web"]})
    );
    // The empty bare name stays empty (as the runtime names it) and is left out as empty.
    assert_eq!(
        object["left_out"],
        json!({"": "", "mcp/fx/search.web": "mcp_fx_search_web", "mcp/fx/search_web": "mcp_fx_search_web"})
    );
    // ... and `tool_search` no longer travels as the meta-tool.
    assert_eq!(tool(&object, "mcp/fx/tool_search")["status"], "offered");
    assert_eq!(object["duplicates"], json!(["mcp/fx/echo"]));
    assert_eq!(tool(&object, "")["reason_key"], "empty_name");
}

#[test]
fn a_server_that_cannot_start_is_unusable_input() {
    let output = toolwire(
        &["census", "--mcp-stdio", "/no/such/mcp-server --stdio"],
        "",
    );
    assert_eq!(status(&output), 2);
    let err = stderr(&output);
    assert!(err.contains("/no/such/mcp-server"), "{err}");

    let output = toolwire(&["census", "--mcp-stdio", "server 'unclosed"], "");
    assert_eq!(status(&output), 2);
    assert!(stderr(&output).contains("a quote is not closed"));

    let output = toolwire(&["census", "--mcp-stdio", "  "], "");
    assert_eq!(status(&output), 2);
    assert!(stderr(&output).contains("the command is empty"));
}

#[test]
fn wire_lists_a_live_mcp_servers_tools_as_wire_tools_does() {
    let command = fixture_command("");
    let (code, list, err) = wire("converse", &["--mcp-stdio", &command], "");
    assert_eq!(code, 1, "search.web and tool_search are left out: {err}");
    let definitions = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(toolwire_core::mcp::list_server_tools(
            fixture_server().to_str().unwrap(),
            &[],
        ))
        .unwrap();
    assert_eq!(list, expected_wire(&definitions, WireFormat::Converse));
    assert!(
        err.contains("toolwire: left out: tool \"search.web\": "),
        "{err}"
    );
    assert!(
        err.contains("toolwire: left out: tool \"tool_search\": "),
        "{err}"
    );
    // The undescribed tool travels described by its real name (Converse refuses an empty one).
    let undescribed = list
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["toolSpec"]["name"] == "undescribed")
        .unwrap();
    assert_eq!(undescribed["toolSpec"]["description"], "undescribed");

    let (_, list, err) = wire(
        "openai-strict",
        &["--server", "fx", "--mcp-stdio", &command],
        "",
    );
    assert!(wire_names(&list, WireFormat::OpenAiStrict).contains(&"mcp_fx_files_read".to_owned()));
    assert!(
        err.contains(
            "lossy (unguarded, over-restricted): tool \"mcp/fx/files/read\", openai-strict, at (root), additionalProperties: "
        ),
        "{err}"
    );
}

/// The fixture's tool that requires MCP tasks: the runtime cannot run it.
const NEEDS_TASKS: &str = "mcp/fx/needs_tasks";

#[test]
fn wire_census_and_the_runtime_judge_a_tool_that_requires_tasks_alike() {
    let command = fixture_command("--extras");
    let args = ["--server", "fx", "--mcp-stdio", &command];

    // The runtime, over the same server named `fx`: what it sends, and what it left out.
    let runtime_list = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(async {
            let server = toolwire_core::mcp::McpCommand::new(fixture_server().to_string_lossy())
                .arg("--extras");
            let provider = toolwire_core::mcp::McpProvider::spawn("fx", server)
                .await
                .unwrap();
            let runtime = toolwire_core::ToolRuntime::new();
            // The fixture's hard names clash on purpose: a failed load, its tools still offered.
            let status = runtime
                .add_provider(std::sync::Arc::new(provider))
                .await
                .unwrap();
            assert!(!status.is_loaded(), "{status:?}");
            let list = runtime.request().tools(WireFormat::OpenAi).unwrap();
            let left_out = list.left_out().to_vec();
            (list.into_value(), left_out)
        });
    let (runtime_json, runtime_left_out) = runtime_list;
    let why = runtime_left_out
        .iter()
        .find(|t| t.name == NEEDS_TASKS)
        .map(|t| t.reason.to_string())
        .expect("the runtime leaves the task tool out");
    assert!(
        why.starts_with("unsupported: it requires MCP tasks"),
        "{why}"
    );

    // `wire` prints exactly what the runtime sends, and says why the task tool is not in it.
    let (code, list, err) = wire("openai", &args, "");
    assert_eq!(code, 1, "{err}");
    assert_eq!(list, runtime_json);
    assert!(!wire_names(&list, WireFormat::OpenAi).contains(&"mcp_fx_needs_tasks".to_owned()));
    assert!(
        err.contains(&format!(
            "toolwire: left out: tool \"{NEEDS_TASKS}\": {why}"
        )),
        "{err}"
    );

    // `census` leaves it out with the same words, its name still taken.
    let mut census = vec!["census", "--json"];
    census.extend_from_slice(&args);
    let output = toolwire(&census, "");
    let object: Value = serde_json::from_slice(&output.stdout).unwrap();
    let entry = tool(&object, NEEDS_TASKS);
    assert_eq!(entry["status"], "left_out", "{entry}");
    assert_eq!(entry["reason_key"], "unsupported");
    assert_eq!(entry["reason"], why.as_str());
    assert_eq!(object["healing"]["mcp_fx_needs_tasks"], NEEDS_TASKS);
    // The table says it too.
    let mut table = vec!["census"];
    table.extend_from_slice(&args);
    let output = toolwire(&table, "");
    let text = String::from_utf8(output.stdout).unwrap();
    let row = text
        .lines()
        .find(|l| l.starts_with(NEEDS_TASKS))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(row.ends_with(&format!("LEFT OUT: {why}")), "{row}");
}
