//! Issue 26, §3: answers Converse and Gemini would refuse. Converse refuses blank text blocks,
//! so an answer whose text is empty or only whitespace reads a placeholder; Gemini 3 reads a
//! `$ref` key inside `functionResponse.response` as a reference to a media part, so an output
//! holding one (a JSON Schema, as `tool_schema` answers) travels as JSON text. Each is noted in
//! the returned answers.

use std::sync::Arc;

use serde_json::{json, Value};
use toolwire_core::provider::provider_fn;
use toolwire_core::runtime::{CallOutcome, Route, ToolAnswer};
use toolwire_core::tools::{ContentBlock, ToolContent, ToolOutput};
use toolwire_core::wire::answers::{write_answers, NoteKind};
use toolwire_core::wire::calls::{CallFormat, ToolCall};
use toolwire_core::{ToolDefinition, ToolRuntime};

use super::call;

fn ran(call: &ToolCall, output: ToolOutput) -> ToolAnswer {
    let outcome = CallOutcome {
        tool: call.name.clone(),
        provider: "app".into(),
        route: Route::Exact,
        output,
    };
    ToolAnswer::new(call, Ok(outcome))
}

/// Every object key in `value`, at any depth.
fn keys(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, member) in map {
                out.push(key.clone());
                keys(member, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|item| keys(item, out)),
        _ => {}
    }
}

#[test]
fn a_converse_answer_whose_text_is_blank_reads_a_placeholder_with_a_note() {
    let calls: Vec<ToolCall> = (0..4)
        .map(|i| call(Some(&format!("tooluse_{i}")), "f", json!({})))
        .collect();
    let answers = [
        ran(&calls[0], json!("").into()),
        ran(
            &calls[1],
            ToolContent::new(vec![ContentBlock::text(" \n\t")]).into(),
        ),
        ran(
            &calls[2],
            ToolContent::new(vec![
                ContentBlock::text("  "),
                ContentBlock::text("Paris: 18 °C"),
            ])
            .into(),
        ),
        ran(&calls[3], json!("fine").into()),
    ];
    let wire = write_answers(CallFormat::Converse, &answers);
    let blocks = wire.messages[0]["content"].as_array().unwrap();
    let content = |i: usize| blocks[i]["toolResult"]["content"].clone();
    let placeholder = json!([{"text": "(the tool returned empty text)"}]);
    assert_eq!(content(0), placeholder);
    assert_eq!(content(1), placeholder);
    assert_eq!(content(2), json!([{"text": "Paris: 18 °C"}]));
    assert_eq!(content(3), json!([{"text": "fine"}]));
    let noted: Vec<(usize, &NoteKind)> = wire.notes.iter().map(|n| (n.call, &n.kind)).collect();
    assert_eq!(
        noted,
        [
            (0, &NoteKind::EmptyText),
            (1, &NoteKind::EmptyText),
            (2, &NoteKind::EmptyText)
        ]
    );
    // Another format keeps the text as the tool gave it.
    assert!(write_answers(CallFormat::Anthropic, &answers[..1])
        .notes
        .is_empty());
}

#[tokio::test]
async fn tool_schemas_answer_for_a_schema_with_defs_reaches_gemini_without_a_ref_key() {
    let parameters = json!({
        "type": "object",
        "properties": {"where": {"$ref": "#/$defs/Place"}},
        "required": ["where"],
        "$defs": {"Place": {"type": "object", "properties": {"city": {"type": "string"}}}},
    });
    let provider = provider_fn(
        "maps",
        vec![ToolDefinition::new(
            "maps/route",
            "A route to a place.",
            parameters,
        )],
        |_tool, _arguments| async move { Ok(json!({})) },
    );
    let runtime = ToolRuntime::new();
    runtime
        .add_provider(Arc::new(provider))
        .await
        .unwrap()
        .check()
        .unwrap();
    let asked = call(None, "tool_schema", json!({"name": "maps/route"}));
    let answers = runtime.request().answer_calls(&[asked]).await;
    let output = answers[0].output().expect("tool_schema answers").to_value();
    let mut in_output = Vec::new();
    keys(&output, &mut in_output);
    assert!(
        in_output.iter().any(|key| key == "$ref"),
        "the schema keeps its $ref: {output}"
    );

    let wire = write_answers(CallFormat::Gemini, &answers);
    let response = &wire.messages[0]["parts"][0]["functionResponse"]["response"];
    let mut in_response = Vec::new();
    keys(response, &mut in_response);
    assert!(
        !in_response.iter().any(|key| key == "$ref"),
        "a $ref key reached functionResponse.response: {response}"
    );
    let text = response["output"]
        .as_str()
        .expect("the output as JSON text");
    assert_eq!(serde_json::from_str::<Value>(text).unwrap(), output);
    assert_eq!(wire.notes.len(), 1);
    assert_eq!(
        (wire.notes[0].call, &wire.notes[0].kind),
        (0, &NoteKind::RefAsText)
    );
    // An output without `$ref` still travels as an object.
    let plain = ran(&call(None, "f", json!({})), json!({"ok": true}).into());
    let wire = write_answers(CallFormat::Gemini, &[plain]);
    assert_eq!(
        wire.messages[0]["parts"][0]["functionResponse"]["response"],
        json!({"output": {"ok": true}})
    );
    assert!(wire.notes.is_empty());
}
