//! The recorded fixtures and their index (`fixtures/provider-wire/index.json`): which calls a
//! parser must find in each file, in order.

use std::path::PathBuf;

use serde_json::Value;
use toolwire_core::wire::calls::{
    ArgumentsError, CallFormat, CallParser, JsonLinesCallStream, SseCallStream, StreamError,
    ToolCall,
};

/// The fixture folder.
pub fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures/provider-wire")
}

/// The bytes of a fixture file (`openai-chat/response-one-call.json`).
pub fn bytes(file: &str) -> Vec<u8> {
    let path = dir().join(file);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One file of the index.
pub struct Entry {
    pub file: String,
    pub info: Value,
}

impl Entry {
    pub fn format(&self) -> CallFormat {
        format_of(self.info["format"].as_str().unwrap())
    }

    pub fn expected_calls(&self) -> &[Value] {
        self.info["calls"].as_array().map_or(&[], Vec::as_slice)
    }

    pub fn expected_unfinished(&self) -> &[Value] {
        self.info["unfinished"]
            .as_array()
            .map_or(&[], Vec::as_slice)
    }

    pub fn sibling(&self) -> Option<&str> {
        self.info["same_calls_as"].as_str()
    }
}

/// The fixtures' format names, as `CallFormat`s.
pub fn format_of(name: &str) -> CallFormat {
    match name {
        "openai-chat" => CallFormat::OpenAiChat,
        "openai-responses" => CallFormat::OpenAiResponses,
        "anthropic" => CallFormat::Anthropic,
        "converse" => CallFormat::Converse,
        "gemini" => CallFormat::Gemini,
        other => panic!("unknown fixture format {other}"),
    }
}

/// Every indexed file of `kind`, sorted by name; never empty (a check that saw nothing fails).
pub fn entries(kind: &str) -> Vec<Entry> {
    let index: Value = serde_json::from_slice(&bytes("index.json")).unwrap();
    let mut entries: Vec<Entry> = index["files"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, info)| info["kind"] == kind)
        .map(|(file, info)| Entry {
            file: file.clone(),
            info: info.clone(),
        })
        .collect();
    entries.sort_by(|a, b| a.file.cmp(&b.file));
    assert!(!entries.is_empty(), "no {kind} fixtures in index.json");
    entries
}

/// The calls of a response fixture.
pub fn body_calls(file: &str, format: CallFormat) -> Vec<ToolCall> {
    CallParser::new(format)
        .parse_slice(&bytes(file))
        .unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// What a stream gives: its calls in order, and how it ended.
pub type Assembled = (Vec<ToolCall>, Result<(), StreamError>);

/// A stream fixture's text fed in `chunks` (cut at the given byte offsets, sorted).
pub fn assemble(file: &str, format: CallFormat, text: &[u8], cuts: &[usize]) -> Assembled {
    let mut pieces = Vec::new();
    let mut from = 0;
    for &cut in cuts {
        pieces.push(&text[from..cut]);
        from = cut;
    }
    pieces.push(&text[from..]);
    let mut calls = Vec::new();
    if file.ends_with(".jsonl") {
        let mut stream = JsonLinesCallStream::new(format);
        for piece in pieces {
            match stream.push(piece) {
                Ok(ended) => calls.extend(ended),
                Err(error) => return (calls, Err(error)),
            }
        }
        let end = stream.finish().map(|last| calls.extend(last));
        (calls, end)
    } else {
        let mut stream = SseCallStream::new(format);
        for piece in pieces {
            match stream.push(piece) {
                Ok(ended) => calls.extend(ended),
                Err(error) => return (calls, Err(error)),
            }
        }
        let end = stream.finish().map(|last| calls.extend(last));
        (calls, end)
    }
}

/// Asserts `calls` are the index's `expected`, in order: id, name, namespace, and arguments or
/// the error (`not_json`, `not_object`).
pub fn assert_calls(file: &str, calls: &[ToolCall], expected: &[Value]) {
    let got: Vec<Value> = calls.iter().map(as_index_entry).collect();
    let want: Vec<Value> = expected.iter().map(normalized).collect();
    assert_eq!(got, want, "{file}");
}

fn normalized(expected: &Value) -> Value {
    let mut entry = expected.clone();
    let object = entry.as_object_mut().unwrap();
    object.entry("namespace").or_insert(Value::Null);
    entry
}

fn as_index_entry(call: &ToolCall) -> Value {
    let mut entry = serde_json::json!({
        "id": call.id,
        "name": call.name,
        "namespace": call.namespace,
    });
    match &call.arguments {
        Ok(arguments) => entry["arguments"] = Value::Object(arguments.clone()),
        Err(ArgumentsError::NotJson { .. }) => entry["error"] = "not_json".into(),
        Err(ArgumentsError::NotObject { .. }) => entry["error"] = "not_object".into(),
        Err(other) => entry["error"] = other.to_string().into(),
    }
    entry
}
