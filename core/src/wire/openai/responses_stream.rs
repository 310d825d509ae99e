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
//! Items carry an id in every event (`item_id` on the arguments events, a required `str` in
//! `response_function_call_arguments_delta_event.py`, `_done_event.py`; the item's own `id`
//! on `response.output_item.added`/`.done`, `Optional[str]` on a function call,
//! `response_function_tool_call.py`), but real servers do not keep it:
//! - GitHub Copilot re-encrypts every item id per event; `call_id` is the one stable field
//!   (opencodex #995/#989, LiteLLM #30071 / PR #30072);
//! - vLLM PR #47916 changes `id` and `call_id` in `response.completed`; onyx PR #13624,
//!   LiteLLM PR #36375 and Copilot (opencodex #995) mint a new item id there; vLLM PR #44608
//!   sent `id: null` on the done item while `response.completed` carries `fc_…`;
//! - opencode #37159, hermes-agent PR #92767: added and deltas, then `response.completed` with
//!   no `output_item.done` (opencode PR #46084 matches it by `call_id`).
//!
//! So an event names its item by, in order: its id (`""` is no id, our caution), then (a
//! `function_call`'s) `call_id`, then kind+index: the one item of its type still open at its
//! `output_index`. Several open there is ambiguous and refused (`StreamError::UnmatchedItem`),
//! as is a fragment with no open call at its index, or an id of an item of another type: never
//! read into another item. An `added` with an id no event gave is a new item (two calls may
//! share an index). A final item is already given when its id or `call_id` is known, or an
//! item of its type was done at its index; a call still open it names is settled from it.
//! Cost: O(1) per event where ids are stable (hash lookups); an event whose id is unknown
//! scans the items still open (a few in practice), and each id an item was given is kept.
//!
//! Our own rules: items are kept in the order they first came, each as it came (an item type
//! we do not know stays whole), so a pointer yielded never moves: a call's pointer is its
//! item's position in the output built. An item the final response holds that no item event
//! gave is added after the others, and a call among them is yielded (for servers that send
//! items only there). A done call item that leaves out its `call_id`, `name`, `namespace` or
//! `arguments` takes them from the events before it, in the call and in the output alike.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::responses_calls::function_call;
use crate::wire::calls::machine::StreamMachine;
use crate::wire::calls::machine::MAX_BLOCKS;
use crate::wire::calls::shape;
use crate::wire::calls::sink::CallSink;
use crate::wire::calls::{ArgumentsText, Fault, UnfinishedCall};

/// One output item as the events built it.
#[derive(Debug)]
struct Item {
    /// The `output_index` the latest event about it gave: where the kind+index rule looks.
    output_index: u64,
    /// Its `id`, once an event gave one.
    id: Option<String>,
    /// The item as it was added, or as it was done.
    value: Value,
    /// A `function_call` added and not yet done: its call.
    call: Option<OpenCall>,
    /// Whether `response.output_item.done` (or the final response) gave it.
    done: bool,
}

impl Item {
    fn kind(&self) -> Option<&str> {
        self.value.get("type").and_then(Value::as_str)
    }
}

/// A `function_call` item added and not yet done.
#[derive(Debug)]
struct OpenCall {
    call_id: Option<String>,
    name: Option<String>,
    namespace: Option<String>,
    arguments: ArgumentsText,
}

/// The output a Responses API stream builds, and its open calls.
#[derive(Debug, Default)]
pub(crate) struct ResponsesMachine {
    items: Vec<Item>,
    /// The position of each item by every id an event gave it (a map: a turn of n items costs
    /// n, not n²). An item whose id changed is here under each of its ids.
    by_id: HashMap<String, usize>,
    /// The position of each `function_call` item by its `call_id`, the one field every server
    /// keeps stable (see the module doc).
    by_call_id: HashMap<String, usize>,
    /// The positions of the items added and not yet done: the kind+index rule scans only these.
    open: Vec<usize>,
    /// Each (`output_index`, type) at which an item was done: a final item there was given.
    done_at: HashSet<(u64, String)>,
}

/// Where an event names its item: its id (`""` read as none), its `call_id` (a
/// `function_call`'s), its type and its `output_index`.
#[derive(Clone, Copy)]
struct Names<'e> {
    id: Option<&'e str>,
    call_id: Option<&'e str>,
    kind: Option<&'e str>,
    output_index: Option<u64>,
}

