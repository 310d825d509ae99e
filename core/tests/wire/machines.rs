//! One machine per stream format (issue 26, point 2), for the Responses and Messages APIs: for
//! every stream fixture of the format, whole and cut into random byte-sized chunks, the calls
//! the stream yields are `parse_calls` of the body it built, and replaying them succeeds. A cut
//! turn is not replayed, and a call whose arguments are not an object is replayed with empty
//! arguments, the repair returned (point 3).

use proptest::prelude::*;
use serde_json::{json, Value};
use toolwire_core::wire::calls::{
    parse_calls, ArgumentsError, CallFormat, JsonLinesCallStream, SseCallStream, StreamError,
    ToolCall,
};
use toolwire_core::wire::replay::{replay_turn, Replay, ReplayError};

use crate::fixtures::{bytes, entries};

/// What a byte stream gave: its calls, the body its turn built, the turn's replay (taken
/// after the end, which may end calls: Chat Completions), and how the stream ended.
struct Run {
    calls: Vec<ToolCall>,
    body: Value,
    replay: Result<Replay<'static>, ReplayError>,
    end: Result<(), StreamError>,
}

/// `text` fed to a recording stream in pieces cut at `cuts` (sorted byte offsets).
fn run(format: CallFormat, text: &[u8], cuts: &[usize]) -> Run {
    let mut stream = SseCallStream::new(format).recording_turn();
    let mut calls = Vec::new();
    let mut from = 0;
    for &cut in cuts.iter().chain([text.len()].iter()) {
        match stream.push(&text[from..cut]) {
            Ok(ended) => calls.extend(ended),
            Err(_) => break,
        }
        from = cut;
    }
    let end = stream.finish().map(|last| calls.extend(last));
    let turn = stream.turn().unwrap();
    let (body, replay) = (turn.body(), turn.replay(&calls));
    Run {
        calls,
        body,
        replay,
        end,
    }
}

/// A call as the comparison sees it: everything, but an arguments error only as "an error"
/// (a text that is not JSON in a stream is a string `input` in the body it builds).
fn seen(call: &ToolCall) -> Value {
    json!({
        "id": call.id, "name": call.name, "namespace": call.namespace, "pointer": call.pointer,
        "arguments": call.arguments.as_ref().map_or(json!("an error"), |a| Value::Object(a.clone())),
    })
}

/// The machines' invariant for one stream fixture at one chunking.
fn check(file: &str, format: CallFormat, cuts: &[usize]) -> Result<(), TestCaseError> {
    let text = bytes(file);
    let got = run(format, &text, cuts);
    match &got.end {
        Ok(()) => {
            let parsed = parse_calls(format, &got.body)
                .map_err(|e| TestCaseError::fail(format!("{file}: {e}")))?;
            prop_assert_eq!(
                got.calls.iter().map(seen).collect::<Vec<_>>(),
                parsed.iter().map(seen).collect::<Vec<_>>(),
                "{} cut at {:?}",
                file,
                cuts
            );
            prop_assert!(got.replay.is_ok(), "{}: {:?}", file, got.replay);
        }
        // A cut turn is not replayed: the error names what the stream's end names.
        Err(StreamError::Unfinished { calls, .. }) => {
            let Err(ReplayError::Cut { calls: cut, .. }) = &got.replay else {
                return Err(TestCaseError::fail(format!("{file}: {:?}", got.replay)));
            };
            prop_assert_eq!(cut, calls, "{}", file);
        }
        Err(StreamError::Provider { .. }) => {
            prop_assert!(
                matches!(got.replay, Err(ReplayError::Cut { .. })),
                "{}",
                file
            );
        }
        Err(other) => return Err(TestCaseError::fail(format!("{file}: {other}"))),
    }
    Ok(())
}

/// The stream fixtures of the two formats.
fn fixtures() -> Vec<(String, CallFormat)> {
    let list: Vec<(String, CallFormat)> = entries("stream")
        .into_iter()
        .filter(|e| {
            matches!(
                e.format(),
                CallFormat::OpenAiResponses | CallFormat::Anthropic
            )
        })
        .map(|e| (e.file.clone(), e.format()))
        .collect();
    assert!(list.len() >= 12, "only {} stream fixtures", list.len());
    list
}

