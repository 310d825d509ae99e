//! Every recorded stream assembles to its sibling response's calls (and the index's); a call is
//! yielded only by its format's end signal; a truncated stream names each call it cut, never
//! yielding one.

use serde_json::Value;
use toolwire_core::wire::calls::{CallFormat, CallStream, SseDecoder, StreamError, ToolCall};

use crate::fixtures::{assemble, assert_calls, body_calls, bytes, entries, Entry};

fn whole(entry: &Entry) -> (Vec<ToolCall>, Result<(), StreamError>) {
    assemble(&entry.file, entry.format(), &bytes(&entry.file), &[])
}

#[test]
fn every_stream_gives_the_indexed_calls() {
    for entry in entries("stream") {
        let (calls, _) = whole(&entry);
        assert_calls(&entry.file, &calls, entry.expected_calls());
    }
}

#[test]
fn every_stream_gives_its_sibling_responses_calls() {
    let mut pairs = 0;
    for entry in entries("stream") {
        let Some(sibling) = entry.sibling() else {
            continue;
        };
        let (streamed, end) = whole(&entry);
        end.unwrap_or_else(|e| panic!("{}: {e}", entry.file));
        let answered = body_calls(sibling, entry.format());
        let strip = |calls: &[ToolCall]| -> Vec<(Option<String>, String, Option<String>, String)> {
            calls
                .iter()
                .map(|c| {
                    (
                        c.id.clone(),
                        c.name.clone(),
                        c.namespace.clone(),
                        format!("{:?}", c.arguments),
                    )
                })
                .collect()
        };
        assert_eq!(
            strip(&streamed),
            strip(&answered),
            "{} vs {sibling}",
            entry.file
        );
        // The pointer is the block's place in the body the stream builds: the sibling's,
        // unless the index notes the two differ in their other blocks.
        if entry.info.get("note").is_none() {
            let pointers =
                |calls: &[ToolCall]| calls.iter().map(|c| c.pointer.clone()).collect::<Vec<_>>();
            assert_eq!(
                pointers(&streamed),
                pointers(&answered),
                "{} vs {sibling}",
                entry.file
            );
        }
        pairs += 1;
    }
    assert!(pairs >= 15, "only {pairs} stream/response pairs");
}

#[test]
fn a_truncated_stream_names_each_cut_call_and_yields_none_of_them() {
    let mut truncated = 0;
    for entry in entries("stream") {
        let (calls, end) = whole(&entry);
        let expected = entry.expected_unfinished();
        if let Some(message) = entry.info["stream_error"].as_str() {
            // A stream the provider ended with an error event fails with its message.
            assert!(
                matches!(&end, Err(StreamError::Provider { message: m, .. }) if m == message),
                "{}: {end:?}",
                entry.file
            );
            continue;
        }
        if expected.is_empty() {
            end.unwrap_or_else(|e| panic!("{}: {e}", entry.file));
            continue;
        }
        truncated += 1;
        let Err(StreamError::Unfinished {
            format,
            calls: unfinished,
            ..
        }) = &end
        else {
            panic!("{}: {end:?}", entry.file);
        };
        assert_eq!(*format, entry.format());
        let named: Vec<Value> = unfinished
            .iter()
            .map(|c| serde_json::json!({"id": c.id, "name": c.name}))
            .collect();
        assert_eq!(named, expected, "{}", entry.file);
        // None of them is among the calls; the error says each name.
        for cut in unfinished {
            assert!(
                !calls.iter().any(|c| c.id.is_some() && c.id == cut.id),
                "{}",
                entry.file
            );
            assert!(end
                .as_ref()
                .unwrap_err()
                .to_string()
                .contains(cut.name.as_deref().unwrap()));
        }
    }
    assert_eq!(truncated, 5, "one truncated stream per format");
}

/// Whether a decoded event is its format's end signal of a call.
fn is_end_signal(format: CallFormat, event: &Value) -> bool {
    match format {
        // A real reason: `""` (Ollama, SGLang) ends nothing.
        CallFormat::OpenAiChat => event["choices"][0]["finish_reason"]
            .as_str()
            .is_some_and(|reason| !reason.is_empty()),
        CallFormat::OpenAiResponses => event["type"] == "response.output_item.done",
        CallFormat::Anthropic => event["type"] == "content_block_stop",
        CallFormat::Converse => event.get("contentBlockStop").is_some(),
        CallFormat::Gemini => event["candidates"][0]["content"]["parts"]
            .as_array()
            .is_some_and(|parts| parts.iter().any(|p| p.get("functionCall").is_some())),
        other => panic!("{other}"),
    }
}

#[test]
fn calls_come_only_with_their_end_signal() {
    for entry in entries("stream") {
        let text = bytes(&entry.file);
        // Each event's text: a JSON event, or OpenAI's `[DONE]`, itself an end signal.
        let events: Vec<Vec<u8>> = if entry.file.ends_with(".jsonl") {
            text.split(|&b| b == b'\n')
                .filter(|line| serde_json::from_slice::<Value>(line).is_ok())
                .map(<[u8]>::to_vec)
                .collect()
        } else {
            let mut decoder = SseDecoder::new();
            decoder
                .push(&text)
                .unwrap()
                .into_iter()
                .map(|event| event.data.into_bytes())
                .filter(|data| data == b"[DONE]" || serde_json::from_slice::<Value>(data).is_ok())
                .collect()
        };
        let mut stream = CallStream::new(entry.format());
        let mut yielded = 0;
        for event in &events {
            let Ok(calls) = stream.push_slice(event) else {
                break;
            };
            if !calls.is_empty() {
                let ends = match serde_json::from_slice::<Value>(event) {
                    Ok(event) => is_end_signal(entry.format(), &event),
                    Err(_) => entry.format() == CallFormat::OpenAiChat,
                };
                assert!(ends, "{}: {}", entry.file, String::from_utf8_lossy(event));
            }
            yielded += calls.len();
        }
        // A Chat Completions stream that ends between events ends its open calls there (its
        // events decoded apart lose where a truncated one was cut, so only a whole one ends).
        if entry.info["truncated"] != true {
            yielded += stream.finish().map_or(0, |calls| calls.len());
        }
        assert_eq!(yielded, entry.expected_calls().len(), "{}", entry.file);
    }
}

#[test]
fn whole_partial_arguments_are_not_an_end_signal() {
    // openai-chat/stream-truncated.sse: the first call's arguments are whole JSON, but no
    // finish reason came (vercel/ai PR #13137).
    let entry = entries("stream")
        .into_iter()
        .find(|e| e.file == "openai-chat/stream-truncated.sse")
        .unwrap();
    let (calls, end) = whole(&entry);
    assert!(calls.is_empty());
    assert!(matches!(end, Err(StreamError::Unfinished { ref calls, .. }) if calls.len() == 2));
}
