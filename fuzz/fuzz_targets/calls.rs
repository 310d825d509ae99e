//! Hop 4 (`toolwire_core::wire::calls`) over arbitrary bytes: every `CallFormat`'s body parser,
//! and its stream assembler fed as parsed events and as raw bytes cut at fuzzer-chosen points.
//!
//! Input layout (so the recorded fixtures seed it as they are, behind two bytes): byte 0 picks
//! the format (`% 5`, in `CallFormat::ALL`'s order); byte 1 is how many of the next bytes are
//! chunk lengths (`% 16`; each length is the byte + 1, cycled); the rest is the text.
//!
//! Properties (docs/return-leg.md, "Decisions"): nothing panics; a body's calls come with an id
//! in every format but Gemini, a non-empty name, no id twice, and a pointer that resolves into
//! the body; parsing bytes, text and the parsed value agree; a smaller arguments limit changes
//! only arguments, each to `TooLong`; a stream gives the same calls and the same end at any
//! chunking (whole, the fuzzer's cuts, one byte at a time up to 512 bytes) and whether fed raw or as its
//! decoded events; its calls follow the same id and name rules.
#![no_main]

use std::collections::HashSet;

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use toolwire_core::wire::calls::{
    ArgumentsError, CallFormat, CallParser, CallStream, SseDecoder, StreamError, ToolCall,
};

/// The smaller arguments limit the second parse uses.
const SMALL_LIMIT: usize = 16;

/// One byte at a time only for inputs up to this size: each byte is a push, and the
/// uninstrumented-speed debug build runs a few dozen inputs a second; the fuzzer's own cuts
/// (lengths 1 to 256) chunk the longer ones.
const BYTEWISE_MAX: usize = 512;

fuzz_target!(|data: &[u8]| {
    let Some((&format_byte, rest)) = data.split_first() else {
        return;
    };
    let format = CallFormat::ALL[usize::from(format_byte) % CallFormat::ALL.len()];
    let (cuts, text) = match rest.split_first() {
        Some((&count, rest)) => rest.split_at((usize::from(count) % 16).min(rest.len())),
        None => (&[][..], rest),
    };
    let chunks = chunk_lengths(cuts, text.len());

    body(format, text);
    sse(format, text, &chunks);
    json_lines(format, text, &chunks);
});

/// The lengths of the chunks `text` is cut into: the fuzzer's, cycled, covering it all.
fn chunk_lengths(cuts: &[u8], len: usize) -> Vec<usize> {
    if cuts.is_empty() {
        return vec![len];
    }
    let mut lengths = Vec::new();
    let mut covered = 0;
    for &cut in cuts.iter().cycle() {
        if covered >= len {
            break;
        }
        let take = (usize::from(cut) + 1).min(len - covered);
        lengths.push(take);
        covered += take;
    }
    lengths
}

/// The rules every call obeys, from a body or a stream.
fn assert_call_rules(format: CallFormat, calls: &[ToolCall]) {
    let mut ids = HashSet::new();
    for call in calls {
        assert!(
            !call.name.is_empty(),
            "{format}: a call without a name: {call:?}"
        );
        match &call.id {
            Some(id) => assert!(ids.insert(id.clone()), "{format}: id {id:?} twice"),
            None => assert_eq!(format, CallFormat::Gemini, "{format}: no id: {call:?}"),
        }
        assert!(
            call.pointer.starts_with('/'),
            "{format}: pointer {:?}",
            call.pointer
        );
        assert!(
            call.namespace.is_none() || format == CallFormat::OpenAiResponses,
            "{format}: a namespace outside the Responses API: {call:?}"
        );
    }
}

/// `small`'s calls are `calls` with, at most, arguments refused as over the limit.
fn assert_only_limited(format: CallFormat, calls: &[ToolCall], small: &[ToolCall]) {
    assert_eq!(
        calls.len(),
        small.len(),
        "{format}: the limit changed the calls"
    );
    for (call, limited) in calls.iter().zip(small) {
        assert_eq!(
            (&call.id, &call.name, &call.namespace, &call.pointer),
            (
                &limited.id,
                &limited.name,
                &limited.namespace,
                &limited.pointer
            ),
            "{format}"
        );
        if limited.arguments != call.arguments {
            assert!(
                matches!(
                    limited.arguments,
                    Err(ArgumentsError::TooLong {
                        limit: SMALL_LIMIT,
                        ..
                    })
                ),
                "{format}: {:?} became {:?} under the limit",
                call.arguments,
                limited.arguments
            );
        }
    }
}

