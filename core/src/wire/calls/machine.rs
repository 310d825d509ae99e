//! One state machine per stream format: it reads each event once, builds the response body the
//! events make, and yields each call as it ends, as a pointer into that body. The call stream
//! ([`CallStream`](super::CallStream)) and the recorded turn
//! ([`StreamedTurn`](crate::wire::replay::StreamedTurn)) are both views of one machine, so the
//! calls a stream yields and the history it replays agree by construction.
//!
//! Each format's machine lives in its provider folder (`<provider>/stream.rs`), made by its
//! API ([`LlmApi`](crate::wire::api::LlmApi)); this file only knows the trait.

use std::fmt::Debug;
use std::panic::{RefUnwindSafe, UnwindSafe};

use serde_json::Value;

use super::error::Fault;
use super::sink::CallSink;
use super::tool_call::UnfinishedCall;

/// What every format's stream machine does.
pub(crate) trait StreamMachine: Debug + Send + Sync + UnwindSafe + RefUnwindSafe {
    /// Reads one parsed event: records it in the body being built and adds to `calls` each
    /// call the event ended, its pointer into [`body`](Self::body). A fault leaves the body
    /// as the events before it built it (the recorded turn never judges).
    fn push(&mut self, event: &Value, calls: &mut CallSink) -> Result<(), Fault>;

    /// Whether `event` is one of the format's kinds (else the stream may be another format's).
    fn knows(&self, event: &Value) -> bool;

    /// The calls begun and not yet ended, in order.
    fn open(&self) -> Vec<UnfinishedCall>;

    /// The stream's own end marker came (Chat Completions' `data: [DONE]`): adds to `calls`
    /// each call it ends. Only a format with such a marker has one.
    fn done(&mut self, _calls: &mut CallSink) -> Result<(), Fault> {
        Ok(())
    }

    /// The stream ended at an event boundary (no event was cut): adds to `calls` each call
    /// that end ends. Only Chat Completions ends calls so (its module doc says why that is
    /// safe); every other format has an end event per call, and a call still open at the end
    /// stays unfinished.
    fn end(&mut self, _calls: &mut CallSink) -> Result<(), Fault> {
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

/// One stream's machine, of the format its API made it for
/// ([`LlmApi::stream_machine`](crate::wire::api::LlmApi::stream_machine)).
pub(crate) type Machine = Box<dyn StreamMachine>;

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
