//! History never misroutes. A called name the provider refuses in history
//! is replayed under a name that, in the census of the request it travels with, reaches the
//! tool that was called or no tool at all, never another.

use std::collections::BTreeSet;
use std::sync::Arc;

use proptest::prelude::*;
use serde_json::{json, Value};
use toolwire_core::census::{Resolution, UnknownTool};
use toolwire_core::names::{model_safe_name, DEFAULT_META_TOOLS};
use toolwire_core::provider::provider_fn;
use toolwire_core::runtime::Conversation;
use toolwire_core::wire::calls::{parse_calls, CallFormat};
use toolwire_core::wire::replay::{refused_in_history, replay_turn_in};
use toolwire_core::{Census, ToolRuntime};
use toolwire_test_support::providers::tools;

/// A runtime of an MCP-style tool `mcp/x/search.web` and, from another provider (as an app's
/// `#[tool]` registers it), a tool whose real name is that tool's form, `mcp_x_search_web`.
/// Each tool answers with its own real name.
async fn clashing_runtime() -> ToolRuntime {
    let runtime = ToolRuntime::new();
    for (provider, name) in [("app", "mcp_x_search_web"), ("x", "mcp/x/search.web")] {
        let tools = provider_fn(provider, tools(&[name]), |tool, _| async move {
            Ok(json!(tool))
        });
        runtime
            .add_provider(Arc::new(tools))
            .await
            .unwrap()
            .check()
            .unwrap();
    }
    runtime
}

/// A Chat Completions response calling `name` once, with id `id`.
fn chat_call(id: &str, name: &str) -> Value {
    json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": null,
        "tool_calls": [{"id": id, "type": "function",
                        "function": {"name": name, "arguments": "{}"}}]}}]})
}

/// One turn of `conversation`: the calls of `body` answered; the tool each reached, and the
/// replayed turn the next request carries.
async fn turn(conversation: &Conversation, body: &Value) -> (Vec<String>, Value) {
    let request = conversation.request();
    let calls = parse_calls(CallFormat::OpenAiChat, body).unwrap();
    let reached = request
        .answer_calls(&calls)
        .await
        .into_iter()
        .map(|answer| match answer.result {
            Ok(outcome) => outcome.tool,
            Err(err) => format!("no tool: {err}"),
        })
        .collect();
    let replay = request
        .replay_turn(CallFormat::OpenAiChat, body, &calls)
        .unwrap();
    (reached, replay.turn.into_owned())
}

