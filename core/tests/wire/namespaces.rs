//! The Responses API's `namespace` tools (issue 18, point 1): each MCP server's tools inside one
//! namespace, each part of a name with its own 64 characters, and hop 5 mapping a call's
//! `(namespace, name)` back to exactly the tool that travelled so, never a split or a guess.

use proptest::prelude::*;
use serde_json::{json, Value};
use toolwire_core::census::{Resolution, Via};
use toolwire_core::wire::calls::CallFormat;
use toolwire_core::wire::{namespaced_tools, WireError};
use toolwire_core::{Census, ToolDefinition, WireFormat};

use crate::fixtures::{assemble, body_calls, bytes};

/// The recorded request's tools, as definitions: `get_weather` flat, two GitHub MCP tools.
fn recorded_definitions() -> (Value, Vec<ToolDefinition>) {
    let request: Value =
        serde_json::from_slice(&bytes("openai-responses/request-tools-namespace.json")).unwrap();
    let tools = request["tools"].as_array().unwrap();
    let mut definitions = vec![ToolDefinition::new(
        "get_weather",
        tools[0]["description"].as_str().unwrap(),
        tools[0]["parameters"].clone(),
    )];
    for inside in tools[1]["tools"].as_array().unwrap() {
        definitions.push(ToolDefinition::new(
            format!("mcp/github/{}", inside["name"].as_str().unwrap()),
            inside["description"].as_str().unwrap(),
            inside["parameters"].clone(),
        ));
    }
    (request, definitions)
}

#[test]
fn an_mcp_servers_tools_travel_in_the_recorded_namespace_shape() {
    let (request, definitions) = recorded_definitions();
    let census = Census::build(definitions.iter().map(|d| &d.name), &[]);
    let list = namespaced_tools(&census, &definitions, WireFormat::OpenAiResponses).unwrap();
    assert!(list.left_out().is_empty());
    let recorded = &request["tools"][1];
    assert_eq!(list[1]["type"], "namespace");
    assert_eq!(list[1]["name"], recorded["name"]);
    // The functions inside, exactly as recorded (plain dialect: `strict: false`).
    assert_eq!(list[1]["tools"], recorded["tools"]);
    assert_eq!(list[0]["name"], "get_weather");
    assert!(list[1]["description"]
        .as_str()
        .unwrap()
        .contains("`github`"));
    // Strict: the same grouping, every function strict.
    let strict =
        namespaced_tools(&census, &definitions, WireFormat::OpenAiResponsesStrict).unwrap();
    assert_eq!(strict[1]["tools"][0]["strict"], true);
    assert_eq!(strict[0]["strict"], true);
    // Only the Responses API has namespaces.
    let err = namespaced_tools(&census, &definitions, WireFormat::OpenAi).unwrap_err();
    assert!(matches!(err, WireError::NoNamespaces { .. }), "{err}");
}

#[test]
fn the_recorded_namespaced_call_reaches_its_tool_from_a_body_and_from_a_stream() {
    let (_, definitions) = recorded_definitions();
    let census = Census::build(definitions.iter().map(|d| &d.name), &[]);
    let file = "openai-responses/response-namespace-call.json";
    let body = body_calls(file, CallFormat::OpenAiResponses);
    let stream_file = "openai-responses/stream-namespace-call.sse";
    let (streamed, end) = assemble(
        stream_file,
        CallFormat::OpenAiResponses,
        &bytes(stream_file),
        &[],
    );
    end.unwrap();
    for call in body.iter().chain(&streamed) {
        let Ok(Resolution::Tool(hit)) = census.resolve_call(call.namespace.as_deref(), &call.name)
        else {
            panic!("{call:?}");
        };
        assert_eq!((hit.name, hit.via), ("mcp/github/create_issue", Via::Form));
        // The bare name reaches nothing: it is no tool's name or form.
        assert!(census.resolve(&call.name).is_err());
    }
}

#[test]
fn a_namespaced_call_never_reaches_the_top_level_tool_of_its_bare_name() {
    let census = Census::build(["create_issue", "mcp/github/create_issue"], &[]);
    let Ok(Resolution::Tool(hit)) = census.resolve_call(Some("mcp_github"), "create_issue") else {
        panic!()
    };
    assert_eq!(hit.name, "mcp/github/create_issue");
    let Ok(Resolution::Tool(hit)) = census.resolve_call(None, "create_issue") else {
        panic!()
    };
    assert_eq!(hit.name, "create_issue");
    assert!(census
        .resolve_call(Some("mcp_gitlab"), "create_issue")
        .is_err());
}

/// The function tools of a namespaced list: (namespace or none, name), in order.
fn travelling(list: &Value) -> Vec<(Option<String>, String)> {
    let mut out = Vec::new();
    for tool in list.as_array().unwrap() {
        let name = tool["name"].as_str().unwrap().to_owned();
        match tool["type"].as_str() {
            Some("namespace") => {
                for inside in tool["tools"].as_array().unwrap() {
                    out.push((
                        Some(name.clone()),
                        inside["name"].as_str().unwrap().to_owned(),
                    ));
                }
            }
            _ => out.push((None, name)),
        }
    }
    out
}

/// Names from a small alphabet, so forms and pairs collide often: MCP names of two servers
/// (one long enough to be cut), `.` and `/` inside, flat names equal to others' forms.
fn name() -> impl Strategy<Value = String> {
    let server = prop_oneof![
        Just("a".to_owned()),
        Just("a_b".to_owned()),
        Just("s".repeat(62))
    ];
    let part = "[ab_./]{1,4}";
    prop_oneof![
        (server, part).prop_map(|(server, tool)| format!("mcp/{server}/{tool}")),
        "[ab_]{1,3}".prop_map(|flat| format!("mcp_{flat}")),
        Just("tool_search".to_owned()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Every function a namespaced list carries is reached by exactly the way it travels (a
    /// pair through `resolve_call(Some(..))`, a flat form through `resolve_call(None, ..)`),
    /// and it is the tool that travels so; no two functions travel the same way.
    #[test]
    fn every_tool_is_reached_by_the_way_it_travels(names in prop::collection::vec(name(), 1..12)) {
        let definitions: Vec<ToolDefinition> =
            names.iter().map(|n| ToolDefinition::new(n.as_str(), "d", json!(null))).collect();
        let census = Census::build(names.iter(), &["tool_search"]);
        let list = namespaced_tools(&census, &definitions, WireFormat::OpenAiResponses).unwrap();
        let ways = travelling(&list);
        let mut seen = ways.clone();
        seen.sort();
        seen.dedup();
        prop_assert_eq!(seen.len(), ways.len(), "a way travels twice: {:?}", ways);
        let mut reached = Vec::new();
        for (namespace, called) in &ways {
            let Ok(Resolution::Tool(hit)) = census.resolve_call(namespace.as_deref(), called) else {
                return Err(TestCaseError::fail(format!("{namespace:?} {called} reaches nothing")));
            };
            reached.push(hit.index);
        }
        reached.sort();
        let before = reached.len();
        reached.dedup();
        prop_assert_eq!(before, reached.len(), "two ways reach one tool");
        // Every tool of the census either travels once or is left out once, saying why.
        prop_assert_eq!(ways.len() + list.left_out().len(), names.len());
    }
}
