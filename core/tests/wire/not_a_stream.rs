//! Issue 26 §3: input that is no stream of the format is an error of the library itself, and
//! no line, event or turn makes a stream hold without bound.

use serde_json::json;
use toolwire_core::wire::calls::{
    parse_calls, CallFormat, CallParser, CallStream, JsonLinesCallStream, SseCallStream,
    StreamError, ToolCall, DEFAULT_MAX_EVENT_BYTES,
};

use crate::fixtures::bytes;

/// What a server sends instead of a stream: a proxy's HTML 502 page, a JSON error body (as
/// Ollama's `{"error": "model … not found"}`, or any provider's 4xx body), nothing at all.
const NOT_STREAMS: [(&str, &str); 5] = [
    (
        "html",
        "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n",
    ),
    ("json", "{\"error\":\"model 'qwen3' not found\"}\n"),
    (
        "pretty json",
        "{\n  \"error\": {\n    \"message\": \"Invalid API key\",\n    \"code\": 401\n  }\n}",
    ),
    ("nothing", ""),
    ("blank lines", "\n\r\n\n"),
];

/// The end of `text` fed whole and byte by byte to the SSE and JSON-lines readers: calls none.
fn ends(format: CallFormat, text: &str) -> Vec<(String, Result<(), StreamError>)> {
    let mut out = Vec::new();
    for bytewise in [false, true] {
        let chunks: Vec<&[u8]> = if bytewise {
            text.as_bytes().chunks(1).collect()
        } else {
            vec![text.as_bytes()]
        };
        let mut sse = SseCallStream::new(format);
        let mut lines = JsonLinesCallStream::new(format);
        let (mut sse_end, mut lines_end) = (None, None);
        for chunk in &chunks {
            match sse.push(chunk) {
                Ok(calls) => assert!(calls.is_empty()),
                Err(error) => sse_end = sse_end.or(Some(error)),
            }
            match lines.push(chunk) {
                Ok(calls) => assert!(calls.is_empty()),
                Err(error) => lines_end = lines_end.or(Some(error)),
            }
        }
        let sse_finish = sse.finish().map(|calls| assert!(calls.is_empty()));
        let lines_finish = lines.finish().map(|calls| assert!(calls.is_empty()));
        // A fault at a push comes again with `finish`.
        if let Some(error) = sse_end {
            assert_eq!(sse_finish, Err(error));
        }
        if let Some(error) = lines_end {
            assert_eq!(lines_finish, Err(error));
        }
        out.push((format!("sse, bytewise {bytewise}"), sse_finish));
        out.push((format!("json lines, bytewise {bytewise}"), lines_finish));
    }
    out
}

/// The API's name as a message says it, after its article: "an OpenAI", never "a OpenAI". The
/// test keeps its own table, not the crate-private `CallFormat::api_name_with_article`: it is
/// the oracle the messages are checked against, so a wrong article there fails here.
fn with_article(format: CallFormat) -> &'static str {
    match format {
        CallFormat::OpenAiChat => "an OpenAI Chat Completions",
        CallFormat::OpenAiResponses => "an OpenAI Responses",
        CallFormat::Anthropic => "an Anthropic Messages",
        CallFormat::Converse => "a Bedrock Converse",
        _ => "a Gemini generateContent",
    }
}

#[test]
fn a_page_a_body_or_nothing_is_not_the_format_for_every_reader() {
    for format in CallFormat::ALL {
        for (what, text) in NOT_STREAMS {
            for (reader, end) in ends(format, text) {
                let err = end.expect_err(&format!("{format} {reader} read {what} as a stream"));
                assert_eq!(err.format(), format);
                match err {
                    StreamError::NotTheFormat { .. } => assert!(
                        err.to_string()
                            .contains(&format!("is not {} stream", with_article(format))),
                        "{err}"
                    ),
                    // A format whose streams carry `{"error": …}` events reads an error body
                    // as the provider's error: as loud, and with its message.
                    StreamError::Provider { ref message, .. } => {
                        assert!(
                            message.contains("not found"),
                            "{format} {reader}: {message}"
                        )
                    }
                    _ => panic!("{format} {reader} {what}: {err:?}"),
                }
            }
        }
    }
}

