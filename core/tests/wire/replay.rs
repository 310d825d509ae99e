//! The replay (issue 18, point 7): every recorded response's assistant turn, as history carries
//! it, is the response's own, except a called name its provider refuses in history, which
//! carries its model-safe form and is named in the return value.

use std::borrow::Cow;

use serde_json::Value;
use toolwire_core::model_safe_name;
use toolwire_core::wire::calls::{BodyError, CallFormat, ToolCall};
use toolwire_core::wire::replay::{refused_in_history, replay_turn, Replay, ReplayError};

use crate::fixtures::{body_calls, bytes, entries, format_of};

/// Where the test expects each format's turn in a body (the fixtures have one choice or
/// candidate), written out here rather than asked of the library.
fn own_turn(format: CallFormat, body: &Value) -> Value {
    match format {
        CallFormat::OpenAiChat => body["choices"][0]["message"].clone(),
        CallFormat::OpenAiResponses => body["output"].clone(),
        CallFormat::Anthropic => {
            serde_json::json!({"role": "assistant", "content": body["content"]})
        }
        CallFormat::Converse => body["output"]["message"].clone(),
        CallFormat::Gemini => body["candidates"][0]["content"].clone(),
        other => panic!("a format this test does not know: {other}"),
    }
}

/// The history rule each provider is known to apply to a replayed called name, written out
/// independently of the library (sources in each `wire/<provider>/replay.rs`).
fn refused(format: CallFormat, name: &str) -> bool {
    let form_chars = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    match format {
        CallFormat::OpenAiChat | CallFormat::OpenAiResponses => !form_chars,
        CallFormat::Converse => !form_chars || name.is_empty() || name.chars().count() > 64,
        CallFormat::Anthropic => name.chars().count() > 200,
        _ => false,
    }
}

/// Where the test expects a borrowed turn in its body, written out here as [`own_turn`] is:
/// the value itself, not a copy of it.
fn own_place(format: CallFormat, body: &Value) -> Option<&Value> {
    match format {
        CallFormat::OpenAiChat => Some(&body["choices"][0]["message"]),
        CallFormat::OpenAiResponses => Some(&body["output"]),
        CallFormat::Converse => Some(&body["output"]["message"]),
        CallFormat::Gemini => Some(&body["candidates"][0]["content"]),
        // A message built around the body's `content`: never in the body as it is.
        _ => None,
    }
}

/// The replay copies nothing where nothing changed (issue 27 §2): a turn that is the body's own
/// borrows it, the very value at the turn's place; a turn with a renamed name or repaired
/// arguments is owned, and so is every Messages API turn (a message the body does not hold).
#[test]
fn a_turn_the_bodys_own_borrows_the_body_and_a_changed_one_is_owned() {
    let (mut borrowed, mut owned) = (0, 0);
    for entry in entries("response") {
        let format = entry.format();
        let body: Value = serde_json::from_slice(&bytes(&entry.file)).unwrap();
        let calls = body_calls(&entry.file, format);
        let replay = replay_turn(format, &body, &calls).unwrap();
        match (&replay.turn, own_place(format, &body)) {
            (Cow::Borrowed(turn), Some(place)) => {
                assert!(
                    replay.is_verbatim(),
                    "{}: changed, yet borrowed",
                    entry.file
                );
                assert!(
                    std::ptr::eq(*turn, place),
                    "{}: borrowed from elsewhere",
                    entry.file
                );
                borrowed += 1;
            }
            (Cow::Owned(turn), place) => {
                assert!(
                    !replay.is_verbatim() || place.is_none(),
                    "{}: the body's own turn, copied",
                    entry.file
                );
                if replay.is_verbatim() {
                    assert_eq!(*turn, own_turn(format, &body), "{}", entry.file);
                }
                owned += 1;
            }
            (Cow::Borrowed(_), None) => panic!("{}: a built turn borrowed", entry.file),
        }
    }
    // Both kinds were met: verbatim turns of four formats, changed ones and the Messages API's.
    assert!(
        borrowed >= 4 && owned >= 4,
        "{borrowed} borrowed, {owned} owned"
    );
}

