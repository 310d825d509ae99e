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

use std::borrow::Cow;

use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::tools::json_text;
use crate::wire::answers::out::{JsonValue, Out, Seq};
use crate::wire::answers::{AnswerNote, NoteKind, Part, Payload, Reply, EMPTY_TEXT};

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

pub(crate) fn write(replies: &[Reply<'_>], notes: &mut Vec<AnswerNote>, out: &mut impl Out) {
    let results: Vec<ToolResult<'_>> = replies
        .iter()
        .enumerate()
        .map(|(call, reply)| tool_result(reply, call, notes))
        .collect();
    out.message(&UserMessage {
        content: Seq(|| {
            results.iter().map(|result| Wrapped {
                tool_result: result,
            })
        }),
        role: "user",
    });
}

/// `{"role": "user", "content"}`, its keys in sorted order (`answers::out`).
#[derive(Serialize)]
struct UserMessage<C> {
    content: C,
    role: &'static str,
}

/// `{"toolResult": …}`.
#[derive(Serialize)]
struct Wrapped<'a> {
    #[serde(rename = "toolResult")]
    tool_result: &'a ToolResult<'a>,
}

/// `{"toolUseId", "content", "status"}`, its keys in sorted order.
#[derive(Serialize)]
struct ToolResult<'a> {
    content: Blocks<'a>,
    status: &'static str,
    #[serde(rename = "toolUseId")]
    tool_use_id: &'a str,
}

/// A result's content: one block (a JSON output, an error, a text) without a `Vec` of its own,
/// or the blocks of content parts.
enum Blocks<'a> {
    One(Block<'a>),
    Many(Vec<Block<'a>>),
}

impl<'a> Blocks<'a> {
    fn as_slice(&self) -> &[Block<'a>] {
        match self {
            Blocks::One(block) => std::slice::from_ref(block),
            Blocks::Many(blocks) => blocks,
        }
    }

    fn into_vec(self) -> Vec<Block<'a>> {
        match self {
            Blocks::One(block) => vec![block],
            Blocks::Many(blocks) => blocks,
        }
    }
}

impl Serialize for Blocks<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.as_slice())
    }
}

/// One `ToolResultContentBlock`, borrowing what it carries.
enum Block<'a> {
    Text(Cow<'a, str>),
    /// A JSON object, as a `json` block (a Document).
    Json(JsonValue<'a>),
    Image {
        format: &'static str,
        data: &'a str,
    },
}

impl Block<'_> {
    /// Whether this is a text block whose text is empty or only whitespace.
    fn is_blank_text(&self) -> bool {
        matches!(self, Block::Text(text) if text.trim().is_empty())
    }
}

impl Serialize for Block<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Text<'a> {
            text: &'a str,
        }
        #[derive(Serialize)]
        struct Json<'a> {
            json: &'a JsonValue<'a>,
        }
        #[derive(Serialize)]
        struct Image<'a> {
            image: ImageBlock<'a>,
        }
        #[derive(Serialize)]
        struct ImageBlock<'a> {
            format: &'static str,
            source: Source<'a>,
        }
        #[derive(Serialize)]
        struct Source<'a> {
            bytes: &'a str,
        }
        match self {
            Block::Text(text) => Text { text }.serialize(serializer),
            Block::Json(json) => Json { json }.serialize(serializer),
            Block::Image { format, data } => Image {
                image: ImageBlock {
                    format,
                    source: Source { bytes: data },
                },
            }
            .serialize(serializer),
        }
    }
}

fn tool_result<'a>(
    reply: &'a Reply<'a>,
    call: usize,
    notes: &mut Vec<AnswerNote>,
) -> ToolResult<'a> {
    let mut content: Blocks<'a> = match &reply.payload {
        Payload::Error(text) => Blocks::One(Block::Text(Cow::Borrowed(text))),
        // A JSON object travels as a `json` block (a Document); any other value as its text.
        Payload::Value(value) if value.is_object() => {
            Blocks::One(Block::Json(JsonValue::of(reply, value, call)))
        }
        Payload::Value(Value::String(text)) => Blocks::One(Block::Text(Cow::Borrowed(text))),
        Payload::Value(value) => Blocks::One(Block::Text(Cow::Owned(json_text(value)))),
        Payload::JsonText(text) => Blocks::One(Block::Text(text.text())),
        Payload::Parts { parts, .. } => Blocks::Many(
            parts
                .iter()
                .map(|part| match part {
                    Part::Text(text) => Block::Text(Cow::Borrowed(text)),
                    Part::Image { mime_type, data } => Block::Image {
                        format: image_format(mime_type).unwrap_or("png"),
                        data,
                    },
                })
                .collect(),
        ),
    };
    if content.as_slice().iter().any(Block::is_blank_text) {
        let mut blocks = content.into_vec();
        blocks.retain(|block| !block.is_blank_text());
        if blocks.is_empty() {
            blocks.push(Block::Text(Cow::Borrowed(EMPTY_TEXT)));
        }
        content = Blocks::Many(blocks);
        notes.push(AnswerNote {
            call,
            kind: NoteKind::EmptyText,
        });
    }
    let status = if reply.payload.is_error() {
        "error"
    } else {
        "success"
    };
    ToolResult {
        content,
        status,
        tool_use_id: reply.id_or_empty(),
    }
}
