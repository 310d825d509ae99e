//! The Responses API's stream machine finds an item by its id (issue 26, §2 and §8): every
//! event about an item names it, `item_id` on `response.function_call_arguments.delta` and
//! `.done`, the item's `id` on `response.output_item.added` and `.done` (openai-python 3.57,
//! `types/responses/response_function_call_arguments_delta_event.py`, `_done_event.py`,
//! `response_output_item_added_event.py`, `response_output_item_done_event.py`), while
//! `output_index` is only where it sits. Two items at one index, an item whose index moves,
//! and an event for an id never added are each read right or refused naming the item, never
//! read into another item.
//!
//! Each stream is the shape `fixtures/provider-wire/openai-responses/stream-parallel.sse`
//! records (the same members, `sequence_number` and `status` included), sent as the server
//! sends it: server-sent events, read by a recording stream.

use serde_json::{json, Value};
use toolwire_core::wire::calls::{parse_calls, CallFormat, SseCallStream, StreamError, ToolCall};

/// What a stream of `events` gave: its calls, the body its turn built, and its end.
struct Run {
    calls: Vec<ToolCall>,
    body: Value,
    end: Result<(), StreamError>,
}

fn run(events: &[Value]) -> Run {
    let mut text = String::new();
    for (number, event) in events.iter().enumerate() {
        let mut event = event.clone();
        event["sequence_number"] = json!(number);
        let kind = event["type"].as_str().unwrap().to_owned();
        text.push_str(&format!("event: {kind}\ndata: {event}\n\n"));
    }
    let mut stream = SseCallStream::new(CallFormat::OpenAiResponses).recording_turn();
    let (mut calls, pushed) = match stream.push(text.as_bytes()) {
        Ok(calls) => (calls, Ok(())),
        Err(error) => (Vec::new(), Err(error)),
    };
    // The end yields calls only in Chat Completions; here it only says whether the stream
    // was whole, after the turn is read as the events left it.
    let body = stream.turn().unwrap().body();
    let end = stream.finish().map(|ended| calls.extend(ended));
    Run {
        calls,
        body,
        end: pushed.and(end),
    }
}

fn added(output_index: u64, id: &str, call_id: &str, name: &str) -> Value {
    json!({"type": "response.output_item.added", "output_index": output_index, "item":
        {"id": id, "type": "function_call", "status": "in_progress", "arguments": "",
         "call_id": call_id, "name": name}})
}

fn delta(output_index: u64, item_id: &str, delta: &str) -> Value {
    json!({"type": "response.function_call_arguments.delta", "item_id": item_id,
        "output_index": output_index, "delta": delta})
}

fn done(output_index: u64, id: &str, call_id: &str, name: &str, arguments: &str) -> Value {
    json!({"type": "response.output_item.done", "output_index": output_index, "item":
        {"id": id, "type": "function_call", "status": "completed", "arguments": arguments,
         "call_id": call_id, "name": name}})
}

/// `response.completed` whose response holds `output` (servers differ in what it holds).
fn completed(output: Value) -> Value {
    json!({"type": "response.completed", "response": {"id": "resp_1", "object": "response",
        "status": "completed", "output": output}})
}

/// Each call as (call id, name, arguments, pointer).
fn seen(calls: &[ToolCall]) -> Vec<(String, String, Value, String)> {
    calls
        .iter()
        .map(|call| {
            (
                call.id.clone().unwrap_or_default(),
                call.name.clone(),
                call.arguments
                    .clone()
                    .map_or(json!("an error"), Value::Object),
                call.pointer.clone(),
            )
        })
        .collect()
}

