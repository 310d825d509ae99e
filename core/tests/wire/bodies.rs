//! Every recorded response body gives the index's calls, in order, and each call's pointer
//! names its own block in that body.

use toolwire_core::wire::calls::CallFormat;

use crate::fixtures::{assert_calls, body_calls, bytes, entries};

#[test]
fn every_response_gives_the_indexed_calls() {
    for entry in entries("response") {
        let calls = body_calls(&entry.file, entry.format());
        assert_calls(&entry.file, &calls, entry.expected_calls());
    }
}

#[test]
fn every_call_points_at_its_own_block() {
    for entry in entries("response") {
        let body: serde_json::Value = serde_json::from_slice(&bytes(&entry.file)).unwrap();
        for call in body_calls(&entry.file, entry.format()) {
            let block = body
                .pointer(&call.pointer)
                .unwrap_or_else(|| panic!("{}: {} points at nothing", entry.file, call.pointer));
            let (id, name) = match entry.format() {
                CallFormat::OpenAiChat => (&block["id"], &block["function"]["name"]),
                CallFormat::OpenAiResponses => (&block["call_id"], &block["name"]),
                CallFormat::Anthropic => (&block["id"], &block["name"]),
                CallFormat::Converse => (&block["toolUse"]["toolUseId"], &block["toolUse"]["name"]),
                CallFormat::Gemini => {
                    (&block["functionCall"]["id"], &block["functionCall"]["name"])
                }
                other => panic!("{other}"),
            };
            assert_eq!(id.as_str(), call.id.as_deref(), "{}", entry.file);
            assert_eq!(name.as_str(), Some(call.name.as_str()), "{}", entry.file);
        }
    }
}

#[test]
fn provider_executed_blocks_are_not_calls() {
    // The mixed bodies hold thinking, reasoning and server tools beside two client calls.
    for file in [
        "openai-responses/response-mixed.json",
        "anthropic/response-mixed.json",
        "converse/response-mixed.json",
        "gemini/response-mixed.json",
    ] {
        let entry = entries("response")
            .into_iter()
            .find(|e| e.file == file)
            .unwrap();
        assert!(
            !entry.info["provider_executed"]
                .as_array()
                .unwrap()
                .is_empty(),
            "{file}"
        );
        let names: Vec<String> = body_calls(file, entry.format())
            .into_iter()
            .map(|c| c.name)
            .collect();
        assert_eq!(names, ["get_weather", "get_time"], "{file}");
    }
}
