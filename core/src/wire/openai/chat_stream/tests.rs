//! The Chat Completions machine's own tests: each quirk of the servers, read right.

use serde_json::json;

use super::*;
use crate::wire::calls::{parse_calls, CallFormat};
use crate::wire::replay::replay_turn;

fn chunk(tool_calls: Value, finish: Value) -> Value {
    json!({"choices": [{"index": 0, "delta": {"tool_calls": tool_calls}, "finish_reason": finish}]})
}

/// Feeds `chunks`, then `[DONE]`: the calls yielded, and the machine.
fn run(chunks: &[Value]) -> (Vec<ToolCall>, ChatMachine) {
    let mut machine = ChatMachine::default();
    let mut sink = CallSink::new(1024);
    let mut calls = Vec::new();
    for chunk in chunks {
        machine.push(chunk, &mut sink).unwrap();
        calls.extend(sink.take());
    }
    machine.done(&mut sink).unwrap();
    calls.extend(sink.take());
    (calls, machine)
}

/// The calls agree with the body the machine built, and replay.
fn agree(calls: &[ToolCall], machine: &ChatMachine) {
    let body = machine.body();
    assert_eq!(parse_calls(CallFormat::OpenAiChat, &body).unwrap(), calls);
    replay_turn(CallFormat::OpenAiChat, &body, calls).unwrap();
}

fn names(calls: &[ToolCall]) -> Vec<(Option<&str>, &str)> {
    calls
        .iter()
        .map(|c| (c.id.as_deref(), c.name.as_str()))
        .collect()
}

#[test]
fn members_sent_after_the_end_join_the_last_call_and_open_none() {
    let mut machine = ChatMachine::default();
    let mut sink = CallSink::new(1 << 20);
    let header = json!([{"index": 0, "id": "call_1", "type": "function",
        "function": {"name": "get_weather", "arguments": "{}"}}]);
    machine
        .push(&chunk(header, json!("tool_calls")), &mut sink)
        .unwrap();
    assert_eq!(sink.take().len(), 1);
    let late = json!([{"index": 0, "extra_content": {"google": {"thought_signature": "sig"}}}]);
    machine.push(&chunk(late, Value::Null), &mut sink).unwrap();
    machine.done(&mut sink).unwrap();
    assert!(sink.take().is_empty());
    let body = machine.body();
    let calls = body["choices"][0]["message"]["tool_calls"]
        .as_array()
        .unwrap();
    assert_eq!(calls.len(), 1, "{body}");
    assert_eq!(
        calls[0]["extra_content"]["google"]["thought_signature"],
        "sig"
    );
}

#[test]
fn a_late_member_joins_the_call_of_its_index() {
    let mut machine = ChatMachine::default();
    let mut sink = CallSink::new(1 << 20);
    let headers = json!([
        {"index": 0, "id": "call_1", "type": "function",
         "function": {"name": "get_weather", "arguments": "{}"}},
        {"index": 1, "id": "call_2", "type": "function",
         "function": {"name": "get_time", "arguments": "{}"}}]);
    machine
        .push(&chunk(headers, json!("tool_calls")), &mut sink)
        .unwrap();
    assert_eq!(sink.take().len(), 2);
    let late = json!([{"index": 0, "extra_content": {"google": {"thought_signature": "s0"}}}]);
    machine.push(&chunk(late, Value::Null), &mut sink).unwrap();
    machine.done(&mut sink).unwrap();
    let body = machine.body();
    let calls = &body["choices"][0]["message"]["tool_calls"];
    assert_eq!(
        calls[0]["extra_content"]["google"]["thought_signature"], "s0",
        "{body}"
    );
    assert!(calls[1].get("extra_content").is_none(), "{body}");
}

