//! Bad input: a body or stream not of its format (a typed error naming the format and the
//! JSON pointer), a call without a name, two calls with one id, huge arguments (that call's
//! error only), unknown events (ignored), provider errors inside a stream. Never a panic.

use serde_json::{json, Value};
use toolwire_core::wire::calls::{
    ArgumentsError, BodyError, CallFormat, CallParser, CallStream, SseCallStream, StreamError,
};

use crate::fixtures::{bytes, entries};

/// One body of each format, from the fixtures.
fn bodies() -> Vec<(CallFormat, Value)> {
    [
        (CallFormat::OpenAiChat, "openai-chat/response-parallel.json"),
        (
            CallFormat::OpenAiResponses,
            "openai-responses/response-parallel.json",
        ),
        (CallFormat::Anthropic, "anthropic/response-parallel.json"),
        (CallFormat::Converse, "converse/response-parallel.json"),
        (CallFormat::Gemini, "gemini/response-parallel-ids.json"),
    ]
    .into_iter()
    .map(|(format, file)| (format, serde_json::from_slice(&bytes(file)).unwrap()))
    .collect()
}

/// Where each format's calls are required to be.
fn root_pointer(format: CallFormat) -> &'static str {
    match format {
        CallFormat::OpenAiChat => "/choices",
        CallFormat::OpenAiResponses => "/output",
        CallFormat::Anthropic => "/content",
        CallFormat::Converse => "/output",
        CallFormat::Gemini => "/candidates",
        other => panic!("{other}"),
    }
}

#[test]
fn another_formats_body_is_a_shape_error_naming_format_and_pointer() {
    for (body_format, body) in bodies() {
        for format in CallFormat::ALL {
            if format == body_format {
                continue;
            }
            // Converse's `output` is an object; Responses' is an array: each refuses the other's.
            let err = CallParser::new(format).parse(&body).unwrap_err();
            let BodyError::Shape {
                format: named,
                pointer,
                ..
            } = &err
            else {
                panic!("{format} read {body_format}: {err:?}");
            };
            assert_eq!(*named, format);
            assert!(
                pointer.starts_with(root_pointer(format)),
                "{format} read {body_format}: {err}"
            );
            assert!(err.to_string().contains(format.api_name()), "{err}");
            // "an OpenAI", "an Anthropic", never "a OpenAI".
            let article = match format {
                CallFormat::OpenAiChat | CallFormat::OpenAiResponses | CallFormat::Anthropic => {
                    "an"
                }
                _ => "a",
            };
            let said = format!("is not {article} {} response", format.api_name());
            assert!(err.to_string().contains(&said), "{err}");
        }
    }
}

#[test]
fn what_is_not_a_body_is_refused() {
    for format in CallFormat::ALL {
        let parser = CallParser::new(format);
        assert!(matches!(
            parser.parse_str("{\"a\":"),
            Err(BodyError::NotJson { .. })
        ));
        for value in [json!(null), json!([]), json!("text"), json!(1)] {
            let err = parser.parse(&value).unwrap_err();
            assert!(
                matches!(err, BodyError::Shape { ref pointer, .. } if pointer.is_empty()),
                "{err:?}"
            );
        }
    }
}

/// The first call's object in a body of each format, to break.
fn first_call(format: CallFormat, body: &mut Value) -> &mut serde_json::Map<String, Value> {
    let call = match format {
        CallFormat::OpenAiChat => &mut body["choices"][0]["message"]["tool_calls"][0],
        CallFormat::OpenAiResponses => &mut body["output"][0],
        CallFormat::Anthropic => &mut body["content"][0],
        CallFormat::Converse => &mut body["output"]["message"]["content"][0]["toolUse"],
        CallFormat::Gemini => &mut body["candidates"][0]["content"]["parts"][0]["functionCall"],
        other => panic!("{other}"),
    };
    call.as_object_mut().unwrap()
}

fn name_holder(
    format: CallFormat,
    call: &mut serde_json::Map<String, Value>,
) -> &mut serde_json::Map<String, Value> {
    match format {
        CallFormat::OpenAiChat => call.get_mut("function").unwrap().as_object_mut().unwrap(),
        _ => call,
    }
}

