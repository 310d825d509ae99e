//! The stream readers' own tests: ends, cuts and faults across the three readers.

use serde_json::json;

use super::*;
use crate::wire::calls::{parse_calls, Arguments, ArgumentsError, CallParser, NO_ARGUMENTS};
use crate::wire::replay::{replay_turn, ReplayError};

/// One Chat Completions chunk of tool call deltas, as a server-sent event.
fn chat_event(tool_calls: Value) -> String {
    let chunk = json!({"choices": [{"index": 0, "delta": {"tool_calls": tool_calls}}]});
    format!("data: {chunk}\n\n")
}

fn chat_stream(events: &[String]) -> (SseCallStream, Vec<ToolCall>) {
    let mut stream = SseCallStream::new(CallFormat::OpenAiChat).recording_turn();
    let mut calls = Vec::new();
    for event in events {
        calls.extend(stream.push(event.as_bytes()).unwrap());
    }
    (stream, calls)
}

fn header(id: &str, name: &str, arguments: &str) -> Value {
    json!([{"index": 0, "id": id, "type": "function",
        "function": {"name": name, "arguments": arguments}}])
}

fn fragment(arguments: &str) -> Value {
    json!([{"index": 0, "function": {"arguments": arguments}}])
}

#[test]
fn a_chat_stream_closed_between_events_ends_its_open_calls_and_its_turn_is_whole() {
    let (mut stream, calls) = chat_stream(&[
        chat_event(header("call_1", "get_weather", "")),
        chat_event(fragment("{\"city\":")),
        chat_event(fragment("\"Paris\"}")),
        chat_event(json!([{"index": 1, "id": "call_2", "type": "function",
            "function": {"name": "get_time", "arguments": "{\"tz\":\"UTC\"}"}}])),
    ]);
    assert!(calls.is_empty(), "no end signal came yet: {calls:?}");
    assert!(!stream.ended_by_close(), "not ended yet");
    let calls = stream.finish().unwrap();
    assert!(stream.ended_by_close());
    assert_eq!(calls.len(), 2, "{calls:?}");
    assert_eq!(calls[0].arguments.as_ref().unwrap()["city"], "Paris");
    assert_eq!(calls[1].name, "get_time");
    assert_eq!(calls[1].arguments.as_ref().unwrap()["tz"], "UTC");
    let turn = stream.turn().unwrap();
    turn.whole().unwrap();
    let body = turn.body();
    assert_eq!(parse_calls(CallFormat::OpenAiChat, &body).unwrap(), calls);
    assert!(turn.replay(&calls).unwrap().is_verbatim());
    // Each call is returned once; the stream takes nothing more.
    assert!(stream.finish().unwrap().is_empty());
    assert_eq!(
        stream.push(b"data: {\"choices\": []}\n\n"),
        Err(StreamError::Finished {
            format: CallFormat::OpenAiChat
        })
    );
}

#[test]
fn a_chat_call_cut_mid_object_at_the_end_is_bad_arguments_never_part_of_them() {
    let (mut stream, _) = chat_stream(&[
        chat_event(header("call_1", "delete_files", "{\"paths\":[\"a\"")),
        chat_event(fragment(",\"b\"")),
    ]);
    let calls = stream.finish().unwrap();
    assert!(
        matches!(calls[0].arguments, Err(ArgumentsError::NotJson { .. })),
        "{calls:?}"
    );
    let replay = stream.turn().unwrap().replay(&calls).unwrap();
    assert_eq!(
        replay.turn["tool_calls"][0]["function"]["arguments"], "{}",
        "replayed with the repair"
    );
    assert_eq!(replay.repaired.len(), 1);
}