/// What the kind+index rule found.
enum ByIndex {
    None,
    One(usize),
    /// Several open items fit: the event does not say which, so none is chosen.
    Several,
}

impl ResponsesMachine {
    /// The item `names` name by id, else by `call_id`: both are exact, so O(1).
    fn exact(&self, names: Names<'_>) -> Option<usize> {
        names
            .id
            .and_then(|id| self.by_id.get(id))
            .or_else(|| names.call_id.and_then(|id| self.by_call_id.get(id)))
            .copied()
    }

    /// The one open item at `names.output_index` that `fits` (a scan of the open items only:
    /// the cost of a server whose ids are not stable).
    fn by_index(&self, names: Names<'_>, fits: impl Fn(&Item) -> bool) -> ByIndex {
        let Some(output_index) = names.output_index else {
            return ByIndex::None;
        };
        let mut found = ByIndex::None;
        for &at in &self.open {
            let item = &self.items[at];
            if item.output_index == output_index && fits(item) {
                if let ByIndex::One(_) = found {
                    return ByIndex::Several;
                }
                found = ByIndex::One(at);
            }
        }
        found
    }

    /// Records what an event that found the item at `at` named it by: each id it gave (an
    /// item whose id changes stays found by its old ones and its new), its `call_id`, and its
    /// latest `output_index`.
    fn named(&mut self, at: usize, names: Names<'_>) {
        let item = &mut self.items[at];
        if let Some(id) = names.id {
            if item.id.is_none() {
                item.id = Some(id.to_owned());
            }
            self.by_id.entry(id.to_owned()).or_insert(at);
        }
        if let Some(call_id) = names.call_id {
            self.by_call_id.entry(call_id.to_owned()).or_insert(at);
        }
        if let Some(output_index) = names.output_index {
            item.output_index = output_index;
        }
    }

    /// A new item at the end of the output, within the bound.
    fn push_item(&mut self, item: Item, names: Names<'_>) -> Result<usize, Fault> {
        if self.items.len() >= MAX_BLOCKS {
            return Err(Fault::shape(
                "/output_index",
                "an item within the first 4096 of the output (our caution)",
            ));
        }
        let at = self.items.len();
        let done = item.done;
        self.items.push(item);
        self.named(at, names);
        if done {
            self.mark_done(at);
        } else {
            self.open.push(at);
        }
        Ok(at)
    }

    /// The item at `at` is done: it leaves the open items.
    fn mark_done(&mut self, at: usize) {
        let item = &mut self.items[at];
        item.done = true;
        if let Some(kind) = item.kind() {
            self.done_at.insert((item.output_index, kind.to_owned()));
        }
        if let Some(place) = self.open.iter().position(|&open| open == at) {
            self.open.swap_remove(place);
        }
    }

    fn added(&mut self, event: &Map<String, Value>, limit: usize) -> Result<(), Fault> {
        let item = item(event)?;
        let names = Names {
            output_index: Some(shape::index(event, "output_index", "")?),
            ..item_names(item)?
        };
        let call = if names.kind == Some("function_call") {
            let mut arguments = ArgumentsText::default();
            if let Some(text) = shape::opt_str(item, "arguments", "/item")? {
                arguments.push(text, limit);
            }
            Some(OpenCall {
                call_id: names.call_id.map(str::to_owned),
                name: shape::opt_str(item, "name", "/item")?.map(str::to_owned),
                namespace: shape::opt_str(item, "namespace", "/item")?.map(str::to_owned),
                arguments,
            })
        } else {
            None
        };
        // An item added again is the same item and keeps what it has: proxies have been seen
        // to repeat `added`/`done` events (fawney19/Aether PR #836 de-duplicates them). An
        // added item with an id no event gave is a new item (two calls may share an index);
        // without an id, the one item of its kind open at its index keeps it (our caution: no
        // source shows a second add at one index).
        let found = match self.exact(names) {
            Some(at) => Some(at),
            None if names.id.is_none() => {
                match self.by_index(names, |slot| slot.kind() == names.kind) {
                    ByIndex::One(at) => Some(at),
                    _ => None,
                }
            }
            None => None,
        };
        if let Some(at) = found {
            if self.items[at].kind() != names.kind {
                return Err(unmatched(
                    "/item/id",
                    names.id,
                    "an item of the type it came with",
                ));
            }
            self.named(at, names);
            return Ok(());
        }
        self.push_item(
            Item {
                output_index: names.output_index.unwrap_or_default(),
                id: None,
                value: Value::Object(item.clone()),
                call,
                done: false,
            },
            names,
        )?;
        Ok(())
    }

