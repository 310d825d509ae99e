//! The Responses API's stream machine (`wire::calls::machine`): it reads each event once,
//! builds the `output` the events make, and yields each `function_call` as it ends, as a
//! pointer into that output (hop 4, streamed).
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//! Sources, read 2026-12 (openai-python 3.57 `types/responses/`; the streaming guide):
//! - `response.output_item.added` carries the new item (`response_output_item_added_event.py`):
//!   a `function_call` with `call_id`, `name`, `namespace` and `arguments: ""`;
//! - `response.function_call_arguments.delta` carries `item_id`, `output_index` and a `delta`
//!   fragment; `.done` the whole `arguments` (`response_function_call_arguments_delta_event.py`,
//!   `_done_event.py`; no `name` or `call_id` there);
//! - the end signal is `response.output_item.done` with the finished item
//!   (`response_output_item_done_event.py`), whose own `arguments` are whole;
//! - `error` events carry `message` (`response_error_event.py`), `response.failed` a response
//!   whose `error.message` says why (`response_failed_event.py`);
//! - `response.output_item.done` carries each finished item whole (a reasoning item with its
//!   `encrypted_content`, a message with its text), at its `output_index`;
//!   `response.completed` (and `.incomplete`, `.failed`) the whole response
//!   (`response_stream_event.py`).
//!
//! Our own rules: items are kept in the order they first came, each as it came (an item type
//! we do not know stays whole), so a pointer yielded never moves: a call's pointer is its
//! item's position in the output built, and `output_index` only names the item in later
//! events. An item the final response holds that no item event gave is added after the
//! others (for servers that send items only there). A done call item that leaves out its
//! `call_id`, `name`, `namespace` or `arguments` takes them from the events before it, in
//! the call and in the output alike.

use serde_json::{Map, Value};

use super::responses_calls::function_call;
use crate::wire::calls::machine::StreamMachine;
use crate::wire::calls::machine::MAX_BLOCKS;
use crate::wire::calls::shape;
use crate::wire::calls::turn::Turn;
use crate::wire::calls::{ArgumentsText, Fault, UnfinishedCall};

/// One output item as the events built it.
#[derive(Debug)]
struct Item {
    /// The stream's `output_index` for it.
    output_index: u64,
    /// The item as it was added, or as it was done.
    value: Value,
    /// A `function_call` added and not yet done: its call.
    call: Option<OpenCall>,
}

/// A `function_call` item added and not yet done.
#[derive(Debug)]
struct OpenCall {
    item_id: Option<String>,
    call_id: Option<String>,
    name: Option<String>,
    namespace: Option<String>,
    arguments: ArgumentsText,
}

/// The output a Responses API stream builds, and its open calls.
#[derive(Debug, Default)]
pub(crate) struct ResponsesMachine {
    items: Vec<Item>,
}

impl ResponsesMachine {
    /// The position of the item at `output_index`.
    fn at_index(&self, output_index: u64) -> Option<usize> {
        self.items
            .iter()
            .rposition(|item| item.output_index == output_index)
    }

    /// The item an event names, by `item_id` (or its item's `id`) among the open calls, else by
    /// `output_index`.
    fn find(&self, event: &Map<String, Value>) -> Result<Option<usize>, Fault> {
        let item_id = match shape::opt_str(event, "item_id", "")? {
            Some(id) => Some(id),
            None => shape::opt_object(event, "item", "")?
                .map(|item| shape::opt_str(item, "id", "/item"))
                .transpose()?
                .flatten(),
        };
        if let Some(id) = item_id {
            let open = self.items.iter().rposition(|item| {
                item.call
                    .as_ref()
                    .is_some_and(|call| call.item_id.as_deref() == Some(id))
            });
            if open.is_some() {
                return Ok(open);
            }
        }
        Ok(shape::opt_index(event, "output_index", "")?.and_then(|index| self.at_index(index)))
    }

    /// A new item at the end of the output, within the bound.
    fn push_item(&mut self, item: Item) -> Result<usize, Fault> {
        if self.items.len() >= MAX_BLOCKS {
            return Err(Fault::shape(
                "/output_index",
                "an item within the first 4096 of the output (our caution)",
            ));
        }
        self.items.push(item);
        Ok(self.items.len() - 1)
    }

