//! A `tools/list` answer read tool by tool, from its raw JSON: each tool is valid MCP, read
//! leniently (and said so), or refused with what is wrong, and a refused tool is that tool's
//! fault only.
//!
//! Policy: `rmcp` reads a `tools/list` result whole into its `Tool` types, so one tool that does
//! not fit fails the whole answer; this reads the same result as JSON, one tool at a time.
//! Lenient only where the reading is sound and common: a tool without `inputSchema` (or with
//! `"inputSchema": null`, as a Python server writes an unset schema) is a tool without
//! arguments; MCP requires the field (the Python SDK's `mcp_types.Tool.input_schema:
//! dict[str, Any]`, alias `inputSchema`, is a required field in `mcp` 2.3.0, and `rmcp` 3.11's
//! `Tool::input_schema` is an `Arc<JsonObject>`, not an `Option`), so the reading is said in the
//! load report. That a `null` schema is common is our reading of Python servers (a pydantic
//! `None` serialises as `null`), not a cited fact. Refused: a tool that is
//! not an object, has no name or a name that is not a string, a schema that is not an object,
//! or a description, title or annotations that are not what MCP says they are.

use serde_json::{Map, Value};

use crate::tools::ToolAnnotations;

/// Why the runtime cannot call a tool whose `execution.taskSupport` is `required`.
pub(crate) const REQUIRES_TASKS: &str = "it requires MCP tasks (execution.taskSupport: \
     required), which toolwire does not run";

/// Whether a listed tool's `execution.taskSupport` makes the runtime withhold it: the one rule,
/// asked by every reader of a tool list (the stdio tap's streaming parse, `envelope.rs`; this
/// file's raw reading; a saved list, through [`withheld_by_listing`]). MCP 2025-11-25, "Tools"
/// → `execution.taskSupport`: `"required"` means clients MUST invoke the tool as a task
/// (<https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool>), and toolwire
/// does not run MCP tasks; `"optional"`, `"forbidden"` or none is an ordinary call.
pub(crate) fn requires_tasks(task_support: Option<&str>) -> bool {
    task_support == Some("required")
}

/// Why the runtime withholds a tool, judged from the tool as a `tools/list` answer lists it
/// (raw JSON: one element of `tools`), or `None` when it can call it. The same judge reads a
/// live server's listing and a saved one (`toolwire census`/`wire` on a file), so both leave
/// out the same tools: today, one whose `execution.taskSupport` is `required`.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::mcp::withheld_by_listing;
/// let research = json!({"name": "research", "inputSchema": {}, "execution": {"taskSupport": "required"}});
/// assert!(withheld_by_listing(&research).unwrap().contains("requires MCP tasks"));
/// let echo = json!({"name": "echo", "inputSchema": {}, "execution": {"taskSupport": "optional"}});
/// assert_eq!(withheld_by_listing(&echo), None);
/// ```
pub fn withheld_by_listing(tool: &Value) -> Option<&'static str> {
    tool.as_object().and_then(withheld_in)
}

/// [`withheld_by_listing`] of a tool object.
fn withheld_in(tool: &Map<String, Value>) -> Option<&'static str> {
    let task_support = tool
        .get("execution")
        .and_then(|execution| execution.get("taskSupport"))
        .and_then(Value::as_str);
    withheld_for_task_support(task_support)
}

/// Why the runtime withholds a tool whose listing gives `task_support` as its
/// `execution.taskSupport` (`None`: it gives none), or `None` when it can call it: the judge
/// itself, for a reader that holds no `serde_json::Value` (the CLI's names-only reader).
///
/// ```
/// use toolwire_core::mcp::withheld_for_task_support;
/// assert!(withheld_for_task_support(Some("required")).is_some());
/// assert_eq!(withheld_for_task_support(Some("forbidden")), None);
/// assert_eq!(withheld_for_task_support(None), None);
/// ```
pub fn withheld_for_task_support(task_support: Option<&str>) -> Option<&'static str> {
    requires_tasks(task_support).then_some(REQUIRES_TASKS)
}

/// The start of the reason a refused tool carries as its `unsupported` reason (the runtime
/// withholds it and a call to it fails with the reason).
pub(crate) const NOT_VALID_MCP: &str = "it is not valid MCP: ";

