//! A call a stream yielded stays the call its block holds (issue 26, §2 and §8, found by the
//! `calls` fuzz target's built streams): a block's stop ends it, so a later delta for that
//! index, or a later start at that index, never changes or replaces the block a yielded call
//! points at. Before the fix, the Messages API and Converse machines appended later input to a
//! stopped call's block (the body then parsed to other arguments than the call's), and the
//! Messages API machine replaced a stopped `tool_use` by a later block started at its index
//! (the call's pointer then named a text block, or a second call's).
//!
//! Events are the shapes `fixtures/provider-wire/anthropic/` and `converse/` record; no source
//! shows a delta after a stop or an index started twice, so what the machines do with them is
//! our caution (the module docs say so): dropped, and begun as another block.

use serde_json::{json, Value};
use toolwire_core::wire::calls::{parse_calls, CallFormat, CallStream, ToolCall};

/// The calls `events` yield, and the body their turn built; the stream must end cleanly.
fn run(format: CallFormat, events: &[Value]) -> (Vec<ToolCall>, Value) {
    let mut stream = CallStream::new(format).recording_turn();
    let mut calls = Vec::new();
    for event in events {
        calls.extend(stream.push(event).expect("each event is read"));
    }
    calls.extend(stream.finish().expect("the stream ends cleanly"));
    let body = stream.turn().expect("a recording stream has a turn").body();
    (calls, body)
}

/// The calls equal the body's own parse, and each replays.
fn assert_calls_are_the_bodys(format: CallFormat, calls: &[ToolCall], body: &Value) {
    assert_eq!(parse_calls(format, body).unwrap(), calls, "{body}");
}

fn tool_use_start(index: u64, id: &str) -> Value {
    json!({"type": "content_block_start", "index": index, "content_block":
        {"type": "tool_use", "id": id, "name": "get_weather", "input": {}}})
}

fn input_delta(index: u64, fragment: &str) -> Value {
    json!({"type": "content_block_delta", "index": index,
        "delta": {"type": "input_json_delta", "partial_json": fragment}})
}

fn block_stop(index: u64) -> Value {
    json!({"type": "content_block_stop", "index": index})
}

#[test]
fn messages_input_after_a_tool_use_stopped_does_not_change_its_call() {
    let (calls, body) = run(
        CallFormat::Anthropic,
        &[
            tool_use_start(0, "toolu_1"),
            block_stop(0),
            input_delta(0, "[1]"),
            block_stop(0),
        ],
    );
    assert_eq!(calls.len(), 1);
    assert_eq!(
        calls[0].arguments.as_ref().unwrap(),
        &serde_json::Map::new()
    );
    assert_eq!(body["content"][0]["input"], json!({}), "{body}");
    assert_calls_are_the_bodys(CallFormat::Anthropic, &calls, &body);
}

#[test]
fn messages_a_block_started_at_a_stopped_calls_index_does_not_replace_it() {
    let text = json!({"type": "content_block_start", "index": 0,
        "content_block": {"type": "text", "text": ""}});
    let (calls, body) = run(
        CallFormat::Anthropic,
        &[
            tool_use_start(0, "toolu_1"),
            block_stop(0),
            text,
            block_stop(0),
        ],
    );
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].pointer, "/content/0");
    assert_eq!(body["content"][0]["id"], "toolu_1", "{body}");
    assert_eq!(body["content"][1]["type"], "text", "{body}");
    assert_calls_are_the_bodys(CallFormat::Anthropic, &calls, &body);
}

#[test]
fn messages_two_calls_started_at_one_index_are_two_blocks() {
    let (calls, body) = run(
        CallFormat::Anthropic,
        &[
            tool_use_start(0, "toolu_1"),
            block_stop(0),
            tool_use_start(0, "toolu_2"),
            input_delta(0, "{\"city\":\"Paris\"}"),
            block_stop(0),
        ],
    );
    let pointers: Vec<_> = calls.iter().map(|call| call.pointer.as_str()).collect();
    assert_eq!(pointers, ["/content/0", "/content/1"]);
    assert_eq!(calls[1].arguments.as_ref().unwrap()["city"], "Paris");
    assert_calls_are_the_bodys(CallFormat::Anthropic, &calls, &body);
}

#[test]
fn converse_input_after_a_tool_use_stopped_does_not_change_its_call() {
    let start = json!({"contentBlockStart": {"contentBlockIndex": 0, "start":
        {"toolUse": {"toolUseId": "tooluse_1", "name": "get_weather"}}}});
    let input = |fragment: &str| {
        json!({"contentBlockDelta": {"contentBlockIndex": 0,
            "delta": {"toolUse": {"input": fragment}}}})
    };
    let stop = json!({"contentBlockStop": {"contentBlockIndex": 0}});
    let (calls, body) = run(
        CallFormat::Converse,
        &[
            start,
            input("{\"city\":\"Paris\"}"),
            stop.clone(),
            input("[1]"),
            stop,
        ],
    );
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].arguments.as_ref().unwrap()["city"], "Paris");
    assert_eq!(
        body["output"]["message"]["content"][0]["toolUse"]["input"],
        json!({"city": "Paris"}),
        "{body}"
    );
    assert_calls_are_the_bodys(CallFormat::Converse, &calls, &body);
}

#[test]
fn chat_a_type_sent_after_a_calls_end_does_not_change_its_kind() {
    // A delta with no id, name or arguments after the end joins the ended call (Gemini's
    // compatible endpoint sends `extra_content` so): its `type` must not turn the function
    // call the stream yielded into a `custom` entry the body's parse skips.
    let chunk = |tool_calls: Value, finish: Value| {
        json!({"choices": [{"index": 0, "delta": {"tool_calls": tool_calls},
            "finish_reason": finish}]})
    };
    let (calls, body) = run(
        CallFormat::OpenAiChat,
        &[
            chunk(
                json!([{"index": 0, "id": "call_1",
                    "function": {"name": "get_weather", "arguments": "{}"}}]),
                json!("tool_calls"),
            ),
            chunk(json!([{"index": 0, "type": "custom"}]), Value::Null),
        ],
    );
    assert_eq!(calls.len(), 1);
    assert_eq!(
        body["choices"][0]["message"]["tool_calls"][0]["type"], "function",
        "{body}"
    );
    assert_calls_are_the_bodys(CallFormat::OpenAiChat, &calls, &body);
}
