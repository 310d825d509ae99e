//! `census` on every input format: what is offered, left out and healed, the exit status, the
//! table.

use serde_json::json;

use crate::schemas::NO_ARGUMENTS;
use crate::{census_json, file, path, status, stderr, stdout, tool, toolwire};

#[test]
fn an_array_of_names_all_offered_exits_0_with_the_whole_contract() {
    let (code, object) = census_json(r#"["mcp/s/echo", "get_weather", "3d-render"]"#, &[]);
    assert_eq!(code, 0);
    assert_eq!(
        object,
        json!({
            "offered": ["3d-render", "get_weather", "mcp/s/echo"],
            "left_out": {},
            "collisions": {},
            "healing": {"mcp_s_echo": "mcp/s/echo"},
            "duplicates": [],
            "tools": [
                {"name": "mcp/s/echo", "form": "mcp_s_echo", "status": "offered", "reason": null,
                 "reason_key": null,
                 "providers": {"openai": true, "anthropic": true, "converse": true, "gemini": true}},
                {"name": "get_weather", "form": "get_weather", "status": "offered", "reason": null,
                 "reason_key": null,
                 "providers": {"openai": true, "anthropic": true, "converse": true, "gemini": true}},
                {"name": "3d-render", "form": "3d-render", "status": "offered", "reason": null,
                 "reason_key": null,
                 "providers": {"openai": true, "anthropic": true, "converse": true, "gemini": false}},
            ],
            "schemas": {
                "3d-render": NO_ARGUMENTS.clone(),
                "get_weather": NO_ARGUMENTS.clone(),
                "mcp/s/echo": NO_ARGUMENTS.clone(),
            }
        })
    );
}

#[test]
fn openai_tool_objects_with_a_shared_form_exit_1() {
    let openai = r#"[
        {"type": "function", "function": {"name": "search.web", "parameters": {}}},
        {"type": "function", "function": {"name": "search/web"}},
        {"type": "function", "function": {"name": "files/read"}}
    ]"#;
    let (code, object) = census_json(openai, &[]);
    assert_eq!(code, 1);
    assert_eq!(object["offered"], json!(["files/read"]));
    assert_eq!(
        object["left_out"],
        json!({"search.web": "search_web", "search/web": "search_web"})
    );
    assert_eq!(
        object["collisions"],
        json!({"search_web": ["search.web", "search/web"]})
    );
    assert_eq!(object["healing"], json!({"files_read": "files/read"}));
    let left = tool(&object, "search.web");
    assert_eq!(left["status"], "left_out");
    assert_eq!(left["reason_key"], "shares_form");
    assert_eq!(left["reason"], "it shares its form with `search/web`");
}

#[test]
fn messages_api_tools_where_a_form_is_another_tools_name() {
    let messages = r#"[
        {"name": "search.web", "description": "d", "input_schema": {"type": "object"}},
        {"name": "search_web", "input_schema": {"type": "object"}}
    ]"#;
    let (code, object) = census_json(messages, &[]);
    assert_eq!(code, 1);
    assert_eq!(object["offered"], json!(["search_web"]));
    assert_eq!(
        tool(&object, "search.web")["reason_key"],
        "form_is_another_tool"
    );
}

#[test]
fn an_mcp_tools_list_answer_takes_a_server_prefix() {
    let answer = r#"{"tools": [{"name": "echo", "inputSchema": {}}, {"name": "read.file"}]}"#;
    let (code, object) = census_json(answer, &["--server", "files"]);
    assert_eq!(code, 0);
    assert_eq!(
        object["offered"],
        json!(["mcp/files/echo", "mcp/files/read.file"])
    );
    // A whole JSON-RPC answer reads the same.
    let rpc = format!(r#"{{"jsonrpc": "2.0", "id": 2, "result": {answer}}}"#);
    let (_, again) = census_json(&rpc, &["--server", "files"]);
    assert_eq!(again, object);
}

#[test]
fn the_corpus_format_names_tools_by_server() {
    let corpus = r#"{"about": "x", "servers": [
        {"server": "everything", "tools": ["echo", "get-sum"]},
        {"server": "git", "tools": ["git_status"]}
    ]}"#;
    let (code, object) = census_json(corpus, &[]);
    assert_eq!(code, 0);
    assert_eq!(
        object["offered"],
        json!([
            "mcp/everything/echo",
            "mcp/everything/get-sum",
            "mcp/git/git_status"
        ])
    );
    // Its names are already qualified: --server would double them.
    let f = file(corpus);
    let output = toolwire(&["census", path(&f), "--server", "x"], "");
    assert_eq!(status(&output), 2);
    assert!(stderr(&output).contains("--server does not apply to the corpus format"));
}