    /// The open call an arguments event names: by `item_id`, else (Copilot's ids change per
    /// event, see the module doc) the one call open at its `output_index`.
    fn open_call(&mut self, event: &Map<String, Value>) -> Result<usize, Fault> {
        let names = Names {
            id: non_empty(shape::opt_str(event, "item_id", "")?),
            call_id: None,
            kind: Some("function_call"),
            output_index: shape::opt_index(event, "output_index", "")?,
        };
        let found = match self.exact(names) {
            Some(at) if self.items[at].call.is_some() => Ok(at),
            Some(_) => Err("a function_call item added before and not yet done"),
            None => match self.by_index(names, |slot| slot.call.is_some()) {
                ByIndex::One(at) => Ok(at),
                ByIndex::Several => Err(
                    "an id of one of the function_call items open at its output_index (several are)",
                ),
                ByIndex::None => Err("a function_call item added before and not yet done"),
            },
        };
        match found {
            Ok(at) => {
                self.named(at, names);
                Ok(at)
            }
            Err(expected) if names.id.is_some() => Err(unmatched("/item_id", names.id, expected)),
            Err(expected) => Err(Fault::shape("/output_index", expected)),
        }
    }

    fn done(&mut self, event: &Map<String, Value>, sink: &mut CallSink) -> Result<(), Fault> {
        let item = item(event)?;
        let names = Names {
            output_index: Some(shape::index(event, "output_index", "")?),
            ..item_names(item)?
        };
        // By id, else by `call_id`, else the one item of its kind open at its index (an id
        // that changed, or none: see the module doc); several open there is ambiguous.
        let found = match self.exact(names) {
            Some(at) => Some(at),
            None => match self.by_index(names, |slot| slot.kind() == names.kind) {
                ByIndex::One(at) => Some(at),
                ByIndex::None => None,
                ByIndex::Several => return Err(unmatched(
                    "/item/id",
                    names.id,
                    "an id of one of the items of its type open at its output_index (several are)",
                )),
            },
        };
        self.settle(found, item, names, sink)
    }

