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
//! decoded events; its calls follow the same id and name rules. A body's calls, each given a
//! made-up answer (a JSON output, or an error answer), are written by `write_answers`: every
//! call answered once, in call order, by its id (Gemini: its called name, and an id only when
//! the call had one), and `write_raw_answers` writes each message as the very text of its
//! `Value` with the same notes (at the default limits and at a `SMALL_LIMIT` text limit); the
//! body's turn is replayed by `replay_turn`: with no call renamed it is the body's own turn,
//! borrowed from the body (but the Messages API's), and each renamed call's pointer holds its
//! model-safe form.
#![no_main]

use std::borrow::Cow;
use std::collections::HashSet;

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use toolwire_core::names::model_safe_name;
use toolwire_core::runtime::{CallOutcome, DispatchError, Route, ToolAnswer};
use toolwire_core::tools::ToolOutput;
use toolwire_core::wire::answers::{
    write_answers, write_answers_with, write_raw_answers, AnswerLimits,
};
use toolwire_core::wire::calls::{
    ArgumentsError, CallFormat, CallParser, CallStream, SseDecoder, StreamError, ToolCall,
};
use toolwire_core::wire::replay::replay_turn;
use toolwire_fuzz::streams;

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
    // Byte 0 past the formats (5..=9, 15..=19, ...) builds a stream of events from the rest
    // (`toolwire_fuzz::streams`); the recorded fixtures, behind 0..=4, stay text.
    if (usize::from(format_byte) / CallFormat::ALL.len()) % 2 == 1 {
        built_stream(format, rest);
        return;
    }
    let (cuts, text) = match rest.split_first() {
        Some((&count, rest)) => rest.split_at((usize::from(count) % 16).min(rest.len())),
        None => (&[][..], rest),
    };
    let chunks = chunk_lengths(cuts, text.len());

    body(format, text);
    sse(format, text, &chunks);
    json_lines(format, text, &chunks);
});

/// A stream built event by event (`toolwire_fuzz::streams`), assembled with its turn recorded:
/// its calls follow the id and name rules; under the smaller arguments limit it gives the same
/// calls but for arguments refused as over it; and when it ends cleanly, its calls are
/// `parse_calls` of the body it built, and that turn replays with them. A stream that fails or
/// ends cut is checked no further (its body is not whole, so it is not parsed).
fn built_stream(format: CallFormat, data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(events) = streams::stream_events(format, &mut u) else {
        return;
    };
    let mut stream = CallStream::new(format).recording_turn();
    let mut calls = Vec::new();
    let mut failed = false;
    for event in &events {
        match stream.push(event) {
            Ok(ended) => calls.extend(ended),
            Err(_) => {
                failed = true;
                break;
            }
        }
    }
    // `finish` first: the end may end calls (Chat Completions), and the turn records that.
    // An end that ended calls before a fault returns them, and the fault on the next call
    // (`CallStream::finish`, push's rule): asked again, so a failed end is not read as clean.
    let ended = stream
        .finish()
        .map(|last| calls.extend(last))
        .and_then(|()| stream.finish().map(|after| assert!(after.is_empty())));
    let body = stream.turn().expect("a recording stream has a turn").body();
    let turn_replay = stream
        .turn()
        .expect("a recording stream has a turn")
        .replay(&calls);
    assert_call_rules(format, &calls);
    let small = CallParser::new(format)
        .max_argument_bytes(SMALL_LIMIT)
        .stream();
    assert_only_limited(format, &calls, &built_calls(small, &events));
    if failed || ended.is_err() {
        return;
    }
    let parsed = CallParser::new(format).parse(&body).unwrap_or_else(|e| {
        let events: Vec<String> = events.iter().map(Value::to_string).collect();
        panic!(
            "{format}: the body a clean stream built does not parse: {e}\n{body}\nevents:\n{}",
            events.join("\n")
        )
    });
    // Arguments compare as the object or as "unusable": a stream's text that is not JSON is
    // `NotJson`, the body it built holds that text, which a format whose arguments are objects
    // reads as `NotObject`; either way the call is answered as an error and replayed repaired.
    let seen = |calls: &[ToolCall]| -> Vec<_> {
        calls
            .iter()
            .map(|c| {
                (
                    c.id.clone(),
                    c.name.clone(),
                    c.namespace.clone(),
                    c.pointer.clone(),
                    c.arguments.clone().ok(),
                )
            })
            .collect()
    };
    // In the body's order: a stream yields each call as it ends, and parallel calls may end
    // out of their order in the body (a Responses item done before one added earlier, an
    // Anthropic block stopped before an earlier one). Each pointer is one call's, so sorting
    // by it compares call for call.
    let sorted = |calls: &[ToolCall]| {
        let mut seen = seen(calls);
        seen.sort_by(|a, b| a.3.cmp(&b.3));
        seen
    };
    assert_eq!(
        sorted(&parsed),
        sorted(&calls),
        "{format}: a clean stream's calls are not those of the body it built\n{body}"
    );
    if let Err(error) = turn_replay {
        panic!("{format}: a clean stream's turn does not replay with its calls: {error}\n{body}");
    }
}