/// One tool of a `tools/list` answer, as read.
#[derive(Debug, PartialEq)]
pub(crate) enum ReadTool {
    /// A tool that is MCP, read as it is or leniently.
    Valid(ValidTool),
    /// A tool that is not: `name` is its name when it has one (a string), else its position in
    /// the list as `tools[N]`.
    Invalid {
        /// Its name, or its position.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
}

/// A tool that is MCP.
#[derive(Debug, PartialEq)]
pub(crate) struct ValidTool {
    pub(crate) name: String,
    pub(crate) description: Option<String>,
    pub(crate) title: Option<String>,
    pub(crate) annotations: Option<ToolAnnotations>,
    /// The annotations' own (older) title.
    pub(crate) annotations_title: Option<String>,
    pub(crate) input_schema: Map<String, Value>,
    /// The JSON schema of its structured result (`outputSchema`), when it has one.
    pub(crate) output_schema: Option<Map<String, Value>>,
    /// How it was read leniently, when it was.
    pub(crate) lenient: Option<&'static str>,
    /// Why the runtime withholds it, when its raw JSON says so ([`withheld_by_listing`]). Over
    /// stdio `rmcp`'s own reading drops `execution` before this sees the list, and the tap
    /// judges it from the line (by the same rule).
    pub(crate) withheld: Option<&'static str>,
}

/// One page of a `tools/list` answer: its tools, and the cursor of the next page.
#[derive(Debug, PartialEq)]
pub(crate) struct ReadPage {
    pub(crate) tools: Vec<ReadTool>,
    pub(crate) next_cursor: Option<String>,
}

/// Reads a `tools/list` result (the JSON-RPC `result`), its tools numbered from `first` (the
/// tools of earlier pages). A result that is not an object with a `tools` array is not a tool
/// list at all: that is the answer's fault, not a tool's.
pub(crate) fn read_page(result: &Value, first: usize) -> Result<ReadPage, String> {
    let Some(object) = result.as_object() else {
        return Err(format!(
            "its tools/list result is {}, not an object",
            kind(result)
        ));
    };
    let tools = match object.get("tools") {
        Some(Value::Array(tools)) => tools,
        Some(other) => {
            return Err(format!(
                "the `tools` of its tools/list result is {}, not an array",
                kind(other)
            ))
        }
        None => return Err("its tools/list result has no `tools`".to_owned()),
    };
    let next_cursor = match object.get("nextCursor") {
        None | Some(Value::Null) => None,
        Some(Value::String(cursor)) => Some(cursor.clone()),
        Some(other) => {
            return Err(format!(
                "the `nextCursor` of its tools/list result is {}, not a string",
                kind(other)
            ))
        }
    };
    let tools = (tools.iter().enumerate())
        .map(|(i, tool)| read_tool(tool, first + i))
        .collect();
    Ok(ReadPage { tools, next_cursor })
}

/// Reads one tool, at `position` in the whole list.
pub(crate) fn read_tool(tool: &Value, position: usize) -> ReadTool {
    let at = || format!("tools[{position}]");
    let Some(object) = tool.as_object() else {
        return ReadTool::Invalid {
            name: at(),
            reason: format!("the tool is {}, not an object", kind(tool)),
        };
    };
    let name = match object.get("name") {
        Some(Value::String(name)) => name.clone(),
        Some(other) => {
            return ReadTool::Invalid {
                name: at(),
                reason: format!("its name is {}, not a string", kind(other)),
            }
        }
        None => {
            return ReadTool::Invalid {
                name: at(),
                reason: "it has no name".to_owned(),
            }
        }
    };
    match valid_tool(object, name.clone()) {
        Ok(valid) => ReadTool::Valid(valid),
        Err(reason) => ReadTool::Invalid { name, reason },
    }
}

fn valid_tool(object: &Map<String, Value>, name: String) -> Result<ValidTool, String> {
    let (input_schema, lenient) = match object.get("inputSchema") {
        Some(Value::Object(schema)) => (schema.clone(), None),
        None => (
            no_arguments(),
            Some("it has no inputSchema, so it is read as a tool without arguments"),
        ),
        Some(Value::Null) => (
            no_arguments(),
            Some("its inputSchema is null, so it is read as a tool without arguments"),
        ),
        Some(other) => {
            return Err(format!(
                "its inputSchema is {}, not an object (the JSON schema of its arguments)",
                kind(other)
            ))
        }
    };
    // MCP 2025-06-18+ `Tool.outputSchema` is an object schema when present.
    let output_schema = match object.get("outputSchema") {
        None | Some(Value::Null) => None,
        Some(Value::Object(schema)) => Some(schema.clone()),
        Some(other) => {
            return Err(format!(
                "its outputSchema is {}, not an object (the JSON schema of its structured result)",
                kind(other)
            ))
        }
    };
    let description = optional_string(object, "description")?;
    let title = optional_string(object, "title")?;
    let (annotations, annotations_title) = match object.get("annotations") {
        None | Some(Value::Null) => (None, None),
        Some(Value::Object(hints)) => {
            let annotations = serde_json::from_value(Value::Object(hints.clone()))
                .map_err(|e| format!("its annotations are not MCP tool annotations: {e}"))?;
            let title = optional_string(hints, "title")
                .map_err(|why| format!("in its annotations, {why}"))?;
            (Some(annotations), title)
        }
        Some(other) => {
            return Err(format!(
                "its annotations are {}, not an object",
                kind(other)
            ))
        }
    };
    Ok(ValidTool {
        withheld: withheld_in(object),
        name,
        description,
        title,
        annotations,
        annotations_title,
        input_schema,
        output_schema,
        lenient,
    })
}

/// The schema of a tool without arguments: `{"type": "object"}`, an object schema without
/// properties (our choice; the wire gives it its empty `properties`, as for any such schema).
fn no_arguments() -> Map<String, Value> {
    let mut schema = Map::new();
    schema.insert("type".to_owned(), Value::String("object".to_owned()));
    schema
}

fn optional_string(object: &Map<String, Value>, key: &str) -> Result<Option<String>, String> {
    match object.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(other) => Err(format!("its {key} is {}, not a string", kind(other))),
    }
}

