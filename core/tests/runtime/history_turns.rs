//! History never misroutes on any later turn (issue 26, point 4). History is sent again on
//! every turn after the one that made it, and the tool set can change in between (a backend's
//! `list_changed`, a restart, a tool switched on): a name history carries reaches, in the
//! conversation, the tool its call reached or no tool, never another, and a later tool that
//! would travel under that name is left out of the request, saying why.

use std::collections::BTreeMap;
use std::sync::Arc;

use proptest::prelude::*;
use serde_json::{json, Value};
use toolwire_core::names::model_safe_name;
use toolwire_core::provider::provider_fn;
use toolwire_core::runtime::{Conversation, ConversationState, RecordedName, Route};
use toolwire_core::wire::calls::{parse_calls, CallFormat};
use toolwire_core::wire::WhyLeftOut;
use toolwire_core::{ToolRuntime, WireFormat};
use toolwire_test_support::providers::tools;

/// Adds the provider `provider` of the tools `names`, each answering with its own real name.
pub(super) async fn add(runtime: &ToolRuntime, provider: &str, names: &[&str]) {
    let tools = provider_fn(
        provider,
        tools(names),
        |tool, _| async move { Ok(json!(tool)) },
    );
    let status = runtime.add_provider(Arc::new(tools)).await.unwrap();
    status.check().unwrap();
}

/// A response of `format` with one call of `name`.
pub(super) fn one_call(format: CallFormat, name: &str) -> Value {
    match format {
        CallFormat::OpenAiChat => {
            json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                "role": "assistant", "content": null,
                "tool_calls": [{"id": "call_1", "type": "function",
                                "function": {"name": name, "arguments": "{}"}}]}}]})
        }
        CallFormat::OpenAiResponses => json!({"output": [{"type": "function_call",
            "id": "fc_1", "call_id": "call_1", "name": name, "arguments": "{}"}]}),
        CallFormat::Anthropic => {
            json!({"content": [{"type": "tool_use", "id": "toolu_1", "name": name, "input": {}}]})
        }
        _ => json!({"output": {"message": {"role": "assistant", "content": [
            {"toolUse": {"toolUseId": "t1", "name": name, "input": {}}}]}}}),
    }
}

/// One turn of `conversation` in `format` whose model calls `name`: what the call reached
/// (the tool's real name, `meta`, or `None`), and the name the replayed turn carries for it.
pub(super) async fn turn(
    conversation: &Conversation,
    format: CallFormat,
    name: &str,
) -> (Option<String>, String) {
    let request = conversation.request();
    let body = one_call(format, name);
    let calls = parse_calls(format, &body).unwrap();
    let reached = match request.answer_calls(&calls).await.remove(0).result {
        Ok(outcome) if outcome.route == Route::Meta => Some("meta".to_owned()),
        Ok(outcome) => Some(outcome.tool),
        Err(_) => None,
    };
    let replay = request.replay_turn(format, &body, &calls).unwrap();
    let replayed = replay
        .renamed
        .first()
        .map_or_else(|| name.to_owned(), |r| r.replayed.clone());
    (reached, replayed)
}

/// What a call by `name` reaches in the conversation's next request: the tool, or `None`.
pub(super) async fn reaches(conversation: &Conversation, name: &str) -> Option<String> {
    let request = conversation.request();
    request.dispatch(name, json!({})).await.ok().map(|o| o.tool)
}

/// Why the conversation's next Chat Completions list leaves `tool` out, if it does.
pub(super) fn left_out_why(conversation: &Conversation, tool: &str) -> Option<WhyLeftOut> {
    let list = conversation.request().tools(WireFormat::OpenAi).unwrap();
    let why = list.left_out().iter().find(|t| t.name == tool);
    why.map(|t| t.reason.clone())
}

