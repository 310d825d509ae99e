//! The runtime over in-process providers: what a turn builds once and logs once, the tool
//! catalog over many turns with a scripted model, and the catalog search's quality on the
//! corpus.
//!
//! One test binary (one link) with a module per concern.

mod catalog_turns;
mod history_review;
mod history_turns;
mod left_out;
mod replay_after_change;
mod replay_kept;
mod search_quality;
mod turns;
