//! The Responses API tool list with each MCP server's tools inside one `namespace` tool (issue
//! 18, point 1): every part of a name gets its own 64 characters (`mcp_github` and
//! `create_issue`, not one cut `mcp_github_create_issue`), and a call comes back as
//! `(namespace, name)`, which [`Census::resolve_in_namespace`] maps back to exactly one tool.
//!
//! Policy: the same census as every list (its verdicts on a flat form are lifted only for a tool
//! that travels under a pair of its own: `Census::namespace_placements`); each function tool
//! shaped, checked and prepared as [`wire_tools`](super::wire_tools) does it, in its dialect.
//! Tools that are no MCP server's travel at the top level under their forms, first; then one
//! namespace per server, in the order of its first tool.

use std::borrow::Cow;

use serde_json::Value;

use super::api::NamespaceTool;
use super::apis::api;
use super::format::{check_census_matches, wire_list};
use super::tool_list::{LeftOutTool, ToolList, WhyLeftOut};
use super::{RequestLimit, WireError, WireFormat};
use crate::census::{Census, LeftOutReason, NamespacePlacement};
use crate::tools::ToolDefinition;

/// The Responses API tool list of `census` with each MCP server's tools (`mcp/<server>/<tool>`)
/// inside one `namespace` tool named `model_safe("mcp/<server>")`, each as
/// `model_safe("<tool>")`; the other tools flat, under their forms. `format` is
/// [`WireFormat::OpenAiResponses`] or [`WireFormat::OpenAiResponsesStrict`] (any other is
/// [`WireError::NoNamespaces`]); the 128-tool limit counts every function, inside namespaces
/// too. A call back carries [`ToolCall::namespace`](crate::wire::calls::ToolCall::namespace):
/// resolve it with [`Census::resolve_call`].
///
/// ```
/// use serde_json::json;
/// use toolwire_core::{Census, ToolDefinition, WireFormat, census::Resolution, wire::namespaced_tools};
///
/// let long = format!("mcp/{}", "s".repeat(60));
/// let defs = [
///     ToolDefinition::new("get_weather", "Weather.", json!(null)),
///     ToolDefinition::new("mcp/github/create_issue", "Creates an issue.", json!(null)),
///     // Flat, these two would share one form cut to 64 characters; here each has its own.
///     ToolDefinition::new(format!("{long}/read"), "Reads.", json!(null)),
///     ToolDefinition::new(format!("{long}/write"), "Writes.", json!(null)),
/// ];
/// let census = Census::build(defs.iter().map(|d| &d.name), &[]);
/// let list = namespaced_tools(&census, &defs, WireFormat::OpenAiResponses).unwrap();
/// assert!(list.left_out().is_empty());
/// assert_eq!(list[0]["name"], "get_weather");
/// assert_eq!((&list[1]["type"], &list[1]["name"]), (&json!("namespace"), &json!("mcp_github")));
/// assert_eq!(list[1]["tools"][0]["name"], "create_issue");
/// assert_eq!(list[2]["tools"].as_array().unwrap().len(), 2);
/// let Ok(Resolution::Tool(hit)) = census.resolve_call(Some("mcp_github"), "create_issue") else { panic!() };
/// assert_eq!(hit.name, "mcp/github/create_issue");
/// ```
pub fn namespaced_tools(
    census: &Census,
    definitions: &[ToolDefinition],
    format: WireFormat,
) -> Result<ToolList, WireError> {
    check_namespaced_format(format)?;
    check_census_matches(census, definitions)?;
    let placements = census.namespace_placements();
    namespaced_list(
        census,
        definitions,
        format,
        Vec::new(),
        placements,
        None,
        &[],
    )
}

/// The `namespace` tool of `format`'s API: [`WireError::NoNamespaces`] unless it has one (the
/// Responses API's).
fn check_namespaced_format(format: WireFormat) -> Result<NamespaceTool, WireError> {
    api(format.call_format())
        .namespace_tool()
        .ok_or(WireError::NoNamespaces { format })
}

