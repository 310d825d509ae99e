//! The arguments limit (`CallParser::max_argument_bytes`) changes only arguments (issue 26 §8,
//! found by the `calls` fuzz target): under any limit a stream gives the same calls, in the
//! same order, with the same ids, names and pointers, and a call whose arguments passed the
//! limit has `ArgumentsError::TooLong` for them. Before the fix the Chat Completions machine
//! decided whether a same-name delta with a new id begins a call by parsing the arguments text
//! it had kept, and past the limit it keeps none: the fixture
//! `openai-chat/stream-quirk-index-missing.sse` gave 3 calls, but 2 under a 16-byte limit.

use serde_json::{json, Value};
use toolwire_core::wire::calls::{ArgumentsError, CallFormat, CallParser, ToolCall};

use crate::fixtures::{bytes, entries};

/// A stream's text through `parser`, whole: its calls, and whether it ended cleanly.
fn stream_calls(parser: CallParser, file: &str, text: &[u8]) -> (Vec<ToolCall>, bool) {
    let mut calls = Vec::new();
    let end = if file.ends_with(".jsonl") {
        let mut stream = parser.json_lines();
        let pushed = stream.push(text).map(|ended| calls.extend(ended));
        pushed.and_then(|()| stream.finish().map(|last| calls.extend(last)))
    } else {
        let mut stream = parser.sse();
        let pushed = stream.push(text).map(|ended| calls.extend(ended));
        pushed.and_then(|()| stream.finish().map(|last| calls.extend(last)))
    };
    (calls, end.is_ok())
}

/// `limited` is `calls` but for arguments over `limit`, each `TooLong`.
fn assert_only_arguments_changed(
    what: &str,
    limit: usize,
    calls: &[ToolCall],
    limited: &[ToolCall],
) {
    let heads = |calls: &[ToolCall]| -> Vec<_> {
        calls
            .iter()
            .map(|c| {
                (
                    c.id.clone(),
                    c.name.clone(),
                    c.namespace.clone(),
                    c.pointer.clone(),
                )
            })
            .collect()
    };
    assert_eq!(
        heads(calls),
        heads(limited),
        "{what}: a {limit}-byte limit changed the calls"
    );
    for (call, limited) in calls.iter().zip(limited) {
        if call.arguments != limited.arguments {
            assert!(
                matches!(limited.arguments, Err(ArgumentsError::TooLong { limit: l, .. }) if l == limit),
                "{what}: {:?} became {:?} under a {limit}-byte limit",
                call.arguments,
                limited.arguments
            );
        }
    }
}

#[test]
fn the_index_missing_fixture_keeps_its_three_calls_under_a_small_limit() {
    let file = "openai-chat/stream-quirk-index-missing.sse";
    let text = bytes(file);
    let parser = CallParser::new(CallFormat::OpenAiChat);
    let (calls, clean) = stream_calls(parser, file, &text);
    assert!(clean, "{file}");
    assert_eq!(calls.len(), 3, "{file}: {calls:?}");
    let (limited, clean) = stream_calls(parser.max_argument_bytes(16), file, &text);
    assert!(clean, "{file}");
    assert_only_arguments_changed(file, 16, &calls, &limited);
    assert!(
        limited
            .iter()
            .all(|call| matches!(call.arguments, Err(ArgumentsError::TooLong { .. }))),
        "{limited:?}"
    );
}

#[test]
fn every_stream_fixture_gives_the_same_calls_under_any_limit() {
    for entry in entries("stream") {
        let text = bytes(&entry.file);
        let parser = CallParser::new(entry.format());
        let (calls, clean) = stream_calls(parser, &entry.file, &text);
        for limit in [0, 1, 2, 8, 16, 33, 64] {
            let (limited, limited_clean) =
                stream_calls(parser.max_argument_bytes(limit), &entry.file, &text);
            assert_eq!(
                clean, limited_clean,
                "{}: the limit {limit} changed the end",
                entry.file
            );
            assert_only_arguments_changed(&entry.file, limit, &calls, &limited);
        }
    }
}

/// Chat chunks with calls at index 0 and no `finish_reason`.
fn chunk(tool_calls: Value) -> Value {
    json!({"choices": [{"index": 0, "delta": {"tool_calls": tool_calls}, "finish_reason": null}]})
}

fn chat_calls(limit: usize, chunks: &[Value]) -> Vec<ToolCall> {
    let mut stream = CallParser::new(CallFormat::OpenAiChat)
        .max_argument_bytes(limit)
        .stream();
    let mut calls = Vec::new();
    for chunk in chunks {
        calls.extend(stream.push(chunk).expect("each chunk is read"));
    }
    calls.extend(
        stream
            .push_slice(b"[DONE]")
            .expect("[DONE] ends the stream"),
    );
    calls.extend(stream.finish().expect("the stream ends cleanly"));
    calls
}

