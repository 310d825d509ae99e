//! The oracle of the tool lists: one fixed tool set, as each wire format's list carries it
//! (`wire_tools`, strict and not) and, for the Responses API, with its MCP servers in
//! `namespace` tools (`namespaced_tools`), with what each list leaves out and why; then as a
//! runtime's request carries it (`Request::tools`, `tools_in_namespaces`, and the Messages
//! API's `tools_with_native_search`), its catalog deferred or not. One file per format under
//! `oracle/tool-lists/`.
//!
//! The set holds what a list changes: names renamed to their model-safe form (a `/`, a `.`,
//! a name over 64 characters), forms two tools share, a form that is another tool's real
//! name, a form Gemini refuses, a meta-tool's name, a tool the runtime cannot run, schemas each
//! dialect rewrites (`$defs`/`$ref`, unions, `const`, formats, 2020-12 keywords, an empty
//! schema) or refuses (a `$ref` to nowhere, a recursive one, a root that is no object).

use std::sync::Arc;

use serde_json::{json, Value};
use toolwire_core::names::DEFAULT_META_TOOLS;
use toolwire_core::provider::provider_fn;
use toolwire_core::runtime::CatalogPolicy;
use toolwire_core::wire::{namespaced_tools, wire_tools, ToolList, WireError};
use toolwire_core::{Census, ToolDefinition, ToolRuntime, WireFormat};

use super::{compare_folder, pretty, section};

/// The tool set, in census order.
pub(super) fn definitions() -> Vec<ToolDefinition> {
    let long_server = "mcp/a_server_whose_name_alone_takes_up_most_of_the_sixty_four";
    vec![
        ToolDefinition::new(
            "get_weather",
            "The weather in a city.",
            json!({
                "type": "object",
                "properties": {
                    "city": {"type": "string", "minLength": 1, "description": "The city."},
                    "unit": {"enum": ["celsius", "fahrenheit"], "default": "celsius"},
                    "when": {"type": "string", "format": "date-time"},
                },
                "required": ["city"],
            }),
        ),
        ToolDefinition::new(
            "mcp/github/create_issue",
            "Creates an issue.",
            json!({
                "$schema": "http://json-schema.org/draft-07/schema#",
                "type": "object",
                "properties": {
                    "repo": {"type": "string", "pattern": "^[^/]+/[^/]+$"},
                    "title": {"type": "string", "maxLength": 256},
                    "body": {"type": ["string", "null"]},
                    "labels": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
                },
                "required": ["repo", "title"],
                "additionalProperties": false,
            }),
        ),
        ToolDefinition::new(
            "mcp/github/search.code",
            "Searches code.",
            json!({
                "type": "object",
                "properties": {
                    "query": {"type": "string"},
                    "page": {"type": "integer", "minimum": 1, "maximum": 100},
                },
                "required": ["query"],
            }),
        ),
        // Its form `mcp_x_search_web` is the next tool's real name.
        ToolDefinition::new("mcp/x/search.web", "Searches the web.", json!({})),
        ToolDefinition::new(
            "mcp_x_search_web",
            "Searches the web, the app's way.",
            json!({}),
        ),
        // These two share the form `mcp_x_fetch_page`.
        ToolDefinition::new("mcp/x/fetch.page", "Fetches a page.", json!(null)),
        ToolDefinition::new("mcp/x/fetch:page", "Fetches a page, too.", json!(null)),
        // Over 64 characters, and alike up to the cut (`…_sixty_four_re`); then one that
        // differs before it.
        ToolDefinition::new(format!("{long_server}/read_all"), "Reads all.", json!(null)),
        ToolDefinition::new(format!("{long_server}/read_any"), "Reads any.", json!(null)),
        ToolDefinition::new(format!("{long_server}/write"), "Writes.", json!(null)),
        // Gemini wants a letter or `_` first.
        ToolDefinition::new("3d/render", "Renders a scene.", json!({"type": "object"})),
        // The name of a meta-tool.
        ToolDefinition::new("tool_search", "The app's own search.", json!({})),
        ToolDefinition::new("mcp/server/research", "Researches.", json!({}))
            .unsupported_because("it requires MCP tasks"),
        // No description: Converse describes it by its real name.
        ToolDefinition::new("ping", "", json!(null)),
        ToolDefinition::new(
            "mcp/notion/post_page",
            "Creates a page.",
            json!({
                "type": "object",
                "$defs": {
                    "parent": {
                        "type": "object",
                        "properties": {"page_id": {"type": "string", "format": "uuid"}},
                        "required": ["page_id"],
                    },
                },
                "properties": {
                    "parent": {"$ref": "#/$defs/parent"},
                    "siblings": {"type": "array", "items": {"$ref": "#/$defs/parent"}},
                },
                "required": ["parent"],
            }),
        ),
        ToolDefinition::new(
            "set_mode",
            "Sets the mode.",
            json!({
                "type": "object",
                "properties": {
                    "mode": {"oneOf": [{"const": "fast"}, {"const": "slow"}]},
                    "level": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
                    "tags": {"type": "object", "additionalProperties": {"type": "string"}},
                    "both": {"allOf": [{"type": "string"}, {"minLength": 2}]},
                },
                "required": ["mode"],
            }),
        ),
        ToolDefinition::new(
            "upload",
            "Uploads a file.",
            json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object",
                "properties": {
                    "data": {
                        "type": "string",
                        "contentEncoding": "base64",
                        "contentMediaType": "image/png",
                    },
                    "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]},
                },
                "required": ["data"],
            }),
        ),
        ToolDefinition::new(
            "tree/walk",
            "Walks a tree.",
            json!({
                "type": "object",
                "$defs": {
                    "node": {
                        "type": "object",
                        "properties": {
                            "name": {"type": "string"},
                            "children": {"type": "array", "items": {"$ref": "#/$defs/node"}},
                        },
                    },
                },
                "properties": {"root": {"$ref": "#/$defs/node"}},
            }),
        ),
        ToolDefinition::new(
            "broken",
            "Its schema points nowhere.",
            json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/missing"}}}),
        ),
        ToolDefinition::new(
            "count",
            "Its schema is no object.",
            json!({"type": "array"}),
        ),
    ]
}

