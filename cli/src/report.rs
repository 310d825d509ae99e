//! What `toolwire census` prints: a table and a summary line for a person, or one JSON object
//! for a script.
//!
//! Policy: the JSON object is a contract (CI parses it): exactly the keys `offered`,
//! `left_out`, `collisions`, `healing`, `duplicates`, `tools` and `schemas` (`schemas.rs`), maps
//! and lists sorted, `tools` in input order. A tool is one per distinct real name: a name given
//! twice is one tool, judged at its first occurrence, and is reported in `duplicates`, never as
//! left out. Tools listed from several MCP servers (`--mcp-config`) also say each tool's server:
//! a `SERVER` column first in the table, a `server` key in each `tools` entry of the JSON.

use std::collections::{BTreeMap, HashMap};
use std::io::{self, Write};

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use toolwire_core::{
    census::CensusTool,
    wire::{check_definition_name, LlmProvider},
    Census,
};
use unicode_width::UnicodeWidthStr;

use crate::distinct::is_repeat;
use crate::schemas::SchemaVerdicts;

/// The census seen as distinct tools.
pub struct CensusReport<'a> {
    /// The census reported.
    census: &'a Census,
    /// One per distinct real name, in input order (later duplicates dropped).
    distinct: Vec<&'a CensusTool>,
    /// Each distinct tool's MCP server, in `distinct` order, when the tools come from several.
    servers: Option<Vec<&'a str>>,
    /// Why the runtime cannot run a tool, by real name, for the tools it cannot run
    /// (`toolwire_core::wire::unsupported_reason`); the census withholds them.
    unsupported: HashMap<&'a str, &'a str>,
}

