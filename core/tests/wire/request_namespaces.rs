//! The runtime's namespaced Responses list (`Request::tools_in_namespaces`, issue 18, point 1):
//! what `wire::namespaced_tools` builds, as one request carries it (switched-off tools left out
//! with their reason, a deferred request's pinned tools and meta-tools), and its calls answered
//! through `Request::answer_calls` by their `(namespace, name)` pairs.

use std::sync::Arc;

use serde_json::{json, Value};
use toolwire_core::provider::provider_fn;
use toolwire_core::runtime::{CatalogPolicy, DispatchError, WhyLeftOut};
use toolwire_core::wire::answers::write_answers;
use toolwire_core::wire::calls::{parse_calls, CallFormat};
use toolwire_core::{ToolRuntime, WireFormat};
use toolwire_test_support::providers::tools;

/// The names of a namespaced list: a flat function as its name, a namespaced one as
/// `namespace.name`.
fn travelling(list: &Value) -> Vec<String> {
    let mut names = Vec::new();
    for tool in list.as_array().unwrap() {
        match tool["type"].as_str() {
            Some("namespace") => {
                names.extend(tool["tools"].as_array().unwrap().iter().map(|inside| {
                    format!(
                        "{}.{}",
                        tool["name"].as_str().unwrap(),
                        inside["name"].as_str().unwrap()
                    )
                }))
            }
            _ => names.push(tool["name"].as_str().unwrap().to_owned()),
        }
    }
    names
}

/// A runtime of one provider whose tools answer with the real name they were called by.
async fn runtime_of(names: &[&str], catalog: CatalogPolicy) -> ToolRuntime {
    let runtime = ToolRuntime::builder().catalog(catalog).build().unwrap();
    let provider = provider_fn("gh", tools(names), |tool, _| async move { Ok(json!(tool)) });
    // Two tools whose flat forms collide: the load says so (and the namespaced list carries
    // both, each under its own pair).
    let status = runtime.add_provider(Arc::new(provider)).await.unwrap();
    assert!(status.check().is_err());
    runtime
}

const NAMES: [&str; 5] = [
    "create_issue",
    "mcp/a/b_c",
    "mcp/a_b/c",
    "mcp/github/create_issue",
    "mcp/github/close_issue",
];

#[tokio::test]
async fn a_namespaced_list_of_the_runtime_answers_each_call_by_its_pair() {
    let runtime = runtime_of(&NAMES, CatalogPolicy::All).await;
    runtime.set_enabled("mcp/github/close_issue", false);
    let request = runtime.request();
    // The flat list carries neither of the colliding tools.
    let flat = request.tools(WireFormat::OpenAiResponses).unwrap();
    assert_eq!(
        travelling(&flat),
        ["create_issue", "mcp_github_create_issue"]
    );

    let list = request
        .tools_in_namespaces(WireFormat::OpenAiResponses)
        .unwrap();
    assert_eq!(
        travelling(&list),
        [
            "create_issue",
            "mcp_a.b_c",
            "mcp_a_b.c",
            "mcp_github.create_issue"
        ]
    );
    let left_out: Vec<(&str, &WhyLeftOut)> = list
        .left_out()
        .iter()
        .map(|l| (l.name.as_str(), &l.reason))
        .collect();
    assert_eq!(
        left_out,
        [("mcp/github/close_issue", &WhyLeftOut::SwitchedOff)]
    );
    let strict = request
        .tools_in_namespaces(WireFormat::OpenAiResponsesStrict)
        .unwrap();
    assert_eq!(travelling(&strict), travelling(&list));
    for other in [
        WireFormat::OpenAi,
        WireFormat::Anthropic,
        WireFormat::Gemini,
    ] {
        assert!(request.tools_in_namespaces(other).is_err(), "{other:?}");
    }

    // The model calls each as it travels; a bare name reaches only the top-level tool.
    let call = |id: &str, namespace: Option<&str>, name: &str| {
        let mut item = json!({"type": "function_call", "id": format!("fc_{id}"),
            "call_id": id, "name": name, "arguments": "{}", "status": "completed"});
        if let Some(namespace) = namespace {
            item["namespace"] = json!(namespace);
        }
        item
    };
    let body = json!({"object": "response", "output": [
        call("c1", Some("mcp_a"), "b_c"),
        call("c2", Some("mcp_a_b"), "c"),
        call("c3", Some("mcp_github"), "create_issue"),
        call("c4", None, "create_issue"),
        call("c5", Some("mcp_github"), "close_issue"),
        call("c6", Some("mcp_a"), "c"),
    ]});
    let calls = parse_calls(CallFormat::OpenAiResponses, &body).unwrap();
    let answers = request.answer_calls(&calls).await;
    let reached: Vec<Result<Value, &str>> = answers
        .iter()
        .map(|a| match &a.result {
            Ok(out) => Ok(out.output.to_value()),
            Err(err) => Err(err.kind()),
        })
        .collect();
    assert_eq!(
        reached,
        [
            Ok(json!("mcp/a/b_c")),
            Ok(json!("mcp/a_b/c")),
            Ok(json!("mcp/github/create_issue")),
            Ok(json!("create_issue")),
            Err("disabled"),
            Err("unknown_tool"),
        ]
    );
    assert!(matches!(
        answers[4].result,
        Err(DispatchError::Disabled { .. })
    ));
    // Each answer is a `function_call_output` for its `call_id`, namespaced or not.
    let wire = write_answers(CallFormat::OpenAiResponses, &answers);
    let ids: Vec<&Value> = wire.messages.iter().map(|m| &m["call_id"]).collect();
    assert_eq!(ids, ["c1", "c2", "c3", "c4", "c5", "c6"]);
    assert!(wire
        .messages
        .iter()
        .all(|m| m["type"] == "function_call_output"));
}

