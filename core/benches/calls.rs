//! Hop 4 (`wire::calls`), issue 18 point 11, each beside its plain `serde_json` baseline in the
//! same run so the ratios can be quoted (docs/performance.md):
//!
//! - `calls_body_<format>`: a response of 8 client calls (beside a text block, and the
//!   provider's own blocks where the format has them), `CallParser::parse_str` against
//!   `serde_json::from_str::<Value>` of the same body alone, and `parse_slice` against
//!   `from_slice` (bytes: both check UTF-8); `answers` is `write_answers` of the 8 calls'
//!   answers alone (prepared `ToolAnswer`s of a JSON output each), and `parse_and_answers`
//!   the whole of it: parse, pair each call with its outcome, write the answers.
//! - `calls_stream_<format>`: a stream of 200 events carrying those 8 calls, its arguments cut
//!   into fragments; the baselines parse each event's JSON alone (already split out), from
//!   `&str` and from bytes; `events` feeds the same bytes to `CallStream::push_slice`; `raw` feeds the whole stream as it comes
//!   off the connection (1,500-byte chunks) to `SseCallStream`, or `JsonLinesCallStream` for
//!   Converse.
//! - `calls_many_ids`: a Messages API body of 4,000 calls (the duplicate-id check
//!   is a set, so the parse stays linear in the calls), `parse` against `serde_json` of it.
//!
//! The bodies and streams are built here, in each provider's documented shape (the recorded
//! fixtures in `fixtures/provider-wire/` hold one to three calls; their README cites the
//! sources): field names and event kinds as there, the arguments of each call a small object.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use serde_json::{json, Value};
use toolwire_core::runtime::{CallOutcome, Route, ToolAnswer};
use toolwire_core::tools::ToolOutput;
use toolwire_core::wire::answers::{write_answers, write_raw_answers, AnswerLimits};
use toolwire_core::wire::calls::{CallFormat, CallParser, CallStream, ToolCall};
use toolwire_core::wire::replay::replay_turn;

/// Calls per response.
const CALLS: usize = 8;
/// Events per stream.
const EVENTS: usize = 200;
/// The bytes one push of a raw stream carries (about one TCP segment).
const CHUNK: usize = 1500;

/// The `i`th call's name and arguments (a small object, as a model sends).
fn call(i: usize) -> (String, Value) {
    let names = [
        "get_weather",
        "mcp_github_create_issue",
        "search_web",
        "get_time",
    ];
    let city = ["Paris", "Zürich", "Tokyo", "Lagos"][i % 4];
    let arguments = json!({
        "city": city,
        "unit": "celsius",
        "days": i + 1,
        "note": format!("call {i}: a sentence of free text the model wrote, with \"quotes\"."),
    });
    (names[i % names.len()].to_owned(), arguments)
}

/// The `i`th call's outcome: a small JSON object, as a `#[tool]` returns one.
fn outcome(i: usize) -> CallOutcome {
    let (name, _) = call(i);
    let city = ["Paris", "Zürich", "Tokyo", "Lagos"][i % 4];
    CallOutcome {
        tool: name,
        provider: "app".to_owned(),
        route: Route::Exact,
        output: ToolOutput::Json(json!({
            "city": city,
            "temperature": 21.5,
            "conditions": "light rain, clearing in the evening",
            "observed": "2026-12-01T15:00:00Z",
        })),
    }
}

fn arguments_text(i: usize) -> String {
    call(i).1.to_string()
}