#[test]
fn meta_tools_are_taken_unless_taken_is_given() {
    let names = r#"["tool_search", "tool/schema", "mine"]"#;
    let (code, object) = census_json(names, &[]);
    assert_eq!(code, 1);
    assert_eq!(object["offered"], json!(["mine"]));
    assert_eq!(
        object["collisions"]["tool_schema"],
        json!(["tool/schema", "tool_schema"])
    );
    assert_eq!(tool(&object, "tool_search")["reason_key"], "meta_tool");

    let (code, object) = census_json(names, &["--taken", "mine"]);
    assert_eq!(code, 1);
    assert_eq!(object["offered"], json!(["tool/schema", "tool_search"]));
    assert_eq!(object["left_out"], json!({"mine": "mine"}));

    let (code, object) = census_json(names, &["--no-taken"]);
    assert_eq!((code, object["left_out"].clone()), (0, json!({})));
}

#[test]
fn a_duplicate_is_reported_but_alone_does_not_fail() {
    let (code, object) = census_json(r#"["a", "b", "a", "a"]"#, &[]);
    assert_eq!(code, 0);
    assert_eq!(object["duplicates"], json!(["a"]));
    assert_eq!(object["offered"], json!(["a", "b"]));
    assert_eq!(object["tools"].as_array().unwrap().len(), 2);

    let f = file(r#"["a", "b", "a"]"#);
    let output = toolwire(&["census", path(&f)], "");
    let summary = stdout(&output).lines().last().unwrap().to_owned();
    assert_eq!(
        summary,
        "2 tools: 2 offered, 0 left out; 1 name given more than once (counted once)"
    );
}

#[test]
fn an_empty_name_is_left_out() {
    let (code, object) = census_json(r#"["", "ok"]"#, &[]);
    assert_eq!(code, 1);
    assert_eq!(tool(&object, "")["reason_key"], "empty_name");
    assert_eq!(tool(&object, "")["providers"]["openai"], false);
}

#[test]
fn the_table_shows_each_tool_its_form_status_and_providers() {
    let f = file(r#"["mcp/s/echo", "search.web", "search_web", "9lives"]"#);
    let output = toolwire(&["census", path(&f)], "");
    assert_eq!(status(&output), 1);
    let out = stdout(&output);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 6, "{out}");
    let header: Vec<&str> = lines[0].split_whitespace().collect();
    assert_eq!(
        header,
        [
            "NAME",
            "FORM",
            "OPENAI",
            "ANTHROPIC",
            "CONVERSE",
            "GEMINI",
            "STATUS"
        ]
    );
    let cells = |line: &str| {
        line.split_whitespace()
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        cells(lines[1]),
        [
            "mcp/s/echo",
            "mcp_s_echo",
            "yes",
            "yes",
            "yes",
            "yes",
            "offered"
        ]
    );
    assert!(
        lines[2].starts_with("search.web ")
            && lines[2].ends_with("LEFT OUT: its form is the real name of the tool `search_web`")
    );
    assert_eq!(cells(lines[4])[2..6], ["yes", "yes", "yes", "NO"]);
    assert_eq!(
        lines[5],
        "4 tools: 3 offered, 1 left out (1 shared form); Gemini refuses 1 offered form"
    );

    let only = toolwire(&["census", "--only-problems", path(&f)], "");
    let out = stdout(&only);
    assert_eq!(
        out.lines().count(),
        4,
        "header, two problems, summary: {out}"
    );
    assert!(!out.contains("mcp/s/echo"));
}