#[test]
fn an_id_names_its_call_when_the_fragments_come_at_another_index() {
    // SGLang sent a call's header at one index and its fragments at another, the id
    // repeated (sgl-project/sglang #6310).
    let mut machine = ChatMachine::default();
    let mut sink = CallSink::new(1 << 20);
    let header = json!([{"index": 1, "id": "call_a", "type": "function",
        "function": {"name": "g", "arguments": ""}}]);
    let fragment = json!([{"index": 0, "id": "call_a", "function": {"arguments": "{\"x\":1}"}}]);
    machine
        .push(&chunk(header, Value::Null), &mut sink)
        .unwrap();
    machine
        .push(&chunk(fragment, Value::Null), &mut sink)
        .unwrap();
    machine
        .push(&chunk(Value::Null, json!("tool_calls")), &mut sink)
        .unwrap();
    let calls = sink.take();
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert_eq!(calls[0].arguments.as_ref().unwrap()["x"], 1);
    // A header under that id at another index is another call: refused, not merged.
    let mut machine = ChatMachine::default();
    let mut sink = CallSink::new(1 << 20);
    let second = json!([{"index": 0, "id": "call_a", "type": "function",
        "function": {"name": "h", "arguments": "{}"}}]);
    let header = json!([{"index": 1, "id": "call_a", "type": "function",
        "function": {"name": "g", "arguments": "{}"}}]);
    machine
        .push(&chunk(header, Value::Null), &mut sink)
        .unwrap();
    machine
        .push(&chunk(second, Value::Null), &mut sink)
        .unwrap();
    assert!(machine
        .push(&chunk(Value::Null, json!("tool_calls")), &mut sink)
        .is_err());
}

#[test]
fn an_empty_finish_reason_ends_nothing() {
    let header = json!([{"index": 0, "id": "call_a", "function": {"name": "f", "arguments": ""}}]);
    let fragment = json!([{"index": 0, "function": {"arguments": "{\"a\":1}"}}]);
    let mut machine = ChatMachine::default();
    let mut sink = CallSink::new(1024);
    machine.push(&chunk(header, json!("")), &mut sink).unwrap();
    assert!(sink.take().is_empty(), "a call ended at its first chunk");
    machine
        .push(&chunk(fragment, json!("")), &mut sink)
        .unwrap();
    assert!(sink.take().is_empty());
    machine
        .push(&chunk(Value::Null, json!("tool_calls")), &mut sink)
        .unwrap();
    let calls = sink.take();
    assert_eq!(calls[0].arguments.as_ref().unwrap()["a"], 1);
    assert_eq!(machine.body()["choices"][0]["finish_reason"], "tool_calls");
}

#[test]
fn done_ends_every_open_call() {
    let header =
        json!([{"index": 0, "id": "call_a", "function": {"name": "f", "arguments": "{}"}}]);
    let (calls, machine) = run(&[chunk(header, json!(""))]);
    assert_eq!(names(&calls), [(Some("call_a"), "f")]);
    assert!(machine.open().is_empty());
}

#[test]
fn a_name_repeated_on_later_chunks_is_kept_once_in_calls_and_history() {
    let (calls, machine) = run(&[
        chunk(
            json!([{"index": 0, "id": "call_a", "function": {"name": "read_file", "arguments": ""}}]),
            Value::Null,
        ),
        chunk(
            json!([{"index": 0, "function": {"name": "read_file", "arguments": "{\"p\""}}]),
            Value::Null,
        ),
        chunk(
            json!([{"index": 0, "function": {"name": "read_file", "arguments": ":1}"}}]),
            Value::Null,
        ),
        chunk(
            json!([{"index": 0, "id": "call_a", "function": {"name": "read_file"}}]),
            json!("tool_calls"),
        ),
    ]);
    assert_eq!(names(&calls), [(Some("call_a"), "read_file")]);
    assert_eq!(
        machine.body()["choices"][0]["message"]["tool_calls"][0]["function"]["name"],
        "read_file"
    );
    agree(&calls, &machine);
}

#[test]
fn a_real_piece_equal_to_the_name_so_far_is_kept() {
    // Before any argument and without its id again, a name equal to the name so far is a
    // piece of the name: `get` + `get`.
    let (calls, machine) = run(&[
        chunk(
            json!([{"index": 0, "id": "call_a", "function": {"name": "get"}}]),
            Value::Null,
        ),
        chunk(
            json!([{"index": 0, "function": {"name": "get"}}]),
            Value::Null,
        ),
        chunk(
            json!([{"index": 0, "function": {"arguments": "{}"}}]),
            json!("tool_calls"),
        ),
    ]);
    assert_eq!(names(&calls), [(Some("call_a"), "getget")]);
    agree(&calls, &machine);
}