#[test]
fn a_chat_call_whose_arguments_never_came_is_bad_arguments_at_the_end() {
    // Cut right after the header: blank arguments are `{}` only at a real end.
    let (mut stream, _) = chat_stream(&[chat_event(header("call_1", "delete_all", ""))]);
    let calls = stream.finish().unwrap();
    assert!(
        matches!(&calls[0].arguments, Err(ArgumentsError::NotJson { message }) if message.contains("before any argument")),
        "{calls:?}"
    );
    let body = stream.turn().unwrap().body();
    let recorded = &body["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"];
    assert_eq!(recorded, NO_ARGUMENTS);
    assert!(parse_calls(CallFormat::OpenAiChat, &body).unwrap()[0]
        .arguments
        .is_err());
    replay_turn(CallFormat::OpenAiChat, &body, &calls).unwrap();
    // The same stream with its finish_reason: `{}`, the provider's own end.
    let mut stream = CallStream::new(CallFormat::OpenAiChat);
    let chunk = json!({"choices": [{"index": 0, "delta": {"tool_calls": header("call_1", "f", "")},
        "finish_reason": "tool_calls"}]});
    assert_eq!(
        stream.push(&chunk).unwrap()[0].arguments,
        Ok(Arguments::new())
    );
}

#[test]
fn a_chat_placeholder_object_closed_after_its_header_is_bad_arguments_never_run() {
    // Gemini sends `{}` in the header chunk, then the real arguments (microsoft/autogen
    // PR #7549); closed after the header, `{}` parses but is not the model's arguments.
    for placeholder in ["{}", " { } "] {
        let (mut stream, _) =
            chat_stream(&[chat_event(header("call_1", "get_stock", placeholder))]);
        let calls = stream.finish().unwrap();
        assert!(stream.ended_by_close());
        assert!(
            matches!(&calls[0].arguments, Err(ArgumentsError::NotJson { message }) if message.contains("placeholder")),
            "{calls:?}"
        );
        let body = stream.turn().unwrap().body();
        let recorded = &body["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"];
        assert_eq!(recorded, NO_ARGUMENTS);
        assert_eq!(parse_calls(CallFormat::OpenAiChat, &body).unwrap().len(), 1);
        assert!(parse_calls(CallFormat::OpenAiChat, &body).unwrap()[0]
            .arguments
            .is_err());
        let replay = stream.turn().unwrap().replay(&calls).unwrap();
        assert_eq!(replay.turn["tool_calls"][0]["function"]["arguments"], "{}");
    }
    // The placeholder then the real arguments, with a real end: not JSON, never `{}`.
    let (mut stream, calls) = chat_stream(&[
        chat_event(header("call_1", "get_stock", "{}")),
        chat_event(fragment("{\"stock\":\"MSFT\"}")),
        "data: [DONE]\n\n".to_owned(),
    ]);
    assert!(matches!(
        calls[0].arguments,
        Err(ArgumentsError::NotJson { .. })
    ));
    assert!(stream.finish().unwrap().is_empty());
    assert!(!stream.ended_by_close(), "[DONE] is a real end");
    // `{}` with a finish_reason is the provider's own end: a tool with no parameters.
    let mut stream = CallStream::new(CallFormat::OpenAiChat);
    let chunk = json!({"choices": [{"index": 0, "delta": {"tool_calls": header("call_1", "f", "{}")},
        "finish_reason": "tool_calls"}]});
    assert_eq!(
        stream.push(&chunk).unwrap()[0].arguments,
        Ok(Arguments::new())
    );
    assert!(stream.finish().unwrap().is_empty());
    assert!(!stream.ended_by_close());
}

#[test]
fn a_json_lines_last_line_that_ends_a_call_keeps_it_when_the_end_then_fails() {
    let start = |index: u32, id: &str| {
        format!(
            r#"{{"contentBlockStart":{{"contentBlockIndex":{index},"start":{{"toolUse":{{"toolUseId":"{id}","name":"get_time"}}}}}}}}"#
        )
    };
    let text = format!(
        "{}\n{}\n{}",
        start(0, "tooluse_1"),
        start(1, "tooluse_2"),
        r#"{"contentBlockStop":{"contentBlockIndex":0}}"#
    );
    let mut stream = JsonLinesCallStream::new(CallFormat::Converse).recording_turn();
    assert!(stream.push(text.as_bytes()).unwrap().is_empty());
    // The last line (no newline) ended tooluse_1: it comes now, the error next.
    let calls = stream.finish().unwrap();
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert_eq!(calls[0].id.as_deref(), Some("tooluse_1"));
    let Err(StreamError::Unfinished {
        calls: open,
        cut_event: false,
        ..
    }) = stream.finish()
    else {
        panic!("the end's error was lost")
    };
    assert_eq!(open[0].id.as_deref(), Some("tooluse_2"));
    assert!(matches!(
        stream.push(b"{}\n"),
        Err(StreamError::Unfinished { .. })
    ));
    assert!(stream.turn().unwrap().whole().is_err());
}

