//! The Responses API: the assembler of a stream's tool calls (hop 4, streamed).
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
//!   whose `error.message` says why (`response_failed_event.py`).

use serde_json::Value;

use super::responses_calls::function_call;
use crate::wire::calls::shape;
use crate::wire::calls::turn::Turn;
use crate::wire::calls::{ArgumentsText, Fault, ToolCall, UnfinishedCall};

/// A `function_call` item added and not yet done.
#[derive(Debug)]
struct OpenItem {
    output_index: u64,
    item_id: Option<String>,
    call_id: Option<String>,
    name: Option<String>,
    namespace: Option<String>,
    arguments: ArgumentsText,
}

/// The function call items in progress.
#[derive(Debug, Default)]
pub(crate) struct ResponsesStream {
    open: Vec<OpenItem>,
}

impl ResponsesStream {
    /// Reads one event.
    pub(crate) fn push(&mut self, event: &Value, turn: &mut Turn) -> Result<(), Fault> {
        let event = shape::object(event, "", "a response stream event object")?;
        let kind = shape::opt_str(event, "type", "")?
            .ok_or_else(|| Fault::shape("/type", "the event's type, a string"))?;
        match kind {
            "response.output_item.added" => {
                let item = item(event)?;
                if shape::opt_str(item, "type", "/item")? == Some("function_call") {
                    let mut arguments = ArgumentsText::default();
                    if let Some(text) = shape::opt_str(item, "arguments", "/item")? {
                        arguments.push(text, turn.limit());
                    }
                    self.open.push(OpenItem {
                        output_index: shape::index(event, "output_index", "")?,
                        item_id: shape::opt_str(item, "id", "/item")?.map(str::to_owned),
                        call_id: shape::opt_id(item, "call_id", "/item")?,
                        name: shape::opt_str(item, "name", "/item")?.map(str::to_owned),
                        namespace: shape::opt_str(item, "namespace", "/item")?.map(str::to_owned),
                        arguments,
                    });
                }
            }
            "response.function_call_arguments.delta" => {
                if let Some(slot) = self.find(event)? {
                    let delta = shape::opt_str(event, "delta", "")?.unwrap_or_default();
                    self.open[slot].arguments.push(delta, turn.limit());
                }
            }
            "response.function_call_arguments.done" => {
                if let Some(slot) = self.find(event)? {
                    if let Some(whole) = shape::opt_str(event, "arguments", "")? {
                        self.open[slot].arguments.replace(whole, turn.limit());
                    }
                }
            }
            "response.output_item.done" => {
                let item = item(event)?;
                if shape::opt_str(item, "type", "/item")? == Some("function_call") {
                    let output_index = shape::index(event, "output_index", "")?;
                    let open = self.find(event)?.map(|slot| self.open.remove(slot));
                    turn.add_with_id(done_call(item, open, output_index, turn.limit())?)?;
                }
            }
            "error" => {
                let message = shape::opt_str(event, "message", "")?;
                return Err(Fault::Provider {
                    message: message
                        .map_or_else(|| Value::Object(event.clone()).to_string(), str::to_owned),
                });
            }
            "response.failed" => {
                let message = event
                    .get("response")
                    .and_then(|response| response.get("error"))
                    .and_then(|error| error.get("message"))
                    .and_then(Value::as_str)
                    .unwrap_or("response.failed");
                return Err(Fault::Provider {
                    message: message.to_owned(),
                });
            }
            _ => {}
        }
        Ok(())
    }

    /// The open item an event names, by `item_id`, else by `output_index`.
    fn find(&self, event: &serde_json::Map<String, Value>) -> Result<Option<usize>, Fault> {
        let item_id = match shape::opt_str(event, "item_id", "")? {
            Some(id) => Some(id),
            None => shape::opt_object(event, "item", "")?
                .map(|item| shape::opt_str(item, "id", "/item"))
                .transpose()?
                .flatten(),
        };
        if let Some(id) = item_id {
            if let Some(slot) = self
                .open
                .iter()
                .position(|open| open.item_id.as_deref() == Some(id))
            {
                return Ok(Some(slot));
            }
        }
        let output_index = shape::opt_index(event, "output_index", "")?;
        Ok(output_index
            .and_then(|index| self.open.iter().position(|open| open.output_index == index)))
    }

    /// The calls begun and not ended.
    pub(crate) fn open(&self) -> Vec<UnfinishedCall> {
        self.open
            .iter()
            .map(|open| UnfinishedCall::new(open.call_id.clone(), open.name.clone()))
            .collect()
    }
}

fn item(event: &serde_json::Map<String, Value>) -> Result<&serde_json::Map<String, Value>, Fault> {
    shape::opt_object(event, "item", "")?
        .ok_or_else(|| Fault::shape("/item", "an output item object"))
}

/// The call a done item ends: the item's own fields, whole; what the item leaves out, from the
/// events before it.
fn done_call(
    item: &serde_json::Map<String, Value>,
    open: Option<OpenItem>,
    output_index: u64,
    limit: usize,
) -> Result<ToolCall, Fault> {
    let pointer = format!("/output/{output_index}");
    let mut call = function_call(item, pointer, limit)?;
    if let Some(open) = open {
        if call.id.is_none() {
            call.id = open.call_id;
        }
        if call.name.is_empty() {
            call.name = open.name.unwrap_or_default();
        }
        if call.namespace.is_none() {
            call.namespace = open.namespace;
        }
        if shape::member(item, "arguments").is_none() {
            call.arguments = open.arguments.finish(limit);
        }
    }
    Ok(call)
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
    fn a_done_item_without_arguments_takes_the_fragments() {
        let mut stream = ResponsesStream::default();
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
        assert_eq!(calls[0].pointer, "/output/1");
    }

    #[test]
    fn an_error_event_is_the_providers_error() {
        let mut stream = ResponsesStream::default();
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

/// The format's stream machine (`wire::calls::machine`). For now it feeds each event to the
/// call assembler above and to the recorder in `super::responses_streamed_turn::ResponsesTurn`, one after the other.
#[derive(Debug, Default)]
pub(crate) struct ResponsesMachine {
    calls: ResponsesStream,
    turn: super::responses_streamed_turn::ResponsesTurn,
}

impl crate::wire::calls::machine::StreamMachine for ResponsesMachine {
    fn push(&mut self, event: &Value, calls: &mut Turn) -> Result<(), Fault> {
        self.turn.push(event);
        self.calls.push(event, calls)
    }

    fn knows(event: &Value) -> bool {
        is_known_event(event)
    }

    fn open(&self) -> Vec<UnfinishedCall> {
        self.calls.open()
    }

    fn body(&self) -> Value {
        self.turn.body()
    }
}
