//! The tool a call ran is kept in the conversation's state until the replay of its turn takes
//! it (issue 26 §4): a conversation resumed between `answer_calls` and `replay_turn`, or one
//! past 1024 other calls, replays the tool that ran, whatever the called name reaches in the
//! replaying request's census; the replay takes each call's entry (a later call of the same id
//! and name, as Gemini's id-less calls are, never matches it), and gives the entries back when
//! it fails; a call that reached no tool is kept as running none; a turn replayed again finds
//! what its calls ran in their records; and a call recorded from the census is returned in
//! `Replay::unverified`.

use serde_json::{json, Value};
use toolwire_core::runtime::{Conversation, ConversationState, RecordedName};
use toolwire_core::wire::calls::{parse_calls, CallFormat, ToolCall};
use toolwire_core::wire::replay::Replay;
use toolwire_core::ToolRuntime;

use crate::history_turns::{add, listed, one_call, reaches};

/// The tool each record of `name` names.
fn recorded(conversation: &Conversation, name: &str) -> Vec<String> {
    let state = conversation.state();
    let records = state.history_names.iter().filter(|r| r.name == name);
    records.map(|r| r.tool.clone()).collect()
}

/// The conversation's state as an app persists it: through JSON.
fn saved(conversation: &Conversation) -> ConversationState {
    let json = serde_json::to_string(conversation).unwrap();
    serde_json::from_str(&json).unwrap()
}

/// `count` cheap calls of `tool`, each with its own id, answered in `conversation`.
async fn answer_others(conversation: &Conversation, tool: &str, count: usize) {
    let calls: Vec<ToolCall> = (0..count)
        .map(|i| ToolCall::new(Some(format!("other_{i}")), tool, Ok(Default::default()), ""))
        .collect();
    let answers = conversation.request().answer_calls(&calls).await;
    assert!(answers.iter().all(|a| a.result.is_ok()));
}

/// The called names `replay` says it recorded from the census.
fn unverified<'r>(replay: &'r Replay<'_>) -> Vec<&'r str> {
    replay
        .unverified
        .iter()
        .map(|u| u.called.as_str())
        .collect()
}

/// A Gemini response with one call of `name` (no id: Gemini's calls have none).
fn gemini_call(name: &str) -> Value {
    json!({"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": name, "args": {}}}]}, "finishReason": "STOP"}]})
}

#[tokio::test]
async fn a_conversation_resumed_between_a_call_and_its_replay_records_the_tool_that_ran() {
    let runtime = ToolRuntime::new();
    add(&runtime, "y", &["mcp/y/fetch"]).await;
    let conversation = runtime.conversation();
    let body = one_call(CallFormat::OpenAiChat, "mcp_y_fetch");
    let calls = parse_calls(CallFormat::OpenAiChat, &body).unwrap();
    let answers = conversation.request().answer_calls(&calls).await;
    assert_eq!(answers[0].result.as_ref().unwrap().tool, "mcp/y/fetch");
    let state = saved(&conversation);
    // Another process resumes it, where an app's tool has the called name as its real name.
    let replica = ToolRuntime::new();
    add(&replica, "y", &["mcp/y/fetch"]).await;
    add(&replica, "app", &["mcp_y_fetch"]).await;
    let resumed = replica.resume(state);
    let replay = resumed
        .request()
        .replay_turn(CallFormat::OpenAiChat, &body, &calls)
        .unwrap();
    assert_eq!(recorded(&resumed, "mcp_y_fetch"), ["mcp/y/fetch"]);
    assert!(replay.unverified.is_empty(), "{:?}", replay.unverified);
    // The history's name reaches the tool that ran, never the app's.
    assert_eq!(
        reaches(&resumed, "mcp_y_fetch").await.as_deref(),
        Some("mcp/y/fetch")
    );
    assert!(!listed(&resumed).contains(&"mcp_y_fetch".to_owned()));
    // Without the server, it reaches nothing, still never the app's tool.
    assert!(replica.remove_provider("y"));
    assert_eq!(reaches(&resumed, "mcp_y_fetch").await, None);
    // The replay took the call's entry: the state keeps no dispatch of it.
    assert!(resumed.state().dispatched.is_empty());
}

