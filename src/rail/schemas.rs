//! The schema rail (`tool-schema-wire.md`: "the census rail also checks every registered tool's
//! schema against the dialects the app names"): a test that fails when a tool's schema would be
//! refused by, or lose what nothing guards on the way to, a provider the app sends to.
//!
//! Policy: one finding per tool, dialect and loss (or refusal), all at once, each naming the
//! tool, the dialect, the JSON pointer, the problem and its standing ("What the rail fails on,
//! revised 2026-12"): refused and unguarded losses and any over-restriction fail the rail; a
//! guarded loss (a `#[tool]`'s, whose own validation refuses what the provider does not see) is
//! listed and fails only the exact mode.

use std::fmt;

use toolwire_core::{
    registered_tools,
    schema::{prepare_definition_cached, Dialect, RefusalReason, SchemaStatus, Standing},
    tools::ToolRegistration,
    ToolDefinition,
};

/// A tool the schema rail can judge, and how its losses stand (`tool-schema-wire.md`, "What
/// the rail fails on, revised 2026-12"): guarded only when it comes with the code that runs it
/// and that code validates the schema reported.
/// - A [`ToolRegistration`] (every `#[tool]`, what [`check_tool_schemas`] judges) comes with its
///   handler: guarded when the registration says its handler validates
///   ([`ToolRegistration::validates_arguments`], set by `#[tool]`).
/// - A bare [`ToolDefinition`] (an MCP server's tool, one read from a file, or a `#[tool]`'s
///   definition taken out of its registration) says nothing of what runs it: unguarded, as
///   [`SchemaReport::of_definition`](toolwire_core::schema::SchemaReport::of_definition) and
///   `ToolRuntime::report` (for a provider that does not validate) judge it.
///
/// ```
/// use toolwire::{rail::RailTool, ToolDefinition};
/// let mcp = ToolDefinition::new("mcp/files/read", "Reads.", serde_json::json!({}));
/// assert_eq!(mcp.written_at(), None);
/// assert!(!mcp.runner_validates());
///
/// /// Counts.
/// #[toolwire::tool]
/// fn count(n: u8) -> u8 { n }
/// let tool = toolwire::registered_tools()[0];
/// assert!(tool.runner_validates(), "its handler checks every call");
/// assert!(!tool.definition().runner_validates(), "its definition alone does not say so");
/// ```
pub trait RailTool {
    /// The definition the wire sends for it.
    fn rail_definition(&self) -> ToolDefinition;
    /// Where it is written (file, line), when it is a `#[tool]`.
    fn written_at(&self) -> Option<(&str, u32)>;
    /// Whether the code that runs it comes with it and checks every call against
    /// [`rail_definition`](Self::rail_definition)'s schema before the tool runs: what makes
    /// a loss guarded. `false` unless the implementation knows its runner.
    fn runner_validates(&self) -> bool {
        false
    }
}

impl RailTool for ToolRegistration {
    fn rail_definition(&self) -> ToolDefinition {
        self.definition()
    }
    fn written_at(&self) -> Option<(&str, u32)> {
        Some((self.file, self.line))
    }
    fn runner_validates(&self) -> bool {
        self.validates_arguments
    }
}

/// A bare definition: nothing says what runs it, so its losses are unguarded.
impl RailTool for ToolDefinition {
    fn rail_definition(&self) -> ToolDefinition {
        self.clone()
    }
    fn written_at(&self) -> Option<(&str, u32)> {
        None
    }
}

/// Checks the schema of every `#[tool]` linked into this binary against each of `dialects`:
/// `Err` when one is refused, or loses what nothing guards, or over-restricts (see
/// [`check_schemas`]). A `#[tool]` validates its own arguments, so a rule a dialect cannot say
/// is guarded: listed in [`tool_schema_findings`], not failed. [`check_tool_schemas_exact`]
/// fails on those too.
///
/// ```
/// use toolwire::schema::Dialect;
///
/// /// Looks a word up.
/// #[toolwire::tool]
/// fn define(
///     /// The word.
///     word: String,
///     /// At most this many senses.
///     senses: Option<u8>,
/// ) -> String { word }
///
/// # /*
/// #[test]
/// # */
/// fn tool_schemas() -> Result<(), toolwire::rail::SchemaFindings> {
///     // Gemini cannot close the object and anthropic-strict cannot bound the `u8`: guarded.
///     toolwire::rail::check_tool_schemas(&Dialect::ALL)
/// }
/// # tool_schemas().unwrap();
/// assert!(toolwire::rail::check_tool_schemas_exact(&[Dialect::Gemini]).is_err());
/// ```
pub fn check_tool_schemas(dialects: &[Dialect]) -> Result<(), SchemaFindings> {
    tool_schema_findings(dialects).into_result(false)
}

