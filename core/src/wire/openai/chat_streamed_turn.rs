//! Chat Completions: the assistant message a stream builds, for the replay (issue 18, point 7).
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//! Sources, read 2026-12 (openai-python 3.57 `types/chat/chat_completion_chunk.py`):
//! `ChoiceDelta` carries `role`, `content` and `refusal` fragments and `tool_calls` deltas
//! (`index`; `id`, `type` and `function.name` on a call's first delta; `function.arguments`
//! fragments); the choice's `finish_reason` ends it. The message is what the deltas carry:
//! `annotations`, a response member no delta holds, is not invented.
//!
//! Our own rules, as `chat_stream.rs` tolerates OpenAI-compatible servers: only the choice of
//! `index` 0; a call is keyed by its `index`, and a delta with a new `id` at an index already
//! used (servers that send index 0 for every parallel call), or without an `index` but with an
//! `id`, begins a new call; calls keep the order their first delta came in, which is their
//! position in `tool_calls` (the stream's calls point there).

use serde_json::{json, Map, Value};

use crate::wire::replay::{index_of, str_of, MAX_BLOCKS};

/// One call being streamed.
#[derive(Debug, Default)]
struct Call {
    index: Option<usize>,
    id: Option<String>,
    kind: Option<String>,
    name: String,
    arguments: String,
}

/// The message so far.
#[derive(Debug, Default)]
pub(crate) struct ChatTurn {
    message: Map<String, Value>,
    calls: Vec<Call>,
    finish_reason: Option<Value>,
}

impl ChatTurn {
    pub(crate) fn push(&mut self, event: &Value) {
        let Some(choices) = event.get("choices").and_then(Value::as_array) else {
            return;
        };
        for (position, choice) in choices.iter().enumerate() {
            if index_of(choice, "index").unwrap_or(position) != 0 {
                continue;
            }
            if let Some(delta) = choice.get("delta").filter(|d| d.is_object()) {
                self.delta(delta);
            }
            if let Some(reason) = choice.get("finish_reason").filter(|r| !r.is_null()) {
                self.finish_reason = Some(reason.clone());
            }
        }
    }

    fn delta(&mut self, delta: &Value) {
        if let Some(role) = str_of(delta, "role") {
            self.message.insert("role".into(), role.into());
        }
        for key in ["content", "refusal"] {
            match delta.get(key) {
                Some(Value::String(text)) => match self.message.get_mut(key) {
                    Some(Value::String(so_far)) => so_far.push_str(text),
                    _ => {
                        self.message.insert(key.into(), text.clone().into());
                    }
                },
                Some(Value::Null) => {
                    self.message.entry(key).or_insert(Value::Null);
                }
                _ => {}
            }
        }
        for call in delta
            .get("tool_calls")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            self.call_delta(call);
        }
    }

    fn call_delta(&mut self, delta: &Value) {
        let index = index_of(delta, "index");
        let id = str_of(delta, "id").filter(|id| !id.is_empty());
        let existing = match index {
            Some(index) => self.calls.iter().rposition(|c| c.index == Some(index)),
            None => self.calls.len().checked_sub(1),
        };
        let begins = match (existing, id) {
            (None, _) => true,
            (Some(at), Some(id)) => self.calls[at].id.as_deref().is_some_and(|old| old != id),
            (Some(_), None) => false,
        };
        let at = if begins {
            if self.calls.len() >= MAX_BLOCKS {
                return;
            }
            self.calls.push(Call {
                index,
                ..Call::default()
            });
            self.calls.len() - 1
        } else {
            existing.unwrap_or_default()
        };
        let call = &mut self.calls[at];
        if let Some(id) = id {
            call.id = Some(id.to_owned());
        }
        if let Some(kind) = str_of(delta, "type") {
            call.kind = Some(kind.to_owned());
        }
        let function = delta.get("function");
        if let Some(name) = function.and_then(|f| str_of(f, "name")) {
            call.name.push_str(name);
        }
        match function.and_then(|f| f.get("arguments")) {
            Some(Value::String(text)) => call.arguments.push_str(text),
            // Some compatible servers send the arguments as an object.
            Some(object @ Value::Object(_)) => call.arguments = object.to_string(),
            _ => {}
        }
    }

    pub(crate) fn body(&self) -> Value {
        let mut message = self.message.clone();
        message.entry("role").or_insert_with(|| "assistant".into());
        message.entry("content").or_insert(Value::Null);
        if !self.calls.is_empty() {
            let calls: Vec<Value> = self
                .calls
                .iter()
                .map(|call| {
                    json!({
                        "id": call.id,
                        "type": call.kind.as_deref().unwrap_or("function"),
                        "function": {"name": call.name, "arguments": call.arguments},
                    })
                })
                .collect();
            message.insert("tool_calls".into(), Value::Array(calls));
        }
        json!({"object": "chat.completion", "choices": [{
            "index": 0,
            "message": message,
            "finish_reason": self.finish_reason,
        }]})
    }
}
