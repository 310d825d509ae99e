//! `toolwire wire`: the tool list one provider request carries, and beside it one line per
//! thing that does not travel exactly, for stderr (`tool-schema-wire.md`: nothing is lost
//! silently).
//!
//! Policy: the lines are what `wire_tools` returns: each tool its list leaves out
//! ([`ToolList::left_out`]: the census, a tool the runtime cannot run, the provider's name
//! rule, a refused schema, judged in core as the runtime judges them), then each loss of a
//! schema it sends (`prepare_definition_cached`), so they describe exactly the list printed.
//! Each loss says its standing (`tool-schema-wire.md`, "What the rail fails on, revised
//! 2026-12"), and the exit status follows the rail's rule: a guarded loss is listed, and only
//! refused, unguarded and over-restricting ones fail.
//! Each line names the tool (quoted, escaped) and, for a schema, the dialect, the JSON pointer
//! (`(root)` for the root, as core's messages write it), the keyword and what was lost or why
//! it is refused. A line never breaks: control characters are escaped.

use std::fmt::Write as _;
use std::io::{self, BufWriter, Write};

use clap::Args;
use std::collections::HashMap;

use toolwire_core::{
    census::LeftOutReason,
    schema::prepare_definition_cached,
    wire::{
        namespaced_tools, wire_tools, LeftOutTool, RequestLimit, ToolList, WhyLeftOut, WireError,
    },
    Census, ToolDefinition, WireFormat,
};

use crate::args::{FormatKey, NameArgs, SourceArgs};
use crate::distinct::is_repeat;
use crate::exit::{Failure, EXIT_FOUND, EXIT_OK};
use crate::input::UnusableInput;

/// Print the tool list one provider request carries (what the runtime sends): the offered
/// tools under their model-safe forms, each schema prepared for the format's dialect. Losses,
/// refusals and tools left out go to stderr, one line each.
#[derive(Args, Debug)]
#[command(after_long_help = WIRE_HELP)]
pub struct WireArgs {
    /// The request shape.
    #[arg(long, value_name = "FORMAT", value_enum)]
    format: FormatKey,
    // FILE, --mcp-stdio, --mcp-http, --header, --mcp-config, --timeout.
    #[command(flatten)]
    source: SourceArgs,
    // --taken, --no-taken, --server.
    #[command(flatten)]
    names: NameArgs,
    /// With `openai-responses[-strict]`: each MCP server's tools (`mcp/<server>/<tool>`) inside
    /// one `namespace` tool, each name part with its own 64 characters.
    #[arg(long)]
    namespaces: bool,
}

/// The long help of `wire`: input, output, the stderr lines and exit statuses.
const WIRE_HELP: &str = "\
Input: any format `toolwire census` reads, with each tool's description and parameter
schema (function.parameters, input_schema, inputSchema, parameters or
toolSpec.inputSchema.json); a bare name is a tool with no arguments.

Output: the value of the request's tool list, one JSON document on one line: an array of
tools in the format's shape (Gemini: [{\"functionDeclarations\": [...]}]). With
--namespaces (openai-responses formats only), each MCP server's tools are inside one
{\"type\": \"namespace\", \"name\": \"mcp_SERVER\", \"tools\": [...]}, after the other tools. A schema
rewritten with losses carries each loss in a description the model reads.

Stderr, one line per tool that does not travel exactly:
  left out: tool \"NAME\": REASON                      (the name census)
  left out: tool \"NAME\": unsupported: WHY             (the runtime cannot run it, say an
                                                       MCP tool that requires MCP tasks, or
                                                       one that is not valid MCP: WHY starts
                                                       `it is not valid MCP: `, and NAME is
                                                       tools[N] for a tool without a name)
  left out: tool \"NAME\", FORMAT: WHY; rename it       (the provider refuses the form)
  lossy (STANDING): tool \"NAME\", DIALECT, at POINTER, KEYWORD: NOTE   (one line per loss)
  refused: tool \"NAME\", DIALECT, at POINTER, KEYWORD: WHY
