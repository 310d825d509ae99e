//! Tool names from JSON, fast: the reader `census` uses, and the first step of every other.
//!
//! Policy: the names, their order and every message about a name or the layout come from
//! here; `definitions.rs` reads these names first, so `census` and `wire` never disagree on
//! which tools a file holds. The text is parsed into the sparse [`Json`], which never builds a
//! description or a schema.

use std::fmt;
use std::path::Path;

use super::layout::{At, JsonView, Layout, List, ToolShape};
use super::source::{read_source, read_source_or_piped, syntax_error, without_bom};
use super::sparse_json::{Json, Object};
use super::UnusableInput;

/// Reads `path` (`-` or `None`: standard input) and returns its tool names in input order
/// (duplicates kept: the census reports them); `server` prefixes bare names with `mcp/<server>/`.
pub fn read_names(path: Option<&Path>, server: Option<&str>) -> Result<Vec<String>, UnusableInput> {
    let (label, bytes) = read_source(path)?;
    names_from_json(&label, &bytes, server)
}

/// The tool names in `bytes` (JSON read from `label`), in input order; `server` prefixes bare
/// names with `mcp/<server>/`.
///
/// ```
/// use toolwire_cli::input::names_from_json;
/// let text = br#"{"tools": [{"name": "echo"}, {"name": "add"}]}"#;
/// let names = names_from_json("tools.json", text, Some("calc")).unwrap();
/// assert_eq!(names, ["mcp/calc/echo", "mcp/calc/add"]);
/// ```
pub fn names_from_json(
    label: &str,
    bytes: &[u8],
    server: Option<&str>,
) -> Result<Vec<String>, UnusableInput> {
    listed_from_json(label, bytes, server).map(|found| found.names)
}

/// What the names reader finds: the names, and each tool the runtime withholds by what its
/// listing says (its position among `names`, and why), judged by core's one judge of a listed
/// tool ([`toolwire_core::mcp::withheld_for_task_support`], as a live listing is).
#[derive(Debug, Default)]
pub(crate) struct Found {
    pub(crate) names: Vec<String>,
    pub(crate) withheld: Vec<(usize, String)>,
}

/// [`read_names`] with what the listing withholds.
pub(crate) fn read_listed(
    path: Option<&Path>,
    server: Option<&str>,
) -> Result<Found, UnusableInput> {
    let (label, bytes) = read_source(path)?;
    listed_from_json(&label, &bytes, server)
}

/// [`read_names`] through [`read_source_or_piped`], with what the listing withholds.
pub(crate) fn read_listed_or_piped(
    path: Option<&Path>,
    server: Option<&str>,
) -> Result<Found, UnusableInput> {
    let (label, bytes) = read_source_or_piped(path)?;
    listed_from_json(&label, &bytes, server)
}

/// [`names_from_json`] with what the listing withholds.
pub(crate) fn listed_from_json(
    label: &str,
    bytes: &[u8],
    server: Option<&str>,
) -> Result<Found, UnusableInput> {
    let bytes = without_bom(bytes);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(UnusableInput(format!(
            "{label}: the input is empty; expected JSON: an array of tool names or tool objects, \
             an object with `tools` (an MCP tools/list answer) or the corpus format with `servers`"
        )));
    }
    let value: Json = serde_json::from_slice(bytes).map_err(|err| syntax_error(label, &err))?;
    let shape = |message: String| UnusableInput(format!("{label}: {message}"));
    let Some(layout) = Layout::of(&value) else {
        return Err(shape(not_a_tool_set(&value)));
    };
    let mut found = Found::default();
    let names = &mut found;
    match layout {
        Layout::Root => collect_tool_list(&value, List::Root, names),
        Layout::Servers => {
            if server.is_some() {
                return Err(shape(
                    "--server does not apply to the corpus format: its names are already \
                     mcp/<server>/<tool>"
                        .to_owned(),
                ));
            }
            collect_corpus(member(&value, "servers"), names)
        }
        Layout::Tools => collect_tool_list(member(&value, "tools"), List::Tools, names),
        Layout::ResultTools => collect_tool_list(
            member(member(&value, "result"), "tools"),
            List::ResultTools,
            names,
        ),
    }
    .map_err(shape)?;
    // (The corpus format refused `server` above: its names are prefixed already.)
    if let Some(server) = server {
        for name in &mut found.names {
            *name = toolwire_core::mcp::mcp_tool_name(server, name);
        }
    }
    Ok(found)
}