#[tokio::test]
async fn a_name_renamed_for_history_never_reaches_another_tool() {
    let runtime = clashing_runtime().await;
    let conversation = runtime.conversation();
    // 1. The model calls `mcp/x/search.web` by its real name (read in the catalog): it runs.
    let (reached, history) = turn(&conversation, &chat_call("call_1", "mcp/x/search.web")).await;
    assert_eq!(reached, ["mcp/x/search.web"]);
    // Chat Completions refuses `/` and `.` in a replayed name: history carries another name.
    let replayed = history["tool_calls"][0]["function"]["name"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_ne!(replayed, "mcp/x/search.web");
    // 2. The next turn's model calls the name it reads in history: the tool that was called runs.
    let (reached, again) = turn(&conversation, &chat_call("call_2", &replayed)).await;
    assert_eq!(reached, ["mcp/x/search.web"], "called as `{replayed}`");
    // 3. It is not the offered tool's name `mcp_x_search_web`, nor any name a tool answers to.
    assert_ne!(replayed, "mcp_x_search_web");
    assert!(
        runtime.request().census().resolve(&replayed).is_err(),
        "{replayed}"
    );
    // And replayed again, the alias stays the alias.
    assert_eq!(
        again["tool_calls"][0]["function"]["name"],
        replayed.as_str()
    );
    // The alias is the conversation's, with the tool it reached: it persists with its state.
    let state = serde_json::to_value(conversation.state()).unwrap();
    let record = json!({"name": replayed, "tool": "mcp/x/search.web"});
    assert!(
        state["history_names"].as_array().unwrap().contains(&record),
        "{state}"
    );
    let resumed = runtime.resume(conversation.state());
    let (reached, _) = turn(&resumed, &chat_call("call_3", &replayed)).await;
    assert_eq!(reached, ["mcp/x/search.web"]);
}

#[tokio::test]
async fn a_call_that_reached_no_tool_leaves_no_alias_in_the_conversation() {
    let runtime = clashing_runtime().await;
    let conversation = runtime.conversation();
    // A model may call any name: one no tool answers to, refused in Chat history.
    let invented = "mcp/zz/nothing.here";
    let (reached, history) = turn(&conversation, &chat_call("call_1", invented)).await;
    assert!(reached[0].starts_with("no tool"), "{reached:?}");
    let replayed = history["tool_calls"][0]["function"]["name"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_ne!(replayed, invented);
    // Its history name is kept nowhere, so the state cannot grow by what the model invents...
    let state = serde_json::to_value(conversation.state()).unwrap();
    assert!(state.get("history_names").is_none(), "{state}");
    // ... and called again, it still reaches no tool, as the call it stands for did.
    let (reached, _) = turn(&conversation, &chat_call("call_2", &replayed)).await;
    assert!(reached[0].starts_with("no tool"), "{reached:?}");
}

/// The formats whose providers refuse some called names in history (Gemini refuses none).
const RENAMING: [CallFormat; 4] = [
    CallFormat::OpenAiChat,
    CallFormat::OpenAiResponses,
    CallFormat::Anthropic,
    CallFormat::Converse,
];

/// A response of `format` with one call of `name` (in `namespace`, Responses only).
fn one_call(format: CallFormat, name: &str, namespace: Option<&str>) -> Value {
    match format {
        CallFormat::OpenAiChat => chat_call("call_1", name),
        CallFormat::OpenAiResponses => {
            let mut item = json!({"type": "function_call", "id": "fc_1", "call_id": "call_1",
                                  "name": name, "arguments": "{}"});
            if let Some(namespace) = namespace {
                item["namespace"] = json!(namespace);
            }
            json!({"output": [item]})
        }
        CallFormat::Anthropic => {
            json!({"content": [{"type": "tool_use", "id": "toolu_1", "name": name, "input": {}}]})
        }
        _ => json!({"output": {"message": {"role": "assistant", "content": [
            {"toolUse": {"toolUseId": "t1", "name": name, "input": {}}}]}}}),
    }
}

/// Whether two resolutions reach the same tool (by any way), the same meta-tool, or none.
fn same_target(
    a: &Result<Resolution<'_>, UnknownTool>,
    b: &Result<Resolution<'_>, UnknownTool>,
) -> bool {
    match (a, b) {
        (Ok(Resolution::Tool(a)), Ok(Resolution::Tool(b))) => a.index == b.index,
        (Ok(Resolution::Meta(a)), Ok(Resolution::Meta(b))) => a == b,
        (Err(_), Err(_)) => true,
        _ => false,
    }
}

/// Names built from parts that make forms meet: `/`, `.` and `_` all travel as `_`, a long
/// tail is cut to one 64-character form (and is refused by the Messages API's 200), and a real
/// name may be another's form.
fn tool_name() -> impl Strategy<Value = String> {
    let part = prop::sample::select(vec!["mcp", "x", "search", "web", "a", "b", "tool_search"]);
    let sep = prop::sample::select(vec!["/", ".", "_", ":"]);
    let long = prop::sample::select(vec!["", "", "", "l"]);
    (prop::collection::vec((part, sep), 1..4), long, 0..3usize).prop_map(|(parts, long, tail)| {
        let mut name: String = parts.iter().flat_map(|(p, s)| [*s, *p]).skip(1).collect();
        if !long.is_empty() {
            name.push('/');
            name.push_str(&"l".repeat(201));
            name.push_str(&"z".repeat(tail));
        }
        name
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Issue 26, point 4: in every format that renames, `resolve(replayed)` is
    /// `resolve(called)` or nothing; a unique offered form is used where the format takes it;
    /// an alias reaches no tool.
    #[test]
    fn a_replayed_name_reaches_the_called_tool_or_none(
        names in prop::collection::btree_set(tool_name(), 1..8),
        pick in any::<prop::sample::Index>(),
        how in 0..4u8,
        stray in tool_name(),
        namespaced in any::<bool>(),
        form_taken in any::<bool>(),
    ) {
        let mut names = names;
        // Often a tool whose real name is another's form (an app's `#[tool]` beside an MCP tool).
        if form_taken {
            let first = names.iter().next().unwrap().clone();
            names.insert(model_safe_name(&first).into_owned());
        }
        let census = Census::build(&names, &DEFAULT_META_TOOLS);
        let names: Vec<&String> = names.iter().collect();
        let real = pick.get(&names).as_str();
        let shared: BTreeSet<&str> = census.collisions().keys().map(String::as_str).collect();
        // A real name, a form, a shared form (when there is one), or a name of no tool.
        let called = match how {
            0 => real.to_owned(),
            1 => model_safe_name(real).into_owned(),
            2 => shared.iter().next().map_or_else(|| real.to_owned(), |f| (*f).to_owned()),
            _ => stray,
        };
        for format in RENAMING {
            let namespace = (namespaced && format == CallFormat::OpenAiResponses).then_some("mcp_x");
            let body = one_call(format, &called, namespace);
            let calls = parse_calls(format, &body).unwrap();
            let replay = replay_turn_in(format, &body, &calls, &census).unwrap();
            let before = census.resolve_call(namespace, &called);
            let Some(renamed) = replay.renamed.first() else {
                prop_assert!(!refused_in_history(format, &called), "{format}: `{called}` kept");
                continue;
            };
            let replayed = renamed.replayed.as_str();
            prop_assert!(!refused_in_history(format, replayed), "{format}: `{replayed}` refused");
            let after = census.resolve_call(namespace, replayed);
            prop_assert!(
                same_target(&before, &after) || after.is_err(),
                "{format}: `{called}` ({before:?}) replayed as `{replayed}` ({after:?})"
            );
            if renamed.alias {
                prop_assert!(after.is_err(), "{format}: alias `{replayed}` reaches {after:?}");
                prop_assert!(census.resolve(replayed).is_err(), "{format}: alias `{replayed}`");
            } else {
                prop_assert!(same_target(&before, &after), "{format}: `{replayed}` {after:?}");
            }
            // Where the called tool's offered form is its own and the format takes it, it is used.
            if let (None, Ok(Resolution::Tool(hit))) = (namespace, &before) {
                let tool = &census.tools()[hit.index];
                let own = tool.is_offered()
                    && matches!(census.resolve(tool.form()), Ok(Resolution::Tool(h)) if h.index == hit.index)
                    && !refused_in_history(format, tool.form());
                if own {
                    prop_assert_eq!(replayed, tool.form(), "{}", format);
                }
            }
        }
    }
}