/// A clean run's calls are the calls of the body it built, each once. In the order of the
/// body: a stream yields each call as it ends, and parallel calls may end out of their order.
fn agrees(run: &Run) {
    assert_eq!(run.end, Ok(()), "{}", run.body);
    let parsed = parse_calls(CallFormat::OpenAiResponses, &run.body).unwrap();
    let mut streamed = seen(&run.calls);
    // By the number of the pointer (`/output/10` after `/output/9`), on both sides.
    let place = |call: &(String, String, Value, String)| {
        call.3
            .rsplit('/')
            .next()
            .and_then(|n| n.parse::<u64>().ok())
    };
    streamed.sort_by_key(place);
    let mut parsed = seen(&parsed);
    parsed.sort_by_key(place);
    assert_eq!(parsed, streamed, "{}", run.body);
}

#[test]
fn two_calls_at_one_output_index_are_two_items() {
    // Both added at 0, their fragments interleaved: each fragment goes to the item it names.
    let run = run(&[
        added(0, "fc_a", "call_a", "get_weather"),
        added(0, "fc_b", "call_b", "get_time"),
        delta(0, "fc_a", "{\"city\":"),
        delta(0, "fc_b", "{}"),
        delta(0, "fc_a", "\"Paris\"}"),
        json!({"type": "response.output_item.done", "output_index": 0, "item":
            {"id": "fc_b", "type": "function_call", "status": "completed",
             "call_id": "call_b", "name": "get_time"}}),
        json!({"type": "response.output_item.done", "output_index": 0, "item":
            {"id": "fc_a", "type": "function_call", "status": "completed",
             "call_id": "call_a", "name": "get_weather"}}),
        completed(json!([])),
    ]);
    agrees(&run);
    assert_eq!(
        seen(&run.calls),
        [
            (
                "call_b".into(),
                "get_time".into(),
                json!({}),
                "/output/1".into()
            ),
            (
                "call_a".into(),
                "get_weather".into(),
                json!({"city": "Paris"}),
                "/output/0".into()
            ),
        ]
    );
    assert_eq!(run.body["output"][0]["arguments"], "{\"city\":\"Paris\"}");
    assert_eq!(run.body["output"][1]["arguments"], "{}");
}

#[test]
fn two_calls_done_at_one_output_index_without_adds_are_two_items() {
    // The fuzz finding (`fuzz/README.md`, Findings 0): the second call done at the first's
    // index overwrote it, and both calls pointed at one item.
    let run = run(&[
        done(0, "fc_a", "call_a", "get_weather", "{\"city\":\"Paris\"}"),
        done(0, "fc_b", "call_b", "get_time", "{}"),
        completed(json!([])),
    ]);
    agrees(&run);
    assert_eq!(run.calls.len(), 2);
    assert_eq!(run.body["output"][0]["call_id"], "call_a");
    assert_eq!(run.body["output"][1]["call_id"], "call_b");
}

#[test]
fn an_item_whose_index_moves_is_one_item() {
    // A reasoning item added at 0 and done at 1, a call added at 1 and continued and done at
    // 2: each is one item, found by its id wherever its index says it is.
    let reasoning = |status: &str| {
        json!({"id": "rs_1", "type": "reasoning", "summary": [], "status": status,
            "encrypted_content": "gAAAAB"})
    };
    let run = run(&[
        json!({"type": "response.output_item.added", "output_index": 0,
            "item": reasoning("in_progress")}),
        added(1, "fc_a", "call_a", "get_weather"),
        json!({"type": "response.output_item.done", "output_index": 1,
            "item": reasoning("completed")}),
        delta(2, "fc_a", "{\"city\":\"Paris\"}"),
        json!({"type": "response.output_item.done", "output_index": 2, "item":
            {"id": "fc_a", "type": "function_call", "status": "completed",
             "call_id": "call_a", "name": "get_weather"}}),
        completed(json!([])),
    ]);
    agrees(&run);
    assert_eq!(
        run.body["output"].as_array().unwrap().len(),
        2,
        "{}",
        run.body
    );
    assert_eq!(run.body["output"][0], reasoning("completed"));
    assert_eq!(run.calls[0].pointer, "/output/1");
    assert_eq!(
        run.calls[0].arguments.as_ref().unwrap()["city"],
        json!("Paris")
    );
}