#[test]
fn a_chat_stream_cut_inside_an_event_stays_unfinished() {
    let (mut stream, _) = chat_stream(&[chat_event(header("call_1", "get_weather", "{}"))]);
    let _ = stream
        .push(
            br#"data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"argu"#,
        )
        .unwrap();
    let Err(StreamError::Unfinished {
        calls,
        cut_event: true,
        ..
    }) = stream.finish()
    else {
        panic!("a cut event ended the calls")
    };
    assert_eq!(calls[0].name.as_deref(), Some("get_weather"));
    assert!(matches!(
        stream.turn().unwrap().whole(),
        Err(ReplayError::Cut {
            cut_event: true,
            ..
        })
    ));
}

#[test]
fn other_formats_keep_their_end_events() {
    let mut stream = CallStream::new(CallFormat::Anthropic).recording_turn();
    let start = json!({"type": "content_block_start", "index": 0, "content_block":
        {"type": "tool_use", "id": "toolu_1", "name": "get_time", "input": {}}});
    let _ = stream.push(&start).unwrap();
    assert!(matches!(
        stream.finish(),
        Err(StreamError::Unfinished {
            cut_event: false,
            ..
        })
    ));
    assert!(stream.turn().unwrap().whole().is_err());
}

#[test]
fn a_server_tool_use_cut_right_after_its_start_cuts_the_turn() {
    let mut stream = CallStream::new(CallFormat::Anthropic).recording_turn();
    let start = json!({"type": "content_block_start", "index": 0, "content_block":
        {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}});
    assert!(stream.push(&start).unwrap().is_empty());
    let Err(ReplayError::Cut { calls, .. }) = stream.turn().unwrap().whole() else {
        panic!("a cut server call is a whole turn")
    };
    assert_eq!(calls[0].id.as_deref(), Some("srvtoolu_1"));
}