impl<'a> CensusReport<'a> {
    /// The report of `census`.
    pub fn new(census: &'a Census) -> CensusReport<'a> {
        let distinct = census.tools().iter().filter(|t| !is_repeat(t)).collect();
        CensusReport {
            census,
            distinct,
            servers: None,
            unsupported: HashMap::new(),
        }
    }

    /// This report, saying of each tool in `unsupported` (real name, why) that the runtime
    /// cannot run it: the census must withhold them.
    pub fn with_unsupported(mut self, unsupported: &'a [(String, String)]) -> CensusReport<'a> {
        self.unsupported = unsupported
            .iter()
            .map(|(name, why)| (name.as_str(), why.as_str()))
            .collect();
        self
    }

    /// Why `tool` is left out, in words and as a stable key, if it is.
    fn reason(&self, tool: &CensusTool) -> Option<(String, &'static str)> {
        if let Some(why) = self.unsupported.get(tool.name()) {
            return Some((format!("unsupported: {why}"), "unsupported"));
        }
        tool.left_out_reason().map(|r| (r.to_string(), r.key()))
    }

    /// This report, saying each tool's MCP server: `servers` holds one per input tool, in the
    /// census's input order.
    pub fn with_servers(mut self, servers: &'a [String]) -> CensusReport<'a> {
        let tools = self.census.tools().iter().zip(servers);
        self.servers = Some(
            tools
                .filter(|(tool, _)| !is_repeat(tool))
                .map(|(_, server)| server.as_str())
                .collect(),
        );
        self
    }

    /// The server of the `i`th distinct tool, when known.
    fn server(&self, i: usize) -> Option<&'a str> {
        self.servers.as_ref().and_then(|s| s.get(i).copied())
    }

    /// Whether every distinct tool is offered (exit status 0).
    pub fn all_offered(&self) -> bool {
        self.distinct.iter().all(|t| t.is_offered())
    }

    /// Writes the `--json` object, with `schemas` as its `schemas` key, and a newline.
    pub fn write_json(&self, out: &mut impl Write, schemas: &SchemaVerdicts<'_>) -> io::Result<()> {
        let mut offered: Vec<&str> = self
            .distinct
            .iter()
            .filter(|t| t.is_offered())
            .map(|t| t.name())
            .collect();
        offered.sort_unstable();
        let object = CensusJson {
            offered,
            left_out: self
                .distinct
                .iter()
                .filter(|t| !t.is_offered())
                .map(|t| (t.name(), t.form()))
                .collect(),
            collisions: self.census.collisions(),
            healing: self.census.healing(),
            duplicates: self.census.duplicates(),
            tools: (self.distinct.iter().enumerate())
                .map(|(i, t)| ToolJson::new(t, self.server(i), self.reason(t)))
                .collect(),
            schemas,
        };
        serde_json::to_writer(&mut *out, &object)?;
        out.write_all(b"\n")
    }

    /// Writes the table (every tool, or with `only_problems` only tools left out or refused by
    /// a provider) and the summary line, which ends with the schema counts of `schemas` (the
    /// dialects `--provider` names) when given.
    pub fn write_table(
        &self,
        out: &mut impl Write,
        only_problems: bool,
        schemas: Option<&SchemaVerdicts<'_>>,
    ) -> io::Result<()> {
        let rows: Vec<Row> = (self.distinct.iter().enumerate())
            .map(|(i, t)| Row::new(t, self.server(i), self.reason(t)))
            .filter(|r| !only_problems || r.is_problem())
            .collect();
        if !rows.is_empty() {
            let server_width = (self.servers.is_some())
                .then(|| column_width("SERVER", rows.iter().map(|r| r.server.unwrap_or(""))));
            let name_width = column_width("NAME", rows.iter().map(|r| r.name));
            let form_width = column_width("FORM", rows.iter().map(|r| r.form));
            if let Some(width) = server_width {
                write!(out, "{:<width$}  ", "SERVER")?;
            }
            write!(out, "{:<name_width$}  {:<form_width$}", "NAME", "FORM")?;
            let headers = LlmProvider::ALL.map(|p| p.key().to_ascii_uppercase());
            for header in &headers {
                write!(out, "  {header}")?;
            }
            writeln!(out, "  STATUS")?;
            for row in &rows {
                if let Some(width) = server_width {
                    write!(out, "{}  ", Padded(row.server.unwrap_or(""), width))?;
                }
                write!(
                    out,
                    "{}  {}",
                    Padded(row.name, name_width),
                    Padded(row.form, form_width)
                )?;
                for (accepted, header) in row.accepted.iter().zip(&headers) {
                    let cell = if *accepted { "yes" } else { "NO" };
                    write!(out, "  {cell:<width$}", width = header.len())?;
                }
                match &row.reason {
                    None => writeln!(out, "  offered")?,
                    Some(reason) => writeln!(out, "  LEFT OUT: {reason}")?,
                }
            }
        }
        let schemas = schemas.map(SchemaVerdicts::summary).unwrap_or_default();
        writeln!(out, "{}{schemas}", self.summary())
    }

    /// The one-line summary.
    pub fn summary(&self) -> String {
        let total = self.distinct.len();
        let offered = self.distinct.iter().filter(|t| t.is_offered()).count();
        let left_out = total - offered;
        let mut line = format!(
            "{total} {}: {offered} offered, {left_out} left out",
            plural(total, "tool", "tools")
        );
        let shared = self.census.collisions().len();
        if shared > 0 {
            line.push_str(&format!(
                " ({shared} shared {})",
                plural(shared, "form", "forms")
            ));
        }
        let duplicates = self.census.duplicates().len();
        if duplicates > 0 {
            line.push_str(&format!(
                "; {duplicates} {} given more than once (counted once)",
                plural(duplicates, "name", "names")
            ));
        }
        for provider in LlmProvider::ALL {
            let refused = self
                .distinct
                .iter()
                .filter(|t| t.is_offered() && !accepts(provider, t.form()))
                .count();
            if refused > 0 {
                line.push_str(&format!(
                    "; {provider} refuses {refused} offered {}",
                    plural(refused, "form", "forms")
                ));
            }
        }
        line
    }
}

/// Whether `provider` accepts a tool definition named `form`.
fn accepts(provider: LlmProvider, form: &str) -> bool {
    check_definition_name(provider, form).is_ok()
}

/// `one` or `many`, by `n`.
fn plural(n: usize, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// One table row.
struct Row<'a> {
    /// Its MCP server, when the tools come from several.
    server: Option<&'a str>,
    /// The real name.
    name: &'a str,
    /// The form a request carries.
    form: &'a str,
    /// Whether each provider accepts the form, in [`LlmProvider::ALL`] order.
    accepted: [bool; 4],
    /// Why the tool is left out, if it is.
    reason: Option<String>,
}

impl<'a> Row<'a> {
    /// The row of `tool`, from `server` if known, left out for `reason` if it is.
    fn new(
        tool: &'a CensusTool,
        server: Option<&'a str>,
        reason: Option<(String, &'static str)>,
    ) -> Row<'a> {
        Row {
            server,
            name: tool.name(),
            form: tool.form(),
            accepted: LlmProvider::ALL.map(|p| accepts(p, tool.form())),
            reason: reason.map(|(text, _)| text),
        }
    }

    /// Whether `--only-problems` shows it: left out, or refused by a provider.
    fn is_problem(&self) -> bool {
        self.reason.is_some() || self.accepted.contains(&false)
    }
}

/// The widest cell of a column, in terminal cells, capped so one huge name cannot push the rest
/// of the table off every screen (longer cells overflow their column).
fn column_width<'a>(header: &str, cells: impl Iterator<Item = &'a str>) -> usize {
    cells
        .map(|c| shown_width(c).min(80))
        .chain([header.width()])
        .max()
        .unwrap_or(0)
}

/// How many terminal cells [`Padded`] takes for `cell`: a CJK character or an emoji takes two,
/// a combining mark none (`unicode-width`), an escaped control character its escape's length.
fn shown_width(cell: &str) -> usize {
    if cell.is_empty() {
        return 2;
    }
    let escapes: usize = cell
        .chars()
        .filter(|c| c.is_control())
        .map(|c| c.escape_default().count())
        .sum();
    // Measured between control characters, so emoji sequences keep their width.
    escapes + cell.split(char::is_control).map(str::width).sum::<usize>()
}

/// A cell padded to `.1` terminal cells, with control characters escaped so a name cannot break
/// the table or the terminal, and the empty name shown as `""`.
struct Padded<'a>(&'a str, usize);

