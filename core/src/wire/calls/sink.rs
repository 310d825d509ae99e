//! The calls of one turn as they are found, with the rules every format shares. Policy: a
//! call without a name and a second call with an id the turn already had are faults of the
//! body or stream, not of the call: neither can be answered as the model meant.

use std::collections::HashSet;
use std::mem;

use super::error::Fault;
use super::tool_call::ToolCall;

/// The calls found so far, and every id the turn has used.
#[derive(Debug)]
pub(crate) struct CallSink {
    ready: Vec<ToolCall>,
    ids: HashSet<String>,
    max_argument_bytes: usize,
}

impl CallSink {
    pub(crate) fn new(max_argument_bytes: usize) -> CallSink {
        CallSink {
            ready: Vec::new(),
            ids: HashSet::new(),
            max_argument_bytes,
        }
    }

    /// The limit of one call's arguments text.
    pub(crate) fn limit(&self) -> usize {
        self.max_argument_bytes
    }

    /// Adds a call the provider ended: it must have a name, and an id no earlier call had. The
    /// ids are a set: a stream decides how many calls a turn has, and a scan of every earlier
    /// id per call would make a turn of n calls cost n² (measured: `core/benches/calls.rs`).
    pub(crate) fn add(&mut self, call: ToolCall) -> Result<(), Fault> {
        if call.name.is_empty() {
            return Err(Fault::MissingName {
                pointer: call.pointer,
                id: call.id,
            });
        }
        if let Some(id) = &call.id {
            if !self.ids.insert(id.clone()) {
                return Err(Fault::DuplicateId {
                    pointer: call.pointer,
                    id: id.clone(),
                });
            }
        }
        self.ready.push(call);
        Ok(())
    }

    /// Adds a call of a format whose calls all carry an id (every format but Gemini).
    pub(crate) fn add_with_id(&mut self, call: ToolCall) -> Result<(), Fault> {
        if call.id.is_none() && !call.name.is_empty() {
            return Err(Fault::MissingId {
                pointer: call.pointer,
                name: Some(call.name),
            });
        }
        if call.id.is_none() {
            return Err(Fault::MissingName {
                pointer: call.pointer,
                id: None,
            });
        }
        self.add(call)
    }

    /// The calls added since the last take, in order.
    pub(crate) fn take(&mut self) -> Vec<ToolCall> {
        mem::take(&mut self.ready)
    }
}
