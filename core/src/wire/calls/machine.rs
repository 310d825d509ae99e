//! One state machine per stream format: it reads each event once, builds the response body the
//! events make, and yields each call as it ends, as a pointer into that body. The call stream
//! ([`CallStream`](super::CallStream)) and the recorded turn
//! ([`StreamedTurn`](crate::wire::replay::StreamedTurn)) are both views of one machine, so the
//! calls a stream yields and the history it replays agree by construction.
//!
//! Each format's machine lives in its provider folder (`<provider>/stream.rs`); this file only
//! knows the trait and the table of formats.

use std::fmt::Debug;

use serde_json::Value;

use super::call_format::CallFormat;
use super::error::Fault;
use super::tool_call::UnfinishedCall;
use super::turn::Turn;
use crate::wire::{anthropic, converse, gemini, openai};

/// What every format's stream machine does.
pub(crate) trait StreamMachine: Debug + Default {
    /// Reads one parsed event: records it in the body being built and adds to `calls` each
    /// call the event ended, its pointer into [`body`](Self::body). A fault leaves the body
    /// as the events before it built it (the recorded turn never judges).
    fn push(&mut self, event: &Value, calls: &mut Turn) -> Result<(), Fault>;

    /// Whether `event` is one of the format's kinds (else the stream may be another format's).
    fn knows(event: &Value) -> bool;

    /// The calls begun and not yet ended, in order.
    fn open(&self) -> Vec<UnfinishedCall>;

    /// The stream's own end marker came (Chat Completions' `data: [DONE]`): adds to `calls`
    /// each call it ends. Only a format with such a marker has one.
    fn done(&mut self, _calls: &mut Turn) -> Result<(), Fault> {
        Ok(())
    }

    /// The stream ended at an event boundary (no event was cut): adds to `calls` each call
    /// that end ends. Only Chat Completions ends calls so (its module doc says why that is
    /// safe); every other format has an end event per call, and a call still open at the end
    /// stays unfinished.
    fn end(&mut self, _calls: &mut Turn) -> Result<(), Fault> {
        Ok(())
    }

    /// Whether the stream so far has no end signal of its own, so that its end at an event
    /// boundary would be inferred from the close (Chat Completions with neither a
    /// `finish_reason` nor `[DONE]`). No other format infers an end.
    fn end_inferred(&self) -> bool {
        false
    }

    /// The server-side calls (a `server_tool_use` block) begun and not ended: not the app's to
    /// answer, but a turn that stops inside one is cut all the same (the provider refuses a
    /// replayed block whose input never finished).
    fn open_server_calls(&self) -> Vec<UnfinishedCall> {
        Vec::new()
    }

    /// A call the text of a cut event began, that no earlier event began (only a format that
    /// sends a call in one event has one).
    fn cut(&self, _text: &str) -> Vec<UnfinishedCall> {
        Vec::new()
    }

    /// The response body the events so far build, in the format's body shape.
    fn body(&self) -> Value;
}

/// The table: each format's machine.
#[derive(Debug)]
pub(crate) enum Machine {
    Chat(openai::chat_stream::ChatMachine),
    Responses(openai::responses_stream::ResponsesMachine),
    Anthropic(anthropic::stream::AnthropicMachine),
    Converse(converse::stream::ConverseMachine),
    Gemini(gemini::stream::GeminiMachine),
}

/// Runs `$body` with `$m` bound to the format's machine.
macro_rules! each {
    ($machine:expr, $m:ident => $body:expr) => {
        match $machine {
            Machine::Chat($m) => $body,
            Machine::Responses($m) => $body,
            Machine::Anthropic($m) => $body,
            Machine::Converse($m) => $body,
            Machine::Gemini($m) => $body,
        }
    };
}

impl Machine {
    pub(crate) fn new(format: CallFormat) -> Machine {
        match format {
            CallFormat::OpenAiChat => Machine::Chat(Default::default()),
            CallFormat::OpenAiResponses => Machine::Responses(Default::default()),
            CallFormat::Anthropic => Machine::Anthropic(Default::default()),
            CallFormat::Converse => Machine::Converse(Default::default()),
            CallFormat::Gemini => Machine::Gemini(Default::default()),
        }
    }

    pub(crate) fn push(&mut self, event: &Value, calls: &mut Turn) -> Result<(), Fault> {
        each!(self, m => m.push(event, calls))
    }

    pub(crate) fn knows(&self, event: &Value) -> bool {
        fn knows_of<M: StreamMachine>(_: &M, event: &Value) -> bool {
            M::knows(event)
        }
        each!(self, m => knows_of(m, event))
    }

    pub(crate) fn done(&mut self, calls: &mut Turn) -> Result<(), Fault> {
        each!(self, m => m.done(calls))
    }

    pub(crate) fn end(&mut self, calls: &mut Turn) -> Result<(), Fault> {
        each!(self, m => m.end(calls))
    }

    pub(crate) fn end_inferred(&self) -> bool {
        each!(self, m => m.end_inferred())
    }

    pub(crate) fn open(&self) -> Vec<UnfinishedCall> {
        each!(self, m => m.open())
    }

    pub(crate) fn open_server_calls(&self) -> Vec<UnfinishedCall> {
        each!(self, m => m.open_server_calls())
    }

    pub(crate) fn cut(&self, text: &str) -> Vec<UnfinishedCall> {
        each!(self, m => m.cut(text))
    }

    pub(crate) fn body(&self) -> Value {
        each!(self, m => m.body())
    }
}

// What the machines share.

/// Appends `text` to the string member `key` of `object` (made a string if it is not one).
pub(crate) fn append(object: &mut Value, key: &str, text: &str) {
    let Some(map) = object.as_object_mut() else {
        return;
    };
    match map.get_mut(key) {
        Some(Value::String(existing)) => existing.push_str(text),
        _ => {
            map.insert(key.to_owned(), Value::String(text.to_owned()));
        }
    }
}

/// The most blocks (or items, or calls) one recorded turn holds: no provider streams that
/// many, and a hostile index must not allocate without bound (our caution).
pub(crate) const MAX_BLOCKS: usize = 4096;

/// A streamed arguments text as the body would carry it: the JSON it is; `{}` for empty or
/// blank text (`wire::calls`' rule); a text that is not JSON as a string (the call stream
/// reports it as that call's error).
pub(crate) fn input_of(text: &str) -> Value {
    if text.trim().is_empty() {
        return Value::Object(Default::default());
    }
    serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned()))
}