/// What a JSON value is, with a short sample of it: `a number (7)`, `a string ("object")`.
pub(crate) fn kind(value: &Value) -> String {
    let what = match value {
        Value::Null => return "null".to_owned(),
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => return "an array".to_owned(),
        Value::Object(_) => return "an object".to_owned(),
    };
    let mut sample = value.to_string();
    if sample.len() > 40 {
        let mut cut = 40;
        while !sample.is_char_boundary(cut) {
            cut -= 1;
        }
        sample.truncate(cut);
        sample.push('…');
    }
    format!("{what} ({sample})")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn page(tools: Value) -> Vec<ReadTool> {
        read_page(&json!({ "tools": tools }), 0).unwrap().tools
    }

    #[test]
    fn each_fault_is_its_tools_and_the_siblings_read() {
        let tools = page(json!([
            {"name": "good", "inputSchema": {"type": "object"}},
            {"name": "stringly", "inputSchema": "object"},
            {"name": 7, "inputSchema": {}},
            {"inputSchema": {}},
            "not a tool",
            {"name": "described", "description": 3, "inputSchema": {}},
            {"name": "good2", "description": "Fine.", "inputSchema": {"type": "object"},
             "outputSchema": {"type": "object"}},
            {"name": "outputs", "inputSchema": {}, "outputSchema": "object"},
        ]));
        let invalid: Vec<(&str, &str)> = tools
            .iter()
            .filter_map(|t| match t {
                ReadTool::Invalid { name, reason } => Some((name.as_str(), reason.as_str())),
                ReadTool::Valid(_) => None,
            })
            .collect();
        assert_eq!(
            invalid,
            [
                (
                    "stringly",
                    "its inputSchema is a string (\"object\"), not an object (the JSON schema of its arguments)"
                ),
                ("tools[2]", "its name is a number (7), not a string"),
                ("tools[3]", "it has no name"),
                ("tools[4]", "the tool is a string (\"not a tool\"), not an object"),
                ("described", "its description is a number (3), not a string"),
                (
                    "outputs",
                    "its outputSchema is a string (\"object\"), not an object (the JSON schema of its structured result)"
                ),
            ]
        );
        let valid: Vec<&str> = tools
            .iter()
            .filter_map(|t| match t {
                ReadTool::Valid(v) => Some(v.name.as_str()),
                ReadTool::Invalid { .. } => None,
            })
            .collect();
        assert_eq!(valid, ["good", "good2"]);
        let ReadTool::Valid(good2) = &tools[6] else {
            panic!("{:?}", tools[6])
        };
        assert_eq!(
            good2.output_schema.clone().map(Value::Object),
            Some(json!({"type": "object"}))
        );
    }

    #[test]
    fn a_missing_or_null_schema_is_a_tool_without_arguments_said_so() {
        for tool in [
            json!({"name": "bare"}),
            json!({"name": "bare", "inputSchema": null}),
        ] {
            let [ReadTool::Valid(valid)] = &page(json!([tool]))[..] else {
                panic!("{tool}")
            };
            assert_eq!(
                Value::Object(valid.input_schema.clone()),
                json!({"type": "object"})
            );
            assert!(valid
                .lenient
                .unwrap()
                .contains("read as a tool without arguments"));
        }
    }

    #[test]
    fn positions_count_across_pages_and_a_result_that_is_no_list_is_the_answers_fault() {
        let read = read_page(&json!({"tools": [{"name": 1}], "nextCursor": "p3"}), 40).unwrap();
        assert_eq!(read.next_cursor.as_deref(), Some("p3"));
        assert!(matches!(&read.tools[0], ReadTool::Invalid { name, .. } if name == "tools[40]"));
        assert_eq!(
            read_page(&json!({"tools": {}}), 0).unwrap_err(),
            "the `tools` of its tools/list result is an object, not an array"
        );
        assert_eq!(
            read_page(&json!([]), 0).unwrap_err(),
            "its tools/list result is an array, not an object"
        );
    }

    #[test]
    fn a_faulty_list_reaches_rmcp_as_a_custom_result_the_reader_can_read() {
        // What makes reading tool by tool possible: `rmcp`'s `ServerResult` is untagged, so a
        // result its `ListToolsResult` refuses falls through to `CustomResult`, raw.
        use rmcp::model::{JsonRpcMessage, ServerJsonRpcMessage, ServerResult};
        let line = r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"a","inputSchema":{}},{"name":7,"inputSchema":{}}]}}"#;
        let message: ServerJsonRpcMessage = serde_json::from_str(line).unwrap();
        let JsonRpcMessage::Response(response) = message else {
            panic!("a response")
        };
        let ServerResult::CustomResult(raw) = response.result else {
            panic!("{:?}", response.result)
        };
        assert_eq!(read_page(&raw.0, 0).unwrap().tools.len(), 2);
    }
}
