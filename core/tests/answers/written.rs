//! The writer's answers for one turn of every kind of outcome, per format, committed under
//! `fixtures/provider-wire/written/` and validated there by `validate.py` against each
//! provider's SDK types: the shapes the recorded answers do not show (notes, cuts, audio, a
//! resource, an `isError` result, empty content, a JSON value that is not an object) are
//! checked too. This test fails when the writer's output drifts from the committed files;
//! `TOOLWIRE_WRITE_ANSWERS=1` rewrites them (then run `validate.py` and read the diff).

use std::path::PathBuf;

use serde_json::{json, Value};
use toolwire_core::runtime::{CallOutcome, DispatchError, Route, ToolAnswer};
use toolwire_core::tools::{
    ContentBlock, EmbeddedResource, ResourceContents, ResourceLink, ToolContent, ToolOutput,
};
use toolwire_core::wire::answers::{write_answers_with, write_raw_answers, AnswerLimits};
use toolwire_core::wire::calls::{CallFormat, ToolCall};

use super::call;

const PNG: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4//8/AAX+Av6n1qQsAAAAAElFTkSuQmCC";

fn dir_of(format: CallFormat) -> &'static str {
    match format {
        CallFormat::OpenAiChat => "openai-chat",
        CallFormat::OpenAiResponses => "openai-responses",
        CallFormat::Anthropic => "anthropic",
        CallFormat::Converse => "converse",
        CallFormat::Gemini => "gemini",
        _ => unreachable!(),
    }
}

/// Ids as each format's calls carry them (Gemini: the second and third without one).
fn calls(format: CallFormat) -> Vec<ToolCall> {
    let id = |i: usize| -> Option<String> {
        match format {
            CallFormat::OpenAiChat | CallFormat::OpenAiResponses => {
                Some(format!("call_Wr1tTen{i}aBcDeFgHiJkLmNo"))
            }
            CallFormat::Anthropic => Some(format!("toolu_01Wr1tTen{i}aBcDeFgHiJkLm")),
            CallFormat::Converse => Some(format!("tooluse_Wr1tTen{i}aBcDeFgHiJkL")),
            _ if i == 1 || i == 2 => None,
            _ => Some(format!("wr1tten{i}")),
        }
    };
    let names = [
        "get_weather",
        "get_weather",
        "mcp_radar_now",
        "mcp_radar_failed",
        "empty",
        "log_tail",
        "nope",
    ];
    names
        .iter()
        .enumerate()
        .map(|(i, name)| call(id(i).as_deref(), name, json!({})))
        .collect()
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

fn answers(format: CallFormat) -> Vec<ToolAnswer> {
    let calls = calls(format);
    let mut link = ResourceLink::new("file:///radar/paris.png", "paris.png");
    link.mime_type = Some("image/png".into());
    link.size = Some(69);
    let radar: ToolOutput = ToolContent::new(vec![
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
    .into();
    let failed: ToolOutput = ToolContent::new(vec![
        ContentBlock::text("the radar is down"),
        ContentBlock::image(PNG, "image/png"),
    ])
    .as_error()
    .into();
    let unknown = DispatchError::UnknownTool {
        called: "nope".into(),
        closest: vec!["mcp_radar_now".into()],
    };
    vec![
        ran(
            &calls[0],
            json!({"temperature": 18, "unit": "celsius"}).into(),
        ),
        ran(&calls[1], json!("18 °C, light rain").into()),
        ran(&calls[2], radar),
        ran(&calls[3], failed),
        ran(&calls[4], ToolContent::new(Vec::new()).into()),
        ran(&calls[5], json!("0123456789".repeat(40)).into()),
        ToolAnswer::new(&calls[6], Err(unknown)),
    ]
}

#[test]
fn the_written_answers_are_the_committed_sdk_validated_ones() {
    let rewrite = std::env::var_os("TOOLWIRE_WRITE_ANSWERS").is_some();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures/provider-wire/written");
    // A small text limit, so the log's answer is cut with its note.
    let limits = AnswerLimits::default().with_text_bytes(256);
    for format in CallFormat::ALL {
        let wire = write_answers_with(format, &answers(format), &limits);
        assert!(!wire.notes.is_empty(), "{format}: a cut and notes");
        let written = Value::Array(wire.messages);
        let path = dir.join(format!("{}.json", dir_of(format)));
        if rewrite {
            std::fs::create_dir_all(&dir).unwrap();
            let text = serde_json::to_string_pretty(&written).unwrap() + "\n";
            std::fs::write(&path, text).unwrap();
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (TOOLWIRE_WRITE_ANSWERS=1 writes it)",
                path.display()
            )
        });
        let committed: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(written, committed, "{}", path.display());
    }
}

/// The raw answers (`write_raw_answers`, for an app that splices them into its own request
/// body) are the committed ones too, each message the very text `serde_json` writes of it.
#[test]
fn the_raw_answers_are_the_committed_ones_byte_for_byte() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures/provider-wire/written");
    let limits = AnswerLimits::default().with_text_bytes(256);
    for format in CallFormat::ALL {
        let answers = answers(format);
        let raw = write_raw_answers(format, &answers, &limits);
        let path = dir.join(format!("{}.json", dir_of(format)));
        let committed: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let committed = committed.as_array().unwrap();
        assert_eq!(raw.messages.len(), committed.len(), "{format}");
        for (message, expected) in raw.messages.iter().zip(committed) {
            assert_eq!(
                message.get(),
                serde_json::to_string(expected).unwrap(),
                "{format}"
            );
        }
        assert_eq!(
            raw.notes,
            write_answers_with(format, &answers, &limits).notes,
            "{format}"
        );
    }
}