#[tokio::test]
async fn a_call_replayed_after_more_than_1024_other_calls_records_the_tool_that_ran() {
    let runtime = ToolRuntime::new();
    add(&runtime, "y", &["mcp/y/fetch"]).await;
    add(&runtime, "o", &["other"]).await;
    let conversation = runtime.conversation();
    let body = one_call(CallFormat::Anthropic, "mcp_y_fetch");
    let calls = parse_calls(CallFormat::Anthropic, &body).unwrap();
    conversation.request().answer_calls(&calls).await;
    answer_others(&conversation, "other", 1500).await;
    add(&runtime, "app", &["mcp_y_fetch"]).await;
    let replay = conversation
        .request()
        .replay_turn(CallFormat::Anthropic, &body, &calls)
        .unwrap();
    assert_eq!(recorded(&conversation, "mcp_y_fetch"), ["mcp/y/fetch"]);
    assert!(replay.unverified.is_empty(), "{:?}", replay.unverified);
    assert_eq!(
        reaches(&conversation, "mcp_y_fetch").await.as_deref(),
        Some("mcp/y/fetch")
    );
}

#[tokio::test]
async fn id_less_calls_of_one_name_on_two_turns_each_record_what_their_own_turn_ran() {
    let runtime = ToolRuntime::new();
    add(&runtime, "y", &["mcp/y/fetch"]).await;
    let conversation = runtime.conversation();
    // Turn 1: the fetch runs by its form; the user regenerates the answer, so the turn is
    // never replayed.
    let first = gemini_call("mcp_y_fetch");
    let calls = parse_calls(CallFormat::Gemini, &first).unwrap();
    let ran = conversation.request().answer_calls(&calls).await.remove(0);
    assert_eq!(ran.result.unwrap().tool, "mcp/y/fetch");
    // The server restarts: turn 2's call of the same name reaches no tool.
    assert!(runtime.remove_provider("y"));
    let second = gemini_call("mcp_y_fetch");
    let calls = parse_calls(CallFormat::Gemini, &second).unwrap();
    let unknown = conversation.request().answer_calls(&calls).await.remove(0);
    assert!(unknown.result.is_err());
    // An app's tool of that real name arrives before the replay.
    add(&runtime, "app", &["mcp_y_fetch"]).await;
    let replay = conversation
        .request()
        .replay_turn(CallFormat::Gemini, &second, &calls)
        .unwrap();
    // Turn 2 ran no tool: it records none (not turn 1's fetch), and says nothing is unverified.
    assert_eq!(
        conversation.state().history_names,
        Vec::<RecordedName>::new()
    );
    assert!(replay.unverified.is_empty(), "{:?}", replay.unverified);
    // Turn 3: the name reaches the app's tool, which its replay records.
    let third = gemini_call("mcp_y_fetch");
    let calls = parse_calls(CallFormat::Gemini, &third).unwrap();
    let ran = conversation.request().answer_calls(&calls).await.remove(0);
    assert_eq!(ran.result.unwrap().tool, "mcp_y_fetch");
    let replay = conversation
        .request()
        .replay_turn(CallFormat::Gemini, &third, &calls)
        .unwrap();
    assert!(replay.unverified.is_empty(), "{:?}", replay.unverified);
    assert_eq!(recorded(&conversation, "mcp_y_fetch"), ["mcp_y_fetch"]);
    // The server back: the history's name still reaches the tool its turn ran.
    add(&runtime, "y", &["mcp/y/fetch"]).await;
    assert_eq!(
        reaches(&conversation, "mcp_y_fetch").await.as_deref(),
        Some("mcp_y_fetch")
    );
}

