//! Whole tool definitions from JSON (real name, description, parameter schema), for the
//! commands that look at schemas: `wire`, and `census --json` or `--provider`.
//!
//! Policy: the names, their order and every message about them come from `input/names.rs`, so
//! `census` and `wire` can never disagree on which tools a file holds, and the formats are told
//! apart by `input/layout.rs` for both. This file then parses the whole value and reads each
//! tool's description and schema where that tool's name stood. A
//! description is a string and a schema an object; either may be missing or `null` (no
//! description; no arguments). Anything else is refused with the entry's path, never guessed:
//! a schema quietly replaced by an empty one would hand the model a tool it cannot call. A tool
//! the runtime withholds (`execution.taskSupport: required`) is marked unsupported by the same
//! judge a live listing uses (`toolwire_core::mcp::withheld_for_task_support`), as the names
//! reader (`input/names.rs`) found it.
//!
//! Speed: `census` without `--json` or `--provider` never comes here; it keeps the names-only
//! reader. Descriptions and schemas are moved out of the parsed value, not copied.

use std::path::Path;

use serde_json::{Map, Value};
use toolwire_core::ToolDefinition;

use crate::input::layout::{At, JsonView, Layout, List, ToolShape};
use crate::input::{self, UnusableInput};

/// Reads `path` (`-` or `None`: standard input, unless it is a terminal) and returns its tool
/// definitions in input order (duplicates kept: the census reports them); `server` prefixes
/// bare names with `mcp/<server>/`, as [`input::read_names`] does.
pub fn read_definitions(
    path: Option<&Path>,
    server: Option<&str>,
) -> Result<Vec<ToolDefinition>, UnusableInput> {
    let (label, bytes) = input::read_source_or_piped(path)?;
    definitions_from_json(&label, &bytes, server)
}

/// The tool definitions in `bytes` (JSON read from `label`), in input order.
pub fn definitions_from_json(
    label: &str,
    bytes: &[u8],
    server: Option<&str>,
) -> Result<Vec<ToolDefinition>, UnusableInput> {
    // First the names: this checks the layout and every name, with the messages `census` gives.
    // They also say which tools the runtime withholds: the one reader of a listed tool's
    // `execution.taskSupport` here, which asks core's judge (`withheld_for_task_support`).
    let found = input::listed_from_json(label, bytes, server)?;
    let names = found.names;
    let mut withheld: Vec<Option<String>> = vec![None; names.len()];
    for (index, why) in found.withheld {
        withheld[index] = Some(why);
    }
    let mut value: Value = serde_json::from_slice(input::without_bom(bytes))
        .map_err(|err| input::syntax_error(label, &err))?;
    let entries = tool_entries(&mut value);
    if entries.len() != names.len() {
        // Both readers walk the same layout; a difference is a bug here, not the input's fault.
        return Err(UnusableInput(format!(
            "{label}: found {} tool names but {} tool entries; please report this",
            names.len(),
            entries.len()
        )));
    }
    names
        .into_iter()
        .zip(entries)
        .zip(withheld)
        .map(|((name, (at, entry)), withheld)| {
            // The live listing's judge: a saved `tools/list` leaves out what a live one does.
            let (description, parameters) =
                described(entry, &at).map_err(|why| UnusableInput(format!("{label}: {why}")))?;
            let definition = ToolDefinition::new(name, description, parameters);
            Ok(match withheld {
                Some(why) => definition.unsupported_because(why),
                None => definition,
            })
        })
        .collect()
}

/// Every tool entry of a value [`input::names_from_json`] accepted, with its place, in input
/// order.
fn tool_entries(value: &mut Value) -> Vec<(At, &mut Value)> {
    fn push<'v>(all: &mut Vec<(At, &'v mut Value)>, entries: Option<&'v mut Value>, list: List) {
        if let Some(Value::Array(entries)) = entries {
            let places = (0..).map(|index| At { list, index });
            all.extend(places.zip(entries.iter_mut()));
        }
    }
    let mut all = Vec::new();
    match Layout::of(value) {
        Some(Layout::Root) => push(&mut all, Some(value), List::Root),
        Some(Layout::Tools) => push(&mut all, value.get_mut("tools"), List::Tools),
        Some(Layout::ResultTools) => {
            push(
                &mut all,
                value.pointer_mut("/result/tools"),
                List::ResultTools,
            );
        }
        Some(Layout::Servers) => {
            if let Some(Value::Array(servers)) = value.get_mut("servers") {
                for (i, server) in servers.iter_mut().enumerate() {
                    push(&mut all, server.get_mut("tools"), List::Server(i));
                }
            }
        }
        None => {}
    }
    all
}