/// The calls `stream` gives for `events`, as `built_stream` collects them: up to the first
/// fault, then the end's.
fn built_calls(mut stream: CallStream, events: &[Value]) -> Vec<ToolCall> {
    let mut calls = Vec::new();
    for event in events {
        match stream.push(event) {
            Ok(ended) => calls.extend(ended),
            Err(_) => return calls,
        }
    }
    if let Ok(last) = stream.finish() {
        calls.extend(last);
    }
    calls
}

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
            answers(format, calls);
            replay(format, &value, calls);
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
    let end = stream.finish().map(|last| calls.extend(last));
    (calls, end)
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
    for event in decoder.push(text).unwrap_or_default() {
        if openai && event.data.starts_with("[DONE]") {
            // The marker ends the open calls as a real end, as the raw stream reads it: fed
            // as the event it is (`CallStream::push_slice` takes `[DONE]`), not dropped, or
            // `finish` would end them as a stream cut before their arguments.
            match events.push_slice(event.data.as_bytes()) {
                Ok(ended) => calls.extend(ended),
                Err(error) => fault = Some(error),
            }
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
    let cut = decoder.finish().is_some();
    // Not cut, the end may end calls (Chat Completions): the parsed stream's too.
    let end = (!cut).then(|| events.finish().map(|last| calls.extend(last)));
    assert_eq!(calls, whole.0, "{format}: raw and parsed events disagree");
    if let Some(end) = end {
        // The raw stream quotes how its text begins where no event came; the parsed one cannot.
        let forget_begins = |end: Result<(), StreamError>| match end {
            Err(StreamError::NotTheFormat { format, events, .. }) => {
                Err(StreamError::NotTheFormat {
                    format,
                    events,
                    begins: String::new(),
                })
            }
            other => other,
        };
        assert_eq!(
            forget_begins(end),
            forget_begins(whole.1.clone()),
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
    let end = stream.finish().map(|last| calls.extend(last));
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

/// Each call answered (even calls with a JSON output holding the call's own arguments, odd
/// ones with an unknown-tool error) and written: one answer per call, in order, named by it.
fn answers(format: CallFormat, calls: &[ToolCall]) {
    let answers: Vec<ToolAnswer> = calls
        .iter()
        .enumerate()
        .map(|(i, call)| {
            let result = if i % 2 == 0 {
                Ok(CallOutcome {
                    tool: call.name.clone(),
                    provider: "fuzz".to_owned(),
                    route: Route::Exact,
                    output: ToolOutput::Json(match &call.arguments {
                        Ok(arguments) => Value::Object(arguments.clone()),
                        Err(err) => Value::String(err.to_string()),
                    }),
                })
            } else {
                Err(DispatchError::UnknownTool {
                    called: call.name.clone(),
                    closest: vec![model_safe_name(&call.name).into_owned()],
                })
            };
            ToolAnswer::new(call, result)
        })
        .collect();
    let wire = write_answers(format, &answers);
    raw_as_values(format, &answers, &AnswerLimits::default());
    // A small text limit: outputs cut, so the raw writer's rewrite of a turn past its limit runs.
    raw_as_values(
        format,
        &answers,
        &AnswerLimits::default().with_text_bytes(SMALL_LIMIT),
    );
    if calls.is_empty() {
        assert!(wire.messages.is_empty(), "{format}: messages for no call");
        return;
    }
    // Where each format puts its answers, and the member that names the call.
    let (answered, key): (Vec<&Value>, &str) = match format {
        CallFormat::OpenAiChat => (wire.messages.iter().collect(), "tool_call_id"),
        CallFormat::OpenAiResponses => (wire.messages.iter().collect(), "call_id"),
        CallFormat::Anthropic => (
            one_message(format, &wire.messages, "content"),
            "tool_use_id",
        ),
        CallFormat::Converse => (
            one_message(format, &wire.messages, "content")
                .into_iter()
                .map(|block| &block["toolResult"])
                .collect(),
            "toolUseId",
        ),
        CallFormat::Gemini => (
            one_message(format, &wire.messages, "parts")
                .into_iter()
                .map(|part| &part["functionResponse"])
                .collect(),
            "id",
        ),
        _ => return,
    };
    assert_eq!(answered.len(), calls.len(), "{format}: one answer per call");
    for (answer, call) in answered.iter().zip(calls) {
        assert_eq!(
            answer.get(key).and_then(Value::as_str),
            call.id.as_deref(),
            "{format}: the answer names another call: {answer}"
        );
        if format == CallFormat::Gemini {
            assert_eq!(
                answer["name"].as_str(),
                Some(call.name.as_str()),
                "{format}"
            );
        }
    }
}

/// `write_raw_answers` writes each message as the very text `serde_json::to_string` writes of
/// `write_answers_with`'s `Value` for it, with the same notes (issue 27 §2's in-place writer).
fn raw_as_values(format: CallFormat, answers: &[ToolAnswer], limits: &AnswerLimits) {
    let values = write_answers_with(format, answers, limits);
    let raw = write_raw_answers(format, answers, limits);
    let texts: Vec<String> = values
        .messages
        .iter()
        .map(|message| serde_json::to_string(message).expect("a Value serialises"))
        .collect();
    let raws: Vec<&str> = raw.messages.iter().map(|message| message.get()).collect();
    assert_eq!(
        raws, texts,
        "{format}: raw answers are not the Values' text"
    );
    assert_eq!(
        raw.notes, values.notes,
        "{format}: raw answers' notes differ"
    );
}

/// The blocks of the one user message a format answers a turn in.
fn one_message<'a>(format: CallFormat, messages: &'a [Value], key: &str) -> Vec<&'a Value> {
    assert_eq!(messages.len(), 1, "{format}: one user message");
    messages[0][key]
        .as_array()
        .unwrap_or_else(|| panic!("{format}: no {key}: {}", messages[0]))
        .iter()
        .collect()
}

/// The body's turn replayed with its calls: unchanged but for the renamed calls, each at its
/// pointer with its model-safe form.
fn replay(format: CallFormat, body: &Value, calls: &[ToolCall]) {
    let Ok(replay) = replay_turn(format, body, calls) else {
        return;
    };
    let own = replay_turn(format, body, &[]).expect("a turn replayed with calls replays without");
    assert!(own.renamed.is_empty(), "{format}: renamed without calls");
    // Nothing copied where nothing changed (issue 27 §2): a turn the body's own borrows it, but
    // the Messages API's, a message built around the body's `content`.
    let builds = format == CallFormat::Anthropic;
    assert_eq!(
        matches!(own.turn, Cow::Borrowed(_)),
        !builds,
        "{format}: the body's own turn copied, or a built one borrowed"
    );
    assert_eq!(
        matches!(replay.turn, Cow::Borrowed(_)),
        !builds && replay.is_verbatim(),
        "{format}: a replay borrowed with a change, or copied without one"
    );
    if replay.renamed.is_empty() {
        // A call whose arguments are not an object is replayed with empty arguments, the
        // repair returned (issue 26 §3: the Messages API and Converse refuse a string
        // `input`): the turn is the body's own but for each repaired call's arguments.
        let mut repaired_own = own.turn.clone().into_owned();
        for repaired in &replay.repaired {
            assert_eq!(
                own.turn.pointer(&repaired.pointer),
                repaired.was.as_ref(),
                "{format}: {repaired:?}"
            );
            let now = replay.turn.pointer(&repaired.pointer);
            assert!(
                matches!(now, Some(Value::Object(map)) if map.is_empty())
                    || now == Some(&Value::String("{}".into())),
                "{format}: {repaired:?} replayed as {now:?}"
            );
            match repaired_own.pointer_mut(&repaired.pointer) {
                Some(slot) => *slot = now.cloned().unwrap_or_default(),
                None => {
                    let (parent, key) = repaired.pointer.rsplit_once('/').unwrap_or_default();
                    if let Some(Value::Object(map)) = repaired_own.pointer_mut(parent) {
                        map.insert(key.to_owned(), now.cloned().unwrap_or_default());
                    }
                }
            }
        }
        assert_eq!(
            *replay.turn, repaired_own,
            "{format}: a replay without renames changed the turn beyond its repairs"
        );
    }
    let expected = match format {
        CallFormat::OpenAiResponses => body.get("output"),
        CallFormat::Anthropic => body.get("content"),
        CallFormat::Converse => body.pointer("/output/message"),
        CallFormat::Gemini => body.pointer("/candidates/0/content"),
        _ => None,
    };
    let own_turn = match format {
        CallFormat::Anthropic => own.turn.get("content"),
        _ => Some(&*own.turn),
    };
    if let Some(expected) = expected {
        assert_eq!(
            own_turn,
            Some(expected),
            "{format}: the turn is not the body's"
        );
    }
    for renamed in &replay.renamed {
        assert_eq!(
            replay
                .turn
                .pointer(&renamed.pointer)
                .and_then(Value::as_str),
            Some(renamed.replayed.as_str()),
            "{format}: {renamed:?}"
        );
        assert_eq!(
            renamed.replayed,
            model_safe_name(&renamed.called),
            "{format}"
        );
    }
}