#[tokio::test]
async fn the_replay_says_which_calls_it_recorded_from_the_census_exactly_when_no_dispatch_is_kept()
{
    let runtime = ToolRuntime::new();
    add(&runtime, "x", &["mcp/x/search.web"]).await;
    add(&runtime, "o", &["other"]).await;
    let conversation = runtime.conversation();
    let body = one_call(CallFormat::OpenAiChat, "mcp/x/search.web");
    let calls = parse_calls(CallFormat::OpenAiChat, &body).unwrap();
    // Answered in the conversation: the replay knows what ran.
    conversation.request().answer_calls(&calls).await;
    let replay = conversation
        .request()
        .replay_turn(CallFormat::OpenAiChat, &body, &calls)
        .unwrap();
    assert!(replay.unverified.is_empty(), "{:?}", replay.unverified);
    // The same turn replayed again (its dispatch taken by the first replay): the renamed
    // call's record says what it ran, so nothing is taken from the census.
    let again = conversation
        .request()
        .replay_turn(CallFormat::OpenAiChat, &body, &calls)
        .unwrap();
    assert!(again.unverified.is_empty(), "{:?}", again.unverified);
    assert_eq!(again.turn, replay.turn);
    assert_eq!(
        recorded(&conversation, "mcp/x/search.web"),
        ["mcp/x/search.web"]
    );

    // A turn of two calls, one answered here and one not: only the other is unverified.
    let fresh = runtime.conversation();
    let body = json!({"content": [
        {"type": "tool_use", "id": "toolu_1", "name": "other", "input": {}},
        {"type": "tool_use", "id": "toolu_2", "name": "mcp_x_search_web", "input": {}},
    ]});
    let calls = parse_calls(CallFormat::Anthropic, &body).unwrap();
    fresh.request().answer_calls(&calls[..1]).await;
    let replay = fresh
        .request()
        .replay_turn(CallFormat::Anthropic, &body, &calls)
        .unwrap();
    assert_eq!(unverified(&replay), ["mcp_x_search_web"]);
    assert_eq!(replay.unverified[0].tool, "mcp/x/search.web");
    assert_eq!(replay.unverified[0].id.as_deref(), Some("toolu_2"));

    // Past the bound on the count, the call's entry went: unverified.
    let evicted = runtime.conversation();
    let body = one_call(CallFormat::Anthropic, "mcp_x_search_web");
    let calls = parse_calls(CallFormat::Anthropic, &body).unwrap();
    evicted.request().answer_calls(&calls).await;
    answer_others(&evicted, "other", 4096).await;
    assert_eq!(evicted.state().dispatched.len(), 4096);
    let replay = evicted
        .request()
        .replay_turn(CallFormat::Anthropic, &body, &calls)
        .unwrap();
    assert_eq!(unverified(&replay), ["mcp_x_search_web"]);
}

#[tokio::test]
async fn a_call_whose_entry_the_byte_bound_let_go_is_unverified_and_one_below_it_is_not() {
    let long = "l".repeat(400);
    let runtime = ToolRuntime::new();
    add(&runtime, "y", &["mcp/y/fetch"]).await;
    add(&runtime, "long", &[long.as_str()]).await;
    let body = one_call(CallFormat::Anthropic, "mcp_y_fetch");
    let calls = parse_calls(CallFormat::Anthropic, &body).unwrap();
    // 1,200 calls of 800 bytes of names each: under the count bound, under 1 MiB.
    let kept = runtime.conversation();
    kept.request().answer_calls(&calls).await;
    answer_others(&kept, &long, 1200).await;
    let replay = kept
        .request()
        .replay_turn(CallFormat::Anthropic, &body, &calls)
        .unwrap();
    assert!(replay.unverified.is_empty(), "{:?}", replay.unverified);
    // 1,400: past 1 MiB, the oldest entries went, the fetch's among them.
    let evicted = runtime.conversation();
    evicted.request().answer_calls(&calls).await;
    answer_others(&evicted, &long, 1400).await;
    assert!(evicted.state().dispatched.len() < 1400);
    let replay = evicted
        .request()
        .replay_turn(CallFormat::Anthropic, &body, &calls)
        .unwrap();
    assert_eq!(unverified(&replay), ["mcp_y_fetch"]);
}