impl std::fmt::Display for Padded<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.is_empty() {
            f.write_str("\"\"")?;
        }
        for c in self.0.chars() {
            if c.is_control() {
                write!(f, "{}", c.escape_default())?;
            } else {
                write!(f, "{c}")?;
            }
        }
        for _ in shown_width(self.0)..self.1 {
            f.write_str(" ")?;
        }
        Ok(())
    }
}

/// The `--json` object; its keys are the contract (see the module policy and `--help`).
#[derive(Serialize)]
struct CensusJson<'a> {
    offered: Vec<&'a str>,
    left_out: BTreeMap<&'a str, &'a str>,
    collisions: &'a BTreeMap<String, Vec<String>>,
    healing: BTreeMap<&'a str, &'a str>,
    duplicates: &'a [String],
    tools: Vec<ToolJson<'a>>,
    schemas: &'a SchemaVerdicts<'a>,
}

/// One entry of `tools` in the `--json` object.
#[derive(Serialize)]
struct ToolJson<'a> {
    /// Only for tools from several MCP servers (`--mcp-config`).
    #[serde(skip_serializing_if = "Option::is_none")]
    server: Option<&'a str>,
    name: &'a str,
    form: &'a str,
    status: &'static str,
    reason: Option<String>,
    reason_key: Option<&'static str>,
    providers: ProvidersJson,
}

impl<'a> ToolJson<'a> {
    /// The entry of `tool`, from `server` if known, left out for `reason` if it is.
    fn new(
        tool: &'a CensusTool,
        server: Option<&'a str>,
        reason: Option<(String, &'static str)>,
    ) -> ToolJson<'a> {
        let form = tool.form();
        ToolJson {
            server,
            name: tool.name(),
            form,
            status: if reason.is_none() {
                "offered"
            } else {
                "left_out"
            },
            reason_key: reason.as_ref().map(|(_, key)| *key),
            reason: reason.map(|(text, _)| text),
            providers: ProvidersJson(LlmProvider::ALL.map(|p| accepts(p, form))),
        }
    }
}

/// Whether each provider accepts the form a request would carry, in [`LlmProvider::ALL`] order:
/// an object keyed by [`LlmProvider::key`].
struct ProvidersJson([bool; 4]);