/// A response body of `format` with [`CALLS`] client calls.
fn body(format: CallFormat) -> String {
    let calls = 0..CALLS;
    let body = match format {
        CallFormat::OpenAiChat => json!({
            "id": "chatcmpl-1", "object": "chat.completion", "created": 1764590400,
            "model": "gpt-4o-2024-08-06",
            "choices": [{"index": 0, "finish_reason": "tool_calls", "logprobs": null,
                "message": {"role": "assistant", "content": "Checking.", "refusal": null,
                    "tool_calls": calls.map(|i| json!({"id": format!("call_{i:024}"),
                        "type": "function",
                        "function": {"name": call(i).0, "arguments": arguments_text(i)}}))
                        .collect::<Vec<_>>()}}],
            "usage": {"prompt_tokens": 512, "completion_tokens": 300, "total_tokens": 812},
        }),
        CallFormat::OpenAiResponses => json!({
            "id": "resp_1", "object": "response", "created_at": 1764590400,
            "status": "completed", "model": "gpt-5.1-2025-11-13",
            "output": std::iter::once(json!({"id": "rs_1", "type": "reasoning",
                    "summary": [], "encrypted_content": "gAAAAB".repeat(40)}))
                .chain(calls.map(|i| json!({"id": format!("fc_{i:020}"),
                    "type": "function_call", "status": "completed",
                    "call_id": format!("call_{i:024}"), "name": call(i).0,
                    "arguments": arguments_text(i)})))
                .collect::<Vec<_>>(),
            "usage": {"input_tokens": 512, "output_tokens": 300, "total_tokens": 812},
        }),
        CallFormat::Anthropic => json!({
            "id": "msg_1", "type": "message", "role": "assistant",
            "model": "claude-sonnet-4-5-20250929", "stop_reason": "tool_use",
            "content": ([json!({"type": "thinking", "thinking": "The user wants weather.",
                    "signature": "EqQBCgIYAhIM".repeat(20)}),
                json!({"type": "text", "text": "Checking."})].into_iter()
                .chain(calls.map(|i| json!({"type": "tool_use",
                    "id": format!("toolu_{i:024}"), "name": call(i).0, "input": call(i).1})))
                .collect::<Vec<_>>()),
            "usage": {"input_tokens": 512, "output_tokens": 300},
        }),
        CallFormat::Converse => json!({
            "output": {"message": {"role": "assistant",
                "content": std::iter::once(json!({"text": "Checking."}))
                    .chain(calls.map(|i| json!({"toolUse": {
                        "toolUseId": format!("tooluse_{i:022}"), "name": call(i).0,
                        "input": call(i).1}})))
                    .collect::<Vec<_>>()}},
            "stopReason": "tool_use",
            "usage": {"inputTokens": 512, "outputTokens": 300, "totalTokens": 812},
            "metrics": {"latencyMs": 1460},
        }),
        CallFormat::Gemini => json!({
            "candidates": [{"index": 0, "finishReason": "STOP", "content": {"role": "model",
                "parts": std::iter::once(json!({"text": "Checking."}))
                    .chain(calls.map(|i| json!({"functionCall": {"name": call(i).0,
                        "args": call(i).1}, "thoughtSignature": "CiQB".repeat(20)})))
                    .collect::<Vec<_>>()}}],
            "usageMetadata": {"promptTokenCount": 512, "candidatesTokenCount": 300},
            "modelVersion": "gemini-2.5-flash",
        }),
        // `CallFormat` may grow; this bench covers the five it has.
        _ => unreachable!("a format this bench does not build"),
    };
    body.to_string()
}

/// `text` cut into `parts` pieces of about one length, never inside a character.
fn fragments(text: &str, parts: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let size = chars.len().div_ceil(parts.max(1)).max(1);
    chars.chunks(size).map(|c| c.iter().collect()).collect()
}

/// How many argument fragments each call gets so the stream has `EVENTS` events when it also
/// has `overhead` others: the first calls take one more where it does not divide.
fn fragment_counts(overhead: usize) -> Vec<usize> {
    let left = EVENTS - overhead;
    (0..CALLS)
        .map(|i| left / CALLS + usize::from(i < left % CALLS))
        .collect()
}

/// Each call's arguments text cut into its share of fragments (a fragment may be empty when a
/// text is shorter than its share: providers send those too).
fn call_fragments(overhead: usize) -> Vec<Vec<String>> {
    fragment_counts(overhead)
        .into_iter()
        .enumerate()
        .map(|(i, count)| {
            let mut pieces = fragments(&arguments_text(i), count);
            pieces.resize(count, String::new());
            pieces
        })
        .collect()
}