#[test]
fn a_saved_state_keeps_the_dispatched_calls_and_one_without_them_reads() {
    let state: ConversationState = serde_json::from_value(json!({
        "loaded": [],
        "dispatched": [{"id": "call_1", "called": "mcp_y_fetch", "tool": "mcp/y/fetch"}],
    }))
    .unwrap();
    let conversation = ToolRuntime::new().resume(state.clone());
    assert_eq!(conversation.state(), state);
    let json = serde_json::to_value(&conversation).unwrap();
    assert_eq!(json["dispatched"][0]["tool"], "mcp/y/fetch");
    let old: ConversationState = serde_json::from_value(json!({"loaded": []})).unwrap();
    assert!(old.dispatched.is_empty());
}

#[tokio::test]
async fn a_replay_that_fails_gives_back_the_dispatches_it_took_so_its_retry_knows_what_ran() {
    let runtime = ToolRuntime::new();
    add(&runtime, "x", &["mcp/x/search.web"]).await;
    let conversation = runtime.conversation();
    let body = one_call(CallFormat::OpenAiChat, "mcp/x/search.web");
    let calls = parse_calls(CallFormat::OpenAiChat, &body).unwrap();
    conversation.request().answer_calls(&calls).await;
    // The renamed call first (its dispatch taken), then a call the body does not hold.
    let mut wrong = calls.clone();
    wrong.push(ToolCall::new(
        Some("call_9".to_owned()),
        "mcp/x/search.web",
        Ok(Default::default()),
        "/choices/0/message/tool_calls/9",
    ));
    let failed = conversation
        .request()
        .replay_turn(CallFormat::OpenAiChat, &body, &wrong);
    assert!(failed.is_err());
    assert_eq!(conversation.state().dispatched.len(), 1);
    let replay = conversation
        .request()
        .replay_turn(CallFormat::OpenAiChat, &body, &calls)
        .unwrap();
    assert!(replay.unverified.is_empty(), "{:?}", replay.unverified);
    assert!(conversation.state().dispatched.is_empty());
}

#[tokio::test]
async fn a_renamed_call_never_takes_the_name_a_plain_call_of_its_turn_carries_for_another_tool() {
    let runtime = ToolRuntime::new();
    add(&runtime, "x", &["mcp/x/t.1"]).await;
    add(&runtime, "app", &["mcp_x_t_1"]).await;
    let conversation = runtime.conversation();
    // One turn: the server's tool by its real name (refused in history), the app's tool by
    // its real name, which is the server tool's form.
    let body = json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": null, "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "mcp/x/t.1", "arguments": "{}"}},
            {"id": "call_2", "type": "function",
             "function": {"name": "mcp_x_t_1", "arguments": "{}"}}]}}]});
    let calls = parse_calls(CallFormat::OpenAiChat, &body).unwrap();
    let answers = conversation.request().answer_calls(&calls).await;
    let ran: Vec<_> = answers
        .iter()
        .map(|a| a.result.as_ref().unwrap().tool.as_str())
        .collect();
    assert_eq!(ran, ["mcp/x/t.1", "mcp_x_t_1"]);
    // The app's tool goes before the replay: the server tool's form is then its own alone.
    assert!(runtime.remove_provider("app"));
    let replay = conversation
        .request()
        .replay_turn(CallFormat::OpenAiChat, &body, &calls)
        .unwrap();
    let name = |at: usize| {
        let name = &replay.turn["tool_calls"][at]["function"]["name"];
        name.as_str().unwrap().to_owned()
    };
    // The plain call keeps its name, recorded for the tool it ran; the renamed call gets an
    // alias, not that name.
    assert_eq!(name(1), "mcp_x_t_1");
    assert!(replay.renamed[0].alias, "{:?}", replay.renamed);
    assert_ne!(name(0), "mcp_x_t_1");
    assert_eq!(recorded(&conversation, "mcp_x_t_1"), ["mcp_x_t_1"]);
    assert!(replay.unverified.is_empty(), "{:?}", replay.unverified);
    // Each replayed name reaches the tool its call ran, or, that tool gone, none.
    assert_eq!(
        reaches(&conversation, &name(0)).await.as_deref(),
        Some("mcp/x/t.1")
    );
    assert_eq!(reaches(&conversation, "mcp_x_t_1").await, None);
    add(&runtime, "app", &["mcp_x_t_1"]).await;
    assert_eq!(
        reaches(&conversation, "mcp_x_t_1").await.as_deref(),
        Some("mcp_x_t_1")
    );
}

