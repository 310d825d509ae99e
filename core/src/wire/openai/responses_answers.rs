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

use serde_json::{json, Value};

use super::chat_answers::ERROR_PREFIX;
use crate::tools::json_text;
use crate::wire::answers::{Body, Part, Reply};

/// The image types OpenAI's vision input takes: "PNG (.png), JPEG (.jpeg and .jpg), WEBP
/// (.webp), non-animated GIF (.gif)" (developers.openai.com/api/docs/guides/images-vision,
/// "Image input requirements"). An animated GIF cannot be told from its MIME type: sent as is.
pub(crate) fn takes_image(mime_type: &str) -> bool {
    matches!(
        mime_type,
        "image/png" | "image/jpeg" | "image/jpg" | "image/webp" | "image/gif"
    )
}

pub(crate) fn items(replies: &[Reply<'_>]) -> Vec<Value> {
    replies
        .iter()
        .map(|reply| {
            let output = match &reply.body {
                Body::Error(text) => Value::String(format!("{ERROR_PREFIX}{text}")),
                Body::Value(value) => Value::String(json_text(value)),
                Body::Parts { parts, is_error } => {
                    let mut items: Vec<Value> = Vec::new();
                    if *is_error {
                        items.push(json!({"type": "input_text", "text": ERROR_PREFIX.trim_end()}));
                    }
                    for part in parts {
                        items.push(match part {
                            Part::Text(text) => json!({"type": "input_text", "text": text}),
                            Part::Image { mime_type, data } => json!({
                                "type": "input_image",
                                "image_url": format!("data:{mime_type};base64,{data}"),
                                "detail": "auto",
                            }),
                        });
                    }
                    Value::Array(items)
                }
            };
            json!({"type": "function_call_output", "call_id": reply.id_or_empty(), "output": output})
        })
        .collect()
}