/// The [`EVENTS`] events (each one JSON text) of a stream of `format` carrying the 8 calls.
fn stream_events(format: CallFormat) -> Vec<String> {
    let mut events: Vec<Value> = Vec::new();
    match format {
        CallFormat::OpenAiChat => {
            let chunk = |delta: Value, finish: Value| {
                json!({"id": "chatcmpl-1", "object": "chat.completion.chunk",
                    "created": 1764590400, "model": "gpt-4o-2024-08-06",
                    "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
            };
            events.push(chunk(
                json!({"role": "assistant", "content": null}),
                Value::Null,
            ));
            for (i, pieces) in call_fragments(2 + CALLS).into_iter().enumerate() {
                events.push(chunk(
                    json!({"tool_calls": [{"index": i, "id": format!("call_{i:024}"),
                        "type": "function", "function": {"name": call(i).0, "arguments": ""}}]}),
                    Value::Null,
                ));
                for piece in pieces {
                    events.push(chunk(
                        json!({"tool_calls": [{"index": i, "function": {"arguments": piece}}]}),
                        Value::Null,
                    ));
                }
            }
            events.push(chunk(json!({}), json!("tool_calls")));
        }
        CallFormat::OpenAiResponses => {
            let response = |status: &str| {
                json!({"id": "resp_1", "object": "response", "status": status,
                    "model": "gpt-5.1-2025-11-13", "output": []})
            };
            events.push(json!({"type": "response.created", "response": response("in_progress")}));
            events
                .push(json!({"type": "response.in_progress", "response": response("in_progress")}));
            for (i, pieces) in call_fragments(3 + 3 * CALLS).into_iter().enumerate() {
                let item = |status: &str, arguments: &str| {
                    json!({"id": format!("fc_{i:020}"), "type": "function_call",
                        "status": status, "arguments": arguments,
                        "call_id": format!("call_{i:024}"), "name": call(i).0})
                };
                events.push(
                    json!({"type": "response.output_item.added", "output_index": i,
                    "item": item("in_progress", "")}),
                );
                for piece in pieces {
                    events.push(json!({"type": "response.function_call_arguments.delta",
                        "item_id": format!("fc_{i:020}"), "output_index": i, "delta": piece}));
                }
                events.push(json!({"type": "response.function_call_arguments.done",
                    "item_id": format!("fc_{i:020}"), "output_index": i,
                    "arguments": arguments_text(i)}));
                events.push(
                    json!({"type": "response.output_item.done", "output_index": i,
                    "item": item("completed", &arguments_text(i))}),
                );
            }
            events.push(json!({"type": "response.completed", "response": response("completed")}));
        }
        CallFormat::Anthropic => {
            events.push(json!({"type": "message_start", "message": {"id": "msg_1",
                "type": "message", "role": "assistant", "content": [],
                "model": "claude-sonnet-4-5-20250929", "stop_reason": null,
                "usage": {"input_tokens": 512, "output_tokens": 1}}}));
            for (i, pieces) in call_fragments(3 + 2 * CALLS).into_iter().enumerate() {
                events.push(json!({"type": "content_block_start", "index": i,
                    "content_block": {"type": "tool_use", "id": format!("toolu_{i:024}"),
                        "name": call(i).0, "input": {}}}));
                for piece in pieces {
                    events.push(json!({"type": "content_block_delta", "index": i,
                        "delta": {"type": "input_json_delta", "partial_json": piece}}));
                }
                events.push(json!({"type": "content_block_stop", "index": i}));
            }
            events.push(
                json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"},
                "usage": {"output_tokens": 300}}),
            );
            events.push(json!({"type": "message_stop"}));
        }
        CallFormat::Converse => {
            events.push(json!({"messageStart": {"role": "assistant"}}));
            for (i, pieces) in call_fragments(3 + 2 * CALLS).into_iter().enumerate() {
                events.push(json!({"contentBlockStart": {"contentBlockIndex": i,
                    "start": {"toolUse": {"toolUseId": format!("tooluse_{i:022}"),
                        "name": call(i).0}}}}));
                for piece in pieces {
                    events.push(json!({"contentBlockDelta": {"contentBlockIndex": i,
                        "delta": {"toolUse": {"input": piece}}}}));
                }
                events.push(json!({"contentBlockStop": {"contentBlockIndex": i}}));
            }
            events.push(json!({"messageStop": {"stopReason": "tool_use"}}));
            events.push(
                json!({"metadata": {"usage": {"inputTokens": 512, "outputTokens": 300,
                "totalTokens": 812}, "metrics": {"latencyMs": 1460}}}),
            );
        }
        CallFormat::Gemini => {
            // Gemini streams each functionCall part whole; the text before them streams in
            // small chunks, which makes up the 200 events.
            let chunk = |part: Value| {
                json!({"candidates": [{"index": 0, "content": {"role": "model",
                    "parts": [part]}}], "modelVersion": "gemini-2.5-flash"})
            };
            for i in 0..EVENTS - CALLS {
                events.push(chunk(json!({"text": format!("word{i} ")})));
            }
            for i in 0..CALLS {
                events.push(chunk(json!({"functionCall": {"name": call(i).0,
                    "args": call(i).1}})));
            }
        }
        // `CallFormat` may grow; this bench covers the five it has.
        _ => unreachable!("a format this bench does not build"),
    }
    assert_eq!(events.len(), EVENTS, "{format}");
    events.iter().map(Value::to_string).collect()
}