POINTER is a JSON pointer into the tool's own schema, (root) for the root. STANDING is
unguarded here, always: nothing on our side enforces the rule the provider does not see
for a tool read from a file or an MCP server, the only tools this command reads (a
#[tool]'s loss is guarded, and only the app's own rail sees those). It is followed by
\", over-restricted\" when the loss forbids arguments the tool accepts.

Exit status: 0 every offered tool travels without a loss that fails; 1 a tool is left out, or its schema is refused, unguarded-lossy or
over-restricting; 2 the input is unusable (an MCP server cannot be listed: the
others' tools are still printed), or the list is over one of the
provider's per-request limits (OpenAI: 128 tools; strict Messages API and Converse: 20
strict tools, 24 optional and 16 union parameters), which would fail the whole request.";

/// `toolwire wire`: reads the tool definitions, prints the tool list of `--format` and one
/// stderr line per tool that does not travel exactly, returns the exit status.
pub fn run(args: &WireArgs) -> Result<u8, Failure> {
    let format = args.format.0;
    let (definitions, origins) = args.source.read_definitions(args.names.server.as_deref())?;
    // The census exactly as `census` builds it: the same names, the same taken names.
    let census = Census::build(definitions.iter().map(|d| &d.name), &args.names.taken());
    let tools = if args.namespaces {
        namespaced_tools(&census, &definitions, format)
    } else {
        wire_tools(&census, &definitions, format)
    };
    let tools = tools.map_err(|err| match err {
        WireError::OverLimit { limit, .. } => {
            let fix = match limit {
                RequestLimit::StrictOptionalParameters => "make fewer parameters optional",
                RequestLimit::StrictUnionParameters => "use fewer anyOf or type-array parameters",
                _ => "send fewer tools",
            };
            UnusableInput(format!(
                "{err}, and refuses the whole request over it: {fix}"
            ))
        }
        WireError::NoNamespaces { .. } => UnusableInput(format!("--namespaces: {err}")),
        // Count and Name cannot happen (the census is built from these definitions); said
        // plainly all the same.
        other => UnusableInput(format!("cannot build the tool list: {other}")),
    })?;
    let findings = findings(&census, &definitions, format, &tools);
    let status = if findings.iter().all(|line| !line.fails) {
        EXIT_OK
    } else {
        EXIT_FOUND
    };
    let status = origins.report_failures(status);
    let mut out = BufWriter::new(io::stdout().lock());
    serde_json::to_writer(&mut out, &tools)
        .map_err(io::Error::from)
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush())
        .map_err(|err| Failure::Output(err, status))?;
    let mut err = BufWriter::new(io::stderr().lock());
    for line in &findings {
        // stderr is best effort: a closed stderr must not change what stdout said.
        let _ = writeln!(err, "toolwire: {}", line.text);
    }
    let _ = err.flush();
    Ok(status)
}

/// One stderr line, and whether what it says fails the command (exit status 1).
struct Finding {
    text: String,
    fails: bool,
}

impl Finding {
    fn failing(text: &str) -> Finding {
        Finding {
            text: one_line(text),
            fails: true,
        }
    }
}

/// The lines for `tools`, the `format` tool list of `census` (`definitions` are its input, in
/// the same order), in census order: each tool the list left out, each loss of a lossy schema
/// it sends, with its standing. None means every offered tool travels without loss.
fn findings(
    census: &Census,
    definitions: &[ToolDefinition],
    format: WireFormat,
    tools: &ToolList,
) -> Vec<Finding> {
    let dialect = format.dialect();
    // Each left-out tool by its real name (the first entry of a name given twice).
    let mut left_out: HashMap<&str, &LeftOutTool> = HashMap::new();
    for tool in tools.left_out() {
        // A repeat is skipped below; its entry must not stand for the tool's first entry.
        if !matches!(
            tool.reason,
            WhyLeftOut::Census(LeftOutReason::DuplicateName { .. })
        ) {
            left_out.entry(tool.name.as_str()).or_insert(tool);
        }
    }
    let mut lines = Vec::new();
    for (tool, definition) in census.tools().iter().zip(definitions) {
        let name = tool.name();
        // A repeated name is the same tool, sent once: the census counts it, not as a loss.
        if is_repeat(tool) {
            continue;
        }
        if let Some(left) = left_out.get(name) {
            lines.push(Finding::failing(&match &left.reason {
                WhyLeftOut::FormRefused(why) => {
                    format!("left out: tool {name:?}, {format}: {why}; rename it")
                }
                WhyLeftOut::SchemaRefused(refusal) => format!(
                    "refused: tool {name:?}, {dialect}, at {}, {}: {}",
                    shown(&refusal.pointer),
                    refusal.keyword,
                    refusal.why
                ),
                other => format!("left out: tool {name:?}: {other}"),
            }));
            continue;
        }
        if let Ok(prepared) = &*prepare_definition_cached(dialect, definition) {
            for loss in &prepared.losses {
                let narrows = loss.narrows;
                // A bare definition from a file: nothing here runs it, so the one judge
                // (`SchemaReport::of_definition`) says unguarded.
                let standing = loss.standing(false);
                let over = if narrows { ", over-restricted" } else { "" };
                lines.push(Finding {
                    text: one_line(&format!(
                        "lossy ({standing}{over}): tool {name:?}, {dialect}, at {}, {}: {}",
                        shown(&loss.pointer),
                        loss.keyword,
                        loss.note
                    )),
                    fails: loss.fails(false, false),
                });
            }
        }
    }
    lines
}