/// Why `value` is no tool set ([`Layout::of`] found none).
fn not_a_tool_set(value: &Json) -> String {
    match value {
        Json::Object(object) => format!(
            "expected an array of tool names or tool objects, an object with `tools` (an MCP \
             tools/list answer) or an object with `servers` (the corpus format); found an object \
             with {}",
            object.describe_keys()
        ),
        other => format!(
            "expected an array of tool names or tool objects, or an object with `tools` or \
             `servers`; found {}",
            other.kind()
        ),
    }
}

/// The member `key` of `value`, which [`Layout::of`] found there.
fn member<'a>(value: &'a Json, key: &str) -> &'a Json {
    value
        .member(key)
        .expect("the layout was read from this member")
}

/// The names of the array of tool entries `list` (a name, or a tool object whose name is read).
fn collect_tool_list(tools: &Json, list: List, found: &mut Found) -> Result<(), String> {
    let Json::Array(entries) = tools else {
        // (The root is an array whenever its layout is `Root`.)
        let what = match list {
            List::Server(_) => "an array",
            List::Root | List::Tools | List::ResultTools => "an array of tools",
        };
        return Err(format!("{list} is {}, not {what}", tools.kind()));
    };
    found.names.reserve(entries.len());
    for (index, entry) in entries.iter().enumerate() {
        found.names.push(entry_name(entry, At { list, index })?);
        let task_support = entry
            .member("execution")
            .and_then(|execution| execution.member("taskSupport"))
            .and_then(Json::as_str);
        if let Some(why) = toolwire_core::mcp::withheld_for_task_support(task_support) {
            found.withheld.push((found.names.len() - 1, why.to_owned()));
        }
    }
    Ok(())
}

/// The real name of one entry: a string, or a tool object in one of the [`ToolShape`]s.
fn entry_name(entry: &Json, at: At) -> Result<String, String> {
    match entry {
        Json::String(name) => Ok(name.clone()),
        Json::Object(tool) => tool_object_name(entry, tool, at),
        other => Err(format!(
            "{at} is {}, not a tool name (a string) or a tool object",
            other.kind()
        )),
    }
}

/// The name of a tool object, wherever its [`ToolShape`] holds it.
fn tool_object_name(entry: &Json, tool: &Object, at: At) -> Result<String, String> {
    let Some(shape) = ToolShape::of(entry) else {
        return Err(format!(
            "{at} has no `name`: expected {{\"name\": ...}}, {{\"type\": \"function\", \
             \"function\": {{\"name\": ...}}}} or {{\"toolSpec\": {{\"name\": ...}}}}; found {}",
            tool.describe_keys()
        ));
    };
    match shape.inner() {
        None => string_field(tool, "name", &at),
        Some(inner) => match tool.get(inner) {
            Some(Json::Object(holder)) => {
                string_field(holder, "name", &format_args!("{at}.{inner}"))
            }
            Some(other) => Err(format!("{at}.{inner} is {}, not an object", other.kind())),
            None => unreachable!("ToolShape::of saw `{inner}`"),
        },
    }
}

/// The string member `key` of the object at `at`, or why it is not one.
fn string_field(object: &Object, key: &str, at: &dyn fmt::Display) -> Result<String, String> {
    match object.get(key) {
        Some(Json::String(s)) => Ok(s.clone()),
        Some(other) => Err(format!("{at}.{key} is {}, not a string", other.kind())),
        None => Err(format!(
            "{at} has no `{key}`; found {}",
            object.describe_keys()
        )),
    }
}

