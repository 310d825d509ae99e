//! Streams built from fuzz input, one event at a time, in each format's own event shapes (the
//! ones `fixtures/provider-wire/` records): calls begun, continued, ended and left open, text
//! and other blocks between them, ids repeated or minted anew, names repeated, indexes out of
//! order, end signals real and empty. Each event is well-formed JSON of the format, so the
//! stream machine reads past the envelope into what it builds.
//!
//! Policy: the pieces come from small palettes (a few ids, names, argument fragments) so that
//! the generator often makes what real servers do (a call continued, a name repeated, an id
//! reused) and sometimes what they should not (a fragment to an index never begun).

use arbitrary::{Result, Unstructured};
use serde_json::{json, Value};
use toolwire_core::wire::calls::CallFormat;

/// Call ids, a few so that they repeat.
const IDS: &[&str] = &["call_1", "call_2", "toolu_1", "fc_1", ""];
/// Responses item ids, fewer than the indexes so that they meet; `""` sends none.
const ITEM_IDS: &[&str] = &["fc_a", "fc_b", ""];
/// Names: real ones, one that is another's prefix, one a server could repeat per chunk.
const NAMES: &[&str] = &["get_weather", "get", "weather", "mcp/x/search.web", "f", ""];
/// Argument fragments: pieces of one object, whole objects, a fragment that is not JSON.
const FRAGMENTS: &[&str] = &[
    "",
    "{",
    "\"city\"",
    ":",
    "\"Paris\"",
    "}",
    "{\"city\":\"Paris\"}",
    "{}",
    "[1]",
    "\"text\"",
    " ",
    "get_weather",
];
/// Text between calls.
const TEXTS: &[&str] = &["", "Hi", " there", "\u{1F980}"];