#[test]
fn a_call_without_a_name_is_refused() {
    for (format, body) in bodies() {
        for broken_name in [None, Some(json!(""))] {
            let mut body = body.clone();
            let holder = name_holder(format, first_call(format, &mut body));
            match &broken_name {
                None => holder.remove("name"),
                Some(empty) => holder.insert("name".into(), empty.clone()),
            };
            let err = CallParser::new(format).parse(&body).unwrap_err();
            assert!(
                matches!(err, BodyError::MissingName { format: f, .. } if f == format),
                "{format}: {err:?}"
            );
        }
    }
}

#[test]
fn two_calls_with_one_id_are_refused() {
    for (format, mut body) in bodies() {
        let id_key = match format {
            CallFormat::OpenAiChat | CallFormat::Anthropic | CallFormat::Gemini => "id",
            CallFormat::OpenAiResponses => "call_id",
            CallFormat::Converse => "toolUseId",
            other => panic!("{other}"),
        };
        let first_id = first_call(format, &mut body)[id_key].clone();
        // The second call takes the first one's id.
        let second = match format {
            CallFormat::OpenAiChat => &mut body["choices"][0]["message"]["tool_calls"][1],
            CallFormat::OpenAiResponses => &mut body["output"][1],
            CallFormat::Anthropic => &mut body["content"][1],
            CallFormat::Converse => &mut body["output"]["message"]["content"][1]["toolUse"],
            CallFormat::Gemini => &mut body["candidates"][0]["content"]["parts"][1]["functionCall"],
            other => panic!("{other}"),
        };
        second[id_key] = first_id.clone();
        let err = CallParser::new(format).parse(&body).unwrap_err();
        let BodyError::DuplicateId { id, pointer, .. } = &err else {
            panic!("{format}: {err:?}")
        };
        assert_eq!(Some(id.as_str()), first_id.as_str());
        let second_call = match format {
            CallFormat::OpenAiChat => "/choices/0/message/tool_calls/1",
            CallFormat::OpenAiResponses => "/output/1",
            CallFormat::Anthropic => "/content/1",
            CallFormat::Converse => "/output/message/content/1",
            _ => "/candidates/0/content/parts/1",
        };
        assert_eq!(pointer, second_call, "{format}");
    }
}

#[test]
fn gemini_calls_without_ids_are_not_duplicates() {
    let calls = CallParser::new(CallFormat::Gemini)
        .parse_slice(&bytes("gemini/response-parallel-no-ids.json"))
        .unwrap();
    assert_eq!(calls.len(), 2);
    assert!(calls.iter().all(|c| c.id.is_none()));
}

#[test]
fn huge_arguments_are_that_calls_error_only() {
    let huge = format!("{{\"text\":\"{}\"}}", "x".repeat(2 << 20));
    let body = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": huge}},
        {"id": "call_2", "type": "function", "function": {"name": "g", "arguments": "{}"}},
    ]}}]});
    let calls = CallParser::new(CallFormat::OpenAiChat)
        .parse(&body)
        .unwrap();
    assert_eq!(
        calls[0].arguments,
        Err(ArgumentsError::TooLong {
            bytes: huge.len(),
            limit: 1 << 20
        })
    );
    assert!(calls[1].arguments.is_ok());
    // A lower limit applies to the Responses API's arguments too.
    let body = json!({"output": [{"type": "function_call", "call_id": "c", "name": "f", "arguments": "{\"a\":1}"}]});
    let calls = CallParser::new(CallFormat::OpenAiResponses)
        .max_argument_bytes(6)
        .parse(&body)
        .unwrap();
    assert!(matches!(
        calls[0].arguments,
        Err(ArgumentsError::TooLong { bytes: 7, limit: 6 })
    ));
}