/// The stream as it comes off the connection: server-sent events (with OpenAI's `[DONE]`), or
/// one JSON event per line for Converse.
fn raw_stream(format: CallFormat, events: &[String]) -> String {
    match format {
        CallFormat::Converse => events.iter().map(|e| format!("{e}\n")).collect(),
        _ => {
            let mut text: String = events.iter().map(|e| format!("data: {e}\n\n")).collect();
            if matches!(format, CallFormat::OpenAiChat | CallFormat::OpenAiResponses) {
                text.push_str("data: [DONE]\n\n");
            }
            text
        }
    }
}

fn bench_bodies(c: &mut Criterion) {
    for format in CallFormat::ALL {
        let text = body(format);
        let parser = CallParser::new(format);
        let calls = parser.parse_str(&text).expect("the body parses");
        assert_eq!(calls.len(), CALLS, "{format}");
        assert!(calls.iter().all(|c| c.arguments.is_ok()), "{format}");

        let mut group = c.benchmark_group(format!("calls_body_{}", format.key()));
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function("serde_json", |b| {
            b.iter(|| black_box(serde_json::from_str::<Value>(black_box(&text)).unwrap()))
        });
        group.bench_function("parse", |b| {
            b.iter(|| black_box(parser.parse_str(black_box(&text)).unwrap()))
        });
        // The same from bytes, as a body comes off the connection: both check UTF-8.
        group.bench_function("serde_json_slice", |b| {
            b.iter(|| {
                black_box(serde_json::from_slice::<Value>(black_box(text.as_bytes())).unwrap())
            })
        });
        group.bench_function("parse_slice", |b| {
            b.iter(|| black_box(parser.parse_slice(black_box(text.as_bytes())).unwrap()))
        });
        // Parsing the response and building its answers (issue 18, point 11): the calls
        // parsed, each paired with a prepared outcome (a `#[tool]`'s JSON output, as a tool
        // would have returned it) into a `ToolAnswer`, and `write_answers` building the next
        // request's messages in the format's shape. Prepared outcomes, not `answer_calls` over
        // a closure provider: that would time the dispatch (hop 5, the async turn, its spans),
        // which `benches/runtime.rs` measures, and not the wire work this row is about.
        let outcomes: Vec<CallOutcome> = (0..CALLS).map(outcome).collect();
        let answers: Vec<ToolAnswer> = calls
            .iter()
            .zip(&outcomes)
            .map(|(call, outcome)| ToolAnswer::new(call, Ok(outcome.clone())))
            .collect();
        let written = write_answers(format, &answers);
        assert!(
            !written.messages.is_empty() && written.notes.is_empty(),
            "{format}"
        );
        group.bench_function("answers", |b| {
            b.iter(|| black_box(write_answers(format, black_box(&answers))))
        });
        group.bench_function("parse_and_answers", |b| {
            b.iter(|| {
                let calls = parser.parse_str(black_box(&text)).unwrap();
                let answers: Vec<ToolAnswer> = calls
                    .iter()
                    .zip(black_box(&outcomes))
                    .map(|(call, outcome)| ToolAnswer::new(call, Ok(outcome.clone())))
                    .collect();
                black_box(write_answers(format, &answers))
            })
        });
        // The turn replayed for history (issue 27 §2): nothing renamed here, so it borrows the
        // body (but the Messages API's, a message built around `content`); `turn_copy` is the
        // copy of the turn every replay made before, for scale.
        let parsed: Value = serde_json::from_str(&text).unwrap();
        let replay = replay_turn(format, &parsed, &calls).expect("the body replays");
        assert!(replay.is_verbatim(), "{format}");
        let turn = replay.turn.into_owned();
        group.bench_function("replay", |b| {
            b.iter(|| black_box(replay_turn(format, black_box(&parsed), &calls).unwrap()))
        });
        group.bench_function("turn_copy", |b| {
            b.iter(|| black_box(copy_turn(black_box(&turn))))
        });
        group.finish();
    }
}

