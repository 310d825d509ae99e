//! Schemas on the wire through the runtime (issue point "On the wire"): prepared per dialect,
//! a refused tool left out of that provider's list only and still reached by its names, the
//! providers' request limits as typed errors, the way back for strict nulls, and the report.

use std::sync::{Arc, Mutex};
use toolwire_test_support::wire_lists::wire_names;

use serde_json::{json, Value};
use toolwire_core::{
    provider::{provider_fn, ProviderFn},
    runtime::{CatalogPolicy, DispatchError},
    schema::SchemaStatus,
    wire::{RequestLimit, WhyLeftOut, WireError},
    ToolDefinition, ToolRuntime, WireFormat,
};
use toolwire_test_support::logs::{logs_during, LogEvent};

/// A provider of fixed definitions that answers every call with the arguments it received,
/// and keeps them.
fn recorder(tools: Vec<ToolDefinition>) -> (Arc<ProviderFn>, Arc<Mutex<Vec<Value>>>) {
    let received = Arc::new(Mutex::new(Vec::new()));
    let log = received.clone();
    let provider = provider_fn("recorder", tools, move |_, args: Value| {
        log.lock().unwrap().push(args.clone());
        async move { Ok(args) }
    });
    (Arc::new(provider), received)
}

/// A runtime whose lists are exactly the offered tools: no meta-tools, nothing deferred (these
/// tests are about how each tool's schema travels).
fn bare_runtime() -> ToolRuntime {
    ToolRuntime::builder()
        .meta_tools([])
        .catalog(CatalogPolicy::All)
        .build()
        .unwrap()
}

#[tokio::test]
async fn a_tool_refused_by_one_dialect_leaves_only_that_list_and_keeps_its_names() {
    // A free-form object cannot be closed for OpenAI strict; every other dialect takes it.
    let free_form = ToolDefinition::new(
        "mcp/notes/tag",
        "Tags a note.",
        json!({"type": "object", "properties": {"labels": {"type": "object"}}, "required": ["labels"]}),
    );
    let plain = ToolDefinition::new(
        "mcp/notes/find",
        "Finds notes.",
        json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}),
    );
    let (provider, _) = recorder(vec![free_form, plain]);
    let runtime = bare_runtime();
    runtime
        .add_provider(provider)
        .await
        .unwrap()
        .check()
        .unwrap();
    let request = runtime.request();

    let (strict, logs) = logs_during(|| request.tools(WireFormat::OpenAiStrict).unwrap());
    assert_eq!(
        wire_names(&strict, WireFormat::OpenAiStrict),
        ["mcp_notes_find"]
    );
    // Returned, beside the JSON: the tool, and the dialect's refusal with where and why.
    let [left_out] = strict.left_out() else {
        panic!("{:?}", strict.left_out())
    };
    assert_eq!(left_out.name, "mcp/notes/tag");
    let WhyLeftOut::SchemaRefused(refusal) = &left_out.reason else {
        panic!("{left_out:?}")
    };
    assert_eq!(refusal.pointer, "/properties/labels");
    // The warning is a convenience beside it.
    let log = logs.text();
    let warnings: Vec<String> = logs.warnings().iter().map(LogEvent::line).collect();
    assert_eq!(warnings.len(), 1, "{log}");
    assert!(
        warnings[0].contains("mcp/notes/tag")
            && warnings[0].contains("openai-strict")
            && warnings[0].contains("/properties/labels"),
        "{log}"
    );

    for format in [
        WireFormat::OpenAi,
        WireFormat::Anthropic,
        WireFormat::Converse,
        WireFormat::Gemini,
    ] {
        let list = request.tools(format).unwrap();
        assert_eq!(
            wire_names(&list, format),
            ["mcp_notes_tag", "mcp_notes_find"],
            "{format}"
        );
        assert!(
            list.left_out().is_empty(),
            "{format}: {:?}",
            list.left_out()
        );
    }
    // Still in the census, and its names still reach it (never another tool).
    assert!(request
        .census()
        .offered()
        .any(|t| t.name() == "mcp/notes/tag"));
    for called in ["mcp/notes/tag", "mcp_notes_tag"] {
        let out = request
            .dispatch(called, json!({"labels": {"a": 1}}))
            .await
            .unwrap();
        assert_eq!(out.tool, "mcp/notes/tag");
    }
    // The report says so, per dialect.
    let report = runtime.report();
    let tag = report
        .tools
        .iter()
        .find(|t| t.name == "mcp/notes/tag")
        .unwrap();
    assert_eq!(tag.schemas["openai-strict"].status, SchemaStatus::Refused);
    assert!(tag.schemas["openai-strict"]
        .reason
        .as_deref()
        .unwrap()
        .contains("/properties/labels"));
    assert_eq!(tag.schemas["openai"].status, SchemaStatus::AsIs);
    assert_eq!(tag.schemas["gemini"].status, SchemaStatus::Rewritten);
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(
        json["tools"][0]["schemas"]["openai-strict"]["status"],
        "refused"
    );
}

