//! The schema rail (`tool-schema-wire.md`: "the census rail also checks every registered tool's
//! schema against the dialects the app names"): a test that fails when a `#[tool]`'s schema
//! would be refused by, or lose something on the way to, a provider the app sends to.
//!
//! Policy: one finding per tool, dialect and loss (or refusal), all at once, each naming the
//! tool, the dialect, the JSON pointer and the problem, so one run shows everything to fix.

use std::fmt;

use toolwire_core::{
    registered_tools,
    schema::{prepare_definition_cached, Dialect, RefusalReason, SchemaStatus},
    tools::ToolRegistration,
};

/// Checks the schema of every `#[tool]` linked into this binary against each of `dialects`:
/// `Err` lists every refused or lossy schema, naming tool, dialect, pointer and problem.
///
/// ```
/// use toolwire::schema::Dialect;
///
/// /// Looks a word up.
/// #[toolwire::tool]
/// fn define(
///     /// The word.
///     word: String,
/// ) -> String { word }
///
/// # /*
/// #[test]
/// # */
/// fn tool_schemas() -> Result<(), toolwire::rail::SchemaFindings> {
///     toolwire::rail::check_tool_schemas(&[Dialect::OpenAi, Dialect::Anthropic, Dialect::Converse])
/// }
/// # tool_schemas().unwrap();
/// ```
pub fn check_tool_schemas(dialects: &[Dialect]) -> Result<(), SchemaFindings> {
    let tools = registered_tools();
    if tools.is_empty() {
        return Err(SchemaFindings {
            saw_no_tools: true,
            findings: Vec::new(),
        });
    }
    check_schemas(tools, dialects)
}

/// Checks the schemas of `tools` against each of `dialects`: `Err` lists every refused or
/// lossy schema.
///
/// ```
/// use serde_json::json;
/// use toolwire::{rail::check_schemas, schema::Dialect, tools::ToolRegistration};
/// # fn handler(_: toolwire::tools::ToolInput) -> toolwire::tools::ToolFuture { unimplemented!() }
/// fn tagged() -> serde_json::Value {
///     json!({"type": "object", "properties": {"tag": {"type": "string", "minLength": 3}}})
/// }
/// let tool = ToolRegistration {
///     name: "tag", form: "tag", description: "Tags.", schema: tagged, handler,
///     module_path: "demo", file: "demo.rs", line: 1,
/// };
/// assert!(check_schemas([&tool], &[Dialect::OpenAi, Dialect::Gemini]).is_ok());
/// let findings = check_schemas([&tool], &[Dialect::AnthropicStrict]).unwrap_err();
/// let text = findings.to_string();
/// assert!(text.contains("`tag`") && text.contains("anthropic-strict") && text.contains("/properties/tag"));
/// ```
pub fn check_schemas<'a>(
    tools: impl IntoIterator<Item = &'a ToolRegistration>,
    dialects: &[Dialect],
) -> Result<(), SchemaFindings> {
    let mut findings = Vec::new();
    for tool in tools {
        let definition = tool.definition();
        for &dialect in dialects {
            match prepare_definition_cached(dialect, &definition)
                .as_ref()
                .clone()
            {
                Ok(prepared) if prepared.status == SchemaStatus::Lossy => {
                    findings.extend(prepared.losses.into_iter().map(|loss| SchemaFinding {
                        tool: tool.name.to_owned(),
                        file: tool.file.to_owned(),
                        line: tool.line,
                        dialect,
                        pointer: loss.pointer,
                        problem: format!("`{}` is lost: {}", loss.keyword, loss.note),
                        refused: None,
                    }));
                }
                Ok(_) => {}
                Err(refusal) => findings.push(SchemaFinding {
                    tool: tool.name.to_owned(),
                    file: tool.file.to_owned(),
                    line: tool.line,
                    dialect,
                    pointer: refusal.pointer.clone(),
                    problem: format!("refused: {}", refusal.why),
                    refused: Some(refusal.reason),
                }),
            }
        }
    }
    if findings.is_empty() {
        Ok(())
    } else {
        Err(SchemaFindings {
            saw_no_tools: false,
            findings,
        })
    }
}