#[test]
fn every_stream_of_the_two_formats_gives_the_calls_of_the_body_it_builds() {
    for (file, format) in fixtures() {
        check(&file, format, &[]).unwrap();
        let every_byte: Vec<usize> = (1..bytes(&file).len()).collect();
        check(&file, format, &every_byte).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// The same at random chunkings.
    #[test]
    fn at_any_chunking_the_calls_are_the_built_bodys(cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..24)) {
        for (file, format) in fixtures() {
            let len = bytes(&file).len();
            let mut at: Vec<usize> = cuts.iter().map(|i| i.index(len)).collect();
            at.sort_unstable();
            at.dedup();
            check(&file, format, &at)?;
        }
    }
}

#[test]
fn a_cut_messages_stream_is_not_replayed_and_names_its_cut_call() {
    // The second tool_use's fragments end before its content_block_stop: its input would be
    // replayed as a string.
    let got = run(
        CallFormat::Anthropic,
        &bytes("anthropic/stream-truncated.sse"),
        &[],
    );
    let Err(ReplayError::Cut {
        format,
        calls,
        cut_event: false,
    }) = &got.replay
    else {
        panic!("{:?}", got.replay)
    };
    assert_eq!(*format, CallFormat::Anthropic);
    assert_eq!(
        calls[0].id.as_deref(),
        Some("toolu_01BcDeFgHiJkLmNoPqRsTuV2")
    );
    let said = got.replay.unwrap_err().to_string();
    assert!(said.contains("`get_weather` (id `toolu_01BcDeFgHiJkLmNoPqRsTuV2`) never ended"));
}

#[test]
fn a_cut_responses_stream_is_not_replayed() {
    let got = run(
        CallFormat::OpenAiResponses,
        &bytes("openai-responses/stream-truncated.sse"),
        &[],
    );
    assert!(
        matches!(&got.replay, Err(ReplayError::Cut { calls, .. }) if !calls.is_empty()),
        "{:?}",
        got.replay
    );
}

#[test]
fn a_byte_stream_stopped_inside_an_event_is_not_replayed() {
    // Every call ended, but the bytes stop inside the last event (`message_stop`).
    let text = bytes("anthropic/stream-one-call.sse");
    let cut = text.len() - 5;
    let got = run(CallFormat::Anthropic, &text[..cut], &[]);
    assert_eq!(got.calls.len(), 1);
    assert!(
        matches!(&got.replay, Err(ReplayError::Cut { calls, cut_event: true, .. }) if calls.is_empty()),
        "{:?}",
        got.replay
    );
    // The whole stream replays.
    assert!(run(CallFormat::Anthropic, &text, &[]).replay.is_ok());
}

#[test]
fn an_error_event_fails_the_stream_after_the_calls_before_it() {
    let got = run(
        CallFormat::Anthropic,
        &bytes("anthropic/stream-error.sse"),
        &[],
    );
    assert_eq!(got.calls.len(), 1);
    assert!(
        matches!(&got.end, Err(StreamError::Provider { message, .. }) if message == "Overloaded"),
        "{:?}",
        got.end
    );
}

#[test]
fn arguments_that_are_not_an_object_are_replayed_empty_and_the_repair_returned() {
    let got = run(
        CallFormat::Anthropic,
        &bytes("anthropic/stream-bad-arguments.sse"),
        &[],
    );
    got.end.unwrap();
    assert!(matches!(
        got.calls[0].arguments,
        Err(ArgumentsError::NotJson { .. })
    ));
    // The body the stream built holds the text as it came; the replay, an object.
    assert!(got.body["content"][0]["input"].is_string());
    let replay = got.replay.unwrap();
    assert_eq!(replay.turn["content"][0]["input"], json!({}));
    assert_eq!(
        replay.turn["content"][1]["input"],
        got.body["content"][1]["input"]
    );
    assert_eq!(replay.repaired.len(), 1);
    assert_eq!(replay.repaired[0].id, got.calls[0].id);
    assert_eq!(replay.repaired[0].pointer, "/content/0/input");
    assert_eq!(
        replay.repaired[0].was.as_ref(),
        Some(&got.body["content"][0]["input"])
    );
    assert!(!replay.is_verbatim());

    // A body's call too: the Responses API carries its arguments as text, replayed as "{}".
    let body: Value =
        serde_json::from_slice(&bytes("openai-responses/response-bad-arguments.json")).unwrap();
    let calls = parse_calls(CallFormat::OpenAiResponses, &body).unwrap();
    let replay = replay_turn(CallFormat::OpenAiResponses, &body, &calls).unwrap();
    for repaired in &replay.repaired {
        assert_eq!(replay.turn.pointer(&repaired.pointer), Some(&json!("{}")));
    }
    assert_eq!(
        replay.repaired.len(),
        calls.iter().filter(|c| c.arguments.is_err()).count()
    );
}

