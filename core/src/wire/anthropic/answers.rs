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

use serde::{Serialize, Serializer};

use crate::wire::answers::out::{JsonText, Out, Seq, TypedText};
use crate::wire::answers::{Part, Payload, Reply};

/// `Base64ImageSourceParam.media_type`'s literals.
pub(crate) fn takes_image(mime_type: &str) -> bool {
    matches!(
        mime_type,
        "image/jpeg" | "image/png" | "image/gif" | "image/webp"
    )
}

pub(crate) fn write(replies: &[Reply<'_>], out: &mut impl Out) {
    out.message(&UserMessage {
        content: Seq(|| replies.iter().map(ToolResult)),
        role: "user",
    });
}

/// `{"role": "user", "content"}`, its keys in sorted order (`answers::out`).
#[derive(Serialize)]
struct UserMessage<C> {
    content: C,
    role: &'static str,
}

/// `{"type": "tool_result", "tool_use_id", "content", "is_error"}`, its keys in sorted order.
struct ToolResult<'a>(&'a Reply<'a>);

impl Serialize for ToolResult<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Block<'a> {
            content: Content<'a>,
            #[serde(skip_serializing_if = "Option::is_none")]
            is_error: Option<bool>,
            tool_use_id: &'a str,
            #[serde(rename = "type")]
            kind: &'static str,
        }
        let reply = self.0;
        Block {
            content: Content(&reply.payload),
            is_error: reply.payload.is_error().then_some(true),
            tool_use_id: reply.id_or_empty(),
            kind: "tool_result",
        }
        .serialize(serializer)
    }
}

/// The text of a JSON output, or the content blocks.
struct Content<'a>(&'a Payload<'a>);

impl Serialize for Content<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Payload::Error(text) => [TypedText { text, kind: "text" }].serialize(serializer),
            Payload::Value(value) => JsonText(value).serialize(serializer),
            Payload::JsonText(text) => text.serialize(serializer),
            Payload::Parts { parts, .. } => {
                Seq(|| parts.iter().map(ContentBlock)).serialize(serializer)
            }
        }
    }
}

struct ContentBlock<'a>(&'a Part<'a>);

impl Serialize for ContentBlock<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        /// `{"type": "image", "source": {"type": "base64", "media_type", "data"}}`, sorted.
        #[derive(Serialize)]
        struct Image<'a> {
            source: Source<'a>,
            #[serde(rename = "type")]
            kind: &'static str,
        }
        #[derive(Serialize)]
        struct Source<'a> {
            data: &'a str,
            media_type: &'a str,
            #[serde(rename = "type")]
            kind: &'static str,
        }
        match self.0 {
            Part::Text(text) => TypedText { text, kind: "text" }.serialize(serializer),
            Part::Image { mime_type, data } => Image {
                source: Source {
                    data,
                    media_type: mime_type,
                    kind: "base64",
                },
                kind: "image",
            }
            .serialize(serializer),
        }
    }
}
