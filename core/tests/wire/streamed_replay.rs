//! The replay of a streamed turn (issue 18, point 7): a `StreamedTurn` fed a recorded stream's
//! events builds the body its sibling response is, so the turn replayed from the stream (with
//! the stream's own calls and pointers) is the sibling's replayed turn.

use serde_json::Value;
use toolwire_core::wire::calls::{
    CallFormat, CallStream, JsonLinesCallStream, SseCallStream, SseDecoder, ToolCall,
};
use toolwire_core::wire::replay::{replay_turn, Replay, ReplayError, StreamedTurn};

use crate::fixtures::{body_calls, bytes, entries};

/// A stream fixture's events, parsed (`[DONE]` and other non-JSON data left out).
fn events(file: &str) -> Vec<Value> {
    datas(file)
        .iter()
        .filter_map(|data| serde_json::from_str(data).ok())
        .collect()
}

/// A stream fixture's events as their text (`[DONE]` kept: it ends Chat Completions calls).
fn datas(file: &str) -> Vec<String> {
    let text = bytes(file);
    if file.ends_with(".jsonl") {
        String::from_utf8(text)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect()
    } else {
        let mut decoder = SseDecoder::new();
        decoder
            .push(&text)
            .unwrap()
            .into_iter()
            .map(|e| e.data)
            .collect()
    }
}

/// The calls and the turn of a stream fixture, fed event by event to both.
fn streamed(file: &str, format: CallFormat) -> (Vec<ToolCall>, StreamedTurn) {
    let mut calls = CallStream::new(format);
    let mut turn = StreamedTurn::new(format);
    let mut found = Vec::new();
    for data in datas(file).iter().filter(|data| !data.trim().is_empty()) {
        let pushed = calls.push_slice(data.as_bytes());
        found.extend(pushed.unwrap_or_else(|e| panic!("{file}: {e}")));
        turn.push_slice(data.as_bytes());
    }
    found.extend(calls.finish().unwrap_or_else(|e| panic!("{file}: {e}")));
    turn.end();
    (found, turn)
}

#[test]
fn every_whole_stream_replays_as_its_sibling_response_does() {
    let (mut compared, mut compared_own) = (0, 0);
    for entry in entries("stream") {
        let Some(sibling) = entry.sibling() else {
            continue;
        };
        let format = entry.format();
        let (calls, turn) = streamed(&entry.file, format);
        let from_stream = turn
            .replay(&calls)
            .unwrap_or_else(|e| panic!("{}: {e}", entry.file));
        if entry.info.get("note").is_some() {
            // The index notes the stream and its sibling differ in their other blocks: the
            // stream's own turn still replays, its calls found where they point.
            compared_own += 1;
            continue;
        }
        let body: Value = serde_json::from_slice(&bytes(sibling)).unwrap();
        let mut from_body = replay_turn(format, &body, &body_calls(sibling, format)).unwrap();
        if format == CallFormat::OpenAiChat {
            // `annotations: []` is a response member no chunk carries.
            from_body
                .turn
                .to_mut()
                .as_object_mut()
                .unwrap()
                .remove("annotations");
        }
        assert_eq!(from_stream.turn, from_body.turn, "{}", entry.file);
        assert_eq!(from_stream.renamed, from_body.renamed, "{}", entry.file);
        compared += 1;
    }
    assert_eq!((compared, compared_own), (36, 2));
}

#[test]
fn a_streamed_turn_keeps_signatures_and_reasoning_exactly() {
    let (calls, turn) = streamed("anthropic/stream-mixed.sse", CallFormat::Anthropic);
    let body = turn.body();
    let thinking = &body["content"][0];
    assert_eq!(thinking["type"], "thinking");
    let sibling: Value = serde_json::from_slice(&bytes("anthropic/response-mixed.json")).unwrap();
    assert_eq!(thinking["signature"], sibling["content"][0]["signature"]);
    assert!(turn.replay(&calls).unwrap().is_verbatim());
    let (_, turn) = streamed("converse/stream-mixed.jsonl", CallFormat::Converse);
    let reasoning = &turn.body()["output"]["message"]["content"][0]["reasoningContent"];
    assert!(reasoning["reasoningText"]["signature"].is_string());
}

#[test]
fn a_turn_records_anything_without_failing() {
    // No event it knows, events of another format, hostile indexes: still a body, no panic.
    let odd = [
        serde_json::json!(null),
        serde_json::json!({"type": "content_block_delta", "index": 1_000_000_000u64,
            "delta": {"type": "text_delta", "text": "x"}}),
        serde_json::json!({"contentBlockDelta": {"contentBlockIndex": u64::MAX, "delta": {"text": "x"}}}),
        serde_json::json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 7}]}}]}),
        serde_json::json!({"type": "response.output_item.done", "output_index": 99999999}),
    ];
    for format in CallFormat::ALL {
        let mut turn = StreamedTurn::new(format);
        for event in &odd {
            turn.push(event);
        }
        assert!(turn.body().is_object(), "{format}");
    }
}