#[test]
fn not_the_format_quotes_how_the_input_begins() {
    let (_, html) = NOT_STREAMS[0];
    let mut stream = SseCallStream::new(CallFormat::OpenAiChat);
    assert!(stream.push(html.as_bytes()).unwrap().is_empty());
    let Err(StreamError::NotTheFormat { events, begins, .. }) = stream.finish() else {
        panic!("an HTML page read as a stream")
    };
    assert_eq!(events, 0);
    // Whitespace made single spaces, at most 80 bytes and an ellipsis.
    assert!(
        begins.starts_with("<html> <head><title>502 Bad Gateway</title></head> <body>"),
        "{begins}"
    );
    assert!(begins.len() <= 80 + '…'.len_utf8(), "{begins}");
    assert!(begins.ends_with('…'), "{begins}");
}

#[test]
fn parsed_events_none_of_the_format_and_no_events_are_not_the_format() {
    for format in CallFormat::ALL {
        // No event at all: no turn, never `Ok` with no calls.
        assert!(matches!(
            CallStream::new(format).finish(),
            Err(StreamError::NotTheFormat { events: 0, .. })
        ));
        let mut stream = CallStream::new(format);
        // FastAPI's error body, as vLLM and other Python servers answer a bad route.
        let body = json!({"detail": "Not Found"});
        // Said at the push by a format whose events must have a shape, else at the end.
        match stream.push(&body) {
            Ok(calls) => assert!(calls.is_empty()),
            Err(err) => assert!(matches!(err, StreamError::NotTheFormat { events: 1, .. })),
        }
        let Err(StreamError::NotTheFormat {
            events: 1, begins, ..
        }) = stream.finish()
        else {
            panic!("{format}: an error body read as a stream's event")
        };
        assert!(begins.contains("Not Found"), "{begins}");
        // An event that is not JSON before any of the format's: not the format either.
        let mut stream = CallStream::new(format);
        assert!(matches!(
            stream.push_slice(b"<html>"),
            Err(StreamError::NotTheFormat { events: 1, .. })
        ));
    }
}

#[test]
fn only_done_is_no_chat_turn() {
    // `data: [DONE]` ends OpenAI's streams but is no turn by itself (a proxy that failed).
    let mut stream = SseCallStream::new(CallFormat::OpenAiChat);
    assert!(stream.push(b"data: [DONE]\n\n").unwrap().is_empty());
    assert!(matches!(
        stream.finish(),
        Err(StreamError::NotTheFormat { events: 0, .. })
    ));
}

#[test]
fn a_stream_of_the_format_still_ends_cleanly_with_or_without_calls() {
    // The format's stream with no call, and the fixtures: no false NotTheFormat.
    let mut stream = SseCallStream::new(CallFormat::OpenAiChat);
    let text = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";
    assert!(stream.push(text.as_bytes()).unwrap().is_empty());
    assert!(stream.finish().unwrap().is_empty());
    let text = bytes("converse/stream-parallel.jsonl");
    let mut stream = JsonLinesCallStream::new(CallFormat::Converse);
    let mut calls = stream.push(&text).unwrap();
    calls.extend(stream.finish().unwrap());
    assert!(!calls.is_empty());
}

#[test]
fn a_line_without_end_past_the_limit_is_an_error_naming_the_limit() {
    for format in CallFormat::ALL {
        let parser = CallParser::new(format).max_event_bytes(1024);
        let mut sse = parser.sse();
        let mut lines = parser.json_lines();
        sse.push(b"data: ").unwrap();
        lines.push(b"{\"a\":\"").unwrap();
        // 6 + 512 fits; 6 + 1025 is past the limit (of the SSE value, of the JSON line).
        assert!(sse.push(&[b'a'; 512]).is_ok());
        assert!(lines.push(&[b'a'; 512]).is_ok());
        for err in [sse.push(&[b'a'; 513]), lines.push(&[b'a'; 513])] {
            let err = err.unwrap_err();
            assert!(
                matches!(err, StreamError::EventTooLong { limit: 1024, event: 0, format: f } if f == format),
                "{format}: {err:?}"
            );
            assert!(err.to_string().contains("limit of 1024 bytes"), "{err}");
        }
        // The stream is done: the error comes again, at a push and at the end.
        assert!(matches!(
            sse.push(b"\n\n"),
            Err(StreamError::EventTooLong { .. })
        ));
        assert!(matches!(
            sse.finish(),
            Err(StreamError::EventTooLong { .. })
        ));
        assert!(matches!(
            lines.finish(),
            Err(StreamError::EventTooLong { .. })
        ));
    }
}