#[test]
fn a_fragment_for_an_unknown_id_where_two_calls_are_open_is_refused_naming_it() {
    // An unknown id falls back to the one call open at its index; with two open there the
    // event does not say which, and reading it into either would merge two calls.
    let run = run(&[
        added(0, "fc_a", "call_a", "get_weather"),
        added(0, "fc_b", "call_b", "get_time"),
        delta(0, "fc_a", "{\"city\":"),
        delta(0, "fc_x", "\"Rome\""),
    ]);
    assert!(run.calls.is_empty());
    let error = run.end.unwrap_err();
    assert!(
        matches!(&error, StreamError::UnmatchedItem { event: 3, pointer, id, .. }
            if pointer == "/item_id" && id == "fc_x"),
        "{error:?}"
    );
    assert!(error.to_string().contains("`fc_x`"), "{error}");
    assert_eq!(run.body["output"][0]["arguments"], "{\"city\":");
    assert_eq!(run.body["output"][1]["arguments"], "");
}

#[test]
fn a_fragment_for_an_unknown_id_where_no_call_is_open_is_refused_naming_it() {
    let run = run(&[
        added(0, "fc_a", "call_a", "get_weather"),
        delta(1, "fc_x", "{}"),
    ]);
    assert!(
        matches!(&run.end, Err(StreamError::UnmatchedItem { event: 1, id, .. }) if id == "fc_x"),
        "{:?}",
        run.end
    );
    assert_eq!(run.body["output"][0]["arguments"], "");
}

#[test]
fn a_fragment_for_a_call_done_already_is_refused_naming_it() {
    let run = run(&[
        added(0, "fc_a", "call_a", "get_weather"),
        done(0, "fc_a", "call_a", "get_weather", "{}"),
        delta(0, "fc_a", "{\"late\":1}"),
    ]);
    assert_eq!(run.calls.len(), 1);
    assert!(
        matches!(&run.end, Err(StreamError::UnmatchedItem { event: 2, id, .. }) if id == "fc_a"),
        "{:?}",
        run.end
    );
    assert_eq!(run.body["output"][0]["arguments"], "{}");
}

#[test]
fn a_call_done_again_as_another_call_is_refused_naming_it() {
    // One item id done twice with two call ids: the call already yielded is never changed.
    let run = run(&[
        done(0, "fc_a", "call_a", "get_weather", "{}"),
        done(0, "fc_a", "call_b", "get_time", "{}"),
    ]);
    assert_eq!(run.calls.len(), 1);
    assert!(
        matches!(&run.end, Err(StreamError::UnmatchedItem { event: 1, pointer, id, .. })
            if pointer == "/item/id" && id == "fc_a"),
        "{:?}",
        run.end
    );
    assert_eq!(run.body["output"][0]["call_id"], "call_a");
    assert_eq!(run.body["output"].as_array().unwrap().len(), 1);
}

#[test]
fn an_item_of_another_type_with_a_calls_id_is_refused_naming_it() {
    let run = run(&[
        added(0, "fc_a", "call_a", "get_weather"),
        json!({"type": "response.output_item.done", "output_index": 0, "item":
            {"id": "fc_a", "type": "message", "role": "assistant", "status": "completed",
             "content": []}}),
    ]);
    assert!(
        matches!(&run.end, Err(StreamError::UnmatchedItem { event: 1, id, .. }) if id == "fc_a"),
        "{:?}",
        run.end
    );
    assert_eq!(run.body["output"][0]["type"], "function_call");
}