fn body(format: CallFormat, text: &[u8]) {
    let parser = CallParser::new(format);
    let parsed = parser.parse_slice(text);
    let small = CallParser::new(format)
        .max_argument_bytes(SMALL_LIMIT)
        .parse_slice(text);
    if let Ok(text) = std::str::from_utf8(text) {
        assert_eq!(
            parser.parse_str(text),
            parsed,
            "{format}: str and bytes disagree"
        );
    }
    let Ok(value) = serde_json::from_slice::<Value>(text) else {
        assert!(
            parsed.is_err(),
            "{format}: calls from text that is not JSON"
        );
        return;
    };
    assert_eq!(
        parser.parse(&value),
        parsed,
        "{format}: bytes and value disagree"
    );
    match (&parsed, &small) {
        (Ok(calls), Ok(small)) => {
            assert_call_rules(format, calls);
            for call in calls {
                assert!(
                    value.pointer(&call.pointer).is_some(),
                    "{format}: {:?} is not in the body",
                    call.pointer
                );
            }
            assert_only_limited(format, calls, small);
        }
        (Err(a), Err(b)) => assert_eq!(a, b, "{format}: the limit changed the fault"),
        _ => panic!("{format}: the limit changed whether the body parses: {parsed:?} / {small:?}"),
    }
}

/// What a whole stream gave: its calls in order, and how it ended.
type Outcome = (Vec<ToolCall>, Result<(), StreamError>);

fn sse_in_chunks(parser: CallParser, text: &[u8], lengths: &[usize]) -> Outcome {
    let mut stream = parser.sse();
    let mut calls = Vec::new();
    let mut at = 0;
    for &len in lengths {
        // A fault comes again with every later push and with `finish`.
        if let Ok(ended) = stream.push(&text[at..at + len]) {
            calls.extend(ended);
        }
        at += len;
    }
    (calls, stream.finish())
}

fn sse(format: CallFormat, text: &[u8], cuts: &[usize]) {
    let parser = CallParser::new(format);
    let whole = sse_in_chunks(parser, text, &[text.len()]);
    assert_call_rules(format, &whole.0);
    assert_eq!(
        sse_in_chunks(parser, text, cuts),
        whole,
        "{format}: cut {cuts:?}"
    );
    if text.len() <= BYTEWISE_MAX {
        let bytes = vec![1; text.len()];
        assert_eq!(
            sse_in_chunks(parser, text, &bytes),
            whole,
            "{format}: bytewise"
        );
    }
    let small = sse_in_chunks(parser.max_argument_bytes(SMALL_LIMIT), text, &[text.len()]);
    assert_only_limited(format, &whole.0, &small.0);

    // The same events, decoded apart and pushed parsed: the same calls (OpenAI's `[DONE]`
    // ends the stream, as `SseCallStream` reads it).
    let mut decoder = SseDecoder::new();
    let mut events = CallStream::new(format);
    let mut calls = Vec::new();
    let openai = matches!(format, CallFormat::OpenAiChat | CallFormat::OpenAiResponses);
    let mut fault = None;
    for event in decoder.push(text) {
        if openai && event.data.starts_with("[DONE]") {
            break;
        }
        let value = match serde_json::from_str::<Value>(&event.data) {
            Ok(value) => value,
            Err(_) => {
                // `push_slice` says `EventNotJson` for it; the raw stream stopped there too.
                let _ = events.push_slice(event.data.as_bytes());
                break;
            }
        };
        match events.push(&value) {
            Ok(ended) => calls.extend(ended),
            Err(error) => {
                fault = Some(error);
                break;
            }
        }
    }
    assert_eq!(calls, whole.0, "{format}: raw and parsed events disagree");
    let cut = decoder.finish().is_some();
    if !cut {
        let end = events.finish();
        assert_eq!(
            end, whole.1,
            "{format}: raw and parsed events end apart ({fault:?})"
        );
    }
}

fn lines_in_chunks(parser: CallParser, text: &[u8], lengths: &[usize]) -> Outcome {
    let mut stream = parser.json_lines();
    let mut calls = Vec::new();
    let mut at = 0;
    for &len in lengths {
        if let Ok(ended) = stream.push(&text[at..at + len]) {
            calls.extend(ended);
        }
        at += len;
    }
    let (last, end) = stream.finish();
    calls.extend(last);
    (calls, end)
}

fn json_lines(format: CallFormat, text: &[u8], cuts: &[usize]) {
    let parser = CallParser::new(format);
    let whole = lines_in_chunks(parser, text, &[text.len()]);
    assert_call_rules(format, &whole.0);
    assert_eq!(
        lines_in_chunks(parser, text, cuts),
        whole,
        "{format}: cut {cuts:?}"
    );
    if text.len() <= BYTEWISE_MAX {
        let bytes = vec![1; text.len()];
        assert_eq!(
            lines_in_chunks(parser, text, &bytes),
            whole,
            "{format}: bytewise"
        );
    }
    let small = lines_in_chunks(parser.max_argument_bytes(SMALL_LIMIT), text, &[text.len()]);
    assert_only_limited(format, &whole.0, &small.0);
}
