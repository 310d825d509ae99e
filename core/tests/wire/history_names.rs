//! Issue 26, point 4: history never misroutes. A called name the provider refuses in history
//! is replayed under a name that, in the census of the request it travels with, reaches the
//! tool that was called or no tool at all, never another.

use std::sync::Arc;

use serde_json::{json, Value};
use toolwire_core::provider::provider_fn;
use toolwire_core::runtime::Conversation;
use toolwire_core::wire::calls::{parse_calls, CallFormat};
use toolwire_core::ToolRuntime;
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
        runtime.add_provider(Arc::new(tools)).await.unwrap();
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
    (reached, replay.turn)
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
    // The alias is the conversation's: it persists with its state.
    let state = serde_json::to_value(conversation.state()).unwrap();
    assert_eq!(
        state["aliases"][&replayed]["called"], "mcp/x/search.web",
        "{state}"
    );
    let resumed = runtime.resume(conversation.state());
    let (reached, _) = turn(&resumed, &chat_call("call_3", &replayed)).await;
    assert_eq!(reached, ["mcp/x/search.web"]);
}