/// Outputs whose text needs escaping (quotes, backslashes, control characters, non-ASCII),
/// nested, as numbers of every kind, as a JSON object and as a string, under a limit that cuts
/// one: the raw messages are `to_string` of the `Value` messages in every format.
#[test]
fn raw_answers_are_the_value_answers_as_text_for_outputs_that_need_escaping() {
    let tricky = json!({
        "quote": "a \"quoted\" word, a back\\slash, a tab\t, a newline\n, a bell \u{7}",
        "unicode": "Zürich – 東京 – 🌧",
        "numbers": [0, -1, 1.5, 1e300, u64::MAX, i64::MIN],
        "nested": {"empty": {}, "list": [[], [null, true, false]], "$ref": "#/x"},
    });
    for format in CallFormat::ALL {
        let calls: Vec<ToolCall> = (0..4)
            .map(|i| call(Some(&format!("id_{i}")), "f\"x", json!({})))
            .collect();
        let answers = vec![
            ran(&calls[0], tricky.clone().into()),
            ran(&calls[1], json!(tricky.to_string()).into()),
            ran(&calls[2], json!([tricky.clone(), 2]).into()),
            ran(&calls[3], json!("x".repeat(300)).into()),
        ];
        let limits = AnswerLimits::default().with_text_bytes(200);
        let raw = write_raw_answers(format, &answers, &limits);
        let values = write_answers_with(format, &answers, &limits);
        let texts: Vec<String> = raw.messages.iter().map(|m| m.get().to_owned()).collect();
        let expected: Vec<String> = values
            .messages
            .iter()
            .map(|m| serde_json::to_string(m).unwrap())
            .collect();
        assert_eq!(texts, expected, "{format}");
        assert_eq!(raw.notes, values.notes, "{format}");
        assert!(!raw.notes.is_empty(), "{format}: the long output is cut");
    }
}