fn replay_of(file: &str, format: CallFormat) -> (Value, Vec<ToolCall>, Replay<'static>) {
    let body: Value = serde_json::from_slice(&bytes(file)).unwrap();
    let calls = body_calls(file, format);
    let replay = replay_turn(format, &body, &calls)
        .unwrap_or_else(|e| panic!("{file}: {e}"))
        .into_owned();
    (body, calls, replay)
}

#[test]
fn every_response_replays_as_its_own_turn_but_for_the_names_its_provider_refuses() {
    let (mut renamed_somewhere, mut repaired_somewhere) = (0, 0);
    for entry in entries("response") {
        let format = entry.format();
        let (body, calls, replay) = replay_of(&entry.file, format);
        let expected: Vec<&ToolCall> = calls.iter().filter(|c| refused(format, &c.name)).collect();
        assert_eq!(replay.renamed.len(), expected.len(), "{}", entry.file);
        let mut restored = replay.turn.clone().into_owned();
        for (renamed, call) in replay.renamed.iter().zip(&expected) {
            assert_eq!(renamed.called, call.name, "{}", entry.file);
            assert_eq!(renamed.id, call.id, "{}", entry.file);
            assert_eq!(
                renamed.replayed,
                model_safe_name(&call.name),
                "{}",
                entry.file
            );
            assert!(refused_in_history(format, &renamed.called));
            assert!(!refused_in_history(format, &renamed.replayed));
            let slot = restored.pointer_mut(&renamed.pointer).unwrap();
            assert_eq!(
                slot.as_str(),
                Some(renamed.replayed.as_str()),
                "{}",
                entry.file
            );
            *slot = Value::String(renamed.called.clone());
            renamed_somewhere += 1;
        }
        // Each call whose arguments are an error is replayed with empty arguments (issue 26,
        // point 3), the repair listed; the calls with arguments keep their own.
        let bad: Vec<&ToolCall> = calls.iter().filter(|c| c.arguments.is_err()).collect();
        assert_eq!(replay.repaired.len(), bad.len(), "{}", entry.file);
        for (repaired, call) in replay.repaired.iter().zip(&bad) {
            assert_eq!((&repaired.id, &repaired.called), (&call.id, &call.name));
            assert_eq!(Err(&repaired.error), call.arguments.as_ref());
            let slot = restored.pointer_mut(&repaired.pointer).unwrap();
            assert!(
                *slot == serde_json::json!({}) || *slot == "{}",
                "{}: {slot}",
                entry.file
            );
            *slot = repaired.was.clone().unwrap();
            repaired_somewhere += 1;
        }
        // Put the called names and the arguments back, and the turn is the body's own, every
        // other byte equal: thinking and its signatures, reasoning items and their ids,
        // thoughtSignatures.
        assert_eq!(restored, own_turn(format, &body), "{}", entry.file);
        assert_eq!(replay.is_verbatim(), expected.is_empty() && bad.is_empty());
    }
    // `github:create_issue` in Chat Completions and twice in Responses, `$READFILE`, `$lookup`
    // and `browser.tabs.open` in Converse.
    assert_eq!(renamed_somewhere, 6);
    // The bad-arguments responses' calls: two each in Chat Completions and Responses (text
    // that is not JSON, JSON that is not an object), Converse's string `input`.
    assert_eq!(repaired_somewhere, 5);
}

#[test]
fn a_refused_name_is_replaced_where_its_provider_refuses_it_and_only_there() {
    let cases = [
        ("openai-chat", Some("github_create_issue")),
        ("openai-responses", Some("github_create_issue")),
        ("converse", Some("_READFILE")),
        // The Messages API has no character rule for a replayed name; Gemini pairs its
        // answers by the called name, so the replay keeps the name beside them.
        ("anthropic", None),
        ("gemini", None),
    ];
    for (folder, replayed) in cases {
        let file = format!("{folder}/response-name-refused.json");
        let (_, calls, replay) = replay_of(&file, format_of(folder));
        assert_eq!(calls.len(), 1, "{file}");
        assert_eq!(
            replay.renamed.first().map(|r| r.replayed.as_str()),
            replayed,
            "{file}"
        );
        if let Some(renamed) = replay.renamed.first() {
            // The id the answer pairs with is untouched.
            assert_eq!(renamed.id, calls[0].id);
            assert!(!renamed.to_string().is_empty());
        }
    }
}

