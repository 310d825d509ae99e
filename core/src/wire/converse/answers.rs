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
//! (`answers::reply`'s `NO_OUTPUT`). The tool use guide
//! (docs.aws.amazon.com/bedrock/latest/userguide/tool-use.html) sends all results in one user
//! message. Recorded: `fixtures/provider-wire/converse/answer-*.json`.

use serde_json::{json, Value};

use crate::tools::json_text;
use crate::wire::answers::{Body, Part, Reply};

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

pub(crate) fn message(replies: &[Reply<'_>]) -> Value {
    let blocks: Vec<Value> = replies.iter().map(tool_result).collect();
    json!({"role": "user", "content": blocks})
}

fn tool_result(reply: &Reply<'_>) -> Value {
    let content: Vec<Value> = match &reply.body {
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
    let status = if reply.body.is_error() {
        "error"
    } else {
        "success"
    };
    json!({"toolResult": {"toolUseId": reply.id_or_empty(), "content": content, "status": status}})
}
