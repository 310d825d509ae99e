//! The built `toolwire` binary, run as a person or a CI script would: every input format, bad
//! input, both exit paths of `census`, its `schemas` key and `--provider`, `wire` in every
//! format, `resolve`, and `--mcp-stdio` against the workspace's fixture MCP server.

use std::io::Write;
use std::path::PathBuf;
use std::process::Output;

use serde_json::{json, Value};
use toolwire_core::{wire_tools, Census, ToolDefinition, WireFormat, META_TOOLS};

/// `toolwire ARGS` with `stdin`, and its output.
fn toolwire(args: &[&str], stdin: &str) -> Output {
    assert_cmd::cargo_bin_cmd!("toolwire")
        .args(args)
        .write_stdin(stdin)
        .output()
        .expect("the toolwire binary runs")
}

/// A JSON file holding `text`.
fn file(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::Builder::new().suffix(".json").tempfile().unwrap();
    f.write_all(text.as_bytes()).unwrap();
    f
}

fn path(f: &tempfile::NamedTempFile) -> &str {
    f.path().to_str().unwrap()
}

fn status(output: &Output) -> i32 {
    output.status.code().expect("exited, not killed")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// Runs `census --json` on `text` and returns the exit status and the parsed object, checking
/// the output is exactly one JSON line.
fn census_json(text: &str, extra: &[&str]) -> (i32, Value) {
    let f = file(text);
    let mut args = vec!["census", "--json", path(&f)];
    args.extend_from_slice(extra);
    let output = toolwire(&args, "");
    let out = stdout(&output);
    assert_eq!(
        out.lines().count(),
        1,
        "one JSON line: {out}\n{}",
        stderr(&output)
    );
    (status(&output), serde_json::from_str(&out).unwrap())
}

/// The tool object of `name` in a `--json` object.
fn tool<'a>(object: &'a Value, name: &str) -> &'a Value {
    object["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("no tool {name} in {object}"))
}

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

/// The `schemas` entry of a tool with no arguments (a bare name), as core prepares the schema
/// the wire sends for it, `{"type":"object","properties":{}}`.
static NO_ARGUMENTS: std::sync::LazyLock<Value> =
    std::sync::LazyLock::new(|| verdicts_of(&json!({"type": "object", "properties": {}})));

/// What `schemas` says of a tool whose wire schema is `schema`: core's own preparation in
/// each dialect, in the contract's shape.
fn verdicts_of(schema: &Value) -> Value {
    let mut verdicts = serde_json::Map::new();
    for dialect in toolwire_core::Dialect::ALL {
        let verdict = match toolwire_core::prepare_schema(dialect, schema) {
            Ok(prepared) => json!({"status": prepared.status.key(), "losses": prepared.losses,
                                   "reason": null}),
            Err(refusal) => json!({"status": "refused", "losses": [],
                                   "reason": refusal.to_string()}),
        };
        verdicts.insert(dialect.key().to_owned(), verdict);
    }
    Value::Object(verdicts)
}