#[test]
fn the_default_limit_refuses_an_endless_line_after_the_calls_before_it() {
    // A real Messages stream's first call, then `data: ` and megabytes with no line end: the
    // call is yielded, then the stream fails at the default limit, holding no more than it.
    let text = bytes("anthropic/stream-one-call.sse");
    let mut stream = SseCallStream::new(CallFormat::Anthropic);
    let calls = stream.push(&text).unwrap();
    assert_eq!(calls.len(), 1);
    stream.push(b"event: content_block_delta\ndata: ").unwrap();
    let megabyte = vec![b' '; 1 << 20];
    let mut pushed = 0usize;
    let err = loop {
        match stream.push(&megabyte) {
            Ok(calls) => assert!(calls.is_empty()),
            Err(err) => break err,
        }
        pushed += megabyte.len();
        assert!(pushed <= DEFAULT_MAX_EVENT_BYTES, "no error past the limit");
    };
    assert!(
        matches!(err, StreamError::EventTooLong { limit, .. } if limit == DEFAULT_MAX_EVENT_BYTES),
        "{err:?}"
    );
}

#[test]
fn an_event_under_the_limit_is_read_and_one_over_it_is_refused() {
    // One Gemini chunk holds a call whole: under the limit it is a call, over it the stream.
    let chunk = |city: &str| {
        format!(
            "data: {}\n\n",
            json!({"candidates": [{"content": {"role": "model", "parts": [
                {"functionCall": {"name": "get_weather", "args": {"city": city}}}]}}]})
        )
    };
    let short = chunk("Paris");
    let limit = short.len();
    let mut stream = CallParser::new(CallFormat::Gemini)
        .max_event_bytes(limit)
        .sse();
    assert_eq!(stream.push(short.as_bytes()).unwrap().len(), 1);
    let long = chunk(&"P".repeat(limit));
    assert!(matches!(
        stream.push(long.as_bytes()),
        Err(StreamError::EventTooLong { event: 1, .. })
    ));
}

#[test]
fn many_calls_with_distinct_ids_parse_and_a_repeated_one_is_named() {
    // The duplicate-id check is a set: a turn of 20 000 calls is read at once (a scan of
    // every earlier id per call would be 2·10⁸ comparisons), and the one repeat is found.
    const CALLS: usize = 20_000;
    let call = |i: usize| json!({"type": "tool_use", "id": format!("toolu_{i}"), "name": "f", "input": {}});
    let mut content: Vec<_> = (0..CALLS).map(call).collect();
    let body = json!({"content": content});
    let calls: Vec<ToolCall> = parse_calls(CallFormat::Anthropic, &body).unwrap();
    assert_eq!(calls.len(), CALLS);
    assert_eq!(calls[CALLS - 1].id.as_deref(), Some("toolu_19999"));
    content.push(call(12_345));
    let err = parse_calls(CallFormat::Anthropic, &json!({"content": content})).unwrap_err();
    assert!(
        err.to_string().contains(&format!("`/content/{CALLS}`"))
            && err.to_string().contains("toolu_12345"),
        "{err}"
    );
}

#[test]
fn a_json_line_that_is_not_utf8_is_not_json_or_not_the_format() {
    // tokio-util's `LinesCodec` refuses the line; JSON must be UTF-8 (RFC 8259 §8.1).
    let start = b"{\"messageStart\":{\"role\":\"assistant\"}}\n";
    let mut stream = JsonLinesCallStream::new(CallFormat::Converse);
    assert!(stream.push(start).unwrap().is_empty());
    assert!(matches!(
        stream.push(b"{\"a\":\"\xff\"}\n"),
        Err(StreamError::EventNotJson { event: 1, .. })
    ));
    let mut stream = JsonLinesCallStream::new(CallFormat::Converse);
    assert!(matches!(
        stream.push(b"\xff\xfe<html>\n"),
        Err(StreamError::NotTheFormat { events: 1, .. })
    ));
}