#[test]
fn a_streamed_name_the_provider_refuses_is_replayed_as_its_form() {
    let events = [
        serde_json::json!({"messageStart": {"role": "assistant"}}),
        serde_json::json!({"contentBlockStart": {"contentBlockIndex": 0,
            "start": {"toolUse": {"toolUseId": "tooluse_Pl9Ok7Ij5Uh3Yg1Tf8Rd6Es", "name": "$READFILE"}}}}),
        serde_json::json!({"contentBlockDelta": {"contentBlockIndex": 0,
            "delta": {"toolUse": {"input": "{\"path\":\"README.md\"}"}}}}),
        serde_json::json!({"contentBlockStop": {"contentBlockIndex": 0}}),
        serde_json::json!({"messageStop": {"stopReason": "tool_use"}}),
    ];
    let mut calls = CallStream::new(CallFormat::Converse);
    let mut turn = StreamedTurn::new(CallFormat::Converse);
    let mut found = Vec::new();
    for event in &events {
        found.extend(calls.push(event).unwrap());
        turn.push(event);
    }
    assert!(calls.finish().unwrap().is_empty());
    assert_eq!(found[0].name, "$READFILE");
    let replay = turn.replay(&found).unwrap();
    let recorded: Value =
        serde_json::from_slice(&bytes("converse/replay-name-refused.json")).unwrap();
    assert_eq!(*replay.turn, recorded);
    assert_eq!(replay.renamed[0].replayed, "_READFILE");
}

/// The body a byte-level stream records, its text fed in pieces cut at `cuts`.
fn recorded(file: &str, format: CallFormat, cuts: &[usize]) -> Value {
    let text = bytes(file);
    let mut from = 0;
    let mut pieces: Vec<&[u8]> = Vec::new();
    for &cut in cuts {
        pieces.push(&text[from..cut]);
        from = cut;
    }
    pieces.push(&text[from..]);
    if file.ends_with(".jsonl") {
        let mut stream = JsonLinesCallStream::new(format).recording_turn();
        for piece in pieces {
            let _ = stream.push(piece);
        }
        stream.turn().unwrap().body()
    } else {
        let mut stream = SseCallStream::new(format).recording_turn();
        for piece in pieces {
            let _ = stream.push(piece);
        }
        stream.turn().unwrap().body()
    }
}

#[test]
fn a_byte_stream_records_the_same_turn_at_any_chunking() {
    for entry in entries("stream") {
        let format = entry.format();
        let mut turn = StreamedTurn::new(format);
        for event in events(&entry.file) {
            turn.push(&event);
        }
        let whole = recorded(&entry.file, format, &[]);
        assert_eq!(whole, turn.body(), "{}", entry.file);
        let every_byte: Vec<usize> = (1..bytes(&entry.file).len()).collect();
        assert_eq!(
            recorded(&entry.file, format, &every_byte),
            whole,
            "{}",
            entry.file
        );
    }
}

/// Any JSON value, small: objects keyed by the members the formats read, so the recorders and
/// the replay meet their own shapes with the wrong types in them.
fn any_json() -> impl proptest::strategy::Strategy<Value = Value> {
    use proptest::prelude::*;
    let key = prop_oneof![
        Just("choices"),
        Just("delta"),
        Just("index"),
        Just("tool_calls"),
        Just("type"),
        Just("output"),
        Just("output_index"),
        Just("item"),
        Just("content"),
        Just("message"),
        Just("content_block"),
        Just("contentBlockIndex"),
        Just("contentBlockDelta"),
        Just("contentBlockStart"),
        Just("start"),
        Just("toolUse"),
        Just("candidates"),
        Just("parts"),
        Just("name"),
        Just("function"),
        Just("text"),
        Just("input"),
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        "[a-z_.]{0,6}".prop_map(Value::from),
        Just(Value::from("content_block_delta")),
        Just(Value::from("response.output_item.done")),
    ];
    leaf.prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((key.clone(), inner), 0..5).prop_map(|members| {
                Value::Object(
                    members
                        .into_iter()
                        .map(|(k, v)| (k.to_owned(), v))
                        .collect(),
                )
            }),
        ]
    })
}

proptest::proptest! {
    /// No event sequence and no body makes the recorders or the replay panic; a recorded turn
    /// always replays, and a body's own calls are always found in it.
    #[test]
    fn no_input_panics_the_recorders_or_the_replay(events in proptest::collection::vec(any_json(), 0..8)) {
        for format in CallFormat::ALL {
            let mut turn = StreamedTurn::new(format);
            for event in &events {
                turn.push(event);
            }
            // A recorded turn always has the format's shape, whatever its events were (unless
            // it was cut: a call still open): read past `whole()`, which refuses a turn an
            // event failed.
            let replayed = match turn.whole() {
                Err(cut @ ReplayError::Cut { .. }) => Err(cut),
                _ => replay_turn(format, &turn.body(), &[]).map(Replay::into_owned),
            };
            proptest::prop_assert!(
                matches!(replayed, Ok(_) | Err(ReplayError::Cut { .. })),
                "{}: {:?}",
                format,
                replayed
            );
            for body in &events {
                // The calls a body gives are always found where they point.
                if let Ok(calls) = toolwire_core::wire::calls::CallParser::new(format).parse(body) {
                    if !calls.is_empty() {
                        let replayed = replay_turn(format, body, &calls);
                        proptest::prop_assert!(replayed.is_ok(), "{}: {:?}", format, replayed);
                    }
                }
            }
        }
    }
}