#[test]
fn a_streams_huge_arguments_are_not_kept_and_are_that_calls_error() {
    let mut stream = CallParser::new(CallFormat::Anthropic)
        .max_argument_bytes(64)
        .stream();
    let start = |index: u64, id: &str| {
        json!({"type": "content_block_start", "index": index,
        "content_block": {"type": "tool_use", "id": id, "name": "f", "input": {}}})
    };
    let delta = |index: u64, text: &str| {
        json!({"type": "content_block_delta", "index": index,
        "delta": {"type": "input_json_delta", "partial_json": text}})
    };
    let stop = |index: u64| json!({"type": "content_block_stop", "index": index});
    let mut calls = Vec::new();
    calls.extend(stream.push(&start(0, "toolu_1")).unwrap());
    for _ in 0..1000 {
        calls.extend(stream.push(&delta(0, "0123456789")).unwrap());
    }
    calls.extend(stream.push(&stop(0)).unwrap());
    calls.extend(stream.push(&start(1, "toolu_2")).unwrap());
    calls.extend(stream.push(&delta(1, "{}")).unwrap());
    calls.extend(stream.push(&stop(1)).unwrap());
    calls.extend(stream.finish().unwrap());
    assert_eq!(
        calls[0].arguments,
        Err(ArgumentsError::TooLong {
            bytes: 10_000,
            limit: 64
        })
    );
    assert!(calls[1].arguments.is_ok());
}

/// An event of `format`'s shape whose type (or member, or part) the assembler does not know.
fn unknown_event(format: CallFormat) -> Value {
    match format {
        CallFormat::OpenAiChat => json!({"object": "chat.completion.chunk", "choices": [
            {"index": 0, "delta": {"brand_new": true}, "finish_reason": null}]}),
        CallFormat::OpenAiResponses => {
            json!({"type": "response.brand_new_event", "output_index": 0})
        }
        CallFormat::Anthropic => json!({"type": "brand_new_event", "index": 0}),
        CallFormat::Converse => json!({"brandNewMember": {"contentBlockIndex": 0}}),
        // (An unknown part would still be a part, and move the later calls' pointers.)
        CallFormat::Gemini => json!({"candidates": [{"index": 0, "brandNewField": {}}],
            "usageMetadata": {"totalTokenCount": 1}}),
        other => panic!("{other}"),
    }
}

/// A stream fixture's events, parsed.
fn events_of(file: &str) -> Vec<Value> {
    let text = bytes(file);
    if file.ends_with(".jsonl") {
        text.split(|&b| b == b'\n')
            .filter(|line| !line.is_empty())
            .filter_map(|line| serde_json::from_slice(line).ok())
            .collect()
    } else {
        toolwire_core::wire::calls::SseDecoder::new()
            .push(&text)
            .unwrap()
            .into_iter()
            .filter_map(|event| serde_json::from_str(&event.data).ok())
            .collect()
    }
}

#[test]
fn another_formats_stream_is_an_error_never_a_quiet_end() {
    for entry in entries("stream") {
        if entry.info["stream_error"].is_string() {
            // An `error` event is of both the Responses and the Messages API's kinds.
            continue;
        }
        let events = events_of(&entry.file);
        for format in CallFormat::ALL {
            if format == entry.format() {
                continue;
            }
            let mut stream = CallStream::new(format);
            let mut calls = Vec::new();
            let mut end = Ok(());
            for event in &events {
                match stream.push(event) {
                    Ok(ended) => calls.extend(ended),
                    Err(error) => {
                        end = Err(error);
                        break;
                    }
                }
            }
            let end = end.and_then(|()| stream.finish().map(|last| calls.extend(last)));
            assert!(calls.is_empty(), "{format} read {}: {calls:?}", entry.file);
            let err = end.expect_err(&format!("{format} read {}", entry.file));
            assert_eq!(err.format(), format);
            assert!(
                matches!(
                    err,
                    StreamError::Shape { .. } | StreamError::NotTheFormat { .. }
                ),
                "{format} read {}: {err:?}",
                entry.file
            );
        }
    }
}

#[test]
fn unknown_events_between_a_streams_events_change_nothing() {
    for entry in entries("stream") {
        if entry.info["stream_error"].is_string() {
            // The stream fails at its error event (`machines.rs` checks it).
            continue;
        }
        let format = entry.format();
        let events = events_of(&entry.file);
        let run = |with_unknown: bool| {
            let mut stream = CallStream::new(format);
            let mut calls = Vec::new();
            for event in &events {
                if with_unknown {
                    calls.extend(stream.push(&unknown_event(format)).unwrap());
                }
                calls.extend(stream.push(event).unwrap());
            }
            (calls, stream.open_calls())
        };
        let plain = run(false);
        assert!(!plain.0.is_empty() || !plain.1.is_empty(), "{}", entry.file);
        assert_eq!(run(true), plain, "{}", entry.file);
    }
}

