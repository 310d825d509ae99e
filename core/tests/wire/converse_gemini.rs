//! Converse and Gemini streams (issue 26, §1 and §2): one machine per format builds the body
//! and yields the calls, so for every stream fixture of either format, whole or cut into random
//! byte-sized chunks, the calls are `parse_calls` of the body the stream built and replaying
//! them succeeds; and the quirks their servers send are read right.

use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::{json, Value};
use toolwire_core::wire::calls::{
    parse_calls, ArgumentsError, CallFormat, CallParser, CallStream, JsonLinesCallStream,
    SseCallStream, StreamError, ToolCall,
};
use toolwire_core::wire::replay::StreamedTurn;

use crate::fixtures::{bytes, entries};

/// What one run of a stream gives: its calls, how it ended, the body it built, whether its
/// turn replays with its calls.
#[derive(Debug, PartialEq)]
struct Run {
    calls: Vec<ToolCall>,
    end: Result<(), StreamError>,
    body: Value,
    replayed: bool,
}

/// A stream fixture's bytes fed in pieces cut at `cuts` (sorted), recording the turn.
fn run(file: &str, format: CallFormat, text: &[u8], cuts: &[usize]) -> Run {
    let mut pieces = Vec::new();
    let mut from = 0;
    for &cut in cuts {
        pieces.push(&text[from..cut]);
        from = cut;
    }
    pieces.push(&text[from..]);
    let mut calls = Vec::new();
    let mut failed = None;
    let (body, replayed, end);
    if file.ends_with(".jsonl") {
        let mut stream = JsonLinesCallStream::new(format).recording_turn();
        for piece in pieces {
            match stream.push(piece) {
                Ok(ended) => calls.extend(ended),
                Err(error) => {
                    failed = Some(error);
                    break;
                }
            }
        }
        let finished = stream.finish().map(|last| calls.extend(last));
        let turn: &StreamedTurn = stream.turn().unwrap();
        body = turn.body();
        replayed = turn.replay(&calls).is_ok();
        end = failed.map_or(finished, Err);
    } else {
        let mut stream = SseCallStream::new(format).recording_turn();
        for piece in pieces {
            match stream.push(piece) {
                Ok(ended) => calls.extend(ended),
                Err(error) => {
                    failed = Some(error);
                    break;
                }
            }
        }
        end = failed.map_or_else(|| stream.finish().map(|last| calls.extend(last)), Err);
        let turn = stream.turn().unwrap();
        body = turn.body();
        replayed = turn.replay(&calls).is_ok();
    }
    Run {
        calls,
        end,
        body,
        replayed,
    }
}

/// Every Converse and Gemini stream fixture: its name, format and bytes.
fn streams() -> Vec<(String, CallFormat, Vec<u8>)> {
    let streams: Vec<_> = entries("stream")
        .into_iter()
        .filter(|entry| matches!(entry.format(), CallFormat::Converse | CallFormat::Gemini))
        .map(|entry| {
            let text = bytes(&entry.file);
            (entry.file.clone(), entry.format(), text)
        })
        .collect();
    assert!(streams.len() >= 12, "only {} streams", streams.len());
    streams
}

/// A call as compared: id, name, pointer, and its arguments or that they are unusable (a
/// stream's text that is not JSON is a string in the body it built: unusable both ways).
fn key(call: &ToolCall) -> (Option<String>, String, String, Option<Value>) {
    let arguments = call.arguments.as_ref().ok().cloned().map(Value::Object);
    (
        call.id.clone(),
        call.name.clone(),
        call.pointer.clone(),
        arguments,
    )
}

/// The one-machine property: the calls are the built body's, in order, but for the calls the
/// stream names as cut (which a body may hold begun), and they replay.
fn check(file: &str, format: CallFormat, run: &Run) {
    let mut cut: Vec<(Option<String>, Option<String>)> = match &run.end {
        Err(StreamError::Unfinished { calls, .. }) => calls
            .iter()
            .map(|call| (call.id.clone(), call.name.clone()))
            .collect(),
        _ => Vec::new(),
    };
    let from_body = parse_calls(format, &run.body)
        .unwrap_or_else(|e| panic!("{file}: the built body does not parse: {e}"));
    let mut streamed = run.calls.iter().map(key).peekable();
    for call in &from_body {
        if streamed.peek() == Some(&key(call)) {
            streamed.next();
            continue;
        }
        let named = (call.id.clone(), Some(call.name.clone()));
        let Some(at) = cut.iter().position(|c| *c == named) else {
            panic!(
                "{file}: the body's call {call:?} is not the stream's: {}",
                run.body
            );
        };
        cut.remove(at);
    }
    assert_eq!(
        streamed.next(),
        None,
        "{file}: a call not in the body: {}",
        run.body
    );
    if matches!(
        run.end,
        Err(StreamError::Unfinished { .. } | StreamError::Provider { .. })
    ) {
        // A cut or failed turn is refused (`ReplayError::Cut`, `ReplayError::Failed`).
        assert!(!run.replayed, "{file}: a cut or failed turn replays");
    } else {
        assert!(run.replayed, "{file}: its calls do not replay");
    }
}