#[test]
fn a_call_item_without_an_id_is_named_by_its_index() {
    // `ResponseFunctionToolCall.id` is `Optional[str] = None` (`response_function_tool_call.py`):
    // a call added without one is found at its index by the first event about it, and takes
    // that event's id. From then on the id names it, also beside a second call added later at
    // the same index: found by index, its later fragment would go to the newer call (or be
    // refused as ambiguous), and the two calls' arguments would mix.
    let run = run(&[
        json!({"type": "response.output_item.added", "output_index": 0, "item":
            {"type": "function_call", "arguments": "", "call_id": "call_a",
             "name": "get_weather"}}),
        delta(0, "fc_a", "{\"city\":"),
        added(0, "fc_b", "call_b", "get_time"),
        delta(0, "fc_b", "{\"tz\":\"UTC\"}"),
        delta(0, "fc_a", "\"Paris\"}"),
        done(0, "fc_b", "call_b", "get_time", "{\"tz\":\"UTC\"}"),
        json!({"type": "response.output_item.done", "output_index": 0, "item":
            {"type": "function_call", "id": "fc_a", "call_id": "call_a", "name": "get_weather"}}),
        completed(json!([])),
    ]);
    agrees(&run);
    let mut calls = seen(&run.calls);
    calls.sort_by(|a, b| a.3.cmp(&b.3));
    assert_eq!(
        calls,
        [
            (
                "call_a".into(),
                "get_weather".into(),
                json!({"city": "Paris"}),
                "/output/0".into()
            ),
            (
                "call_b".into(),
                "get_time".into(),
                json!({"tz": "UTC"}),
                "/output/1".into()
            )
        ]
    );
}

#[test]
fn a_call_only_the_final_response_holds_is_yielded() {
    // Before: it was added to the body built and never yielded, so the calls were not those of
    // the body.
    let call = json!({"id": "fc_b", "type": "function_call", "status": "completed",
        "arguments": "{}", "call_id": "call_b", "name": "get_time"});
    let run = run(&[
        done(0, "fc_a", "call_a", "get_weather", "{\"city\":\"Paris\"}"),
        json!({"type": "response.completed", "response": {"id": "resp_1", "object": "response",
            "status": "completed", "output": [
                {"id": "fc_a", "type": "function_call", "status": "completed",
                 "arguments": "{\"city\":\"Paris\"}", "call_id": "call_a", "name": "get_weather"},
                call]}}),
    ]);
    agrees(&run);
    assert_eq!(run.calls.len(), 2);
    assert_eq!(run.body["output"][1], call);
}

/// A finished call as the final response holds it.
fn final_call(id: &str, call_id: &str, arguments: &str) -> Value {
    json!({"id": id, "type": "function_call", "status": "completed", "arguments": arguments,
        "call_id": call_id, "name": "get_weather"})
}

#[test]
fn a_final_call_whose_id_and_call_id_changed_is_not_a_second_call() {
    // vLLM PR #47916: `response.completed` names the call `call_9` after the stream named it
    // `call_1`. Before: it was added again and yielded again, and the tool ran twice.
    let run = run(&[
        added(0, "fc_1", "call_1", "get_weather"),
        delta(0, "fc_1", "{\"city\":\"Paris\"}"),
        done(0, "fc_1", "call_1", "get_weather", "{\"city\":\"Paris\"}"),
        completed(json!([final_call(
            "fc_9",
            "call_9",
            "{\"city\":\"Paris\"}"
        )])),
    ]);
    agrees(&run);
    assert_eq!(run.calls.len(), 1, "{}", run.body);
    assert_eq!(run.body["output"].as_array().unwrap().len(), 1);
}

#[test]
fn a_final_call_with_a_new_item_id_is_not_a_second_call() {
    // onyx PR #13624, LiteLLM PR #36375, Copilot (opencodex #995): a new item id, the same
    // `call_id`. Before: `DuplicateId` after the call ran.
    let run = run(&[
        added(0, "fc_1", "call_1", "get_weather"),
        done(0, "fc_1", "call_1", "get_weather", "{}"),
        completed(json!([final_call("fc_new", "call_1", "{}")])),
    ]);
    agrees(&run);
    assert_eq!(run.calls.len(), 1);
}