/// The copy of a turn each replay made before it borrowed the body (a function of its own, so
/// that callgrind can count it: `--toggle-collect='calls::copy_turn'`).
#[inline(never)]
fn copy_turn(turn: &Value) -> Value {
    turn.clone()
}

fn bench_streams(c: &mut Criterion) {
    for format in CallFormat::ALL {
        let events = stream_events(format);
        let raw = raw_stream(format, &events);
        let parser = CallParser::new(format);

        // The streams give their 8 calls, fed either way.
        let mut stream = parser.stream();
        let mut calls = Vec::new();
        for event in &events {
            calls.extend(stream.push_slice(event.as_bytes()).unwrap());
        }
        calls.extend(stream.finish().unwrap());
        assert_eq!(calls.len(), CALLS, "{format}");
        assert!(
            calls.iter().all(|c| c.arguments.is_ok()),
            "{format}: {calls:?}"
        );
        assert_eq!(assemble_raw(parser, raw.as_bytes()), CALLS, "{format}");

        let mut group = c.benchmark_group(format!("calls_stream_{}", format.key()));
        group.throughput(Throughput::Elements(EVENTS as u64));
        group.bench_function("serde_json", |b| {
            b.iter(|| {
                for event in black_box(&events) {
                    black_box(serde_json::from_str::<Value>(event).unwrap());
                }
            })
        });
        // The events' texts as bytes, as `push_slice` takes them: both check UTF-8.
        group.bench_function("serde_json_slice", |b| {
            b.iter(|| {
                for event in black_box(&events) {
                    black_box(serde_json::from_slice::<Value>(event.as_bytes()).unwrap());
                }
            })
        });
        group.bench_function("events", |b| {
            b.iter(|| {
                let mut stream: CallStream = parser.stream();
                let mut calls = 0;
                for event in black_box(&events) {
                    calls += black_box(stream.push_slice(event.as_bytes()).unwrap()).len();
                }
                calls + stream.finish().unwrap().len()
            })
        });
        group.bench_function("raw", |b| {
            b.iter(|| assemble_raw(parser, black_box(raw.as_bytes())))
        });
        group.finish();
    }
}

/// The raw stream pushed in [`CHUNK`]-byte pieces; the number of calls it gave.
fn assemble_raw(parser: CallParser, raw: &[u8]) -> usize {
    let mut calls = 0;
    if parser.format() == CallFormat::Converse {
        let mut stream = parser.json_lines();
        for chunk in raw.chunks(CHUNK) {
            calls += black_box(stream.push(chunk).unwrap()).len();
        }
        calls + stream.finish().unwrap().len()
    } else {
        let mut stream = parser.sse();
        for chunk in raw.chunks(CHUNK) {
            calls += black_box(stream.push(chunk).unwrap()).len();
        }
        calls + stream.finish().unwrap().len()
    }
}

/// A turn of many calls: the duplicate-id check must not make it quadratic.
fn bench_many_ids(c: &mut Criterion) {
    const MANY: usize = 4_000;
    let content: Vec<Value> = (0..MANY)
        .map(|i| json!({"type": "tool_use", "id": format!("toolu_{i:08}"), "name": "f", "input": {}}))
        .collect();
    let text = json!({"content": content}).to_string();
    let parser = CallParser::new(CallFormat::Anthropic);
    assert_eq!(parser.parse_str(&text).unwrap().len(), MANY);
    let mut group = c.benchmark_group("calls_many_ids");
    group.throughput(Throughput::Elements(MANY as u64));
    group.bench_function("serde_json", |b| {
        b.iter(|| black_box(serde_json::from_str::<Value>(black_box(&text)).unwrap()))
    });
    group.bench_function("parse", |b| {
        b.iter(|| black_box(parser.parse_str(black_box(&text)).unwrap()))
    });
    group.finish();
}

