//! Bedrock Converse: the message a stream builds, for the replay (issue 18, point 7).
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//! Sources, read 2026-12 (botocore 1.43 `bedrock-runtime` service model,
//! `ConverseStreamOutput`): `messageStart.role`; `contentBlockStart.start` begins a `toolUse`
//! (`ToolUseBlockStart`: `toolUseId`, `name`, `type`) or a `toolResult` (`toolUseId`,
//! `status`) at `contentBlockIndex`; `contentBlockDelta.delta` appends `text` (a text block has
//! no start event), `toolUse.input` fragments (their concatenation is the input Document),
//! `reasoningContent.text` / `.signature` / `.redactedContent`, or `toolResult` content blocks;
//! `messageStop.stopReason`.

use serde_json::{json, Value};

use crate::wire::replay::{append, index_of, input_of, slot, str_of};

/// The message so far: its blocks by `contentBlockIndex`, each `toolUse`'s input text.
#[derive(Debug, Default)]
pub(crate) struct ConverseTurn {
    role: Option<String>,
    blocks: Vec<Value>,
    inputs: Vec<Option<String>>,
    stop_reason: Option<Value>,
}

impl ConverseTurn {
    pub(crate) fn push(&mut self, event: &Value) {
        if let Some(start) = event.get("messageStart") {
            self.role = str_of(start, "role").map(str::to_owned);
        } else if let Some(start) = event.get("contentBlockStart") {
            self.start(start);
        } else if let Some(delta) = event.get("contentBlockDelta") {
            self.delta(delta);
        } else if let Some(stop) = event.get("messageStop") {
            self.stop_reason = stop.get("stopReason").cloned();
        }
    }

    fn start(&mut self, start: &Value) {
        let (Some(index), Some(begun)) = (index_of(start, "contentBlockIndex"), start.get("start"))
        else {
            return;
        };
        let Some(block) = slot(&mut self.blocks, index) else {
            return;
        };
        if let Some(tool_use) = begun.get("toolUse").filter(|t| t.is_object()) {
            *block = json!({"toolUse": tool_use});
            if self.inputs.len() <= index {
                self.inputs.resize(index + 1, None);
            }
            self.inputs[index] = Some(String::new());
        } else if let Some(Value::Object(result)) = begun.get("toolResult") {
            let mut result = result.clone();
            result.insert("content".into(), Value::Array(Vec::new()));
            *block = json!({"toolResult": result});
        }
    }

    fn delta(&mut self, event: &Value) {
        let (Some(index), Some(delta)) = (index_of(event, "contentBlockIndex"), event.get("delta"))
        else {
            return;
        };
        let Some(block) = slot(&mut self.blocks, index) else {
            return;
        };
        if let Some(text) = str_of(delta, "text") {
            if block.is_null() {
                *block = json!({"text": ""});
            }
            append(block, "text", text);
        } else if let Some(input) = delta.get("toolUse").and_then(|t| str_of(t, "input")) {
            if let Some(Some(buffer)) = self.inputs.get_mut(index) {
                buffer.push_str(input);
            }
        } else if let Some(reasoning) = delta.get("reasoningContent") {
            if let Some(redacted) = str_of(reasoning, "redactedContent") {
                if block.is_null() {
                    *block = json!({"reasoningContent": {"redactedContent": ""}});
                }
                append(&mut block["reasoningContent"], "redactedContent", redacted);
                return;
            }
            if block.is_null() {
                *block = json!({"reasoningContent": {"reasoningText": {"text": ""}}});
            }
            let Some(text) = block
                .get_mut("reasoningContent")
                .and_then(|r| r.get_mut("reasoningText"))
            else {
                return;
            };
            if let Some(fragment) = str_of(reasoning, "text") {
                append(text, "text", fragment);
            }
            if let Some(signature) = str_of(reasoning, "signature") {
                append(text, "signature", signature);
            }
        } else if let Some(Value::Array(parts)) = delta.get("toolResult") {
            let Some(Value::Array(content)) = block
                .get_mut("toolResult")
                .and_then(|r| r.get_mut("content"))
            else {
                return;
            };
            for part in parts {
                match (content.last_mut(), str_of(part, "text")) {
                    (Some(last), Some(text)) if last.get("text").is_some() => {
                        append(last, "text", text)
                    }
                    _ => content.push(part.clone()),
                }
            }
        }
    }

    pub(crate) fn body(&self) -> Value {
        let mut blocks = self.blocks.clone();
        for (block, input) in blocks.iter_mut().zip(&self.inputs) {
            if let (Some(tool_use), Some(input)) = (block.get_mut("toolUse"), input) {
                if let Some(map) = tool_use.as_object_mut() {
                    map.insert("input".into(), input_of(input));
                }
            }
        }
        blocks.retain(|b| !b.is_null());
        json!({
            "output": {"message": {"role": self.role.as_deref().unwrap_or("assistant"), "content": blocks}},
            "stopReason": self.stop_reason,
        })
    }
}