    fn added(&mut self, event: &Map<String, Value>, limit: usize) -> Result<(), Fault> {
        let item = item(event)?;
        let output_index = shape::index(event, "output_index", "")?;
        let call = if shape::opt_str(item, "type", "/item")? == Some("function_call") {
            let mut arguments = ArgumentsText::default();
            if let Some(text) = shape::opt_str(item, "arguments", "/item")? {
                arguments.push(text, limit);
            }
            Some(OpenCall {
                item_id: shape::opt_str(item, "id", "/item")?.map(str::to_owned),
                call_id: shape::opt_id(item, "call_id", "/item")?,
                name: shape::opt_str(item, "name", "/item")?.map(str::to_owned),
                namespace: shape::opt_str(item, "namespace", "/item")?.map(str::to_owned),
                arguments,
            })
        } else {
            None
        };
        // An index already given keeps its item (our caution: no source shows a second add).
        if self.at_index(output_index).is_none() {
            self.push_item(Item {
                output_index,
                value: Value::Object(item.clone()),
                call,
            })?;
        }
        Ok(())
    }

    fn done(&mut self, event: &Map<String, Value>, turn: &mut Turn) -> Result<(), Fault> {
        let item = item(event)?;
        let output_index = shape::index(event, "output_index", "")?;
        let is_call = shape::opt_str(item, "type", "/item")? == Some("function_call");
        let found = if is_call {
            self.find(event)?
        } else {
            // A done item replaces the item at its index only when it is that item (its kind,
            // and its id where both have one): never a call, whose pointer was yielded. Our
            // caution: two items at one `output_index` is no documented shape.
            self.at_index(output_index)
                .filter(|&at| same_item(&self.items[at].value, item))
        };
        // A done event repeated for a call already done (proxies have been seen to repeat
        // `added`/`done` events: fawney19/Aether PR #836 de-duplicates them) is the same call,
        // not a second one with its id.
        if let Some(at) = found.filter(|_| is_call) {
            let slot = &self.items[at];
            let done_before = slot.call.is_none()
                && slot.value.get("type").and_then(Value::as_str) == Some("function_call");
            let same = |key: &str| {
                item.get(key)
                    .is_none_or(|value| slot.value.get(key) == Some(value))
            };
            if done_before && same("call_id") && same("id") {
                return Ok(());
            }
        }
        // Read the item whole before anything is recorded: a fault leaves the output as it was.
        let position = found.unwrap_or(self.items.len());
        let call = if is_call {
            Some(function_call(
                item,
                format!("/output/{position}"),
                turn.limit(),
            )?)
        } else {
            None
        };
        if found.is_none() {
            self.push_item(Item {
                output_index,
                value: Value::Object(item.clone()),
                call: None,
            })?;
        }
        let slot = &mut self.items[position];
        let open = slot.call.take();
        let mut value = item.clone();
        let Some(mut call) = call else {
            slot.value = Value::Object(value);
            return Ok(());
        };
        if let Some(open) = open {
            // What the done item leaves out, from the events before it: in the call, and in
            // the output it is read from.
            if call.id.is_none() {
                call.id = open.call_id;
                if let Some(id) = &call.id {
                    value.insert("call_id".into(), id.as_str().into());
                }
            }
            if call.name.is_empty() {
                call.name = open.name.unwrap_or_default();
                value.insert("name".into(), call.name.as_str().into());
            }
            if call.namespace.is_none() {
                call.namespace = open.namespace;
                if let Some(namespace) = &call.namespace {
                    value.insert("namespace".into(), namespace.as_str().into());
                }
            }
            if shape::member(item, "arguments").is_none() {
                call.arguments = open.arguments.finish(turn.limit());
                value.insert("arguments".into(), arguments_text(&open.arguments));
            }
        }
        slot.value = Value::Object(value);
        turn.add_with_id(call)
    }

    /// The final response's output: an item no item event gave is added after the others.
    fn whole(&mut self, event: &Map<String, Value>) -> Result<(), Fault> {
        let Some(output) = event
            .get("response")
            .and_then(|response| response.get("output"))
            .and_then(Value::as_array)
        else {
            return Ok(());
        };
        for (index, item) in output.iter().enumerate() {
            let index = index as u64;
            if item.is_object() && self.at_index(index).is_none() {
                self.push_item(Item {
                    output_index: index,
                    value: item.clone(),
                    call: None,
                })?;
            }
        }
        Ok(())
    }
}

/// The arguments text as the output item carries it (a marker that is not JSON once it passed
/// the limit and was dropped: the call says `TooLong`, the body's parse an error too).
fn arguments_text(arguments: &ArgumentsText) -> Value {
    Value::String(arguments.recorded().to_owned())
}

