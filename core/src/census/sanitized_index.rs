//! The spec's `build_sanitized_index`, as a value: the healing map, the collisions and the
//! tools no request can carry, for one set of real names (no taken names).

use std::collections::BTreeMap;

use super::{Census, LeftOutReason};

/// The spec's `build_sanitized_index` over one set of real names (no taken names).
///
/// ```
/// let index = toolwire_core::census::build_sanitized_index(["mcp/server/echo", "mcp/a/b", "mcp/a_b", "mcp_a/b"]);
/// assert_eq!(index.healing["mcp_server_echo"], "mcp/server/echo");
/// assert_eq!(index.collisions["mcp_a_b"], ["mcp/a/b", "mcp/a_b", "mcp_a/b"]);
/// assert_eq!(index.left_out.len(), 3);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SanitizedIndex {
    /// Form → real name, only where exactly one tool has that form and its real name differs.
    pub healing: BTreeMap<String, String>,
    /// Each shared form → every real name that travels as it, sorted (the one that IS the form
    /// included).
    pub collisions: BTreeMap<String, Vec<String>>,
    /// Each real name no request can carry → the form it shares.
    pub left_out: BTreeMap<String, String>,
}

/// Builds the [`SanitizedIndex`] of `names`: the healing map, the collisions and `left_out`.
///
/// ```
/// let index = toolwire_core::census::build_sanitized_index(["mcp/x", "mcp_x", "echo"]);
/// assert!(index.healing.is_empty());
/// assert_eq!(index.left_out["mcp/x"], "mcp_x");
/// ```
pub fn build_sanitized_index<I, S>(names: I) -> SanitizedIndex
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let census = Census::build(names, &[]);
    SanitizedIndex {
        healing: census
            .healing()
            .into_iter()
            .map(|(f, n)| (f.to_owned(), n.to_owned()))
            .collect(),
        left_out: census
            .left_out()
            .filter(|t| {
                matches!(
                    t.left_out_reason(),
                    Some(
                        LeftOutReason::SharesForm { .. } | LeftOutReason::FormIsAnotherTool { .. }
                    )
                )
            })
            .map(|t| (t.name().to_owned(), t.form().to_owned()))
            .collect(),
        collisions: census.collisions,
    }
}