/// The size of the tools' outputs in `bench_answers`.
#[derive(Clone, Copy)]
enum Size {
    /// A 4-member object, as a small `#[tool]` returns.
    Tiny,
    /// About 1.5 KB of JSON: nested objects, strings with escapes, an array of records.
    Kilobytes,
}

impl Size {
    fn key(self) -> &'static str {
        match self {
            Size::Tiny => "tiny",
            Size::Kilobytes => "1k5",
        }
    }
}

/// The `i`th call's output of `size`.
fn output(i: usize, size: Size) -> Value {
    let city = ["Paris", "Zürich", "Tokyo", "Lagos"][i % 4];
    match size {
        Size::Tiny => json!({
            "city": city,
            "temperature": 21.5,
            "conditions": "light rain, clearing in the evening",
            "observed": "2026-12-01T15:00:00Z",
        }),
        Size::Kilobytes => json!({
            "query": {"city": city, "days": i + 1, "unit": "celsius", "source": "met-office"},
            "total": 57,
            "next_page": null,
            "records": (0..5).map(|r| json!({
                "id": format!("rec-{i}-{r:04}"),
                "title": format!("Forecast {r} for {city}: \"mostly dry\", winds 12 km/h"),
                "summary": "Line one of the summary.\nLine two, with a tab\tand a backslash \\ in it.",
                "score": 0.5 + r as f64 / 16.0,
                "hourly": [11.5, 12.0, 13.25, 14.0, 13.5, 12.75],
                "tags": ["rain", "wind", "ünïcödé"],
                "station": {"name": format!("{city} Central"), "lat": 48.8566, "lon": 2.3522,
                    "elevation_m": 35, "active": true},
            })).collect::<Vec<_>>(),
        }),
    }
}

/// What any app does with a response and its tools' outputs: reads the body and renders each
/// output to text (the baseline of `bench_answers`). Returns all it made, so the drops are not timed
/// (`iter_batched` drops the routine's output after the clock stops), as in [`our_turn`].
#[inline(never)]
fn baseline_turn(text: &str, outputs: Vec<Value>) -> (Value, Vec<String>, Vec<Value>) {
    let body: Value = serde_json::from_str(text).unwrap();
    let texts = outputs
        .iter()
        .map(|output| serde_json::to_string(output).unwrap())
        .collect();
    (body, texts, outputs)
}

/// The calls of `text` parsed, each paired with its tool's outcome: the part [`our_turn`] and
/// [`our_raw_turn`] share. The calls are returned, as the baseline returns the body it read, so
/// that neither routine's drops are timed.
fn answered(
    parser: CallParser,
    text: &str,
    outcomes: Vec<CallOutcome>,
) -> (Vec<ToolCall>, Vec<ToolAnswer>) {
    let calls = parser.parse_str(text).unwrap();
    let answers = calls
        .iter()
        .zip(outcomes)
        .map(|(call, outcome)| ToolAnswer::new(call, Ok(outcome)))
        .collect();
    (calls, answers)
}

/// What [`our_turn`] and [`our_raw_turn`] made: the calls, their answers, the request's text.
type Turn = (Vec<ToolCall>, Vec<ToolAnswer>, String);

/// Ours: the calls parsed, each paired with its tool's outcome, the answers written and
/// serialised to the text a request carries.
#[inline(never)]
fn our_turn(
    parser: CallParser,
    format: CallFormat,
    text: &str,
    outcomes: Vec<CallOutcome>,
) -> Turn {
    let (calls, answers) = answered(parser, text, outcomes);
    let wire = write_answers(format, &answers);
    let request = serde_json::to_string(&wire.messages).unwrap();
    (calls, answers, request)
}

