//! Messages API answers: one `user` message whose content is one `tool_result` block per call,
//! in call order.
//!
//! Sources (anthropic-sdk-python 2.15): `types/tool_result_block_param.py`
//! `ToolResultBlockParam` = `{type: "tool_result", tool_use_id, content: str |
//! Iterable[TextBlockParam | ImageBlockParam | SearchResultBlockParam | DocumentBlockParam |
//! …], is_error: bool}`; `types/base64_image_source_param.py`: `media_type` one of
//! `image/jpeg`, `image/png`, `image/gif`, `image/webp`. The tool use guide
//! (platform.claude.com/docs/en/agents-and-tools/tool-use/overview): results come in the user
//! message right after the assistant's, before any other content; a `tool_use` without its
//! `tool_result` there fails the request ("`tool_use` ids were found without `tool_result`
//! blocks immediately after": anthropics/claude-code #7929). Recorded:
//! `fixtures/provider-wire/anthropic/answer-*.json`.

use serde_json::{json, Value};

use crate::tools::json_text;
use crate::wire::answers::{Body, Part, Reply};

/// `Base64ImageSourceParam.media_type`'s literals.
pub(crate) fn takes_image(mime_type: &str) -> bool {
    matches!(
        mime_type,
        "image/jpeg" | "image/png" | "image/gif" | "image/webp"
    )
}

pub(crate) fn message(replies: &[Reply<'_>]) -> Value {
    let blocks: Vec<Value> = replies.iter().map(tool_result).collect();
    json!({"role": "user", "content": blocks})
}

fn tool_result(reply: &Reply<'_>) -> Value {
    let content = match &reply.body {
        Body::Error(text) => json!([{"type": "text", "text": text}]),
        Body::Value(value) => Value::String(json_text(value)),
        Body::Parts { parts, .. } => Value::Array(
            parts
                .iter()
                .map(|part| match part {
                    Part::Text(text) => json!({"type": "text", "text": text}),
                    Part::Image { mime_type, data } => json!({
                        "type": "image",
                        "source": {"type": "base64", "media_type": mime_type, "data": data},
                    }),
                })
                .collect(),
        ),
    };
    let mut block =
        json!({"type": "tool_result", "tool_use_id": reply.id_or_empty(), "content": content});
    if reply.body.is_error() {
        block["is_error"] = Value::Bool(true);
    }
    block
}
