//! Suggestions for a name no tool answers to: the offered forms closest to it, so the model
//! can retry with a name that works.

use super::Census;

/// How much of a called name is compared: a model that sends a whole paragraph as a tool name
/// costs a bounded amount of work per offered tool.
const MAX_COMPARED_CHARS: usize = 256;

impl Census {
    /// The offered forms closest to `called`, at most `limit`, closest first: for an
    /// unknown-tool error that helps the model retry.
    ///
    /// Forms that end with `called` come first, then forms that contain it, then the rest; within
    /// each rank, by Levenshtein distance over characters, then by form. A model that calls a
    /// server's tool by its bare name (`echo` for `mcp_everything_echo`) meant the tool whose
    /// form ends with that name, however far the two are by edit distance (issue 17, point 7).
    ///
    /// ```
    /// let census = toolwire_core::Census::build(["search_web", "read_file", "write_file"], &[]);
    /// assert_eq!(census.closest_offered("serch_web", 1), ["search_web"]);
    /// let census = toolwire_core::Census::build(["mcp/everything/echo", "set_stock"], &[]);
    /// assert_eq!(census.closest_offered("echo", 2), ["mcp_everything_echo", "set_stock"]);
    /// ```
    pub fn closest_offered(&self, called: &str, limit: usize) -> Vec<&str> {
        let called = match called.char_indices().nth(MAX_COMPARED_CHARS) {
            Some((cut, _)) => &called[..cut],
            None => called,
        };
        let mut scored: Vec<(u8, usize, &str)> = self
            .offered()
            .map(|t| {
                let form = t.form();
                (rank(called, form), strsim::levenshtein(called, form), form)
            })
            .collect();
        scored.sort();
        scored.into_iter().take(limit).map(|(_, _, f)| f).collect()
    }
}

/// How likely `form` is the tool a model meant by `called`, lower first: 0 when `form` ends with
/// `called` (a bare tool name whose server prefix was left off), 1 when it contains it, 2
/// otherwise. An empty name is contained in every form, so it ranks nothing first.
fn rank(called: &str, form: &str) -> u8 {
    if called.is_empty() {
        2
    } else if form.ends_with(called) {
        0
    } else if form.contains(called) {
        1
    } else {
        2
    }
}
