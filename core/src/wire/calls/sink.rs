//! The calls of one turn as they are found, with the rules every format shares. Policy: a
//! call without a name and a second call with an id the turn already had are faults of the
//! body or stream, not of the call: neither can be answered as the model meant.

use std::collections::HashSet;
use std::mem;

use serde_json::Value;

use super::arguments::{from_value_within, within};
use super::error::Fault;
use super::tool_call::{Arguments, ArgumentsError, ToolCall};

/// The calls found so far, and every id the turn has used.
#[derive(Debug)]
pub(crate) struct CallSink {
    ready: Vec<ToolCall>,
    ids: Ids,
    max_argument_bytes: usize,
    /// Whether an object of arguments within the limit is left in the body, for the caller
    /// that owns the body to move into its call ([`CallSink::take_leaving`]), not copied.
    leave_objects: bool,
    /// Set when the arguments of the call added next were left in the body.
    left_next: bool,
    /// The positions in `ready` of the calls whose arguments were left in the body.
    left: Vec<usize>,
}

impl CallSink {
    pub(crate) fn new(max_argument_bytes: usize) -> CallSink {
        CallSink {
            ready: Vec::new(),
            ids: Ids::Few(Vec::new()),
            max_argument_bytes,
            leave_objects: false,
            left_next: false,
            left: Vec::new(),
        }
    }

    /// A sink that leaves objects of arguments in the body (see `leave_objects`).
    pub(crate) fn leaving_objects(max_argument_bytes: usize) -> CallSink {
        CallSink {
            leave_objects: true,
            ..CallSink::new(max_argument_bytes)
        }
    }

    /// The arguments an already parsed value stands for, within the limit (`from_value_within`);
    /// an object is left in the body, as empty arguments here, when the sink leaves objects.
    pub(crate) fn object_arguments(
        &mut self,
        value: Option<&Value>,
    ) -> Result<Arguments, ArgumentsError> {
        match value {
            Some(object @ Value::Object(_)) if self.leave_objects => {
                within(object, self.max_argument_bytes)?;
                self.left_next = true;
                Ok(Arguments::new())
            }
            _ => from_value_within(value, self.max_argument_bytes),
        }
    }

    /// The limit of one call's arguments text.
    pub(crate) fn limit(&self) -> usize {
        self.max_argument_bytes
    }

    /// Adds a call the provider ended: it must have a name, and an id no earlier call had. The
    /// ids are a set past a few: a stream decides how many calls a turn has, and a scan of every
    /// earlier id per call would make a turn of n calls cost n² (measured:
    /// `core/benches/calls.rs`, `calls_many_ids`).
    pub(crate) fn add(&mut self, call: ToolCall) -> Result<(), Fault> {
        let left = mem::take(&mut self.left_next);
        if call.name.is_empty() {
            return Err(Fault::MissingName {
                pointer: call.pointer,
                id: call.id,
            });
        }
        if let Some(id) = &call.id {
            if !self.ids.insert(id) {
                return Err(Fault::DuplicateId {
                    pointer: call.pointer,
                    id: id.clone(),
                });
            }
        }
        if left {
            self.left.push(self.ready.len());
        }
        self.ready.push(call);
        Ok(())
    }

    /// Adds a call of a format whose calls all carry an id (every format but Gemini).
    pub(crate) fn add_with_id(&mut self, call: ToolCall) -> Result<(), Fault> {
        if call.id.is_none() && !call.name.is_empty() {
            self.left_next = false;
            return Err(Fault::MissingId {
                pointer: call.pointer,
                name: Some(call.name),
            });
        }
        if call.id.is_none() {
            self.left_next = false;
            return Err(Fault::MissingName {
                pointer: call.pointer,
                id: None,
            });
        }
        self.add(call)
    }

    /// The calls added since the last take, in order.
    pub(crate) fn take(&mut self) -> Vec<ToolCall> {
        self.left.clear();
        mem::take(&mut self.ready)
    }

    /// The calls added since the last take, in order, and the positions of those whose
    /// arguments were left in the body.
    pub(crate) fn take_leaving(&mut self) -> (Vec<ToolCall>, Vec<usize>) {
        (mem::take(&mut self.ready), mem::take(&mut self.left))
    }
}

/// The ids a turn has used: a list while it is short (a scan of a few ids costs less than
/// hashing each one and growing a table: measured, `core/benches/calls.rs`), a set past
/// [`Ids::SCANNED`].
#[derive(Debug)]
enum Ids {
    Few(Vec<String>),
    Many(HashSet<String>),
}

impl Ids {
    /// The most ids kept as a list.
    const SCANNED: usize = 16;

    /// Adds `id`; whether it was new.
    fn insert(&mut self, id: &str) -> bool {
        match self {
            Ids::Few(ids) if ids.iter().any(|seen| seen == id) => false,
            Ids::Few(ids) if ids.len() < Ids::SCANNED => {
                ids.push(id.to_owned());
                true
            }
            Ids::Few(ids) => {
                let mut set: HashSet<String> = ids.drain(..).collect();
                set.insert(id.to_owned());
                *self = Ids::Many(set);
                true
            }
            Ids::Many(ids) => !ids.contains(id) && ids.insert(id.to_owned()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Ids;

    /// A repeated id is found among a few ids and among many, across the change of list to set.
    #[test]
    fn a_repeated_id_is_found_few_or_many() {
        let mut ids = Ids::Few(Vec::new());
        for n in 0..40 {
            assert!(ids.insert(&format!("call_{n}")), "{n}");
            for seen in 0..=n {
                assert!(!ids.insert(&format!("call_{seen}")), "{seen} of {n}");
            }
        }
        assert!(matches!(ids, Ids::Many(_)));
    }
}