#[test]
fn a_stream_event_that_is_not_json_or_not_the_shape_ends_the_stream_with_its_number() {
    let mut stream = SseCallStream::new(CallFormat::Anthropic);
    let err = stream
        .push(b"data: {\"type\":\"ping\"}\n\ndata: {\"type\":\n\n")
        .unwrap_err();
    assert!(
        matches!(err, StreamError::EventNotJson { event: 1, .. }),
        "{err:?}"
    );
    assert_eq!(
        stream.push(b"data: {\"type\":\"ping\"}\n\n").unwrap_err(),
        err
    );
    assert_eq!(stream.finish().unwrap_err(), err);

    let mut stream = CallStream::new(CallFormat::Anthropic);
    let err = stream
        .push(&json!({"type": "content_block_stop", "index": "0"}))
        .unwrap_err();
    assert!(
        matches!(err, StreamError::Shape { ref pointer, .. } if pointer == "/index"),
        "{err:?}"
    );
}

#[test]
fn calls_ended_before_a_fault_are_still_returned() {
    // Two calls end with one finish reason; the second repeats the first's id.
    let mut stream = CallStream::new(CallFormat::OpenAiChat);
    let header = |index: u64, name: &str| {
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [
        {"index": index, "id": "call_same", "type": "function", "function": {"name": name, "arguments": "{}"}}]}}]})
    };
    assert!(stream.push(&header(0, "f")).unwrap().is_empty());
    assert!(stream.push(&header(1, "g")).unwrap().is_empty());
    let done = json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]});
    let calls = stream.push(&done).unwrap();
    assert_eq!(calls.len(), 1);
    let err = stream.finish().unwrap_err();
    assert!(
        matches!(err, StreamError::DuplicateId { event: 2, ref id, .. } if id == "call_same"),
        "{err:?}"
    );
}

#[test]
fn a_provider_error_in_the_stream_is_returned() {
    let cases = [
        (
            CallFormat::Anthropic,
            json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
            "Overloaded",
        ),
        (
            CallFormat::OpenAiResponses,
            json!({"type": "error", "code": "server_error", "message": "boom", "param": null}),
            "boom",
        ),
        (
            CallFormat::Converse,
            json!({"modelStreamErrorException": {"message": "bad stream", "originalStatusCode": 500}}),
            "bad stream",
        ),
    ];
    for (format, event, said) in cases {
        let err = CallStream::new(format).push(&event).unwrap_err();
        assert!(
            matches!(&err, StreamError::Provider { message, .. } if message.contains(said)),
            "{format}: {err:?}"
        );
    }
}

#[test]
fn a_stream_call_without_a_name_or_id_is_refused() {
    let mut stream = CallStream::new(CallFormat::Converse);
    let start = json!({"contentBlockStart": {"contentBlockIndex": 0, "start": {"toolUse": {"toolUseId": "t1"}}}});
    assert!(stream.push(&start).unwrap().is_empty());
    let err = stream
        .push(&json!({"contentBlockStop": {"contentBlockIndex": 0}}))
        .unwrap_err();
    assert!(
        matches!(err, StreamError::MissingName { ref pointer, .. } if pointer == "/output/message/content/0"),
        "{err:?}"
    );

    let mut stream = CallStream::new(CallFormat::OpenAiChat);
    let nameless_id = json!({"choices": [{"index": 0, "delta": {"tool_calls": [
        {"index": 0, "function": {"name": "f", "arguments": "{}"}}]}, "finish_reason": "tool_calls"}]});
    let err = stream.push(&nameless_id).unwrap_err();
    assert!(
        matches!(err, StreamError::MissingId { ref name, .. } if name.as_deref() == Some("f")),
        "{err:?}"
    );
}

#[test]
fn no_fixture_prefix_panics_any_parser() {
    // Every prefix of every recorded body and stream, read as every format: errors, never a panic.
    for kind in ["response", "stream"] {
        for entry in entries(kind) {
            let text = bytes(&entry.file);
            for end in (0..=text.len()).step_by(13) {
                for format in CallFormat::ALL {
                    let _ = CallParser::new(format).parse_slice(&text[..end]);
                    let mut stream = SseCallStream::new(format);
                    let _ = stream.push(&text[..end]);
                    let _ = stream.finish();
                }
            }
        }
    }
}