/// The root's pointer is empty; shown as `(root)`, which no reader takes for a property named "".
fn shown(pointer: &str) -> &str {
    if pointer.is_empty() {
        "(root)"
    } else {
        pointer
    }
}

/// `text` with its control characters escaped, so it stays one line.
fn one_line(text: &str) -> String {
    let mut line = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            let _ = write!(line, "{}", c.escape_default());
        } else {
            line.push(c);
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};
    use toolwire_core::names::DEFAULT_META_TOOLS;

    fn lines_of(tools: &[(&str, Value)], format: WireFormat) -> Vec<String> {
        findings_of(tools, format)
            .into_iter()
            .map(|line| line.text)
            .collect()
    }

    fn findings_of(tools: &[(&str, Value)], format: WireFormat) -> Vec<Finding> {
        let defs: Vec<ToolDefinition> = tools
            .iter()
            .map(|(name, schema)| ToolDefinition::new(*name, "d", schema.clone()))
            .collect();
        let census = Census::build(defs.iter().map(|d| &d.name), &DEFAULT_META_TOOLS);
        let tools = wire_tools(&census, &defs, format).unwrap();
        findings(&census, &defs, format, &tools)
    }

    #[test]
    fn every_way_a_tool_fails_to_travel_exactly_is_one_line() {
        let pattern =
            json!({"type": "object", "properties": {"s": {"type": "string", "pattern": "^a\nb$"}}});
        let tree = json!({"type": "object", "properties": {"next": {"$ref": "#"}}});
        let lines = lines_of(
            &[
                ("ok", Value::Null),
                ("pat", pattern),
                ("tree", tree),
                ("3d", Value::Null),
                ("a.b", Value::Null),
                ("a_b", Value::Null),
                ("ok", json!({"type": "string"})),
            ],
            WireFormat::Gemini,
        );
        assert_eq!(lines.len(), 3, "{lines:#?}");
        assert!(
            lines[0].starts_with("refused: tool \"tree\", gemini, at /properties/next, $ref: "),
            "{}",
            lines[0]
        );
        assert!(lines[1].starts_with("left out: tool \"3d\", gemini: Gemini"));
        assert!(lines[2].starts_with("left out: tool \"a.b\": "));

        let strict = lines_of(
            &[(
                "pat",
                json!({"type": "object", "properties": {"s": {"type": "string", "pattern": "^a\nb$"}}}),
            )],
            WireFormat::AnthropicStrict,
        );
        assert!(!strict.is_empty());
        assert!(strict.iter().all(|l| l.starts_with("lossy (unguarded")
            && l.contains(": tool \"pat\", anthropic-strict, at ")
            && !l.contains('\n')));
    }

    #[test]
    fn each_loss_says_its_standing_and_only_what_fails_counts() {
        // Even a validating registration's definition, read bare as `wire` reads a file's: no
        // runner comes with it, so each loss is unguarded and fails (`RailTool`'s rule).
        use crate::schemas::tests::COUNT;
        let defs = vec![COUNT.definition()];
        assert!(defs[0].validates_arguments());
        let census = Census::build(defs.iter().map(|d| &d.name), &DEFAULT_META_TOOLS);
        let format = WireFormat::AnthropicStrict;
        let tools = wire_tools(&census, &defs, format).unwrap();
        let lines = findings(&census, &defs, format, &tools);
        assert_eq!(lines.len(), 2, "the minimum and the maximum");
        for line in &lines {
            assert!(
                line.text.starts_with(
                    "lossy (unguarded): tool \"count\", anthropic-strict, at /properties/n, "
                ),
                "{}",
                line.text
            );
            assert!(line.fails, "nothing on our side checks it");
        }

        // An open object strict must close forbids what the tool accepts: over-restricted.
        let open = json!({"type": "object", "properties": {"q": {"type": "string"}}});
        let closed = findings_of(&[("open", open)], WireFormat::OpenAiStrict);
        let over = closed
            .iter()
            .find(|l| l.text.contains("additionalProperties"))
            .expect("strict closes the object");
        assert!(
            over.fails
                && over
                    .text
                    .starts_with("lossy (unguarded, over-restricted): "),
            "{}",
            over.text
        );
    }

    #[test]
    fn a_schema_that_travels_exactly_says_nothing() {
        let typed = json!({"type": "object", "properties": {"n": {"type": ["integer", "null"]}}});
        assert!(lines_of(&[("typed", typed)], WireFormat::Gemini).is_empty());
    }
}
