//! The direct read is taken where it should be, so its speed cannot vanish unseen behind the
//! fallback, and where it gives up the fallback gives what it always gave. Every case compares
//! the whole result with the pruned read's (`CallParser::parse_pruned`) and, for JSON, with
//! `parse` of the whole `Value`.

use serde_json::{json, Value};

use super::BodyText;
use crate::wire::apis::api;
use crate::wire::calls::{CallFormat, CallParser, ToolCall};

/// What the direct read gives of `text`, from text and from bytes (the same), checked against
/// the pruned read and the whole `Value`'s parse.
fn direct(format: CallFormat, text: &str, limit: usize) -> Option<Vec<ToolCall>> {
    let parser = CallParser::new(format).max_argument_bytes(limit);
    let read = api(format).read_calls(BodyText::Str(text), limit);
    let from_bytes = api(format).read_calls(BodyText::Slice(text.as_bytes()), limit);
    assert_eq!(read, from_bytes, "{format}: {text}");
    let pruned = parser.parse_pruned(BodyText::Str(text));
    if let Some(calls) = &read {
        assert_eq!(Ok(calls), pruned.as_ref(), "{format}: {text}");
    }
    assert_eq!(parser.parse_str(text), pruned, "{format}: {text}");
    assert_eq!(
        parser.parse_slice(text.as_bytes()),
        pruned,
        "{format}: {text}"
    );
    if let Ok(whole) = serde_json::from_str::<Value>(text) {
        assert_eq!(parser.parse(&whole), pruned, "{format}: {text}");
    }
    read
}

/// The recorded response bodies, with their formats.
fn response_fixtures() -> Vec<(CallFormat, String, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/provider-wire");
    let index: Value =
        serde_json::from_slice(&std::fs::read(dir.join("index.json")).unwrap()).unwrap();
    let mut found = Vec::new();
    for (file, info) in index["files"].as_object().unwrap() {
        if info["kind"] != "response" {
            continue;
        }
        let format = match info["format"].as_str().unwrap() {
            "openai-chat" => CallFormat::OpenAiChat,
            "openai-responses" => CallFormat::OpenAiResponses,
            "anthropic" => CallFormat::Anthropic,
            "converse" => CallFormat::Converse,
            "gemini" => CallFormat::Gemini,
            other => panic!("unknown fixture format {other}"),
        };
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        found.push((format, file.clone(), text));
    }
    found
}

#[test]
fn every_recorded_response_is_read_directly() {
    let fixtures = response_fixtures();
    for format in CallFormat::ALL {
        let count = fixtures.iter().filter(|(f, ..)| *f == format).count();
        assert!(count >= 5, "{format}: {count} response fixtures");
    }
    for (format, file, text) in &fixtures {
        for limit in [usize::MAX, 8] {
            assert!(direct(*format, text, limit).is_some(), "{file} ({limit})");
        }
    }
}

/// The `i`th call's name and arguments, as `core/benches/calls.rs` builds them.
fn call(i: usize) -> (&'static str, Value) {
    let name = [
        "get_weather",
        "mcp_github_create_issue",
        "search_web",
        "get_time",
    ][i % 4];
    let city = ["Paris", "Zürich", "Tokyo", "Lagos"][i % 4];
    let note = format!("call {i}: a sentence of free text the model wrote, with \"quotes\".");
    let arguments = json!({"city": city, "unit": "celsius", "days": i + 1, "note": note});
    (name, arguments)
}

/// The bodies of `core/benches/calls.rs`: 8 calls beside the provider's own blocks.
fn bench_body(format: CallFormat) -> String {
    let calls = 0..8;
    let body = match format {
        CallFormat::OpenAiChat => json!({
            "id": "chatcmpl-1", "object": "chat.completion", "created": 1764590400,
            "choices": [{"index": 0, "finish_reason": "tool_calls", "logprobs": null,
                "message": {"role": "assistant", "content": "Checking.", "refusal": null,
                    "tool_calls": calls.map(|i| json!({"id": format!("call_{i:024}"),
                        "type": "function", "function": {"name": call(i).0,
                        "arguments": call(i).1.to_string()}})).collect::<Vec<_>>()}}],
            "usage": {"prompt_tokens": 512, "completion_tokens": 300, "total_tokens": 812},
        }),
        CallFormat::OpenAiResponses => json!({
            "id": "resp_1", "object": "response", "status": "completed",
            "output": std::iter::once(json!({"id": "rs_1", "type": "reasoning",
                    "summary": [], "encrypted_content": "gAAAAB".repeat(40)}))
                .chain(calls.map(|i| json!({"id": format!("fc_{i:020}"),
                    "type": "function_call", "status": "completed",
                    "call_id": format!("call_{i:024}"), "name": call(i).0,
                    "arguments": call(i).1.to_string()})))
                .collect::<Vec<_>>(),
            "usage": {"input_tokens": 512, "output_tokens": 300, "total_tokens": 812},
        }),
        CallFormat::Anthropic => json!({
            "id": "msg_1", "type": "message", "role": "assistant", "stop_reason": "tool_use",
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
        }),
        CallFormat::Gemini => json!({
            "candidates": [{"index": 0, "finishReason": "STOP", "content": {"role": "model",
                "parts": std::iter::once(json!({"text": "Checking."}))
                    .chain(calls.map(|i| json!({"functionCall": {"name": call(i).0,
                        "args": call(i).1}, "thoughtSignature": "CiQB".repeat(20)})))
                    .collect::<Vec<_>>()}}],
            "usageMetadata": {"promptTokenCount": 512, "candidatesTokenCount": 300},
        }),
    };
    body.to_string()
}

