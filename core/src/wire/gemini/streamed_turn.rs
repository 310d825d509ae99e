//! Gemini: the model content a stream builds, for the replay (issue 18, point 7).
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//! Sources, read 2026-12 (google-genai 3.6 `types.py`; the thought signatures page,
//! ai.google.dev/gemini-api/docs/thought-signatures): each chunk is a whole
//! `GenerateContentResponse` whose candidate content holds the parts that chunk adds, each
//! whole (a `functionCall` part with its `thoughtSignature`), so the turn is every part in the
//! order streamed: the stream's calls point at a part's position among them. Parts are kept as
//! they came (text is not merged): a signature belongs to its very part.
//!
//! Our own rule, as `calls.rs`: only the candidate of `index` 0 (or without an `index`).

use serde_json::{json, Value};

use crate::wire::replay::{index_of, str_of, MAX_BLOCKS};

/// The parts so far.
#[derive(Debug, Default)]
pub(crate) struct GeminiTurn {
    role: Option<String>,
    parts: Vec<Value>,
    finish_reason: Option<Value>,
}

impl GeminiTurn {
    pub(crate) fn push(&mut self, event: &Value) {
        let Some(candidates) = event.get("candidates").and_then(Value::as_array) else {
            return;
        };
        let Some(candidate) = candidates
            .iter()
            .find(|c| index_of(c, "index").unwrap_or(0) == 0)
        else {
            return;
        };
        if let Some(content) = candidate.get("content") {
            if let Some(role) = str_of(content, "role") {
                self.role = Some(role.to_owned());
            }
            for part in content
                .get("parts")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if self.parts.len() < MAX_BLOCKS {
                    self.parts.push(part.clone());
                }
            }
        }
        if let Some(reason) = candidate.get("finishReason") {
            self.finish_reason = Some(reason.clone());
        }
    }

    pub(crate) fn body(&self) -> Value {
        let mut candidate = json!({
            "content": {"role": self.role.as_deref().unwrap_or("model"), "parts": self.parts},
            "index": 0,
        });
        if let Some(reason) = &self.finish_reason {
            candidate["finishReason"] = reason.clone();
        }
        json!({"candidates": [candidate]})
    }
}