fn pick<'a>(u: &mut Unstructured<'_>, from: &[&'a str]) -> Result<&'a str> {
    u.choose(from).copied()
}

fn index(u: &mut Unstructured<'_>) -> Result<u64> {
    Ok(u64::from(u.int_in_range(0..=3u8)?))
}

/// Up to 24 events of `format`, built from `u`.
pub fn stream_events(format: CallFormat, u: &mut Unstructured<'_>) -> Result<Vec<Value>> {
    let count = u.int_in_range(0..=24u8)?;
    let mut events = Vec::with_capacity(usize::from(count));
    for _ in 0..count {
        events.push(match format {
            CallFormat::OpenAiChat => chat(u)?,
            CallFormat::OpenAiResponses => responses(u)?,
            CallFormat::Anthropic => anthropic(u)?,
            CallFormat::Converse => converse(u)?,
            CallFormat::Gemini => gemini(u)?,
            // A format this generator does not know yet builds nothing.
            _ => return Ok(events),
        });
    }
    Ok(events)
}

/// A Chat Completions chunk (openai-python `ChatCompletionChunk`).
fn chat(u: &mut Unstructured<'_>) -> Result<Value> {
    let mut delta = serde_json::Map::new();
    if u.ratio(1, 4)? {
        delta.insert("content".into(), pick(u, TEXTS)?.into());
    }
    if u.ratio(3, 4)? {
        let mut calls = Vec::new();
        for _ in 0..u.int_in_range(1..=2u8)? {
            let mut call = serde_json::Map::new();
            if u.ratio(7, 8)? {
                call.insert("index".into(), index(u)?.into());
            }
            if u.ratio(1, 2)? {
                call.insert("id".into(), pick(u, IDS)?.into());
            }
            if u.ratio(1, 2)? {
                call.insert(
                    "type".into(),
                    u.choose(&["function", "custom"])?.to_owned().into(),
                );
            }
            let mut function = serde_json::Map::new();
            if u.ratio(1, 2)? {
                function.insert("name".into(), pick(u, NAMES)?.into());
            }
            function.insert("arguments".into(), pick(u, FRAGMENTS)?.into());
            call.insert("function".into(), function.into());
            calls.push(Value::Object(call));
        }
        delta.insert("tool_calls".into(), calls.into());
    }
    let finish = match u.int_in_range(0..=5u8)? {
        0 => json!("tool_calls"),
        1 => json!(""),
        2 => json!("stop"),
        _ => Value::Null,
    };
    if u.ratio(1, 16)? {
        return Ok(json!({"choices": []}));
    }
    Ok(json!({"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}))
}

/// A Responses API stream event (openai-python `ResponseStreamEvent`).
fn responses(u: &mut Unstructured<'_>) -> Result<Value> {
    let output_index = index(u)?;
    // Item ids apart from indexes (two items at one index, an item whose index moves), and
    // sometimes none (a function call item's `id` is optional in the SDK type; an arguments
    // event without `item_id` is a loose copy of the API).
    let item_id = pick(u, ITEM_IDS)?;
    let call_id = pick(u, IDS)?;
    let name = pick(u, NAMES)?;
    let mut event = match u.int_in_range(0..=5u8)? {
        0 => json!({"type": "response.output_item.added", "output_index": output_index,
            "item": {"type": "function_call", "id": item_id, "call_id": call_id,
                "name": name, "arguments": ""}}),
        1 => json!({"type": "response.function_call_arguments.delta",
            "output_index": output_index, "item_id": item_id, "delta": pick(u, FRAGMENTS)?}),
        2 => json!({"type": "response.output_item.done", "output_index": output_index,
            "item": {"type": "function_call", "id": item_id, "call_id": call_id,
                "name": name, "arguments": pick(u, FRAGMENTS)?}}),
        3 => json!({"type": "response.output_item.done", "output_index": output_index,
            "item": {"type": "message", "id": format!("msg_{output_index}"), "role": "assistant",
                "content": [{"type": "output_text", "text": pick(u, TEXTS)?, "annotations": []}]}}),
        4 => json!({"type": "response.function_call_arguments.done",
            "output_index": output_index, "item_id": item_id, "arguments": pick(u, FRAGMENTS)?}),
        _ => json!({"type": "response.output_item.done", "output_index": output_index,
            "item": {"type": "reasoning", "id": format!("rs_{output_index}"), "summary": [],
                "encrypted_content": "gAAA"}}),
    };
    if item_id.is_empty() {
        if let Some(map) = event.as_object_mut() {
            map.remove("item_id");
            if let Some(Value::Object(item)) = map.get_mut("item") {
                if item.get("type").and_then(Value::as_str) == Some("function_call") {
                    item.remove("id");
                }
            }
        }
    }
    Ok(event)
}

/// A Messages API stream event (anthropic-sdk-python `RawMessageStreamEvent`).
fn anthropic(u: &mut Unstructured<'_>) -> Result<Value> {
    let at = index(u)?;
    Ok(match u.int_in_range(0..=7u8)? {
        0 => json!({"type": "content_block_start", "index": at, "content_block":
            {"type": "tool_use", "id": pick(u, IDS)?, "name": pick(u, NAMES)?, "input": {}}}),
        1 => json!({"type": "content_block_start", "index": at,
            "content_block": {"type": "text", "text": ""}}),
        2 | 3 => json!({"type": "content_block_delta", "index": at,
            "delta": {"type": "input_json_delta", "partial_json": pick(u, FRAGMENTS)?}}),
        4 => json!({"type": "content_block_delta", "index": at,
            "delta": {"type": "text_delta", "text": pick(u, TEXTS)?}}),
        5 => json!({"type": "content_block_stop", "index": at}),
        6 => json!({"type": "ping"}),
        _ => json!({"type": "message_start", "message": {"id": "msg_1", "type": "message",
            "role": "assistant", "content": [], "model": "claude"}}),
    })
}

/// A decoded Converse stream event (boto3 `ConverseStreamOutput`).
fn converse(u: &mut Unstructured<'_>) -> Result<Value> {
    let at = index(u)?;
    Ok(match u.int_in_range(0..=5u8)? {
        0 => json!({"contentBlockStart": {"contentBlockIndex": at, "start":
            {"toolUse": {"toolUseId": pick(u, IDS)?, "name": pick(u, NAMES)?}}}}),
        1 | 2 => json!({"contentBlockDelta": {"contentBlockIndex": at,
            "delta": {"toolUse": {"input": pick(u, FRAGMENTS)?}}}}),
        3 => json!({"contentBlockDelta": {"contentBlockIndex": at,
            "delta": {"text": pick(u, TEXTS)?}}}),
        4 => json!({"contentBlockStop": {"contentBlockIndex": at}}),
        _ => json!({"messageStart": {"role": "assistant"}}),
    })
}

/// A Gemini `GenerateContentResponse` chunk (google-genai `types.GenerateContentResponse`).
fn gemini(u: &mut Unstructured<'_>) -> Result<Value> {
    let mut parts = Vec::new();
    for _ in 0..u.int_in_range(1..=3u8)? {
        parts.push(if u.ratio(2, 3)? {
            let mut call = serde_json::Map::new();
            call.insert("name".into(), pick(u, NAMES)?.into());
            if u.ratio(1, 2)? {
                call.insert("id".into(), pick(u, IDS)?.into());
            }
            if u.ratio(3, 4)? {
                let args = pick(u, FRAGMENTS)?;
                call.insert(
                    "args".into(),
                    serde_json::from_str(args).unwrap_or_else(|_| json!({"raw": args})),
                );
            }
            json!({"functionCall": call})
        } else {
            json!({"text": pick(u, TEXTS)?})
        });
    }
    Ok(json!({"candidates": [{"content": {"role": "model", "parts": parts}}]}))
}