/// [`check_tool_schemas`] in the exact mode: a guarded loss fails too, for an app that wants
/// every provider to see every rule.
///
/// ```
/// use toolwire::schema::Dialect;
/// /// Counts.
/// #[toolwire::tool]
/// fn count(n: u8) -> u8 { n }
/// let findings = toolwire::rail::check_tool_schemas_exact(&[Dialect::AnthropicStrict]).unwrap_err();
/// assert!(findings.to_string().contains("guarded"));
/// assert!(toolwire::rail::check_tool_schemas_exact(&[Dialect::OpenAi]).is_ok());
/// ```
pub fn check_tool_schemas_exact(dialects: &[Dialect]) -> Result<(), SchemaFindings> {
    tool_schema_findings(dialects).into_result(true)
}

/// Every finding of every `#[tool]` linked into this binary in `dialects`, guarded ones
/// included, whether or not the rail fails.
///
/// ```
/// use toolwire::schema::{Dialect, Standing};
/// /// Counts.
/// #[toolwire::tool]
/// fn count(n: u8) -> u8 { n }
/// let findings = toolwire::rail::tool_schema_findings(&[Dialect::AnthropicStrict]);
/// assert!(findings.findings().iter().all(|f| f.standing == Standing::Guarded));
/// assert!(findings.passes(false) && !findings.passes(true));
/// ```
pub fn tool_schema_findings(dialects: &[Dialect]) -> SchemaFindings {
    let tools = registered_tools();
    if tools.is_empty() {
        return SchemaFindings {
            saw_no_tools: true,
            exact: None,
            findings: Vec::new(),
        };
    }
    schema_findings(tools, dialects)
}

/// Checks the schemas of `tools` (registrations or definitions: [`RailTool`]) against each of
/// `dialects`: `Err` lists every finding when one fails: a refused schema, an unguarded loss
/// (an MCP tool's: nothing on our side enforces what the provider does not see), or an
/// over-restriction. Guarded losses are listed with them and do not fail it. A registration's
/// losses are guarded when its handler validates; a bare [`ToolDefinition`]'s never are, even
/// a `#[tool]`'s taken out of its registration ([`RailTool`]).
///
/// ```
/// use serde_json::json;
/// use toolwire::{rail::check_schemas, schema::{Dialect, Standing}, ToolDefinition};
/// // An MCP server's tool: its server is not known to validate, so a lost rule is unguarded.
/// let tagged = ToolDefinition::new("mcp/tags/tag", "Tags.",
///     json!({"type": "object", "properties": {"tag": {"type": "string", "minLength": 3}}}));
/// assert!(check_schemas([&tagged], &[Dialect::OpenAi, Dialect::Gemini]).is_ok());
/// let findings = check_schemas([&tagged], &[Dialect::AnthropicStrict]).unwrap_err();
/// let lost = findings.findings().iter().find(|f| f.pointer == "/properties/tag").unwrap();
/// assert_eq!((lost.dialect, lost.standing), (Dialect::AnthropicStrict, Standing::Unguarded));
/// assert!(findings.to_string().contains("`mcp/tags/tag` in anthropic-strict at `/properties/tag`"));
/// ```
pub fn check_schemas<'a, T: RailTool + 'a>(
    tools: impl IntoIterator<Item = &'a T>,
    dialects: &[Dialect],
) -> Result<(), SchemaFindings> {
    schema_findings(tools, dialects).into_result(false)
}

/// [`check_schemas`] in the exact mode: a guarded loss fails too.
///
/// ```
/// # use serde_json::json;
/// # use toolwire::{rail::check_schemas_exact, schema::Dialect, ToolDefinition};
/// let plain = ToolDefinition::new("t", "d", json!({"type": "object", "properties": {"q": {"type": "string"}}}));
/// assert!(check_schemas_exact([&plain], &[Dialect::OpenAi, Dialect::Anthropic, Dialect::Gemini]).is_ok());
/// assert!(check_schemas_exact([&plain], &[Dialect::OpenAiStrict]).is_err(), "strict closes it");
/// ```
pub fn check_schemas_exact<'a, T: RailTool + 'a>(
    tools: impl IntoIterator<Item = &'a T>,
    dialects: &[Dialect],
) -> Result<(), SchemaFindings> {
    schema_findings(tools, dialects).into_result(true)
}