#[test]
fn every_stream_gives_the_calls_of_the_body_it_builds_and_they_replay() {
    for (file, format, text) in streams() {
        check(&file, format, &run(&file, format, &text, &[]));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn cut_anywhere_a_stream_builds_the_same_body_and_calls(
        picks in prop::collection::vec(any::<Index>(), 0..40),
    ) {
        for (file, format, text) in streams() {
            let mut cuts: Vec<usize> = picks.iter().map(|pick| pick.index(text.len() + 1)).collect();
            cuts.sort_unstable();
            let chunked = run(&file, format, &text, &cuts);
            check(&file, format, &chunked);
            prop_assert_eq!(&chunked, &run(&file, format, &text, &[]), "{} cut at {:?}", file, cuts);
        }
    }
}

#[test]
fn a_gemini_error_object_mid_stream_fails_the_stream_after_the_calls_before_it() {
    let file = "gemini/stream-error-mid-stream.sse";
    let done = run(file, CallFormat::Gemini, &bytes(file), &[]);
    assert_eq!(done.calls.len(), 1, "the call before the error is returned");
    assert!(
        matches!(&done.end, Err(StreamError::Provider { event: 2, message, .. })
            if message == "The model is overloaded. Please try again later."),
        "{:?}",
        done.end
    );
    // Its error chunk alone, pushed as an event, is the provider's error too.
    let err = CallStream::new(CallFormat::Gemini)
        .push(&json!({"error": {"code": 429, "status": "RESOURCE_EXHAUSTED"}}))
        .unwrap_err();
    assert!(
        matches!(&err, StreamError::Provider { message, .. } if message.contains("RESOURCE_EXHAUSTED")),
        "{err:?}"
    );
}

#[test]
fn several_gemini_calls_without_ids_in_one_chunk_are_told_apart_by_position() {
    let chunk = json!({"candidates": [{"content": {"role": "model", "parts": [
        {"text": "Both."},
        {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}},
        {"functionCall": {"name": "get_weather", "args": {"city": "Zürich"}}},
    ]}, "index": 0}]});
    let mut stream = CallStream::new(CallFormat::Gemini).recording_turn();
    let calls = stream.push(&chunk).unwrap();
    let pointers: Vec<&str> = calls.iter().map(|c| c.pointer.as_str()).collect();
    assert_eq!(
        pointers,
        [
            "/candidates/0/content/parts/1",
            "/candidates/0/content/parts/2"
        ]
    );
    assert_eq!((calls[0].id.as_ref(), calls[1].id.as_ref()), (None, None));
    assert_eq!(calls[1].arguments.as_ref().unwrap()["city"], "Zürich");
    assert!(stream.turn().unwrap().replay(&calls).unwrap().is_verbatim());
}

#[test]
fn converse_deltas_of_other_kinds_are_kept_and_never_read_as_a_call() {
    let events = [
        json!({"messageStart": {"role": "assistant"}}),
        json!({"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"reasoningContent": {"text": "Think."}}}}),
        // A toolUse delta at the reasoning block's index: no start began a call there.
        json!({"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"toolUse": {"input": "{\"x\":1}"}}}}),
        json!({"contentBlockStop": {"contentBlockIndex": 0}}),
        // A start of a kind this machine does not know, then a delta of one: kept as they came.
        json!({"contentBlockStart": {"contentBlockIndex": 1, "start": {"image": {"format": "png"}}}}),
        json!({"contentBlockDelta": {"contentBlockIndex": 1, "delta": {"image": {"source": {"bytes": "iVBO"}}}}}),
        json!({"contentBlockStop": {"contentBlockIndex": 1}}),
        json!({"contentBlockDelta": {"contentBlockIndex": 2, "delta": {"citation": {"title": "Guide"}}}}),
        json!({"contentBlockStop": {"contentBlockIndex": 2}}),
        json!({"contentBlockStart": {"contentBlockIndex": 3, "start": {"toolUse": {"toolUseId": "tooluse_1", "name": "get_time"}}}}),
        json!({"contentBlockStop": {"contentBlockIndex": 3}}),
    ];
    let mut stream = CallStream::new(CallFormat::Converse).recording_turn();
    let mut calls = Vec::new();
    for event in &events {
        calls.extend(stream.push(event).unwrap());
    }
    let turn = stream.turn().unwrap();
    let body = turn.body();
    let content = &body["output"]["message"]["content"];
    assert_eq!(
        content[0],
        json!({"reasoningContent": {"reasoningText": {"text": "Think."}}})
    );
    assert_eq!(
        content[1],
        json!({"image": {"format": "png", "source": {"bytes": "iVBO"}}})
    );
    assert_eq!(
        content[2],
        json!({"citationsContent": {"content": [], "citations": [{"title": "Guide"}]}})
    );
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].pointer, "/output/message/content/3");
    assert!(turn.replay(&calls).is_ok());
    assert!(stream.finish().unwrap().is_empty());
}

#[test]
fn object_arguments_over_the_limit_are_that_calls_error_in_bodies_and_streams() {
    let parser = |format| CallParser::new(format).max_argument_bytes(16);
    let gemini = json!({"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": "f", "args": {"city": "a long city name"}}},
        {"functionCall": {"name": "g", "args": {"a": 1}}},
    ]}}]});
    let converse = json!({"output": {"message": {"role": "assistant", "content": [
        {"toolUse": {"toolUseId": "t1", "name": "f", "input": {"city": "a long city name"}}},
        {"toolUse": {"toolUseId": "t2", "name": "g", "input": {"a": 1}}},
    ]}}});
    let mut stream = parser(CallFormat::Gemini).stream();
    let streamed = stream.push(&gemini).unwrap();
    for (format, calls) in [
        (
            CallFormat::Gemini,
            parser(CallFormat::Gemini).parse(&gemini).unwrap(),
        ),
        (CallFormat::Gemini, streamed),
        (
            CallFormat::Converse,
            parser(CallFormat::Converse).parse(&converse).unwrap(),
        ),
    ] {
        assert_eq!(
            calls[0].arguments,
            Err(ArgumentsError::TooLong {
                bytes: 27,
                limit: 16
            }),
            "{format}"
        );
        assert!(calls[1].arguments.is_ok(), "{format}");
    }
}