/// Whether the item recorded as `slot` is `item`: the same `type`, and the same `id` where
/// both carry one.
fn same_item(slot: &Value, item: &Map<String, Value>) -> bool {
    slot.get("type") == item.get("type")
        && match (slot.get("id"), item.get("id")) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        }
}

fn item(event: &Map<String, Value>) -> Result<&Map<String, Value>, Fault> {
    shape::opt_object(event, "item", "")?
        .ok_or_else(|| Fault::shape("/item", "an output item object"))
}

/// The message of a `response.failed` event's response.
fn failed_message(event: &Map<String, Value>) -> String {
    event
        .get("response")
        .and_then(|response| response.get("error"))
        .and_then(|error| error.get("message"))
        .and_then(Value::as_str)
        .unwrap_or("response.failed")
        .to_owned()
}

impl StreamMachine for ResponsesMachine {
    fn push(&mut self, event: &Value, turn: &mut Turn) -> Result<(), Fault> {
        let event = shape::object(event, "", "a response stream event object")?;
        let kind = shape::opt_str(event, "type", "")?
            .ok_or_else(|| Fault::shape("/type", "the event's type, a string"))?;
        match kind {
            "response.output_item.added" => self.added(event, turn.limit())?,
            "response.function_call_arguments.delta" => {
                if let Some(position) = self.find(event)? {
                    let delta = shape::opt_str(event, "delta", "")?.unwrap_or_default();
                    if let Some(call) = &mut self.items[position].call {
                        call.arguments.push(delta, turn.limit());
                    }
                }
            }
            "response.function_call_arguments.done" => {
                if let Some(position) = self.find(event)? {
                    let whole = shape::opt_str(event, "arguments", "")?;
                    if let (Some(call), Some(whole)) = (&mut self.items[position].call, whole) {
                        call.arguments.replace(whole, turn.limit());
                    }
                }
            }
            "response.output_item.done" => self.done(event, turn)?,
            "response.completed" | "response.incomplete" => self.whole(event)?,
            "response.failed" => {
                self.whole(event)?;
                return Err(Fault::Provider {
                    message: failed_message(event),
                });
            }
            "error" => {
                let message = shape::opt_str(event, "message", "")?;
                return Err(Fault::Provider {
                    message: message
                        .map_or_else(|| Value::Object(event.clone()).to_string(), str::to_owned),
                });
            }
            _ => {}
        }
        Ok(())
    }

    fn knows(event: &Value) -> bool {
        is_known_event(event)
    }

    fn open(&self) -> Vec<UnfinishedCall> {
        self.items
            .iter()
            .filter_map(|item| item.call.as_ref())
            .map(|call| UnfinishedCall::new(call.call_id.clone(), call.name.clone()))
            .collect()
    }

    fn body(&self) -> Value {
        let output = self
            .items
            .iter()
            .map(|item| {
                let mut value = item.value.clone();
                if let (Some(call), Some(map)) = (&item.call, value.as_object_mut()) {
                    map.insert("arguments".into(), arguments_text(&call.arguments));
                }
                value
            })
            .collect();
        serde_json::json!({"object": "response", "output": Value::Array(output)})
    }
}