impl Serialize for ProvidersJson {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(LlmProvider::ALL.len()))?;
        for (provider, accepted) in LlmProvider::ALL.iter().zip(self.0) {
            map.serialize_entry(provider.key(), &accepted)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use toolwire_core::{names::DEFAULT_META_TOOLS, schema::Dialect, ToolDefinition};

    /// The `--json` object of `census`, every tool with no schema.
    fn json_of(census: &Census) -> serde_json::Value {
        let definitions: Vec<ToolDefinition> = census
            .tools()
            .iter()
            .map(|t| ToolDefinition::new(t.name(), "", serde_json::Value::Null))
            .collect();
        let schemas = SchemaVerdicts::new(census, &definitions, &Dialect::ALL);
        let mut out = Vec::new();
        CensusReport::new(census)
            .write_json(&mut out, &schemas)
            .unwrap();
        assert_eq!(out.iter().filter(|b| **b == b'\n').count(), 1);
        serde_json::from_slice(&out).unwrap()
    }

    #[test]
    fn a_duplicate_is_one_offered_tool() {
        let census = Census::build(["a", "b", "a"], &DEFAULT_META_TOOLS);
        let report = CensusReport::new(&census);
        assert!(report.all_offered());
        let json = json_of(&census);
        assert_eq!(json["tools"].as_array().unwrap().len(), 2);
        assert_eq!(json["duplicates"], serde_json::json!(["a"]));
        assert_eq!(json["left_out"], serde_json::json!({}));
        assert!(report.summary().contains("1 name given more than once"));
    }

    #[test]
    fn the_json_object_has_exactly_the_contract_keys() {
        let census = Census::build(["mcp/a/b", "mcp/a_b", "3d", "x.y"], &DEFAULT_META_TOOLS);
        let json = json_of(&census);
        let keys: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            [
                "collisions",
                "duplicates",
                "healing",
                "left_out",
                "offered",
                "schemas",
                "tools"
            ]
        );
        assert_eq!(json["offered"], serde_json::json!(["3d", "x.y"]));
        assert_eq!(json["healing"], serde_json::json!({"x_y": "x.y"}));
        assert_eq!(
            json["collisions"]["mcp_a_b"],
            serde_json::json!(["mcp/a/b", "mcp/a_b"])
        );
        let tool = &json["tools"][0];
        assert_eq!(tool["status"], "left_out");
        assert_eq!(tool["reason_key"], "shares_form");
        let gemini = &json["tools"][2]["providers"];
        assert_eq!(
            gemini,
            &serde_json::json!({"openai": true, "anthropic": true, "converse": true, "gemini": false})
        );
        assert_eq!(json["tools"][3]["reason"], serde_json::Value::Null);
        // Every distinct tool, left out or not, says how its schema travels in each dialect.
        assert_eq!(json["schemas"].as_object().unwrap().len(), 4);
        assert_eq!(json["schemas"]["mcp/a/b"]["openai"]["status"], "as_is");
        assert_eq!(json["schemas"]["3d"]["gemini"]["status"], "rewritten");
    }

    #[test]
    fn the_table_shows_problems_and_escapes_control_characters() {
        let census = Census::build(
            ["ok", "tool/search", "bad\nname", "9lives"],
            &DEFAULT_META_TOOLS,
        );
        let mut out = Vec::new();
        CensusReport::new(&census)
            .write_table(&mut out, true, None)
            .unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        assert!(lines[0].starts_with("NAME"));
        assert!(
            lines[1].starts_with("tool/search")
                && lines[1].contains("LEFT OUT: it is, or travels as, the meta-tool `tool_search`")
        );
        assert!(lines[2].starts_with("9lives") && lines[2].contains("NO "));
        assert_eq!(
            lines[3],
            "4 tools: 3 offered, 1 left out (1 shared form); Gemini refuses 1 offered form"
        );
        let mut out = Vec::new();
        CensusReport::new(&Census::build(["bad\nname"], &[]))
            .write_table(&mut out, false, None)
            .unwrap();
        assert!(String::from_utf8(out).unwrap().contains("bad\\nname"));
    }

    #[test]
    fn tools_of_several_servers_say_each_ones_server() {
        let census = Census::build(["mcp/a/x.y", "mcp/b/x_y", "mcp/a/x.y", "mcp/a/x_y"], &[]);
        let servers = ["a", "b", "a", "a"].map(String::from);
        let mut out = Vec::new();
        CensusReport::new(&census)
            .with_servers(&servers)
            .write_table(&mut out, true, None)
            .unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("SERVER  NAME       FORM"), "{text}");
        assert!(
            lines[1].starts_with("a       mcp/a/x.y  mcp_a_x_y"),
            "{text}"
        );
        // The repeated `mcp/a/x.y` is one tool: the servers stay in step with the tools.
        assert!(lines[2].starts_with("a       mcp/a/x_y"), "{text}");
        let definitions: Vec<ToolDefinition> = census
            .tools()
            .iter()
            .map(|t| ToolDefinition::new(t.name(), "", serde_json::Value::Null))
            .collect();
        let schemas = SchemaVerdicts::new(&census, &definitions, &Dialect::ALL);
        let mut out = Vec::new();
        CensusReport::new(&census)
            .with_servers(&servers)
            .write_json(&mut out, &schemas)
            .unwrap();
        let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
        let servers: Vec<&str> = json["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["server"].as_str().unwrap())
            .collect();
        assert_eq!(servers, ["a", "b", "a"]);
    }

    #[test]
    fn cjk_and_emoji_names_keep_the_columns_aligned() {
        let census = Census::build(["天气/查询", "🔍search", "plain"], &DEFAULT_META_TOOLS);
        let mut out = Vec::new();
        CensusReport::new(&census)
            .write_table(&mut out, false, None)
            .unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 5, "{text}");
        // Where each column starts on a line, in terminal cells: cells are two spaces apart.
        let starts = |line: &str| -> Vec<usize> {
            let mut starts = vec![0];
            for (at, c) in line.char_indices() {
                if c != ' ' && line[..at].ends_with("  ") {
                    starts.push(line[..at].width());
                }
            }
            starts
        };
        let header = starts(lines[0]);
        assert_eq!(header.len(), 7, "{text}");
        assert_eq!(header[1], "天气/查询".width() + 2, "{text}");
        for row in &lines[1..4] {
            assert_eq!(starts(row), header, "{text}");
        }
        assert_eq!(shown_width("天气"), 4);
        assert_eq!(shown_width("🔍"), 2);
        assert_eq!(shown_width("a\nb"), 4);
    }
}