/// [`our_turn`] for an app that splices the answers into its request body: written as raw
/// JSON text (`write_raw_answers`), the request's array of them serialised from those texts.
#[inline(never)]
fn our_raw_turn(
    parser: CallParser,
    format: CallFormat,
    text: &str,
    outcomes: Vec<CallOutcome>,
) -> Turn {
    let (calls, answers) = answered(parser, text, outcomes);
    let raw = write_raw_answers(format, &answers, &AnswerLimits::default());
    let request = serde_json::to_string(&raw.messages).unwrap();
    (calls, answers, request)
}

/// Parsing a response and writing its answers against `from_str` of the body plus
/// `to_string` of the tools' outputs, for 8 calls whose tools return tiny or ~1.5 KB outputs.
/// Each group's `baseline` and `ours` run in the same process, inputs built outside the clock;
/// `parse`, `write` and `serialize` are the steps of `ours` alone, to say where its time goes.
fn bench_answers(c: &mut Criterion) {
    for size in [Size::Tiny, Size::Kilobytes] {
        for format in CallFormat::ALL {
            let text = body(format);
            let parser = CallParser::new(format);
            let outputs: Vec<Value> = (0..CALLS).map(|i| output(i, size)).collect();
            if let Size::Kilobytes = size {
                let each = serde_json::to_string(&outputs[0]).unwrap().len();
                assert!((1_024..2_048).contains(&each), "an output of {each} bytes");
            }
            let outcomes: Vec<CallOutcome> = outputs
                .iter()
                .enumerate()
                .map(|(i, output)| CallOutcome {
                    tool: call(i).0,
                    provider: "app".to_owned(),
                    route: Route::Exact,
                    output: ToolOutput::Json(output.clone()),
                })
                .collect();
            // Checked by the steps, not by `our_turn` or `baseline_turn`: the instruction counts
            // of docs/performance.md count each call of those (one warm `--test` iteration)
            // under `valgrind --toggle-collect`, so the first call's one-time work stays out.
            let calls = parser.parse_str(&text).unwrap();
            let answers: Vec<ToolAnswer> = calls
                .iter()
                .zip(outcomes.clone())
                .map(|(call, outcome)| ToolAnswer::new(call, Ok(outcome)))
                .collect();
            let request = serde_json::to_string(&write_answers(format, &answers).messages).unwrap();
            assert!(request.len() > CALLS * 40, "{format}: {request}");
            let raw = write_raw_answers(format, &answers, &AnswerLimits::default());
            assert_eq!(
                serde_json::to_string(&raw.messages).unwrap(),
                request,
                "{format}"
            );
            let _ = serde_json::from_str::<Value>(&text).unwrap();

            let mut group = c.benchmark_group(format!("answers_{}_{}", format.key(), size.key()));
            group.bench_function("baseline", |b| {
                b.iter_batched(
                    || outputs.clone(),
                    |outputs| baseline_turn(black_box(&text), outputs),
                    BatchSize::SmallInput,
                )
            });
            group.bench_function("ours", |b| {
                b.iter_batched(
                    || outcomes.clone(),
                    |outcomes| our_turn(parser, format, black_box(&text), outcomes),
                    BatchSize::SmallInput,
                )
            });
            group.bench_function("ours_raw", |b| {
                b.iter_batched(
                    || outcomes.clone(),
                    |outcomes| our_raw_turn(parser, format, black_box(&text), outcomes),
                    BatchSize::SmallInput,
                )
            });
            group.bench_function("parse", |b| {
                b.iter(|| black_box(parser.parse_str(black_box(&text)).unwrap()))
            });
            group.bench_function("write_raw", |b| {
                b.iter(|| {
                    black_box(write_raw_answers(
                        format,
                        black_box(&answers),
                        &AnswerLimits::default(),
                    ))
                })
            });
            group.bench_function("write", |b| {
                b.iter(|| black_box(write_answers(format, black_box(&answers))))
            });
            let wire = write_answers(format, &answers);
            group.bench_function("serialize", |b| {
                b.iter(|| black_box(serde_json::to_string(black_box(&wire.messages)).unwrap()))
            });
            group.finish();
        }
    }
}

criterion_group!(
    benches,
    bench_bodies,
    bench_streams,
    bench_many_ids,
    bench_answers
);
criterion_main!(benches);
