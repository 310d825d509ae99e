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

use serde_json::{json, Map, Value};

use crate::wire::answers::{Body, Part, Reply};

/// The image types a multimodal function response takes: "image/png, image/jpeg, image/webp"
/// (ai.google.dev/gemini-api/docs/function-calling, "Multimodal function responses", which
/// names Gemini 3 models; an older model may refuse the `parts`).
pub(crate) fn takes_image(mime_type: &str) -> bool {
    matches!(mime_type, "image/png" | "image/jpeg" | "image/webp")
}

pub(crate) fn content(replies: &[Reply<'_>]) -> Value {
    let parts: Vec<Value> = replies
        .iter()
        .map(|reply| json!({"functionResponse": function_response(reply)}))
        .collect();
    json!({"role": "user", "parts": parts})
}

fn function_response(reply: &Reply<'_>) -> Value {
    let mut images = Vec::new();
    let response = match &reply.body {
        Body::Error(text) => json!({"error": text}),
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
