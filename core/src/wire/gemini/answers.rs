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
//!
//! A `$ref` key inside `response` is read by Gemini 3 as a pointer to one of the response's
//! media `parts` (by `display_name`), and a request whose `$ref` names none fails whole with
//! 400: "The referenced name `#/$defs/X` in function_response.response does not match to a
//! display_name in the function_response.parts" (vercel/ai #14369, NousResearch/hermes-agent
//! #93014, router-for-me/CLIProxyAPI #6065). A JSON output holding a `$ref` key (a JSON
//! Schema: `tool_schema`'s own answer, an MCP tool describing an API) so travels as its JSON
//! text under `output`, with a [`NoteKind::RefAsText`] in the returned notes: the model reads
//! the same JSON, and no `$ref` is an object key.

use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::wire::answers::out::{JsonText, JsonValue, Out, Seq};
use crate::wire::answers::{AnswerNote, NoteKind, Part, Payload, Reply};

/// The image types a multimodal function response takes: "image/png, image/jpeg, image/webp"
/// (ai.google.dev/gemini-api/docs/function-calling, "Multimodal function responses", which
/// names Gemini 3 models; an older model may refuse the `parts`).
pub(crate) fn takes_image(mime_type: &str) -> bool {
    matches!(mime_type, "image/png" | "image/jpeg" | "image/webp")
}

pub(crate) fn write(replies: &[Reply<'_>], notes: &mut Vec<AnswerNote>, out: &mut impl Out) {
    let responses: Vec<FunctionResponse<'_>> = replies
        .iter()
        .enumerate()
        .map(|(call, reply)| function_response(reply, call, notes))
        .collect();
    out.message(&UserContent {
        parts: Seq(|| {
            responses.iter().map(|response| Wrapped {
                function_response: response,
            })
        }),
        role: "user",
    });
}

/// Whether `value` has a `$ref` object key at any depth.
fn holds_ref(value: &Value) -> bool {
    match value {
        Value::Object(map) => map.contains_key("$ref") || map.values().any(holds_ref),
        Value::Array(items) => items.iter().any(holds_ref),
        _ => false,
    }
}

/// `{"role": "user", "parts"}`, its keys in sorted order (`answers::out`).
#[derive(Serialize)]
struct UserContent<P> {
    parts: P,
    role: &'static str,
}

/// `{"functionResponse": …}`.
#[derive(Serialize)]
struct Wrapped<'a> {
    #[serde(rename = "functionResponse")]
    function_response: &'a FunctionResponse<'a>,
}

/// `{"name", "id", "response", "parts"}`, its keys in sorted order; `id` only when the call
/// had one, `parts` only when there are images.
struct FunctionResponse<'a> {
    reply: &'a Reply<'a>,
    /// The reply's index among the replies.
    index: usize,
    /// A JSON output that holds a `$ref` key: it travels as its JSON text.
    ref_as_text: bool,
}

fn function_response<'a>(
    reply: &'a Reply<'a>,
    call: usize,
    notes: &mut Vec<AnswerNote>,
) -> FunctionResponse<'a> {
    // A value written in place is refused there where it holds a `$ref` key (`Splice`), and
    // the answers written again: with this walk.
    let ref_as_text = reply.in_place.is_none()
        && matches!(reply.payload, Payload::Value(value) if holds_ref(value));
    if ref_as_text {
        notes.push(AnswerNote {
            call,
            kind: NoteKind::RefAsText,
        });
    }
    FunctionResponse {
        reply,
        index: call,
        ref_as_text,
    }
}

impl Serialize for FunctionResponse<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Fields<'a, P> {
            #[serde(skip_serializing_if = "Option::is_none")]
            id: Option<&'a str>,
            name: &'a str,
            #[serde(skip_serializing_if = "Option::is_none")]
            parts: Option<P>,
            response: Response<'a>,
        }
        let reply = self.reply;
        let images = match &reply.payload {
            Payload::Parts { parts, .. } => parts
                .iter()
                .any(|part| matches!(part, Part::Image { .. }))
                .then_some(parts),
            _ => None,
        };
        Fields {
            id: reply.id,
            name: reply.name,
            parts: images.map(|parts| {
                Seq(move || {
                    parts.iter().filter_map(|part| match part {
                        Part::Image { mime_type, data } => Some(InlineData {
                            inline_data: Blob { data, mime_type },
                        }),
                        Part::Text(_) => None,
                    })
                })
            }),
            response: Response {
                reply,
                index: self.index,
                ref_as_text: self.ref_as_text,
            },
        }
        .serialize(serializer)
    }
}

/// `{"inlineData": {"mimeType", "data"}}`.
#[derive(Serialize)]
struct InlineData<'a> {
    #[serde(rename = "inlineData")]
    inline_data: Blob<'a>,
}

#[derive(Serialize)]
struct Blob<'a> {
    data: &'a str,
    #[serde(rename = "mimeType")]
    mime_type: &'a str,
}

/// `{"output": …}` or `{"error": …}`.
struct Response<'a> {
    reply: &'a Reply<'a>,
    index: usize,
    ref_as_text: bool,
}

impl Serialize for Response<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Output<T> {
            output: T,
        }
        #[derive(Serialize)]
        struct Error<T> {
            error: T,
        }
        match &self.reply.payload {
            Payload::Error(text) => Error { error: text }.serialize(serializer),
            Payload::Value(value) if self.ref_as_text => Output {
                output: JsonText(value),
            }
            .serialize(serializer),
            Payload::Value(value) => Output {
                output: JsonValue {
                    refuse_ref: true,
                    ..JsonValue::of(self.reply, value, self.index)
                },
            }
            .serialize(serializer),
            Payload::JsonText(text) => Output { output: text }.serialize(serializer),
            Payload::Parts { parts, is_error } => {
                let texts: Vec<&str> = parts
                    .iter()
                    .filter_map(|part| match part {
                        Part::Text(text) => Some(text.as_ref()),
                        Part::Image { .. } => None,
                    })
                    .collect();
                let text = texts.join("\n");
                if *is_error {
                    Error { error: text }.serialize(serializer)
                } else {
                    Output { output: text }.serialize(serializer)
                }
            }
        }
    }
}