/// The corpus format: `{"servers": [{"server": "s", "tools": ["t", ...]}, ...]}` → `mcp/s/t`.
fn collect_corpus(servers: &Json, found: &mut Found) -> Result<(), String> {
    let Json::Array(servers) = servers else {
        return Err(format!(
            "servers is {}, not an array of servers",
            servers.kind()
        ));
    };
    for (i, entry) in servers.iter().enumerate() {
        let at = format!("servers[{i}]");
        let Json::Object(object) = entry else {
            return Err(format!(
                "{at} is {}, not an object with `server` and `tools`",
                entry.kind()
            ));
        };
        let server = string_field(object, "server", &at)?;
        let Some(tools) = object.get("tools") else {
            return Err(format!(
                "{at} has no `tools`; found {}",
                object.describe_keys()
            ));
        };
        let first = found.names.len();
        collect_tool_list(tools, List::Server(i), found)?;
        for name in &mut found.names[first..] {
            *name = toolwire_core::mcp::mcp_tool_name(&server, name);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(json: &str) -> Result<Vec<String>, String> {
        names_from_json("f.json", json.as_bytes(), None).map_err(|e| e.0)
    }

    #[test]
    fn every_tool_object_shape_gives_its_name() {
        let json = r#"[
            "plain",
            {"type": "function", "function": {"name": "openai.chat"}},
            {"type": "function", "name": "openai.responses"},
            {"name": "messages/api", "input_schema": {}},
            {"toolSpec": {"name": "converse"}}
        ]"#;
        assert_eq!(
            names(json).unwrap(),
            [
                "plain",
                "openai.chat",
                "openai.responses",
                "messages/api",
                "converse"
            ]
        );
    }

    #[test]
    fn a_tools_list_answer_is_read_bare_or_whole() {
        assert_eq!(names(r#"{"tools": [{"name": "a"}]}"#).unwrap(), ["a"]);
        let rpc = r#"{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "b"}, 3]}}"#;
        assert_eq!(
            names(rpc).unwrap_err(),
            "f.json: result.tools[1] is a number, not a tool name (a string) or a tool object"
        );
    }

    #[test]
    fn server_prefixes_bare_names_only() {
        let bare = names_from_json("f", br#"{"tools": [{"name": "echo"}]}"#, Some("s")).unwrap();
        assert_eq!(bare, ["mcp/s/echo"]);
        let corpus = br#"{"servers": [{"server": "s", "tools": ["echo"]}]}"#;
        assert!(names_from_json("f", corpus, Some("s")).is_err());
        assert_eq!(names_from_json("f", corpus, None).unwrap(), ["mcp/s/echo"]);
    }

    #[test]
    fn syntax_errors_name_line_and_column_once() {
        let err = names("[\n  \"a\",\n  b\n]").unwrap_err();
        assert_eq!(err, "f.json:3:3: not valid JSON: expected value");
    }

    #[test]
    fn shape_errors_name_the_entry() {
        for (json, expected) in [
            (
                r#"{"tools": [{"name": "a"}, {"name": 7}]}"#,
                "tools[1].name is a number, not a string",
            ),
            (
                r#"[{"type": "function", "function": []}]"#,
                "[0].function is an array, not an object",
            ),
            (
                r#"[{"type": "function", "function": {"name": null}}]"#,
                "[0].function.name is null, not a string",
            ),
            (
                r#"[{"toolSpec": {}}]"#,
                "[0].toolSpec has no `name`; found no keys",
            ),
            (
                r#"{"servers": [{"server": "s", "tools": ["a", true]}]}"#,
                "servers[0].tools[1] is a boolean, not a tool name (a string) or a tool object",
            ),
            (
                r#"{"servers": [{"server": "s", "tools": {}}]}"#,
                "servers[0].tools is an object, not an array",
            ),
            (
                r#"{"servers": [{"tools": []}]}"#,
                "servers[0] has no `server`; found keys `tools`",
            ),
            (
                r#"{"tools": {}}"#,
                "tools is an object, not an array of tools",
            ),
            (r#"[{"description": "d"}]"#, "[0] has no `name`"),
            ("42", "found a number"),
            (r#"{"a": 1}"#, "found an object with keys `a`"),
        ] {
            let err = names(json).unwrap_err();
            assert!(err.starts_with("f.json: "), "{err}");
            assert!(err.contains(expected), "{json}: {err}");
        }
    }

    #[test]
    fn empty_input_is_unusable_and_a_bom_is_not() {
        assert!(names(" \n\t").unwrap_err().contains("the input is empty"));
        assert_eq!(
            names_from_json("f", b"\xEF\xBB\xBF[\"a\"]", None).unwrap(),
            ["a"]
        );
    }

    #[test]
    fn an_empty_name_is_read_for_the_census_to_judge() {
        assert_eq!(names(r#"["", {"name": ""}]"#).unwrap(), ["", ""]);
    }
}