#[tokio::test]
async fn a_deferred_request_namespaces_its_pinned_tools_beside_the_meta_tools() {
    let catalog = CatalogPolicy::deferred(["mcp/github/create_issue"]).with_threshold(0);
    let runtime = runtime_of(&NAMES, catalog).await;
    let request = runtime.request();
    assert!(request.is_deferred());
    let flat = travelling(&request.tools(WireFormat::OpenAiResponses).unwrap());
    let list = travelling(
        &request
            .tools_in_namespaces(WireFormat::OpenAiResponses)
            .unwrap(),
    );
    // The meta-tools flat first, as in the flat list; the pinned tool inside its namespace;
    // the others are in the catalog, not in the list.
    let metas: Vec<&String> = flat.iter().filter(|n| !n.starts_with("mcp_")).collect();
    assert!(metas.iter().any(|n| *n == "tool_search"), "{flat:?}");
    let (first, rest) = list.split_at(metas.len());
    assert_eq!(first.iter().collect::<Vec<_>>(), metas);
    assert_eq!(rest, ["mcp_github.create_issue"]);
}

#[tokio::test]
async fn a_call_whose_namespace_is_its_own_name_is_the_top_level_function() {
    // The recorded gpt-5.4 shape (hosted tool_search loaded a deferred top-level function):
    // `"name": "get_weather", "namespace": "get_weather"`, and no namespace tool of that name.
    let runtime = runtime_of(
        &[
            "get_weather",
            "mcp/a/b_c",
            "mcp/a_b/c",
            "mcp/github/create_issue",
        ],
        CatalogPolicy::All,
    )
    .await;
    let request = runtime.request();
    // The flat form is the namespaced tool's own: called bare, it reaches that tool.
    let bare = request
        .dispatch("mcp_github_create_issue", json!({}))
        .await
        .unwrap();
    assert_eq!(bare.tool, "mcp/github/create_issue");
    let file = "openai-responses/response-namespace-own-name.json";
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/provider-wire/");
    let body: Value =
        serde_json::from_slice(&std::fs::read(format!("{path}{file}")).unwrap()).unwrap();
    let mut calls = parse_calls(CallFormat::OpenAiResponses, &body).unwrap();
    assert_eq!(
        (calls[0].name.as_str(), calls[0].namespace.as_deref()),
        ("get_weather", Some("get_weather"))
    );
    // The same call inside a namespace that is not its name is still unknown, and the rule
    // never splits a name or reaches a namespaced tool's flat form.
    let mut other = calls[0].clone();
    other.namespace = Some("weather".into());
    let mut flat_form = calls[0].clone();
    // `mcp_github_create_issue` is that tool's unique flat form: a bare call reaches it.
    flat_form.name = "mcp_github_create_issue".into();
    flat_form.namespace = Some("mcp_github_create_issue".into());
    calls.extend([other, flat_form]);
    let answers = request.answer_calls(&calls).await;
    let reached: Vec<Result<Value, &str>> = answers
        .iter()
        .map(|a| match &a.result {
            Ok(out) => Ok(out.output.to_value()),
            Err(err) => Err(err.kind()),
        })
        .collect();
    assert_eq!(
        reached,
        [
            Ok(json!("get_weather")),
            Err("unknown_tool"),
            Err("unknown_tool")
        ]
    );
}