/// The keys a flat tool object (Messages API, MCP, OpenAI Responses, a Gemini function
/// declaration) may hold its schema under.
const FLAT_SCHEMA_KEYS: [&str; 3] = ["input_schema", "inputSchema", "parameters"];

/// The description and schema of one entry, moved out of it (a name alone has neither), from
/// where its [`ToolShape`] holds them.
fn described(entry: &mut Value, at: &At) -> Result<(String, Value), String> {
    let Some(shape) = ToolShape::of(entry) else {
        // A name alone; `input/names.rs` refuses any other entry before this runs.
        return Ok((String::new(), Value::Null));
    };
    let (holder, at) = match shape.inner() {
        None => (entry.as_object_mut(), at.to_string()),
        Some(inner) => (
            entry.get_mut(inner).and_then(Value::as_object_mut),
            format!("{at}.{inner}"),
        ),
    };
    // `input/names.rs` refused a holder that is no object before this runs.
    let Some(holder) = holder else {
        return Ok((String::new(), Value::Null));
    };
    let description = description(holder, &at)?;
    let schema = match shape {
        ToolShape::ChatFunction => flat_schema(holder, &["parameters"], &at)?,
        ToolShape::Flat => flat_schema(holder, &FLAT_SCHEMA_KEYS, &at)?,
        ToolShape::ToolSpec => converse_schema(holder, &at)?,
    };
    Ok((description, schema))
}

/// The `description` member of `object`: a string, or empty when missing or `null`.
fn description(object: &mut Map<String, Value>, at: &str) -> Result<String, String> {
    match object.get_mut("description").map(Value::take) {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(text)) => Ok(text),
        Some(other) => Err(format!(
            "{at}.description is {}, not a string",
            other.kind()
        )),
    }
}

/// The schema of a flat object, under whichever one of `keys` it has; more than one is refused,
/// since they could disagree and nothing says which one the tool means.
fn flat_schema(object: &mut Map<String, Value>, keys: &[&str], at: &str) -> Result<Value, String> {
    let present: Vec<&str> = keys
        .iter()
        .copied()
        .filter(|k| object.get(*k).is_some_and(|v| !v.is_null()))
        .collect();
    match present[..] {
        [] => Ok(Value::Null),
        [key] => schema(object.get_mut(key).map(Value::take), &format!("{at}.{key}")),
        _ => Err(format!(
            "{at} has a schema under both `{}` and `{}`; give one",
            present[0], present[1]
        )),
    }
}

/// The schema of a Converse `toolSpec`: `inputSchema.json`.
fn converse_schema(spec: &mut Map<String, Value>, at: &str) -> Result<Value, String> {
    match spec.get_mut("inputSchema") {
        None | Some(Value::Null) => Ok(Value::Null),
        Some(Value::Object(wrapper)) => {
            if !wrapper.contains_key("json") {
                return Err(format!(
                    "{at}.inputSchema has no `json`: Converse holds the schema in \
                     {{\"inputSchema\": {{\"json\": ...}}}}"
                ));
            }
            schema(
                wrapper.get_mut("json").map(Value::take),
                &format!("{at}.inputSchema.json"),
            )
        }
        Some(other) => Err(format!(
            "{at}.inputSchema is {}, not an object",
            other.kind()
        )),
    }
}