/// A list, or why there is none: its JSON, then each tool it leaves out as a JSON line.
fn listed(list: Result<ToolList, WireError>) -> String {
    match list {
        Ok(list) => {
            let left_out: Vec<String> = list
                .left_out()
                .iter()
                .map(|tool| serde_json::to_string(tool).unwrap())
                .collect();
            format!("{}\nleft out:\n{}", pretty(&list), left_out.join("\n"))
        }
        Err(error) => format!("error: {error:#?}\n{error}"),
    }
}

/// `text` under `title`, or that it is `same_as`'s when it is `reference`.
fn listed_as(out: &mut String, title: &str, text: &str, reference: &str, same_as: &str) {
    let text = if text == reference {
        format!("(as {same_as})")
    } else {
        text.to_owned()
    };
    section(out, title, text);
}

/// A runtime of one provider holding `definitions` (a clash is reported, not refused), its
/// catalog deferred or not.
fn runtime(definitions: &[ToolDefinition], deferred: bool) -> ToolRuntime {
    let runtime = if deferred {
        let policy = CatalogPolicy::deferred(["get_weather"]).with_threshold(0);
        ToolRuntime::builder().catalog(policy).build().unwrap()
    } else {
        ToolRuntime::new()
    };
    let provider = provider_fn("app", definitions.to_vec(), |_, _| async {
        Ok(json!(null))
    });
    let tokio = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let _report = tokio
        .block_on(runtime.add_provider(Arc::new(provider)))
        .unwrap();
    runtime
}

#[test]
fn every_format_lists_the_tool_set_as_the_oracle_says() {
    let defs = definitions();
    let census = Census::build(defs.iter().map(|d| &d.name), &DEFAULT_META_TOOLS);
    let mut head = String::new();
    let forms: Vec<Value> = census
        .tools()
        .iter()
        .map(|tool| {
            json!([
                tool.name(),
                tool.form(),
                tool.left_out_reason().map(|r| format!("{r:?}"))
            ])
        })
        .collect();
    let forms: Vec<String> = forms.iter().map(Value::to_string).collect();
    section(
        &mut head,
        "census: real name, form, left out",
        forms.join("\n"),
    );
    // The runtime's lists of the same tools: its request's own (with the meta-tools of a
    // deferred catalog), namespaced, and with the Messages API's native search.
    let plain = runtime(&defs, false).request();
    let deferred = runtime(&defs, true).request();
    let mut files = Vec::new();
    for format in WireFormat::ALL {
        let mut out = head.clone();
        let flat = listed(wire_tools(&census, &defs, format));
        section(&mut out, "wire_tools", &flat);
        let request = listed(plain.tools(format));
        listed_as(&mut out, "Request::tools", &request, &flat, "wire_tools");
        let title = "Request::tools, catalog deferred";
        listed_as(
            &mut out,
            title,
            &listed(deferred.tools(format)),
            &flat,
            "wire_tools",
        );
        let namespaced = match namespaced_tools(&census, &defs, format) {
            Err(WireError::NoNamespaces { .. }) => None,
            list => Some(listed(list)),
        };
        if let Some(namespaced) = namespaced {
            section(&mut out, "namespaced_tools", &namespaced);
            let list = listed(plain.tools_in_namespaces(format));
            let title = "Request::tools_in_namespaces";
            listed_as(&mut out, title, &list, &namespaced, "namespaced_tools");
            let list = listed(deferred.tools_in_namespaces(format));
            let title = "Request::tools_in_namespaces, catalog deferred";
            listed_as(&mut out, title, &list, &namespaced, "namespaced_tools");
        }
        if format == WireFormat::Anthropic {
            let list = listed(deferred.tools_with_native_search(format));
            let title = "Request::tools_with_native_search, catalog deferred";
            section(&mut out, title, list);
        }
        files.push((format!("{}.txt", format.key()), out));
    }
    compare_folder("tool-lists", &files);
}
