//! Gemini `streamGenerateContent?alt=sse`: the assembler of a stream's tool calls (hop 4,
//! streamed).
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//! Sources, read 2026-12 (google-genai 3.6 `types.py`, `_api_client.py`):
//! - each event is a whole `GenerateContentResponse` chunk; a `functionCall` part arrives whole
//!   in one chunk, so the part is its own end signal; the last chunk carries `finishReason`;
//! - `FunctionCall.partial_args` / `will_continue` stream a call's arguments piecewise on
//!   Vertex AI only ("This field is not supported in Gemini API", the SDK docstring): refused
//!   here as unsupported, loudly, rather than yielding a call that is not whole;
//! - a stream cut inside an event has no terminating blank line; the part a cut event held is
//!   named from its text ([`call_in_cut_event`]), since no earlier event began it.

use serde_json::Value;

use super::calls::{parts, read_part};
use crate::wire::calls::shape;
use crate::wire::calls::turn::Turn;
use crate::wire::calls::{Fault, UnfinishedCall};

/// How many parts the stream has carried: a call's position in the content its chunks build.
#[derive(Debug, Default)]
pub(crate) struct GeminiStream {
    parts: usize,
}

impl GeminiStream {
    /// Reads one chunk.
    pub(crate) fn push(&mut self, event: &Value, turn: &mut Turn) -> Result<(), Fault> {
        let event = shape::object(event, "", "a GenerateContentResponse chunk object")?;
        // A chunk may carry only usage metadata.
        let Some(candidates) = shape::opt_array(event, "candidates", "")? else {
            return Ok(());
        };
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
            let call_position = self.parts;
            read_part(
                part,
                &pointer,
                || format!("/candidates/0/content/parts/{call_position}"),
                turn,
            )?;
            self.parts += 1;
        }
        Ok(())
    }
}

/// The calls a cut event's text began: each `"functionCall"` object in it, with the `name`
/// and `id` it got to. A small scan of the object's own members, not a JSON parse (the text is
/// cut); our own reading, so a truncated stream names what it lost.
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
/// none of them is no chunk of it).
pub(crate) fn is_known_event(event: &Value) -> bool {
    const FIELDS: [&str; 7] = [
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
        let fault = GeminiStream::default().push(&chunk, &mut Turn::new(64));
        assert!(matches!(fault, Err(Fault::Unsupported { .. })));
    }
}

/// The format's stream machine (`wire::calls::machine`). For now it feeds each event to the
/// call assembler above and to the recorder in `super::streamed_turn::GeminiTurn`, one after the other.
#[derive(Debug, Default)]
pub(crate) struct GeminiMachine {
    calls: GeminiStream,
    turn: super::streamed_turn::GeminiTurn,
}

impl crate::wire::calls::machine::StreamMachine for GeminiMachine {
    fn push(&mut self, event: &Value, calls: &mut Turn) -> Result<(), Fault> {
        self.turn.push(event);
        self.calls.push(event, calls)
    }

    fn knows(event: &Value) -> bool {
        is_known_event(event)
    }

    fn open(&self) -> Vec<UnfinishedCall> {
        Vec::new()
    }

    fn cut(&self, text: &str) -> Vec<UnfinishedCall> {
        call_in_cut_event(text)
    }

    fn body(&self) -> Value {
        self.turn.body()
    }
}