#[test]
fn the_bench_bodies_are_read_directly() {
    for format in CallFormat::ALL {
        let text = bench_body(format);
        let calls = direct(format, &text, usize::MAX).unwrap_or_else(|| panic!("{format}"));
        assert_eq!(calls.len(), 8, "{format}");
        // Pretty-printed (a body's whitespace is no reason to give up).
        let pretty = serde_json::to_string_pretty(&serde_json::from_str::<Value>(&text).unwrap());
        assert_eq!(direct(format, &pretty.unwrap(), usize::MAX), Some(calls));
    }
}

/// Bodies the direct read must give up on: the fallback's result (a fault, an error, or calls
/// the direct read does not mirror) is what `parse` of the whole body gives.
#[test]
fn unusual_bodies_are_given_up_and_read_as_before() {
    use CallFormat::{Anthropic, Converse, Gemini, OpenAiChat, OpenAiResponses};
    let tool_use = r#"{"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"a": 1}}"#;
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let cases: Vec<(CallFormat, String)> = vec![
        // A member the parser reads, given twice (`Value` keeps the last).
        (
            Anthropic,
            format!(r#"{{"content": [], "content": [{tool_use}]}}"#),
        ),
        (
            Anthropic,
            r#"{"content": [{"type": "tool_use", "id": "a", "id": "b", "name": "f"}]}"#.into(),
        ),
        (
            OpenAiChat,
            r#"{"choices": [{"index": 0, "message": {"tool_calls": [{"id": "c", "type":
            "function", "function": {"name": "f", "arguments": "{}", "arguments": "[]"}}]}}]}"#
                .into(),
        ),
        (
            Gemini,
            r#"{"candidates": [{"content": {"parts": [{"functionCall": {"name": "f"},
            "functionCall": {"name": "g"}}]}}]}"#
                .into(),
        ),
        // A member of another type than the parser takes.
        (
            Anthropic,
            r#"{"content": [{"type": "tool_use", "id": 5, "name": "f"}]}"#.into(),
        ),
        (
            OpenAiResponses,
            r#"{"output": [{"type": "function_call", "call_id": "c", "name": "f",
            "namespace": ["mcp"]}]}"#
                .into(),
        ),
        (
            OpenAiChat,
            r#"{"choices": [{"index": -1, "message": {"tool_calls": []}}]}"#.into(),
        ),
        (
            Converse,
            r#"{"output": {"message": {"content": [{"toolUse": "x"}]}}}"#.into(),
        ),
        (Gemini, r#"{"candidates": {"index": 0}}"#.into()),
        // Too deep in a member no parser reads.
        (
            Anthropic,
            format!(r#"{{"usage": {deep}, "content": [{tool_use}]}}"#),
        ),
        // The raw-value token, in a member no parser reads and as a block.
        (
            Anthropic,
            format!(
                r#"{{"z": {{"$serde_json::private::RawValue": "[1]"}}, "content": [{tool_use}]}}"#
            ),
        ),
        (
            Anthropic,
            format!(
                r#"{{"content": [{{"$serde_json::private::RawValue": {}}}]}}"#,
                serde_json::to_string(tool_use).unwrap()
            ),
        ),
        // Calls the sink refuses: a repeated id, no name, no id.
        (
            Anthropic,
            format!(r#"{{"content": [{tool_use}, {tool_use}]}}"#),
        ),
        (
            Converse,
            r#"{"output": {"message": {"content": [{"toolUse": {"toolUseId": "t", "input": {}}}]}}}"#
                .into(),
        ),
        (
            OpenAiChat,
            r#"{"choices": [{"message": {"tool_calls": [{"function": {"name": "f"}}]}}]}"#.into(),
        ),
        (
            Gemini,
            r#"{"candidates": [{"content": {"parts": [{"functionCall": {"id": "", "name": "f"}},
            {"functionCall": {"id": "", "name": "g"}}]}}]}"#
                .into(),
        ),
        // Faults of the body's shape, and bodies that are not JSON.
        (OpenAiChat, r#"{"choices": [{"index": 0}]}"#.into()),
        (Gemini, r#"{"choices": []}"#.into()),
        (Converse, r#"{"output": {}}"#.into()),
        (OpenAiResponses, r#"{"output": []} trailing"#.into()),
        (OpenAiResponses, r#"{"output": [{"type": "function_call", "#.into()),
        (Anthropic, r#"{"content": [], "usage": 1e400}"#.into()),
    ];
    for (format, text) in cases {
        assert_eq!(direct(format, &text, 64), None, "{format}: {text}");
    }
}

/// Bodies the direct read takes although they are not the common shape: each call's own
/// errors, calls that are not the turn's, a blocked prompt.
#[test]
fn uncommon_bodies_are_read_directly_as_before() {
    use CallFormat::{Anthropic, Converse, Gemini, OpenAiChat, OpenAiResponses};
    let chat_call = |id: &str, arguments: &str| {
        format!(
            r#"{{"id": "{id}", "type": "function", "function": {{"name": "f", "arguments": {arguments}}}}}"#
        )
    };
    let cases: Vec<(CallFormat, String)> = vec![
        // Arguments that are not JSON, not an object, over the limit, or sent as a value.
        (
            OpenAiChat,
            format!(
                r#"{{"choices": [{{"index": 0, "message": {{"tool_calls": [{}, {}, {}, {}, {}, {}, {}]}}}}]}}"#,
                chat_call("a", r#""{\"city\": ""#),
                chat_call("b", r#""[1]""#),
                chat_call("c", &format!("\"{}\"", "x".repeat(100))),
                chat_call("d", r#"{"k": [1, 2.5]}"#),
                chat_call("e", "7"),
                chat_call("f", "null"),
                chat_call("g", r#"" \n ""#),
            ),
        ),
        (
            OpenAiResponses,
            r#"{"output": [{"type": "function_call", "call_id": "c", "name": "f",
            "arguments": "not json", "namespace": "mcp_github"},
            {"arguments": {"q": 1}, "type": "tool_search_call", "call_id": null}]}"#
                .into(),
        ),
        (
            Converse,
            r#"{"output": {"message": {"content": [{"toolUse": {"toolUseId": "t1", "name": "f",
            "input": "Paris"}}, {"toolUse": {"input": {"a": "a long text over the limit of 64 bytes, by far, yes"},
            "toolUseId": "t2", "name": "g"}}, {"toolUse": {"name": "run", "input": 5,
            "type": "server_tool_use"}}, {"toolUse": null}]}}}"#
                .into(),
        ),
        // `index` after `message`, another choice first, and a choice after the turn's that
        // the parser never reads.
        (
            OpenAiChat,
            format!(
                r#"{{"choices": [{{"message": {{"tool_calls": [{}]}}, "index": 1}},
                {{"message": {{"tool_calls": [{}]}}, "index": 0}}, 5]}}"#,
                chat_call("a", r#""{}""#),
                chat_call("b", r#""{}""#),
            ),
        ),
        (
            OpenAiChat,
            format!(
                r#"{{"choices": [{{"index": 2, "message": 7}}, {{"message": {{"tool_calls": [{}]}}}}]}}"#,
                chat_call("a", r#""{}""#),
            ),
        ),
        // A custom tool call between function calls; a message without tool calls.
        (
            OpenAiChat,
            format!(
                r#"{{"choices": [{{"index": 0, "message": {{"tool_calls": [{}, {{"type": "custom", "id": 5,
                "function": 3}}, {}]}}}}]}}"#,
                chat_call("a", r#""{}""#),
                chat_call("b", r#""{}""#),
            ),
        ),
        (
            OpenAiChat,
            r#"{"choices": [{"index": 0, "message": {"content": "hi", "tool_calls": null}}]}"#
                .into(),
        ),
        // Blocks that are not calls, whatever they hold once their type is known.
        (
            Anthropic,
            r#"{"content": [{"type": "server_tool_use", "id": 5, "name": [], "input": "q"},
            {"type": "tool_use", "id": "t", "name": "f", "input": null}]}"#
                .into(),
        ),
        // Gemini: a blocked prompt, a candidate of another index first, calls without ids or
        // arguments, an empty id.
        (Gemini, r#"{"promptFeedback": {"blockReason": "SAFETY"}}"#.into()),
        (
            Gemini,
            r#"{"candidates": null, "promptFeedback": [1]}"#.into(),
        ),
        (
            Gemini,
            r#"{"candidates": [{"content": {"parts": [{"functionCall": {"name": "other"}}]},
            "index": 1}, {"content": {"parts": [{"functionCall": {"name": "f"}},
            {"text": "t"}, {"functionCall": {"name": "f", "id": "", "args": {"a": 1}}}]}}, "x"]}"#
                .into(),
        ),
        (Gemini, r#"{"candidates": [{"content": null}]}"#.into()),
        (Gemini, r#"{"candidates": []}"#.into()),
    ];
    for (format, text) in cases {
        assert!(direct(format, &text, 64).is_some(), "{format}: {text}");
    }
}