#[test]
fn an_id_minted_per_chunk_continues_one_call_in_calls_and_history() {
    let (calls, machine) = run(&[
        chunk(
            json!([{"index": 0, "id": "call_a", "function": {"name": "f", "arguments": "{\"a\""}}]),
            Value::Null,
        ),
        chunk(
            json!([{"index": 0, "id": "call_b", "function": {"name": "f", "arguments": ":1"}}]),
            Value::Null,
        ),
        chunk(
            json!([{"index": 0, "id": "call_c", "function": {"arguments": "}"}}]),
            json!("tool_calls"),
        ),
    ]);
    assert_eq!(names(&calls), [(Some("call_a"), "f")]);
    assert_eq!(calls[0].arguments.as_ref().unwrap()["a"], 1);
    let message = &machine.body()["choices"][0]["message"];
    assert_eq!(message["tool_calls"].as_array().unwrap().len(), 1);
    agree(&calls, &machine);
}

#[test]
fn a_server_reusing_index_0_for_each_call_gives_each_call() {
    let mut chunks = Vec::new();
    for (id, name) in [("call_a", "f"), ("call_b", "g"), ("call_c", "g")] {
        let header = json!([{"index": 0, "id": id, "function": {"name": name, "arguments": "{}"}}]);
        chunks.push(chunk(header, Value::Null));
    }
    chunks.push(chunk(Value::Null, json!("tool_calls")));
    let (calls, machine) = run(&chunks);
    assert_eq!(
        names(&calls),
        [
            (Some("call_a"), "f"),
            (Some("call_b"), "g"),
            (Some("call_c"), "g")
        ]
    );
    assert_eq!(calls[2].pointer, "/choices/0/message/tool_calls/2");
    agree(&calls, &machine);
}

#[test]
fn deltas_without_index_continue_the_last_call_or_begin_the_next() {
    let (calls, machine) = run(&[
        chunk(
            json!([{"id": "call_a", "function": {"name": "f", "arguments": "{\"a\""}}]),
            Value::Null,
        ),
        chunk(json!([{"function": {"arguments": ":1}"}}]), Value::Null),
        chunk(
            json!([{"id": "call_b", "function": {"name": "f", "arguments": "{}"}},
                     {"id": "call_c", "function": {"name": "g", "arguments": "{}"}}]),
            Value::Null,
        ),
    ]);
    assert_eq!(
        names(&calls),
        [
            (Some("call_a"), "f"),
            (Some("call_b"), "f"),
            (Some("call_c"), "g")
        ]
    );
    assert_eq!(calls[0].arguments.as_ref().unwrap()["a"], 1);
    agree(&calls, &machine);
}

#[test]
fn a_custom_call_is_kept_and_drops_no_call_after_it() {
    let (calls, machine) = run(&[
        chunk(
            json!([{"index": 0, "id": "call_x", "type": "custom", "custom": {"name": "sql", "input": "SEL"}}]),
            Value::Null,
        ),
        chunk(
            json!([{"index": 0, "custom": {"input": "ECT 1"}}]),
            Value::Null,
        ),
        chunk(
            json!([{"index": 1, "id": "call_f", "function": {"name": "f", "arguments": "{}"}}]),
            json!("tool_calls"),
        ),
    ]);
    assert_eq!(names(&calls), [(Some("call_f"), "f")]);
    assert_eq!(calls[0].pointer, "/choices/0/message/tool_calls/1");
    let custom = &machine.body()["choices"][0]["message"]["tool_calls"][0];
    assert_eq!(
        custom,
        &json!({"id": "call_x", "type": "custom", "custom": {"name": "sql", "input": "SELECT 1"}})
    );
    agree(&calls, &machine);
}

