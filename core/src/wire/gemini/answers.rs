//! Gemini answers: one `user` content of `functionResponse` parts, one per `functionCall` part
//! and in the same order.
//!
//! Sources (google-genai 3.6, `types.py`): `FunctionResponse` = `{id, name, response, parts,
//! will_continue, scheduling}`: `name` "The name of the function to call. Matches
//! FunctionDeclaration.name and FunctionCall.name", so it is the called name, verbatim
//! (never the id: rig PR #515, rust-genai PR #41, AstrBot #9876); `id` only when the call had
//! one (a call without one is paired by position); `response`: "Use "output" key to specify
//! function output and "error" key to specify error details"; `parts`:
//! `FunctionResponsePart.inline_data` = `FunctionResponseBlob {mime_type, data}`, the
//! multimodal function response. As many parts as calls: "Please ensure that the number of
//! function response parts is equal to the number of function call parts"
//! (google-gemini/gemini-cli #4720). Recorded: `fixtures/provider-wire/gemini/answer-*.json`.
//!
//! A `$ref` key inside `response` is read by Gemini 3 as a pointer to one of the response's
//! media `parts` (by `display_name`), and a request whose `$ref` names none fails whole with
//! 400: "The referenced name `#/$defs/X` in function_response.response does not match to a
//! display_name in the function_response.parts" (vercel/ai #14369, NousResearch/hermes-agent
//! #93014, router-for-me/CLIProxyAPI #6065). A JSON output holding a `$ref` key (a JSON
//! Schema: `tool_schema`'s own answer, an MCP tool describing an API) so travels as its JSON
//! text under `output`, with a [`NoteKind::RefAsText`] in the returned notes: the model reads
//! the same JSON, and no `$ref` is an object key.

use serde_json::{json, Map, Value};

use crate::tools::json_text;
use crate::wire::answers::{AnswerNote, Body, NoteKind, Part, Reply};

/// The image types a multimodal function response takes: "image/png, image/jpeg, image/webp"
/// (ai.google.dev/gemini-api/docs/function-calling, "Multimodal function responses", which
/// names Gemini 3 models; an older model may refuse the `parts`).
pub(crate) fn takes_image(mime_type: &str) -> bool {
    matches!(mime_type, "image/png" | "image/jpeg" | "image/webp")
}

pub(crate) fn content(replies: &[Reply<'_>], notes: &mut Vec<AnswerNote>) -> Value {
    let parts: Vec<Value> = replies
        .iter()
        .enumerate()
        .map(|(call, reply)| json!({"functionResponse": function_response(reply, call, notes)}))
        .collect();
    json!({"role": "user", "parts": parts})
}

/// Whether `value` has a `$ref` object key at any depth.
fn holds_ref(value: &Value) -> bool {
    match value {
        Value::Object(map) => map.contains_key("$ref") || map.values().any(holds_ref),
        Value::Array(items) => items.iter().any(holds_ref),
        _ => false,
    }
}

fn function_response(reply: &Reply<'_>, call: usize, notes: &mut Vec<AnswerNote>) -> Value {
    let mut images = Vec::new();
    let response = match &reply.body {
        Body::Error(text) => json!({"error": text}),
        Body::Value(value) if holds_ref(value) => {
            notes.push(AnswerNote {
                call,
                kind: NoteKind::RefAsText,
            });
            json!({"output": json_text(value)})
        }
        Body::Value(value) => json!({"output": value}),
        Body::Parts { parts, is_error } => {
            let mut texts = Vec::new();
            for part in parts {
                match part {
                    Part::Text(text) => texts.push(text.as_ref()),
                    Part::Image { mime_type, data } => {
                        images.push(json!({"inlineData": {"mimeType": mime_type, "data": data}}))
                    }
                }
            }
            let key = if *is_error { "error" } else { "output" };
            json!({key: texts.join("\n")})
        }
    };
    let mut function_response = Map::new();
    function_response.insert("name".into(), Value::String(reply.name.to_owned()));
    if let Some(id) = reply.id {
        function_response.insert("id".into(), Value::String(id.to_owned()));
    }
    function_response.insert("response".into(), response);
    if !images.is_empty() {
        function_response.insert("parts".into(), Value::Array(images));
    }
    Value::Object(function_response)
}
