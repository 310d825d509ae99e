//! The Responses API: the output items a stream builds, for the replay (issue 18, point 7).
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//! Sources, read 2026-12 (openai-python 3.57 `types/responses/response_stream_event.py`):
//! `response.output_item.added` carries an item as it begins and `response.output_item.done`
//! the finished item whole (a reasoning item with its `encrypted_content`, a message with its
//! text, a function call with its arguments), each at its `output_index`; so the output is the
//! done items in index order, and an item that never finished is kept as it began.
//! `response.completed` (and `.incomplete`, `.failed`) carries the whole response, whose
//! `output` fills an index no item event gave (our caution, for servers that send the items
//! only there).

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
            Some("response.completed" | "response.incomplete" | "response.failed") => {
                self.whole(event);
                return;
            }
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

    /// The final response's output, where no item event gave an index.
    fn whole(&mut self, event: &Value) {
        let Some(output) = event
            .get("response")
            .and_then(|r| r.get("output"))
            .and_then(Value::as_array)
        else {
            return;
        };
        for (index, item) in output.iter().enumerate() {
            if let Some(slot) = slot(&mut self.items, index) {
                if slot.is_null() && item.is_object() {
                    *slot = item.clone();
                }
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_final_response_fills_only_what_no_item_event_gave() {
        let mut turn = ResponsesTurn::default();
        let call = json!({"type": "function_call", "id": "fc_1", "call_id": "call_1",
            "name": "f", "arguments": "{}"});
        turn.push(&json!({"type": "response.output_item.done", "output_index": 1, "item": call}));
        let reasoning = json!({"type": "reasoning", "id": "rs_1", "summary": []});
        turn.push(
            &json!({"type": "response.completed", "response": {"output": [
            reasoning, {"type": "function_call", "id": "fc_other"}]}}),
        );
        assert_eq!(turn.body()["output"], json!([reasoning, call]));
    }
}
