//! Loud means returned: a request's tool list names, beside its JSON, every tool it does not
//! carry and why (a dialect's refusal, a tool the runtime cannot run, a form the provider
//! refuses, the census), so an app shows them with no log subscriber; `wire_tools` the same.

use serde_json::json;
use toolwire_core::{
    names::DEFAULT_META_TOOLS,
    provider::provider_fn,
    schema::Dialect,
    wire::{wire_tools, LeftOutTool, NameRejection, WhyLeftOut},
    Census, ToolDefinition, ToolRuntime, WireFormat,
};

/// A `HashMap<String, String>` argument, as schemars writes it: strict mode refuses an open map.
fn tagged() -> ToolDefinition {
    let schema = json!({
        "type": "object",
        "properties": {"tags": {"type": "object", "additionalProperties": {"type": "string"}}},
        "required": ["tags"]
    });
    ToolDefinition::new("mcp/notes/tag", "Tags a note.", schema)
}

/// An MCP tool that requires MCP tasks, as the MCP client lists it.
fn research() -> ToolDefinition {
    ToolDefinition::new("mcp/notes/research", "Researches.", json!({}))
        .unsupported_because("it requires MCP tasks")
}

fn plain(name: &str) -> ToolDefinition {
    ToolDefinition::new(name, "Does it.", json!({}))
}

/// The names and reason keys of what a list left out.
fn keys(left_out: &[LeftOutTool]) -> Vec<(&str, &str)> {
    left_out
        .iter()
        .map(|t| (t.name.as_str(), t.reason.key()))
        .collect()
}

#[tokio::test]
async fn a_request_names_each_tool_it_leaves_out_with_its_typed_reason() {
    let runtime = ToolRuntime::new();
    let notes = provider_fn(
        "notes",
        vec![
            plain("mcp/notes/read"),
            tagged(),
            research(),
            plain("3d/render"),
        ],
        |_, args| async move { Ok(args) },
    );
    runtime
        .add_provider(std::sync::Arc::new(notes))
        .await
        .unwrap()
        .check()
        .unwrap();
    let request = runtime.request();

    // Strict: the map is refused by the dialect, the task tool is unsupported everywhere.
    let strict = request.tools(WireFormat::OpenAiStrict).unwrap();
    assert_eq!(strict.as_array().unwrap().len(), 2, "{strict}");
    assert_eq!(
        keys(strict.left_out()),
        [
            ("mcp/notes/research", "unsupported"),
            ("mcp/notes/tag", "schema_refused")
        ]
    );
    let research = &strict.left_out()[0];
    assert_eq!(research.form, "mcp_notes_research");
    assert_eq!(
        research.reason,
        WhyLeftOut::Unsupported {
            reason: "it requires MCP tasks".into()
        }
    );
    let WhyLeftOut::SchemaRefused(refusal) = &strict.left_out()[1].reason else {
        panic!("{:?}", strict.left_out()[1]);
    };
    assert_eq!(refusal.dialect, Dialect::OpenAiStrict);
    assert_eq!(refusal.pointer, "/properties/tags");
    assert!(strict.left_out()[1]
        .to_string()
        .starts_with("tool `mcp/notes/tag` (sent as `mcp_notes_tag`) is left out: openai-strict refuses the schema at `/properties/tags`"));

    // Not strict: the map travels; Gemini refuses the form that starts with a digit.
    let openai = request.tools(WireFormat::OpenAi).unwrap();
    assert_eq!(
        keys(openai.left_out()),
        [("mcp/notes/research", "unsupported")]
    );
    let gemini = request.tools(WireFormat::Gemini).unwrap();
    assert_eq!(
        keys(gemini.left_out()),
        [
            ("mcp/notes/research", "unsupported"),
            ("3d/render", "form_refused")
        ]
    );
    assert!(matches!(
        gemini.left_out()[1].reason,
        WhyLeftOut::FormRefused(NameRejection::BadFirstChar { found: '3', .. })
    ));
    // The JSON is what is sent, and only that.
    let sent = serde_json::to_value(&gemini).unwrap();
    assert_eq!(sent, *gemini.as_value());
    // What the app shows, as JSON.
    assert_eq!(
        serde_json::to_value(&gemini.left_out()[0]).unwrap(),
        json!({
            "name": "mcp/notes/research",
            "form": "mcp_notes_research",
            "reason": "unsupported: it requires MCP tasks",
            "reason_key": "unsupported",
        })
    );
}

#[test]
fn wire_tools_names_what_the_census_the_dialect_and_the_runtime_leave_out() {
    let defs = [
        plain("tool/search"),
        tagged(),
        research(),
        plain("mcp/notes/read"),
    ];
    let census = Census::build(defs.iter().map(|d| &d.name), &DEFAULT_META_TOOLS);
    let strict = wire_tools(&census, &defs, WireFormat::AnthropicStrict).unwrap();
    assert_eq!(strict.as_array().unwrap().len(), 1, "{strict}");
    // The census's left-outs first, then what this list refused, each in census order.
    assert_eq!(
        keys(strict.left_out()),
        [
            ("tool/search", "meta_tool"),
            ("mcp/notes/tag", "schema_refused"),
            ("mcp/notes/research", "unsupported"),
        ]
    );
    let anthropic = wire_tools(&census, &defs, WireFormat::Anthropic).unwrap();
    assert_eq!(
        keys(anthropic.left_out()),
        [
            ("tool/search", "meta_tool"),
            ("mcp/notes/research", "unsupported")
        ]
    );
}