#[test]
fn a_done_call_with_a_null_id_is_the_call_added() {
    // vLLM PR #44608: the done item says `id: null`; the final response names it `fc_…`.
    let run = run(&[
        added(0, "fc_1", "call_1", "get_weather"),
        delta(0, "fc_1", "{}"),
        json!({"type": "response.output_item.done", "output_index": 0, "item":
            {"id": null, "type": "function_call", "status": "completed", "arguments": "{}",
             "call_id": "call_1", "name": "get_weather"}}),
        completed(json!([final_call("fc_2", "call_1", "{}")])),
    ]);
    agrees(&run);
    assert_eq!(run.calls.len(), 1);
    assert_eq!(run.body["output"][0]["id"], "fc_1");
}

#[test]
fn ids_minted_anew_per_event_are_one_call() {
    // GitHub Copilot re-encrypts the item id on every event; `call_id` is the one stable
    // field (opencodex #995/#989, LiteLLM #30071 / PR #30072). Before: `UnmatchedItem` at the
    // first fragment.
    let run = run(&[
        added(0, "enc_1", "call_1", "get_weather"),
        delta(0, "enc_2", "{\"city\":"),
        delta(0, "enc_3", "\"Paris\"}"),
        json!({"type": "response.output_item.done", "output_index": 0, "item":
            {"id": "enc_4", "type": "function_call", "status": "completed",
             "call_id": "call_1", "name": "get_weather"}}),
        completed(json!([final_call(
            "enc_5",
            "call_1",
            "{\"city\":\"Paris\"}"
        )])),
    ]);
    agrees(&run);
    assert_eq!(
        seen(&run.calls),
        [(
            "call_1".into(),
            "get_weather".into(),
            json!({"city": "Paris"}),
            "/output/0".into()
        )]
    );
}

#[test]
fn a_reasoning_item_whose_id_changes_is_one_item() {
    // The same for items other than calls: added as R1, done as R2, completed as R3.
    let reasoning = |id: &str| json!({"id": id, "type": "reasoning", "summary": []});
    let run = run(&[
        json!({"type": "response.output_item.added", "output_index": 0, "item": reasoning("rs_1")}),
        json!({"type": "response.output_item.done", "output_index": 0, "item": reasoning("rs_2")}),
        done(1, "fc_1", "call_1", "get_weather", "{}"),
        completed(json!([
            reasoning("rs_3"),
            final_call("fc_1", "call_1", "{}")
        ])),
    ]);
    agrees(&run);
    assert_eq!(
        run.body["output"].as_array().unwrap().len(),
        2,
        "{}",
        run.body
    );
    assert_eq!(run.calls[0].pointer, "/output/1");
}

#[test]
fn an_empty_id_names_no_item() {
    // Two calls both sent with `id: ""`: before, the second was read as the first added again.
    let run = run(&[
        added(0, "", "call_a", "get_weather"),
        added(1, "", "call_b", "get_time"),
        delta(0, "", "{}"),
        done(0, "", "call_a", "get_weather", "{}"),
        done(1, "", "call_b", "get_time", "{}"),
        completed(json!([])),
    ]);
    agrees(&run);
    assert_eq!(run.calls.len(), 2, "{}", run.body);
}

#[test]
fn a_call_the_final_response_ends_without_a_done_is_settled() {
    // opencode #37159, hermes-agent PR #92767: added and fragments, then `response.completed`
    // with no `output_item.done` (opencode PR #46084 matches it by `call_id`).
    let run = run(&[
        added(0, "fc_1", "call_1", "get_weather"),
        delta(0, "fc_1", "{\"city\":\"Paris\"}"),
        completed(json!([final_call(
            "fc_other",
            "call_1",
            "{\"city\":\"Paris\"}"
        )])),
    ]);
    agrees(&run);
    assert_eq!(run.calls.len(), 1);
    assert_eq!(
        run.body["output"].as_array().unwrap().len(),
        1,
        "{}",
        run.body
    );
}
