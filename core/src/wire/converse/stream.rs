//! Bedrock Converse: the assembler of `ConverseStream`'s tool calls (hop 4, streamed), from
//! the decoded events as the AWS SDKs yield them (`{"contentBlockStart": {…}}`, one member
//! each).
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//! Sources, read 2026-12 (botocore 1.43 `bedrock-runtime` service model, `ConverseStreamOutput`;
//! the ConverseStream reference,
//! docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html):
//! - `contentBlockStart` (`ContentBlockStartEvent`: `start`, `contentBlockIndex`) opens a
//!   block; `start.toolUse` is a `ToolUseBlockStart` `{toolUseId, name, type?}` (a `type` of
//!   `server_tool_use` is a system tool Bedrock runs); text blocks have no start event;
//! - `contentBlockDelta` (`delta`, `contentBlockIndex`): `delta.toolUse.input` is a string
//!   fragment (`ToolUseBlockDelta`);
//! - the end signal is `contentBlockStop` (`contentBlockIndex`); `messageStop` and `metadata`
//!   follow;
//! - `internalServerException`, `modelStreamErrorException`, `validationException`,
//!   `throttlingException` and `serviceUnavailableException` are members of the stream too:
//!   the service's errors, each with a `message`.

use serde_json::Value;

use super::calls::is_server_tool;
use crate::wire::calls::shape;
use crate::wire::calls::turn::Turn;
use crate::wire::calls::{ArgumentsText, Fault, ToolCall, UnfinishedCall};

/// The error members of `ConverseStreamOutput`.
const EXCEPTIONS: [&str; 5] = [
    "internalServerException",
    "modelStreamErrorException",
    "validationException",
    "throttlingException",
    "serviceUnavailableException",
];

/// A `toolUse` block started and not stopped.
#[derive(Debug)]
struct OpenBlock {
    index: u64,
    id: Option<String>,
    name: String,
    arguments: ArgumentsText,
}

/// The `toolUse` blocks in progress.
#[derive(Debug, Default)]
pub(crate) struct ConverseStream {
    open: Vec<OpenBlock>,
}

impl ConverseStream {
    /// Reads one event.
    pub(crate) fn push(&mut self, event: &Value, turn: &mut Turn) -> Result<(), Fault> {
        let event = shape::object(event, "", "a ConverseStreamOutput event object")?;
        if let Some(start) = shape::opt_object(event, "contentBlockStart", "")? {
            let parent = "/contentBlockStart";
            let index = shape::index(start, "contentBlockIndex", parent)?;
            let tool_use = match shape::opt_object(start, "start", parent)? {
                Some(block_start) => {
                    shape::opt_object(block_start, "toolUse", "/contentBlockStart/start")?
                }
                None => None,
            };
            let pointer = "/contentBlockStart/start/toolUse";
            if let Some(tool_use) = tool_use {
                if !is_server_tool(tool_use, pointer)? {
                    self.open.push(OpenBlock {
                        index,
                        id: shape::opt_id(tool_use, "toolUseId", pointer)?,
                        name: shape::opt_str(tool_use, "name", pointer)?
                            .unwrap_or_default()
                            .to_owned(),
                        arguments: ArgumentsText::default(),
                    });
                }
            }
        } else if let Some(delta_event) = shape::opt_object(event, "contentBlockDelta", "")? {
            let parent = "/contentBlockDelta";
            let index = shape::index(delta_event, "contentBlockIndex", parent)?;
            let tool_use = match shape::opt_object(delta_event, "delta", parent)? {
                Some(delta) => shape::opt_object(delta, "toolUse", "/contentBlockDelta/delta")?,
                None => None,
            };
            if let Some(tool_use) = tool_use {
                let fragment =
                    shape::opt_str(tool_use, "input", "/contentBlockDelta/delta/toolUse")?;
                if let Some(block) = self.open.iter_mut().find(|block| block.index == index) {
                    block
                        .arguments
                        .push(fragment.unwrap_or_default(), turn.limit());
                }
            }
        } else if let Some(stop) = shape::opt_object(event, "contentBlockStop", "")? {
            let index = shape::index(stop, "contentBlockIndex", "/contentBlockStop")?;
            if let Some(slot) = self.open.iter().position(|block| block.index == index) {
                let block = self.open.remove(slot);
                let arguments = block.arguments.finish(turn.limit());
                let pointer = format!("/output/message/content/{index}");
                turn.add_with_id(ToolCall::new(block.id, block.name, arguments, pointer))?;
            }
        } else if let Some((name, exception)) = EXCEPTIONS
            .iter()
            .find_map(|name| event.get(*name).map(|exception| (*name, exception)))
        {
            let message = exception
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or(name);
            return Err(Fault::Provider {
                message: format!("{name}: {message}"),
            });
        }
        Ok(())
    }

    /// The calls begun and not ended.
    pub(crate) fn open(&self) -> Vec<UnfinishedCall> {
        self.open
            .iter()
            .map(|block| UnfinishedCall::of_open(&block.id, &block.name))
            .collect()
    }
}

/// Whether `event` is one of this format's: a member of `ConverseStreamOutput`.
pub(crate) fn is_known_event(event: &Value) -> bool {
    const EVENTS: [&str; 6] = [
        "messageStart",
        "contentBlockStart",
        "contentBlockDelta",
        "contentBlockStop",
        "messageStop",
        "metadata",
    ];
    event.as_object().is_some_and(|members| {
        EVENTS
            .iter()
            .chain(EXCEPTIONS.iter())
            .any(|name| members.contains_key(*name))
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn an_exception_member_is_the_providers_error() {
        let mut stream = ConverseStream::default();
        let event = json!({"throttlingException": {"message": "Too many requests"}});
        assert_eq!(
            stream.push(&event, &mut Turn::new(8)),
            Err(Fault::Provider {
                message: "throttlingException: Too many requests".into()
            })
        );
    }

    #[test]
    fn a_system_tool_is_not_a_client_call() {
        let mut stream = ConverseStream::default();
        let mut turn = Turn::new(1024);
        for event in [
            json!({"contentBlockStart": {"contentBlockIndex": 0, "start": {"toolUse":
                {"toolUseId": "t_srv", "name": "nova_code_interpreter", "type": "server_tool_use"}}}}),
            json!({"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"toolUse": {"input": "{}"}}}}),
            json!({"contentBlockStop": {"contentBlockIndex": 0}}),
        ] {
            stream.push(&event, &mut turn).unwrap();
        }
        assert!(turn.take().is_empty());
    }
}

/// The format's stream machine (`wire::calls::machine`). For now it feeds each event to the
/// call assembler above and to the recorder in `super::streamed_turn::ConverseTurn`, one after the other.
#[derive(Debug, Default)]
pub(crate) struct ConverseMachine {
    calls: ConverseStream,
    turn: super::streamed_turn::ConverseTurn,
}

impl crate::wire::calls::machine::StreamMachine for ConverseMachine {
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