    /// Records the finished `item` as the item at `found` (or a new one) and yields its call.
    fn settle(
        &mut self,
        found: Option<usize>,
        item: &Map<String, Value>,
        names: Names<'_>,
        sink: &mut CallSink,
    ) -> Result<(), Fault> {
        let is_call = names.kind == Some("function_call");
        if let Some(at) = found {
            let slot = &self.items[at];
            if slot.kind() != names.kind {
                return Err(unmatched(
                    "/item/id",
                    names.id,
                    "an item of the type it came with",
                ));
            }
            // A done event repeated for a call already done (fawney19/Aether PR #836, above)
            // is the same call, not a second one with its id; a call done again otherwise
            // would change a call already yielded.
            if is_call && slot.done {
                if repeats(slot, names) {
                    self.named(at, names);
                    return Ok(());
                }
                return Err(unmatched(
                    "/item/id",
                    names.id,
                    "one function_call done once (a repeated done has its `call_id`)",
                ));
            }
        }
        // Read the item whole before anything is recorded: a fault leaves the output as it was.
        let position = found.unwrap_or(self.items.len());
        let call = if is_call {
            Some(function_call(
                item,
                format!("/output/{position}"),
                sink.limit(),
            )?)
        } else {
            None
        };
        if found.is_none() {
            self.push_item(
                Item {
                    output_index: names.output_index.unwrap_or_default(),
                    id: None,
                    value: Value::Object(item.clone()),
                    call: None,
                    done: false,
                },
                names,
            )?;
        }
        self.named(position, names);
        self.mark_done(position);
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
                call.arguments = open.arguments.finish(sink.limit());
                value.insert("arguments".into(), arguments_text(&open.arguments));
            }
        }
        // The item keeps the id it was first given where the done one has none (vLLM PR
        // #44608's `id: null`), so the body's item is named as the stream named it.
        if shape::member(item, "id").is_none() {
            if let Some(id) = &slot.id {
                value.insert("id".into(), id.as_str().into());
            }
        }
        slot.value = Value::Object(value);
        if let Some(call_id) = &call.id {
            self.by_call_id.entry(call_id.clone()).or_insert(position);
        }
        sink.add_with_id(call)
    }

    /// The final response's output. A final item was already given when its id is known, or
    /// (a `function_call`) its `call_id` is, or an item of its type was done at its index; a
    /// call still open that it names by id or `call_id` is settled from it (servers that send
    /// no `output_item.done`); any other item is added after the others, and a call among them
    /// is yielded, so that the calls are those of the output built.
    fn whole(&mut self, event: &Map<String, Value>, sink: &mut CallSink) -> Result<(), Fault> {
        let Some(output) = event
            .get("response")
            .and_then(|response| response.get("output"))
            .and_then(Value::as_array)
        else {
            return Ok(());
        };
        for (index, item) in output.iter().enumerate() {
            let Some(map) = item.as_object() else {
                continue;
            };
            let names = Names {
                output_index: Some(index as u64),
                ..item_names(map)?
            };
            if let Some(at) = self.exact(names) {
                let slot = &self.items[at];
                if slot.call.is_some() && !slot.done && names.kind == Some("function_call") {
                    self.settle(Some(at), map, names, sink)?;
                }
                continue;
            }
            let done_here = names
                .kind
                .is_some_and(|kind| self.done_at.contains(&(index as u64, kind.to_owned())));
            if done_here {
                continue;
            }
            self.settle(None, map, names, sink)?;
        }
        Ok(())
    }
}

/// How an item names itself: its `id` and (a call's) `call_id`, `""` read as none (a server
/// that sends `""` names nothing by it: our caution), and its `type`.
fn item_names(item: &Map<String, Value>) -> Result<Names<'_>, Fault> {
    let kind = shape::opt_str(item, "type", "/item")?;
    let call_id = if kind == Some("function_call") {
        non_empty(shape::opt_str(item, "call_id", "/item")?)
    } else {
        None
    };
    Ok(Names {
        id: non_empty(shape::opt_str(item, "id", "/item")?),
        call_id,
        kind,
        output_index: None,
    })
}

fn non_empty(id: Option<&str>) -> Option<&str> {
    id.filter(|id| !id.is_empty())
}

/// Whether a done item named `names` repeats the call `slot` was done as: the same `call_id`
/// where it carries one (its `id` may be minted anew per event: see the module doc).
fn repeats(slot: &Item, names: Names<'_>) -> bool {
    slot.done
        && slot.kind() == Some("function_call")
        && names.call_id.is_none_or(|call_id| {
            slot.value.get("call_id").and_then(Value::as_str) == Some(call_id)
        })
}

/// The refusal of an event whose id at `pointer` names no item it can be (an event without
/// one names its item by index: then the index is at fault).
fn unmatched(pointer: &'static str, id: Option<&str>, expected: &'static str) -> Fault {
    match id {
        Some(id) => Fault::UnmatchedItem {
            pointer: pointer.to_owned(),
            id: id.to_owned(),
            expected,
        },
        None => Fault::shape("/output_index", expected),
    }
}

