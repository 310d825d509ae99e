//! Responses API answers: one `function_call_output` input item per call.
//!
//! Sources (openai-python 3.57): `types/responses/response_input_item_param.py`
//! `FunctionCallOutput` = `{type: "function_call_output", call_id, output: str |
//! ResponseFunctionCallOutputItemListParam}` (its optional `id`, `name`, `caller` are left
//! out: `call_id` alone pairs the output with its call, also for a call inside a `namespace`);
//! `response_function_call_output_item_param.py`: `input_text | input_image | input_file`;
//! `response_input_image_content_param.py`: `image_url` "a fully qualified URL or base64
//! encoded image in a data URL", `detail`. No error flag: an error is said in the text.
//! Recorded: `fixtures/provider-wire/openai-responses/answer-*.json`.

use serde::{Serialize, Serializer};

use super::chat_answers::ERROR_PREFIX;
use crate::wire::answers::out::{JsonText, Out, Seq, TypedText};
use crate::wire::answers::{Part, Payload, Reply};

/// The image types OpenAI's vision input takes: "PNG (.png), JPEG (.jpeg and .jpg), WEBP
/// (.webp), non-animated GIF (.gif)" (developers.openai.com/api/docs/guides/images-vision,
/// "Image input requirements"). An animated GIF cannot be told from its MIME type: sent as is.
pub(crate) fn takes_image(mime_type: &str) -> bool {
    matches!(
        mime_type,
        "image/png" | "image/jpeg" | "image/jpg" | "image/webp" | "image/gif"
    )
}

pub(crate) fn write(replies: &[Reply<'_>], out: &mut impl Out) {
    for reply in replies {
        out.message(&FunctionCallOutput {
            call_id: reply.id_or_empty(),
            output: Output(&reply.payload),
            kind: "function_call_output",
        });
    }
}

/// `{"type": "function_call_output", "call_id", "output"}`, its keys in sorted order
/// (`answers::out`).
#[derive(Serialize)]
struct FunctionCallOutput<'a> {
    call_id: &'a str,
    output: Output<'a>,
    #[serde(rename = "type")]
    kind: &'static str,
}

/// The text, or the output items.
struct Output<'a>(&'a Payload<'a>);

impl Serialize for Output<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Payload::Error(text) => serializer.collect_str(&format_args!("{ERROR_PREFIX}{text}")),
            Payload::Value(value) => JsonText(value).serialize(serializer),
            Payload::JsonText(text) => text.serialize(serializer),
            Payload::Parts { parts, is_error } => {
                let error = is_error.then_some(Item::Text(ERROR_PREFIX.trim_end()));
                Seq(|| error.iter().copied().chain(parts.iter().map(Item::of)))
                    .serialize(serializer)
            }
        }
    }
}

#[derive(Clone, Copy)]
enum Item<'a> {
    Text(&'a str),
    Image { mime_type: &'a str, data: &'a str },
}

impl<'a> Item<'a> {
    fn of(part: &'a Part<'a>) -> Item<'a> {
        match part {
            Part::Text(text) => Item::Text(text),
            Part::Image { mime_type, data } => Item::Image { mime_type, data },
        }
    }
}

impl Serialize for Item<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match *self {
            Item::Text(text) => TypedText {
                text,
                kind: "input_text",
            }
            .serialize(serializer),
            Item::Image { mime_type, data } => InputImage {
                detail: "auto",
                image_url: DataUrl { mime_type, data },
                kind: "input_image",
            }
            .serialize(serializer),
        }
    }
}

/// `{"type": "input_image", "image_url", "detail"}`, its keys in sorted order.
#[derive(Serialize)]
struct InputImage<'a> {
    detail: &'static str,
    image_url: DataUrl<'a>,
    #[serde(rename = "type")]
    kind: &'static str,
}

/// `data:{mime_type};base64,{data}`, written as it is serialized.
struct DataUrl<'a> {
    mime_type: &'a str,
    data: &'a str,
}

impl Serialize for DataUrl<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let DataUrl { mime_type, data } = self;
        serializer.collect_str(&format_args!("data:{mime_type};base64,{data}"))
    }
}
