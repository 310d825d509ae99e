//! Hop 4 of the wire (`wire::calls`): the client tool calls of the recorded provider bodies and
//! streams in `fixtures/provider-wire/` (validated against the providers' SDK types by its
//! `validate.py`), what a stream yields and when, any chunking of its bytes, and bad input.
//!
//! One test binary (one link) with a module per concern.

mod argument_limit;
mod bad_input;
mod bodies;
mod chat_machine;
mod chunking;
mod converse_gemini;
mod fixtures;
mod history_names;
mod machines;
mod namespaces;
mod not_a_stream;
mod oracle;
mod pruned_parse;
mod replay;
mod request_namespaces;
mod responses_items;
mod scripted_turns;
mod stopped_blocks;
mod streamed_replay;
mod streams;