/// The arguments text as the output item carries it (a marker that is not JSON once it passed
/// the limit and was dropped: the call says `TooLong`, the body's parse an error too).
fn arguments_text(arguments: &ArgumentsText) -> Value {
    Value::String(arguments.recorded().to_owned())
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
    fn push(&mut self, event: &Value, sink: &mut CallSink) -> Result<(), Fault> {
        let event = shape::object(event, "", "a response stream event object")?;
        let kind = shape::opt_str(event, "type", "")?
            .ok_or_else(|| Fault::shape("/type", "the event's type, a string"))?;
        match kind {
            "response.output_item.added" => self.added(event, sink.limit())?,
            "response.function_call_arguments.delta" => {
                let delta = shape::opt_str(event, "delta", "")?.unwrap_or_default();
                let position = self.open_call(event)?;
                if let Some(call) = &mut self.items[position].call {
                    call.arguments.push(delta, sink.limit());
                }
            }
            "response.function_call_arguments.done" => {
                let whole = shape::opt_str(event, "arguments", "")?;
                let position = self.open_call(event)?;
                if let (Some(call), Some(whole)) = (&mut self.items[position].call, whole) {
                    call.arguments.replace(whole, sink.limit());
                }
            }
            "response.output_item.done" => self.done(event, sink)?,
            "response.completed" | "response.incomplete" => self.whole(event, sink)?,
            "response.failed" => {
                self.whole(event, sink)?;
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

    fn knows(&self, event: &Value) -> bool {
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
        let mut sink = CallSink::new(1024);
        let call = json!({"type": "response.output_item.done", "output_index": 0, "item":
            {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f",
             "arguments": "{}"}});
        let message = json!({"type": "response.output_item.done", "output_index": 0, "item":
            {"type": "message", "id": "msg_0", "role": "assistant", "content": []}});
        machine.push(&call, &mut sink).unwrap();
        machine.push(&message, &mut sink).unwrap();
        let calls = sink.take();
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
        let mut sink = CallSink::new(1024);
        let item = json!({"type": "function_call", "id": "fc_1", "call_id": "call_1",
            "name": "f", "arguments": "{}"});
        let added = json!({"type": "response.output_item.added", "output_index": 0,
            "item": {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f",
                "arguments": ""}});
        let done = json!({"type": "response.output_item.done", "output_index": 0, "item": item});
        machine.push(&added, &mut sink).unwrap();
        machine.push(&done, &mut sink).unwrap();
        machine.push(&done, &mut sink).unwrap();
        assert_eq!(sink.take().len(), 1);
        assert_eq!(machine.body()["output"].as_array().unwrap().len(), 1);
    }

    #[test]
    fn a_done_item_without_arguments_takes_the_fragments() {
        let mut stream = ResponsesMachine::default();
        let mut sink = CallSink::new(1024);
        let events = [
            json!({"type": "response.output_item.added", "output_index": 1, "item":
                {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f", "arguments": ""}}),
            json!({"type": "response.function_call_arguments.delta", "item_id": "fc_1", "output_index": 1, "delta": "{\"a\":"}),
            json!({"type": "response.function_call_arguments.delta", "item_id": "fc_1", "output_index": 1, "delta": "1}"}),
            json!({"type": "response.output_item.done", "output_index": 1, "item": {"type": "function_call", "id": "fc_1"}}),
        ];
        for event in &events {
            stream.push(event, &mut sink).unwrap();
        }
        let calls = sink.take();
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
        let mut sink = CallSink::new(1024);
        let call = json!({"type": "function_call", "id": "fc_1", "call_id": "call_1",
            "name": "f", "arguments": "{}"});
        let events = [
            json!({"type": "response.output_item.done", "output_index": 1, "item": call}),
            json!({"type": "response.completed", "response": {"output": [
                {"type": "reasoning", "id": "rs_1", "summary": []},
                {"type": "function_call", "id": "fc_1"}]}}),
        ];
        for event in &events {
            stream.push(event, &mut sink).unwrap();
        }
        assert_eq!(sink.take()[0].pointer, "/output/0");
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
        assert!(stream.push(&bad, &mut CallSink::new(64)).is_err());
        assert_eq!(stream.body()["output"], json!([]));
    }

    #[test]
    fn items_it_does_not_know_are_kept_as_they_came() {
        let mut stream = ResponsesMachine::default();
        let mut sink = CallSink::new(1024);
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
            stream.push(event, &mut sink).unwrap();
        }
        assert_eq!(sink.take()[0].pointer, "/output/1");
        assert_eq!(stream.body()["output"][0], odd);
    }

    #[test]
    fn an_error_event_is_the_providers_error() {
        let mut stream = ResponsesMachine::default();
        let fault = stream.push(
            &json!({"type": "error", "message": "overloaded"}),
            &mut CallSink::new(8),
        );
        assert_eq!(
            fault,
            Err(Fault::Provider {
                message: "overloaded".into()
            })
        );
    }
}