#[test]
fn a_tool_with_no_arguments_travels_as_is_or_exactly_except_where_strict_closes_it() {
    assert_eq!(NO_ARGUMENTS["openai"]["status"], "as_is");
    assert_eq!(NO_ARGUMENTS["gemini"]["status"], "rewritten");
    assert_eq!(NO_ARGUMENTS["openai-strict"]["status"], "lossy");
    assert_eq!(
        NO_ARGUMENTS["anthropic-strict"]["losses"][0]["keyword"],
        "additionalProperties"
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

#[test]
fn stdin_is_read_for_a_dash_or_no_file() {
    for args in [&["census", "--json", "-"][..], &["census", "--json"][..]] {
        let output = toolwire(args, r#"["a.b"]"#);
        assert_eq!(status(&output), 0, "{}", stderr(&output));
        let object: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(object["healing"], json!({"a_b": "a.b"}));
    }
}

/// Runs `census` on `text` and returns its stderr, checking it exits 2 with nothing on stdout.
fn unusable(text: &str) -> (String, String) {
    let f = file(text);
    let output = toolwire(&["census", "--json", path(&f)], "");
    assert_eq!(status(&output), 2, "{text}: {}", stdout(&output));
    assert!(output.stdout.is_empty());
    (stderr(&output), path(&f).to_owned())
}

#[test]
fn text_that_is_not_json_names_the_file_line_and_column() {
    let (err, file) = unusable("[\n  \"a\",\n  oops\n]\n");
    assert_eq!(
        err,
        format!("toolwire: {file}:3:3: not valid JSON: expected value\n")
    );
    let (err, file) = unusable("[\"a\", \"b\"");
    assert!(err.starts_with(&format!("toolwire: {file}:1:")), "{err}");
    assert!(err.contains("EOF"), "{err}");
}

#[test]
fn the_wrong_shape_names_the_entry() {
    let (err, file) = unusable(r#"{"tools": [{"name": "a"}, {"name": 42}]}"#);
    assert_eq!(
        err,
        format!("toolwire: {file}: tools[1].name is a number, not a string\n")
    );
    let (err, _) = unusable(r#"[{"type": "function", "function": {"name": ["x"]}}]"#);
    assert!(
        err.contains("[0].function.name is an array, not a string"),
        "{err}"
    );
    let (err, _) = unusable(r#"{"servers": [{"server": "s", "tools": ["a", null]}]}"#);
    assert!(err.contains("servers[0].tools[1] is null"), "{err}");
    let (err, _) = unusable(r#"{"name": "just one tool"}"#);
    assert!(err.contains("found an object with keys `name`"), "{err}");
    let (err, _) = unusable("\"a string\"");
    assert!(err.contains("found a string"), "{err}");
}

#[test]
fn an_empty_file_or_a_missing_one_is_unusable() {
    let (err, file) = unusable("");
    assert!(
        err.starts_with(&format!("toolwire: {file}: the input is empty")),
        "{err}"
    );
    let (err, _) = unusable("  \n");
    assert!(err.contains("the input is empty"), "{err}");

    let output = toolwire(&["census", "/no/such/tools.json"], "");
    assert_eq!(status(&output), 2);
    assert!(stderr(&output).starts_with("toolwire: /no/such/tools.json: cannot read:"));

    let output = toolwire(&["census", "-"], "");
    assert_eq!(status(&output), 2);
    assert!(stderr(&output).starts_with("toolwire: <stdin>: the input is empty"));
}

#[test]
fn invalid_utf8_is_unusable_not_a_panic() {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    f.write_all(b"[\"a\xff\"]").unwrap();
    let output = toolwire(&["census", path(&f)], "");
    assert_eq!(status(&output), 2);
    assert!(stderr(&output).contains(":1:"), "{}", stderr(&output));
}

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

#[path = "../../core/tests/support/workspace_binary.rs"]
mod workspace_binary;

/// The fixture MCP server binary, built by cargo for this test run (see `workspace_binary.rs`).
fn fixture_server() -> PathBuf {
    workspace_binary::workspace_binary("toolwire-fixture-mcp-server", "toolwire-fixture-mcp-server")
}

/// A `--mcp-stdio` command line for the fixture, its path quoted for the command's splitter.
fn fixture_command(extra: &str) -> String {
    let path = fixture_server();
    let path = shlex::try_quote(path.to_str().unwrap()).unwrap();
    format!("{path} {extra}")
}

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

/// A small tool set in the Messages API shape: `search.web` has a type array, a local `$ref`
/// and a pattern; `files/tree` is recursive.
const SMALL_SET: &str = r##"[
  {"name": "search.web", "description": "Searches the web.", "input_schema": {
    "type": "object",
    "properties": {
      "q": {"type": "string", "pattern": "^[a-z]+$"},
      "limit": {"type": ["integer", "null"]},
      "near": {"$ref": "#/$defs/Place"}
    },
    "required": ["q"],
    "$defs": {"Place": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}
  }},
  {"name": "files/tree", "description": "Walks a tree.", "input_schema": {
    "type": "object",
    "properties": {"root": {"$ref": "#/$defs/Node"}},
    "$defs": {"Node": {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}}
  }}
]"##;

/// The definitions of a Messages API tool array, read the plain way.
fn messages_definitions(text: &str) -> Vec<ToolDefinition> {
    let tools: Vec<Value> = serde_json::from_str(text).unwrap();
    tools
        .iter()
        .map(|t| {
            ToolDefinition::new(
                t["name"].as_str().unwrap(),
                t["description"].as_str().unwrap_or(""),
                t["input_schema"].clone(),
            )
        })
        .collect()
}

/// What `wire_tools` gives for `definitions` in `format`, with the default taken names.
fn expected_wire(definitions: &[ToolDefinition], format: WireFormat) -> Value {
    let census = Census::build(definitions.iter().map(|d| &d.name), &META_TOOLS);
    wire_tools(&census, definitions, format).unwrap()
}

/// Runs `wire --format FORMAT ARGS` and returns the status, stdout parsed as one JSON document
/// (nothing after it but the newline), and stderr.
fn wire(format: &str, args: &[&str], stdin: &str) -> (i32, Value, String) {
    let mut all = vec!["wire", "--format", format];
    all.extend_from_slice(args);
    let output = toolwire(&all, stdin);
    let out = stdout(&output);
    assert_eq!(
        out.lines().count(),
        1,
        "one JSON line: {out}\n{}",
        stderr(&output)
    );
    let document: Value = serde_json::from_str(&out)
        .unwrap_or_else(|err| panic!("not one JSON document ({err}): {out}"));
    (status(&output), document, stderr(&output))
}

/// The model-safe names in a wire list of any format.
fn wire_names(list: &Value, format: WireFormat) -> Vec<String> {
    let tools = match format {
        WireFormat::Gemini => list[0]["functionDeclarations"].clone(),
        _ => list.clone(),
    };
    let tools = tools.as_array().cloned().unwrap_or_default();
    tools
        .iter()
        .map(|t| {
            let name = match format {
                WireFormat::OpenAi | WireFormat::OpenAiStrict => &t["function"]["name"],
                WireFormat::Converse | WireFormat::ConverseStrict => &t["toolSpec"]["name"],
                _ => &t["name"],
            };
            name.as_str().unwrap().to_owned()
        })
        .collect()
}

#[test]
fn wire_prints_exactly_what_wire_tools_gives_in_every_format() {
    let f = file(SMALL_SET);
    let definitions = messages_definitions(SMALL_SET);
    for format in WireFormat::ALL {
        let (code, list, err) = wire(format.key(), &[path(&f)], "");
        assert_eq!(list, expected_wire(&definitions, format), "{format}");
        let names = wire_names(&list, format);
        // The pattern travels wherever `search.web` does: no dialect drops it.
        assert!(
            names.contains(&"search_web".to_owned()),
            "{format}: {names:?}"
        );
        assert!(
            list.to_string().contains(r#""pattern":"^[a-z]+$""#),
            "{format}"
        );
        let dialect = format.dialect().key();
        if names.contains(&"files_tree".to_owned()) {
            assert!(!err.contains("files/tree\", {dialect}"), "{format}: {err}");
        } else {
            // Left out of the list: refused, said on stderr with dialect, pointer and keyword.
            assert_eq!(code, 1, "{format}: {err}");
            assert!(
                err.contains(&format!(
                    "toolwire: refused: tool \"files/tree\", {dialect}, at /$defs/Node/properties/children/items, $ref: "
                )),
                "{format}: {err}"
            );
        }
        // Every stderr line is one finding, and exit 0 means there are none.
        assert!(err.lines().all(|l| l.starts_with("toolwire: ")), "{err}");
        assert_eq!(code == 0, err.is_empty(), "{format}: {err}");
    }
}

#[test]
fn wire_says_what_each_dialect_refuses_or_loses() {
    let f = file(SMALL_SET);
    // Gemini has no `$ref` and no recursion: the tree is refused, the rest is rewritten exactly.
    let (code, list, err) = wire("gemini", &[path(&f)], "");
    assert_eq!(code, 1);
    assert_eq!(err.lines().count(), 1, "{err}");
    let search = &list[0]["functionDeclarations"][0]["parameters"];
    assert_eq!(
        search["properties"]["limit"],
        json!({"type": "INTEGER", "nullable": true})
    );
    assert_eq!(
        search["properties"]["near"]["properties"]["city"]["type"],
        "STRING"
    );
    // Strict dialects close objects and record it: lossy lines name tool, dialect, pointer.
    let (code, _, err) = wire("openai-strict", &[path(&f)], "");
    assert_eq!(code, 1);
    assert!(err.contains(
        "toolwire: lossy: tool \"search.web\", openai-strict, at (root), additionalProperties: "
    ));
    assert!(err.contains(
        "toolwire: lossy: tool \"search.web\", openai-strict, at /properties/limit, required: "
    ));
    let (code, list, err) = wire("converse-strict", &[path(&f)], "");
    assert_eq!(code, 1);
    assert_eq!(list[0]["toolSpec"]["strict"], true);
    assert!(
        err.contains("refused: tool \"files/tree\", anthropic-strict, at "),
        "{err}"
    );
}

#[test]
fn wire_exits_0_when_every_tool_travels_without_loss() {
    let set = r#"[{"name": "mcp/s/get", "description": "Gets.", "input_schema":
        {"type": "object", "properties": {"days": {"type": ["integer", "null"]}}}}]"#;
    let f = file(set);
    for format in ["openai", "anthropic", "converse", "gemini"] {
        let (code, list, err) = wire(format, &[path(&f)], "");
        assert_eq!((code, err.as_str()), (0, ""), "{format}");
        let format = WireFormat::from_key(format).unwrap();
        assert_eq!(list, expected_wire(&messages_definitions(set), format));
    }
    // Standard input, and every input format census reads.
    let (code, list, _) = wire(
        "anthropic",
        &["-"],
        r#"{"tools": [{"name": "a.b", "inputSchema": {"type": "object"}}]}"#,
    );
    assert_eq!(code, 0);
    assert_eq!(
        list,
        json!([{"name": "a_b", "description": "", "input_schema": {"type": "object", "properties": {}}}])
    );
    let (_, list, _) = wire(
        "openai",
        &[],
        r#"{"servers": [{"server": "s", "tools": [{"name": "t", "description": "T."}]}]}"#,
    );
    assert_eq!(list[0]["function"]["name"], "mcp_s_t");
    assert_eq!(list[0]["function"]["description"], "T.");
}

#[test]
fn wire_exits_1_for_a_tool_left_out_by_the_name_rules() {
    let (code, list, err) = wire(
        "gemini",
        &["-"],
        r#"["search.web", "search_web", "3d", "ok"]"#,
    );
    assert_eq!(code, 1);
    assert_eq!(wire_names(&list, WireFormat::Gemini), ["search_web", "ok"]);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with("toolwire: left out: tool \"search.web\": its form is the real name")
    );
    assert!(lines[1].starts_with("toolwire: left out: tool \"3d\", gemini: "));
    // A name given twice is one tool, sent once: not a finding.
    let (code, list, err) = wire(
        "openai",
        &["--no-taken", "-"],
        r#"["a", "a", "tool_search"]"#,
    );
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(wire_names(&list, WireFormat::OpenAi), ["a", "tool_search"]);
}

#[test]
fn wire_exits_2_on_unusable_input_or_over_a_request_limit() {
    let bad = file(r#"{"tools": [{"name": "a"}, {"name": "b", "inputSchema": "object"}]}"#);
    let output = toolwire(&["wire", "--format", "openai", path(&bad)], "");
    assert_eq!(status(&output), 2);
    assert!(output.stdout.is_empty());
    assert_eq!(
        stderr(&output),
        format!(
            "toolwire: {}: tools[1].inputSchema is a string, not a parameter schema (an object)\n",
            path(&bad)
        )
    );
    let output = toolwire(&["wire", "--format", "bard", "-"], "[]");
    assert_eq!(status(&output), 2);
    assert!(stderr(&output).contains("openai, openai-strict, anthropic"));

    let names = |n: usize| {
        serde_json::to_string(&(0..n).map(|i| format!("t{i}")).collect::<Vec<_>>()).unwrap()
    };
    let output = toolwire(&["wire", "--format", "openai", "-"], &names(129));
    assert_eq!(status(&output), 2);
    assert!(output.stdout.is_empty());
    let err = stderr(&output);
    assert!(
        err.contains("the openai tool list has 129 tools; the provider takes at most 128"),
        "{err}"
    );
    let (code, list, _) = wire("openai", &["-"], &names(128));
    assert_eq!((code, list.as_array().unwrap().len()), (0, 128));
    let output = toolwire(&["wire", "--format", "anthropic-strict", "-"], &names(21));
    assert_eq!(status(&output), 2);
    assert!(
        stderr(&output).contains("21 strict tools; the provider takes at most 20"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn census_json_says_how_each_schema_travels_in_each_dialect() {
    let (code, object) = census_json(SMALL_SET, &[]);
    assert_eq!(
        code, 0,
        "without --provider, schemas do not change the status"
    );
    let schemas = &object["schemas"];
    assert_eq!(schemas.as_object().unwrap().len(), 2);
    for definition in messages_definitions(SMALL_SET) {
        assert_eq!(
            schemas[&definition.name],
            verdicts_of(&definition.parameters_schema()),
            "{}",
            definition.name
        );
    }
    let tree = &schemas["files/tree"];
    assert_eq!(tree["gemini"]["status"], "refused");
    assert!(tree["gemini"]["reason"]
        .as_str()
        .unwrap()
        .contains("no recursion"));
    assert_ne!(
        tree["openai-strict"]["status"], "refused",
        "openai-strict has recursion"
    );
    let search = &schemas["search.web"];
    assert_eq!(
        search["gemini"],
        json!({"status": "rewritten", "losses": [], "reason": null})
    );
    assert_eq!(search["openai-strict"]["status"], "lossy");
    assert!(search["openai-strict"]["losses"]
        .as_array()
        .unwrap()
        .iter()
        .any(|l| l["pointer"] == "/properties/limit" && l["keyword"] == "required"));
}

#[test]
fn census_provider_counts_lossy_and_refused_schemas_in_the_named_dialects() {
    let (code, _) = census_json(SMALL_SET, &["--provider", "gemini"]);
    assert_eq!(code, 1, "the tree is refused in gemini");
    let typed = r#"[{"name": "get", "input_schema": {"type": "object", "properties": {"n": {"type": ["integer", "null"]}}}}]"#;
    let (code, _) = census_json(typed, &["--provider", "gemini", "--provider", "openai"]);
    assert_eq!(code, 0, "rewritten exactly is not a loss");
    let (code, _) = census_json(typed, &["--provider", "converse-strict"]);
    assert_eq!(code, 1, "anthropic-strict closes the object");

    // The table reads definitions too when --provider is given, and says why in the summary.
    let f = file(SMALL_SET);
    let output = toolwire(
        &[
            "census",
            "--provider",
            "gemini",
            "--provider",
            "openai",
            path(&f),
        ],
        "",
    );
    assert_eq!(status(&output), 1);
    assert_eq!(
        stdout(&output).lines().last().unwrap(),
        "2 tools: 2 offered, 0 left out; openai schemas: 0 lossy, 1 refused; gemini schemas: 0 lossy, 1 refused"
    );
    let output = toolwire(&["census", "--provider", "gemini!", path(&f)], "");
    assert_eq!(status(&output), 2);
    assert!(stderr(&output).contains("expected one of openai, openai-strict"));
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
        .block_on(toolwire_core::list_server_tools(
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
            "lossy: tool \"mcp/fx/files/read\", openai-strict, at (root), additionalProperties: "
        ),
        "{err}"
    );
}
