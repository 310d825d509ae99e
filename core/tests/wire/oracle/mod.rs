//! The oracle of the wire (issue 27, point 4): for every recorded response body and stream of
//! the five formats (`fixtures/provider-wire/index.json`), the calls the parser finds (a stream:
//! the calls its raw-text assembler yields and how it ended), the answers written to them (as
//! values and as raw text, with their notes), the body a stream records and the replayed turn,
//! as one text per fixture under `fixtures/provider-wire/oracle/`, compared byte for byte.
//! A change that moves code but keeps behaviour leaves every file as it is;
//! `TOOLWIRE_WRITE_ORACLE=1` rewrites them (then read the diff: every changed byte is a change
//! of behaviour).
//!
//! Beside the fixtures' own files, the modules below hold what the fixtures do not reach, each
//! under its own folder of `oracle/`: the tool lists (`tool_lists`), the answers to every kind
//! of tool output (`outputs`), and the replay of names the provider refuses in history, in a
//! census and through the runtime (`refused_names`).

mod outputs;
mod refused_names;
mod tool_lists;

use std::fmt::Write as _;
use std::ops::Range;

use serde_json::{json, Value};
use toolwire_core::runtime::{CallOutcome, DispatchError, Route, ToolAnswer};
use toolwire_core::tools::{ContentBlock, ToolContent, ToolOutput};
use toolwire_core::wire::answers::{write_answers, write_raw_answers, AnswerLimits};
use toolwire_core::wire::calls::{
    CallFormat, CallParser, JsonLinesCallStream, SseCallStream, StreamError, ToolCall,
};
use toolwire_core::wire::replay::{replay_turn, Replay, ReplayError, StreamedTurn};

use crate::fixtures::{bytes, dir, entries};

/// Whether this run rewrites the oracle (`TOOLWIRE_WRITE_ORACLE=1`) instead of checking it.
fn rewriting() -> bool {
    std::env::var_os("TOOLWIRE_WRITE_ORACLE").is_some()
}

/// The oracle's file `relative` (under `fixtures/provider-wire/oracle/`) is `text`, byte for
/// byte; rewritten instead when [`rewriting`].
fn compare(relative: &str, text: &str) {
    let path = dir().join("oracle").join(relative);
    if rewriting() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (TOOLWIRE_WRITE_ORACLE=1 writes it)",
            path.display()
        )
    });
    assert!(
        committed == text,
        "{} drifted (TOOLWIRE_WRITE_ORACLE=1 rewrites it; read the diff)",
        path.display()
    );
}