#[test]
fn the_recorded_replays_are_what_the_replay_gives() {
    for entry in entries("replay") {
        let replays = entry.info["replays"].as_str().unwrap();
        let (_, _, replay) = replay_of(replays, entry.format());
        let recorded: Value = serde_json::from_slice(&bytes(&entry.file)).unwrap();
        assert_eq!(*replay.turn, recorded, "{}", entry.file);
    }
}

#[test]
fn provider_blocks_and_ids_come_back_untouched() {
    // Responses: the reasoning item with its encrypted content, the item ids (`fc_…`).
    let (body, _, replay) = replay_of(
        "openai-responses/response-mixed.json",
        CallFormat::OpenAiResponses,
    );
    assert_eq!(replay.turn[0]["type"], "reasoning");
    assert_eq!(replay.turn[0], body["output"][0]);
    assert!(replay.turn[3]["id"].as_str().unwrap().starts_with("fc_"));
    // Messages API: the thinking block and its signature.
    let (body, _, replay) = replay_of("anthropic/response-mixed.json", CallFormat::Anthropic);
    let thinking = body["content"]
        .as_array()
        .unwrap()
        .iter()
        .position(|b| b["type"] == "thinking")
        .unwrap();
    assert!(replay.turn["content"][thinking]["signature"].is_string());
    assert_eq!(replay.turn["content"][thinking], body["content"][thinking]);
    assert_eq!(replay.turn["role"], "assistant");
    // Gemini 3: the signature stays on the first functionCall part, and only there.
    let (body, _, replay) = replay_of("gemini/response-parallel-ids.json", CallFormat::Gemini);
    let parts = replay.turn["parts"].as_array().unwrap();
    let signed: Vec<usize> = (0..parts.len())
        .filter(|&i| parts[i].get("thoughtSignature").is_some())
        .collect();
    assert_eq!(signed, [0]);
    assert_eq!(*replay.turn, body["candidates"][0]["content"]);
    // Converse: the signed reasoning block.
    let (body, _, replay) = replay_of("converse/response-mixed.json", CallFormat::Converse);
    assert_eq!(*replay.turn, body["output"]["message"]);
    assert!(replay.turn.to_string().contains("\"signature\""));
}

#[test]
fn calls_of_another_body_or_a_body_without_a_turn_are_typed_errors() {
    let body: Value = serde_json::from_slice(&bytes("converse/response-parallel.json")).unwrap();
    let other = body_calls("converse/response-mixed.json", CallFormat::Converse);
    let err = replay_turn(CallFormat::Converse, &body, &other).unwrap_err();
    assert!(
        matches!(
            &err,
            ReplayError::CallNotInBody {
                format: CallFormat::Converse,
                ..
            }
        ),
        "{err}"
    );
    // Another format's calls: their pointers name no call here.
    let chat = body_calls("openai-chat/response-one-call.json", CallFormat::OpenAiChat);
    let err = replay_turn(CallFormat::Converse, &body, &chat).unwrap_err();
    assert!(matches!(err, ReplayError::CallNotInBody { .. }), "{err}");
    // Another format's body: no turn where the format puts it, named by its pointer.
    for format in CallFormat::ALL {
        let err = replay_turn(format, &serde_json::json!({"unrelated": true}), &[]).unwrap_err();
        let ReplayError::Body(BodyError::Shape { pointer, .. }) = &err else {
            panic!("{format}: {err}");
        };
        assert!(!pointer.is_empty(), "{format}");
        assert!(err.to_string().contains(format.key()), "{err}");
    }
}