/// Every finding of `tools` in `dialects`, guarded ones included, whether or not the rail
/// fails: the one judge behind every `check_*` of this module.
///
/// ```
/// # use serde_json::json;
/// # use toolwire::{rail::schema_findings, schema::Dialect, ToolDefinition};
/// let none: [&ToolDefinition; 0] = [];
/// assert!(schema_findings(none, &Dialect::ALL).findings().is_empty());
/// ```
pub fn schema_findings<'a, T: RailTool + 'a>(
    tools: impl IntoIterator<Item = &'a T>,
    dialects: &[Dialect],
) -> SchemaFindings {
    let mut findings = Vec::new();
    for tool in tools {
        let definition = tool.rail_definition();
        let (file, line) = tool.written_at().unwrap_or(("", 0));
        let finding =
            |dialect, pointer: String, problem, standing, over_restricts, refused| SchemaFinding {
                tool: definition.name.clone(),
                file: file.to_owned(),
                line,
                dialect,
                pointer,
                problem,
                standing,
                over_restricts,
                refused,
            };
        for &dialect in dialects {
            match prepare_definition_cached(dialect, &definition).as_ref() {
                Ok(prepared) if prepared.status == SchemaStatus::Lossy => {
                    // The one judge (`SchemaReport::of_definition_run_by`): the runner says it
                    // validates, and the definition is still the schema it validates.
                    let validates = definition.guarded_when_run(tool.runner_validates());
                    findings.extend(prepared.losses.iter().map(|loss| {
                        // Guarded only where the tool's validation checks the rule lost.
                        let standing = loss.standing(validates);
                        finding(
                            dialect,
                            loss.pointer.clone(),
                            format!("`{}` is lost: {}", loss.keyword, loss.note),
                            standing,
                            loss.narrows,
                            None,
                        )
                    }));
                }
                Ok(_) => {}
                Err(refusal) => findings.push(finding(
                    dialect,
                    refusal.pointer.clone(),
                    format!("refused: {}", refusal.why),
                    Standing::Refused,
                    false,
                    Some(refusal.reason.clone()),
                )),
            }
        }
    }
    SchemaFindings {
        saw_no_tools: false,
        exact: None,
        findings,
    }
}

/// One refused or lossy schema, found by [`schema_findings`], with its standing. Read, never
/// built: `#[non_exhaustive]`, so a later field breaks no app.
///
/// ```
/// use toolwire::{rail::tool_schema_findings, schema::{Dialect, Standing}};
/// /// Counts.
/// #[toolwire::tool]
/// fn count(n: u8) -> u8 { n }
/// let findings = tool_schema_findings(&[Dialect::AnthropicStrict]);
/// let finding = &findings.findings()[0];
/// assert_eq!((finding.tool.as_str(), finding.pointer.as_str()), ("count", "/properties/n"));
/// assert!(finding.to_string().contains(" in anthropic-strict at `/properties/n`, guarded: "), "{finding}");
/// assert!(!finding.fails(false) && finding.fails(true));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SchemaFinding {
    /// The tool's real name.
    pub tool: String,
    /// Where it is written (empty for a definition the app built, such as an MCP tool's).
    pub file: String,
    /// Its line (0 when `file` is empty).
    pub line: u32,
    /// The dialect.
    pub dialect: Dialect,
    /// The JSON pointer of the node at fault (`""` is the root).
    pub pointer: String,
    /// What is refused or lost, in words.
    pub problem: String,
    /// Refused, unguarded or guarded.
    pub standing: Standing,
    /// Whether the loss forbids arguments the tool accepts
    /// ([`Loss::narrows`](toolwire_core::schema::Loss::narrows)): it fails whatever the standing.
    pub over_restricts: bool,
    /// The kind of refusal, when the whole schema is refused for this dialect.
    pub refused: Option<RefusalReason>,
}

impl SchemaFinding {
    /// Whether it fails the rail (`exact`: the exact mode, where a guarded loss fails too).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire::{rail::schema_findings, schema::{Dialect, Standing}, tools::ToolRegistration};
    /// // A registration whose handler validates, with an object it leaves open.
    /// static OPEN: ToolRegistration = ToolRegistration {
    ///     name: "open", form: "open", description: "Open.",
    ///     schema: || json!({"type": "object", "properties": {"q": {"type": "string"}}}),
    ///     handler: |input| Box::pin(async move { Ok(input.arguments) }),
    ///     module_path: "demo", file: "demo.rs", line: 1, validates_arguments: true,
    /// };
    /// let findings = schema_findings([&OPEN], &[Dialect::OpenAiStrict]);
    /// let closed = findings.findings().iter().find(|f| f.over_restricts).unwrap();
    /// assert_eq!(closed.standing, Standing::Guarded);
    /// assert!(closed.fails(false), "an over-restriction fails even when guarded");
    /// ```
    pub fn fails(&self, exact: bool) -> bool {
        self.over_restricts || self.standing.fails(exact)
    }
}