/// Whether `event` is one of this format's: every member of the SDK's `ResponseStreamEvent`
/// union is typed `response.…` but `error` (`response_stream_event.py`).
pub(crate) fn is_known_event(event: &Value) -> bool {
    event
        .get("type")
        .and_then(Value::as_str)
        .is_some_and(|kind| kind.starts_with("response.") || kind == "error")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn an_item_done_at_a_calls_index_never_overwrites_the_call() {
        let mut machine = ResponsesMachine::default();
        let mut turn = Turn::new(1024);
        let call = json!({"type": "response.output_item.done", "output_index": 0, "item":
            {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f",
             "arguments": "{}"}});
        let message = json!({"type": "response.output_item.done", "output_index": 0, "item":
            {"type": "message", "id": "msg_0", "role": "assistant", "content": []}});
        machine.push(&call, &mut turn).unwrap();
        machine.push(&message, &mut turn).unwrap();
        let calls = turn.take();
        let body = machine.body();
        assert_eq!(
            body.pointer(&calls[0].pointer).unwrap()["call_id"],
            "call_1",
            "{body}"
        );
        assert_eq!(body["output"].as_array().unwrap().len(), 2, "{body}");
    }

    #[test]
    fn a_repeated_done_is_the_same_call_not_a_second() {
        let mut machine = ResponsesMachine::default();
        let mut turn = Turn::new(1024);
        let item = json!({"type": "function_call", "id": "fc_1", "call_id": "call_1",
            "name": "f", "arguments": "{}"});
        let added = json!({"type": "response.output_item.added", "output_index": 0,
            "item": {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f",
                "arguments": ""}});
        let done = json!({"type": "response.output_item.done", "output_index": 0, "item": item});
        machine.push(&added, &mut turn).unwrap();
        machine.push(&done, &mut turn).unwrap();
        machine.push(&done, &mut turn).unwrap();
        assert_eq!(turn.take().len(), 1);
        assert_eq!(machine.body()["output"].as_array().unwrap().len(), 1);
    }

    #[test]
    fn a_done_item_without_arguments_takes_the_fragments() {
        let mut stream = ResponsesMachine::default();
        let mut turn = Turn::new(1024);
        let events = [
            json!({"type": "response.output_item.added", "output_index": 1, "item":
                {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f", "arguments": ""}}),
            json!({"type": "response.function_call_arguments.delta", "item_id": "fc_1", "output_index": 1, "delta": "{\"a\":"}),
            json!({"type": "response.function_call_arguments.delta", "item_id": "fc_1", "output_index": 1, "delta": "1}"}),
            json!({"type": "response.output_item.done", "output_index": 1, "item": {"type": "function_call", "id": "fc_1"}}),
        ];
        for event in &events {
            stream.push(event, &mut turn).unwrap();
        }
        let calls = turn.take();
        assert_eq!(calls[0].name, "f");
        assert_eq!(calls[0].id.as_deref(), Some("call_1"));
        assert_eq!(calls[0].arguments.as_ref().unwrap()["a"], 1);
        // The one item is the output's first: the pointer is its place in what was built.
        assert_eq!(calls[0].pointer, "/output/0");
        let body = stream.body();
        assert_eq!(body["output"][0]["arguments"], "{\"a\":1}");
        assert_eq!(body["output"][0]["name"], "f");
        assert_eq!(body["output"][0]["call_id"], "call_1");
    }

    #[test]
    fn the_final_response_adds_only_what_no_item_event_gave() {
        let mut stream = ResponsesMachine::default();
        let mut turn = Turn::new(1024);
        let call = json!({"type": "function_call", "id": "fc_1", "call_id": "call_1",
            "name": "f", "arguments": "{}"});
        let events = [
            json!({"type": "response.output_item.done", "output_index": 1, "item": call}),
            json!({"type": "response.completed", "response": {"output": [
                {"type": "reasoning", "id": "rs_1", "summary": []},
                {"type": "function_call", "id": "fc_other"}]}}),
        ];
        for event in &events {
            stream.push(event, &mut turn).unwrap();
        }
        assert_eq!(turn.take()[0].pointer, "/output/0");
        // The call keeps its place; the item only the final response held comes after it.
        assert_eq!(
            stream.body()["output"],
            json!([call, {"type": "reasoning", "id": "rs_1", "summary": []}])
        );
    }

    #[test]
    fn a_done_item_of_the_wrong_shape_records_nothing() {
        let mut stream = ResponsesMachine::default();
        let bad = json!({"type": "response.output_item.done", "output_index": 0, "item":
            {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": 5}});
        assert!(stream.push(&bad, &mut Turn::new(64)).is_err());
        assert_eq!(stream.body()["output"], json!([]));
    }

    #[test]
    fn items_it_does_not_know_are_kept_as_they_came() {
        let mut stream = ResponsesMachine::default();
        let mut turn = Turn::new(1024);
        let odd = json!({"type": "mystery_call", "id": "mc_1", "payload": {"x": [1]}});
        let events = [
            json!({"type": "response.output_item.added", "output_index": 0, "item": odd}),
            json!({"type": "response.output_item.done", "output_index": 0, "item": odd}),
            json!({"type": "response.output_item.added", "output_index": 1, "item":
                {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f", "arguments": ""}}),
            json!({"type": "response.output_item.done", "output_index": 1, "item":
                {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f", "arguments": "{}"}}),
        ];
        for event in &events {
            stream.push(event, &mut turn).unwrap();
        }
        assert_eq!(turn.take()[0].pointer, "/output/1");
        assert_eq!(stream.body()["output"][0], odd);
    }

    #[test]
    fn an_error_event_is_the_providers_error() {
        let mut stream = ResponsesMachine::default();
        let fault = stream.push(
            &json!({"type": "error", "message": "overloaded"}),
            &mut Turn::new(8),
        );
        assert_eq!(
            fault,
            Err(Fault::Provider {
                message: "overloaded".into()
            })
        );
    }
}
