//! The Chat Completions stream machine, over every Chat stream fixture (issue 26, point 2):
//! the calls a stream yields are `parse_calls` of the body its own recorded turn built, and
//! replaying them succeeds; the same for the stream cut into random byte-sized chunks.

use proptest::prelude::*;
use proptest::sample::Index;
use toolwire_core::wire::calls::{parse_calls, CallFormat, SseCallStream, ToolCall};
use toolwire_core::wire::replay::replay_turn;

use crate::fixtures::{bytes, entries};

/// Every whole (not truncated) Chat stream fixture, with its text.
fn chat_streams() -> Vec<(String, Vec<u8>)> {
    let streams: Vec<_> = entries("stream")
        .into_iter()
        .filter(|entry| entry.format() == CallFormat::OpenAiChat)
        .filter(|entry| entry.info["truncated"] != true)
        .map(|entry| {
            let text = bytes(&entry.file);
            (entry.file, text)
        })
        .collect();
    assert!(
        streams.len() >= 17,
        "the Chat stream fixtures: {}",
        streams.len()
    );
    streams
}

/// Feeds `text` cut at `cuts` (sorted offsets) to a recording stream: its calls and the body
/// its turn built.
fn run(file: &str, text: &[u8], cuts: &[usize]) -> (Vec<ToolCall>, serde_json::Value) {
    let mut stream = SseCallStream::new(CallFormat::OpenAiChat).recording_turn();
    let mut calls = Vec::new();
    let mut from = 0;
    for &cut in cuts.iter().chain([text.len()].iter()) {
        let pushed = stream.push(&text[from..cut]);
        calls.extend(pushed.unwrap_or_else(|e| panic!("{file}: {e}")));
        from = cut;
    }
    calls.extend(stream.finish().unwrap_or_else(|e| panic!("{file}: {e}")));
    let body = stream.turn().unwrap().body();
    (calls, body)
}

fn check(file: &str, calls: &[ToolCall], body: &serde_json::Value) -> Result<(), String> {
    let parsed = parse_calls(CallFormat::OpenAiChat, body).map_err(|e| format!("{file}: {e}"))?;
    // Unusable arguments agree by kind: the stream words why (a placeholder at a close, a
    // limit), the body holds a marker whose parse words it as JSON's error.
    let seen = |calls: &[ToolCall]| -> Vec<_> {
        calls
            .iter()
            .map(|call| {
                let arguments = match &call.arguments {
                    Ok(arguments) => Ok(arguments.clone()),
                    Err(error) => Err(std::mem::discriminant(error)),
                };
                (
                    call.id.clone(),
                    call.name.clone(),
                    call.pointer.clone(),
                    arguments,
                )
            })
            .collect()
    };
    if seen(&parsed) != seen(calls) {
        return Err(format!(
            "{file}: the stream's calls {calls:?} are not its body's {parsed:?}"
        ));
    }
    replay_turn(CallFormat::OpenAiChat, body, calls).map_err(|e| format!("{file}: {e}"))?;
    Ok(())
}

#[test]
fn every_chat_stream_yields_its_own_bodys_calls_and_replays() {
    for (file, text) in chat_streams() {
        let (calls, body) = run(&file, &text, &[]);
        assert!(!calls.is_empty(), "{file}: no calls");
        check(&file, &calls, &body).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn any_chunking_of_a_chat_stream_yields_its_bodys_calls_and_replays(
        picks in prop::collection::vec(any::<Index>(), 0..64),
    ) {
        for (file, text) in chat_streams() {
            let mut cuts: Vec<usize> = picks.iter().map(|pick| pick.index(text.len() + 1)).collect();
            cuts.sort_unstable();
            let (calls, body) = run(&file, &text, &cuts);
            prop_assert!(check(&file, &calls, &body).is_ok(), "{:?} cut at {:?}", check(&file, &calls, &body), cuts);
        }
    }
}

/// A Chat Completions chunk of one tool call delta at index 0.
fn delta(id: Option<&str>, name: &str, arguments: &str) -> serde_json::Value {
    let mut call = serde_json::json!({"index": 0, "type": "function",
        "function": {"name": name, "arguments": arguments}});
    if let Some(id) = id {
        call["id"] = id.into();
    }
    serde_json::json!({"choices": [{"index": 0, "delta": {"tool_calls": [call]}}]})
}

#[test]
fn arguments_nested_past_127_levels_are_not_json_and_a_call_after_them_at_their_index_is_its_own() {
    use toolwire_core::wire::calls::{ArgumentsError, CallStream};
    let deep = format!("{{\"a\":{}{}}}", "[".repeat(127), "]".repeat(127));
    let mut stream = CallStream::new(CallFormat::OpenAiChat).recording_turn();
    let mut calls = stream.push(&delta(Some("call_1"), "f", &deep)).unwrap();
    // A second call at the same index, with its own id, after the first one's arguments
    // ended: too deep to be whole, they still ended, so it begins a call of its own.
    calls.extend(stream.push(&delta(Some("call_2"), "f", "{}")).unwrap());
    let end =
        serde_json::json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]});
    calls.extend(stream.push(&end).unwrap());
    calls.extend(stream.finish().unwrap());
    assert_eq!(calls.len(), 2, "{calls:?}");
    assert_eq!(calls[0].id.as_deref(), Some("call_1"));
    let Err(ArgumentsError::NotJson { message }) = &calls[0].arguments else {
        panic!("{:?}", calls[0].arguments)
    };
    assert!(message.contains("recursion limit"), "{message}");
    assert_eq!(calls[1].id.as_deref(), Some("call_2"));
    assert!(calls[1].arguments.as_ref().unwrap().is_empty());
    // The turn records the deep text; its replay carries `{}` instead, and says so, and the
    // second call is replayed as it came.
    let turn = stream.turn().unwrap();
    let replay = turn.replay(&calls).unwrap();
    assert_eq!(replay.repaired.len(), 1);
    assert_eq!(replay.turn["tool_calls"][0]["function"]["arguments"], "{}");
    assert_eq!(replay.turn["tool_calls"][1]["id"], "call_2");
    // The same id minted anew for the same call, while the deep text is still open, continues
    // it: the rule reads "ended", not "too deep".
    let mut stream = CallStream::new(CallFormat::OpenAiChat);
    let half = deep.len() / 2;
    let mut calls = stream
        .push(&delta(Some("call_1"), "f", &deep[..half]))
        .unwrap();
    calls.extend(
        stream
            .push(&delta(Some("call_9"), "f", &deep[half..]))
            .unwrap(),
    );
    calls.extend(stream.push(&end).unwrap());
    calls.extend(stream.finish().unwrap());
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert_eq!(calls[0].id.as_deref(), Some("call_1"));
}
