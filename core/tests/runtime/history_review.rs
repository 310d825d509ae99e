//! What a review of the history records found (issue 26, point 4): the catalog's meta-tools
//! and the errors hand out only names that reach the tool they name, a meta-tool's name stays
//! the runtime's, and a call by a recorded name says it went by history.

use std::sync::Arc;

use serde_json::{json, Value};
use toolwire_core::provider::provider_fn;
use toolwire_core::runtime::{ConversationState, DispatchError, Route};
use toolwire_core::wire::calls::{parse_calls, CallFormat};
use toolwire_core::{ToolRuntime, WireFormat};
use toolwire_test_support::providers::tools;

use super::history_turns::{add, reaches, turn};

/// The output of the meta-tool `meta` called with `arguments` in the conversation's next
/// request.
async fn meta(
    conversation: &toolwire_core::runtime::Conversation,
    meta: &str,
    arguments: Value,
) -> Value {
    let out = conversation
        .request()
        .dispatch(meta, arguments)
        .await
        .unwrap();
    assert_eq!(out.route, Route::Meta);
    out.output.to_value()
}

#[tokio::test]
async fn tool_schema_describes_the_tool_a_call_by_the_name_reaches() {
    let runtime = ToolRuntime::new();
    add(&runtime, "y", &["mcp/y/fetch"]).await;
    let conversation = runtime.conversation();
    turn(&conversation, CallFormat::OpenAiChat, "mcp/y/fetch").await;
    // A tool whose real name is the recorded form appears: a call by it reaches the fetch.
    add(&runtime, "app", &["mcp_y_fetch"]).await;
    // `tool_schema` speaks of the fetch (which the census keeps out of the list: its form is
    // the app tool's name), never describes the app's tool.
    let asked = (conversation.request())
        .dispatch("tool_schema", json!({"name": "mcp_y_fetch"}))
        .await;
    match asked {
        Ok(out) => assert_eq!(out.output.to_value()["name"], "mcp/y/fetch"),
        Err(err) => assert!(err.to_string().contains("`mcp/y/fetch`"), "{err}"),
    }
    assert_eq!(
        reaches(&conversation, "mcp_y_fetch").await.as_deref(),
        Some("mcp/y/fetch")
    );
}

#[tokio::test]
async fn tool_search_never_hands_out_a_name_recorded_for_another_tool() {
    let runtime = ToolRuntime::new();
    add(&runtime, "y", &["mcp/y/fetch"]).await;
    let conversation = runtime.conversation();
    turn(&conversation, CallFormat::OpenAiChat, "mcp/y/fetch").await;
    add(&runtime, "app", &["mcp_y_fetch"]).await;
    let found = meta(
        &conversation,
        "tool_search",
        json!({"query": "mcp y fetch"}),
    )
    .await;
    // Every name handed out reaches the tool it is handed out for.
    for hit in found["tools"].as_array().unwrap() {
        let (name, form) = (hit["name"].as_str().unwrap(), hit["form"].as_str().unwrap());
        assert_eq!(
            reaches(&conversation, form).await.as_deref(),
            Some(name),
            "{found}"
        );
    }
    // The app's tool, whose every name history holds for the fetch, is left out, saying so.
    let left_out = found["left_out"].as_array().expect("a left_out list");
    assert_eq!(left_out[0]["name"], "mcp_y_fetch", "{found}");
    assert!(
        left_out[0]["reason"].as_str().unwrap().contains("history"),
        "{found}"
    );
}

#[tokio::test]
async fn search_gives_a_hit_whose_form_is_recorded_for_a_gone_tool_its_real_name() {
    let runtime = ToolRuntime::new();
    add(&runtime, "y", &["mcp/y/fetch"]).await;
    let conversation = runtime.conversation();
    turn(&conversation, CallFormat::OpenAiChat, "mcp/y/fetch").await;
    // A restart: the fetch is gone, and a tool of the same form came in its place.
    assert!(runtime.remove_provider("y"));
    add(&runtime, "z", &["mcp/y.fetch"]).await;
    let hits = conversation.request().search("fetch", 5);
    let hit = hits
        .iter()
        .find(|h| h.name == "mcp/y.fetch")
        .expect("a hit");
    assert_eq!(hit.form, "mcp/y.fetch");
    assert_eq!(
        reaches(&conversation, &hit.form).await.as_deref(),
        Some("mcp/y.fetch")
    );
}

