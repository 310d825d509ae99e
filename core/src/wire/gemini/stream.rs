//! Gemini `streamGenerateContent?alt=sse`: the stream machine (hop 4, streamed): it builds the model content the chunks carry and yields each call as a pointer into it,
//! so the calls and the recorded turn are one reader's.
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//! Sources, read 2026-12 (google-genai 3.6 `types.py`, `_api_client.py`):
//! - each event is a whole `GenerateContentResponse` chunk; a `functionCall` part arrives whole
//!   in one chunk, so the part is its own end signal; the last chunk carries `finishReason`;
//! - `FunctionCall.partial_args` / `will_continue` stream a call's arguments piecewise on
//!   Vertex AI only ("This field is not supported in Gemini API", the SDK docstring): refused
//!   here as unsupported, loudly, rather than yielding a call that is not whole;
//! - a stream cut inside an event has no terminating blank line; the part a cut event held is
//!   named from its text ([`call_in_cut_event`]), since no earlier event began it;
//! - each chunk's candidate content holds the parts that chunk adds, each whole (a
//!   `functionCall` with its `thoughtSignature`), so the turn is every part in the order
//!   streamed, kept as it came (text is not merged: a signature belongs to its very part; the
//!   thought signatures page, ai.google.dev/gemini-api/docs/thought-signatures); a call's
//!   pointer is its part's position among them; calls need no id (models before Gemini 3 send
//!   none), and several may come in one chunk;
//! - an error mid-stream comes as a chunk that is a JSON error object,
//!   `{"error": {"code", "message", "status"}}`, on a 200 response: google-genai's
//!   `_api_client.py` raises `errors.APIError` for a streamed chunk holding `error`; reports:
//!   diegosouzapw/OmniRoute #4177 (`{"error":{"code":503,…,"status":"UNAVAILABLE"}}` after
//!   partial content), ankit373/hydra #869. It is the provider's error, as the other formats'
//!   error events are.
//!
//! Our own rule, as `calls.rs`: only the candidate of `index` 0 (or without an `index`).

use serde_json::{json, Value};

use super::calls::{parts, read_part};
use crate::wire::calls::machine::StreamMachine;
use crate::wire::calls::machine::MAX_BLOCKS;
use crate::wire::calls::shape;
use crate::wire::calls::sink::CallSink;
use crate::wire::calls::{Fault, UnfinishedCall};

/// The format's stream machine (`wire::calls::machine`): the model content so far.
#[derive(Debug, Default)]
pub(crate) struct GeminiMachine {
    role: Option<String>,
    parts: Vec<Value>,
    finish_reason: Option<Value>,
}

impl StreamMachine for GeminiMachine {
    fn push(&mut self, event: &Value, calls: &mut CallSink) -> Result<(), Fault> {
        let event = shape::object(event, "", "a GenerateContentResponse chunk object")?;
        if let Some(error) = shape::member(event, "error") {
            let message = error.get("message").and_then(Value::as_str);
            return Err(Fault::Provider {
                message: message.map_or_else(|| error.to_string(), str::to_owned),
            });
        }
        // A chunk may carry only usage metadata.
        let Some(candidates) = shape::opt_array(event, "candidates", "")? else {
            return Ok(());
        };
        let first = candidates
            .iter()
            .find(|c| c.get("index").and_then(Value::as_u64).unwrap_or(0) == 0);
        if let Some(reason) = first.and_then(|c| c.get("finishReason")) {
            self.finish_reason = Some(reason.clone());
        }
        if let Some(role) = first
            .and_then(|c| c.pointer("/content/role"))
            .and_then(Value::as_str)
        {
            self.role = Some(role.to_owned());
        }
        let Some((candidate, parts)) = parts(candidates)? else {
            return Ok(());
        };
        for (position, part) in parts.iter().enumerate() {
            let pointer = format!("/candidates/{candidate}/content/parts/{position}");
            if let Some(function_call) = part.get("functionCall").and_then(Value::as_object) {
                let continues = function_call.get("willContinue") == Some(&Value::Bool(true));
                if continues || shape::member(function_call, "partialArgs").is_some() {
                    return Err(Fault::Unsupported {
                        pointer: format!("{pointer}/functionCall"),
                        what: "Vertex AI's streamed function call arguments (`partialArgs`, `willContinue`)",
                    });
                }
            }
            if self.parts.len() >= MAX_BLOCKS {
                return Err(Fault::Unsupported {
                    pointer,
                    what: "more than 4096 parts in one turn",
                });
            }
            // The part is in the turn before it is read as a call, so its pointer is true even
            // when the call is refused (no name, an id seen before).
            let at = self.parts.len();
            self.parts.push(part.clone());
            read_part(
                part,
                &pointer,
                || format!("/candidates/0/content/parts/{at}"),
                calls,
            )?;
        }
        Ok(())
    }

    fn knows(&self, event: &Value) -> bool {
        is_known_event(event)
    }

    fn open(&self) -> Vec<UnfinishedCall> {
        // A part arrives whole: no call is ever open between chunks.
        Vec::new()
    }

    fn cut(&self, text: &str) -> Vec<UnfinishedCall> {
        call_in_cut_event(text)
    }

