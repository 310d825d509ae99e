//! A tool set seen as distinct tools, as every output of the command reports it: a name given
//! more than once is one tool, judged at its first occurrence (the census leaves each later
//! occurrence out as a duplicate), and reported under duplicates and nowhere else.

use toolwire_core::census::{CensusTool, LeftOutReason};

/// Whether `tool` is a later occurrence of a name given before: one tool, judged at its first
/// occurrence, so it is reported under duplicates and nowhere else.
pub fn is_repeat(tool: &CensusTool) -> bool {
    matches!(
        tool.left_out_reason(),
        Some(LeftOutReason::DuplicateName { .. })
    )
}