/// The function names of the conversation's next Chat Completions list.
pub(super) fn listed(conversation: &Conversation) -> Vec<String> {
    let list = conversation.request().tools(WireFormat::OpenAi).unwrap();
    let tools = list.as_array().unwrap().iter();
    tools
        .map(|t| t["function"]["name"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn a_tool_that_appears_under_a_replayed_form_never_gets_the_historys_calls() {
    let runtime = ToolRuntime::new();
    add(&runtime, "y", &["mcp/y/fetch"]).await;
    let conversation = runtime.conversation();
    // Turn 1: `mcp/y/fetch`, replayed under its unique form `mcp_y_fetch`: no alias.
    let (reached, replayed) = turn(&conversation, CallFormat::OpenAiChat, "mcp/y/fetch").await;
    assert_eq!(
        (reached.as_deref(), replayed.as_str()),
        (Some("mcp/y/fetch"), "mcp_y_fetch")
    );
    // Before turn 2, an app's `#[tool]` whose real name is that form appears.
    add(&runtime, "app", &["mcp_y_fetch"]).await;
    // Outside the conversation the name is the new tool's (the census says so)...
    let outside = runtime.request().dispatch("mcp_y_fetch", json!({})).await;
    assert_eq!(outside.unwrap().tool, "mcp_y_fetch");
    // ... but the model of turn 2 means the fetch it read in history, and that one runs.
    assert_eq!(
        reaches(&conversation, "mcp_y_fetch").await.as_deref(),
        Some("mcp/y/fetch")
    );
    // The new tool does not travel under the name history holds: left out, saying why.
    assert!(!listed(&conversation).contains(&"mcp_y_fetch".to_owned()));
    let why = WhyLeftOut::HistoryName {
        name: "mcp_y_fetch".into(),
        tool: "mcp/y/fetch".into(),
    };
    assert_eq!(left_out_why(&conversation, "mcp_y_fetch"), Some(why));
    assert_eq!(why_key(&conversation, "mcp_y_fetch"), "history_name");
}

/// The reason key of a tool the conversation's next list leaves out.
pub(super) fn why_key(conversation: &Conversation, tool: &str) -> &'static str {
    left_out_why(conversation, tool).map_or("carried", |why| why.key())
}

#[tokio::test]
async fn a_call_made_by_a_form_keeps_its_tool_when_another_takes_the_form() {
    let runtime = ToolRuntime::new();
    add(&runtime, "y", &["mcp/y/fetch"]).await;
    let conversation = runtime.conversation();
    // The model calls the form; history keeps it as called (Chat Completions takes it).
    let (reached, replayed) = turn(&conversation, CallFormat::OpenAiChat, "mcp_y_fetch").await;
    assert_eq!(
        (reached.as_deref(), replayed.as_str()),
        (Some("mcp/y/fetch"), "mcp_y_fetch")
    );
    // A backend's `list_changed`: a tool whose real name is that form.
    add(&runtime, "z", &["mcp_y_fetch"]).await;
    assert_eq!(
        reaches(&conversation, "mcp_y_fetch").await.as_deref(),
        Some("mcp/y/fetch")
    );
    assert_eq!(why_key(&conversation, "mcp_y_fetch"), "history_name");
    // A new conversation has no such history: the new tool travels and answers to its name.
    let fresh = runtime.conversation();
    assert_eq!(
        reaches(&fresh, "mcp_y_fetch").await.as_deref(),
        Some("mcp_y_fetch")
    );
    assert_eq!(why_key(&fresh, "mcp_y_fetch"), "carried");
}

#[tokio::test]
async fn a_history_name_whose_tool_is_gone_reaches_no_tool() {
    let runtime = ToolRuntime::new();
    add(&runtime, "y", &["mcp/y/fetch"]).await;
    let conversation = runtime.conversation();
    let (_, replayed) = turn(&conversation, CallFormat::Converse, "mcp/y/fetch").await;
    assert_eq!(replayed, "mcp_y_fetch");
    // A restart: the server is gone, and a tool of that form came in its place.
    assert!(runtime.remove_provider("y"));
    add(&runtime, "app", &["mcp_y_fetch"]).await;
    assert_eq!(reaches(&conversation, "mcp_y_fetch").await, None);
    assert_eq!(why_key(&conversation, "mcp_y_fetch"), "history_name");
    // The server back: its fetch answers again.
    add(&runtime, "y", &["mcp/y/fetch"]).await;
    assert_eq!(
        reaches(&conversation, "mcp_y_fetch").await.as_deref(),
        Some("mcp/y/fetch")
    );
}

#[tokio::test]
async fn a_tool_named_exactly_like_an_alias_never_gets_the_aliass_calls() {
    let runtime = ToolRuntime::new();
    add(&runtime, "x", &["mcp/x/search.web"]).await;
    add(&runtime, "app", &["mcp_x_search_web"]).await;
    let conversation = runtime.conversation();
    let (reached, alias) = turn(&conversation, CallFormat::Converse, "mcp/x/search.web").await;
    assert_eq!(reached.as_deref(), Some("mcp/x/search.web"));
    assert!(alias.starts_with("mcp_x_search_web_h"), "{alias}");
    // A tool whose real name is the alias appears.
    add(&runtime, "late", &[alias.as_str()]).await;
    assert_eq!(
        reaches(&conversation, &alias).await.as_deref(),
        Some("mcp/x/search.web")
    );
    assert_eq!(why_key(&conversation, &alias), "history_name");
    assert!(!listed(&conversation).contains(&alias));
}

#[tokio::test]
async fn a_namespaced_call_keeps_its_tool_when_another_tool_takes_its_pair() {
    let runtime = ToolRuntime::new();
    add(&runtime, "y", &["mcp/y/a.b"]).await;
    let conversation = runtime.conversation();
    // A Responses API call inside the server's namespace, by the pair it travels as.
    let body = json!({"output": [{"type": "function_call", "id": "fc_1", "call_id": "call_1",
        "namespace": "mcp_y", "name": "a_b", "arguments": "{}"}]});
    let request = conversation.request();
    let calls = parse_calls(CallFormat::OpenAiResponses, &body).unwrap();
    let answer = request.answer_calls(&calls).await.remove(0).result.unwrap();
    assert_eq!(answer.tool, "mcp/y/a.b");
    request
        .replay_turn(CallFormat::OpenAiResponses, &body, &calls)
        .unwrap();
    // The server's next list: that tool gone, another that travels as the same pair.
    assert!(runtime.remove_provider("y"));
    add(&runtime, "y", &["mcp/y/a_b"]).await;
    let request = conversation.request();
    let again = request.answer_calls(&calls).await.remove(0).result;
    assert!(again.is_err(), "{again:?}");
    let list = request
        .tools_in_namespaces(WireFormat::OpenAiResponses)
        .unwrap();
    let why = list.left_out().iter().find(|t| t.name == "mcp/y/a_b");
    assert_eq!(
        why.map(|t| t.reason.key()),
        Some("history_name"),
        "{list:?}"
    );
    // Outside the conversation the pair is the new tool's.
    let outside = runtime
        .request()
        .answer_calls(&calls)
        .await
        .remove(0)
        .result;
    assert_eq!(outside.unwrap().tool, "mcp/y/a_b");
}

#[tokio::test]
async fn the_recorded_names_survive_a_replica_that_lost_the_conversation() {
    let runtime = ToolRuntime::new();
    add(&runtime, "y", &["mcp/y/fetch"]).await;
    let conversation = runtime.conversation();
    turn(&conversation, CallFormat::OpenAiChat, "mcp/y/fetch").await;
    // What the app persists, as JSON, and another replica reads back.
    let saved = serde_json::to_string(&conversation.state()).unwrap();
    let record = RecordedName {
        name: "mcp_y_fetch".into(),
        namespace: None,
        tool: "mcp/y/fetch".into(),
    };
    // The called name too, which history does not carry: a replay of the turn again finds it.
    let called = RecordedName {
        name: "mcp/y/fetch".into(),
        ..record.clone()
    };
    let state: ConversationState = serde_json::from_str(&saved).unwrap();
    assert_eq!(state.history_names, [record, called], "{saved}");
    assert_eq!(state, conversation.state());
    // The other replica's tool set has the clashing tool too; the resumed conversation still
    // sends the history's calls to the tool they reached.
    let replica = ToolRuntime::new();
    add(&replica, "app", &["mcp_y_fetch"]).await;
    add(&replica, "y", &["mcp/y/fetch"]).await;
    let resumed = replica.resume(state);
    assert_eq!(
        reaches(&resumed, "mcp_y_fetch").await.as_deref(),
        Some("mcp/y/fetch")
    );
    assert_eq!(why_key(&resumed, "mcp_y_fetch"), "history_name");
}

#[tokio::test]
async fn a_call_that_reached_no_tool_records_nothing() {
    let runtime = ToolRuntime::new();
    add(&runtime, "y", &["mcp/y/fetch"]).await;
    let conversation = runtime.conversation();
    for invented in ["mcp/y/fetch2", "nothing", "mcp_zz"] {
        let (reached, _) = turn(&conversation, CallFormat::OpenAiChat, invented).await;
        assert_eq!(reached, None);
    }
    assert!(conversation.state().history_names.is_empty());
}

/// The formats whose history names are checked (Gemini's take any called name).
const FORMATS: [CallFormat; 4] = [
    CallFormat::OpenAiChat,
    CallFormat::OpenAiResponses,
    CallFormat::Anthropic,
    CallFormat::Converse,
];

/// Names built from parts that make forms meet (`/`, `.` and `_` all travel as `_`), and
/// sometimes a long tail the Messages API refuses in history.
fn tool_name() -> impl Strategy<Value = String> {
    let part = prop::sample::select(vec!["mcp", "x", "y", "fetch", "a"]);
    let sep = prop::sample::select(vec!["/", ".", "_"]);
    let long = prop::sample::select(vec!["", "", "", "", "l"]);
    (prop::collection::vec((part, sep), 1..4), long).prop_map(|(parts, long)| {
        let mut name: String = parts.iter().flat_map(|(p, s)| [*s, *p]).skip(1).collect();
        if !long.is_empty() {
            name.push('/');
            name.push_str(&"l".repeat(201));
        }
        name
    })
}

/// The Responses API pair an MCP tool `mcp/<server>/<tool>` travels as inside its server's
/// namespace, when its name has one (`Census::namespace_placements`).
fn pair_of(name: &str) -> Option<(String, String)> {
    let (server, tool) = name.strip_prefix("mcp/")?.split_once('/')?;
    let namespace = model_safe_name(&format!("mcp/{server}")).into_owned();
    Some((namespace, model_safe_name(tool).into_owned()))
}

/// A body of one Responses API call of `name` made inside `namespace`.
fn namespaced_call(namespace: &str, name: &str) -> Value {
    json!({"output": [{"type": "function_call", "id": "fc_1", "call_id": "call_1",
        "namespace": namespace, "name": name, "arguments": "{}"}]})
}

/// [`turn`] for a Responses API call made inside `namespace`.
async fn namespaced_turn(
    conversation: &Conversation,
    namespace: &str,
    name: &str,
) -> (Option<String>, String) {
    let request = conversation.request();
    let body = namespaced_call(namespace, name);
    let calls = parse_calls(CallFormat::OpenAiResponses, &body).unwrap();
    let reached = match request.answer_calls(&calls).await.remove(0).result {
        Ok(outcome) if outcome.route == Route::Meta => Some("meta".to_owned()),
        Ok(outcome) => Some(outcome.tool),
        Err(_) => None,
    };
    let replay = (request.replay_turn(CallFormat::OpenAiResponses, &body, &calls)).unwrap();
    let replayed = (replay.renamed.first()).map_or_else(|| name.to_owned(), |r| r.replayed.clone());
    (reached, replayed)
}

/// [`reaches`] for a call made inside `namespace`, when it is.
async fn reaches_in(
    conversation: &Conversation,
    namespace: Option<&str>,
    name: &str,
) -> Option<String> {
    let Some(namespace) = namespace else {
        return reaches(conversation, name).await;
    };
    let request = conversation.request();
    let calls = parse_calls(
        CallFormat::OpenAiResponses,
        &namespaced_call(namespace, name),
    )
    .unwrap();
    request
        .answer_calls(&calls)
        .await
        .remove(0)
        .result
        .ok()
        .map(|o| o.tool)
}

/// One turn of the property test: which tools are present (by index into the universe), how
/// the model names its call, and in which format.
#[derive(Clone, Debug)]
struct Turn {
    present: Vec<bool>,
    pick: prop::sample::Index,
    how: u8,
    format: usize,
}

fn turns(universe: usize) -> impl Strategy<Value = Vec<Turn>> {
    let one = (
        prop::collection::vec(any::<bool>(), universe),
        any::<prop::sample::Index>(),
        0..5u8,
        0..FORMATS.len(),
    )
        .prop_map(|(present, pick, how, format)| Turn {
            present,
            pick,
            how,
            format,
        });
    prop::collection::vec(one, 2..5)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Issue 26, point 4, over every later turn: tools added and removed between turns (one of
    /// them often a tool whose real name is another's form), calls by real names, forms, shared
    /// forms and earlier history names; on each later turn, a call by every earlier history
    /// name reaches the tool its call reached, or no tool, never another, and no other tool
    /// travels under it.
    #[test]
    fn a_history_name_reaches_its_tool_or_none_on_every_later_turn(
        (universe, script) in prop::collection::btree_set(tool_name(), 1..5)
            .prop_flat_map(|names| {
                let mut names: Vec<String> = names.into_iter().collect();
                // A tool whose name is an earlier tool's form, to come and go.
                let form = model_safe_name(&names[0]).into_owned();
                if !names.contains(&form) {
                    names.push(form);
                }
                let n = names.len();
                (Just(names), turns(n))
            }),
    ) {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async {
            let runtime = ToolRuntime::new();
            let conversation = runtime.conversation();
            let mut on = vec![false; universe.len()];
            // Each history name, with what its call reached.
            // Keyed by the Responses API namespace a call was made in, if any, and the name.
            let mut history: BTreeMap<(Option<String>, String), Option<String>> = BTreeMap::new();
            for step in &script {
                for (i, name) in universe.iter().enumerate() {
                    let provider = format!("p{i}");
                    if step.present[i] && !on[i] {
                        add(&runtime, &provider, &[name.as_str()]).await;
                    } else if !step.present[i] && on[i] {
                        runtime.remove_provider(&provider);
                    }
                    on[i] = step.present[i];
                }
                // Every earlier history name, in this census.
                for ((namespace, name), reached) in &history {
                    let Some(tool) = reached else { continue };
                    if tool == "meta" {
                        continue;
                    }
                    // Its tool there: reached by the name; gone: no tool (nothing else can
                    // keep a tool of this set from answering: none is switched off or down).
                    let now = reaches_in(&conversation, namespace.as_deref(), name).await;
                    let there = universe.iter().zip(&on).any(|(n, on)| *on && n == tool);
                    prop_assert_eq!(
                        now.as_ref(), there.then_some(tool),
                        "`{}` reached `{}` (there now: {})", name, tool, there
                    );
                    let census = conversation.request().census().clone();
                    for other in census.tools().iter().filter(|t| t.is_offered()) {
                        if namespace.is_none() && other.form() == name && other.name() != tool {
                            let why = why_key(&conversation, other.name());
                            prop_assert_eq!(why, "history_name", "`{}` under `{}`", other.name(), name);
                        }
                    }
                }
                // This turn's call: a real name, its form, an earlier history name, a stray.
                let present: Vec<&String> = universe.iter().zip(&on).filter(|(_, on)| **on).map(|(n, _)| n).collect();
                let earlier: Vec<&(Option<String>, String)> = history.keys().collect();
                let (namespace, called): (Option<String>, String) = match step.how {
                    0 if !present.is_empty() => (None, step.pick.get(&present).to_string()),
                    1 if !present.is_empty() => (None, model_safe_name(step.pick.get(&present).as_str()).into_owned()),
                    2 if !earlier.is_empty() => (*step.pick.get(&earlier)).clone(),
                    // A Responses API call inside the namespace of an MCP tool, by its pair.
                    3 if !present.is_empty() => match pair_of(step.pick.get(&present).as_str()) {
                        Some((namespace, name)) => (Some(namespace), name),
                        None => (None, "mcp/none.here".to_owned()),
                    },
                    _ => (None, "mcp/none.here".to_owned()),
                };
                let (reached, replayed) = match &namespace {
                    None => turn(&conversation, FORMATS[step.format], &called).await,
                    Some(namespace) => namespaced_turn(&conversation, namespace, &called).await,
                };
                // A call by an earlier history name reaches what that name's call reached, or none.
                if let Some(Some(before)) = history.get(&(namespace.clone(), called.clone())) {
                    if before != "meta" {
                        let there = present.contains(&before);
                        prop_assert_eq!(
                            reached.as_ref(), there.then_some(before),
                            "`{}` reached `{}` (there now: {})", called, before, there
                        );
                    }
                }
                // A name keeps the first tool it reached (a name that reached none records none).
                let kept = history.entry((namespace, replayed)).or_insert(None);
                if kept.is_none() {
                    *kept = reached;
                }
            }
            Ok(())
        })?;
    }
}