#[tokio::test]
async fn lists_over_the_providers_request_limits_are_typed_errors() {
    let tool = |i: usize| {
        ToolDefinition::new(
            format!("mcp/bulk/t{i}"),
            "One of many.",
            json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}),
        )
    };
    let runtime = bare_runtime();
    runtime
        .add_provider(recorder((0..129).map(tool).collect()).0)
        .await
        .unwrap()
        .check()
        .unwrap();
    let request = runtime.request();
    for format in [WireFormat::OpenAi, WireFormat::OpenAiStrict] {
        assert_eq!(
            request.tools(format),
            Err(WireError::OverLimit {
                format,
                limit: RequestLimit::OpenAiTools,
                found: 129
            })
        );
    }
    let err = request.tools(WireFormat::AnthropicStrict).unwrap_err();
    assert!(matches!(
        err,
        WireError::OverLimit {
            limit: RequestLimit::StrictTools,
            found: 129,
            ..
        }
    ));
    assert!(err.to_string().contains("at most 20"), "{err}");
    // The other shapes have no such limit: 129 tools travel.
    assert_eq!(
        wire_names(
            &request.tools(WireFormat::Anthropic).unwrap(),
            WireFormat::Anthropic
        )
        .len(),
        129
    );

    // Strict: 25 optional parameters over all strict tools is one too many.
    let optional = ToolDefinition::new(
        "mcp/wide/t",
        "Many options.",
        json!({"type": "object", "properties": (0..25).map(|i| (format!("o{i}"), json!({"type": "string"}))).collect::<serde_json::Map<_, _>>()}),
    );
    let runtime = bare_runtime();
    runtime
        .add_provider(recorder(vec![optional]).0)
        .await
        .unwrap()
        .check()
        .unwrap();
    let err = runtime
        .request()
        .tools(WireFormat::ConverseStrict)
        .unwrap_err();
    assert!(
        matches!(
            err,
            WireError::OverLimit {
                limit: RequestLimit::StrictOptionalParameters,
                found: 25,
                ..
            }
        ),
        "{err}"
    );
    assert!(runtime.request().tools(WireFormat::Converse).is_ok());
}

#[tokio::test]
async fn the_nulls_strict_mode_sends_for_left_out_options_never_reach_the_tool() {
    let search = ToolDefinition::new(
        "mcp/docs/search",
        "Searches.",
        json!({"type": "object", "properties": {
            "q": {"type": "string"},
            "limit": {"type": "integer"},
            "after": {"type": ["string", "null"]},
        }, "required": ["q"]}),
    );
    let (provider, received) = recorder(vec![search]);
    let runtime = bare_runtime();
    runtime
        .add_provider(provider)
        .await
        .unwrap()
        .check()
        .unwrap();
    let request = runtime.request();
    // On the wire, strict: every property required, the optional ones nullable.
    let strict = request.tools(WireFormat::OpenAiStrict).unwrap();
    let parameters = &strict[0]["function"]["parameters"];
    // (Properties in key order: serde_json keeps objects sorted.)
    assert_eq!(parameters["required"], json!(["q", "after", "limit"]));
    assert_eq!(
        parameters["properties"]["limit"]["type"],
        json!(["integer", "null"])
    );
    // The model sends null for "no limit": the tool gets what its own schema accepts.
    request
        .dispatch(
            "mcp_docs_search",
            json!({"q": "wire", "limit": null, "after": null}),
        )
        .await
        .unwrap();
    assert_eq!(
        received.lock().unwrap().as_slice(),
        [json!({"q": "wire", "after": null})]
    );
    // A null the schema refuses where it is required is left for the tool to refuse.
    let err = request
        .dispatch("mcp_docs_search", json!({"q": null}))
        .await;
    assert!(err.is_ok() || matches!(err, Err(DispatchError::Tool(_))));
    assert_eq!(received.lock().unwrap().last(), Some(&json!({"q": null})));
}
