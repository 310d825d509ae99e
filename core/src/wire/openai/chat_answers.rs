//! Chat Completions answers: one `tool` message per call, after the assistant message.
//!
//! Sources (openai-python 3.57, `types/chat/chat_completion_tool_message_param.py`):
//! `ChatCompletionToolMessageParam` = `{role: "tool", tool_call_id, content: str |
//! Iterable[ChatCompletionContentPartTextParam]}`: a tool message carries text only (no image
//! part, no error flag), so an image is said in words and an error is said in the text
//! (`fixtures/provider-wire/openai-chat/answer-parallel.json`). The function calling guide
//! (developers.openai.com/api/docs/guides/function-calling) appends one such message per call.

use serde_json::{json, Value};

use crate::tools::json_text;
use crate::wire::answers::{Body, Part, Reply};

/// No image travels in a tool message (its content is text parts only).
pub(crate) fn takes_image(_mime_type: &str) -> bool {
    false
}

/// The words an error starts with: the message has no error flag, so the text says it (our
/// wording).
pub(crate) const ERROR_PREFIX: &str = "Error: ";

pub(crate) fn messages(replies: &[Reply<'_>]) -> Vec<Value> {
    replies
        .iter()
        .map(|reply| {
            let content = match &reply.body {
                Body::Error(text) => Value::String(format!("{ERROR_PREFIX}{text}")),
                Body::Value(value) => Value::String(json_text(value)),
                Body::Parts { parts, is_error } => {
                    let mut texts: Vec<Value> = Vec::new();
                    if *is_error {
                        texts.push(json!({"type": "text", "text": ERROR_PREFIX.trim_end()}));
                    }
                    for part in parts {
                        if let Part::Text(text) = part {
                            texts.push(json!({"type": "text", "text": text}));
                        }
                    }
                    Value::Array(texts)
                }
            };
            json!({"role": "tool", "tool_call_id": reply.id_or_empty(), "content": content})
        })
        .collect()
}
