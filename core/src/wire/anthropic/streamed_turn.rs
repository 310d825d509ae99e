//! The Messages API: the message a stream builds, for the replay (issue 18, point 7).
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//! Sources, read 2026-12 (anthropic-sdk-python 2.15 `types/raw_message_stream_event.py` and the
//! streaming guide, platform.claude.com/docs/en/build-with-claude/streaming):
//! `message_start` carries the message with empty `content`; `content_block_start` each block
//! at its `index` (a `tool_use` or `server_tool_use` with `input: {}` as a placeholder, a
//! `thinking` block with empty `thinking` and `signature`, a server tool's result whole);
//! `content_block_delta` appends `text_delta.text`, `thinking_delta.thinking`,
//! `signature_delta.signature`, `citations_delta.citation`, and `input_json_delta.partial_json`
//! fragments whose concatenation is the input (never `{}` prefixed: ogx PR #5462);
//! `message_delta` sets `stop_reason` and `stop_sequence`.

use serde_json::{Map, Value};

use crate::wire::replay::{append, index_of, input_of, slot, str_of};

/// The message so far, its blocks by `index`, and each block's input text.
#[derive(Debug, Default)]
pub(crate) struct AnthropicTurn {
    message: Map<String, Value>,
    blocks: Vec<Value>,
    inputs: Vec<Option<String>>,
}

impl AnthropicTurn {
    pub(crate) fn push(&mut self, event: &Value) {
        match str_of(event, "type") {
            Some("message_start") => {
                if let Some(Value::Object(message)) = event.get("message") {
                    self.message = message.clone();
                }
            }
            Some("content_block_start") => {
                let (Some(index), Some(block)) = (
                    index_of(event, "index"),
                    event.get("content_block").filter(|b| b.is_object()),
                ) else {
                    return;
                };
                if let Some(slot) = slot(&mut self.blocks, index) {
                    *slot = block.clone();
                }
            }
            Some("content_block_delta") => self.delta(event),
            Some("message_delta") => {
                if let Some(Value::Object(delta)) = event.get("delta") {
                    for (key, value) in delta {
                        self.message.insert(key.clone(), value.clone());
                    }
                }
            }
            _ => {}
        }
    }

    fn delta(&mut self, event: &Value) {
        let (Some(index), Some(delta)) = (index_of(event, "index"), event.get("delta")) else {
            return;
        };
        let Some(block) = slot(&mut self.blocks, index) else {
            return;
        };
        match str_of(delta, "type") {
            Some("text_delta") => append(block, "text", str_of(delta, "text").unwrap_or("")),
            Some("thinking_delta") => {
                append(block, "thinking", str_of(delta, "thinking").unwrap_or(""))
            }
            Some("signature_delta") => {
                append(block, "signature", str_of(delta, "signature").unwrap_or(""))
            }
            Some("citations_delta") => {
                if let (Some(map), Some(citation)) = (block.as_object_mut(), delta.get("citation"))
                {
                    let citations = map.entry("citations").or_insert(Value::Array(Vec::new()));
                    if let Value::Array(list) = citations {
                        list.push(citation.clone());
                    }
                }
            }
            Some("input_json_delta") => {
                if self.inputs.len() <= index {
                    self.inputs.resize(index + 1, None);
                }
                self.inputs[index]
                    .get_or_insert_with(String::new)
                    .push_str(str_of(delta, "partial_json").unwrap_or(""));
            }
            _ => {}
        }
    }

    pub(crate) fn body(&self) -> Value {
        let mut message = self.message.clone();
        message.entry("role").or_insert_with(|| "assistant".into());
        let mut blocks = self.blocks.clone();
        for (block, input) in blocks.iter_mut().zip(&self.inputs) {
            if let (Some(map), Some(input)) = (block.as_object_mut(), input) {
                map.insert("input".into(), input_of(input));
            }
        }
        blocks.retain(|b| !b.is_null());
        message.insert("content".into(), Value::Array(blocks));
        Value::Object(message)
    }
}