#[test]
fn a_json_lines_last_line_cut_in_a_call_start_cuts_the_turn_before_finish() {
    let mut stream = JsonLinesCallStream::new(CallFormat::Converse).recording_turn();
    let text = concat!(
        r#"{"messageStart":{"role":"assistant"}}"#,
        "\n",
        r#"{"contentBlockStart":{"contentBlockIndex":0,"start":{"toolUse":{"toolUseId":"tooluse_1","na"#
    );
    assert!(stream.push(text.as_bytes()).unwrap().is_empty());
    assert!(
        matches!(
            stream.turn().unwrap().whole(),
            Err(ReplayError::Cut {
                cut_event: true,
                ..
            })
        ),
        "the turn is whole while its last line is cut"
    );
    assert!(matches!(
        stream.finish(),
        Err(StreamError::Unfinished {
            cut_event: true,
            ..
        })
    ));
    assert!(stream.turn().unwrap().whole().is_err());
    // A whole last line without its newline counts, and the turn is whole after it.
    let mut stream = JsonLinesCallStream::new(CallFormat::Converse).recording_turn();
    let _ = stream
        .push(br#"{"messageStop":{"stopReason":"end_turn"}}"#)
        .unwrap();
    assert!(stream.turn().unwrap().whole().is_err());
    assert!(stream.finish().unwrap().is_empty());
    stream.turn().unwrap().whole().unwrap();
}

#[test]
fn a_gemini_call_in_a_cut_event_is_named_by_the_turns_cut() {
    let cut = br#"data: {"candidates":[{"content":{"parts":[{"functionCall":{"name":"get_weather","args":{"ci"#;
    let mut sse = SseCallStream::new(CallFormat::Gemini).recording_turn();
    let _ = sse.push(cut).unwrap();
    let mut lines = JsonLinesCallStream::new(CallFormat::Gemini).recording_turn();
    let _ = lines.push(&cut[6..]).unwrap();
    for (end, turn) in [
        (sse.finish(), sse.turn().unwrap()),
        (lines.finish(), lines.turn().unwrap()),
    ] {
        assert!(
            matches!(end, Err(StreamError::Unfinished { .. })),
            "{end:?}"
        );
        let Err(ReplayError::Cut {
            calls,
            cut_event: true,
            ..
        }) = turn.whole()
        else {
            panic!("{:?}", turn.whole())
        };
        assert_eq!(calls[0].name.as_deref(), Some("get_weather"));
    }
}

/// What a run of a stream gave: each push's result, then `finish`'s, and the recorded turn's
/// state after them (`whole`).
type Run = (Vec<Result<Vec<ToolCall>, StreamError>>, String);

/// Every way to cut `text` in two, and whole: the same calls in the same order, the same
/// first error, and the same state of the recorded turn, however it was cut.
fn each_cut(text: &[u8], mut run: impl FnMut(&[&[u8]]) -> Run) {
    let calls = |results: &[Result<Vec<ToolCall>, StreamError>]| -> Vec<ToolCall> {
        results
            .iter()
            .filter_map(|r| r.as_ref().ok())
            .flatten()
            .cloned()
            .collect()
    };
    let error = |results: &[Result<Vec<ToolCall>, StreamError>]| {
        results.iter().find_map(|r| r.as_ref().err().cloned())
    };
    let (whole, whole_turn) = run(&[text]);
    for at in 1..text.len() {
        let (a, b) = text.split_at(at);
        let (cut, cut_turn) = run(&[a, b]);
        assert_eq!(calls(&cut), calls(&whole), "cut at {at}");
        assert_eq!(error(&cut), error(&whole), "cut at {at}");
        assert_eq!(cut_turn, whole_turn, "cut at {at}");
    }
}

/// `each_cut` of `text` through an SSE stream of Chat Completions with `max_event_bytes`.
fn each_sse_cut(text: &[u8], max_event_bytes: usize) {
    each_cut(text, |chunks| {
        let parser = CallParser::new(CallFormat::OpenAiChat).max_event_bytes(max_event_bytes);
        let mut stream = parser.sse().recording_turn();
        let mut results: Vec<_> = chunks.iter().map(|chunk| stream.push(chunk)).collect();
        results.push(stream.finish());
        let turn = format!("{:?}", stream.turn().unwrap().whole());
        (results, turn)
    });
}

/// A Chat chunk that ends call `a` and then fails: index 1 has no id.
const ENDS_A_THEN_FAILS: &str = r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{}"}},{"index":1,"function":{"name":"f","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}"#;

#[test]
fn a_fault_kept_after_a_lines_calls_is_the_streams_whatever_lines_follow_in_any_chunking() {
    // Line 0 ends call `a` and fails; the next line is not UTF-8.
    let mut text = ENDS_A_THEN_FAILS.as_bytes().to_vec();
    text.extend_from_slice(b"\n\xff\n");
    each_cut(&text, |chunks| {
        let mut stream = JsonLinesCallStream::new(CallFormat::OpenAiChat).recording_turn();
        let mut results: Vec<_> = chunks.iter().map(|chunk| stream.push(chunk)).collect();
        results.push(stream.finish());
        let turn = format!("{:?}", stream.turn().unwrap().whole());
        (results, turn)
    });
    let mut stream = JsonLinesCallStream::new(CallFormat::OpenAiChat);
    assert_eq!(stream.push(&text).unwrap().len(), 1);
    assert!(matches!(
        stream.finish(),
        Err(StreamError::MissingId { .. })
    ));
}

#[test]
fn an_sse_fault_kept_after_an_events_calls_ends_the_turn_there_in_any_chunking() {
    let text = format!("data: {ENDS_A_THEN_FAILS}\n\ndata: {{\"choices\":[]}}\n\n");
    each_sse_cut(text.as_bytes(), 1 << 20);
}

#[test]
fn an_sse_line_over_the_limit_comes_after_the_calls_its_chunk_ended_in_any_chunking() {
    let event = r#"data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}"#;
    let text = format!("{event}\n\ndata: {}\n\n", "x".repeat(400));
    each_sse_cut(text.as_bytes(), 300);
    let mut stream = CallParser::new(CallFormat::OpenAiChat)
        .max_event_bytes(300)
        .sse();
    assert_eq!(stream.push(text.as_bytes()).unwrap().len(), 1);
    assert!(matches!(
        stream.finish(),
        Err(StreamError::EventTooLong { .. })
    ));
}