/// The namespaced list of `census` (whose `definitions` match it), as a request carries it:
/// `metas` first, flat under their own names; then, of the census, the tools at the sorted
/// positions `carried` (`None`: every tool the placement puts in the list; a tool not carried
/// is in the request's catalog or left out by the caller, which says why), each where
/// `placements` (the census's [`Census::namespace_placements`], computed once by the caller,
/// which checks the same placements) puts it. A tool the census withholds is left out with
/// the reason `withheld` gives for its name (switched off, unreachable…), when it gives one.
pub(crate) fn namespaced_list<'a>(
    census: &'a Census,
    definitions: &'a [ToolDefinition],
    format: WireFormat,
    metas: Vec<&'a ToolDefinition>,
    placements: Vec<NamespacePlacement<'a>>,
    carried: Option<&[usize]>,
    withheld: &[LeftOutTool],
) -> Result<ToolList, WireError> {
    let namespace_tool = check_namespaced_format(format)?;
    let mut flat: Vec<(&str, &ToolDefinition)> = metas
        .into_iter()
        .map(|def| (def.name.as_str(), def))
        .collect();
    let mut left_out = Vec::new();
    let mut namespaces: Vec<Namespace<'_>> = Vec::new();
    for (index, ((tool, definition), placement)) in census
        .tools()
        .iter()
        .zip(definitions)
        .zip(placements)
        .enumerate()
    {
        let travels = !matches!(placement, NamespacePlacement::LeftOut(_));
        if travels && carried.is_some_and(|carried| carried.binary_search(&index).is_err()) {
            continue;
        }
        match placement {
            NamespacePlacement::Flat => flat.push((tool.form(), definition)),
            NamespacePlacement::InNamespace { namespace, name } => {
                match namespaces.iter_mut().find(|(n, ..)| *n == namespace) {
                    Some((_, _, entries)) => entries.push((name, definition)),
                    None => {
                        let server = server_of(tool.name());
                        namespaces.push((namespace, server, vec![(name, definition)]));
                    }
                }
            }
            NamespacePlacement::LeftOut(reason) => {
                let why = match reason {
                    LeftOutReason::Withheld => withheld
                        .iter()
                        .find(|w| w.name == tool.name())
                        .map_or(WhyLeftOut::Census(reason), |w| w.reason.clone()),
                    reason => WhyLeftOut::Census(reason),
                };
                left_out.push(LeftOutTool::new(tool.name(), tool.form(), why));
            }
        }
    }
    let top = wire_list(format, flat, left_out)?;
    let mut functions = top.as_array().map_or(0, Vec::len);
    let mut left_out = top.left_out().to_vec();
    let mut tools = match top.into_value() {
        Value::Array(tools) => tools,
        _ => Vec::new(),
    };
    for (namespace, server, entries) in namespaces {
        let inside = wire_list(
            format,
            entries.iter().map(|(name, def)| (name.as_ref(), *def)),
            Vec::new(),
        )?;
        left_out.extend(inside.left_out().iter().cloned());
        let count = inside.as_array().map_or(0, Vec::len);
        if count == 0 {
            continue;
        }
        functions += count;
        // Our words: the type requires a description, and an MCP server has none of its own
        // in a tool definition.
        let description = format!("Tools of the MCP server `{server}`.");
        tools.push(namespace_tool(&namespace, description, inside.into_value()));
    }
    let limit = RequestLimit::OpenAiTools;
    let most = api(format.call_format()).request_limit(limit, format.is_strict());
    if most.is_some_and(|most| functions > most) {
        return Err(WireError::OverLimit {
            format,
            limit,
            found: functions,
        });
    }
    Ok(ToolList::new(Value::Array(tools), left_out))
}

/// One namespace being built: its name, its server, its entries (name inside, definition).
type Namespace<'a> = (
    Cow<'a, str>,
    &'a str,
    Vec<(Cow<'a, str>, &'a ToolDefinition)>,
);

/// The server of an MCP tool's real name (`mcp/<server>/<tool>`).
fn server_of(real_name: &str) -> &str {
    real_name
        .strip_prefix("mcp/")
        .and_then(|rest| rest.split_once('/'))
        .map_or(real_name, |(server, _)| server)
}
