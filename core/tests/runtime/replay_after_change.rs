//! What a replay records is the tool the call ran, not what its name reaches when the turn is
//! replayed (issue 26 §4, §6): the tool set can change between a turn's calls and its replay
//! (a backend's `list_changed` between `answer_calls` on the turn's request and
//! `replay_turn` on the next one, which the history travels with). Before the fix the replay
//! resolved each called name again in the replaying request's census and recorded what it
//! reached there, so a tool that had taken the call's name since was recorded as the tool the
//! call reached, and the next turn's call by that name ran it.

use serde_json::json;
use toolwire_core::runtime::{Conversation, RecordedName};
use toolwire_core::wire::calls::{parse_calls, CallFormat};
use toolwire_core::ToolRuntime;

use crate::history_turns::{add, listed, one_call, reaches, why_key};

/// The tool each record of `name` names.
fn recorded(conversation: &Conversation, name: &str) -> Vec<String> {
    let state = conversation.state();
    let records = state.history_names.iter().filter(|r| r.name == name);
    records.map(|r| r.tool.clone()).collect()
}

#[tokio::test]
async fn a_tool_that_takes_the_called_name_before_the_replay_is_not_recorded_for_it() {
    let runtime = ToolRuntime::new();
    add(&runtime, "y", &["mcp/y/fetch"]).await;
    let conversation = runtime.conversation();
    // The turn: the model calls the form, which reaches `mcp/y/fetch`.
    let asked = conversation.request();
    let body = one_call(CallFormat::OpenAiChat, "mcp_y_fetch");
    let calls = parse_calls(CallFormat::OpenAiChat, &body).unwrap();
    let answers = asked.answer_calls(&calls).await;
    assert_eq!(answers[0].result.as_ref().unwrap().tool, "mcp/y/fetch");
    // Before the turn is replayed, a tool whose real name is that form appears.
    add(&runtime, "z", &["mcp_y_fetch"]).await;
    let next = conversation.request();
    let replay = next
        .replay_turn(CallFormat::OpenAiChat, &body, &calls)
        .unwrap();
    assert!(replay.renamed.is_empty(), "{:?}", replay.renamed);
    assert_eq!(recorded(&conversation, "mcp_y_fetch"), ["mcp/y/fetch"]);
    // The history's name reaches the tool that ran, and the newcomer does not travel under it.
    assert_eq!(
        reaches(&conversation, "mcp_y_fetch").await.as_deref(),
        Some("mcp/y/fetch")
    );
    assert_eq!(why_key(&conversation, "mcp_y_fetch"), "history_name");
    assert!(!listed(&conversation).contains(&"mcp_y_fetch".to_owned()));
}

#[tokio::test]
async fn a_replay_after_the_tool_that_ran_is_gone_records_it_and_reaches_no_other() {
    let runtime = ToolRuntime::new();
    add(&runtime, "y", &["mcp/y/fetch"]).await;
    let conversation = runtime.conversation();
    let asked = conversation.request();
    let body = one_call(CallFormat::Anthropic, "mcp_y_fetch");
    let calls = parse_calls(CallFormat::Anthropic, &body).unwrap();
    asked.answer_calls(&calls).await;
    // A restart between the call and its replay: the server gone, a tool of its form instead.
    assert!(runtime.remove_provider("y"));
    add(&runtime, "app", &["mcp_y_fetch"]).await;
    conversation
        .request()
        .replay_turn(CallFormat::Anthropic, &body, &calls)
        .unwrap();
    let fetch = RecordedName {
        name: "mcp_y_fetch".into(),
        namespace: None,
        tool: "mcp/y/fetch".into(),
    };
    assert_eq!(conversation.state().history_names, [fetch]);
    assert_eq!(reaches(&conversation, "mcp_y_fetch").await, None);
    // The server back: the history's call reaches its tool again.
    add(&runtime, "y", &["mcp/y/fetch"]).await;
    assert_eq!(
        reaches(&conversation, "mcp_y_fetch").await.as_deref(),
        Some("mcp/y/fetch")
    );
}

#[tokio::test]
async fn a_renamed_call_replayed_after_a_change_carries_a_name_of_the_tool_that_ran() {
    // Chat Completions refuses `/` in history: the call is renamed. Its form has been taken
    // by a new tool since the call ran, so it carries an alias recorded with the tool that ran.
    let runtime = ToolRuntime::new();
    add(&runtime, "x", &["mcp/x/search.web"]).await;
    let conversation = runtime.conversation();
    let asked = conversation.request();
    let body = one_call(CallFormat::OpenAiChat, "mcp/x/search.web");
    let calls = parse_calls(CallFormat::OpenAiChat, &body).unwrap();
    let ran = asked.answer_calls(&calls).await.remove(0).result.unwrap();
    assert_eq!(ran.tool, "mcp/x/search.web");
    add(&runtime, "app", &["mcp_x_search_web"]).await;
    let replay = conversation
        .request()
        .replay_turn(CallFormat::OpenAiChat, &body, &calls)
        .unwrap();
    let carried = &replay.renamed[0].replayed;
    assert_ne!(carried, "mcp_x_search_web");
    assert_eq!(recorded(&conversation, carried), ["mcp/x/search.web"]);
    let out = conversation.request().dispatch(carried, json!({})).await;
    assert_eq!(out.unwrap().tool, "mcp/x/search.web");
}