#[tokio::test]
async fn a_meta_tool_name_stays_the_runtimes_whatever_a_saved_state_recorded() {
    let runtime = ToolRuntime::new();
    add(&runtime, "y", &["mcp/y/fetch"]).await;
    let state: ConversationState = serde_json::from_value(json!({
        "history_names": [{"name": "reset_tools", "tool": "mcp/y/fetch"}]
    }))
    .unwrap();
    let conversation = runtime.resume(state);
    let out = conversation
        .request()
        .dispatch("reset_tools", json!({}))
        .await
        .unwrap();
    assert_eq!((out.tool.as_str(), out.route), ("reset_tools", Route::Meta));
}

#[tokio::test]
async fn a_recorded_name_whose_tool_is_gone_says_so_and_suggests_only_names_that_reach() {
    let runtime = ToolRuntime::new();
    add(&runtime, "y", &["mcp/y/fetch"]).await;
    let conversation = runtime.conversation();
    turn(&conversation, CallFormat::OpenAiChat, "mcp/y/fetch").await;
    assert!(runtime.remove_provider("y"));
    add(&runtime, "z", &["mcp/y.fetch"]).await;
    let err = (conversation.request())
        .dispatch("mcp_y_fetch", json!({}))
        .await
        .unwrap_err();
    let DispatchError::ToolGone {
        called,
        tool,
        closest,
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!(
        (called.as_str(), tool.as_str()),
        ("mcp_y_fetch", "mcp/y/fetch")
    );
    // The form of the new tool is the name just called: never suggested.
    assert!(!closest.contains(&"mcp_y_fetch".to_owned()), "{err}");
    assert!(err.to_string().contains("is gone"), "{err}");
}

#[tokio::test]
async fn a_call_by_a_recorded_alias_says_it_went_by_history() {
    let runtime = ToolRuntime::new();
    add(&runtime, "x", &["mcp/x/search.web"]).await;
    add(&runtime, "app", &["mcp_x_search_web"]).await;
    let conversation = runtime.conversation();
    let (_, alias) = turn(&conversation, CallFormat::Converse, "mcp/x/search.web").await;
    assert!(alias.starts_with("mcp_x_search_web_h"), "{alias}");
    let out = conversation
        .request()
        .dispatch(&alias, json!({}))
        .await
        .unwrap();
    assert_eq!(
        (out.tool.as_str(), out.route),
        ("mcp/x/search.web", Route::History)
    );
    // By its real name it is the exact match still.
    let out = (conversation.request())
        .dispatch("mcp/x/search.web", json!({}))
        .await
        .unwrap();
    assert_eq!(out.route, Route::Exact);
}

/// A turn of `conversation` whose model calls `name` inside the Responses API namespace
/// `namespace`, answered and replayed: the real name of the tool it reached.
async fn namespaced_turn(
    conversation: &toolwire_core::runtime::Conversation,
    namespace: &str,
    name: &str,
) -> String {
    let body = json!({"output": [{"type": "function_call", "id": "fc_1", "call_id": "call_1",
        "namespace": namespace, "name": name, "arguments": "{}"}]});
    let request = conversation.request();
    let calls = parse_calls(CallFormat::OpenAiResponses, &body).unwrap();
    let answer = request.answer_calls(&calls).await.remove(0).result.unwrap();
    (request.replay_turn(CallFormat::OpenAiResponses, &body, &calls)).unwrap();
    answer.tool
}

/// A list's `(namespace, name)` pairs, and each left-out tool with its reason's key.
type Placed = (Vec<(Option<String>, String)>, Vec<(String, &'static str)>);

/// The `(namespace, name)` pairs of the conversation's next namespaced list (`None` for a
/// flat tool), and why it leaves out each tool it leaves out.
fn namespaced(conversation: &toolwire_core::runtime::Conversation) -> Placed {
    let list = (conversation.request())
        .tools_in_namespaces(WireFormat::OpenAiResponses)
        .unwrap();
    let mut pairs = Vec::new();
    for tool in list.as_array().unwrap() {
        let name = tool["name"].as_str().unwrap().to_owned();
        match tool["tools"].as_array() {
            Some(inside) => pairs.extend(
                inside
                    .iter()
                    .map(|t| (Some(name.clone()), t["name"].as_str().unwrap().to_owned())),
            ),
            None => pairs.push((None, name)),
        }
    }
    let why = list
        .left_out()
        .iter()
        .map(|t| (t.name.clone(), t.reason.key()));
    (pairs, why.collect())
}

/// Adds `mcp/x/y.z` and `mcp/x.y/z`, which share the flat form `mcp_x_y_z` (so their load
/// reports it, and neither is offered flat) and are each lifted by a pair of their own.
async fn add_sharing(runtime: &ToolRuntime) {
    let both = provider_fn(
        "w",
        tools(&["mcp/x/y.z", "mcp/x.y/z"]),
        |tool, _| async move { Ok(json!(tool)) },
    );
    let status = runtime.add_provider(Arc::new(both)).await.unwrap();
    assert!(status.check().is_err(), "the shared form is reported");
}

/// A pair of strings as the namespaced list carries it.
fn pair(namespace: &str, name: &str) -> (Option<String>, String) {
    (Some(namespace.to_owned()), name.to_owned())
}

#[tokio::test]
async fn a_tool_lifted_by_its_pair_never_travels_under_a_pair_recorded_for_another() {
    let runtime = ToolRuntime::new();
    add(&runtime, "x", &["mcp/x/y_z"]).await;
    let conversation = runtime.conversation();
    assert_eq!(
        namespaced_turn(&conversation, "mcp_x", "y_z").await,
        "mcp/x/y_z"
    );
    assert!(runtime.remove_provider("x"));
    // Two tools that share the flat form `mcp_x_y_z` (neither is offered flat), each lifted
    // by a pair of its own: `(mcp_x, y_z)`, the recorded one, and `(mcp_x_y, z)`.
    add_sharing(&runtime).await;
    let (pairs, why) = namespaced(&conversation);
    assert!(!pairs.contains(&pair("mcp_x", "y_z")), "{pairs:?}");
    assert!(
        why.contains(&("mcp/x/y.z".to_owned(), "history_name")),
        "{why:?}"
    );
    assert!(pairs.contains(&pair("mcp_x_y", "z")), "{pairs:?}");
}

#[tokio::test]
async fn tools_lifted_by_their_pairs_still_travel_when_another_tool_is_taken() {
    let runtime = ToolRuntime::new();
    add(&runtime, "y", &["mcp/y/a.b"]).await;
    let conversation = runtime.conversation();
    assert_eq!(
        namespaced_turn(&conversation, "mcp_y", "a_b").await,
        "mcp/y/a.b"
    );
    assert!(runtime.remove_provider("y"));
    // A tool that travels as the recorded pair (left out), and two lifted by their own.
    add(&runtime, "y", &["mcp/y/a_b"]).await;
    add_sharing(&runtime).await;
    let (pairs, why) = namespaced(&conversation);
    assert!(
        why.contains(&("mcp/y/a_b".to_owned(), "history_name")),
        "{why:?}"
    );
    assert!(pairs.contains(&pair("mcp_x", "y_z")), "{pairs:?} {why:?}");
    assert!(pairs.contains(&pair("mcp_x_y", "z")), "{pairs:?} {why:?}");
}

#[tokio::test]
async fn an_old_saved_state_keeps_its_aliases_on_resume() {
    let runtime = ToolRuntime::new();
    add(&runtime, "x", &["mcp/x/search.web"]).await;
    // A state as main saved it before names were recorded with their tool: `aliases`.
    let alias = "mcp_x_search_web_h0badf00";
    let old = json!({"loaded": [], "aliases": {alias: {"called": "mcp/x/search.web"}}});
    let state: ConversationState = serde_json::from_value(old).unwrap();
    // A tool whose real name is the alias has appeared since.
    add(&runtime, "late", &[alias]).await;
    let resumed = runtime.resume(state);
    assert_eq!(
        reaches(&resumed, alias).await.as_deref(),
        Some("mcp/x/search.web")
    );
    let records = resumed.state().history_names;
    assert_eq!(
        (records[0].name.as_str(), records[0].tool.as_str()),
        (alias, "mcp/x/search.web")
    );
    // Written back in the new shape only.
    let saved = serde_json::to_value(resumed.state()).unwrap();
    assert!(saved.get("aliases").is_none(), "{saved}");
}