/// The files of the oracle's folder `relative`, sorted: a case whose file is gone from the code
/// but not from the folder is a change too.
fn files_in(relative: &str) -> Vec<String> {
    let folder = dir().join("oracle").join(relative);
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .map(|read| {
            read.map(|entry| entry.unwrap().file_name().into_string().unwrap())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// [`compare`] for every `(file name, text)` of a folder, and no other file in it.
fn compare_folder(relative: &str, files: &[(String, String)]) {
    for (name, text) in files {
        compare(&format!("{relative}/{name}"), text);
    }
    let mut written: Vec<String> = files.iter().map(|(name, _)| name.clone()).collect();
    written.sort();
    if rewriting() {
        for stale in files_in(relative).iter().filter(|f| !written.contains(f)) {
            std::fs::remove_file(dir().join("oracle").join(relative).join(stale)).unwrap();
        }
    }
    assert_eq!(
        files_in(relative),
        written,
        "the files of oracle/{relative}"
    );
}

const PNG: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4//8/AAX+Av6n1qQsAAAAAElFTkSuQmCC";

/// One answer per call, the kinds in turn: a JSON output naming the call and its arguments, a
/// text with an image (what a format that carries no image must say), a call that did not run.
fn answers(calls: &[ToolCall]) -> Vec<ToolAnswer> {
    calls
        .iter()
        .enumerate()
        .map(|(i, call)| {
            let output: ToolOutput = match i % 3 {
                0 => json!({
                    "called": call.name,
                    "arguments": call.arguments.as_ref().map_err(ToString::to_string),
                })
                .into(),
                1 => ToolContent::new(vec![
                    ContentBlock::text(format!("ran {}", call.name)),
                    ContentBlock::image(PNG, "image/png"),
                ])
                .into(),
                _ => {
                    let unknown = DispatchError::UnknownTool {
                        called: call.name.clone(),
                        closest: vec!["get_weather".into()],
                    };
                    return ToolAnswer::new(call, Err(unknown));
                }
            };
            let outcome = CallOutcome {
                tool: call.name.clone(),
                provider: "app".into(),
                route: Route::Exact,
                output,
            };
            ToolAnswer::new(call, Ok(outcome))
        })
        .collect()
}

fn section(out: &mut String, title: &str, text: impl AsRef<str>) {
    writeln!(out, "## {title}\n{}\n", text.as_ref()).unwrap();
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap()
}

fn write_calls_and_answers(out: &mut String, format: CallFormat, calls: &[ToolCall]) {
    section(out, "calls", format!("{calls:#?}"));
    let answers = answers(calls);
    let values = write_answers(format, &answers);
    let texts: Vec<String> = values.messages.iter().map(|m| m.to_string()).collect();
    section(out, "answers", texts.join("\n"));
    section(out, "answer notes", format!("{:#?}", values.notes));
    // A text limit that cuts the JSON outputs, so the cut and its note are in the oracle too.
    let raw = write_raw_answers(
        format,
        &answers,
        &AnswerLimits::default().with_text_bytes(40),
    );
    let texts: Vec<&str> = raw.messages.iter().map(|m| m.get()).collect();
    section(out, "raw answers, 40 text bytes", texts.join("\n"));
    section(out, "raw answer notes", format!("{:#?}", raw.notes));
}

fn write_replay(out: &mut String, replay: Result<Replay, ReplayError>) {
    match replay {
        Ok(replay) => {
            section(out, "replayed turn", pretty(&replay.turn));
            section(out, "renamed", format!("{:#?}", replay.renamed));
            section(out, "repaired", format!("{:#?}", replay.repaired));
        }
        Err(error) => section(out, "replay error", format!("{error:#?}\n{error}")),
    }
}

fn body_oracle(file: &str, format: CallFormat) -> String {
    let mut out = String::new();
    let body: Value = serde_json::from_slice(&bytes(file)).unwrap();
    match CallParser::new(format).parse(&body) {
        Ok(calls) => {
            write_calls_and_answers(&mut out, format, &calls);
            write_replay(&mut out, replay_turn(format, &body, &calls));
        }
        Err(error) => section(&mut out, "body error", format!("{error:#?}\n{error}")),
    }
    out
}

/// What a stream gives: its calls, how it ended, the body it recorded and its replay.
type Streamed = (
    Vec<ToolCall>,
    Result<(), StreamError>,
    Value,
    Result<Replay<'static>, ReplayError>,
);

fn recorded(calls: Vec<ToolCall>, end: Result<(), StreamError>, turn: &StreamedTurn) -> Streamed {
    let replay = turn.replay(&calls);
    (calls, end, turn.body(), replay)
}

/// A stream's calls and end through its raw-text assembler, recording the turn.
fn assembled(file: &str, format: CallFormat) -> Streamed {
    let text = bytes(file);
    let mut calls = Vec::new();
    if file.ends_with(".jsonl") {
        let mut stream = JsonLinesCallStream::new(format).recording_turn();
        let end = stream
            .push(&text)
            .and_then(|found| {
                calls.extend(found);
                stream.finish()
            })
            .map(|last| calls.extend(last));
        recorded(calls, end, stream.turn().unwrap())
    } else {
        let mut stream = SseCallStream::new(format).recording_turn();
        let end = stream
            .push(&text)
            .and_then(|found| {
                calls.extend(found);
                stream.finish()
            })
            .map(|last| calls.extend(last));
        recorded(calls, end, stream.turn().unwrap())
    }
}

fn stream_oracle(file: &str, format: CallFormat) -> String {
    let mut out = String::new();
    let (calls, end, body, replay) = assembled(file, format);
    write_calls_and_answers(&mut out, format, &calls);
    let end = match end {
        Ok(()) => "whole".to_owned(),
        Err(error) => format!("{error:#?}\n{error}"),
    };
    section(&mut out, "stream end", end);
    section(&mut out, "recorded body", pretty(&body));
    write_replay(&mut out, replay);
    section(&mut out, "pushed event by event", pushed(file, format));
    out
}

/// The events of a stream's text, as byte ranges: a JSON-lines stream's lines; an SSE
/// stream's events, each up to and with the blank line that ends it (`\n\n` or `\r\n\r\n`).
/// What is left after the last end is one more range.
fn events(text: &[u8], json_lines: bool) -> Vec<Range<usize>> {
    let mut events = Vec::new();
    let (mut start, mut line_start) = (0, 0);
    for (at, _) in text.iter().enumerate().filter(|(_, b)| **b == b'\n') {
        let line = &text[line_start..=at];
        line_start = at + 1;
        if json_lines || line == b"\n" || line == b"\r\n" {
            events.push(start..at + 1);
            start = at + 1;
        }
    }
    if start < text.len() {
        events.push(start..text.len());
    }
    events
}

/// Either raw-text stream, pushed a piece at a time.
trait PushStream {
    fn push(&mut self, piece: &[u8]) -> Result<Vec<ToolCall>, StreamError>;
    fn finish(&mut self) -> Result<Vec<ToolCall>, StreamError>;
}

impl PushStream for SseCallStream {
    fn push(&mut self, piece: &[u8]) -> Result<Vec<ToolCall>, StreamError> {
        SseCallStream::push(self, piece)
    }
    fn finish(&mut self) -> Result<Vec<ToolCall>, StreamError> {
        SseCallStream::finish(self)
    }
}

impl PushStream for JsonLinesCallStream {
    fn push(&mut self, piece: &[u8]) -> Result<Vec<ToolCall>, StreamError> {
        JsonLinesCallStream::push(self, piece)
    }
    fn finish(&mut self) -> Result<Vec<ToolCall>, StreamError> {
        JsonLinesCallStream::finish(self)
    }
}

/// `calls` as one line each: id, namespace and name, and whether its arguments are an error.
fn yielded(calls: &[ToolCall]) -> String {
    let each: Vec<String> = calls
        .iter()
        .map(|call| {
            let id = call.id.as_deref().unwrap_or("(no id)");
            let namespace = call
                .namespace
                .as_deref()
                .map_or(String::new(), |n| format!("{n} "));
            let arguments = match &call.arguments {
                Ok(map) => format!("{} arguments", map.len()),
                Err(error) => format!("arguments error: {error}"),
            };
            format!("{id} {namespace}`{}` ({arguments})", call.name)
        })
        .collect();
    each.join("; ")
}

/// When each call of a stream is yielded, its text pushed one event at a time: the events that
/// yield a call or fail (with their byte ranges), then what `finish` yields.
fn pushed(file: &str, format: CallFormat) -> String {
    let text = bytes(file);
    let json_lines = file.ends_with(".jsonl");
    let mut stream: Box<dyn PushStream> = if json_lines {
        Box::new(JsonLinesCallStream::new(format))
    } else {
        Box::new(SseCallStream::new(format))
    };
    let events = events(&text, json_lines);
    let mut lines = vec![format!("{} events, {} bytes", events.len(), text.len())];
    for (number, range) in events.iter().enumerate() {
        let at = format!("event {number} (bytes {}..{})", range.start, range.end);
        match stream.push(&text[range.clone()]) {
            Ok(calls) if calls.is_empty() => {}
            Ok(calls) => lines.push(format!("{at}: yields {}", yielded(&calls))),
            Err(error) => {
                lines.push(format!("{at}: fails: {error}"));
                return lines.join("\n");
            }
        }
    }
    lines.push(match stream.finish() {
        Ok(calls) if calls.is_empty() => "finish: whole, yields nothing more".to_owned(),
        Ok(calls) => format!("finish: whole, yields {}", yielded(&calls)),
        Err(error) => format!("finish: fails: {error}"),
    });
    lines.join("\n")
}

#[test]
fn every_fixture_parses_answers_and_replays_as_the_oracle_says() {
    let mut checked = 0;
    for kind in ["response", "stream"] {
        for entry in entries(kind) {
            let format = entry.format();
            let text = match kind {
                "response" => body_oracle(&entry.file, format),
                _ => stream_oracle(&entry.file, format),
            };
            compare(&format!("{}.txt", entry.file), &text);
            checked += 1;
        }
    }
    assert_eq!(
        checked, 86,
        "the response and stream fixtures of index.json"
    );
}
