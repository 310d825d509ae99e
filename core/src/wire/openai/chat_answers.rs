//! Chat Completions answers: one `tool` message per call, after the assistant message.
//!
//! Sources (openai-python 3.57, `types/chat/chat_completion_tool_message_param.py`):
//! `ChatCompletionToolMessageParam` = `{role: "tool", tool_call_id, content: str |
//! Iterable[ChatCompletionContentPartTextParam]}`: a tool message carries text only (no image
//! part, no error flag), so an image is said in words and an error is said in the text
//! (`fixtures/provider-wire/openai-chat/answer-parallel.json`). The function calling guide
//! (developers.openai.com/api/docs/guides/function-calling) appends one such message per call.

use serde::{Serialize, Serializer};

use crate::wire::answers::out::{JsonText, Out, Seq, TypedText};
use crate::wire::answers::{Part, Payload, Reply};

/// No image travels in a tool message (its content is text parts only).
pub(crate) fn takes_image(_mime_type: &str) -> bool {
    false
}

/// The words an error starts with: the message has no error flag, so the text says it (our
/// wording).
pub(crate) const ERROR_PREFIX: &str = "Error: ";

pub(crate) fn write(replies: &[Reply<'_>], out: &mut impl Out) {
    for reply in replies {
        out.message(&ToolMessage {
            content: Content(&reply.payload),
            role: "tool",
            tool_call_id: reply.id_or_empty(),
        });
    }
}

/// `{"role": "tool", "tool_call_id", "content"}`, its keys in sorted order (`answers::out`).
#[derive(Serialize)]
struct ToolMessage<'a> {
    content: Content<'a>,
    role: &'static str,
    tool_call_id: &'a str,
}

/// The text, or the text parts (an image is said in words by `answers::reply`).
struct Content<'a>(&'a Payload<'a>);

impl Serialize for Content<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Payload::Error(text) => serializer.collect_str(&format_args!("{ERROR_PREFIX}{text}")),
            Payload::Value(value) => JsonText(value).serialize(serializer),
            Payload::JsonText(text) => text.serialize(serializer),
            Payload::Parts { parts, is_error } => {
                let error = is_error.then_some(ERROR_PREFIX.trim_end());
                let texts = parts.iter().filter_map(|part| match part {
                    Part::Text(text) => Some(text.as_ref()),
                    Part::Image { .. } => None,
                });
                Seq(|| {
                    error
                        .into_iter()
                        .chain(texts.clone())
                        .map(|text| TypedText { text, kind: "text" })
                })
                .serialize(serializer)
            }
        }
    }
}
