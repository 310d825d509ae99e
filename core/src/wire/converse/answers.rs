//! Converse answers: one `user` message of `toolResult` blocks, one per call, in call order.
//!
//! Sources (botocore 1.43, bedrock-runtime 2023-09-30 service model): `ToolResultBlock` =
//! `{toolUseId, content: [ToolResultContentBlock], status: "success" | "error"}`;
//! `ToolResultContentBlock` = `json | text | image | document | video | searchResult`;
//! `ImageBlock` = `{format: png | jpeg | gif | webp, source: {bytes}}` (`bytes` base64 in the
//! JSON wire, as every blob of this rest-json service). The service model notes that `status`
//! and `image` are "only supported by Amazon Nova and Anthropic Claude 3 and 4 models". An
//! error result with empty content, or an empty text block, is refused ("text content blocks
//! must be non-empty": NousResearch/hermes-agent PR #55093), so `content` is never empty
//! (`answers::reply`'s `NO_OUTPUT`). Blank text is refused too: "The text field in the
//! ContentBlock object at messages.N.content.M is blank" (NousResearch/hermes-agent #55092),
//! "messages: text content blocks must contain non-whitespace text" (hermes-agent PR #64858,
//! PR #61318: a lone-space placeholder itself fails). A measurement in #55092 found one model
//! accepting blank text inside a `toolResult`; our caution keeps every model's request valid:
//! blank text beside other content is left out, and an answer with nothing else reads
//! `answers::reply`'s `EMPTY_TEXT`, with a [`NoteKind::EmptyText`] in the returned notes.
//! The tool use guide
//! (docs.aws.amazon.com/bedrock/latest/userguide/tool-use.html) sends all results in one user
//! message. Recorded: `fixtures/provider-wire/converse/answer-*.json`.

use serde_json::{json, Value};

use crate::tools::json_text;
use crate::wire::answers::{AnswerNote, Body, NoteKind, Part, Reply, EMPTY_TEXT};

/// The image MIME type's `ImageFormat`, when Converse has one.
fn image_format(mime_type: &str) -> Option<&'static str> {
    match mime_type {
        "image/png" => Some("png"),
        "image/jpeg" | "image/jpg" => Some("jpeg"),
        "image/gif" => Some("gif"),
        "image/webp" => Some("webp"),
        _ => None,
    }
}

/// `ImageFormat`'s enum: `png`, `jpeg`, `gif`, `webp`.
pub(crate) fn takes_image(mime_type: &str) -> bool {
    image_format(mime_type).is_some()
}

pub(crate) fn message(replies: &[Reply<'_>], notes: &mut Vec<AnswerNote>) -> Value {
    let blocks: Vec<Value> = replies
        .iter()
        .enumerate()
        .map(|(call, reply)| tool_result(reply, call, notes))
        .collect();
    json!({"role": "user", "content": blocks})
}

/// Whether `block` is a text block whose text is empty or only whitespace.
fn is_blank_text(block: &Value) -> bool {
    block
        .get("text")
        .and_then(Value::as_str)
        .is_some_and(|text| text.trim().is_empty())
}

fn tool_result(reply: &Reply<'_>, call: usize, notes: &mut Vec<AnswerNote>) -> Value {
    let mut content: Vec<Value> = match &reply.body {
        Body::Error(text) => vec![json!({"text": text})],
        // A JSON object travels as a `json` block (a Document); any other value as its text.
        Body::Value(value) if value.is_object() => vec![json!({"json": value})],
        Body::Value(value) => vec![json!({"text": json_text(value)})],
        Body::Parts { parts, .. } => parts
            .iter()
            .map(|part| match part {
                Part::Text(text) => json!({"text": text}),
                Part::Image { mime_type, data } => json!({"image": {
                    "format": image_format(mime_type).unwrap_or("png"),
                    "source": {"bytes": data},
                }}),
            })
            .collect(),
    };
    if content.iter().any(is_blank_text) {
        content.retain(|block| !is_blank_text(block));
        if content.is_empty() {
            content.push(json!({"text": EMPTY_TEXT}));
        }
        notes.push(AnswerNote {
            call,
            kind: NoteKind::EmptyText,
        });
    }
    let status = if reply.body.is_error() {
        "error"
    } else {
        "success"
    };
    json!({"toolResult": {"toolUseId": reply.id_or_empty(), "content": content, "status": status}})
}