/// A JSON output exactly at the text limit is carried whole, one byte over it is cut, whatever
/// the shortcut that measures it without rendering it (an output whose escaped bound passes the
/// limit while its text does not).
#[test]
fn a_json_output_at_the_limit_is_whole_and_one_byte_over_is_cut() {
    let output = json!({"t": "ab\"c".repeat(20), "n": [1.5, 2]});
    let len = serde_json::to_string(&output).unwrap().len();
    let c = call(Some("id_0"), "f", json!({}));
    for format in CallFormat::ALL {
        let answers = [ran(&c, output.clone().into())];
        let whole = write_answers_with(
            format,
            &answers,
            &AnswerLimits::default().with_text_bytes(len),
        );
        assert!(whole.notes.is_empty(), "{format}: {:?}", whole.notes);
        let cut = write_answers_with(
            format,
            &answers,
            &AnswerLimits::default().with_text_bytes(len - 1),
        );
        assert!(
            matches!(cut.notes[0].kind, toolwire_core::wire::answers::NoteKind::Cut { bytes, .. } if bytes == len),
            "{format}: {:?}",
            cut.notes
        );
        // The raw answers too, whose outputs are measured as they are written.
        for (limit, values) in [(len, whole), (len - 1, cut)] {
            let raw = write_raw_answers(
                format,
                &answers,
                &AnswerLimits::default().with_text_bytes(limit),
            );
            let texts: Vec<&str> = raw.messages.iter().map(|m| m.get()).collect();
            let expected: Vec<String> = values
                .messages
                .iter()
                .map(|m| serde_json::to_string(m).unwrap())
                .collect();
            assert_eq!(texts, expected, "{format}, limit {limit}");
            assert_eq!(raw.notes, values.notes, "{format}, limit {limit}");
        }
    }
}

/// Outputs of every kind of JSON (strings that need escaping, numbers of every kind, nesting,
/// `$ref` keys), text blocks and errors.
fn any_output() -> impl proptest::strategy::Strategy<Value = Result<ToolOutput, String>> {
    use proptest::prelude::*;
    let text = prop_oneof![
        any::<String>(),
        "[\"\\\\\u{0}-\u{1f}\u{7f}é/ a$ref]{0,12}",
        Just("$ref".to_owned()),
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        text.clone().prop_map(Value::String),
    ];
    let json = leaf.prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(text.clone(), inner, 0..6)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    });
    prop_oneof![
        6 => json.prop_map(|value| Ok(ToolOutput::Json(value))),
        1 => any::<String>().prop_map(|text| {
            Ok(ToolContent::new(vec![ContentBlock::text(text)]).into())
        }),
        1 => any::<String>().prop_map(Err),
    ]
}

proptest::proptest! {
    /// For any outputs, ids and text limit, in every format, each raw message is `to_string`
    /// of its `Value` message, byte for byte, with the same notes: whether an output is
    /// rendered straight into its message, or, over the limit, cut.
    #[test]
    fn raw_answers_are_the_value_answers_as_text_for_any_outputs(
        outputs in proptest::collection::vec(any_output(), 0..5),
        ids in proptest::collection::vec(proptest::option::of("[a-z_\"\\\\\u{1}é]{0,10}"), 5),
        limit in proptest::prop_oneof![0..40usize, 40..400usize, proptest::strategy::Just(100_000)],
        near in proptest::option::of(0..3usize),
    ) {
        // Or the limit at the first JSON output's length, one byte under it or one over.
        let first = outputs.iter().find_map(|output| match output {
            Ok(ToolOutput::Json(value)) => Some(serde_json::to_string(value).unwrap().len()),
            _ => None,
        });
        let limit = match (near, first) {
            (Some(near), Some(len)) => (len + near).saturating_sub(1),
            _ => limit,
        };
        let limits = AnswerLimits::default().with_text_bytes(limit);
        for format in CallFormat::ALL {
            let calls: Vec<ToolCall> = ids
                .iter()
                .map(|id| call(id.as_deref(), "f\"x", json!({})))
                .collect();
            let answers: Vec<ToolAnswer> = outputs
                .iter()
                .zip(&calls)
                .map(|(output, call)| match output {
                    Ok(output) => ran(call, output.clone()),
                    Err(called) => ToolAnswer::new(
                        call,
                        Err(DispatchError::UnknownTool {
                            called: called.clone(),
                            closest: Vec::new(),
                        }),
                    ),
                })
                .collect();
            let raw = write_raw_answers(format, &answers, &limits);
            let values = write_answers_with(format, &answers, &limits);
            let texts: Vec<&str> = raw.messages.iter().map(|m| m.get()).collect();
            let expected: Vec<String> = values
                .messages
                .iter()
                .map(|m| serde_json::to_string(m).unwrap())
                .collect();
            proptest::prop_assert_eq!(texts, expected, "{}", format);
            proptest::prop_assert_eq!(raw.notes, values.notes, "{}", format);
        }
    }
}