#[test]
fn a_truncated_stream_of_every_format_is_not_replayed() {
    // Cut turns are refused in every format (the replay is generic): each format's truncated
    // fixture, its turn replayed before the stream's end as an app does.
    let mut refused = 0;
    for entry in entries("stream") {
        if entry.info["truncated"] != true {
            continue;
        }
        let text = bytes(&entry.file);
        let replay = if entry.file.ends_with(".jsonl") {
            let mut stream = JsonLinesCallStream::new(entry.format()).recording_turn();
            let calls = stream.push(&text).unwrap_or_default();
            stream.turn().unwrap().replay(&calls)
        } else {
            run(entry.format(), &text, &[]).replay
        };
        assert!(
            matches!(replay, Err(ReplayError::Cut { .. })),
            "{}: {replay:?}",
            entry.file
        );
        refused += 1;
    }
    assert_eq!(refused, 5, "one truncated stream per format");
}

#[test]
fn a_server_tool_block_left_open_cuts_the_turn() {
    use toolwire_core::wire::calls::CallStream;
    // A `server_tool_use` (Anthropic) or a server `toolUse` (Converse) is the provider's to
    // run, not the app's: still, a turn that stops inside one carries an input that never
    // finished, which the provider refuses in history.
    let anthropic = [
        json!({"type": "message_start", "message": {"id": "msg_1", "type": "message",
            "role": "assistant", "content": [], "model": "claude"}}),
        json!({"type": "content_block_start", "index": 0, "content_block":
            {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}}),
        json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": "{\"query\": \"pa"}}),
    ];
    let converse = [
        json!({"messageStart": {"role": "assistant"}}),
        json!({"contentBlockStart": {"contentBlockIndex": 0, "start": {"toolUse":
            {"toolUseId": "tooluse_1", "name": "nova_grounding", "type": "server_tool_use"}}}}),
        json!({"contentBlockDelta": {"contentBlockIndex": 0,
            "delta": {"toolUse": {"input": "{\"query\": \"pa"}}}}),
    ];
    for (format, events, id) in [
        (CallFormat::Anthropic, &anthropic[..], "srvtoolu_1"),
        (CallFormat::Converse, &converse[..], "tooluse_1"),
    ] {
        let mut stream = CallStream::new(format).recording_turn();
        for event in events {
            assert!(stream.push(event).unwrap().is_empty(), "{format}");
        }
        let turn = stream.turn().unwrap();
        let Err(ReplayError::Cut { calls, .. }) = turn.replay(&[]) else {
            panic!("{format}: {:?}", turn.replay(&[]));
        };
        assert_eq!(calls[0].id.as_deref(), Some(id), "{format}");
    }
}

/// The stream types an app holds across `.await`s and `catch_unwind`s stay `Send`, `Sync`
/// and unwind-safe, whichever format's machine they hold.
#[test]
fn the_stream_types_are_send_sync_and_unwind_safe() {
    fn holds<T: Send + Sync + std::panic::UnwindSafe + std::panic::RefUnwindSafe>() {}
    holds::<toolwire_core::wire::calls::CallStream>();
    holds::<toolwire_core::wire::calls::SseCallStream>();
    holds::<toolwire_core::wire::calls::JsonLinesCallStream>();
    holds::<toolwire_core::wire::replay::StreamedTurn>();
}