    fn body(&self) -> Value {
        let mut candidate = json!({
            "content": {"role": self.role.as_deref().unwrap_or("model"), "parts": self.parts},
            "index": 0,
        });
        if let Some(reason) = &self.finish_reason {
            candidate["finishReason"] = reason.clone();
        }
        json!({"candidates": [candidate]})
    }
}

/// The calls a cut event's text began: each `"functionCall"` object in it, with the `name`
/// and `id` it got to. A small scan of the object's own members, not a JSON parse (the text is
/// cut); our own reading, so a truncated stream names what it lost.
///
/// Why no partial-JSON crate (jiter's partial mode, `partial-json-fixer`): this is the one
/// place toolwire reads what a cut JSON text holds (`wire::calls::json_scan` only says whether
/// a text has ended), and only to name the calls in an error; arguments are never
/// read before their end signal (a call is yielded whole or not at all), so no crate would do
/// more here than this scan of two string members, and each would be a dependency of every
/// user for an error message.
pub(crate) fn call_in_cut_event(text: &str) -> Vec<UnfinishedCall> {
    const KEY: &str = "\"functionCall\"";
    let mut calls = Vec::new();
    let mut from = 0;
    while let Some(found) = text[from..].find(KEY) {
        let start = from + found;
        from = start + KEY.len();
        // A key, not the words inside a string (which would be `\"functionCall\"`).
        if text[..start].ends_with('\\') {
            continue;
        }
        let rest = text[from..].trim_start();
        let Some(rest) = rest.strip_prefix(':').map(str::trim_start) else {
            continue;
        };
        let Some(body) = rest.strip_prefix('{') else {
            continue;
        };
        let (name, id) = members(body);
        calls.push(UnfinishedCall::new(id, name));
    }
    calls
}

/// The `name` and `id` string members at the top of an object's (cut) text.
fn members(body: &str) -> (Option<String>, Option<String>) {
    let (mut name, mut id) = (None, None);
    let mut depth = 1usize;
    let mut key: Option<String> = None;
    let mut expecting_key = true;
    let mut rest = body;
    while let Some(first) = rest.chars().next() {
        match first {
            '"' => {
                let Some((text, after)) = string(rest) else {
                    break;
                };
                rest = after;
                if depth == 1 {
                    if expecting_key {
                        key = Some(text);
                    } else {
                        match key.as_deref() {
                            Some("name") => name = Some(text),
                            Some("id") => id = Some(text),
                            _ => {}
                        }
                    }
                }
                continue;
            }
            ':' if depth == 1 => expecting_key = false,
            ',' if depth == 1 => {
                expecting_key = true;
                key = None;
            }
            '{' | '[' => depth += 1,
            '}' | ']' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            _ => {}
        }
        rest = &rest[first.len_utf8()..];
    }
    (name, id)
}

/// The JSON string `text` starts with, decoded, and the text after it; `None` if it is cut.
fn string(text: &str) -> Option<(String, &str)> {
    let bytes = text.as_bytes();
    let mut at = 1;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 2,
            b'"' => {
                let decoded = serde_json::from_str::<String>(&text[..=at]).ok()?;
                return Some((decoded, &text[at + 1..]));
            }
            _ => at += 1,
        }
    }
    None
}

/// Whether `event` is a chunk of this format at all: it has a field of
/// `GenerateContentResponse` (google-genai `types.py`; every field is optional, so a chunk with
/// none of them is no chunk of it), or is the API's error object (`error`).
pub(crate) fn is_known_event(event: &Value) -> bool {
    const FIELDS: [&str; 8] = [
        "error",
        "candidates",
        "createTime",
        "modelVersion",
        "promptFeedback",
        "responseId",
        "usageMetadata",
        "modelStatus",
    ];
    event
        .as_object()
        .is_some_and(|fields| FIELDS.iter().any(|name| fields.contains_key(*name)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::calls::machine::StreamMachine;

    #[test]
    fn a_cut_call_is_named_by_its_own_members() {
        let cut = r#"{"candidates":[{"content":{"parts":[{"functionCall":{"args":{"name":"x"},"name":"get_weather","id":"a\"1","args2":{"ci"#;
        assert_eq!(
            call_in_cut_event(cut),
            [UnfinishedCall::new(
                Some("a\"1".into()),
                Some("get_weather".into())
            )]
        );
    }

    #[test]
    fn a_cut_before_the_name_is_a_call_without_one() {
        assert_eq!(
            call_in_cut_event(r#"{"parts":[{"text":"say \"functionCall\""},{"functionCall":{"na"#),
            [UnfinishedCall::new(None, None)]
        );
        assert!(call_in_cut_event(r#"{"parts":[{"text":"hel"#).is_empty());
    }

    #[test]
    fn vertex_streamed_arguments_are_refused() {
        let chunk = serde_json::json!({"candidates": [{"content": {"parts": [
            {"functionCall": {"name": "f", "willContinue": true}}]}}]});
        let fault = GeminiMachine::default().push(&chunk, &mut CallSink::new(64));
        assert!(matches!(fault, Err(Fault::Unsupported { .. })));
    }
}