#[test]
fn members_it_does_not_read_are_kept_as_they_came() {
    // DeepSeek's `reasoning_content`; Gemini's `extra_content` with its thought signature
    // (THU-MAIC/OpenMAIC #1556), which Gemini 3 wants back on the call.
    let signature = json!({"google": {"thought_signature": "c2ln"}});
    let (calls, machine) = run(&[
        json!({"choices": [{"index": 0, "delta": {"role": "assistant", "reasoning_content": "Look "}}]}),
        json!({"choices": [{"index": 0, "delta": {"reasoning_content": "it up."}}]}),
        chunk(
            json!([{"id": "call_a", "type": "function", "extra_content": signature,
                      "function": {"name": "f", "arguments": "{}"}}]),
            json!("tool_calls"),
        ),
    ]);
    let message = &machine.body()["choices"][0]["message"];
    assert_eq!(message["reasoning_content"], "Look it up.");
    assert_eq!(message["tool_calls"][0]["extra_content"], signature);
    assert!(message["tool_calls"][0].get("index").is_none());
    agree(&calls, &machine);
    let body = machine.body();
    let replay = replay_turn(CallFormat::OpenAiChat, &body, &calls).unwrap();
    assert_eq!(replay.turn["tool_calls"][0]["extra_content"], signature);
}

#[test]
fn a_bad_chunk_changes_nothing() {
    let mut machine = ChatMachine::default();
    let mut sink = CallSink::new(1024);
    let good = json!({"index": 0, "id": "call_a", "function": {"name": "f"}});
    let bad = json!({"index": 0, "function": {"arguments": 7}});
    let before = machine.body();
    let fault = machine.push(&chunk(json!([good, bad]), Value::Null), &mut sink);
    assert_eq!(
        fault,
        Err(Fault::shape(
            "/choices/0/delta/tool_calls/1/function/arguments",
            "a string"
        ))
    );
    assert_eq!(machine.body(), before);
}

#[test]
fn too_many_calls_are_refused_before_they_are_held() {
    let mut machine = ChatMachine::default();
    let mut sink = CallSink::new(1024);
    let many: Vec<Value> = (0..=MAX_BLOCKS as u64)
        .map(|index| json!({"index": index, "id": format!("call_{index}"), "function": {"name": "f"}}))
        .collect();
    let fault = machine.push(&chunk(Value::Array(many), Value::Null), &mut sink);
    assert!(matches!(fault, Err(Fault::Unsupported { .. })), "{fault:?}");
    assert!(machine.calls.is_empty());
}

#[test]
fn a_chunk_without_choices_is_not_a_chunk_and_an_error_is_the_providers() {
    let mut machine = ChatMachine::default();
    let mut sink = CallSink::new(64);
    let message_start = json!({"type": "message_start", "message": {}});
    assert_eq!(
        machine.push(&message_start, &mut sink),
        Err(Fault::shape("/choices", "an array"))
    );
    let error = json!({"error": {"message": "Rate limit reached", "type": "requests"}});
    assert_eq!(
        machine.push(&error, &mut sink),
        Err(Fault::Provider {
            message: "Rate limit reached".into()
        })
    );
}

#[test]
fn other_choices_are_not_the_turn() {
    let event = json!({"choices": [{"index": 1, "delta": {"tool_calls": [
        {"index": 0, "id": "call_x", "function": {"name": "f", "arguments": ""}}]},
        "finish_reason": "tool_calls"}]});
    let (calls, machine) = run(&[event]);
    assert!(calls.is_empty());
    assert!(machine.open().is_empty());
}

#[test]
fn arguments_past_the_limit_are_too_long() {
    let mut machine = ChatMachine::default();
    let mut sink = CallSink::new(8);
    let header = json!([{"index": 0, "id": "call_a", "function": {"name": "f", "arguments": "{\"a\":\"long\"}"}}]);
    machine
        .push(&chunk(header, json!("tool_calls")), &mut sink)
        .unwrap();
    assert!(matches!(
        sink.take()[0].arguments,
        Err(crate::wire::calls::ArgumentsError::TooLong {
            bytes: 12,
            limit: 8
        })
    ));
}

