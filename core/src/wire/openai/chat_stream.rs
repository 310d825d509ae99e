//! Chat Completions: the assembler of a stream's tool calls (hop 4, streamed).
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//! Sources, read 2026-12:
//! - each chunk is a `ChatCompletionChunk` (`types/chat/chat_completion_chunk.py`, openai-python
//!   3.57): `choices[].delta.tool_calls[]` are `ChoiceDeltaToolCall`s, whose `index` is required
//!   and whose `id`, `type` and `function.name` come on a call's first delta only;
//!   `function.arguments` are fragments to concatenate;
//! - the end signal is the choice's `finish_reason` (`tool_calls`, or any other: it ends the
//!   choice and so every call in it). No per-call end event exists, so a call whose partial
//!   arguments happen to parse is not finished (vercel/ai PR #13137, reverted, fixed again in
//!   #16838).
//!
//! Quirks of OpenAI-compatible servers, tolerated: the first call at index 1 (pipecat PR
//! #5342), two entries with one index in one chunk (openai-python #3201, #3203: they merge by
//! index, not by position), fragments interleaved across indexes. Calls keep the order their
//! index first appears in.
//!
//! Our own rules: only choice 0 is the turn (as in bodies); a delta without `index` continues
//! the last call; a new header (a different `id` with a `name`) at an index whose call already
//! has both starts a new call there (a server that reuses index 0 for each parallel call). A
//! `name` arriving in pieces is concatenated, as the SDK's own accumulator does with every
//! string but `index` and `type` (openai-python `lib/streaming/_deltas.py`,
//! `accumulate_delta`); a delta repeating the whole name is not doubled (our caution).

use serde_json::{Map, Value};

use crate::wire::calls::shape::{self, member};
use crate::wire::calls::turn::Turn;
use crate::wire::calls::{ArgumentsText, Fault, ToolCall, UnfinishedCall};

/// A call whose end signal has not come.
#[derive(Debug)]
struct OpenCall {
    index: Option<u64>,
    id: Option<String>,
    name: String,
    arguments: ArgumentsText,
    /// Its position in the `tool_calls` of the message the stream builds.
    position: usize,
}

/// The calls of choice 0 since its last finish reason.
#[derive(Debug, Default)]
pub(crate) struct ChatStream {
    open: Vec<OpenCall>,
    ended: usize,
}

impl ChatStream {
    /// Reads one chunk.
    pub(crate) fn push(&mut self, event: &Value, turn: &mut Turn) -> Result<(), Fault> {
        let event = shape::object(event, "", "a chat.completion.chunk object")?;
        // An error in the stream is an object with `error` and no `choices` (openai-python
        // `_streaming.py` raises `APIError` on `sse.data` holding `error`).
        if let Some(error) = shape::member(event, "error") {
            let message = error.get("message").and_then(Value::as_str);
            return Err(Fault::Provider {
                message: message.map_or_else(|| error.to_string(), str::to_owned),
            });
        }
        // `ChatCompletionChunk.choices` is required; the last chunk, with usage, has `[]`.
        let choices = shape::array(event, "choices", "")?;
        for (position, choice) in choices.iter().enumerate() {
            let parent = if position == 0 {
                "/choices/0".to_owned()
            } else {
                format!("/choices/{position}")
            };
            let choice = shape::object(choice, &parent, "a choice object")?;
            if shape::opt_index(choice, "index", &parent)?.unwrap_or(position as u64) != 0 {
                continue;
            }
            if let Some(delta) = shape::opt_object(choice, "delta", &parent)? {
                let delta_pointer = format!("{parent}/delta");
                if let Some(tool_calls) = shape::opt_array(delta, "tool_calls", &delta_pointer)? {
                    for (entry_position, entry) in tool_calls.iter().enumerate() {
                        let pointer = format!("{delta_pointer}/tool_calls/{entry_position}");
                        self.delta(entry, &pointer, turn.limit())?;
                    }
                }
            }
            if shape::opt_str(choice, "finish_reason", &parent)?.is_some() {
                self.end_all(turn)?;
            }
        }
        Ok(())
    }

    /// One `ChoiceDeltaToolCall`.
    fn delta(&mut self, entry: &Value, pointer: &str, limit: usize) -> Result<(), Fault> {
        let entry = shape::object(entry, pointer, "a tool call delta object")?;
        let index = shape::opt_index(entry, "index", pointer)?;
        let id = shape::opt_str(entry, "id", pointer)?.filter(|id| !id.is_empty());
        let function_pointer = format!("{pointer}/function");
        let function = shape::opt_object(entry, "function", pointer)?;
        let name = match function {
            Some(function) => shape::opt_str(function, "name", &function_pointer)?,
            None => None,
        }
        .filter(|name| !name.is_empty());
        let slot = self.slot(index, id, name.is_some());
        let call = &mut self.open[slot];
        if call.id.is_none() {
            call.id = id.map(str::to_owned);
        }
        if let Some(name) = name {
            if call.name != name {
                call.name.push_str(name);
            }
        }
        if let Some(function) = function {
            fragment(function, &function_pointer, &mut call.arguments, limit)?;
        }
        Ok(())
    }