/// One refused or lossy schema, found by [`check_schemas`].
///
/// ```
/// # use toolwire::{rail::SchemaFinding, schema::Dialect};
/// let finding = SchemaFinding {
///     tool: "tag".into(), file: "src/tools.rs".into(), line: 3, dialect: Dialect::Gemini,
///     pointer: "/properties/tag".into(), problem: "`format` is lost: Format: uri.".into(), refused: None,
/// };
/// assert!(finding.to_string().starts_with("`tag` (src/tools.rs:3) in gemini at `/properties/tag`"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaFinding {
    /// The tool's real name.
    pub tool: String,
    /// Where it is written.
    pub file: String,
    /// Its line.
    pub line: u32,
    /// The dialect.
    pub dialect: Dialect,
    /// The JSON pointer of the node at fault (`""` is the root).
    pub pointer: String,
    /// What is refused or lost, in words.
    pub problem: String,
    /// The kind of refusal, when the whole schema is refused for this dialect.
    pub refused: Option<RefusalReason>,
}

impl fmt::Display for SchemaFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pointer = if self.pointer.is_empty() {
            "(root)"
        } else {
            &self.pointer
        };
        write!(
            f,
            "`{}` ({}:{}) in {} at `{pointer}`: {}",
            self.tool, self.file, self.line, self.dialect, self.problem
        )
    }
}

/// Every refused or lossy `#[tool]` schema: the rail's failure. Its `Debug` is its `Display`,
/// so a test returning `Result<(), SchemaFindings>` prints sentences, not a struct.
///
/// ```
/// let none = toolwire::rail::check_schemas([], &toolwire::schema::Dialect::ALL);
/// assert!(none.is_ok());
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct SchemaFindings {
    saw_no_tools: bool,
    findings: Vec<SchemaFinding>,
}

impl SchemaFindings {
    /// Whether [`check_tool_schemas`] failed because the binary has no registered tool at all
    /// (then there are no findings, and the message says how to link the tools).
    ///
    /// ```
    /// # use serde_json::json;
    /// # use toolwire::{rail::check_schemas, schema::Dialect, tools::ToolRegistration};
    /// # fn handler(_: toolwire::tools::ToolInput) -> toolwire::tools::ToolFuture { unimplemented!() }
    /// # fn looped() -> serde_json::Value { json!({"type": "object", "properties": {"n": {"$ref": "#"}}}) }
    /// # let tool = ToolRegistration { name: "loop", form: "loop", description: "d", schema: looped, handler, module_path: "m", file: "f.rs", line: 1 };
    /// assert!(!check_schemas([&tool], &[Dialect::Gemini]).unwrap_err().saw_no_tools());
    /// ```
    pub fn saw_no_tools(&self) -> bool {
        self.saw_no_tools
    }

    /// The findings, tool by tool, in dialect order.
    ///
    /// ```
    /// # use serde_json::json;
    /// # use toolwire::{rail::check_schemas, schema::Dialect, tools::ToolRegistration};
    /// # fn handler(_: toolwire::tools::ToolInput) -> toolwire::tools::ToolFuture { unimplemented!() }
    /// # fn looped() -> serde_json::Value { json!({"type": "object", "properties": {"n": {"$ref": "#"}}}) }
    /// # let tool = ToolRegistration { name: "loop", form: "loop", description: "d", schema: looped, handler, module_path: "m", file: "f.rs", line: 1 };
    /// let findings = check_schemas([&tool], &[Dialect::Gemini]).unwrap_err();
    /// assert_eq!(findings.findings()[0].refused, Some(toolwire::schema::RefusalReason::Recursive));
    /// ```
    pub fn findings(&self) -> &[SchemaFinding] {
        &self.findings
    }
}

impl fmt::Display for SchemaFindings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.saw_no_tools {
            return writeln!(f, "{}", super::NO_REGISTERED_TOOLS);
        }
        writeln!(
            f,
            "{} schema finding(s): a provider would refuse these tools or lose what they say; \
             change the argument types (or drop the dialect from the rail) until none is left:",
            self.findings.len()
        )?;
        for finding in &self.findings {
            writeln!(f, "  {finding}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for SchemaFindings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for SchemaFindings {}