#[test]
fn a_chat_call_over_the_limit_still_ends_where_its_json_does() {
    // One name at one index, a new id and more argument text once the first call's JSON is
    // whole: a second call (a server reusing index 0), whatever the limit keeps.
    let chunks = [
        chunk(
            json!([{"index": 0, "id": "call_a", "function": {"name": "f", "arguments": "{\"city\":"}}]),
        ),
        chunk(json!([{"index": 0, "function": {"arguments": "\"Paris, France\"}"}}])),
        chunk(
            json!([{"index": 0, "id": "call_b", "function": {"name": "f", "arguments": "{\"city\":\"Rome\"}"}}]),
        ),
    ];
    let calls = chat_calls(1 << 20, &chunks);
    assert_eq!(calls.len(), 2, "{calls:?}");
    let limited = chat_calls(20, &chunks);
    assert_only_arguments_changed("reused index", 20, &calls, &limited);
    assert!(matches!(
        limited[0].arguments,
        Err(ArgumentsError::TooLong {
            bytes: 24,
            limit: 20
        })
    ));
    assert_eq!(limited[1].arguments.as_ref().unwrap()["city"], "Rome");
    // Not whole yet (a string still open, `}` inside it), a new id mints the same call anew.
    let open = [
        chunk(
            json!([{"index": 0, "id": "call_a", "function": {"name": "f", "arguments": "{\"q\":\"a}"}}]),
        ),
        chunk(
            json!([{"index": 0, "id": "call_b", "function": {"name": "f", "arguments": "b\"}"}}]),
        ),
    ];
    for limit in [1 << 20, 4] {
        let calls = chat_calls(limit, &open);
        assert_eq!(calls.len(), 1, "limit {limit}: {calls:?}");
        assert_eq!(calls[0].id.as_deref(), Some("call_a"));
    }
}

#[test]
fn blank_chat_arguments_over_the_limit_are_still_blank() {
    // Blank text has not begun arguments: a different name after it continues the name,
    // as without a limit (the name streamed in pieces).
    let chunks = [
        chunk(
            json!([{"index": 0, "id": "call_a", "function": {"name": "get_", "arguments": "          "}}]),
        ),
        chunk(json!([{"index": 0, "function": {"name": "weather", "arguments": "{}"}}])),
    ];
    let calls = chat_calls(1 << 20, &chunks);
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert_eq!(calls[0].name, "get_weather");
    let limited = chat_calls(4, &chunks);
    assert_only_arguments_changed("blank", 4, &calls, &limited);
}

#[test]
fn a_messages_tool_use_with_blank_input_over_the_limit_keeps_its_start_input() {
    // Whitespace fragments are no input: the start's `input` is the call's, under any limit.
    let events = [
        json!({"type": "content_block_start", "index": 0, "content_block":
            {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"a": 1}}}),
        json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": "                "}}),
        json!({"type": "content_block_stop", "index": 0}),
    ];
    for limit in [1 << 20, 8] {
        let mut stream = CallParser::new(CallFormat::Anthropic)
            .max_argument_bytes(limit)
            .stream();
        let mut calls = Vec::new();
        for event in &events {
            calls.extend(stream.push(event).expect("each event is read"));
        }
        assert_eq!(calls.len(), 1);
        assert_eq!(
            calls[0].arguments.as_ref().unwrap()["a"],
            1,
            "limit {limit}"
        );
    }
}

#[test]
fn a_messages_tool_use_whose_start_input_object_passes_the_limit_is_too_long() {
    // No input deltas: the start's `input` object is the call's arguments, measured as its
    // JSON text is (18 bytes), as a body's `input` is.
    let events = [
        json!({"type": "content_block_start", "index": 0, "content_block":
            {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"a": "0123456789"}}}),
        json!({"type": "content_block_stop", "index": 0}),
    ];
    let run = |limit: usize| {
        let mut stream = CallParser::new(CallFormat::Anthropic)
            .max_argument_bytes(limit)
            .stream();
        let mut calls = Vec::new();
        for event in &events {
            calls.extend(stream.push(event).expect("each event is read"));
        }
        assert_eq!(calls.len(), 1, "limit {limit}");
        calls.remove(0).arguments
    };
    assert_eq!(
        run(17),
        Err(ArgumentsError::TooLong {
            bytes: 18,
            limit: 17
        })
    );
    assert_eq!(run(18).unwrap()["a"], "0123456789");
}