#[test]
fn a_next_calls_header_at_a_reused_index_before_its_arguments_begins_it_when_they_come() {
    let deep = format!("{{\"a\":{}{}}}", "[".repeat(127), "]".repeat(127));
    for first in ["{\"a\":1}", deep.as_str()] {
        // OpenAI's shape: each call's header with `"arguments": ""`, then its fragments, both
        // calls at index 0.
        let (calls, machine) = run(&[
            chunk(
                json!([{"index": 0, "id": "call_1", "type": "function",
                        "function": {"name": "f", "arguments": ""}}]),
                Value::Null,
            ),
            chunk(
                json!([{"index": 0, "function": {"arguments": first}}]),
                Value::Null,
            ),
            chunk(
                json!([{"index": 0, "id": "call_2", "type": "function",
                        "function": {"name": "f", "arguments": ""}}]),
                Value::Null,
            ),
            chunk(
                json!([{"index": 0, "function": {"arguments": "{\"b\":2}"}}]),
                Value::Null,
            ),
            chunk(Value::Null, json!("tool_calls")),
        ]);
        assert_eq!(
            names(&calls),
            [(Some("call_1"), "f"), (Some("call_2"), "f")]
        );
        assert_eq!(calls[1].arguments.as_ref().unwrap()["b"], 2);
        agree(&calls, &machine);
    }
    // An id minted anew on a header after the arguments, and nothing after it: one call.
    let (calls, machine) = run(&[
        chunk(
            json!([{"index": 0, "id": "call_1", "function": {"name": "f", "arguments": "{}"}}]),
            Value::Null,
        ),
        chunk(
            json!([{"index": 0, "id": "call_9", "function": {"name": "f", "arguments": ""}}]),
            json!("tool_calls"),
        ),
    ]);
    assert_eq!(names(&calls), [(Some("call_1"), "f")]);
    assert!(calls[0].arguments.as_ref().unwrap().is_empty());
    agree(&calls, &machine);
    // Minted anew on every chunk, the arguments not yet ended: still one call.
    let (calls, machine) = run(&[
        chunk(
            json!([{"index": 0, "id": "call_1", "function": {"name": "f", "arguments": ""}}]),
            Value::Null,
        ),
        chunk(
            json!([{"index": 0, "id": "call_2", "function": {"name": "f", "arguments": "{\"a\""}}]),
            Value::Null,
        ),
        chunk(
            json!([{"index": 0, "id": "call_3", "function": {"arguments": ":1}"}}]),
            json!("tool_calls"),
        ),
    ]);
    assert_eq!(names(&calls), [(Some("call_1"), "f")]);
    assert_eq!(calls[0].arguments.as_ref().unwrap()["a"], 1);
    agree(&calls, &machine);
}

#[test]
fn a_held_header_begins_no_call_for_whitespace_after_a_placeholder_or_with_members_of_its_own() {
    let header = |id: &str, arguments: &str| {
        chunk(
            json!([{"index": 0, "id": id, "type": "function",
                    "function": {"name": "f", "arguments": arguments}}]),
            Value::Null,
        )
    };
    let fragment = |arguments: &str| {
        chunk(
            json!([{"index": 0, "function": {"arguments": arguments}}]),
            Value::Null,
        )
    };
    let end = chunk(Value::Null, json!("tool_calls"));
    // Whitespace after the arguments is theirs: one call, run with them.
    let (calls, machine) = run(&[
        header("call_1", "{\"a\":1}"),
        header("call_9", ""),
        fragment("\n"),
        end.clone(),
    ]);
    assert_eq!(names(&calls), [(Some("call_1"), "f")]);
    assert_eq!(calls[0].arguments.as_ref().unwrap()["a"], 1);
    agree(&calls, &machine);
    // After the placeholder `{}`, an id minted anew and the real arguments, or two calls:
    // not told apart, so one call whose arguments are not JSON, run by no one.
    let (calls, machine) = run(&[
        header("call_1", "{}"),
        header("call_9", ""),
        fragment("{\"stock\":\"MSFT\"}"),
        end.clone(),
    ]);
    assert_eq!(names(&calls), [(Some("call_1"), "f")]);
    assert!(calls[0].arguments.is_err());
    agree(&calls, &machine);
    // A header with a member of its own (Gemini's thought signature) is not held: the member
    // is never moved to another call than the one it came with.
    let (calls, machine) = run(&[
        header("call_1", "{\"a\":1}"),
        chunk(
            json!([{"index": 0, "id": "call_2", "type": "function",
                    "function": {"name": "f", "arguments": ""},
                    "extra_content": {"google": {"thought_signature": "sigB"}}}]),
            Value::Null,
        ),
        fragment("{\"b\":2}"),
        end,
    ]);
    assert_eq!(names(&calls), [(Some("call_1"), "f")]);
    assert!(calls[0].arguments.is_err());
    agree(&calls, &machine);
}
