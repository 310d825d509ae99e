//! Suggestions for a name no tool answers to: the offered forms closest to it, so the model
//! can retry with a name that works.

use super::Census;

/// How much of a called name is compared: a model that sends a whole paragraph as a tool name
/// costs a bounded amount of work per offered tool.
const MAX_COMPARED_CHARS: usize = 256;

impl Census {
    /// The offered forms closest to `called` (by Levenshtein distance over characters), at most
    /// `limit`, closest first: for an unknown-tool error that helps the model retry.
    ///
    /// ```
    /// let census = toolwire_core::Census::build(["search_web", "read_file", "write_file"], &[]);
    /// assert_eq!(census.closest_offered("serch_web", 1), ["search_web"]);
    /// ```
    pub fn closest_offered(&self, called: &str, limit: usize) -> Vec<&str> {
        let called = match called.char_indices().nth(MAX_COMPARED_CHARS) {
            Some((cut, _)) => &called[..cut],
            None => called,
        };
        let mut scored: Vec<(usize, &str)> = self
            .offered()
            .map(|t| (strsim::levenshtein(called, t.form()), t.form()))
            .collect();
        scored.sort();
        scored.into_iter().take(limit).map(|(_, f)| f).collect()
    }
}