impl fmt::Display for SchemaFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pointer = if self.pointer.is_empty() {
            "(root)"
        } else {
            &self.pointer
        };
        write!(f, "`{}`", self.tool)?;
        if !self.file.is_empty() {
            write!(f, " ({}:{})", self.file, self.line)?;
        }
        let over = if self.over_restricts {
            ", over-restricted"
        } else {
            ""
        };
        write!(
            f,
            " in {} at `{pointer}`, {}{over}: {}",
            self.dialect, self.standing, self.problem
        )
    }
}

/// What the schema rail found: every refused or lossy schema with its standing, and which mode
/// judged it. As the `Err` of a `check_*`, at least one finding fails. Its `Debug` is its
/// `Display`, so a test returning `Result<(), SchemaFindings>` prints sentences, not a struct.
///
/// ```
/// let none: [&toolwire::ToolDefinition; 0] = [];
/// assert!(toolwire::rail::check_schemas(none, &toolwire::schema::Dialect::ALL).is_ok());
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct SchemaFindings {
    saw_no_tools: bool,
    /// The mode a `check_*` judged them in; `None` when only listed ([`schema_findings`]), so
    /// the text says what fails in each mode rather than assume one.
    exact: Option<bool>,
    findings: Vec<SchemaFinding>,
}

impl SchemaFindings {
    /// Whether [`check_tool_schemas`] failed because the binary has no registered tool at all
    /// (then there are no findings, and the message says how to link the tools).
    ///
    /// ```
    /// # use serde_json::json;
    /// # use toolwire::{rail::check_schemas, schema::Dialect, ToolDefinition};
    /// # let looped = ToolDefinition::new("loop", "d", json!({"type": "object", "properties": {"n": {"$ref": "#"}}}));
    /// assert!(!check_schemas([&looped], &[Dialect::Gemini]).unwrap_err().saw_no_tools());
    /// ```
    pub fn saw_no_tools(&self) -> bool {
        self.saw_no_tools
    }

    /// Every finding, failing or guarded, tool by tool, in dialect order.
    ///
    /// ```
    /// # use serde_json::json;
    /// # use toolwire::{rail::check_schemas, schema::{Dialect, Standing}, ToolDefinition};
    /// # let looped = ToolDefinition::new("loop", "d", json!({"type": "object", "properties": {"n": {"$ref": "#"}}}));
    /// let findings = check_schemas([&looped], &[Dialect::Gemini]).unwrap_err();
    /// assert_eq!(findings.findings()[0].refused, Some(toolwire::schema::RefusalReason::Recursive));
    /// assert_eq!(findings.findings()[0].standing, Standing::Refused);
    /// ```
    pub fn findings(&self) -> &[SchemaFinding] {
        &self.findings
    }

    /// Whether the rail passes on these findings: none fails (`exact`: the exact mode, where a
    /// guarded loss fails too), and some tool was seen.
    ///
    /// ```
    /// # use toolwire::{rail::schema_findings, schema::Dialect, ToolDefinition};
    /// let none: [&ToolDefinition; 0] = [];
    /// assert!(schema_findings(none, &Dialect::ALL).passes(true));
    /// ```
    pub fn passes(&self, exact: bool) -> bool {
        !self.saw_no_tools && !self.findings.iter().any(|f| f.fails(exact))
    }

    /// `Ok` when the rail passes in the mode `exact` names, else these findings as the error.
    fn into_result(mut self, exact: bool) -> Result<(), SchemaFindings> {
        self.exact = Some(exact);
        if self.passes(exact) {
            Ok(())
        } else {
            Err(self)
        }
    }
}

impl fmt::Display for SchemaFindings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.saw_no_tools {
            return writeln!(f, "{}", super::NO_REGISTERED_TOOLS);
        }
        // Not judged in a mode: what fails in either, and the guarded ones as failing only the
        // exact mode.
        let exact = self.exact.unwrap_or(false);
        let (failing, listed): (Vec<&SchemaFinding>, Vec<&SchemaFinding>) =
            self.findings.iter().partition(|x| x.fails(exact));
        if !failing.is_empty() {
            let why = if exact {
                "a provider would refuse these tools or not see a rule (the exact mode)"
            } else {
                "a provider would refuse these tools, or they lose a rule nothing on our side \
                 enforces, or forbid what the tool accepts"
            };
            writeln!(
                f,
                "{} schema finding(s) fail the rail: {why}; change the argument types (or drop \
                 the dialect from the rail) until none is left:",
                failing.len()
            )?;
            for finding in failing {
                writeln!(f, "  {finding}")?;
            }
        }
        if !listed.is_empty() {
            let standing = if self.exact.is_some() {
                "listed, not failing"
            } else {
                "listed, failing only the exact mode"
            };
            writeln!(
                f,
                "{} guarded finding(s), {standing}: the provider does not see the rule, and the \
                 tool's own validation refuses what breaks it, naming the rule:",
                listed.len()
            )?;
            for finding in listed {
                writeln!(f, "  {finding}")?;
            }
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