    /// The open call a delta belongs to, opened if it is new.
    fn slot(&mut self, index: Option<u64>, id: Option<&str>, has_name: bool) -> usize {
        let found = match index {
            Some(index) => self.open.iter().rposition(|call| call.index == Some(index)),
            None => self.open.len().checked_sub(1),
        };
        if let Some(slot) = found {
            let call = &self.open[slot];
            let new_header = has_name
                && !call.name.is_empty()
                && matches!((call.id.as_deref(), id), (Some(old), Some(new)) if old != new);
            if !new_header {
                return slot;
            }
        }
        self.open.push(OpenCall {
            index,
            id: None,
            name: String::new(),
            arguments: ArgumentsText::default(),
            position: self.ended + self.open.len(),
        });
        self.open.len() - 1
    }

    /// The finish reason: every open call ends, in order.
    fn end_all(&mut self, turn: &mut Turn) -> Result<(), Fault> {
        self.ended += self.open.len();
        for call in std::mem::take(&mut self.open) {
            let arguments = call.arguments.finish(turn.limit());
            let pointer = format!("/choices/0/message/tool_calls/{}", call.position);
            turn.add_with_id(ToolCall::new(call.id, call.name, arguments, pointer))?;
        }
        Ok(())
    }

    /// The calls begun and not ended.
    pub(crate) fn open(&self) -> Vec<UnfinishedCall> {
        self.open
            .iter()
            .map(|call| UnfinishedCall::of_open(&call.id, &call.name))
            .collect()
    }
}

/// Appends a delta's `function.arguments` fragment (a string; an object from a compatible
/// server is its JSON text).
fn fragment(
    function: &Map<String, Value>,
    pointer: &str,
    arguments: &mut ArgumentsText,
    limit: usize,
) -> Result<(), Fault> {
    match member(function, "arguments") {
        None => Ok(()),
        Some(Value::String(text)) => {
            arguments.push(text, limit);
            Ok(())
        }
        Some(object @ Value::Object(_)) => {
            arguments.push(&object.to_string(), limit);
            Ok(())
        }
        Some(_) => Err(Fault::shape(format!("{pointer}/arguments"), "a string")),
    }
}

/// Whether `event` is a chunk of this format at all: `ChatCompletionChunk.choices` is required
/// (`chat_completion_chunk.py`).
pub(crate) fn is_known_event(event: &Value) -> bool {
    event.get("choices").is_some_and(Value::is_array)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn chunk(tool_calls: Value, finish: Value) -> Value {
        json!({"choices": [{"index": 0, "delta": {"tool_calls": tool_calls}, "finish_reason": finish}]})
    }

    #[test]
    fn a_server_reusing_index_0_for_each_call_gives_each_call() {
        let mut stream = ChatStream::default();
        let mut turn = Turn::new(1024);
        for (id, name) in [("call_a", "f"), ("call_b", "g")] {
            let header =
                json!([{"index": 0, "id": id, "function": {"name": name, "arguments": "{}"}}]);
            stream.push(&chunk(header, Value::Null), &mut turn).unwrap();
        }
        stream
            .push(&chunk(Value::Null, json!("tool_calls")), &mut turn)
            .unwrap();
        let calls = turn.take();
        let names: Vec<_> = calls
            .iter()
            .map(|c| (c.id.as_deref(), c.name.as_str()))
            .collect();
        assert_eq!(names, [(Some("call_a"), "f"), (Some("call_b"), "g")]);
        assert_eq!(calls[1].pointer, "/choices/0/message/tool_calls/1");
    }

    #[test]
    fn a_delta_without_index_continues_the_last_call() {
        let mut stream = ChatStream::default();
        let mut turn = Turn::new(1024);
        let header = json!([{"id": "call_a", "function": {"name": "f", "arguments": "{\"a\""}}]);
        stream.push(&chunk(header, Value::Null), &mut turn).unwrap();
        let rest = json!([{"function": {"arguments": ":1}"}}]);
        stream
            .push(&chunk(rest, json!("tool_calls")), &mut turn)
            .unwrap();
        assert_eq!(turn.take()[0].arguments.as_ref().unwrap()["a"], 1);
    }

    #[test]
    fn a_chunk_without_choices_is_not_a_chunk_and_an_error_is_the_providers() {
        let mut stream = ChatStream::default();
        let mut turn = Turn::new(64);
        let message_start = json!({"type": "message_start", "message": {}});
        assert_eq!(
            stream.push(&message_start, &mut turn),
            Err(Fault::shape("/choices", "an array"))
        );
        let error = json!({"error": {"message": "Rate limit reached", "type": "requests"}});
        assert_eq!(
            stream.push(&error, &mut turn),
            Err(Fault::Provider {
                message: "Rate limit reached".into()
            })
        );
    }

    #[test]
    fn other_choices_are_not_the_turn() {
        let mut stream = ChatStream::default();
        let mut turn = Turn::new(1024);
        let event = json!({"choices": [{"index": 1, "delta": {"tool_calls": [
            {"index": 0, "id": "call_x", "function": {"name": "f", "arguments": ""}}]},
            "finish_reason": "tool_calls"}]});
        stream.push(&event, &mut turn).unwrap();
        assert!(turn.take().is_empty());
        assert!(stream.open().is_empty());
    }
}

/// The format's stream machine (`wire::calls::machine`). For now it feeds each event to the
/// call assembler above and to the recorder in `super::chat_streamed_turn::ChatTurn`, one after the other.
#[derive(Debug, Default)]
pub(crate) struct ChatMachine {
    calls: ChatStream,
    turn: super::chat_streamed_turn::ChatTurn,
}

impl crate::wire::calls::machine::StreamMachine for ChatMachine {
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