/// A Gemini response with one id-less call of `name` with `args`.
fn gemini_call_with(name: &str, args: Value) -> Value {
    json!({"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": name, "args": args}}]}, "finishReason": "STOP"}]})
}

#[tokio::test]
async fn a_regenerated_turns_dispatch_is_never_taken_by_a_call_with_other_arguments() {
    let runtime = ToolRuntime::new();
    add(&runtime, "y", &["mcp/y/fetch"]).await;
    let conversation = runtime.conversation();
    // Turn 1: the fetch runs by its form; the user regenerates, so the turn is never replayed.
    let first = gemini_call_with("mcp_y_fetch", json!({"url": "a"}));
    let calls = parse_calls(CallFormat::Gemini, &first).unwrap();
    let ran = conversation.request().answer_calls(&calls).await.remove(0);
    assert_eq!(ran.result.unwrap().tool, "mcp/y/fetch");
    // The server goes and an app's tool of that real name comes; the regenerated turn's call
    // (other arguments) is answered outside the conversation, by the app's tool.
    assert!(runtime.remove_provider("y"));
    add(&runtime, "app", &["mcp_y_fetch"]).await;
    let second = gemini_call_with("mcp_y_fetch", json!({"url": "b"}));
    let calls = parse_calls(CallFormat::Gemini, &second).unwrap();
    let ran = runtime.request().answer_calls(&calls).await.remove(0);
    assert_eq!(ran.result.unwrap().tool, "mcp_y_fetch");
    let replay = conversation
        .request()
        .replay_turn(CallFormat::Gemini, &second, &calls)
        .unwrap();
    // Not turn 1's fetch: what the name reaches now, and the replay says it did not see it run.
    assert_eq!(recorded(&conversation, "mcp_y_fetch"), ["mcp_y_fetch"]);
    assert_eq!(unverified(&replay), ["mcp_y_fetch"]);
    // Turn 1's entry is still kept, and a call with its arguments takes it.
    let state = conversation.state();
    assert_eq!(state.dispatched.len(), 1);
    assert!(state.dispatched[0].arguments_digest.is_some());
    let calls = parse_calls(CallFormat::Gemini, &first).unwrap();
    let replay = conversation
        .request()
        .replay_turn(CallFormat::Gemini, &first, &calls)
        .unwrap();
    assert!(replay.unverified.is_empty(), "{:?}", replay.unverified);
    assert!(conversation.state().dispatched.is_empty());
}

#[tokio::test]
async fn names_the_model_invents_never_push_out_the_tool_a_call_ran() {
    let runtime = ToolRuntime::new();
    add(&runtime, "y", &["mcp/y/fetch"]).await;
    let conversation = runtime.conversation();
    let body = one_call(CallFormat::Anthropic, "mcp_y_fetch");
    let calls = parse_calls(CallFormat::Anthropic, &body).unwrap();
    conversation.request().answer_calls(&calls).await;
    // 40 calls of invented 64 KiB names: 2.5 MiB, none reaching a tool.
    let invented: Vec<ToolCall> = (0..40)
        .map(|i| {
            let name = format!("{i:02}{}", "n".repeat(64 << 10));
            ToolCall::new(Some(format!("bad_{i}")), name, Ok(Default::default()), "")
        })
        .collect();
    let answers = conversation.request().answer_calls(&invented).await;
    assert!(answers.iter().all(|a| a.result.is_err()));
    // The invented names are bounded apart: few kept, and the fetch's entry among them.
    let state = conversation.state();
    let weight: usize = state.dispatched.iter().map(|d| d.called.len()).sum();
    assert!(weight <= 256 << 10, "{weight}");
    assert!(state.dispatched.iter().any(|d| d.called == "mcp_y_fetch"));
    let replay = conversation
        .request()
        .replay_turn(CallFormat::Anthropic, &body, &calls)
        .unwrap();
    assert!(replay.unverified.is_empty(), "{:?}", replay.unverified);
}