/// A schema value found at `at`: an object, or `null` (no arguments) when missing or `null`.
fn schema(value: Option<Value>, at: &str) -> Result<Value, String> {
    match value {
        None | Some(Value::Null) => Ok(Value::Null),
        Some(object @ Value::Object(_)) => Ok(object),
        Some(other) => Err(format!(
            "{at} is {}, not a parameter schema (an object)",
            other.kind()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn defs(json: &str) -> Result<Vec<ToolDefinition>, String> {
        definitions_from_json("f.json", json.as_bytes(), None).map_err(|e| e.0)
    }

    fn def(name: &str, description: &str, parameters: Value) -> ToolDefinition {
        ToolDefinition::new(name, description, parameters)
    }

    #[test]
    fn every_tool_object_shape_gives_its_description_and_schema() {
        let s = json!({"type": "object", "properties": {"q": {"type": "string"}}});
        let text = json!([
            "plain",
            {"type": "function", "function": {"name": "openai.chat", "description": "c", "parameters": s}},
            {"type": "function", "name": "openai.responses", "description": "r", "parameters": s},
            {"name": "messages/api", "description": "m", "input_schema": s},
            {"name": "mcp", "description": null, "inputSchema": s},
            {"toolSpec": {"name": "converse", "description": "v", "inputSchema": {"json": s}}}
        ])
        .to_string();
        assert_eq!(
            defs(&text).unwrap(),
            [
                def("plain", "", Value::Null),
                def("openai.chat", "c", s.clone()),
                def("openai.responses", "r", s.clone()),
                def("messages/api", "m", s.clone()),
                def("mcp", "", s.clone()),
                def("converse", "v", s),
            ]
        );
    }

    #[test]
    fn every_layout_gives_the_names_census_reads() {
        for text in [
            r#"{"tools": [{"name": "a", "inputSchema": {"type": "object"}}, "b"]}"#,
            r#"{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a", "inputSchema": {"type": "object"}}, "b"]}}"#,
        ] {
            let read = definitions_from_json("f", text.as_bytes(), Some("s")).unwrap();
            assert_eq!(
                read,
                [
                    def("mcp/s/a", "", json!({"type": "object"})),
                    def("mcp/s/b", "", Value::Null)
                ]
            );
        }
        let corpus = r#"{"servers": [
            {"server": "x", "tools": [{"name": "a", "description": "d", "inputSchema": {"type": "object"}}]},
            {"server": "y", "tools": ["b"]}
        ]}"#;
        assert_eq!(
            defs(corpus).unwrap(),
            [
                def("mcp/x/a", "d", json!({"type": "object"})),
                def("mcp/y/b", "", Value::Null)
            ]
        );
    }

    #[test]
    fn a_description_or_schema_of_the_wrong_kind_names_the_entry() {
        for (text, expected) in [
            (
                r#"{"tools": [{"name": "a"}, {"name": "b", "inputSchema": "x"}]}"#,
                "f.json: tools[1].inputSchema is a string, not a parameter schema (an object)",
            ),
            (
                r#"[{"type": "function", "function": {"name": "a", "description": 3}}]"#,
                "f.json: [0].function.description is a number, not a string",
            ),
            (
                r#"[{"toolSpec": {"name": "a", "inputSchema": {"type": "object"}}}]"#,
                "f.json: [0].toolSpec.inputSchema has no `json`",
            ),
            (
                r#"{"servers": [{"server": "s", "tools": [{"name": "a", "inputSchema": true}]}]}"#,
                "f.json: servers[0].tools[0].inputSchema is a boolean, not a parameter schema",
            ),
            (
                r#"[{"name": "a", "input_schema": {}, "inputSchema": {}}]"#,
                "f.json: [0] has a schema under both `input_schema` and `inputSchema`",
            ),
        ] {
            let err = defs(text).unwrap_err();
            assert!(err.starts_with(expected), "{text}: {err}");
        }
    }

    #[test]
    fn name_errors_are_the_census_messages() {
        assert_eq!(
            defs(r#"{"tools": [{"name": 7}]}"#).unwrap_err(),
            "f.json: tools[0].name is a number, not a string"
        );
        assert!(defs("").unwrap_err().contains("the input is empty"));
        assert_eq!(
            definitions_from_json("f", b"\xEF\xBB\xBF[\"a\"]", None).unwrap(),
            [def("a", "", Value::Null)]
        );
    }
}
