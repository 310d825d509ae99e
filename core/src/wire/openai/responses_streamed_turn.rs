//! The Responses API: the output items a stream builds, for the replay (issue 18, point 7).
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//! Sources, read 2026-12 (openai-python 3.57 `types/responses/response_stream_event.py`):
//! `response.output_item.added` carries an item as it begins and `response.output_item.done`
//! the finished item whole (a reasoning item with its `encrypted_content`, a message with its
//! text, a function call with its arguments), each at its `output_index`; so the output is the
//! done items in index order, and an item that never finished is kept as it began.

use serde_json::{json, Value};

use crate::wire::replay::{index_of, slot, str_of};

/// The output items so far, by `output_index`.
#[derive(Debug, Default)]
pub(crate) struct ResponsesTurn {
    items: Vec<Value>,
}

impl ResponsesTurn {
    pub(crate) fn push(&mut self, event: &Value) {
        let done = match str_of(event, "type") {
            Some("response.output_item.done") => true,
            Some("response.output_item.added") => false,
            _ => return,
        };
        let (Some(index), Some(item)) = (
            index_of(event, "output_index"),
            event.get("item").filter(|i| i.is_object()),
        ) else {
            return;
        };
        if let Some(slot) = slot(&mut self.items, index) {
            if done || slot.is_null() {
                *slot = item.clone();
            }
        }
    }

    pub(crate) fn body(&self) -> Value {
        let output: Vec<Value> = self
            .items
            .iter()
            .filter(|i| !i.is_null())
            .cloned()
            .collect();
        json!({"object": "response", "output": output})
    }
}