#[test]
fn a_pointer_is_its_prefix_and_position() {
    for position in [0, 7, 10, 123, usize::MAX] {
        assert_eq!(
            super::pointer("/content/", position),
            format!("/content/{position}")
        );
    }
}

/// A small deterministic generator (xorshift), so every mutated body below is reproducible from
/// its seed.
struct Dice(u64);

impl Dice {
    fn roll(&mut self, sides: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % sides
    }
}

/// Values a mutated member may take: every type, and the strings the parsers compare with.
const LEAVES: &[&str] = &[
    "null",
    "true",
    "0",
    "1",
    "-1",
    "2.5",
    "\"\"",
    "\"f\"",
    "\"function\"",
    "\"function_call\"",
    "\"tool_use\"",
    "\"server_tool_use\"",
    "\"{}\"",
    "\"{\\\"a\\\": 1}\"",
    "\"[1]\"",
    "\"not json\"",
    "{}",
    "{\"a\": 1}",
    "[]",
    "[{}]",
    "{\"$serde_json::private::RawValue\": \"{\\\"a\\\": 1}\"}",
];

/// `value` as JSON text, each object's members and each array's items now and then dropped,
/// replaced by a leaf, given twice (a leaf first, or the same value again) or reordered.
fn mutated(value: &Value, dice: &mut Dice, out: &mut String) {
    let leaf = |dice: &mut Dice| LEAVES[dice.roll(LEAVES.len() as u64) as usize];
    match value {
        Value::Object(map) => {
            let mut members: Vec<(&String, &Value)> = map.iter().collect();
            if dice.roll(8) == 0 {
                members.reverse();
            }
            let mut parts = Vec::new();
            for (key, member) in members {
                let key = serde_json::to_string(key).unwrap();
                let mut text = String::new();
                match dice.roll(40) {
                    0 => continue,
                    1 => text.push_str(leaf(dice)),
                    2 => {
                        parts.push(format!("{key}: {}", leaf(dice)));
                        mutated(member, dice, &mut text);
                    }
                    3 => {
                        mutated(member, dice, &mut text);
                        parts.push(format!("{key}: {text}"));
                    }
                    _ => mutated(member, dice, &mut text),
                }
                parts.push(format!("{key}: {text}"));
            }
            out.push('{');
            out.push_str(&parts.join(", "));
            out.push('}');
        }
        Value::Array(items) => {
            let mut parts = Vec::new();
            for item in items {
                let mut text = String::new();
                match dice.roll(40) {
                    0 => continue,
                    1 => text.push_str(leaf(dice)),
                    2 => {
                        mutated(item, dice, &mut text);
                        parts.push(text.clone());
                    }
                    _ => mutated(item, dice, &mut text),
                }
                parts.push(text);
            }
            if dice.roll(16) == 0 {
                parts.insert(0, leaf(dice).to_owned());
            }
            out.push('[');
            out.push_str(&parts.join(", "));
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// Bodies near each format's shape, mutated member by member, read directly or given up, give
/// what `parse` of their whole `Value` gives; and the direct read takes most of them.
#[test]
fn mutated_bodies_give_what_the_whole_value_gives() {
    let mut bodies: Vec<(CallFormat, Value)> = response_fixtures()
        .into_iter()
        .map(|(format, _, text)| (format, serde_json::from_str(&text).unwrap()))
        .collect();
    for format in CallFormat::ALL {
        bodies.push((format, serde_json::from_str(&bench_body(format)).unwrap()));
    }
    let (mut taken, mut total) = (0, 0);
    for seed in 1..=60u64 {
        for (format, body) in &bodies {
            let mut dice = Dice(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
            let mut text = String::new();
            mutated(body, &mut dice, &mut text);
            for limit in [usize::MAX, 16] {
                taken += usize::from(direct(*format, &text, limit).is_some());
                total += 1;
            }
        }
    }
    assert!(taken * 4 > total, "only {taken} of {total} read directly");
}
