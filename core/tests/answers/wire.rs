//! Answers on the wire: the writer's messages equal the recorded answers of
//! `fixtures/provider-wire/` (each validated against its provider's SDK types by
//! `validate.py`), built from the calls its sibling response carries; and what a format cannot
//! carry, or carry whole, is said in words and returned in `notes`.

use std::path::PathBuf;

use serde_json::{json, Value};
use toolwire_core::runtime::{CallOutcome, DispatchError, Route, ToolAnswer};
use toolwire_core::tools::{
    ContentBlock, EmbeddedResource, ResourceContents, ResourceLink, ToolContent, ToolError,
    ToolOutput,
};
use toolwire_core::wire::answers::{write_answers, write_answers_with, AnswerLimits, NoteKind};
use toolwire_core::wire::calls::{parse_calls, CallFormat, ToolCall};

use super::call;

/// The 1x1 PNG the recorded answers carry (69 bytes decoded).
const PNG: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4//8/AAX+Av6n1qQsAAAAAElFTkSuQmCC";
const WEATHER_ERROR: &str = "get_weather failed: upstream weather service timed out after 10s";

fn fixture(file: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/provider-wire")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// The recorded answer, with its error in the runtime's words (`tool `x` failed: …`, what
/// `DispatchError::for_model` says) instead of the fixture's shorter wording.
fn recorded(file: &str) -> Value {
    let text = fixture(file).to_string();
    let ours = format!(
        "tool `get_weather` failed: {}",
        &WEATHER_ERROR["get_weather failed: ".len()..]
    );
    serde_json::from_str(&text.replace(WEATHER_ERROR, &ours)).unwrap()
}

fn calls_of(format: CallFormat, response: &str) -> Vec<ToolCall> {
    parse_calls(format, &fixture(response)).unwrap()
}

fn ran(call: &ToolCall, output: ToolOutput) -> ToolAnswer {
    let outcome = CallOutcome {
        tool: call.name.clone(),
        provider: "app".into(),
        route: Route::Exact,
        output,
    };
    ToolAnswer::new(call, Ok(outcome))
}

fn failed(call: &ToolCall) -> ToolAnswer {
    let message = WEATHER_ERROR["get_weather failed: ".len()..].to_owned();
    let err = ToolError::Failed {
        tool: "get_weather".into(),
        message,
    };
    ToolAnswer::new(call, Err(DispatchError::Tool(err)))
}

fn weather() -> ToolOutput {
    json!({"temperature": 18, "unit": "celsius"}).into()
}

fn texts(texts: &[&str]) -> ToolOutput {
    ToolContent::new(texts.iter().map(|t| ContentBlock::text(*t)).collect()).into()
}

fn radar(caption: &str) -> ToolOutput {
    ToolContent::new(vec![
        ContentBlock::text(caption),
        ContentBlock::image(PNG, "image/png"),
    ])
    .into()
}

fn format_of(dir: &str) -> CallFormat {
    match dir {
        "openai-chat" => CallFormat::OpenAiChat,
        "openai-responses" => CallFormat::OpenAiResponses,
        "anthropic" => CallFormat::Anthropic,
        "converse" => CallFormat::Converse,
        "gemini" => CallFormat::Gemini,
        other => panic!("{other}"),
    }
}

/// The answer files of the recorded fixtures, each with the outputs it stands for.
fn cases() -> Vec<(&'static str, &'static str, Vec<Outcome>)> {
    use Outcome::*;
    let created = "Created issue octo/toolwire#42";
    vec![
        ("openai-chat", "one-call", vec![Ran(weather())]),
        (
            "openai-chat",
            "parallel",
            vec![
                Ran(weather()),
                Failed,
                Ran(texts(&[
                    created,
                    "https://github.com/octo/toolwire/issues/42",
                ])),
            ],
        ),
        ("openai-responses", "one-call", vec![Ran(weather())]),
        (
            "openai-responses",
            "parallel",
            vec![Ran(weather()), Failed, Ran(texts(&[created]))],
        ),
        (
            "openai-responses",
            "image",
            vec![Ran(radar("Radar image for Paris:"))],
        ),
        (
            "openai-responses",
            "namespace-call",
            vec![Ran(json!(created).into())],
        ),
        ("anthropic", "one-call", vec![Ran(weather())]),
        (
            "anthropic",
            "parallel",
            vec![Ran(weather()), Failed, Ran(texts(&[created]))],
        ),
        (
            "anthropic",
            "image",
            vec![Ran(radar("Radar image for Paris:"))],
        ),
        ("converse", "one-call", vec![Ran(weather())]),
        (
            "converse",
            "parallel",
            vec![Ran(weather()), Failed, Ran(texts(&[created]))],
        ),
        (
            "converse",
            "image",
            vec![Ran(radar("Radar image for Paris:"))],
        ),
        ("gemini", "one-call", vec![Ran(weather())]),
        (
            "gemini",
            "parallel-ids",
            vec![Ran(weather()), Failed, Ran(texts(&[created]))],
        ),
        ("gemini", "parallel-no-ids", vec![Ran(weather()), Failed]),
        (
            "gemini",
            "image",
            vec![Ran(radar("Radar image for Paris attached."))],
        ),
    ]
}

enum Outcome {
    Ran(ToolOutput),
    Failed,
}

#[test]
fn each_formats_answers_are_the_recorded_sdk_validated_ones() {
    let index = fixture("index.json");
    let mut checked = 0;
    for (dir, name, outcomes) in cases() {
        let file = format!("{dir}/answer-{name}.json");
        let response = index["files"][&file]["answers"]
            .as_str()
            .unwrap_or_else(|| panic!("{file} answers a response"));
        let format = format_of(dir);
        let calls = calls_of(format, response);
        assert_eq!(calls.len(), outcomes.len(), "{file}");
        let answers: Vec<ToolAnswer> = calls
            .iter()
            .zip(outcomes)
            .map(|(call, outcome)| match outcome {
                Outcome::Ran(output) => ran(call, output),
                Outcome::Failed => failed(call),
            })
            .collect();
        let wire = write_answers(format, &answers);
        assert_eq!(Value::Array(wire.messages), recorded(&file), "{file}");
        assert!(wire.notes.is_empty(), "{file}");
        checked += 1;
    }
    // Every recorded answer is one of the cases: a new fixture needs its case here.
    let recorded_answers = index["files"]
        .as_object()
        .unwrap()
        .values()
        .filter(|info| info["kind"] == "answer")
        .count();
    assert_eq!(checked, recorded_answers);
}

/// Every block kind, to every format.
fn everything() -> ToolOutput {
    let mut link = ResourceLink::new("file:///radar/paris.png", "paris.png");
    link.mime_type = Some("image/png".into());
    link.size = Some(69);
    ToolContent::new(vec![
        ContentBlock::text("Radar image for Paris:"),
        ContentBlock::image(PNG, "image/png"),
        ContentBlock::audio("UklGRiQAAABXQVZF", "audio/wav"),
        ContentBlock::ResourceLink(link),
        ContentBlock::Resource(EmbeddedResource::new(ResourceContents::text(
            "file:///radar/legend.txt",
            "blue: rain",
        ))),
        ContentBlock::Resource(EmbeddedResource::new(ResourceContents::blob(
            "file:///radar/raw.bin",
            "AAECAw==",
            "application/octet-stream",
        ))),
    ])
    .with_structured(json!({"city": "Paris"}))
    .into()
}

#[test]
fn what_a_format_cannot_carry_is_said_in_words_never_as_base64() {
    let call = call(Some("call_1"), "radar", json!({}));
    for format in CallFormat::ALL {
        let wire = write_answers(format, &[ran(&call, everything())]);
        let text = serde_json::to_string(&wire.messages).unwrap();
        assert!(text.contains("Radar image for Paris:"), "{format}: {text}");
        assert!(
            text.contains("a link to the resource `file:///radar/paris.png`"),
            "{format}: {text}"
        );
        assert!(text.contains("blue: rain"), "{format}");
        // Audio is carried by no format's tool result: a note, with its type and size.
        assert!(
            text.contains("an audio (audio/wav, 12 bytes)"),
            "{format}: {text}"
        );
        assert!(
            !text.contains("UklGRiQAAABXQVZF"),
            "{format}: audio base64 as text"
        );
        assert!(
            text.contains("a resource (application/octet-stream, 4 bytes)"),
            "{format}: {text}"
        );
        assert!(!text.contains("AAECAw=="), "{format}");
        let not_carried: Vec<&str> = wire
            .notes
            .iter()
            .filter_map(|n| match &n.kind {
                NoteKind::NotCarried { block, .. } => Some(*block),
                _ => None,
            })
            .collect();
        if format == CallFormat::OpenAiChat {
            // A tool message is text only: the image is a note too, never its base64.
            assert!(!text.contains(PNG), "{text}");
            assert!(text.contains("an image (image/png, 69 bytes)"), "{text}");
            assert_eq!(not_carried, ["image", "audio", "resource"]);
        } else {
            assert!(text.contains(PNG), "{format}: the image travels");
            assert_eq!(not_carried, ["audio", "resource"], "{format}");
        }
    }
}

#[test]
fn an_answer_over_the_limit_is_cut_with_a_note_the_model_reads() {
    let call = call(Some("call_1"), "log", json!({}));
    let long = "é".repeat(40); // 80 bytes: the cut falls inside a character, and steps back
    let limits = AnswerLimits::default().with_text_bytes(15);
    let wire = write_answers_with(
        CallFormat::Anthropic,
        &[ran(&call, texts(&[&long, "tail"]))],
        &limits,
    );
    let content = &wire.messages[0]["content"][0]["content"];
    assert_eq!(
        content.as_array().unwrap().len(),
        1,
        "the text after the cut is left out"
    );
    let text = content[0]["text"].as_str().unwrap();
    assert_eq!(
        text,
        format!(
            "{}\n[output cut: 14 of its 80 bytes are above; the answer limit is 15 bytes]",
            "é".repeat(7)
        )
    );
    assert_eq!(wire.notes.len(), 1);
    assert_eq!(wire.notes[0].call, 0);
    assert_eq!(
        wire.notes[0].kind,
        NoteKind::Cut {
            bytes: 80,
            kept: 14,
            limit: 15
        }
    );

    // A JSON output over the limit becomes its cut text.
    let big = json!({"rows": vec![1; 100]});
    let wire = write_answers_with(CallFormat::Gemini, &[ran(&call, big.into())], &limits);
    let output = wire.messages[0]["parts"][0]["functionResponse"]["response"]["output"]
        .as_str()
        .unwrap();
    assert!(
        output.starts_with("{\"rows\":[1,1,1,\n[output cut: 15 of its 210 bytes"),
        "{output}"
    );

    // An image past the media limit is a note, not the image.
    let limits = AnswerLimits::default().with_media_bytes(10);
    let wire = write_answers_with(CallFormat::Converse, &[ran(&call, radar("r"))], &limits);
    let text = wire.messages[0].to_string();
    assert!(!text.contains(PNG));
    assert!(
        text.contains(
            "an image (image/png, 69 bytes), left out: the answer's images may take 10 bytes"
        ),
        "{text}"
    );
    assert!(matches!(
        wire.notes[0].kind,
        NoteKind::MediaOverLimit {
            bytes: 69,
            limit: 10,
            ..
        }
    ));
}

#[test]
fn errors_are_flagged_where_the_format_has_a_flag_and_content_is_never_empty() {
    let ids = [
        call(Some("c0"), "t", json!({})),
        call(Some("c1"), "t", json!({})),
    ];
    let empty: ToolOutput = ToolContent::new(Vec::new()).into();
    let is_error: ToolOutput = ToolContent::new(vec![ContentBlock::text("the radar is down")])
        .as_error()
        .into();
    let answers = [ran(&ids[0], empty), ran(&ids[1], is_error)];

    let converse = &write_answers(CallFormat::Converse, &answers).messages[0]["content"];
    assert_eq!(
        converse[0]["toolResult"]["content"],
        json!([{"text": "(the tool returned no output)"}])
    );
    assert_eq!(converse[0]["toolResult"]["status"], "success");
    assert_eq!(converse[1]["toolResult"]["status"], "error");

    let anthropic = &write_answers(CallFormat::Anthropic, &answers).messages[0]["content"];
    assert_eq!(anthropic[0].get("is_error"), None);
    assert_eq!(anthropic[1]["is_error"], true);

    let gemini = &write_answers(CallFormat::Gemini, &answers).messages[0]["parts"];
    assert_eq!(
        gemini[1]["functionResponse"]["response"],
        json!({"error": "the radar is down"})
    );

    let chat = write_answers(CallFormat::OpenAiChat, &answers).messages;
    assert_eq!(chat.len(), 2);
    assert_eq!(chat[1]["content"][0]["text"], "Error:");
    assert_eq!(chat[1]["content"][1]["text"], "the radar is down");

    // A structured result alone is what the model reads.
    let structured: ToolOutput = ToolContent::new(Vec::new())
        .with_structured(json!({"c": 18}))
        .into();
    let responses =
        write_answers(CallFormat::OpenAiResponses, &[ran(&ids[0], structured)]).messages;
    assert_eq!(
        responses[0]["output"],
        json!([{"type": "input_text", "text": "{\"c\":18}"}])
    );
}

#[test]
fn gemini_answers_name_the_call_as_called_and_carry_an_id_only_when_it_had_one() {
    let calls = [
        call(None, "get_weather", json!({})),
        call(None, "get_weather", json!({})),
        call(Some("id_3"), "mcp_github_create_issue", json!({})),
    ];
    let answers: Vec<ToolAnswer> = calls.iter().map(|c| ran(c, json!("ok").into())).collect();
    let parts = &write_answers(CallFormat::Gemini, &answers).messages[0]["parts"];
    let names: Vec<(&Value, Option<&Value>)> = parts
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                &p["functionResponse"]["name"],
                p["functionResponse"].get("id"),
            )
        })
        .collect();
    assert_eq!(
        names,
        [
            (&json!("get_weather"), None),
            (&json!("get_weather"), None),
            (&json!("mcp_github_create_issue"), Some(&json!("id_3"))),
        ]
    );
}
